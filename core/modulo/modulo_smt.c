/* core/modulo/modulo_smt.c: phase 1 at one I on the CDCL core (the SMT
 * engine of core/modulo/modulo_engine.h).
 *
 * The reduced problem at (I, Lmax) as twill-smt constraints, in this order
 * (a certificate's refutation starts with exactly these lines, and the
 * checker, core/check/cert_modulo_smt.c, states them again from its own
 * reduction of the kernel and compares):
 *   1. per kept op i, in order: int t_i in [lo'_i, hi'_i], by default
 *      lo' = lo, hi' = min(Lmax - tail_i, lo_i + win_i) (completion: L - t
 *      >= tail, L <= Lmax; the window loses no schedule and no optimal L:
 *      modulo_reduce.c);
 *   2. only when the question is whether I has a schedule at all (Lmax =
 *      the horizon), a normal form of the schedule, in the domains of 1:
 *      pinned: when some kept op reaches every kept op along deps, the
 *        first such op a is pinned at T0 = max over y of lo_y - D(a, y)
 *        (D the longest dep path, D(a, a) = 0), and every y gets
 *        [T0 + D(a, y), T0 + D(a, y) + win_y] ([T0, T0] for a);
 *      rotated, otherwise: the first kept op no dep enters gets [lo, lo];
 *        when every kept op has a dep into it, kept op 0 is the anchor
 *        and an int k in [0, win_0 / I] (var n) with lin t_0 - I*k <= lo_0
 *        and lin -t_0 + I*k <= -lo_0 puts it in the slot of lo_0;
 *   3. per dep (x, y, w), in order: diff t_x - t_y <= -w;
 *   3b. with the form's slots, per kept op i in order: int s_i in [0, I-1],
 *      int k_i in [lo'_i / I, hi'_i / I] (lo' >= 0), and lin t_i - I k_i -
 *      s_i <= 0, lin -t_i + I k_i + s_i <= 0;
 *   4. per kept unit U, in order: mod cap(U) I over, for each kept op i
 *      in order, each of its uses (U, o, c, n) in order, j < c, n times:
 *      t_i @ o + j (with slots: s_i @ o + j, the same residue); with slots,
 *      when U has exactly cap(U) * I uses (full), then per residue q in
 *      order the clause OR over those uses x in order of e, the literal
 *      e <-> [s_x = (q - o_x) mod I] (twill_smt_eq_lit): N uses, at most
 *      cap(U) per residue and cap(U) * I of them, so every residue holds
 *      exactly cap(U) >= 1;
 *   4c. with the form's slots and times, after 4 (and 4b) of U: the same
 *      row over the start times, mod cap(U) I over t_i @ o + j, where the
 *      modulo propagator's window rule (sat/smt.c) sees a stretch of time
 *      too short for the uses the bounds confine to it before their slots
 *      are decided (ChStone adpcm/graph2 at I = 50: L >= 85 at the root;
 *      MachSuite aes2/graph4: I = 30 and 31 refuted);
 *   5. support, per strongly connected set S of two or more kept ops (the
 *      deps' graph; sets in order of their smallest op), unless some op of
 *      S has hi' <= lo' + I - 1: the clause
 *        OR over y in S (in order) of [t_y <= lo'_y + I - 1]
 *        OR over deps (x, y, w) into S from outside (in order) of b, a new
 *           Boolean with lin b -> t_y - t_x <= w + I - 1;
 *   6. with the form's relative row and the window rule on (the times
 *      rows, or no slots), when some
 *      anchor a, kept unit U and cut p give a crowded relative row (the
 *      first a, then the first U, then the first p; see rel_find): per
 *      kept op x on a cycle of deps with a that has a use of U, in order,
 *      int r_x in [D(a, x) - k_x I, -D(x, a) - k_x I] with k_x = floor((D(a,
 *      x) - p) / I), and mod cap(U) I over r_x @ o + j for those uses (in
 *      op, use, cycle, instance order).
 * The modulo propagator checks the residues of fixed start times and
 * prunes a bound whose residue is full (a time window per residue), the
 * difference propagator keeps the windows of the deps.
 *
 * Why 2 and 5 lose no schedule.  The least times with given slots (keep
 * the slots of a solution, lower every op to the least time with its slot
 * that its bound and the deps into it allow; modulo_reduce.c) keep every
 * constraint, end no later, and have support: follow from any op y of S
 * the dep (or bound) that holds it up to within I - 1 below: the chain
 * cannot cycle (a cycle would add nothing, and so could be dropped), so it
 * ends at an op at its own bound, and if it never leaves S that op is in
 * S.  Adding the same c to every start keeps every dep and turns every
 * slot by c, so the units' rows still hold.  Pinned: shift a solution so
 * that a sits at T0; every y is reached from a, so t_y >= T0 + D(a, y) >=
 * lo_y; then take the least times above T0 + D(a, .) with those slots: a
 * stays at T0, and every y within win_y of its bound (the chain argument
 * of modulo_reduce.c, since D is a longest path).  Rotated: shift by c >=
 * 0 to bring the anchor to the slot of its lo, then take the least times:
 * an anchor with no dep into it sits at lo itself.  A shift changes L, so
 * 2 is only stated when L is free (up to the horizon), never in a probe
 * of the least L; 5 holds in both.  3b and 4b add nothing a schedule
 * could miss (s = t mod I, k = t div I lie in their domains), but they let
 * the search reason on residues before a start is fixed: the modulo
 * propagator sees a slot as soon as it is decided, and a full unit's
 * residue with one candidate left forces it (random loops of 10-19 ops at
 * I = MII with a full unit: 100000+ conflicts without a proof, under 1000
 * with them).  Without 2 and 5 the search would
 * refute the same slots again at every stage a part of the schedule could
 * slide to (ChStone aes/graph2 at I = 45: 23320 order literals and 11 s
 * without them, 3278 and 0.4 s with them).
 *
 * At I the engine first asks for any schedule (Lmax = the horizon: a
 * refutation there proves that none exists at I), then for the least L:
 * the critical path first (often met: then the bound needs no proof),
 * then a binary search, each probe a fresh encoding at Lmax = mid.  A
 * model's times are compacted (each op to the least stage its slot
 * allows), which can only shorten it.  The last refuted probe is at L* - 1:
 * its refutation proves L >= L*.  Every probe shares one budget of
 * conflicts, so the outcome within a budget is the same on any machine.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modulo_engine.h"
#include "twill/ilp.h"
#include "twill/smt.h"

/* The anchor of the rotation: the first kept op no dep enters, or -1. */
static int source(const twill_modulo_red *r) {
  char *in = calloc((size_t)r->n + 1, 1);
  if (!in) return -2;
  for (int k = 0; k < r->ndeps; k++) in[r->deps[k].y] = 1;
  int s = -1;
  for (int i = 0; i < r->n && s < 0; i++)
    if (!in[i]) s = i;
  free(in);
  return s;
}

