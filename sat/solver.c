/* sat/solver.c: the CDCL core of twill's SAT solver.
 *
 * In the spirit of MiniSat 2.2 / Glucose / Kissat (own code):
 *  - clauses live in one uint32_t arena (4-word header: size, flags|lbd,
 *    64-bit clause id), referenced by word offset (cref);
 *  - two watched literals with blocking literals; binary clauses are
 *    handled from the watch entry alone (the other literal is the blocker,
 *    the arena is never touched while propagating them);
 *  - VSIDS on a binary heap, phase saving, glucose EMA or Luby restarts;
 *  - first-UIP learning, recursive minimization, LBD-based reduction;
 *  - assumptions with failed-assumption analysis; limits; interruption;
 *  - DRAT (text/binary) and LRAT written as the solver goes: every clause
 *    has an id, conflict analysis records the antecedents (in trail order,
 *    level-0 units first) of every learned clause;
 *  - a lazy-explanation hook for theory propagators (twill_sat_theory).
 * Internal literals are 2*v + sign with 0-based variables v.
 */
#include <assert.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "twill/sat.h"
#include "options.h"

#define CREF_NONE UINT32_MAX
#define CREF_LAZY (UINT32_MAX - 1) /* theory implication, not explained yet */
#define BIN_FLAG 0x80000000u
#define HDR 4u

/* The flags word of a clause: these bits, the lbd from bit 8 up. */
enum {
  F_LEARNT = 1,  /* in s->learnts (conflict analysis or theory), not s->orig */
  F_DELETED = 2, /* garbage: still in the arena until the next gc */
  F_USED = 4,    /* a reason in an analysis since the last reduction */
  F_THEORY = 8,  /* a theory explanation or conflict */
  F_WATCH0 = 16, /* db_ok's marks, while it runs: the entry of l[0] seen, */
  F_WATCH1 = 32, /* the entry of l[1] seen */
  F_MOVED = 128  /* gc: copied, the id word holds the new cref */
};

typedef struct {
  uint32_t blk;  /* blocking literal (binary: the other literal) */
  uint32_t cref; /* BIN_FLAG set for binary clauses */
} watch;

typedef struct {
  watch *w;
  uint32_t n, cap;
} wlist;

typedef struct {
  uint32_t *a;
  size_t n, cap;
} u32vec;

struct twill_sat {
  /* variables */
  int nvars, capvars;
  int8_t *val;        /* per literal: 1 true, -1 false, 0 unassigned */
  int *level;         /* per var */
  uint32_t *reason;   /* per var: cref, CREF_NONE or CREF_LAZY */
  int *tpos;          /* per var: position on the trail */
  double *act;        /* per var */
  uint8_t *phase;     /* per var: saved phase (1 = negative literal) */
  uint8_t *seen;      /* per var */
  uint8_t *seen0;     /* per var: level-0 unit already hinted (LRAT) */
  uint64_t *unit_id;  /* per var: id of the unit clause (proofs) */
  int *heap_idx;      /* per var: position in heap or -1 */
  int8_t *model;      /* per var after SAT: 1 / -1 */
  uint8_t *failed;    /* per literal: failed assumption */
  wlist *ws;          /* per literal */
  int *heap, heap_n;

  uint32_t *trail;
  int trail_n, qhead, theory_head;
  int *trail_lim, nlevels;
  int units_derived; /* trail prefix at level 0 whose units are in proof */

  /* clauses */
  uint32_t *arena;
  size_t arena_n, arena_cap, wasted;
  u32vec orig, learnts;
  uint64_t next_id;
  int ok;
  int empty_pending; /* empty clause to write at the next solve */
  uint64_t empty_hint[2];

  /* assumptions */
  uint32_t *assumps;
  int nassumps, capassumps;

  /* scratch */
  u32vec learnt, stack, toclear, chainv, tmp;
  uint64_t *hints;
  size_t nhints, caphints;
  uint32_t *lvl_stamp;
  uint32_t stamp;

  /* heuristics */
  sat_options opt;
  double var_inc;
  double ema_fast, ema_slow, ema_trail;
  uint64_t conflicts_since_restart, luby_i, luby_limit;
  uint64_t next_reduce; /* 0: the first reduction, at opt.reduceint */
  int simp_trail;
  uint64_t simp_props;
  uint64_t rng; /* xorshift state, from opt.seed; 0: no randomization */
  int stable;
  uint64_t mode_end, mode_len;

  /* limits */
  int64_t conflict_limit;
  double time_limit;
  volatile sig_atomic_t interrupted;
  const atomic_int *cancel; /* another thread's stop flag, or NULL */
  struct timespec t0;

  /* proof */
  FILE *proof;
  int proof_fmt;
  char *pbuf;
  size_t pbuf_n;

  /* theory */
  twill_sat_theory th;
  int has_theory;
  uint32_t th_conflict; /* cref of a reported theory conflict */
  int *th_buf;          /* the literals handed to propagate */
  size_t th_cap;

  twill_sat_stats st;
  int oom;
};

/* ---------------------------------------------------------------- helpers */

static inline uint32_t var_of(uint32_t l) { return l >> 1; }
static inline uint32_t neg(uint32_t l) { return l ^ 1u; }
static inline uint32_t to_int_lit(int lit) {
  return lit > 0 ? 2u * (uint32_t)(lit - 1) : 2u * (uint32_t)(-lit - 1) + 1u;
}
static inline int to_ext_lit(uint32_t l) {
  int v = (int)var_of(l) + 1;
  return (l & 1u) ? -v : v;
}

static int grow(void *pp, size_t *cap, size_t need, size_t el) {
  if (need <= *cap) return 1;
  size_t nc = *cap ? *cap : 8;
  while (nc < need) nc *= 2;
  void *p = realloc(*(void **)pp, nc * el);
  if (!p) return 0;
  *(void **)pp = p;
  *cap = nc;
  return 1;
}

static int vpush(twill_sat *s, u32vec *v, uint32_t x) {
  if (v->n == v->cap && !grow(&v->a, &v->cap, v->n + 1, sizeof *v->a)) {
    s->oom = 1;
    return 0;
  }
  v->a[v->n++] = x;
  return 1;
}

static int wpush(twill_sat *s, wlist *l, uint32_t blk, uint32_t cref) {
  if (l->n == l->cap) {
    size_t cap = l->cap;
    if (!grow(&l->w, &cap, (size_t)l->n + 1, sizeof *l->w)) {
      s->oom = 1;
      return 0;
    }
    l->cap = (uint32_t)cap;
  }
  l->w[l->n].blk = blk;
  l->w[l->n].cref = cref;
  l->n++;
  return 1;
}

#define C_SIZE(s, c) ((s)->arena[(c)])
#define C_FLAGS(s, c) ((s)->arena[(c) + 1])
#define C_LITS(s, c) ((s)->arena + (c) + HDR)

static inline uint64_t c_id(const twill_sat *s, uint32_t c) {
  return (uint64_t)s->arena[c + 2] | ((uint64_t)s->arena[c + 3] << 32);
}

static double now_s(const twill_sat *s) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - s->t0.tv_sec) +
         1e-9 * (double)(t.tv_nsec - s->t0.tv_nsec);
}

static uint64_t rnd(twill_sat *s) {
  uint64_t x = s->rng;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  s->rng = x;
  return x;
}

/* ------------------------------------------------------------------ proof */

static void pflush(twill_sat *s) {
  if (s->proof && s->pbuf_n) fwrite(s->pbuf, 1, s->pbuf_n, s->proof);
  s->pbuf_n = 0;
}

static void pbyte(twill_sat *s, char c) {
  if (s->pbuf_n == 65536) pflush(s);
  s->pbuf[s->pbuf_n++] = c;
}

static void ptext_u64(twill_sat *s, uint64_t x, int negative) {
  char b[24];
  int n = 0;
  do {
    b[n++] = (char)('0' + x % 10);
    x /= 10;
  } while (x);
  if (negative) pbyte(s, '-');
  while (n) pbyte(s, b[--n]);
  pbyte(s, ' ');
}

static void pbin_u64(twill_sat *s, uint64_t x) {
  while (x > 127) {
    pbyte(s, (char)(0x80 | (x & 127)));
    x >>= 7;
  }
  pbyte(s, (char)x);
}

static void plit(twill_sat *s, uint32_t l) {
  if (s->proof_fmt == TWILL_PROOF_DRAT_BINARY)
    pbin_u64(s, 2u * (uint64_t)(var_of(l) + 1) + (l & 1u));
  else
    ptext_u64(s, var_of(l) + 1, (int)(l & 1u));
}

