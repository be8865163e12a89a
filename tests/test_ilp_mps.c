/* tests/test_ilp_mps.c: the MPS reader: every section and bound type, free
 * and fixed layout, and malformed inputs with their exact diagnostics. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/ilp.h"

static twill_ilp *parse(const char *text, char *err, size_t n) {
  return twill_ilp_parse_mps(text, strlen(text), "t.mps", err, n);
}

START_TEST(all_bound_types) {
  const char *text =
      "* comment line\n"
      "NAME          BOUNDS\n"
      "OBJSENSE MAX\n"
      "ROWS\n"
      " N  cost\n"
      " N  other\n"
      " L  r1\n"
      " G  r2\n"
      " E  r3\n"
      " E  r4\n"
      "COLUMNS\n"
      "    a  cost 1  r1 1\n"
      "    a  other 5\n"
      "    MARKER 'MARKER' 'INTORG'\n"
      "    b  cost 2  r2 1\n"
      "    MARKER 'MARKER' 'INTEND'\n"
      "    c  r3 1\n"
      "    d  r4 1\n"
      "    e  r1 1\n"
      "    f  r1 1\n"
      "    g  r1 1\n"
      "    h  r1 1\n"
      "    i  r1 1\n"
      "    j  r1 1\n"
      "RHS\n"
      "    rhs cost -3 r1 10\n"
      "    r2 1\n"
      "RANGES\n"
      "    rng r1 4  r2 -2\n"
      "    rng r3 5  r4 -5\n"
      "BOUNDS\n"
      " UP bnd a 4\n"
      " LO bnd b -1\n"
      " FX bnd c 2\n"
      " FR bnd d\n"
      " MI bnd e\n"
      " PL bnd f\n"
      " BV bnd g\n"
      " LI bnd h 2\n"
      " UI bnd i 7\n"
      " UP bnd j -1\n"
      "ENDATA\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_int_eq(twill_ilp_num_vars(m), 10);
  ck_assert_int_eq(twill_ilp_num_rows(m), 4); /* the second N row is dropped */
  ck_assert_int_eq(twill_ilp_is_maximize(m), 1);
  double lb, ub;
  twill_ilp_var_bounds(m, 0, &lb, &ub);
  ck_assert(lb == 0 && ub == 4);
  ck_assert_int_eq(twill_ilp_var_type(m, 1), TWILL_ILP_INTEGER);
  twill_ilp_var_bounds(m, 1, &lb, &ub);
  ck_assert(lb == -1 && ub == INFINITY);
  twill_ilp_var_bounds(m, 2, &lb, &ub);
  ck_assert(lb == 2 && ub == 2);
  twill_ilp_var_bounds(m, 3, &lb, &ub);
  ck_assert(lb == -INFINITY && ub == INFINITY);
  twill_ilp_var_bounds(m, 4, &lb, &ub);
  ck_assert(lb == -INFINITY && ub == INFINITY);
  twill_ilp_var_bounds(m, 5, &lb, &ub);
  ck_assert(lb == 0 && ub == INFINITY);
  ck_assert_int_eq(twill_ilp_var_type(m, 6), TWILL_ILP_BINARY);
  twill_ilp_var_bounds(m, 6, &lb, &ub);
  ck_assert(lb == 0 && ub == 1);
  ck_assert_int_eq(twill_ilp_var_type(m, 7), TWILL_ILP_INTEGER);
  twill_ilp_var_bounds(m, 7, &lb, &ub);
  ck_assert(lb == 2 && ub == INFINITY);
  twill_ilp_var_bounds(m, 8, &lb, &ub);
  ck_assert(lb == 0 && ub == 7);
  /* UP with a negative value and default lower bound: lower becomes -inf */
  twill_ilp_var_bounds(m, 9, &lb, &ub);
  ck_assert(lb == -INFINITY && ub == -1);
  /* rows: L r1 rhs 10 range 4 -> [6, 10]; G r2 rhs 1 range |-2| -> [1, 3];
   * E r3 rhs 0 range 5 -> [0, 5]; E r4 range -5 -> [-5, 0] */
  double lo, hi;
  twill_ilp_row_bounds(m, 0, &lo, &hi);
  ck_assert(lo == 6 && hi == 10);
  twill_ilp_row_bounds(m, 1, &lo, &hi);
  ck_assert(lo == 1 && hi == 3);
  twill_ilp_row_bounds(m, 2, &lo, &hi);
  ck_assert(lo == 0 && hi == 5);
  twill_ilp_row_bounds(m, 3, &lo, &hi);
  ck_assert(lo == -5 && hi == 0);
  ck_assert(twill_ilp_obj_coef(m, 0) == 1 && twill_ilp_obj_coef(m, 1) == 2);
  ck_assert(twill_ilp_coef(m, 0, 0) == 1);
  twill_ilp_free(m);
}
END_TEST

