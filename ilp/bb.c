/* ilp/bb.c: LP-based branch and bound.
 *
 * Internally the problem is  min c'x  (c = -obj when maximizing).
 * Node selection: best bound (smallest parent LP bound; ties: deeper, then
 * older), with depth-first dives: after branching, the child on the side the
 * LP value rounds to is processed next, its sibling goes to the open list.
 * Each node re-solves the LP from its parent's basis (dual simplex).
 * Branching: pseudo-costs (product rule) once both directions of a variable
 * have been observed, most fractional otherwise.  Reduced-cost fixing
 * (with a margin in certificate mode): at an LP optimum z with incumbent
 * U, a nonbasic integer x_j at its lower bound l with reduced cost d_j > 0
 * satisfies x_j <= l + floor((U - z)/d_j) in every better solution (symmetric at the
 * upper bound).  Incumbents: rounding of each node's LP solution, the
 * depth-first dives of the tree, fractional diving (dive(), at the root
 * and every DIVE_FREQ nodes, off the tree), and sub-MIPs (submip.c): RENS
 * at the root, RINS with an incumbent.  Pruning: LP bound >= U - tol, or >= U - 1 + tol when the objective
 * is integral (integer coefficients on integer variables only).
 * Everything is deterministic; the time limit only stops the search.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp.h"
#include "model.h"

#define INT_TOL 1e-6
#define DIVE_FREQ 64
#define SUB_FREQ 200       /* nodes between RINS sub-MIPs (doubled after each failure) */
#define SUB_NODES 300      /* node limit of a sub-MIP */
#define SUB_RINS_FIX 0.3   /* share of the integers RINS must fix */
#define SUB_RENS_FIX 0.5   /* share RENS must fix (integral at the root) */
#define FIX_TERMS 20000000L /* certified reduced-cost fixings: their terms in all */
/* Certified fixings of a mixed model only down to this depth: at every
 * depth they doubled modglob's certificate (447 to 895 MB; vpm2 301 to
 * 670 MB, pk1 333 to 715 MB) for no fewer nodes, while bell3a and fiber
 * gain most from those near the root (bell3a: 56481 nodes without, 41913
 * to depth 10, 22691 at every depth; fiber 1175, 267).  With 10, the
 * certificates of modglob, vpm2 and pk1 stay within 15% of none. */
#define FIX_DEPTH_MIXED 10

typedef struct node {
  int rec;         /* tree record */
  int depth;
  double bound;    /* LP bound of the parent (minimize form) */
  double est;      /* estimated objective of its best integer solution */
  double pfrac;    /* distance the branching variable had to move */
  int nchg;
  int *cvar;       /* cumulative bound changes from the root */
  double *clb, *cub;
  signed char *basis;
  int propagated;  /* domain propagation done (its changes are in cvar) */
} node;

static void node_free(node *nd) {
  if (!nd) return;
  free(nd->cvar); free(nd->clb); free(nd->cub); free(nd->basis);
  free(nd);
}

static int add_rec(twill_ilp *m, int parent, int var, int dir, double val) {
  if (m->nrec == m->reccap) {
    int nc = m->reccap ? 2 * m->reccap : 64;
    bb_rec *r = realloc(m->rec, (size_t)nc * sizeof *r);
    if (!r) return -1;
    m->rec = r;
    m->reccap = nc;
  }
  bb_rec *r = &m->rec[m->nrec];
  r->parent = parent;
  r->var = var;
  r->dir = dir;
  r->val = val;
  r->child[0] = r->child[1] = -1;
  r->proof = -1;
  r->farkas = 0;
  r->y = NULL;
  r->nprop = 0;
  r->prop = NULL;
  r->crow = -1;
  r->cside = 0;
  if (parent >= 0) m->rec[parent].child[dir] = m->nrec;
  return m->nrec++;
}

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

/* certify: keep the root LP's basis in model order (rows left out of the
 * LP count as basic) for the writer's exact solves; on failure none. */
static void save_root_basis(twill_ilp *m, lp_solver *lp, const int *lprow, int mlp) {
  int n = m->n, N = n + m->m;
  signed char *lpst = malloc((size_t)(n + mlp) + 1);
  free(m->root_basis);
  m->root_basis = calloc((size_t)N + 1, 1);
  if (!lpst || !m->root_basis) {
    free(lpst);
    free(m->root_basis);
    m->root_basis = NULL;
    return;
  }
  twill_lps_get_basis(lp, lpst);
  memcpy(m->root_basis, lpst, (size_t)n);
  for (int k = 0; k < mlp; k++) m->root_basis[n + lprow[k]] = lpst[n + k];
  free(lpst);
}

/* Is x (n structurals) feasible for rows and bounds within tol?  act gets
 * the row activities.  The row tolerance is 1e-6 plus 1e-9 relative: a
 * rounded point that misses a row with a large right-hand side by 1e-6
 * relative could otherwise beat the true optimum (mas76, row c2, 0.12). */
