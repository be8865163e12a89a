/* tests/test_units.c: one unit everywhere and round trips of schedule files.
 *
 *  - gemm-hopper checked by hand in real cycles (the derivation is beside
 *    the expected values);
 *  - `twill modulo` and `twill solve` normalize every built-in kernel the
 *    same way and agree on phase 1 (I*, and L where both prove it);
 *  - for every built-in kernel and a user kernel: `emit S.json --format F`
 *    from `solve --json` gives the bytes of `solve --emit F`, for every F,
 *    with the kernel file gone (the JSON alone suffices) and through "-";
 *  - `emit K --format json` round-trips the heuristic schedule;
 *  - the schedule reader's new keys are checked, with file:line:col;
 *  - "-" is standard input for every command that reads a file;
 *  - stdout carries no wall-clock figures (same input, same bytes).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/builtin.h"
#include "twill/codegen.h"
#include "twill/json.h"
#include "twill/kernel.h"
#include "twill/normalize.h"

static const char *const formats[] = {"pseudocode", "cuda", "table", "gantt",
                                      "svg", "json", "dot"};
#define NFORMATS 7

static int nbuiltin(void) {
  int n = 0;
  while (twill_builtin_kernels[n].name) n++;
  return n;
}

static twill_json *parse(const char *text) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_json *j = twill_json_parse(text, strlen(text), "out.json", &d);
  ck_assert_msg(j != NULL, "not JSON: %s", d.msg);
  return j;
}

static long jint(const twill_json *o, const char *key) {
  const twill_json *v = twill_json_get(o, key);
  ck_assert_msg(v && v->type == TWILL_JSON_NUMBER && v->is_int, "no integer \"%s\"", key);
  return (long)v->integer;
}

static bool jbool(const twill_json *o, const char *key) {
  const twill_json *v = twill_json_get(o, key);
  ck_assert_msg(v && v->type == TWILL_JSON_BOOL, "no boolean \"%s\"", key);
  return v->boolean;
}

static const twill_json *jobj(const twill_json *o, const char *key) {
  const twill_json *v = twill_json_get(o, key);
  ck_assert_msg(v && v->type == TWILL_JSON_OBJECT, "no object \"%s\"", key);
  return v;
}

static void has(const char *text, const char *needle) {
  if (!strstr(text, needle)) fprintf(stderr, "--- output:\n%s\n", text);
  ck_assert_msg(strstr(text, needle) != NULL, "missing: %.200s", needle);
}

static char *tmp_path(const char *stem) {
  char *p = malloc(256);
  ck_assert_ptr_nonnull(p);
  snprintf(p, 256, "/tmp/twill-units-%ld-%s", (long)getpid(), stem);
  return p;
}

/* ---- gemm-hopper by hand ------------------------------------------------ */

/* gemm-hopper (kernels/gemm-hopper.twill) on hopper: the costs are mma's
 * 512 (latency, TC use, mma->mma and mma->release edges), release's 1
 * (latency, release->load edges), and hopper's cross-warp cost 256, paid by
 * mma (it holds 128 registers, is not variable-latency and gives no spill
 * of its own); the loads' 0 is not a cost.  So both commands normalize
 * {1, 256, 512} with U = 300:
 *   c1 >= 1 would need c256 >= 256 - F and c512 >= 512 - F, over the
 *   budget for any small F, so c1 = 0; then F >= c256, F >= c512 and
 *   |256 c512 - 512 c256| <= F, a multiple of 256, forces c512 = 2 c256;
 *   F = 2 at (0, 1, 2) is the least (F = 1 gives c256 = c512 = 0, sum 0).
 *   Mapping 1 -> 0, 256 -> 1, 512 -> 2, F = 2; k = 512 / 2 = 256.
 * Normalized kernel: mma lat 2 on TC for 2, release lat 0 (one issue
 * cycle), mma's spill 1.  ResMII = 2 (TC), RecMII = max(mma->mma 2/1,
 * load->mma->release->load (0 + 2 + 0)/4) = 2, so I* = 2; mma must start
 * with the loads (edges of latency 0, none earlier than 0), release >=
 * t(mma) + 2 and L = t(release) + 1, so L = 3 with times load 0, mma 0,
 * release 2.  In real cycles: I = 512, L = 768, release at 512, which is
 * also the real schedule's (mma done at 512).  Before this change modulo
 * left 256 out (k = 512, I = 512, L = 1024) while solve had it (k = 256). */
