/* ilp/exact/exact_basis.h: the exact primal and dual values of an LP basis, for
 * certificates of LPs whose floating-point duals cannot be made exact by
 * rounding and repair (perold, pilot4, share1b), and SOL points of LPs
 * whose floating-point optimum is not exactly feasible (private to ilp/).
 *
 * The basis st has n + m entries in model order, as twill_lps_get_basis writes
 * them (0 basic, 1 at lower, 2 at upper, 3 free at zero, 4 fixed), rows m
 * being the model's rows (a row missing from the LP counts as basic).  All
 * data are read as the shortest decimals of the model's doubles, as a
 * certificate prints them.  Both solves are sparse rational elimination
 * (qsys.h); they return 1, 0 when the basis is singular in exact
 * arithmetic or the numbers pass maxdigits digits, -1 when out of memory. */
#ifndef TWILL_ILP_EXACT_BASIS_H
#define TWILL_ILP_EXACT_BASIS_H

#include "bigq.h"
#include "../model.h"

/* y (m entries, initialized by the caller) with y_i = 0 where row i's
 * logical is basic and  sum_i a_ij y_i = sg c_j  for every basic
 * structural j (sg = +1 to minimize c'x, -1 to maximize): the basis's
 * dual values in minimize form. */
int twill_ilp_basis_duals(const twill_ilp *m, const signed char *st, int sg, int maxdigits, bigq *y);

/* x (n entries, initialized by the caller): nonbasic structurals at the
 * bound of their status in lb/ub (n entries), and the basic ones solving
 * a_i x = (the side of row i's status) for every row whose logical is
 * nonbasic.  Bounds and the basic rows are not checked. */
int twill_ilp_basis_primal(const twill_ilp *m, const signed char *st, const double *lb,
                     const double *ub, int maxdigits, bigq *x);

#endif
