/* ilp/lp/lp.c: the bounded revised simplex's object (lp.h): its creation
 * with scaling, what both simplex loops share (x_B, the duals, the pivot
 * row, cost perturbation, the start of an iteration), the solve driver that
 * runs the dual and then, when needed, the primal, and the accessors.
 * The notation is lp_solver.h's; the LU is lu.c's, the pricing
 * pricing.c's, the loops primal.c's and dual.c's.
 */
#include <assert.h>
#include <signal.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lp_solver.h"
#include "pricing.h"
#include "twill/ilp.h"

volatile sig_atomic_t twill_lps_stop_all;

void twill_ilp_interrupt_all(void) { twill_lps_stop_all = 1; }
int twill_ilp_interrupted(void) { return twill_lps_stop_all != 0; }

int twill_lps_halted(const atomic_int *cancel) {
  return twill_lps_stop_all || (cancel && atomic_load_explicit(cancel, memory_order_relaxed));
}

void twill_lps_set_cancel(lp_solver *s, const atomic_int *cancel) { s->cancel = cancel; }

double twill_lps_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *xcalloc(size_t n, size_t sz) { return calloc(n ? n : 1, sz); }

void twill_lps_free(lp_solver *s) {
  if (!s) return;
  free(s->cbeg); free(s->cidx); free(s->cval); free(s->cs); free(s->rs);
  free(s->cost); free(s->pcost); free(s->lb); free(s->ub); free(s->x);
  free(s->st); free(s->head); free(s->pos); free(s->W); free(s->prow);
  free(s->lbeg); free(s->lidx); free(s->ubeg); free(s->uidx); free(s->lval);
  free(s->uval); free(s->udiag); free(s->er); free(s->ebeg); free(s->eidx);
  free(s->eval); free(s->epiv); free(s->y); free(s->d); free(s->wa);
  free(s->wb); free(s->farkas); free(s->dvx); free(s->rrow); free(s->dw);
  free(s->rpos); free(s->flist); free(s->plnext); free(s->plcol);
  free(s->pcnext); free(s->pcrow);
  free(s->ltbeg); free(s->ltidx); free(s->ltval);
  free(s->utbeg); free(s->utidx); free(s->utval);
  free(s->rlist); free(s->rmark); free(s->ilist);
  free(s->rbeg); free(s->rcol); free(s->rval);
  free(s);
}

static void scale(lp_solver *s) {
  int m = s->m, n = s->n;
  double *rmin = xcalloc((size_t)m, sizeof *rmin), *rmax = xcalloc((size_t)m, sizeof *rmax);
  for (int i = 0; i < m; i++) s->rs[i] = 1.0;
  for (int j = 0; j < n; j++) s->cs[j] = 1.0;
  if (!rmin || !rmax) { free(rmin); free(rmax); return; }
  for (int pass = 0; pass < 6; pass++) {
    for (int i = 0; i < m; i++) { rmin[i] = HUGE_VAL; rmax[i] = 0; }
    for (int j = 0; j < n; j++)
      for (int k = s->cbeg[j]; k < s->cbeg[j + 1]; k++) {
        double a = fabs(s->cval[k]) * s->cs[j];
        if (a == 0) continue;
        int i = s->cidx[k];
        if (a < rmin[i]) rmin[i] = a;
        if (a > rmax[i]) rmax[i] = a;
      }
    for (int i = 0; i < m; i++)
      if (rmax[i] > 0) s->rs[i] = 1.0 / sqrt(rmin[i] * rmax[i]);
    for (int j = 0; j < n; j++) {
      double mn = HUGE_VAL, mx = 0;
      for (int k = s->cbeg[j]; k < s->cbeg[j + 1]; k++) {
        double a = fabs(s->cval[k]) * s->rs[s->cidx[k]];
        if (a == 0) continue;
        if (a < mn) mn = a;
        if (a > mx) mx = a;
      }
      if (mx > 0) s->cs[j] = 1.0 / sqrt(mn * mx);
    }
  }
  /* powers of two: scaling is then exact */
  for (int i = 0; i < m; i++) s->rs[i] = exp2(round(log2(s->rs[i])));
  for (int j = 0; j < n; j++) s->cs[j] = exp2(round(log2(s->cs[j])));
  for (int j = 0; j < n; j++)
    for (int k = s->cbeg[j]; k < s->cbeg[j + 1]; k++)
      s->cval[k] *= s->rs[s->cidx[k]] * s->cs[j];
  free(rmin);
  free(rmax);
}

