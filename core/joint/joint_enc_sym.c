/* core/joint/joint_enc_sym.c: isomorphic sub-tiles of a kernel, and the
 * lex-leader order that breaks their symmetry (twill/joint.h, "sub-tile
 * symmetry").
 *
 * Why.  A kernel that splits a tile into k sub-tiles has k! schedules for
 * every essentially different one: renaming sub-tile a into b and back maps
 * legal joint schedules to legal joint schedules.  A refutation (no
 * schedule at (I, L)) must then rule out every ordering of the sub-tiles on
 * the tensor cores separately.  Requiring the first op of the sub-tiles to
 * start in order, t(r_1) <= t(r_2) <= ... <= t(r_m), keeps one schedule of
 * every orbit: any schedule sorted by the sub-tile permutation that orders
 * those times is legal, and its times satisfy the chain.
 *
 * Which sub-tiles (the rule, which core/check/check_joint.c states again in
 * its own code and which twill/joint.h states in words):
 *   sig(v)     everything the model reads of op v: lat, uses (in order),
 *              regs, smem, tmem, spill, issue, groups, varlat, and k_min(v)
 *              when p->min_live is set;
 *   shared     op v is shared when two different ops adjacent to v (by an
 *              edge in either direction, self edges aside) have the same
 *              sig (loadK feeding S_0 and S_1; the release every mma feeds);
 *   sub-tiles  the connected components of the ops that are not shared
 *              (edges between two such ops), in order of their least op
 *              index, each listed in op index order;
 *   twins      components A and B of equal size are twins when sigma, the
 *              involution swapping A[i] and B[i] for every i and fixing
 *              every other op, is an automorphism of the kernel: sig(v) =
 *              sig(sigma v) for every op, and the edges map onto the edges
 *              (same lat, dist and blocking, with multiplicity), and with
 *              covers every cover's op list, mapped op by op, is a cover's;
 *   classes    each component, in order, joins the first class whose first
 *              component it is a twin of, else starts a class;
 *   order      per class (in order of creation) with members C_1 .. C_m:
 *              t(C_i[0]) <= t(C_{i+1}[0]).
 * The transpositions (C_1 C_i) generate every permutation of the class
 * (twins of C_1 and of each other: (C_i C_j) = (C_1 C_i)(C_1 C_j)(C_1 C_i)),
 * so the sorting permutation is a symmetry.  Relations (--same, --lead ...)
 * name ops, so with relations no order is imposed.  Covers (the "no I at
 * all" relaxation's) name ops too: with covers, twins must also map every
 * cover, op by op in its order, onto a cover.  It composes with the
 * warp symmetry breaking: a warp renaming leaves every start time alone.
 */
#include <stdlib.h>
#include <string.h>

#include "twill/joint.h"

static int same_sig(const twill_graph *g, const twill_joint_params *p, int a, int b) {
  const twill_op *x = &g->ops[a], *y = &g->ops[b];
  if (x->lat != y->lat || x->regs != y->regs || x->smem != y->smem || x->tmem != y->tmem ||
      x->spill != y->spill || x->issue != y->issue || x->groups != y->groups ||
      x->varlat != y->varlat || x->nuses != y->nuses)
    return 0;
  for (int k = 0; k < x->nuses; k++) {
    const twill_use *u = &x->uses[k], *w = &y->uses[k];
    if (u->unit != w->unit || u->offset != w->offset || u->cycles != w->cycles ||
        u->count != w->count)
      return 0;
  }
  return !p->min_live || p->min_live[a] == p->min_live[b];
}

static int edge_count(const twill_graph *g, int s, int d, const twill_edge *like) {
  int n = 0;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    n += e->src == s && e->dst == d && e->lat == like->lat && e->dist == like->dist &&
         e->blocking == like->blocking;
  }
  return n;
}

/* The cover whose op list is cover c's mapped op by op through sig, or -1. */
int twill_joint_cover_image(const twill_joint_params *p, const int *sig, int c) {
  int n = p->cover_at[c + 1] - p->cover_at[c];
  for (int d = 0; d < p->ncovers; d++) {
    if (p->cover_at[d + 1] - p->cover_at[d] != n) continue;
    int i = 0;
    while (i < n && p->cover_ops[p->cover_at[d] + i] == sig[p->cover_ops[p->cover_at[c] + i]]) i++;
    if (i == n) return d;
  }
  return -1;
}

