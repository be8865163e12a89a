/* ilp/mip/heur.c: the incumbents of the search: rounding of node LP
 * points, fractional diving, RENS/RINS sub-MIPs (submip.c solves them),
 * and the incumbent's last touches (polish, snap to bounds).  None of them
 * is part of the tree or its certificate: a point they find is checked
 * against the user's rows (twill_bb_feasible) like any other. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define DIVE_FREQ 64       /* nodes between dives */
#define SUB_FREQ 200       /* nodes between RINS sub-MIPs (doubled after each failure) */
#define SUB_NODES 300      /* node limit of a sub-MIP */
#define SUB_RINS_FIX 0.3   /* share of the integers RINS must fix */
#define SUB_RENS_FIX 0.5   /* share RENS must fix (integral at the root) */

static int add_hist(twill_ilp *m, double obj, long at) {
  if (m->nhist == m->hcap) {
    int nc = m->hcap ? 2 * m->hcap : 16;
    double *a = realloc(m->hobj, (size_t)nc * sizeof *a);
    if (!a) return 0;
    m->hobj = a;
    long *b = realloc(m->hnode, (size_t)nc * sizeof *b);
    if (!b) return 0;
    m->hnode = b;
    m->hcap = nc;
  }
  m->hobj[m->nhist] = obj;
  m->hnode[m->nhist++] = at;
  return 1;
}

/* Kept in m->sol, its objective appended to the history. */
int twill_bb_new_incumbent(twill_ilp *m, const double *x, double z, double sgn, long at) {
  free(m->sol);
  m->sol = malloc((size_t)(m->n ? m->n : 1) * sizeof(double));
  if (!m->sol) return 0;
  memcpy(m->sol, x, (size_t)m->n * sizeof(double));
  m->has_sol = 1;
  return add_hist(m, sgn * z + m->c0, at);
}


/* Is x (n structurals) feasible for rows and bounds within tol?  act gets
 * the row activities.  The row tolerance is 1e-6 plus 1e-9 relative: a
 * rounded point that misses a row with a large right-hand side by 1e-6
 * relative could otherwise beat the true optimum (mas76, row c2, 0.12). */
int twill_bb_feasible(const twill_ilp *m, int mr, const int *cbeg, const int *cidx,
                      const double *cval, const double *x, double *act) {
  for (int j = 0; j < m->n; j++) {
    double t = 1e-6 * (1 + fabs(x[j]));
    if (x[j] < m->vlb[j] - t || x[j] > m->vub[j] + t) return 0;
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS && fabs(x[j] - round(x[j])) > INT_TOL) return 0;
  }
  memset(act, 0, (size_t)mr * sizeof(double));
  for (int j = 0; j < m->n; j++)
    for (int p = cbeg[j]; p < cbeg[j + 1]; p++) act[cidx[p]] += cval[p] * x[j];
  for (int i = 0; i < mr; i++) {
    double t = 1e-6 + 1e-9 * fabs(act[i]); /* rounding must not buy objective */
    if (act[i] < m->rlo[i] - t || act[i] > m->rhi[i] + t) return 0;
  }
  return 1;
}

/* Fractional diving (an incumbent heuristic, no part of the tree or its
 * certificate): from the LP optimum x of the node just branched on, bound
 * the integer variable that is least fractional (ties: lowest index) to the
 * integer it rounds to, re-solve with the dual simplex, and repeat until
 * the LP solution is integral (a candidate incumbent, checked against the
 * original rows), infeasible, no better than the cutoff, or the dive's
 * iteration budget is spent.  Every step also tries simple rounding.  The
 * LP's bounds and basis are left changed: the next node installs its own.
 * Returns 1 and the point in xr (objective *zr) when it found one better
 * than cutoff, 0 otherwise, -1 when out of memory. */
static int dive(const twill_ilp *m, lp_solver *lp, const int *cbeg, const int *cidx,
                const double *cval, const double *c, const double *x0, double cutoff,
                double deadline, long budget, double *xd, double *xr, double *act,
                double *zr) {
  int n = m->n;
  long it0 = twill_lps_iterations(lp);
  memcpy(xd, x0, (size_t)n * sizeof(double));
  int found = 0;
  double best = cutoff;
  for (int step = 0; step <= n; step++) {
    int bj = -1;
    double bf = 2;
    for (int j = 0; j < n; j++) {
      if (m->vtype[j] == TWILL_ILP_CONTINUOUS) continue;
      double v = xd[j], f = v - floor(v);
      double d = f < 1 - f ? f : 1 - f;
      if (d < INT_TOL) continue;
      if (d < bf) { bf = d; bj = j; }
    }
    for (int j = 0; j < n; j++)
      xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? xd[j] : round(xd[j]);
    if (twill_bb_feasible(m, m->m - m->ncut, cbeg, cidx, cval, xr, act)) {
      double z = 0;
      for (int j = 0; j < n; j++) z += c[j] * xr[j];
      if (z < best - 1e-9 * (1 + fabs(z))) {
        best = z;
        *zr = z;
        found = 1;
        return 1;
      }
    }
    if (bj < 0) break;
    if (twill_lps_iterations(lp) - it0 > budget) break;
    double l, u, v = xd[bj];
    twill_lps_get_bounds(lp, bj, &l, &u);
    int down = v - floor(v) < 0.5, st = LPS_ERROR;
    for (int tries = 0; tries < 2; tries++, down = !down) {
      /* one backtrack: the other side when the first is infeasible */
      twill_lps_set_bounds(lp, bj, down ? l : ceil(v), down ? floor(v) : u);
      st = twill_lps_solve(lp, deadline);
      if (st != LPS_INFEASIBLE) break;
    }
    if (st != LPS_OPTIMAL) break;
    if (twill_lps_obj(lp) >= cutoff) break;
    double *full = malloc(((size_t)n + (size_t)m->m + 1) * sizeof(double));
    if (!full) return -1;
    twill_lps_get_x(lp, full);
    memcpy(xd, full, (size_t)n * sizeof(double));
    free(full);
  }
  return found;
}

