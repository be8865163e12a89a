/* core/check/cert_solve.c: checking a `twill solve` certificate.
 *
 * Format (version 2; the grammar of core/check/cert_check.c):
 *
 *   twill-certificate 2 solve
 *   kernel NAME / machine NAME
 *   normalize U, norm C C' ..., norm-proof BYTES   (as a phase-1
 *                                certificate; the costs include the
 *                                machine's cross-warp cost, written into the
 *                                spill of every op that pays it)
 *   launch R W W1,W2,...         only when the check searches the warp
 *                                count (twill/launch.h): the answer's W,
 *                                its launch budget R = R(W), and every
 *                                runnable warp count up to the limit,
 *                                ascending; all derived and compared
 *   params W WG R REGS_PER_SM LO STEP XREAL X NO_CROSS SMEM TMEM SYMMETRY
 *   rel KIND OP,OP,...           the check's relations, in its order
 * then either "no I at all":
 *   never I' L' BYTES            a refutation of the single-iteration
 *   end                            relaxation (check_never.c) at (I', L')
 *                                  with its floors; "never-covers" in
 *                                  place of "never": with its covers too
 * or an optimum:
 *   ii I*
 *   length L*
 *   time OP T WARP               one line per op, in the kernel's order
 *   phase1 BYTES                 a phase-1 body (cert_check.c from `ii` to
 *                                  `end`) for the same normalized kernel:
 *                                  no modulo schedule below its I1
 *   refute I L BYTES             for each I in [I1, I*) in order, a
 *                                  refutation at L >= ceil(len/I)*I ...
 *   witness I / wtime OP T ...   ... where len is the length of a modulo
 *                                  schedule at I: phase 1's at I1, else the
 *                                  one these lines give before `refute I`
 *   refute I* L*-1 BYTES         no joint schedule shorter than L* (or the
 *                                  line "length-proof none"; nothing when
 *                                  L* - 1 is shorter than an op)
 *   other W R KIND               with a launch line, for every other W
 *                                  searched, ascending (also after a
 *                                  "never" answer, KIND never there):
 *     never I' L' BYTES            KIND never: W has no schedule at any I
 *                                  (or never-covers I' L' BYTES)
 *     refute I L BYTES             KIND refuted: at W's parameters, every I
 *                                  in [I1, I*) within the copies above,
 *                                  and I* at L >= L* (W below the answer's:
 *                                  it must not reach (I*, L*)) or L* - 1
 *                                  (above: no shorter schedule), the
 *                                  latter only when at least the longest op
 *   end
 *
 * What is derived, not read: the kernel, machine and parameters (compared
 * with the params line, every value but SYMMETRY, which only says whether
 * the refutations carry symmetry breaking); whether the joint problems
 * carry the register total (twill/joint.h: from TWILL_REG_TOTAL_MIN_OPS
 * ops on, as solve states it); the normalized costs and
 * cross-warp cost X (check_norm.c); MII and the phase-1 program
 * (check_phase1.c); the joint problem each refutation must refute, stated
 * by check_joint.c, whose text must be the refutation's first bytes; the
 * copies bound ceil(len/I)*I of each I (any modulo schedule's length is at
 * least Lmin1(I), so the bound is at least Algorithm 1's); (I', L') of
 * "never".  A refutation is checked by sat/smt_check.c, with every input
 * line after the stated problem refused (by that checker's own tokenizer).
 * The schedule is checked by the model's validator (core/joint/
 * joint_model.c) and must have length exactly L*.
 */
#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

static long max_lat1(const twill_graph *g) {
  long x = 1;
  for (int v = 0; v < g->nops; v++)
    if (lat1(&g->ops[v]) > x) x = lat1(&g->ops[v]);
  return x;
}