/* The deps listed per kept op, out (by x) and in (by y), in dep order
 * (CSR: op i's are lst[beg[i] .. beg[i + 1])), with the work arrays of a
 * search. */
typedef struct dep_lists {
  int *fb, *fl, *bb, *bl;
  int *queue, *cnt;
  char *in;
} dep_lists;

static void dep_lists_free(dep_lists *l) {
  free(l->fb);
  free(l->fl);
  free(l->bb);
  free(l->bl);
  free(l->queue);
  free(l->cnt);
  free(l->in);
}

/* 0, or -1 out of memory (l freed) */
static int dep_lists_new(const twill_modulo_red *r, dep_lists *l) {
  size_t nn = (size_t)r->n + 1, nd = (size_t)r->ndeps + 1;
  l->fb = calloc(nn + 1, sizeof *l->fb), l->bb = calloc(nn + 1, sizeof *l->bb);
  l->fl = malloc(nd * sizeof *l->fl), l->bl = malloc(nd * sizeof *l->bl);
  l->queue = malloc(nn * sizeof *l->queue), l->cnt = malloc(nn * sizeof *l->cnt);
  l->in = malloc(nn);
  if (!l->fb || !l->bb || !l->fl || !l->bl || !l->queue || !l->cnt || !l->in) {
    dep_lists_free(l);
    return -1;
  }
  int n = r->n, *fb = l->fb, *bb = l->bb;
  for (int k = 0; k < r->ndeps; k++) fb[r->deps[k].x + 1]++, bb[r->deps[k].y + 1]++;
  for (int i = 0; i < n; i++) fb[i + 1] += fb[i], bb[i + 1] += bb[i];
  for (int k = 0; k < r->ndeps; k++) l->fl[fb[r->deps[k].x]++] = k, l->bl[bb[r->deps[k].y]++] = k;
  for (int i = n; i > 0; i--) fb[i] = fb[i - 1], bb[i] = bb[i - 1];
  fb[0] = bb[0] = 0;
  return 0;
}

/* Longest dep paths from (back == 0) or to (back == 1) kept op a into d[]
 * (LONG_MIN: no path), by a FIFO label-correcting search; 0, or -1 on a
 * positive cycle (I below RecMII). */
static int longest_paths(const twill_modulo_red *r, dep_lists *l, int back, int a, long *d) {
  int n = r->n, *queue = l->queue, *cnt = l->cnt;
  const int *beg = back ? l->bb : l->fb, *lst = back ? l->bl : l->fl;
  char *in = l->in;
  for (int i = 0; i < n; i++) d[i] = LONG_MIN, in[i] = 0, cnt[i] = 0;
  d[a] = 0;
  int qh = 0, size = 1;
  queue[0] = a;
  in[a] = 1;
  while (size) {
    int x = queue[qh];
    qh = (qh + 1) % n;
    size--;
    in[x] = 0;
    for (int k = beg[x]; k < beg[x + 1]; k++) {
      const twill_modulo_dep *e = &r->deps[lst[k]];
      int y = back ? e->x : e->y;
      if (d[x] + e->w <= d[y]) continue;
      d[y] = d[x] + e->w;
      if (in[y]) continue;
      /* an op joins the queue at most once per pass of the FIFO order, and
       * n passes settle every value unless a cycle is positive (its value
       * may grow several times within one pass: count the joins) */
      if (++cnt[y] > n + 1) return -1;
      queue[(qh + size++) % n] = y, in[y] = 1;
    }
  }
  return 0;
}

