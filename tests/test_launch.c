/* tests/test_launch.c: the launch configuration searched with the schedule
 * (twill/launch.h): the register-file coupling R(W), the warp counts a
 * machine runs, the search's answer (least I, then L, then fewest warps)
 * against fixed-W runs, its certificate, and forgeries of the launch claim
 * that `twill check` must refuse: a warp count omitted, a warp count the
 * machine cannot run, a wrong launch budget R, a different search limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/arch.h"
#include "twill/joint.h"
#include "twill/launch.h"

/* ---- the coupling, by hand ---------------------------------------------- */

/* R(W) = 8 * floor(min(255, floor(65536 / (32 W))) / 8) (twill/launch.h):
 *   W  4: 65536/128 = 512 -> 255 -> 248
 *   W  8: 65536/256 = 256 -> 255 -> 248
 *   W 12: 65536/384 = 170 -> 168   (FA3: 24 + 240 + 240 = 504 per thread of
 *                                   a warpgroup = 3 * 168)
 *   W 16: 65536/512 = 128 -> 128   (FA4's 512 threads at 128)
 *   W 20: 65536/640 = 102 -> 96
 *   W 24: 65536/768 = 85  -> 80
 *   W 64: 65536/2048 = 32 -> 32 */
START_TEST(launch_regs_by_hand) {
  static const int w[] = {4, 8, 12, 16, 20, 24, 64};
  static const long want[] = {248, 248, 168, 128, 96, 80, 32};
  for (int i = 0; i < 7; i++)
    ck_assert_msg(twill_launch_regs(65536, 255, w[i]) == want[i], "R(%d) = %ld, want %ld",
                  w[i], twill_launch_regs(65536, 255, w[i]), want[i]);
}
END_TEST

/* The parameters at W: the register-file total is the CTA's allocation
 * 32*W*R(W) (hopper W 12: 32*12*168 = 64,512), the ceiling of a group stays
 * the machine's reg_budget with setmaxnreg (240) and is min(R, R(W))
 * without it; W not a multiple of the warpgroup, or R(W) below the
 * setmaxnreg minimum, cannot run. */
START_TEST(launch_params_and_set) {
  twill_diag d;
  twill_arch *m = twill_arch_load("hopper", &d);
  ck_assert_ptr_nonnull(m);
  twill_joint_params base, q;
  twill_joint_params_default(&base, m);
  char why[200];
  ck_assert_int_eq(twill_launch_params(&base, m->max_regs_thread, 12, &q, why, sizeof why), 0);
  ck_assert_int_eq(q.warps, 12);
  ck_assert_int_eq(q.regs_per_sm, 64512);
  ck_assert_int_eq(q.regs, 240);
  ck_assert_int_eq(twill_launch_params(&base, m->max_regs_thread, 10, &q, why, sizeof why), -1);
  /* LO 128: R(20) = 96 < 128 cannot run, R(16) = 128 can */
  base.reg_lo = 128;
  ck_assert_int_eq(twill_launch_params(&base, m->max_regs_thread, 20, &q, why, sizeof why), -1);
  ck_assert_ptr_nonnull(strstr(why, "96"));
  int ws[TWILL_LAUNCH_MAX];
  int n = twill_launch_set(&base, m->max_regs_thread, 24, ws, TWILL_LAUNCH_MAX);
  ck_assert_int_eq(n, 4); /* 4, 8, 12, 16: R = 248, 248, 168, 128 >= 128 */
  ck_assert_int_eq(ws[3], 16);
  /* no setmaxnreg: every warp at the launch budget, ceiling min(240, R(W)) */
  twill_joint_params_default(&base, m);
  base.reg_step = 0;
  ck_assert_int_eq(twill_launch_params(&base, m->max_regs_thread, 12, &q, why, sizeof why), 0);
  ck_assert_int_eq(q.regs, 168);
  ck_assert_int_eq(twill_launch_params(&base, m->max_regs_thread, 4, &q, why, sizeof why), 0);
  ck_assert_int_eq(q.regs, 240);
  twill_arch_free(m);
}
END_TEST

/* ---- the search through the program ------------------------------------ */

static char cert_path[64], forged_path[64];

static void name_scratch(void) {
  snprintf(cert_path, sizeof cert_path, "/tmp/twill_launch.%d.cert", (int)getpid());
  snprintf(forged_path, sizeof forged_path, "/tmp/twill_launch_f.%d.cert", (int)getpid());
}