/* The first line where the refutation leaves the stated problem. */
static int first_diff_line(const char *a, size_t na, const char *b, size_t nb, size_t *at) {
  size_t i = 0;
  int line = 1;
  while (i < na && i < nb && a[i] == b[i]) line += a[i++] == '\n';
  size_t s = i;
  while (s > 0 && a[s - 1] != '\n') s--;
  *at = s;
  return line;
}

static int check_refutation(cert_rd *r, const twill_graph *g, const twill_joint_params *p,
                            long ii, long L, const char *blk, size_t n) {
  char why[400];
  size_t tl;
  char *txt = twill_check_joint_text(g, p, ii, L, &tl, why, sizeof why);
  if (!txt)
    return twill_cr_fail(r, "cannot state the joint problem at I %ld, L %ld: %s", ii, L, why);
  if (tl > n || memcmp(txt, blk, tl)) {
    size_t at;
    int line = first_diff_line(txt, tl, blk, n, &at);
    const char *e = memchr(txt + at, '\n', tl - at);
    int len = e ? (int)(e - (txt + at)) : (int)(tl - at);
    twill_cr_fail(r, "the refutation at I %ld, L %ld is not of the joint problem the checker "
                  "states from the kernel: its line %d differs (expected '%.*s')", ii, L, line,
                  len > 60 ? 60 : len, txt + at);
    free(txt);
    return -1;
  }
  free(txt);
  char m[400];
  twill_smt_inputs in = {tl, NULL, NULL};
  int c = twill_smt_check_proof_inputs(blk, n, &in, m, sizeof m);
  if (c != 1)
    return twill_cr_fail(r, "the refutation at I %ld, L %ld is rejected: %s", ii, L,
                         c == 0 ? "no empty clause derived" : m);
  return 0;
}

/* "params ..." against the parameters the check derived. */
static int read_params(cert_rd *r, const twill_joint_params *p, long x_norm,
                       twill_joint_params *pn) {
  if (twill_cr_line(r) || twill_cr_key(r, "params", 13)) return -1;
  static const char *const what[12] = {
      "warps", "warpgroup size", "register budget", "registers per SM",
      "setmaxnreg minimum", "setmaxnreg step", "cross-warp cost (real cycles)",
      "cross-warp cost (normalized)", "no-cross-warp", "shared-memory capacity",
      "tensor-memory capacity", "symmetry breaking"};
  long want[12] = {p->warps, p->warpgroup, p->regs, p->regs_per_sm, p->reg_lo, p->reg_step,
                   p->cross_warp, x_norm, p->no_cross_warp ? 1 : 0, p->smem_cap,
                   p->tmem_cap, -2};
  long got[12];
  for (int i = 0; i < 12; i++) {
    if (twill_cr_long(r, i + 1, -1, (long)1 << 40, &got[i], what[i])) return -1;
    if (i < 11 && got[i] != want[i])
      return twill_cr_fail(r, "%s: the certificate says %ld, the check derives %ld from the "
                           "machine and its flags", what[i], got[i], want[i]);
  }
  /* 1: warps; 2: warps and isomorphic sub-tiles (twill/joint.h) */
  if (got[11] < 0 || got[11] > 2)
    return twill_cr_fail(r, "symmetry breaking must be 0, 1 or 2");
  *pn = *p;
  pn->cross_warp = x_norm;
  pn->symmetry = got[11] >= 1;
  pn->subtile_symmetry = got[11] == 2;
  return 0;
}

static int read_rels(cert_rd *r, const twill_graph *g, const twill_joint_params *p) {
  for (int k = 0; k < p->nrels; k++) {
    const twill_joint_rel *rl = &p->rels[k];
    if (twill_cr_line(r) || twill_cr_key(r, "rel", 3) ||
        twill_cr_word(r, 1, twill_rel_name(rl->kind), "relation"))
      return -1;
    char list[2048];
    size_t at = 0;
    for (int i = 0; i < rl->nops && at < sizeof list; i++)
      at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? "," : "",
                             g->ops[rl->ops[i]].name);
    if (twill_cr_word(r, 2, list, "relation's ops")) return -1;
  }
  return 0;
}

