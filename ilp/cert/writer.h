/* ilp/cert/writer.h: the VIPR certificate writer's state and its parts
 * (private to ilp/cert/).
 *
 *   vipr_write.c  the certificate: the problem's sections, then DER
 *   leaf.c        a leaf's LP bound or infeasibility as an exact `lin`
 *   derive.c      derived bounds: propagation, conflicts, reduced-cost
 *                 fixings, implied bounds, the root cuts
 *   tree.c        the walk of the branch-and-bound tree (`asm`, `uns`)
 *   sol.c         the SOL section's point and the cutoff line it gives
 *   dec.c         the exact decimals all of it computes with
 *
 * Constraint indices: the CON section's bounds (lidx, uidx) and rows (rG,
 * rL), then the derived lines from base on in the order they are written
 * (nder so far).  While the tree is walked, lidx, uidx, curl and curu are
 * the bounds that hold at the node (the model's, branchings' `asm` lines
 * and derived bounds).
 */
#ifndef TWILL_ILP_CERT_WRITER_H
#define TWILL_ILP_CERT_WRITER_H

#include <stdio.h>

#include "../exact/bigq.h"
#include "../model.h"
#include "dec.h"

#define EXACT_DIGITS 20000 /* digits of one number in an exact basis solve */

typedef struct {
  const twill_ilp *m;
  FILE *out; /* DER body */
  int nder, base;
  int ncon, nbound; /* the CON section's constraints, bounds among them */
  int mr0;          /* the user's rows (the cuts follow) */
  int *cbeg, *cidx;
  dec *aval, *cobj, *rl, *rh;
  int *lidx, *uidx; /* current bound constraint index per variable */
  int *rG, *rL;     /* row constraint indices for >= and <= sides */
  double *curl, *curu;
  dec *r;
  double s; /* +1 min, -1 max */
  int objint;
  int fail;
  int *rbeg, *rcol, *rpos; /* the rows: columns and CSC positions */
  int solidx; /* the line  c'x <= best (min; >= for max) from SOL, or -1 */
  dec best;   /* the cutoff's value: the SOL's objective (rounded to the weak side) */
  int bestok; /* best comes from the SOL section */
  dec *solx;  /* the SOL section's point (choose_sol), when solok */
  int solok;
  dec solobj; /* its objective value */
  dec solden; /* the common denominator of solx and solobj (1: decimals) */
  const double *cval; /* the matrix's doubles, by columns as aval */
  bigq *solq;  /* no solok: an LP's exact basic optimum (exact_sol), or NULL */
  bigq solqobj; /* its objective value */
  int overflow; /* dec.h: a number needed more than DEC_LIMBS limbs */
} W;

/* ---- leaf.c ---- */
/* The leaf bound from the multipliers y of the LP at its proof node: the
 * index of the line that states it (*beta, min form; *absurd for Farkas),
 * -1 (w->fail) when no exact combination was found. */
int twill_vw_leaf(W *w, const double *y, int farkas, dec *beta, int *absurd);
/* The root leaf from the exact duals of the root LP's basis; as
 * twill_vw_leaf. */
int twill_vw_leaf_exact(W *w, dec *beta, int *absurd);
/* The exact combination behind LP multipliers y (times sg); see leaf.c. */
int twill_vw_dual_combination(W *w, const double *y, double sg, int farkas, dec *yr, int *yc,
                              dec *q, dec *b);
/* Cancel the remainders w->r on sides with no bound by shifting row
 * multipliers yr exactly (over the denominator *q): 1 when all have a
 * bound then. */
int twill_vw_repair(W *w, dec *yr, int *yc, dec *q);
/* Print a rational (negated when neg) as p or p/q: 0, -1 when out of
 * memory. */
int twill_vw_bq_out(FILE *f, const bigq *a, int neg);

/* ---- derive.c ---- */
int twill_vw_derive_bound(W *w, int i, int side, int j, int up, double val, int rnd);
int twill_vw_derive_conflict(W *w, int i, int side, dec *beta);
int twill_vw_derive_rcfix(W *w, const double *y, const bb_prop *fx, int nf, int *out);
void twill_vw_derive_cuts(W *w);
void twill_vw_implied_bounds(W *w, const double *cval);
/* *out = a decimal within about 1e-12 relative of num / den, on the side
 * side says; 0, -1 when the exact check fails. */
int twill_vw_decimal_near(int *ov, dec *out, const dec *num, const dec *den, int side);

/* ---- tree.c ---- */
/* Walk the tree from the root: the index of the root's line, -1 (and
 * w->fail) when some leaf or derivation fails. */
int twill_vw_walk_tree(W *w, dec *beta, int *absurd);

/* ---- sol.c ---- */
int twill_vw_choose_sol(W *w, int mr0);
int twill_vw_exact_sol(W *w, int mr0);
void twill_vw_sol_line(W *w);

#endif
