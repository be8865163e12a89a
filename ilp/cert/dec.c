/* ilp/cert/dec.c: exact decimals (see dec.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model.h"
#include "dec.h"



static void mag_mul_small(int *ov, dec *a, uint32_t k) {
  uint64_t carry = 0;
  for (int i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->d[i] * k + carry;
    a->d[i] = (uint32_t)(t % 1000000000u);
    carry = t / 1000000000u;
  }
  while (carry) {
    if (a->n == DEC_LIMBS) { *ov = 1; return; }
    a->d[a->n++] = (uint32_t)(carry % 1000000000u);
    carry /= 1000000000u;
  }
}

/* divide magnitude by 10, returning the remainder */
static uint32_t mag_div10(dec *a) {
  uint64_t rem = 0;
  for (int i = a->n - 1; i >= 0; i--) {
    uint64_t cur = rem * 1000000000u + a->d[i];
    a->d[i] = (uint32_t)(cur / 10);
    rem = cur % 10;
  }
  while (a->n && !a->d[a->n - 1]) a->n--;
  return (uint32_t)rem;
}

void twill_dec_scale(int *ov, dec *a, int k) { /* mag *= 10^k */
  while (k >= 9) { mag_mul_small(ov, a, 1000000000u); k -= 9; }
  static const uint32_t p10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  if (k > 0) mag_mul_small(ov, a, p10[k]);
}

static void normalize(dec *a) {
  while (a->n && !a->d[a->n - 1]) a->n--;
  if (!a->n) { a->neg = 0; a->e = 0; return; }
  while (a->e > 0 && a->d[0] % 10 == 0) {
    mag_div10(a);
    a->e--;
  }
}

/* parse "[-]digits[.digits][e[+-]digits]" */
int twill_dec_parse(int *ov, dec *a, const char *s) {
  dzero(a);
  if (*s == '-') { a->neg = 1; s++; }
  else if (*s == '+') s++;
  int frac = 0, seen = 0, dot = 0;
  for (; *s; s++) {
    if (*s >= '0' && *s <= '9') {
      mag_mul_small(ov, a, 10);
      if (a->n == 0 && *s != '0') a->n = 1, a->d[0] = 0;
      if (*s != '0') {
        uint64_t carry = (uint64_t)(*s - '0');
        for (int i = 0; carry && i < DEC_LIMBS; i++) {
          if (i == a->n) { a->d[a->n++] = 0; }
          uint64_t t = a->d[i] + carry;
          a->d[i] = (uint32_t)(t % 1000000000u);
          carry = t / 1000000000u;
        }
      }
      if (dot) frac++;
      seen = 1;
    } else if (*s == '.' && !dot) {
      dot = 1;
    } else break;
  }
  if (!seen) return 0;
  int ex = 0;
  if (*s == 'e' || *s == 'E') {
    ex = atoi(s + 1);
  }
  a->e = frac - ex;
  if (a->e < 0) {
    twill_dec_scale(ov, a, -a->e);
    a->e = 0;
  }
  normalize(a);
  return !*ov;
}

void twill_dec_from(int *ov, dec *a, double x) {
  char buf[64];
  twill_ilp_shortest(buf, sizeof buf, x);
  if (!twill_dec_parse(ov, a, buf)) *ov = 1;
}

void twill_dec_round(int *ov, dec *a, double x, int sig) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*g", sig, x);
  if (!twill_dec_parse(ov, a, buf)) *ov = 1;
}

/* compare magnitudes with equal exponents */
static int mag_cmp(const dec *a, const dec *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}

void twill_dec_add(int *ov, dec *out, const dec *x, const dec *y) {
  dec a = *x, b = *y;
  if (!a.n) { *out = b; return; }
  if (!b.n) { *out = a; return; }
  if (a.e < b.e) { twill_dec_scale(ov, &a, b.e - a.e); a.e = b.e; }
  if (b.e < a.e) { twill_dec_scale(ov, &b, a.e - b.e); b.e = a.e; }
  dec r;
  dzero(&r);
  r.e = a.e;
  if (a.neg == b.neg) {
    uint64_t carry = 0;
    int n = a.n > b.n ? a.n : b.n;
    for (int i = 0; i < n || carry; i++) {
      if (i == DEC_LIMBS) { *ov = 1; break; }
      uint64_t t = carry + (i < a.n ? a.d[i] : 0) + (i < b.n ? b.d[i] : 0);
      r.d[i] = (uint32_t)(t % 1000000000u);
      carry = t / 1000000000u;
      r.n = i + 1;
    }
    r.neg = a.neg;
  } else {
    const dec *big = &a, *small = &b;
    if (mag_cmp(&a, &b) < 0) { big = &b; small = &a; }
    int64_t borrow = 0;
    for (int i = 0; i < big->n; i++) {
      int64_t t = (int64_t)big->d[i] - borrow - (i < small->n ? small->d[i] : 0);
      borrow = t < 0;
      if (t < 0) t += 1000000000;
      r.d[i] = (uint32_t)t;
    }
    r.n = big->n;
    r.neg = big->neg;
  }
  normalize(&r);
  *out = r;
}

