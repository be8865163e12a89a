/* ilp/lp/dual.c: the dual simplex on the bounded problem of lp_solver.h.
 *
 * From a dual feasible basis: pick a primal infeasible basic x_r (pricing.h's
 * CHUZR, devex by default), compute row r of B^{-1}[A -I] (rho = B^{-T} e_r,
 * alpha_rj = rho'a_j), choose the entering q by the (Harris) dual ratio
 * |d_j|/|alpha_rj| among the j whose move drives x_r toward its violated
 * bound, with bound flipping (ratio_test); no candidate means the row
 * x_r = -sum alpha_rj z_j cannot reach its bound: primal infeasible, with
 * Farkas multipliers rho.  Reduced costs are updated from the pivot row
 * between refactorizations.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lp_solver.h"
#include "pricing.h"

/* Cost perturbation for the dual simplex: only nonbasic costs move, each
 * away from zero reduced cost on its feasible side (up at lower, down at
 * upper), so that the basis stays dual feasible while ties break. */
static void dual_perturb(lp_solver *s) {
  for (int j = 0; j < s->N; j++) {
    double c = s->cost[j];
    double e = (1e-7 + 1e-6 * fabs(c)) * (0.5 + 0.5 * twill_lps_urand(s));
    s->pcost[j] = s->st[j] == B_LOWER ? c + e : s->st[j] == B_UPPER ? c - e : c;
  }
  s->perturbed = 1;
}

/* Dual feasibility: a nonbasic d_j on the wrong side of its bound is made
 * right by flipping a boxed variable to its other bound (*flipped), or
 * under perturb_early by shifting a cost a little off (a d_j drifted by
 * rounding over a long run of updates; the primal then finishes on the
 * true costs).  After a pivot (partial) only the reduced costs of the pivot
 * row's variables and of the one that left (last_jr) changed, so only those
 * are looked at.  Returns 0, or -1 when the basis is not dual feasible. */
static int make_dual_feasible(lp_solver *s, int partial, int last_jr, int can_perturb,
                              int *flipped) {
  int nchk = partial ? s->rcnt + 1 : s->N;
  *flipped = 0;
  for (int l = 0; l < nchk; l++) {
    int j = !partial ? l : l < s->rcnt ? s->rlist[l] : last_jr;
    signed char t = s->st[j];
    if (t == B_BASIC || t == B_FIXED) continue;
    double dj = s->d[j];
    if ((t == B_LOWER && dj < -TOL_D) || (t == B_UPPER && dj > TOL_D)) {
      if (s->lb[j] > -HUGE_VAL && s->ub[j] < HUGE_VAL) {
        s->st[j] = t == B_LOWER ? B_UPPER : B_LOWER;
        *flipped = 1;
      } else if (s->perturb_early && can_perturb && fabs(dj) < 1e-6) {
        s->pcost[j] -= dj;
        s->d[j] = 0;
        s->perturbed = 1;
      } else {
        return -1;
      }
    } else if (t == B_FREE && fabs(dj) > TOL_D) {
      return -1;
    }
  }
  return 0;
}

/* The ratio test on the pivot row (s->rrow over s->rlist) of x_r, which
 * must rise (up) or fall by slope to reach its bound.  Harris pass 1 keeps
 * the eligible entries in cand with the relaxed bound tmax on the step
 * (ratios are compared as |d_j| + tol < tmax |a| so that the division is
 * done only for a new minimum).  Then the bound flipping (long-step) test:
 * the Harris group of the smallest ratios, if all its variables are boxed
 * and flipping them to their other bounds leaves x_r still short of its
 * target (the dual objective still rising along the ray), is flipped
 * instead of entering (into flp, *nflip), and the next group is examined.
 * Set partitioning (air04: binaries) takes many fewer iterations so.  The
 * entering q is the largest |a| of the group where the slope runs out (or
 * the last group).  Returns q, or -1 when no variable can enter. */
