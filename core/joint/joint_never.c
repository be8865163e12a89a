/* core/joint/joint_never.c: "no I at all", the single-iteration relaxation.
 *
 * Algorithm 1 walks I upward from phase 1's I* and, when no I works, would
 * walk until its cap or its time limit.  One refutation can end that walk.
 *
 * Let G' be G without its loop-carried edges (dist >= 1), X(v) the
 * cross-warp cost of v's result (spill, else the machine's; 0 when v holds
 * no registers), and
 *   w(v) = max(lat1(v), last busy cycle + 1 of v's unit uses,
 *              max over v's edges e in G' of lat(e) + X(v)),
 *   L' = sum_v w(v),   U = max_v (last busy cycle + 1 of v's uses),
 *   I' = L' + U,
 * and, from G with its loop-carried edges, the floor of live copies
 *   k(v) = max(0, max over edges (v, u, d, delta) of delta - D(v, u)),
 * D(v, u) the least sum of distances over the paths from v to u in G
 * (D(v, v) = 0: the empty path).
 * Claim: if the joint problem on G' at (I', L') with k_min = k (the
 * "lifetimes" rule of twill/joint.h: at least k(v) copies of v's result at
 * every slot) is unsatisfiable, G has no joint schedule at any I and L.
 *
 * Why.  Take a legal schedule (t, w) of G at some I and L.
 *  0. (the floor)  For an edge (v, u, d, delta) and a path P from v to u,
 *     the dependences along P add up to t(u) - t(v) >= lat(P) - I*dist(P)
 *     >= -I*dist(P) (latencies are >= 0; cross-warp delays only add), so
 *     v's lifetime, which lasts until t(u) + I*delta, is at least
 *     I*(delta - dist(P)) long; with the best P, at least k(v)*I.  Any
 *     k(v)*I consecutive cycles hold every residue mod I exactly k(v)
 *     times, so at every slot, at every I, n_v(s) >= k(v).  (This is what
 *     dropping the loop-carried edges alone would lose: a value that must
 *     survive delta iterations, as b -> b with dist 2, holds delta copies
 *     at every I, however large.)
 *  1. Dropping the loop-carried edges only drops constraints (their
 *     dependences, cross-warp delays and blocking waits) and shortens
 *     lifetimes (a value no longer waits for a later iteration's user), so
 *     (t, w) is legal for G' at (I, L); with the floors of step 0 it still
 *     is, since the real steady state has at least k(v) copies everywhere.
 *  2. Look at one iteration alone, with nothing wrapped modulo I: at an
 *     absolute cycle tau its unit use and running ops are a part of what
 *     the steady state has in slot tau mod I, and so are its live values
 *     counted as max(k(v), [v live at tau in this iteration]): the real
 *     count at tau mod I is >= 1 when this iteration's copy is live there
 *     (e(v) in G is >= its e(v) in G') and >= k(v) always.  So (t, w) is
 *     legal for a single iteration of G' with the floors.
 *  3. In G' every edge goes forward (lat >= 0).  Call v in flight over
 *     [t(v), t(v) + w(v)).  If some cycle tau before the last start has no
 *     op in flight, move every op that starts after tau one cycle earlier.
 *     Every dependence, cross-warp delay, blocking window, unit window and
 *     lifetime either keeps its length or loses one cycle in which nothing
 *     of the other side was in flight, so per-cycle counts only fall (the
 *     floors are the same at every cycle and the warps do not change) and
 *     the single iteration stays legal.  When no such cycle is left, the
 *     windows cover [0, last start), so every op ends by sum_v w(v) = L'.
 *  4. At I' = L' + U, with every op issued in [0, L'), no use window,
 *     lifetime or op wraps past I': the encoding at (I', L') is exactly the
 *     single-iteration problem of step 3 (each lifetime holds at most one
 *     copy per slot there, so max(k(v), that copy) = k(v) whenever
 *     k(v) >= 1, which is how core/joint/joint_enc.c encodes a floor).
 * So a legal schedule of G at any (I, L) yields one of G' at (I', L').
 *
 * Relations over warps (same, apart, own) constrain the warp assignment
 * alone and are kept; "lead" speaks of the next iteration, is meaningless
 * in one iteration, and is dropped (dropping a constraint keeps this a
 * relaxation).  The checker (core/check/cert_solve.c) rebuilds G', k, I' and L'
 * from the kernel, so a certificate cannot choose them. */
