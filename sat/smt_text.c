/* sat/smt_text.c: reader of the `twill smt` text format (see twill/smt.h). */
#include "twill/smt.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *file;
  const char *line; /* start of the current line */
  const char *p, *end;
  int lineno;
  char *err;
  size_t errcap;
  twill_smt_problem *pb;
  const char *tok;
  size_t tlen;
} rd;

static int perr(rd *r, const char *at, const char *fmt, ...) {
  char b[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  snprintf(r->err, r->errcap, "%s:%d:%d: %s", r->file, r->lineno, (int)(at - r->line) + 1, b);
  return -1;
}

/* next token on the line; 0 at end of line (a '#' starts a comment) */
static int tok(rd *r) {
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')) r->p++;
  if (r->p >= r->end || *r->p == '#') {
    r->tok = r->p;
    r->tlen = 0;
    return 0;
  }
  r->tok = r->p;
  while (r->p < r->end && *r->p != ' ' && *r->p != '\t' && *r->p != '\r' && *r->p != '#') r->p++;
  r->tlen = (size_t)(r->p - r->tok);
  return 1;
}

static int is(const rd *r, const char *s) {
  return r->tlen == strlen(s) && !memcmp(r->tok, s, r->tlen);
}

static int parse_int(rd *r, const char *s, size_t n, int64_t *v) {
  size_t i = 0;
  int neg = 0;
  if (n && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    i = 1;
  }
  if (i >= n) return perr(r, s, "expected an integer");
  int64_t x = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return perr(r, s, "expected an integer");
    x = x * 10 + (s[i] - '0');
    if (x > TWILL_SMT_MAX_ABS) return perr(r, s, "integer out of range (|v| <= 2^40)");
  }
  *v = neg ? -x : x;
  return 0;
}

static int tok_int(rd *r, int64_t *v) {
  if (!tok(r)) return perr(r, r->tok, "expected an integer");
  return parse_int(r, r->tok, r->tlen, v);
}

static int valid_name(const char *s, size_t n) {
  if (!n || n > 64) return 0;
  if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_')) return 0;
  for (size_t i = 1; i < n; i++) {
    char c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '.'))
      return 0;
  }
  return 1;
}

static twill_smt_name *lookup(const twill_smt_problem *p, const char *s, size_t n) {
  for (int i = 0; i < p->nnames; i++)
    if (strlen(p->names[i].name) == n && !memcmp(p->names[i].name, s, n)) return &p->names[i];
  return NULL;
}

static int declare(rd *r, int is_bool) {
  twill_smt_problem *p = r->pb;
  if (!tok(r)) return perr(r, r->tok, "expected a name");
  const char *s = r->tok;
  size_t n = r->tlen;
  if (!valid_name(s, n)) return perr(r, s, "invalid name '%.*s'", (int)(n > 64 ? 64 : n), s);
  if (lookup(p, s, n)) return perr(r, s, "duplicate name '%.*s'", (int)n, s);
  int id;
  if (is_bool) {
    id = twill_smt_bool(p->m);
    if (!id) return perr(r, s, "out of memory");
  } else {
    int64_t lo, hi;
    if (tok_int(r, &lo) || tok_int(r, &hi)) return -1;
    if (lo > hi) return perr(r, r->tok, "empty domain [%lld, %lld]", (long long)lo, (long long)hi);
    id = twill_smt_int(p->m, lo, hi);
    if (id < 0) return perr(r, s, "out of memory");
  }
  if (p->nnames == p->cap) {
    int nc = p->cap ? p->cap * 2 : 16;
    twill_smt_name *nn = realloc(p->names, sizeof *nn * (size_t)nc);
    if (!nn) return perr(r, s, "out of memory");
    p->names = nn;
    p->cap = nc;
  }
  char *copy = malloc(n + 1);
  if (!copy) return perr(r, s, "out of memory");
  memcpy(copy, s, n);
  copy[n] = 0;
  twill_smt_name *nm = &p->names[p->nnames++];
  nm->name = copy; /* owned by p->names from here on */
  nm->is_bool = is_bool;
  nm->id = id;
  return 0;
}

/* a name or ~name in the current token; kind: 0 any, 1 Boolean, 2 int */
static int term_ref(rd *r, int kind, int *var, int *lit) {
  const char *s = r->tok;
  size_t n = r->tlen;
  int neg = 0;
  if (n && s[0] == '~') {
    neg = 1;
    s++;
    n--;
  }
  twill_smt_name *nm = lookup(r->pb, s, n);
  if (!nm) return perr(r, r->tok, "unknown name '%.*s'", (int)(n > 64 ? 64 : n), s);
  if (nm->is_bool) {
    if (kind == 2) return perr(r, r->tok, "'%s' is not an integer variable", nm->name);
    *var = -1;
    *lit = neg ? -nm->id : nm->id;
  } else {
    if (kind == 1 || neg) return perr(r, r->tok, "'%s' is not a Boolean", nm->name);
    *var = nm->id;
    *lit = 0;
  }
  return 0;
}

