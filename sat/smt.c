/* sat/smt.c: integer variables (order encoding) and linear / modulo
 * propagators on the CDCL core's theory hook, with explained, certified
 * theory lemmas (see twill/smt.h for the encoding and proof format). */
#include "twill/smt.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "twill/sat.h"

__extension__ typedef __int128 i128;

typedef struct {
  int *a;
  int n, cap;
} ivec;

static int ivec_push(ivec *v, int x) {
  if (v->n == v->cap) {
    int nc = v->cap ? v->cap * 2 : 8;
    int *na = realloc(v->a, sizeof(int) * (size_t)nc);
    if (!na) return -1;
    v->a = na;
    v->cap = nc;
  }
  v->a[v->n++] = x;
  return 0;
}

typedef struct {
  char *s;
  size_t n, cap;
  int oom;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) {
  if (b->oom) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->n;
    int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      b->oom = 1;
      return;
    }
    if (b->s && (size_t)k < room) {
      b->n += (size_t)k;
      return;
    }
    size_t nc = b->cap ? b->cap * 2 : 4096;
    while (nc < b->n + (size_t)k + 1) nc *= 2;
    char *ns = realloc(b->s, nc);
    if (!ns) {
      b->oom = 1;
      return;
    }
    b->s = ns;
    b->cap = nc;
  }
}

/* A term of a counted linear row (see count_bool): row ci has a * lit (cls:
 * the index of |a| in the row's cls_a), or a * x for the integer variable
 * that keeps it. */
typedef struct {
  int ci, lit, cls;
  int64_t a;
} cterm;

/* An integer variable: domain [lo, hi], current bounds [lb, ub], and the
 * order literals created so far: [x <= ks[i]] is SAT var ls[i], ks strictly
 * ascending within [lo, hi-1].  Invariants (at a theory fixpoint): every
 * literal with k >= ub is true or unassigned-but-pending (see late), every
 * one with k < lb false or pending, those in [lb, ub-1] unassigned; the
 * bound lb (ub) is the domain's or set by the false literal [x <= lb-1]
 * (true [x <= ub]); an unfixed variable has a literal in [lb, ub-1] (the
 * SAT core decides it), so a complete assignment fixes every variable. */
typedef struct {
  int64_t lo, hi, lb, ub;
  int64_t *ks;
  int *ls;
  int nl, cl;
  ivec occ; /* constraints */
  cterm *ct; /* its terms in counted rows (lit unused) */
  int nct, cct;
  unsigned touched;
} ivar;

typedef struct {
  int ivar; /* -1: a Boolean */
  int64_t k;
  ivec occ; /* constraints having this var as a literal term / reif */
  cterm *ct; /* its literal terms in counted rows */
  int nct, cct;
  int8_t counted; /* its value is in the rows' msum: cval */
  int8_t cval;    /* the value of the positive literal when counted */
  int *rl;  /* stored reason when implied by the theory (rn > 2) */
  int rn, rcap, rcid;
  int r2[2]; /* the reason when rn <= 2: the domain lemmas that chain a
                variable's order literals, most of all implications; kept
                here, in the line imply() has just read, rather than in rl,
                one more cache miss away (ChStone adpcm/graph1: 44% of the
                SMT engine's time was imply(), nearly all of it misses) */
} svar;

typedef struct {
  int kind; /* 0 linear, 1 modulo */
  int diff; /* an unconditional dx - dy <= b: the difference
               propagator's (dp_run), not the queue's */
  int nowin; /* modulo: the window rule switched off */
  int dx, dy;
  int reif;
  int n;
  int64_t *a; /* linear: coefficients; modulo: offsets */
  int *var;   /* int var index, or -1 */
  int *lit;   /* literal when var < 0 */
  int64_t b;
  int cap;
  int64_t period;
  /* a counted linear row (not a difference): msum is the least value of
   * its left side over the counted literals and the current bounds; its
   * literal terms' distinct |a| in descending order, cls_a, with the
   * number of them not counted, cls_free; vpos its integer terms */
  int counted, nvpos, ncls;
  int *vpos, *cls_free;
  int64_t *cls_a;
  i128 msum;
} cons;

typedef struct {
  int x;
  int level;
  int64_t lb, ub;
} trail_e;

struct twill_smt {
  twill_sat *s;
  const int8_t *const *val; /* the core's value table: lit_val */
  ivec cstk; /* the counted Boolean vars, in the core's trail order */
  int T; /* constant true literal */
  ivar *iv;
  int niv, civ;
  svar *sv; /* indexed by SAT var */
  int nsv, csv;
  cons *c;
  int nc, cc;
  trail_e *tr;
  int ntr, ctr;
  int *queue;       /* a ring of the constraints to visit: qh its head, nq */
  int nq, qh;       /* its length; stamp[ci] == cur_stamp while ci is in it */
  unsigned *stamp;
  unsigned cur_stamp;
  int all_pending;
  int proof;
  FILE *drat;
  sbuf ax, tl;
  uint64_t lemmas;
  int64_t *model;
  signed char *bmodel; /* per SAT var */
  int nbm, nim;        /* sizes of bmodel / model */
  int has_model;
  int err;
  int conflicted;  /* a conflict was reported in this propagate call */
  ivec late;       /* order literals whose value the bounds may force */
  int recheck;     /* late must be scanned at the next propagate */
  ivec touched;    /* int vars whose bounds changed in this call */
  unsigned tstamp;
  uint64_t nlits;  /* order literals created */
  ivec tmp, tmp2;
  /* the difference propagator (dp_run): per int var, tentative bounds and
   * the constraint that set each (valid while dstamp[x] == dcur), the
   * relaxation count, and a ring worklist of the variables whose bounds
   * moved (inwl[x] == dcur while queued) */
  int64_t *dtl, *dtu;
  int *dpl, *dpu, *drc, *dwl, *dord, *dmv;
  unsigned *dstamp, *inwl, *dmark, dcur, wcur;
  int dcap, dwn, dwh, dp_fallback;
  int64_t *mtmp;
  int *mtmpi;
  int mtcap;
  /* the window rule of prop_modulo (overload): the narrow uses, the
   * distinct earliest times, and a mark per int var for the explanation */
  struct owin *ow;
  int64_t *oe;
  int owcap;
  unsigned *omark, ocur;
  int omcap;
};

/* the SAT core's value of lit, read from its table (twill/sat.h) */
static inline int lit_val(const twill_smt *m, int lit) {
  assert(abs(lit) <= twill_sat_num_vars(m->s));
  if (lit == 0) return 0; /* no literal (find_le found none) */
  return (*m->val)[lit > 0 ? 2 * (lit - 1) : 2 * (-lit - 1) + 1];
}

/* ---- the counted linear rows ---------------------------------------------
 * A visit of a linear row first asks whether it can imply anything at all
 * (counted_quiet): the least value of its left side, minsum, against b, and
 * the largest move a single term has left.  Recomputing minsum reads every
 * literal of the row, and a joint problem's register rows have tens of
 * them and are visited on most assignments: those passes were three fifths
 * of a joint search's time.  So every linear row but a difference keeps
 * msum, its minsum, up to date.  A Boolean var adds its terms' shares when
 * the theory first sees it assigned (count_bool: at the start of
 * th_propagate, or at once when the theory implies it) and takes them back
 * when a backtrack unassigns it; a bound that moves moves its integer
 * terms' shares (count_bounds, from set_bound and th_backtrack).  The
 * counted vars stay on cstk in the core's trail order, so a backtrack pops
 * the unassigned ones off its top.  The test is only a filter: a row that
 * may imply something is visited in full as before, so the search and its
 * proof do not change. */

/* what a literal term adds to msum over its unassigned value: a literal
 * left unassigned counts as true when a < 0 (the base holds a) and as
 * false when a > 0 */
static i128 cterm_share(int64_t a, int lit, int8_t cval) {
  int t = lit > 0 ? cval : -cval;
  if (a > 0 && t == 1) return a;
  if (a < 0 && t == -1) return -(i128)a;
  return 0;
}

static void count_apply(twill_smt *m, const svar *sv, int sign) {
  for (int i = 0; i < sv->nct; i++) {
    const cterm *t = &sv->ct[i];
    cons *c = &m->c[t->ci];
    i128 d = cterm_share(t->a, t->lit, sv->cval);
    c->msum += sign > 0 ? d : -d;
    c->cls_free[t->cls] -= sign;
  }
}

/* the theory sees Boolean var v assigned */
static void count_bool(twill_smt *m, int v) {
  if (v >= m->nsv || m->sv[v].counted) return;
  svar *sv = &m->sv[v];
  if (ivec_push(&m->cstk, v)) {
    m->err = 1;
    return;
  }
  sv->counted = 1;
  sv->cval = (int8_t)lit_val(m, v);
  assert(sv->cval != 0);
  count_apply(m, sv, 1);
}

/* after a backtrack: the unassigned vars are the top of cstk */
static void uncount_bools(twill_smt *m) {
  while (m->cstk.n > 0) {
    int v = m->cstk.a[m->cstk.n - 1];
    if (lit_val(m, v) != 0) break;
    count_apply(m, &m->sv[v], -1);
    m->sv[v].counted = 0;
    m->cstk.n--;
  }
}

