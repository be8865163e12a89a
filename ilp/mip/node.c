/* ilp/mip/node.c: the nodes of the search, its open list, and the tree
 * records a certificate is built from (model.h's bb_rec). */
#include <assert.h>
#include <stdlib.h>

#include "search.h"

void twill_bb_node_free(node *nd) {
  if (!nd) return;
  free(nd->cvar); free(nd->clb); free(nd->cub); free(nd->basis);
  free(nd);
}

/* The tree record of a new node (model.h): its parent, the branching
 * x_var <= val (dir 0) or >= val (dir 1); the root has var -1. */
int twill_bb_add_rec(twill_ilp *m, int parent, int var, int dir, double val) {
  if (m->nrec == m->reccap) {
    int nc = m->reccap ? 2 * m->reccap : 64;
    bb_rec *r = realloc(m->rec, (size_t)nc * sizeof *r);
    if (!r) return -1;
    m->rec = r;
    m->reccap = nc;
  }
  bb_rec *r = &m->rec[m->nrec];
  r->parent = parent;
  r->var = var;
  r->dir = dir;
  r->val = val;
  r->child[0] = r->child[1] = -1;
  r->proof = -1;
  r->farkas = 0;
  r->y = NULL;
  r->nprop = 0;
  r->prop = NULL;
  r->crow = -1;
  r->cside = 0;
  if (parent >= 0) m->rec[parent].child[dir] = m->nrec;
  return m->nrec++;
}

/* Append the bounds [l, u] of x_j to the node's changes. */
int twill_bb_push_change(node *nd, int j, double l, double u) {
  int *cv = realloc(nd->cvar, (size_t)(nd->nchg + 1) * sizeof(int));
  if (!cv) return 0;
  nd->cvar = cv;
  double *cl = realloc(nd->clb, (size_t)(nd->nchg + 1) * sizeof(double));
  if (!cl) return 0;
  nd->clb = cl;
  double *cu = realloc(nd->cub, (size_t)(nd->nchg + 1) * sizeof(double));
  if (!cu) return 0;
  nd->cub = cu;
  nd->cvar[nd->nchg] = j;
  nd->clb[nd->nchg] = l;
  nd->cub[nd->nchg++] = u;
  return 1;
}

/* The open list: a binary heap, best first: smallest bound, then the
 * smallest estimate (see est), then deeper, then older (a total order, so the search is deterministic). */
static int node_before(const node *a, const node *b) {
  if (a->bound != b->bound) return a->bound < b->bound;
  if (a->est != b->est) return a->est < b->est;
  if (a->depth != b->depth) return a->depth > b->depth;
  return a->rec < b->rec;
}

/* The heap order holds around position i: no child of i comes before it,
 * and it does not come before its parent (after a push or a pop, at the
 * position the moved node settled; for the assertions of debug builds). */
#ifndef NDEBUG
static int heap_ok_at(node *const *h, int n, int i) {
  int c = 2 * i + 1;
  if (i > 0 && node_before(h[i], h[(i - 1) / 2])) return 0;
  if (c < n && node_before(h[c], h[i])) return 0;
  if (c + 1 < n && node_before(h[c + 1], h[i])) return 0;
  return 1;
}
#endif

void twill_bb_heap_push(node **h, int *n, node *x) {
  int i = (*n)++;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (!node_before(x, h[p])) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = x;
  assert(heap_ok_at(h, *n, i));
}

node *twill_bb_heap_pop(node **h, int *n) {
  assert(*n > 0);
  node *top = h[0], *x = h[--*n];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && node_before(h[c + 1], h[c])) c++;
    if (!node_before(h[c], x)) break;
    h[i] = h[c];
    i = c;
  }
  if (*n > 0) h[i] = x;
  assert(*n == 0 || (heap_ok_at(h, *n, i) && !node_before(h[0], top)));
  return top;
}

