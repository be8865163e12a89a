/* core/check/check_phase1_smt.c: the checker's own statement of phase 1 at
 * one I as twill-smt text, and the check of a twill-smt refutation of it
 * (the SMT engine's proofs, core/modulo/modulo_smt.c, which this file
 * does not use).
 *
 * The statement, from the checker's reduction (check_reduce.c), in the
 * order the format fixes (core/modulo/modulo_smt.c lists it):
 *   int t_i in [lo_i, min(Lmax - tail_i, lo_i + win_i)]   per kept op
 *   the normal form, only for a refutation of I itself (Lmax = the
 *     horizon): pinned, when some kept op a reaches every kept op along
 *     deps (the first such), a at T0 = max over y of lo_y - D(a, y) and
 *     every y in [T0 + D(a, y), T0 + D(a, y) + win_y] (D the longest dep
 *     path); rotated otherwise: the first kept op no dep enters at its
 *     lo, or with none such, kept op 0 in the slot of its lo (t_0 = lo_0 +
 *     I k, an int k in [0, win_0 / I]);
 *   t_x - t_y <= -w                      per dep (x, y, w), in order
 *   with the form's slots, per kept op i: int s_i in [0, I-1], int k_i in
 *     [lo_i div I, hi_i div I], t_i - I k_i - s_i <= 0 and >= 0
 *   mod cap(U) I  t_i @ o + j ...        per kept unit, its uses in op,
 *                                        use, cycle, instance order (s_i
 *                                        for t_i with slots); with slots
 *                                        and cap(U) * I uses, per residue
 *                                        q the clause OR of [s = (q - o)
 *                                        mod I] over the uses; with
 *                                        slots and times, then the same
 *                                        row over the t_i (a refutation
 *                                        may also state the problem
 *                                        without these rows: fewer
 *                                        constraints, refuted all the same)
 *   the support of each strongly connected set S of two or more kept ops
 *     (unless an op of S has hi <= lo + I - 1): OR over y in S of [t_y <=
 *     lo_y + I - 1], OR over deps (x, y, w) into S from outside of a new
 *     Boolean b with b -> t_y - t_x <= w + I - 1;
 *   with the rows over the times (or no slots), at most one relative row:
 *     int r_x in [D(a, x) - k_x I, -D(x, a) - k_x I] per op x on a cycle
 *     with the anchor a that has a use of U, and U's row over them (see
 *     "the relative row" below: which a, U and k_x, and why it holds in
 *     every schedule).
 *
 * What the statement claims of the kernel.  The bounds, deps and rows hold
 * in every schedule (check_reduce.c); the windows and the horizon in some
 * schedule whenever there is one, no longer than it.  The normal form,
 * stated only when L may reach the horizon: adding the same c to every
 * start keeps every dep and turns every slot by c, so every unit's rows
 * still hold; put the anchor in the slot of its lo (or a at T0: every y is
 * reached from a, so t_y >= T0 + D(a, y) >= lo_y), then take the least
 * times with those slots: the anchor stays (at lo when no dep enters it),
 * and every op stays within its window (the chain argument of
 * check_reduce.c, D being a longest path).  The slot variables: s = t mod
 * I, k = t div I lie in their domains (lo >= 0); a full unit's uses hold
 * at most cap per residue and cap * I of them, so every residue holds
 * exactly cap >= 1; the row over the times states the same rows again
 * (t_i and s_i share their residue).  The support: in the least times with given slots,
 * follow from any op y of S the dep or bound that holds it within I - 1
 * below; the chain cannot cycle (a cycle would add nothing), so it ends at
 * an op at its own bound, in S or entered from outside S.  So a
 * refutation of the statement proves that the kernel has no schedule at I
 * with L <= Lmax.
 *
 * The text is written here by the checker's own writer of the twill-smt
 * proof format (the lines the CDCL core's proof writer, sat/smt.c, puts
 * before any search: `i` per int, `o` per order literal when first
 * needed, `k` per constraint, `a` per input clause, the constant true
 * literal T first).  A refutation is accepted only if it starts with
 * exactly these bytes; sat/smt_check.c then checks it with every input
 * line after them refused (its own tokenizer: no spelling of a directive
 * slips past) and must derive the empty clause.
 */
#include "check_int.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the writer -------------------------------------------------------- */

typedef struct olist {
  int64_t *k;
  int *sv;
  int n, cap;
} olist;