static int feasible(const twill_ilp *m, int mr, const int *cbeg, const int *cidx,
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
    if (feasible(m, m->m - m->ncut, cbeg, cidx, cval, xr, act)) {
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

/* Append the bounds [l, u] of x_j to the node's changes. */
static int push_change(node *nd, int j, double l, double u) {
  int *cv = realloc(nd->cvar, (size_t)(nd->nchg + 1) * sizeof(int));
  if (!cv) return 0;
  nd->cvar = cv;
  double *cl = realloc(nd->clb, (size_t)(nd->nchg + 1) * sizeof(double));
  if (!cl) return 0;
  nd->clb = cl;
  double *cu = realloc(nd->cub, (size_t)(nd->nchg + 1) * sizeof(double));
  if (!cu) return 0;
  nd->cub = cu;
  nd->cvar[nd->nchg] = j;
  nd->clb[nd->nchg] = l;
  nd->cub[nd->nchg++] = u;
  return 1;
}

/* Domain propagation (activity-based bound tightening) on the rows, for
 * integer variables only: with every other variable of row i at the bound
 * that minimizes the activity, sum_k a_ik x_k <= hi_i gives
 * a_ij x_j <= hi_i - minact_{-j}, rounded down (up for a_ij < 0) to an
 * integer, with a small slack on the safe side so that the exact
 * arithmetic of the certificate (see bb_prop in model.h) proves at least
 * the bound used here; the >= side likewise with the maximum activity.
 * Rows are taken from a queue (all rows at the root, the rows of the
 * branching variable below), a row whose variable changed comes back,
 * within a work limit.  The node's bounds (nl, nu), its change list, the
 * LP and (certify) the tree record are updated.  Returns 0, 1 when a row
 * cannot be met (*crow, *cside), -1 when out of memory. */
typedef struct csr {
  int *beg, *col;      /* the rows */
  double *val;
  const int *cbeg, *cidx; /* the columns (the model's CSC) */
  int *queue;
  char *inq;
} csr;

static int propagate(twill_ilp *m, const csr *R, lp_solver *lp, node *cur, int recidx,
                     double *nl, double *nu, char *mark, int *inst, int *ninst,
                     int *crow, int *cside) {
  int mr = m->m, qh = 0, qn = 0;
  bb_rec *rec = &m->rec[recidx];
  if (rec->var < 0) {
    for (int i = 0; i < mr; i++) { R->queue[qn++] = i; R->inq[i] = 1; }
  } else {
    for (int p = R->cbeg[rec->var]; p < R->cbeg[rec->var + 1]; p++) {
      int i = R->cidx[p];
      if (!R->inq[i]) { R->queue[qn++] = i; R->inq[i] = 1; }
    }
  }
  long work = 0, limit = 4L * R->beg[mr] + 1000;
  int ret = 0;
  while (qn > 0 && work < limit) {
    int i = R->queue[qh];
    qh = (qh + 1) % mr;
    qn--;
    R->inq[i] = 0;
    int b = R->beg[i], e = R->beg[i + 1];
    work += e - b;
    if (b == e) continue; /* an empty row is the LP's business */
    for (int side = 0; side < 2; side++) {
      double rhs = side ? m->rlo[i] : m->rhi[i];
      if (isinf(rhs)) continue;
      /* side 0: minimum activity against hi; side 1: maximum against lo,
       * written as the minimum of the negated row against -lo */
      double sg = side ? -1.0 : 1.0, act = 0, mag = fabs(rhs);
      int ninf = 0, infk = -1;
      for (int p = b; p < e; p++) {
        double a = sg * R->val[p];
        int k = R->col[p];
        double bd = a > 0 ? nl[k] : nu[k];
        if (isinf(bd)) { ninf++; infk = k; continue; }
        act += a * bd;
        mag += fabs(a * bd);
      }
      double r = sg * rhs, tol = 1e-6 + 1e-9 * mag;
      if (ninf == 0 && act > r + tol) {
        *crow = i;
        *cside = side;
        return 1;
      }
      if (ninf > 1) continue;
      for (int p = b; p < e; p++) {
        int k = R->col[p];
        double a = sg * R->val[p];
        if (m->vtype[k] == TWILL_ILP_CONTINUOUS || a == 0) continue;
        double bd = a > 0 ? nl[k] : nu[k];
        if (ninf == 1 && k != infk) continue;
        double rest = isinf(bd) ? act : act - a * bd;
        double t = (r - rest) / a, slack = 1e-6 + 1e-9 * mag / fabs(a);
        if (fabs(t) > 1e9) continue;
        double l = nl[k], u = nu[k];
        if (a > 0) {
          double v = floor(t + slack);
          if (v >= u) continue;
          u = v;
        } else {
          double v = ceil(t - slack);
          if (v <= l) continue;
          l = v;
        }
        if (l > u) {
          *crow = i;
          *cside = side;
          return 1;
        }
        if (m->certify) {
          bb_prop *pp = realloc(rec->prop, (size_t)(rec->nprop + 1) * sizeof *pp);
          if (!pp) return -1;
          rec->prop = pp;
          pp[rec->nprop].var = k;
          pp[rec->nprop].row = i;
          pp[rec->nprop].up = a > 0;
          pp[rec->nprop].side = (signed char)side;
          pp[rec->nprop++].val = a > 0 ? u : l;
        }
        nl[k] = l;
        nu[k] = u;
        if (!push_change(cur, k, l, u)) return -1;
        twill_lps_set_bounds(lp, k, l, u);
        if (!mark[k]) { mark[k] = 1; inst[(*ninst)++] = k; }
        /* the bound moved: this row's activities are stale, and the rows
         * of x_k may tighten further */
        for (int pq = R->cbeg[k]; pq < R->cbeg[k + 1]; pq++) {
          int q = R->cidx[pq];
          if (R->inq[q]) continue;
          R->queue[(qh + qn) % mr] = q;
          qn++;
          R->inq[q] = 1;
        }
        goto next_row;
      }
    }
  next_row:;
  }
  while (qn > 0) {
    R->inq[R->queue[qh]] = 0;
    qh = (qh + 1) % mr;
    qn--;
  }
  return ret;
}

/* The open list: a binary heap, best first: smallest bound, then the
 * smallest estimate (see est), then deeper, then older (a total order, so the search is deterministic). */
static int node_before(const node *a, const node *b) {
  if (a->bound != b->bound) return a->bound < b->bound;
  if (a->est != b->est) return a->est < b->est;
  if (a->depth != b->depth) return a->depth > b->depth;
  return a->rec < b->rec;
}

static void heap_push(node **h, int *n, node *x) {
  int i = (*n)++;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (!node_before(x, h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = x;
}

static node *heap_pop(node **h, int *n) {
  node *top = h[0], *x = h[--*n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && node_before(h[c + 1], h[c])) c++;
    if (!node_before(h[c], x)) break;
    h[i] = h[c];
    i = c;
  }
  if (*n > 0) h[i] = x;
  return top;
}

/* Branching: the candidate with the best product score
 * max(D-, eps) max(D+, eps) of its estimated objective gains D- (down) and
 * D+ (up).  The gains are pseudo-costs (the average per unit of movement
 * seen so far, times the distance to move; the average over all variables
 * while a variable has none) once a variable has REL observations in both
 * directions; before that (reliability branching), up to SB_CAND of the
 * most promising unreliable candidates get strong branching: SB_ITERS dual
 * simplex iterations on each side from this node's basis, which gives the
 * gain (a dual bound when the iteration limit stops it) and a pseudo-cost
 * observation.  A side that is infeasible or reaches the cutoff ends the
 * search: that variable is taken at once (one child closes right away).
 * Strong branching spends at most about half the LP iterations of the
 * search.  It only chooses the variable: the tree and its certificate are
 * as before.  The LP is left with this node's bounds and basis (basis).
 * Returns the variable, or -2 when out of memory. */
#define REL 4
#define SB_CAND 8
#define SB_ITERS 40
/* The mean observed pseudo-cost per unit change, down (d = 0) and up
 * (d = 1), over the variables with observations; 1 where there are none:
 * the stand-in for a variable not yet branched on. */
static void pseudo_cost_means(int n, const double *pc, const int *pcn, double avg[2]) {
  for (int d = 0; d < 2; d++) {
    double sum = 0;
    int cnt = 0;
    for (int j = 0; j < n; j++)
      if (pcn[2 * j + d]) {
        sum += pc[2 * j + d] / pcn[2 * j + d];
        cnt++;
      }
    avg[d] = cnt && sum > 0 ? sum / cnt : 1;
  }
}

static int choose_branch(const twill_ilp *m, lp_solver *lp, const double *x, double z,
                         double cutoff, double deadline, int *cand, int ncand, double *pc,
                         int *pcn, const signed char *basis, double *score, long *sb_iters) {
  int n = m->n;
  double avg[2];
  pseudo_cost_means(n, pc, pcn, avg);
  int bj = -1, nsb = 0;
  double bscore = -1;
  for (int k = 0; k < ncand; k++) {
    int j = cand[k];
    double f = x[j] - floor(x[j]);
    double dn = (pcn[2 * j] ? pc[2 * j] / pcn[2 * j] : avg[0]) * f;
    double up = (pcn[2 * j + 1] ? pc[2 * j + 1] / pcn[2 * j + 1] : avg[1]) * (1 - f);
    score[k] = fmax(dn, 1e-6) * fmax(up, 1e-6);
    if (pcn[2 * j] < REL || pcn[2 * j + 1] < REL) nsb++;
  }
  long budget = twill_lps_iterations(lp) / 2 + 20000 - *sb_iters;
  if (nsb && budget > 0) {
    /* the unreliable candidates, best pseudo-cost score first (ties: lower
     * index), strong branched in that order */
    int *order = malloc((size_t)ncand * sizeof(int));
    if (!order) return -2;
    int no = 0;
    for (int k = 0; k < ncand; k++) {
      int j = cand[k];
      if (pcn[2 * j] >= REL && pcn[2 * j + 1] >= REL) continue;
      int t = no++;
      while (t > 0 && score[order[t - 1]] < score[k]) { order[t] = order[t - 1]; t--; }
      order[t] = k;
    }
    if (no > SB_CAND) no = SB_CAND;
    for (int t = 0; t < no && bj < 0; t++) {
      int k = order[t], j = cand[k];
      double v = x[j], f = v - floor(v), l, u, gain[2];
      twill_lps_get_bounds(lp, j, &l, &u);
      int closed = 0;
      for (int d = 0; d < 2; d++) {
        long i0 = twill_lps_iterations(lp);
        twill_lps_set_bounds(lp, j, d ? ceil(v) : l, d ? u : floor(v));
        int st = twill_lps_solve_dual_limit(lp, deadline, SB_ITERS);
        *sb_iters += twill_lps_iterations(lp) - i0;
        double zc = st == LPS_INFEASIBLE ? HUGE_VAL
                    : (st == LPS_OPTIMAL || st == LPS_LIMIT) ? twill_lps_obj(lp) : z;
        twill_lps_set_bounds(lp, j, l, u);
        twill_lps_set_basis(lp, basis);
        if (zc >= cutoff) closed = 1;
        gain[d] = zc > z ? zc - z : 0;
        if (st == LPS_OPTIMAL || (st == LPS_LIMIT && zc < HUGE_VAL)) {
          /* a stopped dual gives only a lower estimate: count it when it
           * says more than the pseudo-cost would */
          pc[2 * j + d] += gain[d] / (d ? 1 - f : f);
          pcn[2 * j + d]++;
        }
      }
      if (closed) { bj = j; break; }
      score[k] = fmax(gain[0], 1e-6) * fmax(gain[1], 1e-6);
    }
    free(order);
    if (bj >= 0) return bj;
  }
  for (int k = 0; k < ncand; k++)
    if (score[k] > bscore) { bscore = score[k]; bj = cand[k]; }
  return bj;
}

/* Polish the incumbent: with its integer variables fixed, re-solve the LP
 * of the user's rows (no cuts) for the continuous ones.  The incumbent's
 * integer values are rounded from an LP point within INT_TOL, and with
 * large coefficients that rounding moves a row's activity by more than
 * its tolerance (khb05250 after the cuts: 1.5e-6 relative); the re-solve
 * puts the continuous part back on the rows.  Kept when it is feasible
 * and at least as good, or feasible where the incumbent is not.  Returns
 * 0, -1 when out of memory. */
static int polish(twill_ilp *m, const double *c) {
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
  int okold = feasible(m, mr, cbeg, cidx, cval, m->sol, act);
  if (okold && znew > zold + 1e-9 * (1 + fabs(zold))) goto done;
  if (!feasible(m, mr, cbeg, cidx, cval, x, act)) goto done;
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
static void snap_to_bounds(twill_ilp *m) {
  for (int j = 0; j < m->n; j++) {
    double *v = &m->sol[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) *v = round(*v);
    if (*v < m->vlb[j] && *v >= m->vlb[j] - 1e-9 * (1 + fabs(m->vlb[j]))) *v = m->vlb[j];
    if (*v > m->vub[j] && *v <= m->vub[j] + 1e-9 * (1 + fabs(m->vub[j]))) *v = m->vub[j];
    if (*v == 0) *v = 0; /* no -0 */
  }
}

/* A new incumbent x (n values) of value z (min form): kept in m->sol, its
 * objective appended to the history.  Returns 0 when out of memory. */
static int new_incumbent(twill_ilp *m, const double *x, double z, double sgn, long at) {
  free(m->sol);
  m->sol = malloc((size_t)(m->n ? m->n : 1) * sizeof(double));
  if (!m->sol) return 0;
  memcpy(m->sol, x, (size_t)m->n * sizeof(double));
  m->has_sol = 1;
  return add_hist(m, sgn * z + m->c0, at);
}

twill_ilp_status twill_ilp_branch_and_bound(twill_ilp *m) {
  double t0 = twill_lps_clock();
  double deadline = m->time_limit > 0 ? t0 + m->time_limit : 0;
  /* Gomory cuts first: they become rows of the model for the search */
  signed char *rootbasis = NULL;
  if (twill_ilp_root_cuts(m, deadline, &rootbasis) < 0) {
    m->stats.seconds = twill_lps_clock() - t0;
    return TWILL_ILP_ERROR;
  }
  int n = m->n, mr = m->m, N = n + mr, mr0 = mr - m->ncut, mlp = 0, Nlp = N;
  int *lprow = NULL, *lpcbeg = NULL, *lpcidx = NULL;
  double *lpcval = NULL, *lpbnd = NULL, *ylp = NULL;
  int *cbeg = NULL, *cidx = NULL;
  double *cval = NULL;
  twill_ilp_status result = TWILL_ILP_ERROR;
  double sgn = m->maximize ? -1.0 : 1.0;
  double *c = calloc((size_t)n + 1, sizeof(double));
  double *lb = calloc((size_t)N + 1, sizeof(double));
  double *ub = calloc((size_t)N + 1, sizeof(double));
  double *x = calloc((size_t)N + 1, sizeof(double));
  double *xr = calloc((size_t)n + 1, sizeof(double));
  double *act = calloc((size_t)mr + 1, sizeof(double));
  double *dred = calloc((size_t)n + 1, sizeof(double));
  double *xd = calloc((size_t)n + 1, sizeof(double));
  double *xdr = calloc((size_t)n + 1, sizeof(double));
  double *pc = calloc(2 * (size_t)n + 1, sizeof(double));
  int *pcn = calloc(2 * (size_t)n + 1, sizeof(int));
  signed char *basis = calloc((size_t)N + 1, 1);
  double *nlb = calloc((size_t)n + 1, sizeof(double));
  double *nub = calloc((size_t)n + 1, sizeof(double));
  double *slb = calloc((size_t)n + 1, sizeof(double));
  double *sub = calloc((size_t)n + 1, sizeof(double));
  int *inst = calloc((size_t)n + 1, sizeof(int)), ninst = 0;
  int *cand = calloc((size_t)n + 1, sizeof(int));
  double *csc = calloc(2 * (size_t)n + 2, sizeof(double));
  long sb_iters = 0;
  csr R = {0};
  char *mark = calloc((size_t)n + 1, 1);
  node **open = NULL;
  int nopen = 0, opencap = 0;
  lp_solver *lp = NULL;
  node *cur = NULL;
  if (!c || !lb || !ub || !x || !xr || !act || !dred || !xd || !xdr || !pc || !pcn || !basis ||
      !nlb || !nub || !slb || !sub || !inst || !mark || !cand || !csc ||
      !twill_ilp_build_csc(m, &cbeg, &cidx, &cval))
    goto done;
  int nint = 0, objint = 1;
  long fix_terms = 0;
  for (int j = 0; j < n; j++) {
    c[j] = sgn * m->obj[j];
    lb[j] = m->vlb[j];
    ub[j] = m->vub[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) {
      nint++;
      lb[j] = ceil(lb[j] - INT_TOL);
      ub[j] = floor(ub[j] + INT_TOL);
      if (c[j] != round(c[j])) objint = 0;
    } else if (c[j] != 0) {
      objint = 0;
    }
  }
  for (int i = 0; i < mr; i++) {
    lb[n + i] = m->rlo[i];
    ub[n + i] = m->rhi[i];
  }
  for (int j = 0; j < N; j++)
    if (lb[j] > ub[j] || lb[j] == HUGE_VAL || ub[j] == -HUGE_VAL) {
      result = TWILL_ILP_INFEASIBLE;
      m->stats.best_bound = HUGE_VAL;
      goto done;
    }
  memcpy(nlb, lb, (size_t)n * sizeof(double));
  memcpy(nub, ub, (size_t)n * sizeof(double));
  /* rows (CSR) for the domain propagation */
  R.cbeg = cbeg;
  R.cidx = cidx;
  R.beg = calloc((size_t)mr + 2, sizeof(int));
  R.col = calloc((size_t)cbeg[n] + 1, sizeof(int));
  R.val = calloc((size_t)cbeg[n] + 1, sizeof(double));
  R.queue = calloc((size_t)mr + 1, sizeof(int));
  R.inq = calloc((size_t)mr + 1, 1);
  if (!R.beg || !R.col || !R.val || !R.queue || !R.inq) goto done;
  /* (the cut rows are left empty: dense, and rarely worth propagating) */
  for (int p = 0; p < cbeg[n]; p++)
    if (cidx[p] < mr0) R.beg[cidx[p] + 2]++;
  for (int i = 0; i < mr; i++) R.beg[i + 2] += R.beg[i + 1];
  for (int j = 0; j < n; j++)
    for (int p = cbeg[j]; p < cbeg[j + 1]; p++) {
      if (cidx[p] >= mr0) continue;
      int q = R.beg[cidx[p] + 1]++;
      R.col[q] = j;
      R.val[q] = cval[p];
    }
  int prop_on = nint > 0 && !getenv("TWILL_ILP_NOPROP");
  /* The search's LP: the user's rows and the cuts binding at the last
   * root LP (nonbasic slack); a cut not binding there is left out (it stays
   * a row of the model, valid for the certificate, with multiplier 0).
   * lprow maps the LP's rows to the model's. */
  lprow = malloc(((size_t)mr + 1) * sizeof(int));
  lpcbeg = calloc((size_t)n + 2, sizeof(int));
  lpcidx = malloc(((size_t)cbeg[n] + 1) * sizeof(int));
  lpcval = malloc(((size_t)cbeg[n] + 1) * sizeof(double));
  lpbnd = malloc(2 * ((size_t)N + 1) * sizeof(double));
  ylp = malloc(((size_t)mr + 1) * sizeof(double));
  int *modrow = malloc(((size_t)mr + 1) * sizeof(int));
  if (!lprow || !lpcbeg || !lpcidx || !lpcval || !lpbnd || !ylp || !modrow) {
    free(modrow);
    goto done;
  }
  for (int i = 0; i < mr; i++) {
    int keep = i < mr0 || !rootbasis || rootbasis[n + i] != 0 || getenv("TWILL_ILP_KEEPCUTS");
    modrow[i] = keep ? mlp : -1;
    if (keep) lprow[mlp++] = i;
  }
  for (int j = 0, q = 0; j < n; j++) {
    for (int p = cbeg[j]; p < cbeg[j + 1]; p++)
      if (modrow[cidx[p]] >= 0) { lpcidx[q] = modrow[cidx[p]]; lpcval[q++] = cval[p]; }
    lpcbeg[j + 1] = q;
  }
  double *llb = lpbnd, *lub = lpbnd + N + 1;
  memcpy(llb, lb, (size_t)n * sizeof(double));
  memcpy(lub, ub, (size_t)n * sizeof(double));
  for (int k = 0; k < mlp; k++) {
    llb[n + k] = lb[n + lprow[k]];
    lub[n + k] = ub[n + lprow[k]];
  }
  if (rootbasis)
    for (int k = 0; k < mlp; k++) rootbasis[n + k] = rootbasis[n + lprow[k]];
  free(modrow);
  Nlp = n + mlp;
  lp_input in = {mlp, n, lpcbeg, lpcidx, lpcval, c, llb, lub};
  lp = twill_lps_new(&in);
  if (!lp) goto done;
  twill_lps_set_cancel(lp, m->cancel);
  if (rootbasis) twill_lps_set_basis(lp, rootbasis);
  if (m->lp_degenerate) twill_lps_set_perturb_early(lp, 1);

  double inc = HUGE_VAL; /* incumbent, minimize form */
  int incomplete = 0, unbounded = 0;
  long nodes = 0;
  if (m->start && feasible(m, m->m - m->ncut, cbeg, cidx, cval, m->start, act)) {
    /* the caller's solution, rounded like any heuristic point */
    double zs = 0;
    for (int j = 0; j < n; j++) {
      xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? m->start[j] : round(m->start[j]);
      zs += c[j] * xr[j];
    }
    inc = zs;
    if (!new_incumbent(m, xr, inc, sgn, 0)) goto done;
  }
  cur = calloc(1, sizeof *cur);
  if (!cur) goto done;
  cur->bound = -HUGE_VAL;
  cur->rec = add_rec(m, -1, -1, 0, 0);
  if (cur->rec < 0) goto done;
  double root_bound = -HUGE_VAL;
  double global_bound = -HUGE_VAL;
  long dive_iters = 0;
  int plunge = 0, plunge_max = 2 * nint + 100;
  long next_sub = 0, sub_gap = SUB_FREQ, sub_iters = 0;

  while (cur || nopen) {
    if (!cur) {
      cur = heap_pop(open, &nopen); /* best bound */
      plunge = 0;
    }
    double cutoff = inc < HUGE_VAL ? (objint ? inc - 1 + 1e-6 : inc - 1e-9 * (1 + fabs(inc))) : HUGE_VAL;
    if (cur->bound >= cutoff) {
      /* pruned by the parent's bound: the parent's multipliers prove it */
      int par = m->rec[cur->rec].parent;
      m->rec[cur->rec].proof = par;
      node_free(cur);
      cur = NULL;
      continue;
    }
    if ((m->node_limit > 0 && nodes >= m->node_limit) ||
        (deadline > 0 && twill_lps_clock() > deadline) || twill_lps_halted(m->cancel)) {
      incomplete = 1;
      if (cur->bound < global_bound || global_bound == -HUGE_VAL) global_bound = cur->bound;
      node_free(cur);
      cur = NULL;
      while (nopen) {
        node *o = open[--nopen];
        if (o->bound < global_bound) global_bound = o->bound;
        node_free(o);
      }
      break;
    }
    /* install the node's bounds: the root's, then its changes in order */
    for (int k = 0; k < ninst; k++) {
      int j = inst[k];
      nlb[j] = lb[j];
      nub[j] = ub[j];
      mark[j] = 0;
    }
    ninst = 0;
    for (int k = 0; k < cur->nchg; k++) {
      int j = cur->cvar[k];
      nlb[j] = cur->clb[k];
      nub[j] = cur->cub[k];
    }
    for (int j = 0; j < n; j++) {
      if (m->vtype[j] == TWILL_ILP_CONTINUOUS) continue;
      double ol, ou;
      twill_lps_get_bounds(lp, j, &ol, &ou);
      if (ol != nlb[j] || ou != nub[j]) twill_lps_set_bounds(lp, j, nlb[j], nub[j]);
    }
    for (int k = 0; k < cur->nchg; k++)
      if (!mark[cur->cvar[k]]) {
        mark[cur->cvar[k]] = 1;
        inst[ninst++] = cur->cvar[k];
      }
    if (prop_on && !cur->propagated) {
      int crow = -1, cside = 0;
      int pr = propagate(m, &R, lp, cur, cur->rec, nlb, nub, mark, inst, &ninst, &crow,
                         &cside);
      if (pr < 0) goto done;
      cur->propagated = 1;
      if (pr > 0) {
        /* closed by propagation: the row cannot be met */
        nodes++;
        m->rec[cur->rec].crow = crow;
        m->rec[cur->rec].cside = cside;
        m->rec[cur->rec].proof = cur->rec;
        node_free(cur);
        cur = NULL;
        continue;
      }
    }
    if (cur->basis) twill_lps_set_basis(lp, cur->basis);
    nodes++;
    if (cur->depth > m->stats.depth_max) m->stats.depth_max = cur->depth;
    int st = twill_lps_solve(lp, deadline);
    if (st == LPS_LIMIT && !twill_lps_halted(m->cancel) && !(deadline > 0 && twill_lps_clock() > deadline)) {
      /* The iteration limit, not the clock: a stalled simplex (air04
       * under --cert, node 230: the dual gave up on a tiny pivot and the
       * primal ran 115624 degenerate iterations).  Once more from the
       * slack basis, each structural at the bound its cost prefers (dual
       * feasible where that bound is finite), as the root's first solve. */
      for (int j = 0; j < n; j++) basis[j] = c[j] < 0 ? 2 : 1;
      for (int k = n; k < Nlp; k++) basis[k] = 0;
      twill_lps_set_basis(lp, basis);
      st = twill_lps_solve(lp, deadline);
      if (getenv("TWILL_ILP_DEBUG"))
        fprintf(stderr, "node %ld: LP again from a slack basis: status %d\n", nodes, st);
    }
    bb_rec *rec = &m->rec[cur->rec];
    if (getenv("TWILL_ILP_DEBUG") && st != LPS_OPTIMAL) fprintf(stderr, "node %ld lp status %d\n", nodes, st);
    if (st == LPS_LIMIT || st == LPS_ERROR) {
      incomplete = 1;
      if (cur->bound < global_bound || global_bound == -HUGE_VAL) global_bound = cur->bound;
      if (st == LPS_ERROR && !m->nhist) result = TWILL_ILP_ERROR;
      node_free(cur);
      cur = NULL;
      if (st == LPS_LIMIT) {
        while (nopen) {
          node *o = open[--nopen];
          if (o->bound < global_bound) global_bound = o->bound;
          node_free(o);
        }
        break;
      }
      continue;
    }
    if (st == LPS_UNBOUNDED) {
      unbounded = 1;
      node_free(cur);
      cur = NULL;
      break;
    }
    if (st == LPS_INFEASIBLE) {
      if (m->certify) {
        rec->y = calloc((size_t)(mr ? mr : 1), sizeof(double));
        twill_lps_get_farkas(lp, ylp);
        if (rec->y)
          for (int k = 0; k < mlp; k++) rec->y[lprow[k]] = ylp[k];
        rec->farkas = 1;
      }
      rec->proof = cur->rec;
      if (nodes == 1) root_bound = HUGE_VAL;
      node_free(cur);
      cur = NULL;
      continue;
    }
    double z = twill_lps_obj(lp);
    if (nodes == 1) root_bound = z;
    twill_lps_get_x(lp, x);
    if (m->certify) {
      rec->y = calloc((size_t)(mr ? mr : 1), sizeof(double));
      twill_lps_get_dual(lp, ylp, NULL);
      if (rec->y)
        for (int k = 0; k < mlp; k++) rec->y[lprow[k]] = ylp[k];
      if (nodes == 1) save_root_basis(m, lp, lprow, mlp);
    }
    /* pseudo-cost update: objective degradation per unit of movement */
    if (rec->var >= 0 && cur->bound > -HUGE_VAL && cur->pfrac > 0) {
      double deg = z - cur->bound;
      pc[2 * rec->var + rec->dir] += (deg > 0 ? deg : 0) / cur->pfrac;
      pcn[2 * rec->var + rec->dir]++;
    }
    if (z >= cutoff) {
      rec->proof = cur->rec;
      node_free(cur);
      cur = NULL;
      continue;
    }
    /* fractional variables */
    int ncand = 0;
    for (int j = 0; j < n; j++) {
      if (m->vtype[j] == TWILL_ILP_CONTINUOUS) continue;
      double f = x[j] - floor(x[j]);
      if (f < INT_TOL || f > 1 - INT_TOL) continue;
      cand[ncand++] = j;
    }
    int anyfrac = ncand > 0;
    if (!anyfrac) {
      /* integral LP optimum: new incumbent */
      /* the incumbent's value is that of the rounded point (the LP's z
       * carries the integers' rounding error: 70.9999999999 for 71) */
      double zr = 0;
      for (int j = 0; j < n; j++) {
        xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? x[j] : round(x[j]);
        zr += c[j] * xr[j];
      }
      if (zr < inc) {
        inc = zr;
        if (!new_incumbent(m, xr, inc, sgn, nodes)) goto done;
      }
      rec->proof = cur->rec;
      node_free(cur);
      cur = NULL;
      continue;
    }
    /* rounding heuristics: every integer variable to the nearest integer,
     * then all up, then all down (fixed charges: a fractional switch up) */
    for (int mode = 0; mode < 3 && cur; mode++) {
    for (int j = 0; j < n; j++)
      xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? x[j]
              : mode == 0 ? round(x[j]) : mode == 1 ? ceil(x[j] - INT_TOL) : floor(x[j] + INT_TOL);
    if (feasible(m, m->m - m->ncut, cbeg, cidx, cval, xr, act)) {
      double zr = 0;
      for (int j = 0; j < n; j++) zr += c[j] * xr[j];
      if (zr < inc - 1e-9 * (1 + fabs(zr))) {
        inc = zr;
        if (!new_incumbent(m, xr, inc, sgn, nodes)) goto done;
        cutoff = objint ? inc - 1 + 1e-6 : inc - 1e-9 * (1 + fabs(inc));
        if (z >= cutoff) {
          rec->proof = cur->rec;
          node_free(cur);
          cur = NULL;
        }
      }
    }
    }
    if (!cur) continue;
    /* reduced-cost fixing, inherited by both children:  z + d_j (x_j -
     * l_j) <= inc  bounds x_j above (d_j < 0 at the upper bound: below).
     * With a certificate, each fixing is a derived line (vipr_write.c's
     * derive_rcfix, from this node's multipliers and the incumbent's
     * cutoff), so the bound is taken with a margin for the exact
     * recomputation: the bound the rounded multipliers prove is within
     * about 1e-9 |z| of z.  The cutoff there is the SOL section's
     * solution, which must be exactly feasible (for a mixed model an
     * exact vertex, its value rounded up by about 1e-12 relative); when
     * none is, the writer fails and `twill ilp` solves again without
     * fixings.  In a mixed model they stop below depth FIX_DEPTH_MIXED
     * (measured below).  The certificate spends about terms (every
     * multiplier and remainder of the node) plus 2 sqrt(terms) a fixing
     * (vipr_write.c's derive_rcfix), so the certified fixings stop at
     * FIX_TERMS terms in all (about 20 bytes each); the first, at the
     * root and near it, are those that fix the most. */
    twill_lps_get_basis(lp, basis);
    int fix_here = !m->certify ||
                   (fix_terms < FIX_TERMS && (nint == n || cur->depth <= FIX_DEPTH_MIXED));
    if (inc < HUGE_VAL && !m->norcfix && fix_here) {
      twill_lps_get_dual(lp, NULL, dred);
      double gap = inc - z, eps = 1e-9, dmin = 1e-7;
      long terms = 0; /* the size of one fixing's line in the certificate */
      if (m->certify) {
        gap += 1e-6 * (1 + fabs(z)) + 1e-6 * (1 + fabs(inc));
        eps = 1e-3;
        dmin = 1e-5;
        for (int j = 0; j < n; j++) terms += dred[j] != 0;
        for (int k = 0; k < mlp && rec->y; k++) terms += rec->y[lprow[k]] != 0;
      }
      int nfixed = 0;
      for (int j = 0; j < n && fix_terms < FIX_TERMS; j++) {
        if (m->vtype[j] == TWILL_ILP_CONTINUOUS || basis[j] == 0) continue;
        double l, u;
        twill_lps_get_bounds(lp, j, &l, &u);
        double nl = l, nu = u;
        if (basis[j] == 1 && dred[j] > dmin && u - l > gap / dred[j] + eps)
          nu = l + floor(gap / dred[j] + eps);
        else if (basis[j] == 2 && dred[j] < -dmin && u - l > gap / -dred[j] + eps)
          nl = u - floor(gap / -dred[j] + eps);
        if (nl == l && nu == u) continue;
        if (m->certify) {
          bb_prop *pp = realloc(rec->prop, (size_t)(rec->nprop + 1) * sizeof *pp);
          if (!pp) goto done;
          rec->prop = pp;
          pp[rec->nprop].var = j;
          pp[rec->nprop].row = -1;
          pp[rec->nprop].up = nu < u;
          pp[rec->nprop].side = 0;
          pp[rec->nprop++].val = nu < u ? nu : nl;
          /* a block line per sqrt(terms) fixings, and their own lines */
          fix_terms += (long)(2 * sqrt((double)terms)) + (nfixed++ == 0 ? terms : 0);
        }
        int *cv = realloc(cur->cvar, (size_t)(cur->nchg + 1) * sizeof(int));
        if (!cv) goto done;
        cur->cvar = cv;
        double *cl = realloc(cur->clb, (size_t)(cur->nchg + 1) * sizeof(double));
        if (!cl) goto done;
        cur->clb = cl;
        double *cu = realloc(cur->cub, (size_t)(cur->nchg + 1) * sizeof(double));
        if (!cu) goto done;
        cur->cub = cu;
        cur->cvar[cur->nchg] = j;
        cur->clb[cur->nchg] = nl;
        cur->cub[cur->nchg++] = nu;
      }
    }
    int bj = choose_branch(m, lp, x, z, cutoff, deadline, cand, ncand, pc, pcn, basis,
                           csc, &sb_iters);
    if (bj == -2) goto done;
    /* best estimate of an integer solution below this node: z plus, for
     * every fractional variable, the cheaper pseudo-cost rounding */
    double est = z, ebj[2] = {0, 0};
    {
      double avg[2];
      pseudo_cost_means(n, pc, pcn, avg);
      for (int k = 0; k < ncand; k++) {
        int j = cand[k];
        double f = x[j] - floor(x[j]);
        double dn = (pcn[2 * j] ? pc[2 * j] / pcn[2 * j] : avg[0]) * f;
        double up = (pcn[2 * j + 1] ? pc[2 * j + 1] / pcn[2 * j + 1] : avg[1]) * (1 - f);
        est += dn < up ? dn : up;
        if (j == bj) {
          est -= dn < up ? dn : up;
          ebj[0] = dn;
          ebj[1] = up;
        }
      }
    }
    /* branch on bj */
    double v = x[bj];
    double f = v - floor(v);
    node *kid[2] = {NULL, NULL};
    for (int dir = 0; dir < 2; dir++) {
      node *k = calloc(1, sizeof *k);
      if (!k) goto done;
      kid[dir] = k;
      k->depth = cur->depth + 1;
      k->bound = z;
      k->est = est + ebj[dir];
      k->pfrac = dir ? ceil(v) - v : v - floor(v);
      k->rec = add_rec(m, cur->rec, bj, dir, dir ? ceil(v) : floor(v));
      rec = &m->rec[cur->rec];
      k->nchg = cur->nchg + 1;
      k->cvar = malloc((size_t)k->nchg * sizeof(int));
      k->clb = malloc((size_t)k->nchg * sizeof(double));
      k->cub = malloc((size_t)k->nchg * sizeof(double));
      k->basis = malloc((size_t)Nlp);
      if (k->rec < 0 || !k->cvar || !k->clb || !k->cub || !k->basis) {
        node_free(kid[0]);
        node_free(kid[1]);
        goto done;
      }
      if (cur->nchg) {
        memcpy(k->cvar, cur->cvar, (size_t)cur->nchg * sizeof(int));
        memcpy(k->clb, cur->clb, (size_t)cur->nchg * sizeof(double));
        memcpy(k->cub, cur->cub, (size_t)cur->nchg * sizeof(double));
      }
      double l, u;
      twill_lps_get_bounds(lp, bj, &l, &u);
      for (int t = 0; t < cur->nchg; t++)
        if (cur->cvar[t] == bj) { l = cur->clb[t]; u = cur->cub[t]; }
      if (dir) l = ceil(v);
      else u = floor(v);
      k->cvar[cur->nchg] = bj;
      k->clb[cur->nchg] = l;
      k->cub[cur->nchg] = u;
      memcpy(k->basis, basis, (size_t)Nlp);
    }
    int first = f < 0.5 ? 0 : 1;
    if (nopen + 2 > opencap) {
      int nc = opencap ? 2 * opencap : 64;
      node **o = realloc(open, (size_t)nc * sizeof *o);
      if (!o) { node_free(kid[0]); node_free(kid[1]); goto done; }
      open = o;
      opencap = nc;
    }
    heap_push(open, &nopen, kid[1 - first]);
    node_free(cur);
    cur = kid[first];
    /* a plunge deeper than the binaries allow is walking along an
     * unbounded integer direction (x <= 44 | x >= 45, then 52, 60, ...,
     * the bound rising each level and no incumbent to stop it): back to
     * the best bound.  Each node holds its path's changes, so an endless
     * plunge would also use memory quadratic in its depth. */
    if (++plunge > plunge_max) {
      heap_push(open, &nopen, cur);
      cur = NULL;
    }
    /* diving: at the root, then every DIVE_FREQ nodes, within a share of
     * the LP iterations so far (all deterministic) */
    if (nodes == 1 || nodes % DIVE_FREQ == 0) {
      long budget = 500 + twill_lps_iterations(lp) / 10 - dive_iters;
      if (budget > 0) {
        long i0 = twill_lps_iterations(lp);
        double zd;
        int dv = dive(m, lp, cbeg, cidx, cval, c, x, cutoff, deadline, budget, xd, xdr, act, &zd);
        dive_iters += twill_lps_iterations(lp) - i0;
        if (dv < 0) goto done;
        if (dv > 0 && zd < inc) {
          inc = zd;
          if (!new_incumbent(m, xdr, inc, sgn, nodes)) goto done;
        }
      }
    }
    /* sub-MIPs: RENS at the root without an incumbent, RINS with one, at
     * the root and then at growing intervals while they fail, their LP
     * iterations within a fifth of the search's (deterministic counts) */
    if (!m->submip && (nodes == 1 || (inc < HUGE_VAL && nodes >= next_sub &&
                                      sub_iters <= twill_lps_iterations(lp) / 5 + 5000))) {
      int rins = inc < HUGE_VAL, nfix = 0;
      for (int j = 0; j < n; j++) {
        slb[j] = lb[j];
        sub[j] = ub[j];
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
      if (nfix >= (rins ? SUB_RINS_FIX : SUB_RENS_FIX) * nint) {
        double cut_hi = !rins ? HUGE_VAL : objint ? inc - 1 + 1e-6 : inc - 1e-6 * (1 + fabs(inc));
        int r = twill_ilp_submip(m, slb, sub, cut_hi, SUB_NODES, deadline, xd, &sub_iters);
        if (r < 0) goto done;
        if (r > 0 && feasible(m, m->m - m->ncut, cbeg, cidx, cval, xd, act)) {
          double zs = 0;
          for (int j = 0; j < n; j++) zs += c[j] * xd[j];
          if (zs < inc) {
            inc = zs;
            if (!new_incumbent(m, xd, inc, sgn, nodes)) goto done;
            found = 1;
          }
        }
      }
      sub_gap = found ? SUB_FREQ : 2 * sub_gap;
      next_sub = nodes + sub_gap;
    }
  }
  m->stats.nodes = nodes;
  m->complete = !incomplete && !unbounded;
  if (unbounded) {
    result = TWILL_ILP_UNBOUNDED;
  } else if (incomplete) {
    result = TWILL_ILP_LIMIT;
    m->stats.best_bound = sgn * (global_bound > -HUGE_VAL ? (inc < global_bound ? inc : global_bound) : root_bound) + m->c0;
  } else if (inc < HUGE_VAL) {
    result = TWILL_ILP_OPTIMAL;
    m->stats.best_bound = sgn * inc + m->c0;
  } else {
    result = TWILL_ILP_INFEASIBLE;
    m->stats.best_bound = sgn * HUGE_VAL;
  }
  if (m->has_sol && polish(m, c) < 0) {
    result = TWILL_ILP_ERROR;
    goto done;
  }
  if (m->has_sol) {
    snap_to_bounds(m);
    m->objval = 0;
    for (int j = 0; j < n; j++) m->objval += m->obj[j] * m->sol[j];
    m->objval += m->c0;
    double bb = m->stats.best_bound;
    m->stats.gap = isinf(bb) ? HUGE_VAL : fabs(m->objval - bb) / fmax(1.0, fabs(m->objval));
  }
  m->stats.incumbents = m->nhist;
done:
  if (lp) m->stats.lp_iterations = twill_lps_iterations(lp);
  m->stats.seconds = twill_lps_clock() - t0;
  node_free(cur);
  for (int k = 0; k < nopen; k++) node_free(open[k]);
  free(open);
  free(rootbasis);
  free(lprow); free(lpcbeg); free(lpcidx); free(lpcval); free(lpbnd); free(ylp);
  if (lp && getenv("TWILL_ILP_DEBUG") && !m->submip) {
    long ds, dd;
    twill_lps_dual_steps(lp, &ds, &dd);
    fprintf(stderr, "search: %ld LP iterations, dual %ld (%ld degenerate)\n", twill_lps_iterations(lp), ds, dd);
  }
  twill_lps_free(lp);
  free(cbeg); free(cidx); free(cval); free(c); free(lb); free(ub); free(x);
  free(xr); free(act); free(dred); free(xd); free(xdr); free(pc); free(pcn); free(basis);
  free(nlb); free(nub); free(slb); free(sub); free(inst); free(mark); free(cand); free(csc);
  free(R.beg); free(R.col); free(R.val); free(R.queue); free(R.inq);
  return result;
}

/* The model's entry point (twill/ilp.h): the search is above the model, so
 * that model.c never calls into it. */
twill_ilp_status twill_ilp_solve(twill_ilp *m) {
  twill_ilp_clear_results(m);
  return m->status = twill_ilp_branch_and_bound(m);
}
