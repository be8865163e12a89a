/* tests/test_umbrella.c: the umbrella header compiles on its own (every
 * public header includes what it needs) and a program can use the library
 * through it alone: a built-in kernel loaded and its bounds computed. */
#include "check_main.h"
#include "twill.h"

START_TEST(umbrella_is_enough) {
  twill_graph *g = NULL;
  twill_arch *m = NULL;
  twill_diag d;
  ck_assert_int_eq(twill_kernel_load("fig1", NULL, &g, &m, &d), 0);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  /* fig1: ResMII(TC) = ceil((1 + 1) / 1) = 2 (S and O each hold TC one
   * cycle), RecMII = 1 (O -> O, latency 1, distance 1): MII = 2 */
  ck_assert_int_eq(b.mii, 2);
  twill_bounds_clear(&b);
  twill_graph_free(g);
  twill_arch_free(m);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("umbrella");
  TCase *tc = tcase_create("umbrella");
  tcase_add_test(tc, umbrella_is_enough);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
