/* ilp/lp/pricing.c: Dantzig and devex pricing (see pricing.h). */
#include <assert.h>

#include "pricing.h"

void twill_lpp_reset(const lp_solver *s, double *w) {
  for (int j = 0; j < s->N; j++) w[j] = 1.0;
}

/* v = the improvement rate of j (positive when attractive); the comparison
 * v^2 / w > best is made as v^2 > best w, so that the division is done only
 * for a new best (this loop runs over all N every iteration). */
int twill_lpp_chuzc(const lp_solver *s, const double *w, int bland) {
  int q = -1;
  double best = 0;
  for (int j = 0; j < s->N; j++) {
    signed char t = s->st[j];
    double dj = s->d[j], v;
    if (t == B_LOWER) v = -dj;
    else if (t == B_UPPER) v = dj;
    else if (t == B_FREE) v = fabs(dj);
    else continue;
    if (v <= TOL_D) continue;
    double v2 = v * v;
    if (v2 > best * w[j]) {
      best = v2 / w[j];
      q = j;
      if (bland) break;
    }
  }
  /* an entering candidate: nonbasic, not fixed, improving */
  assert(q < 0 || (s->st[q] != B_BASIC && s->st[q] != B_FIXED));
  return q;
}

int twill_lpp_chuzr(const lp_solver *s, const double *w) {
  int r = -1;
  double worst = 0;
  for (int k = 0; k < s->m; k++) {
    double f = infeas(s, s->head[k]);
    if (f > 0) f = f * f / w[s->head[k]];
    if (f > worst) { worst = f; r = k; }
  }
  /* a leaving candidate: basic and outside its bounds */
  assert(r < 0 || (s->st[s->head[r]] == B_BASIC && infeas(s, s->head[r]) > 0));
  return r;
}

void twill_lpp_update_primal(const lp_solver *s, double *w, int q, int leave, double ar) {
  if (s->pricing == LP_PRICE_DANTZIG) return;
  double wq = w[q], iar = 1.0 / ar;
  for (int t = 0; t < s->rcnt; t++) {
    int j = s->rlist[t];
    if (j == q) continue;
    double v = s->rrow[j] * iar;
    v = v * v * wq;
    if (v > w[j]) w[j] = v;
  }
  double v = wq / (ar * ar);
  w[leave] = v > 1.0 ? v : 1.0;
}

void twill_lpp_update_dual(const lp_solver *s, double *w, const double *alpha, int r, int q,
                           int jr, double ar) {
  if (s->pricing == LP_PRICE_DANTZIG) return;
  double wr = w[jr];
  for (int k = 0; k < s->m; k++) {
    double a = alpha[k];
    if (a == 0 || k == r) continue;
    /* (the dual divides where the primal multiplies by 1 / alpha_p: each
     * loop's weights, and so its path, as measured) */
    double v = a / ar;
    v = v * v * wr;
    if (v > w[s->head[k]]) w[s->head[k]] = v;
  }
  double v = wr / (ar * ar);
  w[q] = v > 1.0 ? v : 1.0;
}
