/* core/check/check_norm.c: the cost normalization a certificate states,
 * verified without solving anything (twill/normalize.h gives the program).
 *
 * The checker lists the kernel's distinct positive costs itself (op
 * latencies and spill costs, use offsets and lengths, edge latencies; in a
 * modulo or solve certificate after writing the machine's cross-warp cost into the
 * spill of every op that pays it, as the solver does first).  The
 * certificate gives each cost's normalized value C'.  From them the checker
 * computes F = max |C_i C'_j - C_j C'_i| and the objective (U+1) F + sum C'
 * of that point, checks 0 <= C' <= U and 1 <= sum C' <= U (so the point is
 * feasible), and requires a VIPR proof, on the program it builds itself,
 * that no point does better: the lower bound it proves must reach the
 * point's objective.  The mapping is then an optimal one (the program may
 * have several; the verdict names the one verified).  One cost alone
 * normalizes to 1 (F = 0 and sum 1 is least), two or more need the proof.
 * The normalized graph is then built here: every cost through the
 * mapping, a unit use keeping at least one cycle.
 */
#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 wide;

void twill_cnorm_clear(cnorm *nm) {
  free(nm->cost);
  free(nm->scaled);
  memset(nm, 0, sizeof *nm);
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* The graph the costs are read from: g, and with cross_warp >= 0 the
 * machine's cost in the spill of the ops that pay it by default. */
static twill_graph *with_cross(const twill_graph *g, long cross_warp) {
  twill_graph *c = twill_graph_clone(g);
  if (!c || cross_warp < 0) return c;
  for (int v = 0; v < c->nops; v++)
    if (c->ops[v].spill < 0 && c->ops[v].regs > 0) /* variable-latency too */
      c->ops[v].spill = cross_warp;
  return c;
}

/* distinct positive costs of g, ascending */
static long *costs_of(const twill_graph *g, int *k) {
  size_t cap = 16, n = 0;
  long *c = malloc(cap * sizeof *c);
  if (!c) return NULL;
#define PUSH(x)                                                     \
  do {                                                              \
    long v_ = (x);                                                  \
    if (v_ > 0) {                                                   \
      if (n == cap) {                                               \
        long *t_ = realloc(c, 2 * cap * sizeof *c);                 \
        if (!t_) {                                                  \
          free(c);                                                  \
          return NULL;                                              \
        }                                                           \
        c = t_;                                                     \
        cap *= 2;                                                   \
      }                                                             \
      c[n++] = v_;                                                  \
    }                                                               \
  } while (0)
  for (int v = 0; v < g->nops; v++) {
    PUSH(g->ops[v].lat);
    PUSH(g->ops[v].spill);
    for (int u = 0; u < g->ops[v].nuses; u++) {
      PUSH(g->ops[v].uses[u].offset);
      PUSH(g->ops[v].uses[u].cycles);
    }
  }
  for (int i = 0; i < g->nedges; i++) PUSH(g->edges[i].lat);
#undef PUSH
  qsort(c, n, sizeof *c, cmp_long);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!m || c[m - 1] != c[i]) c[m++] = c[i];
  *k = (int)m;
  return c;
}

static long map(const cnorm *nm, long cost) {
  if (cost <= 0) return 0;
  for (int i = 0; i < nm->n; i++)
    if (nm->cost[i] == cost) return nm->scaled[i];
  return -1;
}

/* The normalization program of twill/normalize.h: c_0 .. c_{k-1}, F. */
static int norm_program(const cnorm *nm, cprog *p) {
  int k = nm->n, F = k;
  long U = nm->budget;
  if (twill_cprog_init(p, k + 1)) return -1;
  for (int i = 0; i < k; i++) twill_cprog_var(p, i, 1, 1, 0, 1, U, 1);
  twill_cprog_var(p, F, 1, 1, 0, 0, 0, U + 1);
  for (int i = 0; i < k; i++)
    for (int j = i + 1; j < k; j++) {
      int var[3] = {j, i, F};
      int64_t a[3] = {nm->cost[i], -nm->cost[j], -1};
      twill_cprog_row(p, 3, var, a, 0, 0, 1, 0); /* C_i c_j - C_j c_i - F <= 0 */
      a[2] = 1;
      twill_cprog_row(p, 3, var, a, 1, 0, 0, 0); /* ... + F >= 0 */
    }
  int *all = malloc(((size_t)k + 1) * sizeof *all);
  int64_t *one = malloc(((size_t)k + 1) * sizeof *one);
  if (!all || !one) p->oom = 1;
  for (int i = 0; i < k && all && one; i++) all[i] = i, one[i] = 1;
  if (all && one) twill_cprog_row(p, k, all, one, 1, 1, 1, U);
  free(all);
  free(one);
  if (p->oom || twill_cprog_index(p)) {
    twill_cprog_free(p);
    return -1;
  }
  return 0;
}

typedef struct njudge {
  const cprog *prog;
  wide obj;
} njudge;

static int judge(void *ctx, const twill_vipr_problem *pb, char *why, size_t whylen) {
  const njudge *c = ctx;
  if (pb->rtp_infeas || !pb->has_lb || !pb->lb.exact) {
    snprintf(why, whylen, "the normalization proof must be 'RTP range LB UB' with an exact LB");
    return -1;
  }
  if ((wide)pb->lb.num < c->obj * pb->lb.den) {
    snprintf(why, whylen, "the proof bounds the objective below by %lld/%lld, less than "
             "the stated mapping's %lld", (long long)pb->lb.num, (long long)pb->lb.den,
             (long long)c->obj);
    return -1;
  }
  return twill_cprog_judge(c->prog, pb, why, whylen);
}