START_TEST(gemm_hopper_by_hand) {
  twill_graph *g;
  twill_arch *m;
  ck_assert_int_eq(tu_load_kernel("gemm-hopper", NULL, &g, &m), 0);
  ck_assert_int_eq(m->cross_warp, 256);
  twill_norm nm;
  twill_graph *h = twill_normalize_kernel(g, m->cross_warp, 300, 0, &nm);
  ck_assert_ptr_nonnull(h);
  ck_assert_int_eq(nm.n, 3);
  ck_assert_int_eq(nm.F, 2);
  ck_assert_int_eq(twill_norm_map(&nm, 1), 0);
  ck_assert_int_eq(twill_norm_map(&nm, 256), 1);
  ck_assert_int_eq(twill_norm_map(&nm, 512), 2);
  long num, den;
  twill_norm_scale(&nm, &num, &den);
  ck_assert_int_eq(num, 256);
  ck_assert_int_eq(den, 1);
  int mma = twill_graph_find_op(h, "mma"), rel = twill_graph_find_op(h, "release");
  ck_assert_int_eq(h->ops[mma].lat, 2);
  ck_assert_int_eq(h->ops[mma].uses[0].cycles, 2);
  ck_assert_int_eq(h->ops[mma].spill, 1);
  ck_assert_int_eq(h->ops[rel].lat, 0);
  /* apply alone rebuilds exactly that graph: same printed JSON */
  char why[200];
  twill_graph *h2 = twill_normalize_kernel_apply(g, m->cross_warp, &nm, why, sizeof why);
  ck_assert_msg(h2 != NULL, "%s", why);
  char *a = NULL, *b = NULL;
  size_t al = 0, bl = 0;
  FILE *fa = open_memstream(&a, &al), *fb = open_memstream(&b, &bl);
  ck_assert_int_eq(twill_graph_print_json(h, fa), 0);
  ck_assert_int_eq(twill_graph_print_json(h2, fb), 0);
  fclose(fa);
  fclose(fb);
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  /* a mapping without the cross-warp cost cannot rebuild it, and says so */
  twill_norm small;
  long cs[] = {1, 512}, vs[] = {0, 1};
  ck_assert_int_eq(twill_norm_from_pairs(cs, vs, 2, 300, 1, &small, why, sizeof why), 0);
  ck_assert_ptr_null(twill_normalize_kernel_apply(g, m->cross_warp, &small, why, sizeof why));
  has(why, "no value for cost 256 (spill of 'mma')");
  twill_norm_clear(&small);
  twill_graph_free(h2);
  twill_graph_free(h);
  twill_norm_clear(&nm);
  twill_graph_free(g);
  twill_arch_free(m);

  /* the program, text and JSON */
  char *out, *err;
  const char *mo[] = {"modulo", "gemm-hopper", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, mo), 0);
  has(out, "costs normalized (U = 300, F = 2): 1 -> 0, 256 -> 1, 512 -> 2\n");
  has(out, "1 normalized cycle = 256 cycles\n");
  has(out, "I* = 512 (normalized 2), L = 768 (normalized 3): optimal");
  has(out, "  release             512      1      0           2\n");
  free(out);
  free(err);
  const char *so[] = {"solve", "gemm-hopper", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, so), 0);
  has(out, "costs normalized (U = 300, F = 2): 1 -> 0, 256 -> 1, 512 -> 2\n");
  has(out, "phase 1: I* = 512 (normalized 2, proven), L = 768 (normalized 3, "
           "proven minimal)\n");
  has(out, "I* = 512 (normalized 2, optimal), L = 768 (normalized 3, minimal at I*)\n");
  free(out);
  free(err);
  const char *sj[] = {"solve", "gemm-hopper", "--json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, sj), 0);
  twill_json *j = parse(out);
  ck_assert_int_eq(jint(j, "ii"), 512);
  ck_assert_int_eq(jint(j, "length"), 768);
  ck_assert_int_eq(jint(jobj(j, "times"), "release"), 512);
  ck_assert_int_eq(jint(jobj(j, "times"), "mma"), 0);
  ck_assert_int_eq(jint(jobj(j, "stages"), "release"), 1);
  const twill_json *n = jobj(j, "normalized");
  ck_assert_int_eq(jint(n, "ii"), 2);
  ck_assert_int_eq(jint(n, "length"), 3);
  ck_assert_int_eq(jint(jobj(n, "times"), "release"), 2);
  const twill_json *z = jobj(j, "normalization");
  ck_assert_int_eq(jint(z, "real_per_normalized_cycle"), 256);
  ck_assert_int_eq(jint(jobj(z, "costs"), "256"), 1);
  ck_assert_ptr_nonnull(twill_json_get(j, "units"));
  ck_assert_ptr_nonnull(twill_json_get(j, "source"));
  twill_json_free(j);
  free(out);
  free(err);
  /* every drawing speaks real cycles, and says so once */
  const char *se[] = {"solve", "gemm-hopper", "--emit", "pseudocode", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, se), 0);
  has(out, "# real cycles: solved on normalized costs (budget 300, error 2); "
           "1 normalized cycle = 256 cycles\n");
  has(out, "# I = 512, L = 768, copies C = ceil(L/I) = 2, T = (C-1)*I + L = 1280\n");
  has(out, "cycle 512    release(i)");
  free(out);
  free(err);
}
END_TEST

