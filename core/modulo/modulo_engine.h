/* core/modulo/modulo_engine.h: the two engines that decide phase 1 at one
 * I (private to core/modulo/; the driver is modulo_solve.c).
 *
 * Each takes the reduced problem at I (twill/modulo.h) and answers: a
 * schedule and its least L, with a proof of that bound; or no schedule,
 * with a proof; or nothing proven within its limits. */
#ifndef TWILL_MODULO_ENGINE_H
#define TWILL_MODULO_ENGINE_H

#include <stdatomic.h>

#include "twill/modulo.h"

typedef struct twill_modulo_job {
  int feasible_only;    /* the SMT engine stops at its first schedule (its
                           L compacted, not minimized) */
  long ilp_nodes;       /* branch-and-bound nodes (<= 0: none) */
  long smt_conflicts;   /* conflicts over every solve at I (< 0: none) */
  double deadline;      /* absolute seconds of twill_modulo_clock() (0: none) */
  int certify;          /* keep the proof text */
  unsigned form;        /* TWILL_MODULO_FORM_* */
  const atomic_int *cancel; /* another thread's stop flag, or NULL */
} twill_modulo_job;

typedef struct twill_modulo_decision {
  int status;     /* TWILL_ILP_OPTIMAL: a schedule, its L least;
                     TWILL_ILP_INFEASIBLE: none; TWILL_ILP_LIMIT; ERROR */
  long *kt;       /* kept-op times of the best schedule found, or NULL */
  long length;    /* its L */
  long lower;     /* proven: no schedule at I is shorter than this */
  int bound;      /* TWILL_MODULO_BOUND_*, when OPTIMAL */
  char *proof;    /* with certify: VIPR or twill-smt text of the
                     infeasibility, or of L >= length - ... (see bound) */
  size_t plen;
  long work;      /* nodes or conflicts */
} twill_modulo_decision;

void twill_modulo_decision_clear(twill_modulo_decision *d);
double twill_modulo_clock(void);

/* The ILP engine (core/modulo/modulo_ilp.c).  0, or -1 out of memory. */
int twill_modulo_ilp_decide(const twill_graph *g, const twill_modulo_red *r,
                            const twill_modulo_job *job,
                            twill_modulo_decision *d);
/* The SMT engine (core/modulo/modulo_smt.c).  0, or -1 out of memory. */
int twill_modulo_smt_decide(const twill_graph *g, const twill_modulo_red *r,
                            const twill_modulo_job *job,
                            twill_modulo_decision *d);

/* The plain program at I (core/modulo/modulo_ilp.c: the one the
 * certificate checker states, every op kept, no windows, no structured
 * rows; lmax_hint > 0: L <= lmax_hint) solved with certify on, start (NULL,
 * or a schedule at I) its first incumbent.  Returns TWILL_ILP_OPTIMAL or
 * TWILL_ILP_INFEASIBLE with the VIPR proof in *proof (malloc'd), else
 * TWILL_ILP_LIMIT (deadline, absolute seconds of twill_modulo_clock(), 0:
 * none; nodes <= 0: none) or TWILL_ILP_ERROR. */
int twill_modulo_plain_proof(const twill_graph *g, long ii, long lmax_hint,
                             const twill_schedule *start, double deadline, long nodes,
                             char **proof, size_t *plen);

#endif
