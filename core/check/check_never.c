/* core/check/check_never.c: the single-iteration relaxation behind a
 * certificate of "no joint schedule at any I", derived by the checker from
 * the kernel (twill/joint.h states the model; the solver derives the same
 * relaxation in core/joint/joint_never.c, which this file does not use).
 *
 * G' is G without its loop-carried edges (dist >= 1).  With X(v) the
 * cross-warp cost of v's result (its spill, else the machine's; 0 when v
 * keeps no registers),
 *   w(v) = max(max(lat(v), 1), last busy cycle + 1 of v's unit uses,
 *              max over v's edges e in G' of lat(e) + X(v)),
 *   L' = sum_v w(v),   U = max_v (last busy cycle + 1 of v's uses),
 *   I' = L' + U.
 * and from G with its loop-carried edges the floor of live copies
 *   k(v) = max(0, max over edges (v, u, d, delta) of delta - D(v, u)),
 *   D(v, u) the least sum of distances over the paths from v to u in G
 *   (D(v, v) = 0).
 * If the joint problem of G' at (I', L') with k_min = k (joint.h,
 * "lifetimes") has no solution, G has none at any I and L:
 *  0. along a path P from v to u the dependences give t(u) - t(v) >=
 *     lat(P) - I*dist(P) >= -I*dist(P), so v's lifetime, which lasts to
 *     t(u) + I*delta for an edge (v, u, d, delta), is at least k(v)*I
 *     long, and k(v)*I consecutive cycles hold every slot k(v) times: at
 *     every I, n_v(s) >= k(v);
 *  1. a legal schedule of G at (I, L) is legal for G' (dropping edges drops
 *     dependences, transfers and waits, and only shortens lifetimes);
 *  2. one iteration alone, nothing wrapped, uses in each cycle a part of
 *     what the steady state uses in that cycle's slot (its live values
 *     counted as max(k(v), this iteration's copy), which step 0 bounds),
 *     so it is legal as a single iteration of G' with the floors;
 *  3. G' has forward edges only; call v in flight over [t(v), t(v) +
 *     w(v)); while some cycle before the last start has nothing in flight,
 *     moving every later op one cycle earlier keeps every dependence,
 *     transfer, wait window, use window and lifetime (each keeps its length
 *     or loses a cycle where the other side was not in flight), so counts
 *     only fall; at the end every op ends by sum w(v) = L';
 *  4. at I' = L' + U nothing issued in [0, L') wraps, so the problem at
 *     (I', L') is exactly that single iteration (a lifetime holds at most
 *     one copy per slot there, so max(k(v), that copy) = k(v) when k(v)
 *     >= 1, as check_joint.c states a floor).
 * Relations over warps (same, apart, own) are kept; "lead" speaks of the
 * next iteration and is dropped (dropping keeps a relaxation).
 *
 * Covers (twill/joint.h, "lifetimes").  For an edge (u, v, d, delta >= 1)
 * and a path v = p_0 -> ... -> p_m = u of dist-0 edges, latencies >= 0 give
 * t(p_0) <= ... <= t(u) <= t(v) + I*delta, and each p_i's result lives at
 * least until t(p_{i+1}) (u's until t(v) + I*delta): the lifetimes join
 * into [t(v), t(v) + I*delta), at least I cycles, so at every slot at every
 * I some op of the path holds a copy.  In step 2 a slot where this
 * iteration shows none of them gets one phantom copy of the op the steady
 * state holds there (on that op's warps, the same in every iteration), so
 * the single iteration still uses at most the steady state's registers;
 * step 3 keeps each remaining cycle's live values and phantoms.  The
 * paths taken, the rule both sides state: an op is eligible when it holds
 * registers and has no floor; for each edge in order with delta >= 1, u !=
 * v and both ends eligible, a breadth-first search from v along dist-0
 * edges into eligible ops (the queue in the order reached, a node's
 * out-edges in edge order, a node reached once); when it reaches u, the
 * path found from v to u, v first, is a cover unless an equal list is one
 * already.
 */
#include "check_int.h"

#include <limits.h>
#include <stdlib.h>

static long use_end(const twill_op *o) {
  long e = 0;
  for (int u = 0; u < o->nuses; u++) {
    long x = (long)o->uses[u].offset + o->uses[u].cycles;
    if (x > e) e = x;
  }
  return e;
}

/* k(v) by Dijkstra from every op (distances >= 0), on arrays: O(n^2) per
 * op; kernels have tens of ops (a larger one is refused, not slowed). */
