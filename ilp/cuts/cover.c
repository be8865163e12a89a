/* ilp/cuts/cover.c: knapsack cover cuts (see cuts.h for the split each cut
 * carries). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuts.h"

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

static int cmp_covitem(const void *a, const void *b) {
  const covitem *p = a, *q = b;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  return p->k - q->k;
}

int twill_cut_cover(const twill_ilp *m, int mr, int i, int side, const double *x, const double *lb,
                    const double *ub, const int *rbeg, const int *rcol, const double *rval,
                    int *it, double *wt, double *yv, covitem *ord, char *inc, cutbuf *cb,
                    double *d, double *p0, double lam[2]) {
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