/* The pinned normal form: the first kept op that reaches every kept op,
 * its longest dep paths D into lo[] of the statement and the windows into
 * hi[]; 1 if found, 0 if no op reaches all, -1 out of memory or on a
 * positive cycle. */
static int pinned(const twill_modulo_red *r, long *lo, long *hi) {
  int n = r->n, a = -1;
  long *d = malloc(((size_t)n + 1) * sizeof *d);
  dep_lists l;
  if (!d || dep_lists_new(r, &l)) {
    free(d);
    return -1;
  }
  for (int s = 0; s < n && a < 0; s++) { /* who reaches everything? */
    memset(l.in, 0, (size_t)n);
    int qh = 0, qt = 0;
    l.queue[qt++] = s;
    l.in[s] = 1;
    while (qh < qt) {
      int x = l.queue[qh++];
      for (int k = l.fb[x]; k < l.fb[x + 1]; k++) {
        int y = r->deps[l.fl[k]].y;
        if (!l.in[y]) l.in[y] = 1, l.queue[qt++] = y;
      }
    }
    if (qt == n) a = s;
  }
  int rc = a < 0 ? 0 : longest_paths(r, &l, 0, a, d) ? -1 : 1;
  if (rc == 1) {
    long t0 = LONG_MIN;
    for (int y = 0; y < n; y++)
      if (r->lo[y] - d[y] > t0) t0 = r->lo[y] - d[y];
    for (int y = 0; y < n; y++) {
      lo[y] = t0 + d[y];
      hi[y] = y == a ? lo[y] : lo[y] + r->win[y];
    }
  }
  dep_lists_free(&l);
  free(d);
  return rc;
}

/* comp[y]: the smallest kept op in y's strongly connected set of deps (a
 * search forward and one backward from each op not yet placed); NULL out
 * of memory. */
static int *sccs(const twill_modulo_red *r) {
  int n = r->n;
  size_t nn = (size_t)n + 1;
  int *comp = malloc(nn * sizeof *comp), *fwd = malloc(nn * sizeof *fwd);
  int *stack = malloc(nn * sizeof *stack);
  char *a = malloc(nn), *b = malloc(nn);
  if (!comp || !fwd || !stack || !a || !b) {
    free(comp);
    comp = NULL;
    goto out;
  }
  for (int y = 0; y < n; y++) comp[y] = -1;
  for (int s = 0; s < n; s++) {
    if (comp[s] >= 0) continue;
    /* a: reached from s; b: reaching s; both: s's set */
    for (int dir = 0; dir < 2; dir++) {
      char *seen = dir ? b : a;
      memset(seen, 0, nn);
      int top = 0;
      stack[top++] = s;
      seen[s] = 1;
      while (top) {
        int z = stack[--top];
        for (int k = 0; k < r->ndeps; k++) {
          int from = dir ? r->deps[k].y : r->deps[k].x, to = dir ? r->deps[k].x : r->deps[k].y;
          if (from == z && !seen[to]) seen[to] = 1, stack[top++] = to;
        }
      }
    }
    for (int y = s; y < n; y++)
      if (a[y] && b[y]) comp[y] = s;
  }
out:
  free(fwd);
  free(stack);
  free(a);
  free(b);
  return comp;
}

/* The modulo rows of kept unit u (its uses in op, use, cycle, instance
 * order): over the slots when slot != NULL (then 4b), and over the start
 * times when times (4c) or there are no slots.  0, or -1 on allocation
 * failure. */
