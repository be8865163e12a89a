/* ilp/cuts.c: root cutting planes -- Gomory mixed-integer (GMI) cuts,
 * c-MIR cuts on (aggregated) rows, knapsack covers, divisibility (GCD)
 * cuts and tightened big-M rows (vub_cut) -- each written down
 * with the split that proves it, so that the certificate can derive it
 * (vipr_write.c) and the checker re-verify it exactly.  The GMI case:
 *
 * Tableau row of a basic integer x_k with fractional value (lp.c's
 * twill_lps_tableau_row):  x_k + sum_v alpha_v z_v = 0  over the nonbasic
 * structurals and logicals z_v (a logical is the row activity a_i'x).
 * With z_v = bnd_v + sigma_v t_v (sigma = +1 at the lower bound, -1 at the
 * upper), t_v >= 0:
 *     x_k + sum_v abar_v t_v = b,   abar_v = sigma_v alpha_v,  b = x_k*,
 * f0 = frac(b), f_v = frac(abar_v).  The GMI cut is  sum_v g_v t_v >= 1,
 *     g_v = f_v / f0              (t_v integer, f_v <= f0)
 *         = (1 - f_v) / (1 - f0)  (t_v integer, f_v > f0)
 *         = abar_v / f0           (continuous, abar_v >= 0)
 *         = -abar_v / (1 - f0)    (continuous, abar_v < 0).
 * It is a split cut: with pi_v = floor(abar_v) (f_v <= f0), ceil(abar_v)
 * (f_v > f0), 0 (continuous), pi_k = 1 and p0 = floor(b),
 *   side 0, pi't <= p0:    cut = (row - side) / f0 + sum nu0_v t_v,
 *                          nu0_v = g_v - (abar_v - pi_v) / f0 >= 0;
 *   side 1, pi't >= p0+1:  cut = (side - row) / (1 - f0) + sum nu1_v t_v,
 *                          nu1_v = g_v - (pi_v - abar_v) / (1 - f0) >= 0.
 * In the space of x the row is the identity 0 = 0 (it is u'(Ax - s) with
 * s = Ax), a t_v >= 0 of a logical is a side of row i, and that of a
 * structural is a bound.  So on each side the cut is  lam times the side
 * plus the rows times nu_v sigma_v plus bounds; the writer recomputes the
 * bound multipliers exactly as the remainder, which makes the derivation
 * exact whatever the rounding here (rounding can only weaken the right-hand
 * side the certificate proves, never make it wrong).
 *
 * A logical t_v is taken as integer when its row has integer coefficients
 * on integer variables only and an integer bound there (pi stays integral
 * on integer variables in x space).  A fixed z_v (t_v = 0) gets g = pi = 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lp.h"
#include "model.h"

#define CUT_ROUNDS 20
#define CUT_STALL 3 /* rounds that gain under 1e-3 (relative) before the cuts stop */
#define CUT_PER_ROUND 50
#define CUT_CANDS 250
#define CUT_MIN_F 0.01
#define CUT_EFFICACY 1e-4
#define CUT_MIR_ROWS 300
#define CUT_MAX_PARALLEL 0.99
#define FLAT_ROUNDS 3 /* rounds without progress before the cuts stop */

typedef struct cand {
  double eff;
  int k; /* basic variable */
} cand;

typedef struct cutbuf {
  int n;
  double *c, *pi, *mu0, *mu1; /* dense: n, n, m, m */
} cutbuf;

/* A scored cut candidate: a GMI cut (kind 0) of basic variable k, a MIR
 * cut (kind 1) of row k's side at aggregation level naggr with its delta,
 * a cover (kind 2) or a divisibility cut (kind 3) of row k's side. */
typedef struct sc {
  double eff, delta;
  int kind, k, side, naggr;
} sc;

static int cmp_score(const void *a, const void *b) {
  const sc *p = a, *q = b;
  if (p->eff != q->eff) return p->eff > q->eff ? -1 : 1;
  if (p->kind != q->kind) return p->kind - q->kind;
  if (p->k != q->k) return p->k - q->k;
  if (p->side != q->side) return p->side - q->side;
  return p->naggr - q->naggr;
}

static int cmp_cand(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->eff != y->eff) return x->eff < y->eff ? -1 : 1; /* most fractional first */
  return x->k - y->k;
}

/* Row i's activity is integral at every integer point when its
 * coefficients are integers on integer variables only. */
static void integral_rows(const twill_ilp *m, const int *rbeg, const int *rcol,
                          const double *rval, char *rint) {
  for (int i = 0; i < m->m; i++) {
    rint[i] = 1;
    for (int q = rbeg[i]; q < rbeg[i + 1] && rint[i]; q++)
      if (m->vtype[rcol[q]] == TWILL_ILP_CONTINUOUS || rval[q] != round(rval[q])) rint[i] = 0;
  }
}

/* Variables the certificate can bound on both sides: a finite bound in the
 * model, or one implied by a row whose other variables are all bounded
 * (what vipr_write.c's implied_bounds derives).  The writer needs a bound
 * wherever a remainder lands, and a remainder of floating-point noise can
 * land on either side. */
static void boxed(const twill_ilp *m, const int *cbeg, const int *cidx, const double *cval,
                  const int *rbeg, const int *rcol, const double *rval, char *box) {
  for (int j = 0; j < m->n; j++) box[j] = !isinf(m->vlb[j]) && !isinf(m->vub[j]);
  for (int j = 0; j < m->n; j++) {
    if (box[j]) continue;
    int lo = !isinf(m->vlb[j]), hi = !isinf(m->vub[j]);
    for (int p = cbeg[j]; p < cbeg[j + 1] && !(lo && hi); p++) {
      int i = cidx[p], others = 1;
      for (int q = rbeg[i]; q < rbeg[i + 1] && others; q++)
        if (rcol[q] != j && (isinf(m->vlb[rcol[q]]) || isinf(m->vub[rcol[q]]))) others = 0;
      (void)rval;
      if (!others || cval[p] == 0) continue;
      /* a_ij > 0: the <= side bounds x_j above, the >= side below */
      int pos = cval[p] > 0;
      if (!isinf(m->rhi[i])) { if (pos) hi = 1; else lo = 1; }
      if (!isinf(m->rlo[i])) { if (pos) lo = 1; else hi = 1; }
    }
    box[j] = lo && hi;
  }
}

/* The cut of an identity row.  alpha (n + mr) is a row  sum_v alpha_v z_v
 * = 0  that holds identically in x (z_{n+i} = a_i'x), sg[v] != 0 marks the
 * variables in it, complemented as z_v = bnd_v + sg_v t_v (t_v >= 0 is a
 * bound, or a side of row v - n for a logical); sg = 2 marks a variable
 * left as it is (the basic x_k of a tableau row: integer coefficient, so
 * g = 0 and no bound is needed), bnd 0.  Then  sum abar_v t_v = b  with
 * abar_v = sg_v alpha_v and b = -sum alpha_v bnd_v, and the cut follows
 * the formulas at the top.  Returns 1 with the cut in cb, *d, *p0, lam;
 * 0 when the row gives no usable cut. */
