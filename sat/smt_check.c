/* sat/smt_check.c: checker of twill-smt certificates (format in
 * twill/smt.h).  Written apart from the propagators (sat/smt.c) and sharing
 * no code with them: theory lemmas are re-derived from their constraint by
 * exact bound reasoning in __int128, every other added clause by reverse
 * unit propagation over the clauses so far. */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/smt.h"

__extension__ typedef __int128 wide;

#define MAXV (1 << 22) /* largest variable a certificate may declare */

typedef struct {
  int64_t lo, hi;
} cvar;

typedef struct {
  int mod; /* 0 linear, 1 modulo */
  int reif, n, cap;
  int64_t b, period;
  int64_t *a;  /* coefficient (linear) / offset (modulo) */
  int *x;      /* int var, or -1 */
  int *l;      /* literal when x < 0 */
} ccons;

typedef struct {
  int *l; /* sorted, no repeats */
  int n;
  int dead;
  int w0, w1; /* positions of the watched literals (n >= 2) */
} cclause;

typedef struct {
  int *a;
  int n, cap;
} cvec;

typedef struct {
  int T;
  cvar *v;
  int nv;
  int *ord_x; /* per SAT var: int var of an order literal, or -1 */
  int64_t *ord_k;
  int nmap;
  ccons **c;  /* by id */
  int ncid;
  cclause *cl;
  int ncl, ccl;
  /* lemma set: hash of sorted clauses */
  int **lem;
  int *lemn;
  int nlem, clem;
  int *hash; /* open addressing, index+1 */
  int hcap;
  /* watches by literal code 2v + (lit < 0); deletion hash; units */
  cvec *watch;
  int nwatch;
  int *dh;
  int dhcap, dhused;
  cvec units;
  cvec ulit;       /* units[i]'s literal, side by side: every RUP check
                      starts by scanning all live units, and reading each
                      through its clause was 70% of the time on a 242 MB
                      phase-1 certificate (two dependent loads per unit) */
  int units_dirty; /* a unit clause was deleted: compact both lists */
  /* The root: the unit-propagation fixpoint of the live clauses, kept in
   * val and trail[0, root_n) between RUP checks, so that a check starts
   * from it instead of propagating every unit again (that was 70-90% of
   * the time on a 242 MB phase-1 certificate).  A clause added while the
   * root is valid extends it (its watches chosen against it); a deletion
   * invalidates it, and the next check builds it again from scratch. */
  int root_ok, root_n, root_conflict;
  signed char *tval; /* the theory checks' own values, apart from the root */
  int has_empty, oom;
  int maxvar; /* largest variable of T, o, k and a lines */
  /* (int var, k) pairs that have an order literal: open addressing */
  int64_t *ok_k;
  int *ok_x; /* x + 1, 0 empty */
  int okcap, okused;
  int *tx; /* int vars whose lb / ub a negation moved */
  int ntx;
  int *trail;
  int ntrail, ctrail;
  /* scratch */
  signed char *val;
  int nval;
  int64_t *lb, *ub;
  char *msg;
  size_t msgcap;
  int line;
  /* where the input may stand: see twill_smt_inputs */
  const twill_smt_inputs *in;
  int late; /* the current line starts at or after in->end */
} checker;

