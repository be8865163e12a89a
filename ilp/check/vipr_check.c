/* ilp/check/vipr_check.c: a streaming checker for VIPR 1.0/1.1 certificates.
 *
 * A certificate states a MIP   min/max c^T x  s.t.  C_0 .. C_{m-1},
 * x_j integer for j in INT, a relation to prove (infeasible, or optimal
 * value in [lb, ub]), some solutions, and a list of derived constraints
 * C_m, C_{m+1}, ... each with a reason.  Every derived constraint C_k
 * carries a set A_k of assumption indices with the meaning
 *
 *     every x feasible for the MIP that satisfies all C_a, a in A_k,
 *     satisfies C_k                                          (*)
 *
 * (for `sol`, "feasible" is read as "feasible and strictly better than the
 * best solution given", see check_sol).  Each reason below keeps (*):
 *
 *   asm   C_k is assumed: A_k = {k}; (*) is trivial.
 *   lin   sum_i lam_i C_i with lam_i s(C_i) all >= 0 or all <= 0
 *         (s = +1 for >=, -1 for <=, 0 for =) is a valid constraint
 *         (a nonnegative combination of >= rows is >=; flipping all signs
 *         gives <=; equalities take any sign).  It must dominate C_k:
 *         either it is an absurdity (0 >= b > 0, 0 <= b < 0, 0 = b != 0:
 *         then no x satisfies the premises and anything follows), or it
 *         has the same left-hand side and a right-hand side at least as
 *         strong.  A_k = union of the A_i.
 *   rnd   as lin, and the combination a^T x (sense) b must have integer a_j,
 *         nonzero only on integer variables; then a^T x is an integer at
 *         every feasible x, so b may be rounded: ceil(b) for >=, floor(b)
 *         for <= (a Chvatal-Gomory cut).
 *   uns   C_i1 and C_i2 both dominate C_k; C_l1, C_l2 are a^T x <= beta and
 *         a^T x >= beta + 1 with a integral on integer variables and beta
 *         an integer, so every feasible x satisfies one of them.  Then
 *         A_k = (A_i1 \ {l1}) u (A_i2 \ {l2}).
 *   sol   the objective cutoff c^T x <= v (min; >= for max) where v is the
 *         best solution value, minus 1 (plus 1 for max) when c is integral
 *         on integer variables only.  A_k is empty.
 *
 * Goal: RTP infeas: the last derived constraint is an absurdity with
 * A = {}.  RTP range lb ub (min): the last derived constraint has A = {}
 * and dominates c^T x >= lb; some solution has value <= ub (for max: <= ub
 * proved, a solution >= lb).  Because `sol` only speaks about improving
 * points, we also require lb <= best value (ub >= best for max): with it
 * the proof covers every feasible point, improving or not.
 *
 * The input is read once, token by token; derived constraints are dropped
 * after their declared last use.  Errors are reported as
 * "file:line:col: message" at the token (or derivation) at fault.
 */
#include "twill/vipr.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vipr_num.h"

typedef struct { int j; vipr_q v; } term;
/* sorted by j, no zeros; `borrowed`: t is the objective's (not owned), so
 * constraints written with the OBJ keyword cost no memory of their own */
typedef struct { int nnz; term *t; int borrowed; } svec;

typedef struct {
  char *name;
  int sense; /* +1 G (>=), -1 L (<=), 0 E (=) */
  vipr_q rhs;
  svec a;
  int nasm, *asmv; /* sorted assumption indices */
  long long last_use;
  int alive;
} con;

typedef struct {
  /* input */
  const char *file;
  FILE *f;
  const char *mem;
  size_t len, pos;
  char *fbuf;
  int la;        /* lookahead character, -2 when not loaded */
  int line, col; /* position of the lookahead */
  char *tok;
  size_t toklen;
  int tline, tcol; /* position of the current token */
  int gline, gcol; /* position of the last derivation's reason */
  long long limit; /* no count may exceed the input's size */
  int failed;
  char err[512];
  /* the problem */
  int n;
  unsigned char *is_int;
  int obj_min, obj_integral;
  svec obj;
  int m, rtp_infeas, has_lb, has_ub, has_best;
  vipr_q lb, ub, best;
  con *cons;
  int ncons, capcons;
  int *stamp; /* stamp[i] == k+1: constraint i already used by derivation k */
  /* scratch: a dense accumulator for combinations, lists */
  vipr_q *acc;
  unsigned char *used;
  int *touched, ntouched;
  int *abuf, nabuf, capabuf;
  int *refs, nrefs, caprefs;
} ck;

/* ---------------------------------------------------------------- input */

static int fail_at(ck *c, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail_at(ck *c, int line, int col, const char *fmt, ...) {
  if (c->failed) return -1;
  c->failed = 1;
  int k = snprintf(c->err, sizeof c->err, "%s:%d:%d: ", c->file, line, col);
  if (k < 0 || (size_t)k >= sizeof c->err) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err + k, sizeof c->err - (size_t)k, fmt, ap);
  va_end(ap);
  return -1;
}
#define FAIL(c, ...) fail_at((c), (c)->tline, (c)->tcol, __VA_ARGS__)

