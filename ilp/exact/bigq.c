/* ilp/exact/bigq.c: exact integers (bigz) and rationals (bigq); bigq.h is the
 * contract.
 *
 * Limbs are base 10^9 so that printing and parsing decimal text is a
 * matter of 9-digit chunks, and every limb product plus carries fits in
 * 64 bits.  The algorithms are the schoolbook ones (Knuth, TAOCP vol. 2,
 * 4.3.1 and 4.5.1): limb-by-limb addition and subtraction, O(n m)
 * multiplication, Algorithm D for long division, Euclid for gcd.
 *
 * Aliasing: addition and subtraction work in place (limb i of the inputs
 * is read before limb i of the output is written); everything else builds
 * its result in temporaries and moves it into the output at the end, which
 * also leaves the output untouched when an allocation fails.
 */
#include "bigq.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BASE 1000000000u
#define BASE_DIGITS 9
/* Keeps 9 * limbs (twill_bz_digits) and every size computation inside int. */
#define MAX_LIMBS (INT_MAX / 16)
/* Largest |exponent| twill_bq_parse accepts in "1.5e-3" style text. */
#define MAX_EXP 4000

static const uint32_t POW10[BASE_DIGITS + 1] = {
    1u,      10u,      100u,      1000u,      10000u,
    100000u, 1000000u, 10000000u, 100000000u, 1000000000u};

/* ------------------------------------------------------------ storage */

void twill_bz_init(bigz *a) {
  a->neg = 0;
  a->n = 0;
  a->cap = 0;
  a->d = NULL;
}

void twill_bz_free(bigz *a) {
  free(a->d);
  twill_bz_init(a);
}

/* Room for n limbs, keeping the value.  Doubling keeps the limb-at-a-time
 * growth of twill_bq_parse linear in copies. */
static int reserve(bigz *a, int n) {
  if (n <= a->cap) return 0;
  if (n > MAX_LIMBS) return -1;
  int cap = a->cap > n / 2 ? 2 * a->cap : n;
  if (cap > MAX_LIMBS) cap = MAX_LIMBS;
  uint32_t *d = realloc(a->d, (size_t)cap * sizeof *d);
  if (!d) return -1;
  a->d = d;
  a->cap = cap;
  return 0;
}

/* Drops leading zero limbs; zero is never negative. */
static void trim(bigz *a) {
  while (a->n > 0 && a->d[a->n - 1] == 0) a->n--;
  if (a->n == 0) a->neg = 0;
}

/* dst takes over src's value and limbs; src is left zero. */
static void take(bigz *dst, bigz *src) {
  if (dst == src) return;
  twill_bz_free(dst);
  *dst = *src;
  twill_bz_init(src);
}

static void set_zero(bigz *a) {
  a->n = 0;
  a->neg = 0;
}

int twill_bz_set_ll(bigz *a, long long v) {
  /* via unsigned so that LLONG_MIN has a magnitude */
  unsigned long long m = v < 0 ? 0ull - (unsigned long long)v
                               : (unsigned long long)v;
  if (m && reserve(a, 3) < 0) return -1; /* 2^64 < 10^27 */
  a->n = 0;
  for (; m; m /= BASE) a->d[a->n++] = (uint32_t)(m % BASE);
  a->neg = v < 0;
  return 0;
}

int twill_bz_copy(bigz *dst, const bigz *src) {
  if (dst == src) return 0;
  if (reserve(dst, src->n) < 0) return -1;
  if (src->n) memcpy(dst->d, src->d, (size_t)src->n * sizeof *dst->d);
  dst->n = src->n;
  dst->neg = src->neg;
  return 0;
}

/* ------------------------------------------------- comparison, +, - */

int twill_bz_sign(const bigz *a) { return a->n == 0 ? 0 : a->neg ? -1 : 1; }

/* Compares |a| and |b|. */
static int mag_cmp(const bigz *a, const bigz *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}

int twill_bz_cmp(const bigz *a, const bigz *b) {
  int sa = twill_bz_sign(a), sb = twill_bz_sign(b);
  if (sa != sb) return sa < sb ? -1 : 1;
  return sa < 0 ? -mag_cmp(a, b) : mag_cmp(a, b);
}

/* |out| = |x| + |y|.  out may be x or y: x and y are re-read through their
 * structs after reserve, which may move out's limbs. */