static int fail(checker *k, const char *fmt, ...) {
  char b[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  if (k->msgcap) snprintf(k->msg, k->msgcap, "proof:%d: %s", k->line, b);
  return -1;
}

static int grow_map(checker *k, int n) {
  if (n <= k->nmap) return 0;
  int nc = k->nmap ? k->nmap : 64;
  while (nc < n) nc *= 2;
  int *nx = realloc(k->ord_x, sizeof(int) * (size_t)nc);
  if (!nx) return -1;
  k->ord_x = nx;
  int64_t *nk = realloc(k->ord_k, sizeof(int64_t) * (size_t)nc);
  if (!nk) return -1;
  k->ord_k = nk;
  signed char *nvl = realloc(k->val, (size_t)nc);
  if (!nvl) return -1;
  k->val = nvl;
  signed char *ntv = realloc(k->tval, (size_t)nc);
  if (!ntv) return -1;
  k->tval = ntv;
  for (int i = k->nmap; i < nc; i++) {
    k->ord_x[i] = -1;
    k->val[i] = 0;
    k->tval[i] = 0;
  }
  k->nmap = nc;
  return 0;
}

/* ----------------------------------------------------------- tokenizing */

typedef struct {
  const char *p, *end;
} cur;

static int next_tok(cur *c, const char **s, size_t *n) {
  while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')) c->p++;
  if (c->p >= c->end || *c->p == '\n') return 0;
  *s = c->p;
  while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\r' && *c->p != '\n')
    c->p++;
  *n = (size_t)(c->p - *s);
  return 1;
}

static int tok_i64(cur *c, int64_t *out) {
  const char *s;
  size_t n;
  if (!next_tok(c, &s, &n)) return -1;
  size_t i = 0;
  int neg = 0;
  if (s[0] == '-') {
    neg = 1;
    i = 1;
  }
  if (i >= n || n - i > 15) return -1;
  int64_t v = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  *out = neg ? -v : v;
  return 0;
}

static int tok_int(cur *c, int *out) {
  int64_t v;
  if (tok_i64(c, &v) || v > 1000000000 || v < -1000000000) return -1;
  *out = (int)v;
  return 0;
}

/* literals up to the terminating 0 into a malloc'd array */
static int tok_clause(checker *k, cur *c, int limit, int **lits, int *n) {
  int cap = 8, m = 0;
  int *a = malloc(sizeof(int) * (size_t)cap);
  if (!a) return fail(k, "out of memory");
  for (;;) {
    int x;
    if (tok_int(c, &x)) {
      free(a);
      return fail(k, "bad literal or missing 0");
    }
    if (x == 0) break;
    if (abs(x) > limit || grow_map(k, abs(x) + 1)) {
      free(a);
      return fail(k, "literal %d out of range", x);
    }
    if (abs(x) > k->maxvar) k->maxvar = abs(x);
    if (m == cap) {
      cap *= 2;
      int *na = realloc(a, sizeof(int) * (size_t)cap);
      if (!na) {
        free(a);
        return fail(k, "out of memory");
      }
      a = na;
    }
    a[m++] = x;
  }
  *lits = a;
  *n = m;
  return 0;
}

/* --------------------------------------------------------------- clauses */

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

/* sort and drop repeated literals */
static void norm(int *l, int *n) {
  qsort(l, (size_t)*n, sizeof(int), cmp_int);
  int m = 0;
  for (int i = 0; i < *n; i++)
    if (m == 0 || l[m - 1] != l[i]) l[m++] = l[i];
  *n = m;
}

static uint64_t hash_cl(const int *l, int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ (uint64_t)(uint32_t)l[i]) * 1099511628211ull;
  return h;
}

static int lem_find(const checker *k, const int *l, int n) {
  if (!k->hcap) return 0;
  uint64_t h = hash_cl(l, n) & (uint64_t)(k->hcap - 1);
  while (k->hash[h]) {
    int i = k->hash[h] - 1;
    if (k->lemn[i] == n && !memcmp(k->lem[i], l, sizeof(int) * (size_t)n)) return 1;
    h = (h + 1) & (uint64_t)(k->hcap - 1);
  }
  return 0;
}

static int lem_add(checker *k, int *l, int n) {
  if (lem_find(k, l, n)) {
    free(l);
    return 0;
  }
  if (k->nlem == k->clem) {
    int nc = k->clem ? k->clem * 2 : 64;
    int **a = realloc(k->lem, sizeof(int *) * (size_t)nc);
    if (!a) return -1;
    k->lem = a;
    int *b = realloc(k->lemn, sizeof(int) * (size_t)nc);
    if (!b) return -1;
    k->lemn = b;
    k->clem = nc;
  }
  if (2 * (k->nlem + 1) > k->hcap) {
    int nc = k->hcap ? k->hcap * 2 : 128;
    int *nh = calloc((size_t)nc, sizeof(int));
    if (!nh) return -1;
    free(k->hash);
    k->hash = nh;
    k->hcap = nc;
    for (int i = 0; i < k->nlem; i++) {
      uint64_t h = hash_cl(k->lem[i], k->lemn[i]) & (uint64_t)(nc - 1);
      while (k->hash[h]) h = (h + 1) & (uint64_t)(nc - 1);
      k->hash[h] = i + 1;
    }
  }
  k->lem[k->nlem] = l;
  k->lemn[k->nlem] = n;
  uint64_t h = hash_cl(l, n) & (uint64_t)(k->hcap - 1);
  while (k->hash[h]) h = (h + 1) & (uint64_t)(k->hcap - 1);
  k->hash[h] = ++k->nlem;
  return 0;
}

static int cvec_push(cvec *v, int x) {
  if (v->n == v->cap) {
    int nc = v->cap ? v->cap * 2 : 4;
    int *na = realloc(v->a, sizeof(int) * (size_t)nc);
    if (!na) return -1;
    v->a = na;
    v->cap = nc;
  }
  v->a[v->n++] = x;
  return 0;
}

static int code(int lit) { return 2 * abs(lit) + (lit < 0); }

static int ensure_watch(checker *k, int nvars) {
  int need = 2 * nvars + 2;
  if (need <= k->nwatch) return 0;
  int nc = k->nwatch ? k->nwatch : 64;
  while (nc < need) nc *= 2;
  cvec *nw = realloc(k->watch, sizeof(cvec) * (size_t)nc);
  if (!nw) return -1;
  memset(nw + k->nwatch, 0, sizeof(cvec) * (size_t)(nc - k->nwatch));
  k->watch = nw;
  k->nwatch = nc;
  return 0;
}

