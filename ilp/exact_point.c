/* ilp/exact_point.c: an exact rational point beside the incumbent.
 *
 * Why: a certificate's SOL point must satisfy every row exactly.  The
 * incumbent of a mixed model is a floating-point vertex; where its
 * continuous values are neither short decimals nor small fractions
 * (gesa2, misc06: vertices of rows like 10.65 x - y = 0), no rounding of
 * them is exact.  The exact vertex is: fix the integers and the
 * continuous variables at a bound, and solve the rows that hold with
 * equality for the rest,
 *
 *      A_TF x_F = b_T - A_TN x_N        (T tight rows, F free columns),
 *
 * in rational arithmetic.  Elimination picks the shortest live row and in
 * it the column held by the fewest live rows (a unit coefficient first),
 * so the mostly +-1 rows of these models stay sparse and their numbers
 * short.  Columns no pivot claims keep their decimals; rows left empty
 * are dropped (the caller's exact check decides about them). */
#include "exact_point.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigq.h"

typedef struct {
  int col;
  bigq a;
} ent;

typedef struct {
  int n, cap;
  ent *e; /* sorted by col */
  bigq rhs;
  int live, pcol;
} srow;

typedef struct {
  int nr, nf;
  srow *row;
  int *ccount;       /* live rows holding each free column */
  int **crows, *cn, *ccap; /* rows that held each column (stale allowed) */
  int *order, norder; /* pivot rows, in pivot order */
  long work;          /* entries merged so far (EP_WORK caps it) */
  int maxdigits, too_long;
} sys;

/* The elimination's budget: a dense or ill-conditioned system would make
 * the rationals grow without bound and the writer take minutes; past this
 * many merged entries (or past maxdigits in one number, which elimination
 * does not shrink) the point is given up, never the certificate. */
#define EP_WORK 20000000L

/* the shortest %.Ng that reads back to x: the certificate's decimal */
static int q_from_double(bigq *q, double x) {
  char buf[64];
  ilp_shortest(buf, sizeof buf, x);
  int r = bq_parse(q, buf);
  return r == -2 ? -1 : r; /* finite doubles always parse */
}

static int q_is_unit(const bigq *q) {
  const bigz *p = &q->num, *d = &q->den;
  return p->n == 1 && p->d[0] == 1 && (d->n == 0 || (d->n == 1 && d->d[0] == 1));
}

static int crows_push(sys *s, int c, int r) {
  if (s->cn[c] == s->ccap[c]) {
    int cap = s->ccap[c] ? 2 * s->ccap[c] : 4;
    int *p = realloc(s->crows[c], (size_t)cap * sizeof(int));
    if (!p) return -1;
    s->crows[c] = p;
    s->ccap[c] = cap;
  }
  s->crows[c][s->cn[c]++] = r;
  return 0;
}

static void row_free(srow *r) {
  for (int k = 0; k < r->n; k++) bq_free(&r->e[k].a);
  free(r->e);
  bq_free(&r->rhs);
}

static void sys_free(sys *s) {
  for (int i = 0; i < s->nr; i++) row_free(&s->row[i]);
  for (int c = 0; s->crows && c < s->nf; c++) free(s->crows[c]);
  free(s->row);
  free(s->ccount);
  free(s->crows);
  free(s->cn);
  free(s->ccap);
  free(s->order);
}