/* Addition of a derived clause with id; hints used by LRAT only. */
static void proof_add(twill_sat *s, uint64_t id, const uint32_t *lits, uint32_t n,
                      const uint64_t *hints, size_t nh) {
  if (!s->proof) return;
  if (s->proof_fmt == TWILL_PROOF_DRAT_BINARY) {
    pbyte(s, 'a');
    for (uint32_t i = 0; i < n; i++) plit(s, lits[i]);
    pbyte(s, 0);
    return;
  }
  if (s->proof_fmt == TWILL_PROOF_LRAT) ptext_u64(s, id, 0);
  for (uint32_t i = 0; i < n; i++) plit(s, lits[i]);
  pbyte(s, '0');
  if (s->proof_fmt == TWILL_PROOF_LRAT) {
    pbyte(s, ' ');
    for (size_t i = 0; i < nh; i++) ptext_u64(s, hints[i], 0);
    pbyte(s, '0');
  }
  pbyte(s, '\n');
}

static void proof_delete(twill_sat *s, uint32_t c) {
  if (!s->proof) return;
  if (s->proof_fmt == TWILL_PROOF_LRAT) {
    ptext_u64(s, s->next_id, 0);
    pbyte(s, 'd');
    pbyte(s, ' ');
    ptext_u64(s, c_id(s, c), 0);
    pbyte(s, '0');
    pbyte(s, '\n');
    return;
  }
  uint32_t n = C_SIZE(s, c);
  const uint32_t *l = C_LITS(s, c);
  if (s->proof_fmt == TWILL_PROOF_DRAT_BINARY) {
    pbyte(s, 'd');
    for (uint32_t i = 0; i < n; i++) plit(s, l[i]);
    pbyte(s, 0);
    return;
  }
  pbyte(s, 'd');
  pbyte(s, ' ');
  for (uint32_t i = 0; i < n; i++) plit(s, l[i]);
  pbyte(s, '0');
  pbyte(s, '\n');
}

static int hint_push(twill_sat *s, uint64_t id) {
  if (s->nhints == s->caphints &&
      !grow(&s->hints, &s->caphints, s->nhints + 1, sizeof *s->hints)) {
    s->oom = 1;
    return 0;
  }
  s->hints[s->nhints++] = id;
  return 1;
}

/* ------------------------------------------------------------------- heap */

static inline int heap_less(const twill_sat *s, int a, int b) {
  return s->act[a] > s->act[b];
}

static void heap_up(twill_sat *s, int i) {
  assert(i >= 0 && i < s->heap_n);
  int v = s->heap[i];
  while (i > 0) {
    int p = (i - 1) >> 1;
    if (!heap_less(s, v, s->heap[p])) break;
    s->heap[i] = s->heap[p];
    s->heap_idx[s->heap[i]] = i;
    i = p;
  }
  s->heap[i] = v;
  s->heap_idx[v] = i;
}

static void heap_down(twill_sat *s, int i) {
  int v = s->heap[i];
  for (;;) {
    int c = 2 * i + 1;
    if (c >= s->heap_n) break;
    if (c + 1 < s->heap_n && heap_less(s, s->heap[c + 1], s->heap[c])) c++;
    if (!heap_less(s, s->heap[c], v)) break;
    s->heap[i] = s->heap[c];
    s->heap_idx[s->heap[i]] = i;
    i = c;
  }
  s->heap[i] = v;
  s->heap_idx[v] = i;
}

static void heap_insert(twill_sat *s, int v) {
  if (s->heap_idx[v] >= 0) return;
  assert(s->heap_n < s->nvars);
  s->heap[s->heap_n] = v;
  s->heap_idx[v] = s->heap_n++;
  heap_up(s, s->heap_n - 1);
}

static int heap_pop(twill_sat *s) {
  assert(s->heap_n > 0);
  int v = s->heap[0];
  s->heap_idx[v] = -1;
  if (--s->heap_n > 0) {
    s->heap[0] = s->heap[s->heap_n];
    s->heap_idx[s->heap[0]] = 0;
    heap_down(s, 0);
  }
  return v;
}

static void bump_var(twill_sat *s, int v) {
  if ((s->act[v] += s->var_inc) > 1e100) {
    for (int i = 0; i < s->nvars; i++) s->act[i] *= 1e-100;
    s->var_inc *= 1e-100;
  }
  if (s->heap_idx[v] >= 0) heap_up(s, s->heap_idx[v]);
}

/* ------------------------------------------------------------- invariants */

/* Whole-structure checks for assert() in debug builds, compiled out with
 * NDEBUG like the asserts that call them.  The hot loops assert only O(1)
 * facts; these run where the solver does work of their order anyway: after
 * a garbage collection, at a restart, on a SAT answer, at the end of a
 * solve.  Each returns 1 when its invariant holds.  None allocates; db_ok
 * sets and clears two flag bits of each clause. */
#ifndef NDEBUG
/* The trail: every literal on it is true and at its recorded position, its
 * level is the number of decision levels opened before it (a level may be
 * empty: an assumption already true); a literal with a clause as reason is
 * implied by it: the clause holds the literal and every other literal of
 * it is false and assigned earlier.  Theory literals not explained yet
 * (CREF_LAZY) are not checked. */
static int trail_ok(const twill_sat *s) {
  if (s->trail_n > s->nvars || s->qhead > s->trail_n || s->theory_head > s->trail_n) return 0;
  for (int k = 0; k < s->nlevels; k++)
    if ((k > 0 && s->trail_lim[k - 1] > s->trail_lim[k]) || s->trail_lim[k] > s->trail_n)
      return 0;
  int lvl = 0;
  for (int i = 0; i < s->trail_n; i++) {
    while (lvl < s->nlevels && s->trail_lim[lvl] <= i) lvl++;
    uint32_t l = s->trail[i], v = var_of(l);
    if (s->val[l] != 1 || s->val[neg(l)] != -1 || s->tpos[v] != i || s->level[v] != lvl)
      return 0;
    uint32_t r = s->reason[v];
    if (r == CREF_NONE || r == CREF_LAZY) continue;
    if ((size_t)r + HDR > s->arena_n || (C_FLAGS(s, r) & F_DELETED)) return 0;
    int has = 0;
    for (uint32_t k = 0; k < C_SIZE(s, r); k++) {
      uint32_t q = C_LITS(s, r)[k];
      if (q == l)
        has = 1;
      else if (s->val[q] != -1 || s->tpos[var_of(q)] >= i)
        return 0;
    }
    if (!has) return 0;
  }
  return 1;
}

/* The VSIDS heap: a binary heap on activity (no child above its parent),
 * heap_idx its inverse, and every unassigned variable in it (the decision
 * loop takes the next one from it: one left out would be never decided). */
static int heap_ok(const twill_sat *s) {
  for (int i = 0; i < s->heap_n; i++) {
    int v = s->heap[i];
    if (v < 0 || v >= s->nvars || s->heap_idx[v] != i) return 0;
    if (i > 0 && heap_less(s, v, s->heap[(i - 1) / 2])) return 0;
  }
  for (int v = 0; v < s->nvars; v++) {
    int i = s->heap_idx[v];
    if (i >= s->heap_n || (i >= 0 && s->heap[i] != v)) return 0;
    if (i < 0 && s->val[2 * v] == 0) return 0;
  }
  return 1;
}

/* The clause database: each clause of s->orig / s->learnts has the
 * F_LEARNT flag of its list, an id, and no variable twice unless it is a
 * theory clause (see propagate); st.clauses and st.learnts count the live
 * ones; a live clause of two or more literals is watched exactly by its
 * first two (one entry in the list of the negation of each, whose blocker
 * is a literal of the clause, BIN_FLAG iff binary) and the watch lists
 * hold nothing else.  Deleted clauses may still be watched when a gc
 * failed for memory (s->oom: the solve is ending). */