/* x's bounds are about to become [lb, ub] */
static void count_bounds(twill_smt *m, int x, int64_t lb, int64_t ub) {
  const ivar *v = &m->iv[x];
  for (int i = 0; i < v->nct; i++) {
    const cterm *t = &v->ct[i];
    m->c[t->ci].msum += t->a > 0 ? (i128)t->a * (lb - v->lb) : (i128)t->a * (ub - v->ub);
  }
}

static int push_cterm(cterm **a, int *n, int *cap, cterm t) {
  if (*n == *cap) {
    int nc = *cap ? *cap * 2 : 4;
    cterm *na = realloc(*a, sizeof(cterm) * (size_t)nc);
    if (!na) return -1;
    *a = na;
    *cap = nc;
  }
  (*a)[(*n)++] = t;
  return 0;
}

/* make row ci counted: its terms in their vars' lists, msum from the
 * counted vars and the current bounds */
static int count_row(twill_smt *m, int ci) {
  cons *c = &m->c[ci];
  size_t k = (size_t)(c->n > 0 ? c->n : 1);
  c->vpos = malloc(sizeof(int) * k);
  c->cls_free = calloc(k, sizeof(int));
  c->cls_a = malloc(sizeof(int64_t) * k);
  if (!c->vpos || !c->cls_free || !c->cls_a) return -1;
  c->counted = 1;
  c->msum = 0;
  for (int i = 0; i < c->n; i++) { /* the classes, by insertion */
    int64_t aa = c->a[i] > 0 ? c->a[i] : -c->a[i];
    if (c->var[i] >= 0) continue;
    int j = 0;
    while (j < c->ncls && c->cls_a[j] > aa) j++;
    if (j < c->ncls && c->cls_a[j] == aa) continue;
    memmove(c->cls_a + j + 1, c->cls_a + j, sizeof(int64_t) * (size_t)(c->ncls - j));
    c->cls_a[j] = aa;
    c->ncls++;
  }
  for (int i = 0; i < c->n; i++) {
    int64_t a = c->a[i];
    cterm t = {ci, c->lit[i], 0, a};
    if (c->var[i] >= 0) {
      ivar *v = &m->iv[c->var[i]];
      c->vpos[c->nvpos++] = i;
      c->msum += (i128)a * (a > 0 ? v->lb : v->ub);
      if (push_cterm(&v->ct, &v->nct, &v->cct, t)) return -1;
    } else {
      svar *sv = &m->sv[abs(c->lit[i])];
      int64_t aa = a > 0 ? a : -a;
      while (c->cls_a[t.cls] != aa) t.cls++;
      if (a < 0) c->msum += a;
      if (sv->counted)
        c->msum += cterm_share(a, c->lit[i], sv->cval);
      else
        c->cls_free[t.cls]++;
      if (push_cterm(&sv->ct, &sv->nct, &sv->cct, t)) return -1;
    }
  }
  return 0;
}

/* ------------------------------------------------------------ variables */

static int grow_sv(twill_smt *m, int nvars) {
  if (nvars + 1 > m->csv) {
    int nc = m->csv ? m->csv : 64;
    while (nc < nvars + 1) nc *= 2;
    svar *ns = realloc(m->sv, sizeof(svar) * (size_t)nc);
    if (!ns) return -1;
    memset(ns + m->csv, 0, sizeof(svar) * (size_t)(nc - m->csv));
    m->sv = ns;
    m->csv = nc;
  }
  while (m->nsv < nvars + 1) {
    m->sv[m->nsv].ivar = -1;
    m->nsv++;
  }
  return 0;
}

static int new_svar(twill_smt *m) {
  int v = twill_sat_new_var(m->s);
  if (!v || grow_sv(m, v)) return 0;
  return v;
}

static int add_axiom(twill_smt *m, const int *lits, int n) {
  if (m->proof) {
    sb_printf(&m->ax, "a");
    for (int i = 0; i < n; i++) sb_printf(&m->ax, " %d", lits[i]);
    sb_printf(&m->ax, " 0\n");
    if (m->ax.oom) return -1;
  }
  m->all_pending = 1;
  return twill_sat_add_clause(m->s, lits, n);
}

twill_smt *twill_smt_new(void) {
  twill_smt *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->s = twill_sat_new();
  if (!m->s) {
    free(m);
    return NULL;
  }
  m->val = twill_sat_value_table(m->s);
  m->all_pending = 1;
  /* decide [x <= k] true first: integers start low (ASAP for schedules) */
  twill_sat_set_option(m->s, "phase", 1);
  return m;
}

static int ensure_true(twill_smt *m) {
  if (m->T) return 0;
  m->T = new_svar(m);
  if (!m->T) return -1;
  return add_axiom(m, &m->T, 1) < 0 ? -1 : 0;
}

int twill_smt_enable_proof(twill_smt *m) {
  if (m->niv || m->T || m->proof) return -1;
  m->drat = tmpfile();
  if (!m->drat) return -1;
  m->proof = 1;
  twill_sat_set_proof(m->s, m->drat, TWILL_PROOF_DRAT_TEXT);
  return 0;
}

void twill_smt_free(twill_smt *m) {
  if (!m) return;
  twill_sat_free(m->s);
  for (int i = 0; i < m->niv; i++) {
    free(m->iv[i].occ.a);
    free(m->iv[i].ct);
    free(m->iv[i].ks);
    free(m->iv[i].ls);
  }
  free(m->dtl), free(m->dtu), free(m->dpl), free(m->dpu), free(m->drc);
  free(m->dwl), free(m->dord), free(m->dmv), free(m->dstamp), free(m->inwl), free(m->dmark);
  free(m->late.a);
  free(m->touched.a);
  for (int i = 0; i < m->nsv; i++) {
    free(m->sv[i].occ.a);
    free(m->sv[i].ct);
    free(m->sv[i].rl);
  }
  for (int i = 0; i < m->nc; i++) {
    free(m->c[i].a);
    free(m->c[i].var);
    free(m->c[i].lit);
    free(m->c[i].vpos);
    free(m->c[i].cls_free);
    free(m->c[i].cls_a);
  }
  free(m->cstk.a);
  free(m->iv);
  free(m->sv);
  free(m->c);
  free(m->tr);
  free(m->queue);
  free(m->stamp);
  if (m->drat) fclose(m->drat);
  free(m->ax.s);
  free(m->tl.s);
  free(m->model);
  free(m->bmodel);
  free(m->tmp.a);
  free(m->tmp2.a);
  free(m->mtmp);
  free(m->mtmpi);
  free(m->ow);
  free(m->oe);
  free(m->omark);
  free(m);
}

int twill_smt_true_lit(const twill_smt *m) { return m->T; }
int twill_smt_num_ints(const twill_smt *m) { return m->niv; }
uint64_t twill_smt_num_lemmas(const twill_smt *m) { return m->lemmas; }

int twill_smt_int(twill_smt *m, int64_t lo, int64_t hi) {
  if (lo > hi || lo < -TWILL_SMT_MAX_ABS || hi > TWILL_SMT_MAX_ABS || ensure_true(m)) return -1;
  if (m->niv == m->civ) {
    int nc = m->civ ? m->civ * 2 : 16;
    ivar *ni = realloc(m->iv, sizeof(ivar) * (size_t)nc);
    if (!ni) return -1;
    m->iv = ni;
    m->civ = nc;
  }
  int x = m->niv;
  ivar *v = &m->iv[x];
  memset(v, 0, sizeof *v);
  v->lo = v->lb = lo;
  v->hi = v->ub = hi;
  if (m->proof) {
    sb_printf(&m->ax, "i %d %" PRId64 " %" PRId64 "\n", x, lo, hi);
    if (m->ax.oom) return -1;
  }
  m->niv++;
  m->all_pending = 1;
  return x;
}

int twill_smt_bool(twill_smt *m) {
  if (ensure_true(m)) return 0;
  return new_svar(m);
}

/* position of the first order literal of v with k' >= k */
static int lit_pos(const ivar *v, int64_t k) {
  int a = 0, b = v->nl;
  while (a < b) {
    int mid = (a + b) / 2;
    if (v->ks[mid] < k)
      a = mid + 1;
    else
      b = mid;
  }
  return a;
}

/* The literal [x <= k] if it exists (a constant outside [lo, hi-1]), else 0. */
static int find_le(const twill_smt *m, int x, int64_t k) {
  const ivar *v = &m->iv[x];
  if (k < v->lo) return -m->T;
  if (k >= v->hi) return m->T;
  int p = lit_pos(v, k);
  return p < v->nl && v->ks[p] == k ? v->ls[p] : 0;
}

#ifndef NDEBUG
/* Bounds consistency of x, for assert(): lo <= lb <= ub <= hi, and each
 * bound not the domain's is set by its literal: [x <= lb-1] false, [x <= ub]
 * true (they stay so until a backtrack restores the bounds with them).
 * With ladder != 0 also no literal of x contradicts the bounds (the true
 * ones are at or above lb, the false ones below ub), as the ladder
 * implications and conflicts of order_assigned ensure once a propagate
 * call has handled every assignment without a conflict. */
