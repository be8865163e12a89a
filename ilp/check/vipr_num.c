/* ilp/check/vipr_num.c: exact integers and rationals for the VIPR checker.
 *
 * Plain schoolbook algorithms (Knuth, TAOCP vol. 2, 4.3.1): addition and
 * subtraction limb by limb with carries, O(n*m) multiplication, and
 * Algorithm D for long division.  gcd is Lehmer's algorithm, Euclid on
 * the leading bits with long division where a quotient is large.  Rationals keep lowest terms with the usual gcd tricks (the
 * ones GMP's mpq uses) so that sums of many fractions with a common
 * denominator never compute a large gcd.
 */
#include "vipr_num.h"

#include <stdlib.h>
#include <string.h>

#define B32 ((uint64_t)1 << 32)

static uint32_t *limbs(vipr_big *a) { return a->cap ? a->heap : a->small; }
static const uint32_t *climbs(const vipr_big *a) {
  return a->cap ? a->heap : a->small;
}

void twill_vipr_big_init(vipr_big *a) { memset(a, 0, sizeof *a); }

void twill_vipr_big_free(vipr_big *a) {
  if (a->cap) free(a->heap);
  twill_vipr_big_init(a);
}

/* Room for n limbs, keeping the current ones. */
static int reserve(vipr_big *a, int n) {
  int have = a->cap ? a->cap : 2;
  if (n <= have) return 0;
  if (n > VIPR_BIG_MAX_LIMBS) return -1;
  uint32_t *p = malloc((size_t)n * sizeof *p);
  if (!p) return -1;
  if (a->n) memcpy(p, limbs(a), (size_t)a->n * sizeof *p);
  if (a->cap) free(a->heap);
  a->heap = p;
  a->cap = n;
  return 0;
}

static void trim(vipr_big *a) {
  const uint32_t *d = limbs(a);
  while (a->n > 0 && d[a->n - 1] == 0) a->n--;
  if (a->n == 0) a->neg = 0;
}

/* Move t into r (r's old value is freed). */
static void take(vipr_big *r, vipr_big *t) {
  vipr_big old = *r;
  *r = *t;
  twill_vipr_big_free(&old);
  twill_vipr_big_init(t);
}

int twill_vipr_big_set_i64(vipr_big *r, int64_t v) {
  uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  r->n = 0;
  limbs(r)[0] = (uint32_t)m;
  limbs(r)[1] = (uint32_t)(m >> 32);
  r->n = 2;
  r->neg = v < 0;
  trim(r);
  return 0;
}

int twill_vipr_big_copy(vipr_big *r, const vipr_big *a) {
  if (r == a) return 0;
  r->n = 0;
  if (reserve(r, a->n)) return -1;
  if (a->n) memcpy(limbs(r), climbs(a), (size_t)a->n * sizeof(uint32_t));
  r->n = a->n;
  r->neg = a->neg;
  return 0;
}

int twill_vipr_big_sgn(const vipr_big *a) { return a->n == 0 ? 0 : a->neg ? -1 : 1; }

