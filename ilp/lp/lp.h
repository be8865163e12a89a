/* ilp/lp/lp.h: bounded revised simplex (private to ilp/).
 *
 * Problem (computational form, as in GLPK):
 *
 *     minimize  c'x + c0
 *     subject to  s = A x,     lb_j <= x_j <= ub_j   (j < n, structurals)
 *                              lb_{n+i} <= s_i <= ub_{n+i}  (row i, logicals)
 *
 * i.e. [A  -I] (x, s) = 0 with every one of the n+m variables bounded
 * (bounds may be -inf/+inf; lb == ub fixes).  Ranged rows are simply
 * logicals with two finite bounds.
 *
 * The solver keeps a basis (m basic variables) between calls, so that after
 * bound changes (branch and bound) a re-solve starts from the previous basis
 * and runs the dual simplex (the basis stays dual feasible: reduced costs do
 * not depend on bounds).  A fresh solve runs the dual simplex too when the
 * slack basis is dual feasible (after flipping boxed variables), else the
 * primal simplex, phase 1 (minimize the sum of infeasibilities) then
 * phase 2; a dual that stalls hands over to the primal.
 *
 * Numerics: powers-of-two geometric scaling (exact), LU with a dense
 * nucleus (Markowitz-style threshold pivoting) stored sparse by columns and
 * rows, product-form eta updates with refactorization by cost (lu.c),
 * devex pricing by default, Dantzig's on request (pricing.c; primal:
 * entering column, dual: leaving row), Harris two-pass
 * ratio tests (the dual's with bound flipping), pivot rows from a row copy
 * of A when sparse, cost perturbation against stalling (removed before the
 * final optimality check).
 */
#ifndef TWILL_ILP_LP_H
#define TWILL_ILP_LP_H

#include <stdint.h>

enum {
  LPS_OPTIMAL = 0,
  LPS_INFEASIBLE = 1,
  LPS_UNBOUNDED = 2,
  LPS_LIMIT = 3,
  LPS_ERROR = 4
};

/* Input in compressed sparse columns (structurals only). */
typedef struct lp_input {
  int m, n;
  const int *cbeg;     /* n+1 */
  const int *cidx;     /* row indices */
  const double *cval;  /* values */
  const double *c;     /* n objective coefficients (minimize) */
  const double *lb, *ub; /* n+m bounds: structurals, then rows */
} lp_input;

typedef struct lp_solver lp_solver;

lp_solver *twill_lps_new(const lp_input *in);
void twill_lps_free(lp_solver *s);
/* Solve from the current basis.  deadline: absolute seconds of
 * twill_lps_clock() (0: none).  Returns LPS_*. */
int twill_lps_solve(lp_solver *s, double deadline);
/* twill_lps_solve with at most maxit iterations in each of its dual and primal
 * passes (maxit <= 0: the default, 20 (n + 2m) + 20000): LPS_LIMIT past
 * them.  An iteration budget gives the same answer on every machine, a
 * time budget does not. */
int twill_lps_solve_limit(lp_solver *s, double deadline, long maxit);
/* At most maxit dual simplex iterations from the current basis (strong
 * branching): LPS_OPTIMAL, LPS_INFEASIBLE, LPS_LIMIT (then twill_lps_obj is the
 * objective of the current basic solution, a dual bound when the basis is
 * dual feasible), or LPS_ERROR when the dual simplex could not run (no
 * primal fallback). */
int twill_lps_solve_dual_limit(lp_solver *s, double deadline, long maxit);
/* on: the dual simplex of twill_lps_solve perturbs the costs after its first
 * iteration (not only after a stall; an LP optimal from its start basis
 * stays unperturbed), and shifts a cost whose reduced cost drifted a
 * little to the wrong side (instead of handing over to the primal); the
 * primal then finishes on the true costs.  For a very degenerate LP
 * after cuts (10teams); off by default. */
void twill_lps_set_perturb_early(lp_solver *s, int on);
/* The pricing rule of both simplex loops: 0 Dantzig, 1 devex (the
 * default; see pricing.h). */
void twill_lps_set_pricing(lp_solver *s, int rule);
/* Dual simplex pivots so far, and those among them with a zero step
 * (degenerate: the dual objective did not move). */
void twill_lps_dual_steps(const lp_solver *s, long *steps, long *degenerate);
/* Change bounds of variable j (j < n structural, n+i row i), unscaled. */
void twill_lps_set_bounds(lp_solver *s, int j, double lb, double ub);
void twill_lps_get_bounds(const lp_solver *s, int j, double *lb, double *ub);
/* Results, unscaled.  x: n+m (structurals then row activities). */
double twill_lps_obj(const lp_solver *s);
void twill_lps_get_x(const lp_solver *s, double *x);
/* y: m row duals (d of logical n+i), d: n reduced costs c - A'y.  After
 * LPS_INFEASIBLE, twill_lps_get_farkas gives y with the infeasibility proof
 * (the dual's row rho = B^{-T} e_r, dual.c, or phase 1's duals, primal.c). */
void twill_lps_get_dual(const lp_solver *s, double *y, double *d);
void twill_lps_get_farkas(const lp_solver *s, double *y);
/* Basis status per variable (n+m): 0 basic, 1 at lower, 2 at upper,
 * 3 free (at zero), 4 fixed. */
void twill_lps_get_basis(const lp_solver *s, signed char *st);
void twill_lps_set_basis(lp_solver *s, const signed char *st);
long twill_lps_iterations(const lp_solver *s);
/* The tableau row of basic variable j (cuts; see lp.c): u (m) and alpha
 * (n + m).  Returns 0 when j is not basic. */
int twill_lps_tableau_row(lp_solver *s, int j, double *u, double *alpha);
double twill_lps_clock(void);
/* Set by twill_ilp_interrupt_all (a signal handler): every LP and branch
 * and bound stops at its next check, as on a time limit. */
#include <signal.h>
extern volatile sig_atomic_t twill_lps_stop_all;
/* twill_lps_stop_all, or *cancel (another thread's stop flag; may be
 * NULL): what every long loop of the solver checks. */
#include <stdatomic.h>
int twill_lps_halted(const atomic_int *cancel);
/* The flag an LP checks besides twill_lps_stop_all (NULL: none). */
void twill_lps_set_cancel(lp_solver *s, const atomic_int *cancel);

#endif
