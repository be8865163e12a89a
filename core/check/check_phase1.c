/* core/check/check_phase1.c: what the checker knows about phase 1 (modulo
 * scheduling without warps, twill.md 2) from the kernel alone: the bounds
 * below which no I works, a modulo schedule's validity and length, the
 * phase-1 program at a fixed I, and the reading of a phase-1 certificate
 * body.  Nothing here calls the solver's code; the program is the one of
 * twill.md 2.2 in the slot-and-stage form the solver also builds (its
 * variables are numbered the same way, or the proofs would not speak
 * about it).
 *
 * The program at I (a[v][s] binary, k[v], t[v], L integer):
 *   sum_s a[v][s] = 1                        one slot per op
 *   t[v] - I*k[v] - sum_s s*a[v][s] = 0      t = I*stage + slot
 *   t[d] - t[s] >= lat - I*dist              every edge but self edges
 *   sum_v sum_s fold(v, s, q) a[v][s] <= cap(U)  every unit U, slot q
 *   L - t[v] >= tail[v]                      (length)
 * with fold(v, s, q) the instances of U op v holds in cycles congruent to
 * q when it issues in slot s (its reservation table folded modulo I).
 * Self edges hold at every I >= RecMII (lat <= I*dist), which is where
 * programs are built.  Every modulo schedule at I satisfies these rows.
 *
 * Bounds.  asap[v] = longest path from "time 0" (t >= 0 everywhere) and
 * tail[v] = longest path to the end (L >= t[w] + max(lat(w), 1)) over edge
 * weights lat - I*dist, so t[v] >= asap[v] and L - t[v] >= tail[v] in
 * every schedule.  Upper bounds come from a horizon H: if any schedule
 * exists at I, one exists with L <= H = I*(Wk + 1) - 1 + max lat1, where
 * Wk = sum over edges (not self edges) of ceil((lat + I - 1) / I): fix the
 * slots of a schedule; the stages then obey k[d] - k[s] >= ceil((lat -
 * I*dist - slot[d] + slot[s]) / I), whose least solution with k >= 0 is a
 * schedule too (the slots, hence the capacities, are unchanged) and is a
 * longest path along a simple path, each edge weighing at most
 * ceil((lat + I - 1) / I) (dist >= 0, slot[s] - slot[d] <= I - 1).  So
 * k <= Wk, t <= I*Wk + I - 1, L <= H, and t[v] <= H - tail[v].  A program
 * with these bounds loses no schedule of length <= H, and none at all as
 * far as feasibility goes; a cap L <= lcap (the length of a schedule the
 * certificate shows at I) loses none shorter than lcap.
 */
#include "check_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

static int fail(char *why, size_t n, const char *fmt, ...) {
  if (why && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Longest paths at I over weights lat - I*dist (Bellman-Ford): 0, or -1
 * when a positive cycle makes I infeasible for the recurrences. */
static int longest(const twill_graph *g, long ii, long *asap, long *tail) {
  for (int v = 0; v < g->nops; v++) asap[v] = 0, tail[v] = lat1(&g->ops[v]);
  for (int it = 0; it <= g->nops; it++) {
    int changed = 0;
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      long w = e->lat - ii * (long)e->dist;
      if (asap[e->src] + w > asap[e->dst]) asap[e->dst] = asap[e->src] + w, changed = 1;
      if (w + tail[e->dst] > tail[e->src]) tail[e->src] = w + tail[e->dst], changed = 1;
    }
    if (!changed) return 0;
  }
  return -1;
}

static int rec_ok(const twill_graph *g, long ii, long *a, long *t) {
  return longest(g, ii, a, t) == 0;
}

int twill_phase1_bounds(const twill_graph *g, cbounds *b) {
  memset(b, 0, sizeof *b);
  /* ResMII: a unit absorbs all its busy cycles in the I slots */
  for (int u = 0; u < g->nunits; u++) {
    long busy = 0;
    for (int v = 0; v < g->nops; v++)
      for (int k = 0; k < g->ops[v].nuses; k++)
        if (g->ops[v].uses[k].unit == u)
          busy += (long)g->ops[v].uses[k].cycles * g->ops[v].uses[k].count;
    long cap = g->units[u].capacity > 0 ? g->units[u].capacity : 1;
    long m = (busy + cap - 1) / cap;
    if (m > b->res_mii) b->res_mii = m;
  }
  /* RecMII: the least I without a positive cycle; monotone in I since
   * every distance is >= 0, and every cycle has distance >= 1 (the graph
   * is validated), so I = 1 + sum of latencies has none */
  size_t n = g->nops > 0 ? (size_t)g->nops : 1;
  long *a = malloc(n * sizeof *a), *t = malloc(n * sizeof *t);
  if (!a || !t) {
    free(a);
    free(t);
    return -1;
  }
  long hi = 1;
  for (int i = 0; i < g->nedges; i++) hi += g->edges[i].lat;
  long lo = 1;
  if (!rec_ok(g, hi, a, t)) {
    free(a);
    free(t);
    return -1; /* a zero-distance cycle: the graph is not valid */
  }
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (rec_ok(g, mid, a, t)) hi = mid;
    else lo = mid + 1;
  }
  /* RecMII proper is 0 when no cycle has a positive latency (I = 0 would
   * do for the recurrences): only the report differs */
  b->rec_mii = lo > 1 || !rec_ok(g, 0, a, t) ? lo : 0;
  free(a);
  free(t);
  b->mii = b->res_mii > lo ? b->res_mii : lo;
  if (b->mii < 1) b->mii = 1;
  return 0;
}