static void describe_params(const twill_joint_params *p, long x_real, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "warps %d (warpgroups of %d), %ld registers per "
                              "thread", p->warps, p->warpgroup, p->regs);
  if (k < n && p->reg_step > 0)
    k += (size_t)snprintf(buf + k, n - k, " (setmaxnreg from %d in steps of %d, %ld per SM)",
                          p->reg_lo, p->reg_step, p->regs_per_sm);
  if (k < n)
    k += (size_t)snprintf(buf + k, n - k, ", cross-warp %s", p->no_cross_warp ? "forbidden" : "allowed");
  if (k < n && !p->no_cross_warp)
    k += (size_t)snprintf(buf + k, n - k, " (%ld cycles, %ld normalized)", x_real, p->cross_warp);
  if (k < n)
    k += (size_t)snprintf(buf + k, n - k, ", shared memory %ld", p->smem_cap);
  if (k < n && p->tmem_cap >= 0) k += (size_t)snprintf(buf + k, n - k, ", tensor memory %ld", p->tmem_cap);
  else if (k < n) k += (size_t)snprintf(buf + k, n - k, ", no tensor memory");
  if (k < n) k += (size_t)snprintf(buf + k, n - k, ", relations: %s", p->nrels ? "" : "none");
  for (int i = 0; i < p->nrels && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s--%s (%d ops)", i ? ", " : "",
                          twill_rel_name(p->rels[i].kind), p->rels[i].nops);
}

/* "never-pack OP": the registers live at OP's slot fit no assignment to the
 * warpgroups (check_never.c derives the demands from the kernel; the line
 * only names OP). */
static int pack_block(cert_rd *r, const twill_graph *g, const twill_joint_params *q,
                      const int *kf) {
  if (twill_cr_key(r, "never-pack", 2)) return -1;
  int x = -1;
  for (int v = 0; v < g->nops && x < 0; v++)
    if (twill_cr_is(r, 1, g->ops[v].name)) x = v;
  if (x < 0)
    return twill_cr_fail(r, "never-pack: '%.*s' is not an op of the kernel",
                         (int)(r->toklen[1] > 40 ? 40 : r->toklen[1]), r->tok[1]);
  int *cov = NULL, *cov_at = NULL, ncov = 0;
  if (twill_never_derive_covers(g, kf, &cov, &cov_at, &ncov))
    return twill_cr_fail(r, "cannot derive the covers (memory, or a kernel too large)");
  char why[200];
  int bad = twill_never_check_pack(g, q, kf, cov, cov_at, ncov, x, why, sizeof why);
  free(cov), free(cov_at);
  if (bad)
    return twill_cr_fail(r, "never-pack %s: %s, so the registers do not prove \"no I\"",
                         g->ops[x].name, why);
  return 0;
}

/* "never I' L' BYTES" or "never-covers I' L' BYTES": the single-iteration
 * relaxation of g under pn (check_never.c), with its floors, and with its
 * covers for the second, derived here, refuted by the block.  Both are
 * relaxations (check_never.c says why), so either keyword proves "no I". */
