/* tests/test_subtile.c: the sub-tile symmetry of twill/joint.h (SUB-TILE
 * SYMMETRY): which sub-tiles the rule finds (by hand on the generated
 * families of bench/gen_families.py kept in tests/data/scale), that the
 * order it adds loses no (I, L) (against brute-force enumeration on tiny
 * doubled kernels), and that the checker accepts the order only where the
 * swap is a symmetry of its own translation (forgeries refused). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_joint.h"
#include "check_main.h"
#include "fixtures.h"
#include "testutil.h"
#include "twill/builtin.h"
#include "twill/check.h"
#include "twill/joint.h"
#include "twill/kernel.h"
#include "twill/launch.h"

static twill_graph *load(const char *rel) {
  twill_graph *g;
  twill_arch *m;
  char *path = tu_src_path(rel);
  ck_assert_msg(tu_load_kernel(path, NULL, &g, &m) == 0, "%s", rel);
  free(path);
  twill_arch_free(m);
  return g;
}

/* The pairs of the rule as "a<b a<b ..." (op names). */
static void order_text(const twill_graph *g, const twill_joint_params *p, char *buf,
                       size_t n) {
  int pairs[256];
  int np = twill_joint_subtile_order(g, p, pairs, 128);
  ck_assert_int_ge(np, 0);
  ck_assert_int_le(np, 128);
  buf[0] = 0;
  for (int i = 0; i < np; i++) {
    size_t l = strlen(buf);
    snprintf(buf + l, n - l, "%s%s<%s", i ? " " : "", g->ops[pairs[2 * i]].name,
             g->ops[pairs[2 * i + 1]].name);
  }
}

/* By hand from the files: in fa3-fwd-k3 loadK feeds S_0, S_1, S_2 and loadV
 * feeds PV_0..2 (equal ops), so both loads are shared; the rest falls into
 * three components {S_s, max_s, exp_s, sum_s, rescale_s, PV_s}, each
 * listed from S_s, and swapping two of them op for op maps every edge onto
 * an edge.  In gemm-epi-k3 loadA, loadB and release (fed by every mma_s)
 * are shared; components {mma_s, bias_s, act_s, store_s}.  In fa3-bwd-k2
 * the dV and dK chains run dV_0 -> dV_1 -> dV_0 (the second at distance
 * 1): swapping the sub-tiles would turn the distance-0 edge into a
 * distance-1 one, so there is no symmetry and no order. */
START_TEST(rule_finds_the_sub_tiles_by_hand) {
  twill_joint_params p;
  twill_joint_params_default(&p, NULL);
  char buf[512];
  twill_graph *g = load("tests/data/scale/fa3-fwd-k3-hopper.twill");
  order_text(g, &p, buf, sizeof buf);
  ck_assert_str_eq(buf, "S_0<S_1 S_1<S_2");
  /* a relation names ops: no order then */
  twill_joint_relset rs = {NULL, 0};
  char why[200];
  ck_assert_int_eq(twill_joint_rel_add(&rs, g, TWILL_REL_SAME, "S_0,max_1", why, sizeof why), 0);
  p.rels = rs.rels, p.nrels = rs.n;
  order_text(g, &p, buf, sizeof buf);
  ck_assert_str_eq(buf, "");
  p.rels = NULL, p.nrels = 0;
  twill_joint_relset_free(&rs);
  /* sub-tile 1 made different (rescale_1 holds 66 registers): only
   * sub-tiles 0 and 2 stay twins */
  g->ops[twill_graph_find_op(g, "rescale_1")].regs = 66;
  order_text(g, &p, buf, sizeof buf);
  ck_assert_str_eq(buf, "S_0<S_2");
  twill_graph_free(g);
  g = load("tests/data/scale/gemm-epi-k3-hopper.twill");
  order_text(g, &p, buf, sizeof buf);
  ck_assert_str_eq(buf, "mma_0<mma_1 mma_1<mma_2");
  twill_graph_free(g);
  g = load("tests/data/scale/fa3-bwd-k2-hopper.twill");
  order_text(g, &p, buf, sizeof buf);
  ck_assert_str_eq(buf, "");
  twill_graph_free(g);
}
END_TEST

