/* core/schedule/bounds.c: ResMII and exact RecMII with witnesses (twill/bounds.h). */
#include "twill/bounds.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void twill_bounds_clear(twill_bounds *b) {
  free(b->unit_mii);
  free(b->unit_busy);
  free(b->cycle);
  memset(b, 0, sizeof *b);
}

/* Weight of edge e at interval I: lat - I*dist, saturated far below any
 * real path length so that huge I*dist products cannot overflow. */
static long long weight(const twill_edge *e, long ii) {
  const long long floor = -(LLONG_MAX / 4);
  if (e->dist && ii > (LLONG_MAX / 8) / e->dist) return floor;
  long long w = (long long)e->lat - (long long)ii * e->dist;
  return w < floor ? floor : w;
}

/* Bellman-Ford for the longest path from a virtual source joined to every
 * op by a 0-weight edge.  Returns 1 if a positive cycle exists at I (and,
 * if cyc != NULL, writes its edges in order into cyc, their count into
 * *ncyc), 0 if none, -1 on allocation failure.  O(V*E). */
static int positive_cycle(const twill_graph *g, long ii, int *cyc,
                          int *ncyc) {
  int n = g->nops;
  long long *dist = calloc((size_t)n + 1, sizeof *dist);
  int *pred = malloc(((size_t)n + 1) * sizeof *pred);
  if (!dist || !pred) {
    free(dist);
    free(pred);
    return -1;
  }
  for (int v = 0; v < n; v++) pred[v] = -1;
  int last = -1;
  for (int it = 0; it <= n; it++) {
    last = -1;
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      long long cand = dist[e->src] + weight(e, ii);
      if (cand > dist[e->dst]) {
        dist[e->dst] = cand;
        pred[e->dst] = i;
        last = e->dst;
      }
    }
    if (last < 0) break;
  }
  int found = last >= 0;
  if (found && cyc) {
    /* n steps back along pred surely land on the cycle. */
    int v = last;
    for (int k = 0; k < n; k++) v = g->edges[pred[v]].src;
    int k = 0, x = v;
    do {
      cyc[k++] = pred[x];
      x = g->edges[pred[x]].src;
    } while (x != v && k <= n);
    for (int i = 0; i < k / 2; i++) {
      int t = cyc[i];
      cyc[i] = cyc[k - 1 - i];
      cyc[k - 1 - i] = t;
    }
    *ncyc = k;
  }
  free(dist);
  free(pred);
  return found;
}

int twill_bounds_rec_ok(const twill_graph *g, long ii) {
  int r = positive_cycle(g, ii, NULL, NULL);
  return r < 0 ? -1 : !r;
}

static int res_mii(const twill_graph *g, twill_bounds *b) {
  b->nunits = g->nunits;
  size_t n = g->nunits ? (size_t)g->nunits : 1;
  b->unit_mii = calloc(n, sizeof *b->unit_mii);
  b->unit_busy = calloc(n, sizeof *b->unit_busy);
  if (!b->unit_mii || !b->unit_busy) return -1;
  for (int v = 0; v < g->nops; v++)
    for (int k = 0; k < g->ops[v].nuses; k++) {
      const twill_use *u = &g->ops[v].uses[k];
      b->unit_busy[u->unit] += (long)u->cycles * u->count;
    }
  b->res_unit = -1;
  for (int u = 0; u < g->nunits; u++) {
    long cap = g->units[u].capacity > 0 ? g->units[u].capacity : 1;
    b->unit_mii[u] = (b->unit_busy[u] + cap - 1) / cap;
    if (b->unit_mii[u] > b->res_mii) {
      b->res_mii = b->unit_mii[u];
      b->res_unit = u;
      b->res_busy = b->unit_busy[u];
    }
  }
  return 0;
}

int twill_bounds_compute(const twill_graph *g, twill_bounds *b) {
  memset(b, 0, sizeof *b);
  b->res_unit = -1;
  if (res_mii(g, b)) goto oom;
  /* Feasible at I = 0 means every cycle has latency 0: RecMII = 0. */
  int r = positive_cycle(g, 0, NULL, NULL);
  if (r < 0) goto oom;
  if (r > 0) {
    long lo = 1, hi = 1;
    for (int i = 0; i < g->nedges; i++) hi += g->edges[i].lat;
    /* invariant: infeasible at lo - 1, feasible at hi */
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      int ok = twill_bounds_rec_ok(g, mid);
      if (ok < 0) goto oom;
      if (ok)
        hi = mid;
      else
        lo = mid + 1;
    }
    b->rec_mii = lo;
    b->cycle = malloc(((size_t)g->nops + 1) * sizeof *b->cycle);
    if (!b->cycle) goto oom;
    if (positive_cycle(g, lo - 1, b->cycle, &b->ncycle) != 1) goto oom;
    for (int i = 0; i < b->ncycle; i++) {
      b->cycle_lat += g->edges[b->cycle[i]].lat;
      b->cycle_dist += g->edges[b->cycle[i]].dist;
    }
  }
  b->mii = b->res_mii > b->rec_mii ? b->res_mii : b->rec_mii;
  if (b->mii < 1) b->mii = 1;
  return 0;
oom:
  twill_bounds_clear(b);
  return -1;
}
