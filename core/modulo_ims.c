/* core/modulo_ims.c: Rau's iterative modulo scheduling (twill/modulo.h).
 *
 * The modulo reservation table (MRT) holds, per unit and slot k in [0, I),
 * the instances in use in every cycle congruent to k.  Placing op v at t
 * adds, for each use (U, offset o, c cycles, n instances), n to the slots
 * (t + o + j) mod I for j in [0, c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "twill/bounds.h"
#include "twill/modulo.h"

void twill_ims_opts_default(twill_ims_opts *o) {
  o->ii_min = 0;
  o->ii_max = 0;
  o->budget_ratio = 6;
}

typedef struct ims {
  const twill_graph *g;
  long ii;
  long *mrt;      /* nunits x ii */
  long *start;    /* per op; valid when placed[v] */
  long *prev;     /* last time v was placed, or -1 */
  char *placed;
  long *height;
} ims;

static void mrt_apply(ims *s, int v, long t, int sign) {
  const twill_op *o = &s->g->ops[v];
  for (int k = 0; k < o->nuses; k++) {
    const twill_use *u = &o->uses[k];
    long *row = s->mrt + (size_t)u->unit * (size_t)s->ii;
    for (int j = 0; j < u->cycles; j++)
      row[(t + u->offset + j) % s->ii] += sign * u->count;
  }
}

/* Does v fit at t on top of what is placed? */
static int mrt_fits(ims *s, int v, long t) {
  mrt_apply(s, v, t, +1);
  int ok = 1;
  const twill_op *o = &s->g->ops[v];
  for (int k = 0; k < o->nuses && ok; k++) {
    const twill_use *u = &o->uses[k];
    const long *row = s->mrt + (size_t)u->unit * (size_t)s->ii;
    long cap = s->g->units[u->unit].capacity;
    for (int j = 0; j < u->cycles && ok; j++)
      if (row[(t + u->offset + j) % s->ii] > cap) ok = 0;
  }
  mrt_apply(s, v, t, -1);
  return ok;
}

/* Would v alone overflow some unit at this I (a use longer than I)? */
static int fits_alone(ims *s, int v) {
  memset(s->mrt, 0,
         (size_t)s->g->nunits * (size_t)s->ii * sizeof *s->mrt);
  return mrt_fits(s, v, 0);
}

static void unplace(ims *s, int v) {
  if (!s->placed[v]) return;
  mrt_apply(s, v, s->start[v], -1);
  s->placed[v] = 0;
}

/* Heights: H(v) = max(lat(v), max over edges v->w of H(w) + lat - I*dist),
 * relaxed to a fixed point (no positive cycle at I >= RecMII). */
static void compute_heights(ims *s) {
  const twill_graph *g = s->g;
  for (int v = 0; v < g->nops; v++) s->height[v] = g->ops[v].lat;
  for (int it = 0; it <= g->nops; it++) {
    int changed = 0;
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      long h = s->height[e->dst] + e->lat - s->ii * (long)e->dist;
      if (h > s->height[e->src]) {
        s->height[e->src] = h;
        changed = 1;
      }
    }
    if (!changed) break;
  }
}

static int pick_next(const ims *s) {
  int best = -1;
  for (int v = 0; v < s->g->nops; v++)
    if (!s->placed[v] && (best < 0 || s->height[v] > s->height[best]))
      best = v;
  return best;
}

static long earliest_start(const ims *s, int v) {
  long est = 0;
  for (int i = 0; i < s->g->nedges; i++) {
    const twill_edge *e = &s->g->edges[i];
    if (e->dst != v || e->src == v || !s->placed[e->src]) continue;
    long t = s->start[e->src] + e->lat - s->ii * (long)e->dist;
    if (t > est) est = t;
  }
  return est;
}

/* Put v at t and unschedule every placed neighbour whose dependence with
 * v is now violated (a successor through a back edge, typically). */
static void place(ims *s, int v, long t) {
  const twill_graph *g = s->g;
  mrt_apply(s, v, t, +1);
  s->placed[v] = 1;
  s->start[v] = t;
  s->prev[v] = t;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    long need = e->lat - s->ii * (long)e->dist;
    if (e->src == v && s->placed[e->dst] && s->start[e->dst] - t < need)
      unplace(s, e->dst);
    if (e->dst == v && s->placed[e->src] && t - s->start[e->src] < need)
      unplace(s, e->src);
  }
}