/* A random sub-tile of two ops (a -> b, sometimes a loop edge back),
 * twice: a_0 b_0 a_1 b_1, attributes equal in both copies; with `differ`
 * b_1 holds one register more than b_0. */
static twill_graph *doubled(unsigned long long *r, int differ) {
  twill_graph *g = twill_graph_new("dbl");
  int nu = 1 + (int)(tf_rnd(r) % 2);
  twill_graph_declare_unit(g, "u0", 1 + (int)(tf_rnd(r) % 2));
  if (nu > 1) twill_graph_declare_unit(g, "u1", 1);
  long lat[2] = {1 + (long)(tf_rnd(r) % 2), 1 + (long)(tf_rnd(r) % 2)};
  int unit[2] = {0, (int)(tf_rnd(r) % (unsigned)nu)};
  long regs[2] = {(long)(tf_rnd(r) % 3), (long)(tf_rnd(r) % 3)};
  bool wg[2] = {tf_rnd(r) % 4 == 0, tf_rnd(r) % 4 == 0};
  int back = (int)(tf_rnd(r) % 3); /* 0 none, 1 b -> a dist 1, 2 b -> b */
  for (int c = 0; c < 2; c++) {
    for (int k = 0; k < 2; k++) {
      char nm[4] = {"ab"[k], '_', (char)('0' + c), 0};
      int v = twill_graph_add_op(g, nm, lat[k]);
      twill_graph_add_use(g, v, unit[k], 0, 1, 1);
      g->ops[v].regs = regs[k] + (differ && c == 1 && k == 1 ? 1 : 0);
      if (wg[k]) g->ops[v].issue = TWILL_ISSUE_WARPGROUP;
    }
    twill_graph_add_edge(g, 2 * c, 2 * c + 1, lat[0], 0);
    if (back == 1) twill_graph_add_edge(g, 2 * c + 1, 2 * c, lat[1], 1);
    if (back == 2) twill_graph_add_edge(g, 2 * c + 1, 2 * c + 1, lat[1], 1);
  }
  return g;
}

static int encoded(const twill_graph *g, const twill_joint_params *p, long ii, long L) {
  twill_joint *j = twill_joint_new(g, p, ii, L, false);
  ck_assert_ptr_nonnull(j);
  twill_schedule *s = NULL;
  int r = twill_joint_solve(j, NULL, 30, &s, NULL);
  ck_assert_msg(r == 10 || r == 20, "solver gave %d", r);
  if (r == 10) {
    char why[300] = "";
    ck_assert_msg(twill_joint_validate(g, p, L, s, why, sizeof why) == 0,
                  "encoder's model is illegal: %s", why);
  }
  twill_schedule_free(s);
  twill_joint_free(j);
  return r == 10;
}

/* The order keeps every (I, L) satisfiable that was: the encoding with it
 * against enumeration (bf_joint.c, the validator's verdict over every
 * schedule), on doubled kernels, where the rule finds the pair a_0 < a_1
 * (two components, equal op for op) and the checker's translation with
 * the order is accepted (its swap test passes). */
START_TEST(order_loses_no_schedule_brute_force) {
  unsigned long long r = 0x5eb7ULL;
  int trials = tu_under_valgrind() ? 4 : 40, sat = 0, unsat = 0;
  for (int k = 0; k < trials; k++) {
    twill_graph *g = doubled(&r, 0);
    twill_joint_params p = tf_tiny_params(4, 2, 2 + (long)(tf_rnd(&r) % 3));
    char buf[128];
    order_text(g, &p, buf, sizeof buf);
    ck_assert_str_eq(buf, "a_0<a_1");
    for (long ii = 1; ii <= 3; ii++)
      for (long L = 2; L <= 4; L++) {
        bool ok = true;
        for (int v = 0; v < g->nops; v++)
          if (L < g->ops[v].lat) ok = false;
        if (!ok) continue;
        int want = bf_joint_feasible(g, &p, ii, L);
        int got = encoded(g, &p, ii, L);
        ck_assert_msg(got == want, "trial %d I %ld L %ld: brute %d, with the order %d", k,
                      ii, L, want, got);
        want ? sat++ : unsat++;
        size_t n;
        char why[300];
        char *t = twill_check_joint_text(g, &p, ii, L, &n, why, sizeof why);
        ck_assert_msg(t != NULL, "trial %d: checker refused a true symmetry: %s", k, why);
        free(t);
      }
    twill_graph_free(g);
  }
  ck_assert_int_gt(sat, 0);
  ck_assert_int_gt(unsat, 0);
}
END_TEST