static int run(char **out, const char *const *a) {
  char *err;
  int rc = tu_run_twill(out, &err, a);
  free(err);
  return rc;
}

/* gemm-hopper searched over W in {4, 8, 12}.  By hand: at W 4 there is
 * one warpgroup, and the variable-latency loads own warp 0 while mma, a
 * warpgroup op that is not variable-latency, may not include warp 0
 * (twill/joint.h, "var. latency"): no schedule at any I.  At W 8 and 12
 * group 1 holds mma, and the schedule of I* = 512, L* = 768 that the
 * other suites pin at W 12 (kernels.md: loads, mma, release; MII 512) uses
 * warp 0 and group 1 only, so it is legal at W 8 as well: the answer is
 * W 8 (the fewest warps reaching (512, 768)), launched at R(8) = 248. */
START_TEST(gemm_search_answer) {
  name_scratch();
  char *out;
  const char *a[] = {"solve", "gemm-hopper", "--cert", cert_path, NULL};
  ck_assert_int_eq(run(&out, a), 0);
  ck_assert_msg(strstr(out, "machine: 8 warps"), "%s", out);
  ck_assert_msg(strstr(out, "R 248, W  4: no joint schedule at any I"), "%s", out);
  ck_assert_msg(strstr(out, "R 248, W  8: I* = 512, L* = 768 <- the answer"), "%s", out);
  ck_assert_msg(strstr(out, "R 168, W 12: I* = 512, L* = 768\n"), "%s", out);
  free(out);
  const char *c[] = {"check", "gemm-hopper", cert_path, NULL};
  ck_assert_int_eq(run(&out, c), 0);
  ck_assert_msg(strstr(out, "s VERIFIED") && strstr(out, "launch: 8 warps at 248"), "%s", out);
  free(out);
  remove(cert_path);
}
END_TEST

/* The search's answer is the least (I, L, W) over the fixed-W answers
 * (the definition, checked against separate `--warps N` runs). */
START_TEST(search_is_min_over_fixed) {
  static const char *const kern[] = {"fig1", "gemm-hopper", "fa3-bwd-hopper"};
  for (int k = 0; k < 3; k++) {
    long bi = -1, bl = -1, bw = -1;
    for (int w = 4; w <= 12; w += 4) {
      char ws[16], *out;
      snprintf(ws, sizeof ws, "%d", w);
      const char *a[] = {"solve", kern[k], "--warps", ws, "--json", NULL};
      int rc = run(&out, a);
      ck_assert_msg(rc == 0 || rc == 2, "%s --warps %d: exit %d", kern[k], w, rc);
      const char *pi = strstr(out, "\n  \"ii\": "), *pl = strstr(out, "\n  \"length\": ");
      if (rc == 0) {
        ck_assert_ptr_nonnull(pi);
        ck_assert_ptr_nonnull(pl);
        long ii = atol(pi + 9), L = atol(pl + 13);
        if (bi < 0 || ii < bi || (ii == bi && L < bl)) bi = ii, bl = L, bw = w;
      }
      free(out);
    }
    ck_assert_int_ge(bw, 4);
    char *out;
    const char *a[] = {"solve", kern[k], "--json", NULL};
    ck_assert_int_eq(run(&out, a), 0);
    const char *pi = strstr(out, "\n  \"ii\": "), *pl = strstr(out, "\n  \"length\": ");
    const char *pw = strstr(out, "\"launch\": {\n    \"warps\": ");
    ck_assert_msg(pi && pl && pw, "%s", out);
    ck_assert_int_eq(atol(pi + 9), bi);
    ck_assert_int_eq(atol(pl + 13), bl);
    ck_assert_int_eq(atol(pw + strlen("\"launch\": {\n    \"warps\": ")), bw);
    free(out);
  }
}
END_TEST

/* ---- forgeries ------------------------------------------------------------ */

/* text with the first occurrence of `from` replaced by `to` */
static char *replace(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  ck_assert_msg(at != NULL, "'%s' not in the certificate", from);
  size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
  char *s = malloc(n);
  ck_assert_ptr_nonnull(s);
  memcpy(s, text, (size_t)(at - text));
  strcpy(s + (at - text), to);
  strcat(s, at + strlen(from));
  return s;
}

