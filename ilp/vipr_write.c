/* ilp/vipr_write.c: VIPR 1.0 certificates (Cheung, Gleixner, Steffy) of
 * the last solve: LP optimality and LP infeasibility at every leaf of the
 * branch-and-bound tree, folded by `uns` along the branchings (`asm`).
 *
 * The problem is written as the certificate's own data: every coefficient
 * and bound is printed as the shortest decimal that reads back to the same
 * double, and all arithmetic below is exact on those decimals (a small
 * fixed-capacity decimal bignum: value = (-1)^neg * mag * 10^-e).
 *
 * Leaf closed by LP bound (minimize form  min s c'x, s = +1 or -1 for max):
 * with float duals y of the node LP, rounded to 12 significant digits (and
 * set to 0 where the row side they need does not exist), the reduced
 * vector r = s c - A'y is computed exactly; every r_j != 0 is cancelled by
 * the bound constraint x_j >= l_j (r_j > 0) or x_j <= u_j (r_j < 0) that holds
 * at the node (a CON bound or a branching `asm`).  The combination is then
 * exactly s c'x >= beta, beta = sum y_i side_i + sum r_j bound_j, which is
 * what `lin` states.  Farkas leaves: the same with s c replaced by 0 and the
 * multipliers' sign chosen so that beta > 0 (0 >= beta is absurd).
 * When the objective is integral (integer coefficients on integer variables
 * only), a leaf bound beta is strengthened to ceil(beta) by `rnd`.
 * Inner nodes: OBJ >= min(beta_0, beta_1) by `uns` of the two children.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigq.h"
#include "exact_basis.h"
#include "exact_point.h"
#include "model.h"
#include "qsys.h"

/* ---- exact decimals ---- */
#define DL 48 /* limbs of 10^9: 432 digits */
typedef struct {
  int neg, e, n;
  uint32_t d[DL];
} dec;

static int overflow;

static void dzero(dec *a) {
  a->neg = 0;
  a->e = 0;
  a->n = 0;
}

static int dsign(const dec *a) { return a->n == 0 ? 0 : a->neg ? -1 : 1; }