static int unit_rows(twill_smt *m, const twill_graph *g, const twill_modulo_red *r,
                     int u, const int *slot, int times) {
  long n = 0;
  for (int i = 0; i < r->n; i++) {
    const twill_op *op = &g->ops[r->op[i]];
    for (int x = 0; x < op->nuses; x++)
      if (op->uses[x].unit == u) n += (long)op->uses[x].cycles * op->uses[x].count;
  }
  if (n == 0) return 0;
  if (n > 100000000L) return -1;
  int *vars = malloc((size_t)n * sizeof *vars), *tv = malloc((size_t)n * sizeof *tv);
  int64_t *offs = malloc((size_t)n * sizeof *offs);
  long k = 0;
  for (int i = 0; vars && tv && offs && i < r->n; i++) {
    const twill_op *op = &g->ops[r->op[i]];
    for (int x = 0; x < op->nuses; x++) {
      const twill_use *us = &op->uses[x];
      if (us->unit != u) continue;
      for (int j = 0; j < us->cycles; j++)
        for (int c = 0; c < us->count; c++) {
          tv[k] = i;
          vars[k] = slot ? slot[i] : i;
          offs[k++] = (int64_t)us->offset + j;
        }
    }
  }
  int id = vars && tv && offs ? twill_smt_modulo(m, g->units[u].capacity, r->ii, vars, offs, (int)n)
                              : -1;
  /* without the times rows the window rule stays off over the slots too
   * (twill/smt.h): that statement's search is then the one before the
   * rule, which meets some schedules far sooner (see ask()) */
  int rc = id > 0 && (!slot || times || twill_smt_modulo_windows(m, id, 0) == 0) ? 0 : -1;
  /* 4b. a full unit (cap * I uses): every residue q holds cap >= 1 uses */
  if (rc == 0 && slot && n == (long)g->units[u].capacity * r->ii) {
    int *cl = malloc((size_t)n * sizeof *cl);
    if (!cl) rc = -1;
    for (long q = 0; cl && q < r->ii && rc == 0; q++) {
      for (long x = 0; x < n && rc == 0; x++)
        if (!(cl[x] = twill_smt_eq_lit(m, vars[x], ((q - offs[x]) % r->ii + r->ii) % r->ii)))
          rc = -1;
      if (rc == 0 && twill_smt_clause(m, cl, (int)n) < 0) rc = -1;
    }
    free(cl);
  }
  /* 4c. the same row over the start times */
  if (rc == 0 && slot && times &&
      twill_smt_modulo(m, g->units[u].capacity, r->ii, tv, offs, (int)n) < 0)
    rc = -1;
  free(vars);
  free(tv);
  free(offs);
  return rc;
}

/* ---- 6. the relative row ------------------------------------------------
 * Fix an anchor a.  For a kept op x that a reaches along deps and that
 * reaches a, every schedule has D(a, x) <= t_x - t_a <= -D(x, a) (D the
 * longest dep path at I): x's time relative to a's lies in a window that
 * no decision is needed to see, even where the absolute windows are wide
 * (the normal form pins at most one op).  The residues of t_x - t_a are
 * those of t_x turned by t_a, so unit U's row holds over r_x = t_x - t_a
 * as it does over t_x, and over r_x - k_x I for any integers k_x: only
 * residues count.  Such windows, narrower than I, are arcs of the circle
 * of residues; uses confined to an arc of w < I residues hold at most cap
 * * w.  Cut the circle at p and move each window by a multiple of I to
 * start in [p, p + I): the window rule then sees the crowded arcs that
 * start at p as stretches of time.
 *   ChStone aes/graph4: each of its 72 writes (one port) lies between 10
 * - I and 1 before the nested loop that ends the iteration, so I >= 82;
 * its search refuted I = 72 in 58617 conflicts and stalled at 73
 * (aes/graph12 likewise: I >= 83).  ChStone adpcm/graph1: 40 of its 48
 * writes fall in an arc of 39 residues at I = 55 (and no I below 56 has
 * room), which no stretch of time shows: its search stalled at 51.
 *   The row is stated only where the window rule finds such an arc at
 * once (the first anchor in order, then the first unit in order, then
 * the first cut p in increasing order among the residues of the windows'
 * starts), so it changes no other question's search: r_x gets the domain
 * [D(a, x) - k_x I, -D(x, a) - k_x I], k_x = floor((D(a, x) - p) / I), and
 * no link to t_x (some r exists whenever a schedule does: r_x = t_x - t_a
 * - k_x I).  Costs n searches of longest paths each way and, per anchor
 * and unit, a sort per cut: it is looked for only when n * (deps + the sum
 * over kept units of their uses squared) <= REL_MAX_WORK (the checker has
 * the same bound; ChStone aes/graph4: 205 * (1407 + 131^2 + 72^2 + 2^2) =
 * 4.9e6). */
#define REL_MAX_WORK 20000000L

/* floor(x / ii), ii > 0 */
static long rel_floor(long x, long ii) { return x >= 0 ? x / ii : -((-x + ii - 1) / ii); }

static int cmp_long(const void *p, const void *q) {
  long a = *(const long *)p, b = *(const long *)q;
  return (a > b) - (a < b);
}

/* Unit u's uses at anchor a (paths to[], from[]): the windows [lo, hi] of
 * their variables, narrower than I, with each use's offset, into w[3k ..
 * 3k + 2]; their count. */
