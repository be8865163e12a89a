/* ilp/exact/exact_point.c: an exact rational point beside the incumbent.
 *
 * Why: a certificate's SOL point must satisfy every row exactly.  The
 * incumbent of a mixed model is a floating-point vertex; where its
 * continuous values are neither short decimals nor small fractions
 * (gesa2, misc06: vertices of rows like 10.65 x - y = 0), no rounding of
 * them is exact.  The exact vertex is: fix the integers and the
 * continuous variables at a bound, and solve the rows that hold with
 * equality for the rest,
 *
 *      A_TF x_F = b_T - A_TN x_N        (T tight rows, F free columns),
 *
 * in rational arithmetic (qsys.c: sparse elimination by Markowitz's
 * rule, so the mostly +-1 rows of these models stay sparse and their
 * numbers short).  Columns no pivot claims keep their decimals; rows left
 * empty are dropped (the caller's exact check decides about them). */
#include "exact_point.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigq.h"
#include "qsys.h"

/* The elimination's budget: a dense or ill-conditioned system would make
 * the rationals grow without bound and the writer take minutes; past this
 * many limb products (qsys.h; gesa2's vertex takes 426, misc06's 6108), or
 * past maxdigits in one number, the point is given up, never the
 * certificate. */
#define EP_WORK 200000000LL

static int near(double x, double b, double tol) {
  return !isinf(b) && fabs(x - b) <= tol * (1 + fabs(b));
}

/* the starting values: integers rounded, bounds snapped, the rest free
 * (fidx[j] = its free column, or -1) */
static int start_values(const twill_ilp *m, const double *lb, const double *ub, const double *x,
                        double tol, bigq *val, int *fidx, int *fcol, int *nf) {
  *nf = 0;
  for (int j = 0; j < m->n; j++) {
    double v = x[j];
    fidx[j] = -1;
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) v = nearbyint(v);
    else if (near(v, lb[j], tol) || v < lb[j]) v = lb[j];
    else if (near(v, ub[j], tol) || v > ub[j]) v = ub[j];
    else {
      fidx[j] = *nf;
      fcol[(*nf)++] = j;
    }
    if (twill_qs_from_double(&val[j], v)) return -1;
  }
  return 0;
}

/* append row i's free part to the system: rhs = side - (fixed part) */
static int add_row(qsys *s, const int *rcol, const double *rv, int q0, int q1, double side,
                   const bigq *val, const int *fidx) {
  bigq a, t;
  int ret = -1;
  twill_bq_init(&a);
  twill_bq_init(&t);
  if (twill_qs_row(s)) goto done;
  bigq *rhs = twill_qs_rhs(s);
  if (twill_qs_from_double(rhs, side)) goto done;
  for (int q = q0; q < q1; q++) { /* columns ascend, so free columns do */
    int j = rcol[q];
    if (rv[q] == 0) continue;
    if (twill_qs_from_double(&a, rv[q])) goto done;
    if (fidx[j] < 0) {
      if (twill_bq_mul(&t, &a, &val[j]) || twill_bq_sub(rhs, rhs, &t)) goto done;
      continue;
    }
    if (twill_qs_entry(s, fidx[j], &a)) goto done;
  }
  ret = 0;
done:
  twill_bq_free(&a);
  twill_bq_free(&t);
  return ret;
}

/* the rows x makes tight, in the free columns */
static int build_rows(qsys *s, const twill_ilp *m, int mrows, const double *x, const bigq *val,
                      const int *fidx, double tol) {
  int *rbeg = NULL, *cbeg = NULL, *cidx = NULL, *rcol = NULL;
  double *cval = NULL, *rv = NULL;
  int ret = -1, nz;
  if (!twill_ilp_build_csc(m, &cbeg, &cidx, &cval)) return -1;
  nz = cbeg[m->n];
  rbeg = calloc((size_t)m->m + 2, sizeof(int));
  rcol = malloc(((size_t)nz + 1) * sizeof(int));
  rv = malloc(((size_t)nz + 1) * sizeof(double));
  if (!rbeg || !rcol || !rv) goto done;
  twill_ilp_csc_transpose(m->n, m->m, cbeg, cidx, cval, rbeg, rcol, rv);
  for (int i = 0; i < mrows; i++) {
    double act = 0, side;
    int nfree = 0;
    for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
      act += rv[q] * x[rcol[q]];
      nfree += fidx[rcol[q]] >= 0;
    }
    if (!nfree) continue;
    double lo = m->rlo[i], hi = m->rhi[i];
    if (lo == hi || (!isinf(lo) && act <= lo + 10 * tol * (1 + fabs(lo)))) side = lo;
    else if (!isinf(hi) && act >= hi - 10 * tol * (1 + fabs(hi))) side = hi;
    else continue;
    if (add_row(s, rcol, rv, rbeg[i], rbeg[i + 1], side, val, fidx)) goto done;
  }
  ret = 0;