static int never_block(cert_rd *r, const twill_graph *g, const twill_joint_params *pn,
                       long *ii_out, long *L_out) {
  twill_joint_rel keep[TWILL_JOINT_MAX_RELS];
  twill_joint_params q = *pn;
  int k = 0;
  for (int i = 0; i < pn->nrels && i < TWILL_JOINT_MAX_RELS; i++)
    if (pn->rels[i].kind != TWILL_REL_LEAD) keep[k++] = pn->rels[i];
  q.rels = k ? keep : NULL;
  q.nrels = k;
  twill_graph *gn;
  long wi, wl;
  int *kf = malloc((size_t)(g->nops > 0 ? g->nops : 1) * sizeof *kf);
  if (!kf || twill_never_derive(g, &q, &gn, &wi, &wl, kf)) {
    free(kf);
    return twill_cr_fail(r, "cannot derive the single-iteration relaxation (memory, or a "
                         "kernel too large)");
  }
  q.min_live = kf;
  int *cov = NULL, *cov_at = NULL;
  if (twill_cr_is(r, 0, "never-pack")) {
    int bad = pack_block(r, g, &q, kf);
    twill_graph_free(gn);
    free(kf);
    *ii_out = *L_out = 0;
    return bad;
  }
  bool with_covers = twill_cr_is(r, 0, "never-covers");
  const char *key = with_covers ? "never-covers" : "never";
  q.ncovers = 0;
  if (with_covers && twill_never_derive_covers(g, kf, &cov, &cov_at, &q.ncovers)) {
    twill_graph_free(gn);
    free(kf);
    return twill_cr_fail(r, "cannot derive the single-iteration relaxation (memory, or a "
                         "kernel too large)");
  }
  q.cover_ops = cov;
  q.cover_at = cov_at;
  long ii, L;
  const char *blk;
  size_t n;
  int bad = twill_cr_key(r, key, 4) ||
            twill_cr_long(r, 1, 1, TWILL_CHECK_MAX_TIME, &ii, "never I") ||
            twill_cr_long(r, 2, 1, TWILL_CHECK_MAX_TIME, &L, "never L");
  if (!bad && (ii != wi || L != wl))
    bad = twill_cr_fail(r, "'%s %ld %ld': the kernel's single-iteration relaxation is at "
                        "I %ld, L %ld", key, ii, L, wi, wl);
  if (!bad) bad = twill_cr_block(r, 3, &blk, &n, NULL);
  if (!bad) bad = check_refutation(r, gn, &q, ii, L, blk, n);
  twill_graph_free(gn);
  free(kf), free(cov), free(cov_at);
  *ii_out = ii;
  *L_out = L;
  return bad ? -1 : 0;
}

/* The launch search (twill/launch.h): what the certificate's sections
 * after the answer must refute, derived by the checker. */
typedef struct claunch {
  int on;          /* the subject searches the warp count */
  int ws[64], nw;  /* the runnable warp counts, ascending */
  int wa;          /* the answer's */
  long ra;         /* R(wa) */
  twill_joint_params qa; /* the parameters at wa, real cycles */
} claunch;

/* "launch R W W1,W2,...": W among the runnable counts, R = R(W), the list
 * exactly the runnable counts up to the subject's limit. */
static int read_launch(cert_rd *r, const twill_check_subject *s, claunch *lc) {
  if (twill_cr_line(r) || twill_cr_key(r, "launch", 4)) return -1;
  lc->nw = twill_check_launch_set(s->m, s->p, s->search_warps, lc->ws, 64);
  if (lc->nw == 0)
    return twill_cr_fail(r, "no warp count up to %d can run on machine %s", s->search_warps,
                         s->m ? s->m->name : "(none)");
  char set[400];
  size_t at = 0;
  for (int k = 0; k < lc->nw && at < sizeof set; k++)
    at += (size_t)snprintf(set + at, sizeof set - at, "%s%d", k ? "," : "", lc->ws[k]);
  long R, W;
  if (twill_cr_long(r, 1, 0, 1L << 20, &R, "launch registers per thread") ||
      twill_cr_long(r, 2, 1, 1L << 20, &W, "launch warps"))
    return -1;
  int in = 0;
  for (int k = 0; k < lc->nw; k++) in = in || lc->ws[k] == W;
  if (!in)
    return twill_cr_fail(r, "the answer's %ld warps are not among the warp counts this "
                         "machine runs up to %d (%s)", W, s->search_warps, set);
  if (twill_cr_word(r, 3, set, "the warp counts searched")) return -1;
  char why[200];
  if (twill_check_launch_params(s->m, s->p, (int)W, &lc->qa, why, sizeof why))
    return twill_cr_fail(r, "%s", why);
  long want = twill_check_launch_regs(s->m, s->p, (int)W);
  if (R != want)
    return twill_cr_fail(r, "%ld warps launch at %ld registers per thread (%ld / (32 * %ld) in "
                         "units of 8), not %ld", W, want, s->p->regs_per_sm, W, R);
  lc->wa = (int)W;
  lc->ra = R;
  lc->on = 1;
  return 0;
}