void twill_dec_mul(int *ov, dec *out, const dec *a, const dec *b) {
  dec r;
  dzero(&r);
  if (!a->n || !b->n) { *out = r; return; }
  if (a->n + b->n > DEC_LIMBS) { *ov = 1; *out = r; return; }
  uint64_t t[2 * DEC_LIMBS] = {0};
  for (int i = 0; i < a->n; i++) {
    uint64_t carry = 0;
    for (int j = 0; j < b->n; j++) {
      uint64_t cur = t[i + j] + (uint64_t)a->d[i] * b->d[j] + carry;
      t[i + j] = cur % 1000000000u;
      carry = cur / 1000000000u;
    }
    int k = i + b->n;
    while (carry) {
      uint64_t cur = t[k] + carry;
      t[k++] = cur % 1000000000u;
      carry = cur / 1000000000u;
    }
  }
  r.n = a->n + b->n;
  for (int i = 0; i < r.n; i++) r.d[i] = (uint32_t)t[i];
  r.neg = a->neg != b->neg;
  r.e = a->e + b->e;
  normalize(&r);
  *out = r;
}

int twill_dec_cmp(int *ov, const dec *a, const dec *b) {
  dec nb = *b, d;
  nb.neg = !nb.neg;
  if (!nb.n) nb.neg = 0;
  twill_dec_add(ov, &d, a, &nb);
  return dsign(&d);
}


/* ceil */
void twill_dec_ceil(int *ov, dec *a) {
  int frac = 0;
  int neg = a->neg;
  while (a->e > 0) {
    if (mag_div10(a)) frac = 1;
    a->e--;
  }
  if (frac && !neg) {
    dec one;
    twill_dec_parse(ov, &one, "1");
    a->neg = 0;
    twill_dec_add(ov, a, a, &one);
  } else if (!a->n) {
    a->neg = 0;
  }
  normalize(a);
}

void twill_dec_print(FILE *f, const dec *a) {
  if (!a->n) { fputs("0", f); return; }
  char digits[DEC_LIMBS * 9 + 2];
  int len = sprintf(digits, "%u", a->d[a->n - 1]);
  for (int i = a->n - 2; i >= 0; i--) len += sprintf(digits + len, "%09u", a->d[i]);
  if (a->neg) fputc('-', f);
  if (a->e == 0) { fputs(digits, f); return; }
  if (len <= a->e) {
    fputs("0.", f);
    for (int i = 0; i < a->e - len; i++) fputc('0', f);
    fputs(digits, f);
  } else {
    fwrite(digits, 1, (size_t)(len - a->e), f);
    fputc('.', f);
    fputs(digits + len - a->e, f);
  }
}

/* print y/q (q a positive integer; "y" alone when q = 1) */
void twill_dec_print_frac(int *ov, FILE *f, const dec *y, const dec *q) {
  if (q->n == 1 && q->d[0] == 1 && q->e == 0) { twill_dec_print(f, y); return; }
  dec num = *y, den = *q;
  int ey = num.e;
  num.e = 0;
  twill_dec_scale(ov, &den, ey);
  twill_dec_print(f, &num);
  fputc('/', f);
  twill_dec_print(f, &den);
}

double twill_dec_to_double(const dec *a) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NAN;
  twill_dec_print(f, a);
  fclose(f);
  double v = buf ? strtod(buf, NULL) : NAN;
  free(buf);
  return v;
}

/* a = m 10^e10, m a double of about 15 digits */
static double dmantissa(const dec *a, int *e10) { /* a = m 10^e10 */
  double v = 0;
  int lo = a->n > 3 ? a->n - 3 : 0;
  for (int i = a->n - 1; i >= lo; i--) v = v * 1e9 + a->d[i];
  *e10 = 9 * lo - a->e;
  return a->neg ? -v : v;
}

double twill_dec_approx(const dec *a) {
  int e;
  double v = dmantissa(a, &e);
  return v * pow(10.0, e);
}

/* a / b in floating point, also when a and b exceed the double range
 * (the denominators of long repairs do). */
double twill_dec_ratio(const dec *a, const dec *b) {
  int ea, eb;
  double va = dmantissa(a, &ea), vb = dmantissa(b, &eb);
  return va / vb * pow(10.0, ea - eb);
}

/* mag(a) = |a| 10^e(a): an exact integer A with a = sign A 10^-e */
void twill_dec_mant(dec *A, int *e, const dec *a) {
  *A = *a;
  *e = A->e;
  A->e = 0;
  A->neg = 0;
}
