/* ilp/lp/primal.c: the primal simplex, phase 1 (minimize the sum of
 * infeasibilities) and phase 2, on the bounded problem of lp_solver.h.
 *
 * Pricing by pricing.h's rule (devex by default; Bland's rule when a run
 * of degenerate steps gets long), Harris's two-pass ratio test, bound flips
 * of a boxed entering variable.  The pivot row also updates the reduced
 * costs,
 *   d_j := d_j - (d_q / alpha_rq) alpha_rj,  d_leaving := -d_q / alpha_rq,
 * so y is recomputed only after a refactorization or a change of costs.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lp_solver.h"
#include "pricing.h"

/* The bound basic variable j runs into when it moves at rate `rate` (> 0:
 * up): the upper (lower) bound, or in phase 1 the violated bound it moves
 * back to.  0 when nothing limits its move: no such bound, or it moves on
 * past a bound it already violates (phase 1 prices that in its costs). */
static int ratio_bound(const lp_solver *s, int j, double rate, int phase1, double *bnd) {
  double v = s->x[j];
  if (rate > 0) {
    if (phase1 && v < s->lb[j] - TOL_P) *bnd = s->lb[j];
    else if (v > s->ub[j] + TOL_P) return 0;
    else *bnd = s->ub[j];
    return *bnd != HUGE_VAL;
  }
  if (phase1 && v > s->ub[j] + TOL_P) *bnd = s->ub[j];
  else if (v < s->lb[j] - TOL_P) return 0;
  else *bnd = s->lb[j];
  return *bnd != -HUGE_VAL;
}

/* Harris two-pass ratio test for the entering column alpha moving in
 * direction dir (x_B[k] moves at rate -dir alpha[k]): pass 1 finds the
 * largest step tmax that keeps every basic variable within its bound
 * relaxed by TOL_P, pass 2 among the variables that block within tmax the
 * one with the largest |alpha| (a stable pivot).  Returns its position r
 * (*theta its step, *rbnd the bound it leaves at) or -1 when no basic
 * variable blocks. */
static int ratio_test(const lp_solver *s, const double *alpha, double dir, int phase1,
                      double *theta, double *rbnd) {
  int m = s->m, r = -1;
  double tmax = HUGE_VAL, bigA = 0;
  for (int k = 0; k < m; k++) {
    double a = alpha[k], bnd;
    if (fabs(a) < TOL_PIV) continue;
    int j = s->head[k];
    double rate = -dir * a, v = s->x[j];
    if (!ratio_bound(s, j, rate, phase1, &bnd)) continue;
    double rt = rate > 0 ? (bnd + TOL_P - v) / rate : (bnd - TOL_P - v) / rate;
    if (rt < tmax) tmax = rt;
  }
  *theta = 0;
  *rbnd = 0;
  if (tmax < HUGE_VAL) {
    for (int k = 0; k < m; k++) {
      double a = alpha[k], bnd;
      if (fabs(a) < TOL_PIV) continue;
      int j = s->head[k];
      double rate = -dir * a, v = s->x[j];
      if (!ratio_bound(s, j, rate, phase1, &bnd)) continue;
      double ratio = (bnd - v) / rate;
      if (ratio <= tmax && fabs(a) > bigA) {
        bigA = fabs(a);
        r = k;
        *theta = ratio;
        *rbnd = bnd;
      }
    }
  }
  return r;
}

/* Whether the reduced costs updated from the pivot row stay those of the
 * phase 1 costs after the step: no basic variable changed its phase 1
 * cost (p1c, by position, before the step), and the leaving and entering
 * ones have cost 0 on both sides. */
static int phase1_costs_kept(const lp_solver *s, const signed char *p1c, int r, int q) {
  if (p1c[r] != 0 || p1cost(s, q) != 0) return 0;
  for (int k = 0; k < s->m; k++)
    if (k != r && p1cost(s, s->head[k]) != p1c[k]) return 0;
  return 1;
}

#ifndef NDEBUG
/* Every basic variable within TOL_P of its bounds, and a hair more for the
 * rounding of the update: what a step of phase 2 keeps (Harris's pass 1
 * bounds the step so that no basic variable passes its bound by more than
 * TOL_P).  For the assertions of debug builds. */
static int primal_feasible(const lp_solver *s) {
  for (int k = 0; k < s->m; k++) {
    int j = s->head[k];
    double v = s->x[j], slack = TOL_P + 1e-9 * (1 + fabs(v));
    if (v < s->lb[j] - slack || v > s->ub[j] + slack) return 0;
  }
  return 1;
}
#endif

