/* tests/bf_modulo.h: a brute-force oracle for the minimal initiation
 * interval, independent of every solver in the tree.
 *
 * At a given I, a modulo schedule is a slot s(v) in [0, I) and a stage
 * k(v) per op with t(v) = s(v) + I*k(v).  Capacity depends on the slots
 * alone; the dependences t(d) - t(s) >= lat - I*dist become, for integer
 * stages, k(d) - k(s) >= ceil((lat - I*dist - s(d) + s(s)) / I): a system
 * of difference constraints, feasible iff it has no positive cycle.  So
 * enumerating the I^n slot vectors decides feasibility exactly. */
#ifndef TWILL_BF_MODULO_H
#define TWILL_BF_MODULO_H

#include "twill/graph.h"

/* 1 if a modulo schedule exists at I, 0 if not (n <= 8, I^n small). */
int bf_modulo_feasible(const twill_graph *g, long ii);
/* Least feasible I in [1, max_ii], or -1 if none. */
long bf_modulo_min_ii(const twill_graph *g, long max_ii);

#endif
