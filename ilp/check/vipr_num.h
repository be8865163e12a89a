/* ilp/check/vipr_num.h: the VIPR checker's own exact arithmetic (private).
 *
 * Arbitrary-precision integers (vipr_big) and rationals (vipr_q), written
 * for the certificate checker only: it shares no code with the solver, so
 * a bug in the solver's arithmetic cannot hide a bug in a certificate.
 *
 * Integers are sign + magnitude, the magnitude in 32-bit limbs, least
 * significant first, with no leading zero limbs (zero has n == 0).  Up to
 * two limbs live inside the struct, so small numbers never allocate.
 * Rationals are num/den with den > 0 and gcd(num, den) == 1 always.
 *
 * Every operation that can allocate returns 0 on success and -1 when out
 * of memory or when a result would exceed VIPR_BIG_MAX_LIMBS limbs (a
 * certificate that needs numbers that large is rejected, not computed).
 * Results may alias operands.
 */
#ifndef TWILL_VIPR_NUM_H
#define TWILL_VIPR_NUM_H

#include <stddef.h>
#include <stdint.h>

/* 2^16 limbs = 2^21 bits, about 630,000 decimal digits. */
#define VIPR_BIG_MAX_LIMBS (1 << 16)
/* Longest number token accepted by twill_vipr_q_parse (characters). */
#define VIPR_NUM_MAX_CHARS 65536
/* Largest |exponent| accepted in 1.5e-3 style numbers. */
#define VIPR_NUM_MAX_EXP 1000

typedef struct vipr_big {
  uint32_t *heap;     /* limbs when cap > 0 */
  uint32_t small[2];  /* limbs when cap == 0 */
  int n;              /* limbs in use */
  int cap;            /* heap capacity; 0: the two inline limbs */
  int neg;            /* 1 when negative (never for zero) */
} vipr_big;

typedef struct vipr_q {
  vipr_big num, den;
} vipr_q;

void twill_vipr_big_init(vipr_big *a);
void twill_vipr_big_free(vipr_big *a);
int twill_vipr_big_set_i64(vipr_big *r, int64_t v);
int twill_vipr_big_copy(vipr_big *r, const vipr_big *a);
int twill_vipr_big_cmp(const vipr_big *a, const vipr_big *b);
int twill_vipr_big_sgn(const vipr_big *a);
int twill_vipr_big_add(vipr_big *r, const vipr_big *a, const vipr_big *b);
int twill_vipr_big_sub(vipr_big *r, const vipr_big *a, const vipr_big *b);
int twill_vipr_big_mul(vipr_big *r, const vipr_big *a, const vipr_big *b);
/* Floor division: q = floor(a / b), m = a - q*b (m has b's sign or is 0).
 * q or m may be NULL.  b == 0 fails. */
int twill_vipr_big_divmod(vipr_big *q, vipr_big *m, const vipr_big *a,
                    const vipr_big *b);
/* r = gcd(|a|, |b|) >= 0. */
int twill_vipr_big_gcd(vipr_big *r, const vipr_big *a, const vipr_big *b);
/* Parse [+-]digits (exactly len characters); -1 if malformed. */
int twill_vipr_big_parse(vipr_big *r, const char *s, size_t len);
/* Decimal string, malloc'd (NULL when out of memory). */
char *twill_vipr_big_str(const vipr_big *a);

void twill_vipr_q_init(vipr_q *a);
void twill_vipr_q_free(vipr_q *a);
int twill_vipr_q_set_i64(vipr_q *r, int64_t v);
int twill_vipr_q_copy(vipr_q *r, const vipr_q *a);
int twill_vipr_q_sgn(const vipr_q *a);
int twill_vipr_q_cmp(const vipr_q *a, const vipr_q *b);
int twill_vipr_q_is_int(const vipr_q *a);
int twill_vipr_q_add(vipr_q *r, const vipr_q *a, const vipr_q *b);
int twill_vipr_q_sub(vipr_q *r, const vipr_q *a, const vipr_q *b);
int twill_vipr_q_mul(vipr_q *r, const vipr_q *a, const vipr_q *b);
/* r += a * b (the inner step of every linear combination). */
int twill_vipr_q_addmul(vipr_q *r, const vipr_q *a, const vipr_q *b);
int twill_vipr_q_floor(vipr_q *r, const vipr_q *a);
int twill_vipr_q_ceil(vipr_q *r, const vipr_q *a);
/* Parse a VIPR value: an integer "-12", a fraction "3/4", "-3/-4" is not
 * accepted (the sign belongs to the numerator), or a finite decimal
 * "1.25", "-.5", "2e3", "1.5E-2".  Returns 0, or -1 when malformed or too
 * large (see the limits above). */
int twill_vipr_q_parse(vipr_q *r, const char *s, size_t len);
/* "num" or "num/den", malloc'd (NULL when out of memory). */
char *twill_vipr_q_str(const vipr_q *a);

#endif
