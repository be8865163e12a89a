/* sat/dimacs.c: DIMACS CNF reader with file:line:col diagnostics. */
#include "twill/dimacs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *b;
  size_t n, i;
  int line, col;
} rd;

static int peekc(const rd *r) { return r->i < r->n ? (unsigned char)r->b[r->i] : -1; }

static void advance(rd *r) {
  if (r->b[r->i] == '\n') {
    r->line++;
    r->col = 1;
  } else {
    r->col++;
  }
  r->i++;
}

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static void skip_line(rd *r) {
  while (r->i < r->n && r->b[r->i] != '\n') advance(r);
}

/* token extent from r->i */
static size_t tok_len(const rd *r) {
  size_t k = r->i;
  while (k < r->n && !is_space((unsigned char)r->b[k]) && r->b[k] != '\n') k++;
  return k - r->i;
}

static void fmt_err(char *err, size_t cap, const char *name, int line, int col,
                    const char *msg) {
  snprintf(err, cap, "%s:%d:%d: %s", name, line, col, msg);
}

/* Parse a decimal int token (optional sign).  0 ok, -1 not a number,
 * -2 too large. */
static int parse_int(const char *t, size_t len, long long *out) {
  size_t k = 0;
  int negv = 0;
  if (k < len && (t[k] == '-' || t[k] == '+')) {
    negv = t[k] == '-';
    k++;
  }
  if (k == len) return -1;
  long long v = 0;
  int big = 0;
  for (; k < len; k++) {
    if (t[k] < '0' || t[k] > '9') return -1;
    if (v > 1000000000000LL) big = 1;
    else v = v * 10 + (t[k] - '0');
  }
  if (big || v > 2147483647LL) return -2;
  *out = negv ? -v : v;
  return 0;
}

static void bad_token(char *err, size_t cap, const char *name, const rd *r, size_t len) {
  char t[40];
  size_t m = len < 32 ? len : 32;
  memcpy(t, r->b + r->i, m);
  t[m] = 0;
  char msg[80];
  snprintf(msg, sizeof msg, "unexpected token '%s%s'", t, len > 32 ? "..." : "");
  fmt_err(err, cap, name, r->line, r->col, msg);
}

int twill_dimacs_parse(const char *name, const char *buf, size_t len,
                       twill_cnf *out, char *err, size_t errcap, char *warn,
                       size_t warncap) {
  rd r = {buf, len, 0, 1, 1};
  memset(out, 0, sizeof *out);
  if (warncap) warn[0] = 0;
  if (errcap) err[0] = 0;
  int have_header = 0, hdr_line = 0, hdr_col = 0;
  long long hdr_clauses = 0;
  size_t cap = 0;
  int open = 0; /* literals in the current clause */
  int at_line_start = 1;
  for (;;) {
    int c = peekc(&r);
    if (c < 0) break;
    if (c == '\n') {
      advance(&r);
      at_line_start = 1;
      continue;
    }
    if (is_space(c)) {
      advance(&r);
      continue;
    }
    if (at_line_start && c == 'c') {
      skip_line(&r);
      continue;
    }
    if (at_line_start && c == '%') break; /* SATLIB trailer */
    if (at_line_start && c == 'p') {
      if (have_header) {
        fmt_err(err, errcap, name, r.line, r.col, "second 'p' header line");
        goto fail;
      }
      hdr_line = r.line;
      hdr_col = r.col;
      /* p cnf V C, nothing else on the line */
      const char *want[2] = {"p", "cnf"};
      long long vals[2];
      for (int k = 0; k < 4; k++) {
        while (r.i < r.n && is_space((unsigned char)r.b[r.i])) advance(&r);
        size_t tl = tok_len(&r);
        long long v = 0;
        int pr = tl ? parse_int(r.b + r.i, tl, &v) : -1;
        int good = k < 2 ? (tl == strlen(want[k]) && !memcmp(r.b + r.i, want[k], tl))
                         : (pr == 0 && v >= 0 && r.b[r.i] != '-' && r.b[r.i] != '+');
        if (!good) {
          fmt_err(err, errcap, name, r.line, r.col,
                  pr == -2 ? "number too large in 'p cnf' header"
                           : "expected 'p cnf VARS CLAUSES'");
          goto fail;
        }
        if (k >= 2) vals[k - 2] = v;
        for (size_t q = 0; q < tl; q++) advance(&r);
      }
      while (r.i < r.n && is_space((unsigned char)r.b[r.i])) advance(&r);
      if (r.i < r.n && r.b[r.i] != '\n') {
        fmt_err(err, errcap, name, r.line, r.col, "expected 'p cnf VARS CLAUSES'");
        goto fail;
      }
      if (vals[0] > (1 << 28)) {
        fmt_err(err, errcap, name, hdr_line, hdr_col, "too many variables in header");
        goto fail;
      }
      out->nvars = (int)vals[0];
      hdr_clauses = vals[1];
      have_header = 1;
      continue;
    }
    at_line_start = 0;
    size_t tl = tok_len(&r);
    long long v = 0;
    int pr = parse_int(r.b + r.i, tl, &v);
    if (pr == -1) {
      bad_token(err, errcap, name, &r, tl);
      goto fail;
    }
    if (!have_header) {
      fmt_err(err, errcap, name, r.line, r.col, "clause before the 'p cnf' header");
      goto fail;
    }
    if (pr == -2 || v > out->nvars || -v > out->nvars) {
      char msg[120];
      char t[24];
      size_t m = tl < 20 ? tl : 20;
      memcpy(t, r.b + r.i, m);
      t[m] = 0;
      snprintf(msg, sizeof msg, "literal %s%s out of range (header declares %d variables)",
               t, tl > 20 ? "..." : "", out->nvars);
      fmt_err(err, errcap, name, r.line, r.col, msg);
      goto fail;
    }
    if (out->nlits == cap) {
      size_t nc = cap ? 2 * cap : 1024;
      int *p = realloc(out->lits, nc * sizeof *p);
      if (!p) {
        fmt_err(err, errcap, name, r.line, r.col, "out of memory");
        goto fail;
      }
      out->lits = p;
      cap = nc;
    }
    out->lits[out->nlits++] = (int)v;
    if (v == 0) {
      out->nclauses++;
      open = 0;
    } else {
      open++;
    }
    for (size_t q = 0; q < tl; q++) advance(&r);
  }
  if (!have_header) {
    fmt_err(err, errcap, name, r.line, r.col, "missing 'p cnf' header");
    goto fail;
  }
  if (open) {
    fmt_err(err, errcap, name, r.line, r.col, "missing final 0 at end of file");
    goto fail;
  }
  if (hdr_clauses != out->nclauses && warncap)
    snprintf(warn, warncap, "%s:%d:%d: warning: header declares %lld clauses, found %d",
             name, hdr_line, hdr_col, hdr_clauses, out->nclauses);
  return 0;
fail:
  twill_cnf_free(out);
  return -1;
}

void twill_cnf_free(twill_cnf *cnf) {
  free(cnf->lits);
  memset(cnf, 0, sizeof *cnf);
}