/* ---- modulo and solve agree --------------------------------------------- */

/* Same kernel, same machine: the same mapping in both commands, and phase
 * 1's I* the same.  L: where modulo proves L optimal and solve's phase 1
 * says it proved its L minimal they are equal; where solve's phase 1 says
 * "not proven" its L is only an upper bound (>= modulo's optimum).  modulo
 * runs with a time limit (fa4-bwd-blackwell takes ~20 s to prove L), which
 * only decides which of these checks apply. */
START_TEST(modulo_and_solve_agree) {
  const char *k = twill_builtin_kernels[_i].name;
  char *mout, *sout, *err;
  const char *ma[] = {"modulo", k, "--json", "--time-limit", "4", NULL};
  int mrc = tu_run_twill(&mout, &err, ma);
  ck_assert_msg(mrc == 0 || mrc == 3, "%s: modulo exit %d: %s", k, mrc, err);
  free(err);
  const char *sa[] = {"solve", k, "--json", NULL};
  int src = tu_run_twill(&sout, &err, sa);
  ck_assert_msg(src == 0 || src == 2, "%s: solve exit %d: %s", k, src, err);
  free(err);
  twill_json *mj = parse(mout), *sj = parse(sout);
  /* the same mapping, key for key */
  const twill_json *mz = jobj(mj, "normalization"), *sz = jobj(sj, "normalization");
  ck_assert_int_eq(jint(mz, "budget"), jint(sz, "budget"));
  ck_assert_int_eq(jint(mz, "error"), jint(sz, "error"));
  const twill_json *mc = jobj(mz, "costs"), *sc = jobj(sz, "costs");
  ck_assert_int_eq((int)mc->len, (int)sc->len);
  for (size_t i = 0; i < mc->len; i++) {
    ck_assert_str_eq(mc->keys[i], sc->keys[i]);
    ck_assert_int_eq(mc->items[i].integer, sc->items[i].integer);
  }
  ck_assert_ptr_nonnull(jobj(mj, "normalized"));
  bool m_ii_proven = jint(mj, "lower_bound") == jint(mj, "ii");
  bool m_opt = jbool(mj, "optimal");
  /* solve's phase-1 figures are real cycles: compare with modulo's real */
  long sii = jint(sj, "phase1_ii"), sL = jint(sj, "phase1_length");
  if (m_ii_proven) {
    ck_assert_msg(jbool(sj, "phase1_ii_proven"), "%s: solve's phase 1 unproven", k);
    ck_assert_msg(sii == jint(mj, "ii"), "%s: I* %ld (solve) vs %ld (modulo)", k,
                  sii, jint(mj, "ii"));
  }
  if (m_opt && jbool(sj, "phase1_length_proven"))
    ck_assert_msg(sL == jint(mj, "length"), "%s: L %ld vs %ld", k, sL,
                  jint(mj, "length"));
  if (m_opt)
    ck_assert_msg(sL >= jint(mj, "length"), "%s: solve's phase-1 L %ld below "
                  "modulo's optimum %ld", k, sL, jint(mj, "length"));
  twill_json_free(mj);
  twill_json_free(sj);
  free(mout);
  free(sout);
  /* and the text says what phase 1 proved */
  const char *st[] = {"solve", k, NULL};
  tu_run_twill(&sout, &err, st);
  has(sout, "phase 1: I* = ");
  ck_assert_msg(strstr(sout, "proven minimal)") != NULL, "%s: no proof mark on "
                "phase 1's L", k);
  free(sout);
  free(err);
}
END_TEST

