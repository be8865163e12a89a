/* core/check/cert_modulo_smt.c: checking a twill-smt refutation of phase 1
 * at one I (the SMT engine's proofs, core/modulo/modulo_smt.c).
 *
 * The checker states the problem itself, from its own reduction of the
 * kernel (cert_modulo_red.c), as twill-smt input in the order the format
 * fixes (core/check/cert_modulo.c, "smt blocks"):
 *   int t_i in [lo_i, Lmax - tail_i]     per kept op, in order
 *   t_x - t_y <= -w                      per dep (x, y, w), in order
 *   mod cap(U) I  t_i @ o + j ...        per kept unit, its uses in op,
 *                                        use, cycle, instance order
 * and writes it out with the CDCL core's own proof writer.  A refutation is
 * accepted only if it starts with exactly these bytes, adds no input after
 * them (only order literals, theory lemmas and derived clauses), and if
 * sat/smt_check.c (which shares no code with the propagators) derives the
 * empty clause.  Each statement above holds in every schedule of the kernel
 * within the horizon (cert_modulo_red.c), so the refutation proves that the
 * kernel has no schedule at I with L <= Lmax.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cert_modulo.h"
#include "twill/smt.h"

/* The problem's own lines, or NULL (allocation failure, Lmax below a
 * kept op's earliest end). */
static char *preamble(const twill_graph *g, const twill_modulo_red *r,
                      long lmax, size_t *len) {
  twill_smt *m = twill_smt_new();
  char *text = NULL;
  *len = 0;
  if (!m || twill_smt_enable_proof(m)) goto out;
  for (int i = 0; i < r->n; i++)
    if (twill_smt_int(m, r->lo[i], lmax - r->tail[i]) != i) goto out;
  for (int k = 0; k < r->ndeps; k++)
    if (twill_smt_diff(m, r->deps[k].x, r->deps[k].y, -r->deps[k].w) < 0) goto out;
  for (int ku = 0; ku < r->nunits; ku++) {
    int u = r->unit[ku];
    long n = 0;
    for (int i = 0; i < r->n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++)
        if (op->uses[x].unit == u) n += (long)op->uses[x].cycles * op->uses[x].count;
    }
    if (n == 0 || n > 100000000L) goto out;
    int *vars = malloc((size_t)n * sizeof *vars);
    int64_t *offs = malloc((size_t)n * sizeof *offs);
    long k = 0;
    for (int i = 0; vars && offs && i < r->n; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses; x++) {
        const twill_use *us = &op->uses[x];
        if (us->unit != u) continue;
        for (int j = 0; j < us->cycles; j++)
          for (int c = 0; c < us->count; c++) {
            vars[k] = i;
            offs[k++] = (int64_t)us->offset + j;
          }
      }
    }
    int bad = !vars || !offs ||
              twill_smt_modulo(m, g->units[u].capacity, r->ii, vars, offs, (int)n) < 0;
    free(vars);
    free(offs);
    if (bad) goto out;
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
  return text;
}

int twill_cert_modulo_smt_check(const twill_graph *g, const twill_modulo_red *r,
                                long lmax, const char *blk, size_t n,
                                char *msg, size_t msglen) {
  if (lmax < r->lfloor) {
    snprintf(msg, msglen, "L <= %ld is below the critical path %ld: nothing to refute",
             lmax, r->lfloor);
    return 1;
  }
  size_t plen;
  char *pre = preamble(g, r, lmax, &plen);
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
