/* ilp/lp.c: bounded revised simplex, primal (phase 1/2) and dual.
 *
 * Notation (scaled problem, see lp.h):  [A -I] z = 0, z = (x, s),
 * lb <= z <= ub.  B is the basis matrix (columns head[0..m-1]); N the rest.
 *   x_B = -B^{-1} N z_N                                (basic values)
 *   y   = B^{-T} c_B,  d_j = c_j - y'a_j               (duals, reduced costs)
 * For a logical n+i the column is -e_i, so d_{n+i} = y_i.
 * Optimality (minimize): d_j >= 0 at lower, d_j <= 0 at upper, d_j = 0 free.
 *
 * Factorization: P B Q = L U; basic logicals and column singletons are
 * pivoted first, the remaining nucleus is eliminated in a dense workspace
 * with Markowitz-style threshold pivoting (see factor), and L and U are
 * stored as sparse columns and again as sparse rows (btran); updates
 * B_k = B_0 E_1 ... E_k in product form (E_t the identity with column r
 * replaced by alpha = B^{-1}a_q), refactorized when the etas' work exceeds
 * the factorization's (at most every REFACTOR updates).
 */
#include "lp.h"
#include "twill/ilp.h"

#include <assert.h>
#include <signal.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REFACTOR 100  /* most updates between factorizations */
/* refactorize once the etas cost this many factorizations (see
 * basis_change); 2 measured best of 0.5, 1, 2, 4 on 25fv47, nesm, perold */
#define ECOST_F 2.0
#define TOL_P 1e-9   /* primal feasibility (scaled) */
#define TOL_D 1e-9   /* dual feasibility (scaled) */
#define TOL_PIV 1e-9 /* smallest pivot accepted in ratio tests */
#define TOL_SING 1e-10
#define PIV_REL 0.1  /* threshold of the nucleus' pivoting, see factor */

enum { B_BASIC = 0, B_LOWER = 1, B_UPPER = 2, B_FREE = 3, B_FIXED = 4 };

struct lp_solver {
  int m, n, N;
  int *cbeg, *cidx;
  double *cval;
  double *cs, *rs;      /* column and row scale factors (powers of 2) */
  double *cost, *pcost; /* scaled costs, perturbed costs in use */
  double *lb, *ub, *x;  /* scaled, N */
  signed char *st;
  int *head, *pos;
  /* factor */
  double *W;
  int *prow;
  int *lbeg, *lidx, *ubeg, *uidx;
  double *lval, *uval, *udiag;
  int lcap, ucap;
  /* L and U again by rows, so that btran can skip zeros (scatter form)
   * like ftran does with the columns: results of btran(e_r) are sparse */
  int *ltbeg, *ltidx, *utbeg, *utidx;
  double *ltval, *utval;
  int ltcap, utcap;
  int neta, *er, *ebeg, *eidx, ecap;
  double *eval, *epiv;
  int need_factor;
  int need_xb;          /* nonbasic values changed: recompute x_B */
  int *rpos, *flist;    /* factor work, m and 16 m + 1 */
  int *plnext, *plcol, *pcnext, *pcrow, plcap; /* factor: nucleus lists */
  int wdirty;           /* W not all zero (see factor) */
  double fcost, ecost;  /* work of the last factor, of the etas since */
  /* work */
  double *y, *d, *wa, *wb, *farkas;
  double *dvx;          /* primal devex reference weights, N */
  double *rrow;        /* pivot row alpha_r (N), zero outside rlist */
  int *rlist, rcnt;     /* its nonzeros (nonbasic, not fixed), N */
  unsigned char *rmark; /* N, all zero between calls of row_alpha */
  int *ilist;           /* m: nonzero rows of rho */
  int *rbeg, *rcol;     /* A by rows (scaled), for sparse pivot rows */
  double *rval;
  double *dw;          /* dual devex weights of the basic variables, N */
  long iters;
  int status;
  int perturbed;
  int perturb_early;    /* twill_lps_set_perturb_early */
  long dual_steps, dual_degen; /* dual pivots, those with a zero step */
  uint64_t rng;
  const atomic_int *cancel; /* twill_lps_set_cancel */
};

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

static double nb_value(const lp_solver *s, int j) {
  switch (s->st[j]) {
  case B_LOWER: case B_FIXED: return s->lb[j];
  case B_UPPER: return s->ub[j];
  case B_FREE: return 0.0;
  default: return s->x[j];
  }
}

/* Nonbasic status for variable j given its bounds, keeping `pref` if it is
 * still valid. */
static signed char nb_status(const lp_solver *s, int j, int pref) {
  double l = s->lb[j], u = s->ub[j];
  if (l == u) return B_FIXED;
  if (pref == B_UPPER && u < HUGE_VAL) return B_UPPER;
  if (pref == B_LOWER && l > -HUGE_VAL) return B_LOWER;
  if (l > -HUGE_VAL) return B_LOWER;
  if (u < HUGE_VAL) return B_UPPER;
  return B_FREE;
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
  return s;
}

/* ---- factorization ------------------------------------------------------ */

static int grow(void **p, int *cap, int need, size_t sz) {
  if (need <= *cap) return 1;
  int nc = *cap;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, (size_t)nc * sz);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  return 1;
}

static int grow2(int **ip, double **vp, int *cap, int need) {
  if (need <= *cap) return 1;
  int c1 = *cap, c2 = *cap;
  if (!grow((void **)ip, &c1, need, sizeof(int))) return 0;
  if (!grow((void **)vp, &c2, need, sizeof(double))) return 0;
  *cap = c1;
  return 1;
}

/* Set variable j nonbasic after it left the basis with value v. */
static void make_nonbasic(lp_solver *s, int j, double v) {
  int pref = B_LOWER;
  if (s->ub[j] < HUGE_VAL && (s->lb[j] == -HUGE_VAL || fabs(v - s->ub[j]) < fabs(v - s->lb[j])))
    pref = B_UPPER;
  s->st[j] = nb_status(s, j, pref);
  s->pos[j] = -1;
  s->x[j] = nb_value(s, j);
}