static void mag_mul_small(dec *a, uint32_t k) {
  uint64_t carry = 0;
  for (int i = 0; i < a->n; i++) {
    uint64_t t = (uint64_t)a->d[i] * k + carry;
    a->d[i] = (uint32_t)(t % 1000000000u);
    carry = t / 1000000000u;
  }
  while (carry) {
    if (a->n == DL) { overflow = 1; return; }
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

static void mag_scale(dec *a, int k) { /* mag *= 10^k */
  while (k >= 9) { mag_mul_small(a, 1000000000u); k -= 9; }
  static const uint32_t p10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  if (k > 0) mag_mul_small(a, p10[k]);
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
static int dparse(dec *a, const char *s) {
  dzero(a);
  if (*s == '-') { a->neg = 1; s++; }
  else if (*s == '+') s++;
  int frac = 0, seen = 0, dot = 0;
  for (; *s; s++) {
    if (*s >= '0' && *s <= '9') {
      mag_mul_small(a, 10);
      if (a->n == 0 && *s != '0') a->n = 1, a->d[0] = 0;
      if (*s != '0') {
        uint64_t carry = (uint64_t)(*s - '0');
        for (int i = 0; carry && i < DL; i++) {
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
    mag_scale(a, -a->e);
    a->e = 0;
  }
  normalize(a);
  return !overflow;
}

static void dfrom(dec *a, double x) {
  char buf[64];
  twill_ilp_shortest(buf, sizeof buf, x);
  if (!dparse(a, buf)) overflow = 1;
}

static void dround(dec *a, double x, int sig) {
  char buf[64];
  snprintf(buf, sizeof buf, "%.*g", sig, x);
  if (!dparse(a, buf)) overflow = 1;
}

/* compare magnitudes with equal exponents */
static int mag_cmp(const dec *a, const dec *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}

static void dadd(dec *out, const dec *x, const dec *y) {
  dec a = *x, b = *y;
  if (!a.n) { *out = b; return; }
  if (!b.n) { *out = a; return; }
  if (a.e < b.e) { mag_scale(&a, b.e - a.e); a.e = b.e; }
  if (b.e < a.e) { mag_scale(&b, a.e - b.e); b.e = a.e; }
  dec r;
  dzero(&r);
  r.e = a.e;
  if (a.neg == b.neg) {
    uint64_t carry = 0;
    int n = a.n > b.n ? a.n : b.n;
    for (int i = 0; i < n || carry; i++) {
      if (i == DL) { overflow = 1; break; }
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

static void dmul(dec *out, const dec *a, const dec *b) {
  dec r;
  dzero(&r);
  if (!a->n || !b->n) { *out = r; return; }
  if (a->n + b->n > DL) { overflow = 1; *out = r; return; }
  uint64_t t[2 * DL] = {0};
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

static int dcmp(const dec *a, const dec *b) {
  dec nb = *b, d;
  nb.neg = !nb.neg;
  if (!nb.n) nb.neg = 0;
  dadd(&d, a, &nb);
  return dsign(&d);
}

static void dneg(dec *a) {
  if (a->n) a->neg = !a->neg;
}

/* ceil */
static void dceil(dec *a) {
  int frac = 0;
  int neg = a->neg;
  while (a->e > 0) {
    if (mag_div10(a)) frac = 1;
    a->e--;
  }
  if (frac && !neg) {
    dec one;
    dparse(&one, "1");
    a->neg = 0;
    dadd(a, a, &one);
  } else if (!a->n) {
    a->neg = 0;
  }
  normalize(a);
}

static void dprint(FILE *f, const dec *a) {
  if (!a->n) { fputs("0", f); return; }
  char digits[DL * 9 + 2];
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

/* ---- writer ---- */
typedef struct {
  const twill_ilp *m;
  FILE *out; /* DER body */
  int nder, base;
  int *cbeg, *cidx;
  dec *aval, *cobj, *vl, *vu, *rl, *rh;
  int *lidx, *uidx; /* current bound constraint index per variable */
  int *rG, *rL;     /* row constraint indices for >= and <= sides */
  double *curl, *curu;
  dec *r;
  int *used;
  double s; /* +1 min, -1 max */
  int objint;
  int fail;
  int *rbeg, *rcol, *rpos; /* the rows: columns and CSC positions */
  int solidx; /* the line  c'x <= best (min; >= for max) from SOL, or -1 */
  dec best;   /* the cutoff's value: the SOL's objective (rounded to the weak side) */
  int bestok; /* best comes from the SOL section */
  dec *solx;  /* the SOL section's point (choose_sol), when solok */
  int solok;
  dec solobj; /* its objective value */
  dec solden; /* the common denominator of solx and solobj (1: decimals) */
  const double *cval; /* the matrix's doubles, by columns as aval */
  bigq *solq;  /* no solok: an LP's exact basic optimum (exact_sol), or NULL */
  bigq solqobj; /* its objective value */
} W;

/* print y/q (q a positive integer; "y" alone when q = 1) */
static void dprint_frac(FILE *f, const dec *y, const dec *q) {
  if (q->n == 1 && q->d[0] == 1 && q->e == 0) { dprint(f, y); return; }
  dec num = *y, den = *q;
  int ey = num.e;
  num.e = 0;
  mag_scale(&den, ey);
  dprint(f, &num);
  fputc('/', f);
  dprint(f, &den);
}

static double dto_double(const dec *a) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NAN;
  dprint(f, a);
  fclose(f);
  double v = buf ? strtod(buf, NULL) : NAN;
  free(buf);
  return v;
}

/* A close double value of a (about 15 digits; no printing, unlike
 * dto_double): for estimates that only steer a choice. */
static double dmantissa(const dec *a, int *e10) { /* a = m 10^e10 */
  double v = 0;
  int lo = a->n > 3 ? a->n - 3 : 0;
  for (int i = a->n - 1; i >= lo; i--) v = v * 1e9 + a->d[i];
  *e10 = 9 * lo - a->e;
  return a->neg ? -v : v;
}

static double dapprox(const dec *a) {
  int e;
  double v = dmantissa(a, &e);
  return v * pow(10.0, e);
}

/* a / b in floating point, also when a and b exceed the double range
 * (the denominators of long repairs do). */
static double dratio(const dec *a, const dec *b) {
  int ea, eb;
  double va = dmantissa(a, &ea), vb = dmantissa(b, &eb);
  return va / vb * pow(10.0, ea - eb);
}

/* The cost of repairing column j through the row of CSC position p: the
 * number of the row's other columns that the shift would push onto a side
 * with no bound (a new residual to repair), times 4, plus 2 for a cut row
 * (its multiplier moves the reduced costs of many columns) and 1 for a row
 * with no multiplier yet.  Estimated in floating point; only the choice
 * depends on it, the shift itself is exact.  -1: the row's multiplier
 * cannot take the sign the shift needs. */
static int repair_cost(const W *w, const dec *yr, int j, int p) {
  const twill_ilp *m = w->m;
  int i = w->cidx[p];
  if (!dsign(&w->aval[p])) return -1;
  /* the multiplier after the shift, y_i + r_j / a_ij, must have a side */
  double aij = dapprox(&w->aval[p]);
  double ny = dratio(&yr[i], &w->r[j]) + 1 / aij; /* divided by r_j */
  int ns = (ny > 0) == (dsign(&w->r[j]) > 0) ? 1 : -1;
  if ((ns > 0 ? w->rG[i] : w->rL[i]) < 0) return -1;
  int cost = (i >= m->m - m->ncut ? 2 : 0) + (dsign(&yr[i]) ? 0 : 1);
  for (int t = w->rbeg[i]; t < w->rbeg[i + 1]; t++) {
    int k = w->rcol[t];
    if (k == j || (w->lidx[k] >= 0 && w->uidx[k] >= 0)) continue;
    /* r_k - a_ik r_j / a_ij, divided by r_j (the numerators over a long
     * denominator can exceed the double range) */
    double nr = (dratio(&w->r[k], &w->r[j]) - dapprox(&w->aval[w->rpos[t]]) / aij) *
                dsign(&w->r[j]);
    if ((nr > 0 && w->lidx[k] < 0) || (nr < 0 && w->uidx[k] < 0)) cost += 4;
  }
  return cost;
}

/* Repair (exactly) a residual reduced cost r_j != 0 on a variable with no
 * bound on the side it needs: shift the multiplier of a row i of column j
 * by r_j / a_ij, which makes r_j exactly 0 and moves the reduced costs of
 * the row's other variables by tiny amounts (cancelled by their bounds, or
 * repaired in turn).  The row is the one whose shift pushes the fewest
 * other columns onto an unbounded side (repair_cost): taking the first
 * row could shift one row back and forth between two columns for ever
 * (pp08a's stock and backlog columns share their balance rows).
 * Division is avoided with a common denominator: the
 * multipliers and reduced costs are numerators over the integer *q; with
 * a_ij = +-A 10^-e (A an integer), everything is multiplied by A, and the
 * shift's numerator is +-r_j 10^e.  Returns 1 when every residual has a
 * bound to land on. */
static int repair(W *w, dec *yr, int *yc, dec *q) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, ret = 0;
  int *uses = calloc((size_t)mr + 1, sizeof(int));
  if (!uses) return 0;
  for (int pass = 0; pass < 2 * n + 8; pass++) {
    int bad = -1;
    for (int j = 0; j < n && bad < 0; j++) {
      int sg = dsign(&w->r[j]);
      if (sg && (sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) bad = j;
    }
    if (bad < 0) { ret = 1; break; }
    int j = bad, row = -1, rp = -1, best = -1;
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      /* a row used before costs more: two columns with opposite
       * coefficients in one row would take turns in it (pp08a's S0502
       * and S0503 in PP0503) */
      int cost = repair_cost(w, yr, j, p);
      if (cost >= 0) cost += 3 * uses[w->cidx[p]];
      if (cost >= 0 && (best < 0 || cost < best)) { best = cost; row = w->cidx[p]; rp = p; }
    }
    if (row < 0) {
      if (getenv("TWILL_ILP_DEBUG"))
        fprintf(stderr, "vipr: repair: no row can take x%d's remainder %.3g\n", j, dratio(&w->r[j], q));
      break;
    }
    uses[row]++;
    dec A = w->aval[rp];
    int e = A.e, as = dsign(&A);
    A.e = 0;
    A.neg = 0;
    dec rj = w->r[j];
    for (int i = 0; i < mr; i++) dmul(&yr[i], &yr[i], &A);
    for (int k = 0; k < n; k++) dmul(&w->r[k], &w->r[k], &A);
    dmul(q, q, &A);
    dec delta = rj; /* +-r_j 10^e */
    mag_scale(&delta, e);
    if (as < 0) dneg(&delta);
    dadd(&yr[row], &yr[row], &delta);
    for (int t = w->rbeg[row]; t < w->rbeg[row + 1]; t++) {
      dec u;
      dmul(&u, &w->aval[w->rpos[t]], &delta);
      dneg(&u);
      dadd(&w->r[w->rcol[t]], &w->r[w->rcol[t]], &u);
    }
    yc[row] = 0; /* set below from the sign */
    if (overflow) break;
  }
  free(uses);
  return ret;
}

#define PROJ_MAX 6
/* det of the nt x nt matrix M, its column rc (if >= 0) replaced by v, by
 * Laplace expansion along the last row over column subsets:
 *   g(S) = sum_{j in S} (-1)^{#(S above j)} M[|S|-1][j] g(S - j),  g({}) = 1,
 * det = g(all).  Exact, division free, and the digits grow only linearly
 * (a product of nt entries per term), unlike plain elimination, whose
 * cross-multiplied entries double their length at every pivot.  g is
 * scratch of 2^nt entries; nt <= PROJ_MAX keeps that at 64. */
static void det_subsets(dec (*M)[PROJ_MAX], int nt, int rc, const dec *v, dec *g, dec *det) {
  unsigned full = (1u << nt) - 1;
  dparse(&g[0], "1");
  for (unsigned S = 1; S <= full; S++) {
    int k = -1, above = 0;
    for (unsigned b = S; b; b &= b - 1) k++;
    dzero(&g[S]);
    for (int j = nt - 1; j >= 0; j--) {
      if (!(S >> j & 1)) continue;
      const dec *e = j == rc ? &v[k] : &M[k][j];
      if (dsign(e)) {
        dec t;
        dmul(&t, e, &g[S & ~(1u << j)]);
        if (above & 1) dneg(&t);
        dadd(&g[S], &g[S], &t);
      }
      above++;
    }
  }
  *det = g[full];
}

/* Exact projection for the variables with an infinite bound (free, or
 * one-sided), done before repair():  T = those whose residual r_j is on a
 * side with no bound, or tiny (it could land there); when some are bad, the
 * row multipliers on |T| rows R (chosen in floating point: rows whose
 * multiplier is clearly nonzero first, then two-sided rows, others last)
 * get a shift dy solving  M dy = r_T  exactly, M_kl = a_{R_l, T_k}, so that
 * every r_j, j in T, becomes exactly 0 while the other reduced costs move
 * by tiny amounts (their bounds absorb them).  The solve is division free,
 * by Cramer's rule: with D = det M and N_l = det M with column l := r_T,
 * the numerators over the new denominator q |D| are  y_R |D| + sgn(D) N_l
 * (N_l times 10^e when D = +-A 10^-e, so that the denominator stays an
 * integer).  (Gauss-Jordan without division, as first written here,
 * squared the entries' length at each pivot and overflowed the 432 digits
 * of a dec at four rows of 12-digit coefficients.)
 * Returns 1 when nothing was bad or the projection left nothing bad (state
 * committed), 0 when it did not apply (state untouched). */
static int project(W *w, dec *yr, dec *q, const double *yf, int farkas) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m;
  int T[PROJ_MAX], nt = 0, nbad = 0;
  int *cand = malloc((size_t)(n ? n : 1) * sizeof(int));
  double *col = malloc(((size_t)PROJ_MAX + 1) * ((size_t)mr + 1) * sizeof(double));
  if (!cand || !col) { free(cand); free(col); return 0; }
  int nc = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int j = 0; j < n; j++) {
      int lo = w->lidx[j] >= 0, hi = w->uidx[j] >= 0;
      if (lo && hi) continue;
      int sg = dsign(&w->r[j]);
      int bad = sg && (sg > 0 ? !lo : !hi);
      int tiny = fabs(dratio(&w->r[j], q)) <= 1e-7;
      if (pass == 0 && bad) { cand[nc++] = j; nbad++; }
      if (pass == 1 && !bad && tiny) cand[nc++] = j;
    }
  if (!nbad) { free(cand); free(col); return 1; }
  /* an independent subset of the candidates' columns (over the rows that
   * can carry a multiplier), bad ones first */
  int cpiv[PROJ_MAX];
  for (int c = 0; c < nc && nt < PROJ_MAX; c++) {
    double *v = col + (size_t)nt * (size_t)mr, vmax = 0;
    for (int i = 0; i < mr; i++) v[i] = 0;
    for (int p = w->cbeg[cand[c]]; p < w->cbeg[cand[c] + 1]; p++) {
      int i = w->cidx[p];
      if (w->rG[i] < 0 && w->rL[i] < 0) continue;
      v[i] = dto_double(&w->aval[p]);
      vmax = fmax(vmax, fabs(v[i]));
    }
    if (vmax == 0) continue;
    for (int t = 0; t < nt; t++) {
      const double *u = col + (size_t)t * (size_t)mr;
      double f = v[cpiv[t]] / u[cpiv[t]];
      if (f != 0)
        for (int i = 0; i < mr; i++) v[i] -= f * u[i];
    }
    int pk = -1;
    double best = 1e-9 * vmax;
    for (int i = 0; i < mr; i++)
      if (fabs(v[i]) > best) { best = fabs(v[i]); pk = i; }
    if (pk < 0) continue;
    cpiv[nt] = pk;
    T[nt++] = cand[c];
  }
  free(cand);
  free(col);
  if (!nt) return 0;
  /* rows: greedy rank selection in floating point */
  int R[PROJ_MAX], nr = 0;
  double basis[PROJ_MAX][PROJ_MAX]; /* reduced selected row vectors */
  int bpiv[PROJ_MAX];
  for (int cls = 0; cls < 3 && nr < nt; cls++)
    for (int i = 0; i < mr && nr < nt; i++) {
      int two = w->rG[i] >= 0 && w->rL[i] >= 0;
      int act = fabs(yf[i]) > 1e-9;
      int c = act ? 0 : two ? 1 : 2;
      if (c != cls || (w->rG[i] < 0 && w->rL[i] < 0)) continue;
      double v[PROJ_MAX];
      for (int k = 0; k < nt; k++) {
        v[k] = 0;
        for (int p = w->cbeg[T[k]]; p < w->cbeg[T[k] + 1]; p++)
          if (w->cidx[p] == i) v[k] = dto_double(&w->aval[p]);
      }
      double vmax = 0;
      for (int k = 0; k < nt; k++) vmax = fmax(vmax, fabs(v[k]));
      if (vmax == 0) continue;
      for (int t = 0; t < nr; t++) {
        double f = v[bpiv[t]] / basis[t][bpiv[t]];
        for (int k = 0; k < nt; k++) v[k] -= f * basis[t][k];
      }
      int pk = -1;
      double best = 1e-9 * vmax;
      for (int k = 0; k < nt; k++)
        if (fabs(v[k]) > best) { best = fabs(v[k]); pk = k; }
      if (pk < 0) continue;
      memcpy(basis[nr], v, sizeof v);
      bpiv[nr] = pk;
      R[nr++] = i;
    }
  if (nr < nt) return 0;
  /* exact M, then Cramer: D = det M, N_l = det M with column l := r_T */
  dec (*M)[PROJ_MAX] = calloc(PROJ_MAX, sizeof *M);
  dec *ny = calloc((size_t)mr + 1, sizeof(dec));
  dec *nrj = calloc((size_t)n + 1, sizeof(dec));
  dec *g = calloc((size_t)1 << PROJ_MAX, sizeof(dec));
  if (!M || !ny || !nrj || !g) { free(M); free(ny); free(nrj); free(g); return 0; }
  int saved_overflow = overflow, ok = 0;
  overflow = 0;
  dec rT[PROJ_MAX], N[PROJ_MAX], D;
  memset(rT, 0, sizeof rT); /* det_subsets reads [0, nt) only; -O1 cannot tell */
  for (int k = 0; k < nt; k++) {
    rT[k] = w->r[T[k]];
    for (int l = 0; l < nt; l++) {
      dzero(&M[k][l]);
      for (int p = w->cbeg[T[k]]; p < w->cbeg[T[k] + 1]; p++)
        if (w->cidx[p] == R[l]) M[k][l] = w->aval[p];
    }
  }
  det_subsets(M, nt, -1, rT, g, &D);
  for (int l = 0; l < nt; l++) det_subsets(M, nt, l, rT, g, &N[l]);
  if (!dsign(&D) || overflow) goto done;
  int dneg_ = dsign(&D) < 0;
  /* the new denominator must stay an integer: |D| 10^e(D) */
  int eD = D.e;
  dec aD = D;
  aD.e = 0;
  if (dneg_) dneg(&aD);
  for (int i = 0; i < mr; i++) dmul(&ny[i], &yr[i], &aD);
  for (int l = 0; l < nt; l++) {
    dec cr = N[l];
    if (dneg_) dneg(&cr);
    mag_scale(&cr, eD);
    dadd(&ny[R[l]], &ny[R[l]], &cr);
  }
  dec nq;
  dmul(&nq, q, &aD);
  /* r = q s c - A' y, recomputed */
  for (int j = 0; j < n; j++) {
    if (farkas) dzero(&nrj[j]);
    else {
      dmul(&nrj[j], &w->cobj[j], &nq);
      if (w->s < 0) dneg(&nrj[j]);
    }
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      dec t;
      dmul(&t, &ny[w->cidx[p]], &w->aval[p]);
      dneg(&t);
      dadd(&nrj[j], &nrj[j], &t);
    }
  }
  if (overflow) goto done;
  ok = 1;
  for (int j = 0; j < n && ok; j++) {
    int sg = dsign(&nrj[j]);
    if (sg && (sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) ok = 0;
  }
  for (int i = 0; i < mr && ok; i++) {
    int sg = dsign(&ny[i]);
    if (sg && (sg > 0 ? w->rG[i] : w->rL[i]) < 0) ok = 0;
  }
  if (ok) {
    memcpy(yr, ny, (size_t)mr * sizeof(dec));
    memcpy(w->r, nrj, (size_t)n * sizeof(dec));
    *q = nq;
  }
done:
  overflow = saved_overflow;
  free(M);
  free(ny);
  free(nrj);
  free(g);
  return ok;
}

/* The exact combination behind a node's LP multipliers y (times sg):
 * rounded multipliers yr over the integer denominator q (project and
 * repair), the remainders w->r = q s c - A'yr (Farkas: -A'yr), yc[i] the
 * row side each multiplier uses (-1: none), and *b the rows' part of the
 * bound, sum yr_i (side value).  Returns 1, 0 when no exact combination
 * was found, -1 when out of memory. */
static int dual_combination(W *w, const double *y, double sg, int farkas, dec *yr, int *yc,
                            dec *q, dec *b) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m;
  dzero(b);
  dparse(q, "1");
  for (int j = 0; j < n; j++) {
    if (farkas) dzero(&w->r[j]);
    else {
      w->r[j] = w->cobj[j];
      if (w->s < 0) dneg(&w->r[j]);
    }
  }
  for (int i = 0; i < mr; i++) {
    double v = sg * y[i];
    dzero(&yr[i]);
    yc[i] = -1;
    if (fabs(v) < 1e-13) continue;
    if (v > 0 && w->rG[i] < 0) continue;
    if (v < 0 && w->rL[i] < 0) continue;
    dround(&yr[i], v, 12);
    yc[i] = 0;
  }
  /* r = s c - A'y (column by column) */
  for (int j = 0; j < n; j++)
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      int i = w->cidx[p];
      if (yc[i] < 0) continue;
      dec t;
      dmul(&t, &yr[i], &w->aval[p]);
      dneg(&t);
      dadd(&w->r[j], &w->r[j], &t);
    }
  project(w, yr, q, y, farkas);
  int ok = repair(w, yr, yc, q);
  /* the side each multiplier uses, and its part of the bound */
  for (int i = 0; i < mr && ok; i++) {
    int sgn = dsign(&yr[i]);
    yc[i] = sgn > 0 ? w->rG[i] : sgn < 0 ? w->rL[i] : -1;
    if (sgn && yc[i] < 0) ok = 0;
    if (yc[i] < 0) continue;
    dec t;
    dmul(&t, &yr[i], sgn > 0 ? &w->rl[i] : &w->rh[i]);
    dadd(b, b, &t);
  }
  return ok;
}

/* TWILL_ILP_DEBUG: why a leaf found no exact combination (to stderr). */
static void leaf_why(const W *w, const dec *yr, int farkas) {
  const twill_ilp *m = w->m;
  fprintf(stderr, "vipr: no exact %s combination at a leaf:", farkas ? "Farkas" : "dual");
  if (overflow) fprintf(stderr, " a number exceeded %d digits;", 9 * DL);
  int shown = 0;
  for (int j = 0; j < m->n && shown < 8; j++) {
    int sgn = dsign(&w->r[j]);
    if (sgn && (sgn > 0 ? w->lidx[j] : w->uidx[j]) < 0) {
      fprintf(stderr, " x%d needs %s bound (remainder numerator %.3g);", j, sgn > 0 ? "a lower" : "an upper",
              dto_double(&w->r[j]));
      shown++;
    }
  }
  for (int i = 0; i < m->m && shown < 8; i++) {
    int sgn = dsign(&yr[i]);
    if (sgn && (sgn > 0 ? w->rG[i] : w->rL[i]) < 0) {
      fprintf(stderr, " row %d%s has no %s side for its multiplier;", i, i >= m->m - m->ncut ? " (a cut)" : "",
              sgn > 0 ? ">=" : "<=");
      shown++;
    }
  }
  if (!shown && !overflow)
    fprintf(stderr, farkas ? " its right-hand side is not positive;"
                           : " its bound could not be stated over the denominator;");
  fprintf(stderr, "\n");
}

/* An integral objective: the leaf's bound line idx (OBJ >= *beta, min
 * form) strengthened to OBJ >= ceil(*beta) by `rnd`.  Returns the index
 * of the line that states the leaf's bound. */
static int leaf_round(W *w, int idx, dec *beta) {
  if (!w->objint) return idx;
  dec cb = *beta;
  dceil(&cb);
  if (dcmp(&cb, beta) == 0) return idx;
  int k = w->base + w->nder++;
  dec shown = cb;
  if (w->s < 0) dneg(&shown);
  fprintf(w->out, "D%d %s ", k, w->s < 0 ? "L" : "G");
  dprint(w->out, &shown);
  fprintf(w->out, " OBJ { rnd 1  %d 1 } -1\n", idx);
  *beta = cb;
  return k;
}

/* Derive the leaf bound from multipliers y (LP at proof node). Returns the
 * derived index; *absurd set for Farkas; *beta the min-form bound. */
static int leaf(W *w, const double *y, int farkas, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m;
  for (int attempt = 0, last = farkas ? 1 : 0; attempt <= last; attempt++) {
    double sg = attempt ? -1.0 : 1.0;
    dec b, q;
    dec *yr = calloc((size_t)mr + 1, sizeof(dec));
    int *yc = calloc((size_t)mr + 1, sizeof(int));
    if (!yr || !yc) { free(yr); free(yc); w->fail = 1; return -1; }
    int ok = dual_combination(w, y, sg, farkas, yr, yc, &q, &b);
    for (int j = 0; j < n && ok; j++) {
      int sgn = dsign(&w->r[j]);
      if (!sgn) continue;
      int ci = sgn > 0 ? w->lidx[j] : w->uidx[j];
      if (ci < 0) { ok = 0; break; }
      dec bv, t;
      dfrom(&bv, sgn > 0 ? w->curl[j] : w->curu[j]);
      dmul(&t, &w->r[j], &bv);
      dadd(&b, &b, &t);
    }
    /* with a denominator q != 1, the bound is b/q: state a decimal d with
     * d q <= b (slightly weaker than b/q; d > 0 for Farkas) */
    int unit = q.n == 1 && q.d[0] == 1 && q.e == 0;
    if (ok && !unit) {
      double bf = dratio(&b, &q);
      int found = 0;
      for (int k = 0; k < 8 && !found && isfinite(bf); k++) {
        double slack = k ? (farkas ? fabs(bf) : fmax(1.0, fabs(bf))) * pow(10, 2 * k - 17) : 0;
        dec d, t;
        dround(&d, bf - slack, 17);
        if (farkas && dsign(&d) <= 0) break;
        dmul(&t, &d, &q);
        if (dcmp(&t, &b) <= 0) { b = d; found = 1; }
      }
      if (!found) ok = 0;
    }
    if (ok && farkas && dsign(&b) <= 0) ok = 0;
    if (!ok || overflow) {
      if (attempt == last && getenv("TWILL_ILP_DEBUG")) leaf_why(w, yr, farkas);
      free(yr);
      free(yc);
      continue;
    }
    /* write it: multipliers of rows, then bounds (negated for max) */
    int cnt = 0;
    for (int i = 0; i < mr; i++) if (yc[i] >= 0) cnt++;
    for (int j = 0; j < n; j++) if (dsign(&w->r[j])) cnt++;
    double flip = (!farkas && w->s < 0) ? -1 : 1;
    int idx = w->base + w->nder++;
    fprintf(w->out, "D%d %s ", idx, flip < 0 ? "L" : "G");
    dec shown = b;
    if (flip < 0) dneg(&shown);
    dprint(w->out, &shown);
    fprintf(w->out, farkas ? " 0 { lin %d" : " OBJ { lin %d", cnt);
    /* merge multipliers per constraint index (E rows: same index both
     * sides is impossible for one row; bounds are distinct) */
    for (int i = 0; i < mr; i++) {
      if (yc[i] < 0) continue;
      dec t = yr[i];
      if (flip < 0) dneg(&t);
      fprintf(w->out, "  %d ", yc[i]);
      dprint_frac(w->out, &t, &q);
    }
    for (int j = 0; j < n; j++) {
      int sgn = dsign(&w->r[j]);
      if (!sgn) continue;
      dec t = w->r[j];
      if (flip < 0) dneg(&t);
      fprintf(w->out, "  %d ", sgn > 0 ? w->lidx[j] : w->uidx[j]);
      dprint_frac(w->out, &t, &q);
    }
    fprintf(w->out, " } -1\n");
    free(yr);
    free(yc);
    *absurd = farkas;
    *beta = b;
    return farkas ? idx : leaf_round(w, idx, beta);
  }
  w->fail = 1;
  return -1;
}

/* ---- the root leaf from the exact duals of the root LP's basis ----
 *
 * When the rounded float duals cannot be repaired (ill-conditioned LPs:
 * perold, pilot4, share1b, whose free columns keep remainders the decimal
 * projection cannot cancel within 432 digits), the basis itself gives
 * exact duals: B'y = c_B in rational arithmetic (exact_basis.c).  Then
 * r = s c - A'y is exactly 0 on the basic columns, and on the others has
 * the sign of the bound the basis holds them at, unless the float basis
 * was optimal only within tolerance; the combination is checked like any
 * other (every nonzero r_j and y_i needs its side) and written with each
 * multiplier as its own fraction. */
#define EXACT_DIGITS 20000 /* digits of one number in an exact basis solve */

/* print a (negated when neg) as p or p/q */
static int bq_out(FILE *f, const bigq *a, int neg) {
  char *p = twill_bz_str(&a->num), *q = a->den.n ? twill_bz_str(&a->den) : NULL;
  int ok = p && (q || !a->den.n);
  if (ok) {
    if (neg && *p != '-' && twill_bq_sign(a)) fputc('-', f);
    fputs(neg && *p == '-' ? p + 1 : p, f);
    if (q && strcmp(q, "1")) fprintf(f, "/%s", q);
  }
  free(p);
  free(q);
  return ok ? 0 : -1;
}

/* a decimal d <= b (17 digits, b's double lowered a little until exact) */
static int decimal_below(dec *d, const bigq *b) {
  double bf = twill_bq_to_double(b);
  bigq t;
  twill_bq_init(&t);
  int found = 0;
  for (int k = 0; k < 8 && !found && isfinite(bf); k++) {
    char buf[64];
    double slack = k ? fmax(1.0, fabs(bf)) * pow(10, 2 * k - 17) : 0;
    snprintf(buf, sizeof buf, "%.17g", bf - slack);
    if (twill_bq_parse(&t, buf)) break;
    if (twill_bq_cmp(&t, b) <= 0) found = dparse(d, buf);
  }
  twill_bq_free(&t);
  return found;
}

/* r = s c - A'y, the bound b = sum y_i side_i + sum r_j bound_j, and the
 * sides: 1 when every nonzero y_i and r_j has a constraint to use */
static int exact_bound(W *w, const bigq *y, bigq *r, bigq *b) {
  const twill_ilp *m = w->m;
  bigq a, t;
  twill_bq_init(&a);
  twill_bq_init(&t);
  int ok = 1, err = 0;
  for (int j = 0; j < m->n && !err; j++) {
    err = twill_qs_from_double(&r[j], w->s * m->obj[j]);
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1] && !err; p++) {
      if (!twill_bq_sign(&y[w->cidx[p]])) continue;
      err = twill_qs_from_double(&a, -w->cval[p]) || twill_bq_addmul(&r[j], &r[j], &a, &y[w->cidx[p]]);
    }
  }
  for (int i = 0; i < m->m && ok && !err; i++) {
    int sg = twill_bq_sign(&y[i]);
    if (!sg) continue;
    if ((sg > 0 ? w->rG[i] : w->rL[i]) < 0) { ok = 0; break; }
    err = twill_qs_from_double(&t, sg > 0 ? m->rlo[i] : m->rhi[i]) || twill_bq_addmul(b, b, &t, &y[i]);
  }
  for (int j = 0; j < m->n && ok && !err; j++) {
    int sg = twill_bq_sign(&r[j]);
    if (!sg) continue;
    if ((sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) { ok = 0; break; }
    err = twill_qs_from_double(&t, sg > 0 ? w->curl[j] : w->curu[j]) || twill_bq_addmul(b, b, &t, &r[j]);
  }
  twill_bq_free(&a);
  twill_bq_free(&t);
  return err ? -1 : ok;
}

static int leaf_exact(W *w, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, ret = -1;
  bigq *y = calloc((size_t)mr + 1, sizeof(bigq)), *r = calloc((size_t)n + 1, sizeof(bigq)), b;
  twill_bq_init(&b);
  if (!y || !r) goto done;
  for (int i = 0; i < mr; i++) twill_bq_init(&y[i]);
  for (int j = 0; j < n; j++) twill_bq_init(&r[j]);
  int rc = twill_ilp_basis_duals(m, m->root_basis, (int)w->s, EXACT_DIGITS, y), step = 0;
  if (rc == 1) rc = exact_bound(w, y, r, &b), step = 1;
  if (rc == 1) rc = decimal_below(beta, &b), step = 2;
  if (rc != 1) {
    if (getenv("TWILL_ILP_DEBUG"))
      fprintf(stderr, "vipr: no exact duals from the root basis (%s: %d)\n",
              step == 0 ? "solve" : step == 1 ? "sides" : "bound", rc);
    goto done;
  }
  int cnt = 0;
  for (int i = 0; i < mr; i++) cnt += twill_bq_sign(&y[i]) != 0;
  for (int j = 0; j < n; j++) cnt += twill_bq_sign(&r[j]) != 0;
  int idx = w->base + w->nder++, flip = w->s < 0;
  fprintf(w->out, "D%d %s ", idx, flip ? "L" : "G");
  dec shown = *beta;
  if (flip) dneg(&shown);
  dprint(w->out, &shown);
  fprintf(w->out, " OBJ { lin %d", cnt);
  int err = 0;
  for (int i = 0; i < mr && !err; i++) {
    int sg = twill_bq_sign(&y[i]);
    if (!sg) continue;
    fprintf(w->out, "  %d ", sg > 0 ? w->rG[i] : w->rL[i]);
    err = bq_out(w->out, &y[i], flip);
  }
  for (int j = 0; j < n && !err; j++) {
    int sg = twill_bq_sign(&r[j]);
    if (!sg) continue;
    fprintf(w->out, "  %d ", sg > 0 ? w->lidx[j] : w->uidx[j]);
    err = bq_out(w->out, &r[j], flip);
  }
  fprintf(w->out, " } -1\n");
  if (err) goto done;
  *absurd = 0;
  ret = leaf_round(w, idx, beta);
done:
  twill_bq_free_vec(y, mr);
  twill_bq_free_vec(r, n);
  twill_bq_free(&b);
  return ret;
}

/* mag(a) = |a| 10^e(a): an exact integer A with a = sign A 10^-e */
static void dmant(dec *A, int *e, const dec *a) {
  *A = *a;
  *e = A->e;
  A->e = 0;
  A->neg = 0;
}

/* The multiplier -a_ik/a_ij of x_k's bound in derive_bound, as its
 * numerator -a_ik * ten over the shared denominator; returns 1 when it is
 * x_k's upper bound that enters (the multiplier's sign, for a <= (up) or
 * >= combination), 0 for the lower. */
static int bound_multiplier(dec *lam, const dec *aik, const dec *ten, int up) {
  dmul(lam, aik, ten);
  dneg(lam);
  return up ? dsign(lam) > 0 : dsign(lam) < 0;
}

/* Derived bound on x_j from row i (side 0: its <= side, 1: its >= side)
 * and the current bounds of the row's other variables:  the row times
 * 1/a_ij plus, for every other x_k, its bound times -a_ik/a_ij (the upper
 * bound where that multiplier must be >= 0 in a <= combination, ...) is
 * exactly  x_j <= R  (up) or  x_j >= R.  With rnd (x_j integer, val an
 * integer) the line is a `rnd` (floor or ceil of R), else a `lin`; either
 * way the line states val, checked here to be implied.  All multipliers
 * share the denominator A of 1/a_ij = +-10^e / A.  Returns the index of
 * the derived line, -1 when some bound is missing or val is not implied. */
static int derive_bound(W *w, int i, int side, int j, int up, double val, int rnd) {
  int ci = side ? w->rG[i] : w->rL[i];
  if (ci < 0) return -1;
  int pj = -1;
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++)
    if (w->rcol[q] == j) pj = w->rpos[q];
  if (pj < 0 || !dsign(&w->aval[pj])) return -1;
  /* the result is <= (up) when a_ij > 0 on the <= side, or a_ij < 0 on
   * the >= side */
  int asg = dsign(&w->aval[pj]);
  if (up != ((asg > 0) == (side == 0))) return -1;
  dec A, ten, N, t;
  int e;
  dmant(&A, &e, &w->aval[pj]);
  dparse(&ten, "1");
  mag_scale(&ten, e);
  if (asg < 0) dneg(&ten); /* numerator of 1/a_ij */
  dmul(&N, &ten, side ? &w->rl[i] : &w->rh[i]);
  int cnt = 1;
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (k == j || !dsign(&w->aval[p])) continue;
    dec lam;
    int useup = bound_multiplier(&lam, &w->aval[p], &ten, up);
    if ((useup ? w->uidx[k] : w->lidx[k]) < 0) return -1;
    dec bv;
    dfrom(&bv, useup ? w->curu[k] : w->curl[k]);
    dmul(&t, &lam, &bv);
    dadd(&N, &N, &t);
    cnt++;
  }
  /* R = N / A against val */
  dec v, vA;
  dfrom(&v, val);
  if (rnd) {
    dec one;
    dparse(&one, "1");
    if (!up) dneg(&one);
    dadd(&v, &v, &one); /* val + 1 (up) or val - 1 */
  }
  dmul(&vA, &v, &A);
  int c = dcmp(&N, &vA);
  if (rnd ? (up ? c >= 0 : c <= 0) : (up ? c > 0 : c < 0)) return -1;
  if (overflow) return -1;
  if (rnd && cnt == 1 && w->rG[i] == w->rL[i]) {
    /* an equality alone: the combination is an equality, which `rnd` does
     * not round; state x_j <= R (>= R) first */
    int d1 = w->base + w->nder++;
    fprintf(w->out, "D%d %s ", d1, up ? "L" : "G");
    dprint_frac(w->out, &N, &A);
    fprintf(w->out, " 1 %d 1 { lin 1  %d ", j, ci);
    dprint_frac(w->out, &ten, &A);
    fprintf(w->out, " } -1\n");
    int idx = w->base + w->nder++;
    dec shown;
    dfrom(&shown, val);
    fprintf(w->out, "D%d %s ", idx, up ? "L" : "G");
    dprint(w->out, &shown);
    fprintf(w->out, " 1 %d 1 { rnd 1  %d 1 } -1\n", j, d1);
    return idx;
  }
  int idx = w->base + w->nder++;
  dec shown;
  dfrom(&shown, val);
  fprintf(w->out, "D%d %s ", idx, up ? "L" : "G");
  dprint(w->out, &shown);
  fprintf(w->out, " 1 %d 1 { %s %d  %d ", j, rnd ? "rnd" : "lin", cnt, ci);
  dprint_frac(w->out, &ten, &A);
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (k == j || !dsign(&w->aval[p])) continue;
    dec lam;
    int useup = bound_multiplier(&lam, &w->aval[p], &ten, up);
    fprintf(w->out, "  %d ", useup ? w->uidx[k] : w->lidx[k]);
    dprint_frac(w->out, &lam, &A);
  }
  fprintf(w->out, " } -1\n");
  return idx;
}

/* Row i (side 0: <=, 1: >=) cannot be met within the current bounds:
 * the row times -1 (<=) or 1 (>=) plus every bound of its variables at
 * the side that extremizes the activity gives 0 >= beta with beta > 0.
 * Returns the derived index (*beta set), -1 when beta is not positive. */
static int derive_conflict(W *w, int i, int side, dec *beta) {
  int ci = side ? w->rG[i] : w->rL[i];
  if (ci < 0) return -1;
  dec b, t, gs;
  dparse(&gs, side ? "1" : "-1");
  dmul(&b, &gs, side ? &w->rl[i] : &w->rh[i]);
  int cnt = 1;
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (!dsign(&w->aval[p])) continue;
    dec lam;
    dmul(&lam, &w->aval[p], &gs);
    dneg(&lam);
    int uselo = dsign(&lam) > 0;
    if ((uselo ? w->lidx[k] : w->uidx[k]) < 0) return -1;
    dec bv;
    dfrom(&bv, uselo ? w->curl[k] : w->curu[k]);
    dmul(&t, &lam, &bv);
    dadd(&b, &b, &t);
    cnt++;
  }
  if (dsign(&b) <= 0 || overflow) return -1;
  int idx = w->base + w->nder++;
  fprintf(w->out, "D%d G ", idx);
  dprint(w->out, &b);
  fprintf(w->out, " 0 { lin %d  %d ", cnt, ci);
  dprint(w->out, &gs);
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (!dsign(&w->aval[p])) continue;
    dec lam;
    dmul(&lam, &w->aval[p], &gs);
    dneg(&lam);
    int uselo = dsign(&lam) > 0;
    fprintf(w->out, "  %d ", uselo ? w->lidx[k] : w->uidx[k]);
    dprint(w->out, &lam);
  }
  fprintf(w->out, " } -1\n");
  *beta = b;
  return idx;
}

