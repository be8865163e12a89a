/* ilp/cuts/cuts.h: the root cutting planes' separators and what they
 * share (private to ilp/cuts/).
 *
 * Every cut c'x >= d is written down with the split that proves it, so
 * that the certificate can derive it (ilp/cert/derive.c) and the checker
 * re-verify it exactly: a split on an integer form  pi'x <= p0  or
 * pi'x >= p0 + 1, and on each side k the cut as lam[k] times the side
 * plus the rows mu (mu0, mu1: > 0 a row's >= side, < 0 its <= side) plus
 * bounds of single variables (model.h's ilp_cut).  Each separator fills a
 * cutbuf with c, pi and the mu of both sides, and returns d, p0 and lam:
 *   gmi.c    Gomory mixed-integer cuts of tableau rows (twill_cut_gmi_core
 *            derives any identity row's cut; c-MIR uses it too)
 *   mir.c    c-MIR cuts on rows and their aggregations
 *   cover.c  knapsack covers
 *   gcd.c    divisibility (GCD) cuts
 *   vub.c    big-M rows tightened by implied bounds
 * cuts.c runs the rounds: it solves the root LP, asks the separators,
 * scores their cuts and adds the best as rows of the model.
 */
#ifndef TWILL_ILP_CUTS_H
#define TWILL_ILP_CUTS_H

#include "../model.h"

#define CUT_MIN_F 0.01 /* fractions closer to an integer give no GMI cut */

/* A cut under construction: dense c and pi (n), mu0 and mu1 (m rows). */
typedef struct cutbuf {
  int n;
  double *c, *pi, *mu0, *mu1; /* dense: n, n, m, m */
} cutbuf;

/* ---- gmi.c ---- */
int twill_cut_gmi_core(const twill_ilp *m, int mr, const double *alpha, const signed char *sg,
                       const double *bnd, const double *lb, const double *ub, const char *rint,
                       const int *rbeg, const int *rcol, const double *rval, cutbuf *cb,
                       double *d, double *p0, double lam[2]);
int twill_cut_gmi(const twill_ilp *m, int mr, int k, double *alpha, const signed char *st,
                  const double *lb, const double *ub, const char *rint, const int *rbeg,
                  const int *rcol, const double *rval, cutbuf *cb, signed char *sg, double *bnd,
                  double *d, double *p0, double lam[2]);

/* ---- mir.c ---- */
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
void twill_cut_find_vubs(const twill_ilp *m, int mr, const int *rbeg, const int *rcol,
                         const double *rval, const double *ub, int *vub);
int twill_cut_mir(mirctx *cx, int i, int side, double delta, cutbuf *cb, double *d, double *p0,
                  double lam[2], double *dl);

/* ---- cover.c ---- */
typedef struct covitem {
  double key;
  int k;
} covitem;
int twill_cut_cover(const twill_ilp *m, int mr, int i, int side, const double *x, const double *lb,
                    const double *ub, const int *rbeg, const int *rcol, const double *rval,
                    int *it, double *wt, double *yv, covitem *ord, char *inc, cutbuf *cb,
                    double *d, double *p0, double lam[2]);

/* ---- gcd.c ---- */
int twill_cut_gcd(const twill_ilp *m, int mr, int i, int side, const double *x, const char *rint,
                  const int *rbeg, const int *rcol, const double *rval, cutbuf *cb, double *d,
                  double *p0, double lam[2]);

/* ---- vub.c ---- */
int twill_cut_vub(const twill_ilp *m, int mr, int mr0, int r, const int *cbeg, const int *cidx,
                  const double *cval, const int *rbeg, const int *rcol, const double *rval,
                  cutbuf *cb, double *d, double *p0, double lam[2]);

#endif