#include <limits.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "twill/joint.h"

twill_graph *twill_never_graph(const twill_graph *g) {
  twill_graph *c = twill_graph_clone(g);
  if (!c) return NULL;
  int k = 0;
  for (int i = 0; i < c->nedges; i++)
    if (c->edges[i].dist == 0) c->edges[k++] = c->edges[i];
  c->nedges = k;
  return c;
}

static long use_end(const twill_op *o) {
  long e = 0;
  for (int u = 0; u < o->nuses; u++) {
    long x = (long)o->uses[u].offset + o->uses[u].cycles;
    if (x > e) e = x;
  }
  return e;
}

void twill_never_size(const twill_graph *gn, const twill_joint_params *p,
                      long *ii, long *L) {
  long sum = 0, umax = 0;
  for (int v = 0; v < gn->nops; v++) {
    const twill_op *o = &gn->ops[v];
    long x = o->regs > 0 ? (o->spill >= 0 ? o->spill : p->cross_warp) : 0;
    long w = o->lat > 1 ? o->lat : 1, ue = use_end(o);
    if (ue > w) w = ue;
    if (ue > umax) umax = ue;
    for (int i = 0; i < gn->nedges; i++)
      if (gn->edges[i].src == v && gn->edges[i].lat + x > w) w = gn->edges[i].lat + x;
    sum += w;
  }
  *L = sum;
  *ii = sum + umax;
}

twill_joint_params twill_never_params(const twill_joint_params *p,
                                      twill_joint_rel *keep) {
  twill_joint_params q = *p;
  int n = 0;
  for (int k = 0; k < p->nrels; k++)
    if (p->rels[k].kind != TWILL_REL_LEAD) keep[n++] = p->rels[k];
  q.rels = n ? keep : NULL;
  q.nrels = n;
  return q;
}

/* ---- the floors k(v) -----------------------------------------------------
 * D(v, .) by Dijkstra from each op with a loop-carried out-edge (distances
 * are >= 0), on a binary heap, stopped once the least open distance reaches
 * v's largest delta (no longer path can lower k(v)). */

typedef struct heap {
  long *key;
  int *node, n;
} heap;

static void heap_push(heap *h, long key, int node) {
  int i = h->n++;
  while (i > 0) {
    int up = (i - 1) / 2;
    if (h->key[up] <= key) break;
    h->key[i] = h->key[up], h->node[i] = h->node[up];
    i = up;
  }
  h->key[i] = key, h->node[i] = node;
}

static void heap_pop(heap *h, long *key, int *node) {
  *key = h->key[0], *node = h->node[0];
  long k = h->key[--h->n];
  int x = h->node[h->n], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->key[c + 1] < h->key[c]) c++;
    if (h->key[c] >= k) break;
    h->key[i] = h->key[c], h->node[i] = h->node[c];
    i = c;
  }
  h->key[i] = k, h->node[i] = x;
}

