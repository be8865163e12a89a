/* tests/fuzz/fuzz_bigq.c: libFuzzer target for bq_parse (ilp/bigq.c), the
 * writer's reader of decimals and fractions.  Parse the input as text; when
 * it parses, print num/den, parse that again and require the same value,
 * and check the arithmetic on it against identities: (a + a) - a == a,
 * (a * a) / a == a for a != 0, and divmod of num by den recombines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ilp/bigq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_value(const bigq *a) {
  bigq b, c;
  bq_init(&b);
  bq_init(&c);
  if (bq_add(&b, a, a) || bq_sub(&b, &b, a)) abort();
  if (bq_cmp(&b, a) != 0) abort();
  if (bq_sign(a) != 0) {
    if (bq_mul(&c, a, a) || bq_div(&c, &c, a)) abort();
    if (bq_cmp(&c, a) != 0) abort();
  }
  bq_free(&b);
  bq_free(&c);
}

static void check_divmod(const bigq *a) {
  if (a->den.n == 0) return; /* an integer with the implicit 1 */
  bigz q, r, t;
  bz_init(&q);
  bz_init(&r);
  bz_init(&t);
  if (bz_divmod(&q, &r, &a->num, &a->den)) abort();
  if (bz_mul(&t, &q, &a->den) || bz_add(&t, &t, &r)) abort();
  if (bz_cmp(&t, &a->num) != 0) abort();
  bz_free(&q);
  bz_free(&r);
  bz_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0; /* long digit strings only cost time */
  char *s = malloc(size + 1);
  if (!s) return 0;
  memcpy(s, data, size);
  s[size] = 0;
  bigq a, b;
  bq_init(&a);
  bq_init(&b);
  if (bq_parse(&a, s) == 0) {
    char *num = bz_str(&a.num), *den = a.den.n ? bz_str(&a.den) : NULL;
    if (!num) abort();
    size_t len = strlen(num) + (den ? strlen(den) : 1) + 2;
    char *t = malloc(len);
    if (!t) abort();
    snprintf(t, len, "%s/%s", num, den ? den : "1");
    if (bq_parse(&b, t) != 0 || bq_cmp(&a, &b) != 0) abort();
    check_value(&a);
    check_divmod(&a);
    free(t);
    free(num);
    free(den);
  }
  bq_free(&a);
  bq_free(&b);
  free(s);
  return 0;
}