/* Forgery: told to take two sub-tiles for twins that are not (b_1 holds a
 * register more than b_0, so the register rows of the translation differ
 * and swapping maps a row onto none), the checker refuses and names the
 * sub-tiles; told the same of twins, it accepts. */
START_TEST(checker_refuses_a_false_sub_tile_symmetry) {
  unsigned long long r = 0xf0f0ULL;
  int refused = 0;
  for (int k = 0; k < 20; k++) {
    twill_graph *g = doubled(&r, 1);
    twill_joint_params p = tf_tiny_params(4, 2, 4);
    char buf[128], why[300];
    order_text(g, &p, buf, sizeof buf);
    ck_assert_str_eq(buf, ""); /* the rule itself sees no twins */
    size_t n;
    char *t = twill_check_joint_text_sb(g, &p, 2, 4, 2, &n, why, sizeof why);
    ck_assert_msg(t == NULL, "trial %d: a false symmetry accepted", k);
    ck_assert_msg(strstr(why, "swapping the sub-tiles of ops 'a_0' and 'a_1'") != NULL, "%s", why);
    refused++;
    twill_graph_free(g);
    g = doubled(&r, 0);
    t = twill_check_joint_text_sb(g, &p, 2, 4, 2, &n, why, sizeof why);
    ck_assert_msg(t != NULL, "%s", why);
    free(t);
    twill_graph_free(g);
  }
  ck_assert_int_eq(refused, 20);
}
END_TEST

/* ---- through the command line ------------------------------------------ */

static char *solve_cert(const char *kernel, const char *extra, const char *certpath,
                        char **out) {
  const char *args[10] = {"solve", kernel, "--cert", certpath, "--time-limit", "120"};
  int n = 6;
  if (extra) args[n++] = extra;
  args[n] = NULL;
  char *err = NULL;
  int rc = tu_run_twill(out, &err, args);
  ck_assert_msg(rc == 0, "solve %s: rc %d: %s", kernel, rc, err ? err : "");
  free(err);
  size_t len;
  char *c = tu_read_file(certpath, &len);
  ck_assert_ptr_nonnull(c);
  return c;
}

static int check_cert(const char *kernel, const char *certpath, char **out) {
  const char *args[] = {"check", kernel, certpath, NULL};
  char *err = NULL;
  int rc = tu_run_twill(out, &err, args);
  if (*out && err) {
    size_t a = strlen(*out), b = strlen(err);
    char *both = malloc(a + b + 1);
    memcpy(both, *out, a);
    memcpy(both + a, err, b + 1);
    free(*out);
    *out = both;
  }
  free(err);
  return rc;
}

/* The line "I* = ..." of a solve report. */
static void istar(const char *out, char *buf, size_t n) {
  const char *s = strstr(out, "I* = ");
  ck_assert_ptr_nonnull(s);
  size_t k = strcspn(s, "\n");
  snprintf(buf, n, "%.*s", (int)k, s);
}

/* "Infeasible at every I" where only the covers, the packing rule and the
 * early relaxation say so (twill/joint.h "lifetimes", core/joint/
 * joint_never.c), each certified.  By hand:
 *  - fa3-fwd-k3 on 8 warps (the packing rule, no I tried): warp 0 holds
 *    the variable-latency loads alone,
 *    so the 18 warpgroup ops all run on warpgroup 1 (budget at most 240
 *    with setmaxnreg).  Each sub-tile's accumulator hands over between
 *    rescale_s and PV_s (64 registers each: rescale -> PV, then PV ->
 *    rescale at distance 1), so 3 x 64 are live at every slot; max_s and
 *    sum_s feed themselves at distance 1 (2 + 2 each, always live); while
 *    S_0's result (64) waits for max_0, 192 + 12 + 64 = 268 > 240.  The
 *    floors alone see 12 of those registers.
 *  - gemm-epi-k7 on 16 warps: store_s feeds itself at distance 1, so its
 *    16384 bytes of shared memory are live at every slot (7 x 16384 =
 *    114688); loadA (131072) and loadB (32768) both feed every mma_s and
 *    stay live until the last of them starts, at least 6 x 512 cycles
 *    after the first (one tensor core): 278528 > 232448, Hopper's
 *    capacity.  The relaxation, tried first, says so; no I is tried.  (Its
 *    registers alone fit: mma_0's 64 and six more 64-register accumulators
 *    (bias_s -> mma_s at distance 1) go 3, 2, 2 on groups 1-3, 24 + 192 +
 *    128 + 128 = 472 <= 512 for the file.  With 8 accumulators, k = 8,
 *    they do not: 24 + 8 x 64 = 536.) */
