/* graph/random.c: seeded random dependence graphs (twill/graph.h).
 *
 * The generator is splitmix64 (Steele, Lea, Flood 2014), so a seed gives
 * the same graph on every machine; integers in a range are drawn without
 * modulo bias by rejection.  The graph:
 *  - units u0..u{U-1}, declared, capacities in [1, max_cap];
 *  - ops n0..n{N-1}, latencies in [1, max_lat]; each uses one random unit
 *    at offset 0 for 1..2 cycles and, with gaps, half of the ops a second
 *    random unit 1..2 cycles after the first use ends, for 1..2 cycles;
 *  - a forward edge u->v (u < v, distance 0) with probability density;
 *  - floor(back_edges*N) loop-carried edges, plus one with probability the
 *    fractional part, from v to u (u <= v, self-loops allowed), distance in
 *    [1, max_dist].
 * Every edge's latency is its source's latency.  Forward edges form a DAG
 * and back edges have distance >= 1, so no cycle has distance zero.
 */
#include <math.h>
#include <stdio.h>

#include "twill/graph.h"

void twill_random_opts_default(twill_random_opts *o) {
  o->nodes = 10;
  o->density = 0.3;
  o->back_edges = 0.2;
  o->units = 3;
  o->max_lat = 10;
  o->max_dist = 2;
  o->max_cap = 2;
  o->gaps = false;
  o->seed = 1;
}

typedef struct rng {
  unsigned long long s;
} rng;

static unsigned long long next64(rng *r) {
  unsigned long long z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, n), n >= 1. */
static unsigned long long below(rng *r, unsigned long long n) {
  unsigned long long lim = -n % n; /* 2^64 mod n */
  for (;;) {
    unsigned long long x = next64(r);
    if (x >= lim) return x % n;
  }
}

static long in_range(rng *r, long lo, long hi) {
  return lo + (long)below(r, (unsigned long long)(hi - lo) + 1);
}

/* Uniform in [0, 1). */
static double unit_real(rng *r) {
  return (double)(next64(r) >> 11) * (1.0 / 9007199254740992.0);
}

twill_graph *twill_graph_random(const twill_random_opts *o) {
  twill_random_opts d;
  twill_random_opts_default(&d);
  if (!o) o = &d;
  int nodes = o->nodes < 1 ? 1 : o->nodes;
  int units = o->units < 1 ? 1 : o->units;
  int max_lat = o->max_lat < 1 ? 1 : o->max_lat;
  int max_dist = o->max_dist < 1 ? 1 : o->max_dist;
  int max_cap = o->max_cap < 1 ? 1 : o->max_cap;
  double density = isnan(o->density) ? 0 : o->density;
  double back = isnan(o->back_edges) || o->back_edges < 0 ? 0 : o->back_edges;
  if (back > 1e6) back = 1e6;
  rng r = {o->seed};
  char name[64];
  snprintf(name, sizeof name, "random-%llu", o->seed);
  twill_graph *g = twill_graph_new(name);
  if (!g) return NULL;
  for (int u = 0; u < units; u++) {
    snprintf(name, sizeof name, "u%d", u);
    if (twill_graph_declare_unit(g, name, (int)in_range(&r, 1, max_cap)) < 0)
      goto fail;
  }
  for (int v = 0; v < nodes; v++) {
    snprintf(name, sizeof name, "n%d", v);
    int k = twill_graph_add_op(g, name, in_range(&r, 1, max_lat));
    if (k < 0) goto fail;
    int u1 = (int)below(&r, (unsigned long long)units);
    int c1 = (int)in_range(&r, 1, 2);
    if (twill_graph_add_use(g, k, u1, 0, c1, 1)) goto fail;
    if (o->gaps && below(&r, 2)) {
      int u2 = (int)below(&r, (unsigned long long)units);
      int off = c1 + (int)in_range(&r, 1, 2);
      if (twill_graph_add_use(g, k, u2, off, (int)in_range(&r, 1, 2), 1))
        goto fail;
    }
  }
  for (int u = 0; u < nodes; u++)
    for (int v = u + 1; v < nodes; v++)
      if (unit_real(&r) < density &&
          twill_graph_add_edge(g, u, v, g->ops[u].lat, 0) < 0)
        goto fail;
  double want = back * nodes;
  long nback = (long)floor(want);
  if (unit_real(&r) < want - floor(want)) nback++;
  for (long i = 0; i < nback; i++) {
    int a = (int)below(&r, (unsigned long long)nodes);
    int b = (int)below(&r, (unsigned long long)nodes);
    int u = a < b ? a : b, v = a < b ? b : a;
    if (twill_graph_add_edge(g, v, u, g->ops[v].lat,
                             (int)in_range(&r, 1, max_dist)) < 0)
      goto fail;
  }
  return g;
fail:
  twill_graph_free(g);
  return NULL;
}