static int peekc(ck *c) {
  if (c->la != -2) return c->la;
  if (c->f) {
    if (c->pos == c->len) {
      c->len = fread(c->fbuf, 1, 65536, c->f);
      c->pos = 0;
    }
    c->la = c->pos < c->len ? (unsigned char)c->fbuf[c->pos++] : EOF;
  } else {
    c->la = c->pos < c->len ? (unsigned char)c->mem[c->pos++] : EOF;
  }
  return c->la;
}

static void advance(ck *c) {
  if (c->la == '\n') { c->line++; c->col = 1; } else { c->col++; }
  c->la = -2;
}

static int is_space(int ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
         ch == '\v';
}

/* Next token: 1, 0 at end of input, -1 on error.  Tokens are separated by
 * white space; `{` and `}` are tokens by themselves; `%` starts a comment
 * that runs to the end of the line. */
static int next(ck *c) {
  int ch;
  for (;;) {
    ch = peekc(c);
    if (ch == '%') {
      while ((ch = peekc(c)) != EOF && ch != '\n') advance(c);
    } else if (ch != EOF && is_space(ch)) {
      advance(c);
    } else {
      break;
    }
  }
  c->tline = c->line;
  c->tcol = c->col;
  c->toklen = 0;
  c->tok[0] = 0;
  if (ch == EOF) return 0;
  if (ch == '{' || ch == '}') {
    c->tok[c->toklen++] = (char)ch;
    advance(c);
  } else {
    while ((ch = peekc(c)) != EOF && !is_space(ch) && ch != '{' && ch != '}' &&
           ch != '%') {
      if (ch == 0) return FAIL(c, "NUL byte in certificate");
      if (c->toklen == VIPR_NUM_MAX_CHARS)
        return FAIL(c, "token longer than %d characters", VIPR_NUM_MAX_CHARS);
      c->tok[c->toklen++] = (char)ch;
      advance(c);
    }
  }
  c->tok[c->toklen] = 0;
  return 1;
}

static int need(ck *c, const char *what) {
  int r = next(c);
  if (r < 0) return -1;
  if (r == 0) return FAIL(c, "unexpected end of file, expected %s", what);
  return 0;
}

static int expect(ck *c, const char *kw) {
  if (need(c, kw)) return -1;
  if (strcmp(c->tok, kw)) return FAIL(c, "expected '%s', found '%.40s'", kw, c->tok);
  return 0;
}

/* The current token as an integer in [lo, hi]. */
static int tok_int(ck *c, long long lo, long long hi, long long *out,
                   const char *what) {
  const char *s = c->tok;
  int neg = *s == '-';
  if (neg) s++;
  long long v = 0;
  int ok = *s != 0;
  for (; *s && ok; s++) {
    if (*s < '0' || *s > '9' || v > (LLONG_MAX - 9) / 10) ok = 0;
    else v = v * 10 + (*s - '0');
  }
  if (neg) v = -v;
  if (!ok || v < lo || v > hi)
    return FAIL(c, "%s must be an integer in [%lld, %lld], found '%.40s'", what,
                lo, hi, c->tok);
  *out = v;
  return 0;
}

static int read_int(ck *c, long long lo, long long hi, long long *out,
                    const char *what) {
  if (need(c, what)) return -1;
  return tok_int(c, lo, hi, out, what);
}

static int read_value(ck *c, vipr_q *q, const char *what) {
  if (need(c, what)) return -1;
  if (twill_vipr_q_parse(q, c->tok, c->toklen))
    return FAIL(c, "malformed number '%.40s' for %s", c->tok, what);
  return 0;
}

/* ------------------------------------------------------- sparse vectors */

static void svec_free(svec *v) {
  if (v->borrowed) { memset(v, 0, sizeof *v); return; }
  for (int i = 0; i < v->nnz; i++) twill_vipr_q_free(&v->t[i].v);
  free(v->t);
  v->t = NULL;
  v->nnz = 0;
}

/* 1 if equal; otherwise 0 with *diff the first variable that differs. */
static int svec_equal(const svec *a, const svec *b, int *diff) {
  int i = 0, k = 0;
  while (i < a->nnz || k < b->nnz) {
    int ja = i < a->nnz ? a->t[i].j : INT_MAX, jb = k < b->nnz ? b->t[k].j : INT_MAX;
    if (ja != jb || twill_vipr_q_cmp(&a->t[i].v, &b->t[k].v) != 0) {
      *diff = ja < jb ? ja : jb;
      return 0;
    }
    i++;
    k++;
  }
  return 1;
}

static int cmp_term(const void *x, const void *y) {
  int a = ((const term *)x)->j, b = ((const term *)y)->j;
  return (a > b) - (a < b);
}

