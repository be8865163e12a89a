/* tests/fuzz/fuzz_graph_common.h: the check both kernel-format fuzz
 * targets run on a graph that parsed: print it as text and as JSON,
 * re-parse each, and require that printing again gives the same bytes
 * (print-then-parse is the identity); DOT must print too. */
#ifndef TWILL_FUZZ_GRAPH_COMMON_H
#define TWILL_FUZZ_GRAPH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/graph.h"

static char *fz_print(int (*fn)(const twill_graph *, FILE *),
                      const twill_graph *g, size_t *n) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, n);
  if (!f) abort();
  if (fn(g, f)) abort();
  fclose(f);
  return buf;
}

static void fz_check_graph(const twill_graph *g) {
  twill_diag d;
  size_t lt = 0, lt2 = 0, lj = 0, lt3 = 0, ld = 0;
  char *t = fz_print(twill_graph_print_text, g, &lt);
  twill_graph *g2 = twill_graph_parse_text(t, lt, "printed.twill", &d);
  if (!g2) abort();
  char *t2 = fz_print(twill_graph_print_text, g2, &lt2);
  if (lt != lt2 || memcmp(t, t2, lt)) abort();
  char *j = fz_print(twill_graph_print_json, g, &lj);
  twill_graph *g3 = twill_graph_parse_json(j, lj, "printed.json", &d);
  if (!g3) abort();
  char *t3 = fz_print(twill_graph_print_text, g3, &lt3);
  if (lt != lt3 || memcmp(t, t3, lt)) abort();
  char *dot = NULL;
  FILE *f = open_memstream(&dot, &ld);
  if (!f || twill_graph_print_dot(g, NULL, f)) abort();
  fclose(f);
  free(dot);
  free(t);
  free(t2);
  free(t3);
  free(j);
  twill_graph_free(g2);
  twill_graph_free(g3);
}

#endif