lp_solver *twill_lps_new(const lp_input *in) {
  lp_solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  int m = in->m, n = in->n, N = m + n, nz = in->cbeg[n];
  s->m = m; s->n = n; s->N = N;
  s->cbeg = xcalloc((size_t)n + 1, sizeof(int));
  s->cidx = xcalloc((size_t)nz, sizeof(int));
  s->cval = xcalloc((size_t)nz, sizeof(double));
  s->cs = xcalloc((size_t)n, sizeof(double));
  s->rs = xcalloc((size_t)m, sizeof(double));
  s->cost = xcalloc((size_t)N, sizeof(double));
  s->pcost = xcalloc((size_t)N, sizeof(double));
  s->lb = xcalloc((size_t)N, sizeof(double));
  s->ub = xcalloc((size_t)N, sizeof(double));
  s->x = xcalloc((size_t)N, sizeof(double));
  s->st = xcalloc((size_t)N, 1);
  s->head = xcalloc((size_t)m, sizeof(int));
  s->pos = xcalloc((size_t)N, sizeof(int));
  s->W = xcalloc((size_t)m * (size_t)m, sizeof(double));
  s->prow = xcalloc((size_t)m, sizeof(int));
  s->lbeg = xcalloc((size_t)m + 1, sizeof(int));
  s->ubeg = xcalloc((size_t)m + 1, sizeof(int));
  s->udiag = xcalloc((size_t)m, sizeof(double));
  s->lcap = s->ucap = 4 * m + 16;
  s->lidx = xcalloc((size_t)s->lcap, sizeof(int));
  s->uidx = xcalloc((size_t)s->ucap, sizeof(int));
  s->lval = xcalloc((size_t)s->lcap, sizeof(double));
  s->uval = xcalloc((size_t)s->ucap, sizeof(double));
  s->er = xcalloc(REFACTOR + 1, sizeof(int));
  s->epiv = xcalloc(REFACTOR + 1, sizeof(double));
  s->ebeg = xcalloc(REFACTOR + 2, sizeof(int));
  s->ecap = 4 * m + 16;
  s->eidx = xcalloc((size_t)s->ecap, sizeof(int));
  s->eval = xcalloc((size_t)s->ecap, sizeof(double));
  s->y = xcalloc((size_t)m, sizeof(double));
  s->d = xcalloc((size_t)N, sizeof(double));
  s->wa = xcalloc((size_t)m, sizeof(double));
  s->wb = xcalloc((size_t)m, sizeof(double));
  s->farkas = xcalloc((size_t)m, sizeof(double));
  s->dvx = xcalloc((size_t)N, sizeof(double));
  s->rrow = xcalloc((size_t)N, sizeof(double));
  s->dw = xcalloc((size_t)N, sizeof(double));
  s->rpos = xcalloc((size_t)m, sizeof(int));
  s->flist = xcalloc(16 * (size_t)m + 1, sizeof(int));
  s->plcap = 4 * m + 16;
  s->plnext = xcalloc((size_t)s->plcap, sizeof(int));
  s->plcol = xcalloc((size_t)s->plcap, sizeof(int));
  s->pcnext = xcalloc((size_t)s->plcap, sizeof(int));
  s->pcrow = xcalloc((size_t)s->plcap, sizeof(int));
  s->ltbeg = xcalloc((size_t)m + 1, sizeof(int));
  s->utbeg = xcalloc((size_t)m + 1, sizeof(int));
  s->ltcap = s->utcap = 4 * m + 16;
  s->ltidx = xcalloc((size_t)s->ltcap, sizeof(int));
  s->utidx = xcalloc((size_t)s->utcap, sizeof(int));
  s->ltval = xcalloc((size_t)s->ltcap, sizeof(double));
  s->utval = xcalloc((size_t)s->utcap, sizeof(double));
  s->rlist = xcalloc((size_t)N, sizeof(int));
  s->rmark = xcalloc((size_t)N, 1);
  s->ilist = xcalloc((size_t)m, sizeof(int));
  s->rbeg = xcalloc((size_t)m + 1, sizeof(int));
  s->rcol = xcalloc((size_t)nz, sizeof(int));
  s->rval = xcalloc((size_t)nz, sizeof(double));
  if (!s->plnext || !s->plcol || !s->pcnext || !s->pcrow || !s->ltbeg || !s->utbeg || !s->ltidx || !s->utidx || !s->ltval ||
      !s->utval || !s->rlist || !s->rmark || !s->ilist || !s->rbeg ||
      !s->rcol || !s->rval) {
    twill_lps_free(s);
    return NULL;
  }
  if (!s->rpos || !s->flist || !s->dw || !s->dvx || !s->rrow || !s->cbeg || !s->cidx || !s->cval || !s->cs || !s->rs || !s->cost ||
      !s->pcost || !s->lb || !s->ub || !s->x || !s->st || !s->head ||
      !s->pos || !s->W || !s->prow || !s->lbeg || !s->ubeg || !s->udiag ||
      !s->lidx || !s->uidx || !s->lval || !s->uval || !s->er || !s->epiv ||
      !s->ebeg || !s->eidx || !s->eval || !s->y || !s->d || !s->wa ||
      !s->wb || !s->farkas) {
    twill_lps_free(s);
    return NULL;
  }
  memcpy(s->cbeg, in->cbeg, ((size_t)n + 1) * sizeof(int));
  memcpy(s->cidx, in->cidx, (size_t)nz * sizeof(int));
  memcpy(s->cval, in->cval, (size_t)nz * sizeof(double));
  scale(s);
  /* the scaled A by rows (counting sort: deterministic, columns ascending
   * within a row) */
  for (int p = 0; p < nz; p++) s->rbeg[s->cidx[p] + 1]++;
  for (int i = 0; i < m; i++) s->rbeg[i + 1] += s->rbeg[i];
  {
    int *fill = s->rpos; /* m ints, free until the first factor */
    memcpy(fill, s->rbeg, (size_t)m * sizeof(int));
    for (int j = 0; j < n; j++)
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
        int q = fill[s->cidx[p]]++;
        s->rcol[q] = j;
        s->rval[q] = s->cval[p];
      }
  }
  for (int j = 0; j < n; j++) {
    s->cost[j] = in->c[j] * s->cs[j];
    s->lb[j] = in->lb[j] / s->cs[j];
    s->ub[j] = in->ub[j] / s->cs[j];
  }
  for (int i = 0; i < m; i++) {
    s->lb[n + i] = in->lb[n + i] * s->rs[i];
    s->ub[n + i] = in->ub[n + i] * s->rs[i];
  }
  memcpy(s->pcost, s->cost, (size_t)N * sizeof(double));
  /* slack basis */
  for (int j = 0; j < n; j++) {
    s->st[j] = nb_status(s, j, B_LOWER);
    s->pos[j] = -1;
    s->x[j] = nb_value(s, j);
  }
  for (int i = 0; i < m; i++) {
    s->st[n + i] = B_BASIC;
    s->head[i] = n + i;
    s->pos[n + i] = i;
  }
  s->need_factor = 1;
  s->rng = 0x9E3779B97F4A7C15ull;
  s->pricing = LP_PRICE_DEVEX;
  return s;
}

