/* tests/test_ilp_cli.c: the `twill ilp` front end: one exit code per
 * outcome, --max/--min over the file's sense (certificates included), -o,
 * standard input, the format by extension or --format, "did you mean",
 * and `twill help ilp` naming every option. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"

/* A file model<suffix> in a fresh directory /tmp/twill-ilpcli-XXXXXX,
 * holding text (malloc'd path; rm_tmp removes both). */
static char *write_tmp(const char *text, const char *suffix) {
  char dir[] = "/tmp/twill-ilpcli-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  size_t n = strlen(dir) + strlen("/model") + strlen(suffix) + 1;
  char *path = malloc(n);
  ck_assert_ptr_nonnull(path);
  snprintf(path, n, "%s/model%s", dir, suffix);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fputs(text, f) >= 0, 1);
  ck_assert_int_eq(fclose(f), 0);
  return path;
}

static void rm_tmp(char *path) {
  unlink(path);
  char *slash = strrchr(path, '/');
  *slash = 0;
  rmdir(path);
  free(path);
}

static char *slurp(const char *path) {
  size_t len;
  char *s = tu_read_file(path, &len);
  ck_assert_ptr_nonnull(s);
  return s;
}

/* tu_run_twill with standard input read from the file in_path. */
static int run_stdin(char **out, char **err, const char *const *args, const char *in_path) {
  const char *bin = getenv("TWILL_BIN");
  if (!bin || !*bin) bin = "bin/twill";
  char outp[] = "/tmp/twill-ilpcli-out-XXXXXX", errp[] = "/tmp/twill-ilpcli-err-XXXXXX";
  int fo = mkstemp(outp), fe = mkstemp(errp);
  ck_assert(fo >= 0 && fe >= 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    int in = open(in_path, O_RDONLY);
    if (in < 0) _exit(127);
    dup2(in, 0);
    dup2(fo, 1);
    dup2(fe, 2);
    int argc = 0;
    while (args[argc]) argc++;
    char **argv = calloc((size_t)argc + 2, sizeof *argv);
    if (!argv) _exit(127);
    argv[0] = (char *)bin;
    for (int i = 0; i < argc; i++) argv[i + 1] = (char *)args[i];
    execv(bin, argv);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  close(fo);
  close(fe);
  *out = slurp(outp);
  *err = slurp(errp);
  unlink(outp);
  unlink(errp);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* min x + y, x + 2y <= 4, 3x + y <= 6, 0 <= x, y <= 10 integer.  Minimum
 * 0 at (0, 0).  Maximum by hand: the LP optimum is (1.6, 1.2), 2.8, so an
 * integer point has x + y <= 2, and (2, 0) reaches it: 2. */
static const char *small_lp =
    "minimize\n"
    " obj: x + y\n"
    "subject to\n"
    " c1: x + 2 y <= 4\n"
    " c2: 3 x + y <= 6\n"
    "bounds\n"
    " x <= 10\n"
    " y <= 10\n"
    "general\n"
    " x y\n"
    "end\n";

/* The same with OBJSENSE MAX in MPS (as tests/test_ilp.c's small_mip). */
static const char *small_mps_max =
    "NAME SMALL\n"
    "OBJSENSE\n"
    "    MAX\n"
    "ROWS\n"
    " N  OBJ\n"
    " L  C1\n"
    " L  C2\n"
    "COLUMNS\n"
    "    MARKER   'MARKER'  'INTORG'\n"
    "    X  OBJ  1  C1  1\n"
    "    X  C2   3\n"
    "    Y  OBJ  1  C1  2\n"
    "    Y  C2   1\n"
    "    MARKER   'MARKER'  'INTEND'\n"
    "RHS\n"
    "    RHS  C1  4  C2  6\n"
    "BOUNDS\n"
    " UP BND X 10\n"
    " UP BND Y 10\n"
    "ENDATA\n";

/* max 3x + 2y - z + 5w + 10 of tests/test_ilp_lp.c (every_construct):
 * the unique optimum x = y = 0, z = w = 4, b = 0, objective 26, derived
 * by hand there. */
static const char *feature_lp =
    "Maximize\n"
    " profit: 3x + 2 y - z\n"
    "   + 0.5e1 w + 10\n"
    "Subject To\n"
    " c1: x + y + z <= 4\n"
    " c2: x + 3y =< 6\n"
    " -1 <= x - y <= 1\n"
    " 2 >= y\n"
    " lim: w + x => 1\n"
    " eq: z - w = 0\n"
    "Bounds\n"
    " x <= 3\n"
    " -inf <= z <= 5\n"
    " w free\n"
    "General\n"
    " x\n"
    "Binary\n"
    " b\n"
    "End\n";

START_TEST(exit_codes) {
  char *out = NULL, *err = NULL;
  /* infeasible: x >= 2 and x <= 1 -> 2 */
  char *p = write_tmp("min x\nst\n a: x >= 2\n b: x <= 1\nend\n", ".lp");
  const char *a1[] = {"ilp", p, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 2);
  ck_assert_ptr_nonnull(strstr(out, "status: infeasible"));
  free(out);
  free(err);
  rm_tmp(p);
  /* unbounded: min -x with x >= y >= 0: x = y = t gives -t -> 4 */
  p = write_tmp("min - x\nst\n c: x - y >= 0\nend\n", ".lp");
  const char *a2[] = {"ilp", p, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 4);
  ck_assert_ptr_nonnull(strstr(out, "status: unbounded"));
  free(out);
  free(err);
  /* with --cert: still 4, and no certificate is claimed */
  char cert[64];
  snprintf(cert, sizeof cert, "/tmp/twill-ilpcli-unb-%d.vipr", (int)getpid());
  const char *a2c[] = {"ilp", p, "--cert", cert, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2c), 4);
  ck_assert_ptr_nonnull(strstr(err, "no certificate could be written"));
  free(out);
  free(err);
  unlink(cert);
  rm_tmp(p);
  /* limit: 2(a + ... + h) = 9 has no integer solution (parity), which
   * branching without cuts cannot see in 3 nodes -> 3 */
  p = write_tmp("min\nst\n r: 2a + 2b + 2c + 2d + 2e + 2f + 2g + 2h = 9\nbinary\n a b c d e f g h\nend\n",
                ".lp");
  const char *a3[] = {"ilp", p, "--node-limit", "3", "--no-cuts", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 3);
  ck_assert_ptr_nonnull(strstr(out, "status: limit"));
  free(out);
  free(err);
  /* without the limit the parity is proven: 2 */
  const char *a3b[] = {"ilp", p, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3b), 2);
  free(out);
  free(err);
  rm_tmp(p);
  /* bad input: 1 with file:line:col */
  p = write_tmp("min x\nst\n c: x + y >= 3 z\n", ".lp");
  const char *a4[] = {"ilp", p, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 1);
  ck_assert_ptr_nonnull(strstr(err, ".lp:3:16: a variable on the right-hand side"));
  free(out);
  free(err);
  rm_tmp(p);
  /* the overview documents the codes */
  const char *a5[] = {"help", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a5), 0);
  ck_assert_ptr_nonnull(strstr(out, "4 unbounded"));
  free(out);
  free(err);
}
END_TEST