static int walk(W *w, int v, dec *beta, int *absurd);

/* Reduced-cost fixings at node v, from its LP multipliers y.  With the
 * exact combination  q s c'x = yr'Ax + sum_k r_k x_k  (dual_combination),
 * the incumbent's cutoff  s c'x <= s best  (the `sol` line) and the rows
 * give  r'x <= q s best - yr'(sides).  For a fixing of x_j (r_j > 0 at its
 * lower bound: x_j <= val; r_j < 0 at its upper: x_j >= val) the bounds of
 * every other x_k then give  r_j x_j <= G_j,  rounded.  Listing all those
 * bounds in each fixing's line costs n terms a fixing (cap6000: 6000 x
 * thousands), so the fixings go in blocks of about sqrt(n): one `lin` line
 * per block, H_b:  sum_{j in b} r_j x_j <= G_b,  takes the sol line, the
 * rows and the bounds outside the block; each fixing is then a `rnd` of
 * H_b over r_j and the bounds of the rest of its block.  out[t] gets the
 * line of fixing t.  Returns 0, -1 when some fixing is not implied. */
static int rcfix_block(W *w, const dec *yr, const int *yc, const dec *q, const dec *brow,
                       const bb_prop *fx, int nb, int *out, char *inb) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, cnt = 1;
  dec G, t;
  dec sbest = w->best;
  if (w->s < 0) dneg(&sbest);
  dmul(&G, q, &sbest);
  dec nb_ = *brow;
  dneg(&nb_);
  dadd(&G, &G, &nb_);
  for (int t2 = 0; t2 < nb; t2++) inb[fx[t2].var] = 1;
  for (int i = 0; i < mr; i++) cnt += yc[i] >= 0;
  for (int k = 0; k < n; k++) {
    int sgn = dsign(&w->r[k]);
    if (inb[k] || !sgn) continue;
    if ((sgn > 0 ? w->lidx[k] : w->uidx[k]) < 0) return -1;
    dec bv;
    dfrom(&bv, sgn > 0 ? w->curl[k] : w->curu[k]);
    dmul(&t, &w->r[k], &bv);
    dneg(&t);
    dadd(&G, &G, &t);
    cnt++;
  }
  if (overflow) return -1;
  int h = w->base + w->nder++;
  fprintf(w->out, "D%d L ", h);
  dprint(w->out, &G);
  fprintf(w->out, " %d", nb);
  for (int t2 = 0; t2 < nb; t2++) {
    fprintf(w->out, "  %d ", fx[t2].var);
    dprint(w->out, &w->r[fx[t2].var]);
  }
  fprintf(w->out, " { lin %d  %d ", cnt, w->solidx);
  dparse(&t, w->s < 0 ? "-1" : "1"); /* s q */
  dmul(&t, &t, q);
  dprint(w->out, &t);
  for (int i = 0; i < mr; i++) {
    if (yc[i] < 0) continue;
    t = yr[i];
    dneg(&t);
    fprintf(w->out, "  %d ", yc[i]);
    dprint(w->out, &t);
  }
  for (int k = 0; k < n; k++) {
    int sgn = dsign(&w->r[k]);
    if (inb[k] || !sgn) continue;
    t = w->r[k];
    dneg(&t);
    fprintf(w->out, "  %d ", sgn > 0 ? w->lidx[k] : w->uidx[k]);
    dprint(w->out, &t);
  }
  fprintf(w->out, " } -1\n");
  /* each fixing of the block */
  for (int a = 0; a < nb; a++) {
    int j = fx[a].var, up = fx[a].up, rs = dsign(&w->r[j]);
    dec Gj = G, A, ten, v, one;
    for (int c = 0; c < nb; c++) {
      int k = fx[c].var, sgn = dsign(&w->r[k]);
      if (c == a) continue;
      if ((sgn > 0 ? w->lidx[k] : w->uidx[k]) < 0) return -1;
      dec bv;
      dfrom(&bv, sgn > 0 ? w->curl[k] : w->curu[k]);
      dmul(&t, &w->r[k], &bv);
      dneg(&t);
      dadd(&Gj, &Gj, &t);
    }
    /* Gj against (val + 1) r_j (up) or (val - 1) r_j */
    dparse(&one, up ? "1" : "-1");
    dfrom(&v, fx[a].val);
    dadd(&v, &v, &one);
    dmul(&t, &v, &w->r[j]);
    if (dcmp(&Gj, &t) >= 0 || overflow) return -1;
    /* the multipliers over r_j = sign 10^-e A: numerators times sign 10^e */
    int e;
    dmant(&A, &e, &w->r[j]);
    dparse(&ten, "1");
    mag_scale(&ten, e);
    if (rs < 0) dneg(&ten);
    out[a] = w->base + w->nder++;
    dfrom(&v, fx[a].val);
    fprintf(w->out, "D%d %s ", out[a], up ? "L" : "G");
    dprint(w->out, &v);
    fprintf(w->out, " 1 %d 1 { rnd %d  %d ", j, nb, h);
    dprint_frac(w->out, &ten, &A);
    for (int c = 0; c < nb; c++) {
      int k = fx[c].var, sgn = dsign(&w->r[k]);
      if (c == a) continue;
      dmul(&t, &w->r[k], &ten);
      dneg(&t);
      fprintf(w->out, "  %d ", sgn > 0 ? w->lidx[k] : w->uidx[k]);
      dprint_frac(w->out, &t, &A);
    }
    fprintf(w->out, " } -1\n");
  }
  return 0;
}