int twill_phase1_valid(const twill_graph *g, long ii, const long *t, long *len, char *why,
                       size_t whylen) {
  if (ii < 1) return fail(why, whylen, "I %ld < 1", ii);
  long L = 0;
  for (int v = 0; v < g->nops; v++) {
    if (t[v] < 0) return fail(why, whylen, "op '%s' starts at %ld < 0", g->ops[v].name, t[v]);
    if (t[v] + lat1(&g->ops[v]) > L) L = t[v] + lat1(&g->ops[v]);
  }
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (t[e->dst] - t[e->src] < e->lat - ii * (long)e->dist)
      return fail(why, whylen, "edge %s -> %s: t(%s) - t(%s) = %ld < %ld - %ld*%d",
                  g->ops[e->src].name, g->ops[e->dst].name, g->ops[e->dst].name,
                  g->ops[e->src].name, t[e->dst] - t[e->src], e->lat, ii, e->dist);
  }
  long *mrt = calloc((size_t)ii, sizeof *mrt);
  if (!mrt) return fail(why, whylen, "out of memory");
  for (int u = 0; u < g->nunits; u++) {
    memset(mrt, 0, (size_t)ii * sizeof *mrt);
    for (int v = 0; v < g->nops; v++)
      for (int k = 0; k < g->ops[v].nuses; k++) {
        const twill_use *us = &g->ops[v].uses[k];
        if (us->unit != u) continue;
        for (long c = 0; c < us->cycles; c++) mrt[(t[v] + us->offset + c) % ii] += us->count;
      }
    for (long q = 0; q < ii; q++)
      if (mrt[q] > g->units[u].capacity) {
        long held = mrt[q];
        free(mrt);
        return fail(why, whylen, "unit %s holds %ld instances in slot %ld, capacity %d",
                    g->units[u].name, held, q, g->units[u].capacity);
      }
  }
  free(mrt);
  *len = L;
  return 0;
}