static int db_ok(twill_sat *s) {
  if (s->oom) return 1;
  uint64_t live[2] = {0, 0}, watched = 0;
  int ok = 1;
  for (int k = 0; k < 2 && ok; k++) {
    const u32vec *vec = k ? &s->learnts : &s->orig;
    for (size_t i = 0; i < vec->n && ok; i++) {
      uint32_t c = vec->a[i];
      if ((size_t)c + HDR > s->arena_n) return 0;
      uint32_t f = C_FLAGS(s, c), n = C_SIZE(s, c);
      const uint32_t *l = C_LITS(s, c);
      if ((size_t)c + HDR + n > s->arena_n || !(f & F_LEARNT) != !k ||
          (f & (F_WATCH0 | F_WATCH1 | F_MOVED)) || c_id(s, c) == 0 || c_id(s, c) > s->next_id)
        return 0;
      if (f & F_DELETED) continue;
      live[k]++;
      watched += n >= 2;
      if (f & F_THEORY) continue;
      for (uint32_t a = 0; a < n && ok; a++) {
        if (var_of(l[a]) >= (uint32_t)s->nvars || s->seen[var_of(l[a])]) ok = 0;
        else s->seen[var_of(l[a])] = 1;
      }
      for (uint32_t a = 0; a < n; a++)
        if (var_of(l[a]) < (uint32_t)s->nvars) s->seen[var_of(l[a])] = 0;
    }
  }
  if (!ok || live[0] != s->st.clauses || live[1] != s->st.learnts) return 0;
  uint64_t entries = 0;
  for (int x = 0; x < 2 * s->nvars && ok; x++) {
    const wlist *wl = &s->ws[x];
    for (uint32_t i = 0; i < wl->n && ok; i++) {
      uint32_t c = wl->w[i].cref & ~BIN_FLAG;
      entries++;
      if ((size_t)c + HDR > s->arena_n) return 0;
      uint32_t n = C_SIZE(s, c), *f = &C_FLAGS(s, c);
      const uint32_t *l = C_LITS(s, c);
      uint32_t mark = l[0] == neg((uint32_t)x) && !(*f & F_WATCH0) ? F_WATCH0 : F_WATCH1;
      int blocker_in = 0;
      for (uint32_t a = 0; a < n; a++) blocker_in |= l[a] == wl->w[i].blk;
      if (n < 2 || (*f & F_DELETED) || !(wl->w[i].cref & BIN_FLAG) != (n != 2) ||
          (mark == F_WATCH1 && l[1] != neg((uint32_t)x)) || (*f & mark) || !blocker_in)
        ok = 0;
      else
        *f |= mark;
    }
  }
  for (int k = 0; k < 2; k++) {
    const u32vec *vec = k ? &s->learnts : &s->orig;
    for (size_t i = 0; i < vec->n; i++) {
      uint32_t c = vec->a[i], *f = &C_FLAGS(s, c);
      if (ok && !(*f & F_DELETED) && C_SIZE(s, c) >= 2 && (*f & (F_WATCH0 | F_WATCH1)) !=
                                                              (F_WATCH0 | F_WATCH1))
        ok = 0;
      *f &= ~(uint32_t)(F_WATCH0 | F_WATCH1);
    }
  }
  return ok && entries == 2 * watched;
}

/* On a SAT answer: every live clause has a true literal. */
static int model_ok(const twill_sat *s) {
  for (int k = 0; k < 2; k++) {
    const u32vec *vec = k ? &s->learnts : &s->orig;
    for (size_t i = 0; i < vec->n; i++) {
      uint32_t c = vec->a[i], sat = 0;
      if (C_FLAGS(s, c) & F_DELETED) continue;
      for (uint32_t a = 0; a < C_SIZE(s, c); a++) sat |= s->val[C_LITS(s, c)[a]] == 1;
      if (!sat) return 0;
    }
  }
  return 1;
}
#endif

/* -------------------------------------------------------------- variables */

twill_sat *twill_sat_new(void) {
  twill_sat *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->pbuf = malloc(65536);
  if (!s->pbuf) {
    free(s);
    return NULL;
  }
  twill_sat_options_init(&s->opt);
  s->ok = 1;
  s->var_inc = 1.0;
  s->conflict_limit = -1;
  s->th_conflict = CREF_NONE;
  s->luby_limit = 100;
  s->mode_len = 2000;
  s->mode_end = 2000;
  return s;
}

static void free_vec(u32vec *v) { free(v->a); }

void twill_sat_free(twill_sat *s) {
  if (!s) return;
  pflush(s);
  free(s->val);
  free(s->level);
  free(s->reason);
  free(s->tpos);
  free(s->act);
  free(s->phase);
  free(s->seen);
  free(s->seen0);
  free(s->unit_id);
  free(s->heap_idx);
  free(s->model);
  free(s->failed);
  if (s->ws)
    for (int i = 0; i < 2 * s->capvars; i++) free(s->ws[i].w);
  free(s->ws);
  free(s->heap);
  free(s->trail);
  free(s->trail_lim);
  free(s->arena);
  free_vec(&s->orig);
  free_vec(&s->learnts);
  free(s->assumps);
  free_vec(&s->learnt);
  free_vec(&s->stack);
  free_vec(&s->toclear);
  free_vec(&s->chainv);
  free_vec(&s->tmp);
  free(s->hints);
  free(s->lvl_stamp);
  free(s->pbuf);
  free(s->th_buf);
  free(s);
}

#define REALLOC_ARR(p, n)                                   \
  do {                                                      \
    void *q_ = realloc((p), (size_t)(n) * sizeof *(p));     \
    if (!q_) return 0;                                      \
    (p) = q_;                                               \
  } while (0)

static int grow_vars(twill_sat *s, int need) {
  if (need <= s->capvars) return 1;
  int nc = s->capvars ? s->capvars : 16;
  while (nc < need) nc *= 2;
  REALLOC_ARR(s->val, 2 * nc);
  REALLOC_ARR(s->failed, 2 * nc);
  REALLOC_ARR(s->ws, 2 * nc);
  memset(s->ws + 2 * s->capvars, 0, sizeof *s->ws * 2 * (size_t)(nc - s->capvars));
  REALLOC_ARR(s->level, nc);
  REALLOC_ARR(s->reason, nc);
  REALLOC_ARR(s->tpos, nc);
  REALLOC_ARR(s->act, nc);
  REALLOC_ARR(s->phase, nc);
  REALLOC_ARR(s->seen, nc);
  REALLOC_ARR(s->seen0, nc);
  REALLOC_ARR(s->unit_id, nc);
  REALLOC_ARR(s->heap_idx, nc);
  REALLOC_ARR(s->model, nc);
  REALLOC_ARR(s->heap, nc);
  REALLOC_ARR(s->trail, nc);
  REALLOC_ARR(s->trail_lim, nc + 1);
  REALLOC_ARR(s->lvl_stamp, nc + 2);
  memset(s->lvl_stamp + s->capvars, 0, sizeof *s->lvl_stamp * (size_t)(nc + 2 - s->capvars));
  s->capvars = nc;
  return 1;
}

int twill_sat_new_var(twill_sat *s) {
  if (s->nvars >= (1 << 29) || !grow_vars(s, s->nvars + 1)) {
    s->oom = 1;
    return 0;
  }
  int v = s->nvars++;
  s->val[2 * v] = s->val[2 * v + 1] = 0;
  s->failed[2 * v] = s->failed[2 * v + 1] = 0;
  s->level[v] = 0;
  s->reason[v] = CREF_NONE;
  s->tpos[v] = 0;
  s->act[v] = s->rng ? (double)(rnd(s) % 1000000) * 1e-9 : 0.0;
  s->phase[v] = s->opt.phase ? 0 : 1;
  s->seen[v] = s->seen0[v] = 0;
  s->unit_id[v] = 0;
  s->model[v] = 0;
  s->heap_idx[v] = -1;
  heap_insert(s, v);
  return v + 1;
}

int twill_sat_num_vars(const twill_sat *s) { return s->nvars; }

/* ---------------------------------------------------------------- clauses */

static uint32_t alloc_clause(twill_sat *s, const uint32_t *lits, uint32_t n,
                             int learnt, uint64_t id) {
  assert(n >= 1 && id >= 1 && id <= s->next_id);
  size_t need = s->arena_n + HDR + n;
  if (need >= BIN_FLAG || !grow(&s->arena, &s->arena_cap, need, sizeof *s->arena)) {
    s->oom = 1;
    return CREF_NONE;
  }
  uint32_t c = (uint32_t)s->arena_n;
  s->arena[c] = n;
  s->arena[c + 1] = learnt ? F_LEARNT : 0;
  s->arena[c + 2] = (uint32_t)id;
  s->arena[c + 3] = (uint32_t)(id >> 32);
  memcpy(s->arena + c + HDR, lits, n * sizeof *lits);
  s->arena_n = need;
  if (!vpush(s, learnt ? &s->learnts : &s->orig, c)) return CREF_NONE;
  return c;
}

static int attach(twill_sat *s, uint32_t c) {
  uint32_t *l = C_LITS(s, c);
  assert(C_SIZE(s, c) >= 2 && !(C_FLAGS(s, c) & F_DELETED) &&
         (l[0] != l[1] || (C_FLAGS(s, c) & F_THEORY)));
  uint32_t bin = C_SIZE(s, c) == 2 ? BIN_FLAG : 0;
  return wpush(s, &s->ws[neg(l[0])], l[1], c | bin) &&
         wpush(s, &s->ws[neg(l[1])], l[0], c | bin);
}

static void enqueue(twill_sat *s, uint32_t l, uint32_t reason) {
  uint32_t v = var_of(l);
  assert(v < (uint32_t)s->nvars && s->val[l] == 0 && s->trail_n < s->nvars);
  s->val[l] = 1;
  s->val[neg(l)] = -1;
  s->level[v] = s->nlevels;
  s->reason[v] = reason;
  s->tpos[v] = s->trail_n;
  s->trail[s->trail_n++] = l;
}

