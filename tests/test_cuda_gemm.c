/* tests/test_cuda_gemm.c: the complete Hopper GEMM of `twill emit --format
 * cuda --complete` (codegen/cuda_gemm.c) against hand derivations.
 *
 * gemm-hopper (kernels/gemm-hopper.twill) in its own cycles, scheduled by
 * hand as `twill solve` schedules it (times x 256, the normalization):
 *   I = 512; loadA, loadB, mma at 0; release at 512; warps loadA, loadB
 *   on w0 (the variable-latency warp), mma on w4-7, release on w7.
 *   Legal: mma -> release needs 512 <= 512 - 0; release -> load (dist 4)
 *   needs 0 + 4*512 - 512 = 1536 >= 1; mma -> mma: 0 >= 512 - 512.
 *   L = max(t + lat) = max(0 + 512, 512 + 1) = 513, C = ceil(513/512) = 2.
 *   Q: mma(0)@0 (prologue); mma(1)@512 and release(0)@512 (steady state,
 *   mma first: it feeds release at distance 0); release(1)@1024
 *   (epilogue).  So in the loop release(i) follows mma(i+1): wgmma
 *   wait_group 1; the epilogue's release(n-1) follows no later MMA:
 *   wait_group 0.
 *   The ring: release -> load at distance 4 = 4 stages (the kernel's
 *   comment: "The stage ring has 4 buffers"); model.c's depth
 *   floor((0 + 4*512 - 512) / 512) + 1 = 4 agrees.
 *   Tile: smem 16384 / 128 bytes per 64-element bf16 row = 128 rows of A
 *   and of B; regs(mma) 128 = 128*128 f32 / 128 threads.
 *   Registers (hopper.arch: reg_budget 240, setmaxnreg 24..256 step 8,
 *   65536 per SM): warpgroup 1 (the MMA) gets min(240, (65536/128 - 24)
 *   = 488) = 240, warpgroup 0 (loads only) the floor 24; at launch
 *   65536 / 256 threads = 256 > 255, so 248: both setmaxnreg.dec.
 *
 * A second schedule moves release to 1024 (stage 2): L = 1025, C = 3;
 * Q's steady window [1024, 1536) holds mma(2) then release(0), after
 * mma(1)@512 and mma(2)@1024: wait_group 2; the epilogue's release(1)@1536
 * follows mma(2) only: 1; release(2)@2048: 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/builtin.h"
#include "twill/codegen.h"

typedef struct fx {
  twill_graph *g;
  twill_arch *m;
  twill_schedule *s;
} fx;

static fx gemm_fx(long t_release) {
  fx x;
  twill_diag d;
  memset(&d, 0, sizeof d);
  const char *text = twill_builtin_kernel("gemm-hopper");
  ck_assert_ptr_nonnull(text);
  x.g = twill_graph_parse_text(text, strlen(text), "gemm-hopper", &d);
  ck_assert_msg(x.g != NULL, "%s", d.msg);
  x.m = twill_arch_load("hopper", &d);
  ck_assert_ptr_nonnull(x.m);
  ck_assert_int_eq(twill_graph_bind(x.g, x.m, &d), 0);
  x.s = twill_schedule_new(4, 512);
  ck_assert_int_eq(twill_schedule_add_warps(x.s), 0);
  const char *names[4] = {"loadA", "loadB", "mma", "release"};
  const long t[4] = {0, 0, 0, t_release};
  const int w[4] = {0, 0, 4, 7};
  for (int k = 0; k < 4; k++) {
    int v = twill_graph_find_op(x.g, names[k]);
    ck_assert_int_ge(v, 0);
    x.s->start[v] = t[k];
    x.s->warp[v] = w[k];
  }
  char why[256] = "";
  ck_assert_msg(twill_schedule_validate(x.g, x.m, x.s, why, sizeof why) == 0, "%s", why);
  return x;
}

static void fx_free(fx *x) {
  twill_schedule_free(x->s);
  twill_graph_free(x->g);
  twill_arch_free(x->m);
}

/* Emit into a string; rc and why as twill_emit_cuda_complete returns them. */
static char *complete_str(const fx *x, int *rc, char *why, size_t n, int *line) {
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(mf);
  twill_emit_opts o = {false, NULL, NULL, NULL};
  *rc = twill_emit_cuda_complete(x->g, x->m, x->s, &o, mf, why, n, line);
  fclose(mf);
  return buf;
}

