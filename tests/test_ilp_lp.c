/* tests/test_ilp_lp.c: the CPLEX LP reader (ilp/lp_format.c): every
 * construct of its grammar with the model it must build, instances whose
 * optimum a peer or a publication gives, the same instances read from LP
 * and from MPS, and malformed inputs with their exact file:line:col. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/ilp.h"
#include "twill/vipr.h"

static twill_ilp *parse(const char *text, char *err, size_t n) {
  return twill_ilp_parse_lp(text, strlen(text), "t.lp", err, n);
}

static int var(const twill_ilp *m, const char *name) {
  for (int j = 0; j < twill_ilp_num_vars(m); j++)
    if (!strcmp(twill_ilp_var_name(m, j), name)) return j;
  ck_abort_msg("no variable %s", name);
  return -1;
}

static int row(const twill_ilp *m, const char *name) {
  for (int i = 0; i < twill_ilp_num_rows(m); i++)
    if (!strcmp(twill_ilp_row_name(m, i), name)) return i;
  ck_abort_msg("no row %s", name);
  return -1;
}

/* Every construct: `3x` (a number directly followed by a name), `0.5e1 w`,
 * an objective continued on the next line with a constant, =< and =>, an
 * unnamed range, a reversed constraint, a free variable, -inf, a double
 * bound, general and binary sections.  The model is read off the text:
 *   max 3x + 2y - z + 5w + 10
 *   c1: x + y + z <= 4      c2: x + 3y <= 6     c3: -1 <= x - y <= 1
 *   c4: y <= 2              lim: w + x >= 1     eq: z - w = 0
 *   0 <= x <= 3 integer, y >= 0, -inf <= z <= 5, w free, b binary.
 * Optimum by hand: eq gives z = w, so the objective is 3x + 2y + 4w + 10
 * and c1 is x + y + w <= 4; w is free and has a positive cost, so c1 is
 * tight: w = 4 - x - y and the objective is 26 - x - 2y, largest at
 * x = y = 0 (both >= 0; c3, lim and z = 4 <= 5 hold): 26 with w = z = 4.
 * glpsol 5.0 on the same model without the constant (range as two rows,
 * c4 as y <= 2) gives 16, by hand 26 - 10. */
static const char *feature_lp =
    "\\ every construct of the reader\n"
    "Maximize\n"
    " profit: 3x + 2 y - z\n"
    "   + 0.5e1 w + 10\n"
    "Subject To\n"
    " c1: x + y + z <= 4\n"
    " c2: x + 3y =< 6\n"
    " -1 <= x - y <= 1   \\ unnamed: c3\n"
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