/* "other W R KIND" for every other warp count, ascending: KIND never (its
 * own "never" block) or refuted: a refutation at W of every I in [I1, I*)
 * within that I's copies (wlen: the lengths the answer's phase 1 and
 * witnesses gave) and of I* up to need = L* (fewer warps than the answer:
 * it must not reach (I*, L*)) or L* - 1 (more warps), when need is at
 * least the longest op. */
static int read_others(cert_rd *r, const twill_check_subject *s, const claunch *lc,
                       const twill_graph *g, long X, bool symmetry, bool subtiles,
                       int all_never, long I1, long Is, long Ls, const long *wlen) {
  for (int k = 0; k < lc->nw; k++) {
    int W = lc->ws[k];
    if (W == lc->wa) continue;
    long w, R;
    if (twill_cr_line(r) || twill_cr_key(r, "other", 4) ||
        twill_cr_long(r, 1, 1, 1L << 20, &w, "warps") ||
        twill_cr_long(r, 2, 0, 1L << 20, &R, "launch registers"))
      return -1;
    if (w != W)
      return twill_cr_fail(r, "expected the section of %d warps (the warp counts searched "
                           "are refuted in ascending order, each once)", W);
    long want = twill_check_launch_regs(s->m, s->p, W);
    if (R != want)
      return twill_cr_fail(r, "%d warps launch at %ld registers per thread, not %ld", W,
                           want, R);
    twill_joint_params q;
    char why[200];
    if (twill_check_launch_params(s->m, s->p, W, &q, why, sizeof why))
      return twill_cr_fail(r, "%s", why);
    q.cross_warp = X;
    /* every warp count is searched with the answer's symmetry breaking
     * (the sub-tile order depends on the kernel's size, not on W) */
    q.symmetry = symmetry;
    q.subtile_symmetry = subtiles;
    q.reg_total = g->nops >= TWILL_REG_TOTAL_MIN_OPS;
    long ni, nl;
    if (twill_cr_is(r, 3, "never")) {
      if (twill_cr_line(r) || never_block(r, g, &q, &ni, &nl)) return -1;
      continue;
    }
    if (twill_cr_word(r, 3, "refuted", "the section's kind")) return -1;
    if (all_never)
      return twill_cr_fail(r, "no warp count has a schedule: %d warps must be refuted at "
                           "every I ('never')", W);
    long need_s = W < lc->wa ? Ls : Ls - 1;
    long last = need_s >= max_lat1(g) ? Is : Is - 1;
    for (long i = I1; i <= last; i++) {
      long ri, rl;
      const char *blk;
      size_t n;
      if (twill_cr_line(r) || twill_cr_key(r, "refute", 4) ||
          twill_cr_long(r, 1, 1, TWILL_CHECK_MAX_TIME, &ri, "refute I") ||
          twill_cr_long(r, 2, 1, TWILL_CHECK_MAX_TIME, &rl, "refute L"))
        return -1;
      if (ri != i) return twill_cr_fail(r, "expected the refutation at %d warps, I = %ld", W, i);
      long need = i < Is ? (wlen[i - I1] + i - 1) / i * i : need_s;
      if (rl < need)
        return twill_cr_fail(r, "the refutation at %d warps, I %ld is at L %ld; the claim needs "
                             "L >= %ld", W, i, rl, need);
      if (twill_cr_block(r, 3, &blk, &n, NULL) || check_refutation(r, g, &q, i, rl, blk, n))
        return -1;
    }
  }
  return 0;
}

