/* core/modulo/modulo_reduce.c: the phase-1 problem at one I over the ops
 * that compete for a unit (twill/modulo.h, "the reduced problem").
 *
 * A unit U can be over-subscribed at I only if the uses of U, each folded
 * onto the I slots, can put more than cap(U) instances in one slot:
 *
 *   load(U) = sum over uses (U, o, c, n) of n * ceil(c / I)  >  cap(U).
 *
 * (A use of c cycles covers each slot at most ceil(c / I) times.)  Every
 * other unit holds in every schedule, so its rows are dropped; an op none
 * of whose uses is on a binding unit ("free") takes part in no resource
 * constraint, and only its edges matter.  HLS flows rely on this (most ops
 * of an HLS loop are unlimited wires and adders).  The kept ops K then carry:
 *
 *   t[y] - t[x] >= P(x, y)   for x != y in K joined by a path whose inner
 *                            ops are all free, P its longest weight at I
 *                            (edge weight lat - I*dist);
 *   t[x] >= asap(x),  L - t[x] >= tail(x),  L >= crit   (longest paths over
 *                            the whole graph: asap from time 0, tail to the
 *                            end of the iteration, crit = max asap + tail).
 *
 * Soundness (what certificates need): each of these is a sum of the kernel's
 * own constraints along a path (t >= 0, the edges, L >= t + max(lat, 1)), so
 * every schedule of the kernel satisfies it: refuting the reduced problem,
 * or bounding its L, refutes or bounds the kernel.
 *
 * Completeness (what the solver needs): from times of K that satisfy the
 * above, give every free op u
 *   t[u] = max( A(u), max over x in K of t[x] + P(x, u) ),
 * A(u) the longest free-only path from time 0, P(x, u) the longest path
 * from x whose inner ops are free.  Then t[u] >= 0; an edge u -> y with y
 * kept holds because A(u) + w <= asap(y) <= t[y] and P(x, u) + w <= P(x, y)
 * (or, when y = x, closes a cycle of weight <= 0 at I >= RecMII); an edge
 * between free ops holds because A and P are longest paths; and each free
 * op ends by max(crit, max t[x] + tail(x)).  So the least L of the kernel at
 * I equals the least L of the reduced problem, and twill_modulo_red_extend
 * builds such a schedule (the earliest times the kept ones allow).
 *
 * Windows and horizon: if the reduced problem has a solution t*, it has
 * one with
 *   t[y] <= lo(y) + win(y),  win(y) = c(y)*(I - 1)  for every kept y,
 * c(y) the number of kept ops with a chain of deps to y (y included), and
 * so L <= max over y of lo(y) + win(y) + tail(y) <= lfloor + n*(I - 1),
 * and no longer than t*: keep the slots of t*, and take the least
 * times with those slots, t[y] = up_y(max(lo(y), max over deps x -> y of
 * t[x] + w)), up_y rounding up to y's slot.  They exist below t* (the
 * iteration from below never passes a solution), meet every constraint,
 * share t*'s slots (so the units' rows hold) and end no later.  Follow the
 * deps that are tight in them back from y: a cycle among them would add
 * nothing (more would grow without bound, past t*), so a simple path
 * i0 -> ... -> y of m deps does, its m + 1 ops all reaching y, with
 *   t[y] <= lo(i0) + (sum of its w) + (m + 1)*(I - 1) <= lo(y) + win(y)
 * since every dep is a path of the kernel and lo(y) = asap(y) is the
 * longest path into y.  twill_modulo_horizon(g, I) (core/modulo/
 * modulo_ilp.c, the same argument over every op and stage) is another
 * valid bound; the horizon is the smaller of the two, and t[x] <=
 * min(lo(x) + win(x), horizon - tail(x)) loses no schedule and no
 * optimal L.
 *
 * Longest paths: the zero-distance edges form a DAG (validated graphs have
 * no zero-distance cycle), so passes in its topological order settle every
 * path in (back edges on it + 1) passes; a pass that still changes after
 * nops + 1 passes means a positive cycle (I below RecMII): an error.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "twill/modulo.h"

#define NONE LONG_MIN

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

void twill_modulo_red_clear(twill_modulo_red *r) {
  free(r->op);
  free(r->lo);
  free(r->tail);
  free(r->win);
  free(r->deps);
  free(r->unit);
  free(r->kept_of);
  memset(r, 0, sizeof *r);
}

/* Out-edges (or in-edges when rev) of every op, CSR, without self loops,
 * and a topological order of the zero-distance DAG (ops left over by a
 * zero-distance cycle, which validation forbids, follow in index order). */