int twill_lps_primal(lp_solver *s, double deadline, long maxit) {
  int m = s->m;
  double *alpha = s->wa;
  double *rho = malloc((size_t)(m ? m : 1) * sizeof(double));
  /* phase 1 costs of the basic variables (-1, 0, +1 by position) for
   * which d was computed: while a pivot leaves them as they were, d is
   * updated from the pivot row as in phase 2 instead of recomputed */
  signed char *p1c = malloc((size_t)(m ? m : 1));
  if (!rho || !p1c) { free(rho); free(p1c); return LPS_ERROR; }
  int stall = 0, ret = LPS_ERROR;
  int d_ok = 0, last_phase = -1;
  twill_lpp_reset(s, s->dvx);
  for (long it = 0;; it++) {
    int go = twill_lps_iteration_start(s, it, maxit, deadline, &d_ok);
    if (go >= 0) { ret = go; goto out; }
    int phase1 = 0;
    for (int k = 0; k < m; k++)
      if (infeas(s, s->head[k]) > 0) { phase1 = 1; break; }
    if (phase1 != last_phase) {
      if (last_phase == 1) twill_lpp_reset(s, s->dvx);
      last_phase = phase1;
      d_ok = 0;
    }
    if (!phase1 && !s->perturbed && stall > 50) { twill_lps_perturb(s); d_ok = 0; }
    if (!d_ok) {
      twill_lps_compute_duals(s, phase1);
      if (phase1)
        for (int k = 0; k < m; k++) p1c[k] = p1cost(s, s->head[k]);
    }
    d_ok = 1;
    /* pricing; Bland (lowest index) when stalling long */
    int q = twill_lpp_chuzc(s, s->dvx, stall > 5000);
    if (q < 0) {
      if (s->neta > 0) { s->need_factor = 1; continue; }
      if (phase1) {
        memcpy(s->farkas, s->y, (size_t)m * sizeof(double));
        ret = LPS_INFEASIBLE;
        goto out;
      }
      if (s->perturbed) { twill_lps_unperturb(s); d_ok = 0; continue; }
      ret = LPS_OPTIMAL;
      goto out;
    }
    double dq = s->d[q];
    double dir = dq < 0 ? 1.0 : -1.0;
    load_col(s, q, alpha);
    twill_lu_ftran(s, alpha);
    double range = s->ub[q] - s->lb[q], theta, rbnd;
    int r = ratio_test(s, alpha, dir, phase1, &theta, &rbnd);
    if (theta < 0) theta = 0;
    if (range <= theta || (r < 0 && range < HUGE_VAL)) {
      /* bound flip of the entering variable (basis, duals unchanged) */
      theta = range;
      for (int k = 0; k < m; k++) s->x[s->head[k]] -= dir * theta * alpha[k];
      s->st[q] = s->st[q] == B_LOWER ? B_UPPER : B_LOWER;
      s->x[q] = nb_value(s, q);
      assert(phase1 || primal_feasible(s));
      s->iters++;
      stall = 0;
      if (phase1) d_ok = 0; /* x_B moved: phase 1 costs may have changed */
      continue;
    }
    if (r < 0) {
      if (phase1 || s->neta > 0) {
        /* cannot happen in exact arithmetic: refactor and retry */
        if (s->neta == 0) goto out;
        s->need_factor = 1;
        continue;
      }
      if (s->perturbed) { twill_lps_unperturb(s); d_ok = 0; continue; }
      ret = LPS_UNBOUNDED;
      goto out;
    }
    if (theta * fabs(dq) < 1e-12) stall++;
    else stall = 0;
    int leave = s->head[r];
    double ar = alpha[r];
    /* the pivot row: pricing weights, and the reduced costs in phase 2 */
    memset(rho, 0, (size_t)m * sizeof(double));
    rho[r] = 1.0;
    twill_lu_btran(s, rho);
    twill_lps_row_alpha(s, rho);
    for (int k = 0; k < m; k++) s->x[s->head[k]] -= dir * theta * alpha[k];
    s->x[q] += dir * theta;
    s->x[leave] = rbnd;
    assert(phase1 || primal_feasible(s));
    if (phase1 && !phase1_costs_kept(s, p1c, r, q)) d_ok = 0;
    twill_lpp_update_primal(s, s->dvx, q, leave, ar);
    double f = dq / ar;
    if (d_ok)
      for (int t = 0; t < s->rcnt; t++) {
        int j = s->rlist[t];
        if (j != q) s->d[j] -= f * s->rrow[j];
      }
    if (!twill_lu_update(s, r, q, alpha)) goto out;
    make_nonbasic(s, leave, rbnd);
    if (d_ok) {
      s->d[leave] = -f;
      s->d[q] = 0;
    }
    s->iters++;
  }
out:
  free(rho);
  free(p1c);
  return ret;
}
