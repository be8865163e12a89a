/* ilp/cert/tree.c: the walk of the branch-and-bound tree in the
 * certificate: each branching an `asm` pair, each node's propagated bounds
 * derived before its subtree, each leaf closed (leaf.c), each inner node
 * the `uns` of its children (writer.h). */
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

static int walk(W *w, int v, dec *beta, int *absurd);

/* walk() at a node with propagated bounds: derive them in order (they
 * hold in the node's whole subtree), then restore the bounds after. */
static int walk_node(W *w, int v, dec *beta, int *absurd) {
  const bb_rec *r = &w->m->rec[v];
  if (!r->nprop && r->crow < 0) return walk(w, v, beta, absurd);
  int np = r->nprop, ret = -1;
  int *sidx = malloc(((size_t)np + 1) * sizeof(int));
  double *sval = malloc(((size_t)np + 1) * sizeof(double));
  if (!sidx || !sval) { free(sidx); free(sval); w->fail = 1; return -1; }
  int k = 0, *fixd = NULL;
  for (; k < np; k++) {
    const bb_prop *p = &r->prop[k];
    int j = p->var, d;
    if (p->row >= 0) {
      d = twill_vw_derive_bound(w, p->row, p->side, j, p->up, p->val, 1);
    } else {
      /* the reduced-cost fixings: the node's last entries, derived
       * together from the bounds before them */
      if (!fixd) {
        int nseg = 0;
        while (k + nseg < np && r->prop[k + nseg].row < 0) nseg++;
        fixd = malloc((size_t)np * sizeof(int));
        if (!fixd || twill_vw_derive_rcfix(w, r->y, p, nseg, fixd + k) < 0) { w->fail = 1; break; }
        for (int t = k + nseg; t < np; t++) fixd[t] = -1; /* (rcfix.c appends them last) */
      }
      d = fixd[k];
    }
    if (d < 0) { w->fail = 1; break; }
    sidx[k] = p->up ? w->uidx[j] : w->lidx[j];
    sval[k] = p->up ? w->curu[j] : w->curl[j];
    if (p->up) { w->uidx[j] = d; w->curu[j] = p->val; }
    else { w->lidx[j] = d; w->curl[j] = p->val; }
  }
  if (!w->fail) {
    if (r->crow >= 0) {
      ret = twill_vw_derive_conflict(w, r->crow, r->cside, beta);
      if (ret < 0) w->fail = 1;
      *absurd = 1;
    } else {
      ret = walk(w, v, beta, absurd);
    }
  }
  while (k-- > 0) {
    const bb_prop *p = &r->prop[k];
    if (p->up) { w->uidx[p->var] = sidx[k]; w->curu[p->var] = sval[k]; }
    else { w->lidx[p->var] = sidx[k]; w->curl[p->var] = sval[k]; }
  }
  free(sidx);
  free(sval);
  free(fixd);
  return w->fail ? -1 : ret;
}

static int asm_line(W *w, int var, int dir, double val) {
  int idx = w->base + w->nder++;
  dec v;
  twill_dec_from(&w->overflow, &v, val);
  fprintf(w->out, "A%d %s ", idx, dir ? "G" : "L");
  twill_dec_print(w->out, &v);
  fprintf(w->out, " 1 %d 1 { asm } -1\n", var);
  return idx;
}

static int walk(W *w, int v, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  const bb_rec *r = &m->rec[v];
  if (w->fail) return -1;
  if (r->child[0] < 0 && r->child[1] < 0) {
    if (r->proof < 0 || !m->rec[r->proof].y) { w->fail = 1; return -1; }
    /* (an overflow in the float multipliers' combination counts only
     * when nothing replaces it) */
    int before = w->overflow;
    int d = twill_vw_leaf(w, m->rec[r->proof].y, m->rec[r->proof].farkas, beta, absurd);
    if (d < 0 && r->proof == 0 && m->root_basis && !m->rec[0].farkas) {
      /* the root's own LP: its basis gives exact duals, a combination of
       * their own */
      w->overflow = before;
      w->fail = 0;
      d = twill_vw_leaf_exact(w, beta, absurd);
      if (d < 0) w->fail = 1;
    }
    return d;
  }
  if (r->child[0] < 0 || r->child[1] < 0) { w->fail = 1; return -1; }
  int d[2], a[2], ab[2];
  dec bt[2];
  for (int k = 0; k < 2; k++) {
    const bb_rec *c = &m->rec[r->child[k]];
    int j = c->var;
    int sl = w->lidx[j], su = w->uidx[j];
    double sl_v = w->curl[j], su_v = w->curu[j];
    a[k] = asm_line(w, j, c->dir, c->val);
    if (c->dir) { w->lidx[j] = a[k]; w->curl[j] = c->val; }
    else { w->uidx[j] = a[k]; w->curu[j] = c->val; }
    d[k] = walk_node(w, r->child[k], &bt[k], &ab[k]);
    w->lidx[j] = sl; w->uidx[j] = su;
    w->curl[j] = sl_v; w->curu[j] = su_v;
    if (w->fail) return -1;
  }
  int idx = w->base + w->nder++;
  if (ab[0] && ab[1]) {
    *absurd = 1;
    *beta = twill_dec_cmp(&w->overflow, &bt[0], &bt[1]) <= 0 ? bt[0] : bt[1];
    fprintf(w->out, "D%d G ", idx);
    twill_dec_print(w->out, beta);
    fprintf(w->out, " 0");
  } else {
    *absurd = 0;
    if (ab[0]) *beta = bt[1];
    else if (ab[1]) *beta = bt[0];
    else *beta = twill_dec_cmp(&w->overflow, &bt[0], &bt[1]) <= 0 ? bt[0] : bt[1];
    dec shown = *beta;
    if (w->s < 0) dneg(&shown);
    fprintf(w->out, "D%d %s ", idx, w->s < 0 ? "L" : "G");
    twill_dec_print(w->out, &shown);
    fprintf(w->out, " OBJ");
  }
  fprintf(w->out, " { uns %d %d  %d %d } -1\n", d[0], a[0], d[1], a[1]);
  return idx;
}

/* The tree walk recurses once per level, a few KB a level (dec values on
 * the stack): a dive 3800 deep (mitre) overflows the default 8 MB stack.
 * So it runs on a thread whose stack is sized by the tree's depth. */
typedef struct walk_job {
  W *w;
  dec *beta;
  int *absurd, last;
} walk_job;

static void *walk_main(void *p) {
  walk_job *j = p;
  j->last = walk_node(j->w, 0, j->beta, j->absurd);
  return NULL;
}

int twill_vw_walk_tree(W *w, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  int *depth = malloc(((size_t)m->nrec + 1) * sizeof(int)), maxd = 0;
  if (!depth) { w->fail = 1; return -1; }
  for (int v = 0; v < m->nrec; v++) { /* a parent comes before its children */
    int p = m->rec[v].parent;
    depth[v] = p >= 0 && p < v ? depth[p] + 1 : 0;
    if (depth[v] > maxd) maxd = depth[v];
  }
  free(depth);
  walk_job job = {w, beta, absurd, -1};
  pthread_attr_t at;
  pthread_t th;
  size_t stack = ((size_t)maxd + 64) * 32768;
  if (pthread_attr_init(&at) != 0) { w->fail = 1; return -1; }
  int ok = pthread_attr_setstacksize(&at, stack) == 0 && pthread_create(&th, &at, walk_main, &job) == 0;
  pthread_attr_destroy(&at);
  if (!ok) { w->fail = 1; return -1; }
  pthread_join(th, NULL);
  return job.last;
}