START_TEST(covers_and_the_early_relaxation) {
  const char *files[] = {"tests/data/scale/fa3-fwd-k3-hopper.twill",
                         "tests/data/scale/gemm-epi-k7-hopper.twill"};
  const char *warps[] = {"8", "16"};
  const char *why[] = {"op 'S_0' holds its 64 registers per thread, the values live at "
                       "every slot (3 accumulator chains, 6 ops with live copies) fit no "
                       "assignment", "shared-memory capacity"};
  for (int f = 0; f < 2; f++) {
    char cert[64];
    char *kernel = tu_src_path(files[f]);
    snprintf(cert, sizeof cert, "/tmp/twill_test_covers_%d.cert", (int)getpid());
    const char *args[] = {"solve", kernel, "--warps", warps[f], "--cert", cert,
                          "--time-limit", "60", NULL};
    char *out = NULL, *err = NULL;
    int rc = tu_run_twill(&out, &err, args);
    ck_assert_msg(rc == 2, "%s: rc %d: %s", files[f], rc, err ? err : "");
    ck_assert_msg(strstr(out, "infeasible at every I") && strstr(out, why[f]), "%s", out);
    ck_assert_msg(strstr(out, "no I tried"), "%s", out);
    if (f == 1) ck_assert_msg(strstr(out, "loop-carried values keep live"), "%s", out);
    free(out), free(err);
    out = NULL;
    const char *cargs[] = {"check", kernel, cert, "--warps", warps[f], NULL};
    err = NULL;
    ck_assert_int_eq(tu_run_twill(&out, &err, cargs), 0);
    ck_assert_msg(strstr(out, "s VERIFIED") && !strstr(out, "NOT VERIFIED"), "%s", out);
    free(out), free(err);
    remove(cert);
    free(kernel);
  }
}
END_TEST

/* The threshold's promise (twill/joint.h): the built-in kernels keep the
 * schedules they had before the order existed, because each has fewer ops
 * than TWILL_SUBTILE_MIN_OPS.  A larger built-in breaks this test: its
 * schedules and the threshold are then to be looked at again.  And the
 * smallest generated kernel at the threshold, gemm-epi-k5 (23 ops: 3 shared
 * ops and 5 tiles of 4), does get the order, one pair per tile after the
 * first. */
START_TEST(threshold_above_every_builtin) {
  int n = 0, most = 0;
  for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++) {
    twill_diag d;
    twill_graph *g = twill_graph_parse_text(k->text, strlen(k->text), k->name, &d);
    ck_assert_msg(g, "%s", k->name);
    ck_assert_msg(g->nops < TWILL_SUBTILE_MIN_OPS, "built-in %s has %d ops", k->name,
                  g->nops);
    if (g->nops > most) most = g->nops;
    n++;
    twill_graph_free(g);
  }
  ck_assert_int_eq(n, 8); /* the files of kernels/: dragon, fig1, gemm, fa3 and fa4 */
  ck_assert_int_eq(most + 1, TWILL_SUBTILE_MIN_OPS);
  twill_graph *g = load("tests/data/scale/gemm-epi-k5-hopper.twill");
  ck_assert_int_eq(g->nops, TWILL_SUBTILE_MIN_OPS);
  twill_joint_params p;
  twill_joint_params_default(&p, NULL);
  char buf[512];
  order_text(g, &p, buf, sizeof buf);
  ck_assert_str_eq(buf, "mma_0<mma_1 mma_1<mma_2 mma_2<mma_3 mma_3<mma_4");
  twill_graph_free(g);
}
END_TEST

