/* twill/sat.h: a CDCL SAT solver (libc only) with DRAT/LRAT proofs.
 *
 * Literals are DIMACS-style signed ints: variable v >= 1, literal v or -v.
 * Variables are created with twill_sat_new_var() (or implicitly: a clause
 * that names a variable above the current count creates it).
 *
 * Incremental use (IPASIR-like): add clauses, assume literals, solve; the
 * assumptions hold for one solve only.  Variables and clauses may be added
 * between solves.  After a solve that returned 20 under assumptions,
 * twill_sat_failed(s, lit) tells whether assumption lit is part of the
 * final conflict (the failed assumptions form an UNSAT core of them).
 *
 * Proofs: with twill_sat_set_proof() every learned clause (addition) and
 * every removed clause (deletion) is written as the solver goes, in text
 * DRAT, binary DRAT or LRAT (clause ids: the input clauses are 1..m in the
 * order they were added, every added or derived clause gets the next id).
 * A proof refutes the clauses added before the final solve; solving under
 * assumptions writes no empty clause.
 */
#ifndef TWILL_SAT_H
#define TWILL_SAT_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

typedef struct twill_sat twill_sat;

enum { TWILL_SAT_UNKNOWN = 0, TWILL_SAT_SAT = 10, TWILL_SAT_UNSAT = 20 };

enum {
  TWILL_PROOF_DRAT_TEXT = 0,
  TWILL_PROOF_DRAT_BINARY = 1,
  TWILL_PROOF_LRAT = 2 /* text LRAT with hints */
};

/* Create / free a solver.  twill_sat_new returns NULL when out of memory. */
twill_sat *twill_sat_new(void);
void twill_sat_free(twill_sat *s);

/* A new variable; returns its index (1-based), or 0 when out of memory. */
int twill_sat_new_var(twill_sat *s);
int twill_sat_num_vars(const twill_sat *s);

/* Add a clause of n literals (no terminating 0).  Returns 0 when the clause
 * set has become unsatisfiable at level 0 (further solves return 20), 1
 * otherwise, -1 on out of memory or a literal 0. */
int twill_sat_add_clause(twill_sat *s, const int *lits, int n);

/* Assume lit for the next solve only. */
void twill_sat_assume(twill_sat *s, int lit);

/* Solve: 10 SAT, 20 UNSAT, 0 unknown (limit reached or interrupted). */
int twill_sat_solve(twill_sat *s);

/* After 10: value of a literal in the model: 1 true, -1 false (every
 * variable has a value).  0 if there is no model. */
int twill_sat_value(const twill_sat *s, int lit);
/* After 20 under assumptions: 1 if assumption lit is a failed assumption. */
int twill_sat_failed(const twill_sat *s, int lit);

/* Limits for the following solves: conflicts (< 0: none), seconds of wall
 * time (<= 0: none).  Interruption is clean: twill_sat_interrupt only sets a
 * volatile sig_atomic_t flag, so it may be called from a signal handler or
 * another thread; solve returns 0 soon after and the flag is cleared at the
 * start of the next solve. */
void twill_sat_set_conflict_limit(twill_sat *s, int64_t conflicts);
void twill_sat_set_time_limit(twill_sat *s, double seconds);
void twill_sat_interrupt(twill_sat *s);
/* Stop every later solve of s soon after *flag becomes nonzero (NULL: no
 * such flag).  Unlike twill_sat_interrupt it is never cleared by a solve,
 * so another thread can stop a search of several solves without racing
 * the start of the next one. */
void twill_sat_set_cancel(twill_sat *s, const atomic_int *flag);
/* Has an interrupt or the time limit struck?  (For a theory's long loops:
 * its propagate callback then returns nonzero and the solve ends unknown.) */
int twill_sat_stop_requested(twill_sat *s);
/* Async-signal-safe: every solver of the process stops at its next check
 * and returns 0 (for a SIGINT handler; there is no reset). */
void twill_sat_interrupt_all(void);

/* Options (for the self-tester and tuning), integer valued, one table
 * (sat/options.h: name, default, range, help; `twill help sat` lists it):
 *   "seed"      seed for the initial variable order (default 0: no
 *               randomization; deterministic for a given seed)
 *   "restart"   0 glucose-style EMA of LBD, 1 Luby (unit 100), 2 (default)
 *               alternate: focused EMA phases and stable Luby phases of
 *               doubling length (2000, 4000, ... conflicts)
 *   "minimize"  1 recursive clause minimization (default), 0 off
 *   "phase"     initial phase: 0 false (default), 1 true
 *   "reduce"    1 LBD-based learned clause reduction (default), 0 keep all
 *   "reduceint", "reduceinc", "decay", "restartmargin": the constants of
 *               the reduction schedule, VSIDS and the EMA restarts
 * set_option returns 1, or 0 (and changes nothing) for an unknown name or a
 * value outside the option's range; get_option returns 1 with the value in
 * *value, 0 for an unknown name. */
int twill_sat_set_option(twill_sat *s, const char *name, int64_t value);
int twill_sat_get_option(const twill_sat *s, const char *name, int64_t *value);

/* A row of the option table: the i-th option for 0 <= i < the number of
 * options, NULL beyond (the listing a front end prints). */
