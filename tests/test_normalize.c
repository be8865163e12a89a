/* tests/test_normalize.c: the normalization program (docs/model.md
 * section 2). */
#include <string.h>

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

/* The scale users see and the rounding of every printed time, by hand:
 * k = largest cost / its value, reduced (512 -> 2: 256/1; 1001 -> 47:
 * 1001/47, coprime since 47 is prime and 1001 = 7 x 11 x 13); a time t
 * prints as round(t k), halves up: 1 x 3/2 = 1.5 -> 2, 5 x 1001/47 =
 * 106.49 -> 106, 75 x 1001/47 = 1597.34 -> 1597; and no overflow where
 * t k is near 2^62 (10^12 x 10^6 / 7 = 142857142857142857.14). */
START_TEST(scale_and_rounding) {
  twill_norm nm;
  char why[128];
  long c1[] = {1, 256, 512}, v1[] = {0, 1, 2};
  ck_assert_int_eq(twill_norm_from_pairs(c1, v1, 3, 300, 2, &nm, why, sizeof why), 0);
  long num, den;
  twill_norm_scale(&nm, &num, &den);
  ck_assert_int_eq(num, 256);
  ck_assert_int_eq(den, 1);
  twill_norm_clear(&nm);
  long c2[] = {1001, 300, 1, 256}, v2[] = {47, 14, 0, 12}; /* any order */
  ck_assert_int_eq(twill_norm_from_pairs(c2, v2, 4, 300, 86, &nm, why, sizeof why), 0);
  ck_assert_int_eq(twill_norm_map(&nm, 300), 14);
  ck_assert_int_eq(twill_norm_map(&nm, 1), 0);
  twill_norm_scale(&nm, &num, &den);
  ck_assert_int_eq(num, 1001);
  ck_assert_int_eq(den, 47);
  twill_norm_clear(&nm);
  twill_norm_scale(NULL, &num, &den);
  ck_assert(num == 1 && den == 1);
  ck_assert_int_eq(twill_norm_real(1, 3, 2), 2);
  ck_assert_int_eq(twill_norm_real(5, 1001, 47), 106);
  ck_assert_int_eq(twill_norm_real(75, 1001, 47), 1597);
  ck_assert_int_eq(twill_norm_real(0, 1001, 47), 0);
  ck_assert_int_eq(twill_norm_real(7, 1, 1), 7);
  ck_assert(twill_norm_real(1000000000000L, 1000000, 7) == 142857142857142857L);
  /* bad pairs: said, not accepted */
  long c3[] = {5, 5}, v3[] = {1, 1};
  ck_assert_int_eq(twill_norm_from_pairs(c3, v3, 2, 300, 0, &nm, why, sizeof why), -1);
  ck_assert_ptr_nonnull(strstr(why, "cost 5 appears twice"));
  long c4[] = {5}, v4[] = {0};
  ck_assert_int_eq(twill_norm_from_pairs(c4, v4, 1, 300, 0, &nm, why, sizeof why), -1);
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
  tcase_add_test(tc, scale_and_rounding);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
