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
#include <stdint.h>

/* Verify the certificate held in data[0..len).  name is used in
 * diagnostics.  Returns 0 when verified, with a one-line summary in msg
 * (e.g. "infeasibility verified"); 1 when not, with
 * "name:line:col: reason" in msg.  msg may be NULL; it is always
 * NUL-terminated when msg_size > 0. */
int twill_vipr_check_mem(const char *name, const char *data, size_t len,
                         char *msg, size_t msg_size);

/* ---- the problem a certificate states ---------------------------------
 * A caller that knows which program a certificate must speak about (a
 * checker of twill's own certificates, which rebuilds the program from the
 * kernel) gets the problem exactly as this checker read it, before any
 * solution or derivation, and may refuse it: one reader for both, so no
 * number can mean one thing to the caller and another to the proof. */

/* An exact rational num/den (den > 0, lowest terms); exact is 0 when the
 * value does not fit (|num| or den >= 2^62): compare it with nothing. */
typedef struct twill_vipr_num {
  int64_t num, den;
  int exact;
} twill_vipr_num;

typedef struct twill_vipr_term {
  int var;
  twill_vipr_num a; /* never 0 */
} twill_vipr_term;

typedef struct twill_vipr_con {
  const char *name;
  int sense;          /* +1 >=, -1 <=, 0 = */
  twill_vipr_num rhs;
  int n;              /* terms, sorted by variable, each variable once */
  const twill_vipr_term *t;
} twill_vipr_con;

typedef struct twill_vipr_problem {
  int nvars;
  const unsigned char *is_int; /* nvars entries */
  int obj_min;                 /* 1 min, 0 max */
  int nobj;
  const twill_vipr_term *obj;
  int ncons;                   /* the CON section, in order */
  const twill_vipr_con *cons;
  int rtp_infeas;              /* RTP infeas, else RTP range */
  int has_lb, has_ub;
  twill_vipr_num lb, ub;
} twill_vipr_problem;

/* Returns 0 to go on checking, else a reason in why. */
typedef int (*twill_vipr_problem_fn)(void *ctx, const twill_vipr_problem *pb,
                                     char *why, size_t whylen);

/* twill_vipr_check_mem, with fn (not NULL) shown the problem once the
 * header (VAR .. RTP) is read; its refusal is the verdict ("name: why"). */
int twill_vipr_check_mem_problem(const char *name, const char *data,
                                 size_t len, twill_vipr_problem_fn fn,
                                 void *ctx, char *msg, size_t msg_size);

/* The same for a file, read as a stream (the certificate is never held
 * in memory as a whole); "-" is standard input.  An unreadable file is
 * "not verified". */
int twill_vipr_check_file(const char *path, char *msg, size_t msg_size);

#endif
