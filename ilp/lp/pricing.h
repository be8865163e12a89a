/* ilp/lp/pricing.h: the pricing rules of the simplex loops, one interface
 * (private to ilp/lp/; as GLPK's spx_chuzc_* and HiGHS's edge weights).
 *
 * Each loop keeps reference weights w, one per variable (N): the primal
 * chooses the entering nonbasic j with the largest v_j^2 / w_j, v_j the
 * rate at which it improves the objective (CHUZC); the dual chooses the
 * leaving basic variable with the largest f^2 / w, f its infeasibility
 * (CHUZR).  After a pivot the weights follow it: the primal's from the
 * pivot row alpha_r (pivot alpha_rq), the dual's from the pivot column.
 *   Dantzig (LP_PRICE_DANTZIG): w = 1 throughout, i.e. the largest |v_j|,
 *     the largest f.
 *   Devex (LP_PRICE_DEVEX; Forrest and Goldfarb's reference framework, as
 *     in Koberstein's thesis, section 7.1): w_j approximates the squared
 *     norm of the edge direction of j measured in the reference variables
 *     (those nonbasic at the last reset); after a pivot on alpha_p with
 *     partner weight w_p, for the others
 *       w_j := max(w_j, (alpha_j / alpha_p)^2 w_p),
 *     and the variable that takes the partner's place
 *       w := max(w_p / alpha_p^2, 1).
 */
#ifndef TWILL_ILP_LP_PRICING_H
#define TWILL_ILP_LP_PRICING_H

#include "lp_solver.h"

enum { LP_PRICE_DANTZIG = 0, LP_PRICE_DEVEX = 1 };

/* A new reference framework: every weight 1. */
void twill_lpp_reset(const lp_solver *s, double *w);
/* Primal CHUZC over the nonbasic, not fixed variables with a reduced cost
 * d_j that improves by more than TOL_D; bland: the first such (the lowest
 * index, against cycling) instead of the best.  Returns j, or -1 when none
 * improves (optimal for these costs). */
int twill_lpp_chuzc(const lp_solver *s, const double *w, int bland);
/* Dual CHUZR: the basis position of the most infeasible basic variable
 * by the rule, or -1 when x_B is within its bounds (TOL_P). */
int twill_lpp_chuzr(const lp_solver *s, const double *w);
/* After the primal pivot of entering q (pivot alpha_rq = ar) out of which
 * leave goes: the weights of the pivot row's variables (s->rrow over
 * s->rlist, before the basis change) and of leave. */
void twill_lpp_update_primal(const lp_solver *s, double *w, int q, int leave, double ar);
/* After the dual pivot at basis position r (basic jr leaves, q enters,
 * pivot column alpha, alpha[r] = ar, before the basis change): the
 * weights of the basic variables of the column and of q. */
void twill_lpp_update_dual(const lp_solver *s, double *w, const double *alpha, int r, int q,
                           int jr, double ar);

#endif