static int gmi_core(const twill_ilp *m, int mr, const double *alpha, const signed char *sg,
                    const double *bnd, const double *lb, const double *ub, const char *rint,
                    const int *rbeg, const int *rcol, const double *rval, cutbuf *cb, double *d,
                    double *p0, double lam[2]) {
  int n = m->n, N = n + mr;
  double b = 0, bmag = 0;
  for (int v = 0; v < N; v++)
    if (sg[v]) { b -= alpha[v] * bnd[v]; bmag += fabs(alpha[v] * bnd[v]); }
  double f0 = b - floor(b);
  if (f0 < CUT_MIN_F || f0 > 1 - CUT_MIN_F || bmag > 1e9) return 0;
  memset(cb->c, 0, (size_t)n * sizeof(double));
  memset(cb->pi, 0, (size_t)n * sizeof(double));
  memset(cb->mu0, 0, (size_t)mr * sizeof(double));
  memset(cb->mu1, 0, (size_t)mr * sizeof(double));
  double rhs = 1, pr = floor(b), dm = 1 + bmag;
  for (int v = 0; v < N; v++) {
    if (!sg[v]) continue;
    double a = alpha[v];
    if (fabs(a) > 1e6) return 0;
    double s = sg[v] == 2 ? 1 : sg[v], bv = bnd[v];
    if (isinf(bv)) return 0;
    int fixed = sg[v] != 2 && lb[v] == ub[v];
    double ab = s * a, g, piv = 0;
    int isint = v < n ? m->vtype[v] != TWILL_ILP_CONTINUOUS : rint[v - n] && bv == round(bv);
    if (sg[v] == 2 && (!isint || ab != round(ab))) return 0;
    if (fixed) {
      g = 0;
    } else if (isint) {
      double fv = ab - floor(ab);
      if (fv < 1e-9 || fv > 1 - 1e-9) { piv = round(ab); g = 0; }
      else if (fv <= f0) { g = fv / f0; piv = floor(ab); }
      else { g = (1 - fv) / (1 - f0); piv = ceil(ab); }
    } else {
      g = ab >= 0 ? ab / f0 : -ab / (1 - f0);
    }
    double nu0 = g - (ab - piv) / f0, nu1 = g - (piv - ab) / (1 - f0);
    if (!fixed) {
      if (nu0 < -1e-9 || nu1 < -1e-9) return 0;
      if (nu0 < 0) nu0 = 0;
      if (nu1 < 0) nu1 = 0;
    }
    rhs += g * s * bv;
    pr += piv * s * bv;
    dm += fabs(g * bv) + fabs(piv * bv);
    if (v < n) {
      cb->c[v] += g * s;
      cb->pi[v] += piv * s;
    } else {
      int i = v - n;
      cb->mu0[i] = nu0 * s;
      cb->mu1[i] = nu1 * s;
      for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
        cb->c[rcol[q]] += g * s * rval[q];
        cb->pi[rcol[q]] += piv * s * rval[q];
      }
    }
  }
  /* the split must be integral, on integer variables only */
  for (int j = 0; j < n; j++) {
    double r = round(cb->pi[j]);
    if (fabs(cb->pi[j] - r) > 1e-9) return 0;
    if (r != 0 && m->vtype[j] == TWILL_ILP_CONTINUOUS) return 0;
    cb->pi[j] = r;
  }
  if (fabs(pr - round(pr)) > 1e-9) return 0;
  *p0 = round(pr);
  /* tiny coefficients: move them to the right-hand side through a bound */
  double cmax = 0;
  for (int j = 0; j < n; j++) cmax = fmax(cmax, fabs(cb->c[j]));
  if (cmax == 0) return 0;
  double cmin = HUGE_VAL;
  for (int j = 0; j < n; j++) {
    double cj = cb->c[j];
    if (cj == 0) continue;
    if (fabs(cj) < 1e-9 * cmax) {
      double bd = cj > 0 ? m->vub[j] : m->vlb[j];
      if (m->vtype[j] != TWILL_ILP_CONTINUOUS) bd = cj > 0 ? floor(bd + 1e-6) : ceil(bd - 1e-6);
      if (isinf(bd)) return 0;
      rhs -= cj * bd;
      dm += fabs(cj * bd);
      cb->c[j] = 0;
      continue;
    }
    cmin = fmin(cmin, fabs(cj));
  }
  if (cmax / cmin > 1e8) return 0;
  *d = rhs - 1e-9 * dm;
  lam[0] = 1 / f0;
  lam[1] = 1 / (1 - f0);
  return 1;
}

/* The GMI cut of the tableau row of basic x_k: nonbasic variables are
 * complemented at the bound they sit at; a free nonbasic one (no t_v >= 0)
 * spoils the row. */
static int gmi(const twill_ilp *m, int mr, int k, double *alpha, const signed char *st,
               const double *lb, const double *ub, const char *rint, const int *rbeg,
               const int *rcol, const double *rval, cutbuf *cb, signed char *sg, double *bnd,
               double *d, double *p0, double lam[2]) {
  int N = m->n + mr;
  alpha[k] = 1; /* (1 up to rounding from twill_lps_tableau_row) */
  for (int v = 0; v < N; v++) {
    sg[v] = 0;
    bnd[v] = 0;
    if (v == k) { sg[v] = 2; continue; }
    if (st[v] == 0 || fabs(alpha[v]) < 1e-11) continue;
    if (st[v] == 1 || st[v] == 4) { sg[v] = 1; bnd[v] = lb[v]; }
    else if (st[v] == 2) { sg[v] = -1; bnd[v] = ub[v]; }
    else return 0;
  }
  return gmi_core(m, mr, alpha, sg, bnd, lb, ub, rint, rbeg, rcol, rval, cb, d, p0, lam);
}

/* Variable upper bounds  a_rj x_j + a_rk y_k <= h  (x_j continuous, a_rj >
 * 0, y_k integer; or the same row's >= side with a_rj < 0, which is how a
 * tightened one, vub_cut's  -x + k y >= -L, reads) for the MIR rows:
 * vub[j] = r, of those rows the one that bounds x_j least at y_k's upper
 * bound (cut rows included: a tightened bound is the stronger one). */
static int vub_side(const twill_ilp *m, int r, double a) {
  return a > 0 ? (isinf(m->rhi[r]) ? 0 : -1) : (isinf(m->rlo[r]) ? 0 : 1);
}

static void find_vubs(const twill_ilp *m, int mr, const int *rbeg, const int *rcol,
                      const double *rval, const double *ub, int *vub) {
  double *best = malloc(((size_t)m->n + 1) * sizeof(double));
  for (int j = 0; j < m->n; j++) vub[j] = -1;
  for (int r = 0; r < mr && best; r++) {
    if (rbeg[r + 1] - rbeg[r] != 2) continue;
    for (int t = 0; t < 2; t++) {
      int j = rcol[rbeg[r] + t], k = rcol[rbeg[r] + 1 - t];
      double a = rval[rbeg[r] + t], c = rval[rbeg[r] + 1 - t];
      int s = vub_side(m, r, a);
      if (m->vtype[j] != TWILL_ILP_CONTINUOUS || m->vtype[k] == TWILL_ILP_CONTINUOUS || !s ||
          isinf(ub[k]))
        continue;
      double h = s < 0 ? m->rhi[r] : m->rlo[r], M = (h - c * ub[k]) / a;
      if (vub[j] < 0 || M < best[j] - 1e-9 * (1 + fabs(M))) { vub[j] = r; best[j] = M; }
    }
  }
  free(best);
}

/* Mixed-integer rounding on an aggregation of the model's rows (Marchand-
 * Wolsey c-MIR).  The base is row i (side 0: its <= side, 1: its >= side)
 * as the identity  a_i'x - z_{n+i} = 0  with z_{n+i} at that side, so that
 * gmi_core derives the cut like a tableau row.  Then, up to MIR_AGGR times:
 * a continuous x_j whose variable upper bound is tight at x* is replaced
 * through it (the bound's row joins the identity, its logical at its <=
 * side); of the continuous variables left strictly inside their bounds at
 * x*, the one farthest from them is eliminated with the shortest other
 * user row tight at x* that holds it (that row joins the identity, its
 * logical at the tight side: a flow conservation row carries the cut along
 * a path, which is how c-MIR finds flow covers).  Every other variable is
 * complemented at the bound nearer to x* (integer ones at the upper when
 * past the middle), and the row is divided by delta.  delta <= 0 asks for
 * the candidates instead: up to DMAX distinct |coefficients| of integer
 * variables strictly inside their bounds go to dl[], their count is
 * returned.  Otherwise returns gmi_core's result. */