static int rel_uses(const twill_graph *g, const twill_modulo_red *r, int u, const long *to,
                    const long *from, long *w) {
  int nw = 0;
  for (int i = 0; i < r->n; i++) {
    if (to[i] == LONG_MIN || from[i] == LONG_MIN || -from[i] - to[i] + 1 >= r->ii) continue;
    const twill_op *op = &g->ops[r->op[i]];
    for (int x = 0; x < op->nuses; x++) {
      const twill_use *us = &op->uses[x];
      if (us->unit != u) continue;
      for (int j = 0; j < us->cycles; j++)
        for (int c = 0; c < us->count; c++, nw++)
          w[3 * nw] = to[i], w[3 * nw + 1] = -from[i], w[3 * nw + 2] = us->offset + j;
    }
  }
  return nw;
}

/* The first cut p (increasing, among the residues of the windows' starts)
 * where the uses moved into [p, p + I) crowd a stretch [p, q]: more than
 * cap * (q - p + 1) of them end by q.  p, or -1 if none.  ends: room for
 * nw. */
static long rel_cut(const long *w, int nw, long cap, long ii, long *ends) {
  for (int k = 0; k < nw; k++) ends[k] = ((w[3 * k] % ii) + ii) % ii;
  qsort(ends, (size_t)nw, sizeof *ends, cmp_long);
  int nc = 0;
  for (int k = 0; k < nw; k++)
    if (k == 0 || ends[k] != ends[nc - 1]) ends[nc++] = ends[k];
  long *cuts = malloc(((size_t)nc + 1) * sizeof *cuts);
  if (!cuts) return -2;
  memcpy(cuts, ends, (size_t)nc * sizeof *cuts);
  long found = -1;
  for (int c = 0; c < nc && found < 0; c++) {
    long p = cuts[c];
    int m = 0;
    for (int k = 0; k < nw; k++) {
      long shift = rel_floor(w[3 * k] - p, ii) * ii;
      long end = w[3 * k + 1] - shift + w[3 * k + 2];
      if (end <= p + ii - 1) ends[m++] = end;
    }
    qsort(ends, (size_t)m, sizeof *ends, cmp_long);
    for (int k = 0; k < m && found < 0; k++)
      if (k + 1 > cap * (ends[k] - p + 1)) found = p;
  }
  free(cuts);
  return found;
}

/* The first (anchor, unit, cut) whose relative row the window rule
 * refutes at once: 1 with *unit, *cut and the paths to[] = D(a, .),
 * from[] = D(., a); 0 if none (or the search is above REL_MAX_WORK); -1
 * on error. */
static int rel_find(const twill_graph *g, const twill_modulo_red *r, int *unit, long *cut,
                    long *to, long *from) {
  int n = r->n;
  long nuse = 0, work = r->ndeps;
  for (int ku = 0; ku < r->nunits && work <= REL_MAX_WORK; ku++) {
    long c = 0;
    for (int i = 0; i < n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++)
        if (op->uses[x].unit == r->unit[ku]) c += (long)op->uses[x].cycles * op->uses[x].count;
    }
    nuse += c;
    work += c <= REL_MAX_WORK ? c * c : REL_MAX_WORK + 1;
  }
  if (n == 0 || work > REL_MAX_WORK / n) return 0;
  long *w = malloc(((size_t)nuse + 1) * 3 * sizeof *w);
  long *ends = malloc(((size_t)nuse + 1) * sizeof *ends);
  dep_lists l;
  if (!w || !ends || dep_lists_new(r, &l)) {
    free(w);
    free(ends);
    return -1;
  }
  int rc = 0;
  for (int a = 0; a < n && rc == 0; a++) {
    if (longest_paths(r, &l, 0, a, to) || longest_paths(r, &l, 1, a, from)) {
      rc = -1;
      break;
    }
    for (int ku = 0; ku < r->nunits && rc == 0; ku++) {
      int u = r->unit[ku], nw = rel_uses(g, r, u, to, from, w);
      long p = nw > g->units[u].capacity ? rel_cut(w, nw, g->units[u].capacity, r->ii, ends) : -1;
      if (p == -2) rc = -1;
      else if (p >= 0) *unit = u, *cut = p, rc = 1;
    }
  }
  dep_lists_free(&l);
  free(w);
  free(ends);
  return rc;
}

/* The relative row found for the I, if any: searched once per I (the
 * statement at every L shares the deps, so it would find the same) */
typedef struct relrow {
  int found, unit;
  long cut;
  long *to, *from;
} relrow;

/* 0, or -1 on error */
static int relrow_find(const twill_graph *g, const twill_modulo_red *r, relrow *rr) {
  memset(rr, 0, sizeof *rr);
  size_t nn = (size_t)r->n + 1;
  rr->to = malloc(nn * sizeof *rr->to);
  rr->from = malloc(nn * sizeof *rr->from);
  int f = rr->to && rr->from ? rel_find(g, r, &rr->unit, &rr->cut, rr->to, rr->from) : -1;
  rr->found = f == 1;
  return f < 0 ? -1 : 0;
}

/* 6. the relative row of unit u, cut at p: an int in [to_x - k_x I,
 * -from_x - k_x I], k_x = floor((to_x - p) / I), per kept op x in a's
 * strongly connected set with a use of u, and the row over them.  0, or
 * -1 on error. */
