/* tests/test_cli.c: the twill program's help, version and dispatch, its
 * error messages and "did you mean" suggestions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"

/* A temporary file holding text; the caller unlinks and frees the path. */
static char *write_tmp(const char *text, const char *suffix) {
  char tmpl[] = "/tmp/twill-cli-XXXXXX";
  int fd = mkstemp(tmpl);
  ck_assert_int_ge(fd, 0);
  close(fd);
  unlink(tmpl);
  size_t n = strlen(tmpl) + strlen(suffix) + 1;
  char *path = malloc(n);
  ck_assert_ptr_nonnull(path);
  snprintf(path, n, "%s%s", tmpl, suffix);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return path;
}

/* Run twill; expect exit status rc and stderr exactly want_err (NULL: any);
 * returns stderr (caller frees). */
static char *expect_err(int rc, const char *want_err, const char *const *args) {
  char *out = NULL, *err = NULL;
  int got = tu_run_twill(&out, &err, args);
  ck_assert_msg(got == rc, "twill %s ...: exit %d, want %d; stderr: %s",
                args[0], got, rc, err);
  if (want_err)
    ck_assert_msg(!strcmp(err, want_err), "twill %s ...: stderr\n%s\nwant\n%s",
                  args[0], err, want_err);
  free(out);
  return err;
}

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

START_TEST(unknown_command_suggests) {
  const char *a[] = {"slove", "fig1", NULL};
  free(expect_err(1, "twill: unknown command 'slove'; did you mean 'solve'? "
                     "(try 'twill help')\n", a));
  const char *b[] = {"help", "modlo", NULL};
  free(expect_err(1, "twill: unknown command 'modlo'; did you mean 'modulo'? "
                     "(try 'twill help')\n", b));
  /* nothing close: no suggestion */
  const char *c[] = {"frobnicate", NULL};
  free(expect_err(1, "twill: unknown command 'frobnicate' (try 'twill help')\n", c));
}
END_TEST

START_TEST(unknown_kernel_suggests) {
  const char *a[] = {"bounds", "fig2", NULL};
  char *err = expect_err(1, NULL, a);
  ck_assert_msg(strstr(err, "fig2: not a built-in kernel") &&
                    strstr(err, "; did you mean 'fig1'?\n"),
                "%s", err);
  free(err);
  const char *b[] = {"modulo", "fa3-fwd-hoper", NULL};
  err = expect_err(1, NULL, b);
  ck_assert_msg(strstr(err, "; did you mean 'fa3-fwd-hopper'?\n"), "%s", err);
  free(err);
  const char *c[] = {"kernels", "--print", "gemm", NULL};
  free(expect_err(1, "twill kernels: no built-in kernel 'gemm'; did you mean "
                     "'gemm-hopper'?\n", c));
  /* a path is not offered a built-in */
  const char *d[] = {"bounds", "/nonexistent/fig2", NULL};
  err = expect_err(1, NULL, d);
  ck_assert_msg(!strstr(err, "did you mean"), "%s", err);
  free(err);
}
END_TEST

/* The machine a kernel file names is reported where the file names it. */
START_TEST(unknown_machine_in_kernel_file) {
  char *k = write_tmp("# a kernel on a misspelt machine\n"
                      "kernel k\n"
                      "arch hoper\n"
                      "op a lat 1\n", ".twill");
  const char *a[] = {"bounds", k, NULL};
  char want[512];
  /* line 3, column 6: "arch " is five characters */
  snprintf(want, sizeof want,
           "%s:3:6: unknown machine 'hoper' (known: hopper, blackwell); "
           "did you mean 'hopper'?\n", k);
  free(expect_err(1, want, a));
  unlink(k);
  free(k);
  /* the JSON form: the position of the string value */
  k = write_tmp("{\"kernel\": \"k\",\n"
                " \"arch\": \"blackwel\",\n"
                " \"ops\": [{\"name\": \"a\", \"lat\": 1}]}\n", ".json");
  const char *b[] = {"validate", k, NULL};
  snprintf(want, sizeof want,
           "%s:2:10: unknown machine 'blackwel' (known: hopper, blackwell); "
           "did you mean 'blackwell'?\n", k);
  free(expect_err(1, want, b));
  unlink(k);
  free(k);
  /* nothing close: the list alone */
  k = write_tmp("kernel k\narch volta\nop a lat 1\n", ".twill");
  const char *c[] = {"bounds", k, NULL};
  snprintf(want, sizeof want,
           "%s:2:6: unknown machine 'volta' (known: hopper, blackwell)\n", k);
  free(expect_err(1, want, c));
  unlink(k);
  free(k);
}
END_TEST

START_TEST(unknown_machine_option) {
  const char *a[] = {"bounds", "fig1", "--arch", "hoper", NULL};
  free(expect_err(1, "twill bounds: --arch: unknown machine 'hoper' (known: "
                     "hopper, blackwell); did you mean 'hopper'?\n", a));
  /* a path that does not exist says why it cannot be opened */
  const char *b[] = {"bounds", "fig1", "--arch", "/nonexistent/m.arch", NULL};
  char *err = expect_err(1, NULL, b);
  ck_assert_msg(strstr(err, "/nonexistent/m.arch: not a built-in machine"), "%s", err);
  free(err);
}
END_TEST

/* An op that keeps its result in tensor memory cannot run on a machine
 * without it: hopper.arch declares smem only (Hopper has no TMEM; it came
 * with Blackwell), so solving a Blackwell kernel there is an input error at
 * the op, not a schedule that ignores the op's memory. */
START_TEST(tmem_on_a_machine_without_it) {
  /* kernels/fa4-fwd-blackwell.twill line 27: "op S_0 lat 512 use TC:512
   * issue thread tmem 128", the first op with tmem; the name at column 4 */
  const char *a[] = {"solve", "fa4-fwd-blackwell", "--arch", "hopper", NULL};
  free(expect_err(1, "<builtin>/fa4-fwd-blackwell.twill:27:4: op 'S_0' holds "
                     "tmem 128 but machine 'hopper' has no tensor memory\n", a));
  char *k = write_tmp("kernel k\narch hopper\nop a lat 4\n  op  b lat 4 tmem 32\n"
                      "edge a b\n", ".twill");
  const char *b[] = {"bounds", k, NULL};
  char want[512];
  snprintf(want, sizeof want,
           "%s:4:7: op 'b' holds tmem 32 but machine 'hopper' has no tensor "
           "memory\n", k);
  free(expect_err(1, want, b));
  /* the same file on blackwell (512 TMEM columns) is fine */
  const char *c[] = {"bounds", k, "--arch", "blackwell", NULL};
  free(expect_err(0, NULL, c));
  unlink(k);
  free(k);
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
  tc = tcase_create("suggest");
  tcase_add_test(tc, unknown_command_suggests);
  tcase_add_test(tc, unknown_kernel_suggests);
  tcase_add_test(tc, unknown_machine_in_kernel_file);
  tcase_add_test(tc, unknown_machine_option);
  tcase_add_test(tc, tmem_on_a_machine_without_it);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