static void has(const char *text, const char *needle) {
  ck_assert_msg(strstr(text, needle) != NULL, "missing: %.300s", needle);
}
static void hasnt(const char *text, const char *needle) {
  ck_assert_msg(strstr(text, needle) == NULL, "unexpected: %.300s", needle);
}

START_TEST(structure_from_schedule) {
  fx x = gemm_fx(512);
  int rc, line;
  char why[512] = "";
  char *out = complete_str(&x, &rc, why, sizeof why, &line);
  ck_assert_msg(rc == 0, "%s", why);
  has(out, "constexpr int kBM = 128, kBN = 128, kBK = 64;\n");
  has(out, "constexpr int kStages = 4;\n");
  has(out, "constexpr int kThreads = 256;");
  has(out, "constexpr int kII = 512, kLength = 513, kCopies = 2;");
  /* one branch per warpgroup: its budget, then its roles */
  has(out, "  if (wg == 0) {\n    setmaxnreg_dec<24>();\n"
           "    if (warp >= 0 && warp < 1) role_0(");
  has(out, "} else if (wg == 1) {\n    setmaxnreg_dec<240>();\n"
           "    if (warp >= 4 && warp < 8) role_1(");
  /* the loads on warp 0's lane 0, the MMA on the warpgroup, release on w7 */
  has(out, "      if (warp == 0 && lane == 0) op_loadA(ss, tm_loadA, base + (i + 1), "
           "i + 1, tm * kBM);\n");
  has(out, "      if (warp == 0 && lane == 0) op_loadB(ss, tm_loadB, base + (i + 1), "
           "i + 1, tn * kBN);\n");
  has(out, "    op_mma(ss, acc, base + (0));\n");
  has(out, "      op_mma(ss, acc, base + (i + 1));\n"
           "      // cycle 512: release, iteration i + 0, stage 1, slot 0, warp w7\n"
           "      op_release<1>(ss, base + (i + 0), warp == 3 && lane == 0);\n");
  has(out, "    op_release<0>(ss, base + (n - 1), warp == 3 && lane == 0);\n");
  /* the wgmma of a 128-column tile: 64 accumulators, then the descriptors */
  has(out, "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {");
  has(out, "%56, %57, %58, %59, %60, %61, %62, %63\"\n      \"}, %64, %65, p, 1, 1, 0, 0;");
  hasnt(out, "%66, %67");
  has(out, "mbar_arrive_expect_tx(&ss.full_loadA[s], kBytes_loadA);");
  has(out, "tma_load_2d(&ss.tile_loadA[s][0], tm, &ss.full_loadA[s], k_it * kBK, row0);");
  free(out);
  fx_free(&x);
}
END_TEST

START_TEST(wait_counts_follow_the_schedule) {
  fx x = gemm_fx(1024);
  int rc, line;
  char why[512] = "";
  char *out = complete_str(&x, &rc, why, sizeof why, &line);
  ck_assert_msg(rc == 0, "%s", why);
  has(out, "constexpr int kII = 512, kLength = 1025, kCopies = 3;");
  has(out, "constexpr int kStages = 4;\n");
  has(out, "      op_release<2>(ss, base + (i + 0), warp == 3 && lane == 0);\n");
  has(out, "    op_release<1>(ss, base + (n - 2), warp == 3 && lane == 0);\n");
  has(out, "    op_release<0>(ss, base + (n - 1), warp == 3 && lane == 0);\n");
  free(out);
  fx_free(&x);
}
END_TEST

/* The tile ops and the harness are inlined byte for byte, and the whole
 * output is the same bytes every time. */