/* Force v in at t: evict every placed op that shares an over-full slot
 * with it, then every placed successor or predecessor whose dependence it
 * now violates. */
static void force_place(ims *s, int v, long t) {
  const twill_graph *g = s->g;
  for (int x = 0; x < g->nops; x++) {
    if (!s->placed[x] || mrt_fits(s, v, t)) continue;
    /* evict x if removing it helps: it shares a unit with v */
    int shares = 0;
    for (int a = 0; a < g->ops[v].nuses && !shares; a++)
      for (int b = 0; b < g->ops[x].nuses && !shares; b++)
        shares = g->ops[v].uses[a].unit == g->ops[x].uses[b].unit;
    if (shares) unplace(s, x);
  }
  place(s, v, t);
}

/* One attempt at interval I; 1 on success. */
static int try_ii(ims *s, int budget_ratio) {
  const twill_graph *g = s->g;
  for (int v = 0; v < g->nops; v++)
    if (!fits_alone(s, v)) return 0;
  memset(s->mrt, 0, (size_t)g->nunits * (size_t)s->ii * sizeof *s->mrt);
  for (int v = 0; v < g->nops; v++) {
    s->placed[v] = 0;
    s->prev[v] = -1;
  }
  compute_heights(s);
  long budget = (long)budget_ratio * (g->nops > 0 ? g->nops : 1);
  int v;
  while ((v = pick_next(s)) >= 0) {
    if (budget-- <= 0) return 0;
    long est = earliest_start(s, v), t = -1;
    for (long c = est; c < est + s->ii; c++)
      if (mrt_fits(s, v, c)) {
        t = c;
        break;
      }
    if (t >= 0) {
      place(s, v, t);
      continue;
    }
    t = s->prev[v] < 0 || est > s->prev[v] ? est : s->prev[v] + 1;
    force_place(s, v, t);
  }
  return 1;
}

int twill_modulo_ims(const twill_graph *g, const twill_ims_opts *o,
                     twill_schedule **out) {
  twill_ims_opts def;
  if (!o) {
    twill_ims_opts_default(&def);
    o = &def;
  }
  twill_bounds b;
  if (twill_bounds_compute(g, &b)) return -1;
  long ii = o->ii_min > b.mii ? o->ii_min : b.mii;
  twill_bounds_clear(&b);
  long ii_max = o->ii_max;
  if (ii_max <= 0) {
    /* I = sum of all busy cycles plus all latencies always fits: every op
     * can run alone, one after the other. */
    ii_max = ii;
    for (int v = 0; v < g->nops; v++) {
      ii_max += g->ops[v].lat + 1;
      for (int k = 0; k < g->ops[v].nuses; k++)
        ii_max += (long)g->ops[v].uses[k].offset + g->ops[v].uses[k].cycles;
    }
    for (int i = 0; i < g->nedges; i++) ii_max += g->edges[i].lat;
  }
  ims s;
  memset(&s, 0, sizeof s);
  s.g = g;
  size_t n = g->nops > 0 ? (size_t)g->nops : 1;
  s.start = calloc(n, sizeof *s.start);
  s.prev = calloc(n, sizeof *s.prev);
  s.placed = calloc(n, 1);
  s.height = calloc(n, sizeof *s.height);
  int rc = -1;
  if (!s.start || !s.prev || !s.placed || !s.height) goto done;
  rc = 1;
  for (; ii <= ii_max; ii++) {
    s.ii = ii;
    free(s.mrt);
    size_t cells = (size_t)(g->nunits ? g->nunits : 1) * (size_t)ii;
    s.mrt = calloc(cells, sizeof *s.mrt);
    if (!s.mrt) {
      rc = -1;
      goto done;
    }
    if (!try_ii(&s, o->budget_ratio)) continue;
    twill_schedule *sc = twill_schedule_new(g->nops, ii);
    if (!sc) {
      rc = -1;
      goto done;
    }
    memcpy(sc->start, s.start, n * sizeof *s.start);
    *out = sc;
    rc = 0;
    break;
  }
done:
  free(s.mrt);
  free(s.start);
  free(s.prev);
  free(s.placed);
  free(s.height);
  return rc;
}
