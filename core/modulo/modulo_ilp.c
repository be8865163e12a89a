/* core/modulo/modulo_ilp.c: the integer program of phase 1 at fixed I and
 * the ILP engine that solves it on ilp/ (core/modulo/modulo_engine.h).
 *
 * The program of the reduced problem (twill/modulo.h; the slot-and-stage
 * form of the first author's modulo-scheduling ILP; the Twill paper cites
 * Stoutchinin's and states none), over
 * the kept ops x:
 *
 *   a[x][s] in {0,1}, s in [0, I)      op x issues in slot s
 *   k[x] integer                       its stage
 *   t[x] in [lo[x], min(H - tail[x], lo[x] + win[x])]   its start time
 *   L in [lfloor, H] integer           the schedule length (minimized)
 *
 *   sum_s a[x][s] = 1                                      (one slot)
 *   t[x] - I*k[x] - sum_s s*a[x][s] = 0                    (t = I*k + slot)
 *   t[y] - t[x] >= w                      for every dep    (dependence)
 *   sum_x sum_{uses (U,o,c,n) of x} n * sum_{j<c} a[x][(q - o - j) mod I]
 *       <= cap(U)                          for every kept unit U, slot q
 *   L - t[x] >= tail[x]                    for every kept op (length)
 * and, per form: the structured dependence rows (below), slots outside a
 * narrow window fixed to 0.
 *
 * Horizon.  Fix any feasible slots.  The stages then satisfy difference
 * constraints k[d] - k[s] >= ceil((lat - I*dist - slot[d] + slot[s]) / I),
 * whose least solution (with k >= 0) is feasible too and minimizes every
 * t[v] at once, hence L.  It is a longest path over a simple path, and each
 * edge weight is at most ceil((lat + I - 1) / I), so k[v] <= W with
 * W = sum over edges (not self-loops) of that bound: L <= H = I*(W+1) - 1
 * + max lat.  Bounding L by H thus loses no schedule and no optimal length:
 * infeasibility of the bounded program proves that no schedule exists at I.
 * (The weight needs the "+ I - 1": with ceil(lat / I) alone, three ops
 * a -> b -> c of latency 3 whose reservations force the slots 0, 2, 1 at
 * I = 3 need stage 3 for c, and W would be 2: the program then called
 * I = 3 infeasible beside a valid schedule; tests/test_modulo_exact.c keeps
 * that kernel.)
 *
 * The plain program (twill_modulo_plain_proof) is the one the certificate
 * checker states from the kernel itself (core/check/check_phase1.c): every
 * op kept, t[v] in [asap(v), H - tail(v)], L in [0, H], one row per edge
 * (here the heaviest edge of each pair, which implies the others), no
 * structured rows and no windows.  The VIPR proofs of certificates are
 * about it only: the checker does not state this engine's reduced program,
 * so certify mode proves an answer of this engine again on the plain
 * program (core/modulo/modulo_solve.c, certify_plain).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modulo_engine.h"
#include "twill/ilp.h"
#include "twill/modulo.h"

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

static long stage_bound(const twill_graph *g, long ii) {
  long w = 0;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    w += (e->lat + 2 * ii - 2) / ii; /* ceil((lat + I - 1) / I) */
  }
  return w;
}

long twill_modulo_horizon(const twill_graph *g, long ii) {
  long maxlat = 1;
  for (int v = 0; v < g->nops; v++)
    if (lat1(&g->ops[v]) > maxlat) maxlat = lat1(&g->ops[v]);
  return ii * (stage_bound(g, ii) + 1) - 1 + maxlat;
}

/* Variable layout: kept op i's slots at i*(I+2) .. +I-1, then k, t; L
 * last. */
typedef struct layout {
  long ii;
  int stride;
} layout;

static int var_a(const layout *l, int i, long s) { return i * l->stride + (int)s; }
static int var_k(const layout *l, int i) { return i * l->stride + (int)l->ii; }
static int var_t(const layout *l, int i) { return i * l->stride + (int)l->ii + 1; }

