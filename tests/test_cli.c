/* tests/test_cli.c: the twill program's help, version and dispatch, its
 * error messages and "did you mean" suggestions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/gaus.h"
#include "twill/joint.h"
#include "twill/modulo.h"

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

/* ---- option values and unknown options ----------------------------------- */

START_TEST(bad_option_values_name_the_option) {
  const char *a[] = {"solve", "fig1", "--warps", "abc", NULL};
  free(expect_err(1, "twill solve: --warps expects an integer in [1, 64], got "
                     "'abc'\n", a));
  const char *b[] = {"gaus", "fig1", "--lr=-1", NULL};
  free(expect_err(1, "twill gaus: --lr expects a number in [1e-09, 1000], got "
                     "'-1'\n", b));
  const char *c[] = {"sat", "x.cnf", "--time-limit", "soon", NULL};
  free(expect_err(1, "twill sat: --time-limit expects a number in [0, 1e+09], "
                     "got 'soon'\n", c));
  const char *d[] = {"solve", "fig1", "--warps", NULL};
  free(expect_err(1, "twill solve: --warps needs a value (N) (try 'twill help "
                     "solve')\n", d));
  const char *e[] = {"bounds", "fig1", "--json=yes", NULL};
  free(expect_err(1, "twill bounds: --json takes no value (try 'twill help "
                     "bounds')\n", e));
}
END_TEST

START_TEST(unknown_option_suggests) {
  const char *a[] = {"bounds", "fig1", "--jsn", NULL};
  free(expect_err(1, "twill bounds: unknown option '--jsn'; did you mean "
                     "'--json'? (try 'twill help bounds')\n", a));
  const char *b[] = {"solve", "fig1", "--no-cros-warp", NULL};
  free(expect_err(1, "twill solve: unknown option '--no-cros-warp'; did you "
                     "mean '--no-cross-warp'? (try 'twill help solve')\n", b));
  const char *c[] = {"modulo", "fig1", "--frobnicate", NULL};
  free(expect_err(1, "twill modulo: unknown option '--frobnicate' (try 'twill "
                     "help modulo')\n", c));
  /* ilp reads argv itself: the same message through the same table */
  const char *d[] = {"ilp", "x.mps", "--nocuts", NULL};
  free(expect_err(1, "twill ilp: unknown option '--nocuts'; did you mean "
                     "'--no-cuts'? (try 'twill help ilp')\n", d));
  const char *d2[] = {"ilp", "x.mps", "--time-limit", NULL};
  free(expect_err(1, "twill ilp: --time-limit needs a value (S) (try 'twill help "
                     "ilp')\n", d2));
  const char *d3[] = {"ilp", "x.mps", "--json=x", NULL};
  free(expect_err(1, "twill ilp: --json takes no value (try 'twill help ilp')\n", d3));
  const char *e[] = {"sat", "x.cnf", "--prof", "p", NULL};
  free(expect_err(1, "twill sat: unknown option '--prof'; did you mean "
                     "'--proof'? (try 'twill help sat')\n", e));
  /* with its value after '=' */
  const char *f[] = {"emit", "fig1", "--fromat=table", NULL};
  free(expect_err(1, "twill emit: unknown option '--fromat=table'; did you "
                     "mean '--format'? (try 'twill help emit')\n", f));
}
END_TEST

/* ---- help texts ------------------------------------------------------------ */

