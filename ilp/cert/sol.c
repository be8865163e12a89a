/* ilp/cert/sol.c: the SOL section's point (an exactly feasible incumbent)
 * and the cutoff line reduced-cost fixings derive from (writer.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../exact/bigq.h"
#include "../exact/exact_basis.h"
#include "../exact/exact_point.h"
#include "../exact/qsys.h"
#include "../log.h"
#include "writer.h"

/* p/q close to x (|x - p/q| <= 1e-9 (1 + |x|), q <= 10^6, |x| <= 10^9)
 * by continued fractions; 0 when there is none. */
static int small_fraction(double x, long long *p, long long *q) {
  long long h0 = 0, h1 = 1, k0 = 1, k1 = 0;
  double r = x;
  if (!(fabs(x) <= 1e9)) return 0; /* keeps h below 10^15 */
  for (int it = 0; it < 40; it++) {
    double a = floor(r);
    if (fabs(a) > 1e15) return 0;
    long long ai = (long long)a, h2 = ai * h1 + h0, k2 = ai * k1 + k0;
    if (k2 > 1000000 || k2 <= 0) return 0;
    h0 = h1; h1 = h2; k0 = k1; k1 = k2;
    if (fabs(x - (double)h1 / (double)k1) <= 1e-9 * (1 + fabs(x))) {
      *p = h1;
      *q = k1;
      return 1;
    }
    if (r - a < 1e-15) return 0;
    r = 1 / (r - a);
  }
  return 0;
}

static long long gcd_ll(long long a, long long b) {
  while (b) { long long t = a % b; a = b; b = t; }
  return a < 0 ? -a : a;
}

/* kinds 6 and 7: the exact vertex under the incumbent (exact_point.c),
 * over the common denominator of its values (dec holds 432 digits);
 * kind 7 takes values within 1e-6 of a bound as on it (rgn's incumbent
 * has 1e-7 where the vertex has 0) */
static int exact_candidate(W *w, int mr0, double tol) {
  const twill_ilp *m = w->m;
  char **num, *den;
  int r = twill_ilp_exact_point(m, mr0, w->curl, w->curu, m->sol, tol, 400, &num, &den);
  if (r != 1) {
    twill_ilp_log(m, 1, "vipr: no exact vertex (%d)", r);
    return 0;
  }
  int ok = twill_dec_parse(&w->overflow, &w->solden, den);
  for (int j = 0; j < m->n && ok; j++) ok = twill_dec_parse(&w->overflow, &w->solx[j], num[j]);
  twill_ilp_exact_point_free(m->n, num, den);
  return ok;
}

/* The incumbent as a candidate SOL point: kind 0 the shortest decimals
 * that read back as its doubles, kind 1..4 its continuous values rounded
 * to 15, 12, 9, 6 significant digits, kind 5 its continuous values as
 * fractions p/q (q <= 10^6) over their common denominator D (vpm1: a
 * production of 1/3 in 600 x = 200).  x_j = solx_j / D.  0 when kind 5
 * finds no such fractions. */
static int sol_candidate(W *w, int kind, int mr0) {
  const twill_ilp *m = w->m;
  if (kind >= 6) return exact_candidate(w, mr0, kind == 6 ? 1e-9 : 1e-6);
  static const int digits[] = {0, 15, 12, 9, 6};
  long long D = 1;
  if (kind == 5) {
    for (int j = 0; j < m->n; j++) {
      long long p, q;
      if (m->vtype[j] != TWILL_ILP_CONTINUOUS) continue;
      if (!small_fraction(m->sol[j], &p, &q)) return 0;
      long long g = gcd_ll(D, q);
      if (D / g > 1000000000000000LL / q) return 0;
      D = D / g * q;
    }
  }
  char buf[64];
  snprintf(buf, sizeof buf, "%lld", D);
  twill_dec_parse(&w->overflow, &w->solden, buf);
  for (int j = 0; j < m->n; j++) {
    double v = m->sol[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS || kind == 0) {
      twill_dec_from(&w->overflow, &w->solx[j], v);
      twill_dec_mul(&w->overflow, &w->solx[j], &w->solx[j], &w->solden);
    } else if (kind < 5) {
      twill_dec_round(&w->overflow, &w->solx[j], v, digits[kind]);
    } else {
      long long p, q;
      dec f;
      small_fraction(v, &p, &q);
      snprintf(buf, sizeof buf, "%lld", p); /* p (D / q): each below 10^15 */
      twill_dec_parse(&w->overflow, &w->solx[j], buf);
      snprintf(buf, sizeof buf, "%lld", D / q);
      twill_dec_parse(&w->overflow, &f, buf);
      twill_dec_mul(&w->overflow, &w->solx[j], &w->solx[j], &f);
    }
  }
  return 1;
}