static int bounds_ok(const twill_smt *m, int x, int ladder) {
  const ivar *v = &m->iv[x];
  if (!(v->lo <= v->lb && v->lb <= v->ub && v->ub <= v->hi)) return 0;
  if (v->lb > v->lo && lit_val(m, find_le(m, x, v->lb - 1)) != -1) return 0;
  if (v->ub < v->hi && lit_val(m, find_le(m, x, v->ub)) != 1) return 0;
  for (int p = 0; ladder && p < v->nl; p++) {
    int val = lit_val(m, v->ls[p]);
    if ((val == 1 && v->ks[p] < v->lb) || (val == -1 && v->ks[p] >= v->ub)) return 0;
  }
  return 1;
}
#endif

/* [x <= k], created on demand: a fresh SAT variable, introduced in the
 * proof by "o x k var".  It gets no ladder clauses: the order between the
 * literals of x is kept by the theory (th_propagate), whose implications
 * and conflicts are explained by domain lemmas "t 0 -[x <= a] [x <= b] 0"
 * (a <= b).  A literal whose value the current bounds already force is put
 * on the late list and implied at the next propagation. */
static int make_le(twill_smt *m, int x, int64_t k) {
  int l = find_le(m, x, k);
  if (l) return l;
  ivar *v = &m->iv[x];
  if (v->nl == v->cl) {
    int nc = v->cl ? v->cl * 2 : 4;
    int64_t *nk = realloc(v->ks, sizeof(int64_t) * (size_t)nc);
    if (nk) v->ks = nk;
    int *nls = realloc(v->ls, sizeof(int) * (size_t)nc);
    if (nls) v->ls = nls;
    if (!nk || !nls) {
      m->err = 1;
      return 0;
    }
    v->cl = nc;
  }
  int sv = new_svar(m);
  if (!sv || ivec_push(&m->late, sv)) {
    m->err = 1;
    return 0;
  }
  int p = lit_pos(v, k);
  memmove(v->ks + p + 1, v->ks + p, sizeof(int64_t) * (size_t)(v->nl - p));
  memmove(v->ls + p + 1, v->ls + p, sizeof(int) * (size_t)(v->nl - p));
  v->ks[p] = k;
  v->ls[p] = sv;
  v->nl++;
  /* the ladder: ks strictly ascending within [lo, hi - 1] */
  assert(k >= v->lo && k < v->hi && (p == 0 || v->ks[p - 1] < k) &&
         (p + 1 == v->nl || v->ks[p + 1] > k));
  m->sv[sv].ivar = x;
  m->sv[sv].k = k;
  m->nlits++;
  m->recheck = 1;
  if (m->proof) {
    sb_printf(&m->ax, "o %d %" PRId64 " %d\n", x, k, sv);
    if (m->ax.oom) {
      m->err = 1;
      return 0;
    }
  }
  return sv;
}

int twill_smt_le_lit(twill_smt *m, int x, int64_t k) {
  if (x < 0 || x >= m->niv || ensure_true(m)) return 0;
  return make_le(m, x, k);
}

int twill_smt_find_le_lit(const twill_smt *m, int x, int64_t k) {
  if (x < 0 || x >= m->niv) return 0;
  return find_le(m, x, k);
}

uint64_t twill_smt_num_order_lits(const twill_smt *m) { return m->nlits; }

int twill_smt_eq_lit(twill_smt *m, int x, int64_t k) {
  if (x < 0 || x >= m->niv || ensure_true(m)) return 0;
  const ivar *v = &m->iv[x];
  if (k < v->lo || k > v->hi) return -m->T;
  if (v->lo == v->hi) return m->T;
  int e = new_svar(m);
  if (!e) return 0;
  int le = make_le(m, x, k), lt = make_le(m, x, k - 1);
  if (!le || !lt) return 0;
  int c1[2] = {-e, le}, c2[2] = {-e, -lt}, c3[3] = {e, -le, lt};
  if (add_axiom(m, c1, 2) < 0 || add_axiom(m, c2, 2) < 0 || add_axiom(m, c3, 3) < 0) return 0;
  return e;
}

static int valid_lit(const twill_smt *m, int lit) {
  int v = lit < 0 ? -lit : lit;
  return lit != 0 && v < m->nsv;
}

int twill_smt_clause(twill_smt *m, const int *lits, int n) {
  if (ensure_true(m)) return -1;
  for (int i = 0; i < n; i++)
    if (!valid_lit(m, lits[i])) return -1;
  return add_axiom(m, lits, n);
}

/* ---------------------------------------------------------- constraints */

static int new_cons(twill_smt *m, int n) {
  if (m->nc == m->cc) {
    int nc = m->cc ? m->cc * 2 : 16;
    cons *ncs = realloc(m->c, sizeof(cons) * (size_t)nc);
    if (!ncs) return -1;
    m->c = ncs;
    m->cc = nc;
    unsigned *ns = realloc(m->stamp, sizeof(unsigned) * (size_t)nc);
    if (!ns) return -1;
    m->stamp = ns;
    int *nq = realloc(m->queue, sizeof(int) * (size_t)nc);
    if (!nq) return -1;
    m->queue = nq;
  }
  cons *c = &m->c[m->nc];
  memset(c, 0, sizeof *c);
  size_t k = n > 0 ? (size_t)n : 1;
  c->a = malloc(sizeof(int64_t) * k);
  c->var = malloc(sizeof(int) * k);
  c->lit = malloc(sizeof(int) * k);
  if (!c->a || !c->var || !c->lit) {
    free(c->a);
    free(c->var);
    free(c->lit);
    return -1;
  }
  m->stamp[m->nc] = 0;
  c->n = n;
  return m->nc++;
}

/* the "k" line of constraint ci, written when it is added */
static int log_cons(twill_smt *m, int ci) {
  const cons *c = &m->c[ci];
  if (!m->proof) return 0;
  if (c->kind == 0) {
    sb_printf(&m->ax, "k %d lin %d %d", ci + 1, c->reif, c->n);
    for (int j = 0; j < c->n; j++) {
      if (c->var[j] >= 0)
        sb_printf(&m->ax, " %" PRId64 " x%d", c->a[j], c->var[j]);
      else
        sb_printf(&m->ax, " %" PRId64 " l%d", c->a[j], c->lit[j]);
    }
    sb_printf(&m->ax, " %" PRId64 "\n", c->b);
  } else {
    sb_printf(&m->ax, "k %d mod %d %" PRId64 " %d", ci + 1, c->cap, c->period, c->n);
    for (int j = 0; j < c->n; j++) sb_printf(&m->ax, " %d %" PRId64, c->var[j], c->a[j]);
    sb_printf(&m->ax, "\n");
  }
  return m->ax.oom ? -1 : 0;
}

static int add_occ(twill_smt *m, int ci) {
  if (log_cons(m, ci)) return -1;
  cons *c = &m->c[ci];
  for (int i = 0; i < c->n; i++) {
    ivec *o = c->var[i] >= 0 ? &m->iv[c->var[i]].occ : &m->sv[abs(c->lit[i])].occ;
    if (o->n && o->a[o->n - 1] == ci) continue;
    if (ivec_push(o, ci)) return -1;
  }
  if (c->reif && ivec_push(&m->sv[abs(c->reif)].occ, ci)) return -1;
  m->all_pending = 1;
  return 0;
}

int twill_smt_linear(twill_smt *m, const twill_smt_term *t, int n, int64_t b, int reif) {
  if (n < 0 || b < -TWILL_SMT_MAX_ABS || b > TWILL_SMT_MAX_ABS || ensure_true(m)) return -1;
  if (reif && !valid_lit(m, reif)) return -1;
  for (int i = 0; i < n; i++) {
    if (t[i].a < -TWILL_SMT_MAX_ABS || t[i].a > TWILL_SMT_MAX_ABS) return -1;
    if (t[i].var >= 0 ? t[i].var >= m->niv : !valid_lit(m, t[i].lit)) return -1;
  }
  int ci = new_cons(m, n);
  if (ci < 0) return -1;
  cons *c = &m->c[ci];
  c->kind = 0;
  c->reif = reif;
  c->b = b;
  for (int i = 0; i < n; i++) {
    c->a[i] = t[i].a;
    c->var[i] = t[i].var >= 0 ? t[i].var : -1;
    c->lit[i] = t[i].var >= 0 ? 0 : t[i].lit;
  }
  c->diff = !reif && n == 2 && c->var[0] >= 0 && c->var[1] >= 0 &&
            c->var[0] != c->var[1] && c->a[0] == -c->a[1] &&
            (c->a[0] == 1 || c->a[0] == -1);
  if (c->diff) { /* dx - dy <= b */
    c->dx = c->a[0] == 1 ? c->var[0] : c->var[1];
    c->dy = c->a[0] == 1 ? c->var[1] : c->var[0];
  }
  if (add_occ(m, ci)) return -1;
  if (!c->diff && count_row(m, ci)) return -1;
  return ci + 1;
}

int twill_smt_diff(twill_smt *m, int x, int y, int64_t c) {
  twill_smt_term t[2] = {{1, x, 0}, {-1, y, 0}};
  if (x < 0 || y < 0) return -1;
  return twill_smt_linear(m, t, 2, c, 0);
}

int twill_smt_pb(twill_smt *m, const int64_t *a, const int *lits, int n, int64_t b) {
  if (n < 0) return -1;
  twill_smt_term *t = malloc(sizeof *t * (size_t)(n ? n : 1));
  if (!t) return -1;
  for (int i = 0; i < n; i++) {
    t[i].a = a[i];
    t[i].var = -1;
    t[i].lit = lits[i];
  }
  int r = twill_smt_linear(m, t, n, b, 0);
  free(t);
  return r;
}

