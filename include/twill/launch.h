/* twill/launch.h: the launch configuration (warps W and registers per
 * thread R) as part of the answer of `twill solve` (core/joint/launch.c).
 *
 * THE COUPLING.  A CTA of W warps launched at R registers per thread takes
 * 32*W*R registers of the SM's register file F (regs_per_sm), allocated in
 * units of 8 per thread (256 per warp) [K: CUDA occupancy rules], and no
 * thread may have more than max_regs_thread.  So W fixes the launch budget
 *
 *     R(W) = 8 * floor(min(max_regs_thread, floor(F / (32*W))) / 8)
 *
 * the largest launch that fits (Hopper: R(12) = 168, Blackwell: R(16) =
 * 128).  setmaxnreg then moves registers between the CTA's warpgroups
 * within the CTA's own allocation: the joint model's register-file total
 * (twill/joint.h, "registers") is taken over P(W) = 32*W*R(W) <= F, not F
 * (FA3's 24 + 240 + 240 = 504 per thread of a warpgroup, times 128 threads,
 * is exactly P(12) = 64,512).  The per-warpgroup ceiling stays the
 * parameters' R (--regs or the machine's reg_budget: what ptxas may give
 * one role).  Without setmaxnreg every warp runs at the launch budget:
 * the ceiling is min(R, R(W)).
 *
 * A W is runnable on a machine when it is a whole number of warpgroups and
 * R(W) is at least the setmaxnreg minimum (else no warpgroup could even
 * hold its minimum) or, without setmaxnreg, at least 1.
 *
 * THE SEARCH.  Without --warps, `twill solve` runs Algorithm 1 at every
 * runnable W in {WG, 2WG, ..., Wmax} (Wmax: the machine's warps, or
 * --max-warps) and answers the least I over all W, then the least L at it,
 * then the fewest warps.  Its certificate states the W searched, the launch
 * budget of each, and refutes every (I, W) the answer passes over (core/
 * check/cert_solve.c).  With --pareto, every W is solved to its own
 * optimum and the front of (R(W), W) -> (I*, L*) is printed: a point is
 * on it when every W' < W has a strictly worse (I*, L*) (lexicographic).
 */
#ifndef TWILL_LAUNCH_H
#define TWILL_LAUNCH_H

#include <stdio.h>

#include "twill/arch.h"
#include "twill/joint.h"

#define TWILL_LAUNCH_ALLOC 8 /* registers per thread are allocated by 8 */
#define TWILL_LAUNCH_MAX 64  /* most W ever searched (--warps accepts 64) */

/* R(W) of a machine with register file F and per-thread limit maxr; 0
 * when W <= 0. */
long twill_launch_regs(long F, int maxr, int W);

/* The parameters at W: base (the machine's defaults and flags, in real
 * cycles, register file F = base->regs_per_sm) with warps W, the
 * register-file total P(W) and, without setmaxnreg, the ceiling
 * min(R, R(W)).  0, or -1 with why when W is not runnable. */
int twill_launch_params(const twill_joint_params *base, int maxr, int W,
                        twill_joint_params *out, char *why, size_t whylen);

/* The runnable W in {WG, ..., wmax}, ascending, into ws (cap entries);
 * returns how many. */
int twill_launch_set(const twill_joint_params *base, int maxr, int wmax,
                     int *ws, int cap);

typedef struct twill_launch_point {
  int warps;
  long launch_regs;        /* R(W) */
  twill_joint_params p;    /* the parameters at W (real cycles) */
  twill_solve_result r;    /* Algorithm 1 at W */
  int front;               /* --pareto: on the front */
} twill_launch_point;

typedef struct twill_launch_result {
  int status;    /* 0 optimal over every W, 2 none at any W, 3 limit, -1 */
  int n;
  twill_launch_point *pt; /* ascending W */
  int best;      /* index of the answer, -1 if none */
  double seconds;
} twill_launch_result;

/* Algorithm 1 at every runnable W up to wmax (base->warps alone when
 * wmax == 0).  Without pareto, a W solved after an answer (I, L) is known
 * stops once every I below I, and I within length L, is refuted (status 4
 * of twill_solve_result); the largest W is solved first.  With pareto, every W to its optimum.
 * 0 (see res->status) or -1. */
int twill_solve_launch(const twill_graph *g, const twill_arch *m,
                       const twill_joint_params *base, const twill_solve_opts *o,
                       int wmax, int pareto, twill_launch_result *res);
void twill_launch_result_clear(twill_launch_result *res);

/* The certificate of a search (opts.certify): the answer's certificate
 * with the line "launch R W W1,W2,..." before its params and, before its
 * end, one section per other W searched (core/check/cert_solve.c).  0, or
 * -1 when some W lacks a proof. */
int twill_launch_write_cert(const twill_launch_result *res, const char *machine, FILE *f);

#endif
