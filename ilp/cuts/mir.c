/* ilp/cuts/mir.c: c-MIR cuts on rows of the model and their aggregations
 * (see cuts.h for the split each cut carries). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuts.h"

/* Variable upper bounds  a_rj x_j + a_rk y_k <= h  (x_j continuous, a_rj >
 * 0, y_k integer; or the same row's >= side with a_rj < 0, which is how a
 * tightened one, vub_cut's  -x + k y >= -L, reads) for the MIR rows:
 * vub[j] = r, of those rows the one that bounds x_j least at y_k's upper
 * bound (cut rows included: a tightened bound is the stronger one). */
static int vub_side(const twill_ilp *m, int r, double a) {
  return a > 0 ? (isinf(m->rhi[r]) ? 0 : -1) : (isinf(m->rlo[r]) ? 0 : 1);
}

void twill_cut_find_vubs(const twill_ilp *m, int mr, const int *rbeg, const int *rcol,
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

/* Mixed-integer rounding on an aggregation of the model's rows (Marchand-
 * Wolsey c-MIR).  The base is row i (side 0: its <= side, 1: its >= side)
 * as the identity  a_i'x - z_{n+i} = 0  with z_{n+i} at that side, so that
 * twill_cut_gmi_core derives the cut like a tableau row.  Then, up to MIR_AGGR times:
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
 * returned.  Otherwise returns twill_cut_gmi_core's result. */
int twill_cut_mir(mirctx *cx, int i, int side, double delta, cutbuf *cb, double *d, double *p0,
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
  return twill_cut_gmi_core(m, cx->mr, alpha, sg, bnd, lb, ub, cx->rint, cx->rbeg, cx->rcol,
                            cx->rval, cb, d, p0, lam);
}