int twill_phase1_program(const twill_graph *g, long ii, long lcap, cprog *p) {
  int n = g->nops;
  if (ii < 1 || ii > 100000 || (long)n * (ii + 2) > 20000000) return -1;
  size_t nn = n > 0 ? (size_t)n : 1;
  long *asap = malloc(nn * sizeof *asap), *tail = malloc(nn * sizeof *tail);
  if (!asap || !tail || longest(g, ii, asap, tail)) {
    free(asap);
    free(tail);
    return -1;
  }
  long wk = 0, maxlat = 1;
  for (int i = 0; i < g->nedges; i++)
    if (g->edges[i].src != g->edges[i].dst) wk += (g->edges[i].lat + 2 * ii - 2) / ii;
  for (int v = 0; v < n; v++)
    if (lat1(&g->ops[v]) > maxlat) maxlat = lat1(&g->ops[v]);
  long H = ii * (wk + 1) - 1 + maxlat;
  if (lcap > 0 && lcap < H) H = lcap;
  long stride = ii + 2;
  int nv = (int)((long)n * stride + 1), L = nv - 1;
  if (twill_cprog_init(p, nv)) {
    free(asap);
    free(tail);
    return -1;
  }
  for (int v = 0; v < n; v++) {
    long lo = asap[v], hi = H - tail[v];
    if (hi < lo) hi = lo; /* no schedule of length <= H then: any bound */
    for (long s = 0; s < ii; s++) twill_cprog_var(p, (int)(v * stride + s), 1, 1, 0, 1, 1, 0);
    twill_cprog_var(p, (int)(v * stride + ii), 1, 1, lo / ii, 1, hi / ii, 0);
    twill_cprog_var(p, (int)(v * stride + ii + 1), 1, 1, lo, 1, hi, 0);
  }
  twill_cprog_var(p, L, 1, 1, 0, 1, H, 1);
  int *var = malloc(((size_t)n * (size_t)ii + (size_t)ii + 4) * sizeof *var);
  int64_t *coef = malloc(((size_t)n * (size_t)ii + (size_t)ii + 4) * sizeof *coef);
  long *fold = calloc((size_t)ii, sizeof *fold);
  if (!var || !coef || !fold) p->oom = 1;
  for (int v = 0; v < n && !p->oom; v++) {
    int base = (int)(v * stride);
    for (long s = 0; s < ii; s++) var[s] = base + (int)s, coef[s] = 1;
    twill_cprog_row(p, (int)ii, var, coef, 1, 1, 1, 1);
    int k = 0;
    var[k] = base + (int)ii + 1, coef[k++] = 1;
    var[k] = base + (int)ii, coef[k++] = -ii;
    for (long s = 1; s < ii; s++) var[k] = base + (int)s, coef[k++] = -s;
    twill_cprog_row(p, k, var, coef, 1, 0, 1, 0);
    var[0] = L, coef[0] = 1;
    var[1] = base + (int)ii + 1, coef[1] = -1;
    twill_cprog_row(p, 2, var, coef, 1, tail[v], 0, 0);
  }
  for (int i = 0; i < g->nedges && !p->oom; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    var[0] = (int)(e->dst * stride + ii + 1), coef[0] = 1;
    var[1] = (int)(e->src * stride + ii + 1), coef[1] = -1;
    twill_cprog_row(p, 2, var, coef, 1, e->lat - ii * (long)e->dist, 0, 0);
  }
  for (int u = 0; u < g->nunits && !p->oom; u++)
    for (long q = 0; q < ii && !p->oom; q++) {
      int k = 0;
      for (int v = 0; v < n; v++) {
        int uses = 0;
        memset(fold, 0, (size_t)ii * sizeof *fold);
        for (int x = 0; x < g->ops[v].nuses; x++) {
          const twill_use *us = &g->ops[v].uses[x];
          if (us->unit != u) continue;
          uses = 1;
          /* issued in slot s, cycle s + offset + j falls in slot q */
          for (long j = 0; j < us->cycles; j++) fold[((q - us->offset - j) % ii + ii) % ii] += us->count;
        }
        if (!uses) continue;
        for (long s = 0; s < ii; s++)
          if (fold[s]) var[k] = (int)(v * stride + s), coef[k++] = fold[s];
      }
      if (k) twill_cprog_row(p, k, var, coef, 0, 0, 1, g->units[u].capacity);
    }
  free(var);
  free(coef);
  free(fold);
  free(asap);
  free(tail);
  if (p->oom || twill_cprog_index(p)) {
    twill_cprog_free(p);
    return -1;
  }
  return 0;
}

/* ---- a phase-1 body --------------------------------------------------- */

typedef struct judge_ctx {
  const cprog *prog;
  int want_infeas;
  long length; /* the bound to prove: L >= length */
} judge_ctx;

static int judge(void *ctx, const twill_vipr_problem *pb, char *why, size_t whylen) {
  const judge_ctx *c = ctx;
  if (c->want_infeas && !pb->rtp_infeas)
    return fail(why, whylen, "the proof must be 'RTP infeas'");
  if (!c->want_infeas) {
    /* range LB UB with LB > length - 1: L is an integer, so L >= length */
    if (pb->rtp_infeas || !pb->has_lb || !pb->lb.exact)
      return fail(why, whylen, "the proof must be 'RTP range LB UB' with an exact LB");
    __extension__ __int128 lhs = pb->lb.num, rhs = (__int128)(c->length - 1) * pb->lb.den;
    if (lhs <= rhs)
      return fail(why, whylen, "the proof bounds L below by %lld/%lld, not above %ld",
                  (long long)pb->lb.num, (long long)pb->lb.den, c->length - 1);
  }
  return twill_cprog_judge(c->prog, pb, why, whylen);
}

