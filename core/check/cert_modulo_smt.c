/* core/check/cert_modulo_smt.c: checking a twill-smt refutation of phase 1
 * at one I (the SMT engine's proofs, core/modulo/modulo_smt.c).
 *
 * The checker states the problem itself, from its own reduction of the
 * kernel (cert_modulo_red.c), as twill-smt input in the order the format
 * fixes (core/modulo/modulo_smt.c lists it):
 *   int t_i in [lo_i, min(Lmax - tail_i, lo_i + win_i)]   per kept op
 *   the rotation, for a refutation of I itself (Lmax = the horizon): the
 *     first kept op with no dep into it at its lo; with none, kept op 0
 *     in the slot of its lo (t_0 = lo_0 + I*k, k in [0, win_0 / I])
 *   t_x - t_y <= -w                      per dep (x, y, w), in order
 *   with the form's slots, per kept op i: int s_i in [0, I-1], int k_i in
 *     [lo_i div I, hi_i div I], t_i - I k_i - s_i <= 0 and >= 0
 *   mod cap(U) I  t_i @ o + j ...        per kept unit, its uses in op,
 *                                        use, cycle, instance order (s_i
 *                                        for t_i with slots); with slots
 *                                        and cap(U) * I uses, per residue
 *                                        q the clause OR of [s = (q - o)
 *                                        mod I] over the uses
 * and writes it out with the CDCL core's own proof writer.  A refutation is
 * accepted only if it starts with exactly these bytes, adds no input after
 * them (only order literals, theory lemmas and derived clauses), and if
 * sat/smt_check.c (which shares no code with the propagators) derives the
 * empty clause.  What the statement claims of the kernel: the bounds, deps
 * and rows hold in every schedule (cert_modulo_red.c); the windows and the
 * horizon in some schedule whenever there is one, no longer than it; the
 * rotation too, when L is not bounded below the horizon: add the same c
 * to every start (every dep and lower bound still holds, every slot turns
 * by c, so every unit's rows still hold) to put the anchor in the slot of
 * its lo, then take the least starts with those slots, which keep the
 * windows and, when no dep enters the anchor, put it at lo exactly.  So a
 * refutation of the statement proves that the kernel has no schedule at I
 * with L <= Lmax.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_modulo.h"
#include "twill/smt.h"

/* reach[x*n + y]: a chain of deps leads from kept op x to y (x to itself
 * always), by a breadth-first search from every x.  NULL out of memory. */
static char *reachability(const twill_modulo_red *r) {
  int n = r->n;
  size_t nn = (size_t)n + 1;
  char *reach = calloc(nn * nn, 1);
  int *fifo = malloc(nn * sizeof *fifo);
  if (!reach || !fifo) {
    free(reach);
    free(fifo);
    return NULL;
  }
  for (int x = 0; x < n; x++) {
    char *row = reach + (size_t)x * (size_t)n;
    int qh = 0, qt = 0;
    fifo[qt++] = x;
    row[x] = 1;
    while (qh < qt) {
      int z = fifo[qh++];
      for (int k = 0; k < r->ndeps; k++)
        if (r->deps[k].x == z && !row[r->deps[k].y]) row[r->deps[k].y] = 1, fifo[qt++] = r->deps[k].y;
    }
  }
  free(fifo);
  return reach;
}

/* The problem's own lines, or NULL (allocation failure, Lmax below a
 * kept op's earliest end). */