static void mark_deleted(twill_sat *s, uint32_t c) {
  if (C_FLAGS(s, c) & F_DELETED) return;
  proof_delete(s, c);
  C_FLAGS(s, c) |= F_DELETED;
  s->wasted += HDR + C_SIZE(s, c);
  s->st.deleted++;
}

static int locked(const twill_sat *s, uint32_t c) {
  const uint32_t *l = C_LITS(s, c);
  for (int k = 0; k < 2; k++) {
    uint32_t v = var_of(l[k]);
    if (s->reason[v] == c && s->val[l[k]] == 1) return 1;
  }
  return 0;
}

/* Garbage collection: the live clauses are copied into a new arena (in
 * list order, so the order of s->orig and s->learnts is kept), each old
 * copy left with F_MOVED and its new cref in the id word; the reasons on
 * the trail follow those forward pointers, then every watch list is
 * rebuilt from the clause lists. */
static void gc(twill_sat *s) {
  size_t n = s->arena_n - s->wasted;
  uint32_t *na = malloc((n ? n : 1) * sizeof *na);
  if (!na) {
    s->oom = 1;
    return;
  }
  size_t to = 0;
  for (int k = 0; k < 2; k++) {
    u32vec *v = k ? &s->learnts : &s->orig;
    size_t j = 0;
    for (size_t i = 0; i < v->n; i++) {
      uint32_t c = v->a[i];
      uint32_t sz = s->arena[c];
      if (s->arena[c + 1] & F_DELETED) continue;
      memcpy(na + to, s->arena + c, (HDR + sz) * sizeof *na);
      s->arena[c + 2] = (uint32_t)to; /* forward pointer (id is in na) */
      s->arena[c + 1] |= F_MOVED;
      v->a[j++] = (uint32_t)to;
      to += HDR + sz;
    }
    v->n = j;
  }
  for (int i = 0; i < s->trail_n; i++) {
    uint32_t v = var_of(s->trail[i]);
    uint32_t r = s->reason[v];
    if (r == CREF_NONE || r == CREF_LAZY) continue;
    if (s->arena[r + 1] & F_MOVED) {
      s->reason[v] = s->arena[r + 2];
    } else {
      /* a reduction keeps locked clauses: a reason is deleted only by
       * simplify, which runs at level 0 */
      assert(s->level[v] == 0);
      s->reason[v] = CREF_NONE;
    }
  }
  free(s->arena);
  s->arena = na;
  s->arena_n = to;
  s->arena_cap = n ? n : 1;
  s->wasted = 0;
  for (int i = 0; i < 2 * s->nvars; i++) s->ws[i].n = 0;
  for (int k = 0; k < 2; k++) {
    u32vec *v = k ? &s->learnts : &s->orig;
    for (size_t i = 0; i < v->n; i++)
      if (C_SIZE(s, v->a[i]) >= 2) attach(s, v->a[i]);
  }
  assert(db_ok(s) && trail_ok(s));
}

/* Derive (in the proof) the unit clauses of every level-0 literal that was
 * implied by a clause, so that later deletions of satisfied clauses cannot
 * lose them, and so that LRAT chains can cite them by id. */
static uint32_t explain_lazy(twill_sat *s, uint32_t v);

static void derive_units(twill_sat *s) {
  if (!s->proof) {
    s->units_derived = s->trail_n;
    return;
  }
  for (; s->units_derived < s->trail_n; s->units_derived++) {
    uint32_t l = s->trail[s->units_derived];
    uint32_t v = var_of(l);
    if (s->level[v] != 0 || s->unit_id[v]) continue;
    uint32_t r = s->reason[v];
    if (r == CREF_LAZY) r = explain_lazy(s, v);
    if (r == CREF_NONE) continue;
    s->nhints = 0;
    const uint32_t *cl = C_LITS(s, r);
    for (uint32_t k = 0; k < C_SIZE(s, r); k++)
      if (var_of(cl[k]) != v) hint_push(s, s->unit_id[var_of(cl[k])]);
    hint_push(s, c_id(s, r));
    uint64_t id = ++s->next_id;
    proof_add(s, id, &l, 1, s->hints, s->nhints);
    s->unit_id[v] = id;
  }
}

/* The empty clause from a conflict at level 0. */
static void derive_empty(twill_sat *s, uint32_t confl) {
  s->ok = 0;
  if (!s->proof) return;
  derive_units(s);
  s->nhints = 0;
  if (confl != CREF_NONE) {
    const uint32_t *cl = C_LITS(s, confl);
    for (uint32_t k = 0; k < C_SIZE(s, confl); k++)
      hint_push(s, s->unit_id[var_of(cl[k])]);
    hint_push(s, c_id(s, confl));
  }
  proof_add(s, ++s->next_id, NULL, 0, s->hints, s->nhints);
  pflush(s);
}

static uint32_t propagate(twill_sat *s);
static void backtrack(twill_sat *s, int lvl);

int twill_sat_add_clause(twill_sat *s, const int *lits, int n) {
  if (s->oom) return -1;
  backtrack(s, 0);
  uint64_t id = ++s->next_id;
  if (!s->ok) return 0;
  s->tmp.n = 0;
  for (int i = 0; i < n; i++) {
    int e = lits[i];
    if (e == 0 || e == INT32_MIN) return -1;
    int v = e > 0 ? e : -e;
    while (s->nvars < v)
      if (!twill_sat_new_var(s)) return -1;
    if (!vpush(s, &s->tmp, to_int_lit(e))) return -1;
  }
  /* sort, drop duplicates, detect tautologies and level-0 values */
  uint32_t *a = s->tmp.a;
  size_t m = s->tmp.n;
  for (size_t i = 1; i < m; i++) { /* insertion sort: clauses are short */
    uint32_t x = a[i];
    size_t j = i;
    while (j > 0 && a[j - 1] > x) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = x;
  }
  /* Literals false at level 0 are removed only if their assignment has
   * already been propagated; unpropagated ones (input units added before)
   * are kept, propagation will visit the clause.  Thus a clause set added
   * before the first solve writes no proof line, and input clause i keeps
   * id i as LRAT requires. */
  size_t k = 0;
  int removed = 0;
  for (size_t i = 0; i < m; i++) {
    if (k && a[k - 1] == a[i]) continue;
    if (k && a[k - 1] == neg(a[i])) return 1; /* tautology */
    if (s->val[a[i]] == 1) return 1;          /* satisfied at level 0 */
    if (s->val[a[i]] == -1 && s->tpos[var_of(a[i])] < s->qhead) {
      removed = 1;
      continue;
    }
    a[k++] = a[i];
  }
  if (removed && s->proof) {
    /* the shortened clause is a RUP lemma: the removed literals' units,
     * then the original clause */
    derive_units(s);
    s->nhints = 0;
    for (int i = 0; i < n; i++) {
      uint32_t l = to_int_lit(lits[i]);
      if (s->val[l] == -1 && s->tpos[var_of(l)] < s->qhead && !s->seen0[var_of(l)]) {
        s->seen0[var_of(l)] = 1;
        hint_push(s, s->unit_id[var_of(l)]);
      }
    }
    for (int i = 0; i < n; i++) s->seen0[var_of(to_int_lit(lits[i]))] = 0;
    hint_push(s, id);
    uint64_t nid = ++s->next_id;
    proof_add(s, nid, a, (uint32_t)k, s->hints, s->nhints);
    /* delete the original */
    if (s->proof_fmt == TWILL_PROOF_LRAT) {
      ptext_u64(s, s->next_id, 0);
      pbyte(s, 'd');
      pbyte(s, ' ');
      ptext_u64(s, id, 0);
      pbyte(s, '0');
      pbyte(s, '\n');
    } else if (s->proof_fmt == TWILL_PROOF_DRAT_BINARY) {
      pbyte(s, 'd');
      for (int i = 0; i < n; i++) plit(s, to_int_lit(lits[i]));
      pbyte(s, 0);
    } else {
      pbyte(s, 'd');
      pbyte(s, ' ');
      for (int i = 0; i < n; i++) plit(s, to_int_lit(lits[i]));
      pbyte(s, '0');
      pbyte(s, '\n');
    }
    id = nid;
  }
  if (k == 0) { /* an empty input clause, or the shortened lemma above */
    s->ok = 0;
    pflush(s);
    return 0;
  }
  if (k == 1) {
    if (s->val[a[0]] == -1) {
      /* its negation is an unpropagated level-0 unit: refuted; the empty
       * clause is written by the next solve (after all input clauses) */
      s->ok = 0;
      s->empty_hint[0] = s->unit_id[var_of(a[0])];
      s->empty_hint[1] = id;
      s->empty_pending = 1;
      return 0;
    }
    enqueue(s, a[0], CREF_NONE);
    s->unit_id[var_of(a[0])] = id;
    return s->oom ? -1 : 1;
  }
  uint32_t c = alloc_clause(s, a, (uint32_t)k, 0, id);
  if (c == CREF_NONE || !attach(s, c)) return -1;
  s->st.clauses++;
  return 1;
}