static int mag_cmp(const vipr_big *a, const vipr_big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  const uint32_t *x = climbs(a), *y = climbs(b);
  for (int i = a->n - 1; i >= 0; i--)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

int twill_vipr_big_cmp(const vipr_big *a, const vipr_big *b) {
  int sa = twill_vipr_big_sgn(a), sb = twill_vipr_big_sgn(b);
  if (sa != sb) return sa < sb ? -1 : 1;
  int c = mag_cmp(a, b);
  return sa < 0 ? -c : c;
}

/* t = |a| + |b| (t is fresh). */
static int mag_add(vipr_big *t, const vipr_big *a, const vipr_big *b) {
  if (a->n < b->n) { const vipr_big *s = a; a = b; b = s; }
  if (reserve(t, a->n + 1)) return -1;
  const uint32_t *x = climbs(a), *y = climbs(b);
  uint32_t *z = limbs(t);
  uint64_t c = 0;
  for (int i = 0; i < a->n; i++) {
    c += (uint64_t)x[i] + (i < b->n ? y[i] : 0);
    z[i] = (uint32_t)c;
    c >>= 32;
  }
  z[a->n] = (uint32_t)c;
  t->n = a->n + 1;
  trim(t);
  return 0;
}

/* t = |a| - |b| where |a| >= |b| (t is fresh). */
static int mag_sub(vipr_big *t, const vipr_big *a, const vipr_big *b) {
  if (reserve(t, a->n)) return -1;
  const uint32_t *x = climbs(a), *y = climbs(b);
  uint32_t *z = limbs(t);
  uint64_t borrow = 0;
  for (int i = 0; i < a->n; i++) {
    uint64_t d = (uint64_t)x[i] - (i < b->n ? y[i] : 0) - borrow;
    z[i] = (uint32_t)d;
    borrow = d >> 63; /* the difference was negative */
  }
  t->n = a->n;
  trim(t);
  return 0;
}

/* r = a + (flip ? -b : b). */
static int add_signed(vipr_big *r, const vipr_big *a, const vipr_big *b,
                      int flip) {
  int bneg = b->n ? (b->neg ^ flip) : 0;
  vipr_big t;
  twill_vipr_big_init(&t);
  int rc;
  if (a->neg == bneg) {
    rc = mag_add(&t, a, b);
    t.neg = a->neg;
  } else if (mag_cmp(a, b) >= 0) {
    rc = mag_sub(&t, a, b);
    t.neg = a->neg;
  } else {
    rc = mag_sub(&t, b, a);
    t.neg = bneg;
  }
  if (rc) { twill_vipr_big_free(&t); return -1; }
  trim(&t);
  take(r, &t);
  return 0;
}

int twill_vipr_big_add(vipr_big *r, const vipr_big *a, const vipr_big *b) {
  return add_signed(r, a, b, 0);
}

int twill_vipr_big_sub(vipr_big *r, const vipr_big *a, const vipr_big *b) {
  return add_signed(r, a, b, 1);
}

int twill_vipr_big_mul(vipr_big *r, const vipr_big *a, const vipr_big *b) {
  vipr_big t;
  twill_vipr_big_init(&t);
  if (a->n == 0 || b->n == 0) { take(r, &t); return 0; }
  if (reserve(&t, a->n + b->n)) return -1;
  uint32_t *z = limbs(&t);
  const uint32_t *x = climbs(a), *y = climbs(b);
  memset(z, 0, (size_t)(a->n + b->n) * sizeof *z);
  for (int i = 0; i < a->n; i++) {
    uint64_t c = 0;
    for (int j = 0; j < b->n; j++) {
      c += (uint64_t)x[i] * y[j] + z[i + j];  /* < 2^64: (2^32-1)^2 + 2(2^32-1) */
      z[i + j] = (uint32_t)c;
      c >>= 32;
    }
    z[i + b->n] = (uint32_t)c;
  }
  t.n = a->n + b->n;
  t.neg = a->neg ^ b->neg;
  trim(&t);
  take(r, &t);
  return 0;
}

/* Truncating division of magnitudes: q = |u| / |v|, m = |u| mod |v|, both
 * fresh and nonnegative; |v| > 0.  Knuth's Algorithm D with base 2^32:
 * normalise so the divisor's top limb has its high bit set, then each
 * quotient limb is estimated from the top two limbs of the running
 * remainder (too large by at most 2, corrected by the test against the
 * divisor's second limb and, rarely, by adding back once). */
static int mag_divmod(vipr_big *q, vipr_big *m, const vipr_big *u,
                      const vipr_big *v) {
  int un = u->n, vn = v->n;
  const uint32_t *U = climbs(u), *V = climbs(v);
  if (mag_cmp(u, v) < 0) {
    q->n = 0;
    if (twill_vipr_big_copy(m, u)) return -1;
    m->neg = 0;
    return 0;
  }
  if (reserve(q, un - vn + 1)) return -1;
  uint32_t *Q = limbs(q);
  if (vn == 1) {
    uint64_t rem = 0;
    for (int i = un - 1; i >= 0; i--) {
      uint64_t cur = (rem << 32) | U[i];
      Q[i] = (uint32_t)(cur / V[0]);
      rem = cur % V[0];
    }
    q->n = un;
    trim(q);
    return twill_vipr_big_set_i64(m, (int64_t)rem);
  }
  int s = __builtin_clz(V[vn - 1]);
  uint32_t *vs = malloc((size_t)vn * sizeof *vs);
  uint32_t *us = malloc((size_t)(un + 1) * sizeof *us);
  if (!vs || !us || reserve(m, vn)) { free(vs); free(us); return -1; }
  for (int i = vn - 1; i > 0; i--)
    vs[i] = s ? (V[i] << s) | (V[i - 1] >> (32 - s)) : V[i];
  vs[0] = V[0] << s;
  us[un] = s ? U[un - 1] >> (32 - s) : 0;
  for (int i = un - 1; i > 0; i--)
    us[i] = s ? (U[i] << s) | (U[i - 1] >> (32 - s)) : U[i];
  us[0] = U[0] << s;
  for (int j = un - vn; j >= 0; j--) {
    uint64_t top = ((uint64_t)us[j + vn] << 32) | us[j + vn - 1];
    uint64_t qhat = top / vs[vn - 1], rhat = top % vs[vn - 1];
    while (qhat >= B32 ||
           qhat * vs[vn - 2] > ((rhat << 32) | us[j + vn - 2])) {
      qhat--;
      rhat += vs[vn - 1];
      if (rhat >= B32) break;
    }
    /* us[j .. j+vn] -= qhat * vs */
    uint64_t carry = 0, borrow = 0;
    for (int i = 0; i < vn; i++) {
      uint64_t p = qhat * vs[i] + carry;
      carry = p >> 32;
      uint64_t d = (uint64_t)us[i + j] - (uint32_t)p - borrow;
      us[i + j] = (uint32_t)d;
      borrow = d >> 63;
    }
    uint64_t d = (uint64_t)us[j + vn] - carry - borrow;
    us[j + vn] = (uint32_t)d;
    if (d >> 63) { /* qhat was one too large: add the divisor back */
      qhat--;
      uint64_t c = 0;
      for (int i = 0; i < vn; i++) {
        c += (uint64_t)us[i + j] + vs[i];
        us[i + j] = (uint32_t)c;
        c >>= 32;
      }
      us[j + vn] += (uint32_t)c;
    }
    Q[j] = (uint32_t)qhat;
  }
  q->n = un - vn + 1;
  q->neg = 0;
  trim(q);
  uint32_t *M = limbs(m);
  for (int i = 0; i < vn; i++)
    M[i] = s ? (us[i] >> s) | (us[i + 1] << (32 - s)) : us[i];
  m->n = vn;
  m->neg = 0;
  trim(m);
  free(vs);
  free(us);
  return 0;
}

int twill_vipr_big_divmod(vipr_big *q, vipr_big *m, const vipr_big *a,
                    const vipr_big *b) {
  if (b->n == 0) return -1;
  vipr_big tq, tm;
  twill_vipr_big_init(&tq);
  twill_vipr_big_init(&tm);
  if (mag_divmod(&tq, &tm, a, b)) goto fail;
  /* a = sa|a|, b = sb|b|; truncation gives q0 = |a|/|b|, r0 = |a| mod |b|.
   * If the signs agree: q = q0, m = sa*r0.  Otherwise q = -q0 and
   * m = -sign... ; floor needs q = -q0 - 1, m = b - sb*r0 when r0 != 0. */
  int sa = a->neg, sb = b->neg;
  if (sa != sb) {
    tq.neg = tq.n ? 1 : 0;
    if (tm.n) {
      vipr_big one;
      twill_vipr_big_init(&one);
      twill_vipr_big_set_i64(&one, 1);
      if (twill_vipr_big_sub(&tq, &tq, &one)) goto fail;
      /* m = |b| - r0 carrying b's sign */
      vipr_big absb = *b;
      absb.neg = 0;
      if (b->cap == 0) absb.heap = NULL;
      if (twill_vipr_big_sub(&tm, &absb, &tm)) goto fail;
      tm.neg = tm.n ? sb : 0;
    }
  } else {
    tm.neg = tm.n ? sb : 0;
  }
  if (q) take(q, &tq);
  if (m) take(m, &tm);
  twill_vipr_big_free(&tq);
  twill_vipr_big_free(&tm);
  return 0;
fail:
  twill_vipr_big_free(&tq);
  twill_vipr_big_free(&tm);
  return -1;
}

/* Bits lo .. lo+61 of |a| (zero beyond its top). */
static int64_t bits62(const vipr_big *a, long lo) {
  const uint32_t *d = climbs(a);
  int i = (int)(lo / 32), sh = (int)(lo % 32);
  uint64_t w[3];
  for (int k = 0; k < 3; k++) w[k] = i + k < a->n ? d[i + k] : 0;
  uint64_t v = (w[0] | w[1] << 32) >> sh;
  if (sh) v |= w[2] << (64 - sh);
  return (int64_t)(v & (((uint64_t)1 << 62) - 1));
}

static long bit_length(const vipr_big *a) {
  if (!a->n) return 0;
  uint32_t top = climbs(a)[a->n - 1];
  long k = 0;
  while (top) { top >>= 1; k++; }
  return 32L * (a->n - 1) + k;
}

/* r = |A x + B y|, |A|, |B| < 2^30 (each limb product under 2^62, so a
 * sum of two and a carry fits int64_t); x at least as long as y. */
static int lincomb(vipr_big *r, int64_t A, const vipr_big *x, int64_t B, const vipr_big *y) {
  vipr_big t;
  twill_vipr_big_init(&t);
  if (reserve(&t, x->n + 1)) return -1;
  const uint32_t *xd = climbs(x), *yd = climbs(y);
  uint32_t *td = limbs(&t);
  for (int pass = 0; pass < 2; pass++, A = -A, B = -B) {
    int64_t carry = 0;
    for (int i = 0; i < x->n; i++) {
      int64_t v = A * (int64_t)xd[i] + (i < y->n ? B * (int64_t)yd[i] : 0) + carry;
      uint32_t lo = (uint32_t)((uint64_t)v & 0xffffffffu);
      td[i] = lo;
      carry = (v - (int64_t)lo) / (int64_t)B32; /* exact: floor(v / 2^32) */
    }
    if (carry < 0) continue; /* the negative of the value: once more, negated */
    t.n = x->n;
    if (carry) td[t.n++] = (uint32_t)carry;
    t.neg = 0;
    trim(&t);
    take(r, &t);
    return 0;
  }
  twill_vipr_big_free(&t);
  return -1;
}

/* Lehmer's gcd (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L): Euclid runs on
 * the leading 62 bits of x and y (the same bit positions) in machine
 * integers while both ends of each quotient's range agree, collecting the
 * cofactors [A B; C D] (kept under 2^30); then one pass over the limbs
 * makes (x, y) = (A x + B y, C x + D y).  That replaces about a dozen
 * long divisions; a quotient too large for the window takes one long
 * division instead.  The cofactor matrix has determinant +-1, so the gcd
 * is kept whatever the window holds. */
int twill_vipr_big_gcd(vipr_big *r, const vipr_big *a, const vipr_big *b) {
  vipr_big x, y, t, u;
  twill_vipr_big_init(&x);
  twill_vipr_big_init(&y);
  twill_vipr_big_init(&t);
  twill_vipr_big_init(&u);
  int rc = -1;
  if (twill_vipr_big_copy(&x, a) || twill_vipr_big_copy(&y, b)) goto done;
  x.neg = y.neg = 0;
  if (mag_cmp(&x, &y) < 0) { t = x; x = y; y = t; twill_vipr_big_init(&t); }
  while (y.n) {
    if (x.n <= 2) { /* both fit 64 bits */
      const uint32_t *xd = climbs(&x), *yd = climbs(&y);
      uint64_t p = xd[0] | (x.n > 1 ? (uint64_t)xd[1] << 32 : 0);
      uint64_t q = yd[0] | (y.n > 1 ? (uint64_t)yd[1] << 32 : 0);
      while (q) { uint64_t m = p % q; p = q; q = m; }
      uint32_t *xl = limbs(&x);
      xl[0] = (uint32_t)p;
      xl[1] = (uint32_t)(p >> 32);
      x.n = 2;
      trim(&x);
      break;
    }
    long lo = bit_length(&x) - 62;
    int64_t xh = bits62(&x, lo), yh = bits62(&y, lo);
    int64_t A = 1, B = 0, C = 0, D = 1, lim = (int64_t)1 << 30;
    int steps = 0;
    while (yh + C != 0 && yh + D != 0) {
      int64_t q1 = (xh + A) / (yh + C), q2 = (xh + B) / (yh + D);
      if (q1 != q2 || q1 >= lim) break;
      int64_t nC = A - q1 * C, nD = B - q1 * D;
      if (nC >= lim || nC <= -lim || nD >= lim || nD <= -lim) break;
      A = C; C = nC;
      B = D; D = nD;
      int64_t m = xh - q1 * yh;
      xh = yh; yh = m;
      steps++;
    }
    if (!steps) { /* Euclid: gcd(x, y) = gcd(y, x mod y) */
      if (twill_vipr_big_divmod(NULL, &t, &x, &y)) goto done;
      take(&x, &y);
      take(&y, &t);
      continue;
    }
    if (lincomb(&t, A, &x, B, &y) || lincomb(&u, C, &x, D, &y)) goto done;
    take(&x, &t);
    take(&y, &u);
    if (mag_cmp(&x, &y) < 0) { t = x; x = y; y = t; twill_vipr_big_init(&t); }
  }
  take(r, &x);
  rc = 0;
done:
  twill_vipr_big_free(&x);
  twill_vipr_big_free(&y);
  twill_vipr_big_free(&t);
  twill_vipr_big_free(&u);
  return rc;
}

/* |a| = |a| * mul + add. */
static int mul_add_small(vipr_big *a, uint32_t mul, uint32_t add) {
  if (reserve(a, a->n + 1)) return -1;
  uint32_t *d = limbs(a);
  uint64_t c = add;
  for (int i = 0; i < a->n; i++) {
    c += (uint64_t)d[i] * mul;
    d[i] = (uint32_t)c;
    c >>= 32;
  }
  d[a->n++] = (uint32_t)c;
  trim(a);
  return 0;
}

/* Digits only (no sign), appended to a: a = a*10^len + digits. */
static int add_digits(vipr_big *a, const char *s, size_t len) {
  static const uint32_t pow10[10] = {1,      10,      100,      1000,
                                     10000,  100000,  1000000,  10000000,
                                     100000000, 1000000000};
  size_t i = 0;
  while (i < len) {
    size_t k = len - i < 9 ? len - i : 9;
    uint32_t chunk = 0;
    for (size_t j = 0; j < k; j++) {
      if (s[i + j] < '0' || s[i + j] > '9') return -1;
      chunk = chunk * 10 + (uint32_t)(s[i + j] - '0');
    }
    if (mul_add_small(a, pow10[k], chunk)) return -1;
    i += k;
  }
  return 0;
}

int twill_vipr_big_parse(vipr_big *r, const char *s, size_t len) {
  int neg = 0;
  if (len && (s[0] == '-' || s[0] == '+')) { neg = s[0] == '-'; s++; len--; }
  if (len == 0 || len > VIPR_NUM_MAX_CHARS) return -1;
  vipr_big t;
  twill_vipr_big_init(&t);
  if (add_digits(&t, s, len)) { twill_vipr_big_free(&t); return -1; }
  t.neg = t.n ? neg : 0;
  take(r, &t);
  return 0;
}

char *twill_vipr_big_str(const vipr_big *a) {
  /* Peel off base-10^9 chunks by short division, least significant first. */
  int n = a->n;
  uint32_t *d = malloc((size_t)(n ? n : 1) * sizeof *d);
  size_t cap = (size_t)n * 10 + 3;
  char *out = malloc(cap), *p = out + cap - 1;
  if (!d || !out) { free(d); free(out); return NULL; }
  if (n) memcpy(d, climbs(a), (size_t)n * sizeof *d);
  *p = 0;
  do {
    uint64_t rem = 0;
    for (int i = n - 1; i >= 0; i--) {
      uint64_t cur = (rem << 32) | d[i];
      d[i] = (uint32_t)(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    while (n > 0 && d[n - 1] == 0) n--;
    for (int k = 0; k < 9 && (n > 0 || rem); k++) {
      *--p = (char)('0' + rem % 10);
      rem /= 10;
    }
  } while (n > 0);
  if (*p == 0) *--p = '0';
  if (a->neg) *--p = '-';
  memmove(out, p, strlen(p) + 1);
  free(d);
  return out;
}

/* ---- rationals ---- */

static int is_one(const vipr_big *a) {
  return a->n == 1 && !a->neg && climbs(a)[0] == 1;
}

void twill_vipr_q_init(vipr_q *a) {
  twill_vipr_big_init(&a->num);
  twill_vipr_big_init(&a->den);
  twill_vipr_big_set_i64(&a->den, 1);
}

void twill_vipr_q_free(vipr_q *a) {
  twill_vipr_big_free(&a->num);
  twill_vipr_big_free(&a->den);
}

int twill_vipr_q_set_i64(vipr_q *r, int64_t v) {
  twill_vipr_big_set_i64(&r->num, v);
  return twill_vipr_big_set_i64(&r->den, 1);
}

int twill_vipr_q_copy(vipr_q *r, const vipr_q *a) {
  return twill_vipr_big_copy(&r->num, &a->num) || twill_vipr_big_copy(&r->den, &a->den);
}

int twill_vipr_q_sgn(const vipr_q *a) { return twill_vipr_big_sgn(&a->num); }

int twill_vipr_q_is_int(const vipr_q *a) { return is_one(&a->den); }

/* Exact quotient a / b into r (b divides a). */
static int divexact(vipr_big *r, const vipr_big *a, const vipr_big *b) {
  if (is_one(b)) return twill_vipr_big_copy(r, a);
  return twill_vipr_big_divmod(r, NULL, a, b);
}

int twill_vipr_q_cmp(const vipr_q *a, const vipr_q *b) {
  if (is_one(&a->den) && is_one(&b->den)) return twill_vipr_big_cmp(&a->num, &b->num);
  int sa = twill_vipr_q_sgn(a), sb = twill_vipr_q_sgn(b);
  if (sa != sb) return sa < sb ? -1 : 1;
  /* a/b ? c/d  <=>  a*d ? c*b  (b, d > 0).  On allocation failure the
   * comparison is answered as "different" (callers only trust 0). */
  vipr_big x, y;
  twill_vipr_big_init(&x);
  twill_vipr_big_init(&y);
  int c = 2;
  if (!twill_vipr_big_mul(&x, &a->num, &b->den) && !twill_vipr_big_mul(&y, &b->num, &a->den))
    c = twill_vipr_big_cmp(&x, &y);
  twill_vipr_big_free(&x);
  twill_vipr_big_free(&y);
  return c;
}

int twill_vipr_q_add(vipr_q *r, const vipr_q *a, const vipr_q *b) {
  if (is_one(&a->den) && is_one(&b->den)) {
    if (twill_vipr_big_add(&r->num, &a->num, &b->num)) return -1;
    return twill_vipr_big_set_i64(&r->den, 1);
  }
  /* a/b + c/d with g = gcd(b, d): t = a*(d/g) + c*(b/g); any common factor
   * of t and b*d/g divides g, so g2 = gcd(t, g) finishes the reduction:
   * result = (t/g2) / ((b/g) * (d/g2)). */
  vipr_big g, g2, bg, dg, t, u;
  twill_vipr_big_init(&g); twill_vipr_big_init(&g2); twill_vipr_big_init(&bg);
  twill_vipr_big_init(&dg); twill_vipr_big_init(&t); twill_vipr_big_init(&u);
  int rc = -1;
  if (twill_vipr_big_gcd(&g, &a->den, &b->den) || divexact(&bg, &a->den, &g) ||
      divexact(&dg, &b->den, &g) || twill_vipr_big_mul(&t, &a->num, &dg) ||
      twill_vipr_big_mul(&u, &b->num, &bg) || twill_vipr_big_add(&t, &t, &u))
    goto done;
  if (t.n == 0) {
    rc = twill_vipr_q_set_i64(r, 0);
    goto done;
  }
  if (twill_vipr_big_gcd(&g2, &t, &g) || divexact(&t, &t, &g2) ||
      divexact(&dg, &b->den, &g2) || twill_vipr_big_mul(&u, &bg, &dg))
    goto done;
  take(&r->num, &t);
  take(&r->den, &u);
  rc = 0;
done:
  twill_vipr_big_free(&g); twill_vipr_big_free(&g2); twill_vipr_big_free(&bg);
  twill_vipr_big_free(&dg); twill_vipr_big_free(&t); twill_vipr_big_free(&u);
  return rc;
}

int twill_vipr_q_sub(vipr_q *r, const vipr_q *a, const vipr_q *b) {
  vipr_q nb = *b; /* a view of -b: shares b's limbs, never freed */
  nb.num.neg = b->num.n ? !b->num.neg : 0;
  if (b->num.cap == 0) nb.num.heap = NULL;
  if (b->den.cap == 0) nb.den.heap = NULL;
  /* If r aliases b, twill_vipr_q_add replaces r only after reading nb. */
  return twill_vipr_q_add(r, a, &nb);
}

int twill_vipr_q_mul(vipr_q *r, const vipr_q *a, const vipr_q *b) {
  if (a->num.n == 0 || b->num.n == 0) return twill_vipr_q_set_i64(r, 0);
  if (is_one(&a->den) && is_one(&b->den)) {
    if (twill_vipr_big_mul(&r->num, &a->num, &b->num)) return -1;
    return twill_vipr_big_set_i64(&r->den, 1);
  }
  /* (a/b)(c/d) with g1 = gcd(a, d), g2 = gcd(c, b):
   * ((a/g1)(c/g2)) / ((b/g2)(d/g1)) is already in lowest terms. */
  vipr_big g1, g2, x, y, n, d;
  twill_vipr_big_init(&g1); twill_vipr_big_init(&g2); twill_vipr_big_init(&x);
  twill_vipr_big_init(&y); twill_vipr_big_init(&n); twill_vipr_big_init(&d);
  int rc = -1;
  if (twill_vipr_big_gcd(&g1, &a->num, &b->den) || twill_vipr_big_gcd(&g2, &b->num, &a->den) ||
      divexact(&x, &a->num, &g1) || divexact(&y, &b->num, &g2) ||
      twill_vipr_big_mul(&n, &x, &y) || divexact(&x, &a->den, &g2) ||
      divexact(&y, &b->den, &g1) || twill_vipr_big_mul(&d, &x, &y))
    goto done;
  take(&r->num, &n);
  take(&r->den, &d);
  rc = 0;
done:
  twill_vipr_big_free(&g1); twill_vipr_big_free(&g2); twill_vipr_big_free(&x);
  twill_vipr_big_free(&y); twill_vipr_big_free(&n); twill_vipr_big_free(&d);
  return rc;
}

int twill_vipr_q_addmul(vipr_q *r, const vipr_q *a, const vipr_q *b) {
  vipr_q t;
  twill_vipr_q_init(&t);
  int rc = twill_vipr_q_mul(&t, a, b) || twill_vipr_q_add(r, r, &t) ? -1 : 0;
  twill_vipr_q_free(&t);
  return rc;
}

int twill_vipr_q_floor(vipr_q *r, const vipr_q *a) {
  if (is_one(&a->den)) return twill_vipr_q_copy(r, a);
  if (twill_vipr_big_divmod(&r->num, NULL, &a->num, &a->den)) return -1;
  return twill_vipr_big_set_i64(&r->den, 1);
}

int twill_vipr_q_ceil(vipr_q *r, const vipr_q *a) {
  /* ceil(x) = -floor(-x) */
  vipr_q t;
  twill_vipr_q_init(&t);
  int rc = -1;
  if (!twill_vipr_q_copy(&t, a)) {
    t.num.neg = t.num.n ? !t.num.neg : 0;
    if (!twill_vipr_q_floor(&t, &t)) {
      t.num.neg = t.num.n ? !t.num.neg : 0;
      rc = twill_vipr_q_copy(r, &t);
    }
  }
  twill_vipr_q_free(&t);
  return rc;
}

/* r = 10^e */
static int pow10_big(vipr_big *r, int e) {
  twill_vipr_big_set_i64(r, 1);
  for (; e >= 9; e -= 9)
    if (mul_add_small(r, 1000000000u, 0)) return -1;
  for (; e > 0; e--)
    if (mul_add_small(r, 10, 0)) return -1;
  return 0;
}

int twill_vipr_q_parse(vipr_q *r, const char *s, size_t len) {
  if (len == 0 || len > VIPR_NUM_MAX_CHARS) return -1;
  vipr_q t;
  twill_vipr_q_init(&t);
  vipr_big g;
  twill_vipr_big_init(&g);
  int rc = -1;
  const char *slash = memchr(s, '/', len);
  if (slash) {
    /* [+-]digits / digits, denominator nonzero */
    size_t nl = (size_t)(slash - s), dl = len - nl - 1;
    if (dl == 0 || slash[1] == '+' || slash[1] == '-' ||
        twill_vipr_big_parse(&t.num, s, nl) || twill_vipr_big_parse(&t.den, slash + 1, dl) ||
        t.den.n == 0)
      goto done;
  } else {
    /* [+-] digits [. digits] [e|E [+-] digits], at least one digit */
    size_t i = 0, mant = 0, frac = 0;
    int neg = 0;
    if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
    size_t start = i;
    while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    mant = i - start;
    if (add_digits(&t.num, s + start, mant)) goto done;
    if (i < len && s[i] == '.') {
      i++;
      size_t f0 = i;
      while (i < len && s[i] >= '0' && s[i] <= '9') i++;
      frac = i - f0;
      if (add_digits(&t.num, s + f0, frac)) goto done;
    }
    if (mant + frac == 0) goto done;
    long e = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
      i++;
      int eneg = 0;
      if (i < len && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
      size_t e0 = i;
      while (i < len && s[i] >= '0' && s[i] <= '9') {
        e = e * 10 + (s[i++] - '0');
        if (e > VIPR_NUM_MAX_EXP) goto done;
      }
      if (i == e0) goto done;
      if (eneg) e = -e;
    }
    if (i != len) goto done;
    /* value = digits * 10^(e - frac) */
    e -= (long)frac;
    if (e >= 0) {
      if (pow10_big(&g, (int)e) || twill_vipr_big_mul(&t.num, &t.num, &g)) goto done;
    } else if (pow10_big(&t.den, (int)-e)) {
      goto done;
    }
    t.num.neg = t.num.n ? neg : 0;
  }
  /* lowest terms */
  if (twill_vipr_big_gcd(&g, &t.num, &t.den)) goto done;
  if (t.num.n == 0) {
    twill_vipr_big_set_i64(&t.den, 1);
  } else if (!is_one(&g)) {
    if (divexact(&t.num, &t.num, &g) || divexact(&t.den, &t.den, &g)) goto done;
  }
  take(&r->num, &t.num);
  take(&r->den, &t.den);
  rc = 0;
done:
  twill_vipr_q_free(&t);
  twill_vipr_big_free(&g);
  return rc;
}

char *twill_vipr_q_str(const vipr_q *a) {
  char *n = twill_vipr_big_str(&a->num);
  if (!n || is_one(&a->den)) return n;
  char *d = twill_vipr_big_str(&a->den);
  char *out = d ? malloc(strlen(n) + strlen(d) + 2) : NULL;
  if (out) {
    strcpy(out, n);
    strcat(out, "/");
    strcat(out, d);
  }
  free(n);
  free(d);
  return out;
}