static int derive_rcfix(W *w, const double *y, const bb_prop *fx, int nf, int *out) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, ret = -1;
  if (w->solidx < 0 || !y) return -1;
  dec *yr = calloc((size_t)mr + 1, sizeof(dec));
  int *yc = calloc((size_t)mr + 1, sizeof(int));
  char *inb = calloc((size_t)n + 1, 1);
  dec q, b;
  if (!yr || !yc || !inb) goto out;
  if (dual_combination(w, y, 1.0, 0, yr, yc, &q, &b) != 1) goto out;
  int nr = 0;
  for (int k = 0; k < n; k++) nr += dsign(&w->r[k]) != 0;
  for (int t = 0; t < nf; t++)
    if (dsign(&w->r[fx[t].var]) != (fx[t].up ? 1 : -1)) goto out;
  int B = (int)sqrt((double)nr) + 1;
  for (int t = 0; t < nf; t += B) {
    int nb = nf - t < B ? nf - t : B;
    int rc = rcfix_block(w, yr, yc, &q, &b, fx + t, nb, out + t, inb);
    for (int c = 0; c < nb; c++) inb[fx[t + c].var] = 0;
    if (rc < 0) goto out;
  }
  ret = 0;
out:
  free(yr);
  free(yc);
  free(inb);
  return ret;
}

