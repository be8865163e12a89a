/* sat/drat_check.c: backward DRAT checker and hint-following LRAT checker.
 * Independent of sat/solver.c and sat/dimacs.c by design. */
#include "twill/dimacs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- input text */

typedef struct {
  const char *b;
  size_t n, i;
  int line;
} src;

/* Next integer of a text file, skipping blanks and (at line start) 'c'
 * comment lines and the 'p' line.  Returns 1, 0 at end ('%' trailer counts
 * as end), -1 on a bad token.  *is_d is set when the token was 'd'. */
static int next_int(src *s, long long *out, int *is_d, int allow_d) {
  int line_start = s->i == 0 || s->b[s->i - 1] == '\n';
  for (;;) {
    if (s->i >= s->n) return 0;
    char c = s->b[s->i];
    if (c == '\n') {
      s->line++;
      s->i++;
      line_start = 1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      s->i++;
      continue;
    }
    if (line_start && (c == 'c' || c == 'p')) {
      while (s->i < s->n && s->b[s->i] != '\n') s->i++;
      continue;
    }
    if (line_start && c == '%') return 0;
    break;
  }
  if (is_d) *is_d = 0;
  if (allow_d && s->b[s->i] == 'd') {
    s->i++;
    if (is_d) *is_d = 1;
    *out = 0;
    return 1;
  }
  int negv = 0;
  if (s->b[s->i] == '-') {
    negv = 1;
    s->i++;
  }
  if (s->i >= s->n || s->b[s->i] < '0' || s->b[s->i] > '9') return -1;
  long long v = 0;
  while (s->i < s->n && s->b[s->i] >= '0' && s->b[s->i] <= '9') {
    if (v < (1LL << 40)) v = v * 10 + (s->b[s->i] - '0');
    s->i++;
  }
  if (s->i < s->n && s->b[s->i] != ' ' && s->b[s->i] != '\n' && s->b[s->i] != '\t' &&
      s->b[s->i] != '\r')
    return -1;
  *out = negv ? -v : v;
  return 1;
}

/* ---------------------------------------------------------- clause store */

typedef struct {
  int32_t *lits; /* pool, internal lits 2v+s */
  size_t nlits, caplits;
  size_t *start; /* per clause */
  int *size;
  uint8_t *active, *marked;
  size_t nc, capc;
  int maxvar;
} store;

static int st_grow(void **p, size_t *cap, size_t need, size_t el) {
  if (need <= *cap) return 1;
  size_t nc = *cap ? *cap * 2 : 64;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, nc * el);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  return 1;
}

/* Append a clause (external literals, deduplicated); returns its index or
 * -1 on OOM; *taut set for tautologies. */
static long st_add(store *st, const long long *ext, int n, int *taut) {
  size_t c = st->nc;
  size_t capc = st->capc;
  if (c == capc) {
    size_t cap2 = capc;
    if (!st_grow((void **)&st->start, &cap2, c + 1, sizeof *st->start)) return -1;
    cap2 = capc;
    if (!st_grow((void **)&st->size, &cap2, c + 1, sizeof *st->size)) return -1;
    cap2 = capc;
    if (!st_grow((void **)&st->active, &cap2, c + 1, 1)) return -1;
    cap2 = capc;
    if (!st_grow((void **)&st->marked, &cap2, c + 1, 1)) return -1;
    st->capc = cap2;
  }
  if (!st_grow((void **)&st->lits, &st->caplits, st->nlits + (size_t)n, sizeof *st->lits))
    return -1;
  *taut = 0;
  int k = 0;
  int32_t *l = st->lits + st->nlits;
  for (int i = 0; i < n; i++) {
    long long v = ext[i] > 0 ? ext[i] : -ext[i];
    int32_t x = (int32_t)(2 * (v - 1) + (ext[i] < 0));
    int dup = 0;
    for (int j = 0; j < k; j++) {
      if (l[j] == x) dup = 1;
      if (l[j] == (x ^ 1)) *taut = 1;
    }
    if (!dup) l[k++] = x;
    if (v > st->maxvar) st->maxvar = (int)v;
  }
  st->start[c] = st->nlits;
  st->size[c] = k;
  st->active[c] = 1;
  st->marked[c] = 0;
  st->nlits += (size_t)k;
  st->nc++;
  return (long)c;
}

