/* tests/test_bigq.c: ilp/bigq, the exact integers and rationals of the
 * certificate writer.
 *
 * Every expected value has a reason that does not go through bigq itself:
 * machine arithmetic (__int128 holds every product of two long longs), a
 * decimal schoolbook multiplication on strings written here, identities
 * that pin a result down uniquely (a = q b + r with |r| < |b| and r taking
 * a's sign; gcd(a/g, b/g) = 1), number theory (consecutive Fibonacci
 * numbers are coprime, gcd(F(m), F(n)) = F(gcd(m, n))), or constants
 * worked out by hand or quoted (2^200, H_30).  Random inputs come from a
 * fixed-seed LCG, biased to the limb values 0, 1, 10^9 - 1, 5 * 10^8 and
 * 5 * 10^8 - 1 that drive the carries and the quotient corrections of
 * long division.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ilp/exact/bigq.h"
#include "check_main.h"
#include "testutil.h"

/* ------------------------------------------------------------ helpers */

/* Knuth's MMIX LCG; the high bits are the good ones. */
static uint32_t rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 32);
}

static uint64_t rnd64(uint64_t *s) {
  uint64_t hi = rnd(s);
  return hi << 32 | rnd(s);
}

/* A long long of random magnitude (any bit length), random sign, and now
 * and then one of the values at the edges of long long and of a limb. */
static long long rnd_ll(uint64_t *s) {
  static const long long edge[] = {0,          1,          -1,
                                   LLONG_MAX,  LLONG_MIN,  LLONG_MIN + 1,
                                   999999999,  1000000000, -1000000000,
                                   999999999999999999LL,   1000000000000000000LL,
                                   -999999999999999999LL};
  if (rnd(s) % 8 == 0) return edge[rnd(s) % (sizeof edge / sizeof *edge)];
  int shift = (int)(rnd(s) % 64); /* its own statement: draws in order */
  uint64_t m = rnd64(s) >> shift;
  long long v = (long long)(m >> 1);
  return rnd(s) % 2 ? -v : v;
}

/* Decimal text of v (machine arithmetic only). */
static void i128_str(char *buf, __int128 v) {
  unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
  char tmp[48];
  int k = 0, p = 0;
  do {
    tmp[k++] = (char)('0' + (int)(m % 10));
    m /= 10;
  } while (m);
  if (v < 0) buf[p++] = '-';
  while (k) buf[p++] = tmp[--k];
  buf[p] = '\0';
}