#define DMAX 6
#define MIR_AGGR 5
typedef struct mirctx {
  const twill_ilp *m;
  int mr, mr0;
  const double *x, *lb, *ub;
  const char *rint;
  const int *rbeg, *rcol, *cbeg, *cidx, *vub;
  const double *rval, *cval;
  double *alpha, *bnd;
  signed char *sg;
  int *sup, nsup; /* structurals alpha has touched */
  char *insup;
  int naggr, aggr; /* aggregations asked for, done */
} mirctx;

/* alpha += w (a_r'x - z_{n+r}), z_{n+r} complemented at its bound h
 * (sign s: +1 lower, -1 upper). */
static void mir_add_row(mirctx *cx, int r, double w, int s, double h) {
  int n = cx->m->n;
  for (int q = cx->rbeg[r]; q < cx->rbeg[r + 1]; q++) {
    int j = cx->rcol[q];
    cx->alpha[j] += w * cx->rval[q];
    if (!cx->insup[j]) { cx->insup[j] = 1; cx->sup[cx->nsup++] = j; }
  }
  cx->alpha[n + r] -= w;
  cx->sg[n + r] = (signed char)s;
  cx->bnd[n + r] = h;
}

static int row_tight(const mirctx *cx, int r, int *side, double *h) {
  int n = cx->m->n;
  double v = cx->x[n + r], lo = cx->lb[n + r], hi = cx->ub[n + r];
  if (!isinf(hi) && fabs(v - hi) <= 1e-6 * (1 + fabs(hi))) { *side = -1; *h = hi; return 1; }
  if (!isinf(lo) && fabs(v - lo) <= 1e-6 * (1 + fabs(lo))) { *side = 1; *h = lo; return 1; }
  return 0;
}

/* Distance at x* from continuous x_j to its variable upper bound (row
 * vub[j], unused so far), in units of x_j; HUGE_VAL when there is none. */
static double vub_dist(const mirctx *cx, int j, int *pj) {
  int n = cx->m->n, r = cx->vub[j];
  if (r < 0 || cx->sg[n + r]) return HUGE_VAL;
  *pj = cx->rbeg[r] + (cx->rcol[cx->rbeg[r]] == j ? 0 : 1);
  double a = cx->rval[*pj];
  return a > 0 ? fmax(0, (cx->ub[n + r] - cx->x[n + r]) / a)
               : fmax(0, (cx->x[n + r] - cx->lb[n + r]) / -a);
}

/* Replace each continuous variable by its variable upper bound when that
 * is at least as near to x* as its lower bound (the nearest bound is the
 * one to complement at: Marchand-Wolsey's bound substitution). */
static void mir_vubs(mirctx *cx) {
  int n = cx->m->n;
  for (int t = 0; t < cx->nsup; t++) {
    int j = cx->sup[t], pj = 0;
    if (cx->alpha[j] == 0 || cx->m->vtype[j] != TWILL_ILP_CONTINUOUS) continue;
    double dv = vub_dist(cx, j, &pj);
    if (isinf(dv) || dv > cx->x[j] - cx->lb[j] + 1e-9) continue;
    int r = cx->vub[j], up = cx->rval[pj] > 0;
    mir_add_row(cx, r, -cx->alpha[j] / cx->rval[pj], up ? -1 : 1, up ? cx->ub[n + r] : cx->lb[n + r]);
    cx->alpha[j] = 0;
  }
}

/* One aggregation step; 1 when a row was added. */
static int mir_aggregate(mirctx *cx) {
  const twill_ilp *m = cx->m;
  int n = m->n, bj = -1;
  double bd = 1e-6, amax = 0;
  for (int t = 0; t < cx->nsup; t++) amax = fmax(amax, fabs(cx->alpha[cx->sup[t]]));
  for (int t = 0; t < cx->nsup; t++) {
    int j = cx->sup[t];
    if (fabs(cx->alpha[j]) <= 1e-9 * amax) { cx->alpha[j] = 0; continue; }
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) continue;
    int pj;
    double dist = fmin(fmin(cx->x[j] - cx->lb[j], cx->ub[j] - cx->x[j]), vub_dist(cx, j, &pj));
    if (dist > bd || (dist == bd && bj >= 0 && j < bj)) { bd = dist; bj = j; }
  }
  if (bj < 0) return 0;
  int br = -1, blen = 0, bside = 0;
  double bh = 0, ba = 0;
  for (int p = cx->cbeg[bj]; p < cx->cbeg[bj + 1]; p++) {
    int r = cx->cidx[p], side, len;
    double h;
    if (r >= cx->mr0 || cx->sg[n + r] || fabs(cx->cval[p]) < 1e-9) continue;
    len = cx->rbeg[r + 1] - cx->rbeg[r];
    if (len > 1000 || (br >= 0 && len >= blen) || !row_tight(cx, r, &side, &h)) continue;
    br = r; blen = len; bside = side; bh = h; ba = cx->cval[p];
  }
  if (br < 0) return 0;
  mir_add_row(cx, br, -cx->alpha[bj] / ba, bside, bh);
  cx->alpha[bj] = 0;
  return 1;
}

static int mir(mirctx *cx, int i, int side, double delta, cutbuf *cb, double *d, double *p0,
               double lam[2], double *dl) {
  const twill_ilp *m = cx->m;
  int n = m->n, N = n + cx->mr;
  double *alpha = cx->alpha, *bnd = cx->bnd;
  const double *lb = cx->lb, *ub = cx->ub;
  signed char *sg = cx->sg;
  memset(alpha, 0, (size_t)N * sizeof(double));
  memset(sg, 0, (size_t)N);
  memset(bnd, 0, (size_t)N * sizeof(double));
  for (int t = 0; t < cx->nsup; t++) cx->insup[cx->sup[t]] = 0;
  cx->nsup = 0;
  double h = side ? lb[n + i] : ub[n + i];
  if (isinf(h)) return 0;
  mir_add_row(cx, i, 1, side ? 1 : -1, h);
  for (cx->aggr = 0;; cx->aggr++) {
    mir_vubs(cx);
    if (cx->aggr == cx->naggr || !mir_aggregate(cx)) break;
  }
  int nd = 0;
  for (int t = 0; t < cx->nsup; t++) {
    int j = cx->sup[t];
    if (alpha[j] == 0) continue;
    double l = lb[j], u = ub[j], xj = cx->x[j];
    int isint = m->vtype[j] != TWILL_ILP_CONTINUOUS;
    if (isint && delta <= 0 && dl && xj > l + 1e-6 && xj < u - 1e-6 && nd < DMAX) {
      double a = fabs(alpha[j]);
      int dup = 0;
      for (int k = 0; k < nd; k++) dup |= dl[k] == a;
      if (!dup) dl[nd++] = a;
    }
    int up = isint ? (!isinf(u) && (isinf(l) || xj > 0.5 * (l + u)))
                   : (!isinf(u) && (isinf(l) || u - xj < xj - l));
    if (isinf(up ? u : l)) return 0;
    sg[j] = up ? -1 : 1;
    bnd[j] = up ? u : l;
  }
  if (delta <= 0) return nd;
  for (int v = 0; v < N; v++) alpha[v] /= delta;
  return gmi_core(m, cx->mr, alpha, sg, bnd, lb, ub, cx->rint, cx->rbeg, cx->rcol, cx->rval, cb,
                  d, p0, lam);
}

