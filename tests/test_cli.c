/* tests/test_cli.c: the twill program's help, version and dispatch. */
#include <string.h>

#include "check_main.h"
#include "testutil.h"

START_TEST(version_prints_and_exits_zero) {
  char *out = NULL, *err = NULL;
  const char *args[] = {"--version", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "twill "));
  free(out);
  free(err);
}
END_TEST

START_TEST(help_lists_every_command) {
  char *out = NULL, *err = NULL;
  const char *args[] = {"help", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 0);
  const char *names[] = {"solve", "bounds", "modulo", "gaus",  "emit",
                         "check", "kernels", "random", "sat", "ilp"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    ck_assert_msg(strstr(out, names[i]), "help lacks %s", names[i]);
  free(out);
  free(err);
}
END_TEST

START_TEST(unknown_command_is_usage_error) {
  char *out = NULL, *err = NULL;
  const char *args[] = {"frobnicate", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 1);
  ck_assert_ptr_nonnull(strstr(err, "unknown command 'frobnicate'"));
  free(out);
  free(err);
}
END_TEST

START_TEST(no_arguments_is_usage_error) {
  char *out = NULL, *err = NULL;
  const char *args[] = {NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 1);
  ck_assert_ptr_nonnull(strstr(err, "usage: twill"));
  free(out);
  free(err);
}
END_TEST

START_TEST(help_of_a_command) {
  char *out = NULL, *err = NULL;
  const char *args[] = {"help", "bounds", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "usage: twill bounds"));
  free(out);
  free(err);
  const char *args2[] = {"bounds", "--help", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args2), 0);
  ck_assert_ptr_nonnull(strstr(out, "usage: twill bounds"));
  free(out);
  free(err);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("cli");
  TCase *tc = tcase_create("dispatch");
  tcase_add_test(tc, version_prints_and_exits_zero);
  tcase_add_test(tc, help_lists_every_command);
  tcase_add_test(tc, unknown_command_is_usage_error);
  tcase_add_test(tc, no_arguments_is_usage_error);
  tcase_add_test(tc, help_of_a_command);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