typedef struct stw {
  char *s;
  size_t n, cap;
  int err;
  int T, nsv, ncons;
  int niv, civ;
  int64_t *lo, *hi;
  olist *ol;
} stw;

static void put(stw *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(stw *w, const char *fmt, ...) {
  if (w->err) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(w->s ? w->s + w->n : NULL, w->s ? w->cap - w->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      w->err = 1;
      return;
    }
    if (w->s && w->n + (size_t)k < w->cap) {
      w->n += (size_t)k;
      return;
    }
    size_t nc = w->cap ? 2 * w->cap : 4096;
    while (nc < w->n + (size_t)k + 1) nc *= 2;
    char *ns = realloc(w->s, nc);
    if (!ns) {
      w->err = 1;
      return;
    }
    w->s = ns;
    w->cap = nc;
  }
}

static void w_free(stw *w) {
  free(w->s);
  free(w->lo);
  free(w->hi);
  for (int i = 0; i < w->niv; i++) free(w->ol[i].k), free(w->ol[i].sv);
  free(w->ol);
}

/* the constant true literal, created (with its unit clause) by the first
 * directive that needs it, as the core does */
static void w_true(stw *w) {
  if (w->T) return;
  w->T = ++w->nsv;
  put(w, "a %d 0\n", w->T);
}

static int w_int(stw *w, int64_t lo, int64_t hi) {
  w_true(w);
  if (w->err || lo > hi) {
    w->err = 1;
    return -1;
  }
  if (w->niv == w->civ) {
    int nc = w->civ ? 2 * w->civ : 64;
    int64_t *a = realloc(w->lo, (size_t)nc * sizeof *a);
    if (a) w->lo = a;
    int64_t *b = realloc(w->hi, (size_t)nc * sizeof *b);
    if (b) w->hi = b;
    olist *c = realloc(w->ol, (size_t)nc * sizeof *c);
    if (c) w->ol = c;
    if (!a || !b || !c) {
      w->err = 1;
      return -1;
    }
    w->civ = nc;
  }
  int x = w->niv++;
  w->lo[x] = lo;
  w->hi[x] = hi;
  memset(&w->ol[x], 0, sizeof w->ol[x]);
  put(w, "i %d %" PRId64 " %" PRId64 "\n", x, lo, hi);
  return x;
}

static int w_bool(stw *w) {
  w_true(w);
  return ++w->nsv;
}

/* [x <= k]: a constant outside [lo, hi - 1], else the literal, introduced
 * by an `o` line the first time */
static int w_le(stw *w, int x, int64_t k) {
  w_true(w);
  if (w->err || x < 0 || x >= w->niv) {
    w->err = 1;
    return 0;
  }
  if (k < w->lo[x]) return -w->T;
  if (k >= w->hi[x]) return w->T;
  olist *o = &w->ol[x];
  int p = 0;
  while (p < o->n && o->k[p] < k) p++;
  if (p < o->n && o->k[p] == k) return o->sv[p];
  if (o->n == o->cap) {
    int nc = o->cap ? 2 * o->cap : 4;
    int64_t *a = realloc(o->k, (size_t)nc * sizeof *a);
    if (a) o->k = a;
    int *b = realloc(o->sv, (size_t)nc * sizeof *b);
    if (b) o->sv = b;
    if (!a || !b) {
      w->err = 1;
      return 0;
    }
    o->cap = nc;
  }
  memmove(o->k + p + 1, o->k + p, (size_t)(o->n - p) * sizeof *o->k);
  memmove(o->sv + p + 1, o->sv + p, (size_t)(o->n - p) * sizeof *o->sv);
  int sv = ++w->nsv;
  o->k[p] = k;
  o->sv[p] = sv;
  o->n++;
  put(w, "o %d %" PRId64 " %d\n", x, k, sv);
  return sv;
}

static void w_clause(stw *w, const int *lits, int n) {
  w_true(w);
  put(w, "a");
  for (int i = 0; i < n; i++) put(w, " %d", lits[i]);
  put(w, " 0\n");
}