/* Knapsack cover cuts.  Row i's side (side 0: a'x <= h, side 1: a'x >= h,
 * taken as -a'x <= -h) is relaxed to a knapsack over its binaries: every
 * other variable goes to the bound that makes the row loosest, and a
 * binary with a negative coefficient is complemented, y_j = 1 - x_j, so
 * that  sum_j w_j y_j <= b  with w_j > 0.  A cover C (w(C) > b) gives
 * sum_C y_j <= |C| - 1; C is chosen greedily by (1 - y*_j) / w_j, made
 * minimal, and extended to E = C + {j : w_j >= max_C w} (still at most
 * |C| - 1 of E fit).  The cut is a split on pi = the y_j of E:
 *   side 0,  sum_E y <= |C| - 1: the cut itself (lam 1);
 *   side 1,  sum_E y >= |C|:  t lam' (sum_E y >= |C|) + t (b - w'y >= 0)
 *            with lam' = max_C w leaves on each j in C a remainder
 *            -1 - t (lam' - w_j) <= -1 (its upper bound 1), on E - C
 *            one >= -1, so the side proves  -sum_E y >= t (w(C) - b) - |E|,
 *            which beats the cut's -(|C| - 1) once t >= (|E| + 1) / (w(C) - b).
 * In x the side's y_j is +-x_j (+ a constant), so pi is +-1 and the writer
 * derives both sides as it does for a MIR cut.  Returns 1 with the cut in
 * cb, 0 when the row side gives no violated cover.  it, wt, yv, ord, inc:
 * scratch of the row's length. */
typedef struct covitem {
  double key;
  int k;
} covitem;

static int cmp_covitem(const void *a, const void *b) {
  const covitem *p = a, *q = b;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  return p->k - q->k;
}

static int cover(const twill_ilp *m, int mr, int i, int side, const double *x, const double *lb,
                 const double *ub, const int *rbeg, const int *rcol, const double *rval,
                 int *it, double *wt, double *yv, covitem *ord, char *inc, cutbuf *cb, double *d,
                 double *p0, double lam[2]) {
  int n = m->n, k = 0;
  double h = side ? lb[n + i] : ub[n + i];
  if (isinf(h)) return 0;
  double s = side ? -1 : 1, b = s * h;
  for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
    int j = rcol[q];
    double a = s * rval[q];
    if (a == 0) continue;
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS && lb[j] == 0 && ub[j] == 1) {
      if (a < 0) b -= a; /* a x = a - a y */
      it[k] = a > 0 ? j : -j - 1; /* complemented: -j - 1 */
      wt[k] = fabs(a);
      yv[k] = a > 0 ? x[j] : 1 - x[j];
      k++;
    } else {
      double bd = a > 0 ? lb[j] : ub[j];
      if (isinf(bd)) return 0;
      b -= a * bd;
    }
  }
  if (k < 2 || b < 0) return 0;
  for (int t = 0; t < k; t++) ord[t] = (covitem){(1 - yv[t]) / wt[t], t};
  qsort(ord, (size_t)k, sizeof *ord, cmp_covitem);
  double tol = 1e-6 * (1 + fabs(b)), w = 0;
  int nc = 0;
  memset(inc, 0, (size_t)k);
  while (nc < k && w <= b + tol) { inc[ord[nc].k] = 1; w += wt[ord[nc++].k]; }
  if (w <= b + tol) return 0;
  /* minimal: drop the costliest members the cover can spare */
  for (int t = nc - 1; t >= 0; t--) {
    int e = ord[t].k;
    if (w - wt[e] > b + tol) { inc[e] = 0; w -= wt[e]; }
  }
  int size = 0;
  double lhs = 0, wmax = 0;
  for (int t = 0; t < k; t++)
    if (inc[t]) { size++; lhs += yv[t]; wmax = fmax(wmax, wt[t]); }
  if (size < 2 || lhs <= size - 1 + 1e-6) return 0;
  memset(cb->c, 0, (size_t)n * sizeof(double));
  memset(cb->pi, 0, (size_t)n * sizeof(double));
  memset(cb->mu0, 0, (size_t)mr * sizeof(double));
  memset(cb->mu1, 0, (size_t)mr * sizeof(double));
  int ne = 0, nneg = 0;
  for (int t = 0; t < k; t++) {
    if (!inc[t] && wt[t] < wmax) continue;
    int j = it[t] >= 0 ? it[t] : -it[t] - 1;
    cb->pi[j] = it[t] >= 0 ? 1 : -1;
    cb->c[j] = -cb->pi[j];
    nneg += it[t] < 0;
    ne++;
  }
  *p0 = size - 1 - nneg;
  *d = -*p0;
  double tt = 2.0 * (ne + 1) / (w - b);
  lam[0] = 1;
  lam[1] = tt * wmax;
  if (side) cb->mu1[i] = tt;
  else cb->mu1[i] = -tt;
  return 1;
}

/* Divisibility (GCD) cuts.  Row i's side, written  s a'x <= s h  (s = 1
 * for the <= side, -1 for >=), has integer coefficients on integer
 * variables only (rint); with g = gcd(a), every integer point has
 * s a'x / g integral, so  pi'x <= p0 = floor(s h / g),  pi = s a / g.
 * That is a cut whenever s h / g has a fraction phi > 0 (6 x1 + 6 x2 -
 * 4 x3 = 21 has none of its two sides' cuts 3 x1 + 3 x2 - 2 x3 <= 10 and
 * >= 11 satisfied, and its LP becomes infeasible at once).  As a split
 * on pi, p0:  side 0 is the cut itself (lam 1; the cut is -pi'x >= -p0);
 * side 1, pi'x >= p0 + 1, contradicts the row: (k g - 1) times it plus
 * k times the row side gives  -pi'x >= k g (1 - phi) - (p0 + 1), beyond the
 * cut's -p0 once k g (1 - phi) >= 1; k = ceil(2 / (g (1 - phi))) keeps every
 * multiplier an integer, so the derivation is exact.  Returns 1 with the
 * cut in cb, 0 when the side gives none. */
static int gcd_cut(const twill_ilp *m, int mr, int i, int side, const double *x, const char *rint,
                   const int *rbeg, const int *rcol, const double *rval, cutbuf *cb, double *d,
                   double *p0, double lam[2]) {
  int n = m->n;
  double h = side ? m->rlo[i] : m->rhi[i], sg = side ? -1.0 : 1.0;
  if (!rint[i] || isinf(h) || rbeg[i + 1] - rbeg[i] < 1) return 0;
  long long g = 0;
  for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
    if (fabs(rval[q]) > 1e15) return 0;
    long long a = llabs((long long)rval[q]);
    while (a) { long long t = g % a; g = a; a = t; }
  }
  if (g == 0) return 0;
  double hg = sg * h / (double)g, fl = floor(hg), phi = hg - fl;
  if (phi < 1e-6 || phi > 1 - 1e-6 || fabs(hg) > 1e12) return 0;
  double k = ceil(2 / ((double)g * (1 - phi)));
  if (k * (double)g > 1e14) return 0; /* the writer prints lam to 15 digits */
  double act = 0;
  for (int q = rbeg[i]; q < rbeg[i + 1]; q++) act += sg * rval[q] / (double)g * x[rcol[q]];
  if (act <= fl + 1e-6) return 0;
  memset(cb->c, 0, (size_t)n * sizeof(double));
  memset(cb->pi, 0, (size_t)n * sizeof(double));
  memset(cb->mu0, 0, (size_t)mr * sizeof(double));
  memset(cb->mu1, 0, (size_t)mr * sizeof(double));
  for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
    cb->pi[rcol[q]] = sg * rval[q] / (double)g;
    cb->c[rcol[q]] = -cb->pi[rcol[q]];
  }
  *p0 = fl;
  *d = -fl;
  lam[0] = 1;
  lam[1] = k * (double)g - 1;
  cb->mu1[i] = -sg * k;
  return 1;
}

/* Violation of c'x >= d at x, over |c|. */
static double efficacy(const cutbuf *cb, int n, const double *x, double d) {
  double act = 0, nrm = 0;
  for (int j = 0; j < n; j++) { act += cb->c[j] * x[j]; nrm += cb->c[j] * cb->c[j]; }
  return nrm > 0 ? (d - act) / sqrt(nrm) : 0;
}

