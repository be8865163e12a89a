/* core/check/cert_solve.c: checking a `twill solve` certificate (format in
 * core/joint/twill.c).
 *
 * The checker rebuilds everything it checks against from the kernel file:
 * the normalized graph (same preparation as the solver), the phase-1
 * program (through the phase-1 checker), and the joint encoding at each
 * refuted (I, L).  A refutation is accepted only if its first lines are
 * byte for byte the preamble (variables, constraints, input clauses) of the
 * encoding the checker built itself, and if sat/smt_check.c, which shares
 * no code with the propagators, derives the empty clause from it by
 * reverse unit propagation and re-derived theory lemmas.  The schedule is
 * re-checked by the model's validator (core/joint/joint_model.c).  What the
 * checker relies on from the solver's side: the encoder (core/joint/joint_enc.c)
 * states the model faithfully; tests hold it against a brute-force
 * enumerator of the model on small kernels.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "twill/joint.h"
#include "twill/modulo.h"
#include "twill/smt.h"

/* Largest I or L a certificate may name (normalized schedules are a few
 * hundred cycles; un-normalized real-cycle ones a few thousand). */
#define CERT_MAX_TIME 20000

typedef struct rd {
  const char *p, *end;
  int line;
  char *msg;
  size_t msglen;
} rd;

static int bad(rd *r, const char *fmt, ...) {
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  snprintf(r->msg, r->msglen, "certificate:%d: %s", r->line, buf);
  return 1;
}

static int next_line(rd *r, char *buf, size_t n) {
  if (r->p >= r->end) return 0;
  const char *e = memchr(r->p, '\n', (size_t)(r->end - r->p));
  size_t len = e ? (size_t)(e - r->p) : (size_t)(r->end - r->p);
  if (len >= n) len = n - 1;
  memcpy(buf, r->p, len);
  buf[len] = 0;
  r->p = e ? e + 1 : r->end;
  r->line++;
  return 1;
}

/* A block of n bytes followed by a newline. */
static int take_block(rd *r, size_t n, const char **blk) {
  if (n >= (size_t)(r->end - r->p) || r->p[n] != '\n') return -1;
  *blk = r->p;
  for (size_t i = 0; i < n; i++)
    if (r->p[i] == '\n') r->line++;
  r->p += n + 1;
  r->line++;
  return 0;
}

static int check_refutation(rd *r, const twill_graph *g,
                            const twill_joint_params *p, long ii, long L,
                            const char *blk, size_t n) {
  size_t plen = 0;
  char *pre = twill_joint_preamble(g, p, ii, L, &plen);
  if (!pre) return bad(r, "cannot rebuild the encoding at I %ld, L %ld", ii, L);
  int same = plen <= n && !memcmp(pre, blk, plen);
  free(pre);
  if (!same)
    return bad(r,
               "refutation at I %ld, L %ld does not start with the encoding "
               "rebuilt from the kernel",
               ii, L);
  /* after the rebuilt encoding a refutation may only introduce order
   * literals, state theory lemmas and derive clauses: any further input
   * would be an assumption the kernel does not make (decided by the proof
   * reader's own tokenizer, so " a 0" counts like "a 0") */
  char m[300];
  twill_smt_inputs in = {plen, NULL, NULL};
  int c = twill_smt_check_proof_inputs(blk, n, &in, m, sizeof m);
  if (c != 1)
    return bad(r, "refutation at I %ld, L %ld: %s", ii, L,
               c == 0 ? "no empty clause derived" : m);
  return 0;
}

static long max_lat1(const twill_graph *g) {
  long x = 1;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].lat > x) x = g->ops[v].lat;
  return x;
}

/* "never I L BYTES": the refutation of the single-iteration relaxation
 * (core/joint/joint_never.c), whose graph, floors of live copies, I and L the
 * checker derives from the kernel itself; then "end". */
static int check_never(rd *r, const twill_graph *g, const twill_joint_params *p,
                       long ii, long L, size_t n) {
  const char *blk;
  if (take_block(r, n, &blk)) return bad(r, "expected the refutation after 'never'");
  twill_joint_rel keep[TWILL_JOINT_MAX_RELS];
  if (p->nrels > TWILL_JOINT_MAX_RELS) return bad(r, "too many relations");
  twill_joint_params q = twill_never_params(p, keep);
  twill_graph *gn = twill_never_graph(g);
  if (!gn) return bad(r, "out of memory");
  long wi, wl;
  twill_never_size(gn, &q, &wi, &wl);
  if (wi != ii || wl != L) {
    twill_graph_free(gn);
    return bad(r, "'never %ld %ld': the kernel's single-iteration "
                  "relaxation is at I %ld, L %ld", ii, L, wi, wl);
  }
  /* the floors k(v) come from the kernel (with its loop-carried edges),
   * never from the certificate */
  int *k = malloc((size_t)(g->nops > 0 ? g->nops : 1) * sizeof *k);
  int rc = !k || twill_never_live(g, k) ? bad(r, "out of memory") : 0;
  q.min_live = k;
  if (!rc) rc = check_refutation(r, gn, &q, ii, L, blk, n);
  twill_graph_free(gn);
  free(k);
  if (rc) return rc;
  char line[64];
  if (!next_line(r, line, sizeof line) || strcmp(line, "end"))
    return bad(r, "missing 'end'");
  snprintf(r->msg, r->msglen,
           "no joint schedule at any I: one iteration without the "
           "loop-carried edges, holding the copies they keep live at every "
           "I, has none (refuted at I %ld, L %ld); warps %d, "
           "regs %ld, cross-warp %s%s",
           ii, L, p->warps, p->regs, p->no_cross_warp ? "forbidden" : "allowed",
           p->nrels ? "; under the certificate's relations" : "");
  return 0;
}