/* position of column c in row r, or -1 */
static int row_find(const srow *r, int c) {
  int lo = 0, hi = r->n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (r->e[mid].col == c) return mid;
    if (r->e[mid].col < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* row k += f * row r (both sorted); keeps the column counts and lists.
 * The merged entries take over row k's numbers where they stay. */
static int row_axpy(sys *s, int k, const bigq *f, int r) {
  srow *a = &s->row[k];
  const srow *b = &s->row[r];
  int cap = a->n + b->n, n = 0, i = 0, j = 0;
  ent *e = malloc((size_t)(cap ? cap : 1) * sizeof(ent));
  if (!e) return -1;
  s->work += cap;
  while (i < a->n || j < b->n) {
    int ca = i < a->n ? a->e[i].col : -1, cb = j < b->n ? b->e[j].col : -1;
    if (cb < 0 || (ca >= 0 && ca < cb)) {
      e[n++] = a->e[i++];
    } else if (ca < 0 || cb < ca) {
      e[n].col = cb;
      bq_init(&e[n].a);
      if (bq_mul(&e[n].a, f, &b->e[j].a) || crows_push(s, cb, k)) {
        bq_free(&e[n].a);
        goto oom;
      }
      s->ccount[cb]++;
      n++, j++;
    } else {
      e[n] = a->e[i++];
      if (bq_addmul(&e[n].a, &e[n].a, f, &b->e[j++].a)) { n++; goto oom; }
      if (bq_sign(&e[n].a) == 0) {
        bq_free(&e[n].a);
        s->ccount[ca]--;
      } else {
        if (bz_digits(&e[n].a.num) + bz_digits(&e[n].a.den) > s->maxdigits) s->too_long = 1;
        n++;
      }
    }
  }
  free(a->e);
  a->e = e;
  a->n = n;
  a->cap = cap;
  return bq_addmul(&a->rhs, &a->rhs, f, &b->rhs);
oom: /* entries e[0..n) are row k's now; the unread rest of row k too */
  for (; i < a->n; i++) e[n++] = a->e[i];
  free(a->e);
  a->e = e;
  a->n = n;
  a->cap = cap;
  return -1;
}

/* the live row with the fewest entries (empty ones die here), and in it
 * the column held by the fewest live rows, a unit coefficient first */
static int pick(sys *s, int *pc) {
  int best = -1;
  for (int i = 0; i < s->nr; i++) {
    srow *r = &s->row[i];
    if (!r->live) continue;
    if (r->n == 0) { r->live = 0; continue; }
    if (best < 0 || r->n < s->row[best].n) best = i;
  }
  if (best < 0) return -1;
  const srow *r = &s->row[best];
  int bk = 0;
  for (int k = 1; k < r->n; k++) {
    int c = r->e[k].col, bc = r->e[bk].col;
    int u = q_is_unit(&r->e[k].a), bu = q_is_unit(&r->e[bk].a);
    if (u > bu || (u == bu && s->ccount[c] < s->ccount[bc])) bk = k;
  }
  *pc = bk;
  return best;
}

/* eliminate the pivot's column from every other live row */
static int eliminate(sys *s, int r, int k) {
  srow *p = &s->row[r];
  int c = p->e[k].col;
  bigq f, t;
  bq_init(&f);
  bq_init(&t);
  int ret = 0;
  p->live = 0;
  p->pcol = c;
  s->order[s->norder++] = r;
  for (int q = 0; q < p->n; q++) s->ccount[p->e[q].col]--;
  for (int q = 0; q < s->cn[c] && !ret; q++) {
    int i = s->crows[c][q];
    if (i == r || !s->row[i].live) continue;
    int at = row_find(&s->row[i], c);
    if (at < 0) continue; /* stale: cancelled earlier */
    /* f = -a_ic / a_rc, so that row i loses column c */
    ret = bq_div(&t, &s->row[i].e[at].a, &p->e[k].a);
    if (!ret) ret = bq_set_ll(&f, 0, 1);
    if (!ret) ret = bq_sub(&f, &f, &t);
    if (!ret) ret = row_axpy(s, i, &f, r);
  }
  bq_free(&f);
  bq_free(&t);
  return ret;
}

/* x_c = (rhs - sum a x) / a_c over the pivot rows, last first */
static int back_substitute(sys *s, const int *fcol, bigq *val) {
  bigq t;
  bq_init(&t);
  int ret = 0;
  for (int q = s->norder - 1; q >= 0 && !ret; q--) {
    const srow *r = &s->row[s->order[q]];
    const bigq *piv = NULL;
    ret = bq_copy(&t, &r->rhs);
    for (int k = 0; k < r->n && !ret; k++) {
      if (r->e[k].col == r->pcol) { piv = &r->e[k].a; continue; }
      bigq neg;
      bq_init(&neg);
      ret = bq_sub(&neg, &neg, &r->e[k].a);
      if (!ret) ret = bq_addmul(&t, &t, &neg, &val[fcol[r->e[k].col]]);
      bq_free(&neg);
    }
    if (!ret) ret = piv ? bq_div(&val[fcol[r->pcol]], &t, piv) : -1;
  }
  bq_free(&t);
  return ret;
}

static int near(double x, double b, double tol) {
  return !isinf(b) && fabs(x - b) <= tol * (1 + fabs(b));
}

/* the starting values: integers rounded, bounds snapped, the rest free
 * (fidx[j] = its free column, or -1) */
static int start_values(const twill_ilp *m, const double *lb, const double *ub, const double *x,
                        double tol, bigq *val, int *fidx, int *fcol, int *nf) {
  *nf = 0;
  for (int j = 0; j < m->n; j++) {
    double v = x[j];
    fidx[j] = -1;
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) v = nearbyint(v);
    else if (near(v, lb[j], tol) || v < lb[j]) v = lb[j];
    else if (near(v, ub[j], tol) || v > ub[j]) v = ub[j];
    else {
      fidx[j] = *nf;
      fcol[(*nf)++] = j;
    }
    if (q_from_double(&val[j], v)) return -1;
  }
  return 0;
}

/* append row i's free part to the system: rhs = side - (fixed part) */
static int add_row(sys *s, const int *rcol, const double *rv, int q0, int q1, double side,
                   const bigq *val, const int *fidx) {
  int id = s->nr++;
  srow *r = &s->row[id];
  bigq a, t;
  int ret = -1;
  memset(r, 0, sizeof *r);
  bq_init(&r->rhs);
  bq_init(&a);
  bq_init(&t);
  r->live = 1;
  r->pcol = -1;
  r->cap = q1 - q0;
  r->e = malloc((size_t)(r->cap ? r->cap : 1) * sizeof(ent));
  if (!r->e || q_from_double(&r->rhs, side)) goto done;
  for (int q = q0; q < q1; q++) { /* columns ascend, so free columns do */
    int j = rcol[q];
    if (rv[q] == 0) continue;
    if (q_from_double(&a, rv[q])) goto done;
    if (fidx[j] < 0) {
      if (bq_mul(&t, &a, &val[j]) || bq_sub(&r->rhs, &r->rhs, &t)) goto done;
      continue;
    }
    ent *e = &r->e[r->n];
    e->col = fidx[j];
    bq_init(&e->a);
    r->n++;
    if (bq_copy(&e->a, &a) || crows_push(s, fidx[j], id)) goto done;
    s->ccount[fidx[j]]++;
  }
  ret = 0;
done:
  bq_free(&a);
  bq_free(&t);
  return ret;
}

/* the rows x makes tight, in the free columns */
static int build_rows(sys *s, const twill_ilp *m, int mrows, const double *x, const bigq *val,
                      const int *fidx, double tol) {
  int *rbeg = NULL, *cbeg = NULL, *cidx = NULL, *rcol = NULL;
  double *cval = NULL, *rv = NULL;
  int ret = -1, nz;
  if (!ilp_build_csc(m, &cbeg, &cidx, &cval)) return -1;
  nz = cbeg[m->n];
  rbeg = calloc((size_t)m->m + 2, sizeof(int));
  rcol = malloc(((size_t)nz + 1) * sizeof(int));
  rv = malloc(((size_t)nz + 1) * sizeof(double));
  if (!rbeg || !rcol || !rv) goto done;
  ilp_csc_transpose(m->n, m->m, cbeg, cidx, cval, rbeg, rcol, rv);
  for (int i = 0; i < mrows; i++) {
    double act = 0, side;
    int nfree = 0;
    for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
      act += rv[q] * x[rcol[q]];
      nfree += fidx[rcol[q]] >= 0;
    }
    if (!nfree) continue;
    double lo = m->rlo[i], hi = m->rhi[i];
    if (lo == hi || (!isinf(lo) && act <= lo + 10 * tol * (1 + fabs(lo)))) side = lo;
    else if (!isinf(hi) && act >= hi - 10 * tol * (1 + fabs(hi))) side = hi;
    else continue;
    if (add_row(s, rcol, rv, rbeg[i], rbeg[i + 1], side, val, fidx)) goto done;
  }
  ret = 0;
done:
  free(rbeg);
  free(rcol);
  free(rv);
  free(cbeg);
  free(cidx);
  free(cval);
  return ret;
}

