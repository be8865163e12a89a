/* twill/ilp.h: LP/MIP modeling and solving (bounded simplex + branch and
 * bound), MPS and CPLEX LP input, VIPR certificates.
 *
 * A model is an opaque handle:
 *
 *     twill_ilp *m = twill_ilp_new();
 *     int x = twill_ilp_add_var(m, "x", TWILL_ILP_INTEGER, 0, 10, 1.0);
 *     int y = twill_ilp_add_var(m, "y", TWILL_ILP_BINARY, 0, 1, -2.0);
 *     int idx[] = {x, y}; double val[] = {1, 3};
 *     twill_ilp_add_row(m, "c1", 2, idx, val, 'L', 4, 0);   // x + 3y <= 4
 *     twill_ilp_set_maximize(m, 0);                           // minimize
 *     if (twill_ilp_solve(m) == TWILL_ILP_OPTIMAL)
 *       printf("%g\n", twill_ilp_objective(m));
 *     twill_ilp_write_vipr(m, f);                              // certificate
 *     twill_ilp_free(m);
 *
 * Bounds are doubles; TWILL_ILP_INF (= HUGE_VAL) means unbounded.  Indices of
 * variables and rows are 0, 1, ... in order of creation.  Results are
 * deterministic: same model and limits, same answer (the time limit can only
 * turn a proof into TWILL_ILP_LIMIT).
 */
#ifndef TWILL_ILP_H
#define TWILL_ILP_H

#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

#define TWILL_ILP_INF HUGE_VAL

typedef struct twill_ilp twill_ilp;

typedef enum {
  TWILL_ILP_CONTINUOUS = 0,
  TWILL_ILP_INTEGER = 1,
  TWILL_ILP_BINARY = 2 /* integer with bounds intersected with [0, 1] */
} twill_ilp_vartype;

typedef enum {
  TWILL_ILP_OPTIMAL = 0,
  TWILL_ILP_INFEASIBLE = 1,
  TWILL_ILP_UNBOUNDED = 2,
  TWILL_ILP_LIMIT = 3,   /* node/time limit: see has_solution, stats */
  TWILL_ILP_ERROR = 4,   /* out of memory or numerical failure */
  TWILL_ILP_UNSOLVED = 5 /* solve not called yet */
} twill_ilp_status;

/* Statistics of the last solve, one table: each row
 * X(type, field, key, json, help) is a field of twill_ilp_stats, listed by
 * twill_ilp_stat under key, which is also the name `twill ilp --json`
 * prints it under among its "stats" (the rows with json 1, in this
 * order). */
#define TWILL_ILP_STATS(X)                                                            \
  X(long, nodes, "nodes", 1, "nodes processed (LP solved, or closed by propagation)") \
  X(long, lp_iterations, "lp_iterations", 1,                                          \
    "simplex iterations of the search's LP (nodes, dives, strong branching)")         \
  X(double, best_bound, "best_bound", 1, "proven bound on the objective")             \
  X(double, gap, "gap", 1, "|objective - best_bound| / max(1, |objective|)")          \
  X(int, depth_max, "max_depth", 1, "depth of the deepest node whose LP was solved")  \
  X(int, cuts, "cuts", 1, "cut rows added at the root (every kind)")                  \
  X(double, root_bound, "root_bound", 1,                                              \
    "bound of the last root LP of the cut rounds (objective sense; 0: none ran)")     \
  X(int, incumbents, "incumbents", 0, "improving solutions found (MIP start included)") \
  X(double, seconds, "seconds", 0, "wall clock of the last solve")

typedef struct twill_ilp_stats {
#define TWILL_ILP_STAT_FIELD(type, field, key, json, help) type field;
  TWILL_ILP_STATS(TWILL_ILP_STAT_FIELD)
#undef TWILL_ILP_STAT_FIELD
} twill_ilp_stats;

/* Row k (0, 1, ...) of the statistics table: 1, or 0 past the last. */
typedef struct twill_ilp_stat_info {
  const char *key, *help;
  int integer; /* long or int (the value is exact as a double) */
  int json;    /* printed by `twill ilp --json` */
} twill_ilp_stat_info;
int twill_ilp_stat(int k, twill_ilp_stat_info *info);
/* The value of statistic k in st. */
double twill_ilp_stat_value(const twill_ilp_stats *st, int k);