static int rel_row(twill_smt *m, const twill_graph *g, const twill_modulo_red *r, int u, long p,
                   const long *to, const long *from) {
  long n = 0;
  for (int i = 0; i < r->n; i++) {
    if (to[i] == LONG_MIN || from[i] == LONG_MIN) continue;
    const twill_op *op = &g->ops[r->op[i]];
    for (int x = 0; x < op->nuses; x++)
      if (op->uses[x].unit == u) n += (long)op->uses[x].cycles * op->uses[x].count;
  }
  int *vars = malloc(((size_t)n + 1) * sizeof *vars);
  int64_t *offs = malloc(((size_t)n + 1) * sizeof *offs);
  long k = 0;
  int ok = vars && offs;
  for (int i = 0; ok && i < r->n; i++) {
    if (to[i] == LONG_MIN || from[i] == LONG_MIN) continue;
    const twill_op *op = &g->ops[r->op[i]];
    long shift = rel_floor(to[i] - p, r->ii) * r->ii;
    int v = -1;
    for (int x = 0; ok && x < op->nuses; x++) {
      const twill_use *us = &op->uses[x];
      if (us->unit != u) continue;
      if (v < 0) ok = (v = twill_smt_int(m, to[i] - shift, -from[i] - shift)) >= 0;
      for (int j = 0; ok && j < us->cycles; j++)
        for (int c = 0; c < us->count; c++) {
          vars[k] = v;
          offs[k++] = (int64_t)us->offset + j;
        }
    }
  }
  ok = ok && twill_smt_modulo(m, g->units[u].capacity, r->ii, vars, offs, (int)k) > 0;
  free(vars);
  free(offs);
  return ok ? 0 : -1;
}

/* The encoding at lmax (>= r->lfloor, so every domain is non-empty), with
 * the normal form when rotate; the int var of kept op i is i.  NULL on
 * allocation failure. */
static twill_smt *encode(const twill_graph *g, const twill_modulo_red *r,
                         long lmax, int rotate, int slots, int times, const relrow *rel,
                         int proof) {
  twill_smt *m = twill_smt_new();
  size_t nn = (size_t)r->n + 1;
  long *lo = malloc(nn * sizeof *lo), *hi = malloc(nn * sizeof *hi);
  int *cl = malloc(((size_t)r->ndeps + (size_t)r->n + 2) * sizeof *cl);
  int pin = rotate && r->n > 0 && lo && hi ? pinned(r, lo, hi) : 0;
  int src = rotate && r->n > 0 && !pin ? source(r) : -1;
  int ok = m && lo && hi && cl && pin >= 0 && src >= -1 &&
           !(proof && twill_smt_enable_proof(m));
  /* 1. the domains (2. folded in: the pinned or rotated normal form) */
  for (int i = 0; ok && i < r->n && !pin; i++) {
    lo[i] = r->lo[i];
    hi[i] = lmax - r->tail[i];
    if (r->lo[i] + r->win[i] < hi[i]) hi[i] = r->lo[i] + r->win[i];
    if (i == src) hi[i] = r->lo[i];
  }
  for (int i = 0; ok && i < r->n; i++) ok = twill_smt_int(m, lo[i], hi[i]) == i;
  if (ok && rotate && r->n > 0 && !pin && src < 0) {
    int k = twill_smt_int(m, 0, r->win[0] / r->ii);
    twill_smt_term a[2] = {{1, 0, 0}, {-r->ii, k, 0}};
    twill_smt_term b[2] = {{-1, 0, 0}, {r->ii, k, 0}};
    ok = k == r->n && twill_smt_linear(m, a, 2, r->lo[0], 0) >= 0 &&
         twill_smt_linear(m, b, 2, -r->lo[0], 0) >= 0;
  }
  /* 3. the deps, 4. the units' rows */
  for (int k = 0; k < r->ndeps && ok; k++)
    ok = twill_smt_diff(m, r->deps[k].x, r->deps[k].y, -r->deps[k].w) >= 0;
  /* 3b. the slots: s_i in [0, I) and k_i with t_i = I k_i + s_i */
  int *slot = NULL;
  if (ok && slots) {
    slot = malloc(nn * sizeof *slot);
    ok = slot != NULL;
    for (int i = 0; ok && i < r->n; i++) {
      int sv = twill_smt_int(m, 0, r->ii - 1);
      int kv = twill_smt_int(m, lo[i] / r->ii, hi[i] / r->ii); /* lo >= 0 */
      twill_smt_term a[3] = {{1, i, 0}, {-r->ii, kv, 0}, {-1, sv, 0}};
      twill_smt_term b[3] = {{-1, i, 0}, {r->ii, kv, 0}, {1, sv, 0}};
      ok = sv >= 0 && kv >= 0 && twill_smt_linear(m, a, 3, 0, 0) >= 0 &&
           twill_smt_linear(m, b, 3, 0, 0) >= 0;
      slot[i] = sv;
    }
  }
  for (int ku = 0; ku < r->nunits && ok; ku++) ok = !unit_rows(m, g, r, r->unit[ku], slot, times);
  free(slot);
  /* 5. support of the strongly connected sets of deps: one of S's ops
   * within I - 1 of its lower bound, or of a dep into S from outside (the
   * least times with given slots have it; see the top) */
  int *comp = ok ? sccs(r) : NULL;
  ok = ok && comp;
  for (int s0 = 0; ok && s0 < r->n; s0++) {
    if (comp[s0] != s0) continue; /* s0: the smallest op of its set */
    int n = 0, size = 0, trivial = 0;
    for (int y = s0; y < r->n; y++) {
      if (comp[y] != s0) continue;
      size++;
      if (lo[y] + r->ii - 1 >= hi[y]) trivial = 1; /* its bound alone holds */
    }
    if (size < 2 || trivial) continue;
    for (int y = s0; ok && y < r->n; y++)
      if (comp[y] == s0) ok = (cl[n++] = twill_smt_le_lit(m, y, lo[y] + r->ii - 1)) != 0;
    for (int k = 0; ok && k < r->ndeps; k++) {
      const twill_modulo_dep *e = &r->deps[k];
      if (comp[e->y] != s0 || comp[e->x] == s0) continue;
      int b = twill_smt_bool(m);
      twill_smt_term t[2] = {{1, e->y, 0}, {-1, e->x, 0}};
      ok = b && twill_smt_linear(m, t, 2, e->w + r->ii - 1, b) >= 0;
      cl[n++] = b;
    }
    ok = ok && twill_smt_clause(m, cl, n) >= 0;
  }
  free(comp);
  /* 6. the relative row, where the window rule refutes it at once, with
   * the rule on (the times rows, or no slots) */
  if (ok && rel && rel->found && (times || !slots))
    ok = rel_row(m, g, r, rel->unit, rel->cut, rel->to, rel->from) == 0;
  free(lo);
  free(hi);
  free(cl);
  if (!ok) {
    twill_smt_free(m);
    return NULL;
  }
  return m;
}

