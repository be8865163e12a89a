/* tests/bf_joint.h: brute force over joint schedules (start times and
 * warps), judged by the model's validator (core/joint/joint_model.c), and
 * an oracle for what a verified certificate claims.  Independent of every
 * solver and of the checker: the suites use it to know the truth on tiny
 * kernels. */
#ifndef TWILL_BF_JOINT_H
#define TWILL_BF_JOINT_H

#include <stddef.h>

#include "twill/check.h"
#include "twill/joint.h"

/* Is there a legal joint schedule at (I, L)?  By enumeration. */
int bf_joint_feasible(const twill_graph *g, const twill_joint_params *p, long ii, long L);
/* The fewest register edges crossing warps over every legal schedule at
 * (I, L); -1 if none. */
int bf_joint_min_cross(const twill_graph *g, const twill_joint_params *p, long ii, long L);

/* Is claim c true of g (in the units it is checked in: the normalized
 * graph, or g itself without normalization) under p (cross-warp cost in
 * g's units)?  1 true, 0 false with the reason in why (the claims of
 * twill/check.h; "no I at all" is checked for every I <= imax and every
 * L <= lmax, which must cover the kernel's interesting range). */
int bf_claim_true(const twill_graph *g, const twill_joint_params *p,
                  const twill_check_claim *c, long imax, long lmax, char *why,
                  size_t whylen);

#endif