typedef struct adj {
  int *beg, *edge, *order;
} adj;

static void adj_free(adj *a) {
  free(a->beg);
  free(a->edge);
  free(a->order);
}

static int adj_build(const twill_graph *g, int rev, adj *a) {
  int n = g->nops, m = g->nedges;
  a->beg = calloc((size_t)n + 1, sizeof *a->beg);
  a->edge = malloc(((size_t)m + 1) * sizeof *a->edge);
  a->order = malloc(((size_t)n + 1) * sizeof *a->order);
  int *indeg = calloc((size_t)n + 1, sizeof *indeg);
  int *fill = malloc(((size_t)n + 1) * sizeof *fill);
  if (!a->beg || !a->edge || !a->order || !indeg || !fill) {
    free(indeg);
    free(fill);
    adj_free(a);
    return -1;
  }
  for (int i = 0; i < m; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    a->beg[(rev ? e->dst : e->src) + 1]++;
    if (e->dist == 0) indeg[rev ? e->src : e->dst]++;
  }
  for (int v = 0; v < n; v++) a->beg[v + 1] += a->beg[v];
  for (int v = 0; v < n; v++) fill[v] = a->beg[v];
  for (int i = 0; i < m; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    a->edge[fill[rev ? e->dst : e->src]++] = i;
  }
  /* Kahn, smallest index first among the ready ones is not needed: any
   * topological order settles the same longest paths */
  int head = 0, tail = 0;
  char *done = calloc((size_t)n + 1, 1);
  if (!done) {
    free(indeg);
    free(fill);
    adj_free(a);
    return -1;
  }
  for (int v = 0; v < n; v++)
    if (!indeg[v]) a->order[tail++] = v;
  while (head < tail) {
    int v = a->order[head++];
    done[v] = 1;
    for (int k = a->beg[v]; k < a->beg[v + 1]; k++) {
      const twill_edge *e = &g->edges[a->edge[k]];
      if (e->dist) continue;
      int w = rev ? e->src : e->dst;
      if (--indeg[w] == 0) a->order[tail++] = w;
    }
  }
  for (int v = 0; v < n; v++)
    if (!done[v]) a->order[tail++] = v;
  free(done);
  free(indeg);
  free(fill);
  return 0;
}

/* Longest paths at I along a (reversed when rev): d[] holds the starting
 * values (NONE: unreached); an op's value is passed on only if through[v]
 * (NULL: every op) or v == src.  Returns 0, or -1 on a positive cycle. */
static int relax(const twill_graph *g, const adj *a, int rev, long ii,
                 const char *through, int src, long *d) {
  int n = g->nops;
  for (int pass = 0; pass <= n + 1; pass++) {
    int changed = 0;
    for (int k = 0; k < n; k++) {
      int v = a->order[k];
      if (d[v] == NONE || (through && !through[v] && v != src)) continue;
      for (int q = a->beg[v]; q < a->beg[v + 1]; q++) {
        const twill_edge *e = &g->edges[a->edge[q]];
        int w = rev ? e->src : e->dst;
        long c = d[v] + e->lat - ii * (long)e->dist;
        if (c > d[w]) {
          d[w] = c;
          changed = 1;
        }
      }
    }
    if (!changed) return 0;
  }
  return -1;
}

/* Can unit u hold more than its capacity in one slot at I? */
static int binding(const twill_graph *g, int u, long ii) {
  long load = 0;
  for (int v = 0; v < g->nops; v++)
    for (int k = 0; k < g->ops[v].nuses; k++) {
      const twill_use *us = &g->ops[v].uses[k];
      if (us->unit != u) continue;
      load += (long)us->count * ((us->cycles + ii - 1) / ii);
      if (load > g->units[u].capacity) return 1;
    }
  return 0;
}

static int push_dep(twill_modulo_red *r, int *cap, int x, int y, long w) {
  if (r->ndeps == *cap) {
    int nc = *cap ? 2 * *cap : 64;
    twill_modulo_dep *d = realloc(r->deps, (size_t)nc * sizeof *d);
    if (!d) return -1;
    r->deps = d;
    *cap = nc;
  }
  r->deps[r->ndeps].x = x;
  r->deps[r->ndeps].y = y;
  r->deps[r->ndeps].w = w;
  r->ndeps++;
  return 0;
}

/* win[] from the kept ops that reach each one along deps (a search back
 * from every kept op over the reversed deps), then the horizon: the
 * smaller of the whole kernel's stage bound and max lo + win + tail. */