/* TERMS REL INT up to the end of the line; adds the constraint(s) */
static int linear(rd *r, int kind, int reif) {
  twill_smt_term t[256];
  int n = 0;
  for (;;) {
    if (!tok(r)) return perr(r, r->tok, "expected a coefficient or <=, >=, =");
    if (is(r, "<=") || is(r, ">=") || is(r, "=")) break;
    if (n > 0 && is(r, "+")) {
      if (!tok(r)) return perr(r, r->tok, "expected a coefficient");
    }
    if (n == 256) return perr(r, r->tok, "too many terms (at most 256)");
    if (parse_int(r, r->tok, r->tlen, &t[n].a)) return -1;
    if (!tok(r)) return perr(r, r->tok, "expected a name");
    if (term_ref(r, kind, &t[n].var, &t[n].lit)) return -1;
    n++;
  }
  int rel = is(r, "<=") ? 0 : is(r, ">=") ? 1 : 2;
  int64_t b;
  if (tok_int(r, &b)) return -1;
  for (int pass = 0; pass < 2; pass++) {
    int neg = rel == 1 || (rel == 2 && pass == 1);
    if (rel != 2 && pass == 1) break;
    for (int i = 0; i < n && neg; i++) t[i].a = -t[i].a;
    if (twill_smt_linear(r->pb->m, t, n, neg ? -b : b, reif) < 0)
      return perr(r, r->line, "constraint rejected (out of memory)");
    for (int i = 0; i < n && neg; i++) t[i].a = -t[i].a;
  }
  return 0;
}

static int directive(rd *r) {
  twill_smt_problem *p = r->pb;
  if (!tok(r)) return 0;
  if (is(r, "int")) return declare(r, 0);
  if (is(r, "bool")) return declare(r, 1);
  if (is(r, "lin")) return linear(r, 0, 0);
  if (is(r, "pb")) return linear(r, 1, 0);
  if (is(r, "imp")) {
    int v, l;
    if (!tok(r)) return perr(r, r->tok, "expected a Boolean");
    if (term_ref(r, 1, &v, &l)) return -1;
    if (!tok(r) || !is(r, "lin")) return perr(r, r->tok, "expected 'lin' after the literal");
    return linear(r, 0, l);
  }
  if (is(r, "diff")) {
    int x, y, l;
    if (!tok(r)) return perr(r, r->tok, "expected a name");
    if (term_ref(r, 2, &x, &l)) return -1;
    if (!tok(r)) return perr(r, r->tok, "expected a name");
    if (term_ref(r, 2, &y, &l)) return -1;
    if (!tok(r) || !is(r, "<=")) return perr(r, r->tok, "expected <=");
    int64_t c;
    if (tok_int(r, &c)) return -1;
    if (twill_smt_diff(p->m, x, y, c) < 0) return perr(r, r->line, "out of memory");
    return 0;
  }
  if (is(r, "mod")) {
    int64_t cap, per;
    if (tok_int(r, &cap) || tok_int(r, &per)) return -1;
    if (cap < 0 || cap > 1000000) return perr(r, r->tok, "capacity out of range");
    if (per < 1) return perr(r, r->tok, "period must be at least 1");
    int vars[256];
    int64_t off[256];
    int n = 0;
    while (tok(r)) {
      const char *at = memchr(r->tok, '@', r->tlen);
      if (!at) return perr(r, r->tok, "expected NAME@OFFSET");
      if (n == 256) return perr(r, r->tok, "too many uses (at most 256)");
      const char *full = r->tok;
      size_t flen = r->tlen;
      r->tlen = (size_t)(at - full);
      int l;
      if (term_ref(r, 2, &vars[n], &l)) return -1;
      if (parse_int(r, at + 1, flen - r->tlen - 1, &off[n])) return -1;
      n++;
    }
    if (twill_smt_modulo(p->m, (int)cap, per, vars, off, n) < 0)
      return perr(r, r->line, "out of memory");
    return 1; /* line consumed */
  }
  if (is(r, "clause")) {
    int lits[256], n = 0;
    while (tok(r)) {
      int v;
      if (n == 256) return perr(r, r->tok, "too many literals (at most 256)");
      if (term_ref(r, 1, &v, &lits[n])) return -1;
      n++;
    }
    if (twill_smt_clause(p->m, lits, n) < 0) return perr(r, r->line, "out of memory");
    return 1;
  }
  if (is(r, "min")) {
    int x, l;
    const char *at = r->tok;
    if (p->obj >= 0) return perr(r, at, "second objective");
    if (!tok(r)) return perr(r, r->tok, "expected a name");
    if (term_ref(r, 2, &x, &l)) return -1;
    p->obj = x;
    return 0;
  }
  return perr(r, r->tok, "unknown directive '%.*s'", (int)(r->tlen > 32 ? 32 : r->tlen), r->tok);
}

void twill_smt_problem_free(twill_smt_problem *p) {
  if (!p) return;
  twill_smt_free(p->m);
  for (int i = 0; i < p->nnames; i++) free(p->names[i].name);
  free(p->names);
  memset(p, 0, sizeof *p);
}

int twill_smt_parse(const char *file, const char *buf, size_t len, int proof,
                    twill_smt_problem *out, char *err, size_t errcap) {
  memset(out, 0, sizeof *out);
  out->obj = -1;
  out->m = twill_smt_new();
  if (!out->m || (proof && twill_smt_enable_proof(out->m))) {
    snprintf(err, errcap, "%s: out of memory", file);
    twill_smt_problem_free(out);
    return -1;
  }
  rd r = {file, buf, buf, buf, 0, err, errcap, out, buf, 0};
  const char *end = buf + len;
  while (r.line < end) {
    const char *e = memchr(r.line, '\n', (size_t)(end - r.line));
    if (!e) e = end;
    r.lineno++;
    r.p = r.line;
    r.end = e;
    if (memchr(r.line, 0, (size_t)(e - r.line))) {
      perr(&r, memchr(r.line, 0, (size_t)(e - r.line)), "NUL byte");
      twill_smt_problem_free(out);
      return -1;
    }
    int d = directive(&r);
    if (d < 0) {
      twill_smt_problem_free(out);
      return -1;
    }
    if (d == 0 && tok(&r)) {
      perr(&r, r.tok, "trailing text '%.*s'", (int)(r.tlen > 32 ? 32 : r.tlen), r.tok);
      twill_smt_problem_free(out);
      return -1;
    }
    r.line = e + 1;
  }
  return 0;
}
