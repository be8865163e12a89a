/* twill/schedule.h: a modulo schedule, optionally with a warp assignment,
 * and the validator every solver's answer goes through.
 *
 * A schedule gives each op v a start time t(v) >= 0 within one iteration and
 * an initiation interval I >= 1: iteration i's instance of v issues at
 * t(v) + i*I.  stage(v) = t(v) / I, slot(v) = t(v) mod I.  Its length L is
 * max over v of t(v) + max(lat(v), 1)... see twill_schedule_length().
 *
 * The validator re-checks every constraint from the graph and the machine
 * alone and names the first one violated, in words.
 */
#ifndef TWILL_SCHEDULE_H
#define TWILL_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>

#include "twill/arch.h"
#include "twill/graph.h"

typedef struct twill_schedule {
  int nops;
  long ii;      /* initiation interval I >= 1 */
  long *start;  /* t(v) >= 0, nops entries */
  int *warp;    /* NULL, or first warp of op v (warpgroup ops: the first
                   warp of the group, a multiple of the warpgroup size) */
} twill_schedule;

twill_schedule *twill_schedule_new(int nops, long ii);
void twill_schedule_free(twill_schedule *s);
twill_schedule *twill_schedule_clone(const twill_schedule *s);
/* Allocate s->warp, every entry -1; 0 or -1 on allocation failure. */
int twill_schedule_add_warps(twill_schedule *s);

/* L = max over ops of t(v) + lat(v) (an op of latency 0 still occupies its
 * issue cycle, so it counts as 1); 0 for an empty graph. */
long twill_schedule_length(const twill_graph *g, const twill_schedule *s);

/* Check s against g (bound to a machine: every unit has a capacity):
 *   - t(v) >= 0 and I >= 1;
 *   - every edge: t(dst) - t(src) >= lat - I*dist;
 *   - modulo capacity: for every unit and slot k in [0, I), the instances
 *     held by all ops in cycles congruent to k mod I <= capacity;
 *   - with warps: every op has a warp in [0, m->warps), warpgroup ops start
 *     at a warpgroup boundary, and variable-latency ops share their warp with
 *     no fixed-latency op.
 * Returns 0 if valid; otherwise -1 with a one-line reason in why (if why is
 * not NULL). */
int twill_schedule_validate(const twill_graph *g, const twill_arch *m,
                            const twill_schedule *s, char *why, size_t whylen);

#endif
