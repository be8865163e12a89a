/* twill/modulo.h: modulo scheduling (Twill phase 1).
 *
 * The heuristic side: Rau's iterative modulo scheduling (IMS, MICRO'94),
 * a fast first schedule, available as `twill modulo --heuristic` and the
 * exact search's answer of last resort when a limit strikes before it has
 * a schedule of its own.
 *
 * IMS at a candidate I: ops are taken by decreasing height (the longest
 * latency path to the end of the iteration, with back edges weighted
 * lat - I*dist); each is placed at the first cycle in [Estart, Estart+I-1]
 * whose modulo reservation table slots are free, where Estart is the
 * earliest start the already placed predecessors allow.  If no cycle is
 * free the op is forced in and the ops it conflicts with (on a unit, or
 * through a now-violated dependence) are unscheduled.  A budget of
 * budget_ratio * |V| placements bounds the work per I; when it runs out,
 * I grows by one.
 */
#ifndef TWILL_MODULO_H
#define TWILL_MODULO_H

#include <stdio.h>

#include "twill/graph.h"
#include "twill/normalize.h"
#include "twill/schedule.h"

typedef struct twill_ims_opts {
  long ii_min;        /* first I tried (0: the MII) */
  long ii_max;        /* give up above this I (0: MII + sum of latencies) */
  int budget_ratio;   /* placements per op per I (Rau: 3..6) */
} twill_ims_opts;

void twill_ims_opts_default(twill_ims_opts *o);

/* g must be validated and bound.  On success returns 0 and a new schedule
 * in *out (valid by twill_schedule_validate); returns 1 if no schedule was
 * found up to ii_max, -1 on allocation failure. */
int twill_modulo_ims(const twill_graph *g, const twill_ims_opts *o,
                     twill_schedule **out);

/* One guided IMS attempt at a fixed I (for legalizing a relaxation, e.g.
 * GauS's problem C).  Ops are taken by decreasing prio[v] (NULL: height),
 * ties by height, then index; op v is placed no earlier than pref[v]
 * (NULL: 0) and its placed predecessors allow.  Eviction is Rau's, but
 * only ops holding an over-full slot v needs are evicted, and edges are
 * read through adjacency lists (large graphs).  No compaction: the times
 * stay near pref.  On success start gets n times valid at I (every edge,
 * modulo capacities, start >= 0) and 0 is returned; 1 when an op does not
 * fit alone, the budget of budget_ratio * n placements runs out, or
 * 256 times as many slot tests (the work at a large, raw-cycle I); -1 on
 * allocation failure. */
int twill_modulo_ims_at(const twill_graph *g, long ii, int budget_ratio,
                        const long *prio, const long *pref, long *start);

/* ---- exact search (Twill phase 1) ---------------------------------------
 *
 * For I = MII, MII+1, ...: decide the problem at fixed I (is there a
 * schedule, and the least L of one), with a proof either way.  The first I
 * with a schedule is I*.  A limit never reads as infeasibility: the result
 * then says which I were proven infeasible and gives the best schedule
 * known (the heuristic's, from the least I not refuted, when the engines
 * found none).
 *
 * The problem at I is first reduced (core/modulo/modulo_reduce.c): only
 * the ops on a unit that can be over-subscribed keep a variable, joined by
 * the longest paths through the others.  Two engines decide it:
 *   ILP  the integer program of core/modulo/modulo_ilp.c on our branch and
 *        bound, proofs in VIPR;
 *   SMT  start times on the CDCL core with the difference and modulo
 *        propagators (core/modulo/modulo_smt.c), proofs in twill-smt.
 * The ILP is the design's formulation and runs at every I; the SMT engine
 * races it on a second thread.  The rule that makes the race deterministic
 * (core/modulo/modulo_solve.c): the SMT engine gets a fixed budget of
 * conflicts per I; if it settles the I within it, its answer and proof are
 * taken, otherwise the ILP's.  Which thread finishes first only decides
 * how long the caller waits: --threads 1 runs the SMT engine and then, when
 * its budget does not settle the I, the ILP, and prints the same bytes. */

/* Engines (opts.engines): a mask; 0 means both. */
#define TWILL_MODULO_ENGINE_ILP 1
#define TWILL_MODULO_ENGINE_SMT 2

/* How the problem at I is stated (opts.form; a certificate names it, so
 * the checker rebuilds the same problem).  Each is a lever that can be
 * switched off to measure it. */
#define TWILL_MODULO_FORM_REDUCE 1     /* drop free ops, chain their edges */
#define TWILL_MODULO_FORM_STRUCTURED 2 /* ILP: Eichenberger-Davidson rows */
#define TWILL_MODULO_FORM_WINDOWS 4    /* ILP: slots outside an op's window fixed to 0 */
#define TWILL_MODULO_FORM_SLOTS 8      /* SMT: units' rows over slot variables,
                                          full units' residues covered */