static char *help_of(const char *cmd) {
  char *out = NULL, *err = NULL;
  const char *a[] = {"help", cmd, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  free(err);
  return out;
}

/* Is opt listed as an option in help: a line "  OPT" followed by a blank
 * or the end of the line? */
static int lists_option(const char *help, const char *opt) {
  size_t n = strlen(opt);
  for (const char *p = strstr(help, "\n  "); p; p = strstr(p + 1, "\n  "))
    if (!strncmp(p + 3, opt, n) && (p[3 + n] == ' ' || p[3 + n] == '\n')) return 1;
  return 0;
}

/* Every string literal of a C file region that is an option name ("--x",
 * "-o"), by a small lexer that skips comments and character literals.
 * Calls f(opt, ctx) for each. */
static void option_literals(const char *src, void (*f)(const char *, void *),
                            void *ctx) {
  for (const char *p = src; *p; p++) {
    if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      if (!e) return;
      p = e + 1;
    } else if (p[0] == '/' && p[1] == '/') {
      while (p[1] && p[1] != '\n') p++;
    } else if (*p == '\'') {
      for (p++; *p && *p != '\''; p++)
        if (*p == '\\' && p[1]) p++;
      if (!*p) return;
    } else if (*p == '"') {
      const char *b = ++p;
      for (; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
      if (!*p) return;
      size_t n = (size_t)(p - b);
      int opt = n >= 2 && n < 64 && b[0] == '-';
      for (size_t i = 1; opt && i < n; i++)
        opt = (b[i] >= 'a' && b[i] <= 'z') || (b[i] >= '0' && b[i] <= '9') ||
              b[i] == '-';
      if (opt && b[n - 1] != '-') {
        char name[64];
        memcpy(name, b, n);
        name[n] = 0;
        /* --help and -h are answered by main.c for every command */
        if (strcmp(name, "--help") && strcmp(name, "-h")) f(name, ctx);
      }
    }
  }
}

typedef struct scan {
  const char *cmd, *help;
  int found;
} scan;

static void must_be_listed(const char *opt, void *ctx) {
  scan *s = ctx;
  s->found++;
  ck_assert_msg(lists_option(s->help, opt),
                "twill %s accepts %s but `twill help %s` does not list it",
                s->cmd, opt, s->cmd);
}

/* The source of each command's parser; sat.c holds two commands, split at
 * the second one's function. */
static const struct {
  const char *cmd, *file, *from, *to;
  int min_options; /* how many the parser names at least (a lexer that
                      finds none would pass vacuously) */
} parsers[] = {
    {"solve", "core/cli/cmd_solve.c", NULL, NULL, 21},
    {"bounds", "core/cli/cmd_bounds.c", NULL, NULL, 2},
    {"modulo", "core/cli/cmd_modulo.c", NULL, NULL, 8},
    {"gaus", "core/cli/cmd_gaus.c", NULL, NULL, 15},
    {"emit", "core/cli/cmd_emit.c", NULL, NULL, 3},
    {"report", "core/cli/cmd_report.c", NULL, NULL, 16},
    {"check", "core/cli/cmd_check.c", NULL, NULL, 1},
    {"validate", "core/cli/cmd_validate.c", NULL, NULL, 4},
    {"convert-hatschet", "core/cli/cmd_convert.c", NULL, NULL, 1},
    {"kernels", "core/cli/cmd_kernels.c", NULL, NULL, 1},
    {"random", "core/cli/cmd_random.c", NULL, NULL, 10},
    {"sat", "core/cli/cmd_sat.c", NULL, "int twill_cmd_drat_check(", 5},
    {"drat-check", "core/cli/cmd_sat.c", "int twill_cmd_drat_check(", NULL, 1},
    {"smt", "core/cli/cmd_smt.c", NULL, NULL, 3},
    {"ilp", "core/cli/cmd_ilp.c", NULL, NULL, 5},
    {"vipr-check", "core/cli/cmd_vipr_check.c", NULL, NULL, 0},
};

/* Every option a parser tests for appears in its command's help, as an
 * option line.  The parsers read the tables the help prints, so this holds
 * by construction for them; the scan also covers a parser that compares
 * argv itself (cmd_ilp.c) and any branch added without a table row. */
START_TEST(every_accepted_option_is_in_help) {
  size_t np = sizeof parsers / sizeof *parsers;
  /* every command of `twill help` has its parser in the list above */
  char *overview = NULL, *err = NULL;
  const char *h[] = {"help", NULL};
  ck_assert_int_eq(tu_run_twill(&overview, &err, h), 0);
  free(err);
  const char *p = strstr(overview, "commands:\n");
  ck_assert_ptr_nonnull(p);
  int ncmd = 0;
  for (p = strchr(p, '\n') + 1; p[0] == ' ' && p[1] == ' '; p = strchr(p, '\n') + 1) {
    char name[64];
    ck_assert_int_eq(sscanf(p, "%63s", name), 1);
    size_t k = 0;
    while (k < np && strcmp(parsers[k].cmd, name)) k++;
    ck_assert_msg(k < np, "no parser source listed for command %s", name);
    ncmd++;
  }
  ck_assert_int_eq(ncmd, (int)np);
  free(overview);
  for (size_t k = 0; k < np; k++) {
    char *path = tu_src_path(parsers[k].file);
    char *src = tu_read_file(path, NULL);
    ck_assert_msg(src != NULL, "cannot read %s", path);
    char *from = parsers[k].from ? strstr(src, parsers[k].from) : src;
    ck_assert_ptr_nonnull(from);
    if (parsers[k].to) {
      char *to = strstr(from, parsers[k].to);
      ck_assert_ptr_nonnull(to);
      *to = 0;
    }
    scan s = {parsers[k].cmd, help_of(parsers[k].cmd), 0};
    option_literals(from, must_be_listed, &s);
    ck_assert_msg(s.found >= parsers[k].min_options, "%s: %d option names found",
                  parsers[k].file, s.found);
    free((char *)s.help);
    free(src);
    free(path);
  }
}
END_TEST

/* The other way round: every option a help lists is accepted (not reported
 * unknown, nor given a value it does not take).  Each run fails fast on a
 * missing operand or on the value "x". */
START_TEST(every_listed_option_is_accepted) {
  size_t np = sizeof parsers / sizeof *parsers;
  int tried = 0;
  for (size_t k = 0; k < np; k++) {
    char *help = help_of(parsers[k].cmd);
    char *opts = strstr(help, "\noptions:\n");
    for (char *p = opts ? strstr(opts, "\n  -") : NULL; p; p = strstr(p + 1, "\n  -")) {
      char name[64], arg[64] = "";
      ck_assert_int_eq(sscanf(p + 3, "%63s", name), 1);
      const char *q = p + 3 + strlen(name);
      int has_arg = q[0] == ' ' && q[1] != ' ' && q[1] != '\n';
      if (has_arg) ck_assert_int_eq(sscanf(q, "%63s", arg), 1);
      const char *a[] = {parsers[k].cmd, name, has_arg ? "x" : NULL, NULL};
      char *out = NULL, *err = NULL;
      int rc = tu_run_twill(&out, &err, a);
      /* a crash (an assertion of the debug build: a table row that no
       * parser branch reads) is not acceptance either */
      ck_assert_msg(rc >= 0, "twill %s %s%s: killed: %s", parsers[k].cmd, name,
                    has_arg ? " x" : "", err);
      ck_assert_msg(!strstr(err, "unknown option") && !strstr(err, "takes no value") &&
                        !strstr(err, "needs a value") && !strstr(err, "is listed but not read"),
                    "twill %s %s%s: %s", parsers[k].cmd, name, has_arg ? " x" : "", err);
      free(out);
      free(err);
      tried++;
    }
    free(help);
  }
  ck_assert_int_ge(tried, 80);
}
END_TEST

/* The text of option opt's entry in help, blanks collapsed (malloc'd). */
static char *entry_of(const char *help, const char *cmd, const char *opt) {
  size_t n = strlen(opt);
  const char *p = strstr(help, "\n  ");
  while (p && !(!strncmp(p + 3, opt, n) && (p[3 + n] == ' ' || p[3 + n] == '\n')))
    p = strstr(p + 1, "\n  ");
  ck_assert_msg(p != NULL, "`twill help %s` lacks %s", cmd, opt);
  const char *e = p + 1;
  while (*e && !(e[0] == '\n' && (e[1] == '\n' || !strncmp(e + 1, "  -", 3)))) e++;
  char *t = malloc((size_t)(e - p) + 1);
  ck_assert_ptr_nonnull(t);
  size_t k = 0;
  for (const char *c = p + 1; c < e; c++)
    if (!(*c == ' ' || *c == '\n') || (k && t[k - 1] != ' ')) t[k++] = *c == '\n' ? ' ' : *c;
  t[k] = 0;
  return t;
}

static void default_is(const char *help, const char *cmd, const char *opt,
                       double want) {
  char *t = entry_of(help, cmd, opt);
  const char *d = strstr(t, "(default: ");
  ck_assert_msg(d != NULL, "`twill help %s`: %s names no default: %s", cmd, opt, t);
  char *end;
  double got = strtod(d + 10, &end);
  ck_assert_msg(end != d + 10 && got == want,
                "`twill help %s`: %s says '%s', the code's default is %g", cmd,
                opt, d, want);
  free(t);
}

static void says(const char *help, const char *cmd, const char *opt,
                 const char *text) {
  char *t = entry_of(help, cmd, opt);
  ck_assert_msg(strstr(t, text), "`twill help %s`: %s lacks '%s': %s", cmd, opt,
                text, t);
  free(t);
}

/* The defaults the help states are the library's: twill_random_opts_default,
 * twill_gaus_opts_default, twill_solve_opts_default and the built-in
 * machines (each read here from the library, not from the help). */
START_TEST(help_defaults_match_the_code) {
  twill_random_opts ro;
  twill_random_opts_default(&ro);
  char *h = help_of("random");
  default_is(h, "random", "--nodes", ro.nodes);
  default_is(h, "random", "--density", ro.density);
  default_is(h, "random", "--back-edges", ro.back_edges);
  default_is(h, "random", "--units", ro.units);
  default_is(h, "random", "--max-lat", ro.max_lat);
  default_is(h, "random", "--max-dist", ro.max_dist);
  default_is(h, "random", "--max-cap", ro.max_cap);
  default_is(h, "random", "--seed", (double)ro.seed);
  free(h);

  twill_gaus_opts go;
  twill_gaus_opts_default(&go);
  h = help_of("gaus");
  default_is(h, "gaus", "--iters", go.iters);
  default_is(h, "gaus", "--lr", go.lr_mu);
  ck_assert(go.lr_s == go.lr_mu); /* --lr sets both */
  default_is(h, "gaus", "--alpha", go.alpha);
  default_is(h, "gaus", "--tau", go.tau);
  default_is(h, "gaus", "--seed", (double)go.seed);
  default_is(h, "gaus", "--threads", go.threads);
  default_is(h, "gaus", "--ii", go.ii);
  default_is(h, "gaus", "--steps", go.steps);
  char form[32];
  snprintf(form, sizeof form, "(default: %c;", go.form);
  says(h, "gaus", "--formulation", form);
  ck_assert(go.time_limit <= 0);
  says(h, "gaus", "--time-limit", "(default: none)");
  free(h);

  twill_solve_opts so;
  twill_solve_opts_default(&so);
  h = help_of("solve");
  default_is(h, "solve", "--time-limit", so.time_limit);
  default_is(h, "solve", "--budget", so.budget);
  default_is(h, "solve", "--threads", so.threads);
  default_is(h, "solve", "--extra-copies", so.extra_copies);
  default_is(h, "solve", "--gaus-min-ops", so.gaus_min_ops);
  /* warps and registers come from the machine (joint_model.c's defaults) */
  const char *machines[] = {"hopper", "blackwell"};
  for (int i = 0; i < 2; i++) {
    twill_diag d;
    twill_arch *m = twill_arch_load(machines[i], &d);
    ck_assert_ptr_nonnull(m);
    twill_joint_params p;
    twill_joint_params_default(&p, m);
    char want[64];
    snprintf(want, sizeof want, "%s %d", machines[i], p.warps);
    says(h, "solve", "--max-warps", want);
    snprintf(want, sizeof want, "%s %ld", machines[i], p.regs);
    says(h, "solve", "--regs", want);
    twill_arch_free(m);
  }
  free(h);

  /* modulo's budget is the program's own: what a run reports */
  h = help_of("modulo");
  char *out = NULL, *err = NULL;
  const char *a[] = {"modulo", "fig1", "--json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  const char *u = strstr(out, "\"normalization\": {");
  ck_assert_ptr_nonnull(u);
  u = strstr(u, "\"budget\": ");
  ck_assert_ptr_nonnull(u);
  default_is(h, "modulo", "--budget", strtod(u + 10, NULL));
  twill_modulo_opts mo;
  twill_modulo_opts_default(&mo);
  default_is(h, "modulo", "--gaus-min-ops", mo.gaus_min_ops);
  free(out);
  free(err);
  free(h);
}
END_TEST

/* What the issue found wrong, each said now. */
START_TEST(help_texts_say_what_the_code_does) {
  char *h = help_of("check");
  ck_assert_msg(strstr(h, "twill modulo --cert") && strstr(h, "twill solve --cert"),
                "%s", h);
  free(h);
  h = help_of("sat");
  ck_assert(lists_option(h, "--opt"));
  free(h);
  h = help_of("vipr-check");
  int lines = 0;
  for (const char *p = h; *p; p++) lines += *p == '\n';
  ck_assert_msg(lines >= 8 && strstr(h, "s VERIFIED") && strstr(h, "exit 1"), "%s", h);
  free(h);
}
END_TEST

/* ---- '-' is standard input ------------------------------------------------- */

/* Run twill with in on standard input (NULL: /dev/null); expect exit rc;
 * return stdout (caller frees). */
static char *run_in(const char *in, int rc, const char *const *args) {
  char *out = NULL, *err = NULL;
  int got = in ? tu_run_twill_in(in, strlen(in), &out, &err, args)
               : tu_run_twill(&out, &err, args);
  ck_assert_msg(got == rc, "twill %s %s ...: exit %d, want %d; stderr: %s",
                args[0], args[1] ? args[1] : "", got, rc, err);
  free(err);
  return out;
}

static char *text_of(const char *path) {
  char *t = tu_read_file(path, NULL);
  ck_assert_msg(t != NULL, "cannot read %s", path);
  return t;
}

/* Each kernel command prints the same bytes for a kernel on standard input
 * as for the kernel by name: the text is read once, whole. */
START_TEST(kernel_from_stdin) {
  const char *k[] = {"kernels", "--print", "fig1", NULL};
  char *fig1 = run_in(NULL, 0, k);
  static const char *const cmds[][4] = {
      {"bounds", "--json", NULL, NULL},
      {"validate", "--json", NULL, NULL},
      {"modulo", "--json", NULL, NULL},
      {"solve", "--json", NULL, NULL},
      {"gaus", "--json", "--iters", "50"},
      {"emit", "--format", "table", NULL},
  };
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
    const char *byname[] = {cmds[i][0], "fig1", cmds[i][1], cmds[i][2], cmds[i][3], NULL};
    const char *bystdin[] = {cmds[i][0], "-", cmds[i][1], cmds[i][2], cmds[i][3], NULL};
    char *a = run_in(NULL, 0, byname);
    char *b = run_in(fig1, 0, bystdin);
    ck_assert_msg(!strcmp(a, b), "twill %s: by name\n%s\nfrom stdin\n%s", cmds[i][0], a, b);
    free(a);
    free(b);
  }
  free(fig1);
}
END_TEST