static int sol_miss(const twill_ilp *m, int kind, const char *what, int i) {
  twill_ilp_log(m, 1, "vipr: SOL candidate %d %s %d", kind, what, i);
  return 0;
}

/* The SOL section's point: the first candidate (sol_candidate) that
 * satisfies every bound and user row exactly goes to w->solx over
 * w->solden, its objective (over the same) to w->solobj.  The decimals
 * come first (flugpl's 59.99999999999999 on a row that asks for exactly
 * 60 goes in rounded).  Called with the model's bounds in curl/curu.
 * Returns w->solok. */
int twill_vw_choose_sol(W *w, int mr0) {
  const twill_ilp *m = w->m;
  w->solok = 0;
  if (!w->solx || m->status != TWILL_ILP_OPTIMAL || !m->has_sol) return 0;
  for (int k = 0; k < 8 && !w->solok; k++) {
    if (!sol_candidate(w, k, mr0)) continue;
    int ok = 1;
    dzero(&w->solobj);
    for (int j = 0; j < m->n && ok; j++) {
      dec b, t;
      if (!isinf(w->curl[j])) {
        twill_dec_from(&w->overflow, &b, w->curl[j]);
        twill_dec_mul(&w->overflow, &b, &b, &w->solden);
        if (twill_dec_cmp(&w->overflow, &w->solx[j], &b) < 0) ok = sol_miss(m, k, "below the bound of column", j);
      }
      if (!isinf(w->curu[j])) {
        twill_dec_from(&w->overflow, &b, w->curu[j]);
        twill_dec_mul(&w->overflow, &b, &b, &w->solden);
        if (twill_dec_cmp(&w->overflow, &w->solx[j], &b) > 0) ok = sol_miss(m, k, "above the bound of column", j);
      }
      twill_dec_mul(&w->overflow, &t, &w->solx[j], &w->cobj[j]);
      twill_dec_add(&w->overflow, &w->solobj, &w->solobj, &t);
    }
    for (int i = 0; ok && i < mr0; i++) {
      dec act, t, lo, hi;
      dzero(&act);
      for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
        twill_dec_mul(&w->overflow, &t, &w->aval[w->rpos[q]], &w->solx[w->rcol[q]]);
        twill_dec_add(&w->overflow, &act, &act, &t);
      }
      twill_dec_mul(&w->overflow, &lo, &w->rl[i], &w->solden);
      twill_dec_mul(&w->overflow, &hi, &w->rh[i], &w->solden);
      if ((w->rG[i] >= 0 && twill_dec_cmp(&w->overflow, &act, &lo) < 0) || (w->rL[i] >= 0 && twill_dec_cmp(&w->overflow, &act, &hi) > 0))
        ok = sol_miss(m, k, "misses row", i);
    }
    w->solok = ok && !w->overflow;
    if (!w->solok) twill_ilp_log(m, 1, "vipr: SOL candidate %d is not exactly feasible", k);
  }
  return w->solok;
}

/* An LP (no integer variable) whose float optimum no candidate makes
 * exactly feasible (25fv47, grow7, grow15, stair, pilot4, perold): the
 * root basis's exact primal values (exact_basis.c), kept as rationals
 * (their denominators pass the 432 digits of a dec) in w->solq when they
 * satisfy every bound and row exactly.  Returns 1 when kept. */
