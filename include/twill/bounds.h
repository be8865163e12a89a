/* twill/bounds.h: lower bounds on the initiation interval, with witnesses.
 *
 * ResMII(f) = ceil( sum_v sum_{uses of f by v} cycles*count / cap(f) ):
 *   in every window of I consecutive cycles of the steady state each op
 *   issues exactly once, so unit f must absorb all of its busy cycles there.
 * RecMII = max over dependence cycles C of ceil( lat(C) / dist(C) ):
 *   going around C once must take at most dist(C) iterations' worth of time,
 *   lat(C) <= I*dist(C).
 * MII = max(ResMII, RecMII, 1).
 *
 * RecMII is computed exactly without enumerating cycles: I is feasible for
 * the recurrences iff the graph weighted by lat - I*dist has no positive
 * cycle (Bellman-Ford), and feasibility is monotone in I, so a binary search
 * over I finds the least feasible I; the positive cycle found at I - 1 is the
 * witness (its ratio rounds up to exactly RecMII).
 */
#ifndef TWILL_BOUNDS_H
#define TWILL_BOUNDS_H

#include "twill/graph.h"

typedef struct twill_bounds {
  long res_mii;      /* max over units; 0 if no op uses a unit */
  int res_unit;      /* the saturated unit (index), -1 if none */
  long res_busy;     /* its busy cycles per iteration */
  long *unit_mii;    /* per unit: ceil(busy / cap) */
  long *unit_busy;   /* per unit: busy cycles per iteration */
  int nunits;
  long rec_mii;      /* 0 if the graph has no cycle */
  int *cycle;        /* edges of a critical cycle, in order */
  int ncycle;
  long cycle_lat;    /* its total latency */
  long cycle_dist;   /* its total distance */
  long mii;          /* max(res_mii, rec_mii, 1) */
} twill_bounds;

/* g must be validated and bound (capacities known).  Returns 0, or -1 on
 * allocation failure.  Free with twill_bounds_clear(). */
int twill_bounds_compute(const twill_graph *g, twill_bounds *b);
void twill_bounds_clear(twill_bounds *b);

/* Is I feasible for every recurrence (no cycle with lat > I*dist)?  1 yes,
 * 0 no, -1 allocation failure.  Used by the certificate checker. */
int twill_bounds_rec_ok(const twill_graph *g, long ii);

#endif