static int ratio_test(lp_solver *s, int up, double slope, int *cand, int *flp, int *nflip) {
  const double *arow = s->rrow;
  double tmax = HUGE_VAL;
  int ncand = 0;
  for (int l = 0; l < s->rcnt; l++) {
    int j = s->rlist[l];
    signed char t = s->st[j];
    double a = arow[j];
    double fa = fabs(a);
    if (fa < TOL_PIV) continue;
    /* need sign(-t*a) = up ? + : -, i.e. t has sign of (up ? -a : a) */
    double tsign = up ? -a : a;
    if (tsign > 0 && !(t == B_LOWER || t == B_FREE)) continue;
    if (tsign < 0 && !(t == B_UPPER || t == B_FREE)) continue;
    cand[ncand++] = j;
    double num = fabs(s->d[j]) + TOL_D;
    if (num < tmax * fa) tmax = num / fa;
  }
  int q = -1;
  *nflip = 0;
  while (ncand > 0) {
    double bigA = 0, dslope = 0;
    int g = -1;
    for (int l = 0; l < ncand; l++) {
      int j = cand[l];
      double fa = fabs(arow[j]);
      if (fabs(s->d[j]) > tmax * fa) continue;
      dslope += fa * (s->ub[j] - s->lb[j]); /* +inf when not boxed */
      if (fa > bigA) { bigA = fa; g = j; }
    }
    q = g;
    int rest = 0;
    for (int l = 0; l < ncand; l++) {
      int j = cand[l];
      if (fabs(s->d[j]) > tmax * fabs(arow[j])) rest++;
    }
    if (g < 0 || rest == 0 || !(slope - dslope > TOL_P)) break;
    /* flip the group; the rest forms the next candidates */
    slope -= dslope;
    double tnext = HUGE_VAL;
    int nc2 = 0;
    for (int l = 0; l < ncand; l++) {
      int j = cand[l];
      double fa = fabs(arow[j]);
      if (fabs(s->d[j]) <= tmax * fa) { flp[(*nflip)++] = j; continue; }
      cand[nc2++] = j;
      double num = fabs(s->d[j]) + TOL_D;
      if (num < tnext * fa) tnext = num / fa;
    }
    ncand = nc2;
    tmax = tnext;
    q = -1;
  }
  /* an entering candidate: nonbasic, with a usable pivot */
  assert(q < 0 || (s->st[q] != B_BASIC && fabs(arow[q]) >= TOL_PIV));
  return q;
}

/* Move the flipped variables to their other bounds: x_B changes by
 * -B^{-1} sum_j a_j delta_j (fv: m of workspace). */
static void move_flipped(lp_solver *s, const int *flp, int nflip, double *fv) {
  int m = s->m;
  memset(fv, 0, (size_t)m * sizeof(double));
  for (int l = 0; l < nflip; l++) {
    int j = flp[l];
    double old = s->x[j];
    s->st[j] = s->st[j] == B_LOWER ? B_UPPER : B_LOWER;
    s->x[j] = nb_value(s, j);
    double dl = s->x[j] - old;
    if (j >= s->n) fv[j - s->n] -= dl;
    else
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) fv[s->cidx[p]] += s->cval[p] * dl;
  }
  twill_lu_ftran(s, fv);
  for (int k = 0; k < m; k++) s->x[s->head[k]] -= fv[k];
}

/* The pivot: x_r (basic jr at position r) goes to target, q enters with
 * the pivot column alpha; the values, the pricing weights and the reduced
 * costs follow.  Returns 0 when out of memory. */
static int pivot(lp_solver *s, int r, int q, int jr, double target, const double *alpha,
                 int *stall) {
  int m = s->m;
  double ar = alpha[r];
  double t = (s->x[jr] - target) / ar;
  s->dual_steps++;
  if (fabs(s->d[q] * t) < 1e-12) { (*stall)++; s->dual_degen++; }
  else *stall = 0;
  double f = s->d[q] / ar;
  for (int k = 0; k < m; k++) {
    double a = alpha[k];
    if (a == 0 || k == r) continue;
    s->x[s->head[k]] -= t * a;
  }
  twill_lpp_update_dual(s, s->dw, alpha, r, q, jr, ar);
  for (int l = 0; l < s->rcnt; l++) s->d[s->rlist[l]] -= f * s->rrow[s->rlist[l]];
  s->x[q] += t;
  s->x[jr] = target;
  if (!twill_lu_update(s, r, q, alpha)) return 0;
  make_nonbasic(s, jr, target);
  s->d[q] = 0;
  s->d[jr] = -f;
  return 1;
}