void twill_lps_compute_xb(lp_solver *s) {
  int m = s->m, n = s->n;
  double *v = s->wa;
  memset(v, 0, (size_t)m * sizeof(double));
  for (int j = 0; j < s->N; j++) {
    if (s->st[j] == B_BASIC) continue;
    double xj = s->x[j] = nb_value(s, j);
    if (xj == 0) continue;
    if (j >= n) v[j - n] += xj;
    else
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) v[s->cidx[p]] -= s->cval[p] * xj;
  }
  twill_lu_ftran(s, v);
  for (int k = 0; k < m; k++) s->x[s->head[k]] = v[k];
  s->need_xb = 0;
}

void twill_lps_compute_duals(lp_solver *s, int phase1) {
  int m = s->m;
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    if (phase1) {
      double v = s->x[j];
      s->y[k] = v < s->lb[j] - TOL_P ? -1.0 : v > s->ub[j] + TOL_P ? 1.0 : 0.0;
    } else
      s->y[k] = s->pcost[j];
  }
  twill_lu_btran(s, s->y);
  for (int j = 0; j < s->N; j++) {
    if (s->st[j] == B_BASIC) { s->d[j] = 0; continue; }
    s->d[j] = (phase1 ? 0.0 : s->pcost[j]) - dot_col(s, j, s->y);
  }
}

