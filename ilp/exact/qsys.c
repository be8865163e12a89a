/* ilp/exact/qsys.c: sparse rational elimination (see qsys.h).
 *
 * Rows are entered as rationals and solved as integer rows over one
 * positive denominator each:  row k  =  (N_k1 .. N_kn | b_k) / d_k.
 * A pivot on row r, column c, with p = N_rc, takes column c out of every
 * other live row k holding it (q = N_kc):
 *
 *     row_k - (q / p) row_r  =  (|p| N_k - sgn(p) q N_r) / (|p| d_k),
 *
 * integer products only (d_r cancels), after which the row's content (the
 * gcd of its numerators, right-hand side and denominator) is divided out.
 * That keeps the numbers at the size of the minors they are (what
 * Bareiss's division does for dense elimination), and costs one gcd per
 * entry only while the content is large: it is usually 1 or small after a
 * few entries, and a gcd with a one-limb number is one short division.
 * Working on reduced rationals instead, as this file first did, paid for
 * four gcds of full-length numbers per entry update.
 *
 * Rows still holding column c are found through crows[c], a list that may
 * hold rows which lost c since (they are skipped).  Back substitution runs
 * the pivot rows last first, in rationals. */
#include "qsys.h"

#include <stdlib.h>
#include <string.h>

#include "../model.h"

typedef struct {
  int col;
  bigq a;
} qent;

typedef struct {
  int col;
  bigz a;
} ent;

typedef struct {
  int qn, qcap;
  qent *qe; /* entries as given (until twill_qs_solve) */
  bigq qrhs;
  int n, cap;
  ent *e; /* integer entries, sorted by column (twill_qs_solve) */
  bigz rhs, den;
  int live, pcol;
} srow;

struct qsys {
  int nr, maxr, nc;
  srow *row;
  int *ccount;             /* live rows holding each column */
  int **crows, *cn, *ccap; /* rows that held each column (stale allowed) */
  int *order, norder;      /* pivot rows, in pivot order */
  int dropped;
  long long work, maxwork; /* limb products of the eliminations so far */
  int maxdigits, too_long;
};

qsys *twill_qs_new(int maxrows, int ncols, int maxdigits, long long maxwork) {
  qsys *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->maxr = maxrows;
  s->nc = ncols;
  s->maxdigits = maxdigits;
  s->maxwork = maxwork;
  s->row = calloc((size_t)maxrows + 1, sizeof(srow));
  s->ccount = calloc((size_t)ncols + 1, sizeof(int));
  s->crows = calloc((size_t)ncols + 1, sizeof(int *));
  s->cn = calloc((size_t)ncols + 1, sizeof(int));
  s->ccap = calloc((size_t)ncols + 1, sizeof(int));
  s->order = calloc((size_t)maxrows + 1, sizeof(int));
  if (!s->row || !s->ccount || !s->crows || !s->cn || !s->ccap || !s->order) {
    twill_qs_free(s);
    return NULL;
  }
  return s;
}

static void row_free(srow *r) {
  for (int k = 0; k < r->qn; k++) twill_bq_free(&r->qe[k].a);
  free(r->qe);
  twill_bq_free(&r->qrhs);
  for (int k = 0; k < r->n; k++) twill_bz_free(&r->e[k].a);
  free(r->e);
  twill_bz_free(&r->rhs);
  twill_bz_free(&r->den);
}

void twill_qs_free(qsys *s) {
  if (!s) return;
  for (int i = 0; s->row && i < s->nr; i++) row_free(&s->row[i]);
  for (int c = 0; s->crows && c < s->nc; c++) free(s->crows[c]);
  free(s->row);
  free(s->ccount);
  free(s->crows);
  free(s->cn);
  free(s->ccap);
  free(s->order);
  free(s);
}