/* fa3-fwd-k4 (26 ops, at least TWILL_SUBTILE_MIN_OPS): the certificate
 * with the order (symmetry level 2) is verified, the answer is the one
 * without the order, and forged variants are refused: the parameters
 * saying "warps only" (1) or an unknown level (3), and the certificate
 * checked against a kernel whose sub-tile 1 is not a twin (the checker's
 * translation then orders sub-tiles 0, 2, 3 only, and the refutations'
 * first lines differ).  gemm-epi-k3 (15 ops) is below the threshold: level
 * 1, no order. */
START_TEST(certificates_with_the_order) {
  const char *files[] = {"tests/data/scale/fa3-fwd-k4-hopper.twill",
                         "tests/data/scale/gemm-epi-k3-hopper.twill"};
  for (int f = 0; f < 2; f++) {
    char kernel[512], cert[64], forged[64], a[200], b[200];
    char *kp = tu_src_path(files[f]);
    snprintf(kernel, sizeof kernel, "%s", kp);
    free(kp);
    snprintf(cert, sizeof cert, "/tmp/twill_test_subtile_%d.cert", (int)getpid());
    snprintf(forged, sizeof forged, "/tmp/twill_test_subtile_%d.forged", (int)getpid());
    char *out = NULL, *out2 = NULL;
    char *c = solve_cert(kernel, NULL, cert, &out);
    istar(out, a, sizeof a);
    free(out);
    out = NULL;
    free(solve_cert(kernel, "--no-subtile-symmetry", forged, &out2));
    istar(out2, b, sizeof b);
    ck_assert_str_eq(a, b);
    free(out2);
    ck_assert_int_eq(check_cert(kernel, cert, &out), 0);
    ck_assert_msg(strstr(out, "VERIFIED") && !strstr(out, "NOT VERIFIED"), "%s", out);
    free(out);
    /* params: the last field is the symmetry level, 2 */
    char *pl = strstr(c, "\nparams ");
    ck_assert_ptr_nonnull(pl);
    char *eol = strchr(pl + 1, '\n');
    ck_assert_msg(eol[-1] == (f == 0 ? '2' : '1') && eol[-2] == ' ', "%.*s", (int)(eol - pl), pl);
    if (f == 1) {
      free(c);
      remove(cert), remove(forged);
      continue;
    }
    for (int lv = 1; lv <= 3; lv += 2) {
      eol[-1] = (char)('0' + lv);
      ck_assert_int_eq(tu_write_file(forged, c), 0);
      out = NULL;
      ck_assert_int_ne(check_cert(kernel, forged, &out), 0);
      ck_assert_msg(!strstr(out, "s VERIFIED"), "level %d accepted: %s", lv, out);
      free(out);
    }
    eol[-1] = '2';
    /* the kernel with sub-tile 1 changed (a text edit of its op line, the
     * last digit made 6): max_1 holds 6 registers instead of 2 */
    size_t klen;
    char *ktext = tu_read_file(kernel, &klen);
    const char *line = "op max_1 lat 192 use FMA:192 issue warpgroup regs 2\n";
    char *at = strstr(ktext, line);
    ck_assert_ptr_nonnull(at);
    size_t ll = strlen(line);
    char *k2 = malloc(klen + 8);
    memcpy(k2, ktext, (size_t)(at - ktext));
    int w = sprintf(k2 + (at - ktext), "%.*s6\n", (int)(ll - 2), line);
    strcpy(k2 + (at - ktext) + w, at + ll);
    char kpath[64];
    snprintf(kpath, sizeof kpath, "/tmp/twill_test_subtile_%d.twill", (int)getpid());
    ck_assert_int_eq(tu_write_file(kpath, k2), 0);
    out = NULL;
    ck_assert_int_ne(check_cert(kpath, cert, &out), 0);
    ck_assert_msg(!strstr(out, "s VERIFIED"), "%s", out);
    free(out);
    free(ktext), free(k2), free(c);
    remove(cert), remove(forged), remove(kpath);
  }
}
END_TEST

/* With --threads 2 or more, the search asks the next I on a thread of its
 * own while the current one is refuted, and takes the answers in order.
 * GEMM + epilogue with 3 tiles on 8 warps refutes I = 24..27 normalized
 * (each explained) before 28: the output and the certificate must have
 * the same bytes at 1, 2 and 3 threads, and the certificate must verify. */
