/* tests/test_kernels.c: every built-in kernel loads, validates, binds to
 * its machine, and its bounds equal the hand derivation written in its
 * .twill file (restated here with the arithmetic). */
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/bounds.h"
#include "twill/builtin.h"
#include "twill/kernel.h"

typedef struct expect {
  const char *name;
  const char *arch;
  long res_mii, rec_mii, mii;
  const char *units[4]; /* unit name, then its ceil(busy/cap) below */
  long unit_mii[4];
  long cycle_lat, cycle_dist;
} expect;

static const expect kernels[] = {
    /* TC: S 1 + O 1 = 2; EXP: P 1; O->O 1/1 */
    {"fig1", "hopper", 2, 1, 2, {"TC", "EXP"}, {2, 1}, 1, 1},
    /* u0: a + c + d = 3; u1: b + d = 2; cycles 1/3 -> 1 */
    {"dragon", "hopper", 3, 1, 3, {"u0", "u1"}, {3, 2}, 1, 3},
    /* TC: one 128x128x64 wgmma = 2*128*128*64/4096 = 512; mma->mma 512/1 */
    {"gemm-hopper", "hopper", 512, 512, 512, {"TC"}, {512}, 512, 1},
    /* TC 4 x 512 = 2048; EXP 2 x 512; FMA 2 x (192+64+64) = 640;
     * PV->rescale->PV (512 + 64)/1 = 576 */
    {"fa3-fwd-hopper", "hopper", 2048, 576, 2048,
     {"TC", "FMA", "EXP"}, {2048, 640, 1024}, 576, 1},
    /* TC 4 x 512 = 2048; EXP 2 x 1024 = 2048; FMA 2 x (384+128+128) = 1280;
     * PV->ldO->rescale->stO->PV: 512 + 64 + 128 + 64 = 768 */
    {"fa4-fwd-blackwell", "blackwell", 2048, 768, 2048,
     {"TC", "FMA", "EXP"}, {2048, 1280, 2048}, 768, 1},
    /* the same without sub-tiling: TC 2 x 1024 = 2048; EXP 32768/16 =
     * 2048; FMA 768 + 256 + 256 = 1280; PV->ldO->rescale->stO->PV:
     * 1024 + 64 + 256 + 64 = 1408 */
    {"fa4-fwd-nosub-blackwell", "blackwell", 2048, 1408, 2048,
     {"TC", "FMA", "EXP"}, {2048, 1280, 2048}, 1408, 1},
    /* TC 5 x 512 = 2560; EXP 8192/16 = 512; FMA 8192*2/128 = 128;
     * dV->dV and dK->dK 512/1 */
    {"fa3-bwd-hopper", "hopper", 2560, 512, 2560,
     {"TC", "EXP", "FMA"}, {2560, 512, 128}, 512, 1},
    /* TC 5 x 512 = 2560; EXP 16384/16 = 1024; FMA 16384*2/128 = 256 */
    {"fa4-bwd-blackwell", "blackwell", 2560, 512, 2560,
     {"TC", "EXP", "FMA"}, {2560, 1024, 256}, 512, 1},
};

START_TEST(every_kernel_matches_its_hand_derivation) {
  int n = 0;
  for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++) n++;
  ck_assert_int_eq(n, (int)(sizeof kernels / sizeof *kernels));
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
    const expect *e = &kernels[i];
    twill_graph *g;
    twill_arch *m;
    ck_assert_msg(tu_load_kernel(e->name, NULL, &g, &m) == 0, "%s",
                  e->name);
    ck_assert_str_eq(g->name, e->name);
    ck_assert_str_eq(m->name, e->arch);
    twill_bounds b;
    ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
    ck_assert_msg(b.res_mii == e->res_mii, "%s res %ld", e->name, b.res_mii);
    ck_assert_msg(b.rec_mii == e->rec_mii, "%s rec %ld", e->name, b.rec_mii);
    ck_assert_msg(b.mii == e->mii, "%s mii %ld", e->name, b.mii);
    ck_assert_int_eq(b.cycle_lat, e->cycle_lat);
    ck_assert_int_eq(b.cycle_dist, e->cycle_dist);
    for (int u = 0; u < 4 && e->units[u]; u++) {
      int idx = twill_graph_find_unit(g, e->units[u]);
      ck_assert_msg(idx >= 0, "%s lacks unit %s", e->name, e->units[u]);
      ck_assert_msg(b.unit_mii[idx] == e->unit_mii[u], "%s unit %s: %ld",
                    e->name, e->units[u], b.unit_mii[idx]);
    }
    twill_bounds_clear(&b);
    twill_graph_free(g);
    twill_arch_free(m);
  }
}
END_TEST