static int cmp_int(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

/* "k  j1 v1 ... jk vk" (or, if allow_obj, the keyword OBJ). */
static int read_lin(ck *c, svec *v, int allow_obj, const char *what) {
  memset(v, 0, sizeof *v);
  if (need(c, what)) return -1;
  if (allow_obj && !strcmp(c->tok, "OBJ")) {
    *v = c->obj;
    v->borrowed = 1;
    return 0;
  }
  long long k;
  if (tok_int(c, 0, c->n, &k, "number of coefficients")) return -1;
  v->t = calloc((size_t)k + 1, sizeof *v->t);
  if (!v->t) return FAIL(c, "out of memory");
  for (long long i = 0; i < k; i++) {
    long long j;
    if (read_int(c, 0, (long long)c->n - 1, &j, "variable index")) return -1;
    v->t[i].j = (int)j;
    twill_vipr_q_init(&v->t[i].v);
    v->nnz++;
    if (read_value(c, &v->t[i].v, "coefficient")) return -1;
  }
  qsort(v->t, (size_t)v->nnz, sizeof *v->t, cmp_term);
  int w = 0;
  for (int i = 0; i < v->nnz; i++) {
    if (i > 0 && v->t[i].j == v->t[i - 1].j)
      return FAIL(c, "variable %d appears twice in %s", v->t[i].j, what);
    if (twill_vipr_q_sgn(&v->t[i].v) == 0) { twill_vipr_q_free(&v->t[i].v); continue; }
    v->t[w++] = v->t[i];
  }
  v->nnz = w;
  return 0;
}

/* ----------------------------------------------------------- constraints */

static void con_free(con *k) {
  free(k->name);
  twill_vipr_q_free(&k->rhs);
  svec_free(&k->a);
  free(k->asmv);
  k->name = NULL;
  k->asmv = NULL;
  k->nasm = 0;
  k->alive = 0;
}

/* "name sense rhs lin" */
static int read_con(ck *c, con *k) {
  memset(k, 0, sizeof *k);
  twill_vipr_q_init(&k->rhs);
  k->last_use = -1;
  k->alive = 1;
  if (need(c, "constraint name")) return -1;
  k->name = strdup(c->tok);
  if (!k->name) return FAIL(c, "out of memory");
  if (need(c, "sense")) return -1;
  if (!strcmp(c->tok, "E")) k->sense = 0;
  else if (!strcmp(c->tok, "L")) k->sense = -1;
  else if (!strcmp(c->tok, "G")) k->sense = 1;
  else return FAIL(c, "sense must be E, L or G, found '%.40s'", c->tok);
  if (read_value(c, &k->rhs, "right-hand side")) return -1;
  return read_lin(c, &k->a, 1, "constraint");
}

static int push_con(ck *c, con *k) {
  if (c->ncons == c->capcons) {
    int cap = c->capcons ? 2 * c->capcons : 16;
    con *p = realloc(c->cons, (size_t)cap * sizeof *p);
    if (!p) return FAIL(c, "out of memory");
    c->cons = p;
    int *s = realloc(c->stamp, (size_t)cap * sizeof *s);
    if (!s) return FAIL(c, "out of memory");
    memset(s + c->capcons, 0, (size_t)(cap - c->capcons) * sizeof *s);
    c->stamp = s;
    c->capcons = cap;
  }
  c->cons[c->ncons++] = *k;
  memset(k, 0, sizeof *k);
  return 0;
}

static const char *sense_str(int s) { return s > 0 ? ">=" : s < 0 ? "<=" : "="; }

/* 0 >= b > 0, 0 <= b < 0 or 0 = b != 0 */
static int absurd(int sense, const vipr_q *rhs, const svec *a) {
  int s = twill_vipr_q_sgn(rhs);
  return a->nnz == 0 && ((sense >= 0 && s > 0) || (sense <= 0 && s < 0));
}

static int cmpq(ck *c, const vipr_q *a, const vipr_q *b, int *out) {
  int k = twill_vipr_q_cmp(a, b);
  if (k == 2) return FAIL(c, "numbers too large to compare");
  *out = k;
  return 0;
}

/* Does (sense, rhs, a) dominate constraint s?  0 yes, else a diagnostic
 * (at line, col) naming `what` as the dominating side. */
static int dominates(ck *c, int line, int col, const char *what, int sense,
                     const vipr_q *rhs, const svec *a, const con *s) {
  if (absurd(sense, rhs, a)) return 0;
  int diff = 0;
  if (!svec_equal(a, &s->a, &diff))
    return fail_at(c, line, col,
                   "%s does not dominate %s: the coefficients of variable %d "
                   "differ", what, s->name, diff);
  int k = 0;
  if (cmpq(c, rhs, &s->rhs, &k)) return -1;
  int ok = s->sense > 0   ? sense >= 0 && k >= 0
           : s->sense < 0 ? sense <= 0 && k <= 0
                          : sense == 0 && k == 0;
  if (ok) return 0;
  char *r1 = twill_vipr_q_str(rhs), *r2 = twill_vipr_q_str(&s->rhs);
  fail_at(c, line, col, "%s (... %s %.60s) does not imply %s (... %s %.60s)",
          what, sense_str(sense), r1 ? r1 : "?", s->name, sense_str(s->sense),
          r2 ? r2 : "?");
  free(r1);
  free(r2);
  return -1;
}

static int grow(int **p, int *cap, int need_n) {
  if (need_n <= *cap) return 0;
  int cap2 = *cap ? *cap : 16;
  while (cap2 < need_n) cap2 *= 2;
  int *q = realloc(*p, (size_t)cap2 * sizeof *q);
  if (!q) return -1;
  *p = q;
  *cap = cap2;
  return 0;
}

/* Append k's assumptions, except `drop`, to the assumption buffer. */
static int add_asms(ck *c, const con *k, int drop) {
  if (grow(&c->abuf, &c->capabuf, c->nabuf + k->nasm))
    return FAIL(c, "out of memory");
  for (int i = 0; i < k->nasm; i++)
    if (k->asmv[i] != drop) c->abuf[c->nabuf++] = k->asmv[i];
  return 0;
}

/* The assumption buffer, sorted and without repeats, becomes k's set. */
static int take_asms(ck *c, con *k) {
  if (c->nabuf > 1) qsort(c->abuf, (size_t)c->nabuf, sizeof *c->abuf, cmp_int);
  int w = 0;
  for (int i = 0; i < c->nabuf; i++)
    if (w == 0 || c->abuf[i] != c->abuf[w - 1]) c->abuf[w++] = c->abuf[i];
  c->nabuf = 0;
  if (w == 0) return 0;
  k->asmv = malloc((size_t)w * sizeof *k->asmv);
  if (!k->asmv) return FAIL(c, "out of memory");
  memcpy(k->asmv, c->abuf, (size_t)w * sizeof *k->asmv);
  k->nasm = w;
  return 0;
}

/* Constraint i, referenced by derivation idx (i in [0, idx) checked). */
static con *ref(ck *c, long long i, int idx) {
  con *k = &c->cons[i];
  if (!k->alive) {
    FAIL(c, "constraint %lld was forgotten after its last use %lld", i,
         k->last_use);
    return NULL;
  }
  if (k->last_use >= 0 && idx > k->last_use) {
    FAIL(c, "constraint %lld (%s) is used by constraint %d after its declared "
         "last use %lld", i, k->name, idx, k->last_use);
    return NULL;
  }
  if (grow(&c->refs, &c->caprefs, c->nrefs + 1)) {
    FAIL(c, "out of memory");
    return NULL;
  }
  c->refs[c->nrefs++] = (int)i;
  return k;
}

/* ------------------------------------------------------------- reasons */

/* { lin|rnd p i1 l1 ... } : the combination sum l_i C_i (see the top). */
static int check_comb(ck *c, int idx, int rnd, con *s, int line, int col) {
  const char *what = rnd ? "rnd" : "lin";
  long long p;
  if (read_int(c, 0, idx, &p, "number of multipliers")) return -1;
  int sense = 0;
  vipr_q rhs, lam;
  twill_vipr_q_init(&rhs);
  twill_vipr_q_init(&lam);
  svec v = {0, NULL, 0};
  int rc = -1;
  for (long long q = 0; q < p; q++) {
    long long i;
    if (read_int(c, 0, idx - 1, &i, "constraint index")) goto done;
    if (read_value(c, &lam, "multiplier")) goto done;
    if (c->stamp[i] == idx + 1) {
      FAIL(c, "constraint %lld appears twice in %s", i, what);
      goto done;
    }
    c->stamp[i] = idx + 1;
    const con *k = ref(c, i, idx);
    if (!k) goto done;
    int sg = twill_vipr_q_sgn(&lam);
    if (sg == 0) continue;
    /* suitable: lam_i s(C_i) of one sign for all i */
    int t = sg * k->sense;
    if (t != 0 && sense != 0 && t != sense) {
      FAIL(c, "multiplier of constraint %lld (%s, a %s row) has the wrong sign "
           "for a %s combination", i, k->name, sense_str(k->sense),
           sense_str(sense));
      goto done;
    }
    if (t != 0) sense = t;
    if (twill_vipr_q_addmul(&rhs, &lam, &k->rhs)) goto big;
    for (int a = 0; a < k->a.nnz; a++) {
      int j = k->a.t[a].j;
      if (!c->used[j]) { c->used[j] = 1; c->touched[c->ntouched++] = j; }
      if (twill_vipr_q_addmul(&c->acc[j], &lam, &k->a.t[a].v)) goto big;
    }
    if (add_asms(c, k, -1)) goto done;
  }
  if (need(c, "}")) goto done;
  if (strcmp(c->tok, "}")) {
    FAIL(c, "expected '}' after %lld multipliers, found '%.40s'%s", p, c->tok,
         !strcmp(c->tok, "weak") || !strcmp(c->tok, "incomplete")
             ? " (incomplete VIPR 1.1 reasons need viprcomp first)" : "");
    goto done;
  }
  /* gather the dense accumulator into a sparse vector */
  qsort(c->touched, (size_t)c->ntouched, sizeof *c->touched, cmp_int);
  v.t = calloc((size_t)c->ntouched + 1, sizeof *v.t);
  if (!v.t) { FAIL(c, "out of memory"); goto done; }
  for (int a = 0; a < c->ntouched; a++) {
    int j = c->touched[a];
    c->used[j] = 0;
    if (twill_vipr_q_sgn(&c->acc[j]) == 0) continue;
    v.t[v.nnz].j = j;
    v.t[v.nnz++].v = c->acc[j]; /* move; the accumulator starts again at 0 */
    twill_vipr_q_init(&c->acc[j]);
  }
  c->ntouched = 0;
  if (rnd) {
    /* a^T x integral at every feasible x, so round the right-hand side */
    for (int a = 0; a < v.nnz; a++) {
      if (!c->is_int[v.t[a].j] || !twill_vipr_q_is_int(&v.t[a].v)) {
        fail_at(c, line, col, "rnd: the combination has a %s coefficient on "
                "variable %d", c->is_int[v.t[a].j] ? "fractional" : "nonzero "
                "continuous-variable", v.t[a].j);
        goto done;
      }
    }
    if (sense < 0 && twill_vipr_q_floor(&rhs, &rhs)) goto big;
    if (sense > 0 && twill_vipr_q_ceil(&rhs, &rhs)) goto big;
  }
  if (dominates(c, line, col, what, sense, &rhs, &v, s)) goto done;
  rc = take_asms(c, s);
  goto done;
big:
  FAIL(c, "number too large (over 2^21 bits)");
done:
  for (int a = 0; a < c->ntouched; a++) {
    c->used[c->touched[a]] = 0;
    twill_vipr_q_set_i64(&c->acc[c->touched[a]], 0);
  }
  c->ntouched = 0;
  c->nabuf = 0;
  twill_vipr_q_free(&rhs);
  twill_vipr_q_free(&lam);
  svec_free(&v);
  return rc;
}

/* { uns i1 l1 i2 l2 } */
static int check_uns(ck *c, int idx, con *s, int line, int col) {
  long long x[4];
  const con *k[4];
  for (int i = 0; i < 4; i++) {
    if (read_int(c, 0, idx - 1, &x[i], "constraint index")) return -1;
    if (!(k[i] = ref(c, x[i], idx))) return -1;
  }
  if (expect(c, "}")) return -1;
  if (dominates(c, line, col, "uns: first branch", k[0]->sense, &k[0]->rhs,
                &k[0]->a, s) ||
      dominates(c, line, col, "uns: second branch", k[2]->sense, &k[2]->rhs,
                &k[2]->a, s))
    return -1;
  /* the split: a^T x <= beta  or  a^T x >= beta + 1 */
  const con *le = k[1], *ge = k[3];
  if (le->sense > 0) { le = k[3]; ge = k[1]; }
  int diff, cmp = 0;
  vipr_q b1, one;
  twill_vipr_q_init(&b1);
  twill_vipr_q_init(&one);
  twill_vipr_q_set_i64(&one, 1);
  int bad = twill_vipr_q_add(&b1, &le->rhs, &one) || cmpq(c, &b1, &ge->rhs, &cmp);
  twill_vipr_q_free(&b1);
  twill_vipr_q_free(&one);
  if (bad) return FAIL(c, "number too large (over 2^21 bits)");
  if (le->sense != -1 || ge->sense != 1)
    return fail_at(c, line, col, "uns: %s and %s are not a <= / >= pair",
                   k[1]->name, k[3]->name);
  if (!svec_equal(&le->a, &ge->a, &diff))
    return fail_at(c, line, col, "uns: %s and %s have different left-hand "
                   "sides (variable %d)", k[1]->name, k[3]->name, diff);
  if (!twill_vipr_q_is_int(&le->rhs) || cmp != 0)
    return fail_at(c, line, col, "uns: %s and %s do not split on an integer "
                   "(need a x <= b, a x >= b + 1 with b integral)",
                   k[1]->name, k[3]->name);
  for (int a = 0; a < le->a.nnz; a++)
    if (!c->is_int[le->a.t[a].j] || !twill_vipr_q_is_int(&le->a.t[a].v))
      return fail_at(c, line, col, "uns: the split %s has a non-integer "
                     "term on variable %d", le->name, le->a.t[a].j);
  if (add_asms(c, k[0], (int)x[1]) || add_asms(c, k[2], (int)x[3])) return -1;
  return take_asms(c, s);
}

/* { sol }: c^T x <= best (- 1 if integral) for min, >= for max. */
static int check_sol(ck *c, const con *s, int line, int col) {
  if (expect(c, "}")) return -1;
  if (!c->has_best)
    return fail_at(c, line, col, "sol: the SOL section has no solution");
  int diff, k = 0;
  if (!svec_equal(&s->a, &c->obj, &diff))
    return fail_at(c, line, col, "sol: %s is not a bound on the objective "
                   "(variable %d)", s->name, diff);
  vipr_q cut, one;
  twill_vipr_q_init(&cut);
  twill_vipr_q_init(&one);
  twill_vipr_q_set_i64(&one, c->obj_integral ? (c->obj_min ? -1 : 1) : 0);
  int bad = twill_vipr_q_add(&cut, &c->best, &one) || cmpq(c, &s->rhs, &cut, &k);
  twill_vipr_q_free(&cut);
  twill_vipr_q_free(&one);
  if (bad) return FAIL(c, "number too large (over 2^21 bits)");
  if (c->obj_min ? s->sense != -1 || k < 0 : s->sense != 1 || k > 0)
    return fail_at(c, line, col, "sol: %s is stronger than the cutoff of the "
                   "best solution", s->name);
  return 0;
}

/* ------------------------------------------------------------ sections */

static int read_header(ck *c) {
  long long v;
  if (expect(c, "VER") || need(c, "version")) return -1;
  if (strcmp(c->tok, "1.0") && strcmp(c->tok, "1.1"))
    return FAIL(c, "unsupported VIPR version '%.40s' (1.0 or 1.1)", c->tok);
  if (expect(c, "VAR") || read_int(c, 0, c->limit, &v, "number of variables"))
    return -1;
  for (long long i = 0; i < v; i++)
    if (need(c, "variable name")) return -1;
  c->is_int = calloc((size_t)v + 1, 1);
  c->used = calloc((size_t)v + 1, 1);
  c->touched = malloc(((size_t)v + 1) * sizeof *c->touched);
  c->acc = malloc(((size_t)v + 1) * sizeof *c->acc);
  if (!c->is_int || !c->used || !c->touched || !c->acc) return FAIL(c, "out of memory");
  for (long long i = 0; i < v; i++) twill_vipr_q_init(&c->acc[i]);
  c->n = (int)v;
  if (expect(c, "INT") || read_int(c, 0, c->limit, &v, "number of integer variables"))
    return -1;
  for (long long i = 0; i < v; i++) {
    long long j;
    if (read_int(c, 0, (long long)c->n - 1, &j, "integer variable index")) return -1;
    c->is_int[j] = 1;
  }
  if (expect(c, "OBJ") || need(c, "min or max")) return -1;
  if (strcmp(c->tok, "min") && strcmp(c->tok, "max"))
    return FAIL(c, "objective sense must be min or max, found '%.40s'", c->tok);
  c->obj_min = !strcmp(c->tok, "min");
  if (read_lin(c, &c->obj, 0, "objective")) return -1;
  c->obj_integral = 1;
  for (int i = 0; i < c->obj.nnz; i++)
    if (!c->is_int[c->obj.t[i].j] || !twill_vipr_q_is_int(&c->obj.t[i].v))
      c->obj_integral = 0;
  long long m, b;
  if (expect(c, "CON") || read_int(c, 0, c->limit, &m, "number of constraints") ||
      read_int(c, 0, m, &b, "number of bound constraints"))
    return -1;
  c->m = (int)m;
  for (long long i = 0; i < m; i++) {
    con k;
    if (read_con(c, &k) || push_con(c, &k)) { con_free(&k); return -1; }
  }
  if (expect(c, "RTP") || need(c, "infeas or range")) return -1;
  if (!strcmp(c->tok, "infeas")) {
    c->rtp_infeas = 1;
  } else if (!strcmp(c->tok, "range")) {
    if (need(c, "lower bound")) return -1;
    if (strcmp(c->tok, "-inf")) {
      if (twill_vipr_q_parse(&c->lb, c->tok, c->toklen))
        return FAIL(c, "malformed lower bound '%.40s'", c->tok);
      c->has_lb = 1;
    }
    if (need(c, "upper bound")) return -1;
    if (strcmp(c->tok, "inf") && strcmp(c->tok, "+inf")) {
      if (twill_vipr_q_parse(&c->ub, c->tok, c->toklen))
        return FAIL(c, "malformed upper bound '%.40s'", c->tok);
      c->has_ub = 1;
    }
    int k = 0;
    if (c->has_lb && c->has_ub && (cmpq(c, &c->lb, &c->ub, &k) || k > 0))
      return FAIL(c, "RTP range: lower bound exceeds upper bound");
  } else {
    return FAIL(c, "RTP must be 'infeas' or 'range lb ub', found '%.40s'", c->tok);
  }
  return 0;
}

/* Each solution: integral on INT, satisfies every constraint; track the
 * best objective value. */
static int read_sols(ck *c) {
  long long s;
  if (expect(c, "SOL") || read_int(c, 0, c->limit, &s, "number of solutions"))
    return -1;
  vipr_q lhs;
  twill_vipr_q_init(&lhs);
  int rc = -1;
  char *name = NULL;
  svec x = {0, NULL, 0};
  for (long long q = 0; q < s; q++) {
    if (need(c, "solution name")) goto done;
    free(name);
    if (!(name = strdup(c->tok))) { FAIL(c, "out of memory"); goto done; }
    int line = c->tline, col = c->tcol;
    svec_free(&x);
    if (read_lin(c, &x, 0, "solution")) goto done;
    for (int a = 0; a < x.nnz; a++) {
      if (c->is_int[x.t[a].j] && !twill_vipr_q_is_int(&x.t[a].v)) {
        fail_at(c, line, col, "solution %s: integer variable %d has a "
                "fractional value", name, x.t[a].j);
        goto done;
      }
      if (twill_vipr_q_copy(&c->acc[x.t[a].j], &x.t[a].v)) goto big;
    }
    for (int i = 0; i < c->m; i++) {
      const con *k = &c->cons[i];
      twill_vipr_q_set_i64(&lhs, 0);
      for (int a = 0; a < k->a.nnz; a++)
        if (twill_vipr_q_addmul(&lhs, &k->a.t[a].v, &c->acc[k->a.t[a].j])) goto big;
      int cmp = 0;
      if (cmpq(c, &lhs, &k->rhs, &cmp)) goto done;
      if (k->sense > 0 ? cmp < 0 : k->sense < 0 ? cmp > 0 : cmp != 0) {
        char *l = twill_vipr_q_str(&lhs), *r = twill_vipr_q_str(&k->rhs);
        fail_at(c, line, col, "solution %s violates constraint %d (%s): "
                "%.60s %s %.60s is false", name, i, k->name, l ? l : "?",
                sense_str(k->sense), r ? r : "?");
        free(l);
        free(r);
        goto done;
      }
    }
    twill_vipr_q_set_i64(&lhs, 0);
    for (int a = 0; a < c->obj.nnz; a++)
      if (twill_vipr_q_addmul(&lhs, &c->obj.t[a].v, &c->acc[c->obj.t[a].j])) goto big;
    for (int a = 0; a < x.nnz; a++) twill_vipr_q_set_i64(&c->acc[x.t[a].j], 0);
    if (c->rtp_infeas) {
      fail_at(c, line, col, "solution %s is feasible, but RTP claims "
              "infeasibility", name);
      goto done;
    }
    int cmp = 0;
    if (c->has_best && cmpq(c, &lhs, &c->best, &cmp)) goto done;
    if (!c->has_best || (c->obj_min ? cmp < 0 : cmp > 0)) {
      if (twill_vipr_q_copy(&c->best, &lhs)) goto big;
      c->has_best = 1;
    }
  }
  /* the primal side of RTP range */
  int k = 0;
  if (c->obj_min ? c->has_ub : c->has_lb) {
    if (!c->has_best) {
      FAIL(c, "RTP range claims a finite %s bound but SOL has no solution",
           c->obj_min ? "upper" : "lower");
      goto done;
    }
    if (cmpq(c, &c->best, c->obj_min ? &c->ub : &c->lb, &k)) goto done;
    if (c->obj_min ? k > 0 : k < 0) {
      FAIL(c, "no solution reaches the RTP %s bound",
           c->obj_min ? "upper" : "lower");
      goto done;
    }
  }
  if (c->has_best && (c->obj_min ? c->has_lb : c->has_ub)) {
    if (cmpq(c, &c->best, c->obj_min ? &c->lb : &c->ub, &k)) goto done;
    if (c->obj_min ? k < 0 : k > 0) {
      FAIL(c, "a solution is better than the RTP %s bound",
           c->obj_min ? "lower" : "upper");
      goto done;
    }
  }
  rc = 0;
  goto done;
big:
  FAIL(c, "number too large (over 2^21 bits)");
done:
  for (int a = 0; a < x.nnz; a++) twill_vipr_q_set_i64(&c->acc[x.t[a].j], 0);
  svec_free(&x);
  free(name);
  twill_vipr_q_free(&lhs);
  return rc;
}

static int read_ders(ck *c, long long *nder) {
  long long d;
  if (expect(c, "DER") || read_int(c, 0, c->limit, &d, "number of derivations"))
    return -1;
  *nder = d;
  for (long long q = 0; q < d; q++) {
    if (c->m + q >= INT_MAX / 2) return FAIL(c, "too many constraints");
    int idx = (int)(c->m + q);
    con s;
    int rc = read_con(c, &s);
    int line = c->tline, col = c->tcol;
    c->nrefs = 0;
    if (!rc) rc = expect(c, "{") || need(c, "reason");
    if (!rc) {
      line = c->tline;
      col = c->tcol;
      if (!strcmp(c->tok, "asm")) {
        rc = expect(c, "}");
        if (!rc && !(s.asmv = malloc(sizeof *s.asmv))) rc = FAIL(c, "out of memory");
        if (!rc) { s.asmv[0] = idx; s.nasm = 1; }
      } else if (!strcmp(c->tok, "lin") || !strcmp(c->tok, "rnd")) {
        rc = check_comb(c, idx, c->tok[0] == 'r', &s, line, col);
      } else if (!strcmp(c->tok, "uns")) {
        rc = check_uns(c, idx, &s, line, col);
      } else if (!strcmp(c->tok, "sol")) {
        rc = check_sol(c, &s, line, col);
      } else {
        rc = FAIL(c, "unknown reason '%.40s' (asm, lin, rnd, uns or sol)", c->tok);
      }
    }
    c->gline = line;
    c->gcol = col;
    if (!rc) rc = read_int(c, -1, LLONG_MAX / 2, &s.last_use, "last use index");
    if (!rc) rc = push_con(c, &s);
    if (rc) { con_free(&s); return -1; }
    /* forget what is no longer needed (never the last constraint) */
    for (int r = 0; r < c->nrefs; r++) {
      con *k = &c->cons[c->refs[r]];
      if (c->refs[r] >= c->m && k->alive && k->last_use >= 0 && k->last_use <= idx)
        con_free(k);
    }
    con *k = &c->cons[idx];
    if (q + 1 < d && k->last_use >= 0 && k->last_use <= idx) con_free(k);
  }
  if (next(c) != 0)
    return c->failed ? -1 : FAIL(c, "unexpected '%.40s' after the DER section", c->tok);
  return 0;
}

/* A bound as the message shows it: exact when short, else "~" and 12
 * significant digits (a 40-digit numerator over 10^37, cut at 60
 * characters, read as 8.6e21 where the bound was 859.9998916).  Each of
 * numerator and denominator is taken as its leading 17 digits times a
 * power of ten, so that nothing overflows on the way. */
static double lead_digits(const char **s, long *exp10) {
  double lead = 0;
  int nd = 0;
  *exp10 = 0;
  for (; **s >= '0' && **s <= '9'; (*s)++) {
    if (nd < 17) { lead = 10 * lead + (**s - '0'); nd++; }
    else (*exp10)++;
  }
  return lead;
}

static const char *shown(const char *q, char buf[40]) {
  if (!q) return "?";
  if (strlen(q) <= 30) return q;
  const char *p = q + (*q == '-');
  long en = 0, ed = 0;
  double v = lead_digits(&p, &en), den = 1;
  if (*p == '/') {
    p++;
    den = lead_digits(&p, &ed);
  }
  v /= den > 0 ? den : 1;
  for (long k = en - ed; k > 0 && v < 1e300; k--) v *= 10;
  for (long k = en - ed; k < 0 && v > 1e-300; k++) v /= 10;
  snprintf(buf, 40, "~%s%.12g", *q == '-' ? "-" : "", v);
  return buf;
}

/* Is the relation to prove established by the last derived constraint? */
static int check_goal(ck *c, long long nder, char *msg, size_t msg_size) {
  const con *last = nder ? &c->cons[c->ncons - 1] : NULL;
  if (last) {
    c->tline = c->gline;
    c->tcol = c->gcol;
  }
  if (last && (c->rtp_infeas || (c->obj_min ? c->has_lb : c->has_ub)) && last->nasm)
    return FAIL(c, "the last derived constraint %s still depends on %d "
                "assumption(s), the first is constraint %d (%s)", last->name,
                last->nasm, last->asmv[0],
                c->cons[last->asmv[0]].alive ? c->cons[last->asmv[0]].name : "?");
  if (c->rtp_infeas) {
    if (!last || !absurd(last->sense, &last->rhs, &last->a))
      return FAIL(c, "RTP infeas: the last derived constraint is not an "
                  "absurdity such as 0 >= 1");
    snprintf(msg, msg_size, "infeasibility verified (%lld derived constraints)",
             nder);
    return 0;
  }
  if (c->obj_min ? c->has_lb : c->has_ub) {
    /* goal: c^T x >= lb (min) or c^T x <= ub (max) */
    con goal;
    memset(&goal, 0, sizeof goal);
    goal.name = c->obj_min ? "OBJ >= lb" : "OBJ <= ub";
    goal.sense = c->obj_min ? 1 : -1;
    goal.rhs = c->obj_min ? c->lb : c->ub;
    goal.a = c->obj;
    int taut = c->obj.nnz == 0 && twill_vipr_q_sgn(&goal.rhs) * goal.sense <= 0;
    if (!taut) {
      if (!last) return FAIL(c, "RTP range: no derived constraint proves the bound");
      if (dominates(c, c->tline, c->tcol, "the last derived constraint",
                    last->sense, &last->rhs, &last->a, &goal))
        return -1;
    }
  }
  char *l = c->has_lb ? twill_vipr_q_str(&c->lb) : NULL;
  char *u = c->has_ub ? twill_vipr_q_str(&c->ub) : NULL;
  char la[40], ua[40];
  snprintf(msg, msg_size, "optimal value range %s%s, %s%s verified", c->has_lb ? "[" : "(",
           c->has_lb ? shown(l, la) : "-inf", c->has_ub ? shown(u, ua) : "inf",
           c->has_ub ? "]" : ")");
  free(l);
  free(u);
  return 0;
}

static int run(ck *c, char *msg, size_t msg_size) {
  char dummy[8];
  if (!msg || msg_size == 0) { msg = dummy; msg_size = sizeof dummy; }
  msg[0] = 0;
  c->la = -2;
  c->line = c->col = 1;
  c->tok = malloc(VIPR_NUM_MAX_CHARS + 1);
  twill_vipr_q_init(&c->lb);
  twill_vipr_q_init(&c->ub);
  twill_vipr_q_init(&c->best);
  long long nder = 0;
  int rc;
  if (!c->tok) {
    snprintf(c->err, sizeof c->err, "%s: out of memory", c->file);
    rc = 1;
  } else {
    rc = read_header(c) || read_sols(c) || read_ders(c, &nder) ||
         check_goal(c, nder, msg, msg_size);
  }
  if (rc) snprintf(msg, msg_size, "%s", c->err);
  for (int i = 0; i < c->ncons; i++)
    if (c->cons[i].alive) con_free(&c->cons[i]);
  if (c->acc)
    for (int i = 0; i < c->n; i++) twill_vipr_q_free(&c->acc[i]);
  svec_free(&c->obj);
  twill_vipr_q_free(&c->lb);
  twill_vipr_q_free(&c->ub);
  twill_vipr_q_free(&c->best);
  free(c->cons); free(c->stamp); free(c->acc); free(c->used); free(c->touched);
  free(c->is_int); free(c->abuf); free(c->refs); free(c->tok);
  return rc ? 1 : 0;
}

int twill_vipr_check_mem(const char *name, const char *data, size_t len,
                         char *msg, size_t msg_size) {
  ck c;
  memset(&c, 0, sizeof c);
  c.file = name ? name : "<memory>";
  c.mem = data;
  c.len = data ? len : 0;
  c.limit = (long long)(len < (size_t)INT_MAX / 4 ? len : (size_t)INT_MAX / 4);
  return run(&c, msg, msg_size);
}

int twill_vipr_check_file(const char *path, char *msg, size_t msg_size) {
  ck c;
  memset(&c, 0, sizeof c);
  int is_stdin = !strcmp(path, "-"); /* as every twill reader: '-' is stdin */
  c.file = is_stdin ? "<stdin>" : path;
  c.f = is_stdin ? stdin : fopen(path, "rb");
  struct stat st;
  if (!c.f) {
    if (msg && msg_size) snprintf(msg, msg_size, "%s: cannot open", path);
    return 1;
  }
  c.limit = INT_MAX / 4;
  if (fstat(fileno(c.f), &st) == 0 && S_ISREG(st.st_mode) &&
      st.st_size < (off_t)(INT_MAX / 4))
    c.limit = (long long)st.st_size;
  c.fbuf = malloc(65536);
  int rc = 1;
  if (c.fbuf) rc = run(&c, msg, msg_size);
  else if (msg && msg_size) snprintf(msg, msg_size, "%s: out of memory", c.file);
  if (ferror(c.f) && rc == 0) {
    if (msg && msg_size) snprintf(msg, msg_size, "%s: read error", c.file);
    rc = 1;
  }
  free(c.fbuf);
  if (!is_stdin) fclose(c.f);
  return rc;
}