/* text without [from, the line starting with `until`) */
static char *cut(const char *text, const char *from, const char *until) {
  const char *a = strstr(text, from);
  ck_assert_ptr_nonnull(a);
  const char *b = strstr(a, until);
  ck_assert_ptr_nonnull(b);
  size_t n = strlen(text) - (size_t)(b - a) + 1;
  char *s = malloc(n);
  ck_assert_ptr_nonnull(s);
  memcpy(s, text, (size_t)(a - text));
  strcpy(s + (a - text), b);
  return s;
}

static void expect_refused(const char *kernel, const char *text, const char *const *flags,
                           const char *what, const char *reason) {
  ck_assert_int_eq(tu_write_file(forged_path, text), 0);
  const char *a[16];
  int k = 0;
  a[k++] = "check", a[k++] = kernel, a[k++] = forged_path;
  for (int i = 0; flags && flags[i]; i++) a[k++] = flags[i];
  a[k] = NULL;
  char *out, *err;
  int rc = tu_run_twill(&out, &err, a);
  ck_assert_msg(rc == 1 && strstr(out, "s NOT VERIFIED"), "%s: accepted: %s", what, out);
  ck_assert_msg(strstr(err, reason), "%s: refused for another reason: %s", what, err);
  free(out), free(err);
  remove(forged_path);
}

/* fa3-fwd-hopper searched over {4, 8, 12}: the answer at W 12 (R 168),
 * W 4 never, W 8 refuted at I* (its section holds a refutation). */
static char *fa3_cert(void) {
  name_scratch();
  char *out;
  const char *a[] = {"solve", "fa3-fwd-hopper", "--cert", cert_path, NULL};
  ck_assert_int_eq(run(&out, a), 0);
  free(out);
  size_t len;
  char *c = tu_read_file(cert_path, &len);
  ck_assert_ptr_nonnull(c);
  remove(cert_path);
  return c;
}

START_TEST(forged_launch_refused) {
  char *c = fa3_cert();
  ck_assert_ptr_nonnull(strstr(c, "\nlaunch 168 12 4,8,12\n"));
  ck_assert_ptr_nonnull(strstr(c, "\nother 4 248 never\n"));
  ck_assert_ptr_nonnull(strstr(c, "\nother 8 248 refuted\n"));
  /* the genuine one first: the forgeries below differ only where named */
  ck_assert_int_eq(tu_write_file(forged_path, c), 0);
  char *out;
  const char *g[] = {"check", "fa3-fwd-hopper", forged_path, NULL};
  ck_assert_int_eq(run(&out, g), 0);
  free(out);
  /* a warp count omitted: W 8's section cut out */
  char *f = cut(c, "other 8 248 refuted\n", "end\n");
  expect_refused("fa3-fwd-hopper", f, NULL, "W 8 omitted", "expected 'other'");
  free(f);
  /* ... and from the list too */
  f = replace(c, "launch 168 12 4,8,12", "launch 168 12 4,12");
  expect_refused("fa3-fwd-hopper", f, NULL, "W 8 left off the list", "warp counts searched");
  free(f);
  /* a warp count the machine cannot run: 16 warps on hopper (up to 12) */
  f = replace(c, "launch 168 12 4,8,12", "launch 128 16 4,8,12,16");
  expect_refused("fa3-fwd-hopper", f, NULL, "W 16 on hopper", "not among the warp counts");
  free(f);
  /* ... nor 10 warps, not whole warpgroups */
  f = replace(c, "launch 168 12 4,8,12", "launch 200 10 4,8,10,12");
  expect_refused("fa3-fwd-hopper", f, NULL, "W 10", "not among the warp counts");
  free(f);
  /* a wrong R: the answer's (FA3's 240 is the group ceiling, not the
   * launch), and another W's */
  f = replace(c, "launch 168 12 4,8,12", "launch 240 12 4,8,12");
  expect_refused("fa3-fwd-hopper", f, NULL, "R 240 at W 12", "launch at 168 registers");
  free(f);
  f = replace(c, "other 8 248 refuted", "other 8 256 refuted");
  expect_refused("fa3-fwd-hopper", f, NULL, "R 256 at W 8", "launch at 248 registers");
  free(f);
  /* the register file of the params line: 65536 instead of P(12) */
  f = replace(c, "params 12 4 240 64512", "params 12 4 240 65536");
  expect_refused("fa3-fwd-hopper", f, NULL, "file 65536 at W 12", "registers per SM");
  free(f);
  /* a section claimed "never" for a warp count that is only refuted at I* */
  f = replace(c, "other 8 248 refuted", "other 8 248 never");
  expect_refused("fa3-fwd-hopper", f, NULL, "W 8 never", "expected 'never'");
  free(f);
  /* checked with another search limit, or as a fixed-W certificate */
  const char *lim[] = {"--max-warps", "8", NULL};
  expect_refused("fa3-fwd-hopper", c, lim, "--max-warps 8", "warp counts");
  const char *fix[] = {"--warps", "12", NULL};
  expect_refused("fa3-fwd-hopper", c, fix, "--warps 12", "expected 'params'");
  free(c);
}
END_TEST

