/* twill/modulo.h: modulo scheduling (Twill phase 1).
 *
 * This header holds, for now, the heuristic side: Rau's iterative modulo
 * scheduling (IMS, MICRO'94), a fast first schedule that bounds the exact
 * search from above and is available as `twill modulo --heuristic`.
 *
 * IMS at a candidate I: ops are taken by decreasing height (the longest
 * latency path to the end of the iteration, with back edges weighted
 * lat - I*dist); each is placed at the first cycle in [Estart, Estart+I-1]
 * whose modulo reservation table slots are free, where Estart is the
 * earliest start the already placed predecessors allow.  If no cycle is
 * free the op is forced in and the ops it conflicts with (on a unit, or
 * through a now-violated dependence) are unscheduled.  A budget of
 * budget_ratio * |V| placements bounds the work per I; when it runs out,
 * I grows by one.
 */
#ifndef TWILL_MODULO_H
#define TWILL_MODULO_H

#include "twill/graph.h"
#include "twill/schedule.h"

typedef struct twill_ims_opts {
  long ii_min;        /* first I tried (0: the MII) */
  long ii_max;        /* give up above this I (0: MII + sum of latencies) */
  int budget_ratio;   /* placements per op per I (Rau: 3..6) */
} twill_ims_opts;

void twill_ims_opts_default(twill_ims_opts *o);

/* g must be validated and bound.  On success returns 0 and a new schedule
 * in *out (valid by twill_schedule_validate); returns 1 if no schedule was
 * found up to ii_max, -1 on allocation failure. */
int twill_modulo_ims(const twill_graph *g, const twill_ims_opts *o,
                     twill_schedule **out);

#endif
