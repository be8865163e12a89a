/* ilp/exact/exact_point.h: an exact rational point beside a floating-point
 * incumbent, for the SOL section of a certificate (private to ilp/). */
#ifndef TWILL_ILP_EXACT_POINT_H
#define TWILL_ILP_EXACT_POINT_H

#include "../model.h"

/* The exact point "under" x: integer variables at round(x_j); a
 * continuous one at its bound lb_j or ub_j when x_j is within tol
 * (relative) of it or beyond it; the others solved exactly from the rows
 * 0 .. mrows-1 that x makes tight (equalities, and inequalities within
 * 10 tol relative of a side or beyond it) by sparse rational elimination, and those the rows leave free at
 * the shortest decimals of x_j.  All data are read as the shortest
 * decimals of the model's doubles, as the certificate prints them.
 *
 * On success returns 1, *den the common denominator D and num[j] the
 * numerators (x_j = num[j] / D), all malloc'd decimal text (free with
 * twill_ilp_exact_point_free).  Returns 0 when the tight rows have no solution
 * this way or the numbers pass `maxdigits` digits, -1 when out of memory.
 * Bounds and slack rows are NOT checked: the caller checks the point. */
int twill_ilp_exact_point(const twill_ilp *m, int mrows, const double *lb, const double *ub,
                    const double *x, double tol, int maxdigits, char ***num, char **den);
void twill_ilp_exact_point_free(int n, char **num, char *den);

#endif
