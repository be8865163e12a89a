/* core/check/check_launch.c: the checker's own statement of the launch
 * coupling (twill/launch.h states the model; this file shares no code with
 * core/joint/launch.c, which the checker does not link).
 *
 * A CTA of W warps launched at R registers per thread takes 32*W*R of the
 * register file F, in units of 8 registers per thread, at most maxr each:
 *     R(W) = 8 * floor(min(maxr, floor(F / (32 W))) / 8).
 * W is runnable when it is a positive multiple of the warpgroup size WG, at
 * most TWILL_LAUNCH_MAX, and R(W) >= the setmaxnreg minimum LO (STEP > 0)
 * or >= 1 (no setmaxnreg).  The joint problem at W: warps W, register-file
 * total 32*W*R(W) (setmaxnreg redistributes the CTA's own allocation), and
 * without setmaxnreg the group ceiling min(R, R(W)).
 */
#include "check_int.h"

#include <stdio.h>

long twill_check_launch_regs(const twill_arch *m, const twill_joint_params *base, int W) {
  if (W <= 0) return 0;
  long maxr = m && m->max_regs_thread > 0 ? m->max_regs_thread : 255;
  long per = base->regs_per_sm / (32L * (long)W);
  long r = per < maxr ? per : maxr;
  return r - r % 8;
}

int twill_check_launch_params(const twill_arch *m, const twill_joint_params *base, int W,
                              twill_joint_params *out, char *why, size_t whylen) {
  int wg = base->warpgroup > 0 ? base->warpgroup : 1;
  if (W < wg || W % wg != 0 || W > 64) {
    snprintf(why, whylen, "%d warps is not a positive whole number of warpgroups of %d "
             "(at most 64 warps)", W, wg);
    return -1;
  }
  long R = twill_check_launch_regs(m, base, W);
  long lo = base->reg_step > 0 ? base->reg_lo : 1;
  if (R < lo || R < 1) {
    snprintf(why, whylen, "%d warps cannot run: the launch budget is %ld registers per thread "
             "(%ld / (32 * %d) in units of 8), below %ld", W, R, base->regs_per_sm, W, lo);
    return -1;
  }
  *out = *base;
  out->warps = W;
  out->regs_per_sm = 32L * W * R;
  if (base->reg_step <= 0 && out->regs > R) out->regs = R;
  return 0;
}

int twill_check_launch_set(const twill_arch *m, const twill_joint_params *base, int wmax,
                           int *ws, int cap) {
  int n = 0, wg = base->warpgroup > 0 ? base->warpgroup : 1;
  char why[200];
  twill_joint_params q;
  for (int W = wg; W <= wmax && n < cap; W += wg)
    if (!twill_check_launch_params(m, base, W, &q, why, sizeof why)) ws[n++] = W;
  return n;
}
