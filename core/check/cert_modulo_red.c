/* core/check/cert_modulo_red.c: the checker's own reduction of a kernel at
 * one I (the problem twill/modulo.h calls "reduced"; the solver's is
 * core/modulo/modulo_reduce.c, which this file does not use).
 *
 * What a proof about the reduced problem tells about the kernel.  Every
 * constraint of the reduced problem is implied by the kernel's:
 *   t[y] - t[x] >= P(x, y): P is the weight of a path x -> ... -> y of
 *     kernel edges, and summing their rows t[b] - t[a] >= lat - I*dist
 *     along it gives the row;
 *   t[x] >= asap(x): a path from some op u (t[u] >= 0) to x;
 *   L - t[x] >= tail(x): a path from x to some op u, plus L >= t[u] +
 *     max(lat(u), 1);  L >= lfloor: the same through any op;
 *   the rows of a unit: the kernel's own capacity rows, over the ops that
 *     use the unit (the other ops and units are simply left out);
 *   L <= H (the horizon) and the stage bounds it gives: not implied, but
 *     some schedule meets them whenever one exists, and the kernel's
 *     optimum L is never above H.  H is the smaller of two bounds on the
 *     least schedule with given slots: I*(W+1) - 1 + max lat over every op
 *     (the stage argument of core/modulo/modulo_ilp.c) and max over kept y
 *     of lo(y) + win(y) + tail(y);
 *   t[y] <= lo(y) + win(y), win(y) = c(y)*(I - 1) with c(y) the kept ops
 *     that reach y along deps (y included): the same kind of bound, per op
 *     (the least schedule with given slots reaches each kept op's start
 *     along a simple chain of deps, rounding up to a slot at most once per
 *     op on it: core/modulo/modulo_reduce.c says it in full).
 * So every schedule of the kernel within the horizon is, restricted to the
 * kept ops, a solution of the reduced problem with the same L: refuting
 * the reduced problem at I refutes the kernel at I, and a lower bound on
 * its L bounds the kernel's.  Nothing here needs the solver's claim that
 * the reduction loses nothing (that direction is the schedule, which the
 * checker validates on the whole kernel).
 *
 * The longest paths are computed by a FIFO label-correcting search (each op
 * re-queued when its value grows; a value growing past n relaxations means
 * a positive cycle, an error), a different method from the solver's
 * topological passes, over the same definitions.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cert_modulo.h"

#define NONE LONG_MIN

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

typedef struct graph_view {
  int n;
  int *beg, *to;  /* out-edges (in-edges when reversed), self loops left out */
  long *w;        /* their weights lat - I*dist */
} graph_view;

static void view_free(graph_view *v) {
  free(v->beg);
  free(v->to);
  free(v->w);
}

static int view_build(const twill_graph *g, long ii, int rev, graph_view *v) {
  int n = g->nops, m = g->nedges;
  v->n = n;
  v->beg = calloc((size_t)n + 2, sizeof *v->beg);
  v->to = malloc(((size_t)m + 1) * sizeof *v->to);
  v->w = malloc(((size_t)m + 1) * sizeof *v->w);
  if (!v->beg || !v->to || !v->w) {
    view_free(v);
    return -1;
  }
  for (int i = 0; i < m; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src != e->dst) v->beg[(rev ? e->dst : e->src) + 2]++;
  }
  for (int k = 0; k < n; k++) v->beg[k + 2] += v->beg[k + 1];
  for (int i = 0; i < m; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    int a = rev ? e->dst : e->src, b = rev ? e->src : e->dst;
    int k = v->beg[a + 1]++;
    v->to[k] = b;
    v->w[k] = e->lat - ii * (long)e->dist;
  }
  return 0;
}

/* Longest paths from the values already in d (NONE: unreached); an op
 * passes its value on only when pass[op] (NULL: all).  0, or -1 on a
 * positive cycle or allocation failure. */