/* e <-> [x = k], defined by three clauses */
static int w_eq(stw *w, int x, int64_t k) {
  w_true(w);
  if (w->err || x < 0 || x >= w->niv) {
    w->err = 1;
    return 0;
  }
  if (k < w->lo[x] || k > w->hi[x]) return -w->T;
  if (w->lo[x] == w->hi[x]) return w->T;
  int e = ++w->nsv;
  int le = w_le(w, x, k), lt = w_le(w, x, k - 1);
  int c1[2] = {-e, le}, c2[2] = {-e, -lt}, c3[3] = {e, -le, lt};
  w_clause(w, c1, 2);
  w_clause(w, c2, 2);
  w_clause(w, c3, 3);
  return e;
}

/* sum a_j x_j (+ a_j l_j for lit terms: var < 0) <= b, under reif (0:
 * none) */
static void w_lin(stw *w, int n, const int64_t *a, const int *var, const int *lit, int64_t b,
                  int reif) {
  w_true(w);
  put(w, "k %d lin %d %d", ++w->ncons, reif, n);
  for (int j = 0; j < n; j++) {
    if (var[j] >= 0) put(w, " %" PRId64 " x%d", a[j], var[j]);
    else put(w, " %" PRId64 " l%d", a[j], lit[j]);
  }
  put(w, " %" PRId64 "\n", b);
}

static void w_diff(stw *w, int x, int y, int64_t c) {
  int64_t a[2] = {1, -1};
  int v[2] = {x, y}, l[2] = {0, 0};
  w_lin(w, 2, a, v, l, c, 0);
}

/* the uses listed by variable, stably */
static void w_mod(stw *w, int cap, int64_t period, const int *vars, const int64_t *offs,
                  int n) {
  w_true(w);
  int *order = malloc(((size_t)n + 1) * sizeof *order);
  if (!order) {
    w->err = 1;
    return;
  }
  for (int i = 0; i < n; i++) {
    int j = i;
    while (j > 0 && vars[order[j - 1]] > vars[i]) order[j] = order[j - 1], j--;
    order[j] = i;
  }
  put(w, "k %d mod %d %" PRId64 " %d", ++w->ncons, cap, period, n);
  for (int i = 0; i < n; i++) put(w, " %d %" PRId64, vars[order[i]], offs[order[i]]);
  put(w, "\n");
  free(order);
}

/* ---- the statement ------------------------------------------------------ */

/* reach[x*n + y]: a chain of deps leads from kept op x to y (x to itself
 * always).  NULL out of memory. */
static char *reachability(const cred *r) {
  int n = r->n;
  size_t nn = (size_t)n + 1;
  char *reach = calloc(nn * nn, 1);
  int *fifo = malloc(nn * sizeof *fifo), *first = malloc(nn * sizeof *first);
  int *nextd = malloc(((size_t)r->ndeps + 1) * sizeof *nextd);
  if (!reach || !fifo || !first || !nextd) {
    free(reach);
    reach = NULL;
    goto out;
  }
  for (int x = 0; x < n; x++) first[x] = -1;
  for (int k = r->ndeps - 1; k >= 0; k--) nextd[k] = first[r->dx[k]], first[r->dx[k]] = k;
  for (int x = 0; x < n; x++) {
    char *row = reach + (size_t)x * (size_t)n;
    int qh = 0, qt = 0;
    fifo[qt++] = x;
    row[x] = 1;
    while (qh < qt) {
      int z = fifo[qh++];
      for (int k = first[z]; k >= 0; k = nextd[k])
        if (!row[r->dy[k]]) row[r->dy[k]] = 1, fifo[qt++] = r->dy[k];
    }
  }
out:
  free(fifo);
  free(first);
  free(nextd);
  return reach;
}

/* ---- the relative row --------------------------------------------------
 * For an anchor a and a kept op x on a cycle of deps with it, every
 * schedule has D(a, x) <= t_x - t_a <= -D(x, a), and unit U's row holds
 * over r_x = t_x - t_a - k_x I for any integers k_x (its residues are t_x's
 * turned by t_a).  A window narrower than I is an arc of the circle of
 * residues, and uses confined to an arc of w < I residues hold at most cap
 * * w.  The statement adds, for the first anchor (in kept order), then the
 * first unit (in order), then the first cut p (increasing, among the
 * residues of D(a, x) of the ops x whose windows are narrower than I)
 * where the windows moved by multiples of I to start in [p, p + I) crowd
 * a stretch [p, q] (more than cap * (q - p + 1) uses end by q): an int in
 * [D(a, x) - k_x I, -D(x, a) - k_x I], k_x = floor((D(a, x) - p) / I), per
 * op x on a cycle with a that has a use of U, and U's row over them: the
 * window rule refutes it at once.  Nothing ties these ints to t_x: a
 * schedule gives each its value, so a refutation of the statement is one
 * of the schedules.  Only when n * (deps + the sum over kept units of their
 * uses squared) <= 20000000 (the engine's bound, core/modulo/modulo_smt.c). */
