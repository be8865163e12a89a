/* core/modulo/normalize.c: the cost-normalization program (twill/normalize.h). */
#include "twill/normalize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/ilp.h"

void twill_norm_clear(twill_norm *nm) {
  free(nm->cost);
  free(nm->scaled);
  free(nm->vipr);
  memset(nm, 0, sizeof *nm);
}

long twill_norm_map(const twill_norm *nm, long cost) {
  if (cost == 0) return 0;
  int lo = 0, hi = nm->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (nm->cost[mid] == cost) return nm->scaled[mid];
    if (nm->cost[mid] < cost) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

int twill_normalize_costs(const long *costs, int n, long U, double time_limit,
                          twill_norm *out) {
  memset(out, 0, sizeof *out);
  out->U = U;
  out->cost = malloc((size_t)(n > 0 ? n : 1) * sizeof *out->cost);
  out->scaled = malloc((size_t)(n > 0 ? n : 1) * sizeof *out->scaled);
  if (!out->cost || !out->scaled) goto fail;
  memcpy(out->cost, costs, (size_t)n * sizeof *costs);
  qsort(out->cost, (size_t)n, sizeof *out->cost, cmp_long);
  int k = 0; /* distinct, positive */
  for (int i = 0; i < n; i++)
    if (out->cost[i] > 0 && (k == 0 || out->cost[k - 1] != out->cost[i]))
      out->cost[k++] = out->cost[i];
  out->n = k;
  if (k == 0) return 0;
  if (U < k) goto fail;
  if (k == 1) { /* a single cost normalizes to 1 exactly */
    out->scaled[0] = 1;
    out->sum = 1;
    return 0;
  }
  twill_ilp *m = twill_ilp_new();
  if (!m) goto fail;
  char name[32];
  for (int i = 0; i < k; i++) {
    snprintf(name, sizeof name, "c%d", i);
    twill_ilp_add_var(m, name, TWILL_ILP_INTEGER, 0, (double)U, 1);
  }
  int F = twill_ilp_add_var(m, "F", TWILL_ILP_INTEGER, 0, TWILL_ILP_INF,
                            (double)(U + 1));
  int idx[3];
  double val[3];
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++) {
      /* C[i]*C'[j] - C[j]*C'[i] - F <= 0  and  ... + F >= 0 */
      idx[0] = j, val[0] = (double)out->cost[i];
      idx[1] = i, val[1] = -(double)out->cost[j];
      idx[2] = F, val[2] = -1;
      twill_ilp_add_row(m, NULL, 3, idx, val, 'L', 0, 0);
      val[2] = 1;
      twill_ilp_add_row(m, NULL, 3, idx, val, 'G', 0, 0);
    }
  size_t nk = k > 0 ? (size_t)k : 1;
  int *all = malloc(nk * sizeof *all);
  double *ones = malloc(nk * sizeof *ones);
  if (!all || !ones) {
    free(all);
    free(ones);
    twill_ilp_free(m);
    goto fail;
  }
  for (int i = 0; i < k; i++) all[i] = i, ones[i] = 1;
  twill_ilp_add_row(m, "budget", k, all, ones, 'R', 1, (double)(U - 1));
  free(all);
  free(ones);
  if (time_limit > 0) twill_ilp_set_time_limit(m, time_limit);
  /* a certificate's checker verifies the mapping's optimality from this
   * proof instead of solving (core/check/check_norm.c) */
  twill_ilp_set_certify(m, 1);
  twill_ilp_status st = twill_ilp_solve(m);
  int rc = st == TWILL_ILP_OPTIMAL ? 0 : 1;
  if (rc == 0) {
    FILE *f = open_memstream(&out->vipr, &out->vipr_len);
    int bad = !f || twill_ilp_write_vipr(m, f);
    if (f) fclose(f);
    if (bad) {
      free(out->vipr);
      out->vipr = NULL;
      out->vipr_len = 0;
    }
  }
  if (!twill_ilp_has_solution(m)) {
    twill_ilp_free(m);
    goto fail;
  }
  out->sum = 0;
  for (int i = 0; i < k; i++) {
    out->scaled[i] = lround(twill_ilp_value(m, i));
    out->sum += out->scaled[i];
  }
  out->F = lround(twill_ilp_value(m, F));
  twill_ilp_free(m);
  return rc;
fail:
  twill_norm_clear(out);
  return -1;
}

static int push(long **a, int *n, int *cap, long v) {
  if (v <= 0) return 0;
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 32;
    long *p = realloc(*a, (size_t)nc * sizeof *p);
    if (!p) return -1;
    *a = p;
    *cap = nc;
  }
  (*a)[(*n)++] = v;
  return 0;
}

twill_graph *twill_normalize_graph(const twill_graph *g, long U,
                                   double time_limit, twill_norm *nm) {
  long *c = NULL;
  int n = 0, cap = 0, bad = 0;
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    bad |= push(&c, &n, &cap, o->lat) | push(&c, &n, &cap, o->spill);
    for (int k = 0; k < o->nuses; k++)
      bad |= push(&c, &n, &cap, o->uses[k].offset) |
             push(&c, &n, &cap, o->uses[k].cycles);
  }
  for (int i = 0; i < g->nedges; i++) bad |= push(&c, &n, &cap, g->edges[i].lat);
  if (bad || twill_normalize_costs(c, n, U, time_limit, nm) < 0) {
    free(c);
    return NULL;
  }
  free(c);
  twill_graph *h = twill_graph_clone(g);
  if (!h) {
    twill_norm_clear(nm);
    return NULL;
  }
  for (int v = 0; v < h->nops; v++) {
    twill_op *o = &h->ops[v];
    o->lat = twill_norm_map(nm, o->lat);
    if (o->spill > 0) o->spill = twill_norm_map(nm, o->spill);
    for (int k = 0; k < o->nuses; k++) {
      o->uses[k].offset = (int)twill_norm_map(nm, o->uses[k].offset);
      /* a unit stays busy at least one cycle, even when its length
       * normalizes to 0 beside far larger costs */
      long len = twill_norm_map(nm, o->uses[k].cycles);
      o->uses[k].cycles = (int)(len > 0 ? len : 1);
    }
  }
  for (int i = 0; i < h->nedges; i++)
    h->edges[i].lat = twill_norm_map(nm, h->edges[i].lat);
  return h;
}