static void describe_launch(const claunch *lc, char *buf, size_t n) {
  if (!lc->on) {
    buf[0] = 0;
    return;
  }
  size_t k = (size_t)snprintf(buf, n, "; launch: %d warps at %ld registers per thread, the "
                              "fewest that reach it among the warp counts searched (", lc->wa,
                              lc->ra);
  for (int i = 0; i < lc->nw && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "%s%d", i ? ", " : "", lc->ws[i]);
  if (k < n) snprintf(buf + k, n - k, "), every other one refuted");
}

static int check_never(cert_rd *r, const twill_check_subject *s, const twill_graph *g,
                       const twill_joint_params *pn, const char *costs, const claunch *lc,
                       long X, twill_check_claim *cl, char *msg, size_t msglen) {
  long ii, L;
  if (never_block(r, g, pn, &ii, &L)) return -1;
  if (lc->on && read_others(r, s, lc, g, X, pn->symmetry, pn->subtile_symmetry, 1, 0, 0, 0, NULL)) return -1;
  if (twill_cr_end(r)) return -1;
  char par[700], lb[400];
  describe_params(pn, s->p->cross_warp, par, sizeof par);
  describe_launch(lc, lb, sizeof lb);
  cl->kind = TWILL_CLAIM_NEVER;
  cl->warps = pn->warps;
  cl->launch_regs = lc->on ? lc->ra : 0;
  cl->nsearched = lc->on ? lc->nw : 0;
  char how[200];
  if (ii == 0) /* never-pack: no relaxation, a count */
    snprintf(how, sizeof how, "the registers live at one slot fit no assignment to the "
             "warpgroups (counted)");
  else
    snprintf(how, sizeof how, "one iteration without its loop-carried edges, holding the "
             "copies they keep live at every I, has no joint schedule (refuted at I' %ld, "
             "L' %ld)", ii, L);
  snprintf(msg, msglen,
           "kernel %s, machine %s: infeasible at every I%s: %s; "
           "parameters: %s; in normalized cycles, %s",
           s->g->name, s->m->name, lc->on ? " and every warp count searched" : "", how,
           par, costs);
  return 0;
}

