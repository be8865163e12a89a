/* tests/bf_modulo.c: brute-force minimal initiation interval (see .h). */
#include "bf_modulo.h"

#include <stdlib.h>
#include <string.h>

static long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static long ceil_div(long a, long b) { return -floor_div(-a, b); }

static int slots_fit(const twill_graph *g, long ii, const long *slot) {
  long mrt[16][64];
  if (g->nunits > 16 || ii > 64) return 0;
  memset(mrt, 0, sizeof mrt);
  for (int v = 0; v < g->nops; v++)
    for (int k = 0; k < g->ops[v].nuses; k++) {
      const twill_use *u = &g->ops[v].uses[k];
      for (int j = 0; j < u->cycles; j++) {
        long *c = &mrt[u->unit][(slot[v] + u->offset + j) % ii];
        *c += u->count;
        if (*c > g->units[u->unit].capacity) return 0;
      }
    }
  return 1;
}

/* Longest-path feasibility of k(d) - k(s) >= w on stages. */
static int stages_exist(const twill_graph *g, long ii, const long *slot) {
  long k[16] = {0};
  for (int it = 0; it <= g->nops; it++) {
    int changed = 0;
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      long w = ceil_div(e->lat - ii * e->dist - slot[e->dst] + slot[e->src], ii);
      if (k[e->src] + w > k[e->dst]) {
        k[e->dst] = k[e->src] + w;
        changed = 1;
      }
    }
    if (!changed) return 1;
  }
  return 0;
}

int bf_modulo_feasible(const twill_graph *g, long ii) {
  long slot[16] = {0};
  int n = g->nops;
  if (n > 8) return 0;
  for (;;) {
    if (slots_fit(g, ii, slot) && stages_exist(g, ii, slot)) return 1;
    int i = 0;
    while (i < n && ++slot[i] == ii) slot[i++] = 0;
    if (i == n) return 0;
  }
}

long bf_modulo_min_ii(const twill_graph *g, long max_ii) {
  for (long ii = 1; ii <= max_ii; ii++)
    if (bf_modulo_feasible(g, ii)) return ii;
  return -1;
}