/* A schedule on standard input is drawn as a schedule (not read as a
 * kernel), and a certificate or a kernel on standard input is checked. */
START_TEST(schedule_and_certificate_from_stdin) {
  const char *m[] = {"modulo", "fig1", "--json", NULL};
  char *sched = run_in(NULL, 0, m);
  char *sp = write_tmp(sched, ".json");
  const char *e1[] = {"emit", sp, "--format", "table", NULL};
  const char *e2[] = {"emit", "-", "--format", "table", NULL};
  char *a = run_in(NULL, 0, e1), *b = run_in(sched, 0, e2);
  /* the same table, byte for byte: a schedule file is drawn from what it
   * carries, wherever it comes from (no line names the file) */
  ck_assert_ptr_null(strstr(b, "heuristic schedule"));
  ck_assert_ptr_nonnull(strstr(b, "# twill table: kernel fig1"));
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  unlink(sp);
  free(sp);
  free(sched);

  char *cp = write_tmp("", ".cert");
  const char *c[] = {"solve", "fig1", "--cert", cp, NULL};
  free(run_in(NULL, 0, c));
  char *cert = text_of(cp);
  const char *k[] = {"kernels", "--print", "fig1", NULL};
  char *fig1 = run_in(NULL, 0, k);
  const char *c1[] = {"check", "fig1", "-", NULL};
  a = run_in(cert, 0, c1);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *c2[] = {"check", "-", cp, NULL};
  a = run_in(fig1, 0, c2);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *c3[] = {"check", "-", "-", NULL};
  free(expect_err(1, "twill check: KERNEL and CERT cannot both be standard "
                     "input (try 'twill help check')\n", c3));
  /* solve reads its kernel from stdin once: the certificate it writes is
   * checked against the same kernel by name */
  const char *c4[] = {"solve", "-", "--cert", cp, NULL};
  free(run_in(fig1, 0, c4));
  const char *c5[] = {"check", "fig1", cp, NULL};
  a = run_in(NULL, 0, c5);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  unlink(cp);
  free(cp);
  free(cert);
  free(fig1);
}
END_TEST

