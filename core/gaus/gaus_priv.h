/* core/gaus/gaus_priv.h: helpers shared by the GauS files (not installed). */
#ifndef TWILL_GAUS_PRIV_H
#define TWILL_GAUS_PRIV_H

#include "twill/gaus.h"

/* ASAP times over distance-0 edges; returns the critical-path length (ops
 * of latency 0 count 1), or -1 on a zero-distance cycle or allocation
 * failure.  order (n entries, may be NULL) gets a topological order. */
long twill_gaus_asap(const twill_gaus_problem *p, long *asap, int *order);
/* Current sigma values (n). */
void twill_gaus_model_sigma(const twill_gaus_model *m, double *sig);
long twill_gaus_model_D(const twill_gaus_model *m);
/* Cycle-driven modulo list scheduling at ii with priorities t0 (n times,
 * core/gaus/gaus_mlist.c says how).  0 with t legal at ii, -2 when the attempt
 * fails (a deadline missed, the table full for some class, an op that
 * does not fit alone), -3 on allocation failure. */
int twill_gaus_modulo_list(const twill_gaus_problem *p, long ii,
                           const long *t0, long *t);

#endif
