/* twill/modulo.h: modulo scheduling (Twill phase 1).
 *
 * This header holds, for now, the heuristic side: Rau's iterative modulo
 * scheduling (IMS, MICRO'94), a fast first schedule that bounds the exact
 * search from above and is available as `twill modulo --heuristic`.
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

#include "twill/graph.h"
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
 * For I = MII, MII+1, ...: the modulo-scheduling integer program at fixed I
 * (core/modulo/modulo_ilp.c), minimizing the schedule length L.  The first I whose
 * program is feasible is I*, and its optimum is the least L at I*.  The
 * search never goes past the I of the heuristic schedule, which is known to
 * be feasible.  A limit never reads as infeasibility: the result then says
 * which I were proven infeasible and gives the best schedule known. */

typedef enum twill_modulo_status {
  TWILL_MODULO_OPTIMAL = 0, /* I* and L* proven */
  TWILL_MODULO_LIMIT = 1,   /* time/node limit: best known + proven bounds */
  TWILL_MODULO_ERROR = 2    /* out of memory or numerical failure */
} twill_modulo_status;

typedef struct twill_modulo_opts {
  double time_limit; /* seconds for the whole search; <= 0: none */
  long node_limit;   /* branch-and-bound nodes per I; <= 0: none */
  int certify;       /* keep what certificates need */
  int skip_length;   /* stop once I* is proven: when the heuristic's I is
                        the first I left, take its schedule and leave L
                        unproven (Algorithm 1 needs I* and a seed L only) */
  long gaus_min_ops; /* from this many ops on, a GauS-C schedule
                        (twill_gaus_hint) is offered: the heuristic when its
                        (I, L) is smaller (not with skip_length: Algorithm
                        1's copies come from the heuristic's L), and the
                        first incumbent of the program at its I; never a
                        bound.  0: never.  Default TWILL_MODULO_GAUS_MIN_OPS */
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

typedef struct twill_modulo_try {
  long ii;
  int status;        /* TWILL_ILP_* of the program at this I */
  double seconds;
  long nodes;
  char *vipr;        /* with opts.certify: the program's VIPR certificate
                        (infeasible, or optimal L), NULL if none */
  size_t vipr_len;
} twill_modulo_try;

typedef struct twill_modulo_result {
  twill_modulo_status status;
  long res_mii, rec_mii, mii;
  long heuristic_ii;    /* I of the heuristic schedule (an upper bound) */
  long heuristic_length;/* its L (caps L in the program at that I) */
  long ii;              /* I of the schedule returned */
  long ii_lower;        /* no schedule exists below this I (proven) */
  long length;          /* L of the schedule returned */
  long length_lower;    /* no schedule at ii is shorter (proven) */
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

/* The program at fixed I (exposed for certificates and tests): variables
 * per op v: slot binaries a[v][s] (s < I), stage k[v], start t[v]; then L.
 * Upper bounds come from twill_modulo_horizon(), a function of (g, I)
 * alone so a checker can rebuild the same program. */
long twill_modulo_horizon(const twill_graph *g, long ii);
/* Build the program at I (lmax_hint > 0: L <= lmax_hint); NULL on error.
 * The checker rebuilds exactly this from the kernel. */
struct twill_ilp *twill_modulo_program(const twill_graph *g, long ii,
                                       long lmax_hint);

/* Write the certificate of a search run with opts.certify (see
 * core/check/cert_modulo.c for the format).  Returns 0, or -1 when the result is
 * not proven (a limit) or a proof is missing. */
int twill_modulo_write_cert(const twill_graph *g, const char *arch,
                            long budget, const twill_modulo_result *r,
                            FILE *f);
/* Check a certificate against a kernel (already loaded, bound, and
 * normalized as the certificate says).  Returns 0 when every claim is
 * verified, 1 otherwise; a one-line report in msg. */
int twill_modulo_check_cert(const twill_graph *g, const char *cert,
                            size_t len, char *msg, size_t msglen);

/* Phase 1 at one fixed I (Algorithm 1's re-solve at I+1): 0 optimal (the
 * schedule in *out), 1 infeasible, 2 limit (*out: best found, or NULL),
 * -1 error.  node_limit > 0 caps the branch-and-bound nodes, which keeps
 * the answer independent of the machine's speed; time_limit > 0 caps the
 * time. */
int twill_modulo_at(const twill_graph *g, long ii, double time_limit,
                    long node_limit, twill_schedule **out);

#endif
