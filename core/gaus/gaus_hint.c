/* core/gaus/gaus_hint.c: a GauS-C schedule for the exact modulo search (the
 * hook core/modulo/modulo_ilp.c calls from twill_modulo_solve).
 *
 * Why: the exact search starts from a heuristic schedule (Rau's IMS) whose
 * I bounds the I range and whose schedule is the program's first
 * incumbent.  On larger loops GauS-C, legalized, is often at a smaller I
 * or a shorter L; offered as a schedule (never as a bound) it can only
 * shorten the search, not change what is proven: a legal schedule at I
 * proves I feasible, and every refutation and optimum stays the
 * program's.  The run is deterministic (fixed steps, one thread, no
 * clock), so the search's output stays the same bytes for the same input.
 */
#include <stdlib.h>

#include "twill/gaus.h"
#include "twill/schedule.h"

twill_schedule *twill_gaus_hint(const twill_graph *g) {
  twill_gaus_problem *p = twill_gaus_problem_from_graph(g, NULL);
  if (!p) return NULL;
  twill_gaus_opts o;
  twill_gaus_opts_default(&o);
  o.form = 'C';
  o.iters = TWILL_GAUS_HINT_ITERS;
  o.legalize_every = TWILL_GAUS_HINT_ITERS / 4;
  o.threads = 1;
  twill_gaus_result r;
  twill_schedule *s = NULL;
  if (twill_gaus_solve(p, &o, &r, NULL) == 0) {
    s = twill_schedule_new(g->nops, r.ii);
    if (s) {
      /* from 0: shifting every start by the same amount keeps each edge's
         difference and rotates the reservation table, and the program's
         start times begin at 0 */
      long lo = 0;
      for (int v = 0; v < g->nops; v++)
        if (v == 0 || r.t[v] < lo) lo = r.t[v];
      for (int v = 0; v < g->nops; v++) s->start[v] = r.t[v] - lo;
      if (twill_schedule_validate(g, NULL, s, NULL, 0)) {
        twill_schedule_free(s);
        s = NULL;
      }
    }
    twill_gaus_result_free(&r);
  }
  twill_gaus_problem_free(p);
  return s;
}