double twill_lps_urand(lp_solver *s) {
  s->rng ^= s->rng << 13;
  s->rng ^= s->rng >> 7;
  s->rng ^= s->rng << 17;
  return (double)(s->rng >> 11) / 9007199254740992.0;
}

void twill_lps_perturb(lp_solver *s) {
  for (int j = 0; j < s->N; j++) {
    double c = s->cost[j];
    double e = (1e-7 + 1e-6 * fabs(c)) * (0.5 + 0.5 * twill_lps_urand(s));
    if (s->st[j] == B_UPPER) e = -e;
    else if (s->st[j] == B_FREE || s->st[j] == B_FIXED) e = 0;
    s->pcost[j] = c + e;
  }
  s->perturbed = 1;
}

void twill_lps_unperturb(lp_solver *s) {
  memcpy(s->pcost, s->cost, (size_t)s->N * sizeof(double));
  s->perturbed = 0;
}

/* rrow_j = rho'[A -I]_j = (B^{-1} a_j)_r for the nonbasic, not fixed j,
 * listed in rlist[0..rcnt-1] (rrow is zero elsewhere), given
 * rho = B^{-T} e_r.  When the rows of A that rho touches hold fewer
 * nonzeros than a fraction of A, the row is accumulated from them (work
 * proportional to what is touched, and only the touched columns are
 * listed, so the ratio tests and updates that follow skip the rest);
 * otherwise by one dot product per column. */
void twill_lps_row_alpha(lp_solver *s, const double *rho) {
  int m = s->m, n = s->n, cnt = 0, nr = 0;
  long work = 0;
  for (int t = 0; t < s->rcnt; t++) s->rrow[s->rlist[t]] = 0;
  for (int i = 0; i < m; i++)
    if (rho[i] != 0) {
      s->ilist[nr++] = i;
      work += s->rbeg[i + 1] - s->rbeg[i];
    }
  if (3 * work < (long)s->cbeg[n]) {
    /* locals: a store through the byte array rmark may alias any field
     * of s, so s->... would be loaded again at every entry (this loop is
     * half of air05's time) */
    unsigned char *mark = s->rmark;
    int *list = s->rlist;
    double *row = s->rrow;
    const int *rb = s->rbeg, *rc = s->rcol, *il = s->ilist;
    const double *rv = s->rval;
    for (int t = 0; t < nr; t++) {
      int i = il[t];
      double ri = rho[i];
      for (int p = rb[i], pe = rb[i + 1]; p < pe; p++) {
        int j = rc[p];
        if (!mark[j]) { mark[j] = 1; list[cnt++] = j; }
        row[j] += rv[p] * ri;
      }
      mark[n + i] = 1;
      list[cnt++] = n + i;
      row[n + i] = -ri;
    }
    const signed char *stat = s->st;
    int k = 0;
    for (int t = 0; t < cnt; t++) {
      int j = list[t];
      signed char st = stat[j];
      mark[j] = 0;
      if (st == B_BASIC || st == B_FIXED || row[j] == 0) { row[j] = 0; continue; }
      list[k++] = j;
    }
    cnt = k;
  } else {
    /* structurals by dot products (inline: this loop is a fifth of
     * air04's time), then the logicals, whose row entry is -rho_i */
    const int *cb = s->cbeg, *ci = s->cidx;
    const double *cv = s->cval;
    const signed char *st = s->st;
    for (int j = 0; j < n; j++) {
      signed char t = st[j];
      if (t == B_BASIC || t == B_FIXED) continue;
      double a = 0;
      for (int p = cb[j]; p < cb[j + 1]; p++) a += cv[p] * rho[ci[p]];
      if (a != 0) { s->rrow[j] = a; s->rlist[cnt++] = j; }
    }
    for (int i = 0; i < m; i++) {
      signed char t = st[n + i];
      if (t == B_BASIC || t == B_FIXED || rho[i] == 0) continue;
      s->rrow[n + i] = -rho[i];
      s->rlist[cnt++] = n + i;
    }
  }
  s->rcnt = cnt;
}