static int floors(const twill_graph *g, int *k) {
  int n = g->nops;
  if (n > 4096) return -1;
  size_t nn = n > 0 ? (size_t)n : 1;
  long *d = malloc(nn * sizeof *d);
  char *done = malloc(nn);
  if (!d || !done) {
    free(d);
    free(done);
    return -1;
  }
  for (int v = 0; v < n; v++) {
    k[v] = 0;
    for (int x = 0; x < n; x++) d[x] = LONG_MAX, done[x] = 0;
    d[v] = 0;
    for (;;) {
      int x = -1;
      for (int y = 0; y < n; y++)
        if (!done[y] && d[y] != LONG_MAX && (x < 0 || d[y] < d[x])) x = y;
      if (x < 0) break;
      done[x] = 1;
      for (int i = 0; i < g->nedges; i++)
        if (g->edges[i].src == x && d[x] + g->edges[i].dist < d[g->edges[i].dst])
          d[g->edges[i].dst] = d[x] + g->edges[i].dist;
    }
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      if (e->src != v || d[e->dst] == LONG_MAX) continue;
      long f = (long)e->dist - d[e->dst];
      if (f > k[v]) k[v] = (int)f;
    }
  }
  free(d);
  free(done);
  return 0;
}

int twill_never_derive(const twill_graph *g, const twill_joint_params *p, twill_graph **gn,
                       long *ii, long *L, int *k) {
  if (floors(g, k)) return -1;
  twill_graph *c = twill_graph_clone(g);
  if (!c) return -1;
  int kept = 0;
  for (int i = 0; i < c->nedges; i++)
    if (c->edges[i].dist == 0) c->edges[kept++] = c->edges[i];
  c->nedges = kept;
  long sum = 0, umax = 0;
  for (int v = 0; v < c->nops; v++) {
    const twill_op *o = &c->ops[v];
    long x = o->regs > 0 ? (o->spill >= 0 ? o->spill : p->cross_warp) : 0;
    long w = o->lat > 1 ? o->lat : 1, ue = use_end(o);
    if (ue > w) w = ue;
    if (ue > umax) umax = ue;
    for (int i = 0; i < c->nedges; i++)
      if (c->edges[i].src == v && c->edges[i].lat + x > w) w = c->edges[i].lat + x;
    sum += w;
  }
  *gn = c;
  *L = sum;
  *ii = sum + umax;
  return 0;
}

int twill_never_derive_covers(const twill_graph *g, const int *k, int **ops_out, int **at_out,
                              int *n_out) {
  int n = g->nops, m = g->nedges;
  *ops_out = NULL, *at_out = NULL, *n_out = 0;
  if (n > 4096 || (size_t)m * (size_t)n > ((size_t)1 << 24)) return -1;
  size_t nn = n > 0 ? (size_t)n : 1, mm = m > 0 ? (size_t)m : 1;
  int *from = malloc(nn * sizeof *from), *order = malloc(nn * sizeof *order);
  /* a cover is a simple path: at most n ops, at most one per edge */
  int *ops = malloc(mm * nn * sizeof *ops), *at = malloc((mm + 1) * sizeof *at);
  if (!from || !order || !ops || !at) {
    free(from), free(order), free(ops), free(at);
    return -1;
  }
  int ncov = 0;
  at[0] = 0;
  for (int i = 0; i < m; i++) {
    const twill_edge *e = &g->edges[i];
    int ok_u = g->ops[e->src].regs > 0 && !k[e->src];
    int ok_v = g->ops[e->dst].regs > 0 && !k[e->dst];
    if (e->dist < 1 || e->src == e->dst || !ok_u || !ok_v) continue;
    for (int x = 0; x < n; x++) from[x] = -1;
    from[e->dst] = e->dst; /* the root points at itself */
    int len = 0, at_q = 0;
    order[len++] = e->dst;
    while (at_q < len && from[e->src] < 0) {
      int x = order[at_q++];
      for (int a = 0; a < m; a++) {
        const twill_edge *f = &g->edges[a];
        if (f->src != x || f->dist || from[f->dst] >= 0) continue;
        if (g->ops[f->dst].regs <= 0 || k[f->dst]) continue;
        from[f->dst] = x;
        order[len++] = f->dst;
      }
    }
    if (from[e->src] < 0) continue;
    /* the path, v first: walk back from u, then reverse */
    int *c = ops + at[ncov], cn = 0;
    for (int x = e->src;; x = from[x]) {
      c[cn++] = x;
      if (x == e->dst) break;
    }
    for (int a = 0, b = cn - 1; a < b; a++, b--) {
      int tmp = c[a];
      c[a] = c[b], c[b] = tmp;
    }
    int seen = 0;
    for (int q = 0; q < ncov && !seen; q++) {
      seen = at[q + 1] - at[q] == cn;
      for (int r = 0; seen && r < cn; r++) seen = ops[at[q] + r] == c[r];
    }
    if (!seen) at[ncov + 1] = at[ncov] + cn, ncov++;
  }
  free(from), free(order);
  *ops_out = ops, *at_out = at, *n_out = ncov;
  return 0;
}