void twill_bb_heur_init(search *S) {
  S->next_sub = 0;
  S->sub_gap = SUB_FREQ;
  S->sub_iters = 0;
  S->dive_iters = 0;
}

/* Rounding: every integer variable to the nearest integer, then all up,
 * then all down (fixed charges: a fractional switch up).  A new incumbent
 * moves the cutoff, which may close the node at once. */
int twill_bb_round(search *S) {
  twill_ilp *m = S->m;
  const double *x = S->x, *c = S->c;
  double *xr = S->xr;
  int n = S->n;
  for (int mode = 0; mode < 3; mode++) {
    for (int j = 0; j < n; j++)
      xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? x[j]
              : mode == 0 ? round(x[j]) : mode == 1 ? ceil(x[j] - INT_TOL) : floor(x[j] + INT_TOL);
    if (!twill_bb_feasible(m, m->m - m->ncut, S->cbeg, S->cidx, S->cval, xr, S->act)) continue;
    double zr = 0;
    for (int j = 0; j < n; j++) zr += c[j] * xr[j];
    if (!(zr < S->inc - 1e-9 * (1 + fabs(zr)))) continue;
    S->inc = zr;
    if (!twill_bb_new_incumbent(m, xr, S->inc, S->sgn, S->nodes)) return -1;
    S->cutoff = search_cutoff(S);
    if (S->z >= S->cutoff) return 1;
  }
  return 0;
}

/* At the root, then every DIVE_FREQ nodes, within a share of the LP
 * iterations so far (all deterministic). */
int twill_bb_dive(search *S) {
  if (!(S->nodes == 1 || S->nodes % DIVE_FREQ == 0)) return 0;
  lp_solver *lp = S->lp;
  long budget = 500 + twill_lps_iterations(lp) / 10 - S->dive_iters;
  if (budget <= 0) return 0;
  long i0 = twill_lps_iterations(lp);
  double zd;
  int dv = dive(S->m, lp, S->cbeg, S->cidx, S->cval, S->c, S->x, S->cutoff, S->deadline, budget,
                S->xd, S->xdr, S->act, &zd);
  S->dive_iters += twill_lps_iterations(lp) - i0;
  if (dv < 0) return -1;
  if (dv > 0 && zd < S->inc) {
    S->inc = zd;
    if (!twill_bb_new_incumbent(S->m, S->xdr, S->inc, S->sgn, S->nodes)) return -1;
  }
  return 0;
}

/* Sub-MIPs: RENS at the root without an incumbent (the integers integral
 * in the LP fixed, the others to their floor and ceiling), RINS with one
 * (the integers where the LP agrees with the incumbent fixed), at the root
 * and then at growing intervals while they fail, their LP iterations
 * within a fifth of the search's (deterministic counts).  A sub-MIP of its
 * own has none. */
int twill_bb_submip(search *S) {
  twill_ilp *m = S->m;
  const double *x = S->x;
  double *slb = S->slb, *sub = S->sub, inc = S->inc;
  int n = S->n;
  if (m->submip || !(S->nodes == 1 || (inc < HUGE_VAL && S->nodes >= S->next_sub &&
                                       S->sub_iters <= twill_lps_iterations(S->lp) / 5 + 5000)))
    return 0;
  int rins = inc < HUGE_VAL, nfix = 0;
  for (int j = 0; j < n; j++) {
    slb[j] = S->lb[j];
    sub[j] = S->ub[j];
    if (m->vtype[j] == TWILL_ILP_CONTINUOUS) continue;
    double r = round(x[j]);
    if (rins ? fabs(x[j] - m->sol[j]) < INT_TOL : fabs(x[j] - r) < INT_TOL) {
      slb[j] = sub[j] = rins ? m->sol[j] : r;
      nfix++;
    } else if (!rins) {
      slb[j] = floor(x[j]);
      sub[j] = ceil(x[j]);
    }
  }
  int found = 0;
  if (nfix >= (rins ? SUB_RINS_FIX : SUB_RENS_FIX) * S->nint) {
    double cut_hi = !rins ? HUGE_VAL : S->objint ? inc - 1 + 1e-6 : inc - 1e-6 * (1 + fabs(inc));
    int r = twill_ilp_submip(m, slb, sub, cut_hi, SUB_NODES, S->deadline, S->xd, &S->sub_iters);
    if (r < 0) return -1;
    if (r > 0 && twill_bb_feasible(m, m->m - m->ncut, S->cbeg, S->cidx, S->cval, S->xd, S->act)) {
      double zs = 0;
      for (int j = 0; j < n; j++) zs += S->c[j] * S->xd[j];
      if (zs < S->inc) {
        S->inc = zs;
        if (!twill_bb_new_incumbent(m, S->xd, S->inc, S->sgn, S->nodes)) return -1;
        found = 1;
      }
    }
  }
  S->sub_gap = found ? SUB_FREQ : 2 * S->sub_gap;
  S->next_sub = S->nodes + S->sub_gap;
  return 0;
}