/* The kernels keep the structure their header comments describe. */
START_TEST(kernel_structure) {
  twill_graph *g;
  twill_arch *m;
  ck_assert_int_eq(tu_load_kernel("fa3-fwd-hopper", NULL, &g, &m), 0);
  int loads = 0, wg = 0;
  for (int v = 0; v < g->nops; v++) {
    if (g->ops[v].varlat) {
      loads++;
      ck_assert_int_eq(g->ops[v].lat, 0); /* streaming: cost 0 */
    }
    if (g->ops[v].issue == TWILL_ISSUE_WARPGROUP) wg++;
  }
  ck_assert_int_eq(loads, 2);
  ck_assert_int_eq(wg, 12); /* 6 ops per sub-tile, all by a warpgroup */
  twill_graph_free(g);
  twill_arch_free(m);
  ck_assert_int_eq(tu_load_kernel("fa4-fwd-blackwell", NULL, &g, &m),
                   0);
  int blocking = 0;
  for (int i = 0; i < g->nedges; i++) blocking += g->edges[i].blocking;
  ck_assert_int_eq(blocking, 8); /* ldS, PV (from stP), ldO, PV (from stO) x 2 */
  ck_assert_int_eq(g->ops[twill_graph_find_op(g, "S_0")].issue,
                   TWILL_ISSUE_THREAD);
  twill_graph_free(g);
  twill_arch_free(m);
}
END_TEST

static int run(char **out, char **err, const char *const *args) {
  return tu_run_twill(out, err, args);
}

START_TEST(bounds_command_prints_reasons) {
  char *out, *err;
  const char *a[] = {"bounds", "fa3-fwd-hopper", NULL};
  ck_assert_int_eq(run(&out, &err, a), 0);
  ck_assert_ptr_nonnull(strstr(out, "ResMII 2048: unit TC is busy 2048 cycles "
                                    "per iteration with capacity 1"));
  ck_assert_ptr_nonnull(strstr(out, "RecMII 576: critical cycle, latency 576 "
                                    "over distance 1"));
  ck_assert_ptr_nonnull(strstr(out, "MII 2048 (resource-bound)"));
  free(out);
  free(err);
  const char *j[] = {"bounds", "fig1", "--json", NULL};
  ck_assert_int_eq(run(&out, &err, j), 0);
  ck_assert_ptr_nonnull(strstr(out, "\"mii\": 2"));
  ck_assert_ptr_nonnull(strstr(out, "\"saturated_units\": [\n    \"TC\"\n  ]"));
  free(out);
  free(err);
}
END_TEST

START_TEST(kernels_command_lists_all) {
  char *out, *err;
  const char *a[] = {"kernels", NULL};
  ck_assert_int_eq(run(&out, &err, a), 0);
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    ck_assert_ptr_nonnull(strstr(out, kernels[i].name));
  int lines = 0;
  for (char *p = out; *p; p++) lines += *p == '\n';
  ck_assert_int_eq(lines, (int)(sizeof kernels / sizeof *kernels));
  free(out);
  free(err);
}
END_TEST

START_TEST(bad_kernel_and_arch_are_reported) {
  char *out, *err;
  const char *a[] = {"bounds", "no-such-kernel", NULL};
  ck_assert_int_eq(run(&out, &err, a), 1);
  ck_assert_ptr_nonnull(strstr(err, "no-such-kernel: not a built-in kernel"));
  free(out);
  free(err);
  const char *b[] = {"bounds", "fig1", "--arch", "volta", NULL};
  ck_assert_int_eq(run(&out, &err, b), 1);
  ck_assert_str_eq(err, "twill bounds: --arch: unknown machine 'volta' (known: "
                        "hopper, blackwell)\n");
  free(out);
  free(err);
  /* a kernel whose unit the machine lacks */
  const char *c[] = {"bounds", "dragon", "--arch", "blackwell", NULL};
  ck_assert_int_eq(run(&out, &err, c), 0); /* dragon declares its units */
  free(out);
  free(err);
  const char *d[] = {"random", "--nodes", "x", NULL};
  ck_assert_int_eq(run(&out, &err, d), 1);
  ck_assert_str_eq(err, "twill random: --nodes expects an integer in "
                        "[1, 1000000], got 'x'\n");
  free(out);
  free(err);
}
END_TEST

START_TEST(random_command_is_deterministic) {
  char *o1, *o2, *e;
  const char *a[] = {"random", "--nodes", "12", "--seed", "7",
                     "--back-edges", "0.3", NULL};
  ck_assert_int_eq(run(&o1, &e, a), 0);
  free(e);
  ck_assert_int_eq(run(&o2, &e, a), 0);
  free(e);
  ck_assert_str_eq(o1, o2);
  ck_assert_ptr_nonnull(strstr(o1, "kernel "));
  free(o1);
  free(o2);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("kernels");
  TCase *tc = tcase_create("builtin");
  tcase_add_test(tc, every_kernel_matches_its_hand_derivation);
  tcase_add_test(tc, kernel_structure);
  tcase_add_test(tc, bounds_command_prints_reasons);
  tcase_add_test(tc, kernels_command_lists_all);
  tcase_add_test(tc, bad_kernel_and_arch_are_reported);
  tcase_add_test(tc, random_command_is_deterministic);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