static void st_free(store *st) {
  free(st->lits);
  free(st->start);
  free(st->size);
  free(st->active);
  free(st->marked);
}

static uint64_t clause_hash(const int32_t *l, int n) {
  uint64_t sum = 0, x = 0, prod = 1;
  for (int i = 0; i < n; i++) {
    uint64_t h = (uint64_t)l[i] * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    sum += h;
    x ^= h * 31;
    prod *= (h | 1);
  }
  return sum ^ (x << 1) ^ prod;
}

/* ------------------------------------------------------------------ DRAT */

typedef struct {
  int *w;
  int n, cap;
} ilist;

typedef struct {
  store st;
  ilist *watch; /* per literal: clauses with that literal in position 0/1 */
  int8_t *val;  /* per literal */
  int *reason;  /* per var: clause, -1 assumption */
  int32_t *trail;
  int trail_n;
  uint8_t *seen;
  int nvars;
  int *units;
  size_t nunits, capunits;
  int oom;
} chk;

static void il_push(chk *k, ilist *l, int x) {
  if (l->n == l->cap) {
    int nc = l->cap ? 2 * l->cap : 4;
    int *p = realloc(l->w, (size_t)nc * sizeof *p);
    if (!p) {
      k->oom = 1;
      return;
    }
    l->w = p;
    l->cap = nc;
  }
  l->w[l->n++] = x;
}

static void il_remove(ilist *l, int x) {
  for (int i = 0; i < l->n; i++)
    if (l->w[i] == x) {
      l->w[i] = l->w[--l->n];
      return;
    }
}

static void ck_attach(chk *k, int c) {
  int32_t *l = k->st.lits + k->st.start[c];
  if (k->st.size[c] >= 2) {
    il_push(k, &k->watch[l[0]], c);
    il_push(k, &k->watch[l[1]], c);
  }
}

static void ck_detach(chk *k, int c) {
  int32_t *l = k->st.lits + k->st.start[c];
  if (k->st.size[c] >= 2) {
    il_remove(&k->watch[l[0]], c);
    il_remove(&k->watch[l[1]], c);
  }
}

static void ck_assign(chk *k, int32_t l, int reason) {
  k->val[l] = 1;
  k->val[l ^ 1] = -1;
  k->reason[l >> 1] = reason;
  k->trail[k->trail_n++] = l;
}

static void ck_reset(chk *k) {
  for (int i = 0; i < k->trail_n; i++) {
    int32_t l = k->trail[i];
    k->val[l] = k->val[l ^ 1] = 0;
  }
  k->trail_n = 0;
}

/* Propagate from the current trail; returns a conflicting clause or -1. */
static int ck_propagate(chk *k, int head) {
  while (head < k->trail_n) {
    int32_t f = k->trail[head++] ^ 1; /* now false */
    ilist *wl = &k->watch[f];
    int i = 0, j = 0;
    while (i < wl->n) {
      int c = wl->w[i++];
      int32_t *l = k->st.lits + k->st.start[c];
      if (l[0] == f) {
        l[0] = l[1];
        l[1] = f;
      }
      if (k->val[l[0]] == 1) {
        wl->w[j++] = c;
        continue;
      }
      int sz = k->st.size[c], q;
      for (q = 2; q < sz; q++)
        if (k->val[l[q]] != -1) break;
      if (q < sz) {
        l[1] = l[q];
        l[q] = f;
        il_push(k, &k->watch[l[1]], c);
        continue;
      }
      wl->w[j++] = c;
      if (k->val[l[0]] == -1) {
        while (i < wl->n) wl->w[j++] = wl->w[i++];
        wl->n = j;
        return c;
      }
      ck_assign(k, l[0], c);
    }
    wl->n = j;
  }
  return -1;
}

