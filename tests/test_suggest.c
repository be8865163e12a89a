/* tests/test_suggest.c: the edit distance behind "did you mean". */
#include <string.h>

#include "check_main.h"
#include "twill/suggest.h"

/* Each distance below is counted by hand from the definition in
 * twill/suggest.h (insert, delete, substitute, swap two adjacent). */
START_TEST(distances_by_hand) {
  /* kitten -> sitten (k/s) -> sittin (e/i) -> sitting (+g): the textbook 3 */
  ck_assert_int_eq(twill_edit_distance("kitten", "sitting", 10), 3);
  /* one swap of the adjacent l, o */
  ck_assert_int_eq(twill_edit_distance("slove", "solve", 10), 1);
  /* "ca" -> "abc": OSA may not edit a swapped pair again, so it is 3
   * (true Damerau-Levenshtein says 2: ca -> ac -> abc) */
  ck_assert_int_eq(twill_edit_distance("ca", "abc", 10), 3);
  ck_assert_int_eq(twill_edit_distance("", "abc", 10), 3);
  ck_assert_int_eq(twill_edit_distance("hoper", "hopper", 10), 1);
  ck_assert_int_eq(twill_edit_distance("same", "same", 10), 0);
  /* over the cap: cap + 1 */
  ck_assert_int_eq(twill_edit_distance("kitten", "sitting", 2), 3);
  ck_assert_int_eq(twill_edit_distance("a", "abcdef", 1), 2);
}
END_TEST

static const char *best_of(const char *word, const char *const *c) {
  twill_suggest s;
  twill_suggest_init(&s, word);
  for (; *c; c++) twill_suggest_add(&s, *c);
  return twill_suggest_best(&s);
}

START_TEST(suggestions) {
  static const char *const cmds[] = {"solve", "bounds", "modulo", "gaus",
                                     "emit", "check", "sat", "smt", NULL};
  ck_assert_str_eq(best_of("slove", cmds), "solve");
  ck_assert_str_eq(best_of("modlo", cmds), "modulo"); /* 5 chars: 1 edit */
  /* "modulus" is 2 edits from "modulo" (u/o, drop s); 7 characters allow
   * only 1 */
  ck_assert_ptr_null(best_of("modulus", cmds));
  ck_assert_ptr_null(best_of("frobnicate", cmds));
  /* "sa" is 1 from "sat" but a 2-letter word allows 1 edit only when it
   * leaves a letter standing: 1 < 2, so offered */
  ck_assert_str_eq(best_of("sa", cmds), "sat");
  /* a 1-letter word is 1 edit from any 1-letter name: never evidence */
  static const char *const one[] = {"o", "x", NULL};
  ck_assert_ptr_null(best_of("q", one));
  /* ties go to the first candidate: "sbt" is 1 from both sat and smt */
  ck_assert_str_eq(best_of("sbt", cmds), "sat");
  static const char *const ks[] = {"fig1", "gemm-hopper", "fa3-fwd-hopper",
                                   "fa3-bwd-hopper", NULL};
  ck_assert_str_eq(best_of("fig2", ks), "fig1");
  ck_assert_str_eq(best_of("fa3-fwd-hoper", ks), "fa3-fwd-hopper");
  /* a unique prefix of 4 or more characters */
  ck_assert_str_eq(best_of("gemm", ks), "gemm-hopper");
  /* "fa3-" is a prefix of two: nothing */
  ck_assert_ptr_null(best_of("fa3-", ks));
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("suggest");
  TCase *tc = tcase_create("suggest");
  tcase_add_test(tc, distances_by_hand);
  tcase_add_test(tc, suggestions);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