int twill_never_live(const twill_graph *g, int *k) {
  int n = g->nops, m = g->nedges;
  size_t nn = n > 0 ? (size_t)n : 1, mm = m > 0 ? (size_t)m : 1;
  int *first = calloc(nn + 1, sizeof *first), *adj = malloc(mm * sizeof *adj);
  long *dist = malloc(nn * sizeof *dist);
  /* every relaxation pushes once: at most m + 1 entries */
  heap h = {malloc((mm + 1) * sizeof(long)), malloc((mm + 1) * sizeof(int)), 0};
  if (!first || !adj || !dist || !h.key || !h.node) {
    free(first), free(adj), free(dist), free(h.key), free(h.node);
    return -1;
  }
  /* out-edges by source (counting sort) */
  for (int i = 0; i < m; i++) first[g->edges[i].src + 1]++;
  for (int v = 0; v < n; v++) first[v + 1] += first[v];
  int *fill = malloc(nn * sizeof *fill);
  if (!fill) {
    free(first), free(adj), free(dist), free(h.key), free(h.node);
    return -1;
  }
  memcpy(fill, first, nn * sizeof *fill);
  for (int i = 0; i < m; i++) adj[fill[g->edges[i].src]++] = i;
  free(fill);
  for (int v = 0; v < n; v++) {
    k[v] = 0;
    long cut = 0; /* the largest delta out of v */
    for (int a = first[v]; a < first[v + 1]; a++)
      if (g->edges[adj[a]].dist > cut) cut = g->edges[adj[a]].dist;
    if (cut == 0) continue;
    for (int x = 0; x < n; x++) dist[x] = LONG_MAX;
    dist[v] = 0;
    h.n = 0;
    heap_push(&h, 0, v);
    while (h.n) {
      long d;
      int x;
      heap_pop(&h, &d, &x);
      if (d != dist[x]) continue; /* stale entry */
      if (d >= cut) break;        /* D >= every delta of v: k gains nothing */
      for (int a = first[x]; a < first[x + 1]; a++) {
        const twill_edge *e = &g->edges[adj[a]];
        long nd = d + e->dist;
        if (nd < dist[e->dst]) {
          dist[e->dst] = nd;
          heap_push(&h, nd, e->dst);
        }
      }
    }
    /* k(v) = max over v's edges of delta - D(v, u); unreached or D >= cut
     * (dist still LONG_MAX or >= cut) contributes nothing */
    for (int a = first[v]; a < first[v + 1]; a++) {
      const twill_edge *e = &g->edges[adj[a]];
      if (dist[e->dst] < e->dist && e->dist - dist[e->dst] > k[v])
        k[v] = (int)(e->dist - dist[e->dst]);
    }
  }
  free(first), free(adj), free(dist), free(h.key), free(h.node);
  return 0;
}

/* ---- the covers ----------------------------------------------------------
 * The floors see one value at a time.  An accumulator is a chain: in FA3,
 * rescale_s -> PV_s in the iteration and PV_s -> rescale_s (delta 1) to the
 * next; each value dies where the next is born, so neither has a floor,
 * yet at every slot one of them is live.  Generally, for an edge
 * (u, v, d, delta >= 1) and a path v = p_0 -> p_1 -> ... -> p_m = u of
 * dist-0 edges: latencies are >= 0, so t(p_0) <= t(p_1) <= ... <= t(u)
 * <= t(v) + I*delta, and each p_i's lifetime runs from t(p_i) at least to
 * t(p_{i+1}) (u's to t(v) + I*delta).  Their union is [t(v), t(v) +
 * I*delta), at least I consecutive cycles: every slot holds a copy of some
 * op of C = {p_0 .. p_m}.  One iteration alone shows only its own copies;
 * where none of C's is live, the steady state still holds another
 * iteration's copy of some v in C, on v's warps (warps are the same in
 * every iteration): the phantom copy of twill/joint.h.  Counting it keeps
 * step 2 of the argument above a relaxation (at each slot, this
 * iteration's copies plus one phantom are at most the steady state's), and
 * step 3's compaction keeps it legal (each remaining cycle keeps the live
 * values and phantoms it had), so the claim holds with the covers.
 *
 * Which (the checker, core/check/check_never.c, states the rule again):
 * an op is eligible when regs(v) > 0 and k(v) = 0; for each edge
 * (u, v, d, delta) in order with delta >= 1, u != v, both eligible: a
 * breadth-first search from v over dist-0 edges between eligible ops
 * (nodes in the order reached, each node's out-edges in edge order, each
 * node reached once); if it reaches u, the cover is the path from v to u
 * it found, v first, unless the same list is already a cover. */