/* ---- solve --json, then emit: the bytes of solve --emit ---------------- */

/* One kernel: `solve K ARGS --json` into json_path, and for every format
 * the bytes of `solve K ARGS --emit F` kept in want[F]. */
static void solve_all(const char *k, const char *warps, const char *json_path, char **want) {
  char *out, *err;
  for (int f = 0; f < NFORMATS; f++) {
    const char *a[] = {"solve", k, "--emit", formats[f], warps ? "--warps" : NULL, warps, NULL};
    int rc = tu_run_twill(&out, &err, a);
    ck_assert_msg(rc == 0, "%s --emit %s: exit %d: %s", k, formats[f], rc, err);
    want[f] = out;
    free(err);
  }
  const char *a[] = {"solve", k, "--json", warps ? "--warps" : NULL, warps, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  ck_assert_int_eq(tu_write_file(json_path, out), 0);
  free(out);
  free(err);
}

/* emit from the file (or from standard input when stdin_path) equals want */
static void emit_matches(const char *json_path, char **want, bool via_stdin) {
  for (int f = 0; f < NFORMATS; f++) {
    char *out, *err;
    const char *a[] = {"emit", via_stdin ? "-" : json_path, "--format", formats[f], NULL};
    int rc = via_stdin ? tu_run_twill_stdin(&out, &err, a, json_path)
                       : tu_run_twill(&out, &err, a);
    ck_assert_msg(rc == 0, "emit %s --format %s: exit %d: %s", json_path,
                  formats[f], rc, err);
    if (strcmp(out, want[f])) {
      fprintf(stderr, "--- solve --emit %s:\n%s\n--- emit:\n%s\n", formats[f],
              want[f], out);
      ck_abort_msg("emit from %s differs from solve --emit %s", json_path, formats[f]);
    }
    free(out);
    free(err);
  }
}

START_TEST(solve_json_emit_round_trip) {
  const char *k = twill_builtin_kernels[_i].name;
  if (tu_under_valgrind() && strcmp(k, "fig1") && strcmp(k, "gemm-hopper")) return;
  char *out, *err;
  const char *probe[] = {"solve", k, NULL};
  int rc = tu_run_twill(&out, &err, probe);
  free(out);
  free(err);
  if (rc == 2) return; /* infeasible (the no-sub-tiling ablation): no schedule */
  ck_assert_int_eq(rc, 0);
  /* at the machine's warp count: the round trip is about the schedule
   * file, not the warp-count search (test_launch), which would cost a
   * search per format */
  twill_graph *g;
  twill_arch *m;
  ck_assert_int_eq(tu_load_kernel(k, NULL, &g, &m), 0);
  char warps[16];
  snprintf(warps, sizeof warps, "%d", m->warps);
  twill_graph_free(g);
  twill_arch_free(m);
  char *js = tmp_path("s.json");
  char *want[NFORMATS];
  solve_all(k, warps, js, want);
  emit_matches(js, want, false);
  for (int f = 0; f < NFORMATS; f++) free(want[f]);
  unlink(js);
  free(js);
}
END_TEST

/* A user's kernel, with costs whose scale is not a whole number: {1, 256
 * (cross-warp), 300, 1001} normalize to {0, 12, 14, 47} (F = 86), so 1
 * normalized cycle is 1001/47 real cycles and every time is rounded.  The
 * file is removed before emit runs: the JSON alone must do. */
static const char user_kernel[] =
    "kernel mine\n"
    "arch hopper\n"
    "op load lat 0 issue thread varlat yes smem 16384\n"
    "op a lat 300 use TC:300 issue warpgroup regs 32\n"
    "op b lat 1001 use TC:1001 issue warpgroup regs 64\n"
    "op c lat 300 use EXP:300 regs 16\n"
    "op rel lat 1\n"
    "edge load a lat 0\n"
    "edge a c lat 300\n"
    "edge c b lat 300 blocking yes\n"
    "edge b b lat 1001 dist 1\n"
    "edge b rel lat 1001\n"
    "edge rel load lat 1 dist 2\n";

START_TEST(user_kernel_round_trip) {
  char *kp = tmp_path("mine.twill"), *js = tmp_path("mine.json");
  ck_assert_int_eq(tu_write_file(kp, user_kernel), 0);
  char *want[NFORMATS];
  solve_all(kp, NULL, js, want);
  unlink(kp);
  has(want[0], "1 normalized cycle = 1001/47 cycles, times rounded to whole cycles\n");
  emit_matches(js, want, false);
  emit_matches(js, want, true);
  /* the real times are the normalized ones x 1001/47, rounded: b at 75 is
   * 75 x 1001 / 47 = 1597.34 -> 1597 */
  size_t n;
  char *text = tu_read_file(js, &n);
  ck_assert_ptr_nonnull(text);
  twill_json *j = parse(text);
  const twill_json *nt = jobj(jobj(j, "normalized"), "times"), *rt = jobj(j, "times");
  for (size_t i = 0; i < nt->len; i++) {
    long t = (long)nt->items[i].integer;
    long want_r = (t * 1001 * 2 + 47) / (2 * 47);
    ck_assert_int_eq(jint(rt, nt->keys[i]), want_r);
  }
  ck_assert_str_eq(twill_json_get(jobj(j, "normalization"), "real_per_normalized_cycle")->string,
                   "1001/47");
  twill_json_free(j);
  free(text);
  for (int f = 0; f < NFORMATS; f++) free(want[f]);
  unlink(js);
  free(kp);
  free(js);
}
END_TEST

/* A user's machine too: a kernel naming an .arch file by path, solved, then
 * both files removed; the schedule file carries the machine's text
 * ("machine": it is not a built-in machine), so emit still draws every
 * format byte for byte. */
START_TEST(user_machine_round_trip) {
  char *ap = tmp_path("mach.arch"), *kp = tmp_path("tiny.twill"), *js = tmp_path("tiny.json");
  ck_assert_int_eq(tu_write_file(ap, "arch mach\nunit TC 1\nunit EXP 1\nwarps 8\n"
                                     "warpgroup 4\nregs_per_sm 65536\nreg_budget 128\n"
                                     "cross_warp 7\n"), 0);
  char kt[512];
  snprintf(kt, sizeof kt,
           "kernel tiny\narch %s\nop a lat 3 use TC:3 regs 8\nop b lat 5 use EXP:5 regs 8\n"
           "edge a b lat 3\nedge b a lat 5 dist 1\n", ap);
  ck_assert_int_eq(tu_write_file(kp, kt), 0);
  char *want[NFORMATS];
  solve_all(kp, NULL, js, want);
  unlink(kp);
  unlink(ap);
  size_t n;
  char *text = tu_read_file(js, &n);
  ck_assert_ptr_nonnull(text);
  has(text, "\"machine\": \"arch mach\\n");
  free(text);
  emit_matches(js, want, false);
  for (int f = 0; f < NFORMATS; f++) free(want[f]);
  unlink(js);
  free(ap), free(kp), free(js);
}
END_TEST

/* --json speaks JSON even when the answer is settled before any search
 * (an op over the register budget on its own). */
START_TEST(solve_json_when_settled_early) {
  char *out, *err;
  const char *a[] = {"solve", "fa4-fwd-blackwell", "--regs", "64", "--json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 2);
  twill_json *j = parse(out);
  ck_assert(jbool(j, "infeasible"));
  ck_assert_ptr_nonnull(twill_json_get(j, "normalization"));
  twill_json_free(j);
  free(out), free(err);
}
END_TEST

/* modulo --json feeds emit too, and its file needs no kernel either. */
START_TEST(modulo_json_emits_without_kernel) {
  char *kp = tmp_path("m.twill"), *js = tmp_path("m.json");
  ck_assert_int_eq(tu_write_file(kp, user_kernel), 0);
  char *out, *err;
  const char *a[] = {"modulo", kp, "--json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  ck_assert_int_eq(tu_write_file(js, out), 0);
  free(out);
  free(err);
  unlink(kp);
  const char *b[] = {"emit", js, "--format", "table", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, b), 0);
  /* modulo proved I* = 61 normalized (ResMII: TC 14 + 47) = 1299 real */
  has(out, "# I = 1299, L = ");
  free(out);
  free(err);
  unlink(js);
  free(kp);
  free(js);
}
END_TEST

/* The heuristic schedule of `emit K`: written as JSON, read back, drawn:
 * the same bytes as drawing it directly (the "heuristic" mark survives). */
START_TEST(emit_json_heuristic_round_trip) {
  const char *k = twill_builtin_kernels[_i].name;
  char *js = tmp_path("h.json"), *out, *err;
  const char *a[] = {"emit", k, "--format", "json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  ck_assert_int_eq(tu_write_file(js, out), 0);
  free(out);
  free(err);
  for (int f = 0; f < NFORMATS; f++) {
    char *direct, *back;
    const char *d[] = {"emit", k, "--format", formats[f], NULL};
    const char *r[] = {"emit", js, "--format", formats[f], NULL};
    ck_assert_int_eq(tu_run_twill(&direct, &err, d), 0);
    free(err);
    ck_assert_int_eq(tu_run_twill(&back, &err, r), 0);
    free(err);
    ck_assert_msg(!strcmp(direct, back), "%s %s differs after the JSON round trip",
                  k, formats[f]);
    free(direct);
    free(back);
  }
  unlink(js);
  free(js);
}
END_TEST

/* ---- the reader's new keys ---------------------------------------------- */

static void sched_bad(const char *text, const char *msg) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_sched_file *sf = twill_sched_file_parse(text, strlen(text), "s.json", &d);
  ck_assert_msg(sf == NULL, "accepted: %s", text);
  ck_assert_msg(strstr(d.msg, msg) != NULL, "message '%s' lacks '%s'", d.msg, msg);
  ck_assert_int_gt(d.line, 0);
}

#define GOOD_NORM "\"normalization\": {\"budget\": 300, \"error\": 0, " \
                  "\"costs\": {\"1\": 1}, \"real_per_normalized_cycle\": 1}"

START_TEST(schedule_file_new_keys) {
  /* fig1 normalizes to itself (every cost 1): the smallest complete file */
  const char *ok =
      "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0, \"P\": 1, \"O\": 3},\n"
      " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0, \"P\": 1, \"O\": 3}},\n"
      " " GOOD_NORM "}";
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_sched_file *sf = twill_sched_file_parse(ok, strlen(ok), "s.json", &d);
  ck_assert_msg(sf != NULL, "%s", d.msg);
  ck_assert_int_eq(sf->norm.n, 1);
  twill_sched_file_free(sf);
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0}}}",
            "come together");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0},\n" GOOD_NORM "}",
            "come together");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0}},\n"
            " \"normalization\": {\"budget\": 300, \"error\": 0, \"costs\": {\"01\": 1}}}",
            "without leading zeros");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0}},\n"
            " \"normalization\": {\"budget\": 3, \"error\": 0, \"costs\": {\"7\": 4}}}",
            "must be an integer in [0, 3]");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0}},\n"
            " \"normalization\": {\"budget\": 300, \"error\": 0, \"costs\": {\"7\": 0}}}",
            "every cost normalizes to 0");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0}},\n"
            " \"normalization\": {\"budget\": 300, \"error\": 0, \"costs\": {\"8\": 2},\n"
            "  \"real_per_normalized_cycle\": 3}}",
            "must be 4");
  /* real times edited by hand: refused, not silently dropped */
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 8, \"times\": {\"S\": 0, \"P\": 5},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0, \"P\": 1}},\n"
            " \"normalization\": {\"budget\": 300, \"error\": 0, \"costs\": {\"8\": 2}}}",
            "real time of 'P' must be 4");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 7, \"times\": {\"S\": 0},\n"
            " \"normalized\": {\"ii\": 2, \"times\": {\"S\": 0}},\n"
            " \"normalization\": {\"budget\": 300, \"error\": 0, \"costs\": {\"8\": 2}}}",
            "\"ii\" must be 8");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0}, \"source\": {\"ops\": 3}}",
            "ops");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0}, \"warp_count\": 0}",
            "warp_count");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0}, \"heuristic\": 1}",
            "heuristic");
  sched_bad("{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0}, \"machine\": 1}",
            "machine");

  /* a mapping that lacks one of the kernel's costs: emit names it */
  char *js = tmp_path("bad.json"), *out, *err;
  const char *a[] = {"solve", "gemm-hopper", "--json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  free(err);
  char *p = strstr(out, "\"256\": 1,\n");
  ck_assert_ptr_nonnull(p);
  memcpy(p, "\"255\": 1,\n", 10);
  ck_assert_int_eq(tu_write_file(js, out), 0);
  free(out);
  const char *e[] = {"emit", js, "--format", "table", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, e), 1);
  has(err, "no value for cost 256 (spill of 'mma')");
  free(out);
  free(err);
  unlink(js);
  free(js);
}
END_TEST