/* Whether the cut in cb is more parallel than par (cosine) to one of the
 * k cuts in kept (unit vectors, n each); if not, it joins them there.
 * idx: n scratch. */
static int too_parallel(const cutbuf *cb, int n, double *kept, int k, double par, int *idx) {
  int nz = 0;
  double nrm = 0;
  for (int j = 0; j < n; j++)
    if (cb->c[j] != 0) { idx[nz++] = j; nrm += cb->c[j] * cb->c[j]; }
  nrm = sqrt(nrm);
  if (nrm == 0) return 1;
  for (int t = 0; t < k; t++) {
    const double *w = kept + (size_t)t * (size_t)n;
    double dot = 0;
    for (int q = 0; q < nz; q++) dot += w[idx[q]] * cb->c[idx[q]];
    if (dot / nrm > par) return 1;
  }
  double *w = kept + (size_t)k * (size_t)n;
  memset(w, 0, (size_t)n * sizeof(double));
  for (int q = 0; q < nz; q++) w[idx[q]] = cb->c[idx[q]] / nrm;
  return 0;
}

/* Append the cut in cb as a model row with its derivation. */
static int add_cut(twill_ilp *m, int mr, const cutbuf *cb, double d, double p0, const double lam[2],
                   const char *kind, int *idx, double *val) {
  int n = m->n, nnz = 0;
  for (int j = 0; j < n; j++)
    if (cb->c[j] != 0) { idx[nnz] = j; val[nnz++] = cb->c[j]; }
  if (m->ncut == m->cutcap) {
    int nc = m->cutcap ? 2 * m->cutcap : 32;
    ilp_cut *p = realloc(m->cut, (size_t)nc * sizeof *p);
    if (!p) return -1;
    m->cut = p;
    m->cutcap = nc;
  }
  ilp_cut *ct = &m->cut[m->ncut];
  memset(ct, 0, sizeof *ct);
  int np = 0, nm[2] = {0, 0};
  for (int j = 0; j < n; j++) np += cb->pi[j] != 0;
  for (int i = 0; i < mr; i++) { nm[0] += cb->mu0[i] != 0; nm[1] += cb->mu1[i] != 0; }
  ct->pidx = malloc(((size_t)np + 1) * sizeof(int));
  ct->pval = malloc(((size_t)np + 1) * sizeof(double));
  for (int s = 0; s < 2; s++) {
    ct->midx[s] = malloc(((size_t)nm[s] + 1) * sizeof(int));
    ct->mval[s] = malloc(((size_t)nm[s] + 1) * sizeof(double));
  }
  if (!ct->pidx || !ct->pval || !ct->midx[0] || !ct->mval[0] || !ct->midx[1] || !ct->mval[1]) {
    free(ct->pidx); free(ct->pval);
    for (int s = 0; s < 2; s++) { free(ct->midx[s]); free(ct->mval[s]); }
    return -1;
  }
  for (int j = 0; j < n; j++)
    if (cb->pi[j] != 0) { ct->pidx[ct->npi] = j; ct->pval[ct->npi++] = cb->pi[j]; }
  for (int i = 0; i < mr; i++) {
    if (cb->mu0[i] != 0) { ct->midx[0][ct->nmu[0]] = i; ct->mval[0][ct->nmu[0]++] = cb->mu0[i]; }
    if (cb->mu1[i] != 0) { ct->midx[1][ct->nmu[1]] = i; ct->mval[1][ct->nmu[1]++] = cb->mu1[i]; }
  }
  ct->p0 = p0;
  ct->lam[0] = lam[0];
  ct->lam[1] = lam[1];
  if (!m->ncut) m->nz_before_cuts = m->nz;
  ct->nz0 = m->nz;
  char name[32];
  snprintf(name, sizeof name, "%s%d", kind, m->ncut);
  int row = twill_ilp_add_row_raw(m, name, nnz, idx, val, d, HUGE_VAL);
  if (row < 0) {
    free(ct->pidx); free(ct->pval);
    for (int s = 0; s < 2; s++) { free(ct->midx[s]); free(ct->mval[s]); }
    return -1;
  }
  ct->row = row;
  m->ncut++;
  return 0;
}

/* Make the cut in cb derivable by the certificate writer, or say it is not.
 * The writer derives each side as  lam side + sum mu_i a_i + bounds  and
 * puts each variable's exact remainder r_j = c_j - lam pi_j - sum mu_i a_ij
 * on the bound of its sign.  A boxed variable (see boxed()) has both.  One
 * with a single bound in the model has a remainder of the right sign in
 * exact arithmetic (the cut complements it at that bound) but the floating
 * -point cut can leave it -1e-17 on the other side; so its cut coefficient
 * moves by a margin toward that bound, which weakens the cut by a hair:
 *   lower bound only:  c_j += e, d += e l_j   (e x_j >= e l_j)
 *   upper bound only:  c_j -= e, d -= e u_j   (-e x_j >= -e u_j),
 * e = 1e-8 (1 + |c_j| + |lam| |pi_j| + sum_i |mu_i a_ij|), far above the
 * tableau's and the writer's rounding.  The search's LP gets the cut as
 * moved, so it is the same row the certificate derives.  Where only the
 * rows touch x_j (c_j = pi_j = 0) there is no margin: the writer cancels
 * such a remainder by shifting row multipliers exactly (cut_repair in
 * vipr_write.c), as margins there made modglob's cuts dense and its root
 * bound weaker.  A variable with no bound at all in a row the cut uses:
 * such cuts are not taken.
 * acc: n scratch.  Returns 1 (the cut in cb, *d, adjusted) or 0. */
static int certifiable(const twill_ilp *m, int mr, cutbuf *cb, double *d, const double lam[2],
                       const int *rbeg, const int *rcol, const double *rval, const char *box,
                       double *acc) {
  int n = m->n;
  memset(acc, 0, (size_t)n * sizeof(double));
  for (int i = 0; i < mr; i++) {
    double mu = fabs(cb->mu0[i]) + fabs(cb->mu1[i]);
    if (mu == 0) continue;
    for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
      int j = rcol[q];
      if (!box[j] && isinf(m->vlb[j]) && isinf(m->vub[j])) return 0;
      acc[j] += mu * fabs(rval[q]);
    }
  }
  double lm = fabs(lam[0]) + fabs(lam[1]);
  for (int j = 0; j < n; j++) {
    /* no margin where only the rows touch x_j (c_j = pi_j = 0): the
     * writer repairs those remainders exactly (cut_repair), and margins
     * there made modglob's cuts dense */
    if (box[j] || (cb->c[j] == 0 && cb->pi[j] == 0)) continue;
    int lo = !isinf(m->vlb[j]), hi = !isinf(m->vub[j]);
    if (!lo && !hi) return 0;
    double e = 1e-8 * (1 + fabs(cb->c[j]) + lm * fabs(cb->pi[j]) + acc[j]);
    if (lo) { cb->c[j] += e; *d += e * m->vlb[j]; }
    else { cb->c[j] -= e; *d -= e * m->vub[j]; }
  }
  return 1;
}

