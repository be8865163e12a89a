/* ilp/cuts/gcd.c: divisibility (GCD) cuts (see cuts.h for the split each
 * cut carries). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuts.h"

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
int twill_cut_gcd(const twill_ilp *m, int mr, int i, int side, const double *x, const char *rint,
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

