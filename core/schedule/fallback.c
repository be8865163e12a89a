/* core/schedule/fallback.c: a heuristic schedule and a default warp assignment,
 * so that `twill emit KERNEL` has something to show before (or without) a
 * solver.  Nothing here claims optimality; the outputs say so. */
#include <stdlib.h>
#include <string.h>

#include "twill/bounds.h"
#include "twill/schedule.h"
#include "twill/modulo.h"

/* Topological order of the zero-distance edges (the graph is validated:
 * they form no cycle); ties by op index. */
static int topo_order(const twill_graph *g, int *order) {
  int n = g->nops;
  int *indeg = calloc(n > 0 ? (size_t)n : 1, sizeof *indeg);
  if (!indeg) return -1;
  for (int e = 0; e < g->nedges; e++)
    if (!g->edges[e].dist && g->edges[e].src != g->edges[e].dst)
      indeg[g->edges[e].dst]++;
  int k = 0;
  char *done = calloc(n > 0 ? (size_t)n : 1, 1);
  if (!done) {
    free(indeg);
    return -1;
  }
  while (k < n) {
    int pick = -1;
    for (int v = 0; v < n; v++)
      if (!done[v] && !indeg[v]) {
        pick = v;
        break;
      }
    if (pick < 0) /* not validated: fall back to index order */
      for (int v = 0; v < n; v++)
        if (!done[v]) {
          pick = v;
          break;
        }
    done[pick] = 1;
    order[k++] = pick;
    for (int e = 0; e < g->nedges; e++)
      if (g->edges[e].src == pick && !g->edges[e].dist &&
          g->edges[e].dst != pick && indeg[g->edges[e].dst] > 0)
        indeg[g->edges[e].dst]--;
  }
  free(indeg);
  free(done);
  return 0;
}

/* Add (sign 1) or remove (-1) op v at time t in the modulo reservation
 * table mrt (nunits rows of I slots). */
static void book(const twill_graph *g, int v, long t, long ii, long *mrt,
                 int sign) {
  const twill_op *o = &g->ops[v];
  for (int k = 0; k < o->nuses; k++) {
    const twill_use *us = &o->uses[k];
    for (long c = 0; c < us->cycles; c++)
      mrt[(size_t)us->unit * ii + (t + us->offset + c) % ii] +=
          sign * us->count;
  }
}

/* Does op v fit at time t?  Only the slots v uses need checking. */
static int fits(const twill_graph *g, int v, long t, long ii, long *mrt) {
  const twill_op *o = &g->ops[v];
  int ok = 1;
  book(g, v, t, ii, mrt, 1);
  for (int k = 0; k < o->nuses && ok; k++) {
    const twill_use *us = &o->uses[k];
    long n = us->cycles < ii ? us->cycles : ii;
    for (long c = 0; c < n && ok; c++)
      if (mrt[(size_t)us->unit * ii + (t + us->offset + c) % ii] >
          g->units[us->unit].capacity)
        ok = 0;
  }
  book(g, v, t, ii, mrt, -1);
  return ok;
}

/* One try at I: passes of list scheduling; each pass places ops in
 * topological order as early as every edge (loop-carried ones with the
 * previous pass's times) and the table allow.  Stops when a pass leaves
 * every edge satisfied. */
static int try_ii(const twill_graph *g, const int *order, long ii, long *t,
                  long *prev, long *mrt) {
  int n = g->nops;
  for (int v = 0; v < n; v++) prev[v] = 0;
  for (int pass = 0; pass < 2 * n + 2; pass++) {
    memset(mrt, 0, (size_t)g->nunits * (size_t)ii * sizeof *mrt);
    for (int k = 0; k < n; k++) t[order[k]] = -1;
    for (int k = 0; k < n; k++) {
      int v = order[k];
      long est = 0;
      for (int e = 0; e < g->nedges; e++) {
        const twill_edge *ed = &g->edges[e];
        if (ed->dst != v) continue;
        long ts = t[ed->src] >= 0 ? t[ed->src] : prev[ed->src];
        long need = ts + ed->lat - ii * (long)ed->dist;
        if (need > est) est = need;
      }
      long at = -1;
      for (long c = est; c < est + ii; c++)
        if (fits(g, v, c, ii, mrt)) {
          at = c;
          break;
        }
      if (at < 0) return -1;
      book(g, v, at, ii, mrt, 1);
      t[v] = at;
    }
    int ok = 1;
    for (int e = 0; e < g->nedges && ok; e++) {
      const twill_edge *ed = &g->edges[e];
      if (t[ed->dst] - t[ed->src] < ed->lat - ii * (long)ed->dist) ok = 0;
    }
    if (ok) return 0;
    memcpy(prev, t, (size_t)n * sizeof *t);
  }
  return -1;
}