/* ------------------------------------------------------------ propagation */

/* Out-of-line growth of a watch list (the common push is inline). */
static int wgrow(twill_sat *s, wlist *l) {
  size_t cap = l->cap;
  if (!grow(&l->w, &cap, (size_t)l->n + 1, sizeof *l->w)) {
    s->oom = 1;
    return 0;
  }
  l->cap = (uint32_t)cap;
  return 1;
}

/* Unit propagation.  Everything the inner loop touches is held in locals:
 * val is int8_t, so every store to it may alias any field of *s and would
 * otherwise force the compiler to reload them.  The arena does not move
 * here (nothing is allocated in it); a watch list other than the one being
 * scanned may grow (a moved watch never goes back to the list of p, which
 * holds the watches of the false neg(p): the new watch is not false).
 * Input and learned clauses have no literal twice; a theory clause may (a
 * linear constraint that names a Boolean twice explains with it twice),
 * which costs a redundant watch entry at worst: a repeated literal is
 * false, or true, or free together with its copy. */
static uint32_t propagate(twill_sat *s) {
  uint32_t confl = CREF_NONE;
  int8_t *const val = s->val;
  uint32_t *const arena = s->arena;
  wlist *const ws = s->ws;
  uint32_t *const trail = s->trail;
  int *const level = s->level;
  uint32_t *const reason = s->reason;
  int *const tpos = s->tpos;
  const int lvl = s->nlevels;
  int qhead = s->qhead, trail_n = s->trail_n;
  uint64_t props = 0;
#define PROP_ENQ(lit, why)               \
  do {                                   \
    uint32_t l_ = (lit), v_ = l_ >> 1;   \
    assert(val[l_] == 0);                \
    val[l_] = 1;                         \
    val[l_ ^ 1u] = -1;                   \
    level[v_] = lvl;                     \
    reason[v_] = (why);                  \
    tpos[v_] = trail_n;                  \
    trail[trail_n++] = l_;               \
  } while (0)
  /* ws[p] lists the clauses watching neg(p), visited when p becomes true:
   * a binary one from its entry alone, a longer one gets another watch or
   * implies its other watched literal (its first: l[0] after the swap) */
  while (qhead < trail_n) {
    uint32_t p = trail[qhead++];
    uint32_t fl = neg(p);
    wlist *wl = &ws[p];
    assert(val[p] == 1 && trail_n <= s->nvars);
    props++;
    if (wl->n == 0) continue;
    watch *i = wl->w, *j = i, *const end = i + wl->n;
    while (i < end) {
      watch cw = *i++;
      if (val[cw.blk] == 1) {
        *j++ = cw;
        continue;
      }
      if (cw.cref & BIN_FLAG) {
        /* the arena holds {fl, blk} (read here by debug builds only) */
        assert(C_SIZE(s, cw.cref & ~BIN_FLAG) == 2 &&
               (C_LITS(s, cw.cref & ~BIN_FLAG)[0] ^ C_LITS(s, cw.cref & ~BIN_FLAG)[1]) ==
                   (fl ^ cw.blk));
        *j++ = cw;
        if (val[cw.blk] == -1) {
          confl = cw.cref & ~BIN_FLAG;
          break;
        }
        PROP_ENQ(cw.blk, cw.cref & ~BIN_FLAG);
        continue;
      }
      uint32_t c = cw.cref;
      uint32_t *l = arena + c + HDR;
      uint32_t first = l[0];
      if (first == fl) {
        first = l[1];
        l[0] = first;
        l[1] = fl;
      }
      assert(l[1] == fl && arena[c] > 2 && (s->oom || !(arena[c + 1] & F_DELETED)));
      if (first != cw.blk && val[first] == 1) {
        j->blk = first;
        j->cref = c;
        j++;
        continue;
      }
      uint32_t sz = arena[c];
      uint32_t *k = l + 2, *const lend = l + sz;
      while (k < lend && val[*k] == -1) k++;
      if (k < lend) {
        uint32_t nw = *k;
        assert(nw != fl && (nw != first || (arena[c + 1] & F_THEORY)));
        l[1] = nw;
        *k = fl;
        wlist *nl = &ws[neg(nw)];
        if (nl->n < nl->cap || wgrow(s, nl)) {
          nl->w[nl->n].blk = first;
          nl->w[nl->n].cref = c;
          nl->n++;
        }
        continue;
      }
      /* every literal but first is false: c is unit or conflicting */
      j->blk = first;
      j->cref = c;
      j++;
      if (val[first] == -1) {
        confl = c;
        break;
      }
      PROP_ENQ(first, c);
    }
    while (i < end) *j++ = *i++;
    wl->n = (uint32_t)(j - wl->w);
    if (confl != CREF_NONE) {
      qhead = trail_n;
      break;
    }
  }
  s->qhead = qhead;
  s->trail_n = trail_n;
  s->st.propagations += props;
  return confl;
#undef PROP_ENQ
}

static void backtrack(twill_sat *s, int lvl) {
  assert(lvl >= 0);
  if (s->nlevels <= lvl) return;
  int lim = s->trail_lim[lvl];
  for (int i = s->trail_n - 1; i >= lim; i--) {
    uint32_t l = s->trail[i];
    uint32_t v = var_of(l);
    s->val[l] = s->val[neg(l)] = 0;
    s->reason[v] = CREF_NONE;
    s->phase[v] = (uint8_t)(l & 1u);
    heap_insert(s, (int)v);
  }
  s->trail_n = lim;
  s->qhead = lim;
  s->nlevels = lvl;
  if (s->theory_head > lim) s->theory_head = lim;
  if (s->has_theory && s->th.backtrack) s->th.backtrack(s->th.ctx, lvl);
}

/* ----------------------------------------------------------------- theory */

void twill_sat_set_theory(twill_sat *s, const twill_sat_theory *t) {
  if (t) {
    s->th = *t;
    s->has_theory = 1;
  } else {
    memset(&s->th, 0, sizeof s->th);
    s->has_theory = 0;
  }
  s->theory_head = 0;
}

int twill_sat_level(const twill_sat *s) { return s->nlevels; }

int twill_sat_current_value(const twill_sat *s, int lit) {
  int v = lit > 0 ? lit : -lit;
  if (lit == 0 || v > s->nvars) return 0;
  return s->val[to_int_lit(lit)];
}

const int8_t *const *twill_sat_value_table(const twill_sat *s) {
  return (const int8_t *const *)&s->val;
}

int twill_sat_theory_imply(twill_sat *s, int lit) {
  int v = lit > 0 ? lit : -lit;
  if (lit == 0 || v > s->nvars) return 0;
  uint32_t l = to_int_lit(lit);
  if (s->val[l] == 1) return 1;
  if (s->val[l] == -1) return 0;
  enqueue(s, l, CREF_LAZY);
  return 1;
}

/* Store a theory clause (explanation or conflict) as a learned clause,
 * written to the proof as a lemma.  Watches: the two literals of highest
 * level (true before false, for explanations). */
static uint32_t add_theory_clause(twill_sat *s, const int *lits, int n) {
  s->tmp.n = 0;
  for (int i = 0; i < n; i++) {
    int v = lits[i] > 0 ? lits[i] : -lits[i];
    assert(lits[i] != 0 && lits[i] != INT32_MIN && v <= s->nvars);
    if (lits[i] == 0 || v > s->nvars) continue;
    vpush(s, &s->tmp, to_int_lit(lits[i]));
  }
  uint32_t *a = s->tmp.a;
  uint32_t m = (uint32_t)s->tmp.n;
  /* order: true literals first, then by decreasing level */
  for (uint32_t i = 0; i < m && i < 2; i++) {
    uint32_t best = i;
    for (uint32_t k = i + 1; k < m; k++) {
      int bk = s->val[a[k]] == 1, bb = s->val[a[best]] == 1;
      if (bk > bb || (bk == bb && s->level[var_of(a[k])] > s->level[var_of(a[best])]))
        best = k;
    }
    uint32_t t = a[i];
    a[i] = a[best];
    a[best] = t;
  }
  uint64_t id = ++s->next_id;
  proof_add(s, id, a, m, NULL, 0);
  if (m == 0) return CREF_NONE;
  uint32_t c = alloc_clause(s, a, m, 1, id);
  if (c == CREF_NONE) return CREF_NONE;
  C_FLAGS(s, c) |= F_THEORY | (2u << 8);
  s->st.learnts++;
  if (m == 1) {
    s->unit_id[var_of(a[0])] = id;
    return c;
  }
  attach(s, c);
  return c;
}

/* The reason of theory literal v, asked now.  The theory's contract
 * (twill/sat.h): a clause holding the literal whose other literals were
 * false before it was implied; add_theory_clause puts the one true literal
 * first. */