static int windows(twill_modulo_red *r, long fullh) {
  int n = r->n;
  size_t nn = (size_t)n + 1;
  int *beg = calloc(nn + 1, sizeof *beg), *src = malloc(((size_t)r->ndeps + 1) * sizeof *src);
  int *stack = malloc(nn * sizeof *stack), *mark = malloc(nn * sizeof *mark);
  r->win = malloc(nn * sizeof *r->win);
  if (!beg || !src || !stack || !mark || !r->win) {
    free(beg);
    free(src);
    free(stack);
    free(mark);
    return -1;
  }
  for (int k = 0; k < r->ndeps; k++) beg[r->deps[k].y + 2]++;
  for (int i = 0; i < n; i++) beg[i + 2] += beg[i + 1];
  for (int k = 0; k < r->ndeps; k++) src[beg[r->deps[k].y + 1]++] = r->deps[k].x;
  for (int i = 0; i < n; i++) mark[i] = -1;
  long h = r->lfloor;
  for (int y = 0; y < n; y++) {
    int top = 0, c = 0;
    stack[top++] = y;
    mark[y] = y;
    while (top) {
      int z = stack[--top];
      c++;
      for (int k = beg[z]; k < beg[z + 1]; k++)
        if (mark[src[k]] != y) mark[src[k]] = y, stack[top++] = src[k];
    }
    r->win[y] = (long)c * (r->ii - 1);
    if (r->lo[y] + r->win[y] + r->tail[y] > h) h = r->lo[y] + r->win[y] + r->tail[y];
  }
  r->horizon = fullh < h ? fullh : h;
  if (r->horizon < r->lfloor) r->horizon = r->lfloor;
  free(beg);
  free(src);
  free(stack);
  free(mark);
  return 0;
}

int twill_modulo_reduce(const twill_graph *g, long ii, int on,
                        twill_modulo_red *r) {
  memset(r, 0, sizeof *r);
  int n = g->nops;
  size_t nn = (size_t)n + 1;
  adj fw, bw;
  memset(&fw, 0, sizeof fw);
  memset(&bw, 0, sizeof bw);
  long *asap = malloc(nn * sizeof *asap), *tail = malloc(nn * sizeof *tail),
       *d = malloc(nn * sizeof *d);
  char *keep = calloc(nn, 1), *ubind = calloc((size_t)g->nunits + 1, 1);
  int rc = -1, dcap = 0;
  r->ii = ii;
  r->kept_of = malloc(nn * sizeof *r->kept_of);
  if (!asap || !tail || !d || !keep || !ubind || !r->kept_of || ii < 1 ||
      adj_build(g, 0, &fw) || adj_build(g, 1, &bw))
    goto out;
  /* asap from time 0 and tail to the end, over the whole graph */
  for (int v = 0; v < n; v++) asap[v] = 0, tail[v] = lat1(&g->ops[v]);
  if (relax(g, &fw, 0, ii, NULL, -1, asap) || relax(g, &bw, 1, ii, NULL, -1, tail))
    goto out;
  for (int v = 0; v < n; v++)
    if (asap[v] + tail[v] > r->lfloor) r->lfloor = asap[v] + tail[v];
  /* binding units and kept ops */
  for (int u = 0; u < g->nunits; u++) {
    ubind[u] = on ? (char)binding(g, u, ii) : 0;
    if (!on)
      for (int v = 0; v < n && !ubind[u]; v++)
        for (int k = 0; k < g->ops[v].nuses; k++)
          if (g->ops[v].uses[k].unit == u) ubind[u] = 1;
    r->nunits += ubind[u];
  }
  for (int v = 0; v < n; v++) {
    keep[v] = !on;
    for (int k = 0; k < g->ops[v].nuses && !keep[v]; k++)
      keep[v] = ubind[g->ops[v].uses[k].unit];
    r->kept_of[v] = keep[v] ? r->n++ : -1;
  }
  r->op = malloc(((size_t)r->n + 1) * sizeof *r->op);
  r->lo = malloc(((size_t)r->n + 1) * sizeof *r->lo);
  r->tail = malloc(((size_t)r->n + 1) * sizeof *r->tail);
  r->unit = malloc(((size_t)r->nunits + 1) * sizeof *r->unit);
  if (!r->op || !r->lo || !r->tail || !r->unit) goto out;
  for (int u = 0, k = 0; u < g->nunits; u++)
    if (ubind[u]) r->unit[k++] = u;
  for (int v = 0; v < n; v++)
    if (keep[v]) {
      int i = r->kept_of[v];
      r->op[i] = v;
      r->lo[i] = asap[v];
      r->tail[i] = tail[v];
    }
  /* P(x, .) through free ops only, from each kept x in order; with the
   * reduction off every op is kept and P is the heaviest direct edge */
  char *through = malloc(nn);
  if (!through) goto out;
  for (int v = 0; v < n; v++) through[v] = !keep[v];
  for (int i = 0; i < r->n; i++) {
    int x = r->op[i];
    for (int v = 0; v < n; v++) d[v] = NONE;
    d[x] = 0;
    if (relax(g, &fw, 0, ii, through, x, d)) {
      free(through);
      goto out;
    }
    if (d[x] > 0) { /* a positive cycle through x: I below RecMII */
      free(through);
      goto out;
    }
    for (int v = 0; v < n; v++)
      if (keep[v] && v != x && d[v] != NONE &&
          push_dep(r, &dcap, i, r->kept_of[v], d[v])) {
        free(through);
        goto out;
      }
  }
  free(through);
  /* windows and horizon (see the top) */
  if (windows(r, twill_modulo_horizon(g, ii))) goto out;
  rc = 0;
out:
  free(asap);
  free(tail);
  free(d);
  free(keep);
  free(ubind);
  adj_free(&fw);
  adj_free(&bw);
  if (rc) twill_modulo_red_clear(r);
  return rc;
}