static int dh_insert(checker *k, int idx) {
  if (2 * (k->dhused + 1) > k->dhcap) {
    int nc = k->dhcap ? k->dhcap * 2 : 256;
    int *nh = calloc((size_t)nc, sizeof(int));
    if (!nh) return -1;
    int used = 0;
    for (int i = 0; i < k->dhcap; i++) {
      int c = k->dh[i] - 1;
      if (c < 0 || k->cl[c].dead) continue;
      uint64_t h = hash_cl(k->cl[c].l, k->cl[c].n) & (uint64_t)(nc - 1);
      while (nh[h]) h = (h + 1) & (uint64_t)(nc - 1);
      nh[h] = c + 1;
      used++;
    }
    free(k->dh);
    k->dh = nh;
    k->dhcap = nc;
    k->dhused = used;
  }
  uint64_t h = hash_cl(k->cl[idx].l, k->cl[idx].n) & (uint64_t)(k->dhcap - 1);
  while (k->dh[h]) h = (h + 1) & (uint64_t)(k->dhcap - 1);
  k->dh[h] = idx + 1;
  k->dhused++;
  return 0;
}

static int lv(const checker *k, int lit);
static int assign(checker *k, int lit);
static int propagate_from(checker *k, int head);

/* Clause idx joins a valid root: its watches are two literals the root
 * leaves open (or a true one and a false one); when the root leaves it
 * one open literal, that literal joins the root and propagates; when none,
 * the root is in conflict.  The root stays the fixpoint of the live
 * clauses, with every watched literal the root makes false beside a true
 * one.  0, or -1 out of memory. */
static int root_add(checker *k, int idx) {
  cclause *c = &k->cl[idx];
  int open = -1, open2 = -1, sat = -1, fls = -1;
  for (int q = 0; q < c->n; q++) {
    int v = lv(k, c->l[q]);
    if (v == 1 && sat < 0) sat = q;
    if (v == 0) {
      if (open < 0) open = q;
      else if (open2 < 0) open2 = q;
    }
    if (v == -1 && fls < 0) fls = q;
  }
  int r = 0;
  if (sat < 0 && open < 0) {
    r = 1; /* false at the root */
  } else if (sat < 0 && open2 < 0) {
    /* unit at the root: its open literal joins it */
    if (assign(k, c->l[open])) return -1;
    r = propagate_from(k, k->ntrail - 1);
    if (k->oom) return -1;
  }
  k->root_n = k->ntrail;
  if (r) {
    k->root_conflict = 1; /* every check holds until a deletion */
  }
  if (c->n == 1) return 0;
  /* watches: two open (or true) literals, else a true or open one and a
   * false one */
  int w0 = sat >= 0 ? sat : open >= 0 ? open : 0;
  int w1 = -1;
  for (int q = 0; q < c->n && w1 < 0; q++)
    if (q != w0 && lv(k, c->l[q]) != -1) w1 = q;
  if (w1 < 0) w1 = fls >= 0 && fls != w0 ? fls : (w0 == 0 ? 1 : 0);
  c->w0 = w0;
  c->w1 = w1;
  if (cvec_push(&k->watch[code(c->l[w0])], idx) || cvec_push(&k->watch[code(c->l[w1])], idx))
    return -1;
  return 0;
}

static int db_add(checker *k, int *l, int n) {
  if (k->ncl == k->ccl) {
    int nc = k->ccl ? k->ccl * 2 : 256;
    cclause *a = realloc(k->cl, sizeof(cclause) * (size_t)nc);
    if (!a) return -1;
    k->cl = a;
    k->ccl = nc;
  }
  int idx = k->ncl;
  for (int i = 0; i < n; i++)
    if (ensure_watch(k, abs(l[i]))) return -1;
  k->cl[k->ncl++] = (cclause){l, n, 0, 0, 1};
  if (dh_insert(k, idx)) return -1;
  if (n == 0) {
    k->has_empty = 1;
    return 0;
  }
  if (n == 1 && (cvec_push(&k->units, idx) || cvec_push(&k->ulit, l[0]))) return -1;
  if (k->root_ok && !k->root_conflict) return root_add(k, idx);
  if (n == 1) return 0;
  if (cvec_push(&k->watch[code(l[0])], idx) || cvec_push(&k->watch[code(l[1])], idx)) return -1;
  return 0;
}

static void db_delete(checker *k, int *l, int n) {
  if (!k->dhcap) return;
  uint64_t h = hash_cl(l, n) & (uint64_t)(k->dhcap - 1);
  while (k->dh[h]) {
    cclause *c = &k->cl[k->dh[h] - 1];
    if (!c->dead && c->n == n && !memcmp(c->l, l, sizeof(int) * (size_t)n)) {
      c->dead = 1; /* watches drop it lazily; the units lists lose it */
      if (n == 1) k->units_dirty = 1;
      k->root_ok = 0; /* what it implied may no longer hold */
      if (n == 0) {
        k->has_empty = 0;
        for (int i = 0; i < k->ncl; i++) k->has_empty |= !k->cl[i].dead && k->cl[i].n == 0;
      }
      return;
    }
    h = (h + 1) & (uint64_t)(k->dhcap - 1);
  }
}

