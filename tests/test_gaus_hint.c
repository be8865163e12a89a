/* tests/test_gaus_hint.c: the GauS schedule offered to the exact search
 * (core/gaus/gaus_hint.c, the hook in twill_modulo_solve): it is legal, it never
 * beats a proven I*, and the proven answers of `modulo` and `solve` are the
 * same with and without it (gaus_min_ops 1: on every kernel; 0: off). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/arch.h"
#include "twill/kernel.h"
#include "twill/gaus.h"
#include "twill/joint.h"
#include "twill/modulo.h"
#include "twill/normalize.h"

/* A kernel as `twill modulo` solves it: loaded, bound, normalized with
 * budget 300 (or left raw). */
static twill_graph *load(const char *name, int normalize, twill_arch **m) {
  twill_graph *g0 = NULL;
  ck_assert_int_eq(tu_load_kernel(name, NULL, &g0, m), 0);
  if (!normalize) return g0;
  twill_norm nm;
  memset(&nm, 0, sizeof nm);
  twill_graph *g = twill_normalize_graph(g0, 300, 0, &nm);
  ck_assert_ptr_nonnull(g);
  twill_norm_clear(&nm);
  twill_graph_free(g0);
  return g;
}

static void solve_skip(const twill_graph *g, long gaus_min_ops, long node_limit,
                       int skip_length, twill_modulo_result *r) {
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.gaus_min_ops = gaus_min_ops;
  o.node_limit = node_limit;
  o.skip_length = skip_length;
  ck_assert_int_eq(twill_modulo_solve(g, &o, r), 0);
}

static void solve(const twill_graph *g, long gaus_min_ops, long node_limit,
                  twill_modulo_result *r) {
  solve_skip(g, gaus_min_ops, node_limit, 0, r);
}

/* Both runs prove (I*, L*) and agree on them and on the bounds. */
static void same_answers(const char *what, const twill_graph *g) {
  twill_modulo_result off, on;
  solve(g, 0, 0, &off);
  solve(g, 1, 0, &on);
  ck_assert_msg(off.status == TWILL_MODULO_OPTIMAL && on.status == TWILL_MODULO_OPTIMAL,
                "%s: status %d / %d", what, off.status, on.status);
  ck_assert_msg(off.ii == on.ii && off.length == on.length,
                "%s: (I, L) = (%ld, %ld) without the hook, (%ld, %ld) with it",
                what, off.ii, off.length, on.ii, on.length);
  ck_assert_int_eq(off.ii_lower, on.ii_lower);
  ck_assert_int_eq(off.length_lower, on.length_lower);
  ck_assert(on.heuristic_ii <= off.heuristic_ii); /* taken only when better */
  /* the hint itself: legal, and no better than the proven I* */
  twill_schedule *h = twill_gaus_hint(g);
  ck_assert_ptr_nonnull(h);
  char why[300];
  ck_assert_msg(twill_schedule_validate(g, NULL, h, why, sizeof why) == 0, "%s: %s",
                what, why);
  ck_assert_int_ge(h->ii, off.ii);
  twill_schedule_free(h);
  twill_modulo_result_clear(&off);
  twill_modulo_result_clear(&on);
}

/* Every built-in kernel but fa4-bwd-blackwell (14 s of CPU per proof;
 * bench/gaus_exact.sh covers it), normalized as `twill modulo` runs them. */
START_TEST(builtins_same_answers) {
  const char *names[] = {"fig1", "dragon", "gemm-hopper", "fa3-fwd-hopper",
                         "fa3-bwd-hopper", "fa4-fwd-blackwell",
                         "fa4-fwd-nosub-blackwell"};
  int n = tu_under_valgrind() ? 3 : (int)(sizeof names / sizeof *names);
  for (int k = 0; k < n; k++) {
    twill_arch *m = NULL;
    twill_graph *g = load(names[k], 1, &m);
    same_answers(names[k], g);
    twill_graph_free(g);
    twill_arch_free(m);
  }
}
END_TEST

/* Random loops (twill random's family of bench/modulo.sh: 3 units, two-
 * offset reservations, back edges), small enough to be proven. */
START_TEST(random_same_answers) {
  int n = tu_under_valgrind() ? 3 : 12;
  for (int k = 0; k < n; k++) {
    twill_random_opts ro;
    twill_random_opts_default(&ro);
    ro.nodes = 4 + k;
    ro.units = 3;
    ro.gaps = true;
    ro.back_edges = 0.15;
    ro.density = 0.15;
    ro.max_lat = 6;
    ro.seed = 100 + (unsigned long long)k;
    twill_graph *g = twill_graph_random(&ro);
    ck_assert_ptr_nonnull(g);
    twill_diag d;
    ck_assert_int_eq(twill_graph_validate(g, &d), 0);
    ck_assert_int_eq(twill_graph_bind(g, NULL, &d), 0);
    char what[64];
    snprintf(what, sizeof what, "random %d ops seed %d", 4 + k, 100 + k);
    same_answers(what, g);
    twill_graph_free(g);
  }
}
END_TEST