static twill_schedule *greedy_schedule(const twill_graph *g, char *why,
                                       size_t whylen) {
  twill_bounds b;
  memset(&b, 0, sizeof b);
  if (twill_bounds_compute(g, &b)) {
    if (why) snprintf(why, whylen, "cannot compute the bounds (out of memory)");
    return NULL;
  }
  long mii = b.mii > 0 ? b.mii : 1;
  twill_bounds_clear(&b);
  /* Any I at least the total of every latency and busy cycle fits: the ops
   * then run one after another inside one iteration. */
  long cap = 1;
  for (int v = 0; v < g->nops; v++) {
    cap += g->ops[v].lat + 1;
    for (int k = 0; k < g->ops[v].nuses; k++)
      cap += (long)g->ops[v].uses[k].offset + g->ops[v].uses[k].cycles;
  }
  for (int e = 0; e < g->nedges; e++) cap += g->edges[e].lat;
  if (cap < mii) cap = mii;
  int n = g->nops;
  size_t nn = n > 0 ? (size_t)n : 1;
  int *order = malloc(nn * sizeof *order);
  long *t = malloc(nn * sizeof *t), *prev = malloc(nn * sizeof *prev);
  twill_schedule *s = NULL;
  if (!order || !t || !prev || topo_order(g, order)) goto oom;
  for (long ii = mii; ii <= cap;) {
    long *mrt = malloc(((size_t)g->nunits + 1) * (size_t)ii * sizeof *mrt);
    if (!mrt) goto oom;
    int r = try_ii(g, order, ii, t, prev, mrt);
    free(mrt);
    if (!r) {
      s = twill_schedule_new(n, ii);
      if (!s) goto oom;
      memcpy(s->start, t, nn * sizeof *t);
      break;
    }
    /* step by one near the bound, then faster (a heuristic anyway) */
    long step = ii < 2 * mii ? 1 : ii / 8;
    ii += step > 0 ? step : 1;
  }
  if (!s && why) snprintf(why, whylen, "the heuristic found no schedule");
  free(order);
  free(t);
  free(prev);
  return s;
oom:
  if (why) snprintf(why, whylen, "out of memory");
  free(order);
  free(t);
  free(prev);
  return NULL;
}

/* Sub-tile index from a name ending in _K (K decimal), or -1. */
static int subtile(const char *name) {
  const char *u = strrchr(name, '_');
  if (!u || !u[1]) return -1;
  for (const char *p = u + 1; *p; p++)
    if (*p < '0' || *p > '9') return -1;
  long k = strtol(u + 1, NULL, 10);
  return k < 64 ? (int)k : -1;
}

int twill_schedule_default_warps(const twill_graph *g, const twill_arch *m,
                                twill_schedule *s, char *why, size_t whylen) {
  if (twill_schedule_add_warps(s)) {
    if (why) snprintf(why, whylen, "out of memory");
    return -1;
  }
  int G = m && m->warpgroup > 0 ? m->warpgroup : 4;
  int W = m ? m->warps : 0;
  for (int v = 0; v < g->nops; v++)
    if (twill_op_span(&g->ops[v], G) > G) {
      if (why)
        snprintf(why, whylen,
                 "op '%s' takes %d warpgroups: the default warp assignment "
                 "does not place such ops (use `twill solve`)",
                 g->ops[v].name, g->ops[v].groups);
      return -1;
    }
  /* warpgroups: sub-tile K -> warpgroup K; ops without a suffix share the
   * warpgroup after the last sub-tile's */
  int maxsub = -1, plain_wg = 0;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].issue == TWILL_ISSUE_WARPGROUP) {
      int k = subtile(g->ops[v].name);
      if (k > maxsub) maxsub = k;
      if (k < 0) plain_wg = 1;
    }
  int nwg = maxsub + 1 + plain_wg;
  int next = nwg * G;
  int fixed_warp = -1, vl_warp = -1;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].issue != TWILL_ISSUE_WARPGROUP && !g->ops[v].varlat &&
        fixed_warp < 0)
      fixed_warp = next++;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].varlat && vl_warp < 0) vl_warp = next++;
  if (next > W) {
    if (why)
      snprintf(why, whylen,
               "the default warp assignment needs %d warps, the machine has "
               "%d",
               next, W);
    return -1;
  }
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    if (o->issue == TWILL_ISSUE_WARPGROUP) {
      int k = subtile(o->name);
      s->warp[v] = (k >= 0 ? k : maxsub + 1) * G;
    } else {
      s->warp[v] = o->varlat ? vl_warp : fixed_warp;
    }
  }
  return 0;
}

/* The greedy list scheduler above; Rau's iterative modulo scheduling
 * (core/modulo/modulo_ims.c) when it finds nothing.  (IMS finds a smaller I on
 * some kernels but takes minutes on fa4-bwd-blackwell.) */
twill_schedule *twill_schedule_heuristic(const twill_graph *g,
                                                char *why, size_t whylen) {
  twill_schedule *a = greedy_schedule(g, why, whylen), *b = NULL;
  if (a) return a;
  twill_ims_opts o;
  twill_ims_opts_default(&o);
  if (twill_modulo_ims(g, &o, &b) == 0 && b) return b;
  return NULL;
}