static int lv(const checker *k, int lit) {
  int v = k->val[abs(lit)];
  return lit > 0 ? v : -v;
}

static int assign(checker *k, int lit) {
  if (k->ntrail == k->ctrail) {
    int nc = k->ctrail ? k->ctrail * 2 : 256;
    int *nt = realloc(k->trail, sizeof(int) * (size_t)nc);
    if (!nt) {
      k->oom = 1;
      return -1;
    }
    k->trail = nt;
    k->ctrail = nc;
  }
  k->val[abs(lit)] = (signed char)(lit > 0 ? 1 : -1);
  k->trail[k->ntrail++] = lit;
  return 0;
}

/* Unit propagation over the watches of the literals trail[head..] made
 * false: 1 conflict, 0 fixpoint (propagate_from, below). */

/* The root from scratch: every live unit, then propagation.  0, or -1 out
 * of memory (k->oom). */
static int root_build(checker *k) {
  for (int i = 0; i < k->ntrail; i++) k->val[abs(k->trail[i])] = 0;
  k->ntrail = k->root_n = 0;
  k->root_conflict = 0;
  if (k->units_dirty) {
    int j = 0;
    for (int i = 0; i < k->units.n; i++) {
      if (k->cl[k->units.a[i]].dead) continue;
      k->units.a[j] = k->units.a[i];
      k->ulit.a[j++] = k->ulit.a[i];
    }
    k->units.n = k->ulit.n = j;
    k->units_dirty = 0;
  }
  assert(k->units.n == k->ulit.n);
  int r = 0;
  for (int i = 0; i < k->ulit.n && !r; i++) {
    int u = k->ulit.a[i];
    assert(!k->cl[k->units.a[i]].dead && k->cl[k->units.a[i]].l[0] == u);
    int v = lv(k, u);
    if (v == -1) r = 1;
    if (v == 0 && assign(k, u)) r = 1;
  }
  if (!r) r = propagate_from(k, 0);
  if (k->oom) return -1;
  k->root_conflict = r;
  k->root_n = k->ntrail;
  k->root_ok = 1;
  return 0;
}

static int propagate_from(checker *k, int head) {
  for (; head < k->ntrail; head++) {
    int f = -k->trail[head]; /* literal made false */
    if (ensure_watch(k, abs(f))) {
      k->oom = 1;
      return 1;
    }
    cvec *ws = &k->watch[code(f)];
    int j = 0;
    for (int i = 0; i < ws->n; i++) {
      int ci = ws->a[i];
      cclause *c = &k->cl[ci];
      if (c->dead) continue;
      if (c->l[c->w0] == f) {
        int t = c->w0;
        c->w0 = c->w1;
        c->w1 = t;
      }
      if (c->l[c->w1] != f) continue; /* stale entry */
      int other = c->l[c->w0];
      if (lv(k, other) == 1) {
        ws->a[j++] = ci;
        continue;
      }
      int moved = 0;
      for (int q = 0; q < c->n; q++) {
        if (q == c->w0 || q == c->w1 || lv(k, c->l[q]) == -1) continue;
        c->w1 = q;
        if (cvec_push(&k->watch[code(c->l[q])], ci)) {
          k->oom = 1;
          return 1;
        }
        moved = 1;
        break;
      }
      if (moved) continue;
      ws->a[j++] = ci;
      if (lv(k, other) == -1) {
        for (i++; i < ws->n; i++) ws->a[j++] = ws->a[i];
        ws->n = j;
        return 1;
      }
      if (assign(k, other)) return 1;
    }
    ws->n = j;
  }
  return 0;
}

/* Reverse unit propagation: assuming the negation of l[0..n), unit
 * propagation over the live clauses reaches a conflict.  It starts from
 * the root (their own propagation, which every check would repeat) and
 * takes back only what the negation added. */
static int rup(checker *k, const int *l, int n) {
  if (k->has_empty) return 1;
  if (!k->root_ok && root_build(k)) return 0; /* out of memory proves nothing */
  if (k->root_conflict) return 1;
  assert(k->ntrail == k->root_n);
  int r = 0;
  for (int i = 0; i < n && !r; i++) {
    int v = lv(k, l[i]);
    if (v == 1) r = 1; /* true at the root, or a tautology */
    if (v == 0 && assign(k, -l[i])) r = 1;
  }
  if (!r) r = propagate_from(k, k->root_n);
  for (int i = k->root_n; i < k->ntrail; i++) k->val[abs(k->trail[i])] = 0;
  k->ntrail = k->root_n;
  return k->oom ? 0 : r; /* out of memory proves nothing */
}