int twill_smt_modulo(twill_smt *m, int cap, int64_t period, const int *vars,
                     const int64_t *offsets, int n) {
  if (n < 0 || n > (1 << 20) || cap < 0 || period < 1 || period > TWILL_SMT_MAX_ABS ||
      ensure_true(m))
    return -1;
  for (int i = 0; i < n; i++)
    if (vars[i] < 0 || vars[i] >= m->niv || offsets[i] < -TWILL_SMT_MAX_ABS ||
        offsets[i] > TWILL_SMT_MAX_ABS)
      return -1;
  int ci = new_cons(m, n);
  if (ci < 0) return -1;
  cons *c = &m->c[ci];
  c->kind = 1;
  c->cap = cap;
  c->period = period;
  /* uses sorted by variable (stable insertion) */
  for (int i = 0; i < n; i++) {
    int j = i;
    while (j > 0 && c->var[j - 1] > vars[i]) {
      c->var[j] = c->var[j - 1];
      c->a[j] = c->a[j - 1];
      j--;
    }
    c->var[j] = vars[i];
    c->a[j] = offsets[i];
    c->lit[j] = 0;
  }
  for (int i = 0; i < n; i++) c->lit[i] = 0;
  if (add_occ(m, ci)) return -1;
  return ci + 1;
}

int twill_smt_modulo_windows(twill_smt *m, int id, int on) {
  if (id < 1 || id > m->nc || m->c[id - 1].kind != 1) return -1;
  m->c[id - 1].nowin = !on;
  return 0;
}

/* ---------------------------------------------------------- propagation */

static void record_lemma(twill_smt *m, int cid, const int *cl, int n) {
  m->lemmas++;
  if (!m->proof) return;
  sb_printf(&m->tl, "t %d", cid);
  for (int i = 0; i < n; i++) sb_printf(&m->tl, " %d", cl[i]);
  sb_printf(&m->tl, " 0\n");
}

static void conflict(twill_smt *m, int cid, const int *cl, int n) {
  record_lemma(m, cid, cl, n);
  m->conflicted = 1;
  twill_sat_theory_conflict(m->s, cl, n);
}

/* The literal that set the current lower bound of x ([x <= lb-1], false)
 * or upper bound (~[x <= ub], false): 0 when the bound is the domain's.
 * The bound was set by that literal, so it exists (else m->err). */
static int lb_lit(twill_smt *m, int x) {
  const ivar *v = &m->iv[x];
  if (v->lb <= v->lo) return 0;
  int l = find_le(m, x, v->lb - 1);
  if (!l) m->err = 1;
  return l;
}
static int ub_lit(twill_smt *m, int x) {
  const ivar *v = &m->iv[x];
  if (v->ub >= v->hi) return 0;
  int l = find_le(m, x, v->ub);
  if (!l) m->err = 1;
  return -l;
}

/* Keep a reason longer than two literals in sv->rl (imply()). */
static int store_reason(twill_smt *m, svar *sv, const int *cl, int n) {
  if (n > sv->rcap) {
    int *nr = realloc(sv->rl, sizeof(int) * (size_t)n);
    if (!nr) {
      m->err = 1;
      return -1;
    }
    sv->rl = nr;
    sv->rcap = n;
  }
  memcpy(sv->rl, cl, sizeof(int) * (size_t)n);
  sv->rn = n;
  return 0;
}

/* Imply cl[0] with reason cl (constraint cid; 0: the order of the literals
 * of one variable).  Returns -1 on conflict (reported). */
static int imply(twill_smt *m, int cid, int *cl, int n) {
#ifndef NDEBUG
  for (int i = 1; i < n; i++) /* the reason: every other literal false now */
    assert(cl[i] != 0 && lit_val(m, cl[i]) == -1);
#endif
  int v = lit_val(m, cl[0]);
  if (v == 1) return 0;
  if (v == 0) {
    /* a literal created just now may be unassigned though the bounds
     * force it false: resolve it with the domain lemma against the bound
     * literal, which is false, so cl becomes a conflict */
    const svar *s = &m->sv[abs(cl[0])];
    if (s->ivar >= 0) {
      const ivar *x = &m->iv[s->ivar];
      if (cl[0] > 0 && s->k < x->lb) {
        cl[0] = lb_lit(m, s->ivar);
        v = -1;
      } else if (cl[0] < 0 && s->k >= x->ub) {
        cl[0] = ub_lit(m, s->ivar);
        v = -1;
      }
      if (m->err) return -1;
    }
  }
  if (v == -1) {
    conflict(m, cid, cl, n);
    return -1;
  }
  svar *sv = &m->sv[abs(cl[0])];
  sv->rcid = cid;
  if (n <= 2) {
    sv->r2[0] = cl[0];
    sv->r2[1] = n == 2 ? cl[1] : 0;
    sv->rn = n;
  } else {
    if (store_reason(m, sv, cl, n)) return -1;
  }
  /* level-0 implications are never explained by the core: log them now */
  if (twill_sat_level(m->s) == 0) record_lemma(m, cid, cl, n);
  twill_sat_theory_imply(m->s, cl[0]);
  count_bool(m, abs(cl[0]));
  return 0;
}

/* imply the domain lemma (a, b): a is the literal to make true */
static int imply2(twill_smt *m, int a, int b) {
  int cl[2] = {a, b};
  return imply(m, 0, cl, 2);
}

static int push_tmp(twill_smt *m, ivec *v, int x) {
  if (ivec_push(v, x)) {
    m->err = 1;
    return -1;
  }
  return 0;
}

static void order_assigned(twill_smt *m, int x, int lit, int64_t k, int level);

/* After implying the order literal lit of an integer variable: take the
 * new bound at once (and queue the constraints on the variable), rather
 * than when the SAT core hands the literal back in the next round.  A
 * chain of n difference constraints then settles in one call instead of
 * n rounds that each move every bound by one step and create a literal
 * for each step (n^2 literals). */
static int take_bound(twill_smt *m, int lit) {
  const svar *s = &m->sv[abs(lit)];
  if (s->ivar < 0 || lit_val(m, lit) != 1) return 0;
  order_assigned(m, s->ivar, lit, s->k, twill_sat_level(m->s));
  return m->conflicted || m->err ? -1 : 0;
}

/* Whether a visit of counted row c can be skipped: sum(a x) <= b holds at
 * its least, msum, and the slack S = b - msum is at least every term's
 * reach |a| * (its range: ub - lb, or 1 for a free literal), so the bound
 * prop_linear would give a term is no tighter than its own (for a > 0,
 * lb + floor(S / a) >= ub).  From msum and the classes, in one look.  A
 * literal the core has assigned but the theory not yet counted is free
 * here, so this may say no where a recount would say yes, never the
 * other way. */
static int counted_quiet(const twill_smt *m, const cons *c, int rv) {
  if (c->msum > c->b) return 0;
  if (rv == 0) return 1;
  i128 reach = 0;
  for (int j = 0; j < c->ncls; j++)
    if (c->cls_free[j] > 0) {
      reach = c->cls_a[j];
      break;
    }
  for (int j = 0; j < c->nvpos; j++) {
    int i = c->vpos[j];
    const ivar *v = &m->iv[c->var[i]];
    int64_t a = c->a[i];
    i128 r = (i128)(a > 0 ? a : -a) * (v->ub - v->lb);
    if (r > reach) reach = r;
  }
  return reach <= (i128)c->b - c->msum;
}

#ifndef NDEBUG
static i128 linear_minsum(const twill_smt *m, const cons *c) {
  i128 s = 0;
  for (int i = 0; i < c->n; i++) {
    int64_t a = c->a[i];
    if (c->var[i] >= 0) {
      const ivar *v = &m->iv[c->var[i]];
      s += (i128)a * (a > 0 ? v->lb : v->ub);
    } else {
      int val = lit_val(m, c->lit[i]);
      if ((a > 0 && val == 1) || (a < 0 && val != -1)) s += a;
    }
  }
  return s;
}
#endif