int twill_check_solve(const twill_check_subject *s, const char *cert, size_t len,
                      twill_check_claim *cl, char *msg, size_t msglen) {
  cert_rd r;
  twill_cr_init(&r, cert, len, 0, msg, msglen);
  if (!s->p) return twill_cr_fail(&r, "a solve certificate needs the joint parameters"), 1;
  if (s->p->min_live || s->p->ncovers) /* the "no I at all" relaxation's only */
    return twill_cr_fail(&r, "the parameters set floors or covers of live copies: not a "
                         "claim"), 1;
  if (twill_check_header(&r, s, "solve")) return 1;
  cnorm nm;
  twill_graph *g = NULL;
  long X;
  if (twill_cnorm_read(&r, s->g, s->p->cross_warp, s->budget, &nm, &g, &X)) return 1;
  int rc = 1;
  twill_joint_params pn;
  twill_schedule *sch = NULL;
  long *t1 = NULL, *tw = NULL, *wl = NULL;
  char costs[600];
  twill_cnorm_describe(&nm, costs, sizeof costs);
  claunch lc;
  memset(&lc, 0, sizeof lc);
  if (s->search_warps > 0 && read_launch(&r, s, &lc)) goto out;
  const twill_joint_params *sp = lc.on ? &lc.qa : s->p;
  if (read_params(&r, sp, X, &pn) || read_rels(&r, s->g, s->p) || twill_cr_line(&r))
    goto out;
  /* the register total: derived from the kernel's size, as solve decides */
  pn.reg_total = g->nops >= TWILL_REG_TOTAL_MIN_OPS;
  if (twill_cr_is(&r, 0, "never") || twill_cr_is(&r, 0, "never-covers") ||
      twill_cr_is(&r, 0, "never-pack")) {
    rc = check_never(&r, s, g, &pn, costs, &lc, X, cl, msg, msglen) ? 1 : 0;
    goto out;
  }
  long ii, L;
  if (twill_cr_key(&r, "ii", 2) || twill_cr_long(&r, 1, 1, TWILL_CHECK_MAX_TIME, &ii, "ii") ||
      twill_cr_line(&r) || twill_cr_key(&r, "length", 2) ||
      twill_cr_long(&r, 1, 1, TWILL_CHECK_MAX_TIME, &L, "length"))
    goto out;
  sch = twill_schedule_new(g->nops, ii);
  size_t nn = g->nops > 0 ? (size_t)g->nops : 1;
  t1 = malloc(nn * sizeof *t1);
  tw = malloc(nn * sizeof *tw);
  if (!sch || twill_schedule_add_warps(sch) || !t1 || !tw) {
    twill_cr_fail(&r, "out of memory");
    goto out;
  }
  for (int v = 0; v < g->nops; v++) {
    long w;
    if (twill_cr_line(&r) || twill_cr_key(&r, "time", 4) ||
        twill_cr_word(&r, 1, g->ops[v].name, "time: the next op") ||
        twill_cr_long(&r, 2, 0, TWILL_CHECK_MAX_TIME, &sch->start[v], "start time") ||
        twill_cr_long(&r, 3, 0, pn.warps - 1, &w, "warp"))
      goto out;
    sch->warp[v] = (int)w;
  }
  char why[400];
  if (twill_joint_validate(g, &pn, L, sch, why, sizeof why)) {
    twill_cr_fail(&r, "the schedule is not a legal joint schedule at I %ld, L %ld: %s", ii, L,
                  why);
    goto out;
  }
  long slen = 0;
  for (int v = 0; v < g->nops; v++)
    if (sch->start[v] + lat1(&g->ops[v]) > slen) slen = sch->start[v] + lat1(&g->ops[v]);
  if (slen != L) {
    twill_cr_fail(&r, "the schedule's length is %ld, not %ld", slen, L);
    goto out;
  }
  /* phase 1: no modulo schedule, so no joint schedule, below I1 */
  const char *blk;
  size_t n;
  cert_rd sub;
  cphase1 c1;
  if (twill_cr_line(&r) || twill_cr_key(&r, "phase1", 2) ||
      twill_cr_block(&r, 1, &blk, &n, &sub) || twill_phase1_read(&sub, g, &c1, t1))
    goto out;
  if (c1.ii > ii) {
    twill_cr_fail(&r, "phase 1 proves no modulo schedule below %ld, above the claimed I* %ld",
                  c1.ii, ii);
    goto out;
  }
  wl = malloc((size_t)(ii - c1.ii + 1) * sizeof *wl);
  if (!wl) {
    twill_cr_fail(&r, "out of memory");
    goto out;
  }
  for (long i = c1.ii; i < ii; i++) {
    long wlen = c1.length;
    if (twill_cr_line(&r)) goto out;
    if (i > c1.ii) { /* a modulo schedule at I sets its copies */
      long wi;
      if (twill_cr_key(&r, "witness", 2) ||
          twill_cr_long(&r, 1, 1, TWILL_CHECK_MAX_TIME, &wi, "witness I"))
        goto out;
      if (wi != i) {
        twill_cr_fail(&r, "expected the witness at I = %ld", i);
        goto out;
      }
      for (int v = 0; v < g->nops; v++)
        if (twill_cr_line(&r) || twill_cr_key(&r, "wtime", 3) ||
            twill_cr_word(&r, 1, g->ops[v].name, "wtime: the next op") ||
            twill_cr_long(&r, 2, 0, TWILL_CHECK_MAX_TIME, &tw[v], "start time"))
          goto out;
      if (twill_phase1_valid(g, i, tw, &wlen, why, sizeof why)) {
        twill_cr_fail(&r, "the witness is not a modulo schedule at I = %ld: %s", i, why);
        goto out;
      }
      if (twill_cr_line(&r)) goto out;
    }
    long ri, rl;
    if (twill_cr_key(&r, "refute", 4) ||
        twill_cr_long(&r, 1, 1, TWILL_CHECK_MAX_TIME, &ri, "refute I") ||
        twill_cr_long(&r, 2, 1, TWILL_CHECK_MAX_TIME, &rl, "refute L"))
      goto out;
    if (ri != i) {
      twill_cr_fail(&r, "expected the refutation at I = %ld", i);
      goto out;
    }
    wl[i - c1.ii] = wlen;
    long need = (wlen + i - 1) / i * i;
    if (rl < need) {
      twill_cr_fail(&r, "the refutation at I %ld is at L %ld; the claim needs L >= %ld "
                    "(ceil(%ld / %ld) copies of I, %ld the length of a modulo schedule at I)",
                    i, rl, need, wlen, i, wlen);
      goto out;
    }
    if (twill_cr_block(&r, 3, &blk, &n, NULL) || check_refutation(&r, g, &pn, i, rl, blk, n))
      goto out;
  }
  int proven = 1;
  if (L - 1 >= max_lat1(g)) { /* else no schedule is shorter than an op */
    if (twill_cr_line(&r)) goto out;
    if (twill_cr_is(&r, 0, "length-proof")) {
      if (twill_cr_key(&r, "length-proof", 2) || twill_cr_word(&r, 1, "none", "length-proof"))
        goto out;
      proven = 0;
    } else {
      long ri, rl;
      if (twill_cr_key(&r, "refute", 4) ||
          twill_cr_long(&r, 1, 1, TWILL_CHECK_MAX_TIME, &ri, "refute I") ||
          twill_cr_long(&r, 2, 1, TWILL_CHECK_MAX_TIME, &rl, "refute L"))
        goto out;
      if (ri != ii || rl != L - 1) {
        twill_cr_fail(&r, "expected the refutation at I* %ld, L* - 1 = %ld", ii, L - 1);
        goto out;
      }
      if (twill_cr_block(&r, 3, &blk, &n, NULL) || check_refutation(&r, g, &pn, ii, rl, blk, n))
        goto out;
    }
  }
  if (lc.on && read_others(&r, s, &lc, g, X, pn.symmetry, pn.subtile_symmetry, 0, c1.ii, ii, L, wl)) goto out;
  if (twill_cr_end(&r)) goto out;
  char par[700], below[300], lb[400];
  describe_params(&pn, s->p->cross_warp, par, sizeof par);
  describe_launch(&lc, lb, sizeof lb);
  if (c1.ii < ii)
    snprintf(below, sizeof below, ", nor at I in [%ld, %ld) within ceil(Lmin1(I)/I) copies "
             "of I (Lmin1: the least modulo-schedule length at I)", c1.ii, ii);
  else
    below[0] = 0;
  cl->kind = TWILL_CLAIM_SOLVE;
  cl->ii = ii;
  cl->length = L;
  cl->length_proven = proven;
  cl->phase1_ii = c1.ii;
  cl->mii = c1.b.mii;
  cl->warps = pn.warps;
  cl->launch_regs = lc.on ? lc.ra : 0;
  cl->nsearched = lc.on ? lc.nw : 0;
  snprintf(msg, msglen,
           "kernel %s, machine %s: I* = %ld, %s%ld%s; no joint schedule at I < %ld (phase 1: "
           "no modulo schedule there; MII %ld)%s%s; parameters: %s; in normalized cycles, %s",
           s->g->name, s->m->name, ii, proven ? "L* = " : "a joint schedule of length ", L,
           proven ? " proven least at I*" : " at I* (NOT proven least: the certificate says so)",
           c1.ii, c1.b.mii, below, lb, par, costs);
  rc = 0;
out:
  twill_schedule_free(sch);
  free(t1);
  free(tw);
  free(wl);
  twill_graph_free(g);
  twill_cnorm_clear(&nm);
  return rc;
}