done:
  free(rbeg);
  free(rcol);
  free(rv);
  free(cbeg);
  free(cidx);
  free(cval);
  return ret;
}

static int den_of(bigz *out, const bigq *q) {
  return q->den.n ? twill_bz_copy(out, &q->den) : twill_bz_set_ll(out, 1);
}

/* D = lcm of the denominators; num[j] = x_j D.  0 when too long. */
static int common_denominator(int n, const bigq *val, int maxdigits, char **num, char **den) {
  bigz D, g, t;
  int ret = -1;
  twill_bz_init(&D);
  twill_bz_init(&g);
  twill_bz_init(&t);
  if (twill_bz_set_ll(&D, 1)) goto done;
  for (int j = 0; j < n; j++) {
    if (den_of(&t, &val[j]) || twill_bz_gcd(&g, &D, &t) || twill_bz_divmod(&t, NULL, &t, &g) ||
        twill_bz_mul(&D, &D, &t))
      goto done;
    if (twill_bz_digits(&D) > maxdigits) { ret = 0; goto done; }
  }
  for (int j = 0; j < n; j++) {
    if (den_of(&t, &val[j]) || twill_bz_divmod(&t, NULL, &D, &t) || twill_bz_mul(&t, &t, &val[j].num))
      goto done;
    if (twill_bz_digits(&t) > maxdigits) { ret = 0; goto done; }
    if (!(num[j] = twill_bz_str(&t))) goto done;
  }
  if (!(*den = twill_bz_str(&D))) goto done;
  ret = 1;
done:
  twill_bz_free(&D);
  twill_bz_free(&g);
  twill_bz_free(&t);
  return ret;
}

int twill_ilp_exact_point(const twill_ilp *m, int mrows, const double *lb, const double *ub,
                    const double *x, double tol, int maxdigits, char ***num, char **den) {
  int n = m->n, nf = 0, ret = -1;
  qsys *s = NULL;
  *num = NULL;
  *den = NULL;
  bigq *val = calloc((size_t)n + 1, sizeof(bigq));
  bigq *fval = calloc((size_t)n + 1, sizeof(bigq));
  int *fidx = malloc(((size_t)n + 1) * sizeof(int));
  int *fcol = malloc(((size_t)n + 1) * sizeof(int));
  char **out = calloc((size_t)n + 1, sizeof(char *));
  if (!val || !fval || !fidx || !fcol || !out) goto done;
  for (int j = 0; j < n; j++) twill_bq_init(&val[j]), twill_bq_init(&fval[j]);
  if (start_values(m, lb, ub, x, tol, val, fidx, fcol, &nf)) goto done;
  if (!(s = twill_qs_new(mrows, nf, maxdigits, EP_WORK))) goto done;
  if (build_rows(s, m, mrows, x, val, fidx, tol)) goto done;
  for (int k = 0; k < nf; k++)
    if (twill_bq_copy(&fval[k], &val[fcol[k]])) goto done;
  ret = twill_qs_solve(s, fval);
  if (ret != 1) goto done;
  ret = -1;
  for (int k = 0; k < nf; k++)
    if (twill_bq_copy(&val[fcol[k]], &fval[k])) goto done;
  ret = common_denominator(n, val, maxdigits, out, den);
  if (ret == 1) {
    *num = out;
    out = NULL;
  }
done:
  if (out)
    for (int j = 0; j < n; j++) free(out[j]);
  free(out);
  twill_bq_free_vec(val, n);
  twill_bq_free_vec(fval, n);
  free(fidx);
  free(fcol);
  twill_qs_free(s);
  return ret;
}

void twill_ilp_exact_point_free(int n, char **num, char *den) {
  if (num)
    for (int j = 0; j < n; j++) free(num[j]);
  free(num);
  free(den);
}