static char *preamble(const twill_graph *g, const twill_modulo_red *r,
                      long lmax, int rotate, int slots, size_t *len) {
  int n = r->n;
  size_t nn = (size_t)n + 1;
  twill_smt *m = twill_smt_new();
  char *text = NULL, *reach = reachability(r);
  long *lo = malloc(nn * sizeof *lo), *hi = malloc(nn * sizeof *hi), *d = malloc(nn * sizeof *d);
  int *cl = malloc(((size_t)r->ndeps + nn + 1) * sizeof *cl);
  int *var = malloc(nn * sizeof *var); /* the variable a kept op's uses are on */
  *len = 0;
  if (!m || !reach || !lo || !hi || !d || !cl || !var || twill_smt_enable_proof(m)) goto out;
  /* the statement's domains */
  int pin = -1, anchor = -1;
  for (int x = 0; rotate && x < n && pin < 0; x++) {
    int all = 1;
    for (int y = 0; y < n && all; y++) all = reach[(size_t)x * (size_t)n + (size_t)y];
    if (all) pin = x;
  }
  if (pin >= 0) {
    /* D(pin, .) by Bellman-Ford passes over the dep list */
    for (int y = 0; y < n; y++) d[y] = y == pin ? 0 : LONG_MIN;
    for (int pass = 0, changed = 1; changed; pass++) {
      if (pass > n + 1) goto out; /* a positive cycle */
      changed = 0;
      for (int k = 0; k < r->ndeps; k++) {
        const twill_modulo_dep *e = &r->deps[k];
        if (d[e->x] != LONG_MIN && d[e->x] + e->w > d[e->y]) d[e->y] = d[e->x] + e->w, changed = 1;
      }
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
      for (int k = 0; k < r->ndeps && !entered; k++) entered = r->deps[k].y == i;
      if (!entered) anchor = i;
    }
    for (int i = 0; i < n; i++) {
      lo[i] = r->lo[i];
      hi[i] = i == anchor ? r->lo[i] : lmax - r->tail[i];
      if (hi[i] > r->lo[i] + r->win[i]) hi[i] = r->lo[i] + r->win[i];
    }
  }
  for (int i = 0; i < n; i++)
    if (twill_smt_int(m, lo[i], hi[i]) != i) goto out;
  if (rotate && n > 0 && pin < 0 && anchor < 0) {
    int k = twill_smt_int(m, 0, r->win[0] / r->ii);
    twill_smt_term up[2] = {{1, 0, 0}, {-r->ii, k, 0}};   /* t_0 - I k <= lo_0 */
    twill_smt_term down[2] = {{-1, 0, 0}, {r->ii, k, 0}}; /* I k - t_0 <= -lo_0 */
    if (k != n || twill_smt_linear(m, up, 2, r->lo[0], 0) < 0 ||
        twill_smt_linear(m, down, 2, -r->lo[0], 0) < 0)
      goto out;
  }
  /* the deps and the units' rows */
  for (int k = 0; k < r->ndeps; k++)
    if (twill_smt_diff(m, r->deps[k].x, r->deps[k].y, -r->deps[k].w) < 0) goto out;
  /* with slots: s_i in [0, I-1] and k_i with t_i = I k_i + s_i, which
   * every t_i in its domain has (k_i = t_i div I, the domain's lower end
   * being >= 0); the units' rows then count s_i + o, the same residue as
   * t_i + o */
  for (int i = 0; i < n; i++) {
    var[i] = i;
    if (!slots) continue;
    if (lo[i] < 0) goto out;
    int s = twill_smt_int(m, 0, r->ii - 1);
    int k = twill_smt_int(m, lo[i] / r->ii, hi[i] / r->ii);
    twill_smt_term le[3] = {{1, i, 0}, {-r->ii, k, 0}, {-1, s, 0}}; /* t - I k - s <= 0 */
    twill_smt_term ge[3] = {{-1, i, 0}, {r->ii, k, 0}, {1, s, 0}}; /* -t + I k + s <= 0 */
    if (s < 0 || k < 0 || twill_smt_linear(m, le, 3, 0, 0) < 0 ||
        twill_smt_linear(m, ge, 3, 0, 0) < 0)
      goto out;
    var[i] = s;
  }
  for (int ku = 0; ku < r->nunits; ku++) {
    int u = r->unit[ku];
    long cnt = 0;
    for (int i = 0; i < n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++)
        if (op->uses[x].unit == u) cnt += (long)op->uses[x].cycles * op->uses[x].count;
    }
    if (cnt == 0 || cnt > 100000000L) goto out;
    int *vars = malloc((size_t)cnt * sizeof *vars);
    int64_t *offs = malloc((size_t)cnt * sizeof *offs);
    long k = 0;
    for (int i = 0; vars && offs && i < n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++) {
        const twill_use *us = &op->uses[x];
        if (us->unit != u) continue;
        for (int j = 0; j < us->cycles; j++)
          for (int c = 0; c < us->count; c++) {
            vars[k] = var[i];
            offs[k++] = (int64_t)us->offset + j;
          }
      }
    }
    int bad = !vars || !offs ||
              twill_smt_modulo(m, g->units[u].capacity, r->ii, vars, offs, (int)cnt) < 0;
    /* a full unit, cnt = cap * I uses with at most cap in each residue:
     * each residue q holds exactly cap >= 1 of them, so one of the uses
     * (x, o) has s_x = (q - o) mod I */
    if (!bad && slots && cnt == (long)g->units[u].capacity * r->ii) {
      int *lits = malloc((size_t)cnt * sizeof *lits);
      bad = !lits;
      for (long q = 0; !bad && q < r->ii; q++) {
        for (long x = 0; !bad && x < cnt; x++) {
          int64_t v = (q - offs[x]) % r->ii;
          if (v < 0) v += r->ii;
          bad = !(lits[x] = twill_smt_eq_lit(m, vars[x], v));
        }
        bad = bad || twill_smt_clause(m, lits, (int)cnt) < 0;
      }
      free(lits);
    }
    free(vars);
    free(offs);
    if (bad) goto out;
  }
  /* the support of each strongly connected set S of two or more ops (S:
   * the ops that reach its smallest op s and that s reaches), unless one
   * of its ops' own bounds already keeps it within I - 1 of its bound */
  for (int s0 = 0; s0 < n; s0++) {
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
      if (from[y] && reach[(size_t)y * (size_t)n + (size_t)s0] &&
          !(cl[c++] = twill_smt_le_lit(m, y, lo[y] + r->ii - 1)))
        goto out;
    for (int k = 0; k < r->ndeps; k++) {
      const twill_modulo_dep *e = &r->deps[k];
      int y_in = from[e->y] && reach[(size_t)e->y * (size_t)n + (size_t)s0];
      int x_in = from[e->x] && reach[(size_t)e->x * (size_t)n + (size_t)s0];
      if (!y_in || x_in) continue;
      int b = twill_smt_bool(m);
      twill_smt_term t[2] = {{1, e->y, 0}, {-1, e->x, 0}}; /* b -> t_y - t_x <= w + I - 1 */
      if (!b || twill_smt_linear(m, t, 2, e->w + r->ii - 1, b) < 0) goto out;
      cl[c++] = b;
    }
    if (twill_smt_clause(m, cl, c) < 0) goto out;
  }
  FILE *f = open_memstream(&text, len);
  if (!f) goto out;
  int bad = twill_smt_write_proof(m, f);
  if (fclose(f) || bad) {
    free(text);
    text = NULL;
  }