/* A fixed-W certificate is not a search certificate: checked without
 * --warps it lacks the launch line. */
START_TEST(fixed_cert_is_not_a_search) {
  name_scratch();
  char *out;
  const char *a[] = {"solve", "gemm-hopper", "--warps", "12", "--cert", cert_path, NULL};
  ck_assert_int_eq(run(&out, a), 0);
  free(out);
  size_t len;
  char *c = tu_read_file(cert_path, &len);
  ck_assert_ptr_nonnull(c);
  remove(cert_path);
  const char *fix[] = {"--warps", "12", NULL};
  ck_assert_int_eq(tu_write_file(forged_path, c), 0);
  const char *g[] = {"check", "gemm-hopper", forged_path, "--warps", "12", NULL};
  ck_assert_int_eq(run(&out, g), 0);
  free(out);
  (void)fix;
  expect_refused("gemm-hopper", c, NULL, "fixed as search", "expected 'launch'");
  free(c);
}
END_TEST

/* --pareto: one line per point of the front, each certificate checked
 * with --warps N.  gemm-hopper: W 4 has no schedule, W 8 reaches
 * (512, 768) and W 12 no better (above), so the front is W 8 alone. */
START_TEST(pareto_front_certified) {
  name_scratch();
  char *out;
  const char *a[] = {"solve", "gemm-hopper", "--pareto", "--cert", cert_path, NULL};
  ck_assert_int_eq(run(&out, a), 0);
  ck_assert_msg(strstr(out, "pareto front"), "%s", out);
  ck_assert_msg(strstr(out, "R 248, W  8: I* = 512, L* = 768"), "%s", out);
  ck_assert_msg(!strstr(out, "W 12:") && !strstr(out, "W  4:"), "%s", out);
  free(out);
  char path[96];
  snprintf(path, sizeof path, "%s.w8", cert_path);
  const char *c[] = {"check", "gemm-hopper", path, "--warps", "8", NULL};
  ck_assert_int_eq(run(&out, c), 0);
  ck_assert_msg(strstr(out, "s VERIFIED"), "%s", out);
  free(out);
  remove(path);
}
END_TEST

/* fa4-bwd-blackwell with FA4's own costs (kernels/fa4-bwd-blackwell.twill):
 * by hand, TC carries five 512-cycle GEMMs with capacity 1, so no I below
 * 2560 at any warp count, and an answer at 2560 is optimal whichever W it
 * uses.  The search finds one (its schedule validated, its certificate
 * verified); which W and L are not pinned (no hand derivation). */
START_TEST(fa4_bwd_at_mii) {
  name_scratch();
  char *out;
  const char *a[] = {"solve", "fa4-bwd-blackwell", "--json", "--cert", cert_path, NULL};
  ck_assert_int_eq(run(&out, a), 0);
  const char *pi = strstr(out, "\n  \"ii\": ");
  ck_assert_ptr_nonnull(pi);
  ck_assert_int_eq(atol(pi + 9), 2560);
  free(out);
  const char *c[] = {"check", "fa4-bwd-blackwell", cert_path, NULL};
  ck_assert_int_eq(run(&out, c), 0);
  ck_assert_msg(strstr(out, "I* = 80") && strstr(out, "every other one refuted"), "%s", out);
  free(out);
  remove(cert_path);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("launch");
  TCase *t = tcase_create("coupling");
  tcase_add_test(t, launch_regs_by_hand);
  tcase_add_test(t, launch_params_and_set);
  suite_add_tcase(s, t);
  t = tcase_create("search");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, gemm_search_answer);
  tcase_add_test(t, search_is_min_over_fixed);
  tcase_add_test(t, pareto_front_certified);
  tcase_add_test(t, fa4_bwd_at_mii);
  suite_add_tcase(s, t);
  t = tcase_create("forgery");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, forged_launch_refused);
  tcase_add_test(t, fixed_cert_is_not_a_search);
  suite_add_tcase(s, t);
  return s;
}

TWILL_CHECK_MAIN
