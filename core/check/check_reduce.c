/* core/check/check_reduce.c: the checker's own reduction of a kernel at one
 * I (the problem twill/modulo.h calls "reduced"; the solver's is
 * core/modulo/modulo_reduce.c, which this file does not use and shares no
 * code with: different longest-path method, its own data).
 *
 * What a proof about the reduced problem tells about the kernel.  Every
 * constraint of the reduced problem is implied by the kernel's:
 *   t[y] - t[x] >= P(x, y): P is the weight of a path x -> ... -> y of
 *     kernel edges, and summing their rows t[b] - t[a] >= lat - I*dist
 *     along it gives the row;
 *   t[x] >= asap(x): a path from some op u (t[u] >= 0) to x;
 *   L - t[x] >= tail(x): a path from x to some op u, plus L >= t[u] +
 *     max(lat(u), 1);  L >= lfloor (the critical path): the same through
 *     any op;
 *   the rows of a unit: the kernel's own capacity rows, over the ops that
 *     use the unit (the other ops and units are simply left out, which
 *     only weakens the problem);
 *   L <= H (the horizon) and the windows t[y] <= lo(y) + win(y): not
 *     implied, but some schedule meets them whenever one exists, and no
 *     optimal L is lost.  H is the smaller of I*(W+1) - 1 + max lat1, W
 *     the sum over edges (not self edges) of ceil((lat + I - 1) / I) (the
 *     stage argument of check_phase1.c), and max over kept y of lo(y) +
 *     win(y) + tail(y); win(y) = c(y)*(I - 1), c(y) the kept ops with a
 *     chain of deps to y (y included): fix the slots of a schedule and
 *     take the least times with those slots; each kept op's time is then
 *     reached along a simple chain of tight deps from an op at its own
 *     bound, rounding up to a slot (at most I - 1) once per op on it, and
 *     lo(y) = asap(y) is the longest path into y.
 * So every schedule of the kernel (within the horizon, windows met) is,
 * restricted to the kept ops, a solution of the reduced problem with the
 * same L: refuting the reduced problem at I refutes the kernel at I, and
 * refuting it with L <= L* - 1 proves L >= L*.  A unit is kept when its
 * uses, folded onto I slots, can exceed its capacity; the others' rows
 * hold in every placement and dropping them loses nothing either way.
 *
 * The longest paths are a FIFO label-correcting search (an op re-queued
 * when its value grows; joining the queue more than n + 1 times means a
 * positive cycle, an error: the value may grow several times within one
 * pass, so joins are counted, not growths).
 */
#include "check_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NONE LONG_MIN

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

typedef struct gview {
  int n;
  int *beg, *to; /* out-edges (in-edges when reversed), self edges left out */
  long *w;       /* their weights lat - I*dist */
} gview;

static void view_free(gview *v) {
  free(v->beg);
  free(v->to);
  free(v->w);
}