/* ---- "-" is standard input ---------------------------------------------- */

/* Each command once with a file and once with "-" and the file on standard
 * input: the same exit status and the same stdout. */
static void same_with_stdin(const char *const *args, int dash, const char *file) {
  const char *a[16], *b[16];
  int n = 0;
  while (args[n]) {
    a[n] = args[n];
    b[n] = n == dash ? "-" : args[n];
    n++;
  }
  a[dash] = file;
  a[n] = b[n] = NULL;
  char *o1, *e1, *o2, *e2;
  int r1 = tu_run_twill(&o1, &e1, a), r2 = tu_run_twill_stdin(&o2, &e2, b, file);
  ck_assert_msg(r1 == r2, "%s: exit %d with a file, %d with '-': %s", args[0], r1, r2, e2);
  ck_assert_msg(!strcmp(o1, o2), "%s: stdout differs with '-'", args[0]);
  ck_assert_msg(r1 != 1, "%s failed: %s", args[0], e1);
  free(o1), free(e1), free(o2), free(e2);
}

START_TEST(dash_is_stdin) {
  char *kp = tmp_path("k.twill"), *cp = tmp_path("k.cert"), *js = tmp_path("k.json");
  char *cnf = tmp_path("f.cnf"), *smt = tmp_path("f.smt"), *mps = tmp_path("f.mps");
  char *vp = tmp_path("f.vipr");
  ck_assert_int_eq(tu_write_file(kp, user_kernel), 0);
  ck_assert_int_eq(tu_write_file(cnf, "p cnf 2 2\n1 2 0\n-1 0\n"), 0);
  ck_assert_int_eq(tu_write_file(smt, "int x 0 9\nint y 0 9\nlin 1 x + 1 y >= 5\nmin x\n"), 0);
  /* min x s.t. x + y >= 5, y <= 3 (bounds): x = 2 */
  ck_assert_int_eq(tu_write_file(mps,
                                 "NAME t\nROWS\n N obj\n G c\nCOLUMNS\n"
                                 "    M1 'MARKER' 'INTORG'\n"
                                 "    x obj 1 c 1\n    y c 1\n"
                                 "    M2 'MARKER' 'INTEND'\n"
                                 "RHS\n    rhs c 5\nBOUNDS\n UP b x 9\n UP b y 3\nENDATA\n"),
                   0);
  char *out, *err;
  const char *w[] = {"solve", kp, "--json", "--cert", cp, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, w), 0);
  ck_assert_int_eq(tu_write_file(js, out), 0);
  free(out), free(err);
  const char *iw[] = {"ilp", mps, "--cert", vp, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, iw), 0);
  free(out), free(err);

  const char *c1[] = {"bounds", "K", NULL};
  same_with_stdin(c1, 1, kp);
  const char *c2[] = {"modulo", "K", NULL};
  same_with_stdin(c2, 1, kp);
  const char *c3[] = {"solve", "K", NULL};
  same_with_stdin(c3, 1, kp);
  const char *c4[] = {"validate", "K", "--json", NULL};
  same_with_stdin(c4, 1, kp);
  const char *c5[] = {"emit", "K", "--format", "gantt", NULL};
  same_with_stdin(c5, 1, kp);
  same_with_stdin(c5, 1, js);
  const char *c6[] = {"check", "K", cp, NULL};
  same_with_stdin(c6, 1, kp);
  const char *c7[] = {"check", kp, "C", NULL};
  same_with_stdin(c7, 2, cp);
  const char *c8[] = {"gaus", "K", NULL};
  same_with_stdin(c8, 1, kp);
  const char *c9[] = {"sat", "F", NULL};
  same_with_stdin(c9, 1, cnf);
  const char *c10[] = {"smt", "F", NULL};
  same_with_stdin(c10, 1, smt);
  const char *c11[] = {"ilp", "F", NULL};
  same_with_stdin(c11, 1, mps);
  const char *c12[] = {"vipr-check", "F", NULL};
  same_with_stdin(c12, 1, vp);
  /* standard input is read once: a second "-" says so */
  const char *two[] = {"check", "-", "-", NULL};
  ck_assert_int_eq(tu_run_twill_stdin(&out, &err, two, kp), 1);
  has(err, "cannot both be standard input");
  free(out), free(err);
  const char *files[] = {kp, cp, js, cnf, smt, mps, vp};
  for (int i = 0; i < 7; i++) unlink(files[i]);
  free(kp), free(cp), free(js), free(cnf), free(smt), free(mps), free(vp);
}
END_TEST