static int mag_add(bigz *out, const bigz *x, const bigz *y) {
  int xn = x->n, yn = y->n, n = xn > yn ? xn : yn;
  if (reserve(out, n + 1) < 0) return -1;
  uint32_t carry = 0;
  for (int i = 0; i < n; i++) {
    uint32_t s = (i < xn ? x->d[i] : 0) + (i < yn ? y->d[i] : 0) + carry;
    carry = s >= BASE;
    out->d[i] = carry ? s - BASE : s;
  }
  out->d[n] = carry;
  out->n = n + 1;
  trim(out);
  return 0;
}

/* |out| = |x| - |y| for |x| >= |y|; aliasing as for mag_add. */
static int mag_sub(bigz *out, const bigz *x, const bigz *y) {
  int xn = x->n, yn = y->n;
  if (reserve(out, xn) < 0) return -1;
  uint32_t borrow = 0;
  for (int i = 0; i < xn; i++) {
    uint32_t sub = (i < yn ? y->d[i] : 0) + borrow, xi = x->d[i];
    borrow = xi < sub;
    out->d[i] = borrow ? xi + BASE - sub : xi - sub;
  }
  out->n = xn;
  trim(out);
  return 0;
}

/* out = a + b where b counts with sign bneg: equal signs add magnitudes,
 * otherwise the smaller magnitude comes off the larger, whose sign wins. */
static int add_signed(bigz *out, const bigz *a, const bigz *b, int bneg) {
  int neg, rc;
  if (a->neg == bneg) {
    neg = bneg;
    rc = mag_add(out, a, b);
  } else if (mag_cmp(a, b) >= 0) {
    neg = a->neg;
    rc = mag_sub(out, a, b);
  } else {
    neg = bneg;
    rc = mag_sub(out, b, a);
  }
  if (rc < 0) return -1;
  out->neg = out->n ? neg : 0;
  return 0;
}

int twill_bz_add(bigz *out, const bigz *a, const bigz *b) {
  return add_signed(out, a, b, b->neg);
}

int twill_bz_sub(bigz *out, const bigz *a, const bigz *b) {
  return add_signed(out, a, b, b->n ? !b->neg : 0);
}

/* ------------------------------------------------------ multiplication */

int twill_bz_mul(bigz *out, const bigz *a, const bigz *b) {
  if (a->n == 0 || b->n == 0) {
    set_zero(out);
    return 0;
  }
  if (a->n > MAX_LIMBS - b->n) return -1;
  bigz t;
  twill_bz_init(&t);
  int n = a->n + b->n;
  if (reserve(&t, n) < 0) return -1;
  memset(t.d, 0, (size_t)n * sizeof *t.d);
  for (int i = 0; i < a->n; i++) {
    /* t[i+j] + a_i b_j + carry < 10^18 + 2 * 10^9: fits in 64 bits, and
     * the carry stays below 10^9 */
    uint64_t ai = a->d[i], carry = 0;
    for (int j = 0; j < b->n; j++) {
      uint64_t s = t.d[i + j] + ai * b->d[j] + carry;
      t.d[i + j] = (uint32_t)(s % BASE);
      carry = s / BASE;
    }
    t.d[i + b->n] = (uint32_t)carry; /* no earlier row reached this limb */
  }
  t.n = n;
  t.neg = a->neg != b->neg;
  trim(&t);
  take(out, &t);
  return 0;
}

/* ------------------------------------------------------------ division */

/* q[0..n) = x[0..n) / m for 0 < m <= BASE, returning the remainder; q may
 * be x (limb i is read before it is written, top down). */
static uint32_t limbs_div_small(uint32_t *q, const uint32_t *x, int n,
                                uint32_t m) {
  uint64_t rem = 0;
  for (int i = n - 1; i >= 0; i--) {
    uint64_t cur = rem * BASE + x[i];
    q[i] = (uint32_t)(cur / m);
    rem = cur % m;
  }
  return (uint32_t)rem;
}

/* dst[0..n) = src[0..n) * f, returning the carry out of the top limb. */
static uint32_t limbs_scale(uint32_t *dst, const uint32_t *src, int n,
                            uint32_t f) {
  uint64_t carry = 0;
  for (int i = 0; i < n; i++) {
    uint64_t p = (uint64_t)src[i] * f + carry;
    dst[i] = (uint32_t)(p % BASE);
    carry = p / BASE;
  }
  return (uint32_t)carry;
}