/* Mark every clause in the implication graph of conflict c. */
static void ck_mark(chk *k, int c) {
  k->st.marked[c] = 1;
  int32_t *l = k->st.lits + k->st.start[c];
  for (int i = 0; i < k->st.size[c]; i++) k->seen[l[i] >> 1] = 1;
  for (int t = k->trail_n - 1; t >= 0; t--) {
    int v = k->trail[t] >> 1;
    if (!k->seen[v]) continue;
    k->seen[v] = 0;
    int r = k->reason[v];
    if (r < 0) continue;
    k->st.marked[r] = 1;
    int32_t *rl = k->st.lits + k->st.start[r];
    for (int i = 0; i < k->st.size[r]; i++) k->seen[rl[i] >> 1] = 1;
  }
  for (int i = 0; i < k->st.size[c]; i++) k->seen[l[i] >> 1] = 0;
}

/* Is the negation of lits (plus the active units) refuted by unit
 * propagation?  Marks the clauses used.  1 yes, 0 no. */
static int ck_rup(chk *k, const int32_t *lits, int n, const int32_t *lits2, int n2) {
  for (int pass = 0; pass < 2; pass++) {
    const int32_t *a = pass ? lits2 : lits;
    int m = pass ? n2 : n;
    for (int i = 0; i < m; i++) {
      int32_t x = a[i] ^ 1;
      if (k->val[x] == 1) continue;
      if (k->val[x] == -1) { /* tautological resolvent / lemma */
        ck_reset(k);
        return 1;
      }
      ck_assign(k, x, -1);
    }
  }
  for (size_t u = 0; u < k->nunits; u++) {
    int c = k->units[u];
    if (!k->st.active[c]) continue;
    int32_t x = k->st.lits[k->st.start[c]];
    if (k->val[x] == 1) continue;
    if (k->val[x] == -1) {
      ck_mark(k, c);
      ck_reset(k);
      return 1;
    }
    ck_assign(k, x, c);
  }
  int confl = ck_propagate(k, 0);
  if (confl >= 0) ck_mark(k, confl);
  ck_reset(k);
  return confl >= 0;
}

static int ck_check_lemma(chk *k, int c) {
  int32_t *l = k->st.lits + k->st.start[c];
  int n = k->st.size[c];
  /* copy: propagation reorders clause literals in place */
  int32_t small[64];
  int32_t *cp = n <= 64 ? small : malloc((size_t)n * sizeof *cp);
  if (!cp) {
    k->oom = 1;
    return 0;
  }
  memcpy(cp, l, (size_t)n * sizeof *cp);
  int ok = ck_rup(k, cp, n, NULL, 0);
  if (!ok && n > 0) {
    /* RAT on the lemma's first literal as it stands now: the proof line's
     * first literal, unless unit propagation moved it out of position 0
     * while the lemma was active (when later lemmas were checked).  Then
     * the pivot is not the one DRAT prescribes, and a valid RAT lemma can
     * be rejected (an invalid one is never accepted); twill's solver
     * writes RUP lemmas only. */
    int32_t pivot = cp[0];
    ok = 1;
    for (size_t d = 0; d < k->st.nc && ok; d++) {
      if (!k->st.active[d]) continue;
      int32_t *dl = k->st.lits + k->st.start[d];
      int has = 0;
      for (int i = 0; i < k->st.size[d]; i++)
        if (dl[i] == (pivot ^ 1)) has = 1;
      if (!has) continue;
      int32_t *res = malloc(((size_t)k->st.size[d] + 1) * sizeof *res);
      if (!res) {
        k->oom = 1;
        ok = 0;
        break;
      }
      int m = 0;
      for (int i = 0; i < k->st.size[d]; i++)
        if (dl[i] != (pivot ^ 1)) res[m++] = dl[i];
      if (!ck_rup(k, cp, n, res, m)) ok = 0;
      else k->st.marked[d] = 1;
      free(res);
    }
  }
  if (cp != small) free(cp);
  return ok;
}