/* walk() at a node with propagated bounds: derive them in order (they
 * hold in the node's whole subtree), then restore the bounds after. */
static int walk_node(W *w, int v, dec *beta, int *absurd) {
  const bb_rec *r = &w->m->rec[v];
  if (!r->nprop && r->crow < 0) return walk(w, v, beta, absurd);
  int np = r->nprop, ret = -1;
  int *sidx = malloc(((size_t)np + 1) * sizeof(int));
  double *sval = malloc(((size_t)np + 1) * sizeof(double));
  if (!sidx || !sval) { free(sidx); free(sval); w->fail = 1; return -1; }
  int k = 0, *fixd = NULL;
  for (; k < np; k++) {
    const bb_prop *p = &r->prop[k];
    int j = p->var, d;
    if (p->row >= 0) {
      d = derive_bound(w, p->row, p->side, j, p->up, p->val, 1);
    } else {
      /* the reduced-cost fixings: the node's last entries, derived
       * together from the bounds before them */
      if (!fixd) {
        int nseg = 0;
        while (k + nseg < np && r->prop[k + nseg].row < 0) nseg++;
        fixd = malloc((size_t)np * sizeof(int));
        if (!fixd || derive_rcfix(w, r->y, p, nseg, fixd + k) < 0) { w->fail = 1; break; }
        for (int t = k + nseg; t < np; t++) fixd[t] = -1; /* (bb.c appends them last) */
      }
      d = fixd[k];
    }
    if (d < 0) { w->fail = 1; break; }
    sidx[k] = p->up ? w->uidx[j] : w->lidx[j];
    sval[k] = p->up ? w->curu[j] : w->curl[j];
    if (p->up) { w->uidx[j] = d; w->curu[j] = p->val; }
    else { w->lidx[j] = d; w->curl[j] = p->val; }
  }
  if (!w->fail) {
    if (r->crow >= 0) {
      ret = derive_conflict(w, r->crow, r->cside, beta);
      if (ret < 0) w->fail = 1;
      *absurd = 1;
    } else {
      ret = walk(w, v, beta, absurd);
    }
  }
  while (k-- > 0) {
    const bb_prop *p = &r->prop[k];
    if (p->up) { w->uidx[p->var] = sidx[k]; w->curu[p->var] = sval[k]; }
    else { w->lidx[p->var] = sidx[k]; w->curl[p->var] = sval[k]; }
  }
  free(sidx);
  free(sval);
  free(fixd);
  return w->fail ? -1 : ret;
}

static int asm_line(W *w, int var, int dir, double val) {
  int idx = w->base + w->nder++;
  dec v;
  dfrom(&v, val);
  fprintf(w->out, "A%d %s ", idx, dir ? "G" : "L");
  dprint(w->out, &v);
  fprintf(w->out, " 1 %d 1 { asm } -1\n", var);
  return idx;
}

static int walk(W *w, int v, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  const bb_rec *r = &m->rec[v];
  if (w->fail) return -1;
  if (r->child[0] < 0 && r->child[1] < 0) {
    if (r->proof < 0 || !m->rec[r->proof].y) { w->fail = 1; return -1; }
    int saved = overflow;
    int d = leaf(w, m->rec[r->proof].y, m->rec[r->proof].farkas, beta, absurd);
    if (d < 0 && r->proof == 0 && m->root_basis && !m->rec[0].farkas) {
      /* the root's own LP: its basis gives exact duals */
      overflow = saved;
      w->fail = 0;
      d = leaf_exact(w, beta, absurd);
      if (d < 0) w->fail = 1;
    }
    return d;
  }
  if (r->child[0] < 0 || r->child[1] < 0) { w->fail = 1; return -1; }
  int d[2], a[2], ab[2];
  dec bt[2];
  for (int k = 0; k < 2; k++) {
    const bb_rec *c = &m->rec[r->child[k]];
    int j = c->var;
    int sl = w->lidx[j], su = w->uidx[j];
    double sl_v = w->curl[j], su_v = w->curu[j];
    a[k] = asm_line(w, j, c->dir, c->val);
    if (c->dir) { w->lidx[j] = a[k]; w->curl[j] = c->val; }
    else { w->uidx[j] = a[k]; w->curu[j] = c->val; }
    d[k] = walk_node(w, r->child[k], &bt[k], &ab[k]);
    w->lidx[j] = sl; w->uidx[j] = su;
    w->curl[j] = sl_v; w->curu[j] = su_v;
    if (w->fail) return -1;
  }
  int idx = w->base + w->nder++;
  if (ab[0] && ab[1]) {
    *absurd = 1;
    *beta = dcmp(&bt[0], &bt[1]) <= 0 ? bt[0] : bt[1];
    fprintf(w->out, "D%d G ", idx);
    dprint(w->out, beta);
    fprintf(w->out, " 0");
  } else {
    *absurd = 0;
    if (ab[0]) *beta = bt[1];
    else if (ab[1]) *beta = bt[0];
    else *beta = dcmp(&bt[0], &bt[1]) <= 0 ? bt[0] : bt[1];
    dec shown = *beta;
    if (w->s < 0) dneg(&shown);
    fprintf(w->out, "D%d %s ", idx, w->s < 0 ? "L" : "G");
    dprint(w->out, &shown);
    fprintf(w->out, " OBJ");
  }
  fprintf(w->out, " { uns %d %d  %d %d } -1\n", d[0], a[0], d[1], a[1]);
  return idx;
}

