/* twill/smt.h: integer variables and linear propagators on the CDCL core,
 * with theory lemmas that a separate checker re-derives in exact arithmetic.
 *
 * Integer variable x in [lo, hi] is encoded by order literals [x <= k],
 * lo <= k < hi, created lazily: a variable starts with its bounds only, and
 * [x <= k] becomes a SAT variable the first time a propagator implies that
 * bound, a caller asks for it (twill_smt_le_lit), or the search needs a
 * decision on an unfixed variable (then [x <= lb]).  The order between the
 * literals of x ([x <= a] -> [x <= b] for a <= b, the ladder) is kept by
 * the theory rather than by clauses: it implies the literals a new bound
 * decides, and reports the pair of literals that contradicts as a conflict;
 * these implications and conflicts are theory lemmas of constraint 0 (the
 * domain).  Domains are bounded only by |lo|, |hi| <= 2^40.
 * Booleans are plain SAT literals; in a linear term a literal counts 0/1.
 *
 * Constraints (each returns its id >= 1, or -1 on bad arguments / memory):
 *   linear      sum a_i * t_i <= b, optionally reified: r -> (sum <= b)
 *   diff        x - y <= c                      (a linear constraint; every
 *               unconditional one with coefficients 1 and -1, however
 *               made, goes to the difference propagator: a Bellman-Ford
 *               fixpoint on tentative bounds per round, then the bounds
 *               of the fixpoint are implied (as a rule the final ones:
 *               see dp_settle), each explained by its constraint and the
 *               other variable's bound, so a chain of n of them costs
 *               O(n) literals, not one per intermediate step)
 *   pb          sum a_i * l_i <= b over literals (a linear constraint)
 *   modulo      at most cap of the uses (x_j + off_j) fall in one residue
 *               class mod period; propagated and explained with the start
 *               times that are fixed, never by expanding the period's
 *               slots, and by the window rule: uses that the bounds
 *               confine to w < period consecutive times take w distinct
 *               residues, so more than cap * w of them is a conflict,
 *               explained by their bounds.
 * Propagation is bounds propagation in __int128 (coefficients and bounds are
 * limited to |v| <= 2^40 so that every sum fits); a constraint is revisited
 * only when one of its variables changes.  Long propagation loops (a cycle
 * that tightens by one per turn over a wide domain) check the time limit
 * and twill_sat_interrupt_all.
 *
 * Proofs: twill_smt_enable_proof() before adding anything; after a solve,
 * twill_smt_write_proof() writes a text certificate:
 *   p twill-smt 2
 *   T lit                     the constant-true literal
 * then, in the order the caller and the search created them:
 *   i VAR LO HI               int var number VAR (0, 1, ... in order)
 *   o VAR K LIT               order literal: SAT var LIT means [VAR <= K],
 *                             LO <= K < HI; LIT is fresh (above every
 *                             variable named so far), each (VAR, K) once
 *   k ID lin R N a1 t1 ... aN tN B   constraint ID: (R != 0 -> ) sum <= B;
 *                             a term is xVAR (int) or lLIT (literal)
 *   k ID mod CAP PERIOD N x1 off1 ... xN offN
 *   a LITS 0                  an input clause (user, bound, [x = k] defs)
 * then
 *   t ID LITS 0               theory lemma justified by constraint ID;
 *                             ID 0: by the domains alone (the ladder)
 *   LITS 0 / d LITS 0         the CDCL core's DRAT lines (added / deleted)
 * An o line only names a fresh variable, so it adds nothing to what the
 * input states; a literal the search creates late is introduced after the
 * input lines written before it, so the lines a fresh encoding writes
 * (twill_smt_write_proof before any solve) are a prefix of every later
 * certificate of the same encoding.
 * twill_smt_check_proof() (sat/smt_check.c, no code shared with the
 * propagators) accepts a t line iff the constraint together with the
 * negation of the lemma, read as bounds, is infeasible by bound reasoning
 * (linear: the least sum exceeds b; modulo: more than cap fixed uses in
 * one residue, more uses than cap * period, or the window rule; ID 0: iff
 * the negation alone empties a domain), and a DRAT addition iff
 * it is RUP or a checked theory lemma; the certificate refutes the input
 * iff the empty clause is derived.
 *
 * Text format (`twill smt FILE`), one directive a line, '#' to end of line
 * is a comment, tokens separated by blanks, integers |v| <= 2^40:
 *   int NAME LO HI                 integer variable in [LO, HI]
 *   bool NAME                      Boolean (0/1 in sums; ~NAME negates)
 *   lin TERMS REL B                TERMS: COEF NAME [+ COEF NAME]...,
 *                                  REL one of <= >= =; NAME int or Boolean
 *   diff X Y <= C                  X - Y <= C
 *   pb TERMS REL B                 as lin, Booleans only
 *   mod CAP PERIOD X@OFF ...       modulo resource (uses X+OFF)
 *   imp LIT lin TERMS REL B        LIT -> (linear)
 *   clause LIT ...                 disjunction of Booleans
 *   min X                          minimize integer X (at most once)
 * Why this format rather than OPB extended with integers: the scheduling
 * problems are mostly integer difference and modulo constraints, which OPB
 * can only state through a bit-blasted encoding; a line per constraint kind
 * keeps the propagator that handles it (and the constraint id its lemmas
 * name) visible, and the names make models and errors readable.
 * Output follows the SAT competition: "s SATISFIABLE" / "s UNSATISFIABLE" /
 * "o V" then "s OPTIMUM FOUND", then "v NAME VALUE" lines; exit 10 / 20 /
 * 0 (unknown), 1 on input errors ("file:line:col: message").
 *
 * Optimization: twill_smt_minimize finds a model, binary-searches the
 * optimum under assumptions [x <= mid] (one incremental solver, learned
 * clauses kept), then adds the input clause [x <= opt-1] and solves once
 * more: the certificate refutes "constraints and x <= optimum-1".
 */