/* Order the basis for the dense elimination: logicals first, then
 * structurals by increasing column count (a stable counting sort, so the
 * order is deterministic).  Partial pivoting in column order then meets
 * the sparse columns first, which keeps the fill of L and U small. */
static int order_basis(lp_solver *s) {
  int m = s->m, n = s->n, maxc = 0;
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    int c = j >= n ? 0 : s->cbeg[j + 1] - s->cbeg[j];
    if (c > maxc) maxc = c;
  }
  int *cnt = calloc((size_t)maxc + 2, sizeof(int));
  int *nh = malloc((size_t)(m ? m : 1) * sizeof(int));
  if (!cnt || !nh) { free(cnt); free(nh); return 0; }
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    cnt[(j >= n ? 0 : s->cbeg[j + 1] - s->cbeg[j]) + 1]++;
  }
  for (int c = 1; c <= maxc + 1; c++) cnt[c] += cnt[c - 1];
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    nh[cnt[j >= n ? 0 : s->cbeg[j + 1] - s->cbeg[j]]++] = j;
  }
  for (int k = 0; k < m; k++) {
    s->head[k] = nh[k];
    s->pos[nh[k]] = k;
  }
  free(cnt);
  free(nh);
  return 1;
}

/* (tbeg, tidx, tval) := the m x m matrix (beg, idx, val) (by columns) by
 * rows, a counting sort (deterministic); fill is m ints of workspace. */
static int transpose(int m, const int *beg, const int *idx, const double *val,
                     int *tbeg, int **tidx, double **tval, int *tcap, int *fill) {
  int nz = beg[m];
  if (!grow2(tidx, tval, tcap, nz)) return 0;
  memset(tbeg, 0, ((size_t)m + 1) * sizeof(int));
  for (int p = 0; p < nz; p++) tbeg[idx[p] + 1]++;
  for (int i = 0; i < m; i++) tbeg[i + 1] += tbeg[i];
  memcpy(fill, tbeg, (size_t)m * sizeof(int));
  for (int k = 0; k < m; k++)
    for (int p = beg[k]; p < beg[k + 1]; p++) {
      int q = fill[idx[p]]++;
      (*tidx)[q] = k;
      (*tval)[q] = val[p];
    }
  return 1;
}

/* The logicals of the basis (order_basis puts them first) pivot on their
 * own rows: with those rows first, P B = [-I B12; 0 B22], so that only the
 * structural block B22 (rows not covered by a basic logical) goes through
 * the dense elimination, and U takes B12 as it is.  The work is then
 * O(s^2) for s basic structurals instead of O(m^2). */
static int factor(lp_solver *s) {
  int m = s->m, n = s->n;
  double *W = s->W;
  if (!order_basis(s)) return 0;
  int nl = 0;
  while (nl < m && s->head[nl] >= n) nl++;
  int *rpos = s->rpos, *list = s->flist;
  for (int i = 0; i < m; i++) rpos[i] = -1;
  for (int k = 0; k < nl; k++) {
    int i = s->head[k] - n;
    s->prow[k] = i;
    rpos[i] = k;
  }
  /* column singletons: a structural with one nonzero in the rows not yet
   * pivoted pivots there, its other entries go to U; repeat */
  int nfix = nl;
  {
    int ns = m - nl, bnz = 0;
    for (int k = nl; k < m; k++) bnz += s->cbeg[s->head[k] + 1] - s->cbeg[s->head[k]];
    int *cnt = malloc(((size_t)ns + 1) * sizeof(int));
    int *rbeg = calloc((size_t)m + 2, sizeof(int));
    int *rk = malloc(((size_t)bnz + 1) * sizeof(int));
    int *queue = malloc(((size_t)ns + 1) * sizeof(int));
    int *nh = malloc(((size_t)m + 1) * sizeof(int));
    char *done = calloc((size_t)ns + 1, 1);
    if (!cnt || !rbeg || !rk || !queue || !nh || !done) {
      free(cnt); free(rbeg); free(rk); free(queue); free(nh); free(done);
      return 0;
    }
    for (int k = 0; k < ns; k++) {
      int j = s->head[nl + k];
      cnt[k] = 0;
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++)
        if (s->cval[p] != 0 && rpos[s->cidx[p]] < 0) { cnt[k]++; rbeg[s->cidx[p] + 2]++; }
    }
    for (int i = 0; i < m; i++) rbeg[i + 2] += rbeg[i + 1];
    for (int k = 0; k < ns; k++) {
      int j = s->head[nl + k];
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++)
        if (s->cval[p] != 0 && rpos[s->cidx[p]] < 0) rk[rbeg[s->cidx[p] + 1]++] = k;
    }
    int qh = 0, qt = 0;
    for (int k = 0; k < ns; k++)
      if (cnt[k] == 1) queue[qt++] = k;
    for (int k = 0; k < nl; k++) nh[k] = s->head[k];
    while (qh < qt) {
      int k = queue[qh++];
      if (done[k] || cnt[k] != 1) continue;
      int j = s->head[nl + k], r = -1;
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1] && r < 0; p++)
        if (s->cval[p] != 0 && rpos[s->cidx[p]] < 0) r = s->cidx[p];
      if (r < 0) continue;
      done[k] = 1;
      rpos[r] = nfix;
      s->prow[nfix] = r;
      nh[nfix++] = j;
      for (int q = rbeg[r]; q < rbeg[r + 1]; q++) {
        int k2 = rk[q];
        if (done[k2]) continue;
        if (--cnt[k2] == 1) queue[qt++] = k2;
      }
    }
    for (int k = 0, t = nfix; k < ns; k++)
      if (!done[k]) nh[t++] = s->head[nl + k];
    for (int k = nl; k < m; k++) {
      s->head[k] = nh[k];
      s->pos[nh[k]] = k;
    }
    free(cnt); free(rbeg); free(rk); free(queue); free(nh); free(done);
  }
  for (int i = 0, t = nfix; i < m; i++)
    if (rpos[i] < 0) { s->prow[t] = i; rpos[i] = t++; }
  int sz = m - nfix;
  /* Markowitz-style pivoting in the nucleus: each step takes the active
   * column with the fewest nonzeros in the active rows, and in it, among
   * the entries within a factor PIV_REL of the largest (threshold partial
   * pivoting), the one whose row has the fewest active nonzeros.  Plain
   * partial pivoting in a fixed column order filled L and U of air04's
   * bases to 20 times the nonzeros of B; the counts (kept exact through
   * fill and cancellation) keep them close to B's.
   * Rows are not moved in W: physical row i of the nucleus is row
   * orow[i] of B, ipos[i] the step that pivots it (-1 while active), and
   * arow[0..na-1] lists the active ones; a swap of rows across all the
   * columns cost a cache miss per column and step.  W is all zero on
   * entry (the extraction clears what it reads), so no O(sz^2) memset
   * either, unless an allocation failure left it dirty. */
  int *rcnt = list + m, *ccnt = list + 2 * m, *orow = list + 3 * m;
  int *ipos = list + 4 * m, *arow = list + 5 * m, *ohead = list + 6 * m;
  int *cperm = list + 7 * m, *bnext = list + 8 * m, *rhead = list + 9 * m;
  int *cmark = list + 10 * m, *cstep = list + 11 * m;
  int *chead = list + 12 * m, *rmk = list + 13 * m;
  int *bprev = list + 14 * m, *bhead = list + 15 * m; /* bhead: m + 1 */
  if (s->wdirty) memset(W, 0, (size_t)m * (size_t)m * sizeof(double));
  s->wdirty = 1;
  for (int i = 0; i < sz; i++) {
    orow[i] = s->prow[nfix + i];
    ipos[i] = -1;
    arow[i] = i;
    rcnt[i] = 0;
    rhead[i] = -1;
    ohead[i] = s->head[nfix + i];
    cmark[i] = -1;
    cstep[i] = -1;
    chead[i] = -1;
    rmk[i] = -1;
  }
  /* the columns of each row and the rows of each column that may hold a
   * nonzero (a pool of entries linked both ways; stale ones, whose value
   * cancelled to zero, and repeated ones are skipped), so that a step
   * visits only the entries of its pivot row and column */
  int np = 0;