START_TEST(threads_ask_the_next_i_ahead) {
  char *kp = tu_src_path("tests/data/scale/gemm-epi-k3-hopper.twill");
  char *outs[3], *certs[3];
  for (int t = 0; t < 3; t++) {
    char cert[64], th[8];
    snprintf(cert, sizeof cert, "/tmp/twill_test_subtile_%d.t%d", (int)getpid(), t + 1);
    snprintf(th, sizeof th, "%d", t + 1);
    const char *args[] = {"solve", kp, "--warps", "8", "--threads", th,
                          "--cert", cert, NULL};
    char *err = NULL;
    ck_assert_int_eq(tu_run_twill(&outs[t], &err, args), 0);
    free(err);
    size_t len;
    certs[t] = tu_read_file(cert, &len);
    ck_assert_ptr_nonnull(certs[t]);
    if (t == 1) {
      const char *c[] = {"check", kp, cert, "--warps", "8", NULL};
      char *out = NULL;
      err = NULL;
      ck_assert_int_eq(tu_run_twill(&out, &err, c), 0);
      ck_assert_ptr_nonnull(strstr(out, "s VERIFIED"));
      free(out), free(err);
    }
    remove(cert);
  }
  /* four refuted I, then the answer at 28 */
  const char *p = outs[0];
  int unsat = 0;
  while ((p = strstr(p, "): UNSAT"))) unsat++, p++;
  ck_assert_int_eq(unsat, 4);
  ck_assert_ptr_nonnull(strstr(outs[0], "normalized I 28"));
  for (int t = 1; t < 3; t++) {
    ck_assert_str_eq(outs[0], outs[t]);
    ck_assert_str_eq(certs[0], certs[t]);
  }
  for (int t = 0; t < 3; t++) free(outs[t]), free(certs[t]);
  free(kp);
}
END_TEST

/* The register total (twill/joint.h, REGISTER TOTAL), by hand on FA3
 * forward with 5 sub-tiles (32 ops, above TWILL_REG_TOTAL_MIN_OPS) at
 * I = L = 80 normalized.  The loads are variable latency, so group 0 holds
 * none of the values summed and keeps LO = 24; setmaxnreg steps of 8.
 *  - 16 warps launch at R(16) = 128: the file is 32*16*128 = 65536, Q =
 *    floor((65536 - 4*128*24) / (128*8)) = 52, the total 3*24 + 8*52 = 488
 *    (= 65536/128 - 24);
 *  - 12 warps at R(12) = 168: 64512, Q = floor((64512 - 3*128*24) / 1024)
 *    = 54, the total 2*24 + 8*54 = 480 (= 64512/128 - 24).
 * One row per slot, 80, whose coefficients are the warpgroup ops'
 * registers (64, 2, 32: S/rescale/PV, max/sum, exp); none without the
 * total; and the solver's encoder states the same text as the checker. */
static int total_rows(const char *t, size_t n, const char *rhs, int *bad) {
  int rows = 0;
  const char *p = t, *end = t + n;
  size_t rl = strlen(rhs);
  while (p < end) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e) e = end;
    const char *d = p + 2;
    while (d < e && *d >= '0' && *d <= '9') d++;
    if ((size_t)(e - p) > rl + 6 && !strncmp(p, "k ", 2) && e - d > 5 && !strncmp(d, " lin ", 5) &&
        !memcmp(e - rl, rhs, rl) && e[-(long)rl - 1] == ' ') {
      rows++;
      /* "k ID lin REIF N a1 l1 ... aN lN RHS": every coefficient 64, 32 or 2 */
      char line[1 << 14];
      size_t ll = (size_t)(e - p) < sizeof line - 1 ? (size_t)(e - p) : sizeof line - 1;
      memcpy(line, p, ll);
      line[ll] = 0;
      char *tok = strtok(line, " ");
      for (int i = 0; i < 4 && tok; i++) tok = strtok(NULL, " ");
      int nt = tok ? atoi(tok) : 0;
      for (int i = 0; i < nt; i++) {
        char *a = strtok(NULL, " "), *l = strtok(NULL, " ");
        if (!a || !l || l[0] != 'l' || (strcmp(a, "64") && strcmp(a, "32") && strcmp(a, "2")))
          (*bad)++;
      }
    }
    p = e + 1;
  }
  return rows;
}