static uint32_t explain_lazy(twill_sat *s, uint32_t v) {
  const int *cl = NULL;
  uint32_t lit = s->val[2 * v] == 1 ? 2 * v : 2 * v + 1;
  assert(s->reason[v] == CREF_LAZY && s->val[lit] == 1);
  int n = s->th.explain ? s->th.explain(s->th.ctx, to_ext_lit(lit), &cl) : 0;
  uint32_t c = add_theory_clause(s, cl, n);
#ifndef NDEBUG
  if (c != CREF_NONE) {
    assert(C_LITS(s, c)[0] == lit);
    for (uint32_t k = 1; k < C_SIZE(s, c); k++) {
      uint32_t q = C_LITS(s, c)[k];
      assert(q == lit || (s->val[q] == -1 && s->tpos[var_of(q)] < s->tpos[v]));
    }
  }
#endif
  assert(c != CREF_NONE || s->oom);
  s->reason[v] = c;
  return c;
}

void twill_sat_theory_conflict(twill_sat *s, const int *clause, int n) {
#ifndef NDEBUG
  for (int i = 0; i < n; i++) /* every literal false (twill/sat.h) */
    assert(clause[i] != 0 && twill_sat_current_value(s, clause[i]) == -1);
#endif
  if (s->th_conflict != CREF_NONE) return;
  uint32_t c = add_theory_clause(s, clause, n);
  s->th_conflict = c == CREF_NONE ? CREF_LAZY : c; /* LAZY: empty clause */
}

/* ---------------------------------------------------------------- analyze */

static uint32_t reason_of(twill_sat *s, uint32_t v) {
  uint32_t r = s->reason[v];
  return r == CREF_LAZY ? explain_lazy(s, v) : r;
}

static uint32_t abstract_level(const twill_sat *s, uint32_t v) {
  return 1u << (s->level[v] & 31);
}