/* u[0..n] -= q v[0..n); returns 1 when that went below zero (u then holds
 * the difference plus BASE^(n+1)).  Limb n subtracts the product's last
 * carry, which is below BASE since q < BASE. */
static int limbs_mul_sub(uint32_t *u, const uint32_t *v, int n, uint32_t q) {
  uint64_t carry = 0;
  int64_t borrow = 0;
  for (int i = 0; i <= n; i++) {
    uint64_t p = (i < n ? (uint64_t)q * v[i] : 0) + carry;
    carry = p / BASE;
    int64_t t = (int64_t)u[i] - (int64_t)(p % BASE) - borrow;
    borrow = t < 0;
    u[i] = (uint32_t)(t < 0 ? t + BASE : t);
  }
  return (int)borrow;
}

/* u[0..n] += v[0..n), modulo BASE^(n+1): the carry out of u[n] cancels
 * the borrow limbs_mul_sub reported. */
static void limbs_add_back(uint32_t *u, const uint32_t *v, int n) {
  uint32_t carry = 0;
  for (int i = 0; i < n; i++) {
    uint32_t s = u[i] + v[i] + carry;
    carry = s >= BASE;
    u[i] = carry ? s - BASE : s;
  }
  u[n] = (u[n] + carry) % BASE;
}

/* One quotient limb of Algorithm D: u[0..n] < BASE v, v normalized (top
 * limb >= BASE / 2).  Estimated from the top two limbs of u and the top
 * limb of v, the limb is at most two too large (Knuth 4.3.1, Theorem B);
 * the test against v's second limb (step D3) leaves it at most one too
 * large, and the add-back corrects that rare case. */
static uint32_t div_step(uint32_t *u, const uint32_t *v, int n) {
  uint64_t top = (uint64_t)u[n] * BASE + u[n - 1];
  uint64_t qhat = top / v[n - 1], rhat = top % v[n - 1];
  while (qhat >= BASE || qhat * v[n - 2] > rhat * BASE + u[n - 2]) {
    qhat--;
    rhat += v[n - 1];
    if (rhat >= BASE) break;
  }
  if (limbs_mul_sub(u, v, n, (uint32_t)qhat)) {
    qhat--;
    limbs_add_back(u, v, n);
  }
  return (uint32_t)qhat;
}

/* |q| = |a| / |b|, |r| = |a| mod |b| for a one-limb b. */
static int divmod_short(bigz *q, bigz *r, const bigz *a, uint32_t m) {
  if (reserve(q, a->n) < 0) return -1;
  uint32_t rem = limbs_div_small(q->d, a->d, a->n, m);
  q->n = a->n;
  trim(q);
  return twill_bz_set_ll(r, rem);
}

/* |q| = |a| / |b|, |r| = |a| mod |b| for b of two limbs or more
 * (Algorithm D).  Both operands are first scaled by f so that b's top limb
 * is at least BASE / 2, which is what keeps the quotient estimates close;
 * the remainder is scaled back at the end. */
static int divmod_long(bigz *q, bigz *r, const bigz *a, const bigz *b) {
  if (mag_cmp(a, b) < 0) return twill_bz_copy(r, a); /* q stays 0 */
  int n = b->n, m = a->n - n, rc = -1;
  uint32_t f = BASE / (b->d[n - 1] + 1);
  uint32_t *u = malloc((size_t)(a->n + 1) * sizeof *u);
  uint32_t *v = malloc((size_t)n * sizeof *v);
  if (!u || !v || reserve(q, m + 1) < 0 || reserve(r, n) < 0) goto done;
  u[a->n] = limbs_scale(u, a->d, a->n, f);
  limbs_scale(v, b->d, n, f); /* no carry: f <= BASE / (top + 1) */
  for (int j = m; j >= 0; j--) q->d[j] = div_step(u + j, v, n);
  q->n = m + 1;
  trim(q);
  limbs_div_small(r->d, u, n, f); /* exact: u[0..n) is f * remainder */
  r->n = n;
  trim(r);
  rc = 0;
done:
  free(u);
  free(v);
  return rc;
}

