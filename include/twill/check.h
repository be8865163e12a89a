/* twill/check.h: the certificate checker (core/check/). */
#ifndef TWILL_CHECK_H
#define TWILL_CHECK_H

#include <stddef.h>

#include "twill/arch.h"
#include "twill/graph.h"
#include "twill/joint.h"

/* Largest I, L or start time a certificate may name (normalized schedules
 * are a few hundred cycles, real-cycle ones a few thousand): keeps a
 * hostile certificate from asking for huge rebuilds. */
#define TWILL_CHECK_MAX_TIME 20000

/* What `twill check` verifies a certificate against: the kernel (bound to
 * its machine, costs as written: the checker normalizes them itself), the
 * machine, the normalization budget (0: none) and, for a solve certificate,
 * the parameters of the joint problem in real cycles (the machine's
 * defaults with the flags of the check applied). */
typedef struct twill_check_subject {
  const twill_graph *g;
  const twill_arch *m;
  long budget;
  const twill_joint_params *p; /* solve certificates: required */
  int search_warps;   /* solve: 0, the warp count is p->warps (the
                         certificate names no launch); W > 0, the answer is
                         over every runnable warp count up to W
                         (twill/launch.h), p being the machine's parameters
                         before the coupling, and the certificate must
                         refute every other one */
} twill_check_subject;

typedef enum twill_claim_kind {
  TWILL_CLAIM_MODULO, /* phase 1: I* and L* of modulo schedules */
  TWILL_CLAIM_SOLVE,  /* the joint problem: I* and L* */
  TWILL_CLAIM_NEVER   /* the joint problem: no schedule at any I */
} twill_claim_kind;

/* What a verified certificate proves, in the kernel's normalized cycles:
 *   MODULO  no modulo schedule at I < ii; one of length `length` at ii;
 *           with length_proven none shorter at ii.
 *   SOLVE   no joint schedule at I < phase1_ii (no modulo schedule there),
 *           none at I in [phase1_ii, ii) of length <= ceil(Lmin1(I)/I)*I,
 *           Lmin1(I) the least modulo-schedule length at I (the copies of
 *           Algorithm 1); a joint schedule of length `length` at ii; with
 *           length_proven none shorter at ii.
 *   NEVER   no joint schedule at any I and L.
 * With search_warps, SOLVE and NEVER hold at every warp count searched,
 * and SOLVE's (ii, length) is the least over them with `warps` the fewest
 * warps that reach it. */
typedef struct twill_check_claim {
  twill_claim_kind kind;
  long ii, length;
  int length_proven;
  long phase1_ii;
  long mii;
  int warps;          /* SOLVE, NEVER: the warps of the answer (the largest
                         searched for NEVER) */
  long launch_regs;   /* with search_warps: R(warps); else 0 */
  int nsearched;      /* with search_warps: the warp counts searched */
} twill_check_claim;

/* Verify a `twill modulo` or `twill solve` certificate (format version 2,
 * in core/check/cert_check.c and core/check/cert_solve.c).  0 verified,
 * with the verdict in msg (kernel, machine, claim, parameters, costs) and
 * the claim in *claim (may be NULL); 1 not, with
 * "certificate:LINE: reason" in msg.  No clock, no solver: the same
 * certificate gets the same verdict on every machine. */
int twill_check_cert(const twill_check_subject *s, const char *cert, size_t len,
                     twill_check_claim *claim, char *msg, size_t msglen);

/* The checker's own statement of the joint problem at (I, L) for g and p
 * (core/check/check_joint.c): the twill-smt lines a refutation must begin
 * with.  With p->symmetry it holds the warp symmetry-breaking clauses,
 * written only after the checker has verified that they keep
 * satisfiability.  NULL with why on bad parameters, an unjustified symmetry
 * or memory. */
char *twill_check_joint_text(const twill_graph *g, const twill_joint_params *p,
                             long ii, long L, size_t *len, char *why,
                             size_t whylen);

/* The same, with sb_all bit 1 set: symmetry breaking over every warp and
 * group, the variable-latency warp 0 included.  For tests: where a
 * variable-latency op pins warp 0 that is no symmetry, and the checker must
 * refuse (NULL, why naming the warps).  Bit 2: every two equal-size
 * sub-tiles are taken for twins without the kernel test (twill/joint.h,
 * SUB-TILE SYMMETRY); where they are none the checker must refuse (why
 * naming the sub-tiles). */
char *twill_check_joint_text_sb(const twill_graph *g, const twill_joint_params *p, long ii,
                                long L, int sb_all, size_t *len, char *why, size_t whylen);

#endif