/* ---------------------------------------------------------- theory check */

/* Bounds (and Boolean values) that the negation of the lemma imposes.
 * Returns 1 if the negation is itself contradictory. */
static int neg_bounds(checker *k, const int *l, int n) {
  for (int i = 0; i < n; i++) {
    int v = abs(l[i]);
    int nv = l[i] > 0 ? -1 : 1; /* value of var v under the negation */
    if (k->tval[v] && k->tval[v] != nv) return 1;
    k->tval[v] = (signed char)nv;
    if (v == k->T && nv == -1) return 1;
    int x = k->ord_x[v];
    if (x >= 0) {
      int64_t kk = k->ord_k[v];
      if (k->lb[x] == k->v[x].lo && k->ub[x] == k->v[x].hi) k->tx[k->ntx++] = x;
      if (nv == 1 && kk < k->ub[x]) k->ub[x] = kk;
      if (nv == -1 && kk + 1 > k->lb[x]) k->lb[x] = kk + 1;
      if (k->lb[x] > k->ub[x]) return 1;
    }
  }
  return 0;
}

static int64_t cmod(int64_t a, int64_t p) {
  int64_t r = a % p;
  return r < 0 ? r + p : r;
}

static int theory_valid2(checker *k, const ccons *c, const int *l, int n);

static int cmp_i64(const void *p, const void *q) {
  int64_t a = *(const int64_t *)p, b = *(const int64_t *)q;
  return (a > b) - (a < b);
}

/* The window rule of a modulo constraint, under the bounds of a lemma's
 * negation: uses whose times x + off lie in [a, b], w = b - a + 1 <
 * period, take w distinct residues, so at most cap * w of them fit; if
 * more are confined there, no assignment within the bounds exists.  Tried
 * at every a that is some use's earliest time: the latest times of the
 * uses that start at or after a and end before a + period, ascending; the
 * i-th of them (from 1) closes a window [a, b] that holds i uses.
 * 1: crowded (the lemma holds), 0: not, -1: out of memory. */
static int crowded(const checker *k, const ccons *c) {
  size_t sz = (size_t)(c->n > 0 ? c->n : 1) * sizeof(int64_t);
  int64_t *e = malloc(sz), *l = malloc(sz), *b = malloc(sz);
  int m = 0, r = 0;
  if (!e || !l || !b) r = -1;
  for (int i = 0; r == 0 && i < c->n; i++) {
    int64_t lo = k->lb[c->x[i]] + c->a[i], hi = k->ub[c->x[i]] + c->a[i];
    if (hi - lo + 1 >= c->period) continue; /* in no window shorter than the period */
    e[m] = lo;
    l[m++] = hi;
  }
  for (int s = 0; r == 0 && s < m; s++) {
    int nb = 0;
    for (int i = 0; i < m; i++)
      if (e[i] >= e[s] && l[i] - e[s] + 1 < c->period) b[nb++] = l[i];
    qsort(b, (size_t)nb, sizeof *b, cmp_i64);
    for (int i = 0; i < nb && !r; i++)
      if ((wide)(i + 1) > (wide)c->cap * (b[i] - e[s] + 1)) r = 1;
  }
  free(e);
  free(l);
  free(b);
  return r;
}

/* c == NULL: a domain lemma (constraint 0), valid iff its negation alone
 * empties a domain */
static int theory_valid(checker *k, const ccons *c, const int *l, int n) {
  int r;
  k->ntx = 0;
  int *tx = realloc(k->tx, sizeof(int) * (size_t)(n + 1));
  if (!tx) return 0;
  k->tx = tx;
  if (!c) {
    r = neg_bounds(k, l, n);
  } else {
    r = theory_valid2(k, c, l, n);
  }
  for (int i = 0; i < n; i++) k->tval[abs(l[i])] = 0;
  for (int i = 0; i < k->ntx; i++) {
    k->lb[k->tx[i]] = k->v[k->tx[i]].lo;
    k->ub[k->tx[i]] = k->v[k->tx[i]].hi;
  }
  k->ntx = 0;
  return r;
}

static uint64_t ok_hash(int x, int64_t kk) {
  return ((uint64_t)(uint32_t)x * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)kk * 0xff51afd7ed558ccdull);
}

