/* core/check/cert_modulo.h: what the phase-1 checker derives on its own
 * (private to core/check/).
 *
 * The checker states the problem it checks a proof against from the kernel
 * with this code, not with the solver's: its own reduction of the kernel
 * at I (cert_modulo_red.c) and its own translation of that reduced problem
 * into twill-smt constraints (cert_modulo_smt.c).  They must come out the
 * same as the solver's (tests hold them side by side); where they did not,
 * a certificate would be rejected, never a wrong one accepted, because
 * every constraint the checker states is a sum of the kernel's own along a
 * path (see the files). */
#ifndef TWILL_CERT_MODULO_H
#define TWILL_CERT_MODULO_H

#include <stddef.h>

#include "twill/modulo.h"

/* The reduced problem of the kernel at I (twill/modulo.h), derived by the
 * checker: 0, or -1 (allocation failure, or a positive cycle at I). */
int twill_cert_modulo_reduce(const twill_graph *g, long ii, int on,
                             twill_modulo_red *r);

/* Check a twill-smt refutation of the reduced problem r with L <= lmax:
 * rotate = 1, lmax = r->horizon for "no schedule at I at all" (the
 * statement then fixes the rotation); rotate = 0, lmax = L - 1 for "no
 * schedule shorter than L"; slots: the units' rows over slot variables
 * (the form's TWILL_MODULO_FORM_SLOTS).  0 when it refutes exactly that
 * problem;
 * otherwise 1 with a reason in msg. */
int twill_cert_modulo_smt_check(const twill_graph *g, const twill_modulo_red *r,
                                long lmax, int rotate, int slots, const char *blk,
                                size_t n, char *msg, size_t msglen);

#endif
