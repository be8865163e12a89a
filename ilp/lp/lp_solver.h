/* ilp/lp/lp_solver.h: the simplex solver's state and the parts its files
 * share (private to ilp/lp/: lp.c, lu.c, pricing.c, primal.c, dual.c).
 *
 * Notation (scaled problem, see lp.h):  [A -I] z = 0, z = (x, s),
 * lb <= z <= ub.  B is the basis matrix (columns head[0..m-1]); N the rest.
 *   x_B = -B^{-1} N z_N                                (basic values)
 *   y   = B^{-T} c_B,  d_j = c_j - y'a_j               (duals, reduced costs)
 * For a logical n+i the column is -e_i, so d_{n+i} = y_i.
 * Optimality (minimize): d_j >= 0 at lower, d_j <= 0 at upper, d_j = 0 free.
 */
#ifndef TWILL_ILP_LP_SOLVER_H
#define TWILL_ILP_LP_SOLVER_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lp.h"

#define REFACTOR 100  /* most updates between factorizations */
/* refactorize once the etas cost this many factorizations (see
 * twill_lu_update); 2 measured best of 0.5, 1, 2, 4 on 25fv47, nesm, perold */
#define ECOST_F 2.0
#define TOL_P 1e-9   /* primal feasibility (scaled) */
#define TOL_D 1e-9   /* dual feasibility (scaled) */
#define TOL_PIV 1e-9 /* smallest pivot accepted in ratio tests */
#define TOL_SING 1e-10
#define PIV_REL 0.1  /* threshold of the nucleus' pivoting, see lu.c */

enum { B_BASIC = 0, B_LOWER = 1, B_UPPER = 2, B_FREE = 3, B_FIXED = 4 };

struct lp_solver {
  int m, n, N;
  int *cbeg, *cidx;
  double *cval;
  double *cs, *rs;      /* column and row scale factors (powers of 2) */
  double *cost, *pcost; /* scaled costs, perturbed costs in use */
  double *lb, *ub, *x;  /* scaled, N */
  signed char *st;
  int *head, *pos;
  /* factor */
  double *W;
  int *prow;
  int *lbeg, *lidx, *ubeg, *uidx;
  double *lval, *uval, *udiag;
  int lcap, ucap;
  /* L and U again by rows, so that btran can skip zeros (scatter form)
   * like ftran does with the columns: results of btran(e_r) are sparse */
  int *ltbeg, *ltidx, *utbeg, *utidx;
  double *ltval, *utval;
  int ltcap, utcap;
  int neta, *er, *ebeg, *eidx, ecap;
  double *eval, *epiv;
  int need_factor;
  int need_xb;          /* nonbasic values changed: recompute x_B */
  int *rpos, *flist;    /* factor work, m and 16 m + 1 */
  int *plnext, *plcol, *pcnext, *pcrow, plcap; /* factor: nucleus lists */
  int wdirty;           /* W not all zero (see factor) */
  double fcost, ecost;  /* work of the last factor, of the etas since */
  /* work */
  double *y, *d, *wa, *wb, *farkas;
  double *dvx;          /* the primal's pricing weights, N (pricing.h) */
  double *rrow;        /* pivot row alpha_r (N), zero outside rlist */
  int *rlist, rcnt;     /* its nonzeros (nonbasic, not fixed), N */
  unsigned char *rmark; /* N, all zero between calls of row_alpha */
  int *ilist;           /* m: nonzero rows of rho */
  int *rbeg, *rcol;     /* A by rows (scaled), for sparse pivot rows */
  double *rval;
  double *dw;           /* the dual's pricing weights, N (pricing.h) */
  int pricing;          /* the rule: LP_PRICE_* (pricing.h) */
  long iters;
  int status;
  int perturbed;
  int perturb_early;    /* twill_lps_set_perturb_early */
  long dual_steps, dual_degen; /* dual pivots, those with a zero step */
  uint64_t rng;
  const atomic_int *cancel; /* twill_lps_set_cancel */
};

/* ---- small helpers of every file ---- */

static inline double nb_value(const lp_solver *s, int j) {
  switch (s->st[j]) {
  case B_LOWER: case B_FIXED: return s->lb[j];
  case B_UPPER: return s->ub[j];
  case B_FREE: return 0.0;
  default: return s->x[j];
  }
}

/* Nonbasic status for variable j given its bounds, keeping `pref` if it is
 * still valid. */