/* record that (x, kk) has an order literal: 1 if it had one, -1 on OOM */
static int ok_insert(checker *k, int x, int64_t kk) {
  if (2 * (k->okused + 1) > k->okcap) {
    int nc = k->okcap ? k->okcap * 2 : 256;
    int64_t *nk = calloc((size_t)nc, sizeof(int64_t));
    int *nx = calloc((size_t)nc, sizeof(int));
    if (!nk || !nx) {
      free(nk);
      free(nx);
      return -1;
    }
    for (int i = 0; i < k->okcap; i++) {
      if (!k->ok_x[i]) continue;
      uint64_t h = ok_hash(k->ok_x[i] - 1, k->ok_k[i]) & (uint64_t)(nc - 1);
      while (nx[h]) h = (h + 1) & (uint64_t)(nc - 1);
      nx[h] = k->ok_x[i];
      nk[h] = k->ok_k[i];
    }
    free(k->ok_k);
    free(k->ok_x);
    k->ok_k = nk;
    k->ok_x = nx;
    k->okcap = nc;
  }
  uint64_t h = ok_hash(x, kk) & (uint64_t)(k->okcap - 1);
  while (k->ok_x[h]) {
    if (k->ok_x[h] == x + 1 && k->ok_k[h] == kk) return 1;
    h = (h + 1) & (uint64_t)(k->okcap - 1);
  }
  k->ok_x[h] = x + 1;
  k->ok_k[h] = kk;
  k->okused++;
  return 0;
}

static int theory_valid2(checker *k, const ccons *c, const int *l, int n) {
  if (neg_bounds(k, l, n)) return 1;
  if (!c->mod) {
    if (c->reif) {
      int v = k->tval[abs(c->reif)];
      if (abs(c->reif) == k->T) v = 1;
      if ((c->reif > 0 ? v : -v) != 1) return 0;
    }
    wide mn = 0;
    for (int i = 0; i < c->n; i++) {
      if (c->x[i] >= 0) {
        mn += (wide)c->a[i] * (c->a[i] > 0 ? k->lb[c->x[i]] : k->ub[c->x[i]]);
      } else {
        int v = abs(c->l[i]) == k->T ? 1 : k->tval[abs(c->l[i])];
        if (c->l[i] < 0) v = -v;
        if (v == 1)
          mn += c->a[i];
        else if (v == 0 && c->a[i] < 0)
          mn += c->a[i];
      }
    }
    return mn > c->b;
  }
  /* more uses than residues can hold: violated by every assignment */
  if ((wide)c->n > (wide)c->cap * c->period) return 1;
  for (int i = 0; i < c->n; i++) {
    int xi = c->x[i];
    if (k->lb[xi] != k->ub[xi]) continue;
    int64_t r = cmod(k->lb[xi] + c->a[i], c->period);
    int cnt = 0;
    for (int j = 0; j < c->n; j++) {
      int xj = c->x[j];
      if (k->lb[xj] == k->ub[xj] && cmod(k->lb[xj] + c->a[j], c->period) == r) cnt++;
    }
    if (cnt > c->cap) return 1;
  }
  return crowded(k, c) == 1;
}

/* ----------------------------------------------------------------- lines */

static int parse_cons(checker *k, cur *c) {
  int id;
  const char *s;
  size_t n;
  if (tok_int(c, &id) || id < 1 || id > 10000000) return fail(k, "bad constraint id");
  if (id <= k->ncid && k->c[id - 1]) return fail(k, "constraint %d defined twice", id);
  if (!next_tok(c, &s, &n)) return fail(k, "missing constraint kind");
  ccons *cc = calloc(1, sizeof *cc);
  if (!cc) return fail(k, "out of memory");
  if (id > k->ncid) {
    ccons **nc = realloc(k->c, sizeof(ccons *) * (size_t)id);
    if (!nc) {
      free(cc);
      return fail(k, "out of memory");
    }
    for (int i = k->ncid; i < id; i++) nc[i] = NULL;
    k->c = nc;
    k->ncid = id;
  }
  k->c[id - 1] = cc;
  int cnt;
  if (n == 3 && !memcmp(s, "lin", 3)) {
    if (tok_int(c, &cc->reif) || tok_int(c, &cnt) || cnt < 0 || cnt > 1000000)
      return fail(k, "bad linear constraint header");
    if (abs(cc->reif) > MAXV || grow_map(k, abs(cc->reif) + 1)) return fail(k, "bad literal");
    if (abs(cc->reif) > k->maxvar) k->maxvar = abs(cc->reif);
  } else if (n == 3 && !memcmp(s, "mod", 3)) {
    cc->mod = 1;
    if (tok_int(c, &cc->cap) || tok_i64(c, &cc->period) || tok_int(c, &cnt) || cc->period < 1 ||
        cnt < 0 || cnt > 1000000)
      return fail(k, "bad modulo constraint header");
  } else {
    return fail(k, "unknown constraint kind");
  }
  cc->n = cnt;
  cc->a = malloc(sizeof(int64_t) * (size_t)(cnt + 1));
  cc->x = malloc(sizeof(int) * (size_t)(cnt + 1));
  cc->l = malloc(sizeof(int) * (size_t)(cnt + 1));
  if (!cc->a || !cc->x || !cc->l) return fail(k, "out of memory");
  for (int i = 0; i < cnt; i++) {
    cc->l[i] = 0;
    if (cc->mod) {
      if (tok_int(c, &cc->x[i]) || tok_i64(c, &cc->a[i]) || cc->x[i] < 0 || cc->x[i] >= k->nv)
        return fail(k, "bad modulo use");
      continue;
    }
    if (tok_i64(c, &cc->a[i]) || !next_tok(c, &s, &n) || n < 2) return fail(k, "bad term");
    cur t = {s + 1, s + n};
    int id2;
    if (tok_int(&t, &id2)) return fail(k, "bad term");
    if (s[0] == 'x' && id2 >= 0 && id2 < k->nv) {
      cc->x[i] = id2;
    } else if (s[0] == 'l' && id2 != 0) {
      cc->x[i] = -1;
      cc->l[i] = id2;
      if (abs(id2) > MAXV || grow_map(k, abs(id2) + 1)) return fail(k, "bad literal");
      if (abs(id2) > k->maxvar) k->maxvar = abs(id2);
    } else {
      return fail(k, "bad term");
    }
  }
  if (!cc->mod && tok_i64(c, &cc->b)) return fail(k, "bad right-hand side");
  return 0;
}