int twill_bz_divmod(bigz *q, bigz *r, const bigz *a, const bigz *b) {
  if (b->n == 0) return -1;
  /* signs first: q and r may be a or b */
  int qneg = a->neg != b->neg, rneg = a->neg;
  bigz qt, rt;
  twill_bz_init(&qt);
  twill_bz_init(&rt);
  int rc = b->n == 1 ? divmod_short(&qt, &rt, a, b->d[0])
                     : divmod_long(&qt, &rt, a, b);
  if (rc == 0) {
    qt.neg = qt.n ? qneg : 0;
    rt.neg = rt.n ? rneg : 0;
    if (r) take(r, &rt);
    if (q) take(q, &qt);
  }
  twill_bz_free(&qt);
  twill_bz_free(&rt);
  return rc;
}

/* The top two limbs of x at positions k, k-1 (zero where x is shorter):
 * below 10^18, so it fits an int64_t. */
static int64_t top2(const bigz *x, int k) {
  int64_t hi = k < x->n ? x->d[k] : 0, lo = k - 1 >= 0 && k - 1 < x->n ? x->d[k - 1] : 0;
  return hi * (int64_t)BASE + lo;
}

/* out = |A x + B y| for |A|, |B| < 10^9 (limb products and carries stay
 * inside int64_t; x->n >= y->n).  Lehmer's matrices make the value
 * nonnegative; a negative one is computed again with -A, -B. */
static int lincomb(bigz *out, int64_t A, const bigz *x, int64_t B, const bigz *y) {
  bigz t;
  twill_bz_init(&t);
  if (reserve(&t, x->n + 1) < 0) return -1;
  for (int pass = 0; pass < 2; pass++, A = -A, B = -B) {
    int64_t carry = 0;
    for (int i = 0; i < x->n; i++) {
      int64_t v = A * (int64_t)x->d[i] + (i < y->n ? B * (int64_t)y->d[i] : 0) + carry;
      int64_t q = v / (int64_t)BASE, r = v % (int64_t)BASE;
      if (r < 0) { r += BASE; q--; }
      t.d[i] = (uint32_t)r;
      carry = q;
    }
    if (carry < 0) continue;
    t.n = x->n;
    if (carry > 0) t.d[t.n++] = (uint32_t)carry; /* (|A x + B y| < 10^9 x) */
    trim(&t);
    take(out, &t);
    return 0;
  }
  twill_bz_free(&t); /* (not reached: one of the two signs is nonnegative) */
  return -1;
}

/* Lehmer's gcd (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L) on base 10^9
 * limbs: the leading two limbs of x and y (same positions) run Euclid in
 * machine integers while both ends of the quotient's range agree; the
 * cofactor matrix [A B; C D] (unimodular, entries kept under 10^9) then
 * updates the big numbers in one pass,  (x, y) <- (A x + B y, C x + D y),
 * which replaces a dozen or so long divisions of plain Euclid.  When no
 * step is certain (a large quotient), one long division is made. */
