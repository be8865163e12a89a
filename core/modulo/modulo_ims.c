/* core/modulo/modulo_ims.c: Rau's iterative modulo scheduling (twill/modulo.h).
 *
 * The modulo reservation table (MRT) holds, per unit and slot k in [0, I),
 * the instances in use in every cycle congruent to k.  Placing op v at t
 * adds, for each use (U, offset o, c cycles, n instances), n to the slots
 * (t + o + j) mod I for j in [0, c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "twill/bounds.h"
#include "twill/ilp.h"
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
  /* twill_modulo_ims_at only: adjacency, guidance, the ready heap, and
   * a scratch table (nunits x ii) */
  int *in_off, *in_e, *out_off, *out_e;
  const long *prio, *pref;
  int *heap, hn;
  long *need;
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
    /* SIGINT (twill_ilp_interrupt_all) stops this search too: at raw
     * costs one I can take minutes */
    if (budget-- <= 0 || twill_ilp_interrupted()) return 0;
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

/* Compaction: move ops earlier while they fit.  Only edges into v bound
 * its start from below (moving v earlier relaxes every edge out of v), so
 * the earliest slot with room at or after earliest_start keeps the
 * schedule valid.  Each move lowers a start time, so this terminates. */
static void compact(ims *s) {
  const twill_graph *g = s->g;
  for (int v = 0; v < g->nops; v++) s->placed[v] = 1;
  int moved = 1;
  while (moved) {
    moved = 0;
    for (int v = 0; v < g->nops; v++) {
      long est = earliest_start(s, v);
      if (est >= s->start[v]) continue;
      mrt_apply(s, v, s->start[v], -1);
      long t = s->start[v];
      for (long c = est; c < s->start[v]; c++)
        if (mrt_fits(s, v, c)) {
          t = c;
          break;
        }
      mrt_apply(s, v, t, +1);
      if (t < s->start[v]) {
        s->start[v] = t;
        moved = 1;
      }
    }
  }
}

/* ---- guided IMS at a fixed I (twill_modulo_ims_at) ----------------------- */

/* Does a come before b?  prio (or height) descending, height, index. */
static int g_before(const ims *s, int a, int b) {
  long pa = s->prio ? s->prio[a] : s->height[a];
  long pb = s->prio ? s->prio[b] : s->height[b];
  if (pa != pb) return pa > pb;
  if (s->height[a] != s->height[b]) return s->height[a] > s->height[b];
  return a < b;
}

static void g_push(ims *s, int v) {
  int c = s->hn++;
  s->heap[c] = v;
  while (c > 0 && g_before(s, s->heap[c], s->heap[(c - 1) / 2])) {
    int p = (c - 1) / 2, x = s->heap[p];
    s->heap[p] = s->heap[c];
    s->heap[c] = x;
    c = p;
  }
}

static int g_pop(ims *s) {
  int top = s->heap[0];
  s->heap[0] = s->heap[--s->hn];
  int c = 0;
  for (;;) {
    int l = 2 * c + 1, r = l + 1, b = c;
    if (l < s->hn && g_before(s, s->heap[l], s->heap[b])) b = l;
    if (r < s->hn && g_before(s, s->heap[r], s->heap[b])) b = r;
    if (b == c) break;
    int x = s->heap[b];
    s->heap[b] = s->heap[c];
    s->heap[c] = x;
    c = b;
  }
  return top;
}

/* Unschedule v and make it ready again (each unplaced op is in the heap
 * exactly once: initially, and after each eviction). */
static void g_unplace(ims *s, int v) {
  if (!s->placed[v]) return;
  unplace(s, v);
  g_push(s, v);
}

/* Adjacency lists in edge order; topological order of the distance-0
 * edges in ord (n).  -1 on a distance-0 cycle. */
