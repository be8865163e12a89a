/* tests/fuzz/fuzz_hls.c: the HLS operator-scheduling JSON reader
 * (graph/formats/gaus_io.c, hls_heurigym files) never crashes, loops or leaks; an
 * accepted graph converts to a GauS problem, its plain legalization passes
 * the independent check, and every error names file:line:col. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "twill/formats.h"
#include "twill/gaus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_graph *g = twill_gaus_read_hls((const char *)data, size, "fuzz.json", &d);
  if (!g) {
    if (strcmp(d.file, "fuzz.json") || !d.msg[0]) abort();
    return 0;
  }
  long work = 0; /* the list scheduler probes cycle by cycle: keep the
                    total busy time small so one input stays fast */
  for (int i = 0; i < g->nops; i++) work += g->ops[i].lat;
  if (g->nops <= 2000 && work <= 20000) {
    twill_gaus_problem *p = twill_gaus_problem_from_graph(g, NULL);
    if (p) {
      long *t = calloc((size_t)p->n + 1, sizeof(long));
      double *mu = calloc((size_t)p->n + 1, sizeof(double));
      if (t && mu) {
        long ii = twill_gaus_legalize_plain(p, mu, t);
        if (ii < 1 || twill_gaus_check(p, t, ii, NULL, 0) != 0) abort();
      }
      free(t);
      free(mu);
      twill_gaus_problem_free(p);
    }
  }
  twill_graph_free(g);
  return 0;
}