/* 1 when some remainder r_j lands on a side where x_j has no bound */
static int unbounded_remainder(const W *w) {
  for (int j = 0; j < w->m->n; j++) {
    int sg = dsign(&w->r[j]);
    if (sg && (sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) return 1;
  }
  return 0;
}

/* *out = a decimal d within about 1e-12 relative of num / den (den > 0),
 * on the side `side` says: d >= num / den for +1, d <= num / den for -1;
 * checked exactly by multiplying back (out may be num).  Returns 0, or -1
 * when the check fails (dratio off on huge numbers). */
static int decimal_near(dec *out, const dec *num, const dec *den, int side) {
  double v = dratio(num, den);
  dec d, t;
  dround(&d, v + side * 1e-12 * (1 + fabs(v)), 15);
  dmul(&t, &d, den);
  if (overflow || (side > 0 ? dcmp(&t, num) < 0 : dcmp(&t, num) > 0)) return -1;
  *out = d;
  return 0;
}

/* A cut side whose rows leave a tiny remainder on an unbounded side of a
 * variable (cuts.c adds no safety margin where the cut and the split give
 * a variable coefficient 0 and only the rows touch it: those margins made
 * modglob's cuts dense and its root weaker).  repair() shifts row
 * multipliers exactly as at a leaf; everything then is a numerator over
 * *q: mu, the remainders, and *b = lam q prhs + sum mu side (the caller
 * adds the bound terms, sum r bound).
 * *mu and *mi grow to the rows repair() touched.  Returns 0, or -1 when
 * no repair works. */
static int cut_repair(W *w, const dec *lam, const dec *prhs, dec **mu, int **mi, int *nm,
                      dec *b, dec *q) {
  const twill_ilp *m = w->m;
  int mr = m->m, ret = -1;
  dec *yr = calloc((size_t)mr + 1, sizeof(dec));
  int *yc = calloc((size_t)mr + 1, sizeof(int));
  dec *nmu = calloc((size_t)mr + 1, sizeof(dec));
  int *nmi = calloc((size_t)mr + 1, sizeof(int));
  if (!yr || !yc || !nmu || !nmi) goto done;
  for (int k = 0; k < *nm; k++) yr[(*mi)[k]] = (*mu)[k];
  if (!repair(w, yr, yc, q)) goto done;
  if (getenv("TWILL_ILP_DEBUG")) fprintf(stderr, "vipr: cut side repaired (over %.3g)\n", dapprox(q));
  dec t;
  dmul(b, lam, q);
  dmul(b, b, prhs);
  int k = 0;
  for (int i = 0; i < mr; i++) {
    int sg = dsign(&yr[i]);
    if (!sg) continue;
    if ((sg > 0 ? w->rG[i] : w->rL[i]) < 0) goto done;
    dmul(&t, &yr[i], sg > 0 ? &w->rl[i] : &w->rh[i]);
    dadd(b, b, &t);
    nmu[k] = yr[i];
    nmi[k++] = i;
  }
  free(*mu);
  free(*mi);
  *mu = nmu;
  *mi = nmi;
  nmu = NULL;
  nmi = NULL;
  *nm = k;
  ret = overflow ? -1 : 0;
done:
  free(yr);
  free(yc);
  free(nmu);
  free(nmi);
  return ret;
}

/* The lines of one side of a cut's split (see ilp_cut in model.h and
 * cuts.c): the side as an assumption (A aidx), then the cut c'x >= D_side
 * as `lin` of the side times -lam (side 0, a <= row) or lam (side 1), the
 * rows times their multipliers (12 significant digits; one whose row side
 * does not exist is left out) and, for every x_j, the bound that cancels
 * the remainder r_j = c_j - (the rest)_j exactly.  A remainder with no
 * bound on its side goes to cut_repair, and the multipliers are then
 * fractions over its q.  Returns the index of the `lin` line (*D its
 * right-hand side), -1 when some remainder has no bound to land on and no
 * repair works (nothing is printed then). */
static int cut_side(W *w, const ilp_cut *ct, int side, int print, int *aidx, dec *D) {
  const twill_ilp *m = w->m;
  int n = m->n, row = ct->row;
  dec lam, t, b;
  dround(&lam, ct->lam[side], 15);
  if (!side) dneg(&lam);
  dec *mu = calloc((size_t)ct->nmu[side] + 1, sizeof(dec));
  int *mi = calloc((size_t)ct->nmu[side] + 1, sizeof(int));
  if (!mu || !mi) { free(mu); free(mi); return -1; }
  for (int j = 0; j < n; j++) dzero(&w->r[j]);
  /* r = c - (lam pi + sum mu_i a_i), b = lam side_rhs + sum mu_i side_i */
  for (int q = w->rbeg[row]; q < w->rbeg[row + 1]; q++) w->r[w->rcol[q]] = w->aval[w->rpos[q]];
  dec prhs;
  dfrom(&prhs, side ? ct->p0 + 1 : ct->p0);
  dmul(&b, &lam, &prhs);
  for (int k = 0; k < ct->npi; k++) {
    dec pv;
    dfrom(&pv, ct->pval[k]);
    dmul(&t, &lam, &pv);
    dneg(&t);
    dadd(&w->r[ct->pidx[k]], &w->r[ct->pidx[k]], &t);
  }
  int nm = 0;
  for (int k = 0; k < ct->nmu[side]; k++) {
    int i = ct->midx[side][k];
    double v = ct->mval[side][k];
    if (fabs(v) < 1e-13) continue;
    int ci = v > 0 ? w->rG[i] : w->rL[i];
    if (ci < 0) continue;
    dround(&mu[nm], v, 12);
    mi[nm] = i;
    dmul(&t, &mu[nm], v > 0 ? &w->rl[i] : &w->rh[i]);
    dadd(&b, &b, &t);
    for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
      dmul(&t, &mu[nm], &w->aval[w->rpos[q]]);
      dneg(&t);
      dadd(&w->r[w->rcol[q]], &w->r[w->rcol[q]], &t);
    }
    nm++;
  }
  dec qd;
  dparse(&qd, "1");
  int fr = unbounded_remainder(w);
  if (fr && cut_repair(w, &lam, &prhs, &mu, &mi, &nm, &b, &qd)) {
    free(mu);
    free(mi);
    return -1;
  }
  int cnt = 1 + nm;
  for (int j = 0; j < n; j++) { /* (numerators over q after a repair) */
    int sg = dsign(&w->r[j]);
    if (!sg) continue;
    dec bv;
    dfrom(&bv, sg > 0 ? w->curl[j] : w->curu[j]);
    dmul(&t, &w->r[j], &bv);
    dadd(&b, &b, &t);
    cnt++;
  }
  /* the stated rhs after a repair: a decimal <= b / q */
  int qone = qd.n == 1 && qd.d[0] == 1 && qd.e == 0;
  if (overflow || (fr && !qone && decimal_near(&b, &b, &qd, -1))) {
    free(mu);
    free(mi);
    return -1;
  }
  if (!print) {
    *D = b;
    free(mu);
    free(mi);
    return 0;
  }
  /* the assumption, then the combination */
  *aidx = w->base + w->nder++;
  fprintf(w->out, "A%d %s ", *aidx, side ? "G" : "L");
  dprint(w->out, &prhs);
  fprintf(w->out, " %d", ct->npi);
  for (int k = 0; k < ct->npi; k++) {
    dec pv;
    dfrom(&pv, ct->pval[k]);
    fprintf(w->out, "  %d ", ct->pidx[k]);
    dprint(w->out, &pv);
  }
  fprintf(w->out, " { asm } -1\n");
  int idx = w->base + w->nder++;
  fprintf(w->out, "D%d G ", idx);
  dprint(w->out, &b);
  fprintf(w->out, " %d", w->rbeg[row + 1] - w->rbeg[row]);
  for (int q = w->rbeg[row]; q < w->rbeg[row + 1]; q++) {
    fprintf(w->out, "  %d ", w->rcol[q]);
    dprint(w->out, &w->aval[w->rpos[q]]);
  }
  fprintf(w->out, " { lin %d  %d ", cnt, *aidx);
  dprint(w->out, &lam);
  for (int k = 0; k < nm; k++) {
    int i = mi[k];
    fprintf(w->out, "  %d ", dsign(&mu[k]) > 0 ? w->rG[i] : w->rL[i]);
    dprint_frac(w->out, &mu[k], &qd);
  }
  for (int j = 0; j < n; j++) {
    int sg = dsign(&w->r[j]);
    if (!sg) continue;
    fprintf(w->out, "  %d ", sg > 0 ? w->lidx[j] : w->uidx[j]);
    dprint_frac(w->out, &w->r[j], &qd);
  }
  fprintf(w->out, " } -1\n");
  *D = b;
  free(mu);
  free(mi);
  return idx;
}

/* Derive every root cut (in order: a cut may use earlier ones) and make
 * its row usable: c'x >= min(D_0, D_1) by `uns` of the two sides.  A cut
 * that cannot be derived stays unusable (its multipliers are dropped at
 * the leaves, which then may fail to close). */
static void derive_cuts(W *w) {
  const twill_ilp *m = w->m;
  for (int k = 0; k < m->ncut; k++) {
    const ilp_cut *ct = &m->cut[k];
    int a[2], d[2];
    dec D[2];
    /* a dry run of both sides first: nothing is printed for a cut that
     * fails */
    if (cut_side(w, ct, 0, 0, &a[0], &D[0]) < 0 || cut_side(w, ct, 1, 0, &a[1], &D[1]) < 0)
      continue;
    d[0] = cut_side(w, ct, 0, 1, &a[0], &D[0]);
    d[1] = cut_side(w, ct, 1, 1, &a[1], &D[1]);
    if (d[0] < 0 || d[1] < 0) { w->fail = 1; return; }
    dec *Dm = dcmp(&D[0], &D[1]) <= 0 ? &D[0] : &D[1];
    int idx = w->base + w->nder++;
    int row = ct->row;
    fprintf(w->out, "C%d G ", idx);
    dprint(w->out, Dm);
    fprintf(w->out, " %d", w->rbeg[row + 1] - w->rbeg[row]);
    for (int q = w->rbeg[row]; q < w->rbeg[row + 1]; q++) {
      fprintf(w->out, "  %d ", w->rcol[q]);
      dprint(w->out, &w->aval[w->rpos[q]]);
    }
    fprintf(w->out, " { uns %d %d  %d %d } -1\n", d[0], a[0], d[1], a[1]);
    w->rG[row] = idx;
    w->rl[row] = *Dm;
  }
}

/* The tree walk recurses once per level, a few KB a level (dec values on
 * the stack): a dive 3800 deep (mitre) overflows the default 8 MB stack.
 * So it runs on a thread whose stack is sized by the tree's depth. */
typedef struct walk_job {
  W *w;
  dec *beta;
  int *absurd, last;
} walk_job;

static void *walk_main(void *p) {
  walk_job *j = p;
  j->last = walk_node(j->w, 0, j->beta, j->absurd);
  return NULL;
}

static int walk_tree(W *w, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  int *depth = malloc(((size_t)m->nrec + 1) * sizeof(int)), maxd = 0;
  if (!depth) { w->fail = 1; return -1; }
  for (int v = 0; v < m->nrec; v++) { /* a parent comes before its children */
    int p = m->rec[v].parent;
    depth[v] = p >= 0 && p < v ? depth[p] + 1 : 0;
    if (depth[v] > maxd) maxd = depth[v];
  }
  free(depth);
  walk_job job = {w, beta, absurd, -1};
  pthread_attr_t at;
  pthread_t th;
  size_t stack = ((size_t)maxd + 64) * 32768;
  if (pthread_attr_init(&at) != 0) { w->fail = 1; return -1; }
  int ok = pthread_attr_setstacksize(&at, stack) == 0 && pthread_create(&th, &at, walk_main, &job) == 0;
  pthread_attr_destroy(&at);
  if (!ok) { w->fail = 1; return -1; }
  pthread_join(th, NULL);
  return job.last;
}

/* p/q close to x (|x - p/q| <= 1e-9 (1 + |x|), q <= 10^6, |x| <= 10^9)
 * by continued fractions; 0 when there is none. */
static int small_fraction(double x, long long *p, long long *q) {
  long long h0 = 0, h1 = 1, k0 = 1, k1 = 0;
  double r = x;
  if (!(fabs(x) <= 1e9)) return 0; /* keeps h below 10^15 */
  for (int it = 0; it < 40; it++) {
    double a = floor(r);
    if (fabs(a) > 1e15) return 0;
    long long ai = (long long)a, h2 = ai * h1 + h0, k2 = ai * k1 + k0;
    if (k2 > 1000000 || k2 <= 0) return 0;
    h0 = h1; h1 = h2; k0 = k1; k1 = k2;
    if (fabs(x - (double)h1 / (double)k1) <= 1e-9 * (1 + fabs(x))) {
      *p = h1;
      *q = k1;
      return 1;
    }
    if (r - a < 1e-15) return 0;
    r = 1 / (r - a);
  }
  return 0;
}

static long long gcd_ll(long long a, long long b) {
  while (b) { long long t = a % b; a = b; b = t; }
  return a < 0 ? -a : a;
}

/* kinds 6 and 7: the exact vertex under the incumbent (exact_point.c),
 * over the common denominator of its values (dec holds 432 digits);
 * kind 7 takes values within 1e-6 of a bound as on it (rgn's incumbent
 * has 1e-7 where the vertex has 0) */
static int exact_candidate(W *w, int mr0, double tol) {
  const twill_ilp *m = w->m;
  char **num, *den;
  int r = twill_ilp_exact_point(m, mr0, w->curl, w->curu, m->sol, tol, 400, &num, &den);
  if (r != 1) {
    if (getenv("TWILL_ILP_DEBUG")) fprintf(stderr, "vipr: no exact vertex (%d)\n", r);
    return 0;
  }
  int ok = dparse(&w->solden, den);
  for (int j = 0; j < m->n && ok; j++) ok = dparse(&w->solx[j], num[j]);
  twill_ilp_exact_point_free(m->n, num, den);
  return ok;
}

/* The incumbent as a candidate SOL point: kind 0 the shortest decimals
 * that read back as its doubles, kind 1..4 its continuous values rounded
 * to 15, 12, 9, 6 significant digits, kind 5 its continuous values as
 * fractions p/q (q <= 10^6) over their common denominator D (vpm1: a
 * production of 1/3 in 600 x = 200).  x_j = solx_j / D.  0 when kind 5
 * finds no such fractions. */
static int sol_candidate(W *w, int kind, int mr0) {
  const twill_ilp *m = w->m;
  if (kind >= 6) return exact_candidate(w, mr0, kind == 6 ? 1e-9 : 1e-6);
  static const int digits[] = {0, 15, 12, 9, 6};
  long long D = 1;
  if (kind == 5) {
    for (int j = 0; j < m->n; j++) {
      long long p, q;
      if (m->vtype[j] != TWILL_ILP_CONTINUOUS) continue;
      if (!small_fraction(m->sol[j], &p, &q)) return 0;
      long long g = gcd_ll(D, q);
      if (D / g > 1000000000000000LL / q) return 0;
      D = D / g * q;
    }
  }
  char buf[64];
  snprintf(buf, sizeof buf, "%lld", D);
  dparse(&w->solden, buf);
  for (int j = 0; j < m->n; j++) {
    double v = m->sol[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS || kind == 0) {
      dfrom(&w->solx[j], v);
      dmul(&w->solx[j], &w->solx[j], &w->solden);
    } else if (kind < 5) {
      dround(&w->solx[j], v, digits[kind]);
    } else {
      long long p, q;
      dec f;
      small_fraction(v, &p, &q);
      snprintf(buf, sizeof buf, "%lld", p); /* p (D / q): each below 10^15 */
      dparse(&w->solx[j], buf);
      snprintf(buf, sizeof buf, "%lld", D / q);
      dparse(&f, buf);
      dmul(&w->solx[j], &w->solx[j], &f);
    }
  }
  return 1;
}