#define CP1_REL_MAX_WORK 20000000L

/* The deps by tail (out) and by head (in), each in dep order (op x's are
 * list[head[x] .. head[x + 1])), with a search's work arrays. */
typedef struct cp1_adj {
  int *outh, *inh, *outl, *inl, *fifo, *taken;
  char *queued;
} cp1_adj;

static void adj_free(cp1_adj *a) {
  free(a->outh);
  free(a->inh);
  free(a->outl);
  free(a->inl);
  free(a->fifo);
  free(a->taken);
  free(a->queued);
}

/* 0, or -1 out of memory (a freed) */
static int adj_new(const cred *r, cp1_adj *a) {
  int n = r->n;
  size_t nn = (size_t)n + 1, nd = (size_t)r->ndeps + 1;
  a->outh = calloc(nn + 1, sizeof *a->outh), a->inh = calloc(nn + 1, sizeof *a->inh);
  a->outl = malloc(nd * sizeof *a->outl), a->inl = malloc(nd * sizeof *a->inl);
  a->fifo = malloc(nn * sizeof *a->fifo), a->taken = malloc(nn * sizeof *a->taken);
  a->queued = malloc(nn);
  if (!a->outh || !a->inh || !a->outl || !a->inl || !a->fifo || !a->taken || !a->queued) {
    adj_free(a);
    return -1;
  }
  for (int k = 0; k < r->ndeps; k++) a->outh[r->dx[k] + 1]++, a->inh[r->dy[k] + 1]++;
  for (int i = 0; i < n; i++) a->outh[i + 1] += a->outh[i], a->inh[i + 1] += a->inh[i];
  int *po = a->fifo, *pi = a->taken; /* cursors, before any search */
  for (int i = 0; i < n; i++) po[i] = a->outh[i], pi[i] = a->inh[i];
  for (int k = 0; k < r->ndeps; k++) a->outl[po[r->dx[k]]++] = k, a->inl[pi[r->dy[k]]++] = k;
  return 0;
}

/* d[y] = D(s, y) (back: d[y] = D(y, s)), LONG_MIN where no path, by a FIFO
 * label-correcting search; 0, or -1 on a positive cycle (an op taken more
 * than n + 1 times) */
static int rel_search(const cred *r, const cp1_adj *a, int back, int s, long *d) {
  int n = r->n, *fifo = a->fifo, *taken = a->taken;
  const int *head = back ? a->inh : a->outh, *list = back ? a->inl : a->outl;
  char *queued = a->queued;
  for (int y = 0; y < n; y++) d[y] = LONG_MIN, taken[y] = 0, queued[y] = 0;
  d[s] = 0;
  int h = 0, len = 1;
  fifo[0] = s;
  queued[s] = 1;
  while (len > 0) {
    int x = fifo[h];
    h = h + 1 == n ? 0 : h + 1;
    len--;
    queued[x] = 0;
    for (int j = head[x]; j < head[x + 1]; j++) {
      int k = list[j], y = back ? r->dx[k] : r->dy[k];
      if (d[x] + r->dw[k] <= d[y]) continue;
      d[y] = d[x] + r->dw[k];
      if (queued[y]) continue;
      if (++taken[y] > n + 1) return -1;
      int t = h + len;
      fifo[t >= n ? t - n : t] = y;
      queued[y] = 1;
      len++;
    }
  }
  return 0;
}

/* k with k * ii <= x < (k + 1) * ii, ii > 0 */
static long rel_div(long x, long ii) {
  long k = x / ii;
  return k * ii > x ? k - 1 : k;
}

static int cmp_long(const void *p, const void *q) {
  long a = *(const long *)p, b = *(const long *)q;
  return (a > b) - (a < b);
}

/* Unit u's uses of ops with windows [to, -from] narrower than I: their
 * windows and offsets into lo[], hi[], off[]; the count */