static void setmsg(char *msg, size_t cap, const char *fmt, long a, long b) {
  if (cap) snprintf(msg, cap, fmt, a, b);
}

/* Parse the CNF into st; returns 0 ok, -1 bad input. */
static int read_cnf(store *st, const char *cnf, size_t clen, char *msg, size_t cap,
                    int *has_empty) {
  src s = {cnf, clen, 0, 1};
  long long *buf = NULL;
  size_t nb = 0, capb = 0;
  *has_empty = 0;
  for (;;) {
    long long v;
    int r = next_int(&s, &v, NULL, 0);
    if (r < 0) {
      setmsg(msg, cap, "bad token in CNF at line %ld%.0ld", s.line, 0);
      free(buf);
      return -1;
    }
    if (r == 0) break;
    if (v > 0x3fffffff || v < -0x3fffffff) {
      setmsg(msg, cap, "literal out of range in CNF at line %ld%.0ld", s.line, 0);
      free(buf);
      return -1;
    }
    if (v != 0) {
      if (!st_grow((void **)&buf, &capb, nb + 1, sizeof *buf)) {
        free(buf);
        return -1;
      }
      buf[nb++] = v;
      continue;
    }
    int taut;
    long c = st_add(st, buf, (int)nb, &taut);
    if (c < 0) {
      free(buf);
      return -1;
    }
    if (taut) st->active[c] = 0;
    if (nb == 0) *has_empty = 1;
    nb = 0;
  }
  free(buf);
  return 0;
}

typedef struct {
  int c;   /* clause index */
  int del; /* 1 deletion, 0 addition */
  long line;
} step;