/* Eichenberger & Davidson's structured dependence rows (PLDI 1997) for
 * t[y] - t[x] >= w with t = I*k + s, s the slot:  for every r in [0, I),
 * with r + w = I*m + q (0 <= q < I),
 *
 *   k[y] - k[x] - sum_{s >= r} a[x][s] - sum_{s < q} a[y][s]  >=  m - 1.
 *
 * Why it holds (A = [slot(x) >= r], B = [slot(y) < q]):
 *   I (k[y] - k[x]) >= w + slot(x) - slot(y) = I*m + q - r + slot(x) - slot(y)
 *   A=1, B=1: slot(x) >= r, slot(y) <= q-1: >= I*m + 1, so k[y]-k[x] >= m+1;
 *   A=1, B=0: slot(y) <= I-1:              >  I*(m-1), so          >= m;
 *   A=0, B=1: slot(x) >= 0, r <= I-1:      >  I*(m-1), so          >= m;
 *   A=0, B=0:                              >  I*(m-2), so          >= m-1;
 * i.e. k[y] - k[x] >= m - 1 + A + B in each case.  Summed over r they give
 * the plain row back; alone each cuts off the fractional points where the
 * slots of x and y are split between early and late slots, which the
 * plain row lets the LP average (Eichenberger & Davidson: the structured
 * form's LP is much tighter; each row is a valid inequality, so the
 * program's integer points are the same).  I rows of up to I + 2 entries
 * per dep: they are added when every dep's rows fit STRUCT_NNZ entries in
 * all (a function of the reduced problem alone: the checker rebuilds the
 * same rows). */
#define STRUCT_NNZ 400000L

