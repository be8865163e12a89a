/* ilp/exact/bigq.h: exact integers and rationals of any size, for the
 * certificate writer's SOL point (ilp/exact/exact_point.c: an exact vertex of the
 * incumbent's continuous part).  Private to ilp/.  The checker
 * (vipr_check.c) keeps its own arithmetic and shares none of this.
 *
 * bigz: sign and magnitude, limbs of base 10^9, least significant first,
 * no leading zero limb; zero has n == 0 and neg == 0.
 * bigq: num / den with den > 0 and gcd(num, den) == 1 after every
 * operation (zero is 0/1).
 *
 * Every function that can allocate returns 0 on success and -1 when out of
 * memory (the result is then unspecified but still safe to free).  Outputs
 * may alias inputs. */
#ifndef TWILL_ILP_BIGQ_H
#define TWILL_ILP_BIGQ_H

#include <stdint.h>

typedef struct {
  int neg, n, cap;
  uint32_t *d;
} bigz;

typedef struct {
  bigz num, den;
} bigq;

void twill_bz_init(bigz *a);                /* a = 0, no allocation */
void twill_bz_free(bigz *a);                /* back to twill_bz_init's state */
int twill_bz_set_ll(bigz *a, long long v);
int twill_bz_copy(bigz *dst, const bigz *src);
int twill_bz_sign(const bigz *a);           /* -1, 0, 1 */
int twill_bz_cmp(const bigz *a, const bigz *b);
int twill_bz_add(bigz *out, const bigz *a, const bigz *b);
int twill_bz_sub(bigz *out, const bigz *a, const bigz *b);
int twill_bz_mul(bigz *out, const bigz *a, const bigz *b);
/* q = trunc(a / b), r = a - q b (sign of a); b != 0 (else -1).  q or r may
 * be NULL. */
int twill_bz_divmod(bigz *q, bigz *r, const bigz *a, const bigz *b);
int twill_bz_gcd(bigz *out, const bigz *a, const bigz *b); /* >= 0; gcd(0,0) = 0 */
/* decimal text, '-' for negatives, malloc'd (NULL when out of memory) */
char *twill_bz_str(const bigz *a);
int twill_bz_digits(const bigz *a); /* decimal digits of |a| (0 for zero) */

void twill_bq_init(bigq *a); /* a = 0/1 (allocates nothing; den is implicit 1
                          until set: every function treats an n == 0 den
                          of an initialized value as 1) */
void twill_bq_free(bigq *a);
/* twill_bq_free on v[0..n) and then free(v); v may be NULL */
void twill_bq_free_vec(bigq *v, int n);
int twill_bq_copy(bigq *dst, const bigq *src);
int twill_bq_set_ll(bigq *a, long long p, long long q); /* q != 0 (else -1) */
/* Decimal text: optional sign, digits with an optional '.', optional
 * exponent e/E with sign ("-4.60000002", ".068554", "1E-5", "12e+3"), or
 * p/q of two integers ("-7/3").  The whole string must be used.  Returns
 * 0, -1 out of memory, -2 bad syntax or a zero denominator.  Exponents
 * beyond +-4000 are bad syntax. */
int twill_bq_parse(bigq *a, const char *s);
int twill_bq_sign(const bigq *a);
int twill_bq_cmp(const bigq *a, const bigq *b);
int twill_bq_add(bigq *out, const bigq *a, const bigq *b);
int twill_bq_sub(bigq *out, const bigq *a, const bigq *b);
int twill_bq_mul(bigq *out, const bigq *a, const bigq *b);
int twill_bq_div(bigq *out, const bigq *a, const bigq *b); /* -1 when b == 0 */
/* out = a + b c (the inner step of elimination) */
int twill_bq_addmul(bigq *out, const bigq *a, const bigq *b, const bigq *c);
double twill_bq_to_double(const bigq *a); /* nearest-ish, for diagnostics */

#endif