static int rel_collect(const twill_graph *g, const cred *r, int u, const long *to,
                       const long *from, long *lo, long *hi, long *off) {
  int m = 0;
  for (int i = 0; i < r->n; i++) {
    if (to[i] == LONG_MIN || from[i] == LONG_MIN || -from[i] - to[i] >= r->ii - 1) continue;
    const twill_op *op = &g->ops[r->op[i]];
    for (int x = 0; x < op->nuses; x++) {
      const twill_use *us = &op->uses[x];
      if (us->unit != u) continue;
      for (int j = 0; j < us->cycles; j++)
        for (int c = 0; c < us->count; c++, m++) lo[m] = to[i], hi[m] = -from[i], off[m] = us->offset + j;
    }
  }
  return m;
}

/* The first cut p (increasing, among the residues of lo[]) where the
 * windows moved to start in [p, p + I) crowd a stretch [p, q]: more than
 * cap * (q - p + 1) of them end by q.  -1 if none.  res, ends: room for m. */
static long rel_first_cut(const long *lo, const long *hi, const long *off, int m, long cap,
                          long ii, long *res, long *ends) {
  for (int k = 0; k < m; k++) res[k] = lo[k] - rel_div(lo[k], ii) * ii;
  qsort(res, (size_t)m, sizeof *res, cmp_long);
  for (int c = 0; c < m; c++) {
    if (c > 0 && res[c] == res[c - 1]) continue;
    long p = res[c];
    int e = 0;
    for (int k = 0; k < m; k++) {
      long end = hi[k] - rel_div(lo[k] - p, ii) * ii + off[k] - p; /* q - p of its end */
      if (end < ii) ends[e++] = end;
    }
    qsort(ends, (size_t)e, sizeof *ends, cmp_long);
    for (int k = 0; k < e; k++) /* k + 1 uses end by p + ends[k] */
      if ((long)k + 1 > cap * (ends[k] + 1)) return p;
  }
  return -1;
}

/* The relative row's unit and cut: 1 with to[] = D(a, .), from[] = D(.,
 * a); 0 if none (or above the bound on the work); -1 on error */
static int rel_choose(const twill_graph *g, const cred *r, int *unit, long *cut, long *to,
                      long *from) {
  int n = r->n;
  long nu = 0, work = r->ndeps;
  for (int ku = 0; ku < r->nunits && work <= CP1_REL_MAX_WORK; ku++) {
    long c = 0;
    for (int i = 0; i < n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++)
        if (op->uses[x].unit == r->unit[ku]) c += (long)op->uses[x].cycles * op->uses[x].count;
    }
    nu += c;
    work += c <= CP1_REL_MAX_WORK ? c * c : CP1_REL_MAX_WORK + 1;
  }
  if (n == 0 || work > CP1_REL_MAX_WORK / n) return 0;
  size_t nb = (size_t)nu + 1;
  long *lo = malloc(nb * sizeof *lo), *hi = malloc(nb * sizeof *hi), *off = malloc(nb * sizeof *off);
  long *res = malloc(nb * sizeof *res), *ends = malloc(nb * sizeof *ends);
  cp1_adj adj;
  int rc = lo && hi && off && res && ends ? adj_new(r, &adj) : -1;
  int have_adj = rc == 0;
  for (int a = 0; a < n && rc == 0; a++) {
    if (rel_search(r, &adj, 0, a, to) || rel_search(r, &adj, 1, a, from)) {
      rc = -1;
      break;
    }
    for (int ku = 0; ku < r->nunits && rc == 0; ku++) {
      int u = r->unit[ku], m = rel_collect(g, r, u, to, from, lo, hi, off);
      long p = m > g->units[u].capacity
                   ? rel_first_cut(lo, hi, off, m, g->units[u].capacity, r->ii, res, ends)
                   : -1;
      if (p >= 0) *unit = u, *cut = p, rc = 1;
    }
  }
  if (have_adj) adj_free(&adj);
  free(lo);
  free(hi);
  free(off);
  free(res);
  free(ends);
  return rc;
}

