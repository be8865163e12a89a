/* core/schedule/schedule.c: the Schedule and its validator (twill/schedule.h).
 *
 * The validator is deliberately independent of every solver: it rebuilds
 * the modulo reservation table from the graph and the start times alone. */
#include "twill/schedule.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

twill_schedule *twill_schedule_new(int nops, long ii) {
  twill_schedule *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->nops = nops;
  s->ii = ii;
  s->start = calloc(nops > 0 ? (size_t)nops : 1, sizeof *s->start);
  if (!s->start) {
    free(s);
    return NULL;
  }
  return s;
}

void twill_schedule_free(twill_schedule *s) {
  if (!s) return;
  free(s->start);
  free(s->warp);
  free(s);
}

int twill_schedule_add_warps(twill_schedule *s) {
  if (s->warp) return 0;
  s->warp = malloc((s->nops > 0 ? (size_t)s->nops : 1) * sizeof *s->warp);
  if (!s->warp) return -1;
  for (int v = 0; v < s->nops; v++) s->warp[v] = -1;
  return 0;
}


long twill_schedule_length(const twill_graph *g, const twill_schedule *s) {
  long len = 0;
  for (int v = 0; v < g->nops && v < s->nops; v++) {
    long end = s->start[v] + (g->ops[v].lat > 0 ? g->ops[v].lat : 1);
    if (end > len) len = end;
  }
  return len;
}

static int fail(char *why, size_t n, const char *fmt, ...) {
  if (why && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Modulo reservation table of one unit: slot k holds the instances in use
 * in every cycle congruent to k mod I.  A use of c cycles from slot s adds
 * count to each slot c/I times, plus once to the c%I slots from s on;
 * a difference array keeps this O(I + uses) however long the ops are. */
static int check_unit(const twill_graph *g, const twill_schedule *s, int u,
                      long *mrt, char *why, size_t n) {
  long ii = s->ii;
  memset(mrt, 0, (size_t)(ii + 1) * sizeof *mrt);
  long base = 0;
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    for (int k = 0; k < o->nuses; k++) {
      const twill_use *us = &o->uses[k];
      if (us->unit != u) continue;
      base += (long)us->count * (us->cycles / ii);
      long r = us->cycles % ii;
      long from = (s->start[v] + us->offset) % ii;
      if (!r) continue;
      if (from + r <= ii) {
        mrt[from] += us->count;
        mrt[from + r] -= us->count;
      } else {
        mrt[from] += us->count;
        mrt[ii] -= us->count;
        mrt[0] += us->count;
        mrt[from + r - ii] -= us->count;
      }
    }
  }
  long run = 0;
  for (long k = 0; k < ii; k++) {
    run += mrt[k];
    if (base + run > g->units[u].capacity)
      return fail(why, n,
                  "unit '%s' holds %ld instances in slot %ld (cycles = %ld "
                  "mod %ld) but has %d",
                  g->units[u].name, base + run, k, k, ii,
                  g->units[u].capacity);
  }
  return 0;
}

static int check_warps(const twill_graph *g, const twill_arch *m,
                       const twill_schedule *s, char *why, size_t n) {
  int W = m ? m->warps : 0, G = m && m->warpgroup > 0 ? m->warpgroup : 4;
  for (int v = 0; v < g->nops; v++) {
    int w = s->warp[v];
    const twill_op *o = &g->ops[v];
    if (w < 0 || w >= W)
      return fail(why, n, "op '%s' is on warp %d, outside [0, %d)", o->name,
                  w, W);
    int sp = twill_op_span(o, G);
    if (o->issue == TWILL_ISSUE_WARPGROUP && (w % sp || w + sp > W)) {
      if (sp == G)
        return fail(why, n,
                    "op '%s' needs a whole warpgroup but starts at warp %d "
                    "(warpgroups are %d warps)",
                    o->name, w, G);
      return fail(why, n,
                  "op '%s' needs %d aligned warpgroups (%d warps) but starts "
                  "at warp %d",
                  o->name, o->groups, sp, w);
    }
  }
  /* Variable-latency ops run on warps of their own (docs/model.md
   * section 4). */
  for (int v = 0; v < g->nops; v++) {
    if (!g->ops[v].varlat) continue;
    for (int x = 0; x < g->nops; x++) {
      if (g->ops[x].varlat) continue;
      int wx = s->warp[x];
      int span = twill_op_span(&g->ops[x], G);
      if (s->warp[v] >= wx && s->warp[v] < wx + span)
        return fail(why, n,
                    "variable-latency op '%s' shares warp %d with "
                    "fixed-latency op '%s'",
                    g->ops[v].name, s->warp[v], g->ops[x].name);
    }
  }
  return 0;
}

int twill_schedule_validate(const twill_graph *g, const twill_arch *m,
                            const twill_schedule *s, char *why,
                            size_t whylen) {
  if (s->nops != g->nops)
    return fail(why, whylen, "schedule has %d ops, kernel has %d", s->nops,
                g->nops);
  if (s->ii < 1)
    return fail(why, whylen, "initiation interval %ld < 1", s->ii);
  for (int v = 0; v < g->nops; v++)
    if (s->start[v] < 0)
      return fail(why, whylen, "op '%s' starts at %ld < 0", g->ops[v].name,
                  s->start[v]);
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    long need = e->lat - s->ii * (long)e->dist;
    long have = s->start[e->dst] - s->start[e->src];
    if (have < need)
      return fail(why, whylen,
                  "dependence %s -> %s (lat %ld, dist %d) violated: "
                  "t(%s) - t(%s) = %ld < %ld - %ld*%d = %ld",
                  g->ops[e->src].name, g->ops[e->dst].name, e->lat, e->dist,
                  g->ops[e->dst].name, g->ops[e->src].name, have, e->lat,
                  s->ii, e->dist, need);
  }
  long *mrt = malloc((size_t)(s->ii + 1) * sizeof *mrt);
  if (!mrt) return fail(why, whylen, "out of memory");
  for (int u = 0; u < g->nunits; u++)
    if (check_unit(g, s, u, mrt, why, whylen)) {
      free(mrt);
      return -1;
    }
  free(mrt);
  if (s->warp && check_warps(g, m, s, why, whylen)) return -1;
  return 0;
}