out:
  twill_smt_free(m);
  free(reach);
  free(lo);
  free(hi);
  free(d);
  free(cl);
  free(var);
  return text;
}

int twill_cert_modulo_smt_check(const twill_graph *g, const twill_modulo_red *r,
                                long lmax, int rotate, int slots, const char *blk,
                                size_t n, char *msg, size_t msglen) {
  if (lmax < r->lfloor) {
    snprintf(msg, msglen, "L <= %ld is below the critical path %ld: nothing to refute",
             lmax, r->lfloor);
    return 1;
  }
  size_t plen;
  char *pre = preamble(g, r, lmax, rotate, slots, &plen);
  if (!pre) {
    snprintf(msg, msglen, "cannot state the problem at I %ld, L <= %ld", r->ii, lmax);
    return 1;
  }
  int same = plen <= n && !memcmp(pre, blk, plen);
  free(pre);
  if (!same) {
    snprintf(msg, msglen,
             "the refutation at I %ld, L <= %ld does not start with the problem "
             "the checker states from the kernel", r->ii, lmax);
    return 1;
  }
  const char *extra = twill_smt_proof_new_input(blk + plen, n - plen, 0);
  if (extra) {
    const char *e = memchr(extra, '\n', (size_t)(blk + n - extra));
    int len = e ? (int)(e - extra) : (int)(blk + n - extra);
    snprintf(msg, msglen, "the refutation at I %ld adds an input after the problem: '%.*s'",
             r->ii, len > 60 ? 60 : len, extra);
    return 1;
  }
  char m[300];
  int c = twill_smt_check_proof(blk, n, m, sizeof m);
  if (c != 1) {
    snprintf(msg, msglen, "the refutation at I %ld, L <= %ld: %s", r->ii, lmax,
             c == 0 ? "no empty clause derived" : m);
    return 1;
  }
  return 0;
}