static int prop_linear(twill_smt *m, int ci) {
  cons *c = &m->c[ci];
  int cid = ci + 1, rv = c->reif ? lit_val(m, c->reif) : 1;
  if (rv == -1) return 0;
  assert(!c->counted || c->msum == linear_minsum(m, c));
  if (c->counted && counted_quiet(m, c, rv)) return 0; /* differences keep no counters */
  i128 minsum = 0;
  ivec *bl = &m->tmp, *cl = &m->tmp2;
  bl->n = 0;
  for (int i = 0; i < c->n; i++) {
    int64_t a = c->a[i];
    int l = 0;
    if (c->var[i] >= 0) {
      const ivar *v = &m->iv[c->var[i]];
      minsum += (i128)a * (a > 0 ? v->lb : v->ub);
      if (a > 0) l = lb_lit(m, c->var[i]);
      if (a < 0) l = ub_lit(m, c->var[i]);
    } else {
      int val = lit_val(m, c->lit[i]);
      if (a > 0 && val == 1) {
        minsum += a;
        l = -c->lit[i];
      } else if (a < 0 && val != -1) {
        minsum += a;
      } else if (a < 0) {
        l = c->lit[i];
      }
    }
    if (push_tmp(m, bl, l)) return -1;
  }
  if (minsum > c->b) {
    cl->n = 0;
    if (c->reif && push_tmp(m, cl, -c->reif)) return -1;
    for (int i = 0; i < c->n; i++)
      if (bl->a[i] && push_tmp(m, cl, bl->a[i])) return -1;
    if (rv == 0) return imply(m, cid, cl->a, cl->n);
    conflict(m, cid, cl->a, cl->n);
    return -1;
  }
  if (rv == 0) return 0;
  int shared = 0; /* cl holds the reason's tail of a term without blame */
  for (int i = 0; i < c->n; i++) {
    int64_t a = c->a[i];
    if (a == 0) continue;
    i128 mine;
    int lit = 0;
    if (c->var[i] >= 0) {
      const ivar *v = &m->iv[c->var[i]];
      mine = (i128)a * (a > 0 ? v->lb : v->ub);
      i128 slack = (i128)c->b - (minsum - mine);
      if (a > 0) {
        i128 q = slack / a;
        if (q * a > slack) q--;
        if (q < v->ub) lit = make_le(m, c->var[i], (int64_t)q);
      } else {
        i128 q = slack / (-a); /* x >= -floor(slack / -a) */
        if (q * (-a) > slack) q--;
        q = -q;
        if (q > v->lb) lit = -make_le(m, c->var[i], (int64_t)q - 1);
      }
    } else {
      int val = lit_val(m, c->lit[i]);
      if (val != 0) continue;
      mine = a < 0 ? a : 0;
      i128 slack = (i128)c->b - (minsum - mine);
      if (a > 0 && a > slack) lit = -c->lit[i];
      if (a < 0 && 0 > slack) lit = c->lit[i];
    }
    if (!lit) continue;
    /* the reason: lit, then ~reif and every blamed literal but term i's.
     * A term without a blamed literal of its own (every literal term
     * implied here: it is unassigned) has the same tail as the others, so
     * that tail is built once (shared) and only its head changes. */
    if (bl->a[i] || !shared) {
      cl->n = 0;
      if (push_tmp(m, cl, lit)) return -1;
      if (c->reif && push_tmp(m, cl, -c->reif)) return -1;
      for (int j = 0; j < c->n; j++)
        if (j != i && bl->a[j] && push_tmp(m, cl, bl->a[j])) return -1;
      shared = !bl->a[i];
    }
    cl->a[0] = lit; /* imply() may have rewritten it */
    if (imply(m, cid, cl->a, cl->n)) return -1;
    if (c->var[i] >= 0 && take_bound(m, lit)) return -1;
  }
  return 0;
}

static int64_t pmod(int64_t a, int64_t p) {
  int64_t r = a % p;
  return r < 0 ? r + p : r;
}

/* fixing literals of x (fixed now) into cl */
static int push_fix(twill_smt *m, ivec *cl, int x) {
  int l1 = lb_lit(m, x), l2 = ub_lit(m, x);
  if (l1 && push_tmp(m, cl, l1)) return -1;
  if (l2 && push_tmp(m, cl, l2)) return -1;
  return 0;
}

static int ensure_mtmp(twill_smt *m, int n) {
  if (n <= m->mtcap) return 0;
  int64_t *a = realloc(m->mtmp, sizeof(int64_t) * (size_t)n);
  if (a) m->mtmp = a;
  int *b = realloc(m->mtmpi, sizeof(int) * (size_t)n);
  if (b) m->mtmpi = b;
  if (!a || !b) {
    m->err = 1;
    return -1;
  }
  m->mtcap = n;
  return 0;
}

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

/* group [lo, hi) of fixed uses (indices into c) with residue r in the
 * sorted index array; returns count */
static int find_group(const twill_smt *m, int nf, int64_t r, int *lo) {
  int a = 0, b = nf;
  while (a < b) {
    int mid = (a + b) / 2;
    if (m->mtmp[m->mtmpi[mid]] < r)
      a = mid + 1;
    else
      b = mid;
  }
  *lo = a;
  int e = a;
  while (e < nf && m->mtmp[m->mtmpi[e]] == r) e++;
  return e - a;
}

/* ---- the window rule of a modulo constraint -------------------------------
 * Uses whose times x_j + off_j the bounds confine to [a, b], w = b - a + 1
 * slots: when w < period those slots are w distinct residues, which hold
 * at most cap * w uses, so more than cap * w such uses is a conflict,
 * whatever residues they would take (when w >= period the count is at
 * most n <= cap * period <= cap * w: no conflict to find).  The residue
 * check below sees a full residue only once starts are fixed; this sees a
 * crowded stretch of time while they are still free: for instance 28
 * writes of one port (cap 1) that the deps hold at or after time 52 and a
 * length bound holds at or before 76 (ChStone adpcm/graph2 at I = 50, L
 * <= 78).  Explained by the bounds of the uses in the window.  Only uses
 * narrower than the period can be in such a window; the candidates a are
 * their earliest times, the b their latest: O(u log u + a * u) for u
 * narrow uses and a distinct earliest times. */
typedef struct owin {
  int64_t e, l; /* earliest and latest time of the use */
  int x;        /* its variable */
} owin;

static int cmp_owin(const void *p, const void *q) {
  const owin *a = p, *b = q;
  if (a->l != b->l) return a->l < b->l ? -1 : 1;
  if (a->e != b->e) return a->e < b->e ? -1 : 1;
  return (a->x > b->x) - (a->x < b->x);
}

static int ensure_ow(twill_smt *m, int n) {
  if (n > m->owcap) {
    owin *w = realloc(m->ow, sizeof(owin) * (size_t)n);
    if (w) m->ow = w;
    int64_t *e = realloc(m->oe, sizeof(int64_t) * (size_t)n);
    if (e) m->oe = e;
    if (!w || !e) return -1;
    m->owcap = n;
  }
  if (m->niv > m->omcap) {
    unsigned *k = realloc(m->omark, sizeof(unsigned) * (size_t)m->niv);
    if (!k) return -1;
    memset(k + m->omcap, 0, sizeof(unsigned) * (size_t)(m->niv - m->omcap));
    m->omark = k;
    m->omcap = m->niv;
  }
  return 0;
}

/* The conflict of the window [a, ow[k].l]: the bounds of the variables of
 * the uses ow[0..k] that start at or after a. */
static void overload_conflict(twill_smt *m, int cid, int64_t a, int k) {
  ivec *cl = &m->tmp2;
  cl->n = 0;
  if (++m->ocur == 0) {
    memset(m->omark, 0, sizeof(unsigned) * (size_t)m->omcap);
    m->ocur = 1;
  }
  for (int i = 0; i <= k; i++) {
    int x = m->ow[i].x;
    if (m->ow[i].e < a || m->omark[x] == m->ocur) continue;
    m->omark[x] = m->ocur;
    if (push_fix(m, cl, x)) return;
  }
  conflict(m, cid, cl->a, cl->n);
}

static int overload(twill_smt *m, int ci) {
  const cons *c = &m->c[ci];
  int n = c->n, nw = 0, ne = 0;
  if (ensure_ow(m, n)) {
    m->err = 1;
    return -1;
  }
  for (int j = 0; j < n; j++) {
    const ivar *v = &m->iv[c->var[j]];
    if (v->ub - v->lb + 1 >= c->period) continue;
    m->ow[nw++] = (owin){v->lb + c->a[j], v->ub + c->a[j], c->var[j]};
    m->oe[ne++] = v->lb + c->a[j];
  }
  if (nw <= c->cap) return 0;
  qsort(m->ow, (size_t)nw, sizeof(owin), cmp_owin);
  qsort(m->oe, (size_t)ne, sizeof(int64_t), cmp_i64);
  for (int s = 0; s < ne; s++) {
    int64_t a = m->oe[s];
    if (s > 0 && m->oe[s - 1] == a) continue;
    int64_t cnt = 0;
    for (int k = 0; k < nw; k++) {
      if (m->ow[k].e < a) continue;
      int64_t w = m->ow[k].l - a + 1;
      if (w >= c->period) break;
      if (++cnt > (i128)c->cap * w) {
        overload_conflict(m, ci + 1, a, k);
        return -1;
      }
    }
  }
  return 0;
}