static inline signed char nb_status(const lp_solver *s, int j, int pref) {
  double l = s->lb[j], u = s->ub[j];
  if (l == u) return B_FIXED;
  if (pref == B_UPPER && u < HUGE_VAL) return B_UPPER;
  if (pref == B_LOWER && l > -HUGE_VAL) return B_LOWER;
  if (l > -HUGE_VAL) return B_LOWER;
  if (u < HUGE_VAL) return B_UPPER;
  return B_FREE;
}

/* Set variable j nonbasic after it left the basis with value v. */
static inline void make_nonbasic(lp_solver *s, int j, double v) {
  int pref = B_LOWER;
  if (s->ub[j] < HUGE_VAL && (s->lb[j] == -HUGE_VAL || fabs(v - s->ub[j]) < fabs(v - s->lb[j])))
    pref = B_UPPER;
  s->st[j] = nb_status(s, j, pref);
  s->pos[j] = -1;
  s->x[j] = nb_value(s, j);
}

/* Load column j of [A -I] into dense v (row indexed). */
static inline void load_col(const lp_solver *s, int j, double *v) {
  memset(v, 0, (size_t)s->m * sizeof(double));
  if (j >= s->n) v[j - s->n] = -1.0;
  else
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) v[s->cidx[p]] = s->cval[p];
}

static inline double dot_col(const lp_solver *s, int j, const double *y) {
  if (j >= s->n) return -y[j - s->n];
  double sum = 0;
  for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) sum += s->cval[p] * y[s->cidx[p]];
  return sum;
}

/* How far basic variable j is outside its bounds (0 within TOL_P). */
static inline double infeas(const lp_solver *s, int j) {
  double v = s->x[j];
  if (v < s->lb[j] - TOL_P) return s->lb[j] - v;
  if (v > s->ub[j] + TOL_P) return v - s->ub[j];
  return 0;
}

/* phase 1 cost of basic variable j: the gradient of its infeasibility */
static inline signed char p1cost(const lp_solver *s, int j) {
  double v = s->x[j];
  return v < s->lb[j] - TOL_P ? -1 : v > s->ub[j] + TOL_P ? 1 : 0;
}

/* ---- the LU factorization of B and its updates (lu.c) ---- */

/* Factorize the basis in head[] (reordering it); a singular column is
 * replaced by a logical.  Returns 0 when out of memory. */
int twill_lu_factor(lp_solver *s);
/* v (indexed by row) := B^{-1} v (indexed by basis position). */
void twill_lu_ftran(lp_solver *s, double *v);
/* v (indexed by basis position) := B^{-T} v (indexed by row). */
void twill_lu_btran(lp_solver *s, double *v);
/* Replace the basic variable at position r by q; alpha = B^{-1} a_q (an
 * eta of the product form).  Returns 0 when out of memory. */
int twill_lu_update(lp_solver *s, int r, int q, const double *alpha);

/* ---- shared by the simplex loops (lp.c) ---- */

/* x_B from the nonbasic values. */
void twill_lps_compute_xb(lp_solver *s);
/* y and d for the costs: phase1 ? the sum of infeasibilities : pcost. */
void twill_lps_compute_duals(lp_solver *s, int phase1);
/* The start of every simplex iteration, the same in both loops: the
 * iteration limit, the time limit and the interrupt (the clock is read
 * every 64 iterations), a refactorization when one is due (the reduced
 * costs must then be recomputed: *d_ok = 0), x_B when nonbasic values
 * moved.  Returns -1 to go on, LPS_LIMIT, or LPS_ERROR when the
 * factorization failed. */
int twill_lps_iteration_start(lp_solver *s, long it, long maxit, double deadline, int *d_ok);
/* rrow, rlist, rcnt := row r of B^{-1}[A -I] over the nonbasic, not fixed
 * variables, given rho = B^{-T} e_r. */
void twill_lps_row_alpha(lp_solver *s, const double *rho);
/* Uniform in [0, 1) from the solver's own generator (deterministic). */
double twill_lps_urand(lp_solver *s);
/* Costs perturbed against stalling (primal), and back to the true costs. */
void twill_lps_perturb(lp_solver *s);
void twill_lps_unperturb(lp_solver *s);

/* The two simplex loops (primal.c, dual.c): LPS_* codes; the dual returns
 * -1 when it cannot go on (not dual feasible, or stalled) and the primal
 * should take over. */
int twill_lps_primal(lp_solver *s, double deadline, long maxit);
int twill_lps_dual(lp_solver *s, double deadline, long maxit, int can_perturb);

#endif