START_TEST(register_total_by_hand) {
  char *path = tu_src_path("tests/data/scale/fa3-fwd-k5-hopper.twill");
  twill_graph *g;
  twill_arch *m;
  ck_assert_int_eq(tu_load_kernel(path, NULL, &g, &m), 0);
  free(path);
  ck_assert_int_ge(g->nops, TWILL_REG_TOTAL_MIN_OPS);
  const int warps[2] = {16, 12};
  const char *rhs[2] = {"488", "480"};
  for (int k = 0; k < 2; k++) {
    twill_joint_params p, q;
    twill_joint_params_default(&p, m);
    char why[300];
    ck_assert_int_eq(twill_launch_params(&p, m->max_regs_thread, warps[k], &q, why, sizeof why), 0);
    long X;
    twill_graph *gn = twill_solve_prepare(g, &q, 300, 60, &X, NULL);
    ck_assert_ptr_nonnull(gn);
    q.cross_warp = X;
    for (int on = 1; on >= 0; on--) {
      q.reg_total = on;
      size_t n, n2;
      char *t = twill_check_joint_text(gn, &q, 80, 80, &n, why, sizeof why);
      ck_assert_msg(t, "%s", why);
      int bad = 0;
      ck_assert_int_eq(total_rows(t, n, rhs[k], &bad), on ? 80 : 0);
      ck_assert_int_eq(bad, 0);
      char *e = twill_joint_preamble(gn, &q, 80, 80, &n2);
      ck_assert_ptr_nonnull(e);
      ck_assert_msg(n == n2 && !memcmp(t, e, n), "encoder and checker differ (%d warps)",
                    warps[k]);
      free(t), free(e);
    }
    twill_graph_free(gn);
  }
  twill_graph_free(g);
  twill_arch_free(m);
}
END_TEST

/* cert (a solve certificate) cut after its params and rel lines, then
 * "never-pack X" and "end", with its kernel line naming kname when given;
 * written to path. */
static void forge_pack(const char *cert, const char *kname, const char *x, const char *path) {
  const char *ii = strstr(cert, "\nii ");
  if (!ii) ii = strstr(cert, "\nnever");
  ck_assert_ptr_nonnull(ii);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  const char *k = strstr(cert, "\nkernel ");
  ck_assert_ptr_nonnull(k);
  if (kname) {
    fwrite(cert, 1, (size_t)(k + 1 - cert), f);
    fprintf(f, "kernel %s", kname);
    k = strchr(k + 1, '\n');
    fwrite(k, 1, (size_t)(ii + 1 - k), f);
  } else {
    fwrite(cert, 1, (size_t)(ii + 1 - cert), f);
  }
  fprintf(f, "never-pack %s\nend\n", x);
  fclose(f);
}

/* The packing rule (core/joint/joint_never.c; check_never.c counts again),
 * by hand on FA3 forward with k sub-tiles on 12 warps: warp 0 is the
 * loads' (variable latency), so the warpgroup ops run on groups 1 and 2,
 * each within R = 240, and the launch's file holds 64512 / 128 = 504
 * registers per thread, group 0 at least 24 of them.  At every slot each
 * sub-tile keeps one 64-register accumulator (rescale_s or PV_s: a cover)
 * and max_s, sum_s one copy each (2 + 2, their distance-1 self edges); at
 * a slot where S_0 holds its 64:
 *  - k = 6: 6 x 64 + 64 = 448 in blocks of 64 on two groups of 240: a group
 *    takes at most 3 blocks (4 x 64 = 256 > 240), 6 < 7 blocks: no packing,
 *    no I (the search before the rule walked I upward for 60 s, every I
 *    refuted);
 *  - k = 5: S_0 and two accumulators on group 1 (192 + 20 of the floors =
 *    212 -> budget 216), three on group 2 (192): 24 + 216 + 192 = 432 <=
 *    504, so the rule proves nothing (and the kernel has a schedule: I* =
 *    5248 cycles, bench/results/scale-2026-11-27-5f38394-window.md).
 * False claims refused: "never-pack" for k = 5 (the k = 6 certificate with
 * the kernel line changed: the same costs and parameters), for a
 * warpgroup op whose demands fit (exp_0: 32 registers), for a thread-issued
 * op (loadK) and an unknown name; and for every warpgroup op of the
 * built-in fa4-fwd-blackwell on 16 warps, which has a certified schedule. */