/* The relative row of unit u cut at p (the paths of rel_choose) into w */
static void w_rel_row(stw *w, const twill_graph *g, const cred *r, int u, long p, const long *to,
                      const long *from) {
  long nu = 0;
  for (int i = 0; i < r->n; i++) {
    const twill_op *op = &g->ops[r->op[i]];
    for (int x = 0; x < op->nuses; x++)
      if (op->uses[x].unit == u) nu += (long)op->uses[x].cycles * op->uses[x].count;
  }
  int *vars = malloc(((size_t)nu + 1) * sizeof *vars);
  int64_t *offs = malloc(((size_t)nu + 1) * sizeof *offs);
  if (!vars || !offs) w->err = 1;
  int k = 0;
  for (int i = 0; !w->err && i < r->n; i++) {
    if (to[i] == LONG_MIN || from[i] == LONG_MIN) continue;
    const twill_op *op = &g->ops[r->op[i]];
    long move = rel_div(to[i] - p, r->ii) * r->ii;
    int v = -1;
    for (int x = 0; x < op->nuses; x++) {
      const twill_use *us = &op->uses[x];
      if (us->unit != u) continue;
      if (v < 0) v = w_int(w, to[i] - move, -from[i] - move);
      for (int j = 0; j < us->cycles; j++)
        for (int c = 0; c < us->count; c++) vars[k] = v, offs[k++] = (int64_t)us->offset + j;
    }
  }
  if (!w->err) w_mod(w, g->units[u].capacity, r->ii, vars, offs, k);
  free(vars);
  free(offs);
}