/* The solvers and checkers of the other formats read '-' too. */
START_TEST(other_formats_from_stdin) {
  /* (x1) and (-x1): unsatisfiable, refuted by unit propagation */
  const char *cnf = "p cnf 1 2\n1 0\n-1 0\n";
  char *cnfp = write_tmp(cnf, ".cnf"), *drat = write_tmp("", ".drat");
  const char *s1[] = {"sat", cnfp, "--proof", drat, NULL};
  const char *s2[] = {"sat", "-", NULL};
  char *a = run_in(NULL, 20, s1), *b = run_in(cnf, 20, s2);
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  char *proof = text_of(drat);
  const char *d1[] = {"drat-check", "-", drat, NULL};
  a = run_in(cnf, 0, d1);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *d2[] = {"drat-check", cnfp, "-", NULL};
  a = run_in(proof, 0, d2);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *d3[] = {"drat-check", "-", "-", NULL};
  free(expect_err(1, "twill drat-check: FILE.cnf and FILE.drat cannot both be "
                     "standard input (try 'twill help drat-check')\n", d3));
  free(proof);
  unlink(cnfp);
  unlink(drat);
  free(cnfp);
  free(drat);

  /* x in [0, 10], x >= 3, minimize x: the optimum is 3 */
  const char *smt = "int x 0 10\nlin 1 x >= 3\nmin x\n";
  char *smtp = write_tmp(smt, ".smt"), *pp = write_tmp("", ".proof");
  const char *t1[] = {"smt", smtp, "--proof", pp, NULL};
  const char *t2[] = {"smt", "-", NULL};
  a = run_in(NULL, 10, t1);
  b = run_in(smt, 10, t2);
  ck_assert_str_eq(a, b);
  ck_assert_ptr_nonnull(strstr(a, "o 3\n"));
  free(a);
  free(b);
  char *pt = text_of(pp);
  const char *t3[] = {"smt", "--check", "-", NULL};
  a = run_in(pt, 0, t3);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *t4[] = {"smt", smtp, "--check", "-", NULL};
  a = run_in(pt, 0, t4);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *t5[] = {"smt", "-", "--check", pp, NULL};
  a = run_in(smt, 0, t5);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  const char *t6[] = {"smt", "-", "--check", "-", NULL};
  free(expect_err(1, "twill smt: FILE and PROOF cannot both be standard input "
                     "(try 'twill help smt')\n", t6));
  free(pt);
  unlink(smtp);
  unlink(pp);
  free(smtp);
  free(pp);

  /* max x subject to x <= 4, 0 <= x <= 10 (as min -x): optimum -4 */
  const char *mps = "NAME t\nROWS\n N obj\n L c1\nCOLUMNS\n x obj -1 c1 1\n"
                    "RHS\n rhs c1 4\nBOUNDS\n UP b x 10\nENDATA\n";
  char *mpsp = write_tmp(mps, ".mps"), *vp = write_tmp("", ".vipr");
  const char *i1[] = {"ilp", mpsp, "--cert", vp, NULL};
  const char *i2[] = {"ilp", "-", NULL};
  a = run_in(NULL, 0, i1);
  b = run_in(mps, 0, i2);
  ck_assert_str_eq(a, b);
  ck_assert_ptr_nonnull(strstr(a, "objective: -4\n"));
  free(a);
  free(b);
  char *vt = text_of(vp);
  const char *v1[] = {"vipr-check", vp, NULL};
  const char *v2[] = {"vipr-check", "-", NULL};
  a = run_in(NULL, 0, v1);
  b = run_in(vt, 0, v2);
  ck_assert_str_eq(a, b);
  ck_assert_ptr_nonnull(strstr(a, "s VERIFIED"));
  free(a);
  free(b);
  free(vt);
  unlink(mpsp);
  unlink(vp);
  free(mpsp);
  free(vp);

  char *gp = tu_data_path("suites/modulo/hatschet/ChStone/adpcm/graph11.graphml");
  char *rp = tu_data_path("suites/modulo/hatschet/ChStone/adpcm/graph11_RM.xml");
  char *rm = tu_read_file(rp, NULL);
  ck_assert_msg(rm != NULL, "missing test data %s", rp);
  const char *h1[] = {"convert-hatschet", gp, rp, NULL};
  const char *h2[] = {"convert-hatschet", gp, "-", NULL};
  a = run_in(NULL, 0, h1);
  b = run_in(rm, 0, h2);
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  /* gaus tells a file by its extension, standard input by its bytes */
  static const char *const graphs[] = {"suites/gaus/epfl_aig/ctrl.aig",
                                       "suites/gaus/hls_heurigym/demo/demo.json",
                                       "suites/gaus/gs_schedule_rw/rand_graph_1000_1.gml"};
  for (int i = 0; i < 3; i++) {
    char *path = tu_data_path(graphs[i]);
    size_t n = 0;
    char *data = tu_read_file(path, &n);
    ck_assert_msg(data != NULL, "missing test data %s", path);
    const char *g1[] = {"gaus", path, "--iters", "20", "--json", NULL};
    const char *g2[] = {"gaus", "-", "--iters", "20", "--json", NULL};
    a = run_in(NULL, 0, g1);
    char *err = NULL;
    ck_assert_int_eq(tu_run_twill_in(data, n, &b, &err, g2), 0); /* binary AIG */
    ck_assert_msg(!strcmp(a, b), "%s\nby name\n%s\nfrom stdin\n%s", graphs[i], a, b);
    free(a);
    free(b);
    free(err);
    free(data);
    free(path);
  }
  const char *h3[] = {"convert-hatschet", "-", "-", NULL};
  free(expect_err(1, "twill convert-hatschet: GRAPH.graphml and RM.xml cannot "
                     "both be standard input (try 'twill help "
                     "convert-hatschet')\n", h3));
  free(rm);
  free(gp);
  free(rp);
}
END_TEST

