/* tests/fuzz/fuzz_gml.c: the GML and AIGER readers (graph/formats/gaus_io.c) never
 * crash, loop or leak; an accepted graph converts to a GauS problem and
 * its plain legalization passes the independent check. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "twill/formats.h"
#include "twill/gaus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void exercise(twill_graph *g, const double *cost) {
  if (!g) return;
  if (g->nops <= 2000) {
    twill_gaus_problem *p = twill_gaus_problem_from_graph(g, cost);
    if (p) {
      long *t = calloc((size_t)p->n + 1, sizeof(long));
      double *mu = calloc((size_t)p->n + 1, sizeof(double));
      if (t && mu) {
        long ii = twill_gaus_legalize_plain(p, mu, t);
        if (ii > 0 && twill_gaus_check(p, t, ii, NULL, 0) != 0) abort();
      }
      free(t);
      free(mu);
      twill_gaus_problem_free(p);
    }
  }
  twill_graph_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  twill_diag d;
  double *cost = NULL;
  exercise(twill_gaus_read_gml((const char *)data, size, "fuzz.gml", &cost, &d),
           cost);
  free(cost);
  exercise(twill_gaus_read_aig((const char *)data, size, "fuzz.aig", &d), NULL);
  return 0;
}