/* One VIPR block: the program at I (cap lcap) judged, then the proof. */
static int check_block(cert_rd *r, const twill_graph *g, long ii, long lcap, int infeas,
                       long length, const char *blk, size_t n) {
  cprog prog;
  if (twill_phase1_program(g, ii, lcap, &prog))
    return twill_cr_fail(r, "cannot build the phase-1 program at I = %ld", ii);
  judge_ctx jc = {&prog, infeas, length};
  char vm[700];
  char name[32];
  snprintf(name, sizeof name, "vipr(I=%ld)", ii);
  int bad = twill_vipr_check_mem_problem(name, blk, n, judge, &jc, vm, sizeof vm);
  twill_cprog_free(&prog);
  if (bad) return twill_cr_fail(r, "the proof at I = %ld is rejected: %s", ii, vm);
  return 0;
}

int twill_phase1_read(cert_rd *r, const twill_graph *g, cphase1 *c, long *times) {
  memset(c, 0, sizeof *c);
  long hii, hlen;
  if (twill_cr_line(r) || twill_cr_key(r, "ii", 2) ||
      twill_cr_long(r, 1, 1, TWILL_CHECK_MAX_TIME, &c->ii, "ii") || twill_cr_line(r) ||
      twill_cr_key(r, "length", 2) ||
      twill_cr_long(r, 1, 1, TWILL_CHECK_MAX_TIME, &c->length, "length") ||
      twill_cr_line(r) || twill_cr_key(r, "heuristic", 3) ||
      twill_cr_long(r, 1, 1, TWILL_CHECK_MAX_TIME, &hii, "heuristic I") ||
      twill_cr_long(r, 2, 1, TWILL_CHECK_MAX_TIME, &hlen, "heuristic L"))
    return -1;
  if (hii < c->ii || (hii == c->ii && hlen < c->length))
    return twill_cr_fail(r, "the heuristic's schedule (I %ld, L %ld) would cut off the "
                         "claimed one (I %ld, L %ld)", hii, hlen, c->ii, c->length);
  /* form: how the reduced problem of a twill-smt refutation is stated
   * (reduce: the ops on units that can be over-subscribed only; slots: the
   * units' rows over slot variables; times, only with slots: the rows over
   * the start times as well; relative: the relative row where it refutes
   * an I at once, check_phase1_smt.c): "none" or the words in this order */
  static const char *const forms[12] = {
      "none",           "reduce",          "slots",
      "reduce,slots",   "slots,times",     "reduce,slots,times",
      "relative",       "reduce,relative", "slots,relative",
      "reduce,slots,relative", "slots,times,relative", "reduce,slots,times,relative"};
  static const int bits[6] = {0, CP1_FORM_REDUCE, CP1_FORM_SLOTS,
                              CP1_FORM_REDUCE | CP1_FORM_SLOTS,
                              CP1_FORM_SLOTS | CP1_FORM_TIMES,
                              CP1_FORM_REDUCE | CP1_FORM_SLOTS | CP1_FORM_TIMES};
  if (twill_cr_line(r) || twill_cr_key(r, "form", 2)) return -1;
  c->form = -1;
  for (int k = 0; k < 12; k++)
    if (twill_cr_is(r, 1, forms[k])) c->form = bits[k % 6] | (k >= 6 ? CP1_FORM_RELATIVE : 0);
  if (c->form < 0)
    return twill_cr_fail(r, "form: expected none, reduce, slots, reduce,slots, slots,times "
                         "or reduce,slots,times, each but none optionally followed by "
                         ",relative, or relative alone");
  if (twill_cr_line(r)) return -1;
  c->length_proven = 1;
  if (twill_cr_is(r, 0, "length-proof")) {
    if (twill_cr_key(r, "length-proof", 2) || twill_cr_word(r, 1, "none", "length-proof") ||
        twill_cr_line(r))
      return -1;
    c->length_proven = 0;
  }
  size_t nn = g->nops > 0 ? (size_t)g->nops : 1;
  long *t = malloc(nn * sizeof *t);
  if (!t) return twill_cr_fail(r, "out of memory");
  for (int v = 0; v < g->nops; v++) {
    if ((v > 0 && twill_cr_line(r)) || twill_cr_key(r, "time", 3) ||
        twill_cr_word(r, 1, g->ops[v].name, "time: the next op") ||
        twill_cr_long(r, 2, 0, TWILL_CHECK_MAX_TIME, &t[v], "start time")) {
      free(t);
      return -1;
    }
  }
  char why[300];
  long len;
  if (twill_phase1_valid(g, c->ii, t, &len, why, sizeof why)) {
    free(t);
    return twill_cr_fail(r, "the schedule is not a modulo schedule at I = %ld: %s", c->ii, why);
  }
  if (len != c->length) {
    free(t);
    return twill_cr_fail(r, "the schedule's length is %ld, not %ld", len, c->length);
  }
  if (times) memcpy(times, t, (size_t)g->nops * sizeof *t);
  free(t);
  if (twill_phase1_bounds(g, &c->b)) return twill_cr_fail(r, "cannot bound I (memory)");
  if (c->ii < c->b.mii)
    return twill_cr_fail(r, "ii %ld is below the MII %ld: no modulo schedule exists there",
                         c->ii, c->b.mii);
  for (long ii = c->b.mii; ii <= c->ii; ii++) {
    int last = ii == c->ii;
    if (last && !c->length_proven) break;
    const char *blk;
    size_t n;
    if (twill_cr_line(r)) return -1;
    if (last && twill_cr_is(r, 0, "path")) {
      /* L* is the critical path at I*: every schedule has L >= t[v] +
       * tail[v] >= asap[v] + tail[v] (the longest paths, derived here) */
      int64_t at;
      if (twill_cr_key(r, "path", 3) || twill_cr_int(r, 1, 1, TWILL_CHECK_MAX_TIME, &at, "path I"))
        return -1;
      if (at != ii || twill_cr_word(r, 2, "optimal", "path kind"))
        return twill_cr_fail(r, "expected the proof for I = %ld (optimal)", ii);
      long crit = 0;
      size_t nv = g->nops > 0 ? (size_t)g->nops : 1;
      long *as = malloc(nv * sizeof *as), *ta = malloc(nv * sizeof *ta);
      int bad = !as || !ta || longest(g, ii, as, ta);
      for (int v = 0; !bad && v < g->nops; v++)
        if (as[v] + ta[v] > crit) crit = as[v] + ta[v];
      free(as);
      free(ta);
      if (bad) return twill_cr_fail(r, "cannot derive the critical path at I = %ld", ii);
      if (crit != c->length)
        return twill_cr_fail(r, "'path %ld optimal': the critical path at I = %ld is %ld, not "
                             "the length %ld", ii, ii, crit, c->length);
      c->length_by = CP1_BY_PATH;
      continue;
    }
    int smt = twill_cr_is(r, 0, "smt");
    if (r->ntok != 4 || (!smt && !twill_cr_is(r, 0, "vipr")))
      return twill_cr_fail(r, "expected 'vipr %ld %s BYTES' or 'smt %ld %s BYTES'%s", ii,
                           last ? "optimal" : "infeasible", ii, last ? "optimal" : "infeasible",
                           last ? " or 'path I optimal'" : "");
    int64_t at;
    if (twill_cr_int(r, 1, 1, TWILL_CHECK_MAX_TIME, &at, smt ? "smt I" : "vipr I")) return -1;
    if (at != ii || twill_cr_word(r, 2, last ? "optimal" : "infeasible", "proof kind"))
      return twill_cr_fail(r, "expected the proof for I = %ld (%s)", ii,
                           last ? "optimal" : "infeasible");
    if (twill_cr_block(r, 3, &blk, &n, NULL)) return -1;
    if (smt) {
      cred red;
      if (twill_cred_derive(g, ii, (c->form & CP1_FORM_REDUCE) != 0, &red))
        return twill_cr_fail(r, "cannot derive the reduced problem at I = %ld", ii);
      int bad = twill_phase1_smt_check(r, g, &red, last ? c->length - 1 : red.horizon, !last,
                                       c->form, blk, n);
      twill_cred_clear(&red);
      if (bad) return -1;
    } else if (check_block(r, g, ii, last && hii == ii ? hlen : 0, !last, c->length, blk, n)) {
      return -1;
    }
    if (last) c->length_by = smt ? CP1_BY_SMT : CP1_BY_VIPR;
    else if (smt) c->nsmt++;
    else c->nvipr++;
  }
  return twill_cr_end(r);
}