twill_ilp *twill_ilp_new(void);
void twill_ilp_free(twill_ilp *m);

/* Variables: returns the index, or -1 (out of memory, lb > ub, NaN).
 * name may be NULL (then "x<index>"). */
int twill_ilp_add_var(twill_ilp *m, const char *name, twill_ilp_vartype type,
                      double lb, double ub, double obj);
/* Rows: sense 'L' (<= rhs), 'G' (>= rhs), 'E' (= rhs) or 'R' (ranged:
 * rhs <= row <= rhs + range, range >= 0).  Duplicate indices are summed.
 * Returns the row index or -1. */
int twill_ilp_add_row(twill_ilp *m, const char *name, int nnz, const int *idx,
                      const double *val, char sense, double rhs, double range);
void twill_ilp_set_obj(twill_ilp *m, int var, double coef);
void twill_ilp_set_obj_const(twill_ilp *m, double c0);
void twill_ilp_set_maximize(twill_ilp *m, int maximize);
void twill_ilp_set_name(twill_ilp *m, const char *name);

int twill_ilp_num_vars(const twill_ilp *m);
int twill_ilp_num_rows(const twill_ilp *m);
const char *twill_ilp_var_name(const twill_ilp *m, int var);
const char *twill_ilp_row_name(const twill_ilp *m, int row);
twill_ilp_vartype twill_ilp_var_type(const twill_ilp *m, int var);
void twill_ilp_var_bounds(const twill_ilp *m, int var, double *lb, double *ub);
/* Row i: lower and upper limits of its activity (-INF/INF when absent). */
void twill_ilp_row_bounds(const twill_ilp *m, int row, double *lo, double *hi);
/* Coefficient of var in row (0 when absent); objective coefficient. */
double twill_ilp_coef(const twill_ilp *m, int row, int var);
/* The stored nonzeros, k < twill_ilp_num_nonzeros(m), in the order the
 * rows gave them (a duplicate index given to add_row is an entry of its
 * own: sum them).  For readers that would otherwise call twill_ilp_coef
 * for every row and variable. */
int twill_ilp_num_nonzeros(const twill_ilp *m);
void twill_ilp_nonzero(const twill_ilp *m, int k, int *row, int *var, double *val);
/* act[i] = row i's activity at the point x (num_vars values). */
void twill_ilp_activity(const twill_ilp *m, const double *x, double *act);
double twill_ilp_obj_coef(const twill_ilp *m, int var);
int twill_ilp_is_maximize(const twill_ilp *m);

/* Options: one table (ilp/options.h; `twill help ilp` lists each with its
 * default and range) of named numeric settings.  twill_ilp_set_option
 * returns 0, or -1 (the option unchanged) for an unknown name, a value
 * outside the option's range, or a fraction where it takes integers. */
int twill_ilp_set_option(twill_ilp *m, const char *name, double value);
/* The option's value in *value: 0, or -1 for an unknown name. */
int twill_ilp_get_option(const twill_ilp *m, const char *name, double *value);
typedef struct twill_ilp_option_info {
  const char *name;
  double def, lo, hi;
  int integer; /* takes integers only */
  const char *help;
} twill_ilp_option_info;
/* Row k (0, 1, ...) of the option table: 1, or 0 past the last. */
int twill_ilp_option(int k, twill_ilp_option_info *info);

/* Log lines: the solver prints nothing itself; with verbosity >= 1 it
 * hands each line (no newline) to fn, with its level (1, 2) and ctx.
 * fn NULL: no log (the default). */
typedef void (*twill_ilp_log_fn)(void *ctx, int level, const char *line);
void twill_ilp_set_log(twill_ilp *m, twill_ilp_log_fn fn, void *ctx);

/* Shorthands for options.  Record what a certificate needs (option
 * certify: call before solve when you intend to call twill_ilp_write_vipr;
 * a mixed model's reduced-cost fixings then stop at depth 10 and within a
 * budget of certificate size). */
void twill_ilp_set_certify(twill_ilp *m, int on);

/* Limits (<= 0: none; options time_limit, node_limit). */
void twill_ilp_set_time_limit(twill_ilp *m, double seconds);
void twill_ilp_set_node_limit(twill_ilp *m, long nodes);
/* Stop the solve soon after *flag becomes nonzero, as on a time limit
 * (another thread's cancel; NULL: none). */