int twill_vw_exact_sol(W *w, int mr0) {
  const twill_ilp *m = w->m;
  int n = m->n, ok = 0;
  if (!m->root_basis || m->status != TWILL_ILP_OPTIMAL || !m->has_sol) return 0;
  for (int j = 0; j < n; j++)
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) return 0;
  bigq *x = calloc((size_t)n + 1, sizeof(bigq)), act, t, a;
  twill_bq_init(&act);
  twill_bq_init(&t);
  twill_bq_init(&a);
  twill_bq_init(&w->solqobj);
  if (!x) return 0;
  for (int j = 0; j < n; j++) twill_bq_init(&x[j]);
  int rc = twill_ilp_basis_primal(m, m->root_basis, w->curl, w->curu, EXACT_DIGITS, x), err = rc < 0;
  ok = rc == 1;
  for (int j = 0; j < n && ok && !err; j++) {
    if (!isinf(w->curl[j]) && !(err = twill_qs_from_double(&t, w->curl[j])) && twill_bq_cmp(&x[j], &t) < 0)
      ok = sol_miss(m, 8, "below the bound of column", j);
    if (ok && !isinf(w->curu[j]) && !(err = twill_qs_from_double(&t, w->curu[j])) && twill_bq_cmp(&x[j], &t) > 0)
      ok = sol_miss(m, 8, "above the bound of column", j);
    if (ok && m->obj[j] != 0 && !err)
      err = twill_qs_from_double(&t, m->obj[j]) || twill_bq_addmul(&w->solqobj, &w->solqobj, &t, &x[j]);
  }
  for (int i = 0; i < mr0 && ok && !err; i++) {
    twill_bq_free(&act);
    for (int q = w->rbeg[i]; q < w->rbeg[i + 1] && !err; q++)
      err = twill_qs_from_double(&a, w->cval[w->rpos[q]]) || twill_bq_addmul(&act, &act, &a, &x[w->rcol[q]]);
    if (!err && w->rG[i] >= 0 && !(err = twill_qs_from_double(&t, m->rlo[i])) && twill_bq_cmp(&act, &t) < 0)
      ok = sol_miss(m, 8, "misses row", i);
    if (ok && !err && w->rL[i] >= 0 && !(err = twill_qs_from_double(&t, m->rhi[i])) && twill_bq_cmp(&act, &t) > 0)
      ok = sol_miss(m, 8, "misses row", i);
  }
  ok = ok && !err;
  twill_ilp_log(m, 1, "vipr: the root basis's exact optimum is %s (%d)",
                ok ? "feasible" : "not exactly feasible", rc);
  if (ok) {
    w->solq = x;
  } else {
    twill_bq_free_vec(x, n);
    twill_bq_free(&w->solqobj);
  }
  twill_bq_free(&act);
  twill_bq_free(&t);
  twill_bq_free(&a);
  return ok;
}

/* When the search fixed variables by reduced cost, the cutoff they use:
 * c'x <= best (>= for max) by `sol`, best the incumbent's exact value. */
void twill_vw_sol_line(W *w) {
  const twill_ilp *m = w->m;
  int any = 0;
  w->solidx = -1;
  for (int v = 0; v < m->nrec && !any; v++)
    for (int k = 0; k < m->rec[v].nprop && !any; k++) any = m->rec[v].prop[k].row < 0;
  if (!any || m->status != TWILL_ILP_OPTIMAL || !m->has_sol) return;
  /* The cutoff is printed as a decimal.  An integral SOL gives its value
   * itself; a fractional one (a mixed model's exact vertex, over solden)
   * gives a decimal just on the weak side of solobj/solden, which the
   * checker accepts (`sol` may be weaker than the best solution): the
   * search's fixings kept a margin of 1e-6 far above that rounding.  With
   * no exact SOL the float incumbent's value is taken, and the writer
   * fails below (the cutoff must come from the SOL section); the command
   * then solves again without fixings. */
  int dsol = w->solok && w->solden.n == 1 && w->solden.d[0] == 1 && w->solden.e == 0;
  dzero(&w->best);
  /* (the weak side: >= for min, s > 0; <= for max) */
  w->bestok = dsol || (w->solok && !twill_vw_decimal_near(&w->overflow, &w->best, &w->solobj, &w->solden, w->s));
  if (dsol) w->best = w->solobj;
  for (int j = 0; j < m->n && !w->bestok; j++) {
    dec xv, t;
    twill_dec_from(&w->overflow, &xv, m->sol[j]);
    twill_dec_mul(&w->overflow, &t, &xv, &w->cobj[j]);
    twill_dec_add(&w->overflow, &w->best, &w->best, &t);
  }
  w->solidx = w->base + w->nder++;
  fprintf(w->out, "D%d %s ", w->solidx, w->s < 0 ? "G" : "L");
  twill_dec_print(w->out, &w->best);
  fprintf(w->out, " OBJ { sol } -1\n");
}