/* The statement's text (with its "p" and "T" header), or NULL with why. */
static char *statement(const twill_graph *g, const cred *r, long lmax, int rotate, int form,
                       size_t *len, char *why, size_t whylen) {
  int slots = (form & CP1_FORM_SLOTS) != 0, times = slots && (form & CP1_FORM_TIMES);
  int n = r->n;
  size_t nn = (size_t)n + 1;
  stw w;
  memset(&w, 0, sizeof w);
  /* reachability is n * n bytes: up to 64 MB (the largest HLS loops keep
   * under 1400 ops) */
  char *text = NULL, *reach = n > 0 && (size_t)n <= 8000 ? reachability(r) : NULL;
  long *lo = malloc(nn * sizeof *lo), *hi = malloc(nn * sizeof *hi), *d = malloc(nn * sizeof *d);
  int *cl = malloc(((size_t)r->ndeps + nn + 1) * sizeof *cl);
  int *var = malloc(nn * sizeof *var); /* the int var a kept op's uses are on */
  *len = 0;
  snprintf(why, whylen, "out of memory");
  if ((n > 0 && !reach) || !lo || !hi || !d || !cl || !var) goto out;
  int pin = -1, anchor = -1;
  for (int x = 0; rotate && x < n && pin < 0; x++) {
    int all = 1;
    for (int y = 0; y < n && all; y++) all = reach[(size_t)x * (size_t)n + (size_t)y];
    if (all) pin = x;
  }
  if (pin >= 0) {
    /* D(pin, .) */
    cp1_adj adj;
    int bad = adj_new(r, &adj) ? -1 : rel_search(r, &adj, 0, pin, d) ? 1 : 0;
    if (bad >= 0) adj_free(&adj);
    if (bad) {
      snprintf(why, whylen, bad < 0 ? "out of memory" : "a positive cycle among the deps");
      goto out;
    }
    long t0 = LONG_MIN;
    for (int y = 0; y < n; y++)
      if (r->lo[y] - d[y] > t0) t0 = r->lo[y] - d[y];
    for (int y = 0; y < n; y++) {
      lo[y] = t0 + d[y];
      hi[y] = y == pin ? lo[y] : lo[y] + r->win[y];
    }
  } else {
    for (int i = 0; rotate && i < n && anchor < 0; i++) { /* no dep's head */
      int entered = 0;
      for (int k = 0; k < r->ndeps && !entered; k++) entered = r->dy[k] == i;
      if (!entered) anchor = i;
    }
    for (int i = 0; i < n; i++) {
      lo[i] = r->lo[i];
      hi[i] = i == anchor ? r->lo[i] : lmax - r->tail[i];
      if (hi[i] > r->lo[i] + r->win[i]) hi[i] = r->lo[i] + r->win[i];
    }
  }
  for (int i = 0; i < n; i++)
    if (w_int(&w, lo[i], hi[i]) != i) {
      snprintf(why, whylen, "kept op '%s' has no time in [%ld, %ld]", g->ops[r->op[i]].name,
               lo[i], hi[i]);
      goto out;
    }
  if (rotate && n > 0 && pin < 0 && anchor < 0) {
    int k = w_int(&w, 0, r->win[0] / r->ii);
    int64_t up[2] = {1, -r->ii}, down[2] = {-1, r->ii};
    int v[2] = {0, k}, l[2] = {0, 0};
    w_lin(&w, 2, up, v, l, r->lo[0], 0);    /* t_0 - I k <= lo_0 */
    w_lin(&w, 2, down, v, l, -r->lo[0], 0); /* I k - t_0 <= -lo_0 */
  }
  for (int k = 0; k < r->ndeps; k++) w_diff(&w, r->dx[k], r->dy[k], -r->dw[k]);
  for (int i = 0; i < n; i++) {
    var[i] = i;
    if (!slots) continue;
    if (lo[i] < 0) {
      snprintf(why, whylen, "a negative start bound with slot variables");
      goto out;
    }
    int s = w_int(&w, 0, r->ii - 1);
    int k = w_int(&w, lo[i] / r->ii, hi[i] / r->ii);
    int64_t le[3] = {1, -r->ii, -1}, ge[3] = {-1, r->ii, 1};
    int v[3] = {i, k, s}, l[3] = {0, 0, 0};
    w_lin(&w, 3, le, v, l, 0, 0); /* t - I k - s <= 0 */
    w_lin(&w, 3, ge, v, l, 0, 0); /* -t + I k + s <= 0 */
    var[i] = s;
  }
  for (int ku = 0; ku < r->nunits && !w.err; ku++) {
    int u = r->unit[ku];
    long cnt = 0;
    for (int i = 0; i < n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++)
        if (op->uses[x].unit == u) cnt += (long)op->uses[x].cycles * op->uses[x].count;
    }
    if (cnt == 0 || cnt > 100000000L) {
      snprintf(why, whylen, "unit %s: %ld uses", g->units[u].name, cnt);
      goto out;
    }
    int *vars = malloc((size_t)cnt * sizeof *vars), *ops = malloc((size_t)cnt * sizeof *ops);
    int64_t *offs = malloc((size_t)cnt * sizeof *offs);
    long k = 0;
    for (int i = 0; vars && ops && offs && i < n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++) {
        const twill_use *us = &op->uses[x];
        if (us->unit != u) continue;
        for (int j = 0; j < us->cycles; j++)
          for (int c = 0; c < us->count; c++) {
            ops[k] = i; /* t_i is int var i */
            vars[k] = var[i];
            offs[k++] = (int64_t)us->offset + j;
          }
      }
    }
    if (!vars || !ops || !offs) w.err = 1;
    else w_mod(&w, g->units[u].capacity, r->ii, vars, offs, (int)cnt);
    if (!w.err && slots && cnt == (long)g->units[u].capacity * r->ii) {
      int *lits = malloc((size_t)cnt * sizeof *lits);
      if (!lits) w.err = 1;
      for (long q = 0; !w.err && q < r->ii; q++) {
        for (long x = 0; !w.err && x < cnt; x++) {
          int64_t v = (q - offs[x]) % r->ii;
          if (v < 0) v += r->ii;
          lits[x] = w_eq(&w, vars[x], v);
        }
        w_clause(&w, lits, (int)cnt);
      }
      free(lits);
    }
    if (!w.err && times) w_mod(&w, g->units[u].capacity, r->ii, ops, offs, (int)cnt);
    free(vars);
    free(ops);
    free(offs);
  }
  for (int s0 = 0; s0 < n && !w.err; s0++) {
    const char *from = reach + (size_t)s0 * (size_t)n;
    int in_before = 0, size = 0, trivial = 0;
    for (int z = 0; z < s0 && !in_before; z++)
      in_before = from[z] && reach[(size_t)z * (size_t)n + (size_t)s0];
    if (in_before) continue; /* s0 is not the smallest op of its set */
    for (int y = s0; y < n; y++)
      if (from[y] && reach[(size_t)y * (size_t)n + (size_t)s0]) {
        size++;
        trivial |= lo[y] + r->ii - 1 >= hi[y];
      }
    if (size < 2 || trivial) continue;
    int c = 0;
    for (int y = s0; y < n; y++)
      if (from[y] && reach[(size_t)y * (size_t)n + (size_t)s0])
        cl[c++] = w_le(&w, y, lo[y] + r->ii - 1);
    for (int k = 0; k < r->ndeps; k++) {
      int y = r->dy[k], x = r->dx[k];
      int y_in = from[y] && reach[(size_t)y * (size_t)n + (size_t)s0];
      int x_in = from[x] && reach[(size_t)x * (size_t)n + (size_t)s0];
      if (!y_in || x_in) continue;
      int b = w_bool(&w);
      int64_t a[2] = {1, -1};
      int v[2] = {y, x}, l[2] = {0, 0};
      w_lin(&w, 2, a, v, l, r->dw[k] + r->ii - 1, b); /* b -> t_y - t_x <= w + I - 1 */
      cl[c++] = b;
    }
    w_clause(&w, cl, c);
  }
  if (!w.err && (form & CP1_FORM_RELATIVE) && (!slots || times)) {
    /* the relative row, with the window rule on */
    int u = -1;
    long p = -1;
    long *to = malloc(nn * sizeof *to), *from = malloc(nn * sizeof *from);
    int f = to && from ? rel_choose(g, r, &u, &p, to, from) : -1;
    if (f < 0) snprintf(why, whylen, "the relative row: a positive cycle or out of memory");
    if (f < 0) w.err = 1;
    if (f == 1) w_rel_row(&w, g, r, u, p, to, from);
    free(to);
    free(from);
  }
  if (w.err) goto out;
  {
    char head[64];
    int hl = snprintf(head, sizeof head, "p twill-smt 2\nT %d\n", w.T);
    text = malloc(w.n + (size_t)hl + 1);
    if (!text) goto out;
    memcpy(text, head, (size_t)hl);
    if (w.n) memcpy(text + hl, w.s, w.n);
    text[(size_t)hl + w.n] = 0;
    *len = w.n + (size_t)hl;
  }