#define ROW_ADD(i_, c_)                                                     \
  do {                                                                      \
    if (np == s->plcap) {                                                   \
      int c1 = s->plcap, c2 = s->plcap;                                     \
      int c3 = s->plcap, c4 = s->plcap;                                     \
      if (!grow((void **)&s->plnext, &c1, np + 1, sizeof(int)) ||           \
          !grow((void **)&s->plcol, &c2, np + 1, sizeof(int)) ||            \
          !grow((void **)&s->pcnext, &c3, np + 1, sizeof(int)) ||           \
          !grow((void **)&s->pcrow, &c4, np + 1, sizeof(int)))              \
        return 0;                                                           \
      s->plcap = c1;                                                        \
    }                                                                       \
    s->plcol[np] = (c_);                                                    \
    s->plnext[np] = rhead[i_];                                              \
    s->pcrow[np] = (i_);                                                    \
    s->pcnext[np] = chead[c_];                                              \
    chead[c_] = np;                                                         \
    rhead[i_] = np++;                                                       \
  } while (0)
  int na = sz;
  double fops = (double)m + np; /* the work of this factorization, see fcost */
  for (int c = 0; c < sz; c++) {
    int j = ohead[c], cc = 0;
    double *col = W + (size_t)c * sz;
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
      int i = rpos[s->cidx[p]] - nfix;
      if (i < 0) continue;
      double o = col[i], v = o + s->cval[p];
      if (o == 0 && v != 0) { cc++; rcnt[i]++; ROW_ADD(i, c); }
      else if (o != 0 && v == 0) { cc--; rcnt[i]--; }
      col[i] = v;
    }
    ccnt[c] = cc;
  }
  /* the active columns in buckets by count (doubly linked), so that the
   * sparsest one is found without a scan; bmin bounds the smallest count */
#define B_OUT(c_)                                                           \
  do {                                                                      \
    int c0_ = (c_);                                                         \
    if (bprev[c0_] >= 0) bnext[bprev[c0_]] = bnext[c0_];                   \
    else bhead[ccnt[c0_]] = bnext[c0_];                                     \
    if (bnext[c0_] >= 0) bprev[bnext[c0_]] = bprev[c0_];                   \
  } while (0)
#define B_IN(c_)                                                            \
  do {                                                                      \
    int c0_ = (c_), n0_ = ccnt[c0_];                                        \
    bprev[c0_] = -1;                                                        \
    bnext[c0_] = bhead[n0_];                                                \
    if (bhead[n0_] >= 0) bprev[bhead[n0_]] = c0_;                           \
    bhead[n0_] = c0_;                                                       \
    if (n0_ < bmin) bmin = n0_;                                             \
  } while (0)
  int bmin = sz;
  for (int t = 0; t <= sz; t++) bhead[t] = -1;
  for (int c = sz - 1; c >= 0; c--) B_IN(c);
  for (int k = 0; k < sz; k++) {
    while (bhead[bmin] < 0) bmin++;
    int c = bhead[bmin];
    B_OUT(c);
    fops += na;
    cperm[k] = c;
    cstep[c] = k;
    double *ck = W + (size_t)c * sz;
    int p = -1;
    double best = 0;
    for (int e = chead[c]; e >= 0; e = s->pcnext[e]) {
      int i = s->pcrow[e];
      if (ipos[i] < 0 && fabs(ck[i]) > best) best = fabs(ck[i]);
    }
    if (best >= TOL_SING) {
      double bv = 0;
      for (int e = chead[c]; e >= 0; e = s->pcnext[e]) {
        int i = s->pcrow[e];
        double a = fabs(ck[i]);
        if (ipos[i] >= 0 || a < PIV_REL * best) continue;
        if (p < 0 || rcnt[i] < rcnt[p] || (rcnt[i] == rcnt[p] && (a > bv || (a == bv && i < p)))) {
          p = i; bv = a;
        }
      }
    } else {
      /* singular: replace the column by the logical of the active row
       * with the lowest index (its transformed column is -e_p, see the
       * note in ilp/lp.h) */
      for (int t = 0; t < na; t++)
        if (p < 0 || arow[t] < p) p = arow[t];
      int old = ohead[c];
      int lg = n + orow[p];
      for (int t = 0; t < na; t++)
        if (ck[arow[t]] != 0) rcnt[arow[t]]--;
      for (int i = 0; i < sz; i++) ck[i] = 0;
      ck[p] = -1.0;
      rcnt[p]++;
      ROW_ADD(p, c);
      ohead[c] = lg;
      s->st[lg] = B_BASIC;
      make_nonbasic(s, old, s->x[old]);
    }
    ipos[p] = k;
    for (int t = 0; t < na; t++)
      if (arow[t] == p) { arow[t] = arow[--na]; break; }
    double piv = ck[p];
    int cnt = 0;
    for (int e = chead[c]; e >= 0; e = s->pcnext[e]) {
      int i = s->pcrow[e];
      if (ipos[i] >= 0 || rmk[i] == k || ck[i] == 0) continue;
      rmk[i] = k;
      ck[i] /= piv;
      list[cnt++] = i;
      rcnt[i]--;
    }
    for (int e = rhead[p]; e >= 0; e = s->plnext[e]) {
      int j = s->plcol[e];
      if (cstep[j] >= 0 || cmark[j] == k) continue;
      cmark[j] = k;
      double *cj = W + (size_t)j * sz;
      double f = cj[p];
      if (f == 0) continue;
      B_OUT(j);
      ccnt[j]--; /* row p leaves the active rows */
      fops += cnt;
      for (int t = 0; t < cnt; t++) {
        int i = list[t];
        double o = cj[i], v = o - ck[i] * f;
        if (o == 0 && v != 0) { rcnt[i]++; ccnt[j]++; ROW_ADD(i, j); }
        else if (o != 0 && v == 0) { rcnt[i]--; ccnt[j]--; }
        cj[i] = v;
      }
      B_IN(j);
    }
  }