static void free_checker(checker *k) {
  free(k->v);
  free(k->ord_x);
  free(k->ord_k);
  for (int i = 0; i < k->ncid; i++)
    if (k->c[i]) {
      free(k->c[i]->a);
      free(k->c[i]->x);
      free(k->c[i]->l);
      free(k->c[i]);
    }
  free(k->c);
  for (int i = 0; i < k->ncl; i++) free(k->cl[i].l);
  free(k->cl);
  for (int i = 0; i < k->nwatch; i++) free(k->watch[i].a);
  free(k->watch);
  free(k->dh);
  free(k->units.a);
  free(k->ulit.a);
  free(k->trail);
  for (int i = 0; i < k->nlem; i++) free(k->lem[i]);
  free(k->lem);
  free(k->lemn);
  free(k->hash);
  free(k->val);
  free(k->tval);
  free(k->lb);
  free(k->ub);
  free(k->ok_k);
  free(k->ok_x);
  free(k->tx);
}

/* An input clause after the problem, handed to the caller's judge with the
 * meaning of every order literal in it (x = -1 for other literals). */
static int late_clause(checker *k, const int *l, int m) {
  int *ox = malloc(sizeof(int) * (size_t)(m + 1));
  int64_t *ok = malloc(sizeof(int64_t) * (size_t)(m + 1));
  if (!ox || !ok) {
    free(ox);
    free(ok);
    return fail(k, "out of memory");
  }
  for (int i = 0; i < m; i++) {
    int v = abs(l[i]);
    ox[i] = v < k->nmap ? k->ord_x[v] : -1;
    ok[i] = ox[i] >= 0 ? k->ord_k[v] : 0;
  }
  int bad = k->in->late(k->in->ctx, m, l, ox, ok);
  free(ox);
  free(ok);
  return bad ? fail(k, "input clause after the problem's own input not accepted") : 0;
}