static int check_cert(const twill_graph *g0, const char *cert, size_t len,
                      char *msg, size_t msglen, twill_joint_relset *rs) {
  rd r = {cert, cert + len, 0, msg, msglen};
  char line[4096], word[64];
  long budget = 0, ii = -1, L = -1, xreal = 0, xnorm = 0;
  twill_joint_params p;
  memset(&p, 0, sizeof p);
  int have_params = 0, nc = 0, sym = 0, never = 0;
  size_t never_len = 0;
  if (!next_line(&r, line, sizeof line) || strcmp(line, "twill-certificate 1 solve"))
    return bad(&r, "not a solve certificate");
  /* header */
  for (;;) {
    if (!next_line(&r, line, sizeof line)) return bad(&r, "truncated header");
    if (!strncmp(line, "kernel ", 7)) {
      if (strcmp(line + 7, g0->name)) return bad(&r, "certificate is for kernel '%s'", line + 7);
    } else if (!strncmp(line, "arch ", 5)) {
    } else if (!strncmp(line, "normalize ", 10)) {
      budget = strcmp(line + 10, "off") ? strtol(line + 10, NULL, 10) : 0;
      if (budget < 0) return bad(&r, "bad normalize");
    } else if (sscanf(line, "params %d %d %ld %ld %d %d %ld %ld %d %ld %ld %d",
                      &p.warps, &p.warpgroup, &p.regs, &p.regs_per_sm,
                      &p.reg_lo, &p.reg_step, &xreal, &xnorm, &nc, &p.smem_cap,
                      &p.tmem_cap, &sym) == 12) {
      have_params = 1;
      p.no_cross_warp = nc != 0;
      p.symmetry = sym != 0;
    } else if (!strncmp(line, "rel ", 4)) {
      char kw[16], why[200];
      int at = 0, kind;
      if (strlen(line) >= sizeof line - 1 ||
          sscanf(line, "rel %15s %n", kw, &at) != 1 || at == 0 ||
          (kind = twill_rel_parse_kind(kw)) < 0)
        return bad(&r, "bad relation line '%.60s'", line);
      if (twill_joint_rel_add(rs, g0, (twill_rel_kind)kind, line + at, why, sizeof why))
        return bad(&r, "%s", why);
    } else if (sscanf(line, "ii %ld", &ii) == 1) {
    } else if (sscanf(line, "length %ld", &L) == 1) {
      break;
    } else if (sscanf(line, "never %ld %ld %zu%63s", &ii, &L, &never_len, word) == 3) {
      never = 1; /* no I at all: the single-iteration relaxation */
      break;
    } else {
      return bad(&r, "unexpected line '%.60s'", line);
    }
  }
  /* the limits keep a hostile certificate from asking for huge rebuilds */
  if (!have_params || ii < 1 || L < 1 || ii > CERT_MAX_TIME || L > CERT_MAX_TIME ||
      p.warps < 1 || p.warpgroup < 1 || p.warps % p.warpgroup || p.warps > 64 ||
      p.regs < 0 || p.regs > 65536 || p.reg_lo < 0 || p.reg_step < 0 ||
      p.reg_lo > 65536 || p.reg_step > 65536 || p.regs_per_sm < 0 ||
      p.regs_per_sm > ((long)1 << 30) || xreal < 0 || xreal > ((long)1 << 30))
    return bad(&r, "missing or bad params / ii / length");
  p.rels = rs->rels;
  p.nrels = rs->n;
  twill_joint_params real = p;
  real.cross_warp = xreal;
  long X;
  twill_graph *g = twill_solve_prepare(g0, &real, budget, 60, &X, NULL);
  if (!g) return bad(&r, "cannot normalize the kernel's costs");
  int rc = 1;
  twill_schedule *s = twill_schedule_new(g->nops, ii);
  if (!s || twill_schedule_add_warps(s)) goto out;
  if (X != xnorm) {
    bad(&r, "cross-warp cost %ld normalizes to %ld, not %ld", xreal, X, xnorm);
    goto out;
  }
  p.cross_warp = X;
  if (never) {
    rc = check_never(&r, g, &p, ii, L, never_len);
    goto out;
  }
  /* schedule */
  for (int v = 0; v < g->nops; v++) {
    long t;
    int w;
    char name[256];
    if (!next_line(&r, line, sizeof line) ||
        sscanf(line, "time %255s %ld %d", name, &t, &w) != 3 ||
        strcmp(name, g->ops[v].name)) {
      bad(&r, "expected 'time %s T WARP'", g->ops[v].name);
      goto out;
    }
    if (t < 0 || t > CERT_MAX_TIME || w < 0 || w >= p.warps) {
      bad(&r, "time or warp of '%s' out of range", name);
      goto out;
    }
    s->start[v] = t;
    s->warp[v] = w;
  }
  char why[300];
  if (twill_joint_validate(g, &p, L, s, why, sizeof why)) {
    bad(&r, "the schedule is not legal: %s", why);
    goto out;
  }
  /* phase 1 */
  size_t n;
  const char *blk;
  if (!next_line(&r, line, sizeof line) || sscanf(line, "phase1 %zu", &n) != 1 ||
      take_block(&r, n, &blk)) {
    bad(&r, "expected 'phase1 BYTES' and the phase-1 certificate");
    goto out;
  }
  char m1[600];
  if (twill_modulo_check_cert(g, blk, n, m1, sizeof m1)) {
    bad(&r, "phase-1 certificate: %s", m1);
    goto out;
  }
  long i1 = -1;
  for (const char *q = blk; q < blk + n; q = memchr(q, '\n', (size_t)(blk + n - q)), q = q ? q + 1 : blk + n)
    if (!strncmp(q, "ii ", 3)) {
      i1 = strtol(q + 3, NULL, 10);
      break;
    }
  if (i1 < 1 || i1 > ii) {
    bad(&r, "phase-1 I* %ld does not bound I %ld", i1, ii);
    goto out;
  }
  /* refutations */
  long next = i1, lstar_proved = 0, lmin_ref = -1;
  int length_none = 0;
  for (;;) {
    if (!next_line(&r, line, sizeof line)) {
      bad(&r, "missing 'end'");
      goto out;
    }
    long ri, rl;
    if (!strcmp(line, "end")) break;
    if (!strcmp(line, "length-proof none")) {
      length_none = 1;
      continue;
    }
    if (sscanf(line, "no-modulo %ld", &ri) == 1) {
      bad(&r, "I %ld: phase-1 infeasibility above I* is not certified", ri);
      goto out;
    }
    if (sscanf(line, "refute %ld %ld %zu%63s", &ri, &rl, &n, word) != 3 ||
        take_block(&r, n, &blk)) {
      bad(&r, "expected 'refute I L BYTES' and its proof");
      goto out;
    }
    if (rl < 1 || rl > CERT_MAX_TIME) {
      bad(&r, "refutation length %ld out of range", rl);
      goto out;
    }
    if ((ri != next || ri >= ii) && !(ri == ii && rl == L - 1)) {
      bad(&r, "refutation at I %ld out of order (expected I %ld)", ri, next);
      goto out;
    }
    if (check_refutation(&r, g, &p, ri, rl, blk, n)) goto out;
    if (ri == next && ri < ii) {
      next++;
      if (lmin_ref < 0 || rl < lmin_ref) lmin_ref = rl;
    } else {
      lstar_proved = 1;
    }
  }
  if (next != ii) {
    bad(&r, "no refutation for I %ld", next);
    goto out;
  }
  if (L - 1 < max_lat1(g)) lstar_proved = 1;
  if (!lstar_proved && !length_none) {
    bad(&r, "no proof that L %ld is minimal at I %ld", L, ii);
    goto out;
  }
  char lenmsg[160];
  if (lstar_proved)
    snprintf(lenmsg, sizeof lenmsg, "L %ld proven minimal at I*", L);
  else
    snprintf(lenmsg, sizeof lenmsg, "L %ld not proven minimal", L);
  snprintf(msg, msglen,
           "I* = %ld (normalized) proven: no modulo schedule below %ld "
           "(phase 1), no joint schedule for I in [%ld, %ld) within the "
           "searched lengths (shortest refuted L bound %ld); schedule legal; "
           "%s; warps %d, regs %ld, cross-warp %s%s",
           ii, i1, i1, ii, lmin_ref, lenmsg, p.warps, p.regs,
           p.no_cross_warp ? "forbidden" : "allowed",
           p.nrels ? "; under the certificate's relations" : "");
  rc = 0;
out:
  twill_schedule_free(s);
  twill_graph_free(g);
  return rc;
}

int twill_solve_check_cert(const twill_graph *g0, const twill_arch *m,
                           const char *cert, size_t len, char *msg,
                           size_t msglen) {
  (void)m;
  twill_joint_relset rs = {NULL, 0};
  int rc = check_cert(g0, cert, len, msg, msglen, &rs);
  twill_joint_relset_free(&rs);
  return rc;
}