/* Tightened variable upper bounds (the coefficient tightening of a
 * presolve, done as cuts so that the certificate can derive it).  A row
 * with two entries, x_j and a binary y, that reads  A x + C y <= H  with
 * A > 0 > C (after a sign s: the <= side of a_rj > 0, the >= side of
 * a_rj < 0), says  x <= L = H/A  at y = 0 and  x <= M = (H - C)/A  at
 * y = 1.  When another model row r2 bounds x by U < M on its own (its
 * other variables at the bounds that make it loosest; or x's own bound),
 *     x <= L + (U - L) y,  the cut  -x + (U - L) y >= -L,
 * is valid and stronger: fixnet6's arcs into a sink carry at most the
 * sink's demand (2 to 28), not the 500 of their big-M rows, and its LP
 * bound moves from 1201 to about 3200 at once.  A split on y (pi = y,
 * p0 = 0) proves it:
 *   y <= 0:  (M - U) (-y >= 0) + row r / A  gives  -x + (U - L) y >= -L;
 *   y >= 1:  (U - L) (y >= 1) + row r2 / a2 (x <= U) gives the same.
 * Row r's multiplier is -1/a_rj and r2's -1/a2 (a2 = x's coefficient
 * there) whatever the signs: each picks the side the derivation needs.
 * Returns 1 with the cut in cb, 0 when row r gives none. */
static double implied_ub(const twill_ilp *m, int mr0, int j, int skip, const int *cbeg,
                         const int *cidx, const double *cval, const int *rbeg, const int *rcol,
                         const double *rval, int *arg) {
  double best = m->vub[j];
  *arg = -1;
  for (int p = cbeg[j]; p < cbeg[j + 1]; p++) {
    int r = cidx[p];
    double a = cval[p], h = a > 0 ? m->rhi[r] : m->rlo[r], S = 0;
    if (r >= mr0 || r == skip || a == 0 || isinf(h) || rbeg[r + 1] - rbeg[r] > 1000) continue;
    for (int q = rbeg[r]; q < rbeg[r + 1] && !isinf(S); q++) {
      int k = rcol[q];
      if (k == j) continue;
      double ak = rval[q], bk = (ak > 0) == (a > 0) ? m->vlb[k] : m->vub[k];
      S = isinf(bk) ? HUGE_VAL : S + ak * bk;
    }
    if (isinf(S)) continue;
    double u = (h - S) / a;
    if (u < best) { best = u; *arg = r; }
  }
  return best;
}

static int vub_cut(const twill_ilp *m, int mr, int mr0, int r, const int *cbeg, const int *cidx,
                   const double *cval, const int *rbeg, const int *rcol, const double *rval,
                   cutbuf *cb, double *d, double *p0, double lam[2]) {
  int n = m->n;
  if (rbeg[r + 1] - rbeg[r] != 2) return 0;
  for (int t = 0; t < 2; t++) {
    int j = rcol[rbeg[r] + t], y = rcol[rbeg[r] + 1 - t];
    double a = rval[rbeg[r] + t], c = rval[rbeg[r] + 1 - t];
    if (m->vtype[y] == TWILL_ILP_CONTINUOUS || m->vlb[y] != 0 || m->vub[y] != 1 || a == 0) continue;
    double h = a > 0 ? m->rhi[r] : m->rlo[r], sg = a > 0 ? 1 : -1;
    if (isinf(h) || sg * c >= 0) continue;
    double A = sg * a, C = sg * c, H = sg * h, L = H / A, M = (H - C) / A;
    int r2;
    double U = implied_ub(m, mr0, j, r, cbeg, cidx, cval, rbeg, rcol, rval, &r2);
    double tol = 1e-6 * (1 + fabs(M));
    if (!(U < M - tol) || !(U > L + tol)) continue;
    memset(cb->c, 0, (size_t)n * sizeof(double));
    memset(cb->pi, 0, (size_t)n * sizeof(double));
    memset(cb->mu0, 0, (size_t)mr * sizeof(double));
    memset(cb->mu1, 0, (size_t)mr * sizeof(double));
    cb->c[j] = -1;
    cb->c[y] = U - L;
    cb->pi[y] = 1;
    cb->mu0[r] = -1 / a;
    if (r2 >= 0) {
      for (int p = cbeg[j]; p < cbeg[j + 1]; p++)
        if (cidx[p] == r2) cb->mu1[r2] = -1 / cval[p];
    }
    *d = -L;
    *p0 = 0;
    lam[0] = M - U;
    lam[1] = U - L;
    return 1;
  }
  return 0;
}