START_TEST(every_construct) {
  char err[256];
  twill_ilp *m = parse(feature_lp, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_int_eq(twill_ilp_num_vars(m), 5);
  ck_assert_int_eq(twill_ilp_num_rows(m), 6);
  ck_assert_int_eq(twill_ilp_is_maximize(m), 1);
  int x = var(m, "x"), y = var(m, "y"), z = var(m, "z"), w = var(m, "w"), b = var(m, "b");
  /* variables in order of first mention */
  ck_assert(x == 0 && y == 1 && z == 2 && w == 3 && b == 4);
  ck_assert(twill_ilp_obj_coef(m, x) == 3 && twill_ilp_obj_coef(m, y) == 2);
  ck_assert(twill_ilp_obj_coef(m, z) == -1 && twill_ilp_obj_coef(m, w) == 5);
  ck_assert(twill_ilp_coef(m, row(m, "c2"), y) == 3);
  ck_assert(twill_ilp_coef(m, row(m, "c3"), y) == -1);
  double lo, hi;
  twill_ilp_row_bounds(m, row(m, "c2"), &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 6);
  twill_ilp_row_bounds(m, row(m, "c3"), &lo, &hi);
  ck_assert(lo == -1 && hi == 1);
  twill_ilp_row_bounds(m, row(m, "c4"), &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 2);
  ck_assert(twill_ilp_coef(m, row(m, "c4"), y) == 1);
  twill_ilp_row_bounds(m, row(m, "lim"), &lo, &hi);
  ck_assert(lo == 1 && hi == INFINITY);
  twill_ilp_row_bounds(m, row(m, "eq"), &lo, &hi);
  ck_assert(lo == 0 && hi == 0);
  twill_ilp_var_bounds(m, x, &lo, &hi);
  ck_assert(lo == 0 && hi == 3);
  ck_assert_int_eq(twill_ilp_var_type(m, x), TWILL_ILP_INTEGER);
  twill_ilp_var_bounds(m, y, &lo, &hi);
  ck_assert(lo == 0 && hi == INFINITY);
  twill_ilp_var_bounds(m, z, &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 5);
  twill_ilp_var_bounds(m, w, &lo, &hi);
  ck_assert(lo == -INFINITY && hi == INFINITY);
  ck_assert_int_eq(twill_ilp_var_type(m, b), TWILL_ILP_BINARY);
  twill_ilp_var_bounds(m, b, &lo, &hi);
  ck_assert(lo == 0 && hi == 1);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
  ck_assert_double_eq_tol(twill_ilp_objective(m), 26, 1e-9);
  ck_assert_double_eq_tol(twill_ilp_value(m, w), 4, 1e-9);
  ck_assert_double_eq_tol(twill_ilp_value(m, z), 4, 1e-9);
  twill_ilp_free(m);
}
END_TEST

/* GLPK's manual, C.3: a coefficient and its variable on different lines
 * ("+ 2\n a4"), a name before a spaced colon ("two :"), ".20y5", "+1" as
 * right-hand side, and the last bound line winning; C.4's bound forms. */
START_TEST(glpk_manual_forms) {
  const char *text =
      "Minimize Z : - x1 + 2 x2 - 3.5 x3 + 4.997e3x(4) + x5 + x6 +\n"
      "   x7 - .01x8\n"
      "Subject To\n"
      "   one: y1 + 3 a1 - a2 - b >= 1.5\n"
      "   y2 + 2 a3 + 2\n"
      "      a4 - b >= -1.5\n"
      "   two : y4 + 3 a1 + 4 a5 - b <= +1\n"
      "   .20y5 + 5 a2 - b = 0\n"
      "   1.7 y6 - a6 + 5 a777 - b >= 1\n"
      "Bounds\n"
      "   -inf <= a1 <= 100\n"
      "   -100 <= a2\n"
      "   b <= 100\n"
      "   x2 = +123.456\n"
      "   x3 free\n"
      "   x3 >= -5\n"
      "End\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_int_eq(twill_ilp_is_maximize(m), 0);
  ck_assert(twill_ilp_obj_coef(m, var(m, "x(4)")) == 4997);
  ck_assert(twill_ilp_obj_coef(m, var(m, "x8")) == -0.01);
  ck_assert(twill_ilp_obj_coef(m, var(m, "x7")) == 1);
  ck_assert_str_eq(twill_ilp_row_name(m, 1), "c2"); /* unnamed: by position */
  ck_assert(twill_ilp_coef(m, 1, var(m, "a4")) == 2);
  ck_assert(twill_ilp_coef(m, 1, var(m, "a3")) == 2);
  ck_assert(twill_ilp_coef(m, row(m, "c4"), var(m, "y5")) == 0.2);
  double lo, hi;
  twill_ilp_row_bounds(m, row(m, "two"), &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 1);
  twill_ilp_var_bounds(m, var(m, "a1"), &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 100);
  twill_ilp_var_bounds(m, var(m, "a2"), &lo, &hi);
  ck_assert(lo == -100 && hi == INFINITY);
  twill_ilp_var_bounds(m, var(m, "x2"), &lo, &hi);
  ck_assert(lo == 123.456 && hi == 123.456);
  twill_ilp_var_bounds(m, var(m, "x3"), &lo, &hi);
  ck_assert(lo == -5 && hi == INFINITY);
  twill_ilp_free(m);
}
END_TEST

/* Numbers and names: `3e1x` is 30 x (the exponent is greedy), `2ex` is
 * 2 ex (no digits after e), `e9` is a name; `< 4` and `> 1` are <= and
 * >=; '\' comments anywhere; a negative upper bound leaves the lower
 * bound at 0 (CPLEX's and GLPK's rule, not MPS's); a binary variable gets
 * [0, 1] whatever its bounds said (GLPK's rule). */
START_TEST(lexical_rules) {
  const char *text =
      "min 3e1x + 2ex + e9 \\ comment\n"
      "st\n"
      " r: x + ex < 4\n"
      " s: e9 > 1\n"
      "bounds\n"
      " x <= -2\n"
      " 2 <= ex <= 3\n"
      "binaries\n"
      " ex\n"
      "end\n"
      "\\ trailing comment\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_int_eq(twill_ilp_num_vars(m), 3);
  ck_assert(twill_ilp_obj_coef(m, var(m, "x")) == 30);
  ck_assert(twill_ilp_obj_coef(m, var(m, "ex")) == 2);
  ck_assert(twill_ilp_obj_coef(m, var(m, "e9")) == 1);
  double lo, hi;
  twill_ilp_row_bounds(m, row(m, "r"), &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 4);
  twill_ilp_row_bounds(m, row(m, "s"), &lo, &hi);
  ck_assert(lo == 1 && hi == INFINITY);
  twill_ilp_var_bounds(m, var(m, "x"), &lo, &hi);
  ck_assert(lo == 0 && hi == -2);
  twill_ilp_var_bounds(m, var(m, "ex"), &lo, &hi);
  ck_assert(lo == 0 && hi == 1);
  twill_ilp_free(m);
}
END_TEST

/* A keyword before ':' is a constraint's name, not a section (glpsol
 * writes MIPLIB's enigma with rows SOS0, SOS1, ...). */
START_TEST(keyword_labels) {
  const char *text =
      "min x + y\n"
      "st\n"
      " SOS1: x + y >= 1\n"
      "bounds: x - y <= 3\n"
      "end\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_int_eq(twill_ilp_num_rows(m), 2);
  ck_assert_str_eq(twill_ilp_row_name(m, 0), "SOS1");
  ck_assert_str_eq(twill_ilp_row_name(m, 1), "bounds");
  twill_ilp_free(m);
}
END_TEST

/* Constants on the left are moved right: `x + 2 >= 5` is x >= 3; the
 * objective's constant is kept; a range with constants inside. */
START_TEST(constants_moved) {
  const char *text =
      "maximize obj: x + 7\n"
      "subject to\n"
      " a: x + 2 >= 5\n"
      " b: 1 <= x - 1 <= 9\n"
      " c: 10 >= 2 + x\n"
      "end\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  double lo, hi;
  twill_ilp_row_bounds(m, row(m, "a"), &lo, &hi);
  ck_assert(lo == 3 && hi == INFINITY);
  twill_ilp_row_bounds(m, row(m, "b"), &lo, &hi);
  ck_assert(lo == 2 && hi == 10);
  twill_ilp_row_bounds(m, row(m, "c"), &lo, &hi);
  ck_assert(lo == -INFINITY && hi == 8);
  /* max x + 7 with x <= 8 (c), x <= 10 (b): 15 */
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
  ck_assert_double_eq_tol(twill_ilp_objective(m), 15, 1e-9);
  twill_ilp_free(m);
}
END_TEST

/* Instances read from LP and from MPS.  The .lp files in tests/data/lp
 * were written by `glpsol --freemps X.mps --wlp X.lp` (GLPK 5.0) from the
 * MPS files in tests/fuzz/seeds/mps; plan.lp is the example of GLPK's
 * manual, C.7.  Optima: afiro -464.753142857 and sc50b -70 (Netlib's
 * published values), p0033 3089 and flugpl 1201500 (MIPLIB 3's published
 * values), plan 296.216606498 (glpsol 5.0 on plan.lp: 296.2166065; GLPK's
 * manual gives the same model in MPS, B.11); glpsol and cbc 2.10 both
 * agree on each (run by hand). */
static const struct {
  const char *name;
  double opt;
  int has_mps;
} instances[] = {
    {"afiro", -464.753142857, 1}, {"sc50b", -70, 1},   {"p0033", 3089, 1},
    {"flugpl", 1201500, 1},       {"plan", 296.216606498, 0},
};

START_TEST(instances_lp_and_mps) {
  char rel[64], err[512];
  snprintf(rel, sizeof rel, "tests/data/lp/%s.lp", instances[_i].name);
  char *path = tu_src_path(rel);
  twill_ilp *m = twill_ilp_read_lp(path, err, sizeof err);
  free(path);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
  double z = twill_ilp_objective(m);
  ck_assert_msg(fabs(z - instances[_i].opt) <= 1e-8 * (1 + fabs(z)), "%s: %.12g",
                instances[_i].name, z);
  if (instances[_i].has_mps) {
    snprintf(rel, sizeof rel, "tests/fuzz/seeds/mps/%s.mps", instances[_i].name);
    path = tu_src_path(rel);
    twill_ilp *q = twill_ilp_read_mps(path, err, sizeof err);
    free(path);
    ck_assert_msg(q != NULL, "%s", err);
    ck_assert_int_eq(twill_ilp_num_vars(q), twill_ilp_num_vars(m));
    ck_assert_int_eq(twill_ilp_num_rows(q), twill_ilp_num_rows(m));
    ck_assert_int_eq(twill_ilp_solve(q), TWILL_ILP_OPTIMAL);
    ck_assert_msg(fabs(twill_ilp_objective(q) - z) <= 1e-9 * (1 + fabs(z)), "%s: lp %.15g mps %.15g",
                  instances[_i].name, z, twill_ilp_objective(q));
    twill_ilp_free(q);
  }
  twill_ilp_free(m);
}
END_TEST

/* LP names may hold '{' and '}' (and '%' is not a name character here,
 * but '#', '$', ... are), which VIPR reads as delimiters: the certificate
 * writer must still produce one the checker accepts (found by
 * fuzz_lpfile: "x{e" as a variable name).  min x{1} + y} with
 * x{1} + y} >= 1.5, both integer: 2 (by hand: the sum is an integer >= 2). */
START_TEST(braces_in_names_certified) {
  const char *text = "min x{1} + y}\nst\n c{: x{1} + y} >= 1.5\ngeneral\n x{1} y}\nend\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_str_eq(twill_ilp_var_name(m, 0), "x{1}");
  twill_ilp_set_certify(m, 1);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
  ck_assert_double_eq_tol(twill_ilp_objective(m), 2, 1e-9);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert_int_eq(twill_ilp_write_vipr(m, f), 0);
  fclose(f);
  char msg[256];
  ck_assert_msg(twill_vipr_check_mem("braces", buf, len, msg, sizeof msg) == 0, "%s", msg);
  free(buf);
  twill_ilp_free(m);
}
END_TEST

typedef struct {
  const char *text, *msg;
} bad_case;

/* Malformed or unsupported inputs and the exact diagnostic. */
static const bad_case bad[] = {
    {"", "t.lp:1:1: empty file: expected 'minimize' or 'maximize'"},
    {"st\n x >= 1\n",
     "t.lp:1:1: expected 'minimize' or 'maximize' (the objective comes first), got 'st'"},
    {"min x\nmax y\n", "t.lp:2:1: a second objective"},
    {"min x\nst\n c: x + y >= 3 z\n", "t.lp:3:16: a variable on the right-hand side (move it to the left)"},
    {"min x\nst\n c: x + [ x ^ 2 ] >= 3\n",
     "t.lp:3:9: quadratic terms ('[', '^', '*') are not supported"},
    {"min x\nst\n c: x + y >= 3\n c: x >= 1\n", "t.lp:4:2: duplicate constraint name 'c'"},
    {"min x\nst\n c: x + y >= 3\nSOS\n s1: S1:: x:1 y:2\n", "t.lp:4:1: SOS constraints are not supported"},
    {"min x\nst\n c: x + y >= 3\nsemi-continuous\n x\n",
     "t.lp:4:1: semi-continuous variables are not supported"},
    {"min x\nst\n c: x + y >= 3\nlazy constraints\n d: x <= 4\n",
     "t.lp:4:1: lazy constraints and user cuts are not supported"},
    {"min x\nst\n c: b = 1 -> x + y <= 3\n", "t.lp:3:11: indicator constraints ('->') are not supported"},
    {"min x\nst\n c: x + y >= 3\nend\nx\n", "t.lp:5:1: 'x' after 'end' (only comments may follow it)"},
    {"min x\nst\n c: x + y >= inf\n", "t.lp:3:14: the right-hand side must be finite"},
    {"min x\nst\n c: x + y >= 1e30\n", "t.lp:3:14: the right-hand side must be finite"},
    {"min x\nst\n c: x + y\nend\n",
     "t.lp:4:1: expected '<=', '>=' or '=' and a right-hand side, got 'end'"},
    {"min x\nst\n c1: x >= 1 c2: y >= 2\n",
     "t.lp:3:13: unexpected 'c2' after the constraint (each constraint begins on a new line)"},
    {"min x\nst\n c: -1 <= x >= 1\n",
     "t.lp:3:13: a range needs two '<=' or two '>=' ('lo <= expression <= hi')"},
    {"min x\nst\n c: x + y >= 1 <= 3\n",
     "t.lp:3:16: a second sense: a range is written 'lo <= expression <= hi' with constants outside"},
    {"min x\nst\n c: x + . >= 1\n", "t.lp:3:9: unexpected character '.'"},
    {"min x\nst\n c: x + y >= 1e999\n", "t.lp:3:14: number out of range"},
    {"min x + \n", "t.lp:2:1: expected a number or a variable after '+', got 'end of file'"},
    {"min x - inf\n", "t.lp:1:9: 'inf' is a keyword, not a variable or a number"},
    {"min x\nst\n c: x >= 1\nbounds\n x >= +inf\n",
     "t.lp:5:7: a bound of >= +inf: the variable would have no value"},
    {"min x\nbounds\n 2 x <= 5\n",
     "t.lp:3:4: expected '<=', '>=' or '=' (a bound is on one variable, coefficient 1), got 'x'"},
    {"min x\nbounds\n 1 <= x >= 5\n",
     "t.lp:3:9: a double bound needs two '<=' or two '>=' ('l <= x <= u')"},
    {"min x\nbounds\n x 5\n", "t.lp:3:4: expected '<=', '>=', '=' or 'free' after 'x'"},
    {"min x\ngeneral\n x 3\n", "t.lp:3:4: expected a variable name, got '3'"},
    {"min x <= 3\n", "t.lp:1:7: a sense in the objective (is 'subject to' missing?)"},
    {"max: 3x + 2y;\n",
     "t.lp:1:1: 'max:' is lp_solve's LP format, not CPLEX's (write 'maximize' without a colon, "
     "then the objective)"},
    {"maximize\n obj: x\nst\n c: x <= 1\n d x <= 2\n",
     "t.lp:5:4: expected '<=', '>=' or '=' and a right-hand side, got 'x'"},
    {"min x\nst\n c: x + 1e30 y >= 1\n", "t.lp:3:9: infinite coefficient or constant"},
};

START_TEST(malformed) {
  char err[256];
  twill_ilp *m = parse(bad[_i].text, err, sizeof err);
  ck_assert_msg(m == NULL, "case %d parsed", _i);
  ck_assert_str_eq(err, bad[_i].msg);
}
END_TEST

/* A NUL byte inside the text is reported where it is. */
START_TEST(nul_byte) {
  const char text[] = "min x\nst\n c: x\0 >= 1\n";
  char err[256];
  twill_ilp *m = twill_ilp_parse_lp(text, sizeof text - 1, "t.lp", err, sizeof err);
  ck_assert_ptr_null(m);
  ck_assert_str_eq(err, "t.lp:3:6: NUL character");
}
END_TEST

START_TEST(missing_file) {
  char err[256];
  ck_assert_ptr_null(twill_ilp_read_lp("/nonexistent/x.lp", err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.lp:0:0: cannot open"));
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("ilp_lp");
  TCase *tc = tcase_create("lp");
  tcase_add_test(tc, every_construct);
  tcase_add_test(tc, glpk_manual_forms);
  tcase_add_test(tc, lexical_rules);
  tcase_add_test(tc, keyword_labels);
  tcase_add_test(tc, constants_moved);
  tcase_add_loop_test(tc, instances_lp_and_mps, 0, (int)(sizeof instances / sizeof *instances));
  tcase_add_loop_test(tc, malformed, 0, (int)(sizeof bad / sizeof *bad));
  tcase_add_test(tc, braces_in_names_certified);
  tcase_add_test(tc, nul_byte);
  tcase_add_test(tc, missing_file);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
