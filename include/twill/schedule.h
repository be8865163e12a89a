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

/* ---- a schedule without a solver (core/schedule/fallback.c) ------------ */

/* A heuristic (not optimal) modulo schedule: greedy list scheduling into a
 * modulo reservation table at I = MII, MII + 1, ... until one fits and every
 * edge holds; Rau's iterative modulo scheduling (twill/modulo.h) when the
 * greedy one finds nothing.  NULL with a reason in why
 * when neither finds one (or on allocation failure). */
twill_schedule *twill_schedule_heuristic(const twill_graph *g, char *why,
                                         size_t whylen);
/* Default warp assignment into s->warp (allocated if absent): warpgroup
 * ops on consecutive warpgroups by sub-tile (name suffix _K) or, without a
 * suffix, on one shared warpgroup after them; other fixed-latency ops on one
 * warp after the warpgroups; variable-latency ops on a warp of their own.
 * Returns 0, or -1 with why filled when the machine has too few warps. */
int twill_schedule_default_warps(const twill_graph *g, const twill_arch *m,
                                twill_schedule *s, char *why, size_t whylen);

#endif