static int prop_modulo(twill_smt *m, int ci) {
  cons *c = &m->c[ci];
  int cid = ci + 1, n = c->n;
  if (n == 0) return 0;
  /* counting: n uses cannot fit in `period` residues of `cap` each when
   * n > cap * period, whatever the values: a pigeonhole the residue
   * reasoning below finds only by enumerating (the lemma is the empty
   * clause; the checker applies the same count) */
  if ((int64_t)n > (int64_t)c->cap * c->period) {
    int none = 0;
    conflict(m, cid, &none, 0);
    return -1;
  }
  if (ensure_mtmp(m, 2 * n)) return -1;
  int nf = 0;
  int64_t *keys = m->mtmp + n; /* residue * n + use, sorted */
  for (int j = 0; j < n; j++) {
    const ivar *v = &m->iv[c->var[j]];
    m->mtmp[j] = v->lb == v->ub ? pmod(v->lb + c->a[j], c->period) : -1;
    if (v->lb == v->ub) keys[nf++] = m->mtmp[j] * n + j;
  }
  qsort(keys, (size_t)nf, sizeof(int64_t), cmp_i64);
  for (int k = 0; k < nf; k++) m->mtmpi[k] = (int)(keys[k] % n);
  ivec *cl = &m->tmp2;
  for (int g = 0; g < nf;) {
    int lo;
    int cnt = find_group(m, nf, m->mtmp[m->mtmpi[g]], &lo);
    if (cnt > c->cap) {
      cl->n = 0;
      for (int k = g; k < g + cnt; k++) {
        int x = c->var[m->mtmpi[k]];
        int dup = 0;
        for (int q = g; q < k; q++) dup |= c->var[m->mtmpi[q]] == x;
        if (!dup && push_fix(m, cl, x)) return -1;
      }
      conflict(m, cid, cl->a, cl->n);
      return -1;
    }
    g += cnt;
  }
  if (!c->nowin && overload(m, ci)) return -1;
  /* bound pruning of unfixed variables (uses grouped by variable) */
  for (int j = 0; j < n;) {
    int x = c->var[j], e = j;
    while (e < n && c->var[e] == x) e++;
    ivar *v = &m->iv[x];
    if (v->lb != v->ub) {
      for (int side = 0; side < 2; side++) {
        int64_t val = side == 0 ? v->lb : v->ub;
        for (int u = j; u < e; u++) {
          int64_t r = pmod(val + c->a[u], c->period);
          int lo, gc = find_group(m, nf, r, &lo), cnt = gc;
          for (int w = j; w < e; w++) cnt += pmod(val + c->a[w], c->period) == r;
          if (cnt <= c->cap) continue;
          cl->n = 0;
          int lit = side == 0 ? -make_le(m, x, val) : make_le(m, x, val - 1);
          if (m->err) return -1;
          if (push_tmp(m, cl, lit)) return -1;
          int other = side == 0 ? lb_lit(m, x) : ub_lit(m, x);
          if (other && push_tmp(m, cl, other)) return -1;
          for (int k = lo; k < lo + gc; k++) {
            int y = c->var[m->mtmpi[k]];
            int dup = 0;
            for (int q = lo; q < k; q++) dup |= c->var[m->mtmpi[q]] == y;
            if (!dup && push_fix(m, cl, y)) return -1;
          }
          if (imply(m, cid, cl->a, cl->n)) return -1;
          break;
        }
      }
    }
    j = e;
  }
  return 0;
}

static void enqueue(twill_smt *m, const ivec *o) {
  for (int i = 0; i < o->n; i++) {
    int ci = o->a[i];
    if (m->c[ci].diff && !m->dp_fallback) continue;
    if (m->stamp[ci] == m->cur_stamp) continue;
    m->stamp[ci] = m->cur_stamp;
    m->queue[(m->qh + m->nq++) % m->nc] = ci;
  }
}

static int set_bound(twill_smt *m, int x, int64_t lb, int64_t ub, int level) {
  ivar *v = &m->iv[x];
  /* bounds only tighten, and never past each other (order_assigned reports
   * an empty domain as a conflict instead) */
  assert(v->lb <= lb && lb <= ub && ub <= v->ub && level == twill_sat_level(m->s));
  if (level > 0) {
    if (m->ntr == m->ctr) {
      int nc = m->ctr ? m->ctr * 2 : 256;
      trail_e *nt = realloc(m->tr, sizeof(trail_e) * (size_t)nc);
      if (!nt) return -1;
      m->tr = nt;
      m->ctr = nc;
    }
    m->tr[m->ntr++] = (trail_e){x, level, v->lb, v->ub};
  }
  count_bounds(m, x, lb, ub);
  v->lb = lb;
  v->ub = ub;
  return 0;
}

static void touch(twill_smt *m, int x) {
  if (m->iv[x].touched == m->tstamp) return;
  m->iv[x].touched = m->tstamp;
  if (ivec_push(&m->touched, x)) m->err = 1;
}

/* ---- the difference propagator --------------------------------------------
 * Unconditional difference constraints dx - dy <= b give lb(dy) >= lb(dx) - b
 * and ub(dx) <= ub(dy) + b.  Propagating them one constraint at a time
 * through the SAT core creates a literal for every intermediate bound (a
 * chain of n constraints: n^2 of them).  dp_run instead finds the fixpoint
 * of all of them on tentative bounds first (a FIFO Bellman-Ford over the
 * variables whose bounds moved, remembering for each new bound the
 * constraint that set it), then implies the final bounds, each explained
 * by its constraint and the bound of the other variable, parents before
 * children (but see dp_settle: not always the final bound).  A variable relaxed more than n + 1 times means
 * a cycle that tightens on every turn: then the stepwise path (the queue)
 * takes over for the rest of the call. */

static int dp_grow(twill_smt *m) {
  if (m->dcap >= m->niv) return 0;
  int n = m->niv;
  int64_t *a = realloc(m->dtl, sizeof(int64_t) * (size_t)n);
  if (!a) return -1;
  m->dtl = a;
  a = realloc(m->dtu, sizeof(int64_t) * (size_t)n);
  if (!a) return -1;
  m->dtu = a;
  int **ip[] = {&m->dpl, &m->dpu, &m->drc, &m->dwl, &m->dord, &m->dmv};
  for (int i = 0; i < 6; i++) {
    int *q = realloc(*ip[i], sizeof(int) * (size_t)n);
    if (!q) return -1;
    *ip[i] = q;
  }
  unsigned **up[] = {&m->dstamp, &m->inwl, &m->dmark};
  for (int i = 0; i < 3; i++) {
    unsigned *q = realloc(*up[i], sizeof(unsigned) * (size_t)n);
    if (!q) return -1;
    for (int x = m->dcap; x < n; x++) q[x] = 0;
    *up[i] = q;
  }
  m->dcap = n;
  return 0;
}

/* queue x (its bounds moved) for the next dp_run of this call */
static void dp_push(twill_smt *m, int x) {
  if (m->dp_fallback || x >= m->dcap || m->inwl[x] == m->wcur) return;
  m->inwl[x] = m->wcur;
  m->dwl[(m->dwh + m->dwn++) % m->dcap] = x;
}

/* a new round's stamps; on wrap-around every stamp is cleared */
static void dp_next_round(twill_smt *m) {
  if (m->dcur >= 0x3fffffffu) {
    for (int x = 0; x < m->dcap; x++) m->dstamp[x] = m->dmark[x] = 0;
    m->dcur = 0;
  }
  m->dcur++;
}

/* tentative bounds of x, from the real ones on first use in this round */
static void dp_load(twill_smt *m, int x) {
  if (m->dstamp[x] == m->dcur) return;
  m->dstamp[x] = m->dcur;
  m->dtl[x] = m->iv[x].lb;
  m->dtu[x] = m->iv[x].ub;
  m->dpl[x] = m->dpu[x] = -1;
  m->drc[x] = 0;
}

/* Is the tentative lower (up = 0) or upper bound of x still to imply? */
static int dp_pending(const twill_smt *m, int x, int up) {
  if (m->dstamp[x] != m->dcur) return 0;
  return up ? m->dpu[x] >= 0 && m->iv[x].ub > m->dtu[x]
            : m->dpl[x] >= 0 && m->iv[x].lb < m->dtl[x];
}

/* Imply the tentative bound of x0 from its constraint, after the bound of
 * the constraint's other variable (an explicit stack, parents first;
 * dmark: 2 dcur on the stack, 2 dcur + 1 done).  Returns -1 on a conflict
 * or error, 1 when the parent links run in a circle (fall back).
 * The marks do not tell the two directions apart: a parent already done in
 * the other direction is taken as settled, and its child then gets the
 * bound the parent has now, looser than the child's tentative one (or
 * none).  That costs rounds, not soundness: the parent's own turn tightens
 * it, which queues it for the next round.  (Marks per direction would
 * settle the parent first; that changes which literals the search makes.) */
static int dp_settle(twill_smt *m, int x0, int up) {
  unsigned on_stack = 2 * m->dcur, done = 2 * m->dcur + 1;
  int n = 0;
  m->dord[n++] = x0;
  m->dmark[x0] = on_stack;
  while (n > 0) {
    int x = m->dord[n - 1];
    if (!dp_pending(m, x, up)) {
      m->dmark[x] = done;
      n--;
      continue;
    }
    int ci = up ? m->dpu[x] : m->dpl[x];
    const cons *c = &m->c[ci];
    /* the parent link: a difference constraint that bounds x on this side
     * (dx's upper bound, dy's lower one) */
    assert(c->diff && (up ? c->dx : c->dy) == x);
    int y = up ? c->dy : c->dx;
    if (dp_pending(m, y, up) && m->dmark[y] != done) {
      if (m->dmark[y] == on_stack || n >= m->dcap) return 1;
      m->dmark[y] = on_stack;
      m->dord[n++] = y;
      continue;
    }
    /* y's bound is settled now (or y is done in the other direction, see
     * above): it implies x's through constraint ci */
    int lit = 0, why;
    int64_t k = up ? m->iv[y].ub + c->b : m->iv[y].lb - c->b;
    if (up) {
      if (k < m->iv[x].ub) lit = make_le(m, x, k);
      why = ub_lit(m, y);
    } else {
      if (k > m->iv[x].lb) lit = -make_le(m, x, k - 1);
      why = lb_lit(m, y);
    }
    if (m->err) return -1;
    if (lit) {
      int cl[2] = {lit, why};
      if (imply(m, ci + 1, cl, why ? 2 : 1) || take_bound(m, lit)) return -1;
      /* take_bound made it x's bound at once */
      assert(up ? m->iv[x].ub <= k : m->iv[x].lb >= k);
    }
    m->dmark[x] = done;
    n--;
  }
  return 0;
}