#undef ROW_ADD
#undef B_OUT
#undef B_IN
  for (int k = 0; k < sz; k++) {
    int j = ohead[cperm[k]];
    s->head[nfix + k] = j;
    s->pos[j] = nfix + k;
  }
  /* row positions after the dense pivoting */
  for (int i = 0; i < sz; i++) s->prow[nfix + ipos[i]] = orow[i];
  for (int k = nfix; k < m; k++) rpos[s->prow[k]] = k;
  /* extract L (below diagonal) and U (entries in earlier rows, then above
   * the diagonal of the dense block) as sparse columns, clearing W */
  int nlz = 0, nuz = 0;
  for (int k = 0; k < nl; k++) {
    s->lbeg[k] = 0;
    s->ubeg[k] = 0;
    s->udiag[k] = -1.0;
  }
  for (int k = nl; k < nfix; k++) {
    int j = s->head[k];
    s->lbeg[k] = 0;
    s->ubeg[k] = nuz;
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
      int i = rpos[s->cidx[p]];
      if (s->cval[p] == 0) continue;
      if (i == k) { s->udiag[k] = s->cval[p]; continue; }
      if (!grow2(&s->uidx, &s->uval, &s->ucap, nuz + 1)) return 0;
      s->uidx[nuz] = i; s->uval[nuz++] = s->cval[p];
    }
  }
  for (int k = nfix; k < m; k++) {
    double *ck = W + (size_t)cperm[k - nfix] * sz;
    int j = s->head[k];
    s->lbeg[k] = nlz;
    s->ubeg[k] = nuz;
    if (j < n)
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
        int i = rpos[s->cidx[p]];
        if (i >= nfix || s->cval[p] == 0) continue;
        if (!grow2(&s->uidx, &s->uval, &s->ucap, nuz + 1)) return 0;
        s->uidx[nuz] = i; s->uval[nuz++] = s->cval[p];
      }
    for (int e = chead[cperm[k - nfix]]; e >= 0; e = s->pcnext[e]) {
      int i = s->pcrow[e];
      double v = ck[i];
      if (v == 0) continue;
      ck[i] = 0;
      int r = nfix + ipos[i];
      if (r == k) s->udiag[k] = v;
      else if (r < k) {
        if (!grow2(&s->uidx, &s->uval, &s->ucap, nuz + 1)) return 0;
        s->uidx[nuz] = r; s->uval[nuz++] = v;
      } else {
        if (!grow2(&s->lidx, &s->lval, &s->lcap, nlz + 1)) return 0;
        s->lidx[nlz] = r; s->lval[nlz++] = v;
      }
    }
  }
  s->wdirty = 0;
  /* with what follows every factorization: x_B and the duals recomputed
   * (a pass over A each) */
  s->fcost = fops + 3.0 * (nlz + nuz) + 2.0 * s->cbeg[n];
  s->ecost = 0;
  s->lbeg[m] = nlz;
  s->ubeg[m] = nuz;
  if (!transpose(m, s->lbeg, s->lidx, s->lval, s->ltbeg, &s->ltidx, &s->ltval, &s->ltcap, rpos) ||
      !transpose(m, s->ubeg, s->uidx, s->uval, s->utbeg, &s->utidx, &s->utval, &s->utcap, rpos))
    return 0;
  s->neta = 0;
  s->ebeg[0] = 0;
  s->need_factor = 0;
  s->need_xb = 1;
  return 1;
}

/* v (indexed by row) := B^{-1} v (indexed by basis position). */
static void ftran(lp_solver *s, double *v) {
  int m = s->m;
  double *t = s->wb;
  for (int k = 0; k < m; k++) t[k] = v[s->prow[k]];
  for (int k = 0; k < m; k++) {
    double tk = t[k];
    if (tk == 0) continue;
    for (int p = s->lbeg[k]; p < s->lbeg[k + 1]; p++) t[s->lidx[p]] -= s->lval[p] * tk;
  }
  for (int k = m - 1; k >= 0; k--) {
    if (t[k] == 0) continue;
    double tk = t[k] /= s->udiag[k];
    for (int p = s->ubeg[k]; p < s->ubeg[k + 1]; p++) t[s->uidx[p]] -= s->uval[p] * tk;
  }
  for (int e = 0; e < s->neta; e++) {
    int r = s->er[e];
    double tr = t[r];
    if (tr == 0) continue;
    tr /= s->epiv[e];
    for (int p = s->ebeg[e]; p < s->ebeg[e + 1]; p++) t[s->eidx[p]] -= s->eval[p] * tr;
    t[r] = tr;
  }
  memcpy(v, t, (size_t)m * sizeof(double));
}