/* The normalized copy of g under nm (nm->n == 0: g's costs as they are). */
static twill_graph *apply(const twill_graph *g, const cnorm *nm) {
  twill_graph *h = twill_graph_clone(g);
  if (!h || !nm->budget) return h;
  for (int v = 0; v < h->nops; v++) {
    twill_op *o = &h->ops[v];
    o->lat = map(nm, o->lat);
    if (o->spill > 0) o->spill = map(nm, o->spill);
    for (int k = 0; k < o->nuses; k++) {
      o->uses[k].offset = (int)map(nm, o->uses[k].offset);
      long len = map(nm, o->uses[k].cycles);
      o->uses[k].cycles = (int)(len > 0 ? len : 1); /* a use keeps a cycle */
    }
  }
  for (int i = 0; i < h->nedges; i++) h->edges[i].lat = map(nm, h->edges[i].lat);
  return h;
}

int twill_cnorm_read(cert_rd *r, const twill_graph *g0, long cross_warp, long U, cnorm *nm,
                     twill_graph **out, long *x_norm) {
  memset(nm, 0, sizeof *nm);
  *out = NULL;
  if (twill_cr_line(r) || twill_cr_key(r, "normalize", 2)) return -1;
  if (U <= 0) {
    if (twill_cr_word(r, 1, "off", "normalize (the check runs without normalization)"))
      return -1;
  } else {
    long u;
    if (twill_cr_is(r, 1, "off"))
      return twill_cr_fail(r, "the certificate is not normalized; the check normalizes "
                           "with budget %ld", U);
    if (twill_cr_long(r, 1, 1, 100000, &u, "budget")) return -1;
    if (u != U)
      return twill_cr_fail(r, "normalization budget %ld differs from the check's %ld", u, U);
  }
  nm->budget = U > 0 ? U : 0;
  twill_graph *g = with_cross(g0, cross_warp);
  if (!g) return twill_cr_fail(r, "out of memory");
  int rc = -1;
  if (nm->budget) {
    int k;
    long *c = costs_of(g, &k);
    if (!c) {
      twill_graph_free(g);
      return twill_cr_fail(r, "out of memory");
    }
    nm->cost = c;
    nm->n = k;
    nm->scaled = calloc((size_t)k + 1, sizeof *nm->scaled);
    if (!nm->scaled) {
      twill_cr_fail(r, "out of memory");
      goto done;
    }
    if (k > U) {
      twill_cr_fail(r, "the kernel has %d distinct costs, more than the budget %ld", k, U);
      goto done;
    }
    for (int i = 0; i < k; i++) {
      long cst;
      if (twill_cr_line(r) || twill_cr_key(r, "norm", 3) ||
          twill_cr_long(r, 1, 1, (long)1 << 40, &cst, "cost"))
        goto done;
      if (cst != c[i]) {
        twill_cr_fail(r, "cost %d of the kernel is %ld, the certificate says %ld", i + 1,
                      c[i], cst);
        goto done;
      }
      if (twill_cr_long(r, 2, 0, U, &nm->scaled[i], "normalized cost")) goto done;
      nm->sum += nm->scaled[i];
    }
    if (k > 0 && (nm->sum < 1 || nm->sum > U)) {
      twill_cr_fail(r, "the normalized costs sum to %ld, outside [1, %ld]", nm->sum, U);
      goto done;
    }
    wide F = 0;
    for (int i = 0; i < k; i++)
      for (int j = i + 1; j < k; j++) {
        wide d = (wide)c[i] * nm->scaled[j] - (wide)c[j] * nm->scaled[i];
        if (d < 0) d = -d;
        if (d > F) F = d;
      }
    nm->F = (long)F;
    wide obj = (wide)(U + 1) * F + nm->sum;
    if (k == 1 && nm->scaled[0] != 1) {
      twill_cr_fail(r, "a single cost normalizes to 1 (the least sum), not %ld",
                    nm->scaled[0]);
      goto done;
    }
    if (k >= 2) {
      const char *blk;
      size_t n;
      if (twill_cr_line(r) || twill_cr_key(r, "norm-proof", 2) ||
          twill_cr_block(r, 1, &blk, &n, NULL))
        goto done;
      cprog prog;
      if (norm_program(nm, &prog)) {
        twill_cr_fail(r, "out of memory");
        goto done;
      }
      njudge nj = {&prog, obj};
      char vm[700];
      int bad = twill_vipr_check_mem_problem("vipr(normalization)", blk, n, judge, &nj, vm,
                                             sizeof vm);
      twill_cprog_free(&prog);
      if (bad) {
        twill_cr_fail(r, "the normalization is not proven optimal: %s", vm);
        goto done;
      }
    }
  }
  *out = apply(g, nm);
  if (!*out) {
    twill_cr_fail(r, "out of memory");
    goto done;
  }
  /* the cross-warp cost in the graph's units, as the solver takes it */
  *x_norm = cross_warp;
  if (nm->budget && cross_warp > 0) {
    long x = map(nm, cross_warp);
    if (x >= 0) *x_norm = x;
  }
  rc = 0;
done:
  twill_graph_free(g);
  if (rc) twill_cnorm_clear(nm);
  return rc;
}

void twill_cnorm_describe(const cnorm *nm, char *buf, size_t n) {
  if (!nm->budget) {
    snprintf(buf, n, "costs as given (not normalized)");
    return;
  }
  size_t k = (size_t)snprintf(buf, n, "normalized with budget %ld, optimal (F %ld, sum %ld):",
                              nm->budget, nm->F, nm->sum);
  for (int i = 0; i < nm->n && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, " %ld->%ld", nm->cost[i], nm->scaled[i]);
}
