/* tests/fuzz/fuzz_bigq.c: libFuzzer target for twill_bq_parse (ilp/exact/bigq.c), the
 * writer's reader of decimals and fractions.  Parse the input as text; when
 * it parses, print num/den, parse that again and require the same value,
 * and check the arithmetic on it against identities: (a + a) - a == a,
 * (a * a) / a == a for a != 0, and divmod of num by den recombines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ilp/exact/bigq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_value(const bigq *a) {
  bigq b, c;
  twill_bq_init(&b);
  twill_bq_init(&c);
  if (twill_bq_add(&b, a, a) || twill_bq_sub(&b, &b, a)) abort();
  if (twill_bq_cmp(&b, a) != 0) abort();
  if (twill_bq_sign(a) != 0) {
    if (twill_bq_mul(&c, a, a) || twill_bq_div(&c, &c, a)) abort();
    if (twill_bq_cmp(&c, a) != 0) abort();
  }
  twill_bq_free(&b);
  twill_bq_free(&c);
}

static void check_divmod(const bigq *a) {
  if (a->den.n == 0) return; /* an integer with the implicit 1 */
  bigz q, r, t;
  twill_bz_init(&q);
  twill_bz_init(&r);
  twill_bz_init(&t);
  if (twill_bz_divmod(&q, &r, &a->num, &a->den)) abort();
  if (twill_bz_mul(&t, &q, &a->den) || twill_bz_add(&t, &t, &r)) abort();
  if (twill_bz_cmp(&t, &a->num) != 0) abort();
  twill_bz_free(&q);
  twill_bz_free(&r);
  twill_bz_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0; /* long digit strings only cost time */
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = 0;
  bigq a, b;
  twill_bq_init(&a);
  twill_bq_init(&b);
  if (twill_bq_parse(&a, s) == 0) {
    char *num = twill_bz_str(&a.num), *den = a.den.n ? twill_bz_str(&a.den) : NULL;
    if (!num) abort();
    size_t len = strlen(num) + (den ? strlen(den) : 1) + 2;
    char *t = malloc(len);
    if (!t) abort();
    snprintf(t, len, "%s/%s", num, den ? den : "1");
    if (twill_bq_parse(&b, t) != 0 || twill_bq_cmp(&a, &b) != 0) abort();
    check_value(&a);
    check_divmod(&a);
    free(t);
    free(num);
    free(den);
  }
  twill_bq_free(&a);
  twill_bq_free(&b);
  free(s);
  return 0;
}