/* v (indexed by basis position) := B^{-T} v (indexed by row). */
static void btran(lp_solver *s, double *v) {
  int m = s->m;
  for (int e = s->neta - 1; e >= 0; e--) {
    int r = s->er[e];
    double sum = v[r];
    for (int p = s->ebeg[e]; p < s->ebeg[e + 1]; p++) sum -= s->eval[p] * v[s->eidx[p]];
    v[r] = sum / s->epiv[e];
  }
  /* U' then L' in scatter form over the rows of U and L: a zero v[k]
   * costs nothing, and btran(e_r) stays sparse */
  for (int k = 0; k < m; k++) {
    if (v[k] == 0) continue;
    double vk = v[k] /= s->udiag[k];
    for (int p = s->utbeg[k]; p < s->utbeg[k + 1]; p++) v[s->utidx[p]] -= s->utval[p] * vk;
  }
  for (int k = m - 1; k >= 0; k--) {
    double vk = v[k];
    if (vk == 0) continue;
    for (int p = s->ltbeg[k]; p < s->ltbeg[k + 1]; p++) v[s->ltidx[p]] -= s->ltval[p] * vk;
  }
  double *t = s->wb;
  for (int k = 0; k < m; k++) t[s->prow[k]] = v[k];
  memcpy(v, t, (size_t)m * sizeof(double));
}

/* Replace the basic variable at position r by q; alpha = B^{-1} a_q. */
static int basis_change(lp_solver *s, int r, int q, const double *alpha) {
  int m = s->m;
  int e = s->neta;
  int base = s->ebeg[e], cnt = 0;
  for (int i = 0; i < m; i++)
    if (i != r && alpha[i] != 0) cnt++;
  if (!grow2(&s->eidx, &s->eval, &s->ecap, base + cnt)) return 0;
  for (int i = 0; i < m; i++)
    if (i != r && alpha[i] != 0) { s->eidx[base] = i; s->eval[base++] = alpha[i]; }
  s->er[e] = r;
  s->epiv[e] = alpha[r];
  s->ebeg[e + 1] = base;
  s->neta = e + 1;
  s->head[r] = q;
  s->pos[q] = r;
  s->st[q] = B_BASIC;
  /* refactorize when the etas' extra work since the last factorization
   * (each iteration passes over the eta file in ftran and btran, about
   * twice and more) exceeds the work of a factorization: that keeps the
   * total near its minimum over the refactorization interval */
  s->ecost += 3.0 * s->ebeg[s->neta];
  if (s->neta >= REFACTOR || s->ecost > ECOST_F * s->fcost) s->need_factor = 1;
  return 1;
}

/* Load column j of [A -I] into dense v (row indexed). */
static void load_col(const lp_solver *s, int j, double *v) {
  memset(v, 0, (size_t)s->m * sizeof(double));
  if (j >= s->n) v[j - s->n] = -1.0;
  else
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) v[s->cidx[p]] = s->cval[p];
}

static double dot_col(const lp_solver *s, int j, const double *y) {
  if (j >= s->n) return -y[j - s->n];
  double sum = 0;
  for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) sum += s->cval[p] * y[s->cidx[p]];
  return sum;
}

static void compute_xb(lp_solver *s) {
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
  ftran(s, v);
  for (int k = 0; k < m; k++) s->x[s->head[k]] = v[k];
  s->need_xb = 0;
}

static double infeas(const lp_solver *s, int j) {
  double v = s->x[j];
  if (v < s->lb[j] - TOL_P) return s->lb[j] - v;
  if (v > s->ub[j] + TOL_P) return v - s->ub[j];
  return 0;
}

/* phase 1 cost of basic variable j: the gradient of its infeasibility */
static signed char p1cost(const lp_solver *s, int j) {
  double v = s->x[j];
  return v < s->lb[j] - TOL_P ? -1 : v > s->ub[j] + TOL_P ? 1 : 0;
}

/* duals for cost vector: phase1 ? sum-of-infeasibility costs : pcost */
static void compute_duals(lp_solver *s, int phase1) {
  int m = s->m;
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    if (phase1) {
      double v = s->x[j];
      s->y[k] = v < s->lb[j] - TOL_P ? -1.0 : v > s->ub[j] + TOL_P ? 1.0 : 0.0;
    } else
      s->y[k] = s->pcost[j];
  }
  btran(s, s->y);
  for (int j = 0; j < s->N; j++) {
    if (s->st[j] == B_BASIC) { s->d[j] = 0; continue; }
    s->d[j] = (phase1 ? 0.0 : s->pcost[j]) - dot_col(s, j, s->y);
  }
}

static double urand(lp_solver *s) {
  s->rng ^= s->rng << 13;
  s->rng ^= s->rng >> 7;
  s->rng ^= s->rng << 17;
  return (double)(s->rng >> 11) / 9007199254740992.0;
}

static void perturb(lp_solver *s) {
  for (int j = 0; j < s->N; j++) {
    double c = s->cost[j];
    double e = (1e-7 + 1e-6 * fabs(c)) * (0.5 + 0.5 * urand(s));
    if (s->st[j] == B_UPPER) e = -e;
    else if (s->st[j] == B_FREE || s->st[j] == B_FIXED) e = 0;
    s->pcost[j] = c + e;
  }
  s->perturbed = 1;
}

static void unperturb(lp_solver *s) {
  memcpy(s->pcost, s->cost, (size_t)s->N * sizeof(double));
  s->perturbed = 0;
}