/* One round over the queued variables: relax to the fixpoint on tentative
 * bounds, then imply the final ones.  0 done, -1 conflict or error, -2 the
 * time limit or an interrupt, 1 fall back to the queue. */
static int dp_run(twill_smt *m, twill_sat *s) {
  dp_next_round(m);
  int nmv = 0; /* variables whose tentative bounds moved */
  long visits = 0;
  while (m->dwn > 0) {
    int x = m->dwl[m->dwh];
    m->dwh = (m->dwh + 1) % m->dcap;
    m->dwn--;
    m->inwl[x] = 0;
    dp_load(m, x);
    const ivec *o = &m->iv[x].occ;
    for (int i = 0; i < o->n; i++) {
      const cons *c = &m->c[o->a[i]];
      if (!c->diff) continue;
      assert(c->dx != c->dy && (c->dx == x || c->dy == x));
      if ((++visits & 4095) == 0 && twill_sat_stop_requested(s)) return -2;
      int y;
      if (c->dx == x) { /* lb(dy) >= lb(dx) - b */
        y = c->dy;
        dp_load(m, y);
        int64_t cand = m->dtl[x] - c->b;
        if (cand <= m->dtl[y]) continue;
        m->dtl[y] = cand;
        m->dpl[y] = o->a[i];
      } else { /* ub(dx) <= ub(dy) + b */
        y = c->dx;
        dp_load(m, y);
        int64_t cand = m->dtu[x] + c->b;
        if (cand >= m->dtu[y]) continue;
        m->dtu[y] = cand;
        m->dpu[y] = o->a[i];
      }
      if (m->drc[y]++ == 0) m->dmv[nmv++] = y;
      if (m->drc[y] > m->niv + 1) return 1; /* a tightening cycle */
      if (m->dtl[y] > m->dtu[y]) { /* empty: imply what leads here */
        while (m->dwn > 0) {
          m->inwl[m->dwl[m->dwh]] = 0;
          m->dwh = (m->dwh + 1) % m->dcap;
          m->dwn--;
        }
        break;
      }
      dp_push(m, y);
    }
  }
  for (int i = 0; i < nmv && !m->conflicted && !m->err; i++)
    for (int up = 0; up < 2; up++) {
      int r = dp_settle(m, m->dmv[i], up);
      if (r) return r;
    }
  return m->conflicted || m->err ? -1 : 0;
}

/* Scan the late list: imply the literals the bounds force (a literal made
 * at a higher level than the bound that forces it is unassigned again
 * after a backtrack); drop the ones the bounds leave free and, at level 0,
 * the assigned ones. */
static void recheck_late(twill_smt *m, int level) {
  int j = 0;
  m->recheck = 0;
  for (int i = 0; i < m->late.n; i++) {
    int l = m->late.a[i];
    if (m->conflicted || m->err) {
      m->late.a[j++] = l;
      continue;
    }
    int x = m->sv[l].ivar;
    int64_t k = m->sv[l].k;
    const ivar *v = &m->iv[x];
    int val = lit_val(m, l), forced = k >= v->ub ? 1 : k < v->lb ? -1 : 0;
    if (!forced) continue;
    if (val == 0) {
      if (forced > 0)
        imply2(m, l, ub_lit(m, x));
      else
        imply2(m, -l, lb_lit(m, x));
    }
    if (level > 0) m->late.a[j++] = l;
  }
  m->late.n = j;
}

/* [x <= k] became true (pos) or false: narrow the bounds, make the
 * literals of x that follow take their values, or report the conflict. */
static void order_assigned(twill_smt *m, int x, int lit, int64_t k, int level) {
  ivar *v = &m->iv[x];
  assert(lit_val(m, lit) == 1 && m->sv[abs(lit)].ivar == x && m->sv[abs(lit)].k == k);
  if (lit > 0) {
    if (k >= v->ub) return;
    if (k < v->lb) {
      int cl[2] = {-lit, lb_lit(m, x)};
      conflict(m, 0, cl, 2);
      return;
    }
    int64_t old = v->ub;
    if (set_bound(m, x, v->lb, k, level)) {
      m->err = 1;
      return;
    }
    for (int p = lit_pos(v, k + 1); p < v->nl && v->ks[p] < old; p++)
      if (imply2(m, v->ls[p], -lit)) return;
  } else {
    if (k + 1 <= v->lb) return;
    if (k + 1 > v->ub) {
      int cl[2] = {-lit, ub_lit(m, x)};
      conflict(m, 0, cl, 2);
      return;
    }
    int64_t old = v->lb;
    if (set_bound(m, x, k + 1, v->ub, level)) {
      m->err = 1;
      return;
    }
    for (int p = lit_pos(v, old); p < v->nl && v->ks[p] < k; p++)
      if (imply2(m, -v->ls[p], -lit)) return;
  }
  assert(m->err || bounds_ok(m, x, 0));
  enqueue(m, &v->occ);
  dp_push(m, x);
  touch(m, x);
}

static int th_propagate(void *ctx, twill_sat *s, const int *lits, int n) {
  twill_smt *m = ctx;
  int level = twill_sat_level(s);
  m->conflicted = 0;
  m->cur_stamp++;
  if (m->cur_stamp == 0) {
    memset(m->stamp, 0, sizeof(unsigned) * (size_t)m->nc);
    m->cur_stamp = 1;
  }
  m->tstamp++;
  if (m->tstamp == 0) {
    for (int x = 0; x < m->niv; x++) m->iv[x].touched = 0;
    m->tstamp = 1;
  }
  m->touched.n = 0;
  m->nq = 0;
  m->qh = 0;
  m->dwn = m->dwh = 0;
  m->dp_fallback = 0;
  if (++m->wcur == 0) {
    for (int x = 0; x < m->dcap; x++) m->inwl[x] = 0;
    m->wcur = 1;
  }
  if (dp_grow(m)) {
    m->err = 1;
    return 1;
  }
  if (m->all_pending) {
    m->all_pending = 0;
    for (int i = 0; i < m->nc; i++) {
      if (m->c[i].diff) continue;
      m->stamp[i] = m->cur_stamp;
      m->queue[m->nq++] = i;
    }
    for (int x = 0; x < m->niv; x++) {
      touch(m, x);
      dp_push(m, x);
    }
  }
  for (int i = 0; i < n; i++) count_bool(m, abs(lits[i]));
  if (m->recheck) recheck_late(m, level);
  for (int i = 0; i < n && !m->conflicted && !m->err; i++) {
    int v = abs(lits[i]);
    if (v >= m->nsv) continue;
    if (m->sv[v].ivar >= 0)
      order_assigned(m, m->sv[v].ivar, lits[i], m->sv[v].k, level);
    else
      enqueue(m, &m->sv[v].occ);
  }
  /* a constraint leaves the ring before it is visited, so a bound taken
   * while visiting another one (take_bound) queues it again */
  long visits = 0;
  while (!m->conflicted && !m->err) {
    /* bounds propagation around a cycle of constraints moves a bound by
     * the cycle's weight per turn, so it may take as many turns as the
     * domain is wide: stay interruptible */
    if (m->nq > 0 && (++visits & 4095) == 0 && twill_sat_stop_requested(s)) {
      m->all_pending = 1; /* the queue is dropped: visit all next time */
      return 1;
    }
    if (m->nq == 0) { /* the queue is empty: the difference constraints */
      if (m->dwn == 0) break;
      int r = dp_run(m, s);
      if (r == -2) {
        m->all_pending = 1;
        return 1;
      }
      if (r == 1) { /* a tightening cycle: the queue takes the diffs too */
        m->dp_fallback = 1;
        m->dwn = 0;
        for (int x = 0; x < m->niv; x++) enqueue(m, &m->iv[x].occ);
      }
      continue;
    }
    int ci = m->queue[m->qh];
    m->qh = (m->qh + 1) % m->nc;
    m->nq--;
    m->stamp[ci] = m->cur_stamp - 1;
    if (m->c[ci].kind == 0)
      prop_linear(m, ci);
    else
      prop_modulo(m, ci);
  }
  /* a decision literal for every unfixed variable that has none inside
   * its bounds */
  for (int i = 0; i < m->touched.n && !m->conflicted && !m->err; i++) {
    int x = m->touched.a[i];
    const ivar *v = &m->iv[x];
    assert(bounds_ok(m, x, 1));
    if (v->lb >= v->ub) continue;
    int p = lit_pos(v, v->lb);
    if (p < v->nl && v->ks[p] < v->ub) continue;
    make_le(m, x, v->lb);
  }
  return m->err ? 1 : 0;
}

static int th_explain(void *ctx, int lit, const int **clause) {
  twill_smt *m = ctx;
  svar *sv = &m->sv[abs(lit)];
  const int *r = sv->rn <= 2 ? sv->r2 : sv->rl;
  assert(sv->rn > 0 && r[0] == lit); /* the reason imply() stored */
  record_lemma(m, sv->rcid, r, sv->rn);
  *clause = r;
  return sv->rn;
}