int twill_drat_check(const char *cnf, size_t clen, const char *proof, size_t plen,
                     char *msg, size_t cap) {
  chk k;
  memset(&k, 0, sizeof k);
  if (cap) msg[0] = 0;
  int has_empty;
  if (read_cnf(&k.st, cnf, clen, msg, cap, &has_empty)) {
    st_free(&k.st);
    return -1;
  }
  size_t ninput = k.st.nc;
  int binary = memchr(proof, 0, plen) != NULL;
  step *steps = NULL;
  size_t nsteps = 0, capsteps = 0;
  long long *buf = NULL;
  size_t nb = 0, capb = 0;
  /* hash table of active clauses for deletions */
  size_t hcap = 1024;
  while (hcap < 2 * (ninput + plen / 8 + 1)) hcap *= 2;
  int *head = malloc(hcap * sizeof *head);
  int *next = NULL;
  size_t capnext = 0;
  int result = 0, found_empty = has_empty;
  long proof_line = 0, ignored_del = 0;
  if (!head) goto oom;
  for (size_t i = 0; i < hcap; i++) head[i] = -1;
  if (!st_grow((void **)&next, &capnext, k.st.nc + 1, sizeof *next)) goto oom;
  for (size_t c = 0; c < k.st.nc; c++) {
    next[c] = -1;
    if (!k.st.active[c]) continue;
    size_t h = clause_hash(k.st.lits + k.st.start[c], k.st.size[c]) & (hcap - 1);
    next[c] = head[h];
    head[h] = (int)c;
  }
  /* read proof steps */
  src s = {proof, plen, 0, 1};
  size_t bi = 0;
  while (!found_empty) {
    int del = 0;
    nb = 0;
    proof_line++;
    if (binary) {
      if (bi >= plen) break;
      unsigned char t = (unsigned char)proof[bi++];
      if (t != 'a' && t != 'd') {
        setmsg(msg, cap, "bad binary proof byte at offset %ld%.0ld", (long)bi - 1, 0);
        goto fail;
      }
      del = t == 'd';
      for (;;) {
        uint64_t u = 0;
        int shift = 0;
        unsigned char b;
        do {
          if (bi >= plen || shift > 35) {
            setmsg(msg, cap, "truncated binary proof at step %ld%.0ld", proof_line, 0);
            goto fail;
          }
          b = (unsigned char)proof[bi++];
          u |= (uint64_t)(b & 127) << shift;
          shift += 7;
        } while (b & 128);
        if (u == 0) break;
        long long v = (long long)(u >> 1);
        if (v == 0 || v > 0x3fffffff) {
          setmsg(msg, cap, "bad literal in binary proof step %ld%.0ld", proof_line, 0);
          goto fail;
        }
        if (!st_grow((void **)&buf, &capb, nb + 1, sizeof *buf)) goto oom;
        buf[nb++] = (u & 1) ? -v : v;
      }
    } else {
      long long v;
      int isd;
      int r = next_int(&s, &v, &isd, 1);
      if (r == 0) break;
      if (r < 0) goto badtok;
      if (isd) {
        del = 1;
        r = next_int(&s, &v, NULL, 0);
        if (r <= 0) goto badtok;
      }
      while (v != 0) {
        if (v > 0x3fffffff || v < -0x3fffffff) goto badtok;
        if (!st_grow((void **)&buf, &capb, nb + 1, sizeof *buf)) goto oom;
        buf[nb++] = v;
        r = next_int(&s, &v, NULL, 0);
        if (r <= 0) goto badtok;
      }
    }
    int taut;
    long c = st_add(&k.st, buf, (int)nb, &taut);
    if (c < 0) goto oom;
    if (!st_grow((void **)&next, &capnext, k.st.nc + 1, sizeof *next)) goto oom;
    next[c] = -1;
    size_t h = clause_hash(k.st.lits + k.st.start[c], k.st.size[c]) & (hcap - 1);
    if (del) {
      /* find an active clause with the same literal set */
      k.st.active[c] = 0;
      int *pp = &head[h];
      int found = -1;
      for (; *pp >= 0; pp = &next[*pp]) {
        int d = *pp;
        if (k.st.size[d] != k.st.size[c]) continue;
        int32_t *a = k.st.lits + k.st.start[d], *b = k.st.lits + k.st.start[c];
        int same = 1;
        for (int i = 0; i < k.st.size[c] && same; i++) {
          int in = 0;
          for (int j = 0; j < k.st.size[d]; j++)
            if (a[j] == b[i]) in = 1;
          same = in;
        }
        if (same) {
          found = d;
          *pp = next[d];
          break;
        }
      }
      /* the deletion line's own literals are not needed any more */
      k.st.nlits -= (size_t)k.st.size[c];
      k.st.nc--;
      if (found < 0) {
        ignored_del++;
        continue;
      }
      k.st.active[found] = 0;
      if (!st_grow((void **)&steps, &capsteps, nsteps + 1, sizeof *steps)) goto oom;
      steps[nsteps].c = found;
      steps[nsteps].del = 1;
      steps[nsteps++].line = proof_line;
      continue;
    }
    if (taut) k.st.active[c] = 0; /* a tautology is true: nothing to check */
    else {
      next[c] = head[h];
      head[h] = (int)c;
    }
    if (!st_grow((void **)&steps, &capsteps, nsteps + 1, sizeof *steps)) goto oom;
    steps[nsteps].c = (int)c;
    steps[nsteps].del = 0;
    steps[nsteps++].line = proof_line;
    if (k.st.size[c] == 0) found_empty = 1;
  }
  if (has_empty) {
    result = 1;
    goto done;
  }
  if (!found_empty) {
    setmsg(msg, cap, "the proof has no empty clause%.0ld%.0ld", 0, 0);
    goto fail;
  }
  /* set up the checker state at the empty clause */
  k.nvars = k.st.maxvar + 1;
  k.watch = calloc(2 * (size_t)k.nvars, sizeof *k.watch);
  k.val = calloc(2 * (size_t)k.nvars, 1);
  k.reason = calloc((size_t)k.nvars, sizeof *k.reason);
  k.trail = calloc((size_t)k.nvars, sizeof *k.trail);
  k.seen = calloc((size_t)k.nvars, 1);
  if (!k.watch || !k.val || !k.reason || !k.trail || !k.seen) goto oom;
  for (size_t c = 0; c < k.st.nc; c++) {
    if (k.st.size[c] == 1) {
      if (!st_grow((void **)&k.units, &k.capunits, k.nunits + 1, sizeof *k.units)) goto oom;
      k.units[k.nunits++] = (int)c;
    }
    if (k.st.active[c]) ck_attach(&k, (int)c);
  }
  if (k.oom) goto oom;
  /* the empty clause itself (last step) */
  step *last = &steps[nsteps - 1];
  k.st.active[last->c] = 0;
  if (!ck_rup(&k, NULL, 0, NULL, 0)) {
    setmsg(msg, cap, "the empty clause (proof step %ld) is not implied by unit propagation%.0ld",
           last->line, 0);
    goto fail;
  }
  long checked = 0;
  for (size_t i = nsteps - 1; i-- > 0;) {
    step *t = &steps[i];
    if (t->del) {
      k.st.active[t->c] = 1;
      ck_attach(&k, t->c);
      continue;
    }
    if (!k.st.active[t->c]) continue; /* tautology */
    k.st.active[t->c] = 0;
    ck_detach(&k, t->c);
    if (!k.st.marked[t->c]) continue;
    checked++;
    if (!ck_check_lemma(&k, t->c)) {
      setmsg(msg, cap, "lemma at proof step %ld failed (neither RUP nor RAT)%.0ld", t->line, 0);
      goto fail;
    }
    if (k.oom) goto oom;
  }
  if (k.oom) goto oom;
  if (cap) snprintf(msg, cap, "%ld lemmas checked, %ld deletions of absent clauses ignored",
                    checked, ignored_del);
  result = 1;
  goto done;
badtok:
  setmsg(msg, cap, "bad token in proof at line %ld%.0ld", s.line, 0);
  goto fail;
oom:
  setmsg(msg, cap, "out of memory%.0ld%.0ld", 0, 0);
  result = -1;
  goto done;
fail:
  result = 0;
done:
  if (k.watch)
    for (int i = 0; i < 2 * k.nvars; i++) free(k.watch[i].w);
  free(k.watch);
  free(k.val);
  free(k.reason);
  free(k.trail);
  free(k.seen);
  free(k.units);
  free(steps);
  free(buf);
  free(head);
  free(next);
  st_free(&k.st);
  return result;
}