/* ---- primal simplex ------------------------------------------------------
 * Pricing is devex (Forrest and Goldfarb's reference framework, as in
 * Koberstein's thesis, section 7.1): the entering q maximizes d_j^2 / w_j,
 * where w_j approximates the squared norm of the edge direction of j
 * measured in the reference variables (those nonbasic at the last reset).
 * After a pivot with pivot row alpha_r and pivot alpha_rq, for nonbasic j:
 *   w_j := max(w_j, (alpha_rj / alpha_rq)^2 w_q),
 *   w_leaving := max(w_q / alpha_rq^2, 1).
 * The pivot row also updates the reduced costs in phase 2,
 *   d_j := d_j - (d_q / alpha_rq) alpha_rj,  d_leaving := -d_q / alpha_rq,
 * so y is recomputed only after a refactorization or a change of costs. */

static void devex_reset(lp_solver *s) {
  for (int j = 0; j < s->N; j++) s->dvx[j] = 1.0;
}

/* rrow_j = rho'[A -I]_j = (B^{-1} a_j)_r for the nonbasic, not fixed j,
 * listed in rlist[0..rcnt-1] (rrow is zero elsewhere), given
 * rho = B^{-T} e_r.  When the rows of A that rho touches hold fewer
 * nonzeros than a fraction of A, the row is accumulated from them (work
 * proportional to what is touched, and only the touched columns are
 * listed, so the ratio tests and updates that follow skip the rest);
 * otherwise by one dot product per column. */