static void th_backtrack(void *ctx, int level) {
  twill_smt *m = ctx;
  if (m->late.n) m->recheck = 1;
  uncount_bools(m);
  int top = m->ntr;
  while (m->ntr > 0 && m->tr[m->ntr - 1].level > level) {
    trail_e *e = &m->tr[--m->ntr];
    /* entries in level order; restoring widens */
    assert(m->ntr == 0 || m->tr[m->ntr - 1].level <= e->level);
    assert(e->lb <= m->iv[e->x].lb && e->ub >= m->iv[e->x].ub);
    count_bounds(m, e->x, e->lb, e->ub);
    m->iv[e->x].lb = e->lb;
    m->iv[e->x].ub = e->ub;
  }
#ifndef NDEBUG
  for (int i = m->ntr; i < top; i++) assert(bounds_ok(m, m->tr[i].x, 0));
#else
  (void)top;
#endif
}

/* --------------------------------------------------------------- solving */

static int lin_holds(const twill_smt *m, const cons *c) {
  if (c->reif && m->bmodel[abs(c->reif)] * (c->reif > 0 ? 1 : -1) != 1) return 1;
  i128 sum = 0;
  for (int i = 0; i < c->n; i++) {
    if (c->var[i] >= 0)
      sum += (i128)c->a[i] * m->model[c->var[i]];
    else if (m->bmodel[abs(c->lit[i])] * (c->lit[i] > 0 ? 1 : -1) == 1)
      sum += c->a[i];
  }
  return sum <= c->b;
}

static int mod_holds(const twill_smt *m, const cons *c) {
  for (int i = 0; i < c->n; i++) {
    int64_t r = pmod(m->model[c->var[i]] + c->a[i], c->period);
    int cnt = 0;
    for (int j = 0; j < c->n; j++) cnt += pmod(m->model[c->var[j]] + c->a[j], c->period) == r;
    if (cnt > c->cap) return 0;
  }
  return 1;
}

static int read_model(twill_smt *m) {
  free(m->model);
  free(m->bmodel);
  m->model = malloc(sizeof(int64_t) * (size_t)(m->niv ? m->niv : 1));
  m->bmodel = malloc((size_t)m->nsv);
  if (!m->model || !m->bmodel) return -1;
  m->bmodel[0] = 0;
  for (int v = 1; v < m->nsv; v++) m->bmodel[v] = (signed char)twill_sat_value(m->s, v);
  m->nbm = m->nsv;
  m->nim = m->niv;
  for (int x = 0; x < m->niv; x++) {
    /* the value is one above the largest false literal; the true ones
     * must be exactly those at or above it */
    const ivar *v = &m->iv[x];
    int64_t val = v->lo;
    for (int p = 0; p < v->nl; p++)
      if (m->bmodel[v->ls[p]] != 1) val = v->ks[p] + 1;
    for (int p = 0; p < v->nl; p++)
      if ((m->bmodel[v->ls[p]] == 1) != (v->ks[p] >= val)) return -1;
    if (val < v->lo || val > v->hi) return -1;
    m->model[x] = val;
  }
  m->has_model = 1;
  for (int i = 0; i < m->nc; i++) {
    const cons *c = &m->c[i];
    if (!(c->kind == 0 ? lin_holds(m, c) : mod_holds(m, c))) return -1;
  }
  return 0;
}

void twill_smt_set_time_limit(twill_smt *m, double seconds) {
  twill_sat_set_time_limit(m->s, seconds);
}

void twill_smt_set_conflict_limit(twill_smt *m, int64_t conflicts) {
  twill_sat_set_conflict_limit(m->s, conflicts);
}

uint64_t twill_smt_num_conflicts(const twill_smt *m) {
  twill_sat_stats st;
  twill_sat_get_stats(m->s, &st);
  return st.conflicts;
}

void twill_smt_set_cancel(twill_smt *m, const atomic_int *flag) {
  twill_sat_set_cancel(m->s, flag);
}

int twill_smt_solve(twill_smt *m) {
  if (ensure_true(m) || m->err) return 0;
  twill_sat_theory th = {m, th_propagate, th_explain, th_backtrack};
  twill_sat_set_theory(m->s, &th);
  m->all_pending = 1;
  int r = twill_sat_solve(m->s);
  if (m->err || m->tl.oom || m->ax.oom) return 0;
  if (r == TWILL_SAT_SAT && read_model(m)) {
    m->err = 1;
    return 0;
  }
  return r;
}

void twill_smt_assume(twill_smt *m, int lit) { twill_sat_assume(m->s, lit); }

int twill_smt_failed(const twill_smt *m, int lit) { return twill_sat_failed(m->s, lit); }

/* keep the current model as the best one */
static void take_model(twill_smt *m, int64_t **best, signed char **bbest) {
  free(*best);
  free(*bbest);
  *best = m->model;
  *bbest = m->bmodel;
  m->model = NULL;
  m->bmodel = NULL;
}

int twill_smt_minimize(twill_smt *m, int x, int64_t *opt) {
  if (x < 0 || x >= m->niv) return 0;
  int r = twill_smt_solve(m);
  if (r != TWILL_SAT_SAT) return r;
  int64_t *best = NULL;
  signed char *bbest = NULL;
  int64_t hi = m->model[x], lo = m->iv[x].lb; /* level-0 lower bound */
  take_model(m, &best, &bbest);
  /* binary search under assumptions (learned clauses are kept; they do not
   * depend on the assumptions) */
  r = TWILL_SAT_SAT;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    twill_sat_assume(m->s, twill_smt_le_lit(m, x, mid));
    int q = twill_smt_solve(m);
    if (q == TWILL_SAT_SAT) {
      hi = m->model[x];
      take_model(m, &best, &bbest);
    } else if (q == TWILL_SAT_UNSAT) {
      lo = mid + 1;
    } else {
      r = 0;
      break;
    }
  }
  /* the certificate: the input clause [x <= opt-1] and a refutation */
  while (r == TWILL_SAT_SAT) {
    int lit = twill_smt_le_lit(m, x, hi - 1);
    int a = add_axiom(m, &lit, 1);
    if (a < 0) r = 0;
    if (a <= 0) break;
    int q = twill_smt_solve(m);
    if (q == TWILL_SAT_UNSAT) break;
    if (q != TWILL_SAT_SAT) {
      r = 0;
      break;
    }
    hi = m->model[x]; /* cannot happen after a complete search; stay safe */
    take_model(m, &best, &bbest);
  }
  *opt = hi;
  free(m->model);
  free(m->bmodel);
  m->model = best;
  m->bmodel = bbest;
  m->has_model = 1;
  return r;
}

int64_t twill_smt_value(const twill_smt *m, int x) {
  return m->has_model && x >= 0 && x < m->nim ? m->model[x] : 0;
}

int twill_smt_lit_value(const twill_smt *m, int lit) {
  int v = abs(lit);
  if (!m->has_model || !lit || v >= m->nbm) return 0;
  return m->bmodel[v] * (lit > 0 ? 1 : -1);
}

int64_t twill_smt_lb(const twill_smt *m, int x) { return m->iv[x].lb; }
int64_t twill_smt_ub(const twill_smt *m, int x) { return m->iv[x].ub; }

/* ----------------------------------------------------------------- proof */

size_t twill_smt_input_bytes(const twill_smt *m) { return m->proof ? m->ax.n : 0; }

/* Is off a line boundary of the input lines? */
static int ax_boundary(const twill_smt *m, size_t off) {
  return off == 0 || (off <= m->ax.n && m->ax.s[off - 1] == '\n');
}

int twill_smt_write_proof(const twill_smt *m, FILE *out) {
  size_t n = m->proof ? m->ax.n : 0;
  return twill_smt_write_proof_moved(m, out, n, n, n);
}

int twill_smt_write_proof_moved(const twill_smt *m, FILE *out, size_t at, size_t from,
                                size_t to) {
  if (!m->proof || m->ax.oom || m->tl.oom) return -1;
  if (at > from || from > to || to > m->ax.n || !ax_boundary(m, at) ||
      !ax_boundary(m, from) || !ax_boundary(m, to))
    return -1;
  /* only clauses move: a line that names a variable or a constraint
   * must stay where it is (its number is its place in the order) */
  for (size_t k = from; k < to; k++)
    if ((k == from || m->ax.s[k - 1] == '\n') && m->ax.s[k] != 'a') return -1;
  fprintf(out, "p twill-smt 2\nT %d\n", m->T);
  /* i, o, k, a in order, the lines [from, to) written at `at` */
  if (at) fwrite(m->ax.s, 1, at, out);
  if (to > from) fwrite(m->ax.s + from, 1, to - from, out);
  if (from > at) fwrite(m->ax.s + at, 1, from - at, out);
  if (m->ax.n > to) fwrite(m->ax.s + to, 1, m->ax.n - to, out);
  if (m->tl.n) fwrite(m->tl.s, 1, m->tl.n, out);
  fflush(m->drat);
  long end = ftell(m->drat);
  if (end < 0) return -1;
  rewind(m->drat);
  char buf[65536];
  long left = end;
  while (left > 0) {
    size_t k = fread(buf, 1, left < (long)sizeof buf ? (size_t)left : sizeof buf, m->drat);
    if (k == 0) break;
    fwrite(buf, 1, k, out);
    left -= (long)k;
  }
  fseek(m->drat, end, SEEK_SET);
  return ferror(out) ? -1 : 0;
}