#ifndef TWILL_SMT_H
#define TWILL_SMT_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define TWILL_SMT_MAX_ABS ((int64_t)1 << 40)
/* Largest hi - lo + 1: with lazy order literals every domain within
 * +-TWILL_SMT_MAX_ABS is accepted (kept for source compatibility). */
#define TWILL_SMT_MAX_DOMAIN (2 * TWILL_SMT_MAX_ABS + 1)

typedef struct twill_smt twill_smt;

/* A term a * x (var >= 0: integer variable) or a * lit (var < 0). */
typedef struct twill_smt_term {
  int64_t a;
  int var;
  int lit;
} twill_smt_term;

twill_smt *twill_smt_new(void);
void twill_smt_free(twill_smt *m);
/* Call before creating variables. Returns 0 on success. */
int twill_smt_enable_proof(twill_smt *m);

/* New integer variable in [lo, hi]: its index (>= 0), -1 on error. */
int twill_smt_int(twill_smt *m, int64_t lo, int64_t hi);
/* New Boolean: its SAT literal (> 0), 0 on error. */
int twill_smt_bool(twill_smt *m);
/* The literal [x <= k] (a constant literal outside [lo, hi-1]), created if
 * it does not exist yet; 0 on error. */
int twill_smt_le_lit(twill_smt *m, int x, int64_t k);
/* [x <= k] if it exists (or is a constant), else 0; creates nothing. */
int twill_smt_find_le_lit(const twill_smt *m, int x, int64_t k);
/* Order literals created so far (all variables). */
uint64_t twill_smt_num_order_lits(const twill_smt *m);
int twill_smt_true_lit(const twill_smt *m);
/* A new literal e <-> [x = k], defined by the input clauses
 * e -> [x <= k], e -> ~[x <= k-1], [x <= k] & ~[x <= k-1] -> e (a constant
 * outside the domain); between solves only.  0 on error. */
int twill_smt_eq_lit(twill_smt *m, int x, int64_t k);

int twill_smt_linear(twill_smt *m, const twill_smt_term *t, int n, int64_t b, int reif);
int twill_smt_diff(twill_smt *m, int x, int y, int64_t c);
int twill_smt_pb(twill_smt *m, const int64_t *a, const int *lits, int n, int64_t b);
int twill_smt_modulo(twill_smt *m, int cap, int64_t period, const int *vars,
                     const int64_t *offsets, int n);
/* Switch the window rule of modulo constraint id (its return value) off
 * or on (default on).  The rule sorts the uses at every fixpoint; over
 * variables whose windows are the whole period (slot variables) it finds
 * little, and a search without it can be the faster (core/modulo/
 * modulo_smt.c states each unit's rows over the slots without it and over
 * the times with it).  What the checker accepts does not change. */
int twill_smt_modulo_windows(twill_smt *m, int id, int on);
/* A clause over SAT literals: 1 ok, 0 the input became UNSAT, -1 error. */
int twill_smt_clause(twill_smt *m, const int *lits, int n);

/* 10 SAT, 20 UNSAT, 0 unknown / error. */
int twill_smt_solve(twill_smt *m);
/* Assume lit for the next solve only (UNSAT under assumptions proves
 * nothing in the certificate). */
void twill_smt_assume(twill_smt *m, int lit);
/* After 20 under assumptions: 1 if assumption lit is in the failed set
 * (the assumptions the refutation used), 0 if not. */