int twill_never_covers(const twill_graph *g, const int *k, int **ops_out,
                       int **at_out, int *n_out) {
  int n = g->nops, m = g->nedges;
  size_t nn = n > 0 ? (size_t)n : 1;
  int *par = malloc(nn * sizeof *par), *queue = malloc(nn * sizeof *queue);
  int *ops = NULL, *at = malloc(sizeof *at), nc = 0, nops = 0;
  if (!par || !queue || !at) goto oom;
  at[0] = 0;
  for (int i = 0; i < m; i++) {
    const twill_edge *e = &g->edges[i];
    int u = e->src, v = e->dst;
    if (e->dist < 1 || u == v || g->ops[u].regs <= 0 || g->ops[v].regs <= 0 || k[u] ||
        k[v])
      continue;
    for (int x = 0; x < n; x++) par[x] = -2; /* -2: not reached */
    int head = 0, tail = 0;
    par[v] = -1;
    queue[tail++] = v;
    while (head < tail && par[u] == -2) {
      int x = queue[head++];
      for (int a = 0; a < m; a++) {
        const twill_edge *f = &g->edges[a];
        int y = f->dst;
        if (f->src != x || f->dist != 0 || par[y] != -2 || g->ops[y].regs <= 0 || k[y])
          continue;
        par[y] = x;
        queue[tail++] = y;
      }
    }
    if (par[u] == -2) continue;
    int len = 0;
    for (int x = u; x >= 0; x = par[x]) len++;
    int *no = realloc(ops, (size_t)(nops + len) * sizeof *no);
    int *na = realloc(at, (size_t)(nc + 2) * sizeof *na);
    if (no) ops = no;
    if (na) at = na;
    if (!no || !na) goto oom;
    int y = u;
    for (int q = len - 1; q >= 0; q--, y = par[y]) ops[nops + q] = y;
    bool dup = false;
    for (int c = 0; c < nc && !dup; c++)
      dup = at[c + 1] - at[c] == len &&
            !memcmp(ops + at[c], ops + nops, (size_t)len * sizeof *ops);
    if (dup) continue;
    nops += len;
    at[++nc] = nops;
  }
  free(par), free(queue);
  *ops_out = ops, *at_out = at, *n_out = nc;
  return 0;
oom:
  free(par), free(queue), free(ops), free(at);
  return -1;
}

/* ---- the packing rule ------------------------------------------------------
 * Some kernels fail at every I for want of registers at one moment, not of
 * time: FA3 forward with six sub-tiles on 12 warps keeps six O
 * accumulators (64 registers per thread each, one cover each) live at every
 * slot, warp 0 is the variable-latency warp, so only warpgroups 1 and 2 can
 * run a warpgroup op, each within R = 240: three accumulators fill 192, and
 * an S tile (64 more) fits beside none of the splits.  The relaxation above
 * finds this too, but only by ruling out every slot's assignment one by one
 * (20864 conflicts, 37 s, no verdict); the count below settles it at once.
 *
 * The rule (the checker, core/check/check_never.c, states it again).  An op
 * is packable when it is warpgroup-issued on one group (groups <= 1), not
 * variable-latency, and holds registers.  Given a packable op x, its items
 * are:
 *   x itself, of size max(1, k(x)) * regs(x);
 *   every other packable op v with k(v) >= 1, of size k(v) * regs(v);
 *   the covers in order whose ops are all packable, none x, none with a
 *     floor, none in a cover taken before: size min over C of regs.
 * The bins are the warpgroups a packable op may take: all of them, or all
 * but group 0 when the kernel has a variable-latency op (warp 0 is W_vl and
 * holds only those).  A packing puts each item in a bin; its need(g) is the
 * sum of g's items, and it fits when every group's least budget r_g >= need
 * (g) (r_g = R without setmaxnreg; with it the least LO + j*STEP >= need,
 * LO for an empty or excluded group) is <= R and, with setmaxnreg, sum_g
 * 32*WG*r_g <= regs_per_sm.  If no packing fits, no I has a schedule.
 *
 * Why.  In a legal schedule at any I, look at slot s = t(x) mod I: x has a
 * copy there (lat1 >= 1), every v has at least k(v) at every slot (step 0
 * above), and each cover holds a copy of one of its ops (covers, above).
 * The ops are distinct, so need(w, s) of joint.h adds their registers, and
 * a packable op's warps are one whole group, outside group 0 when warp 0 is
 * W_vl ("0 in S(v) iff v is variable-latency").  So the groups of those ops
 * are a packing, and the budgets r_g of the schedule fit it.  Dropping
 * everything else (other live values, relations) only lowers the needs.
 * The certificate names x; the checker derives the rest. */

typedef struct pack {
  long *size;              /* the items, largest first */
  int n, first, nb;        /* items; bins first .. nb-1 of nb groups */
  long R, lo, step, file;  /* budgets (file: per-thread sum; < 0 none) */
  long *need;
  long nodes;
} pack;

static long least_budget(const pack *k, long need) {
  if (k->step <= 0) return k->R;
  if (need <= k->lo) return k->lo;
  return k->lo + (need - k->lo + k->step - 1) / k->step * k->step;
}