int twill_lps_iteration_start(lp_solver *s, long it, long maxit, double deadline, int *d_ok) {
  if (it > maxit) return LPS_LIMIT;
  if ((it & 63) == 0 && (twill_lps_halted(s->cancel) || (deadline > 0 && twill_lps_clock() > deadline)))
    return LPS_LIMIT;
  if (s->need_factor) {
    if (!twill_lu_factor(s)) return LPS_ERROR;
    *d_ok = 0;
  }
  if (s->need_xb) twill_lps_compute_xb(s);
  return -1;
}

int twill_lps_solve(lp_solver *s, double deadline) { return twill_lps_solve_limit(s, deadline, 0); }

int twill_lps_solve_limit(lp_solver *s, double deadline, long maxit) {
  if (maxit <= 0) maxit = 20L * (s->N + s->m) + 20000;
  int ret = -1;
  /* The dual simplex runs first on fresh solves too: the slack basis is
   * dual feasible whenever every structural's cost sign matches a finite
   * bound (after flipping boxed ones), as in set partitioning (air04),
   * and the dual then needs far fewer iterations than primal phase 1.
   * A basis installed by twill_lps_set_basis (after root cuts) is dual feasible
   * and a few rows short of primal feasible: the same holds there.
   * When it is not, dual() gives up at once (-1) and the primal runs. */
  {
    ret = twill_lps_dual(s, deadline, maxit, 1);
    if (ret == LPS_INFEASIBLE || ret == LPS_LIMIT) {
      twill_lps_unperturb(s); /* a Farkas ray does not depend on the costs */
      return s->status = ret;
    }
    if (ret == LPS_OPTIMAL && !s->perturbed) {
      /* the dual declares optimality only on x_B and duals recomputed
       * from the factorization, with primal and dual feasibility checked
       * on the true costs, so a primal pass to confirm it would only
       * refactorize.  After a perturbation, the primal (phase 2: the
       * basis is primal feasible) finishes on the true costs. */
      return s->status = ret;
    }
  }
  twill_lps_unperturb(s);
  s->need_factor = 1;
  ret = twill_lps_primal(s, deadline, maxit);
  twill_lps_unperturb(s);
  return s->status = ret;
}

void twill_lps_set_perturb_early(lp_solver *s, int on) { s->perturb_early = on; }

void twill_lps_set_pricing(lp_solver *s, int rule) {
  s->pricing = rule == LP_PRICE_DANTZIG ? LP_PRICE_DANTZIG : LP_PRICE_DEVEX;
}

void twill_lps_dual_steps(const lp_solver *s, long *steps, long *degenerate) {
  *steps = s->dual_steps;
  *degenerate = s->dual_degen;
}

int twill_lps_solve_dual_limit(lp_solver *s, double deadline, long maxit) {
  /* no perturbation: twill_lps_obj after LPS_LIMIT must be a bound for the
   * true costs */
  int ret = s->iters > 0 ? twill_lps_dual(s, deadline, maxit, 0) : -1;
  if (ret < 0 || ret == LPS_ERROR) ret = LPS_ERROR;
  return s->status = ret;
}

void twill_lps_set_bounds(lp_solver *s, int j, double lb, double ub) {
  double f = j < s->n ? 1.0 / s->cs[j] : s->rs[j - s->n];
  s->lb[j] = lb * f;
  s->ub[j] = ub * f;
  if (s->st[j] != B_BASIC) {
    double old = s->x[j];
    s->st[j] = nb_status(s, j, s->st[j]);
    s->x[j] = nb_value(s, j);
    if (s->x[j] != old) s->need_xb = 1;
  }
}

void twill_lps_get_bounds(const lp_solver *s, int j, double *lb, double *ub) {
  double f = j < s->n ? s->cs[j] : 1.0 / s->rs[j - s->n];
  *lb = s->lb[j] * f;
  *ub = s->ub[j] * f;
}

double twill_lps_obj(const lp_solver *s) {
  double z = 0;
  for (int j = 0; j < s->n; j++) z += s->cost[j] * s->x[j];
  return z;
}

void twill_lps_get_x(const lp_solver *s, double *x) {
  for (int j = 0; j < s->n; j++) x[j] = s->x[j] * s->cs[j];
  for (int i = 0; i < s->m; i++) x[s->n + i] = s->x[s->n + i] / s->rs[i];
}

