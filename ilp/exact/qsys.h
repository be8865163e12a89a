/* ilp/exact/qsys.h: sparse linear equations over the rationals, solved exactly
 * by elimination (private to ilp/).  Used for the certificate writer's
 * exact points: the vertex under an incumbent (exact_point.c) and the
 * primal and dual values of an LP basis (exact_basis.c).
 *
 * Rows are added one at a time (twill_qs_row, then its entries); twill_qs_solve turns
 * each into integers over one denominator and eliminates, pivoting by
 * Markowitz's rule (the entry whose row and column are shortest among the
 * live ones; see qsys.c).  Rows that become empty are dropped (consistent
 * or not: the caller checks the point), and columns no pivot claims keep
 * the value the caller gave them.  Every call that allocates returns -1
 * when out of memory. */
#ifndef TWILL_ILP_QSYS_H
#define TWILL_ILP_QSYS_H

#include "bigq.h"

typedef struct qsys qsys;

/* At most maxrows rows over ncols columns.  The elimination gives up (0
 * from twill_qs_solve) when one number passes maxdigits digits (numerator plus
 * denominator) or when its multiplications have taken maxwork limb
 * products (9-digit limbs: a deterministic stand-in for time, about 2 s
 * per 10^8 on this project's machine). */
qsys *twill_qs_new(int maxrows, int ncols, int maxdigits, long long maxwork);
void twill_qs_free(qsys *s);
/* A new row, right-hand side 0; returns 0 (-1 past maxrows too). */
int twill_qs_row(qsys *s);
/* The last row's right-hand side, for the caller to set or change. */
bigq *twill_qs_rhs(qsys *s);
/* Append a_col to the last row (a zero a is skipped).  Columns may come
 * in any order, but not twice in one row (twill_qs_solve then fails). */
int twill_qs_entry(qsys *s, int col, const bigq *a);
/* Solve: val[c] (ncols entries, initialized by the caller) is set for
 * every column a pivot claims.  Returns 1, 0 when the numbers grew past
 * the limits, -1 when out of memory. */
int twill_qs_solve(qsys *s, bigq *val);
/* Rows dropped empty by twill_qs_solve (a singular or redundant system). */
int twill_qs_dropped(const qsys *s);

/* q = the shortest decimal that reads back to the finite double x (how a
 * certificate prints every number of a model, twill_ilp_shortest).  0, or -1
 * when out of memory. */
int twill_qs_from_double(bigq *q, double x);

#endif
