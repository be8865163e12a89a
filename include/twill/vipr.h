/* twill/vipr.h: an exact checker for VIPR MIP certificates.
 *
 * VIPR (Cheung, Gleixner, Steffy, "Verifying integer programming results",
 * IPCO 2017; format spec cert_spec_v1_1.md) certifies that a mixed-integer
 * program is infeasible or that its optimal value lies in [lb, ub].  The
 * checker reads the certificate once, front to back, and verifies every
 * solution and every derived constraint with its own exact rational
 * arithmetic (ilp/check/vipr_num.c); it shares no code with twill's solver.
 *
 * Limits (bad or hostile input is rejected, never crashes or hangs): a
 * number token is at most 65536 characters, an exponent at most 1000 in
 * absolute value, and intermediate numbers at most 2^21 bits; a declared
 * count (VAR n, CON m, SOL s, DER d, ...) may not exceed the input's size
 * in bytes (the file's size for a regular file).  Every table
 * grows only as its entries are actually read, so memory stays within a
 * small multiple of the input's size (times the number of assumptions
 * active in a branch-and-bound tree).
 */
#ifndef TWILL_VIPR_H
#define TWILL_VIPR_H

#include <stddef.h>

/* Verify the certificate held in data[0..len).  name is used in
 * diagnostics.  Returns 0 when verified, with a one-line summary in msg
 * (e.g. "infeasibility verified"); 1 when not, with
 * "name:line:col: reason" in msg.  msg may be NULL; it is always
 * NUL-terminated when msg_size > 0. */
int twill_vipr_check_mem(const char *name, const char *data, size_t len,
                         char *msg, size_t msg_size);

/* The same for a file, read as a stream (the certificate is never held
 * in memory as a whole); "-" is standard input.  An unreadable file is
 * "not verified". */
int twill_vipr_check_file(const char *path, char *msg, size_t msg_size);

#endif