#define TWILL_MODULO_FORM_TIMES 16     /* SMT, with SLOTS: the units' rows over
                                          the start times as well, where the
                                          modulo propagator's window rule
                                          sees crowded stretches of time */
#define TWILL_MODULO_FORM_RELATIVE 32  /* SMT, with the window rule on: a unit's
                                          row over times relative to an anchor
                                          op, where it refutes an I at once */
#define TWILL_MODULO_FORM_ALL 63

typedef enum twill_modulo_status {
  TWILL_MODULO_OPTIMAL = 0, /* I* and L* proven */
  TWILL_MODULO_LIMIT = 1,   /* time/node limit: best known + proven bounds */
  TWILL_MODULO_ERROR = 2    /* out of memory or numerical failure */
} twill_modulo_status;

typedef struct twill_modulo_opts {
  double time_limit; /* seconds for the whole search; <= 0: none */
  long node_limit;   /* branch-and-bound nodes per I; <= 0: none */
  int certify;       /* keep what certificates need */
  int skip_length;   /* stop once I* is proven: at I* the SMT engine takes
                        its first schedule (compacted) and leaves L
                        unproven (Algorithm 1 needs I* and a seed L only) */
  long gaus_min_ops; /* from this many ops on, a GauS-C schedule
                        (twill_gaus_hint) is offered: the heuristic when its
                        (I, L) is smaller (not with skip_length: Algorithm
                        1's copies come from the heuristic's L), and the
                        first incumbent of the program at its I; never a
                        bound.  0: never.  Default TWILL_MODULO_GAUS_MIN_OPS */
  int engines;       /* TWILL_MODULO_ENGINE_* mask; 0: both */
  int threads;       /* 1: one engine after the other; 2: they race (the
                        default); the output is the same */
  long smt_conflicts;/* the SMT engine's budget per I when the ILP runs
                        too (with the SMT engine alone: none) */
  unsigned form;     /* TWILL_MODULO_FORM_* */
  /* progress: one line for the heuristic, then one per I searched
   * ("I 32: infeasible (1.20 s, 415 nodes)"); NULL: silent (the library
   * never prints; the program passes a function that writes to stderr
   * when stderr is a terminal) */
  void (*log)(void *ctx, const char *line);
  void *log_ctx;
} twill_modulo_opts;

/* bench/gaus_exact.sh (bench/results/gaus-exact-*.md): on the kernels
 * measured, Rau's IMS was at the proven I* on everything below 20 ops and
 * missed it from 20 ops on (random loops of 20, 28 and 32 ops), where the
 * GauS schedule had the smaller I; the proven answers never differed. */
#define TWILL_MODULO_GAUS_MIN_OPS 20
/* What proves the bound on L at I* (twill_modulo_try.bound). */
#define TWILL_MODULO_BOUND_PROOF 0 /* the try's proof text */
#define TWILL_MODULO_BOUND_PATH 1  /* L = the critical path at I (no text) */

typedef struct twill_modulo_try {
  long ii;
  int status;        /* TWILL_ILP_* of the decision at this I (OPTIMAL:
                        a schedule and its least L, INFEASIBLE, LIMIT) */
  int engine;        /* TWILL_MODULO_ENGINE_*: whose answer was taken */
  double seconds;
  long nodes;        /* branch-and-bound nodes, or SAT conflicts */
  int bound;         /* TWILL_MODULO_BOUND_*, at I* */
  char *vipr;        /* with opts.certify: the proof that the problem at
                        I is infeasible, or that L >= the optimum: the SMT
                        engine's twill-smt refutation, or for an answer of
                        the ILP a VIPR proof about the plain program (made
                        again for the certificate); NULL if none (and at
                        I* with bound PATH: L is the critical path) */
  size_t vipr_len;
  int smt_proof;     /* vipr holds a twill-smt refutation (else VIPR) */
} twill_modulo_try;

typedef struct twill_modulo_result {
  twill_modulo_status status;
  long res_mii, rec_mii, mii;
  long heuristic_ii;    /* I of the heuristic schedule, 0 when it was not
                           run (the engines found a schedule) */
  long heuristic_length;/* its L */
  long ii;              /* I of the schedule returned */
  long ii_lower;        /* no schedule exists below this I (proven) */
  long length;          /* L of the schedule returned */
  long length_lower;    /* no schedule at ii is shorter (proven) */
  unsigned form;        /* the problem's statement (opts.form) */
  twill_schedule *sched;
  twill_modulo_try *tries;
  int ntries;
  long nodes;
  double seconds;
} twill_modulo_result;

void twill_modulo_opts_default(twill_modulo_opts *o);
/* g validated and bound.  Returns 0 (see r->status) or -1 on allocation
 * failure.  Free r with twill_modulo_result_clear(). */
int twill_modulo_solve(const twill_graph *g, const twill_modulo_opts *o,
                       twill_modulo_result *r);
void twill_modulo_result_clear(twill_modulo_result *r);

