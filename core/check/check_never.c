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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the packing rule ------------------------------------------------------
 * "never-pack X" (the solver's side and the argument: core/joint/
 * joint_never.c).  Stated again here: an op is packable when it is
 * warpgroup-issued on one group, not variable-latency, with registers.  At
 * the slot t(x) mod I of any legal schedule, x holds a copy, every op v
 * holds k(v) (its floor), and every cover holds a copy of one of its ops;
 * the packable ones among these, counted once each (x; the floors of the
 * other packable ops; the covers, in order, whose ops are all packable,
 * floorless, not x and in no cover counted before, at their least
 * registers), sit each on one whole warpgroup, not group 0 when the kernel
 * has a variable-latency op.  A vector of per-group sums fits when every
 * group gets a budget: the least r_g >= its sum in {LO, LO + STEP, ...}
 * (R itself without setmaxnreg) with r_g <= R, and with setmaxnreg sum_g
 * 32*WG*r_g <= regs_per_sm.  Sums only grow as demands are added and the
 * least budget grows with the sum, so a vector that does not fit has no
 * fitting extension.  The checker keeps the set of fitting vectors reached
 * after each demand (each demand added to each group in turn), sorted
 * within a vector (the groups a demand may take have the same budgets, so
 * the order of their sums does not matter), and accepts only when the set
 * runs empty. */

#define PACK_GROUPS 8          /* warpgroups a demand may take, at most */
#define PACK_STATES (1 << 16)  /* fitting vectors kept, at most (4 MiB each way) */

typedef struct sums {
  long g[PACK_GROUPS];
} sums;

static int warpgroup_op(const twill_op *o) {
  return o->issue == TWILL_ISSUE_WARPGROUP && o->groups <= 1 && !o->varlat && o->regs > 0;
}

/* copies * regs, or cap when that is more (no overflow on any kernel) */
static long demand(long copies, long regs, long cap) {
  return regs > cap / copies ? cap : copies * regs;
}

/* the budget a group needs for a per-thread sum s, or -1 when none fits */
static long budget_for(const twill_joint_params *p, long s) {
  if (s > p->regs) return -1;
  long r = p->regs;
  if (p->reg_step > 0) {
    r = p->reg_lo;
    while (r < s) r += p->reg_step; /* s <= R: at most R / STEP steps */
  }
  return r <= p->regs ? r : -1;
}

/* Does the vector fit?  nb groups take demands; ng - nb more (group 0 with
 * W_vl) hold none of them and need the least budget. */
static int fits(const twill_joint_params *p, const sums *v, int nb, int ng) {
  long file = (long)(ng - nb) * budget_for(p, 0);
  for (int i = 0; i < nb; i++) {
    long b = budget_for(p, v->g[i]);
    if (b < 0) return 0;
    file += b;
  }
  return p->reg_step <= 0 || 32L * p->warpgroup * file <= p->regs_per_sm;
}

static int cmp_sums(const void *a, const void *b) {
  const sums *x = a, *y = b;
  for (int i = 0; i < PACK_GROUPS; i++)
    if (x->g[i] != y->g[i]) return x->g[i] < y->g[i] ? -1 : 1;
  return 0;
}

/* The demands of x (see above) into dem (room for g->nops + ncov); their
 * count, or -1 out of memory. */
static int demands(const twill_graph *g, const twill_joint_params *p, const int *k,
                   const int *cov, const int *cov_at, int ncov, int x, long *dem) {
  long cap = p->regs + 1; /* a demand over R fits nowhere: R + 1 says as much */
  int nd = 0;
  dem[nd++] = demand(k[x] > 1 ? k[x] : 1, g->ops[x].regs, cap);
  for (int v = 0; v < g->nops; v++)
    if (v != x && k[v] >= 1 && warpgroup_op(&g->ops[v])) dem[nd++] = demand(k[v], g->ops[v].regs, cap);
  char *used = calloc((size_t)(g->nops > 0 ? g->nops : 1), 1);
  if (!used) return -1;
  for (int c = 0; c < ncov; c++) {
    int fine = 1;
    long least = -1;
    for (int i = cov_at[c]; i < cov_at[c + 1]; i++) {
      const int v = cov[i];
      if (v == x || used[v] || k[v] != 0 || !warpgroup_op(&g->ops[v])) fine = 0;
      if (least < 0 || g->ops[v].regs < least) least = g->ops[v].regs;
    }
    if (!fine) continue;
    for (int i = cov_at[c]; i < cov_at[c + 1]; i++) used[cov[i]] = 1;
    dem[nd++] = demand(1, least, cap);
  }
  free(used);
  return nd;
}

int twill_never_check_pack(const twill_graph *g, const twill_joint_params *p, const int *k,
                           const int *cov, const int *cov_at, int ncov, int x, char *why,
                           size_t whylen) {
  if (x < 0 || x >= g->nops || !warpgroup_op(&g->ops[x])) {
    snprintf(why, whylen, "the op is not a warpgroup op on one group that holds registers");
    return -1;
  }
  int ng = p->warpgroup > 0 ? p->warps / p->warpgroup : 0, nb = ng;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].varlat) nb = ng - 1; /* group 0 holds W_vl */
  if (nb <= 0) return 0;               /* x itself has nowhere to run */
  if (nb > PACK_GROUPS) {
    snprintf(why, whylen, "more than %d warpgroups to check", PACK_GROUPS);
    return -1;
  }
  long *dem = malloc(((size_t)g->nops + (size_t)ncov + 1) * sizeof *dem);
  sums *cur = malloc(PACK_STATES * sizeof *cur), *next = malloc(PACK_STATES * sizeof *next);
  int nd = dem ? demands(g, p, k, cov, cov_at, ncov, x, dem) : -1, rc = -1;
  size_t n = 1;
  if (nd < 0 || !cur || !next) {
    snprintf(why, whylen, "out of memory");
    goto out;
  }
  memset(&cur[0], 0, sizeof cur[0]);
  for (int d = 0; d < nd && n > 0; d++) {
    size_t m = 0;
    for (size_t s = 0; s < n; s++)
      for (int i = 0; i < nb; i++) {
        sums v = cur[s];
        v.g[i] += dem[d];
        /* sorted, largest first, over the nb groups; zeros beyond */
        for (int j = i; j > 0 && v.g[j] > v.g[j - 1]; j--) {
          long t = v.g[j];
          v.g[j] = v.g[j - 1], v.g[j - 1] = t;
        }
        if (!fits(p, &v, nb, ng)) continue;
        if (m == PACK_STATES) {
          snprintf(why, whylen, "more than %d fitting assignments to check", PACK_STATES);
          goto out;
        }
        next[m++] = v;
      }
    qsort(next, m, sizeof *next, cmp_sums);
    n = 0;
    for (size_t s = 0; s < m; s++)
      if (n == 0 || cmp_sums(&next[s], &cur[n - 1])) cur[n++] = next[s];
  }
  if (n > 0)
    snprintf(why, whylen, "the %d register demands fit the warpgroups' budgets", nd);
  else
    rc = 0;
out:
  free(dem), free(cur), free(next);
  return rc;
}