static int sol_miss(int kind, const char *what, int i) {
  if (getenv("TWILL_ILP_DEBUG")) fprintf(stderr, "vipr: SOL candidate %d %s %d\n", kind, what, i);
  return 0;
}

/* The SOL section's point: the first candidate (sol_candidate) that
 * satisfies every bound and user row exactly goes to w->solx over
 * w->solden, its objective (over the same) to w->solobj.  The decimals
 * come first (flugpl's 59.99999999999999 on a row that asks for exactly
 * 60 goes in rounded).  Called with the model's bounds in curl/curu.
 * Returns w->solok. */
static int choose_sol(W *w, int mr0) {
  const twill_ilp *m = w->m;
  w->solok = 0;
  if (!w->solx || m->status != TWILL_ILP_OPTIMAL || !m->has_sol) return 0;
  for (int k = 0; k < 8 && !w->solok; k++) {
    if (!sol_candidate(w, k, mr0)) continue;
    int ok = 1;
    dzero(&w->solobj);
    for (int j = 0; j < m->n && ok; j++) {
      dec b, t;
      if (!isinf(w->curl[j])) {
        dfrom(&b, w->curl[j]);
        dmul(&b, &b, &w->solden);
        if (dcmp(&w->solx[j], &b) < 0) ok = sol_miss(k, "below the bound of column", j);
      }
      if (!isinf(w->curu[j])) {
        dfrom(&b, w->curu[j]);
        dmul(&b, &b, &w->solden);
        if (dcmp(&w->solx[j], &b) > 0) ok = sol_miss(k, "above the bound of column", j);
      }
      dmul(&t, &w->solx[j], &w->cobj[j]);
      dadd(&w->solobj, &w->solobj, &t);
    }
    for (int i = 0; ok && i < mr0; i++) {
      dec act, t, lo, hi;
      dzero(&act);
      for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
        dmul(&t, &w->aval[w->rpos[q]], &w->solx[w->rcol[q]]);
        dadd(&act, &act, &t);
      }
      dmul(&lo, &w->rl[i], &w->solden);
      dmul(&hi, &w->rh[i], &w->solden);
      if ((w->rG[i] >= 0 && dcmp(&act, &lo) < 0) || (w->rL[i] >= 0 && dcmp(&act, &hi) > 0))
        ok = sol_miss(k, "misses row", i);
    }
    w->solok = ok && !overflow;
    if (!w->solok && getenv("TWILL_ILP_DEBUG"))
      fprintf(stderr, "vipr: SOL candidate %d is not exactly feasible\n", k);
  }
  return w->solok;
}

/* An LP (no integer variable) whose float optimum no candidate makes
 * exactly feasible (25fv47, grow7, grow15, stair, pilot4, perold): the
 * root basis's exact primal values (exact_basis.c), kept as rationals
 * (their denominators pass the 432 digits of a dec) in w->solq when they
 * satisfy every bound and row exactly.  Returns 1 when kept. */
static int exact_sol(W *w, int mr0) {
  const twill_ilp *m = w->m;
  int n = m->n, ok = 0;
  if (!m->root_basis || m->status != TWILL_ILP_OPTIMAL || !m->has_sol) return 0;
  for (int j = 0; j < n; j++)
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) return 0;
  bigq *x = calloc((size_t)n + 1, sizeof(bigq)), act, t, a;
  twill_bq_init(&act);
  twill_bq_init(&t);
  twill_bq_init(&a);
  twill_bq_init(&w->solqobj);
  if (!x) return 0;
  for (int j = 0; j < n; j++) twill_bq_init(&x[j]);
  int rc = twill_ilp_basis_primal(m, m->root_basis, w->curl, w->curu, EXACT_DIGITS, x), err = rc < 0;
  ok = rc == 1;
  for (int j = 0; j < n && ok && !err; j++) {
    if (!isinf(w->curl[j]) && !(err = twill_qs_from_double(&t, w->curl[j])) && twill_bq_cmp(&x[j], &t) < 0)
      ok = sol_miss(8, "below the bound of column", j);
    if (ok && !isinf(w->curu[j]) && !(err = twill_qs_from_double(&t, w->curu[j])) && twill_bq_cmp(&x[j], &t) > 0)
      ok = sol_miss(8, "above the bound of column", j);
    if (ok && m->obj[j] != 0 && !err)
      err = twill_qs_from_double(&t, m->obj[j]) || twill_bq_addmul(&w->solqobj, &w->solqobj, &t, &x[j]);
  }
  for (int i = 0; i < mr0 && ok && !err; i++) {
    twill_bq_free(&act);
    for (int q = w->rbeg[i]; q < w->rbeg[i + 1] && !err; q++)
      err = twill_qs_from_double(&a, w->cval[w->rpos[q]]) || twill_bq_addmul(&act, &act, &a, &x[w->rcol[q]]);
    if (!err && w->rG[i] >= 0 && !(err = twill_qs_from_double(&t, m->rlo[i])) && twill_bq_cmp(&act, &t) < 0)
      ok = sol_miss(8, "misses row", i);
    if (ok && !err && w->rL[i] >= 0 && !(err = twill_qs_from_double(&t, m->rhi[i])) && twill_bq_cmp(&act, &t) > 0)
      ok = sol_miss(8, "misses row", i);
  }
  ok = ok && !err;
  if (getenv("TWILL_ILP_DEBUG"))
    fprintf(stderr, "vipr: the root basis's exact optimum is %s (%d)\n",
            ok ? "feasible" : "not exactly feasible", rc);
  if (ok) {
    w->solq = x;
  } else {
    twill_bq_free_vec(x, n);
    twill_bq_free(&w->solqobj);
  }
  twill_bq_free(&act);
  twill_bq_free(&t);
  twill_bq_free(&a);
  return ok;
}

/* When the search fixed variables by reduced cost, the cutoff they use:
 * c'x <= best (>= for max) by `sol`, best the incumbent's exact value. */
static void sol_line(W *w) {
  const twill_ilp *m = w->m;
  int any = 0;
  w->solidx = -1;
  for (int v = 0; v < m->nrec && !any; v++)
    for (int k = 0; k < m->rec[v].nprop && !any; k++) any = m->rec[v].prop[k].row < 0;
  if (!any || m->status != TWILL_ILP_OPTIMAL || !m->has_sol) return;
  /* The cutoff is printed as a decimal.  An integral SOL gives its value
   * itself; a fractional one (a mixed model's exact vertex, over solden)
   * gives a decimal just on the weak side of solobj/solden, which the
   * checker accepts (`sol` may be weaker than the best solution): the
   * search's fixings kept a margin of 1e-6 far above that rounding.  With
   * no exact SOL the float incumbent's value is taken, and the writer
   * fails below (the cutoff must come from the SOL section); the command
   * then solves again without fixings. */
  int dsol = w->solok && w->solden.n == 1 && w->solden.d[0] == 1 && w->solden.e == 0;
  dzero(&w->best);
  /* (the weak side: >= for min, s > 0; <= for max) */
  w->bestok = dsol || (w->solok && !decimal_near(&w->best, &w->solobj, &w->solden, w->s));
  if (dsol) w->best = w->solobj;
  for (int j = 0; j < m->n && !w->bestok; j++) {
    dec xv, t;
    dfrom(&xv, m->sol[j]);
    dmul(&t, &xv, &w->cobj[j]);
    dadd(&w->best, &w->best, &t);
  }
  w->solidx = w->base + w->nder++;
  fprintf(w->out, "D%d %s ", w->solidx, w->s < 0 ? "G" : "L");
  dprint(w->out, &w->best);
  fprintf(w->out, " OBJ { sol } -1\n");
}

static void name_out(FILE *f, const char *s) {
  if (!*s) { fputc('_', f); return; }
  /* a name is one token: no white space, no control character, no '%',
   * which starts a comment in VIPR (a fuzzed MPS name had one), and no
   * '{' or '}', which the checker reads as tokens of their own (LP names
   * may hold them: a fuzzed LP file had one) */
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    fputc(ch <= ' ' || ch == 127 || ch == '%' || ch == '{' || ch == '}' ? '_' : ch, f);
  }
}

/* Implied bounds, derived once before the tree: a variable with an
 * infinite bound whose residual reduced cost at a leaf lands on that side
 * (floating-point noise of the duals, e.g. a basic continuous variable)
 * could not be cancelled.  Where a row bounds such a variable through the
 * finite bounds of its other variables, that bound is derived (a `lin`,
 * stated a little weaker than the floating-point value so that it is
 * exactly implied) and used like a bound of the model.  The tightest row
 * in floating point is taken. */
static void implied_bounds(W *w, const double *cval) {
  const twill_ilp *m = w->m;
  int n = m->n, more = 1;
  /* a few passes: a bound found later can bound another variable */
  for (int pass = 0; pass < 8 && more; pass++) {
  more = 0;
  for (int j = 0; j < n; j++)
    for (int up = 0; up < 2; up++) {
      if ((up ? w->uidx[j] : w->lidx[j]) >= 0) continue;
      double best = up ? HUGE_VAL : -HUGE_VAL;
      int brow = -1, bside = 0;
      for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
        int i = w->cidx[p];
        double aij = cval[p];
        if (aij == 0 || i >= m->m - m->ncut) continue; /* cuts: not derived yet */
        /* side 0 bounds x_j above when a_ij > 0, side 1 when a_ij < 0 */
        int side = up ? (aij > 0 ? 0 : 1) : (aij > 0 ? 1 : 0);
        double rhs = side ? m->rlo[i] : m->rhi[i];
        if (isinf(rhs)) continue;
        double sum = rhs, mag = fabs(rhs);
        int ok = 1;
        for (int q = w->rbeg[i]; q < w->rbeg[i + 1] && ok; q++) {
          int k = w->rcol[q];
          if (k == j) continue;
          double lam = -cval[w->rpos[q]] / aij;
          int useup = up ? lam > 0 : lam < 0;
          if ((useup ? w->uidx[k] : w->lidx[k]) < 0) { ok = 0; break; }
          double bv = useup ? w->curu[k] : w->curl[k];
          sum += cval[w->rpos[q]] * -bv;
          mag += fabs(cval[w->rpos[q]] * bv);
        }
        if (!ok) continue;
        double t = sum / aij, slack = (1e-9 * mag + 1e-9) / fabs(aij);
        t = up ? t + slack : t - slack;
        if (fabs(t) > 1e12) continue;
        if (up ? t < best : t > best) { best = t; brow = i; bside = side; }
      }
      if (brow < 0) continue;
      char buf[64];
      snprintf(buf, sizeof buf, "%.12g", best);
      double val = strtod(buf, NULL);
      if (up ? val < best : val > best) val = up ? nextafter(val, HUGE_VAL) : nextafter(val, -HUGE_VAL);
      int d = derive_bound(w, brow, bside, j, up, val, 0);
      if (d < 0) continue;
      if (up) { w->uidx[j] = d; w->curu[j] = val; }
      else { w->lidx[j] = d; w->curl[j] = val; }
      more = 1;
    }
  }
}