int twill_smt_failed(const twill_smt *m, int lit);
/* Minimize integer variable x: 10 optimum in *opt, 20 UNSAT, 0 unknown. */
int twill_smt_minimize(twill_smt *m, int x, int64_t *opt);
void twill_smt_set_time_limit(twill_smt *m, double seconds);
/* Conflicts for the next solves (< 0: none), counted from each solve's
 * start; twill_smt_num_conflicts: conflicts of every solve so far.  A
 * conflict budget, unlike a time limit, ends a search at the same point on
 * every machine. */
void twill_smt_set_conflict_limit(twill_smt *m, int64_t conflicts);
uint64_t twill_smt_num_conflicts(const twill_smt *m);
/* Stop the solves of m soon after *flag becomes nonzero (another thread's
 * cancel; see twill_sat_set_cancel). */
void twill_smt_set_cancel(twill_smt *m, const atomic_int *flag);

/* After 10: model values (after minimize: the optimal model). */
int64_t twill_smt_value(const twill_smt *m, int x);
int twill_smt_lit_value(const twill_smt *m, int lit); /* 1 / -1 */
/* Current bounds (level-0 bounds between solves). */
int64_t twill_smt_lb(const twill_smt *m, int x);
int64_t twill_smt_ub(const twill_smt *m, int x);
int twill_smt_num_ints(const twill_smt *m);
uint64_t twill_smt_num_lemmas(const twill_smt *m);

int twill_smt_write_proof(const twill_smt *m, FILE *out);
/* The bytes of input lines (i, o, k, a) written so far: a position in
 * them (0 without proofs). */
size_t twill_smt_input_bytes(const twill_smt *m);
/* The same certificate with the input lines written at positions
 * [from, to) moved back to position `at` (at <= from <= to, each a line
 * boundary from twill_smt_input_bytes; every moved line an `a` clause,
 * else -1).  A clause only adds to what the input states, so each later
 * step that follows from the input still does; moved before the o lines
 * a search created, the units a caller adds after a solve under
 * assumptions (twill_joint_refute) make the certificate begin with the
 * bytes a fresh encoding with those units writes, as the checker wants,
 * and the search need not be run again to get there.  The caller states
 * that the moved clauses name no literal created after `at`. */
int twill_smt_write_proof_moved(const twill_smt *m, FILE *out, size_t at, size_t from,
                                size_t to);

/* Check a certificate.  Returns 1 if it is a valid refutation, 0 if it is
 * well formed but refutes nothing (no empty clause), -1 if a step is
 * rejected (msg says which line and why). */
int twill_smt_check_proof(const char *text, size_t len, char *msg, size_t msgcap);
/* A proof checked against a known problem: its first `end` bytes are the
 * problem (what the caller built itself and compared byte for byte), and
 * an input line (p, T, i, k or a: a new variable, constraint or clause)
 * that starts at or after `end` is an assumption the problem does not
 * make.  Such a line is rejected, except an `a` line when `late` is set:
 * `late` then judges it (0 accepts) from its literals and, per literal,
 * the int var x and bound K of an order literal [x <= K] (x = -1 for any
 * other literal).  Lines are classified by the checker's own tokenizer
 * (blanks and tabs around a directive change nothing), so no spelling of a
 * directive slips past.  o, t and derived-clause lines are checked as in
 * twill_smt_check_proof, whose result this returns. */
typedef struct twill_smt_inputs {
  size_t end;
  int (*late)(void *ctx, int n, const int *lits, const int *ord_x,
              const int64_t *ord_k);
  void *ctx;
} twill_smt_inputs;
int twill_smt_check_proof_inputs(const char *text, size_t len,
                                 const twill_smt_inputs *in, char *msg,
                                 size_t msgcap);

/* ---- Text format reader (sat/smt_text.c) ------------------------------- */
/* A parser in the project's style: it never prints or exits; errors come
 * back as "file:line:col: message". */
typedef struct {
  char *name;
  int is_bool;
  int id; /* int var index, or the Boolean's literal */
} twill_smt_name;

typedef struct {
  twill_smt *m;
  twill_smt_name *names;
  int nnames, cap;
  int obj; /* objective int var, -1 when none */
} twill_smt_problem;

/* Parse buf[0..len) into a new solver (with proofs when proof != 0).
 * Returns 0, or -1 with the message in err (nothing to free then). */
int twill_smt_parse(const char *file, const char *buf, size_t len, int proof,
                    twill_smt_problem *out, char *err, size_t errcap);
void twill_smt_problem_free(twill_smt_problem *p);

#endif