static int check_line(checker *k, cur *c, int *refuted) {
  const char *s;
  size_t n;
  cur save = *c;
  if (!next_tok(c, &s, &n)) return 0;
  if (s[0] == 'c') return 0;
  /* an input directive (the problem's own variables, constraints and
   * clauses) where the caller allows none: decided on this reader's own
   * tokens, so that " a 0" or "a<TAB>0" counts like "a 0" */
  if (k->late && n == 1 &&
      (s[0] == 'p' || s[0] == 'T' || s[0] == 'i' || s[0] == 'k' ||
       (s[0] == 'a' && !k->in->late)))
    return fail(k, "input line '%c' after the problem's own input", s[0]);
  if (n == 1 && s[0] == 'p') {
    int ver;
    if (!next_tok(c, &s, &n) || n != 9 || memcmp(s, "twill-smt", 9) || tok_int(c, &ver) ||
        ver != 2)
      return fail(k, "bad header");
    return 0;
  }
  if (n == 1 && s[0] == 'T') {
    int t;
    if (tok_int(c, &t) || t <= 0 || t > MAXV || k->T || t <= k->maxvar || grow_map(k, t + 1))
      return fail(k, "bad true literal");
    k->T = t;
    k->maxvar = t;
    return 0;
  }
  if (n == 1 && s[0] == 'i') {
    int id;
    int64_t lo, hi;
    if (tok_int(c, &id) || tok_i64(c, &lo) || tok_i64(c, &hi) || id != k->nv || lo > hi ||
        lo < -TWILL_SMT_MAX_ABS || hi > TWILL_SMT_MAX_ABS)
      return fail(k, "bad integer variable");
    cvar *nv = realloc(k->v, sizeof(cvar) * (size_t)(k->nv + 1));
    if (!nv) return fail(k, "out of memory");
    k->v = nv;
    k->v[k->nv++] = (cvar){lo, hi};
    int64_t *a = realloc(k->lb, sizeof(int64_t) * (size_t)k->nv);
    if (a) k->lb = a;
    int64_t *b = realloc(k->ub, sizeof(int64_t) * (size_t)k->nv);
    if (b) k->ub = b;
    if (!a || !b) return fail(k, "out of memory");
    k->lb[id] = lo;
    k->ub[id] = hi;
    return 0;
  }
  if (n == 1 && s[0] == 'o') {
    int x, lit;
    int64_t kk;
    if (tok_int(c, &x) || tok_i64(c, &kk) || tok_int(c, &lit) || x < 0 || x >= k->nv ||
        kk < k->v[x].lo || kk >= k->v[x].hi)
      return fail(k, "bad order literal");
    if (lit <= k->maxvar || lit > MAXV || !k->T)
      return fail(k, "order literal %d is not a fresh variable", lit);
    int dup = ok_insert(k, x, kk);
    if (dup < 0 || grow_map(k, lit + 1)) return fail(k, "out of memory");
    if (dup) return fail(k, "second order literal for [x%d <= %lld]", x, (long long)kk);
    k->ord_x[lit] = x;
    k->ord_k[lit] = kk;
    k->maxvar = lit;
    return 0;
  }
  if (n == 1 && s[0] == 'k') return parse_cons(k, c);
  int *l, m;
  if (n == 1 && (s[0] == 'a' || s[0] == 'd')) {
    if (tok_clause(k, c, s[0] == 'a' ? MAXV : k->maxvar, &l, &m)) return -1;
    norm(l, &m);
    if (s[0] == 'd') {
      db_delete(k, l, m);
      free(l);
      return 0;
    }
    if (k->late && late_clause(k, l, m)) {
      free(l);
      return -1;
    }
    if (db_add(k, l, m)) {
      free(l);
      return fail(k, "out of memory");
    }
    return 0;
  }
  if (n == 1 && s[0] == 't') {
    int id;
    if (tok_int(c, &id)) return fail(k, "bad constraint id");
    if (tok_clause(k, c, k->maxvar, &l, &m)) return -1;
    if (id < 0 || id > k->ncid || (id > 0 && !k->c[id - 1])) {
      free(l);
      return fail(k, "theory lemma names unknown constraint %d", id);
    }
    if (!theory_valid(k, id ? k->c[id - 1] : NULL, l, m)) {
      free(l);
      return fail(k, id ? "theory lemma does not follow from constraint %d"
                        : "theory lemma does not follow from the domains",
                  id);
    }
    norm(l, &m);
    /* a checked lemma follows from the constraints: it joins the clauses */
    int *dup = malloc(sizeof(int) * (size_t)(m + 1));
    if (!dup) {
      free(l);
      return fail(k, "out of memory");
    }
    memcpy(dup, l, sizeof(int) * (size_t)m);
    if (db_add(k, dup, m)) {
      free(dup);
      free(l);
      return fail(k, "out of memory");
    }
    if (lem_add(k, l, m)) return fail(k, "out of memory");
    return 0;
  }
  /* a DRAT addition */
  *c = save;
  if (tok_clause(k, c, k->maxvar, &l, &m)) return -1;
  norm(l, &m);
  if (!lem_find(k, l, m) && !rup(k, l, m)) {
    free(l);
    return fail(k, "clause is neither RUP nor a checked theory lemma");
  }
  if (m == 0) *refuted = 1;
  if (db_add(k, l, m)) {
    free(l);
    return fail(k, "out of memory");
  }
  return 0;
}

int twill_smt_check_proof(const char *text, size_t len, char *msg, size_t msgcap) {
  return twill_smt_check_proof_inputs(text, len, NULL, msg, msgcap);
}

int twill_smt_check_proof_inputs(const char *text, size_t len, const twill_smt_inputs *in,
                                 char *msg, size_t msgcap) {
  checker k;
  memset(&k, 0, sizeof k);
  k.msg = msg;
  k.msgcap = msgcap;
  k.in = in;
  if (msgcap) msg[0] = 0;
  int refuted = 0, rc = 0;
  if (grow_map(&k, 2)) return -1;
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e) e = end;
    k.line++;
    k.late = in && (size_t)(e - text) >= in->end; /* ends past the problem */
    cur c = {p, e};
    if (check_line(&k, &c, &refuted)) {
      rc = -1;
      break;
    }
    const char *s;
    size_t n;
    if (next_tok(&c, &s, &n)) {
      fail(&k, "trailing text");
      rc = -1;
      break;
    }
    p = e + 1;
  }
  if (rc == 0 && !refuted && rup(&k, NULL, 0)) refuted = 1;
  if (rc == 0 && !refuted && msgcap) snprintf(msg, msgcap, "proof: no empty clause derived");
  free_checker(&k);
  return rc < 0 ? -1 : refuted;
}
