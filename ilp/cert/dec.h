/* ilp/cert/dec.h: exact decimals for the certificate writer (private to
 * ilp/cert/).
 *
 * A dec is (-1)^neg * mag * 10^-e, mag an integer of n limbs of 10^9
 * (DEC_LIMBS at most: 432 digits).  Every coefficient and bound of the
 * model is the shortest decimal that reads back as its double
 * (twill_dec_from), so that arithmetic on decs is exact on the numbers the
 * certificate states.
 *
 * An operation whose result needs more than DEC_LIMBS limbs sets *ov and
 * leaves a wrong value: *ov belongs to the caller (the writer, or a
 * computation that runs on a flag of its own), which clears it where a
 * computation starts and reads it where a result is used.
 */
#ifndef TWILL_ILP_CERT_DEC_H
#define TWILL_ILP_CERT_DEC_H

#include <stdint.h>
#include <stdio.h>

#define DEC_LIMBS 48 /* limbs of 10^9: 432 digits */

typedef struct {
  int neg, e, n;
  uint32_t d[DEC_LIMBS];
} dec;

static inline void dzero(dec *a) {
  a->neg = 0;
  a->e = 0;
  a->n = 0;
}

static inline int dsign(const dec *a) { return a->n == 0 ? 0 : a->neg ? -1 : 1; }

static inline void dneg(dec *a) {
  if (a->n) a->neg = !a->neg;
}

/* a := "[-]digits[.digits][e[+-]digits]"; returns 0 when s is no number
 * or *ov is set. */
int twill_dec_parse(int *ov, dec *a, const char *s);
/* a := the shortest decimal that reads back as x (model.h's
 * twill_ilp_shortest), or x rounded to sig significant digits. */
void twill_dec_from(int *ov, dec *a, double x);
void twill_dec_round(int *ov, dec *a, double x, int sig);
/* out := x + y, a b; out may be an operand. */
void twill_dec_add(int *ov, dec *out, const dec *x, const dec *y);
void twill_dec_mul(int *ov, dec *out, const dec *a, const dec *b);
/* The sign of a - b. */
int twill_dec_cmp(int *ov, const dec *a, const dec *b);
/* a := ceil(a). */
void twill_dec_ceil(int *ov, dec *a);
/* mag(a) *= 10^k. */
void twill_dec_scale(int *ov, dec *a, int k);
/* A = |a| 10^e(a): an exact integer A with a = sign A 10^-e. */
void twill_dec_mant(dec *A, int *e, const dec *a);
/* Print a as a decimal; y/q (q a positive integer; "y" alone when q = 1). */
void twill_dec_print(FILE *f, const dec *a);
void twill_dec_print_frac(int *ov, FILE *f, const dec *y, const dec *q);
/* a as the double its printed form reads as (for messages). */
double twill_dec_to_double(const dec *a);
/* A close double of a (about 15 digits; no printing): for estimates that
 * only steer a choice; and of a / b, also when a and b exceed the double
 * range (the denominators of long repairs do). */
double twill_dec_approx(const dec *a);
double twill_dec_ratio(const dec *a, const dec *b);

#endif