START_TEST(max_min_override) {
  char *out = NULL, *err = NULL;
  char *lp = write_tmp(small_lp, ".lp"), *mps = write_tmp(small_mps_max, ".mps");
  const char *a1[] = {"ilp", lp, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 0\n"));
  free(out);
  free(err);
  const char *a2[] = {"ilp", lp, "--max", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 2\n"));
  free(out);
  free(err);
  /* OBJSENSE MAX is respected, and --min overrides it */
  const char *a3[] = {"ilp", mps, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 2\n"));
  free(out);
  free(err);
  const char *a4[] = {"ilp", mps, "--min", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 0\n"));
  free(out);
  free(err);
  /* --max on a file that already maximizes changes nothing */
  const char *a5[] = {"ilp", mps, "--max", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a5), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 2\n"));
  free(out);
  free(err);
  const char *a6[] = {"ilp", lp, "--max", "--min", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a6), 1);
  ck_assert_ptr_nonnull(strstr(err, "--max and --min contradict each other"));
  free(out);
  free(err);
  rm_tmp(lp);
  rm_tmp(mps);
}
END_TEST

/* --max turns the file's minimization into a maximization in the
 * certificate too (OBJ max, the range at 2), and the checker accepts it;
 * also for the LP relaxation (max 2.8 at (1.6, 1.2), by hand above). */
START_TEST(max_certified) {
  const char *texts[] = {small_lp, "minimize\n obj: x + y\nst\n c1: x + 2 y <= 4\n c2: 3 x + y <= 6\nend\n"};
  const char *rtp[] = {"RTP range 2 2", "RTP range 2.8 2.8"};
  for (int k = 0; k < 2; k++) {
    char *p = write_tmp(texts[k], ".lp");
    char cert[64];
    snprintf(cert, sizeof cert, "/tmp/twill-ilpcli-max-%d-%d.vipr", (int)getpid(), k);
    char *out = NULL, *err = NULL;
    const char *a1[] = {"ilp", p, "--max", "--cert", cert, NULL};
    ck_assert_int_eq(tu_run_twill(&out, &err, a1), 0);
    free(out);
    free(err);
    char *c = slurp(cert);
    ck_assert_ptr_nonnull(strstr(c, "\nOBJ max\n"));
    ck_assert_msg(strstr(c, rtp[k]) != NULL, "%d: %s", k, c);
    free(c);
    const char *a2[] = {"vipr-check", cert, NULL};
    ck_assert_int_eq(tu_run_twill(&out, &err, a2), 0);
    ck_assert_ptr_nonnull(strstr(out, "s VERIFIED"));
    free(out);
    free(err);
    unlink(cert);
    rm_tmp(p);
  }
}
END_TEST

START_TEST(output_file) {
  char *p = write_tmp(feature_lp, ".lp");
  char sol[64];
  snprintf(sol, sizeof sol, "/tmp/twill-ilpcli-sol-%d.txt", (int)getpid());
  char *out = NULL, *err = NULL;
  const char *a1[] = {"ilp", p, "-o", sol, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 0);
  ck_assert_ptr_nonnull(strstr(out, "status: optimal")); /* the report as well */
  free(out);
  free(err);
  const char *want = "status optimal\nobjective 26\nx 0\ny 0\nz 4\nw 4\nb 0\n";
  char *s = slurp(sol);
  ck_assert_str_eq(s, want);
  free(s);
  /* -o -: the solution alone on standard output, the same bytes */
  const char *a2[] = {"ilp", p, "-o", "-", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 0);
  ck_assert_str_eq(out, want);
  free(out);
  free(err);
  rm_tmp(p);
  /* no solution: the status and "objective -" */
  p = write_tmp("min x\nst\n a: x >= 2\n b: x <= 1\nend\n", ".lp");
  const char *a3[] = {"ilp", p, "-o", sol, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 2);
  free(out);
  free(err);
  s = slurp(sol);
  ck_assert_str_eq(s, "status infeasible\nobjective -\n");
  free(s);
  /* a file that cannot be written: 1 */
  const char *a4[] = {"ilp", p, "-o", "/nonexistent/dir/sol.txt", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 1);
  ck_assert_ptr_nonnull(strstr(err, "cannot write /nonexistent/dir/sol.txt"));
  free(out);
  free(err);
  unlink(sol);
  rm_tmp(p);
}
END_TEST

START_TEST(stdin_and_format) {
  char *out = NULL, *err = NULL;
  char *lp = write_tmp(feature_lp, ".lp"), *mps = write_tmp(small_mps_max, "");
  /* '-' with --format lp */
  const char *a1[] = {"ilp", "-", "--format", "lp", NULL};
  ck_assert_int_eq(run_stdin(&out, &err, a1, lp), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 26\n"));
  free(out);
  free(err);
  /* '-' alone is MPS, as is a name without .lp */
  const char *a2[] = {"ilp", "-", NULL};
  ck_assert_int_eq(run_stdin(&out, &err, a2, mps), 0);
  ck_assert_ptr_nonnull(strstr(out, "objective: 2\n"));
  free(out);
  free(err);
  const char *a3[] = {"ilp", mps, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 0);
  free(out);
  free(err);
  /* errors on standard input name it */
  char *bad = write_tmp("min x\nst\n c: x + y >= 3 z\n", "");
  const char *a4[] = {"ilp", "-", "--format", "lp", NULL};
  ck_assert_int_eq(run_stdin(&out, &err, a4, bad), 1);
  ck_assert_ptr_nonnull(strstr(err, "<stdin>:3:16: a variable on the right-hand side"));
  free(out);
  free(err);
  /* --format mps on a .lp name is obeyed (and fails there) */
  const char *a5[] = {"ilp", lp, "--format", "mps", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a5), 1);
  ck_assert_ptr_nonnull(strstr(err, ":1:1: unknown section 'Maximize'"));
  free(out);
  free(err);
  const char *a6[] = {"ilp", lp, "--format", "xml", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a6), 1);
  ck_assert_ptr_nonnull(strstr(err, "--format expects lp or mps, got 'xml'"));
  free(out);
  free(err);
  /* the extension in upper case */
  char *upper = write_tmp(feature_lp, ".LP");
  const char *a7[] = {"ilp", upper, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a7), 0);
  free(out);
  free(err);
  rm_tmp(upper);
  rm_tmp(bad);
  rm_tmp(lp);
  rm_tmp(mps);
}
END_TEST

START_TEST(did_you_mean) {
  static const struct {
    const char *arg, *msg;
  } cases[] = {
      {"--node-limt", "unknown option '--node-limt'; did you mean '--node-limit'?"},
      {"--jsn", "unknown option '--jsn'; did you mean '--json'?"},
      {"--time", "unknown option '--time'; did you mean '--time-limit'?"},
      {"--maxx", "unknown option '--maxx'; did you mean '--max'?"},
      {"--frobnicate", "unknown option '--frobnicate' (try 'twill help ilp')"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    char *out = NULL, *err = NULL;
    const char *a[] = {"ilp", "x.lp", cases[k].arg, NULL};
    ck_assert_int_eq(tu_run_twill(&out, &err, a), 1);
    ck_assert_msg(strstr(err, cases[k].msg) != NULL, "%s: %s", cases[k].arg, err);
    free(out);
    free(err);
  }
  char *out = NULL, *err = NULL;
  const char *a[] = {"ilp", "x.lp", "--cert", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 1);
  ck_assert_ptr_nonnull(strstr(err, "--cert needs a value (FILE.vipr)"));
  free(out);
  free(err);
}
END_TEST

/* `twill help ilp` describes each option the parser accepts, with its
 * default, and the exit codes. */
START_TEST(help_names_every_option) {
  const char *opts[] = {"--format F", "--max", "--min", "--cert FILE", "-o FILE",
                        "--time-limit S", "--node-limit N", "--no-cuts", "--json",
                        "'-' reads standard input", "default 0: none", "4 unbounded",
                        "2 infeasible", "3 time or\nnode limit", "objective -"};
  char *out = NULL, *err = NULL;
  const char *a[] = {"help", "ilp", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  for (size_t k = 0; k < sizeof opts / sizeof *opts; k++)
    ck_assert_msg(strstr(out, opts[k]) != NULL, "twill help ilp lacks '%s'", opts[k]);
  free(out);
  free(err);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("ilp_cli");
  TCase *tc = tcase_create("cli");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, exit_codes);
  tcase_add_test(tc, max_min_override);
  tcase_add_test(tc, max_certified);
  tcase_add_test(tc, output_file);
  tcase_add_test(tc, stdin_and_format);
  tcase_add_test(tc, did_you_mean);
  tcase_add_test(tc, help_names_every_option);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