int twill_bz_gcd(bigz *out, const bigz *a, const bigz *b) {
  bigz x, y, r, u;
  twill_bz_init(&x);
  twill_bz_init(&y);
  twill_bz_init(&r);
  twill_bz_init(&u);
  int rc = -1;
  if (twill_bz_copy(&x, a) < 0 || twill_bz_copy(&y, b) < 0) goto done;
  x.neg = y.neg = 0;
  if (mag_cmp(&x, &y) < 0) { bigz t = x; x = y; y = t; }
  while (y.n) {
    if (x.n <= 2) { /* both fit 64 bits: finish in machine integers */
      uint64_t p = (uint64_t)top2(&x, 1), q = (uint64_t)top2(&y, 1);
      while (q) { uint64_t t = p % q; p = q; q = t; }
      if (twill_bz_set_ll(&r, (long long)p) < 0) goto done;
      take(&x, &r);
      break;
    }
    int64_t A = 1, B = 0, C = 0, D = 1, steps = 0;
    if (x.n - y.n <= 1) {
      int64_t xh = top2(&x, x.n - 1), yh = top2(&y, x.n - 1);
      while (yh + C != 0 && yh + D != 0) {
        int64_t q1 = (xh + A) / (yh + C), q2 = (xh + B) / (yh + D);
        if (q1 != q2 || q1 >= (int64_t)BASE) break; /* (q1 C stays in range) */
        int64_t nC = A - q1 * C, nD = B - q1 * D;
        if (nC >= (int64_t)BASE || nC <= -(int64_t)BASE || nD >= (int64_t)BASE ||
            nD <= -(int64_t)BASE)
          break;
        A = C; C = nC;
        B = D; D = nD;
        int64_t t = xh - q1 * yh;
        xh = yh; yh = t;
        steps++;
      }
    }
    if (!steps) {
      /* Euclid: (x, y) <- (y, x mod y); r's old limbs are recycled as x's */
      if (twill_bz_divmod(NULL, &r, &x, &y) < 0) goto done;
      bigz t = x;
      x = y;
      y = r;
      r = t;
      continue;
    }
    if (lincomb(&r, A, &x, B, &y) < 0 || lincomb(&u, C, &x, D, &y) < 0) goto done;
    take(&x, &r);
    take(&y, &u);
    if (mag_cmp(&x, &y) < 0) { bigz t = x; x = y; y = t; }
  }
  take(out, &x);
  rc = 0;
done:
  twill_bz_free(&x);
  twill_bz_free(&y);
  twill_bz_free(&r);
  twill_bz_free(&u);
  return rc;
}

/* ---------------------------------------------------------------- text */

static int limb_digits(uint32_t x) {
  int k = 1;
  while (k < BASE_DIGITS && x >= POW10[k]) k++;
  return k;
}

/* Writes x as exactly w digits (zero padded) at p. */
static void put_limb(char *p, uint32_t x, int w) {
  for (int i = w - 1; i >= 0; i--, x /= 10) p[i] = (char)('0' + x % 10);
}

char *twill_bz_str(const bigz *a) {
  /* sign, 9 digits per limb (at least "0"), NUL */
  char *s = malloc((size_t)a->n * BASE_DIGITS + 3);
  if (!s) return NULL;
  if (a->n == 0) {
    strcpy(s, "0");
    return s;
  }
  char *p = s;
  if (a->neg) *p++ = '-';
  int w = limb_digits(a->d[a->n - 1]);
  put_limb(p, a->d[a->n - 1], w);
  p += w;
  for (int i = a->n - 2; i >= 0; i--, p += BASE_DIGITS)
    put_limb(p, a->d[i], BASE_DIGITS);
  *p = '\0';
  return s;
}

int twill_bz_digits(const bigz *a) {
  if (a->n == 0) return 0;
  return (a->n - 1) * BASE_DIGITS + limb_digits(a->d[a->n - 1]);
}

/* ----------------------------------------------------------- rationals */

/* twill_bq_init leaves den empty; it reads as this 1.  Never written to. */
static uint32_t one_limb = 1;
static const bigz ONE = {0, 1, 0, &one_limb};

static const bigz *den_of(const bigq *a) {
  return a->den.n ? &a->den : &ONE;
}

void twill_bq_init(bigq *a) {
  twill_bz_init(&a->num);
  twill_bz_init(&a->den);
}

void twill_bq_free(bigq *a) {
  twill_bz_free(&a->num);
  twill_bz_free(&a->den);
}

/* Moves num/den (already in lowest terms, den > 0) into out; a zero num
 * gets den 1 whatever den was.  num and den are consumed either way. */
static int store(bigq *out, bigz *num, bigz *den) {
  int rc = 0;
  if (num->n == 0) rc = twill_bz_set_ll(den, 1);
  if (rc == 0) {
    take(&out->num, num);
    take(&out->den, den);
  }
  twill_bz_free(num);
  twill_bz_free(den);
  return rc;
}

/* out = num/den reduced to lowest terms with den > 0 (den != 0); consumes
 * num and den. */
static int store_reduced(bigq *out, bigz *num, bigz *den) {
  bigz g;
  twill_bz_init(&g);
  int rc = 0;
  if (num->n && (twill_bz_gcd(&g, num, den) < 0 || twill_bz_divmod(num, NULL, num, &g) < 0 ||
                 twill_bz_divmod(den, NULL, den, &g) < 0))
    rc = -1;
  twill_bz_free(&g);
  if (rc < 0) {
    twill_bz_free(num);
    twill_bz_free(den);
    return -1;
  }
  if (den->neg) { /* the sign lives in num */
    den->neg = 0;
    num->neg = num->n ? !num->neg : 0;
  }
  return store(out, num, den);
}