int twill_ilp_root_cuts(twill_ilp *m, double deadline, signed char **basis_out) {
  *basis_out = NULL;
  m->lp_degenerate = 0;
  int n = m->n, nint = 0;
  for (int j = 0; j < n; j++) nint += m->vtype[j] != TWILL_ILP_CONTINUOUS;
  if (!nint || !m->m || m->nocuts || getenv("TWILL_ILP_NOCUTS")) return 0;
  /* TWILL_ILP_CUTS=gmi,mir,cover,gcd,vub (any subset) limits the separators: to
   * compare them, and for tests that need one kind alone */
  const char *only = getenv("TWILL_ILP_CUTS");
  int use_gmi = !only || strstr(only, "gmi"), use_mir = !only || strstr(only, "mir");
  int use_cover = !only || strstr(only, "cover"), use_gcd = !only || strstr(only, "gcd");
  int use_vub = !only || strstr(only, "vub");
  int ret = -1, mr0 = m->m;
  signed char *basis = NULL;
  double prev = -HUGE_VAL;
  int stall = 0, flat = 0, ncut_before = 0, rolled_back = 0;
  long it0 = 0;
  double sgn = m->maximize ? -1.0 : 1.0;
  for (int round_ = 0; round_ < CUT_ROUNDS; round_++) {
    if (deadline > 0 && twill_lps_clock() > deadline) break;
    int mr = m->m, N = n + mr, stop = 0;
    int *cbeg = NULL, *cidx = NULL;
    double *cval = NULL;
    double *c = calloc((size_t)n + 1, sizeof(double));
    double *lb = calloc((size_t)N + 1, sizeof(double));
    double *ub = calloc((size_t)N + 1, sizeof(double));
    double *x = calloc((size_t)N + 1, sizeof(double));
    double *u = calloc((size_t)mr + 1, sizeof(double));
    double *alpha = calloc((size_t)N + 1, sizeof(double));
    double *bndv = calloc((size_t)N + 1, sizeof(double));
    signed char *sgv = calloc((size_t)N + 1, 1);
    int *vub = calloc((size_t)n + 1, sizeof(int)), *sup = calloc((size_t)n + 1, sizeof(int));
    char *insup = calloc((size_t)n + 1, 1);
    signed char *st = calloc((size_t)N + 1, 1);
    int *rbeg = calloc((size_t)mr + 2, sizeof(int));
    char *rint = calloc((size_t)mr + 1, 1), *box = calloc((size_t)n + 1, 1);
    cand *cands = calloc((size_t)n + 1, sizeof(cand));
    int *idx = calloc((size_t)n + 1, sizeof(int));
    double *val = calloc((size_t)n + 1, sizeof(double));
    int *cit = calloc((size_t)n + 1, sizeof(int));
    double *cwt = calloc((size_t)n + 1, sizeof(double)), *cyv = calloc((size_t)n + 1, sizeof(double));
    covitem *cord = calloc((size_t)n + 1, sizeof(covitem));
    char *cinc = calloc((size_t)n + 1, 1);
    double *acc = calloc((size_t)n + 1, sizeof(double));
    cutbuf cb = {n, calloc((size_t)n + 1, sizeof(double)), calloc((size_t)n + 1, sizeof(double)),
                 calloc((size_t)mr + 1, sizeof(double)), calloc((size_t)mr + 1, sizeof(double))};
    int *rcol = NULL;
    double *rval = NULL;
    lp_solver *lp = NULL;
    int ok = c && lb && ub && x && u && alpha && bndv && sgv && vub && sup && insup && st && rbeg && rint && box && cands && idx &&
             val && cit && cwt && cyv && cord && cinc && acc && cb.c && cb.pi && cb.mu0 && cb.mu1 && twill_ilp_build_csc(m, &cbeg, &cidx, &cval);
    if (ok) {
      int nz = cbeg[n];
      rcol = malloc(((size_t)nz + 1) * sizeof(int));
      rval = malloc(((size_t)nz + 1) * sizeof(double));
      ok = rcol && rval;
      if (ok) {
        twill_ilp_csc_transpose(n, mr, cbeg, cidx, cval, rbeg, rcol, rval);
      }
    }
    if (ok) {
      for (int j = 0; j < n; j++) {
        c[j] = sgn * m->obj[j];
        lb[j] = m->vlb[j];
        ub[j] = m->vub[j];
        if (m->vtype[j] != TWILL_ILP_CONTINUOUS) {
          lb[j] = ceil(lb[j] - 1e-6);
          ub[j] = floor(ub[j] + 1e-6);
        }
        if (lb[j] > ub[j]) stop = 1;
      }
      for (int i = 0; i < mr; i++) {
        lb[n + i] = m->rlo[i];
        ub[n + i] = m->rhi[i];
      }
      integral_rows(m, rbeg, rcol, rval, rint);
      find_vubs(m, mr, rbeg, rcol, rval, ub, vub);
      boxed(m, cbeg, cidx, cval, rbeg, rcol, rval, box);
      lp_input in = {mr, n, cbeg, cidx, cval, c, lb, ub};
      lp = stop ? NULL : twill_lps_new(&in);
      if (!lp && !stop) ok = 0;
    }
    int added = 0;
    if (lp) twill_lps_set_cancel(lp, m->cancel);
    if (ok && lp) {
      if (basis) twill_lps_set_basis(lp, basis);
      if (m->lp_degenerate) twill_lps_set_perturb_early(lp, 1);
      /* after the first round, within an iteration budget of 3 it0 + 1000
       * (it0: the first round's).  A very degenerate LP (10teams: 44636
       * iterations after 50 Gomory cuts, 2756 before) is solved once more,
       * perturbed (below); if that too runs out, the round's cuts are
       * taken back.  Across the suite no other round needs more than a
       * quarter of it (p2756: 304 of 1168).  An iteration budget, not a
       * time budget, so that the cuts are the same on any machine under
       * any load.  (Each round's LP is a fresh object from the last
       * basis: twill_lps_solve runs the dual first from it.) */
      long budget = m->cut_budget > 0 ? m->cut_budget : 3 * it0 + 1000;
      int lst = round_ == 0 ? twill_lps_solve(lp, deadline) : twill_lps_solve_limit(lp, deadline, budget);
      if (round_ > 0 && lst == LPS_LIMIT && basis && !m->lp_degenerate && !twill_lps_halted(m->cancel) &&
          (deadline <= 0 || twill_lps_clock() < deadline)) {
        /* once more from the same basis, the costs perturbed after the
         * first dual iteration: on 10teams the dual then needs about 335
         * iterations, not 44636.  The LP is marked degenerate, and every
         * later LP of this solve (the other rounds, the search's nodes)
         * perturbs early too.  Only from here, so that no model whose
         * LPs fit their budgets changes its path */
        twill_lps_set_basis(lp, basis);
        twill_lps_set_perturb_early(lp, 1);
        m->lp_degenerate = 1;
        lst = twill_lps_solve_limit(lp, deadline, budget);
        if (getenv("TWILL_ILP_DEBUG"))
          fprintf(stderr, "cut round %d: LP again, perturbed: status %d\n", round_, lst);
      }
      if (round_ == 0) it0 = twill_lps_iterations(lp);
      if (round_ > 0 && lst != LPS_OPTIMAL && lst != LPS_INFEASIBLE) {
        twill_ilp_drop_cuts_from(m, ncut_before);
        rolled_back = 1;
        if (getenv("TWILL_ILP_DEBUG"))
          fprintf(stderr, "cut round %d: LP status %d, the last round's cuts taken back\n", round_, lst);
      }
      if (lst == LPS_INFEASIBLE && round_ > 0) {
        /* the cuts proved the root infeasible (divisibility cuts on
         * 6 x1 + 6 x2 - 4 x3 = 21): no basis, so that the search keeps
         * every cut, not only those binding at the last optimal LP */
        free(basis);
        basis = NULL;
      }
      if (lst != LPS_OPTIMAL) stop = 1;
      double z = stop ? 0 : twill_lps_obj(lp);
      if (!stop) {
        if (round_ > 0 && z - prev <= 1e-6 * fmax(1.0, fabs(z))) {
          if (++flat >= FLAT_ROUNDS) stop = 1;
        } else {
          flat = 0;
          if (round_ > 0 && z - prev <= 1e-3 * fmax(1.0, fabs(z)) && ++stall >= CUT_STALL) stop = 1;
        }
        if (getenv("TWILL_ILP_DEBUG")) {
          long ds, dd;
          twill_lps_dual_steps(lp, &ds, &dd);
          fprintf(stderr, "cut round %d: %d rows, bound %.10g, %ld iterations, dual %ld (%ld degenerate)\n", round_, mr,
                  sgn * z + m->c0, twill_lps_iterations(lp), ds, dd);
        }
        prev = z;
        twill_lps_get_x(lp, x);
        twill_lps_get_basis(lp, st);
        free(basis);
        basis = malloc((size_t)N + 1);
        if (!basis) ok = 0;
        else memcpy(basis, st, (size_t)N);
        m->stats.root_bound = sgn * z + m->c0;
      }
      if (ok && !stop && mr - mr0 < 4 * mr0 + 100) {
        int nc = 0;
        for (int j = 0; j < n; j++) {
          if (m->vtype[j] == TWILL_ILP_CONTINUOUS || st[j] != 0) continue;
          double f = x[j] - floor(x[j]);
          if (f < CUT_MIN_F || f > 1 - CUT_MIN_F) continue;
          cands[nc].eff = fabs(f - 0.5);
          cands[nc++].k = j;
        }
        qsort(cands, (size_t)nc, sizeof *cands, cmp_cand);
        if (nc > CUT_CANDS) nc = CUT_CANDS;
        /* generate, score by efficacy, keep the best CUT_PER_ROUND */
        int scap = nc + 2 * CUT_MIR_ROWS * (MIR_AGGR + 1) + 4 * mr0 + 1, ns = 0;
        sc *score = calloc((size_t)scap, sizeof *score);
        if (!score) ok = 0;
        for (int t = 0; ok && use_gmi && t < nc; t++) {
          int k = cands[t].k;
          double d, p0, lam[2];
          if (!twill_lps_tableau_row(lp, k, u, alpha)) continue;
          if (!gmi(m, mr, k, alpha, st, lb, ub, rint, rbeg, rcol, rval, &cb, sgv, bndv, &d, &p0,
                   lam))
            continue;
          if (m->certify && !certifiable(m, mr, &cb, &d, lam, rbeg, rcol, rval, box, acc)) continue;
          double eff = efficacy(&cb, n, x, d);
          if (!(eff > CUT_EFFICACY)) continue;
          score[ns++] = (sc){eff, 0, 0, k, 0, 0};
        }
        /* MIR on the user's rows that are tight at x* (in row order) */
        mirctx cx = {m, mr, mr0, x, lb, ub, rint, rbeg, rcol, cbeg, cidx, vub, rval, cval,
                     alpha, bndv, sgv, sup, 0, insup, 0, 0};
        for (int i = 0, rows = 0; ok && use_mir && i < mr0 && rows < CUT_MIR_ROWS; i++) {
          if (rbeg[i + 1] - rbeg[i] < 2 || rbeg[i + 1] - rbeg[i] > 1000) continue;
          for (int side = 0; side < 2; side++) {
            double h = side ? lb[n + i] : ub[n + i];
            if (isinf(h) || fabs(x[n + i] - h) > 1e-6 * (1 + fabs(h))) continue;
            /* the best cut of each aggregation level is a candidate: the
             * row alone often gives the strongest (a knapsack), the path
             * through other rows the one a flow structure needs */
            int counted = 0;
            for (int a = 0; a <= MIR_AGGR; a++) {
              double dl[DMAX], d, p0, lam[2], best = CUT_EFFICACY, bdelta = 0;
              cx.naggr = a;
              int nd = mir(&cx, i, side, 0, &cb, &d, &p0, lam, dl);
              if (cx.aggr < a) break; /* nothing more to aggregate */
              if (nd <= 0) continue;  /* no integer variable inside its bounds */
              if (!counted++) rows++;
              for (int t = 0; t < nd; t++) {
                if (!mir(&cx, i, side, dl[t], &cb, &d, &p0, lam, NULL)) continue;
                if (m->certify && !certifiable(m, mr, &cb, &d, lam, rbeg, rcol, rval, box, acc)) continue;
                double eff = efficacy(&cb, n, x, d);
                if (eff > best) { best = eff; bdelta = dl[t]; }
              }
              if (!(bdelta > 0 && best > CUT_EFFICACY)) continue;
              /* the best delta and its halves were tried: keep the best one */
              double bd = bdelta, be = -1;
              for (int t = 1; t < 4; t++) {
                double delta = bdelta / (double)(1 << t);
                if (!mir(&cx, i, side, delta, &cb, &d, &p0, lam, dl)) continue;
                if (m->certify && !certifiable(m, mr, &cb, &d, lam, rbeg, rcol, rval, box, acc)) continue;
                double eff = efficacy(&cb, n, x, d);
                if (eff > be) { be = eff; bd = delta; }
              }
              if (best >= be) { be = best; bd = bdelta; }
              if (be > CUT_EFFICACY && ns < scap) score[ns++] = (sc){be, bd, 1, i, side, a};
            }
          }
        }
        /* divisibility cuts on the user's rows */
        for (int i = 0; ok && use_gcd && i < mr0; i++)
          for (int side = 0; side < 2; side++) {
            double d, p0, lam[2];
            /* exact as it stands: no margins (certifiable) needed */
            if (!gcd_cut(m, mr, i, side, x, rint, rbeg, rcol, rval, &cb, &d, &p0, lam)) continue;
            double eff = efficacy(&cb, n, x, d);
            if (eff > CUT_EFFICACY && ns < scap) score[ns++] = (sc){eff, 0, 3, i, side, 0};
          }
        /* knapsack covers on the user's rows */
        for (int i = 0; ok && use_cover && i < mr0; i++) {
          if (rbeg[i + 1] - rbeg[i] < 2 || rbeg[i + 1] - rbeg[i] > 1000) continue;
          for (int side = 0; side < 2; side++) {
            double d, p0, lam[2];
            if (!cover(m, mr, i, side, x, lb, ub, rbeg, rcol, rval, cit, cwt, cyv, cord, cinc, &cb,
                       &d, &p0, lam))
              continue;
            if (m->certify && !certifiable(m, mr, &cb, &d, lam, rbeg, rcol, rval, box, acc)) continue;
            double eff = efficacy(&cb, n, x, d);
            if (eff > CUT_EFFICACY && ns < scap) score[ns++] = (sc){eff, 0, 2, i, side, 0};
          }
        }
        /* best first (ties: GMI before MIR, lower index, side, level): a
         * total order, so the same on every platform's qsort */
        qsort(score, (size_t)ns, sizeof *score, cmp_score);
        /* the rows the derivations use are those of this round's LP: cut
         * rows added in this round must not shift them, and do not.  A cut
         * nearly parallel to one already taken this round is passed over
         * (it would cut off much the same). */
        double *kept = ns ? malloc(2 * (size_t)CUT_PER_ROUND * (size_t)n * sizeof(double)) : NULL;
        if (ns && !kept) ok = 0;
        /* covers have their own quota: many rows give one, and they would
         * crowd out the Gomory and MIR cuts (mitre's bound fell with one
         * quota for all) */
        int quota[2] = {0, 0};
        for (int t = 0; ok && t < ns && added < 2 * CUT_PER_ROUND; t++) {
          double d, p0, lam[2], dl[DMAX];
          int got, qk = score[t].kind >= 2;
          if (quota[qk] >= CUT_PER_ROUND) continue;
          if (score[t].kind == 0)
            got = twill_lps_tableau_row(lp, score[t].k, u, alpha) &&
                  gmi(m, mr, score[t].k, alpha, st, lb, ub, rint, rbeg, rcol, rval, &cb, sgv,
                      bndv, &d, &p0, lam);
          else if (score[t].kind == 3)
            got = gcd_cut(m, mr, score[t].k, score[t].side, x, rint, rbeg, rcol, rval, &cb, &d,
                          &p0, lam);
          else if (score[t].kind == 2)
            got = cover(m, mr, score[t].k, score[t].side, x, lb, ub, rbeg, rcol, rval, cit, cwt,
                        cyv, cord, cinc, &cb, &d, &p0, lam);
          else {
            cx.naggr = score[t].naggr;
            got = mir(&cx, score[t].k, score[t].side, score[t].delta, &cb, &d, &p0, lam, dl);
          }
          if (got && m->certify && score[t].kind != 3 && !certifiable(m, mr, &cb, &d, lam, rbeg, rcol, rval, box, acc))
            got = 0;
          if (!got || too_parallel(&cb, n, kept, added, CUT_MAX_PARALLEL, idx)) continue;
          static const char *kinds[] = {"gmi", "mir", "cover", "gcd"};
          if (add_cut(m, mr, &cb, d, p0, lam, kinds[score[t].kind], idx, val) < 0) ok = 0;
          else { added++; quota[qk]++; }
        }
        free(kept);
        free(score);
        if (getenv("TWILL_ILP_DEBUG"))
          fprintf(stderr, "cut round %d: %d candidates, %d kept\n", round_, ns, added);
        /* tightened variable upper bounds, beside the quotas (they replace
         * model rows rather than cut deeper): all of them in the first
         * round, as a presolve would (fixnet6's LP then moves from 1201 to
         * 3205 in one round, not seven), the violated ones later */
        for (int i = 0; ok && use_vub && i < mr0; i++) {
          double d, p0, lam[2];
          if (!vub_cut(m, mr, mr0, i, cbeg, cidx, cval, rbeg, rcol, rval, &cb, &d, &p0, lam)) continue;
          if (m->certify && !certifiable(m, mr, &cb, &d, lam, rbeg, rcol, rval, box, acc)) continue;
          if (round_ > 0 && !(efficacy(&cb, n, x, d) > CUT_EFFICACY)) continue;
          if (add_cut(m, mr, &cb, d, p0, lam, "vub", idx, val) < 0) ok = 0;
          else added++;
        }
      }
    }
    if (ok && !rolled_back) ncut_before = m->ncut - added;
    if (ok && added && basis) {
      /* the new logicals start basic */
      signed char *b2 = calloc((size_t)(n + m->m) + 1, 1);
      if (!b2) ok = 0;
      else {
        memcpy(b2, basis, (size_t)N);
        free(basis);
        basis = b2;
      }
    }
    twill_lps_free(lp);
    free(cbeg); free(cidx); free(cval); free(c); free(lb); free(ub); free(x); free(u);
    free(alpha); free(bndv); free(sgv); free(vub); free(sup); free(insup); free(st); free(rbeg); free(rint); free(box); free(cands); free(idx); free(val);
    free(cb.c); free(cb.pi); free(cb.mu0); free(cb.mu1); free(rcol); free(rval);
    free(cit); free(cwt); free(cyv); free(cord); free(cinc); free(acc);
    if (!ok) goto done;
    if (stop || !added) break;
  }
  ret = 0;
  /* after a roll back, the model has the rows of the round before the last
   * cuts, and the first n + m entries of basis are that round's basis
   * (later logicals were appended); root_bound is that round's too */
  if (basis) *basis_out = basis;
  basis = NULL;
done:
  free(basis);
  m->stats.cuts = m->ncut;
  return ret;
}