/* Is the involution sig (sig[v] = image of v) an automorphism of g, and
 * with covers, of the covers too (each one's image a cover)? */
static int automorphism(const twill_graph *g, const twill_joint_params *p, const int *sig) {
  for (int v = 0; v < g->nops; v++)
    if (!same_sig(g, p, v, sig[v])) return 0;
  for (int c = 0; c < p->ncovers; c++)
    if (twill_joint_cover_image(p, sig, c) < 0) return 0;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (edge_count(g, sig[e->src], sig[e->dst], e) != edge_count(g, e->src, e->dst, e))
      return 0;
  }
  return 1;
}

static int find(int *par, int x) {
  while (par[x] != x) x = par[x] = par[par[x]];
  return x;
}

int twill_joint_subtile_order(const twill_graph *g, const twill_joint_params *p, int *pairs,
                              int max_pairs) {
  int n = g->nops;
  if (p->nrels > 0 || n < 2) return 0;
  size_t sz = (size_t)n;
  char *adj = calloc(sz * sz, 1);
  char *shared = calloc(sz, 1);
  int *par = malloc(sz * sizeof *par), *comp = malloc(sz * sizeof *comp);
  int *first = malloc(sz * sizeof *first), *size = calloc(sz, sizeof *size);
  int *members = malloc(sz * sizeof *members), *start = malloc((sz + 1) * sizeof *start);
  int *cls = malloc(sz * sizeof *cls), *sig = malloc(sz * sizeof *sig);
  int np = -1;
  if (!adj || !shared || !par || !comp || !first || !size || !members || !start || !cls || !sig)
    goto done;
  for (int i = 0; i < g->nedges; i++) {
    int s = g->edges[i].src, d = g->edges[i].dst;
    if (s != d) adj[(size_t)s * sz + (size_t)d] = adj[(size_t)d * sz + (size_t)s] = 1;
  }
  for (int v = 0; v < n; v++)
    for (int a = 0; a < n && !shared[v]; a++)
      for (int b = a + 1; b < n && adj[(size_t)v * sz + (size_t)a]; b++)
        if (adj[(size_t)v * sz + (size_t)b] && same_sig(g, p, a, b)) {
          shared[v] = 1;
          break;
        }
  for (int v = 0; v < n; v++) par[v] = v;
  for (int i = 0; i < g->nedges; i++) {
    int s = g->edges[i].src, d = g->edges[i].dst;
    if (s == d || shared[s] || shared[d]) continue;
    int a = find(par, s), b = find(par, d);
    if (a != b) par[a < b ? b : a] = a < b ? a : b; /* root: least index */
  }
  /* components numbered by their least op (the root), in op order */
  int nc = 0;
  for (int v = 0; v < n; v++) comp[v] = -1;
  for (int v = 0; v < n; v++) {
    if (shared[v]) continue;
    int r = find(par, v);
    if (comp[r] < 0) first[nc] = r, comp[r] = nc++;
    comp[v] = comp[r];
    size[comp[v]]++;
  }
  start[0] = 0;
  for (int c = 0; c < nc; c++) start[c + 1] = start[c] + size[c];
  for (int c = 0; c < nc; c++) size[c] = 0;
  for (int v = 0; v < n; v++)
    if (!shared[v]) members[start[comp[v]] + size[comp[v]]++] = v;
  np = 0;
  for (int c = 0; c < nc; c++) {
    cls[c] = -1;
    for (int d = 0; d < c && cls[c] < 0; d++) {
      if (cls[d] != d || size[d] != size[c]) continue; /* d must start a class */
      for (int v = 0; v < n; v++) sig[v] = v;
      for (int i = 0; i < size[c]; i++) {
        sig[members[start[d] + i]] = members[start[c] + i];
        sig[members[start[c] + i]] = members[start[d] + i];
      }
      if (automorphism(g, p, sig)) cls[c] = d;
    }
    if (cls[c] < 0) cls[c] = c;
  }
  for (int d = 0; d < nc; d++) {
    if (cls[d] != d) continue;
    int prev = d;
    for (int c = d + 1; c < nc; c++) {
      if (cls[c] != d) continue;
      if (np < max_pairs) {
        pairs[2 * np] = first[prev];
        pairs[2 * np + 1] = first[c];
      }
      np++;
      prev = c;
    }
  }
done:
  free(adj), free(shared), free(par), free(comp), free(first), free(size);
  free(members), free(start), free(cls), free(sig);
  return np;
}