void twill_lps_get_dual(const lp_solver *s, double *y, double *d) {
  /* recompute with the true costs */
  lp_solver *w = (lp_solver *)s;
  double *save = malloc((size_t)w->N * sizeof(double));
  if (save) {
    memcpy(save, w->pcost, (size_t)w->N * sizeof(double));
    memcpy(w->pcost, w->cost, (size_t)w->N * sizeof(double));
  }
  twill_lps_compute_duals(w, 0);
  if (save) {
    memcpy(w->pcost, save, (size_t)w->N * sizeof(double));
    free(save);
  }
  if (y)
    for (int i = 0; i < s->m; i++) y[i] = s->y[i] * s->rs[i];
  if (d)
    for (int j = 0; j < s->n; j++) d[j] = s->d[j] / s->cs[j];
}

void twill_lps_get_farkas(const lp_solver *s, double *y) {
  for (int i = 0; i < s->m; i++) y[i] = s->farkas[i] * s->rs[i];
}

void twill_lps_get_basis(const lp_solver *s, signed char *st) { memcpy(st, s->st, (size_t)s->N); }

void twill_lps_set_basis(lp_solver *s, const signed char *st) {
  int same = 1;
  for (int j = 0; j < s->N && same; j++)
    if ((st[j] == B_BASIC) != (s->st[j] == B_BASIC)) same = 0;
  if (same) {
    /* the same basic set: keep the factorization, set the nonbasic sides */
    for (int j = 0; j < s->N; j++) {
      if (st[j] == B_BASIC || st[j] == s->st[j]) continue;
      s->st[j] = nb_status(s, j, st[j]);
      s->x[j] = nb_value(s, j);
    }
    s->need_xb = 1; /* bound flips may have moved x_B */
    return;
  }
  int k = 0;
  for (int j = 0; j < s->N; j++) {
    if (st[j] == B_BASIC && k < s->m) {
      s->st[j] = B_BASIC;
      s->head[k] = j;
      s->pos[j] = k++;
    } else {
      s->st[j] = nb_status(s, j, st[j] == B_BASIC ? B_LOWER : st[j]);
      s->pos[j] = -1;
      s->x[j] = nb_value(s, j);
    }
  }
  /* fill missing positions with logicals that are not basic */
  for (int i = 0; i < s->m && k < s->m; i++)
    if (s->st[s->n + i] != B_BASIC) {
      s->st[s->n + i] = B_BASIC;
      s->head[k] = s->n + i;
      s->pos[s->n + i] = k++;
    }
  s->need_factor = 1;
}

long twill_lps_iterations(const lp_solver *s) { return s->iters; }

/* Row of the simplex tableau of the basic variable j, unscaled: the
 * multipliers u (m) of the rows of A x - s = 0 for which u'(A x - s) = 0
 * reads  z_j + sum_{k nonbasic} alpha_k z_k = 0  (alpha_j = 1, the other
 * basic alphas 0 up to rounding), alpha over all n + m variables (a
 * logical n+i has alpha = -u_i).  In scaled terms u~ = B~^{-T} e_r gives
 * alpha~_k = u~'a~_k; with x~ = x / cs and s~ = rs s, alpha_k = alpha~_k /
 * cs_k, alpha_{n+i} = -u~_i rs_i, all times cs_j so that z_j's coefficient
 * is 1 (times 1/rs for a logical j).  Returns 0 when j is not basic or the
 * factorization fails. */
int twill_lps_tableau_row(lp_solver *s, int j, double *u, double *alpha) {
  int m = s->m, n = s->n;
  if (j < 0 || j >= s->N || s->st[j] != B_BASIC) return 0;
  if (s->need_factor && !twill_lu_factor(s)) return 0;
  if (s->st[j] != B_BASIC) return 0; /* a singular factor may drop it */
  double *v = s->wa;
  memset(v, 0, (size_t)m * sizeof(double));
  v[s->pos[j]] = 1.0;
  twill_lu_btran(s, v);
  double norm = j < n ? s->cs[j] : 1.0 / s->rs[j - n];
  for (int i = 0; i < m; i++) u[i] = v[i] * s->rs[i] * norm;
  for (int k = 0; k < s->N; k++) {
    if (k >= n) alpha[k] = -u[k - n];
    else alpha[k] = dot_col(s, k, v) / s->cs[k] * norm;
  }
  return 1;
}