out:
  w_free(&w);
  free(reach);
  free(lo);
  free(hi);
  free(d);
  free(cl);
  free(var);
  return text;
}

int twill_phase1_smt_check(cert_rd *rd, const twill_graph *g, const cred *r, long lmax,
                           int rotate, int form, const char *blk, size_t n) {
  if (lmax < r->lfloor)
    return twill_cr_fail(rd, "a twill-smt refutation at I = %ld of L <= %ld: that is below "
                         "the critical path %ld, nothing to refute", r->ii, lmax, r->lfloor);
  char why[200];
  size_t tl;
  char *txt = statement(g, r, lmax, rotate, form, &tl, why, sizeof why);
  if (!txt)
    return twill_cr_fail(rd, "cannot state phase 1 at I = %ld, L <= %ld: %s", r->ii, lmax, why);
  if ((tl > n || memcmp(txt, blk, tl)) && (form & CP1_FORM_SLOTS) && (form & CP1_FORM_TIMES)) {
    /* the engine's rounds take turns with and without the times rows
     * (core/modulo/modulo_smt.c, ask()): a refutation of the rows without
     * them refutes a subset of the same constraints, so it proves as much */
    size_t t0l;
    char *t0 = statement(g, r, lmax, rotate, form & ~CP1_FORM_TIMES, &t0l, why, sizeof why);
    if (t0 && t0l <= n && !memcmp(t0, blk, t0l)) {
      free(txt);
      txt = t0;
      tl = t0l;
    } else {
      free(t0);
    }
  }
  if (tl > n || memcmp(txt, blk, tl)) {
    size_t i = 0;
    int line = 1;
    while (i < tl && i < n && txt[i] == blk[i]) line += txt[i++] == '\n';
    size_t s = i;
    while (s > 0 && txt[s - 1] != '\n') s--;
    const char *e = memchr(txt + s, '\n', tl - s);
    int len = e ? (int)(e - (txt + s)) : (int)(tl - s);
    twill_cr_fail(rd, "the twill-smt refutation at I = %ld, L <= %ld is not of the problem the "
                  "checker states from the kernel: its line %d differs (expected '%.*s')",
                  r->ii, lmax, line, len > 60 ? 60 : len, txt + s);
    free(txt);
    return -1;
  }
  free(txt);
  char m[400];
  twill_smt_inputs in = {tl, NULL, NULL};
  int c = twill_smt_check_proof_inputs(blk, n, &in, m, sizeof m);
  if (c != 1)
    return twill_cr_fail(rd, "the twill-smt refutation at I = %ld, L <= %ld is rejected: %s",
                         r->ii, lmax, c == 0 ? "no empty clause derived" : m);
  return 0;
}
