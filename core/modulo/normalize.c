/* core/modulo/normalize.c: the cost-normalization program (twill/normalize.h). */
#include "twill/normalize.h"

#include <limits.h>
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
  twill_graph *h = twill_normalize_apply(g, nm, NULL, 0);
  if (!h) twill_norm_clear(nm);
  return h;
}

/* The value of a positive cost under nm, or -1 with why. */
static long mapped(const twill_norm *nm, long cost, const char *what,
                   const char *name, char *why, size_t whylen) {
  long x = twill_norm_map(nm, cost);
  if (x < 0 && why)
    snprintf(why, whylen, "the normalization gives no value for cost %ld (%s "
             "of '%s')", cost, what, name);
  return x;
}

twill_graph *twill_normalize_apply(const twill_graph *g, const twill_norm *nm,
                                   char *why, size_t whylen) {
  twill_graph *h = twill_graph_clone(g);
  if (!h) {
    if (why) snprintf(why, whylen, "out of memory");
    return NULL;
  }
  for (int v = 0; v < h->nops; v++) {
    twill_op *o = &h->ops[v];
    long lat = mapped(nm, o->lat, "latency", o->name, why, whylen);
    long sp = o->spill > 0 ? mapped(nm, o->spill, "spill", o->name, why, whylen)
                           : o->spill;
    if (lat < 0 || (o->spill > 0 && sp < 0)) goto bad;
    o->lat = lat;
    o->spill = sp;
    for (int k = 0; k < o->nuses; k++) {
      long off = mapped(nm, o->uses[k].offset, "a use's offset", o->name, why, whylen);
      long len = mapped(nm, o->uses[k].cycles, "a use's length", o->name, why, whylen);
      if (off < 0 || len < 0) goto bad;
      o->uses[k].offset = (int)off;
      /* a unit stays busy at least one cycle, even when its length
       * normalizes to 0 beside far larger costs */
      o->uses[k].cycles = (int)(len > 0 ? len : 1);
    }
  }
  for (int i = 0; i < h->nedges; i++) {
    twill_edge *e = &h->edges[i];
    long lat = mapped(nm, e->lat, "edge latency", h->ops[e->src].name, why, whylen);
    if (lat < 0) goto bad;
    e->lat = lat;
  }
  return h;
bad:
  twill_graph_free(h);
  return NULL;
}

bool twill_op_pays_cross_warp(const twill_op *o) {
  return o->spill < 0 && o->regs > 0;
}

twill_graph *twill_graph_with_cross_warp(const twill_graph *g, long cross_warp) {
  twill_graph *c = twill_graph_clone(g);
  if (!c) return NULL;
  for (int v = 0; v < c->nops; v++)
    if (twill_op_pays_cross_warp(&c->ops[v])) c->ops[v].spill = cross_warp;
  return c;
}

twill_graph *twill_normalize_kernel(const twill_graph *g, long cross_warp,
                                    long U, double time_limit, twill_norm *nm) {
  memset(nm, 0, sizeof *nm);
  twill_graph *c = twill_graph_with_cross_warp(g, cross_warp);
  if (!c || U <= 0) return c;
  twill_graph *n = twill_normalize_graph(c, U, time_limit, nm);
  twill_graph_free(c);
  return n;
}

twill_graph *twill_normalize_kernel_apply(const twill_graph *g, long cross_warp,
                                          const twill_norm *nm, char *why,
                                          size_t whylen) {
  twill_graph *c = twill_graph_with_cross_warp(g, cross_warp);
  if (!c) {
    if (why) snprintf(why, whylen, "out of memory");
    return NULL;
  }
  if (!nm || nm->n == 0) return c;
  twill_graph *n = twill_normalize_apply(c, nm, why, whylen);
  twill_graph_free(c);
  return n;
}

int twill_norm_from_pairs(const long *cost, const long *scaled, int n, long U,
                          long F, twill_norm *out, char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  if (n < 1) {
    snprintf(why, whylen, "a normalization needs at least one cost");
    return -1;
  }
  out->cost = malloc((size_t)n * sizeof *out->cost);
  out->scaled = malloc((size_t)n * sizeof *out->scaled);
  if (!out->cost || !out->scaled) {
    twill_norm_clear(out);
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  /* by cost, the order twill_norm_map's binary search needs (a file may
   * list thousands: no quadratic sort) */
  long *pair = malloc(2 * (size_t)n * sizeof *pair);
  if (!pair) {
    twill_norm_clear(out);
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  for (int i = 0; i < n; i++) pair[2 * i] = cost[i], pair[2 * i + 1] = scaled[i];
  qsort(pair, (size_t)n, 2 * sizeof *pair, cmp_long); /* first of each pair */
  for (int i = 0; i < n; i++) out->cost[i] = pair[2 * i], out->scaled[i] = pair[2 * i + 1];
  free(pair);
  out->n = n;
  out->U = U;
  out->F = F;
  for (int i = 0; i < n; i++) {
    if (out->cost[i] <= 0 || out->scaled[i] < 0 ||
        (i > 0 && out->cost[i] == out->cost[i - 1])) {
      snprintf(why, whylen, i > 0 && out->cost[i] == out->cost[i - 1]
                                ? "cost %ld appears twice"
                                : "cost %ld: costs must be positive and their "
                                  "values non-negative", out->cost[i]);
      twill_norm_clear(out);
      return -1;
    }
    out->sum += out->scaled[i];
  }
  if (out->sum == 0) {
    snprintf(why, whylen, "every cost normalizes to 0");
    twill_norm_clear(out);
    return -1;
  }
  return 0;
}

static long gcd(long a, long b) {
  while (b) {
    long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

void twill_norm_scale(const twill_norm *nm, long *num, long *den) {
  *num = *den = 1;
  if (!nm) return;
  /* the program never maps the largest cost to 0 at its optimum (mapping
   * it to 1 and the rest to 0 has a smaller error); a limit-stopped one
   * might, hence the search for the largest positive value */
  for (int i = nm->n - 1; i >= 0; i--)
    if (nm->scaled[i] > 0) {
      long d = gcd(nm->cost[i], nm->scaled[i]);
      *num = nm->cost[i] / d;
      *den = nm->scaled[i] / d;
      return;
    }
}

long twill_norm_real(long t, long num, long den) {
  if (t <= 0 || num <= 0 || den <= 0) return t;
  /* t*num/den = q*num + r*a + r*b/den with t = q*den + r, num = a*den + b:
   * every product stays below 2^63 for den < 2^31 (den is a normalized
   * value, at most the budget), and only the last term is rounded */
  if (den >= 2147483648L)
    return (long)((long double)t * (long double)num / (long double)den + 0.5L);
  long q = t / den, r = t % den, a = num / den, b = num % den;
  if (q >= LONG_MAX / num) return LONG_MAX;
  long x = q * num + r * a; /* q*num <= LONG_MAX - num and r*a < num */
  long part = (2 * r * b + den) / (2 * den);
  return x > LONG_MAX - part ? LONG_MAX : x + part;
}