START_TEST(inlines_the_headers) {
  fx x = gemm_fx(512);
  int rc, line;
  char why[512] = "";
  char *out = complete_str(&x, &rc, why, sizeof why, &line);
  ck_assert_int_eq(rc, 0);
  const char *files[2] = {"codegen/tileops_sm90.cuh", "codegen/gemm_host.cuh"};
  for (int k = 0; k < 2; k++) {
    char *p = tu_src_path(files[k]);
    size_t n;
    char *text = tu_read_file(p, &n);
    ck_assert_msg(text != NULL, "cannot read %s", p);
    ck_assert_msg(n > 1000, "%s too short", p);
    has(out, text);
    free(text);
    free(p);
  }
  char *again = complete_str(&x, &rc, why, sizeof why, &line);
  ck_assert_str_eq(out, again);
  free(again);
  free(out);
  fx_free(&x);
}
END_TEST

/* What is not a GEMM main loop is refused with the reason and the line. */
START_TEST(refuses_other_shapes) {
  /* release outside the MMA's warpgroup (the heuristic's choice, w3) */
  fx x = gemm_fx(512);
  x.s->warp[twill_graph_find_op(x.g, "release")] = 3;
  int rc, line;
  char why[512] = "";
  char *out = complete_str(&x, &rc, why, sizeof why, &line);
  ck_assert_int_eq(rc, -2);
  has(why, "the release 'release' runs on warp 3, outside the MMA's warpgroup");
  ck_assert_int_eq(line, 20); /* op release, kernels/gemm-hopper.twill */
  free(out);
  fx_free(&x);
  /* fig1: no warpgroup op */
  const char *a1[] = {"emit", "fig1", "--format", "cuda", "--complete", NULL};
  char *o = NULL, *e = NULL;
  ck_assert_int_eq(tu_run_twill(&o, &e, a1), 1);
  has(e, "no warpgroup-issued op (the MMA)");
  ck_assert_str_eq(o, "");
  free(o);
  free(e);
  const char *a2[] = {"emit", "gemm-hopper", "--format", "pseudocode", "--complete", NULL};
  ck_assert_int_eq(tu_run_twill(&o, &e, a2), 1);
  has(e, "--complete goes with --format cuda");
  free(o);
  free(e);
}
END_TEST

/* A kernel file with loadA's line replaced: the message names the file and
 * the line of the op it is about (kernels/gemm-hopper.twill: loadA 17, mma
 * 19). */
static void refuse_file(const char *smem_line, int line, const char *msg) {
  const char *base = twill_builtin_kernel("gemm-hopper");
  char path[] = "/tmp/twill_gemm_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  for (const char *p = base; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p + 1) : strlen(p);
    if (!strncmp(p, "op loadA ", 9)) fputs(smem_line, f);
    else fwrite(p, 1, n, f);
    p += n;
  }
  fclose(f);
  const char *a[] = {"emit", path, "--format", "cuda", "--complete", NULL};
  char *o = NULL, *e = NULL;
  ck_assert_int_eq(tu_run_twill(&o, &e, a), 1);
  char want[256];
  snprintf(want, sizeof want, "%s:%d:1: --complete: %s", path, line, msg);
  has(e, want);
  ck_assert_str_eq(o, "");
  free(o);
  free(e);
  unlink(path);
}

START_TEST(refuses_with_file_line) {
  /* 16100 = 125 rows of 128 bytes + 100 */
  refuse_file("op loadA lat 0 issue thread varlat yes smem 16100\n",
              17, "smem of 'loadA' is not a whole number of 128-byte rows");
  /* 16000 = 125 rows: not a multiple of wgmma's 64 */
  refuse_file("op loadA lat 0 issue thread varlat yes smem 16000\n",
              17, "A's tile has 125 rows; wgmma takes 64 at a time");
  /* 8192 = 64 rows: a legal tile, but then BM*BN/128 = 64 registers, not
   * the 128 the MMA declares */
  refuse_file("op loadA lat 0 issue thread varlat yes smem 8192\n",
              19, "the MMA 'mma' holds 128 registers per thread; a 8192-element");
}
END_TEST

/* End to end: the program solves gemm-hopper (Algorithm 1) and writes the
 * kernel; the register budgets are those of the solve's machine (240 per
 * MMA thread, >= the 128 registers its warpgroup needs). */