START_TEST(fixed_format_names_with_spaces) {
  /* fixed columns: field 1 at 2-3, 2 at 5-12, 3 at 15-22, 4 at 25-36 */
  const char *text =
      "NAME          FIXED\n"
      "ROWS\n"
      " N  COST\n"
      " G  ROW 1\n"
      "COLUMNS\n"
      "    X 1       COST               1.    ROW 1     1.\n"
      "RHS\n"
      "    RHS       ROW 1              3.\n"
      "ENDATA\n";
  char err[256];
  twill_ilp *m = parse(text, err, sizeof err);
  ck_assert_msg(m != NULL, "%s", err);
  ck_assert_str_eq(twill_ilp_var_name(m, 0), "X 1");
  ck_assert_str_eq(twill_ilp_row_name(m, 0), "ROW 1");
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
  ck_assert_double_eq_tol(twill_ilp_objective(m), 3, 1e-12);
  twill_ilp_free(m);
}
END_TEST

typedef struct {
  const char *text, *msg;
} bad_case;

/* Each malformed input and the exact diagnostic (file:line:col). */
static const bad_case bad[] = {
    {"NAME\nFOO\nENDATA\n", "t.mps:2:1: unknown section 'FOO'"},
    {"NAME\nROWS\n X  r1\nENDATA\n", "t.mps:3:2: unknown row type 'X'"},
    {"NAME\nROWS\n L  r1\n G  r1\nENDATA\n", "t.mps:4:5: duplicate row 'r1'"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    x  r9  1\nENDATA\n", "t.mps:5:8: unknown row 'r9'"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    x  obj  1.5e\nENDATA\n", "t.mps:5:13: bad number '1.5e'"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    x  obj  1\nBOUNDS\n XX bnd x 1\nENDATA\n",
     "t.mps:7:2: unknown bound type 'XX'"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    x  obj  1\nBOUNDS\n SC bnd x 1\nENDATA\n",
     "t.mps:7:2: semi-continuous bounds (SC) are not supported"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    x  obj  1\nBOUNDS\n UP bnd y 1\nENDATA\n",
     "t.mps:7:9: unknown column 'y'"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    x  obj  1\n", "t.mps:6:1: missing ENDATA"},
    {"NAME\nROWS\n N obj\nCOLUMNS\n    MARKER 'MARKER' 'INTXXX'\nENDATA\n",
     "t.mps:5:21: unknown marker ''INTXXX''"},
    {"NAME\nOBJSENSE\n    UP\nENDATA\n", "t.mps:3:5: bad OBJSENSE 'UP' (expected MIN or MAX)"},
    {"NAME\nROWS\n N obj\n L r\nCOLUMNS\n    x  r  1\n    y  r  1\n    x  obj 1\nENDATA\n",
     "t.mps:8:5: column 'x' is not contiguous"},
    {"NAME\nROWS\n N obj\nRANGES\n    rng obj 1\nENDATA\n", "t.mps:5:9: RANGES on free row 'obj'"},
    {"  x 1\n", "t.mps:1:3: data line outside a section"},
};

START_TEST(malformed) {
  char err[256];
  twill_ilp *m = parse(bad[_i].text, err, sizeof err);
  ck_assert_msg(m == NULL, "case %d parsed", _i);
  ck_assert_str_eq(err, bad[_i].msg);
}
END_TEST

START_TEST(missing_file) {
  char err[256];
  ck_assert_ptr_null(twill_ilp_read_mps("/nonexistent/x.mps", err, sizeof err));
  ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.mps:0:0: cannot open"));
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("ilp_mps");
  TCase *tc = tcase_create("mps");
  tcase_add_test(tc, all_bound_types);
  tcase_add_test(tc, fixed_format_names_with_spaces);
  tcase_add_loop_test(tc, malformed, 0, (int)(sizeof bad / sizeof *bad));
  tcase_add_test(tc, missing_file);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