int twill_ilp_write_vipr(const twill_ilp *m, FILE *f) {
  if (!m->complete || !m->nrec || !m->certify ||
      (m->status != TWILL_ILP_OPTIMAL && m->status != TWILL_ILP_INFEASIBLE))
    return -1;
  int n = m->n, mr = m->m;
  W w;
  memset(&w, 0, sizeof w);
  w.m = m;
  w.s = m->maximize ? -1 : 1;
  overflow = 0;
  double *cval = NULL;
  char *body = NULL;
  size_t bodylen = 0;
  int ret = -1;
  if (!twill_ilp_build_csc(m, &w.cbeg, &w.cidx, &cval)) return -1;
  w.cval = cval;
  int nz = w.cbeg[n];
  w.aval = calloc((size_t)nz + 1, sizeof(dec));
  w.cobj = calloc((size_t)n + 1, sizeof(dec));
  w.vl = calloc((size_t)n + 1, sizeof(dec));
  w.vu = calloc((size_t)n + 1, sizeof(dec));
  w.r = calloc((size_t)n + 1, sizeof(dec));
  w.rl = calloc((size_t)mr + 1, sizeof(dec));
  w.rh = calloc((size_t)mr + 1, sizeof(dec));
  w.lidx = calloc((size_t)n + 1, sizeof(int));
  w.uidx = calloc((size_t)n + 1, sizeof(int));
  w.curl = calloc((size_t)n + 1, sizeof(double));
  w.curu = calloc((size_t)n + 1, sizeof(double));
  w.rG = calloc((size_t)mr + 1, sizeof(int));
  w.rL = calloc((size_t)mr + 1, sizeof(int));
  w.out = open_memstream(&body, &bodylen);
  if (!w.aval || !w.cobj || !w.vl || !w.vu || !w.r || !w.rl || !w.rh || !w.lidx ||
      !w.uidx || !w.curl || !w.curu || !w.rG || !w.rL || !w.out)
    goto done;
  for (int p = 0; p < nz; p++) dfrom(&w.aval[p], cval[p]);
  w.objint = 1;
  for (int j = 0; j < n; j++) {
    dfrom(&w.cobj[j], m->obj[j]);
    int isint = m->vtype[j] != TWILL_ILP_CONTINUOUS;
    if (m->obj[j] != 0 && (!isint || m->obj[j] != round(m->obj[j]))) w.objint = 0;
  }
  /* bound constraints (integer bounds rounded inward, as the solver did) */
  int ncon = 0;
  for (int j = 0; j < n; j++) {
    double l = m->vlb[j], u = m->vub[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) {
      l = ceil(l - 1e-6);
      u = floor(u + 1e-6);
    }
    w.curl[j] = l;
    w.curu[j] = u;
    w.lidx[j] = isinf(l) ? -1 : ncon++;
    w.uidx[j] = isinf(u) ? -1 : ncon++;
  }
  int nbound = ncon, mr0 = mr - m->ncut;
  for (int i = 0; i < mr; i++) {
    double lo = m->rlo[i], hi = m->rhi[i];
    if (i >= mr0) { /* a cut: usable once derived (derive_cuts) */
      w.rG[i] = w.rL[i] = -1;
      dfrom(&w.rl[i], lo);
      continue;
    }
    if (lo == hi) w.rG[i] = w.rL[i] = ncon++;
    else {
      w.rG[i] = isinf(lo) ? -1 : ncon++;
      w.rL[i] = isinf(hi) ? -1 : ncon++;
    }
    if (!isinf(lo)) dfrom(&w.rl[i], lo);
    if (!isinf(hi)) dfrom(&w.rh[i], hi);
  }
  w.base = ncon;
  dec beta;
  int absurd = 0;
  /* the rows, for derived bounds */
  w.rbeg = calloc((size_t)mr + 2, sizeof(int));
  w.rcol = calloc((size_t)nz + 1, sizeof(int));
  w.rpos = calloc((size_t)nz + 1, sizeof(int));
  if (!w.rbeg || !w.rcol || !w.rpos) goto done;
  for (int p = 0; p < nz; p++) w.rbeg[w.cidx[p] + 2]++;
  for (int i = 0; i < mr; i++) w.rbeg[i + 2] += w.rbeg[i + 1];
  for (int j = 0; j < n; j++)
    for (int p = w.cbeg[j]; p < w.cbeg[j + 1]; p++) {
      int q = w.rbeg[w.cidx[p] + 1]++;
      w.rcol[q] = j;
      w.rpos[q] = p;
    }
  /* the model's bounds, for the CON section after the walk */
  int *olidx = malloc(((size_t)n + 1) * sizeof(int));
  int *ouidx = malloc(((size_t)n + 1) * sizeof(int));
  double *ocurl = malloc(((size_t)n + 1) * sizeof(double));
  double *ocuru = malloc(((size_t)n + 1) * sizeof(double));
  if (!olidx || !ouidx || !ocurl || !ocuru) {
    free(olidx); free(ouidx); free(ocurl); free(ocuru);
    goto done;
  }
  memcpy(olidx, w.lidx, (size_t)n * sizeof(int));
  memcpy(ouidx, w.uidx, (size_t)n * sizeof(int));
  memcpy(ocurl, w.curl, (size_t)n * sizeof(double));
  memcpy(ocuru, w.curu, (size_t)n * sizeof(double));
  w.solx = calloc((size_t)n + 1, sizeof(dec));
  if (!choose_sol(&w, mr - m->ncut)) exact_sol(&w, mr - m->ncut);
  implied_bounds(&w, cval);
  derive_cuts(&w);
  sol_line(&w);
  int last = walk_tree(&w, &beta, &absurd);
  memcpy(w.lidx, olidx, (size_t)n * sizeof(int));
  memcpy(w.uidx, ouidx, (size_t)n * sizeof(int));
  memcpy(w.curl, ocurl, (size_t)n * sizeof(double));
  memcpy(w.curu, ocuru, (size_t)n * sizeof(double));
  free(olidx); free(ouidx); free(ocurl); free(ocuru);
  fclose(w.out);
  w.out = NULL;
  if (w.fail || overflow || last < 0) goto done;
  if (m->status == TWILL_ILP_INFEASIBLE && !absurd) goto done;
  if (m->status == TWILL_ILP_OPTIMAL && absurd) goto done;

  /* header */
  fprintf(f, "%% twill ilp certificate");
  if (m->name) {
    fputs(": ", f);
    name_out(f, m->name);
  }
  fprintf(f, "\nVER 1.0\nVAR %d\n", n);
  for (int j = 0; j < n; j++) {
    name_out(f, m->vname[j]);
    fputc(j + 1 < n ? ' ' : '\n', f);
  }
  if (!n) fputc('\n', f);
  int nint = 0;
  for (int j = 0; j < n; j++) nint += m->vtype[j] != TWILL_ILP_CONTINUOUS;
  fprintf(f, "INT %d\n", nint);
  for (int j = 0, k = 0; j < n; j++)
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) fprintf(f, "%d%c", j, ++k < nint ? ' ' : '\n');
  if (!nint) fputc('\n', f);
  int nobj = 0;
  for (int j = 0; j < n; j++) nobj += m->obj[j] != 0;
  fprintf(f, "OBJ %s\n%d", m->maximize ? "max" : "min", nobj);
  for (int j = 0; j < n; j++)
    if (m->obj[j] != 0) {
      fprintf(f, "  %d ", j);
      dprint(f, &w.cobj[j]);
    }
  fprintf(f, "\nCON %d %d\n", ncon, nbound);
  for (int j = 0; j < n; j++) {
    dec v;
    if (w.lidx[j] >= 0) {
      dfrom(&v, w.curl[j]);
      fprintf(f, "L%d G ", j);
      dprint(f, &v);
      fprintf(f, " 1 %d 1\n", j);
    }
    if (w.uidx[j] >= 0) {
      dfrom(&v, w.curu[j]);
      fprintf(f, "U%d L ", j);
      dprint(f, &v);
      fprintf(f, " 1 %d 1\n", j);
    }
  }
  /* rows: count entries per row from the CSC */
  {
    int *rcnt = calloc((size_t)mr + 1, sizeof(int));
    int *rbeg = calloc((size_t)mr + 2, sizeof(int));
    int *rcol = calloc((size_t)nz + 1, sizeof(int));
    int *rpos = calloc((size_t)nz + 1, sizeof(int));
    if (!rcnt || !rbeg || !rcol || !rpos) {
      free(rcnt); free(rbeg); free(rcol); free(rpos);
      goto done;
    }
    for (int p = 0; p < nz; p++) rcnt[w.cidx[p]]++;
    for (int i = 0; i < mr; i++) rbeg[i + 1] = rbeg[i] + rcnt[i];
    memcpy(rcnt, rbeg, (size_t)mr * sizeof(int));
    for (int j = 0; j < n; j++)
      for (int p = w.cbeg[j]; p < w.cbeg[j + 1]; p++) {
        int q = rcnt[w.cidx[p]]++;
        rcol[q] = j;
        rpos[q] = p;
      }
    for (int i = 0; i < mr0; i++) {
      for (int side = 0; side < 2; side++) {
        int ci = side ? w.rL[i] : w.rG[i];
        if (ci < 0 || (side && w.rL[i] == w.rG[i])) continue;
        const char *sense = w.rL[i] == w.rG[i] ? "E" : side ? "L" : "G";
        fprintf(f, "R%d%s %s ", i, w.rL[i] == w.rG[i] ? "" : side ? "u" : "l", sense);
        dprint(f, side ? &w.rh[i] : &w.rl[i]);
        fprintf(f, " %d", rbeg[i + 1] - rbeg[i]);
        for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
          fprintf(f, "  %d ", rcol[q]);
          dprint(f, &w.aval[rpos[q]]);
        }
        fputc('\n', f);
      }
    }
    /* SOL: exactly feasible incumbent (choose_sol), else none */
    int solok = w.solok;
    dec solobj = w.solobj;
    if (m->status == TWILL_ILP_OPTIMAL && m->has_sol) {
      dec *xv = w.solx;
      if (w.solidx >= 0 && (!solok || !w.bestok)) {
        /* the fixings' cutoff must be the SOL section's */
        free(rcnt); free(rbeg); free(rcol); free(rpos);
        goto done;
      }
      if (m->status == TWILL_ILP_OPTIMAL) {
        if (m->status == TWILL_ILP_OPTIMAL && !overflow) {
          /* RTP */
          dec shown = beta;
          if (w.s < 0) dneg(&shown);
          fprintf(f, "RTP range ");
          if (w.s > 0) {
            dprint(f, &shown);
            fputc(' ', f);
            if (solok) dprint_frac(f, &solobj, &w.solden);
            else if (w.solq) bq_out(f, &w.solqobj, 0);
            else fputs("inf", f);
          } else {
            if (solok) dprint_frac(f, &solobj, &w.solden);
            else if (w.solq) bq_out(f, &w.solqobj, 0);
            else fputs("-inf", f);
            fputc(' ', f);
            dprint(f, &shown);
          }
          fputc('\n', f);
        }
        if (solok) {
          int cnt = 0;
          for (int j = 0; j < n; j++) cnt += dsign(&xv[j]) != 0;
          fprintf(f, "SOL 1\nincumbent %d", cnt);
          for (int j = 0; j < n; j++)
            if (dsign(&xv[j]) != 0) {
              fprintf(f, "  %d ", j);
              dprint_frac(f, &xv[j], &w.solden);
            }
          fputc('\n', f);
        } else if (w.solq) {
          int cnt = 0, err = 0;
          for (int j = 0; j < n; j++) cnt += twill_bq_sign(&w.solq[j]) != 0;
          fprintf(f, "SOL 1\nincumbent %d", cnt);
          for (int j = 0; j < n && !err; j++)
            if (twill_bq_sign(&w.solq[j]) != 0) {
              fprintf(f, "  %d ", j);
              err = bq_out(f, &w.solq[j], 0);
            }
          fputc('\n', f);
          if (err) {
            free(rcnt); free(rbeg); free(rcol); free(rpos);
            goto done;
          }
        } else {
          fprintf(f, "SOL 0\n");
        }
      }
    } else {
      fprintf(f, "RTP infeas\nSOL 0\n");
    }
    free(rcnt); free(rbeg); free(rcol); free(rpos);
  }
  if (overflow) goto done;
  fprintf(f, "DER %d\n", w.nder);
  fwrite(body, 1, bodylen, f);
  ret = ferror(f) ? -1 : 0;
done:
  if (w.out) fclose(w.out);
  free(body);
  free(w.cbeg); free(w.cidx); free(cval); free(w.aval); free(w.cobj); free(w.vl);
  free(w.vu); free(w.r); free(w.rl); free(w.rh); free(w.lidx); free(w.uidx);
  free(w.curl); free(w.curu); free(w.rG); free(w.rL);
  free(w.rbeg); free(w.rcol); free(w.rpos); free(w.solx);
  if (w.solq) {
    twill_bq_free_vec(w.solq, n);
    twill_bq_free(&w.solqobj);
  }
  return ret;
}