static int longest(const graph_view *v, const char *pass, long *d) {
  int n = v->n;
  int *queue = malloc(((size_t)n + 1) * sizeof *queue);
  int *count = calloc((size_t)n + 1, sizeof *count);
  char *in = calloc((size_t)n + 1, 1);
  int rc = -1;
  if (!queue || !count || !in) goto out;
  int head = 0, size = 0;
  for (int k = 0; k < n; k++)
    if (d[k] != NONE && (!pass || pass[k])) queue[(head + size++) % n] = k, in[k] = 1;
  while (size) {
    int a = queue[head];
    head = (head + 1) % n;
    size--;
    in[a] = 0;
    for (int k = v->beg[a]; k < v->beg[a + 1]; k++) {
      int b = v->to[k];
      long c = d[a] + v->w[k];
      if (d[b] != NONE && c <= d[b]) continue;
      d[b] = c;
      if ((!pass || pass[b]) && !in[b]) {
        /* An op joins the queue at most once per pass of the FIFO order,
         * and without a positive cycle every value is final after n
         * passes: more joins than that mean a cycle.  (Its value may grow
         * several times within one pass, so the joins are counted, not
         * the growths.) */
        if (++count[b] > n + 1) goto out;
        queue[(head + size++) % n] = b;
        in[b] = 1;
      }
    }
  }
  rc = 0;
out:
  free(queue);
  free(count);
  free(in);
  return rc;
}

