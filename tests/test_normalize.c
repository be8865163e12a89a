/* tests/test_normalize.c: the normalization program (docs/model.md
 * section 2). */
#include "check_main.h"
#include "testutil.h"
#include "twill/kernel.h"
#include "twill/normalize.h"

/* [1000, 333] -> [3, 1], F = |1000*1 - 333*3| = 1 (by hand). */
START_TEST(paper_example_1000_333) {
  long c[] = {1000, 333};
  twill_norm nm;
  ck_assert_int_eq(twill_normalize_costs(c, 2, 300, 0, &nm), 0);
  ck_assert_int_eq(nm.F, 1);
  ck_assert_int_eq(twill_norm_map(&nm, 1000), 3);
  ck_assert_int_eq(twill_norm_map(&nm, 333), 1);
  twill_norm_clear(&nm);
}
END_TEST

/* [1000, 1000, 500] -> [2, 2, 1], F = 0; every multiple also has F = 0 and
 * the tie-break (least sum) picks the smallest. */
START_TEST(paper_example_exact_ratio) {
  long c[] = {1000, 1000, 500};
  twill_norm nm;
  ck_assert_int_eq(twill_normalize_costs(c, 3, 300, 0, &nm), 0);
  ck_assert_int_eq(nm.F, 0);
  ck_assert_int_eq(nm.n, 2);
  ck_assert_int_eq(twill_norm_map(&nm, 1000), 2);
  ck_assert_int_eq(twill_norm_map(&nm, 500), 1);
  ck_assert_int_eq(nm.sum, 3);
  twill_norm_clear(&nm);
}
END_TEST

/* The budget always holds, and a brute force over all vectors with
 * 1 <= sum <= U agrees on F for small U. */
START_TEST(budget_and_brute_force) {
  long c[] = {7, 5, 3};
  for (long U = 3; U <= 20; U++) {
    twill_norm nm;
    ck_assert_int_eq(twill_normalize_costs(c, 3, U, 0, &nm), 0);
    ck_assert_int_le(nm.sum, U);
    long best = -1;
    for (long a = 0; a <= U; a++)
      for (long b = 0; a + b <= U; b++)
        for (long d = 0; a + b + d <= U; d++) {
          if (a + b + d == 0) continue;
          /* costs ascending: 3 -> a, 5 -> b, 7 -> d */
          long f1 = labs(3 * b - 5 * a), f2 = labs(3 * d - 7 * a),
               f3 = labs(5 * d - 7 * b);
          long f = f1 > f2 ? f1 : f2;
          if (f3 > f) f = f3;
          if (best < 0 || f < best) best = f;
        }
    ck_assert_msg(nm.F == best, "U %ld: F %ld, brute force %ld", U, nm.F, best);
    twill_norm_clear(&nm);
  }
}
END_TEST

/* fa3-fwd-hopper's costs 512, 192, 64 have exact ratios 8 : 3 : 1. */
START_TEST(fa3_kernel_normalizes_exactly) {
  twill_graph *g;
  twill_arch *m;
  ck_assert_int_eq(tu_load_kernel("fa3-fwd-hopper", NULL, &g, &m), 0);
  twill_norm nm;
  twill_graph *h = twill_normalize_graph(g, 300, 0, &nm);
  ck_assert_ptr_nonnull(h);
  ck_assert_int_eq(nm.F, 0);
  ck_assert_int_eq(twill_norm_map(&nm, 512), 8);
  ck_assert_int_eq(twill_norm_map(&nm, 192), 3);
  ck_assert_int_eq(twill_norm_map(&nm, 64), 1);
  ck_assert_int_eq(h->ops[twill_graph_find_op(h, "S_0")].uses[0].cycles, 8);
  twill_norm_clear(&nm);
  twill_graph_free(h);
  twill_graph_free(g);
  twill_arch_free(m);
}
END_TEST

/* A tiny cost beside a large one normalizes to 0 (the paper's program):
 * [512, 1] -> [1, 0] with F = |512*0 - 1*1| = 1, where forcing 1 would give
 * [299, 1] and F = 213. */
START_TEST(tiny_cost_goes_to_zero) {
  long c[] = {512, 1};
  twill_norm nm;
  ck_assert_int_eq(twill_normalize_costs(c, 2, 300, 0, &nm), 0);
  ck_assert_int_eq(nm.F, 1);
  ck_assert_int_eq(twill_norm_map(&nm, 512), 1);
  ck_assert_int_eq(twill_norm_map(&nm, 1), 0);
  twill_norm_clear(&nm);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("normalize");
  TCase *tc = tcase_create("normalize");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, paper_example_1000_333);
  tcase_add_test(tc, paper_example_exact_ratio);
  tcase_add_test(tc, budget_and_brute_force);
  tcase_add_test(tc, fa3_kernel_normalizes_exactly);
  tcase_add_test(tc, tiny_cost_goes_to_zero);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
