/* ilp/cuts/vub.c: big-M rows tightened by implied bounds, as cuts (see
 * cuts.h for the split each cut carries). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuts.h"

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

int twill_cut_vub(const twill_ilp *m, int mr, int mr0, int r, const int *cbeg, const int *cidx,
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

