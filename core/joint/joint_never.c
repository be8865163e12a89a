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
 *   I' = L' + U.
 * Claim: if the joint problem on G' at (I', L') is unsatisfiable, G has no
 * joint schedule at any I and any L.
 *
 * Why.  Take a legal schedule (t, w) of G at some I and L.
 *  1. Dropping the loop-carried edges only drops constraints (their
 *     dependences, cross-warp delays and blocking waits) and shortens
 *     lifetimes (a value no longer waits for a later iteration's user), so
 *     (t, w) is legal for G' at (I, L).
 *  2. Look at one iteration alone, with nothing wrapped modulo I: in every
 *     cycle its unit use, live registers per warp, live memory and running
 *     ops are a part of what the steady state has in that cycle's slot, so
 *     (t, w) is legal for a single iteration of G'.
 *  3. In G' every edge goes forward (lat >= 0).  Call v in flight over
 *     [t(v), t(v) + w(v)).  If some cycle tau before the last start has no
 *     op in flight, move every op that starts after tau one cycle earlier.
 *     Every dependence, cross-warp delay, blocking window, unit window and
 *     lifetime either keeps its length or loses one cycle in which nothing
 *     of the other side was in flight, so per-cycle counts only fall and
 *     the single iteration stays legal.  When no such cycle is left, the
 *     windows cover [0, last start), so every op ends by sum_v w(v) = L'.
 *  4. At I' = L' + U, with every op issued in [0, L'), no use window,
 *     lifetime or op wraps past I': the encoding at (I', L') is exactly the
 *     single-iteration problem of step 3.
 * So a legal schedule of G at any (I, L) yields one of G' at (I', L').
 *
 * Relations over warps (same, apart, own) constrain the warp assignment
 * alone and are kept; "lead" speaks of the next iteration, is meaningless
 * in one iteration, and is dropped (dropping a constraint keeps this a
 * relaxation).  The checker (core/check/cert_solve.c) rebuilds G', I' and L'
 * from the kernel, so a certificate cannot choose them. */
#include <stdlib.h>

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