START_TEST(cli_complete_uses_the_solve) {
  const char *a[] = {"emit", "gemm-hopper", "--format", "cuda", "--complete", NULL};
  char *o = NULL, *e = NULL;
  ck_assert_int_eq(tu_run_twill(&o, &e, a), 0);
  has(o, "// schedule from twill solve (Algorithm 1");
  /* real cycles: the solve's I = 2, L = 3 normalized, 256 cycles each
   * (the mapping 1 -> 0, 256 -> 1, 512 -> 2 derived in test_units.c) */
  has(o, "// real cycles: solved on normalized costs (budget 300, error 2); "
         "1 normalized cycle = 256 cycles\n");
  has(o, "// I = 512, L = 768, copies C = ceil(L/I) = 2");
  has(o, "constexpr int kII = 512, kLength = 768, kCopies = 2;");
  has(o, "constexpr int kStages = 4;\n");
  has(o, "      op_release<1>(ss, base + (i + 0), warp == 3 && lane == 0);\n");
  const char *s[] = {"solve", "gemm-hopper", NULL};
  char *so = NULL, *se = NULL;
  ck_assert_int_eq(tu_run_twill(&so, &se, s), 0);
  has(so, "240 regs/thread");
  has(so, "warpgroup 1 (warps 4-7, 128 regs/thread needed): mma release@w7");
  has(o, "setmaxnreg_dec<240>();");
  has(o, "setmaxnreg_dec<24>();");
  /* -o FILE: the same bytes */
  char path[] = "/tmp/twill_gemm_cu_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  const char *b[] = {"emit", "gemm-hopper", "--format", "cuda", "--complete", "-o", path, NULL};
  char *o2 = NULL, *e2 = NULL;
  ck_assert_int_eq(tu_run_twill(&o2, &e2, b), 0);
  size_t n;
  char *file = tu_read_file(path, &n);
  ck_assert_ptr_nonnull(file);
  ck_assert_str_eq(file, o);
  free(file);
  unlink(path);
  free(o2);
  free(e2);
  free(so);
  free(se);
  free(o);
  free(e);
}
END_TEST

/* With nvcc: compiles as users build it, -arch=sm_90a (whose plain
 * compute_90 pass sees no wgmma or setmaxnreg), and with -gencode; ptxas
 * spills nothing and keeps the setmaxnreg budgets (it reports C7507 when it
 * must ignore them). */
static void compile_complete(const char *flags, const char *tag) {
  fx x = gemm_fx(512);
  int rc, line;
  char why[512] = "";
  char *out = complete_str(&x, &rc, why, sizeof why, &line);
  ck_assert_int_eq(rc, 0);
  char *log = NULL;
  int r = tu_nvcc_compile(out, tag, flags, &log);
  ck_assert_int_ge(r, 0);
  if (r == 0) {
    ck_assert_ptr_nonnull(log);
    has(log, "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads");
    hasnt(log, "C7507");
  }
  free(log);
  free(out);
  fx_free(&x);
}

START_TEST(compiles_arch_sm90a) {
  compile_complete("-O3 -arch=sm_90a -Werror all-warnings -Xptxas -v", "complete -arch");
}
END_TEST

START_TEST(compiles_gencode) {
  compile_complete("-O3 -gencode=arch=compute_90a,code=sm_90a -Werror all-warnings -Xptxas -v",
                   "complete -gencode");
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("cuda_gemm");
  TCase *t = tcase_create("text");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, structure_from_schedule);
  tcase_add_test(t, wait_counts_follow_the_schedule);
  tcase_add_test(t, inlines_the_headers);
  tcase_add_test(t, refuses_other_shapes);
  tcase_add_test(t, refuses_with_file_line);
  tcase_add_test(t, cli_complete_uses_the_solve);
  suite_add_tcase(s, t);
  TCase *c = tcase_create("nvcc");
  tcase_set_timeout(c, 180);
  tcase_add_test(c, compiles_arch_sm90a);
  tcase_add_test(c, compiles_gencode);
  suite_add_tcase(s, c);
  return s;
}

TWILL_CHECK_MAIN