/* ---- determinism and certificates --------------------------------------- */

/* No wall-clock figures on stdout (they used to be there: "(0.776 s, ...)"):
 * two runs print the same bytes.  And a modulo certificate written with the
 * shared normalization is verified by twill check, which rebuilds it. */
START_TEST(stdout_is_deterministic_and_certified) {
  char *a, *b, *err;
  const char *m[] = {"modulo", "fa3-bwd-hopper", NULL};
  ck_assert_int_eq(tu_run_twill(&a, &err, m), 0);
  free(err);
  ck_assert_int_eq(tu_run_twill(&b, &err, m), 0);
  free(err);
  ck_assert_str_eq(a, b);
  ck_assert_ptr_null(strstr(a, " s,"));
  free(a), free(b);
  char *cp = tmp_path("g.cert");
  const char *mc[] = {"modulo", "gemm-hopper", "--cert", cp, NULL};
  ck_assert_int_eq(tu_run_twill(&a, &err, mc), 0);
  free(a), free(err);
  const char *ck[] = {"check", "gemm-hopper", cp, NULL};
  ck_assert_int_eq(tu_run_twill(&a, &err, ck), 0);
  has(a, "s VERIFIED");
  free(a), free(err);
  unlink(cp);
  free(cp);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("units");
  int nb = nbuiltin();
  TCase *h = tcase_create("by hand");
  tcase_set_timeout(h, 60);
  tcase_add_test(h, gemm_hopper_by_hand);
  tcase_add_test(h, schedule_file_new_keys);
  tcase_add_test(h, stdout_is_deterministic_and_certified);
  suite_add_tcase(s, h);
  TCase *a = tcase_create("agree");
  tcase_set_timeout(a, 120);
  tcase_add_loop_test(a, modulo_and_solve_agree, 0, nb);
  suite_add_tcase(s, a);
  TCase *r = tcase_create("round trips");
  tcase_set_timeout(r, 180);
  tcase_add_loop_test(r, solve_json_emit_round_trip, 0, nb);
  tcase_add_test(r, user_kernel_round_trip);
  tcase_add_test(r, modulo_json_emits_without_kernel);
  tcase_add_test(r, user_machine_round_trip);
  tcase_add_test(r, solve_json_when_settled_early);
  tcase_add_loop_test(r, emit_json_heuristic_round_trip, 0, nb);
  tcase_add_test(r, dash_is_stdin);
  suite_add_tcase(s, r);
  return s;
}

TWILL_CHECK_MAIN