/* Polish the incumbent: with its integer variables fixed, re-solve the LP
 * of the user's rows (no cuts) for the continuous ones.  The incumbent's
 * integer values are rounded from an LP point within INT_TOL, and with
 * large coefficients that rounding moves a row's activity by more than
 * its tolerance (khb05250 after the cuts: 1.5e-6 relative); the re-solve
 * puts the continuous part back on the rows.  Kept when it is feasible
 * and at least as good, or feasible where the incumbent is not.  Returns
 * 0, -1 when out of memory. */
int twill_bb_polish(twill_ilp *m, const double *c) {
  int n = m->n, mr = m->m - m->ncut, ncont = 0;
  for (int j = 0; j < n; j++) ncont += m->vtype[j] == TWILL_ILP_CONTINUOUS;
  /* (an LP's solution is its own LP optimum: nothing to polish) */
  if (!m->has_sol || !ncont || ncont == n || !mr) return 0;
  int *cbeg = NULL, *cidx = NULL, ret = -1;
  double *cval = NULL;
  double *lb = calloc((size_t)(n + mr) + 1, sizeof(double));
  double *ub = calloc((size_t)(n + mr) + 1, sizeof(double));
  double *x = calloc((size_t)(n + mr) + 1, sizeof(double));
  double *act = calloc((size_t)mr + 1, sizeof(double));
  lp_solver *lp = NULL;
  int saved = m->m, savednz = m->nz;
  m->m = mr; /* the CSC of the user's rows only */
  if (m->ncut) m->nz = m->nz_before_cuts;
  int okcsc = twill_ilp_build_csc(m, &cbeg, &cidx, &cval);
  m->m = saved;
  m->nz = savednz;
  if (!lb || !ub || !x || !act || !okcsc) goto done;
  for (int j = 0; j < n; j++) {
    int isint = m->vtype[j] != TWILL_ILP_CONTINUOUS;
    lb[j] = isint ? m->sol[j] : m->vlb[j];
    ub[j] = isint ? m->sol[j] : m->vub[j];
  }
  for (int i = 0; i < mr; i++) {
    lb[n + i] = m->rlo[i];
    ub[n + i] = m->rhi[i];
  }
  lp_input in = {mr, n, cbeg, cidx, cval, c, lb, ub};
  lp = twill_lps_new(&in);
  if (!lp) goto done;
  twill_lps_set_cancel(lp, m->cancel);
  twill_lps_set_pricing(lp, (int)m->opt.pricing);
  ret = 0;
  if (twill_lps_solve(lp, 0) != LPS_OPTIMAL) goto done;
  twill_lps_get_x(lp, x);
  double zold = 0, znew = 0;
  for (int j = 0; j < n; j++) {
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) x[j] = m->sol[j];
    zold += c[j] * m->sol[j];
    znew += c[j] * x[j];
  }
  /* a worse value is kept only when the incumbent misses a row: an LP
   * point whose binaries round from 1e-7 to 0 can carry 1e-5 of flow on a
   * big-M row (150 y), and that point is not a solution */
  int okold = twill_bb_feasible(m, mr, cbeg, cidx, cval, m->sol, act);
  if (okold && znew > zold + 1e-9 * (1 + fabs(zold))) goto done;
  if (!twill_bb_feasible(m, mr, cbeg, cidx, cval, x, act)) goto done;
  memcpy(m->sol, x, (size_t)n * sizeof(double));
done:
  twill_lps_free(lp);
  free(cbeg); free(cidx); free(cval); free(lb); free(ub); free(x); free(act);
  return ret;
}

/* The solution's values within 1e-9 (relative) outside a bound, as an LP
 * leaves them (modglob: -2.8e-14 on a flow with lower bound 0), put on the
 * bound, and integer values made integers: the certificate's SOL must
 * satisfy the bounds exactly. */
void twill_bb_snap_to_bounds(twill_ilp *m) {
  for (int j = 0; j < m->n; j++) {
    double *v = &m->sol[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) *v = round(*v);
    if (*v < m->vlb[j] && *v >= m->vlb[j] - 1e-9 * (1 + fabs(m->vlb[j]))) *v = m->vlb[j];
    if (*v > m->vub[j] && *v <= m->vub[j] + 1e-9 * (1 + fabs(m->vub[j]))) *v = m->vub[j];
    if (*v == 0) *v = 0; /* no -0 */
  }
}