/* ------------------------------------------------------------------ LRAT */

int twill_lrat_check(const char *cnf, size_t clen, const char *proof, size_t plen,
                     char *msg, size_t cap) {
  store st;
  memset(&st, 0, sizeof st);
  if (cap) msg[0] = 0;
  int has_empty;
  if (read_cnf(&st, cnf, clen, msg, cap, &has_empty)) {
    st_free(&st);
    return -1;
  }
  /* id -> clause index (input clause i has id i+1); -1 absent */
  long *byid = NULL;
  size_t capid = 0, nid = st.nc + 1;
  int8_t *val = NULL;
  long long *buf = NULL;
  size_t nb = 0, capb = 0;
  int32_t *assigned = NULL;
  size_t nass = 0, capass = 0;
  int result = 0;
  if (!st_grow((void **)&byid, &capid, nid, sizeof *byid)) goto oom;
  byid[0] = -1;
  for (size_t c = 0; c < st.nc; c++) byid[c + 1] = (long)c;
  if (has_empty) {
    result = 1;
    goto done;
  }
  size_t capval = 0;
  src s = {proof, plen, 0, 1};
  for (;;) {
    long long id, v;
    int r = next_int(&s, &id, NULL, 0);
    if (r == 0) break;
    if (r < 0 || id <= 0 || id > (1LL << 34)) goto badtok;
    int isd;
    r = next_int(&s, &v, &isd, 1);
    if (r <= 0) goto badtok;
    if (isd) { /* deletion: ids until 0 */
      for (;;) {
        r = next_int(&s, &v, NULL, 0);
        if (r <= 0) goto badtok;
        if (v == 0) break;
        if (v > 0 && (size_t)v < nid) byid[v] = -1;
      }
      continue;
    }
    nb = 0;
    while (v != 0) {
      if (v > 0x3fffffff || v < -0x3fffffff) goto badtok;
      if (!st_grow((void **)&buf, &capb, nb + 1, sizeof *buf)) goto oom;
      buf[nb++] = v;
      r = next_int(&s, &v, NULL, 0);
      if (r <= 0) goto badtok;
    }
    if ((size_t)id < nid && byid[id] >= 0) {
      setmsg(msg, cap, "clause id %ld used twice (line %ld)", (long)id, s.line);
      goto fail;
    }
    int taut;
    long c = st_add(&st, buf, (int)nb, &taut);
    if (c < 0) goto oom;
    size_t needval = 2 * ((size_t)st.maxvar + 1);
    if (needval > capval) {
      int8_t *nv = realloc(val, needval);
      if (!nv) goto oom;
      memset(nv + capval, 0, needval - capval);
      val = nv;
      capval = needval;
    }
    /* assume the negation of the lemma */
    nass = 0;
    int done_ok = taut;
    int32_t *l = st.lits + st.start[c];
    for (int i = 0; i < st.size[c]; i++) {
      if (!st_grow((void **)&assigned, &capass, nass + 1, sizeof *assigned)) goto oom;
      val[l[i] ^ 1] = 1;
      val[l[i]] = -1;
      assigned[nass++] = l[i] ^ 1;
    }
    /* follow the hints */
    for (;;) {
      long long h;
      r = next_int(&s, &h, NULL, 0);
      if (r <= 0) goto badtok;
      if (h == 0) break;
      if (done_ok) continue;
      if (h < 0) {
        setmsg(msg, cap, "RAT hint %ld not supported (line %ld)", (long)h, s.line);
        goto fail;
      }
      if ((size_t)h >= nid || byid[h] < 0) {
        setmsg(msg, cap, "hint %ld names no live clause (line %ld)", (long)h, s.line);
        goto fail;
      }
      long d = byid[h];
      int32_t *dl = st.lits + st.start[d];
      int unassigned = 0;
      int32_t unit = 0;
      for (int i = 0; i < st.size[d]; i++) {
        int8_t x = dl[i] < (int32_t)capval ? val[dl[i]] : 0;
        if (x == 1) {
          setmsg(msg, cap, "hint %ld is satisfied, not unit (line %ld)", (long)h, s.line);
          goto fail;
        }
        if (x == 0) {
          unassigned++;
          unit = dl[i];
        }
      }
      if (unassigned == 0) {
        done_ok = 1;
        continue;
      }
      if (unassigned > 1) {
        setmsg(msg, cap, "hint %ld is not unit (line %ld)", (long)h, s.line);
        goto fail;
      }
      if (!st_grow((void **)&assigned, &capass, nass + 1, sizeof *assigned)) goto oom;
      val[unit] = 1;
      val[unit ^ 1] = -1;
      assigned[nass++] = unit;
    }
    for (size_t i = 0; i < nass; i++) val[assigned[i]] = val[assigned[i] ^ 1] = 0;
    if (!done_ok) {
      setmsg(msg, cap, "lemma %ld: hints end without a conflict (line %ld)", (long)id, s.line);
      goto fail;
    }
    if (!st_grow((void **)&byid, &capid, (size_t)id + 1, sizeof *byid)) goto oom;
    while (nid <= (size_t)id) byid[nid++] = -1;
    byid[id] = c;
    if (st.size[c] == 0) {
      result = 1;
      goto done;
    }
  }
  setmsg(msg, cap, "the proof has no empty clause%.0ld%.0ld", 0, 0);
  goto fail;
badtok:
  setmsg(msg, cap, "bad token in proof at line %ld%.0ld", s.line, 0);
  goto fail;
oom:
  setmsg(msg, cap, "out of memory%.0ld%.0ld", 0, 0);
  result = -1;
  goto done;
fail:
  result = 0;
done:
  free(byid);
  free(val);
  free(buf);
  free(assigned);
  st_free(&st);
  return result;
}