twill_schedule *twill_modulo_red_extend(const twill_graph *g,
                                        const twill_modulo_red *r,
                                        const long *kt) {
  int n = g->nops;
  twill_schedule *s = twill_schedule_new(n, r->ii);
  adj fw;
  memset(&fw, 0, sizeof fw);
  if (!s || adj_build(g, 0, &fw)) {
    twill_schedule_free(s);
    return NULL;
  }
  /* kept ops sit at their times; the others start at 0 and are pushed by
   * every edge into them (never by an edge into a kept op) */
  for (int v = 0; v < n; v++) s->start[v] = 0;
  for (int i = 0; i < r->n; i++) s->start[r->op[i]] = kt[i];
  int ok = 0;
  for (int pass = 0; pass <= n + 1 && !ok; pass++) {
    int changed = 0;
    for (int k = 0; k < n; k++) {
      int v = fw.order[k];
      for (int q = fw.beg[v]; q < fw.beg[v + 1]; q++) {
        const twill_edge *e = &g->edges[fw.edge[q]];
        if (r->kept_of[e->dst] >= 0) continue;
        long c = s->start[v] + e->lat - r->ii * (long)e->dist;
        if (c > s->start[e->dst]) {
          s->start[e->dst] = c;
          changed = 1;
        }
      }
    }
    ok = !changed;
  }
  adj_free(&fw);
  if (!ok) {
    twill_schedule_free(s);
    return NULL;
  }
  return s;
}

/* least t >= x with t = res (mod I) */
static long up_to(long x, long res, long ii) {
  long m = ((x - res) % ii + ii) % ii;
  return m ? x + ii - m : x;
}

long twill_modulo_red_compact(const twill_modulo_red *r, long *kt) {
  long ii = r->ii;
  size_t nn = (size_t)r->n + 1;
  long *res = malloc(nn * sizeof *res), *t = malloc(nn * sizeof *t);
  if (!res || !t) {
    free(res);
    free(t);
    return -1;
  }
  /* Keep every slot, move every op to its least stage: the least solution
   * of the difference constraints with t = slot (mod I), reached from
   * below by rounding up to the slot after each relaxation.  When kt is a
   * solution the iteration stays below it (induction on the relaxations),
   * so it stops; a value above kt means kt was none: -1, kt untouched. */
  int bad = 0;
  for (int i = 0; i < r->n; i++) {
    res[i] = ((kt[i] % ii) + ii) % ii;
    t[i] = up_to(r->lo[i], res[i], ii);
    bad |= t[i] > kt[i];
  }
  for (int changed = !bad; changed && !bad;) {
    changed = 0;
    for (int k = 0; k < r->ndeps && !bad; k++) {
      const twill_modulo_dep *e = &r->deps[k];
      long c = up_to(t[e->x] + e->w, res[e->y], ii);
      if (c > t[e->y]) {
        t[e->y] = c;
        changed = 1;
        bad = c > kt[e->y];
      }
    }
  }
  long L = -1;
  if (!bad) {
    memcpy(kt, t, (size_t)r->n * sizeof *kt);
    L = r->lfloor;
    for (int i = 0; i < r->n; i++)
      if (kt[i] + r->tail[i] > L) L = kt[i] + r->tail[i];
  }
  free(res);
  free(t);
  return L;
}
