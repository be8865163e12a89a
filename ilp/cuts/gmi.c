/* ilp/cuts/gmi.c: Gomory mixed-integer (GMI) cuts, written down with the
 * split that proves them (see cuts.h).
 *
 * Tableau row of a basic integer x_k with fractional value (ilp/lp/lp.c's
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
#include <stdlib.h>
#include <string.h>

#include "cuts.h"

/* The cut of an identity row.  alpha (n + mr) is a row  sum_v alpha_v z_v
 * = 0  that holds identically in x (z_{n+i} = a_i'x), sg[v] != 0 marks the
 * variables in it, complemented as z_v = bnd_v + sg_v t_v (t_v >= 0 is a
 * bound, or a side of row v - n for a logical); sg = 2 marks a variable
 * left as it is (the basic x_k of a tableau row: integer coefficient, so
 * g = 0 and no bound is needed), bnd 0.  Then  sum abar_v t_v = b  with
 * abar_v = sg_v alpha_v and b = -sum alpha_v bnd_v, and the cut follows
 * the formulas at the top.  Returns 1 with the cut in cb, *d, *p0, lam;
 * 0 when the row gives no usable cut. */
int twill_cut_gmi_core(const twill_ilp *m, int mr, const double *alpha, const signed char *sg,
                       const double *bnd, const double *lb, const double *ub, const char *rint,
                       const int *rbeg, const int *rcol, const double *rval, cutbuf *cb,
                       double *d, double *p0, double lam[2]) {
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
int twill_cut_gmi(const twill_ilp *m, int mr, int k, double *alpha, const signed char *st,
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
  return twill_cut_gmi_core(m, mr, alpha, sg, bnd, lb, ub, rint, rbeg, rcol, rval, cb, d, p0, lam);
}