static int lit_redundant(twill_sat *s, uint32_t p, uint32_t abs_levels) {
  s->stack.n = 0;
  vpush(s, &s->stack, p);
  size_t top = s->toclear.n;
  int lrat = s->proof && s->proof_fmt == TWILL_PROOF_LRAT;
  while (s->stack.n > 0) {
    uint32_t q = s->stack.a[--s->stack.n];
    uint32_t r = reason_of(s, var_of(q));
    assert(r != CREF_NONE && s->val[q] == -1);
    const uint32_t *cl = C_LITS(s, r);
    uint32_t sz = C_SIZE(s, r);
    for (uint32_t i = 0; i < sz; i++) {
      uint32_t x = cl[i];
      uint32_t v = var_of(x);
      if (v == var_of(q)) continue;
      if (s->seen[v]) continue;
      if (s->level[v] == 0) {
        if (lrat && !s->seen0[v]) {
          s->seen0[v] = 1;
          vpush(s, &s->chainv, v | 0x80000000u);
        }
        continue;
      }
      if (s->reason[v] != CREF_NONE && (abstract_level(s, v) & abs_levels)) {
        s->seen[v] = 1;
        vpush(s, &s->stack, x);
        vpush(s, &s->toclear, x);
      } else {
        for (size_t k = top; k < s->toclear.n; k++) s->seen[var_of(s->toclear.a[k])] = 0;
        s->toclear.n = top;
        return 0;
      }
    }
  }
  return 1;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* First-UIP analysis; fills s->learnt (asserting literal first, a literal
 * of the backjump level second) and returns the backjump level and lbd. */
static int analyze(twill_sat *s, uint32_t confl, uint32_t *out_lbd) {
  int lrat = s->proof && s->proof_fmt == TWILL_PROOF_LRAT;
  int pathc = 0;
  uint32_t p = UINT32_MAX;
  int idx = s->trail_n - 1;
  s->learnt.n = 0;
  s->chainv.n = 0;
  vpush(s, &s->learnt, 0);
  uint32_t confl0 = confl;
  assert(s->nlevels > 0 && confl != CREF_NONE && confl != CREF_LAZY);
  do {
    if (C_FLAGS(s, confl) & F_LEARNT) C_FLAGS(s, confl) |= F_USED;
    const uint32_t *cl = C_LITS(s, confl);
    uint32_t sz = C_SIZE(s, confl);
    for (uint32_t i = 0; i < sz; i++) {
      uint32_t q = cl[i];
      uint32_t v = var_of(q);
      /* the conflict: every literal false; a reason: all but p */
      assert(s->val[q] == -1 || q == p);
      if (p != UINT32_MAX && v == var_of(p)) continue;
      if (s->seen[v]) continue;
      if (s->level[v] > 0) {
        s->seen[v] = 1;
        bump_var(s, (int)v);
        if (s->level[v] >= s->nlevels)
          pathc++;
        else
          vpush(s, &s->learnt, q);
      } else if (lrat && !s->seen0[v]) {
        s->seen0[v] = 1;
        vpush(s, &s->chainv, v | 0x80000000u);
      }
    }
    /* the conflict has a literal at the current level (search backtracks
     * to the highest level of a theory conflict first), and the walk back
     * meets those before any of a lower level */
    assert(pathc > 0);
    while (!s->seen[var_of(s->trail[idx])]) idx--;
    p = s->trail[idx--];
    assert(s->level[var_of(p)] == s->nlevels);
    s->seen[var_of(p)] = 0;
    pathc--;
    if (pathc > 0) {
      if (lrat) vpush(s, &s->chainv, var_of(p));
      confl = reason_of(s, var_of(p));
      assert(confl != CREF_NONE); /* not the UIP: not the decision either */
    }
  } while (pathc > 0);
  s->learnt.a[0] = neg(p);

  /* minimization */
  s->toclear.n = 0;
  for (size_t i = 0; i < s->learnt.n; i++) vpush(s, &s->toclear, s->learnt.a[i]);
  size_t orig_n = s->learnt.n;
  size_t j = 1;
  if (s->opt.minimize) {
    uint32_t abs_levels = 0;
    for (size_t i = 1; i < s->learnt.n; i++) abs_levels |= abstract_level(s, var_of(s->learnt.a[i]));
    for (size_t i = 1; i < s->learnt.n; i++) {
      uint32_t l = s->learnt.a[i];
      if (s->reason[var_of(l)] == CREF_NONE || !lit_redundant(s, l, abs_levels))
        s->learnt.a[j++] = l;
      else if (lrat)
        vpush(s, &s->chainv, var_of(l));
    }
  } else {
    j = s->learnt.n;
  }
  s->st.minimized_literals += orig_n - j;
  s->learnt.n = j;
  if (lrat) {
    /* redundancy-proven variables (toclear beyond the original clause) */
    for (size_t i = orig_n; i < s->toclear.n; i++) vpush(s, &s->chainv, var_of(s->toclear.a[i]));
    /* hints: level-0 units, then reasons in trail order, then conflict */
    s->nhints = 0;
    size_t nr = 0;
    for (size_t i = 0; i < s->chainv.n; i++) {
      uint32_t x = s->chainv.a[i];
      if (x & 0x80000000u) {
        uint32_t v = x & 0x7fffffffu;
        hint_push(s, s->unit_id[v]);
        s->seen0[v] = 0;
      } else {
        s->chainv.a[nr++] = x;
      }
    }
    /* sort the variables by trail position: keys tpos << 32 | var, put
     * after the unit hints in the hint buffer, then replaced by ids */
    size_t base = s->nhints;
    for (size_t i = 0; i < nr; i++)
      hint_push(s, ((uint64_t)s->tpos[s->chainv.a[i]] << 32) | s->chainv.a[i]);
    if (!s->oom && nr) { /* nr == 0 may leave s->hints NULL */
      qsort(s->hints + base, nr, sizeof *s->hints, cmp_u64);
      for (size_t i = base; i < base + nr; i++)
        s->hints[i] = c_id(s, s->reason[(uint32_t)s->hints[i]]);
    }
    hint_push(s, c_id(s, confl0));
  }
  for (size_t i = 0; i < s->toclear.n; i++) s->seen[var_of(s->toclear.a[i])] = 0;

  /* backjump level: the highest level below, its literal at position 1 */
  int bt = 0;
  if (s->learnt.n > 1) {
    size_t mi = 1;
    for (size_t i = 2; i < s->learnt.n; i++)
      if (s->level[var_of(s->learnt.a[i])] > s->level[var_of(s->learnt.a[mi])]) mi = i;
    uint32_t t = s->learnt.a[1];
    s->learnt.a[1] = s->learnt.a[mi];
    s->learnt.a[mi] = t;
    bt = s->level[var_of(s->learnt.a[1])];
  }
  /* lbd */
  s->stamp++;
  uint32_t lbd = 0;
  for (size_t i = 0; i < s->learnt.n; i++) {
    int lv = s->level[var_of(s->learnt.a[i])];
    if (s->lvl_stamp[lv] != s->stamp) {
      s->lvl_stamp[lv] = s->stamp;
      lbd++;
    }
  }
  *out_lbd = lbd;
  return bt;
}

/* Failed assumptions: a is an assumption found false.  Marks a and every
 * assumption (decision above level 0) its falsification depends on. */
static void analyze_final(twill_sat *s, uint32_t a) {
  s->failed[a] = 1;
  if (s->nlevels == 0 || s->level[var_of(a)] == 0) return;
  s->seen[var_of(a)] = 1;
  for (int i = s->trail_n - 1; i >= s->trail_lim[0]; i--) {
    uint32_t x = s->trail[i];
    uint32_t v = var_of(x);
    if (!s->seen[v]) continue;
    uint32_t r = reason_of(s, v);
    if (r == CREF_NONE) {
      s->failed[x] = 1;
    } else {
      const uint32_t *cl = C_LITS(s, r);
      for (uint32_t k = 0; k < C_SIZE(s, r); k++) {
        uint32_t u = var_of(cl[k]);
        if (u != v && s->level[u] > 0) s->seen[u] = 1;
      }
    }
    s->seen[v] = 0;
  }
}

/* ----------------------------------------------------------------- reduce */

static void reduce_db(twill_sat *s) {
  s->st.reductions++;
  u32vec *L = &s->learnts;
  s->nhints = 0;
  for (size_t i = 0; i < L->n; i++) {
    uint32_t c = L->a[i];
    uint32_t f = C_FLAGS(s, c);
    if (f & F_DELETED) continue;
    if (C_SIZE(s, c) <= 2 || (f >> 8) <= 2) continue;
    if (f & F_USED) {
      C_FLAGS(s, c) &= ~(uint32_t)F_USED;
      continue;
    }
    if (locked(s, c)) continue;
    /* key: worst first = highest lbd, then longest; ties by cref */
    uint64_t key = ((uint64_t)(0xffffffu - (f >> 8)) << 40) |
                   ((uint64_t)(0xffu - (C_SIZE(s, c) > 0xff ? 0xff : C_SIZE(s, c))) << 32) | c;
    if (s->nhints == s->caphints &&
        !grow(&s->hints, &s->caphints, s->nhints + 1, sizeof *s->hints)) {
      s->oom = 1;
      return;
    }
    s->hints[s->nhints++] = key;
  }
  /* no candidate and no proof hint so far leaves s->hints NULL, which
   * qsort must not be given even for 0 elements */
  if (s->nhints) qsort(s->hints, s->nhints, sizeof *s->hints, cmp_u64);
  size_t ndel = s->nhints / 2;
  for (size_t i = 0; i < ndel; i++) mark_deleted(s, (uint32_t)s->hints[i]);
  s->nhints = 0;
  s->st.learnts -= ndel;
  gc(s);
}

/* At level 0: delete the clauses satisfied by the level-0 assignment. */
static void simplify(twill_sat *s) {
  assert(s->nlevels == 0);
  if (s->trail_n == s->simp_trail || s->st.propagations < s->simp_props) return;
  derive_units(s);
  for (int k = 0; k < 2; k++) {
    u32vec *v = k ? &s->learnts : &s->orig;
    for (size_t i = 0; i < v->n; i++) {
      uint32_t c = v->a[i];
      if (C_FLAGS(s, c) & F_DELETED) continue;
      const uint32_t *cl = C_LITS(s, c);
      for (uint32_t q = 0; q < C_SIZE(s, c); q++)
        if (s->val[cl[q]] == 1) {
          if (s->reason[var_of(cl[q])] == c) s->reason[var_of(cl[q])] = CREF_NONE;
          mark_deleted(s, c);
          if (k) s->st.learnts--;
          else s->st.clauses--;
          break;
        }
    }
  }
  gc(s);
  s->simp_trail = s->trail_n;
  s->simp_props = s->st.propagations + s->arena_n / 4;
}

/* ----------------------------------------------------------------- search */

static uint64_t luby(uint64_t i) {
  /* Luby sequence 1,1,2,1,1,2,4,... (0-based i) */
  uint64_t size = 1, seq = 0;
  while (size < i + 1) {
    seq++;
    size = 2 * size + 1;
  }
  while (size - 1 != i) {
    size = (size - 1) >> 1;
    seq--;
    i = i % size;
  }
  return (uint64_t)1 << seq;
}

/* Set from a signal handler (twill_sat_interrupt_all): every solver stops
 * at its next check, as if its own interrupt had been called. */
static volatile sig_atomic_t stop_all;

void twill_sat_interrupt_all(void) { stop_all = 1; }

/* Another thread asked this solve to stop (twill_sat_set_cancel). */
static int cancelled(const twill_sat *s) {
  return s->cancel && atomic_load_explicit(s->cancel, memory_order_relaxed);
}

static int should_stop(twill_sat *s) {
  if (s->interrupted || stop_all || cancelled(s)) return 1;
  if (s->conflict_limit >= 0 && (int64_t)s->st.conflicts >= s->conflict_limit) return 1;
  if (s->time_limit > 0 && (s->st.conflicts & 63) == 0 && now_s(s) > s->time_limit) return 1;
  return 0;
}

/* Run the theory after a propagation fixpoint, on the literals assigned
 * since its previous round.  Returns the cref of the conflict it reported,
 * CREF_NONE - 2 for an empty conflict clause (no cref is that large: the
 * arena stays below BIN_FLAG), CREF_LAZY when it implied literals, else
 * CREF_NONE; *stop is set when it asks to stop, or on out of memory. */
static uint32_t theory_round(twill_sat *s, int *stop) {
  if (!s->has_theory || !s->th.propagate || s->theory_head >= s->trail_n) return CREF_NONE;
  int from = s->theory_head;
  s->theory_head = s->trail_n;
  int before = s->trail_n;
  if (!grow(&s->th_buf, &s->th_cap, (size_t)(before - from), sizeof *s->th_buf)) {
    s->oom = 1;
    *stop = 1;
    return CREF_NONE;
  }
  for (int i = from; i < before; i++) s->th_buf[i - from] = to_ext_lit(s->trail[i]);
  int r = s->th.propagate(s->th.ctx, s, s->th_buf, before - from);
  if (r) *stop = 1;
  if (s->th_conflict != CREF_NONE) {
    uint32_t c = s->th_conflict;
    s->th_conflict = CREF_NONE;
    return c == CREF_LAZY ? CREF_NONE - 2 : c; /* NONE-2: empty clause */
  }
  return s->trail_n > before ? CREF_LAZY : CREF_NONE;
}

static int max_level_of(const twill_sat *s, uint32_t c) {
  int m = 0;
  const uint32_t *cl = C_LITS(s, c);
  for (uint32_t i = 0; i < C_SIZE(s, c); i++)
    if (s->level[var_of(cl[i])] > m && s->val[cl[i]] == -1) m = s->level[var_of(cl[i])];
  return m;
}

static int search(twill_sat *s) {
  for (;;) {
    uint32_t confl = propagate(s);
    if (confl == CREF_NONE && s->has_theory) {
      int stop = 0;
      uint32_t t = theory_round(s, &stop);
      if (t == CREF_NONE - 2) {
        derive_empty(s, CREF_NONE);
        return TWILL_SAT_UNSAT;
      }
      if (t == CREF_LAZY) {
        if (stop) return TWILL_SAT_UNKNOWN; /* the theory asked to stop */
        continue;
      }
      if (t != CREF_NONE) {
        int ml = max_level_of(s, t);
        if (ml < s->nlevels) backtrack(s, ml);
        confl = t;
      }
      if (stop && confl == CREF_NONE) return TWILL_SAT_UNKNOWN;
    }
    if (s->oom) return TWILL_SAT_UNKNOWN;
    if (confl != CREF_NONE) {
      s->st.conflicts++;
      s->conflicts_since_restart++;
      if (s->nlevels == 0) {
        derive_empty(s, confl);
        return TWILL_SAT_UNSAT;
      }
      uint32_t lbd;
      int bt = analyze(s, confl, &lbd);
      backtrack(s, bt);
      uint32_t *a = s->learnt.a;
      uint32_t n = (uint32_t)s->learnt.n;
      /* asserting at bt: a[0] free, the rest false, a[1] at level bt */
      assert(n >= 1 && bt == s->nlevels && s->val[a[0]] == 0);
      assert(n == 1 || (s->val[a[1]] == -1 && s->level[var_of(a[1])] == bt));
      uint64_t id = ++s->next_id;
      proof_add(s, id, a, n, s->hints, s->nhints);
      s->st.learned++;
      s->st.learned_literals += n;
      if (n == 1) {
        enqueue(s, a[0], CREF_NONE);
        s->unit_id[var_of(a[0])] = id;
      } else {
        uint32_t c = alloc_clause(s, a, n, 1, id);
        if (c == CREF_NONE) return TWILL_SAT_UNKNOWN;
        C_FLAGS(s, c) |= (lbd > 0xffffff ? 0xffffff : lbd) << 8;
        attach(s, c);
        s->st.learnts++;
        enqueue(s, a[0], c);
      }
      s->var_inc /= (double)s->opt.decay / 1000.0;
      /* restart bookkeeping */
      double l = (double)lbd;
      if (s->st.conflicts == 1) s->ema_fast = s->ema_slow = l;
      s->ema_fast += (l - s->ema_fast) / 32.0;
      s->ema_slow += (l - s->ema_slow) / 4096.0;
      s->ema_trail += ((double)s->trail_n - s->ema_trail) / 5000.0;
      if (s->opt.restart != 1 && !s->stable && s->st.conflicts > 10000 &&
          (double)s->trail_n > 1.4 * s->ema_trail)
        s->conflicts_since_restart = 0; /* blocked restart */
      if (should_stop(s)) return TWILL_SAT_UNKNOWN;
      continue;
    }
    /* no conflict */
    /* restart policy 2 alternates a focused phase (EMA restarts) and a
     * stable phase (Luby), each phase twice as long as the previous one of
     * its kind, measured in conflicts */
    if (s->opt.restart == 2 && s->st.conflicts >= s->mode_end) {
      s->stable = !s->stable;
      if (!s->stable) s->mode_len *= 2;
      s->mode_end = s->st.conflicts + s->mode_len;
      s->conflicts_since_restart = s->luby_limit; /* restart now */
    }
    int luby_mode = s->opt.restart == 1 || (s->opt.restart == 2 && s->stable);
    int restart;
    if (luby_mode)
      restart = s->conflicts_since_restart >= s->luby_limit;
    else
      restart = s->conflicts_since_restart >= 50 &&
                s->ema_fast > (double)s->opt.restartmargin / 100.0 * s->ema_slow;
    if (restart) {
      assert(trail_ok(s) && heap_ok(s));
      s->st.restarts++;
      s->conflicts_since_restart = 0;
      if (luby_mode) s->luby_limit = 100 * luby(++s->luby_i);
      backtrack(s, 0);
      if (s->time_limit > 0 && now_s(s) > s->time_limit) return TWILL_SAT_UNKNOWN;
      if (s->interrupted || stop_all || cancelled(s)) return TWILL_SAT_UNKNOWN;
      continue;
    }
    if (s->nlevels == 0) {
      derive_units(s);
      simplify(s);
    }
    if (s->opt.reduce &&
        s->st.conflicts >= (s->next_reduce ? s->next_reduce : (uint64_t)s->opt.reduceint)) {
      s->next_reduce = s->st.conflicts + (uint64_t)s->opt.reduceint +
                       (uint64_t)s->opt.reduceinc * s->st.reductions;
      reduce_db(s);
    }
    /* decide: assumptions first */
    uint32_t next = UINT32_MAX;
    while (s->nlevels < s->nassumps) {
      uint32_t a = s->assumps[s->nlevels];
      if (s->val[a] == 1) {
        s->trail_lim[s->nlevels++] = s->trail_n;
      } else if (s->val[a] == -1) {
        analyze_final(s, a);
        return TWILL_SAT_UNSAT;
      } else {
        next = a;
        break;
      }
    }
    if (next == UINT32_MAX) {
      while (s->heap_n > 0) {
        int v = heap_pop(s);
        if (s->val[2 * v] == 0) {
          next = 2u * (uint32_t)v + s->phase[v];
          break;
        }
      }
      if (next == UINT32_MAX) {
        if (s->has_theory && s->theory_head < s->trail_n) continue;
        /* nothing left to decide: every variable assigned, no clause false */
        assert(s->trail_n == s->nvars && s->qhead == s->trail_n);
        assert(trail_ok(s) && model_ok(s));
        return TWILL_SAT_SAT;
      }
      s->st.decisions++;
      if ((s->st.decisions & 4095) == 0 &&
          ((s->time_limit > 0 && now_s(s) > s->time_limit) || s->interrupted ||
           stop_all || cancelled(s))) {
        /* the decision variable was popped but is not assigned: back into
         * the heap, or a later solve on this instance would never decide
         * it (heap_ok; seen as an intermittent assert under load, where the
         * clock check strikes here) */
        heap_insert(s, (int)var_of(next));
        return TWILL_SAT_UNKNOWN;
      }
    }
    s->trail_lim[s->nlevels++] = s->trail_n;
    enqueue(s, next, CREF_NONE);
  }
}

int twill_sat_solve(twill_sat *s) {
  s->interrupted = 0;
  clock_gettime(CLOCK_MONOTONIC, &s->t0);
  for (int i = 0; i < 2 * s->nvars; i++) s->failed[i] = 0;
  for (int i = 0; i < s->nvars; i++) s->model[i] = 0;
  int r = TWILL_SAT_UNSAT;
  if (s->empty_pending) {
    s->empty_pending = 0;
    proof_add(s, ++s->next_id, NULL, 0, s->empty_hint, 2);
  }
  if (s->ok && !s->oom) {
    int64_t saved_limit = s->conflict_limit;
    if (saved_limit >= 0) s->conflict_limit = (int64_t)s->st.conflicts + saved_limit;
    backtrack(s, 0);
    r = search(s);
    s->conflict_limit = saved_limit;
    if (s->oom) r = TWILL_SAT_UNKNOWN;
  }
  if (r == TWILL_SAT_SAT)
    for (int v = 0; v < s->nvars; v++) s->model[v] = s->val[2 * v] == 1 ? 1 : -1;
  backtrack(s, 0);
  assert(trail_ok(s) && heap_ok(s) && db_ok(s));
  s->nassumps = 0;
  pflush(s);
  if (s->proof) fflush(s->proof);
  return r;
}

/* -------------------------------------------------------------------- API */

void twill_sat_assume(twill_sat *s, int lit) {
  int v = lit > 0 ? lit : -lit;
  if (lit == 0 || lit == INT32_MIN) return;
  while (s->nvars < v)
    if (!twill_sat_new_var(s)) return;
  if (s->nassumps == s->capassumps) {
    size_t cap = (size_t)s->capassumps;
    if (!grow(&s->assumps, &cap, cap + 1, sizeof *s->assumps)) {
      s->oom = 1;
      return;
    }
    s->capassumps = (int)cap;
  }
  s->assumps[s->nassumps++] = to_int_lit(lit);
}

int twill_sat_value(const twill_sat *s, int lit) {
  int v = lit > 0 ? lit : -lit;
  if (lit == 0 || v > s->nvars) return 0;
  int m = s->model[v - 1];
  return lit > 0 ? m : -m;
}

int twill_sat_failed(const twill_sat *s, int lit) {
  int v = lit > 0 ? lit : -lit;
  if (lit == 0 || v > s->nvars) return 0;
  return s->failed[to_int_lit(lit)];
}

void twill_sat_set_conflict_limit(twill_sat *s, int64_t conflicts) {
  s->conflict_limit = conflicts;
}
void twill_sat_set_time_limit(twill_sat *s, double seconds) { s->time_limit = seconds; }
void twill_sat_interrupt(twill_sat *s) { s->interrupted = 1; }
void twill_sat_set_cancel(twill_sat *s, const atomic_int *flag) { s->cancel = flag; }

int twill_sat_stop_requested(twill_sat *s) {
  return s->interrupted || stop_all || cancelled(s) ||
         (s->time_limit > 0 && now_s(s) > s->time_limit);
}

int twill_sat_set_option(twill_sat *s, const char *name, int64_t value) {
  int i = twill_sat_options_find(name);
  const twill_sat_option_info *row = twill_sat_option(i);
  if (!row || value < row->lo || value > row->hi) return 0;
  *twill_sat_options_at(&s->opt, i) = value;
  if (!strcmp(name, "seed")) {
    /* a new random state; the variables made so far get a random
     * tie-breaker in their activity now, the later ones when made */
    s->rng = value ? (uint64_t)value * 0x9E3779B97F4A7C15ull : 0;
    if (s->rng)
      for (int v = 0; v < s->nvars; v++) {
        s->act[v] += (double)(rnd(s) % 1000000) * 1e-9;
        if (s->heap_idx[v] >= 0) heap_up(s, s->heap_idx[v]);
      }
  }
  return 1;
}

int twill_sat_get_option(const twill_sat *s, const char *name, int64_t *value) {
  int i = twill_sat_options_find(name);
  if (i < 0) return 0;
  *value = twill_sat_options_get(&s->opt, i);
  return 1;
}

void twill_sat_set_proof(twill_sat *s, FILE *f, int format) {
  pflush(s);
  s->proof = f;
  s->proof_fmt = format;
}

void twill_sat_get_stats(const twill_sat *s, twill_sat_stats *out) { *out = s->st; }
