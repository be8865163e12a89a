/* core/check/cert_check.c: `twill check`'s library side: which certificate
 * it is, the header every certificate starts with, and the phase-1
 * (`twill modulo`) certificate.
 *
 * The checker derives, the certificate only claims.  The kernel, the
 * machine, the parameters of the joint problem and the normalization
 * budget come from the caller (the kernel file, its `arch` line or
 * `--arch`, and the flags of `twill check`); the certificate states each of
 * them, and any difference is a rejection naming the value.  The
 * normalized costs are computed here from the kernel and verified optimal
 * (check_norm.c).  Every number the verdict prints is one the checker read
 * and verified, in the kernel's normalized units.
 *
 * Format of a phase-1 certificate (version 2; every line tokens separated
 * by single spaces, numbers in canonical decimal, blocks of BYTES bytes
 * followed by a newline, nothing after `end`):
 *
 *   twill-certificate 2 modulo
 *   kernel NAME                  the kernel's name
 *   machine NAME                 the machine's name
 *   normalize U                  the budget (or: normalize off)
 *   norm C C'                    one line per distinct positive cost of the
 *   ...                            kernel, ascending: its normalized value
 *   norm-proof BYTES             (two costs or more) a VIPR proof that the
 *                                  mapping is optimal (twill/normalize.h)
 *   ii I                         the claim: I* ...
 *   length L                     ... and L* at I* (the schedule's length)
 *   heuristic IH LH              a schedule the program at IH may stop at
 *                                  (its L caps the program there)
 *   form F                       how a twill-smt block's problem is stated:
 *                                  none, reduce, slots, reduce,slots,
 *                                  slots,times or reduce,slots,times
 *   length-proof none            (optional) L is not proven least
 *   time OP T                    one line per op, in the kernel's order
 *   vipr I infeasible BYTES      for each I in [MII, I*): no schedule, a
 *   (or smt I infeasible BYTES)    VIPR proof or a twill-smt refutation
 *   vipr I* optimal BYTES        L >= L* at I* (absent with length-proof
 *   (or smt I* optimal BYTES,      none): a VIPR proof, a twill-smt
 *    or path I* optimal)           refutation of L <= L* - 1, or L* is the
 *                                  critical path at I*
 *   end
 *
 * I below MII needs no proof: the checker derives MII and shows each such
 * I impossible (check_phase1.c).  Each VIPR proof is checked on the program
 * the checker builds (check_prog.c, check_phase1.c) by the VIPR checker,
 * which also hands the checker the problem as it read it.  Each twill-smt
 * refutation must start with the checker's own statement of the reduced
 * problem at I (check_reduce.c, check_phase1_smt.c) and is checked by
 * sat/smt_check.c with no input added after it.  A path line is checked
 * against the critical path the checker derives.
 */
#include "check_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int twill_check_header(cert_rd *r, const twill_check_subject *s, const char *kind) {
  if (twill_cr_line(r) || twill_cr_key(r, "twill-certificate", 3) ||
      twill_cr_word(r, 1, "2", "certificate version"))
    return -1;
  if (twill_cr_word(r, 2, kind, "certificate kind")) return -1;
  if (twill_cr_line(r) || twill_cr_key(r, "kernel", 2)) return -1;
  if (!twill_cr_is(r, 1, s->g->name))
    return twill_cr_fail(r, "the certificate is for kernel '%.*s', the check is of '%s'",
                         (int)(r->toklen[1] > 60 ? 60 : r->toklen[1]), r->tok[1], s->g->name);
  if (twill_cr_line(r) || twill_cr_key(r, "machine", 2)) return -1;
  if (!twill_cr_is(r, 1, s->m->name))
    return twill_cr_fail(r, "the certificate is for machine '%.*s', the check uses '%s' (the "
                         "kernel's arch line, or --arch)",
                         (int)(r->toklen[1] > 60 ? 60 : r->toklen[1]), r->tok[1], s->m->name);
  return 0;
}

static int check_modulo(const twill_check_subject *s, const char *cert, size_t len,
                        twill_check_claim *cl, char *msg, size_t msglen) {
  cert_rd r;
  twill_cr_init(&r, cert, len, 0, msg, msglen);
  if (twill_check_header(&r, s, "modulo")) return 1;
  cnorm nm;
  twill_graph *g;
  long x;
  /* the kernel as twill modulo schedules it: the machine's cross-warp cost
   * among the costs (twill_normalize_kernel), derived here, not read */
  if (twill_cnorm_read(&r, s->g, s->m->cross_warp, s->budget, &nm, &g, &x)) return 1;
  cphase1 c;
  int bad = twill_phase1_read(&r, g, &c, NULL);
  if (!bad) {
    char costs[600], lenw[160];
    twill_cnorm_describe(&nm, costs, sizeof costs);
    if (c.length_proven)
      snprintf(lenw, sizeof lenw, "L* = %ld proven least at I* (%s)", c.length,
               c.length_by == CP1_BY_PATH  ? "the critical path at I*"
               : c.length_by == CP1_BY_SMT ? "a twill-smt refutation of a shorter L"
                                           : "a VIPR proof");
    else
      snprintf(lenw, sizeof lenw, "a schedule of length %ld at I* (NOT proven least: the "
               "certificate says so)", c.length);
    cl->kind = TWILL_CLAIM_MODULO;
    cl->ii = c.ii;
    cl->length = c.length;
    cl->length_proven = c.length_proven;
    cl->mii = c.b.mii;
    cl->phase1_ii = c.ii;
    char vip[200] = "";
    if (c.b.mii < c.ii)
      snprintf(vip, sizeof vip, ", and proofs that none exists at I in [%ld, %ld) (%d VIPR, "
               "%d twill-smt)", c.b.mii, c.ii, c.nvipr, c.nsmt);
    snprintf(msg, msglen,
             "kernel %s, machine %s: phase 1 (modulo schedules, no warps): I* = %ld, %s; "
             "MII %ld (ResMII %ld, RecMII %ld) with no modulo schedule below it%s; in "
             "normalized cycles, %s",
             s->g->name, s->m->name, c.ii, lenw, c.b.mii, c.b.res_mii, c.b.rec_mii, vip, costs);
  }
  twill_graph_free(g);
  twill_cnorm_clear(&nm);
  return bad ? 1 : 0;
}

int twill_check_cert(const twill_check_subject *s, const char *cert, size_t len,
                     twill_check_claim *claim, char *msg, size_t msglen) {
  twill_check_claim dummy;
  if (!claim) claim = &dummy;
  memset(claim, 0, sizeof *claim);
  if (msglen) msg[0] = 0;
  static const char solve[] = "twill-certificate 2 solve\n";
  if (len >= sizeof solve - 1 && !memcmp(cert, solve, sizeof solve - 1))
    return twill_check_solve(s, cert, len, claim, msg, msglen);
  return check_modulo(s, cert, len, claim, msg, msglen);
}