void twill_ilp_set_cancel(twill_ilp *m, const atomic_int *flag);
/* Root cutting planes (option cuts): Gomory mixed-integer, c-MIR,
 * knapsack cover and divisibility cuts and tightened big-M rows (on by
 * default; each is derived in the certificate; options cut_gmi, ...
 * choose among them). */
void twill_ilp_set_cuts(twill_ilp *m, int on);
/* Reduced-cost fixing (option rcfix, on by default).  Under certify each
 * fixing is derived in the certificate from the incumbent's cutoff, which
 * needs the SOL solution to be exactly feasible; when the certificate
 * cannot be written, solve again with it off (the `twill ilp` front end
 * does). */
void twill_ilp_set_rcfix(twill_ilp *m, int on);
/* A known solution (one value per variable, copied) to start the search
 * from: if it meets every bound, integrality and row, it is the first
 * incumbent (node 0 in the history), as good as one the search found,
 * so a certificate can close the tree on it.  Ignored otherwise.  0, or
 * -1 out of memory. */
int twill_ilp_set_start(twill_ilp *m, const double *x);

twill_ilp_status twill_ilp_solve(twill_ilp *m);
/* Async-signal-safe: every solve of the process stops at its next check,
 * as on a time limit (for a SIGINT handler; there is no reset). */
void twill_ilp_interrupt_all(void);
/* Whether twill_ilp_interrupt_all was called (for searches outside ilp/
 * that obey the same interrupt, e.g. the modulo heuristic). */
int twill_ilp_interrupted(void);
twill_ilp_status twill_ilp_status_of(const twill_ilp *m);
const char *twill_ilp_status_name(twill_ilp_status s);
/* Whether a feasible solution is known (always after OPTIMAL). */
int twill_ilp_has_solution(const twill_ilp *m);
double twill_ilp_objective(const twill_ilp *m);   /* incl. constant */
double twill_ilp_value(const twill_ilp *m, int var);
void twill_ilp_get_stats(const twill_ilp *m, twill_ilp_stats *st);
/* Whether the last search fixed variables by reduced cost (fixings a
 * certificate must derive from the incumbent's cutoff). */
int twill_ilp_has_rcfix(const twill_ilp *m);
/* Incumbent history: k-th improving solution's objective and node. */
int twill_ilp_history(const twill_ilp *m, int k, double *obj, long *node);

/* Write a VIPR 1.0 certificate of the last solve's result (optimal or
 * infeasible) to f; needs twill_ilp_set_certify(m, 1) before the solve.
 * Leaves are closed by `lin` with the node LP's duals (or Farkas ray),
 * rounded to decimals and made exact by bound-constraint multipliers; where
 * a variable's exact reduced cost lands on a side with no finite bound, the
 * row multipliers are projected exactly (a division-free exact solve on up
 * to 6 such variables, exact rationals, slightly weaker stated bound), with
 * a one-variable-at-a-time repair as fallback; both can fail for many
 * such variables sharing rows.  The objective constant is not part of the
 * certificate.
 * Returns 0 on success, -1 when no certificate can be given (limit,
 * unbounded, no certify data, or a multiplier could not be made exact). */
int twill_ilp_write_vipr(const twill_ilp *m, FILE *f);

/* MPS (fixed and free): parse text of length len (file name used in
 * diagnostics).  Returns the model or NULL with "file:line:col: message"
 * in err (errlen bytes). */
twill_ilp *twill_ilp_parse_mps(const char *text, size_t len, const char *file,
                               char *err, size_t errlen);
twill_ilp *twill_ilp_read_mps(const char *path, char *err, size_t errlen);

/* CPLEX LP format (the grammar is in ilp/lp_format.c's header): objective,
 * constraints (ranges as lo <= expression <= hi), bounds, general and
 * binary sections.  Semi-continuous variables, SOS, quadratic terms,
 * indicators and lazy constraints are rejected.  Same contract as the MPS
 * reader: the model, or NULL with "file:line:col: message" in err. */
twill_ilp *twill_ilp_parse_lp(const char *text, size_t len, const char *file,
                              char *err, size_t errlen);
twill_ilp *twill_ilp_read_lp(const char *path, char *err, size_t errlen);

#endif
