/* tests/test_ilp_options.c: the ILP solver's option table (set and get by
 * name, ranges, the listing `twill help ilp` prints), its log callback,
 * its statistics table, and `twill ilp --option` / `--verbose`.
 *
 * The model most tests use is the parity row  2 (a + b + ... + h) = 9
 * over binaries: no integer point (an even left side, an odd right one),
 * while its LP relaxation is feasible (every variable 9/16).  The
 * divisibility cut of the row (a + ... + h <= 4 and >= 5, ilp/cuts/gcd.c)
 * makes the root LP infeasible at once, so with cuts the answer comes at
 * the root and without them the search must branch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/ilp.h"

static twill_ilp *parity(void) {
  twill_ilp *m = twill_ilp_new();
  int idx[8];
  double val[8];
  for (int j = 0; j < 8; j++) {
    idx[j] = twill_ilp_add_var(m, NULL, TWILL_ILP_BINARY, 0, 1, 1);
    val[j] = 2;
  }
  ck_assert_int_ge(twill_ilp_add_row(m, "r1", 8, idx, val, 'E', 9, 0), 0);
  return m;
}

static const char parity_mps[] =
    "NAME parity\nROWS\n N obj\n E r1\nCOLUMNS\n"
    " MARKER 'MARKER' 'INTORG'\n"
    " a r1 2\n b r1 2\n c r1 2\n d r1 2\n e r1 2\n f r1 2\n g r1 2\n h r1 2\n"
    " MARKER 'MARKER' 'INTEND'\n"
    "RHS\n rhs r1 9\nBOUNDS\n UP b a 1\n UP b b 1\n UP b c 1\n UP b d 1\n"
    " UP b e 1\n UP b f 1\n UP b g 1\n UP b h 1\nENDATA\n";

static char *write_tmp(const char *text) {
  char *path = strdup("/tmp/twill_ilp_options_XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  size_t len = strlen(text);
  ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
  close(fd);
  return path;
}

START_TEST(option_table_is_consistent) {
  /* every row: a name of its own, a range that holds its default, and a
   * getter that answers the default on a fresh model */
  twill_ilp *m = twill_ilp_new();
  twill_ilp_option_info o, p;
  int k = 0;
  for (; twill_ilp_option(k, &o); k++) {
    ck_assert_msg(o.lo <= o.def && o.def <= o.hi, "%s: default outside its range", o.name);
    ck_assert_ptr_nonnull(o.help);
    for (int l = 0; l < k; l++) {
      ck_assert(twill_ilp_option(l, &p));
      ck_assert_msg(strcmp(o.name, p.name), "%s listed twice", o.name);
    }
    double v = NAN;
    ck_assert_int_eq(twill_ilp_get_option(m, o.name, &v), 0);
    ck_assert_double_eq(v, o.def);
  }
  ck_assert_int_ge(k, 10);
  ck_assert_int_eq(twill_ilp_option(-1, &o), 0);
  twill_ilp_free(m);
}
END_TEST

START_TEST(option_set_checks_names_and_ranges) {
  twill_ilp *m = twill_ilp_new();
  double v;
  ck_assert_int_eq(twill_ilp_set_option(m, "no_such_option", 1), -1);
  ck_assert_int_eq(twill_ilp_get_option(m, "no_such_option", &v), -1);
  ck_assert_int_eq(twill_ilp_set_option(m, NULL, 1), -1);
  /* out of range, NaN, a fraction for an integer option: refused, and the
   * option keeps its value */
  ck_assert_int_eq(twill_ilp_set_option(m, "cuts", 2), -1);
  ck_assert_int_eq(twill_ilp_set_option(m, "cuts", -1), -1);
  ck_assert_int_eq(twill_ilp_set_option(m, "cuts", NAN), -1);
  ck_assert_int_eq(twill_ilp_set_option(m, "verbosity", 0.5), -1);
  ck_assert_int_eq(twill_ilp_set_option(m, "time_limit", -1), -1);
  ck_assert_int_eq(twill_ilp_get_option(m, "cuts", &v), 0);
  ck_assert_double_eq(v, 1);
  /* a real option takes a fraction; the ends of a range are in it */
  ck_assert_int_eq(twill_ilp_set_option(m, "time_limit", 0.25), 0);
  ck_assert_int_eq(twill_ilp_get_option(m, "time_limit", &v), 0);
  ck_assert_double_eq(v, 0.25);
  ck_assert_int_eq(twill_ilp_set_option(m, "verbosity", 2), 0);
  ck_assert_int_eq(twill_ilp_set_option(m, "cuts", 0), 0);
  ck_assert_int_eq(twill_ilp_get_option(m, "cuts", &v), 0);
  ck_assert_double_eq(v, 0);
  /* the shorthands set the same options */
  twill_ilp_set_cuts(m, 1);
  twill_ilp_set_node_limit(m, 7);
  twill_ilp_set_time_limit(m, -3); /* <= 0: none */
  ck_assert_int_eq(twill_ilp_get_option(m, "cuts", &v), 0);
  ck_assert_double_eq(v, 1);
  ck_assert_int_eq(twill_ilp_get_option(m, "node_limit", &v), 0);
  ck_assert_double_eq(v, 7);
  ck_assert_int_eq(twill_ilp_get_option(m, "time_limit", &v), 0);
  ck_assert_double_eq(v, 0);
  twill_ilp_free(m);
}
END_TEST

