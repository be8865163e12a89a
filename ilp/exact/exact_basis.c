/* ilp/exact/exact_basis.c: exact values of an LP basis (see exact_basis.h).
 *
 * With the basis matrix B (the basic columns of [A -I]), the dual values
 * solve  B' y = c_B  and the primal values  B x_B = -N x_N.  A basic
 * logical i contributes the unit column -e_i, so it fixes y_i = 0 in the
 * first system and only gives row i's slack in the second; both systems
 * are therefore square over the structural part:
 *
 *   duals:  for each basic structural j:  sum_{i: logical nonbasic} a_ij y_i = c_j
 *   primal: for each row i, logical nonbasic at side v_i:
 *             sum_{j basic} a_ij x_j = v_i - sum_{j nonbasic} a_ij x_j
 *
 * A basis the simplex found nonsingular in floating point may still be
 * singular in exact arithmetic (or its numbers too long): the result is 0,
 * and the caller keeps its other ways. */
#include "exact_basis.h"

#include <math.h>
#include <stdlib.h>

#include "qsys.h"

/* work budget of one solve (limb products, qsys.h): perold's solves take
 * 5.3e7 and 3.0e7, pilot4's 5.4e7 and 4.1e7, about a second each; 2e9
 * bounds a basis that is much harder at under a minute or so */
#define EB_WORK 2000000000LL

/* the value of a nonbasic variable with status st and bounds l, u */
static double at_bound(signed char st, double l, double u) {
  if (st == 2) return u;
  if (st == 3) return 0;
  return l;
}

static int basis_count(const twill_ilp *m, const signed char *st) {
  int nb = 0;
  for (int k = 0; k < m->n + m->m; k++) nb += st[k] == 0;
  return nb;
}

int twill_ilp_basis_duals(const twill_ilp *m, const signed char *st, int sg, int maxdigits, bigq *y) {
  int n = m->n, mr = m->m, ret = -1;
  int *cbeg = NULL, *cidx = NULL;
  double *cval = NULL;
  qsys *s = NULL;
  bigq a;
  twill_bq_init(&a);
  if (basis_count(m, st) != mr) return 0;
  if (!twill_ilp_build_csc(m, &cbeg, &cidx, &cval)) return -1;
  if (!(s = twill_qs_new(n, mr, maxdigits, EB_WORK))) goto done;
  /* one equation per basic structural, over the rows whose logical is
   * nonbasic (csc columns hold ascending rows) */
  for (int j = 0; j < n; j++) {
    if (st[j] != 0) continue;
    if (twill_qs_row(s) || twill_qs_from_double(twill_qs_rhs(s), sg * m->obj[j])) goto done;
    for (int p = cbeg[j]; p < cbeg[j + 1]; p++) {
      int i = cidx[p];
      if (st[n + i] == 0 || cval[p] == 0) continue;
      if (twill_qs_from_double(&a, cval[p]) || twill_qs_entry(s, i, &a)) goto done;
    }
  }
  for (int i = 0; i < mr; i++)
    if (twill_bq_set_ll(&y[i], 0, 1)) goto done;
  ret = twill_qs_solve(s, y);
  if (ret == 1 && twill_qs_dropped(s)) ret = 0;
done:
  twill_bq_free(&a);
  twill_qs_free(s);
  free(cbeg);
  free(cidx);
  free(cval);
  return ret;
}

int twill_ilp_basis_primal(const twill_ilp *m, const signed char *st, const double *lb,
                     const double *ub, int maxdigits, bigq *x) {
  int n = m->n, mr = m->m, ret = -1;
  int *cbeg = NULL, *cidx = NULL, *rbeg = NULL, *rcol = NULL;
  double *cval = NULL, *rval = NULL;
  qsys *s = NULL;
  bigq a, t;
  twill_bq_init(&a);
  twill_bq_init(&t);
  if (basis_count(m, st) != mr) return 0;
  if (!twill_ilp_build_csc(m, &cbeg, &cidx, &cval)) return -1;
  int nz = cbeg[n];
  rbeg = calloc((size_t)mr + 2, sizeof(int));
  rcol = malloc(((size_t)nz + 1) * sizeof(int));
  rval = malloc(((size_t)nz + 1) * sizeof(double));
  if (!rbeg || !rcol || !rval || !(s = twill_qs_new(mr, n, maxdigits, EB_WORK))) goto done;
  twill_ilp_csc_transpose(n, mr, cbeg, cidx, cval, rbeg, rcol, rval);
  for (int j = 0; j < n; j++) {
    double v = st[j] == 0 ? 0 : at_bound(st[j], lb[j], ub[j]);
    if (!isfinite(v)) { ret = 0; goto done; }
    if (twill_qs_from_double(&x[j], v)) goto done;
  }
  for (int i = 0; i < mr; i++) {
    if (st[n + i] == 0) continue;
    double side = at_bound(st[n + i], m->rlo[i], m->rhi[i]);
    if (!isfinite(side)) { ret = 0; goto done; }
    if (twill_qs_row(s)) goto done;
    bigq *rhs = twill_qs_rhs(s);
    if (twill_qs_from_double(rhs, side)) goto done;
    for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
      int j = rcol[q];
      if (rval[q] == 0) continue;
      if (twill_qs_from_double(&a, rval[q])) goto done;
      if (st[j] == 0) {
        if (twill_qs_entry(s, j, &a)) goto done;
      } else if (twill_bq_mul(&t, &a, &x[j]) || twill_bq_sub(rhs, rhs, &t)) {
        goto done;
      }
    }
  }
  ret = twill_qs_solve(s, x);
  if (ret == 1 && twill_qs_dropped(s)) ret = 0;
done:
  twill_bq_free(&a);
  twill_bq_free(&t);
  twill_qs_free(s);
  free(cbeg);
  free(cidx);
  free(cval);
  free(rbeg);
  free(rcol);
  free(rval);
  return ret;
}