static long floordiv(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

static int structured_rows(twill_ilp *m, const layout *l,
                           const twill_modulo_red *r, int *idx, double *val) {
  long ii = r->ii;
  char name[64];
  for (int k = 0; k < r->ndeps; k++) {
    const twill_modulo_dep *e = &r->deps[k];
    for (long rr = 0; rr < ii; rr++) {
      long mm = floordiv(rr + e->w, ii), q = rr + e->w - ii * mm;
      int n = 0;
      idx[n] = var_k(l, e->y), val[n++] = 1;
      idx[n] = var_k(l, e->x), val[n++] = -1;
      for (long s = rr; s < ii; s++) idx[n] = var_a(l, e->x, s), val[n++] = -1;
      for (long s = 0; s < q; s++) idx[n] = var_a(l, e->y, s), val[n++] = -1;
      snprintf(name, sizeof name, "ed_%d_%ld", k, rr);
      if (twill_ilp_add_row(m, name, n, idx, val, 'G', (double)(mm - 1), 0) < 0)
        return -1;
    }
  }
  return 0;
}

/* The program of the reduced problem (twill/modulo.h).  lmax_hint > 0 caps
 * L: the length of a schedule known at this I (the optimum cannot exceed
 * it). */
static twill_ilp *build(const twill_graph *g, const twill_modulo_red *r,
                        long lmax_hint, unsigned form, int plain, layout *l) {
  long ii = r->ii;
  int n = r->n;
  if (ii > 100000 || (long)n * (ii + 2) > 20000000) return NULL;
  l->ii = ii;
  l->stride = (int)ii + 2;
  long H = plain ? twill_modulo_horizon(g, ii) : r->horizon;
  if (lmax_hint > 0 && lmax_hint < H) H = lmax_hint;
  if (!plain && H < r->lfloor) H = r->lfloor; /* an empty program: L's bounds cross */
  if (plain) form = 0;
  twill_ilp *m = twill_ilp_new();
  if (!m) return NULL;
  /* No root cuts here: the modulo programs come with the heuristic's
   * schedule as a MIP start and are solved once per I, and the Gomory/MIR
   * rounds cost more than they save (fa3-fwd-hopper: 10.5 s with them,
   * 1.0 s without, measured on the same machine) */
  twill_ilp_set_cuts(m, 0);
  char name[64];
  int ok = 1;
  for (int i = 0; i < n && ok; i++) {
    int v = r->op[i];
    long lo = r->lo[i], hi = H - r->tail[i];
    if (!plain && hi > lo + r->win[i]) hi = lo + r->win[i]; /* the window */
    if (hi < lo) hi = lo; /* only when H < lfloor: L's bounds cross */
    /* windows: t in [lo, hi] narrower than I leaves the slots lo mod I ..
     * hi mod I (cyclically) only; the others are fixed to 0 (implied by
     * t = I*k + slot with k integer) */
    int narrow = (form & TWILL_MODULO_FORM_WINDOWS) && hi - lo + 1 < ii;
    for (long s = 0; s < ii && ok; s++) {
      snprintf(name, sizeof name, "a_%d_%ld", v, s);
      long off = ((s - lo) % ii + ii) % ii; /* s = lo + off (mod I) */
      ok = twill_ilp_add_var(m, name, TWILL_ILP_BINARY, 0,
                             narrow && off > hi - lo ? 0 : 1, 0) >= 0;
    }
    snprintf(name, sizeof name, "k_%d", v);
    ok = ok && twill_ilp_add_var(m, name, TWILL_ILP_INTEGER, (double)(lo / ii),
                                 (double)(hi / ii), 0) >= 0;
    snprintf(name, sizeof name, "t_%d", v);
    ok = ok && twill_ilp_add_var(m, name, TWILL_ILP_INTEGER, (double)lo,
                                 (double)hi, 0) >= 0;
  }
  int L = ok ? twill_ilp_add_var(m, "L", TWILL_ILP_INTEGER, plain ? 0 : (double)r->lfloor,
                                 (double)H, 1)
             : -1;
  size_t cap = 2 * (size_t)ii + 4 + (size_t)n * (size_t)ii + 4;
  int *idx = malloc(cap * sizeof *idx);
  double *val = malloc(cap * sizeof *val);
  long *fold = calloc((size_t)ii, sizeof *fold);
  if (L < 0 || !idx || !val || !fold) goto fail;
  for (int i = 0; i < n; i++) {
    int v = r->op[i];
    for (long s = 0; s < ii; s++) {
      idx[s] = var_a(l, i, s);
      val[s] = 1;
    }
    snprintf(name, sizeof name, "slot_%d", v);
    if (twill_ilp_add_row(m, name, (int)ii, idx, val, 'E', 1, 0) < 0) goto fail;
    int k = 0;
    idx[k] = var_t(l, i), val[k++] = 1;
    idx[k] = var_k(l, i), val[k++] = -(double)ii;
    for (long s = 1; s < ii; s++) idx[k] = var_a(l, i, s), val[k++] = -(double)s;
    snprintf(name, sizeof name, "time_%d", v);
    if (twill_ilp_add_row(m, name, k, idx, val, 'E', 0, 0) < 0) goto fail;
    idx[0] = L, val[0] = 1;
    idx[1] = var_t(l, i), val[1] = -1;
    snprintf(name, sizeof name, "len_%d", v);
    if (twill_ilp_add_row(m, name, 2, idx, val, 'G', (double)r->tail[i], 0) < 0)
      goto fail;
  }
  for (int k = 0; k < r->ndeps; k++) {
    const twill_modulo_dep *e = &r->deps[k];
    idx[0] = var_t(l, e->y), val[0] = 1;
    idx[1] = var_t(l, e->x), val[1] = -1;
    snprintf(name, sizeof name, "dep_%d_%d", r->op[e->x], r->op[e->y]);
    if (twill_ilp_add_row(m, name, 2, idx, val, 'G', (double)e->w, 0) < 0)
      goto fail;
  }
  if ((form & TWILL_MODULO_FORM_STRUCTURED) &&
      (long)r->ndeps * ii * (ii + 2) <= STRUCT_NNZ &&
      structured_rows(m, l, r, idx, val))
    goto fail;
  /* Folded reservation tables: op v in slot s holds unit U in slot q when
   * (s + o + j) mod I = q for some j < c; count the j's. */
  for (int ku = 0; ku < r->nunits; ku++) {
    int u = r->unit[ku];
    for (long q = 0; q < ii; q++) {
      int k = 0;
      for (int i = 0; i < n; i++) {
        const twill_op *op = &g->ops[r->op[i]];
        memset(fold, 0, (size_t)ii * sizeof *fold);
        int uses = 0;
        for (int x = 0; x < op->nuses; x++) {
          const twill_use *us = &op->uses[x];
          if (us->unit != u) continue;
          uses = 1;
          for (long j = 0; j < us->cycles; j++)
            fold[((q - us->offset - j) % ii + ii) % ii] += us->count;
        }
        if (!uses) continue;
        for (long s = 0; s < ii; s++)
          if (fold[s]) idx[k] = var_a(l, i, s), val[k++] = (double)fold[s];
      }
      if (!k) continue;
      snprintf(name, sizeof name, "cap_%d_%ld", u, q);
      if (twill_ilp_add_row(m, name, k, idx, val, 'L',
                            (double)g->units[u].capacity, 0) < 0)
        goto fail;
    }
  }
  free(fold);
  free(idx);
  free(val);
  return m;
fail:
  free(fold);
  free(idx);
  free(val);
  twill_ilp_free(m);
  return NULL;
}

struct twill_ilp *twill_modulo_program_red(const twill_graph *g,
                                           const twill_modulo_red *r,
                                           long lmax_hint, unsigned form) {
  layout l;
  return build(g, r, lmax_hint, form, 0, &l);
}

struct twill_ilp *twill_modulo_program(const twill_graph *g, long ii,
                                       long lmax_hint, unsigned form) {
  twill_modulo_red r;
  if (twill_modulo_reduce(g, ii, (form & TWILL_MODULO_FORM_REDUCE) != 0, &r))
    return NULL;
  twill_ilp *m = twill_modulo_program_red(g, &r, lmax_hint, form);
  twill_modulo_red_clear(&r);
  return m;
}

int twill_modulo_plain_proof(const twill_graph *g, long ii, long lmax_hint,
                             const twill_schedule *start, double deadline, long nodes,
                             char **proof, size_t *plen) {
  *proof = NULL;
  *plen = 0;
  twill_modulo_red r;
  if (twill_modulo_reduce(g, ii, 0, &r)) return TWILL_ILP_ERROR;
  layout l;
  twill_ilp *m = build(g, &r, lmax_hint, 0, 1, &l);
  twill_modulo_red_clear(&r);
  if (!m) return TWILL_ILP_ERROR;
  int st = TWILL_ILP_LIMIT;
  if (deadline > 0) {
    double left = deadline - twill_modulo_clock();
    if (left <= 0) goto out;
    twill_ilp_set_time_limit(m, left);
  }
  if (nodes > 0) twill_ilp_set_node_limit(m, nodes);
  twill_ilp_set_certify(m, 1);
  if (start && start->ii == ii) {
    /* the schedule as the first incumbent: with L capped at its length
     * the search only has to close the bound (the ILP ignores a start
     * that breaks a row) */
    int nv = twill_ilp_num_vars(m);
    double *x = calloc((size_t)nv + 1, sizeof *x);
    if (!x) {
      st = TWILL_ILP_ERROR;
      goto out;
    }
    for (int v = 0; v < g->nops; v++) {
      long t = start->start[v];
      x[var_a(&l, v, t % ii)] = 1;
      x[var_k(&l, v)] = (double)(t / ii);
      x[var_t(&l, v)] = (double)t;
    }
    x[nv - 1] = (double)twill_schedule_length(g, start);
    int bad = twill_ilp_set_start(m, x);
    free(x);
    if (bad) {
      st = TWILL_ILP_ERROR;
      goto out;
    }
  }
  st = (int)twill_ilp_solve(m);
  if (st == TWILL_ILP_INFEASIBLE || st == TWILL_ILP_OPTIMAL) {
    FILE *f = open_memstream(proof, plen);
    int bad = !f || twill_ilp_write_vipr(m, f) != 0;
    if (f && fclose(f)) bad = 1;
    if (bad) {
      free(*proof);
      *proof = NULL;
      *plen = 0;
      st = TWILL_ILP_ERROR;
    }
  } else if (st != TWILL_ILP_LIMIT) {
    st = TWILL_ILP_ERROR;
  }
out:
  twill_ilp_free(m);
  return st;
}

/* The kept-op times of a solution. */
static void read_times(const twill_ilp *m, const layout *l, int n, long *kt) {
  for (int i = 0; i < n; i++) {
    double t = twill_ilp_value(m, var_t(l, i));
    kt[i] = (long)(t + (t >= 0 ? 0.5 : -0.5));
  }
}

int twill_modulo_ilp_decide(const twill_graph *g, const twill_modulo_red *r,
                            const twill_modulo_job *job,
                            twill_modulo_decision *d) {
  memset(d, 0, sizeof *d);
  layout l;
  twill_ilp *m = build(g, r, 0, job->form, 0, &l);
  if (!m) {
    d->status = TWILL_ILP_ERROR;
    return 0; /* too large or out of memory: nothing proven */
  }
  if (job->deadline > 0) {
    double left = job->deadline - twill_modulo_clock();
    if (left <= 0) {
      twill_ilp_free(m);
      d->status = TWILL_ILP_LIMIT;
      return 0;
    }
    twill_ilp_set_time_limit(m, left);
  }
  if (job->ilp_nodes > 0) twill_ilp_set_node_limit(m, job->ilp_nodes);
  if (job->certify) twill_ilp_set_certify(m, 1);
  twill_ilp_set_cancel(m, job->cancel);
  twill_ilp_status st = twill_ilp_solve(m);
  twill_ilp_stats stats;
  twill_ilp_get_stats(m, &stats);
  d->work = stats.nodes;
  d->status = (int)st;
  if (st != TWILL_ILP_OPTIMAL && st != TWILL_ILP_INFEASIBLE && st != TWILL_ILP_LIMIT)
    d->status = TWILL_ILP_ERROR;
  if (job->certify && (st == TWILL_ILP_INFEASIBLE || st == TWILL_ILP_OPTIMAL)) {
    FILE *f = open_memstream(&d->proof, &d->plen);
    int bad = !f || twill_ilp_write_vipr(m, f) != 0;
    if (f && fclose(f)) bad = 1;
    if (bad) {
      free(d->proof);
      d->proof = NULL;
      d->plen = 0;
    }
  }
  if ((st == TWILL_ILP_OPTIMAL || st == TWILL_ILP_LIMIT) && twill_ilp_has_solution(m)) {
    d->kt = malloc(((size_t)r->n + 1) * sizeof *d->kt);
    if (!d->kt) {
      twill_ilp_free(m);
      return -1;
    }
    read_times(m, &l, r->n, d->kt);
    d->length = r->lfloor;
    for (int i = 0; i < r->n; i++)
      if (d->kt[i] + r->tail[i] > d->length) d->length = d->kt[i] + r->tail[i];
  }
  if (st == TWILL_ILP_OPTIMAL) {
    d->lower = d->length;
    d->bound = TWILL_MODULO_BOUND_PROOF;
  } else if (st == TWILL_ILP_LIMIT && isfinite(stats.best_bound)) {
    /* the open nodes bound L from below */
    long lo = (long)ceil(stats.best_bound - 1e-6);
    d->lower = lo > r->lfloor ? lo : r->lfloor;
  } else {
    d->lower = r->lfloor;
  }
  twill_ilp_free(m);
  return 0;
}