static int den_of(bigz *out, const bigq *q) {
  return q->den.n ? bz_copy(out, &q->den) : bz_set_ll(out, 1);
}

/* D = lcm of the denominators; num[j] = x_j D.  0 when too long. */
static int common_denominator(int n, const bigq *val, int maxdigits, char **num, char **den) {
  bigz D, g, t;
  int ret = -1;
  bz_init(&D);
  bz_init(&g);
  bz_init(&t);
  if (bz_set_ll(&D, 1)) goto done;
  for (int j = 0; j < n; j++) {
    if (den_of(&t, &val[j]) || bz_gcd(&g, &D, &t) || bz_divmod(&t, NULL, &t, &g) ||
        bz_mul(&D, &D, &t))
      goto done;
    if (bz_digits(&D) > maxdigits) { ret = 0; goto done; }
  }
  for (int j = 0; j < n; j++) {
    if (den_of(&t, &val[j]) || bz_divmod(&t, NULL, &D, &t) || bz_mul(&t, &t, &val[j].num))
      goto done;
    if (bz_digits(&t) > maxdigits) { ret = 0; goto done; }
    if (!(num[j] = bz_str(&t))) goto done;
  }
  if (!(*den = bz_str(&D))) goto done;
  ret = 1;
done:
  bz_free(&D);
  bz_free(&g);
  bz_free(&t);
  return ret;
}