static int view_build(const twill_graph *g, long ii, int rev, gview *v) {
  int n = g->nops, m = g->nedges;
  v->n = n;
  v->beg = calloc((size_t)n + 2, sizeof *v->beg);
  v->to = malloc(((size_t)m + 1) * sizeof *v->to);
  v->w = malloc(((size_t)m + 1) * sizeof *v->w);
  if (!v->beg || !v->to || !v->w) return -1;
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
static int longest(const gview *v, const char *pass, long *d) {
  int n = v->n;
  if (n == 0) return 0;
  int *queue = malloc((size_t)n * sizeof *queue);
  int *count = calloc((size_t)n, sizeof *count);
  char *in = calloc((size_t)n, 1);
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

void twill_cred_clear(cred *r) {
  free(r->op);
  free(r->lo);
  free(r->tail);
  free(r->win);
  free(r->dx);
  free(r->dy);
  free(r->dw);
  free(r->unit);
  memset(r, 0, sizeof *r);
}

static int push_dep(cred *r, int *cap, int x, int y, long w) {
  if (r->ndeps == *cap) {
    int nc = *cap ? 2 * *cap : 64;
    int *a = realloc(r->dx, (size_t)nc * sizeof *a);
    if (a) r->dx = a;
    int *b = realloc(r->dy, (size_t)nc * sizeof *b);
    if (b) r->dy = b;
    long *c = realloc(r->dw, (size_t)nc * sizeof *c);
    if (c) r->dw = c;
    if (!a || !b || !c) return -1;
    *cap = nc;
  }
  r->dx[r->ndeps] = x;
  r->dy[r->ndeps] = y;
  r->dw[r->ndeps++] = w;
  return 0;
}

int twill_cred_derive(const twill_graph *g, long ii, int on, cred *r) {
  memset(r, 0, sizeof *r);
  int n = g->nops;
  size_t nn = (size_t)n + 1;
  gview fw, bw;
  memset(&fw, 0, sizeof fw);
  memset(&bw, 0, sizeof bw);
  long *asap = malloc(nn * sizeof *asap), *tail = malloc(nn * sizeof *tail),
       *d = malloc(nn * sizeof *d);
  int *kept_of = malloc(nn * sizeof *kept_of);
  char *kept = calloc(nn, 1), *pass = malloc(nn), *bind = calloc((size_t)g->nunits + 1, 1);
  int rc = -1, cap = 0;
  if (!asap || !tail || !d || !kept_of || !kept || !pass || !bind || ii < 1 ||
      view_build(g, ii, 0, &fw) || view_build(g, ii, 1, &bw))
    goto out;
  r->ii = ii;
  for (int v = 0; v < n; v++) asap[v] = 0, tail[v] = lat1(&g->ops[v]);
  if (longest(&fw, NULL, asap) || longest(&bw, NULL, tail)) goto out;
  for (int v = 0; v < n; v++)
    if (asap[v] + tail[v] > r->lfloor) r->lfloor = asap[v] + tail[v];
  long W = 0, maxlat = 1;
  for (int i = 0; i < g->nedges; i++)
    if (g->edges[i].src != g->edges[i].dst) W += (g->edges[i].lat + 2 * ii - 2) / ii;
  for (int v = 0; v < n; v++)
    if (lat1(&g->ops[v]) > maxlat) maxlat = lat1(&g->ops[v]);
  long fullh = ii * (W + 1) - 1 + maxlat;
  /* a unit is kept when its uses, folded onto I slots, can exceed its
   * capacity: each use of c cycles and count k holds at most k *
   * ceil(c / I) instances in one slot (with the reduction off: whenever it
   * is used at all) */
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
    kept_of[v] = kept[v] ? r->n++ : -1;
  }
  size_t kn = (size_t)r->n + 1;
  r->op = malloc(kn * sizeof *r->op);
  r->lo = malloc(kn * sizeof *r->lo);
  r->tail = malloc(kn * sizeof *r->tail);
  r->win = malloc(kn * sizeof *r->win);
  r->unit = malloc(((size_t)r->nunits + 1) * sizeof *r->unit);
  if (!r->op || !r->lo || !r->tail || !r->win || !r->unit) goto out;
  for (int u = 0, k = 0; u < g->nunits; u++)
    if (bind[u]) r->unit[k++] = u;
  for (int v = 0; v < n; v++)
    if (kept[v]) {
      int i = kept_of[v];
      r->op[i] = v;
      r->lo[i] = asap[v];
      r->tail[i] = tail[v];
    }
  /* P(x, y): the heaviest path from x to y whose inner ops are all free */
  for (int i = 0; i < r->n; i++) {
    int x = r->op[i];
    for (int v = 0; v < n; v++) d[v] = NONE, pass[v] = !kept[v];
    d[x] = 0;
    pass[x] = 1;
    if (longest(&fw, pass, d) || d[x] > 0) goto out;
    for (int v = 0; v < n; v++)
      if (kept[v] && v != x && d[v] != NONE && push_dep(r, &cap, i, kept_of[v], d[v]))
        goto out;
  }
  /* c(y): the kept ops with a chain of deps to y, searched back from y */
  {
    int *fifo = malloc(kn * sizeof *fifo), *first = malloc(kn * sizeof *first);
    int *nextd = malloc(((size_t)r->ndeps + 1) * sizeof *nextd);
    char *seen = malloc(kn);
    if (!fifo || !first || !nextd || !seen) {
      free(fifo);
      free(first);
      free(nextd);
      free(seen);
      goto out;
    }
    for (int y = 0; y < r->n; y++) first[y] = -1;
    for (int k = r->ndeps - 1; k >= 0; k--) nextd[k] = first[r->dy[k]], first[r->dy[k]] = k;
    long h = r->lfloor;
    for (int y = 0; y < r->n; y++) {
      memset(seen, 0, kn);
      int qh = 0, qt = 0;
      fifo[qt++] = y;
      seen[y] = 1;
      while (qh < qt) {
        int z = fifo[qh++];
        for (int k = first[z]; k >= 0; k = nextd[k])
          if (!seen[r->dx[k]]) seen[r->dx[k]] = 1, fifo[qt++] = r->dx[k];
      }
      r->win[y] = (long)qt * (ii - 1);
      if (r->lo[y] + r->win[y] + r->tail[y] > h) h = r->lo[y] + r->win[y] + r->tail[y];
    }
    free(fifo);
    free(first);
    free(nextd);
    free(seen);
    r->horizon = fullh < h ? fullh : h;
    if (r->horizon < r->lfloor) r->horizon = r->lfloor;
  }
  rc = 0;
out:
  free(asap);
  free(tail);
  free(d);
  free(kept_of);
  free(kept);
  free(pass);
  free(bind);
  view_free(&fw);
  view_free(&bw);
  if (rc) twill_cred_clear(r);
  return rc;
}