START_TEST(options_steer_the_search) {
  /* with cuts: infeasible at the root (the divisibility cut); without:
   * the search branches, and 3 nodes do not settle it */
  twill_ilp *m = parity();
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_INFEASIBLE);
  twill_ilp_stats st;
  twill_ilp_get_stats(m, &st);
  ck_assert_int_ge(st.cuts, 1);
  ck_assert_int_eq(st.nodes, 1);
  ck_assert_int_eq(twill_ilp_set_option(m, "cuts", 0), 0);
  ck_assert_int_eq(twill_ilp_set_option(m, "node_limit", 3), 0);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_LIMIT);
  twill_ilp_get_stats(m, &st);
  ck_assert_int_eq(st.cuts, 0);
  ck_assert_int_eq(st.nodes, 3);
  /* the divisibility cut alone does it (cut_gcd on, the other kinds
   * off) */
  twill_ilp_set_option(m, "cuts", 1);
  twill_ilp_set_option(m, "node_limit", 0);
  twill_ilp_set_option(m, "cut_gcd", 1);
  const char *others[] = {"cut_gmi", "cut_mir", "cut_cover", "cut_vub"};
  for (int k = 0; k < 4; k++) ck_assert_int_eq(twill_ilp_set_option(m, others[k], 0), 0);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_INFEASIBLE);
  twill_ilp_get_stats(m, &st);
  ck_assert_int_eq(st.nodes, 1);
  twill_ilp_free(m);
}
END_TEST

typedef struct logbuf {
  int lines, maxlevel, cut_lines, node_lines;
} logbuf;

static void collect(void *ctx, int level, const char *line) {
  logbuf *b = ctx;
  b->lines++;
  if (level > b->maxlevel) b->maxlevel = level;
  ck_assert_ptr_null(strchr(line, '\n'));
  if (!strncmp(line, "cut round ", 10)) b->cut_lines++;
  if (!strncmp(line, "node ", 5)) b->node_lines++;
}

START_TEST(log_callback_levels) {
  twill_ilp *m = parity();
  logbuf b = {0, 0, 0, 0};
  twill_ilp_set_log(m, collect, &b);
  /* verbosity 0: nothing, though a callback is set */
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_INFEASIBLE);
  ck_assert_int_eq(b.lines, 0);
  /* verbosity 1: the cut round's lines */
  twill_ilp_set_option(m, "verbosity", 1);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_INFEASIBLE);
  ck_assert_int_ge(b.cut_lines, 1);
  ck_assert_int_eq(b.maxlevel, 1);
  /* without cuts and propagation the search meets LPs that are
   * infeasible (five variables at 1 give 10 > 9): level 2 names them,
   * level 1 does not */
  twill_ilp_set_option(m, "cuts", 0);
  twill_ilp_set_option(m, "propagate", 0);
  b = (logbuf){0, 0, 0, 0};
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_INFEASIBLE);
  ck_assert_int_eq(b.node_lines, 0);
  twill_ilp_set_option(m, "verbosity", 2);
  twill_ilp_stats st1, st2;
  twill_ilp_get_stats(m, &st1);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_INFEASIBLE);
  ck_assert_int_ge(b.node_lines, 1);
  ck_assert_int_eq(b.maxlevel, 2);
  /* the log does not change the search */
  twill_ilp_get_stats(m, &st2);
  ck_assert_int_eq(st1.nodes, st2.nodes);
  ck_assert_int_eq(st1.lp_iterations, st2.lp_iterations);
  twill_ilp_free(m);
}
END_TEST

START_TEST(stats_table_matches_fields) {
  twill_ilp *m = parity();
  twill_ilp_set_option(m, "cuts", 0);
  twill_ilp_solve(m);
  twill_ilp_stats st;
  twill_ilp_get_stats(m, &st);
  twill_ilp_stat_info si;
  /* the keys `twill ilp --json` has always printed, in its order */
  const char *json[] = {"nodes", "lp_iterations", "best_bound", "gap",
                        "max_depth", "cuts", "root_bound"};
  int nj = 0, k = 0;
  for (; twill_ilp_stat(k, &si); k++) {
    double v = twill_ilp_stat_value(&st, k);
    if (!strcmp(si.key, "nodes")) ck_assert_double_eq(v, (double)st.nodes);
    if (!strcmp(si.key, "lp_iterations")) ck_assert_double_eq(v, (double)st.lp_iterations);
    if (!strcmp(si.key, "max_depth")) ck_assert_double_eq(v, st.depth_max);
    if (!strcmp(si.key, "seconds")) ck_assert_double_eq(v, st.seconds);
    if (!strcmp(si.key, "nodes") || !strcmp(si.key, "cuts")) ck_assert_int_eq(si.integer, 1);
    if (!strcmp(si.key, "gap")) ck_assert_int_eq(si.integer, 0);
    if (si.json) {
      ck_assert_int_lt(nj, 7);
      ck_assert_str_eq(si.key, json[nj++]);
    }
  }
  ck_assert_int_eq(nj, 7);
  ck_assert(isnan(twill_ilp_stat_value(&st, k)));
  ck_assert_int_gt(st.nodes, 1);
  twill_ilp_free(m);
}
END_TEST