void twill_bq_free_vec(bigq *v, int n) {
  if (!v) return;
  for (int i = 0; i < n; i++) twill_bq_free(&v[i]);
  free(v);
}

int twill_bq_copy(bigq *dst, const bigq *src) {
  if (dst == src) return 0;
  bigz n, d;
  twill_bz_init(&n);
  twill_bz_init(&d);
  if (twill_bz_copy(&n, &src->num) < 0 || twill_bz_copy(&d, den_of(src)) < 0) {
    twill_bz_free(&n);
    twill_bz_free(&d);
    return -1;
  }
  return store(dst, &n, &d);
}

int twill_bq_set_ll(bigq *a, long long p, long long q) {
  if (q == 0) return -1;
  bigz n, d;
  twill_bz_init(&n);
  twill_bz_init(&d);
  if (twill_bz_set_ll(&n, p) < 0 || twill_bz_set_ll(&d, q) < 0) {
    twill_bz_free(&n);
    twill_bz_free(&d);
    return -1;
  }
  return store_reduced(a, &n, &d);
}

int twill_bq_sign(const bigq *a) { return twill_bz_sign(&a->num); }

/* ---------------------------------------------------- rational parsing */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* |a| = |a| * m + add, for m <= BASE and add < BASE. */
static int mul_small_add(bigz *a, uint32_t m, uint32_t add) {
  if (reserve(a, a->n + 1) < 0) return -1;
  uint64_t carry = add;
  for (int i = 0; i < a->n; i++) {
    uint64_t p = (uint64_t)a->d[i] * m + carry;
    a->d[i] = (uint32_t)(p % BASE);
    carry = p / BASE;
  }
  a->d[a->n++] = (uint32_t)carry;
  trim(a);
  return 0;
}

/* Appends the run of digits at *sp to |a| (a = a 10^k + digits) in chunks
 * of up to 9 digits, advancing *sp and adding the run's length to *count. */
static int read_digits(bigz *a, const char **sp, long long *count) {
  const char *s = *sp;
  while (is_digit(*s)) {
    uint32_t chunk = 0;
    int k = 0;
    for (; k < BASE_DIGITS && is_digit(s[k]); k++)
      chunk = chunk * 10 + (uint32_t)(s[k] - '0');
    if (mul_small_add(a, POW10[k], chunk) < 0) return -1;
    s += k;
    *count += k;
  }
  *sp = s;
  return 0;
}

/* The exponent after 'e': optional sign, at least one digit, |k| <= 4000
 * (more is bad syntax, so the value never needs more than a long). */
static int scan_exp(const char **sp, long *k) {
  const char *s = *sp;
  int neg = 0;
  long v = 0;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  if (!is_digit(*s)) return -2;
  for (; is_digit(*s); s++)
    if (v <= MAX_EXP) v = v * 10 + (*s - '0'); /* stops growing past 4000 */
  if (v > MAX_EXP) return -2;
  *k = neg ? -v : v;
  *sp = s;
  return 0;
}

/* [sign] digits [. digits] [e exponent] with at least one digit: m gets
 * the digits as an integer, *exp10 the power of ten that scales it, *plain
 * whether there was neither '.' nor exponent.  0, -1 or -2. */
static int scan_decimal(const char **sp, bigz *m, long long *exp10,
                        int *plain) {
  const char *s = *sp;
  int neg = 0;
  long long digits = 0, frac = 0;
  long k = 0;
  if (*s == '+' || *s == '-') neg = *s++ == '-';
  if (read_digits(m, &s, &digits) < 0) return -1;
  *plain = 1;
  if (*s == '.') {
    s++;
    *plain = 0;
    if (read_digits(m, &s, &frac) < 0) return -1;
  }
  if (digits + frac == 0) return -2;
  if (*s == 'e' || *s == 'E') {
    s++;
    *plain = 0;
    if (scan_exp(&s, &k) < 0) return -2;
  }
  m->neg = m->n ? neg : 0;
  *exp10 = k - frac;
  *sp = s;
  return 0;
}