/* can_perturb: the dual may perturb the costs when it stalls (then an
 * optimum it reports is for the perturbed costs, s->perturbed tells; the
 * caller finishes with the primal on the true costs). */
int twill_lps_dual(lp_solver *s, double deadline, long maxit, int can_perturb) {
  int m = s->m;
  double *rho = s->wa;
  double *alpha = calloc((size_t)(m ? m : 1), sizeof(double));
  int *cand = malloc((size_t)(s->N ? s->N : 1) * sizeof(int)); /* Harris candidates */
  int *flp = malloc((size_t)(s->N ? s->N : 1) * sizeof(int));  /* bound flips */
  double *fv = malloc((size_t)(m ? m : 1) * sizeof(double));
  int ret = LPS_ERROR, partial = 0, last_jr = -1;
  if (!alpha || !cand || !flp || !fv) goto out;
  int stall = 0, d_ok = 0, fresh = 0;
  twill_lpp_reset(s, s->dw);
  for (long it = 0;; it++) {
    if (stall > 300) { ret = -1; goto out; } /* degenerate: let the primal finish */
    if (can_perturb && !s->perturbed && (stall > 50 || (s->perturb_early && it > 0))) {
      dual_perturb(s);
      d_ok = 0;
      stall = 0;
    }
    int go = twill_lps_iteration_start(s, it, maxit, deadline, &d_ok);
    if (go >= 0) { ret = go; goto out; }
    if (!d_ok) { twill_lps_compute_duals(s, 0); partial = 0; }
    d_ok = 1;
    int flipped;
    if (make_dual_feasible(s, partial, last_jr, can_perturb, &flipped) < 0) { ret = -1; goto out; }
    partial = 0;
    if (flipped) twill_lps_compute_xb(s);
    int r = twill_lpp_chuzr(s, s->dw);
    if (r < 0) {
      /* optimal on the updated values: recompute x_B and the duals from
       * the factorization (not the incremental updates) and look again */
      if (s->neta > 0 && !fresh) {
        s->need_xb = 1;
        d_ok = 0;
        fresh = 1;
        continue;
      }
      ret = LPS_OPTIMAL;
      goto out;
    }
    fresh = 0;
    int jr = s->head[r];
    int up = s->x[jr] < s->lb[jr]; /* x_r must increase */
    double target = up ? s->lb[jr] : s->ub[jr];
    memset(rho, 0, (size_t)m * sizeof(double));
    rho[r] = 1.0;
    twill_lu_btran(s, rho);
    /* x_r changes by -t*alpha_rj when z_j changes by t */
    twill_lps_row_alpha(s, rho);
    int nflip;
    int q = ratio_test(s, up, fabs(s->x[jr] - target), cand, flp, &nflip);
    if (q < 0) {
      if (s->neta > 0) { s->need_factor = 1; continue; }
      memcpy(s->farkas, rho, (size_t)m * sizeof(double));
      ret = LPS_INFEASIBLE;
      goto out;
    }
    load_col(s, q, alpha);
    twill_lu_ftran(s, alpha);
    if (fabs(alpha[r]) < TOL_PIV || fabs(alpha[r] - s->rrow[q]) > 1e-6 * (1 + fabs(alpha[r]))) {
      if (s->neta > 0) { s->need_factor = 1; continue; }
      if (fabs(alpha[r]) < TOL_PIV) { ret = -1; goto out; }
    }
    if (nflip > 0) move_flipped(s, flp, nflip, fv);
    if (!pivot(s, r, q, jr, target, alpha, &stall)) goto out;
    last_jr = jr;
    partial = 1;
    s->iters++;
  }
out:
  free(alpha);
  free(cand);
  free(flp);
  free(fv);
  return ret;
}