int twill_cert_modulo_reduce(const twill_graph *g, long ii, int on,
                             twill_modulo_red *r) {
  memset(r, 0, sizeof *r);
  int n = g->nops;
  size_t nn = (size_t)n + 1;
  graph_view fw, bw;
  memset(&fw, 0, sizeof fw);
  memset(&bw, 0, sizeof bw);
  long *asap = malloc(nn * sizeof *asap), *tail = malloc(nn * sizeof *tail),
       *d = malloc(nn * sizeof *d);
  char *kept = calloc(nn, 1), *pass = malloc(nn),
       *bind = calloc((size_t)g->nunits + 1, 1);
  int rc = -1, cap = 0;
  if (!asap || !tail || !d || !kept || !pass || !bind || ii < 1 ||
      view_build(g, ii, 0, &fw) || view_build(g, ii, 1, &bw))
    goto out;
  r->ii = ii;
  for (int v = 0; v < n; v++) asap[v] = 0, tail[v] = lat1(&g->ops[v]);
  if (longest(&fw, NULL, asap) || longest(&bw, NULL, tail)) goto out;
  for (int v = 0; v < n; v++)
    if (asap[v] + tail[v] > r->lfloor) r->lfloor = asap[v] + tail[v];
  /* the horizon of core/modulo/modulo_ilp.c: W = sum over edges (not self
   * loops) of ceil(lat / I); H = I*(W+1) - 1 + max(lat, 1) */
  long W = 0, maxlat = 1;
  for (int i = 0; i < g->nedges; i++)
    if (g->edges[i].src != g->edges[i].dst) W += (g->edges[i].lat + ii - 1) / ii;
  for (int v = 0; v < n; v++)
    if (lat1(&g->ops[v]) > maxlat) maxlat = lat1(&g->ops[v]);
  r->horizon = ii * (W + 1) - 1 + maxlat;
  /* a unit is kept when its uses, folded onto I slots, can exceed its
   * capacity (with the reduction off: whenever it is used at all) */
  for (int u = 0; u < g->nunits; u++) {
    long load = 0;
    for (int v = 0; v < n; v++)
      for (int k = 0; k < g->ops[v].nuses; k++)
        if (g->ops[v].uses[k].unit == u) {
          const twill_use *us = &g->ops[v].uses[k];
          load += on ? (long)us->count * ((us->cycles + ii - 1) / ii) : LONG_MAX / 4;
          if (load > LONG_MAX / 4) load = LONG_MAX / 4;
        }
    bind[u] = load > g->units[u].capacity;
    r->nunits += bind[u];
  }
  for (int v = 0; v < n; v++) {
    kept[v] = !on;
    for (int k = 0; k < g->ops[v].nuses; k++)
      if (bind[g->ops[v].uses[k].unit]) kept[v] = 1;
    r->n += kept[v];
  }
  r->op = malloc(((size_t)r->n + 1) * sizeof *r->op);
  r->kept_of = malloc(nn * sizeof *r->kept_of);
  r->lo = malloc(((size_t)r->n + 1) * sizeof *r->lo);
  r->tail = malloc(((size_t)r->n + 1) * sizeof *r->tail);
  r->unit = malloc(((size_t)r->nunits + 1) * sizeof *r->unit);
  if (!r->op || !r->kept_of || !r->lo || !r->tail || !r->unit) goto out;
  for (int u = 0, k = 0; u < g->nunits; u++)
    if (bind[u]) r->unit[k++] = u;
  for (int v = 0, i = 0; v < n; v++) {
    r->kept_of[v] = kept[v] ? i : -1;
    if (!kept[v]) continue;
    r->op[i] = v;
    r->lo[i] = asap[v];
    r->tail[i++] = tail[v];
  }
  /* P(x, y): the heaviest path from x to y whose inner ops are all free */
  for (int i = 0; i < r->n; i++) {
    int x = r->op[i];
    for (int v = 0; v < n; v++) d[v] = NONE, pass[v] = !kept[v];
    d[x] = 0;
    pass[x] = 1;
    if (longest(&fw, pass, d) || d[x] > 0) goto out;
    for (int v = 0; v < n; v++) {
      if (!kept[v] || v == x || d[v] == NONE) continue;
      if (r->ndeps == cap) {
        cap = cap ? 2 * cap : 64;
        twill_modulo_dep *nd = realloc(r->deps, (size_t)cap * sizeof *nd);
        if (!nd) goto out;
        r->deps = nd;
      }
      r->deps[r->ndeps].x = i;
      r->deps[r->ndeps].y = r->kept_of[v];
      r->deps[r->ndeps++].w = d[v];
    }
  }
  /* c(y): the kept ops with a chain of deps to y, by a breadth-first
   * search back from y over the deps grouped by their head */
  size_t kn = (size_t)r->n + 1;
  r->win = malloc(kn * sizeof *r->win);
  int *first = malloc(kn * sizeof *first), *nextd = malloc(((size_t)r->ndeps + 1) * sizeof *nextd);
  int *fifo = malloc(kn * sizeof *fifo);
  char *seenk = malloc(kn);
  if (!r->win || !first || !nextd || !fifo || !seenk) {
    free(first);
    free(nextd);
    free(fifo);
    free(seenk);
    goto out;
  }
  for (int y = 0; y < r->n; y++) first[y] = -1;
  for (int k = r->ndeps - 1; k >= 0; k--) {
    nextd[k] = first[r->deps[k].y];
    first[r->deps[k].y] = k;
  }
  long h = r->lfloor;
  for (int y = 0; y < r->n; y++) {
    memset(seenk, 0, kn);
    int qh = 0, qt = 0;
    fifo[qt++] = y;
    seenk[y] = 1;
    while (qh < qt) {
      int z = fifo[qh++];
      for (int k = first[z]; k >= 0; k = nextd[k])
        if (!seenk[r->deps[k].x]) seenk[r->deps[k].x] = 1, fifo[qt++] = r->deps[k].x;
    }
    r->win[y] = (long)qt * (ii - 1);
    if (r->lo[y] + r->win[y] + r->tail[y] > h) h = r->lo[y] + r->win[y] + r->tail[y];
  }
  free(first);
  free(nextd);
  free(fifo);
  free(seenk);
  if (h < r->horizon) r->horizon = h;
  if (r->horizon < r->lfloor) r->horizon = r->lfloor;
  rc = 0;
out:
  free(asap);
  free(tail);
  free(d);
  free(kept);
  free(pass);
  free(bind);
  view_free(&fw);
  view_free(&bw);
  if (rc) twill_modulo_red_clear(r);
  return rc;
}