START_TEST(packing_rule_by_hand_and_false_claims) {
  char cert[64], forged[64];
  snprintf(cert, sizeof cert, "/tmp/twill_test_pack_%d.cert", (int)getpid());
  snprintf(forged, sizeof forged, "/tmp/twill_test_pack_%d.forged", (int)getpid());
  char *k6 = tu_src_path("tests/data/scale/fa3-fwd-k6-hopper.twill");
  char *k5 = tu_src_path("tests/data/scale/fa3-fwd-k5-hopper.twill");
  const char *args[] = {"solve", k6, "--warps", "12", "--cert", cert, NULL};
  char *out = NULL, *err = NULL;
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 2);
  ck_assert_msg(strstr(out, "no I tried: the registers live at one slot settle every I") &&
                    strstr(out, "op 'S_0' holds its 64 registers"), "%s", out);
  free(out), free(err);
  const char *cargs[] = {"check", k6, cert, "--warps", "12", NULL};
  out = err = NULL;
  ck_assert_int_eq(tu_run_twill(&out, &err, cargs), 0);
  ck_assert_msg(strstr(out, "s VERIFIED") && strstr(out, "fit no assignment to the warpgroups"),
                "%s", out);
  free(out), free(err);
  size_t len;
  char *c = tu_read_file(cert, &len);
  ck_assert_ptr_nonnull(c);
  ck_assert_ptr_nonnull(strstr(c, "\nnever-pack S_0\nend\n"));
  struct {
    const char *kernel, *kname, *x, *why;
  } bad[] = {
      {k5, "fa3-fwd-k5-hopper", "S_0", "the 16 register demands fit"},
      {k6, NULL, "exp_0", "the 19 register demands fit"},
      {k6, NULL, "loadK", "not a warpgroup op"},
      {k6, NULL, "S_9", "not an op of the kernel"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    forge_pack(c, bad[i].kname, bad[i].x, forged);
    const char *fargs[] = {"check", bad[i].kernel, forged, "--warps", "12", NULL};
    out = err = NULL;
    ck_assert_int_ne(tu_run_twill(&out, &err, fargs), 0);
    ck_assert_msg(err && strstr(err, bad[i].why), "%s: %s", bad[i].x, err ? err : "");
    free(out), free(err);
  }
  free(c);
  /* fa4-fwd-blackwell on 16 warps: a certified schedule, so no op's
   * registers can prove "no I" */
  const char *fa[] = {"solve", "fa4-fwd-blackwell", "--warps", "16", "--cert", cert, NULL};
  out = err = NULL;
  ck_assert_int_eq(tu_run_twill(&out, &err, fa), 0);
  free(out), free(err);
  c = tu_read_file(cert, &len);
  ck_assert_ptr_nonnull(c);
  const char *ops[] = {"ldS_0", "max_0", "exp_0", "sum_0", "ldO_0", "rescale_0", "ldS_1",
                       "exp_1", "rescale_1"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    forge_pack(c, NULL, ops[i], forged);
    const char *fargs[] = {"check", "fa4-fwd-blackwell", forged, "--warps", "16", NULL};
    out = err = NULL;
    ck_assert_int_ne(tu_run_twill(&out, &err, fargs), 0);
    ck_assert_msg(err && strstr(err, "register demands fit"), "%s: %s", ops[i], err ? err : "");
    free(out), free(err);
  }
  free(c);
  remove(cert), remove(forged);
  free(k5), free(k6);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("subtile");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, rule_finds_the_sub_tiles_by_hand);
  tcase_add_test(tc, threshold_above_every_builtin);
  tcase_add_test(tc, order_loses_no_schedule_brute_force);
  tcase_add_test(tc, checker_refuses_a_false_sub_tile_symmetry);
  tcase_add_test(tc, certificates_with_the_order);
  tcase_add_test(tc, threads_ask_the_next_i_ahead);
  tcase_add_test(tc, covers_and_the_early_relaxation);
  tcase_add_test(tc, packing_rule_by_hand_and_false_claims);
  tcase_add_test(tc, register_total_by_hand);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