/* the per-thread register-file sum of the least budgets */
static long file_sum(const pack *k) {
  long s = 0;
  for (int g = 0; g < k->nb; g++) s += least_budget(k, k->need[g]);
  return s;
}

/* 1: item i on fits, 0: none, -1 too many nodes.  Bins are alike, so an
 * item goes into a used bin or the first empty one. */
static int place(pack *k, int i, int used) {
  if (i == k->n) return 1;
  if (++k->nodes > 1000000) return -1;
  for (int g = k->first; g < k->nb && g <= used + 1; g++) {
    k->need[g] += k->size[i];
    int ok = k->need[g] <= k->R && least_budget(k, k->need[g]) <= k->R &&
             (k->file < 0 || file_sum(k) <= k->file);
    int r = ok ? place(k, i + 1, g > used ? g : used) : 0;
    k->need[g] -= k->size[i];
    if (r) return r;
  }
  return 0;
}

static bool packable(const twill_op *o) {
  return o->issue == TWILL_ISSUE_WARPGROUP && o->groups <= 1 && !o->varlat && o->regs > 0;
}

static int cmp_desc(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The items of x into size[] (unsorted); their count. */
static int items(const twill_graph *g, const int *k, const int *cov, const int *cov_at,
                 int ncov, int x, char *taken, long *size, int *nfloors) {
  int n = 0;
  size[n++] = (k[x] > 1 ? k[x] : 1) * g->ops[x].regs;
  for (int v = 0; v < g->nops; v++)
    if (v != x && k[v] >= 1 && packable(&g->ops[v])) size[n++] = k[v] * g->ops[v].regs;
  *nfloors = n - 1;
  memset(taken, 0, (size_t)g->nops);
  for (int c = 0; c < ncov; c++) {
    bool ok = true;
    long m = LONG_MAX;
    for (int i = cov_at[c]; i < cov_at[c + 1] && ok; i++) {
      int v = cov[i];
      ok = v != x && !taken[v] && k[v] == 0 && packable(&g->ops[v]);
      if (g->ops[v].regs < m) m = g->ops[v].regs;
    }
    if (!ok) continue;
    for (int i = cov_at[c]; i < cov_at[c + 1]; i++) taken[cov[i]] = 1;
    size[n++] = m;
  }
  return n;
}

int twill_never_pack(const twill_graph *g, const twill_joint_params *p, const int *k,
                     const int *cov, const int *cov_at, int ncov, int *x_out, int counts[2]) {
  *x_out = -1;
  if (p->warpgroup <= 0 || p->warps < p->warpgroup) return 0;
  size_t nn = (size_t)(g->nops > 0 ? g->nops : 1);
  pack pk = {0};
  pk.nb = p->warps / p->warpgroup;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].varlat) pk.first = 1;
  /* the checker counts at most 8 groups (a CTA of 32 warps) */
  if (pk.nb - pk.first > 8) return 0;
  pk.R = p->regs;
  pk.lo = p->reg_lo;
  pk.step = p->reg_step;
  pk.file = p->reg_step > 0 ? p->regs_per_sm / (32L * p->warpgroup) : -1;
  pk.size = malloc((nn + (size_t)ncov + 1) * sizeof *pk.size);
  pk.need = calloc((size_t)pk.nb, sizeof *pk.need);
  char *taken = malloc(nn);
  int rc = 0;
  if (!pk.size || !pk.need || !taken) rc = -1;
  for (int x = 0; rc == 0 && x < g->nops && *x_out < 0; x++) {
    if (!packable(&g->ops[x])) continue;
    int nf;
    pk.n = items(g, k, cov, cov_at, ncov, x, taken, pk.size, &nf);
    counts[0] = pk.n - 1 - nf; /* the covers taken */
    counts[1] = nf;
    qsort(pk.size, (size_t)pk.n, sizeof *pk.size, cmp_desc);
    pk.nodes = 0;
    /* with no group for a warpgroup op at all (4 warps and W_vl), the
     * relaxation says so in the model's words: variable-latency warp */
    if (pk.first < pk.nb && place(&pk, 0, pk.first - 1) == 0) *x_out = x;
  }
  free(pk.size), free(pk.need), free(taken);
  return rc < 0 ? -1 : *x_out >= 0;
}