/* `twill random --nodes 32 --units 3 --gaps --back-edges 0.15 --density
 * 0.15 --max-lat 6 --seed 32`: ResMII 30 (unit u1 busy 30 cycles at
 * capacity 1, `twill bounds`), Rau's IMS finds I = 31, GauS-C a schedule
 * at 30, the lower bound.  Since phase 1's engines (issue 29) the search
 * starts at the MII and the heuristic runs only when the engines end at a
 * limit without a schedule: the race proves I* = 30 with or without the
 * hook; and when the ILP alone stops after one branch-and-bound node at
 * I = 30 with no schedule, the answer of last resort is IMS's at 31
 * without the hook and GauS's at 30 with it, where I* is then proven by
 * the bound and that schedule (ii_lower = ii = 30; L stays open). */
START_TEST(hook_proves_istar_at_the_bound) {
  twill_random_opts ro;
  twill_random_opts_default(&ro);
  ro.nodes = 32;
  ro.units = 3;
  ro.gaps = true;
  ro.back_edges = 0.15;
  ro.density = 0.15;
  ro.max_lat = 6;
  ro.seed = 32;
  twill_graph *g = twill_graph_random(&ro);
  twill_diag d;
  ck_assert_int_eq(twill_graph_validate(g, &d), 0);
  ck_assert_int_eq(twill_graph_bind(g, NULL, &d), 0);
  twill_modulo_result off, on;
  solve(g, 0, 0, &off);
  solve(g, 1, 0, &on);
  ck_assert_int_eq(off.mii, 30);
  ck_assert_int_eq(off.ii, 30);
  ck_assert_int_eq(on.ii, 30);
  ck_assert_int_eq(off.heuristic_ii, 0); /* the engines found the schedule */
  twill_modulo_result_clear(&off);
  twill_modulo_result_clear(&on);
  for (int hook = 0; hook <= 1; hook++) {
    twill_modulo_opts o;
    twill_modulo_opts_default(&o);
    o.gaus_min_ops = hook;
    o.node_limit = 1;
    o.engines = TWILL_MODULO_ENGINE_ILP;
    twill_modulo_result r;
    ck_assert_int_eq(twill_modulo_solve(g, &o, &r), 0);
    ck_assert_int_eq(r.status, TWILL_MODULO_LIMIT);
    ck_assert_int_eq(r.ii_lower, 30);
    ck_assert_int_eq(r.heuristic_ii, hook ? 30 : 31);
    ck_assert_int_eq(r.ii, hook ? 30 : 31);
    char why[300];
    ck_assert_msg(twill_schedule_validate(g, NULL, r.sched, why, sizeof why) == 0, "%s", why);
    twill_modulo_result_clear(&r);
  }
  twill_graph_free(g);
}
END_TEST

/* twill solve (Algorithm 1; phase 1 with skip_length, where the hook only
 * starts programs and never replaces the heuristic whose L sets the
 * copies): the same answer with and without it on the built-ins that
 * solve in about a second. */
START_TEST(solve_same_answers) {
  const char *names[] = {"fig1", "dragon", "gemm-hopper", "fa3-fwd-hopper",
                         "fa3-bwd-hopper", "fa4-fwd-blackwell"};
  int n = tu_under_valgrind() ? 2 : (int)(sizeof names / sizeof *names);
  for (int k = 0; k < n; k++) {
    twill_arch *m = NULL;
    twill_graph *g = load(names[k], 0, &m);
    twill_joint_params p;
    twill_joint_params_default(&p, m);
    twill_solve_result r[2];
    for (int h = 0; h < 2; h++) {
      twill_solve_opts o;
      twill_solve_opts_default(&o);
      o.time_limit = 60;
      o.gaus_min_ops = h;
      ck_assert_int_eq(twill_solve(g, m, &p, &o, &r[h]), 0);
    }
    ck_assert_msg(r[0].status == 0 && r[1].status == 0, "%s: status %d / %d",
                  names[k], r[0].status, r[1].status);
    ck_assert_msg(r[0].ii == r[1].ii && r[0].length == r[1].length,
                  "%s: (%ld, %ld) / (%ld, %ld)", names[k], r[0].ii, r[0].length,
                  r[1].ii, r[1].length);
    ck_assert_int_eq(r[0].phase1_ii, r[1].phase1_ii);
    ck_assert_int_eq(r[0].phase1_length, r[1].phase1_length);
    twill_solve_result_clear(&r[0]);
    twill_solve_result_clear(&r[1]);
    twill_graph_free(g);
    twill_arch_free(m);
  }
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("gaus_hint");
  TCase *tc = tcase_create("hook");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, builtins_same_answers);
  tcase_add_test(tc, random_same_answers);
  tcase_add_test(tc, hook_proves_istar_at_the_bound);
  tcase_add_test(tc, solve_same_answers);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