static void row_alpha(lp_solver *s, const double *rho) {
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

/* The primal's pivot row r; rho (m) is workspace. */
static void pivot_row(lp_solver *s, int r, double *rho) {
  memset(rho, 0, (size_t)s->m * sizeof(double));
  rho[r] = 1.0;
  btran(s, rho);
  row_alpha(s, rho);
}

static int primal(lp_solver *s, double deadline, long maxit) {
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
  devex_reset(s);
  for (long it = 0;; it++) {
    if (it > maxit) { ret = LPS_LIMIT; goto out; }
    if ((it & 63) == 0 && (twill_lps_halted(s->cancel) || (deadline > 0 && twill_lps_clock() > deadline))) {
      ret = LPS_LIMIT;
      goto out;
    }
    if (s->need_factor) {
      if (!factor(s)) goto out;
      d_ok = 0;
    }
    if (s->need_xb) compute_xb(s);
    int phase1 = 0;
    for (int k = 0; k < m; k++)
      if (infeas(s, s->head[k]) > 0) { phase1 = 1; break; }
    if (phase1 != last_phase) {
      if (last_phase == 1) devex_reset(s);
      last_phase = phase1;
      d_ok = 0;
    }
    if (!phase1 && !s->perturbed && stall > 50) { perturb(s); d_ok = 0; }
    if (!d_ok) {
      compute_duals(s, phase1);
      if (phase1)
        for (int k = 0; k < m; k++) p1c[k] = p1cost(s, s->head[k]);
    }
    d_ok = 1;
    /* pricing: devex, or Bland (lowest index) when stalling long */
    int q = -1;
    double best = 0;
    int bland = stall > 5000;
    /* v = the improvement rate of j (positive when attractive); the
     * comparison v^2 / w > best is made as v^2 > best w, so that the
     * division is done only for a new best (this loop runs over all N
     * every iteration) */
    for (int j = 0; j < s->N; j++) {
      signed char t = s->st[j];
      double dj = s->d[j], v;
      if (t == B_LOWER) v = -dj;
      else if (t == B_UPPER) v = dj;
      else if (t == B_FREE) v = fabs(dj);
      else continue;
      if (v <= TOL_D) continue;
      double v2 = v * v;
      if (v2 > best * s->dvx[j]) {
        best = v2 / s->dvx[j];
        q = j;
        if (bland) break;
      }
    }
    if (q < 0) {
      if (s->neta > 0) { s->need_factor = 1; continue; }
      if (phase1) {
        memcpy(s->farkas, s->y, (size_t)m * sizeof(double));
        ret = LPS_INFEASIBLE;
        goto out;
      }
      if (s->perturbed) { unperturb(s); d_ok = 0; continue; }
      ret = LPS_OPTIMAL;
      goto out;
    }
    double dq = s->d[q];
    double dir = dq < 0 ? 1.0 : -1.0;
    load_col(s, q, alpha);
    ftran(s, alpha);
    /* Harris two-pass ratio test; x_B[k] moves at rate -dir*alpha[k] */
    double tmax = HUGE_VAL;
    for (int k = 0; k < m; k++) {
      double a = alpha[k];
      if (fabs(a) < TOL_PIV) continue;
      int j = s->head[k];
      double rate = -dir * a, v = s->x[j], bnd;
      if (rate > 0) {
        if (phase1 && v < s->lb[j] - TOL_P) bnd = s->lb[j];
        else if (v > s->ub[j] + TOL_P) continue;
        else bnd = s->ub[j];
        if (bnd == HUGE_VAL) continue;
        double r = (bnd + TOL_P - v) / rate;
        if (r < tmax) tmax = r;
      } else {
        if (phase1 && v > s->ub[j] + TOL_P) bnd = s->ub[j];
        else if (v < s->lb[j] - TOL_P) continue;
        else bnd = s->lb[j];
        if (bnd == -HUGE_VAL) continue;
        double r = (bnd - TOL_P - v) / rate;
        if (r < tmax) tmax = r;
      }
    }
    double range = s->ub[q] - s->lb[q];
    int r = -1;
    double theta = 0, rbnd = 0, bigA = 0;
    if (tmax < HUGE_VAL) {
      for (int k = 0; k < m; k++) {
        double a = alpha[k];
        if (fabs(a) < TOL_PIV) continue;
        int j = s->head[k];
        double rate = -dir * a, v = s->x[j], bnd;
        if (rate > 0) {
          if (phase1 && v < s->lb[j] - TOL_P) bnd = s->lb[j];
          else if (v > s->ub[j] + TOL_P) continue;
          else bnd = s->ub[j];
          if (bnd == HUGE_VAL) continue;
        } else {
          if (phase1 && v > s->ub[j] + TOL_P) bnd = s->ub[j];
          else if (v < s->lb[j] - TOL_P) continue;
          else bnd = s->lb[j];
          if (bnd == -HUGE_VAL) continue;
        }
        double ratio = (bnd - v) / rate;
        if (ratio <= tmax && fabs(a) > bigA) {
          bigA = fabs(a);
          r = k;
          theta = ratio;
          rbnd = bnd;
        }
      }
    }
    if (theta < 0) theta = 0;
    if (range <= theta || (r < 0 && range < HUGE_VAL)) {
      /* bound flip of the entering variable (basis, duals unchanged) */
      theta = range;
      for (int k = 0; k < m; k++) s->x[s->head[k]] -= dir * theta * alpha[k];
      s->st[q] = s->st[q] == B_LOWER ? B_UPPER : B_LOWER;
      s->x[q] = nb_value(s, q);
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
      if (s->perturbed) { unperturb(s); d_ok = 0; continue; }
      ret = LPS_UNBOUNDED;
      goto out;
    }
    if (theta * fabs(dq) < 1e-12) stall++;
    else stall = 0;
    int leave = s->head[r];
    double ar = alpha[r];
    /* pivot row: devex weights, and the reduced costs in phase 2 */
    pivot_row(s, r, rho);
    for (int k = 0; k < m; k++) s->x[s->head[k]] -= dir * theta * alpha[k];
    s->x[q] += dir * theta;
    s->x[leave] = rbnd;
    if (phase1) {
      /* the update holds if no basic variable changed its phase 1 cost,
       * and the leaving and entering ones have cost 0 on both sides */
      if (p1c[r] != 0 || p1cost(s, q) != 0) d_ok = 0;
      for (int k = 0; k < m && d_ok; k++)
        if (k != r && p1cost(s, s->head[k]) != p1c[k]) d_ok = 0;
    }
    double wq = s->dvx[q], f = dq / ar, iar = 1.0 / ar;
    for (int t = 0; t < s->rcnt; t++) {
      int j = s->rlist[t];
      double a = s->rrow[j];
      if (j == q) continue;
      double w = a * iar;
      w = w * w * wq;
      if (w > s->dvx[j]) s->dvx[j] = w;
      if (d_ok) s->d[j] -= f * a;
    }
    if (!basis_change(s, r, q, alpha)) goto out;
    make_nonbasic(s, leave, rbnd);
    {
      double w = wq / (ar * ar);
      s->dvx[leave] = w > 1.0 ? w : 1.0;
    }
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

/* ---- dual simplex ---------------------------------------------------------
 * From a dual feasible basis: pick the most infeasible basic x_r, compute
 * row r of B^{-1}[A -I] (rho = B^{-T} e_r, alpha_rj = rho'a_j), choose the
 * entering q by the (Harris) dual ratio |d_j|/|alpha_rj| among the j whose
 * move drives x_r toward its violated bound; no candidate means the row
 * x_r = -sum alpha_rj z_j cannot reach its bound: primal infeasible, with
 * Farkas multipliers rho.
 * The leaving row is chosen by dual devex pricing: maximize f_r^2 / w_r
 * (f_r the infeasibility of basic variable r, w_r a reference weight kept
 * per variable, updated from the pivot column alpha like the primal's:
 * w_i := max(w_i, (alpha_i/alpha_r)^2 w_r), w_entering := max(w_r /
 * alpha_r^2, 1)).  Reduced costs are updated from the pivot row between
 * refactorizations. */
/* Cost perturbation for the dual simplex: only nonbasic costs move, each
 * away from zero reduced cost on its feasible side (up at lower, down at
 * upper), so that the basis stays dual feasible while ties break. */
static void dual_perturb(lp_solver *s) {
  for (int j = 0; j < s->N; j++) {
    double c = s->cost[j];
    double e = (1e-7 + 1e-6 * fabs(c)) * (0.5 + 0.5 * urand(s));
    s->pcost[j] = s->st[j] == B_LOWER ? c + e : s->st[j] == B_UPPER ? c - e : c;
  }
  s->perturbed = 1;
}

/* can_perturb: the dual may perturb the costs when it stalls (then an
 * optimum it reports is for the perturbed costs, s->perturbed tells; the
 * caller finishes with the primal on the true costs). */
static int dual(lp_solver *s, double deadline, long maxit, int can_perturb) {
  int m = s->m;
  double *rho = s->wa;
  double *alpha = calloc((size_t)(m ? m : 1), sizeof(double));
  const double *arow = s->rrow;
  const int *alist = s->rlist;
  int *cand = malloc((size_t)(s->N ? s->N : 1) * sizeof(int)); /* Harris candidates */
  int *flp = malloc((size_t)(s->N ? s->N : 1) * sizeof(int));  /* bound flips */
  double *fv = malloc((size_t)(m ? m : 1) * sizeof(double));
  int ret = LPS_ERROR, partial = 0, last_jr = -1;
  if (!alpha || !cand || !flp || !fv) goto out;
  int stall = 0, d_ok = 0, fresh = 0;
  for (int j = 0; j < s->N; j++) s->dw[j] = 1.0;
  for (long it = 0;; it++) {
    if (stall > 300) { ret = -1; goto out; } /* degenerate: let the primal finish */
    if (can_perturb && !s->perturbed && (stall > 50 || (s->perturb_early && it > 0))) {
      dual_perturb(s);
      d_ok = 0;
      stall = 0;
    }
    if (it > maxit) { ret = LPS_LIMIT; goto out; }
    if ((it & 63) == 0 && (twill_lps_halted(s->cancel) || (deadline > 0 && twill_lps_clock() > deadline))) {
      ret = LPS_LIMIT;
      goto out;
    }
    if (s->need_factor) {
      if (!factor(s)) goto out;
      d_ok = 0;
    }
    if (s->need_xb) compute_xb(s);
    if (!d_ok) { compute_duals(s, 0); partial = 0; }
    d_ok = 1;
    /* dual feasibility: flip boxed variables, give up otherwise.  After a
     * pivot only the reduced costs of the pivot row's variables and of the
     * one that left changed, so only those are looked at then */
    int flipped = 0;
    int nchk = partial ? s->rcnt + 1 : s->N;
    for (int l = 0; l < nchk; l++) {
      int j = !partial ? l : l < s->rcnt ? alist[l] : last_jr;
      signed char t = s->st[j];
      if (t == B_BASIC || t == B_FIXED) continue;
      double dj = s->d[j];
      if ((t == B_LOWER && dj < -TOL_D) || (t == B_UPPER && dj > TOL_D)) {
        if (s->lb[j] > -HUGE_VAL && s->ub[j] < HUGE_VAL) {
          s->st[j] = t == B_LOWER ? B_UPPER : B_LOWER;
          flipped = 1;
        } else if (s->perturb_early && can_perturb && fabs(dj) < 1e-6) {
          /* cost shifting: a d_j a little on the wrong side (rounding
           * over a long run of updates) is moved to 0 by a shift of its
           * cost, as the perturbation moves costs; the primal then
           * finishes on the true costs */
          s->pcost[j] -= dj;
          s->d[j] = 0;
          s->perturbed = 1;
        } else { ret = -1; goto out; }
      } else if (t == B_FREE && fabs(dj) > TOL_D) { ret = -1; goto out; }
    }
    partial = 0;
    if (flipped) compute_xb(s);
    int r = -1;
    double worst = 0;
    for (int k = 0; k < m; k++) {
      double f = infeas(s, s->head[k]);
      if (f > 0) f = f * f / s->dw[s->head[k]];
      if (f > worst) { worst = f; r = k; }
    }
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
    btran(s, rho);
    /* x_r changes by -t*alpha_rj when z_j changes by t */
    double tmax = HUGE_VAL;
    row_alpha(s, rho);
    /* Harris pass 1 over the pivot row keeps the eligible entries in cand
     * for pass 2; ratios are compared as |d_j| + tol < tmax |a| so that
     * the division is done only for a new minimum */
    int ncand = 0;
    for (int l = 0; l < s->rcnt; l++) {
      int j = alist[l];
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
    /* Bound flipping (long-step) ratio test: the Harris group of the
     * smallest ratios, if all its variables are boxed and flipping them to
     * their other bounds leaves x_r still short of its target (the dual
     * objective still rising along the ray), is flipped instead of entering,
     * and the next group is examined.  Set partitioning (air04: binaries)
     * takes many fewer iterations so.  The entering q is the largest |a| of
     * the group where the slope runs out (or the last group). */
    int q = -1, nflip = 0;
    double slope = fabs(s->x[jr] - target);
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
        if (fabs(s->d[j]) <= tmax * fa) { flp[nflip++] = j; continue; }
        cand[nc2++] = j;
        double num = fabs(s->d[j]) + TOL_D;
        if (num < tnext * fa) tnext = num / fa;
      }
      ncand = nc2;
      tmax = tnext;
      q = -1;
    }
    if (q < 0) {
      if (s->neta > 0) { s->need_factor = 1; continue; }
      memcpy(s->farkas, rho, (size_t)m * sizeof(double));
      ret = LPS_INFEASIBLE;
      goto out;
    }
    load_col(s, q, alpha);
    ftran(s, alpha);
    if (fabs(alpha[r]) < TOL_PIV || fabs(alpha[r] - arow[q]) > 1e-6 * (1 + fabs(alpha[r]))) {
      if (s->neta > 0) { s->need_factor = 1; continue; }
      if (fabs(alpha[r]) < TOL_PIV) { ret = -1; goto out; }
    }
    if (nflip > 0) {
      /* move the flipped variables to their other bounds: x_B changes by
       * -B^{-1} sum_j a_j delta_j */
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
      ftran(s, fv);
      for (int k = 0; k < m; k++) s->x[s->head[k]] -= fv[k];
    }
    double ar = alpha[r];
    double t = (s->x[jr] - target) / ar;
    s->dual_steps++;
    if (fabs(s->d[q] * t) < 1e-12) { stall++; s->dual_degen++; }
    else stall = 0;
    double wr = s->dw[jr], f = s->d[q] / ar;
    for (int k = 0; k < m; k++) {
      double a = alpha[k];
      if (a == 0 || k == r) continue;
      s->x[s->head[k]] -= t * a;
      double w = a / ar;
      w = w * w * wr;
      if (w > s->dw[s->head[k]]) s->dw[s->head[k]] = w;
    }
    for (int l = 0; l < s->rcnt; l++) s->d[alist[l]] -= f * arow[alist[l]];
    s->x[q] += t;
    s->x[jr] = target;
    if (!basis_change(s, r, q, alpha)) goto out;
    make_nonbasic(s, jr, target);
    s->d[q] = 0;
    s->d[jr] = -f;
    {
      double w = wr / (ar * ar);
      s->dw[q] = w > 1.0 ? w : 1.0;
    }
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
    ret = dual(s, deadline, maxit, 1);
    if (ret == LPS_INFEASIBLE || ret == LPS_LIMIT) {
      unperturb(s); /* a Farkas ray does not depend on the costs */
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
  unperturb(s);
  s->need_factor = 1;
  ret = primal(s, deadline, maxit);
  unperturb(s);
  return s->status = ret;
}

void twill_lps_set_perturb_early(lp_solver *s, int on) { s->perturb_early = on; }

void twill_lps_dual_steps(const lp_solver *s, long *steps, long *degenerate) {
  *steps = s->dual_steps;
  *degenerate = s->dual_degen;
}

int twill_lps_solve_dual_limit(lp_solver *s, double deadline, long maxit) {
  /* no perturbation: twill_lps_obj after LPS_LIMIT must be a bound for the
   * true costs */
  int ret = s->iters > 0 ? dual(s, deadline, maxit, 0) : -1;
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
  compute_duals(w, 0);
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
  if (s->need_factor && !factor(s)) return 0;
  if (s->st[j] != B_BASIC) return 0; /* a singular factor may drop it */
  double *v = s->wa;
  memset(v, 0, (size_t)m * sizeof(double));
  v[s->pos[j]] = 1.0;
  btran(s, v);
  double norm = j < n ? s->cs[j] : 1.0 / s->rs[j - n];
  for (int i = 0; i < m; i++) u[i] = v[i] * s->rs[i] * norm;
  for (int k = 0; k < s->N; k++) {
    if (k >= n) alpha[k] = -u[k - n];
    else alpha[k] = dot_col(s, k, v) / s->cs[k] * norm;
  }
  return 1;
}