static int g_adjacency(ims *s, int *ord, int *indeg) {
  const twill_graph *g = s->g;
  int n = g->nops;
  for (int i = 0; i < g->nedges; i++) {
    s->out_off[g->edges[i].src + 1]++;
    s->in_off[g->edges[i].dst + 1]++;
  }
  for (int v = 0; v < n; v++) {
    s->out_off[v + 1] += s->out_off[v];
    s->in_off[v + 1] += s->in_off[v];
  }
  for (int v = 0; v < n; v++) indeg[v] = 0;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    s->out_e[s->out_off[e->src] + indeg[e->src]++] = i;
  }
  for (int v = 0; v < n; v++) indeg[v] = 0;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    s->in_e[s->in_off[e->dst] + indeg[e->dst]++] = i;
  }
  for (int v = 0; v < n; v++) indeg[v] = 0;
  for (int i = 0; i < g->nedges; i++)
    if (!g->edges[i].dist) indeg[g->edges[i].dst]++;
  int head = 0, tail = 0;
  for (int v = 0; v < n; v++)
    if (!indeg[v]) ord[tail++] = v;
  while (head < tail) {
    int v = ord[head++];
    for (int k = s->out_off[v]; k < s->out_off[v + 1]; k++) {
      const twill_edge *e = &g->edges[s->out_e[k]];
      if (!e->dist && --indeg[e->dst] == 0) ord[tail++] = e->dst;
    }
  }
  return tail == n ? 0 : -1;
}

/* Heights as compute_heights, swept in reverse topological order so that
 * a graph without long back-edge chains converges in a few sweeps.  -1
 * when still changing after n + 1 sweeps (I below RecMII). */
static int g_heights(ims *s, const int *ord) {
  const twill_graph *g = s->g;
  for (int v = 0; v < g->nops; v++) s->height[v] = g->ops[v].lat;
  for (int it = 0; it <= g->nops + 1; it++) {
    int changed = 0;
    for (int k = g->nops - 1; k >= 0; k--) {
      int v = ord[k];
      for (int j = s->out_off[v]; j < s->out_off[v + 1]; j++) {
        const twill_edge *e = &g->edges[s->out_e[j]];
        long h = s->height[e->dst] + e->lat - s->ii * (long)e->dist;
        if (h > s->height[v]) {
          s->height[v] = h;
          changed = 1;
        }
      }
    }
    if (!changed) return 0;
  }
  return -1;
}

static long g_earliest(const ims *s, int v) {
  long est = s->pref && s->pref[v] > 0 ? s->pref[v] : 0;
  for (int j = s->in_off[v]; j < s->in_off[v + 1]; j++) {
    const twill_edge *e = &s->g->edges[s->in_e[j]];
    if (e->src == v || !s->placed[e->src]) continue;
    long t = s->start[e->src] + e->lat - s->ii * (long)e->dist;
    if (t > est) est = t;
  }
  return est;
}

static void g_place(ims *s, int v, long t) {
  const twill_graph *g = s->g;
  mrt_apply(s, v, t, +1);
  s->placed[v] = 1;
  s->start[v] = t;
  s->prev[v] = t;
  for (int j = s->out_off[v]; j < s->out_off[v + 1]; j++) {
    const twill_edge *e = &g->edges[s->out_e[j]];
    if (e->dst != v && s->placed[e->dst] &&
        s->start[e->dst] - t < e->lat - s->ii * (long)e->dist)
      g_unplace(s, e->dst);
  }
  for (int j = s->in_off[v]; j < s->in_off[v + 1]; j++) {
    const twill_edge *e = &g->edges[s->in_e[j]];
    if (e->src != v && s->placed[e->src] &&
        t - s->start[e->src] < e->lat - s->ii * (long)e->dist)
      g_unplace(s, e->src);
  }
}

/* Force v in at t, evicting (in index order) the placed ops that hold a
 * slot v needs while that slot is still over-full. */
static void g_force(ims *s, int v, long t) {
  const twill_graph *g = s->g;
  const twill_op *o = &g->ops[v];
  for (int k = 0; k < o->nuses; k++)
    for (int j = 0; j < o->uses[k].cycles; j++)
      s->need[(size_t)o->uses[k].unit * (size_t)s->ii +
              (size_t)((t + o->uses[k].offset + j) % s->ii)] += o->uses[k].count;
  for (int x = 0; x < g->nops; x++) {
    if (!s->placed[x]) continue;
    const twill_op *ox = &g->ops[x];
    int evict = 0;
    for (int k = 0; k < ox->nuses && !evict; k++) {
      const twill_use *u = &ox->uses[k];
      size_t row = (size_t)u->unit * (size_t)s->ii;
      long cap = g->units[u->unit].capacity;
      for (int j = 0; j < u->cycles && !evict; j++) {
        size_t c = row + (size_t)((s->start[x] + u->offset + j) % s->ii);
        if (s->need[c] > 0 && s->mrt[c] + s->need[c] > cap) evict = 1;
      }
    }
    if (evict) g_unplace(s, x);
  }
  for (int k = 0; k < o->nuses; k++)
    for (int j = 0; j < o->uses[k].cycles; j++)
      s->need[(size_t)o->uses[k].unit * (size_t)s->ii +
              (size_t)((t + o->uses[k].offset + j) % s->ii)] = 0;
  g_place(s, v, t);
}