int ilp_exact_point(const twill_ilp *m, int mrows, const double *lb, const double *ub,
                    const double *x, double tol, int maxdigits, char ***num, char **den) {
  int n = m->n, nf = 0, ret = -1;
  sys s;
  memset(&s, 0, sizeof s);
  *num = NULL;
  *den = NULL;
  bigq *val = calloc((size_t)n + 1, sizeof(bigq));
  int *fidx = malloc(((size_t)n + 1) * sizeof(int));
  int *fcol = malloc(((size_t)n + 1) * sizeof(int));
  char **out = calloc((size_t)n + 1, sizeof(char *));
  if (!val || !fidx || !fcol || !out) goto done;
  for (int j = 0; j < n; j++) bq_init(&val[j]);
  if (start_values(m, lb, ub, x, tol, val, fidx, fcol, &nf)) goto done;
  s.nf = nf;
  s.row = calloc((size_t)mrows + 1, sizeof(srow));
  s.ccount = calloc((size_t)nf + 1, sizeof(int));
  s.crows = calloc((size_t)nf + 1, sizeof(int *));
  s.cn = calloc((size_t)nf + 1, sizeof(int));
  s.ccap = calloc((size_t)nf + 1, sizeof(int));
  s.order = calloc((size_t)mrows + 1, sizeof(int));
  if (!s.row || !s.ccount || !s.crows || !s.cn || !s.ccap || !s.order) goto done;
  if (build_rows(&s, m, mrows, x, val, fidx, tol)) goto done;
  s.maxdigits = maxdigits;
  for (;;) {
    int k, r = pick(&s, &k);
    if (r < 0) break;
    if (eliminate(&s, r, k)) goto done;
    if (s.too_long || s.work > EP_WORK) { ret = 0; goto done; }
  }
  if (back_substitute(&s, fcol, val)) goto done;
  ret = common_denominator(n, val, maxdigits, out, den);
  if (ret == 1) {
    *num = out;
    out = NULL;
  }
done:
  if (out)
    for (int j = 0; j < n; j++) free(out[j]);
  free(out);
  if (val)
    for (int j = 0; j < n; j++) bq_free(&val[j]);
  free(val);
  free(fidx);
  free(fcol);
  sys_free(&s);
  return ret;
}

void ilp_exact_point_free(int n, char **num, char *den) {
  if (num)
    for (int j = 0; j < n; j++) free(num[j]);
  free(num);
  free(den);
}