/* p = 10^k for k >= 0: k / 9 zero limbs under one power of ten. */
static int pow10_big(bigz *p, long long k) {
  if (k / BASE_DIGITS >= MAX_LIMBS) return -1;
  int z = (int)(k / BASE_DIGITS);
  if (reserve(p, z + 1) < 0) return -1;
  memset(p->d, 0, (size_t)z * sizeof *p->d);
  p->d[z] = POW10[k % BASE_DIGITS];
  p->n = z + 1;
  p->neg = 0;
  return 0;
}

/* num/den = num 10^e: a positive e multiplies num, a negative one
 * becomes den. */
static int apply_exp(bigz *num, bigz *den, long long e) {
  if (e < 0) return pow10_big(den, -e);
  if (twill_bz_set_ll(den, 1) < 0) return -1;
  if (e == 0) return 0;
  bigz t;
  twill_bz_init(&t);
  int rc = pow10_big(&t, e) < 0 || twill_bz_mul(num, num, &t) < 0 ? -1 : 0;
  twill_bz_free(&t);
  return rc;
}

/* The q of "p/q": digits only (no sign, point or exponent), not zero. */
static int scan_den(const char **sp, bigz *den) {
  long long digits = 0;
  if (read_digits(den, sp, &digits) < 0) return -1;
  return digits == 0 || den->n == 0 ? -2 : 0;
}

int twill_bq_parse(bigq *a, const char *s) {
  bigz n, d;
  twill_bz_init(&n);
  twill_bz_init(&d);
  long long e = 0;
  int plain = 0;
  int rc = scan_decimal(&s, &n, &e, &plain);
  if (rc == 0 && *s == '/') {
    s++;
    rc = plain ? scan_den(&s, &d) : -2; /* "p/q" takes integers only */
  } else if (rc == 0) {
    rc = apply_exp(&n, &d, e);
  }
  if (rc == 0 && *s != '\0') rc = -2; /* the whole string must be used */
  if (rc == 0) return store_reduced(a, &n, &d);
  twill_bz_free(&n);
  twill_bz_free(&d);
  return rc;
}

/* ------------------------------------------------- rational arithmetic */

/* out = a +- b.  With g = gcd(ad, bd), x = ad/g, y = bd/g:
 *   a +- b = t / (g x y),  t = an y +- bn x,
 * and t shares no factor with x or y (Knuth 4.5.1), so only
 * g2 = gcd(t, g) can cancel: out = (t/g2) / (x (bd/g2)).  The gcds stay
 * the size of the denominators instead of their product. */
static int add_frac(bigq *out, const bigq *a, const bigq *b, int minus) {
  const bigz *ad = den_of(a), *bd = den_of(b);
  bigz g, x, y, t, u;
  twill_bz_init(&g);
  twill_bz_init(&x);
  twill_bz_init(&y);
  twill_bz_init(&t);
  twill_bz_init(&u);
  int rc = -1;
  if (twill_bz_gcd(&g, ad, bd) == 0 && twill_bz_divmod(&x, NULL, ad, &g) == 0 &&
      twill_bz_divmod(&y, NULL, bd, &g) == 0 && twill_bz_mul(&t, &a->num, &y) == 0 &&
      twill_bz_mul(&u, &b->num, &x) == 0 &&
      (minus ? twill_bz_sub(&t, &t, &u) : twill_bz_add(&t, &t, &u)) == 0 &&
      twill_bz_gcd(&g, &t, &g) == 0 && twill_bz_divmod(&t, NULL, &t, &g) == 0 &&
      twill_bz_divmod(&y, NULL, bd, &g) == 0 && twill_bz_mul(&u, &x, &y) == 0)
    rc = store(out, &t, &u);
  twill_bz_free(&g);
  twill_bz_free(&x);
  twill_bz_free(&y);
  twill_bz_free(&t);
  twill_bz_free(&u);
  return rc;
}

int twill_bq_add(bigq *out, const bigq *a, const bigq *b) {
  return add_frac(out, a, b, 0);
}

int twill_bq_sub(bigq *out, const bigq *a, const bigq *b) {
  return add_frac(out, a, b, 1);
}

/* out = (p/q)(r/s), both factors in lowest terms with q, s > 0, negated
 * when neg.  Cancelling g = gcd(p, s) and h = gcd(r, q) before
 * multiplying leaves the product in lowest terms (Knuth 4.5.1). */