typedef struct probe {
  const twill_graph *g;
  const twill_modulo_red *r;
  const twill_modulo_job *job;
  long used;       /* conflicts so far */
  relrow rel;      /* the relative row at this I (with the form's) */
} probe;

/* One more solve of m (the question below, stated with or without the
 * times rows), resumed where the last one stopped, learned clauses kept,
 * within cap more conflicts (< 0: only the job's limits).  10, 20, or 0
 * at a limit. */
static int run(probe *p, twill_smt *m, long lmax, int rotate, int times, long cap) {
  const twill_modulo_job *job = p->job;
  long left = job->smt_conflicts >= 0 ? job->smt_conflicts - p->used : -1;
  if (job->smt_conflicts >= 0 && left <= 0) return 0;
  if (cap >= 0 && (left < 0 || cap < left)) left = cap;
  twill_smt_set_conflict_limit(m, left);
  double secs = job->deadline > 0 ? job->deadline - twill_modulo_clock() : 0;
  if (job->deadline > 0 && secs <= 0) return 0;
  twill_smt_set_time_limit(m, secs); /* 0: none */
  twill_smt_set_cancel(m, job->cancel);
  uint64_t c0 = twill_smt_num_conflicts(m);
  int st = twill_smt_solve(m);
  p->used += (long)(twill_smt_num_conflicts(m) - c0);
  if (getenv("TWILL_MODULO_DEBUG")) /* one line per solve, for tuning */
    fprintf(stderr, "smt I %ld L<=%ld %s%s: %d ops, %d deps -> %d, %llu conflicts, %llu order lits\n",
            p->r->ii, lmax, rotate ? "normal form" : "probe", times ? ", times" : "", p->r->n,
            p->r->ndeps, st, (unsigned long long)twill_smt_num_conflicts(m),
            (unsigned long long)twill_smt_num_order_lits(m));
  return st == 10 || st == 20 ? st : 0;
}

/* What m settled (st 10 or 20): the times into kt, or its refutation into
 * *proof (with certify).  st, or -1 on error. */
static int answer(const probe *p, const twill_smt *m, int st, long *kt, char **proof,
                  size_t *plen) {
  if (st == 10)
    for (int i = 0; i < p->r->n; i++) kt[i] = (long)twill_smt_value(m, i);
  if (st != 20 || !p->job->certify) return st;
  FILE *f = open_memstream(proof, plen);
  int bad = !f || twill_smt_write_proof(m, f);
  if (f && fclose(f)) bad = 1;
  if (!bad) return st;
  free(*proof);
  *proof = NULL;
  return -1;
}

/* The first rounds' conflicts of ask(), with the times rows and without:
 * most questions of the HLS suite settle within the first */
#define TIMES_FIRST_ROUND 3000
#define PLAIN_FIRST_ROUND 1000