/* The pricing rule (ilp/lp/pricing.h) steers the simplex: Dantzig's and
 * devex's paths differ in length on these Netlib LPs, and both end at the
 * published optimum (answers.tsv: afiro -464.75314286, adlittle
 * 225494.96316, blend -30.812149846, boeing1 -335.21356751). */
START_TEST(pricing_rules_same_optimum) {
  static const struct { const char *file; double opt; } lps[] = {
      {"suites/lp/afiro.mps", -4.6475314286E+02}, {"suites/lp/adlittle.mps", 2.2549496316E+05},
      {"suites/lp/blend.mps", -3.0812149846E+01}, {"suites/lp/boeing1.mps", -3.3521356751E+02}};
  int differ = 0;
  for (int k = 0; k < 4; k++) {
    long it[2];
    for (int rule = 0; rule < 2; rule++) {
      char *path = tu_data_path(lps[k].file), err[512];
      twill_ilp *m = twill_ilp_read_mps(path, err, sizeof err);
      free(path);
      ck_assert_msg(m != NULL, "%s", err);
      ck_assert_int_eq(twill_ilp_set_option(m, "pricing", rule), 0);
      ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
      double z = twill_ilp_objective(m);
      ck_assert_msg(fabs(z - lps[k].opt) <= 1e-9 * fmax(1, fabs(lps[k].opt)), "%s rule %d: %.12g",
                    lps[k].file, rule, z);
      twill_ilp_stats st;
      twill_ilp_get_stats(m, &st);
      it[rule] = st.lp_iterations;
      twill_ilp_free(m);
    }
    differ += it[0] != it[1];
  }
  ck_assert_int_ge(differ, 2);
}
END_TEST

START_TEST(cli_options_and_verbose) {
  char *path = write_tmp(parity_mps), *out, *err, *out2, *err2;
  /* bad options: usage errors, said on stderr */
  const char *a1[] = {"ilp", path, "--option", "no_such=1", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 1);
  ck_assert_ptr_nonnull(strstr(err, "unknown option 'no_such'"));
  free(out);
  free(err);
  const char *a2[] = {"ilp", path, "--option", "cuts=0.5", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 1);
  ck_assert_ptr_nonnull(strstr(err, "option cuts"));
  free(out);
  free(err);
  const char *a3[] = {"ilp", path, "--option", "cuts", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 1);
  free(out);
  free(err);
  /* cuts=0 and a node limit: exit 3 (limit); with cuts: exit 2 */
  const char *a4[] = {"ilp", path, "--option", "cuts=0", "--option", "node_limit=3", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 3);
  ck_assert_ptr_nonnull(strstr(out, "status: limit"));
  free(out);
  free(err);
  /* --verbose: the log on stderr, standard output unchanged */
  const char *a5[] = {"ilp", path, "--json", NULL};
  const char *a6[] = {"ilp", path, "--json", "--verbose", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a5), 2);
  ck_assert_int_eq(tu_run_twill(&out2, &err2, a6), 2);
  ck_assert_str_eq(out, out2);
  ck_assert_ptr_null(strstr(err, "cut round"));
  ck_assert_ptr_nonnull(strstr(err2, "cut round 0:"));
  free(out);
  free(err);
  free(out2);
  free(err2);
  unlink(path);
  free(path);
}
END_TEST

START_TEST(cli_help_lists_every_option) {
  char *out, *err;
  const char *a[] = {"help", "ilp", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  twill_ilp_option_info o;
  for (int k = 0; twill_ilp_option(k, &o); k++) {
    /* "  NAME DEFAULT ..." on a line of its own */
    char want[64];
    snprintf(want, sizeof want, "\n  %s ", o.name);
    const char *at = strstr(out, want);
    ck_assert_msg(at != NULL, "twill help ilp does not list %s", o.name);
    double def = strtod(at + strlen(want), NULL);
    ck_assert_double_eq(def, o.def);
  }
  free(out);
  free(err);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("ilp_options");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, option_table_is_consistent);
  tcase_add_test(tc, option_set_checks_names_and_ranges);
  tcase_add_test(tc, options_steer_the_search);
  tcase_add_test(tc, log_callback_levels);
  tcase_add_test(tc, stats_table_matches_fields);
  tcase_add_test(tc, pricing_rules_same_optimum);
  tcase_add_test(tc, cli_options_and_verbose);
  tcase_add_test(tc, cli_help_lists_every_option);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