static int mul_frac(bigq *out, const bigz *p, const bigz *q, const bigz *r,
                    const bigz *s, int neg) {
  bigz g, h, x, y;
  twill_bz_init(&g);
  twill_bz_init(&h);
  twill_bz_init(&x);
  twill_bz_init(&y);
  int rc = -1;
  if (twill_bz_gcd(&g, p, s) == 0 && twill_bz_gcd(&h, r, q) == 0 &&
      twill_bz_divmod(&x, NULL, p, &g) == 0 && twill_bz_divmod(&y, NULL, r, &h) == 0 &&
      twill_bz_mul(&x, &x, &y) == 0 && twill_bz_divmod(&y, NULL, q, &h) == 0 &&
      twill_bz_divmod(&g, NULL, s, &g) == 0 && twill_bz_mul(&y, &y, &g) == 0) {
    if (neg) x.neg = x.n ? !x.neg : 0;
    rc = store(out, &x, &y);
  }
  twill_bz_free(&g);
  twill_bz_free(&h);
  twill_bz_free(&x);
  twill_bz_free(&y);
  return rc;
}

int twill_bq_mul(bigq *out, const bigq *a, const bigq *b) {
  return mul_frac(out, &a->num, den_of(a), &b->num, den_of(b), 0);
}

int twill_bq_div(bigq *out, const bigq *a, const bigq *b) {
  if (b->num.n == 0) return -1;
  /* a / b = a * (bd / |bn|), negated for a negative b.  babs shares b's
   * limbs read-only; mul_frac is done reading before it writes out. */
  bigz babs = b->num;
  babs.neg = 0;
  return mul_frac(out, &a->num, den_of(a), den_of(b), &babs, b->num.neg);
}

int twill_bq_addmul(bigq *out, const bigq *a, const bigq *b, const bigq *c) {
  bigq t;
  twill_bq_init(&t);
  int rc = twill_bq_mul(&t, b, c) == 0 && twill_bq_add(out, a, &t) == 0 ? 0 : -1;
  twill_bq_free(&t);
  return rc;
}

/* Exact: equal values have equal (normalized) parts, and otherwise the
 * cross products an bd and bn ad decide.  twill_bq_cmp has no way to report
 * running out of memory for those products; it then falls back to the
 * doubles, which can only err between distinct values closer than double
 * precision. */
int twill_bq_cmp(const bigq *a, const bigq *b) {
  int sa = twill_bq_sign(a), sb = twill_bq_sign(b);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  const bigz *ad = den_of(a), *bd = den_of(b);
  if (twill_bz_cmp(ad, bd) == 0) return twill_bz_cmp(&a->num, &b->num);
  bigz x, y;
  twill_bz_init(&x);
  twill_bz_init(&y);
  int c;
  if (twill_bz_mul(&x, &a->num, bd) == 0 && twill_bz_mul(&y, &b->num, ad) == 0) {
    c = twill_bz_cmp(&x, &y);
  } else {
    double da = twill_bq_to_double(a), db = twill_bq_to_double(b);
    c = da < db ? -1 : da > db ? 1 : 0;
  }
  twill_bz_free(&x);
  twill_bz_free(&y);
  return c;
}

/* |a| ~ m BASE^e with m from the top three limbs (27 digits: more than a
 * double holds, so the rounding is the double's own). */
static double leading(const bigz *a, int *e) {
  int k = a->n < 3 ? a->n : 3;
  double m = 0;
  for (int i = a->n - 1; i >= a->n - k; i--) m = m * BASE + a->d[i];
  *e = a->n - k;
  return m;
}

double twill_bq_to_double(const bigq *a) {
  if (a->num.n == 0) return 0.0;
  int en, ed;
  double r = leading(&a->num, &en) / leading(den_of(a), &ed);
  /* r is within 10^+-27; past 40 limbs of scale the result is beyond
   * double's range (10^+-308, 10^-324 subnormal) either way */
  long e = (long)en - ed;
  if (e > 40) {
    r = HUGE_VAL;
  } else if (e < -40) {
    r = 0.0;
  } else {
    for (; e > 0; e--) r *= BASE;
    for (; e < 0; e++) r /= BASE;
  }
  return a->num.neg ? -r : r;
}