/* Is there a schedule with L <= lmax?  10: yes, times in kt; 20: no, the
 * refutation in *proof (with certify); 0: unknown; -1: error.
 * With the form's times, two solvers of the question take turns, one
 * with the times rows and one without, each resumed where it stopped,
 * each round twice the solver's round before (3000 with the rows, 1000
 * without, 6000, 2000, ...).  With the rows the window rule settles a bound at the
 * root (ChStone adpcm/graph2: L >= 85 at I = 50) and shortens many
 * refutations; without them the search meets some schedules far sooner
 * (Origami r2_FFT at I = 192, L <= 213: no verdict in 7487 conflicts with
 * them, a schedule in 595 without).  A refutation's text says which
 * statement it refutes, and the checker states both.  The rounds count
 * conflicts, not time, so the answer does not depend on the machine. */
static int ask(probe *p, long lmax, int rotate, long *kt, char **proof, size_t *plen) {
  const twill_modulo_job *job = p->job;
  int slots = (job->form & TWILL_MODULO_FORM_SLOTS) != 0;
  int both = slots && (job->form & TWILL_MODULO_FORM_TIMES);
  twill_smt *m[2] = {NULL, NULL}; /* with the times rows, without */
  int rc = 0;
  for (int round = 0;; round++) {
    int k = both ? round % 2 : 1;
    long cap = both ? (long)(k == 0 ? TIMES_FIRST_ROUND : PLAIN_FIRST_ROUND)
                          << (round / 2 < 20 ? round / 2 : 20)
                    : -1;
    if (!m[k] && !(m[k] = encode(p->g, p->r, lmax, rotate, slots, k == 0, &p->rel,
                                 job->certify))) {
      rc = -1;
      break;
    }
    long before = p->used;
    int st = run(p, m[k], lmax, rotate, k == 0, cap);
    if (st != 0) {
      rc = answer(p, m[k], st, kt, proof, plen);
      break;
    }
    if (!both || p->used - before < cap) break; /* a limit of the job, not the round's */
  }
  twill_smt_free(m[0]);
  twill_smt_free(m[1]);
  return rc;
}

int twill_modulo_smt_decide(const twill_graph *g, const twill_modulo_red *r,
                            const twill_modulo_job *job,
                            twill_modulo_decision *d) {
  memset(d, 0, sizeof *d);
  d->status = TWILL_ILP_LIMIT;
  size_t nn = (size_t)r->n + 1;
  long *kt = malloc(nn * sizeof *kt), *best = malloc(nn * sizeof *best);
  if (!kt || !best) {
    free(kt);
    free(best);
    return -1;
  }
  probe p = {g, r, job, 0, {0, 0, 0, NULL, NULL}};
  long ub;
  char *pf = NULL;
  size_t pl = 0;
  int rc = 0;
  if ((job->form & TWILL_MODULO_FORM_RELATIVE) && relrow_find(g, r, &p.rel)) goto fail;
  int st = ask(&p, r->horizon, 1, best, &pf, &pl);
  if (st < 0) goto fail;
  if (st == 20) {
    d->status = TWILL_ILP_INFEASIBLE;
    d->proof = pf;
    d->plen = pl;
    pf = NULL;
    goto done;
  }
  if (st == 0) goto done; /* nothing proven, nothing found */
  ub = twill_modulo_red_compact(r, best);
  if (ub < 0) goto fail;
  d->kt = best;
  best = NULL;
  d->length = ub;
  long lb = r->lfloor;
  if (job->feasible_only) {
    d->lower = lb;
    goto done; /* a schedule at I, its L not minimized */
  }
  int first = 1, refuted = 0;
  while (lb < ub) {
    long mid = first ? lb : lb + (ub - 1 - lb) / 2;
    first = 0;
    char *q = NULL;
    size_t ql = 0;
    st = ask(&p, mid, 0, kt, &q, &ql);
    if (st < 0) goto fail;
    if (st == 0) break;
    if (st == 10) {
      long l = twill_modulo_red_compact(r, kt);
      if (l < 0 || l > mid) goto fail;
      memcpy(d->kt, kt, (size_t)r->n * sizeof *kt);
      ub = d->length = l;
    } else {
      free(pf);
      pf = q;
      pl = ql;
      lb = mid + 1;
      refuted = 1;
    }
  }
  d->lower = lb;
  if (lb >= ub) {
    d->status = TWILL_ILP_OPTIMAL;
    d->lower = ub;
    d->bound = refuted ? TWILL_MODULO_BOUND_PROOF : TWILL_MODULO_BOUND_PATH;
    d->proof = pf;
    d->plen = pl;
    pf = NULL;
  }
  goto done;
fail:
  rc = -1;
  d->status = TWILL_ILP_ERROR;
done:
  free(pf);
  free(kt);
  free(best);
  free(p.rel.to);
  free(p.rel.from);
  d->work = p.used;
  return rc;
}