static unsigned __int128 u128_gcd(unsigned __int128 a, unsigned __int128 b) {
  while (b) {
    unsigned __int128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Failing-only checks for the helpers that run in the hot loops: Check's
 * ck_assert records every passing assertion (a pipe write in fork mode),
 * which would dominate the run time. */
#define REQUIRE(cond, ...)                  \
  do {                                      \
    if (!(cond)) ck_abort_msg(__VA_ARGS__); \
  } while (0)
/* A call that must return 0. */
#define OK(call) REQUIRE((call) == 0, "%s != 0", #call)

static void assert_bz(const bigz *a, const char *want) {
  char *s = twill_bz_str(a);
  REQUIRE(s != NULL, "twill_bz_str out of memory");
  REQUIRE(strcmp(s, want) == 0, "got %s, want %s", s, want);
  free(s);
}

static void assert_bz_i128(const bigz *a, __int128 want) {
  char buf[48];
  i128_str(buf, want);
  assert_bz(a, buf);
  REQUIRE(twill_bz_digits(a) == (int)strlen(buf) - (want < 0) - (want == 0),
          "twill_bz_digits of %s: %d", buf, twill_bz_digits(a));
  REQUIRE(twill_bz_sign(a) == (want < 0 ? -1 : want > 0), "twill_bz_sign of %s", buf);
}

/* Structural invariants of bigz: no leading zero limb, zero not negative,
 * every limb below 10^9. */
static void assert_canonical(const bigz *a) {
  REQUIRE(a->n >= 0 && a->n <= a->cap, "n %d, cap %d", a->n, a->cap);
  REQUIRE(a->n == 0 || a->d[a->n - 1] != 0, "leading zero limb");
  REQUIRE(a->n != 0 || a->neg == 0, "negative zero");
  for (int i = 0; i < a->n; i++)
    REQUIRE(a->d[i] < 1000000000u, "limb %d is %u", i, (unsigned)a->d[i]);
}

/* bigz from decimal integer text, through twill_bq_parse (whose integer reading
 * the round-trip tests check separately). */
static void set_str(bigz *a, const char *s) {
  bigq q;
  twill_bq_init(&q);
  ck_assert_msg(twill_bq_parse(&q, s) == 0, "parse %s", s);
  ck_assert_int_eq(twill_bz_copy(a, &q.num), 0);
  twill_bq_free(&q);
}

/* Decimal text of a random integer: `chunks` 9-digit groups (aligned with
 * the limbs), each random or one of the awkward limb values, then leading
 * zeros stripped; negative half the time.  Caller frees. */
static char *rnd_digits(uint64_t *s, int chunks) {
  static const char *pick[] = {"999999999", "000000000", "500000000",
                               "499999999", "000000001"};
  char *buf = malloc((size_t)chunks * 9 + 3), *p = buf + 1;
  ck_assert_ptr_nonnull(buf);
  for (int c = 0; c < chunks; c++, p += 9) {
    uint32_t r = rnd(s) % 8;
    if (r < 5) memcpy(p, pick[r], 9);
    else snprintf(p, 10, "%09u", (unsigned)(rnd(s) % 1000000000u));
  }
  *p = '\0';
  char *q = buf + 1;
  while (*q == '0' && q[1]) q++;
  if (*q != '0' && rnd(s) % 2) *--q = '-';
  memmove(buf, q, strlen(q) + 1);
  return buf;
}

static void rnd_big(bigz *a, uint64_t *s, int chunks) {
  char *t = rnd_digits(s, chunks);
  set_str(a, t);
  free(t);
}

/* |a| as a new bigz view sharing a's limbs (read only). */
static bigz abs_view(const bigz *a) {
  bigz t = *a;
  t.neg = 0;
  return t;
}

/* Product of two unsigned decimal strings, digit by digit, the way it is
 * done on paper: an independent reference for twill_bz_mul.  Caller frees. */
static char *ref_mul(const char *x, const char *y) {
  size_t nx = strlen(x), ny = strlen(y), n = nx + ny;
  unsigned *acc = calloc(n, sizeof *acc); /* least significant first */
  char *out = malloc(n + 1);
  ck_assert(acc && out);
  for (size_t i = 0; i < nx; i++)
    for (size_t j = 0; j < ny; j++)
      acc[i + j] += (unsigned)(x[nx - 1 - i] - '0') * (unsigned)(y[ny - 1 - j] - '0');
  for (size_t k = 0; k + 1 < n; k++) {
    acc[k + 1] += acc[k] / 10;
    acc[k] %= 10;
  }
  size_t top = n;
  while (top > 1 && acc[top - 1] == 0) top--;
  for (size_t k = 0; k < top; k++) out[k] = (char)('0' + acc[top - 1 - k]);
  out[top] = '\0';
  free(acc);
  return out;
}

static bigq qv(const char *s) {
  bigq q;
  twill_bq_init(&q);
  ck_assert_msg(twill_bq_parse(&q, s) == 0, "parse %s", s);
  return q;
}

/* den > 0 and gcd(num, den) = 1 (zero is 0/1); an empty den reads 1. */
static void assert_normal(const bigq *q) {
  assert_canonical(&q->num);
  assert_canonical(&q->den);
  if (q->den.n == 0) {
    REQUIRE(q->num.n == 0, "empty den under a nonzero num");
    return;
  }
  REQUIRE(twill_bz_sign(&q->den) == 1, "den not positive");
  bigz g, one;
  twill_bz_init(&g);
  twill_bz_init(&one);
  twill_bz_set_ll(&one, 1);
  REQUIRE(twill_bz_gcd(&g, &q->num, &q->den) == 0, "gcd out of memory");
  if (q->num.n) REQUIRE(twill_bz_cmp(&g, &one) == 0, "not in lowest terms");
  else REQUIRE(twill_bz_cmp(&q->den, &one) == 0, "zero with den != 1");
  twill_bz_free(&g);
  twill_bz_free(&one);
}

/* "p/q", or "p" when q is 1. */
static void assert_q(const bigq *q, const char *want) {
  assert_normal(q);
  char *n = twill_bz_str(&q->num), *d = q->den.n ? twill_bz_str(&q->den) : NULL;
  REQUIRE(n != NULL, "twill_bz_str out of memory");
  char *got = malloc(strlen(n) + (d ? strlen(d) : 0) + 2);
  REQUIRE(got != NULL, "out of memory");
  if (d && strcmp(d, "1") != 0) sprintf(got, "%s/%s", n, d);
  else strcpy(got, n);
  REQUIRE(strcmp(got, want) == 0, "got %s, want %s", got, want);
  free(got);
  free(n);
  free(d);
}

/* p/q in lowest terms with q > 0, as text (machine arithmetic only). */
static void frac_str(char *buf, __int128 p, __int128 q) {
  if (q < 0) {
    p = -p;
    q = -q;
  }
  __int128 g = (__int128)u128_gcd(p < 0 ? -(unsigned __int128)p : (unsigned __int128)p,
                                  (unsigned __int128)q);
  p /= g;
  q /= g;
  i128_str(buf, p);
  if (q != 1) {
    strcat(buf, "/");
    i128_str(buf + strlen(buf), q);
  }
}

/* ------------------------------------------------ bigz vs machine ints */

/* add, sub, mul, cmp, sign, digits and text of long longs against
 * __int128, which cannot overflow on any of them. */
START_TEST(bz_matches_int128) {
  uint64_t seed = 1;
  int rounds = tu_under_valgrind() ? 3000 : 40000;
  bigz a, b, r;
  twill_bz_init(&a);
  twill_bz_init(&b);
  twill_bz_init(&r);
  for (int it = 0; it < rounds; it++) {
    long long x = rnd_ll(&seed), y = rnd_ll(&seed);
    OK(twill_bz_set_ll(&a, x));
    OK(twill_bz_set_ll(&b, y));
    assert_bz_i128(&a, x);
    OK(twill_bz_add(&r, &a, &b));
    assert_bz_i128(&r, (__int128)x + y);
    assert_canonical(&r);
    OK(twill_bz_sub(&r, &a, &b));
    assert_bz_i128(&r, (__int128)x - y);
    assert_canonical(&r);
    OK(twill_bz_mul(&r, &a, &b));
    assert_bz_i128(&r, (__int128)x * y);
    assert_canonical(&r);
    REQUIRE(twill_bz_cmp(&a, &b) == (x < y ? -1 : x > y), "twill_bz_cmp(%lld, %lld)", x, y);
  }
  twill_bz_free(&a);
  twill_bz_free(&b);
  twill_bz_free(&r);
}
END_TEST

/* Truncating division against C's own (C99 and later truncate toward zero
 * and give the remainder the dividend's sign), for one-limb divisors and
 * for dividends and divisors up to three limbs (products of two long
 * longs, so Algorithm D runs on exact references too). */
START_TEST(bz_divmod_matches_int128) {
  uint64_t seed = 2;
  int rounds = tu_under_valgrind() ? 3000 : 40000;
  bigz a, b, c, q, r, t;
  twill_bz_init(&a); twill_bz_init(&b); twill_bz_init(&c);
  twill_bz_init(&q); twill_bz_init(&r); twill_bz_init(&t);
  for (int it = 0; it < rounds; it++) {
    long long x = rnd_ll(&seed), y = rnd_ll(&seed), z = rnd_ll(&seed),
              w = it % 2 ? rnd_ll(&seed) : 1;
    if (z == 0) z = 3;
    if (w == 0) w = -7;
    __int128 num = (__int128)x * y, den = (__int128)z * w;
    twill_bz_set_ll(&a, x); twill_bz_set_ll(&t, y);
    OK(twill_bz_mul(&a, &a, &t));
    twill_bz_set_ll(&b, z); twill_bz_set_ll(&t, w);
    OK(twill_bz_mul(&b, &b, &t));
    OK(twill_bz_divmod(&q, &r, &a, &b));
    assert_bz_i128(&q, num / den);
    assert_bz_i128(&r, num % den);
    assert_canonical(&q);
    assert_canonical(&r);
    /* gcd against Euclid on machine integers */
    unsigned __int128 ua = num < 0 ? -(unsigned __int128)num : (unsigned __int128)num;
    unsigned __int128 ub = den < 0 ? -(unsigned __int128)den : (unsigned __int128)den;
    OK(twill_bz_gcd(&c, &a, &b));
    assert_bz_i128(&c, (__int128)u128_gcd(ua, ub));
  }
  twill_bz_free(&a); twill_bz_free(&b); twill_bz_free(&c);
  twill_bz_free(&q); twill_bz_free(&r); twill_bz_free(&t);
}
END_TEST

START_TEST(bz_hand_values) {
  bigz a, b, r;
  twill_bz_init(&a);
  twill_bz_init(&b);
  twill_bz_init(&r);
  /* carries across every limb: (10^27 - 1) + 1 = 10^27 */
  set_str(&a, "999999999999999999999999999");
  twill_bz_set_ll(&b, 1);
  twill_bz_add(&r, &a, &b);
  assert_bz(&r, "1000000000000000000000000000");
  ck_assert_int_eq(twill_bz_digits(&r), 28);
  /* borrows across every limb, and the result loses its top limbs */
  twill_bz_sub(&r, &r, &b);
  assert_bz(&r, "999999999999999999999999999");
  twill_bz_sub(&r, &b, &a);
  assert_bz(&r, "-999999999999999999999999998");
  twill_bz_sub(&r, &a, &a);
  assert_bz(&r, "0");
  assert_canonical(&r);
  ck_assert_int_eq(twill_bz_digits(&r), 0);
  /* zero times anything, and the sign of zero */
  set_str(&b, "-5");
  twill_bz_set_ll(&r, 0);
  twill_bz_mul(&r, &r, &b);
  assert_bz(&r, "0");
  ck_assert_int_eq(r.neg, 0);
  /* (10^18 + 1)(10^18 - 1) = 10^36 - 1 */
  set_str(&a, "1000000000000000001");
  set_str(&b, "999999999999999999");
  twill_bz_mul(&r, &a, &b);
  assert_bz(&r, "999999999999999999999999999999999999");
  /* a remainder with a's sign, quotient truncated: -7 = (-3)(2) - 1 */
  twill_bz_set_ll(&a, -7);
  twill_bz_set_ll(&b, 2);
  twill_bz_divmod(&a, &b, &a, &b); /* q into a, r into b: both alias inputs */
  assert_bz(&a, "-3");
  assert_bz(&b, "-1");
  /* division by zero fails and leaves the outputs alone */
  twill_bz_set_ll(&a, 5);
  twill_bz_set_ll(&b, 0);
  twill_bz_set_ll(&r, 11);
  ck_assert_int_eq(twill_bz_divmod(&r, &r, &a, &b), -1);
  assert_bz(&r, "11");
  /* gcd conventions */
  twill_bz_set_ll(&a, 0);
  ck_assert_int_eq(twill_bz_gcd(&r, &a, &b), 0);
  assert_bz(&r, "0");
  twill_bz_set_ll(&a, -12);
  ck_assert_int_eq(twill_bz_gcd(&r, &a, &b), 0);
  assert_bz(&r, "12");
  twill_bz_set_ll(&b, -18);
  ck_assert_int_eq(twill_bz_gcd(&r, &a, &b), 0);
  assert_bz(&r, "6");
  twill_bz_free(&a);
  twill_bz_free(&b);
  twill_bz_free(&r);
}
END_TEST

/* ----------------------------------------------------- large numbers */

/* Products of numbers of up to 300 digits against the paper method. */
START_TEST(bz_mul_matches_schoolbook) {
  uint64_t seed = 3;
  int rounds = tu_under_valgrind() ? 60 : 600;
  bigz a, b, r;
  twill_bz_init(&a);
  twill_bz_init(&b);
  twill_bz_init(&r);
  for (int it = 0; it < rounds; it++) {
    char *x = rnd_digits(&seed, 1 + (int)(rnd(&seed) % 34));
    char *y = rnd_digits(&seed, 1 + (int)(rnd(&seed) % 34));
    set_str(&a, x);
    set_str(&b, y);
    int nx = x[0] == '-', ny = y[0] == '-';
    char *m = ref_mul(x + nx, y + ny);
    char *want = malloc(strlen(m) + 2);
    ck_assert_ptr_nonnull(want);
    sprintf(want, "%s%s", nx != ny && strcmp(m, "0") ? "-" : "", m);
    OK(twill_bz_mul(&r, &a, &b));
    assert_bz(&r, want);
    assert_canonical(&r);
    /* in place, squaring through both operands */
    OK(twill_bz_mul(&a, &a, &b));
    assert_bz(&a, want);
    free(x);
    free(y);
    free(m);
    free(want);
  }
  twill_bz_free(&a);
  twill_bz_free(&b);
  twill_bz_free(&r);
}
END_TEST

/* Addition and subtraction on large numbers: the group laws, and a + a
 * against a * 2 (multiplication is checked on its own above). */
START_TEST(bz_add_sub_identities) {
  uint64_t seed = 4;
  int rounds = tu_under_valgrind() ? 100 : 1500;
  bigz a, b, s, t, two;
  twill_bz_init(&a); twill_bz_init(&b); twill_bz_init(&s); twill_bz_init(&t); twill_bz_init(&two);
  twill_bz_set_ll(&two, 2);
  for (int it = 0; it < rounds; it++) {
    rnd_big(&a, &seed, 1 + (int)(rnd(&seed) % 40));
    rnd_big(&b, &seed, 1 + (int)(rnd(&seed) % 40));
    OK(twill_bz_add(&s, &a, &b));
    assert_canonical(&s);
    OK(twill_bz_add(&t, &b, &a));
    OK(twill_bz_cmp(&s, &t));
    OK(twill_bz_sub(&t, &s, &b)); /* (a + b) - b = a */
    assert_canonical(&t);
    OK(twill_bz_cmp(&t, &a));
    OK(twill_bz_sub(&s, &a, &b)); /* a - b = -(b - a) */
    OK(twill_bz_sub(&t, &b, &a));
    OK(twill_bz_add(&s, &s, &t));
    OK(twill_bz_sign(&s));
    assert_canonical(&s);
    OK(twill_bz_mul(&t, &a, &two));
    OK(twill_bz_add(&s, &a, &a));
    OK(twill_bz_cmp(&s, &t));
    /* ordering agrees with the sign of the difference */
    OK(twill_bz_sub(&s, &a, &b));
    REQUIRE(twill_bz_cmp(&a, &b) == twill_bz_sign(&s), "twill_bz_cmp against a - b");
    /* b = b - a + a through the output aliasing either input */
    OK(twill_bz_copy(&t, &b));
    OK(twill_bz_sub(&b, &b, &a));
    OK(twill_bz_add(&b, &a, &b));
    OK(twill_bz_cmp(&b, &t));
  }
  twill_bz_free(&a); twill_bz_free(&b); twill_bz_free(&s); twill_bz_free(&t); twill_bz_free(&two);
}
END_TEST

/* a = q b + r, |r| < |b|, r zero or with a's sign: the three together
 * single out the truncating quotient, whatever the method. */
static void check_divmod(const bigz *a, const bigz *b) {
  bigz q, r, t;
  twill_bz_init(&q);
  twill_bz_init(&r);
  twill_bz_init(&t);
  OK(twill_bz_divmod(&q, &r, a, b));
  assert_canonical(&q);
  assert_canonical(&r);
  bigz ra = abs_view(&r), ba = abs_view(b);
  REQUIRE(twill_bz_cmp(&ra, &ba) < 0, "|r| >= |b|");
  REQUIRE(twill_bz_sign(&r) == 0 || twill_bz_sign(&r) == twill_bz_sign(a), "r's sign is not a's");
  OK(twill_bz_mul(&t, &q, b));
  OK(twill_bz_add(&t, &t, &r));
  REQUIRE(twill_bz_cmp(&t, a) == 0, "q b + r != a");
  /* one output at a time gives the same parts */
  OK(twill_bz_divmod(&t, NULL, a, b));
  REQUIRE(twill_bz_cmp(&t, &q) == 0, "quotient alone differs");
  OK(twill_bz_divmod(NULL, &t, a, b));
  REQUIRE(twill_bz_cmp(&t, &r) == 0, "remainder alone differs");
  twill_bz_free(&q);
  twill_bz_free(&r);
  twill_bz_free(&t);
}

START_TEST(bz_divmod_identity_large) {
  uint64_t seed = 5;
  int rounds = tu_under_valgrind() ? 300 : 4000;
  bigz a, b, c, q, r;
  twill_bz_init(&a); twill_bz_init(&b); twill_bz_init(&c); twill_bz_init(&q); twill_bz_init(&r);
  for (int it = 0; it < rounds; it++) {
    rnd_big(&a, &seed, 1 + (int)(rnd(&seed) % 45)); /* up to 405 digits */
    rnd_big(&b, &seed, 1 + (int)(rnd(&seed) % 35));
    if (twill_bz_sign(&b) == 0) twill_bz_set_ll(&b, -999999999);
    check_divmod(&a, &b);
    check_divmod(&b, a.n ? &a : &b); /* mostly a smaller dividend */
    /* an exact multiple divides back to its factor, remainder 0 */
    OK(twill_bz_mul(&c, &a, &b));
    OK(twill_bz_divmod(&q, &r, &c, &b));
    OK(twill_bz_cmp(&q, &a));
    OK(twill_bz_sign(&r));
    /* one less than a multiple: the quotient drops by one (toward zero) */
    if (twill_bz_sign(&a) > 0 && twill_bz_sign(&b) > 0) {
      twill_bz_set_ll(&r, 1);
      twill_bz_sub(&c, &c, &r);
      OK(twill_bz_divmod(&q, &r, &c, &b));
      twill_bz_set_ll(&c, 1);
      twill_bz_add(&q, &q, &c);
      OK(twill_bz_cmp(&q, &a));
      twill_bz_add(&r, &r, &c);
      OK(twill_bz_cmp(&r, &b));
    }
  }
  twill_bz_free(&a); twill_bz_free(&b); twill_bz_free(&c); twill_bz_free(&q); twill_bz_free(&r);
}
END_TEST

/* gcd(a c, b c): divides both, leaves coprime cofactors (so it is the
 * greatest), is positive, and is a multiple of c. */
START_TEST(bz_gcd_properties) {
  uint64_t seed = 6;
  int rounds = tu_under_valgrind() ? 40 : 400;
  bigz a, b, c, g, x, y, one;
  twill_bz_init(&a); twill_bz_init(&b); twill_bz_init(&c); twill_bz_init(&g);
  twill_bz_init(&x); twill_bz_init(&y); twill_bz_init(&one);
  twill_bz_set_ll(&one, 1);
  for (int it = 0; it < rounds; it++) {
    rnd_big(&a, &seed, 1 + (int)(rnd(&seed) % 20));
    rnd_big(&b, &seed, 1 + (int)(rnd(&seed) % 20));
    rnd_big(&c, &seed, 1 + (int)(rnd(&seed) % 10));
    if (twill_bz_sign(&c) == 0) twill_bz_set_ll(&c, 6);
    twill_bz_mul(&a, &a, &c);
    twill_bz_mul(&b, &b, &c);
    OK(twill_bz_gcd(&g, &a, &b));
    assert_canonical(&g);
    if (twill_bz_sign(&a) == 0 && twill_bz_sign(&b) == 0) {
      OK(twill_bz_sign(&g));
      continue;
    }
    REQUIRE(twill_bz_sign(&g) == 1, "gcd not positive");
    OK(twill_bz_divmod(&x, &y, &a, &g));
    OK(twill_bz_sign(&y));
    OK(twill_bz_divmod(&y, &c, &g, &c)); /* c | g; c is spent */
    OK(twill_bz_sign(&c));
    OK(twill_bz_divmod(&y, &c, &b, &g));
    OK(twill_bz_sign(&c));
    OK(twill_bz_gcd(&c, &x, &y));
    OK(twill_bz_cmp(&c, &one));
    /* output aliasing an input */
    OK(twill_bz_gcd(&a, &a, &b));
    OK(twill_bz_cmp(&a, &g));
  }
  twill_bz_free(&a); twill_bz_free(&b); twill_bz_free(&c); twill_bz_free(&g);
  twill_bz_free(&x); twill_bz_free(&y); twill_bz_free(&one);
}
END_TEST

/* Plain Euclid by long division, the reference for Lehmer's gcd. */
static void euclid_ref(bigz *g, const bigz *a, const bigz *b) {
  bigz x, y, r;
  twill_bz_init(&x); twill_bz_init(&y); twill_bz_init(&r);
  OK(twill_bz_copy(&x, a) < 0);
  OK(twill_bz_copy(&y, b) < 0);
  x.neg = y.neg = 0;
  while (twill_bz_sign(&y)) {
    OK(twill_bz_divmod(NULL, &r, &x, &y));
    OK(twill_bz_copy(&x, &y));
    OK(twill_bz_copy(&y, &r));
  }
  OK(twill_bz_copy(g, &x));
  twill_bz_free(&x); twill_bz_free(&y); twill_bz_free(&r);
}

/* twill_bz_gcd (Lehmer's, on the leading limbs) against plain Euclid, on
 * numbers up to 120 limbs: random pairs, pairs with a large common
 * factor, pairs a = b q + r with a quotient q of up to 30 limbs (Lehmer
 * falls back to a long division there), near-equal pairs, and zeros. */
START_TEST(bz_gcd_matches_euclid) {
  uint64_t seed = 23;
  int rounds = tu_under_valgrind() ? 30 : 300;
  bigz a, b, c, g, h;
  twill_bz_init(&a); twill_bz_init(&b); twill_bz_init(&c); twill_bz_init(&g); twill_bz_init(&h);
  for (int it = 0; it < rounds; it++) {
    int kind = it % 5;
    rnd_big(&a, &seed, 1 + (int)(rnd(&seed) % 120));
    rnd_big(&b, &seed, 1 + (int)(rnd(&seed) % 120));
    if (kind == 1) { /* a common factor */
      rnd_big(&c, &seed, 1 + (int)(rnd(&seed) % 40));
      OK(twill_bz_mul(&a, &a, &c));
      OK(twill_bz_mul(&b, &b, &c));
    } else if (kind == 2) { /* a large quotient */
      rnd_big(&c, &seed, 1 + (int)(rnd(&seed) % 30));
      OK(twill_bz_mul(&c, &c, &b));
      OK(twill_bz_add(&a, &c, &a));
    } else if (kind == 3) { /* near-equal */
      OK(twill_bz_copy(&a, &b) < 0);
      twill_bz_set_ll(&c, (long long)(rnd(&seed) % 1000));
      OK(twill_bz_add(&a, &a, &c));
    } else if (kind == 4 && it % 10 == 4) {
      twill_bz_set_ll(&b, 0);
    }
    OK(twill_bz_gcd(&g, &a, &b));
    euclid_ref(&h, &a, &b);
    assert_canonical(&g);
    REQUIRE(twill_bz_cmp(&g, &h) == 0, "Lehmer's gcd differs from Euclid's (round %d)", it);
    OK(twill_bz_gcd(&g, &b, &a));
    REQUIRE(twill_bz_cmp(&g, &h) == 0, "gcd(b, a) differs (round %d)", it);
  }
  twill_bz_free(&a); twill_bz_free(&b); twill_bz_free(&c); twill_bz_free(&g); twill_bz_free(&h);
}
END_TEST

/* Fibonacci numbers by addition: gcd(F(m), F(n)) = F(gcd(m, n)); F(300)
 * has 63 digits, and Euclid on neighbours takes the most steps there are. */
START_TEST(bz_gcd_fibonacci) {
  enum { N = 301 };
  bigz f[N], g;
  twill_bz_init(&f[0]);
  twill_bz_init(&f[1]);
  twill_bz_set_ll(&f[1], 1);
  for (int i = 2; i < N; i++) {
    twill_bz_init(&f[i]);
    ck_assert_int_eq(twill_bz_add(&f[i], &f[i - 1], &f[i - 2]), 0);
  }
  assert_bz(&f[100], "354224848179261915075");
  twill_bz_init(&g);
  const int pairs[][3] = {{300, 299, 1}, {300, 200, 100}, {300, 288, 12},
                          {240, 180, 60}, {97, 0, 97},   {299, 13, 13}};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    ck_assert_int_eq(twill_bz_gcd(&g, &f[pairs[i][0]], &f[pairs[i][1]]), 0);
    ck_assert_int_eq(twill_bz_cmp(&g, &f[pairs[i][2]]), 0);
  }
  for (int i = 0; i < N; i++) twill_bz_free(&f[i]);
  twill_bz_free(&g);
}
END_TEST

/* ---------------------------------------------------------------- text */

static void assert_round_trip(const bigz *a) {
  char *s = twill_bz_str(a);
  ck_assert_ptr_nonnull(s);
  bigq q;
  twill_bq_init(&q);
  ck_assert_int_eq(twill_bq_parse(&q, s), 0);
  ck_assert_int_eq(twill_bz_cmp(&q.num, a), 0);
  ck_assert_int_eq(q.den.n == 0 || (q.den.n == 1 && q.den.d[0] == 1), 1);
  twill_bq_free(&q);
  free(s);
}

START_TEST(bz_text_round_trip) {
  bigz a, ten, one;
  twill_bz_init(&a);
  twill_bz_init(&ten);
  twill_bz_init(&one);
  twill_bz_set_ll(&ten, 10);
  twill_bz_set_ll(&one, 1);
  /* 10^k by repeated multiplication: "1" and k zeros, k + 1 digits */
  char want[128];
  twill_bz_set_ll(&a, 1);
  for (int k = 0; k <= 100; k++) {
    memset(want, '0', sizeof want);
    want[0] = '1';
    want[k + 1] = '\0';
    assert_bz(&a, want);
    ck_assert_int_eq(twill_bz_digits(&a), k + 1);
    assert_round_trip(&a);
    if (k < 100) twill_bz_mul(&a, &a, &ten);
  }
  /* 10^100 - 1: a hundred nines */
  twill_bz_sub(&a, &a, &one);
  memset(want, '9', 100);
  want[100] = '\0';
  assert_bz(&a, want);
  ck_assert_int_eq(twill_bz_digits(&a), 100);
  assert_round_trip(&a);
  /* -(2^200) by doubling -1 two hundred times */
  twill_bz_set_ll(&a, -1);
  for (int k = 0; k < 200; k++) twill_bz_add(&a, &a, &a);
  assert_bz(&a, "-1606938044258990275541962092341162602522202993782792835301376");
  ck_assert_int_eq(twill_bz_digits(&a), 61);
  assert_round_trip(&a);
  /* limb boundaries in the padding of inner limbs */
  const char *texts[] = {"1000000000", "999999999", "1000000001000000001",
                         "-100000000000000000000000000", "7"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    set_str(&a, texts[i]);
    assert_bz(&a, texts[i]);
    ck_assert_int_eq(twill_bz_digits(&a), (int)strlen(texts[i]) - (texts[i][0] == '-'));
  }
  twill_bz_set_ll(&a, 0);
  assert_bz(&a, "0");
  assert_round_trip(&a);
  twill_bz_free(&a);
  twill_bz_free(&ten);
  twill_bz_free(&one);
}
END_TEST

/* ----------------------------------------------------------- rationals */

START_TEST(bq_parse_forms) {
  const char *cases[][2] = {
      {"-4.60000002", "-230000001/50000000"}, /* -460000002 / 10^8, halved */
      {".068554", "34277/500000"},            /* 68554 / 10^6, halved */
      {"1E-5", "1/100000"},
      {"12e+3", "12000"},
      {"-7/3", "-7/3"},
      {"+5", "5"},
      {"1.", "1"},
      {"-0", "0"},
      {"0.000", "0"},
      {"-0/7", "0"},
      {"007", "7"},
      {"10/4", "5/2"},
      {"-10/4", "-5/2"},
      {"1.5e1", "15"},
      {"2.5E-1", "1/4"},
      {"-.5", "-1/2"},
      {"0.1", "1/10"},
      {"1e0", "1"},
      {"1e-0", "1"},
      {"123.456e2", "61728/5"},          /* 12345.6 */
      {"1e00000000000000000000003", "1000"}, /* leading zeros in the exponent */
      {"123456789012345678901234567890/10", "12345678901234567890123456789"},
      /* 2^65 / 3 */
      {"36893488147419103232/3", "36893488147419103232/3"},
      {"333333333333333333333333333333/999999999999999999999999999999", "1/3"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bigq q;
    twill_bq_init(&q);
    ck_assert_msg(twill_bq_parse(&q, cases[i][0]) == 0, "parse %s", cases[i][0]);
    assert_q(&q, cases[i][1]);
    twill_bq_free(&q);
  }
  /* the exponent limit is inclusive: 10^4000 and 10^-4000 are exact */
  bigq q = qv("1e4000");
  ck_assert_int_eq(twill_bz_digits(&q.num), 4001);
  assert_normal(&q);
  twill_bq_free(&q);
  q = qv("-1e-4000");
  ck_assert_int_eq(twill_bz_digits(&q.den), 4001);
  ck_assert_int_eq(twill_bq_sign(&q), -1);
  assert_normal(&q);
  /* 4000 fraction digits on top of the exponent: 10^-4000 * 10^-3999 */
  char *t = malloc(4010);
  ck_assert_ptr_nonnull(t);
  memset(t, '0', 4002);
  t[1] = '.';
  t[4001] = '1';
  strcpy(t + 4002, "e-3999");
  ck_assert_int_eq(twill_bq_parse(&q, t), 0);
  ck_assert_int_eq(twill_bz_digits(&q.den), 8000);
  free(t);
  twill_bq_free(&q);
}
END_TEST

START_TEST(bq_parse_rejects) {
  const char *bad[] = {
      "",      "+",       "-",      ".",        "-.",       "+.e1",   "e5",
      "E5",    "1e",      "1e+",    "1e-",      "1.2.3",    "1..2",   " 1",
      "1 ",    "1x",      "x1",     "1/0",      "-1/0",     "0/0",    "1/00",
      "1e4001", "-1e-4001", "1e99999999999999999999999999", "1.5/2",  "1/2.5",
      "1e2/3", "3/1e2",   "1/",     "/2",       "1/-3",     "1/+3",   "1//2",
      "1/2/3", "0x10",    "inf",    "nan",      "1,5",      "--1",    "+-1",
      "1e5.5", "1/2e1",   "1.e",    ".e1",      "1/ 2",     "1 /2"};
  bigq q = qv("5/7");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    ck_assert_msg(twill_bq_parse(&q, bad[i]) == -2, "accepted '%s'", bad[i]);
    assert_q(&q, "5/7"); /* a failed parse leaves the value alone */
  }
  twill_bq_free(&q);
  /* and an initialized, never-set value stays freeable */
  bigq z;
  twill_bq_init(&z);
  ck_assert_int_eq(twill_bq_parse(&z, "1/0"), -2);
  ck_assert_int_eq(twill_bq_sign(&z), 0);
  twill_bq_free(&z);
}
END_TEST

START_TEST(bq_arithmetic_hand_values) {
  bigq a = qv("1/3"), b = qv("1/6"), r;
  twill_bq_init(&r);
  ck_assert_int_eq(twill_bq_add(&r, &a, &b), 0);
  assert_q(&r, "1/2");
  ck_assert_int_eq(twill_bq_sub(&r, &b, &a), 0);
  assert_q(&r, "-1/6");
  ck_assert_int_eq(twill_bq_sub(&r, &r, &r), 0);
  assert_q(&r, "0");
  ck_assert_int_eq(twill_bq_mul(&r, &a, &b), 0);
  assert_q(&r, "1/18");
  ck_assert_int_eq(twill_bq_div(&r, &a, &b), 0);
  assert_q(&r, "2");
  /* 2/3 * 9/4 = 3/2: both cross cancellations */
  twill_bq_free(&a);
  twill_bq_free(&b);
  a = qv("2/3");
  b = qv("9/4");
  twill_bq_mul(&r, &a, &b);
  assert_q(&r, "3/2");
  /* 1 + (2/3)(9/4) = 5/2 */
  twill_bq_set_ll(&r, 1, 1);
  ck_assert_int_eq(twill_bq_addmul(&r, &r, &a, &b), 0);
  assert_q(&r, "5/2");
  /* dividing by a negative moves the sign to the numerator */
  twill_bq_set_ll(&r, -4, 5);
  ck_assert_int_eq(twill_bq_div(&r, &a, &r), 0); /* (2/3) / (-4/5) */
  assert_q(&r, "-5/6");
  /* division by zero fails and leaves out alone */
  bigq z;
  twill_bq_init(&z);
  ck_assert_int_eq(twill_bq_div(&r, &a, &z), -1);
  assert_q(&r, "-5/6");
  twill_bq_set_ll(&z, 0, 5);
  ck_assert_int_eq(twill_bq_div(&r, &a, &z), -1);
  /* set_ll normalizes, including both ends of long long */
  ck_assert_int_eq(twill_bq_set_ll(&r, 3, -6), 0);
  assert_q(&r, "-1/2");
  ck_assert_int_eq(twill_bq_set_ll(&r, LLONG_MIN, LLONG_MIN), 0);
  assert_q(&r, "1");
  ck_assert_int_eq(twill_bq_set_ll(&r, LLONG_MIN, -1), 0);
  assert_q(&r, "9223372036854775808");
  ck_assert_int_eq(twill_bq_set_ll(&r, LLONG_MAX, LLONG_MIN), 0);
  assert_q(&r, "-9223372036854775807/9223372036854775808");
  ck_assert_int_eq(twill_bq_set_ll(&r, 1, 0), -1);
  /* x - x over a huge denominator is 0/1 */
  twill_bq_free(&a);
  a = qv("1/1180591620717411303424"); /* 2^-70 */
  twill_bq_add(&r, &a, &a);
  assert_q(&r, "1/590295810358705651712");
  twill_bq_sub(&r, &a, &a);
  assert_q(&r, "0");
  twill_bq_free(&a);
  twill_bq_free(&b);
  twill_bq_free(&r);
  twill_bq_free(&z);
}
END_TEST

/* H_30 = sum of 1/k for k = 1..30, whose reduced value is quoted (OEIS
 * A001008 / A002805); by twill_bq_add, and by twill_bq_addmul as 1 * (1/k). */
START_TEST(bq_harmonic_30) {
  bigq h, g, t, one;
  twill_bq_init(&h);
  twill_bq_init(&g);
  twill_bq_init(&t);
  twill_bq_init(&one);
  twill_bq_set_ll(&one, 1, 1);
  for (int k = 1; k <= 30; k++) {
    ck_assert_int_eq(twill_bq_set_ll(&t, 1, k), 0);
    ck_assert_int_eq(twill_bq_add(&h, &h, &t), 0);
    ck_assert_int_eq(twill_bq_addmul(&g, &g, &one, &t), 0);
    assert_normal(&h);
  }
  assert_q(&h, "9304682830147/2329089562800");
  ck_assert_int_eq(twill_bq_cmp(&h, &g), 0);
  bigq want = qv("9304682830147/2329089562800");
  ck_assert_int_eq(twill_bq_cmp(&h, &want), 0);
  /* about 3.99499, and the double agrees */
  ck_assert(fabs(twill_bq_to_double(&h) - 9304682830147.0 / 2329089562800.0) < 1e-14);
  twill_bq_free(&h);
  twill_bq_free(&g);
  twill_bq_free(&t);
  twill_bq_free(&one);
  twill_bq_free(&want);
}
END_TEST

/* Small fractions against exact machine arithmetic: every operation and
 * the comparison, with out aliasing an operand half of the time. */
START_TEST(bq_matches_machine_fractions) {
  uint64_t seed = 7;
  int rounds = tu_under_valgrind() ? 2000 : 20000;
  bigq a, b, c, r;
  twill_bq_init(&a); twill_bq_init(&b); twill_bq_init(&c); twill_bq_init(&r);
  char want[160];
  for (int it = 0; it < rounds; it++) {
    long long p1 = (long long)(rnd(&seed) % 2001) - 1000, q1 = 1 + rnd(&seed) % 1000;
    long long p2 = (long long)(rnd(&seed) % 2001) - 1000, q2 = 1 + rnd(&seed) % 1000;
    long long p3 = (long long)(rnd(&seed) % 201) - 100, q3 = -(long long)(1 + rnd(&seed) % 100);
    twill_bq_set_ll(&a, p1, q1);
    twill_bq_set_ll(&b, p2, q2);
    twill_bq_set_ll(&c, p3, q3);
    /* p/q reduced by set_ll: compare through the machine's reduction */
    frac_str(want, p1, q1);
    assert_q(&a, want);
    bigq *out = it % 2 ? &r : &a;
    OK(twill_bq_add(out, &a, &b));
    frac_str(want, (__int128)p1 * q2 + (__int128)p2 * q1, (__int128)q1 * q2);
    assert_q(out, want);
    twill_bq_set_ll(&a, p1, q1);
    OK(twill_bq_sub(out, &a, &b));
    frac_str(want, (__int128)p1 * q2 - (__int128)p2 * q1, (__int128)q1 * q2);
    assert_q(out, want);
    twill_bq_set_ll(&a, p1, q1);
    OK(twill_bq_mul(out, &a, &b));
    frac_str(want, (__int128)p1 * p2, (__int128)q1 * q2);
    assert_q(out, want);
    twill_bq_set_ll(&a, p1, q1);
    if (p2) {
      OK(twill_bq_div(out, &a, &b));
      frac_str(want, (__int128)p1 * q2, (__int128)q1 * p2);
      assert_q(out, want);
      twill_bq_set_ll(&a, p1, q1);
    } else {
      ck_assert_int_eq(twill_bq_div(&r, &a, &b), -1);
    }
    /* a + b c = (p1 q2 q3 + p2 p3 q1) / (q1 q2 q3) */
    OK(twill_bq_addmul(out, &a, &b, &c));
    frac_str(want, (__int128)p1 * q2 * q3 + (__int128)p2 * p3 * q1,
             (__int128)q1 * q2 * q3);
    assert_q(out, want);
    twill_bq_set_ll(&a, p1, q1);
    __int128 d = (__int128)p1 * q2 - (__int128)p2 * q1;
    ck_assert_int_eq(twill_bq_cmp(&a, &b), d < 0 ? -1 : d > 0);
    ck_assert_int_eq(twill_bq_sign(&a), p1 < 0 ? -1 : p1 > 0);
    ck_assert(fabs(twill_bq_to_double(&a) - (double)p1 / (double)q1) <= 1e-15 * fabs((double)p1 / (double)q1));
  }
  twill_bq_free(&a); twill_bq_free(&b); twill_bq_free(&c); twill_bq_free(&r);
}
END_TEST

/* Ascending by construction (the comments give each value); every pair
 * must compare the way the list orders them, including two values that
 * differ far below double precision. */
START_TEST(bq_cmp_orders) {
  const char *asc[] = {
      "-1e4000",
      "-1e10",
      "-4.60000002",
      "-7/3",                    /* -2.333... */
      "-2",
      "-1/1000000",
      "0",
      "1E-5",
      ".068554",
      "1/3",
      "333333333333333333/999999999999999998", /* 1/3 + 1/(3 * that den) */
      "1",
      "12e+3",
      "1e4000"};
  enum { N = sizeof asc / sizeof *asc };
  bigq v[N];
  for (int i = 0; i < N; i++) v[i] = qv(asc[i]);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      ck_assert_msg(twill_bq_cmp(&v[i], &v[j]) == (i < j ? -1 : i > j),
                    "cmp(%s, %s)", asc[i], asc[j]);
  /* a value just made by twill_bq_init is zero */
  bigq z;
  twill_bq_init(&z);
  ck_assert_int_eq(twill_bq_cmp(&z, &v[6]), 0);
  ck_assert_int_eq(twill_bq_cmp(&z, &v[7]), -1);
  ck_assert_int_eq(twill_bq_cmp(&v[5], &z), -1);
  for (int i = 0; i < N; i++) twill_bq_free(&v[i]);
}
END_TEST

/* twill_bq_init allocates nothing and its empty den reads as 1 everywhere. */
START_TEST(bq_init_is_zero_over_one) {
  bigq z, y, r;
  twill_bq_init(&z);
  twill_bq_init(&r);
  ck_assert_ptr_null(z.num.d);
  ck_assert_ptr_null(z.den.d);
  y = qv("3/4");
  ck_assert_int_eq(twill_bq_sign(&z), 0);
  ck_assert(twill_bq_to_double(&z) == 0.0);
  ck_assert_int_eq(twill_bq_add(&r, &z, &y), 0);
  assert_q(&r, "3/4");
  ck_assert_int_eq(twill_bq_sub(&r, &z, &y), 0);
  assert_q(&r, "-3/4");
  ck_assert_int_eq(twill_bq_mul(&r, &y, &z), 0);
  assert_q(&r, "0");
  ck_assert_int_eq(twill_bq_div(&r, &z, &y), 0);
  assert_q(&r, "0");
  ck_assert_int_eq(twill_bq_div(&r, &y, &z), -1);
  ck_assert_int_eq(twill_bq_addmul(&r, &y, &z, &y), 0);
  assert_q(&r, "3/4");
  ck_assert_int_eq(twill_bq_copy(&r, &z), 0);
  assert_q(&r, "0");
  /* an initialized value used as the output of its own sum */
  bigq w;
  twill_bq_init(&w);
  ck_assert_int_eq(twill_bq_add(&w, &w, &y), 0);
  assert_q(&w, "3/4");
  /* num set by hand on an init'd value: den still reads as 1 */
  twill_bq_free(&r);
  twill_bq_init(&r);
  twill_bz_set_ll(&r.num, 5);
  ck_assert_int_eq(twill_bq_add(&r, &r, &y), 0);
  assert_q(&r, "23/4");
  twill_bq_free(&z);
  twill_bq_free(&y);
  twill_bq_free(&r);
  twill_bq_free(&w);
}
END_TEST

START_TEST(bq_aliasing) {
  bigq a = qv("-2/3"), b = qv("5/7"), c;
  twill_bq_init(&c);
  ck_assert_int_eq(twill_bq_add(&a, &a, &a), 0); /* -4/3 */
  assert_q(&a, "-4/3");
  ck_assert_int_eq(twill_bq_mul(&a, &a, &b), 0); /* -20/21 */
  assert_q(&a, "-20/21");
  ck_assert_int_eq(twill_bq_div(&b, &a, &b), 0); /* (-20/21) / (5/7) = -4/3 */
  assert_q(&b, "-4/3");
  ck_assert_int_eq(twill_bq_addmul(&b, &b, &b, &b), 0); /* -4/3 + 16/9 = 4/9 */
  assert_q(&b, "4/9");
  ck_assert_int_eq(twill_bq_div(&b, &b, &b), 0);
  assert_q(&b, "1");
  ck_assert_int_eq(twill_bq_copy(&c, &a), 0);
  ck_assert_int_eq(twill_bq_copy(&c, &c), 0);
  ck_assert_int_eq(twill_bq_sub(&a, &c, &a), 0);
  assert_q(&a, "0");
  assert_q(&c, "-20/21");
  twill_bq_free(&a);
  twill_bq_free(&b);
  twill_bq_free(&c);
}
END_TEST

static int close_to(double got, double want) {
  return fabs(got - want) <= 1e-15 * fabs(want);
}

START_TEST(bq_to_double_ranges) {
  const struct {
    const char *text;
    double want;
  } cases[] = {{"1/3", 1.0 / 3.0},
               {"-7/3", -7.0 / 3.0},
               {"-4.60000002", -4.60000002},
               {"1E-5", 1e-5},
               {"1e300/7", 1e300 / 7.0},
               {"7/1e300", 7e-300},
               {"1e-300", 1e-300},
               {"123456789012345678901234567890123/1000", 1.23456789012345678901234567890123e29}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    bigq q;
    twill_bq_init(&q);
    if (strchr(cases[i].text, 'e') && strchr(cases[i].text, '/')) {
      /* "x/y" with exponents is not twill_bq_parse syntax: divide two parses */
      char buf[64];
      strcpy(buf, cases[i].text);
      char *slash = strchr(buf, '/');
      *slash = '\0';
      bigq n = qv(buf), d = qv(slash + 1);
      ck_assert_int_eq(twill_bq_div(&q, &n, &d), 0);
      twill_bq_free(&n);
      twill_bq_free(&d);
    } else {
      ck_assert_int_eq(twill_bq_parse(&q, cases[i].text), 0);
    }
    ck_assert_msg(close_to(twill_bq_to_double(&q), cases[i].want), "%s: %.17g",
                  cases[i].text, twill_bq_to_double(&q));
    twill_bq_free(&q);
  }
  /* 2^200 made by doubling, against ldexp */
  bigq p;
  twill_bq_init(&p);
  twill_bq_set_ll(&p, 1, 1);
  for (int k = 0; k < 200; k++) twill_bq_add(&p, &p, &p);
  ck_assert(close_to(twill_bq_to_double(&p), ldexp(1.0, 200)));
  twill_bq_free(&p);
  /* beyond double's range: infinity or zero, with the sign */
  bigq big = qv("1e4000"), neg = qv("-3e400"), tiny = qv("1e-4000");
  ck_assert(twill_bq_to_double(&big) == HUGE_VAL);
  ck_assert(twill_bq_to_double(&neg) == -HUGE_VAL);
  ck_assert(twill_bq_to_double(&tiny) == 0.0);
  twill_bq_free(&big);
  twill_bq_free(&neg);
  twill_bq_free(&tiny);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("bigq");
  TCase *z = tcase_create("integers");
  tcase_set_timeout(z, 120);
  tcase_add_test(z, bz_matches_int128);
  tcase_add_test(z, bz_divmod_matches_int128);
  tcase_add_test(z, bz_hand_values);
  tcase_add_test(z, bz_mul_matches_schoolbook);
  tcase_add_test(z, bz_add_sub_identities);
  tcase_add_test(z, bz_divmod_identity_large);
  tcase_add_test(z, bz_gcd_properties);
  tcase_add_test(z, bz_gcd_fibonacci);
  tcase_add_test(z, bz_gcd_matches_euclid);
  tcase_add_test(z, bz_text_round_trip);
  suite_add_tcase(s, z);
  TCase *q = tcase_create("rationals");
  tcase_set_timeout(q, 120);
  tcase_add_test(q, bq_parse_forms);
  tcase_add_test(q, bq_parse_rejects);
  tcase_add_test(q, bq_arithmetic_hand_values);
  tcase_add_test(q, bq_harmonic_30);
  tcase_add_test(q, bq_matches_machine_fractions);
  tcase_add_test(q, bq_cmp_orders);
  tcase_add_test(q, bq_init_is_zero_over_one);
  tcase_add_test(q, bq_aliasing);
  tcase_add_test(q, bq_to_double_ranges);
  suite_add_tcase(s, q);
  return s;
}

TWILL_CHECK_MAIN