static int crows_push(qsys *s, int c, int r) {
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

int twill_qs_row(qsys *s) {
  if (s->nr >= s->maxr) return -1;
  srow *r = &s->row[s->nr++];
  memset(r, 0, sizeof *r);
  twill_bq_init(&r->qrhs);
  twill_bz_init(&r->rhs);
  twill_bz_init(&r->den);
  r->live = 1;
  r->pcol = -1;
  return 0;
}

bigq *twill_qs_rhs(qsys *s) { return s->nr ? &s->row[s->nr - 1].qrhs : NULL; }

int twill_qs_entry(qsys *s, int col, const bigq *a) {
  if (!s->nr || col < 0 || col >= s->nc) return -1;
  if (!twill_bq_sign(a)) return 0;
  srow *r = &s->row[s->nr - 1];
  if (r->qn == r->qcap) {
    int cap = r->qcap ? 2 * r->qcap : 4;
    qent *e = realloc(r->qe, (size_t)cap * sizeof(qent));
    if (!e) return -1;
    r->qe = e;
    r->qcap = cap;
  }
  qent *e = &r->qe[r->qn++];
  e->col = col;
  twill_bq_init(&e->a);
  return twill_bq_copy(&e->a, a);
}

int twill_qs_dropped(const qsys *s) { return s->dropped; }

static int cmp_qent(const void *x, const void *y) {
  int a = ((const qent *)x)->col, b = ((const qent *)y)->col;
  return (a > b) - (a < b);
}

static int den_of(bigz *out, const bigq *q) {
  return q->den.n ? twill_bz_copy(out, &q->den) : twill_bz_set_ll(out, 1);
}

/* out = v * (L / den(v)), an integer */
static int scale_to(bigz *out, const bigq *v, const bigz *L, bigz *t) {
  return den_of(t, v) || twill_bz_divmod(t, NULL, L, t) || twill_bz_mul(out, &v->num, t);
}

/* Row i in integer form: d = lcm of the denominators, entries sorted by
 * column (a column twice is an error), indexed in crows. */
static int to_integer_row(qsys *s, int i) {
  srow *r = &s->row[i];
  bigz t, g;
  twill_bz_init(&t);
  twill_bz_init(&g);
  int ret = -1;
  qsort(r->qe, (size_t)r->qn, sizeof(qent), cmp_qent);
  for (int k = 1; k < r->qn; k++)
    if (r->qe[k].col == r->qe[k - 1].col) goto done;
  if (twill_bz_set_ll(&r->den, 1) || den_of(&t, &r->qrhs) || twill_bz_gcd(&g, &r->den, &t) ||
      twill_bz_divmod(&t, NULL, &t, &g) || twill_bz_mul(&r->den, &r->den, &t))
    goto done;
  for (int k = 0; k < r->qn; k++)
    if (den_of(&t, &r->qe[k].a) || twill_bz_gcd(&g, &r->den, &t) || twill_bz_divmod(&t, NULL, &t, &g) ||
        twill_bz_mul(&r->den, &r->den, &t))
      goto done;
  r->e = calloc((size_t)r->qn + 1, sizeof(ent));
  if (!r->e) goto done;
  r->cap = r->qn;
  if (scale_to(&r->rhs, &r->qrhs, &r->den, &t)) goto done;
  for (int k = 0; k < r->qn; k++) {
    ent *e = &r->e[r->n];
    e->col = r->qe[k].col;
    twill_bz_init(&e->a);
    r->n++;
    if (scale_to(&e->a, &r->qe[k].a, &r->den, &t) || crows_push(s, e->col, i)) goto done;
    s->ccount[e->col]++;
  }
  ret = 0;
done:
  for (int k = 0; k < r->qn; k++) twill_bq_free(&r->qe[k].a);
  free(r->qe);
  r->qe = NULL;
  r->qn = r->qcap = 0;
  twill_bz_free(&t);
  twill_bz_free(&g);
  return ret;
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

/* divide row k by the gcd of its numbers (den > 0 stays positive) */
static int remove_content(qsys *s, srow *a) {
  bigz g, one;
  twill_bz_init(&g);
  twill_bz_init(&one);
  int ret = -1;
  if (twill_bz_set_ll(&one, 1) || twill_bz_gcd(&g, &a->den, &a->rhs)) goto done;
  for (int k = 0; k < a->n && twill_bz_cmp(&g, &one) != 0; k++)
    if (twill_bz_gcd(&g, &g, &a->e[k].a)) goto done;
  if (twill_bz_cmp(&g, &one) != 0) {
    if (twill_bz_divmod(&a->den, NULL, &a->den, &g) || twill_bz_divmod(&a->rhs, NULL, &a->rhs, &g))
      goto done;
    for (int k = 0; k < a->n; k++)
      if (twill_bz_divmod(&a->e[k].a, NULL, &a->e[k].a, &g)) goto done;
  }
  for (int k = 0; k < a->n; k++)
    if (twill_bz_digits(&a->e[k].a) + twill_bz_digits(&a->den) > s->maxdigits) s->too_long = 1;
  ret = 0;
done:
  twill_bz_free(&g);
  twill_bz_free(&one);
  return ret;
}

/* row k = |p| row k - sgn(p) q row r, p = N_rc, q = N_kc (both sorted);
 * keeps the column counts and lists.  Column c cancels exactly. */
static int row_update(qsys *s, int k, int r, int c, const bigz *p, const bigz *q) {
  srow *a = &s->row[k];
  const srow *b = &s->row[r];
  int cap = a->n + b->n, n = 0, i = 0, j = 0, ret = -1;
  bigz pa, mq, t;
  twill_bz_init(&pa);
  twill_bz_init(&mq);
  twill_bz_init(&t);
  ent *e = calloc((size_t)(cap ? cap : 1), sizeof(ent));
  if (!e || twill_bz_copy(&pa, p) || twill_bz_copy(&mq, q)) goto fail;
  pa.neg = 0;                                  /* |p| */
  mq.neg = mq.n ? !(q->neg != p->neg) : 0;     /* -sgn(p) q */
  while (i < a->n || j < b->n) {
    int ca = i < a->n ? a->e[i].col : -1, cb = j < b->n ? b->e[j].col : -1;
    if (cb < 0 || (ca >= 0 && ca < cb)) { /* |p| N_kj */
      e[n] = a->e[i++];
      s->work += (long long)e[n].a.n * pa.n;
      if (twill_bz_mul(&e[n].a, &e[n].a, &pa)) { n++; goto fail; }
      n++;
    } else if (ca < 0 || cb < ca) { /* -sgn(p) q N_rj */
      e[n].col = cb;
      twill_bz_init(&e[n].a);
      s->work += (long long)b->e[j].a.n * mq.n;
      if (twill_bz_mul(&e[n].a, &mq, &b->e[j].a) || crows_push(s, cb, k)) { n++; goto fail; }
      s->ccount[cb]++;
      n++, j++;
    } else {
      e[n] = a->e[i++];
      s->work += (long long)e[n].a.n * pa.n + (long long)b->e[j].a.n * mq.n;
      if (twill_bz_mul(&e[n].a, &e[n].a, &pa) || twill_bz_mul(&t, &mq, &b->e[j++].a) ||
          twill_bz_add(&e[n].a, &e[n].a, &t)) {
        n++;
        goto fail;
      }
      if (twill_bz_sign(&e[n].a) == 0) {
        twill_bz_free(&e[n].a);
        s->ccount[ca]--;
      } else {
        n++;
      }
    }
  }
  free(a->e);
  a->e = e;
  a->n = n;
  a->cap = cap;
  if (twill_bz_mul(&a->rhs, &a->rhs, &pa) || twill_bz_mul(&t, &mq, &b->rhs) || twill_bz_add(&a->rhs, &a->rhs, &t) ||
      twill_bz_mul(&a->den, &a->den, &pa))
    goto done;
  (void)c;
  ret = remove_content(s, a);
  goto done;
fail: /* entries e[0..n) are row k's now; the unread rest of row k too */
  if (e) {
    for (; i < a->n; i++) e[n++] = a->e[i];
    free(a->e);
    a->e = e;
    a->n = n;
    a->cap = cap;
  }
done:
  twill_bz_free(&pa);
  twill_bz_free(&mq);
  twill_bz_free(&t);
  return ret;
}

/* Markowitz's rule: the entry of a live row that minimizes
 * (entries in its row - 1) (live rows holding its column - 1), the fill
 * a pivot there can make at most; ties to the shortest number.  (Empty
 * rows die here.)  Taking the shortest row first instead, as this file
 * first did, made perold's and stair's eliminations 2 to 3 times slower. */
static int pick(qsys *s, int *pc) {
  int best = -1, bk = -1;
  long bm = -1;
  for (int i = 0; i < s->nr; i++) {
    srow *r = &s->row[i];
    if (!r->live) continue;
    if (r->n == 0) {
      r->live = 0;
      s->dropped++;
      continue;
    }
    for (int k = 0; k < r->n; k++) {
      long mk = (long)(r->n - 1) * (s->ccount[r->e[k].col] - 1);
      if (bm < 0 || mk < bm || (mk == bm && twill_bz_digits(&r->e[k].a) < twill_bz_digits(&s->row[best].e[bk].a))) {
        bm = mk; best = i; bk = k;
      }
    }
  }
  if (best < 0) return -1;
  *pc = bk;
  return best;
}

/* eliminate the pivot's column from every other live row */
static int eliminate(qsys *s, int r, int k) {
  srow *p = &s->row[r];
  int c = p->e[k].col, ret = 0;
  p->live = 0;
  p->pcol = c;
  s->order[s->norder++] = r;
  for (int q = 0; q < p->n; q++) s->ccount[p->e[q].col]--;
  for (int q = 0; q < s->cn[c] && !ret && !s->too_long; q++) {
    int i = s->crows[c][q];
    if (i == r || !s->row[i].live) continue;
    int at = row_find(&s->row[i], c);
    if (at < 0) continue; /* stale: cancelled earlier */
    bigz qv;
    twill_bz_init(&qv);
    ret = twill_bz_copy(&qv, &s->row[i].e[at].a);
    if (!ret) ret = row_update(s, i, r, c, &p->e[k].a, &qv);
    twill_bz_free(&qv);
  }
  return ret;
}

/* x_c = (b - sum_{j != c} N_j x_j) / N_c over the pivot rows, last first
 * (the row's denominator cancels) */
static int back_substitute(qsys *s, bigq *val) {
  bigq t, a;
  twill_bq_init(&t);
  twill_bq_init(&a);
  int ret = 0;
  for (int q = s->norder - 1; q >= 0 && !ret; q--) {
    const srow *r = &s->row[s->order[q]];
    const bigz *piv = NULL;
    twill_bq_free(&t);
    ret = twill_bz_copy(&t.num, &r->rhs);
    for (int k = 0; k < r->n && !ret; k++) {
      if (r->e[k].col == r->pcol) { piv = &r->e[k].a; continue; }
      twill_bq_free(&a);
      ret = twill_bz_copy(&a.num, &r->e[k].a);
      if (!ret) a.num.neg = a.num.n ? !a.num.neg : 0;
      if (!ret) ret = twill_bq_addmul(&t, &t, &a, &val[r->e[k].col]);
    }
    if (!ret && !piv) ret = -1;
    if (!ret) {
      twill_bq_free(&a);
      ret = twill_bz_copy(&a.num, piv);
    }
    if (!ret) ret = twill_bq_div(&val[r->pcol], &t, &a);
  }
  twill_bq_free(&t);
  twill_bq_free(&a);
  return ret;
}

int twill_qs_solve(qsys *s, bigq *val) {
  for (int i = 0; i < s->nr; i++)
    if (to_integer_row(s, i)) return -1;
  for (;;) {
    int k, r = pick(s, &k);
    if (r < 0) break;
    if (eliminate(s, r, k)) return -1;
    if (s->too_long || s->work > s->maxwork) return 0;
  }
  return back_substitute(s, val) ? -1 : 1;
}

int twill_qs_from_double(bigq *q, double x) {
  char buf[64];
  twill_ilp_shortest(buf, sizeof buf, x);
  return twill_bq_parse(q, buf) ? -1 : 0; /* (finite doubles always parse) */
}