/* ---- progress on a terminal ---------------------------------------------- */

/* modulo, like solve, says how the search goes when a person watches
 * (stderr a terminal), one line per I, and nothing when stderr is a file:
 * fig1's MII is 2 (ResMII 2: two 1-cycle ops on one tensor core, see
 * kernels/fig1.twill) and I = 2 is feasible, so the search tries I = 2. */
START_TEST(modulo_progress_on_a_terminal) {
  const char *a[] = {"modulo", "fig1", "--json", NULL};
  char *out = NULL, *tty = NULL;
  ck_assert_int_eq(tu_run_twill_tty(&out, &tty, a), 0);
  ck_assert_ptr_nonnull(tty);
  ck_assert_msg(strstr(tty, "twill: I 2: "), "stderr on a terminal:\n%s", tty);
  ck_assert_ptr_nonnull(strstr(out, "\"ii\": 2,"));
  char *out2 = NULL, *err = NULL;
  ck_assert_int_eq(tu_run_twill(&out2, &err, a), 0);
  ck_assert_msg(!strstr(err, "twill: I "), "stderr to a file:\n%s", err);
  /* the report on stdout is the same either way */
  ck_assert_str_eq(out, out2);
  free(out);
  free(out2);
  free(err);
  free(tty);
  /* solve, the model: a line per query */
  const char *b[] = {"solve", "fig1", NULL};
  ck_assert_int_eq(tu_run_twill_tty(&out, &tty, b), 0);
  ck_assert_msg(strstr(tty, "twill: I 2, L <= "), "%s", tty);
  free(out);
  free(tty);
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
  tcase_add_test(tc, bad_option_values_name_the_option);
  tcase_add_test(tc, unknown_option_suggests);
  suite_add_tcase(s, tc);
  tc = tcase_create("help");
  tcase_add_test(tc, every_accepted_option_is_in_help);
  tcase_add_test(tc, every_listed_option_is_accepted);
  tcase_add_test(tc, help_defaults_match_the_code);
  tcase_add_test(tc, help_texts_say_what_the_code_does);
  suite_add_tcase(s, tc);
  tc = tcase_create("stdin");
  tcase_add_test(tc, kernel_from_stdin);
  tcase_add_test(tc, schedule_and_certificate_from_stdin);
  tcase_add_test(tc, other_formats_from_stdin);
  suite_add_tcase(s, tc);
  tc = tcase_create("progress");
  tcase_add_test(tc, modulo_progress_on_a_terminal);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