int twill_modulo_ims_at(const twill_graph *g, long ii, int budget_ratio,
                        const long *prio, const long *pref, long *start) {
  if (ii < 1) return 1;
  ims s;
  memset(&s, 0, sizeof s);
  s.g = g;
  s.ii = ii;
  s.prio = prio;
  s.pref = pref;
  int n = g->nops;
  size_t n1 = (size_t)n + 1, ne = (size_t)g->nedges + 1;
  size_t cells = (size_t)(g->nunits ? g->nunits : 1) * (size_t)ii;
  int *ord = malloc(n1 * sizeof *ord), *tmp = malloc(n1 * sizeof *tmp);
  s.start = calloc(n1, sizeof *s.start);
  s.prev = calloc(n1, sizeof *s.prev);
  s.placed = calloc(n1, 1);
  s.height = calloc(n1, sizeof *s.height);
  s.in_off = calloc(n1 + 1, sizeof *s.in_off);
  s.out_off = calloc(n1 + 1, sizeof *s.out_off);
  s.in_e = malloc(ne * sizeof *s.in_e);
  s.out_e = malloc(ne * sizeof *s.out_e);
  s.heap = malloc(n1 * sizeof *s.heap);
  s.mrt = calloc(cells, sizeof *s.mrt);
  s.need = calloc(cells, sizeof *s.need);
  int rc = -1;
  if (!ord || !tmp || !s.start || !s.prev || !s.placed || !s.height ||
      !s.in_off || !s.out_off || !s.in_e || !s.out_e || !s.heap || !s.mrt ||
      !s.need)
    goto done;
  rc = 1;
  if (g_adjacency(&s, ord, tmp) || g_heights(&s, ord)) goto done;
  for (int v = 0; v < n; v++)
    if (!fits_alone(&s, v)) goto done;
  memset(s.mrt, 0, cells * sizeof *s.mrt);
  for (int v = 0; v < n; v++) {
    s.prev[v] = -1;
    g_push(&s, v);
  }
  long budget = (long)budget_ratio * (n > 0 ? n : 1);
  long probes = budget * 256; /* slot tests: bounds the work at a large I */
  while (s.hn > 0) {
    int v = g_pop(&s);
    if (s.placed[v]) continue;
    if (budget-- <= 0) goto done;
    long est = g_earliest(&s, v), t = -1;
    for (long c = est; c < est + ii; c++)
      if (probes-- <= 0) goto done;
      else if (mrt_fits(&s, v, c)) {
        t = c;
        break;
      }
    if (t >= 0) {
      g_place(&s, v, t);
      continue;
    }
    t = s.prev[v] < 0 || est > s.prev[v] ? est : s.prev[v] + 1;
    g_force(&s, v, t);
  }
  /* every op is placed; self loops are the only edges not yet looked at */
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (s.start[e->dst] - s.start[e->src] < e->lat - ii * (long)e->dist)
      goto done;
  }
  memcpy(start, s.start, (size_t)n * sizeof *start);
  rc = 0;
done:
  free(ord);
  free(tmp);
  free(s.start);
  free(s.prev);
  free(s.placed);
  free(s.height);
  free(s.in_off);
  free(s.out_off);
  free(s.in_e);
  free(s.out_e);
  free(s.heap);
  free(s.mrt);
  free(s.need);
  return rc;
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
  for (; ii <= ii_max && !twill_ilp_interrupted(); ii++) {
    s.ii = ii;
    free(s.mrt);
    size_t cells = (size_t)(g->nunits ? g->nunits : 1) * (size_t)ii;
    s.mrt = calloc(cells, sizeof *s.mrt);
    if (!s.mrt) {
      rc = -1;
      goto done;
    }
    if (!try_ii(&s, o->budget_ratio)) continue;
    compact(&s);
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