/* The reduced problem at I (core/modulo/modulo_reduce.c): the kept ops K
 * (those using a unit that can be over-subscribed at I; every op when the
 * reduction is off), and over their start times
 *   t[y] - t[x] >= w   for each dep (x, y, w)  (x != y, indices into K),
 *   t[x] >= lo[x],  L - t[x] >= tail[x],  L >= lfloor,  L <= horizon.
 * Every constraint is a sum of the kernel's along a path; from any times of
 * K that meet them, the earliest times of the other ops complete a
 * schedule of the same L (the file's comment proves both). */
typedef struct twill_modulo_dep {
  int x, y;
  long w;
} twill_modulo_dep;

typedef struct twill_modulo_red {
  long ii;
  long horizon;          /* some schedule at I, if any, has L <= horizon:
                            min(twill_modulo_horizon(g, ii), max over x
                            of lo + win + tail) (modulo_reduce.c says why) */
  long lfloor;           /* the critical path at I over every op */
  int n;                 /* kept ops */
  int *op;               /* op[i]: graph index of kept op i (increasing) */
  int *kept_of;          /* kept_of[v]: i with op[i] = v, or -1 */
  long *lo, *tail;
  long *win;             /* t[x] <= lo[x] + win[x] loses no schedule and no
                            optimal L (modulo_reduce.c says why) */
  int ndeps;
  twill_modulo_dep *deps;/* sorted by (x, y), one per pair */
  int nunits;
  int *unit;             /* the units whose rows are kept (increasing) */
} twill_modulo_red;

/* 0, or -1 on allocation failure or a positive cycle at I (I < RecMII).
 * on = 0: no reduction (every op and every used unit kept, deps the
 * heaviest edge per pair). */
int twill_modulo_reduce(const twill_graph *g, long ii, int on,
                        twill_modulo_red *r);
void twill_modulo_red_clear(twill_modulo_red *r);
/* The schedule at r->ii with kept op i at kt[i] and every other op at the
 * earliest time the edges into it allow (NULL on allocation failure);
 * valid when kt meets the reduced constraints. */
twill_schedule *twill_modulo_red_extend(const twill_graph *g,
                                        const twill_modulo_red *r,
                                        const long *kt);
/* Move each kept op to the least start time with the same slot that the
 * reduced constraints allow (kt must meet them); returns the resulting L
 * (with lfloor and the tails), or -1 (allocation failure, kt no solution:
 * kt untouched). */
long twill_modulo_red_compact(const twill_modulo_red *r, long *kt);

/* The program at fixed I (exposed for certificates and tests): variables
 * per kept op x: slot binaries a[x][s] (s < I), stage k[x], start t[x];
 * then L.  Upper bounds come from twill_modulo_horizon(), a function of
 * (g, I) alone so a checker can rebuild the same program. */
long twill_modulo_horizon(const twill_graph *g, long ii);
/* Build the program of the reduced problem r (lmax_hint > 0: L <=
 * lmax_hint) stated with form; NULL on error.  The checker does not state
 * this program (its VIPR proofs are about the plain one, every op kept,
 * which core/check/check_phase1.c states; certify mode proves the ILP's
 * answers again there). */
struct twill_ilp *twill_modulo_program_red(const twill_graph *g,
                                           const twill_modulo_red *r,
                                           long lmax_hint, unsigned form);
/* The same from the kernel: reduce (with form's REDUCE) and build. */
struct twill_ilp *twill_modulo_program(const twill_graph *g, long ii,
                                       long lmax_hint, unsigned form);

/* Certificates (format version 2, in core/check/cert_check.c; written by
 * core/modulo/modulo_cert.c, checked by twill_check_cert of twill/check.h,
 * which shares no code with the writer).  Each returns 0, or -1 when the
 * result is not proven (a limit) or a proof is missing. */
/* The "normalize" section: "normalize off" for nm NULL or nm->U <= 0,
 * else the budget, every cost's normalized value and the optimality proof
 * (nm->vipr, needed with two costs or more). */
int twill_cert_write_norm(const twill_norm *nm, FILE *f);
/* The body of a search run with opts.certify on g (normalized): from "ii"
 * to "end"; a solve certificate embeds it. */
int twill_modulo_write_body(const twill_graph *g, const twill_modulo_result *r, FILE *f);
/* A whole phase-1 certificate: header (kernel g->name, machine), the
 * normalization g was made with (NULL: none), the body. */
int twill_modulo_write_cert(const twill_graph *g, const char *machine, const twill_norm *nm,
                            const twill_modulo_result *r, FILE *f);

/* Phase 1 at one fixed I (Algorithm 1's re-solve at I+1): 0 optimal (the
 * schedule in *out), 1 infeasible, 2 limit (*out: best found, or NULL),
 * -1 error.  The SMT engine decides within its default budget of
 * conflicts, else the ILP engine within node_limit (> 0) nodes: counts,
 * which keep the answer independent of the machine's speed; time_limit > 0
 * caps the time. */
int twill_modulo_at(const twill_graph *g, long ii, double time_limit,
                    long node_limit, twill_schedule **out);

#endif