typedef struct twill_sat_option_info {
  const char *name;
  int64_t def, lo, hi;
  const char *help;
} twill_sat_option_info;
const twill_sat_option_info *twill_sat_option(int i);

/* Proof output: f == NULL turns proofs off.  Call before adding clauses.
 * The solver does not close f (it flushes it at the end of each solve). */
void twill_sat_set_proof(twill_sat *s, FILE *f, int format);

/* Statistics, one table: X(field, line, name, help).  The table makes the
 * fields of twill_sat_stats and the rows twill_sat_stat() lists; `twill
 * sat` prints the rows of line L (L >= 1) on its L-th statistics line as
 * "c NAME VALUE NAME VALUE ..."; line 0 is not printed. */
#define TWILL_SAT_STATS(X)                                                     \
  X(conflicts, 1, "conflicts", "conflicts analyzed")                           \
  X(decisions, 1, "decisions", "decisions (not counting assumptions)")         \
  X(propagations, 1, "propagations", "literals propagated")                   \
  X(restarts, 2, "restarts", "restarts")                                       \
  X(reductions, 2, "reductions", "reductions of the learned clauses")          \
  X(learned, 2, "learned", "clauses learned by conflict analysis")             \
  X(deleted, 2, "deleted", "clauses deleted (reduction, satisfied at level 0)") \
  X(learned_literals, 3, "learned-literals", "literals of the learned clauses") \
  X(minimized_literals, 3, "minimized-literals",                               \
    "literals removed from them by minimization")                              \
  X(clauses, 0, "clauses", "input clauses stored now")                         \
  X(learnts, 0, "learnts", "learned and theory clauses stored now")

typedef struct twill_sat_stats {
#define TWILL_SAT_STAT_FIELD(field, line, name, help) uint64_t field;
  TWILL_SAT_STATS(TWILL_SAT_STAT_FIELD)
#undef TWILL_SAT_STAT_FIELD
} twill_sat_stats;
void twill_sat_get_stats(const twill_sat *s, twill_sat_stats *out);

/* The i-th row of the statistics table, NULL beyond the last; its value in
 * a twill_sat_stats is twill_sat_stat_value(st, i). */
typedef struct twill_sat_stat_info {
  const char *name;
  int line;
  const char *help;
} twill_sat_stat_info;
const twill_sat_stat_info *twill_sat_stat(int i);
uint64_t twill_sat_stat_value(const twill_sat_stats *st, int i);

/* ---- Theory propagators (hook for the integer/linear module) ----------
 *
 * A theory observes assignments and may imply literals or report conflicts.
 *   propagate(ctx, s, lits, n): called when unit propagation reaches a
 *       fixpoint and literals were assigned since the previous call, with
 *       those literals (in trail order; after a backtrack the slice
 *       restarts at the new trail end).  The theory calls twill_sat_theory_imply(s, lit) for each
 *       literal it implies (the reason is asked lazily) and
 *       twill_sat_theory_conflict(s, clause, n) with a clause all of whose
 *       literals are false.  Returns 0 normally, nonzero to stop solving
 *       (solve then returns 0).  The solver propagates the implied
 *       literals and calls propagate again until nothing new happens.
 *   explain(ctx, lit, &clause): the reason of an implied literal lit, as a
 *       clause containing lit whose other literals were false before lit was
 *       implied; returns its size, the array stays owned by the theory and
 *       valid until the next call.  Called lazily, when the reason is
 *       needed: by conflict analysis and minimization, by the analysis of
 *       failed assumptions, and for a literal implied at level 0 when a
 *       proof is written; at most once per implied literal and assignment.
 *   backtrack(ctx, level): the solver undid every assignment above level.
 *   twill_sat_level(s) is the current decision level.
 * Explanations and conflicts enter the clause database as learned clauses
 * with their own clause ids; in a proof they are written as lemmas that a
 * pure DRAT checker can only accept if they follow from the clauses (the
 * integer module must also add its defining clauses, or certify them apart).
 */
typedef struct twill_sat_theory {
  void *ctx;
  int (*propagate)(void *ctx, twill_sat *s, const int *lits, int n);
  int (*explain)(void *ctx, int lit, const int **clause);
  void (*backtrack)(void *ctx, int level);
} twill_sat_theory;

void twill_sat_set_theory(twill_sat *s, const twill_sat_theory *t);
/* Returns 1 if lit was implied (or already true), 0 if lit is false (the
 * theory must then report a conflict). */
int twill_sat_theory_imply(twill_sat *s, int lit);
void twill_sat_theory_conflict(twill_sat *s, const int *clause, int n);
int twill_sat_level(const twill_sat *s);
/* Value of a literal in the current (partial) assignment: 1, -1, or 0. */
int twill_sat_current_value(const twill_sat *s, int lit);
/* The table behind it, for a theory's inner loops (a call per literal
 * was a fifth of a joint search's time): the value of lit = +-v is
 * (*twill_sat_value_table(s))[2 * (v - 1) + (lit < 0)] for 1 <= v <= the
 * variables made so far.  The table moves when variables are added, so
 * keep the address returned and read through it each time. */
const int8_t *const *twill_sat_value_table(const twill_sat *s);

#endif
