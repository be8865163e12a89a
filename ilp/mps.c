/* ilp/mps.c: MPS reader (fixed and free format).
 *
 * Fields are split at white space, which reads both fixed MPS without
 * spaces in names and free MPS.  Sections: NAME, OBJSENSE (MIN/MAX on the
 * same or next line), ROWS, COLUMNS (with 'MARKER' 'INTORG'/'INTEND'),
 * RHS, RANGES, BOUNDS, ENDATA.  Lines starting with '*' are comments.
 * The first N row is the objective, further N rows are dropped.  An RHS on
 * the objective row gives the constant -rhs (the CPLEX/CLP convention).
 * RANGES (R = value): L row [rhs-|R|, rhs], G row [rhs, rhs+|R|], E row
 * [rhs, rhs+R] if R > 0 else [rhs+R, rhs].
 * BOUNDS: UP LO FX FR MI PL BV LI UI; SC is rejected.  UP with a negative
 * value on a variable whose lower bound is 0 sets the lower bound to -inf
 * (the classic MPS rule).  Integer columns (markers) default to [0, +inf).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "reader.h"
#include "twill/io.h"

/* ---- parser state ---- */
#define MAXTOK 8
typedef struct {
  const char *file;
  char *err;
  size_t errlen;
  int line;
  int ntok;
  const char *tok[MAXTOK];
  size_t tlen[MAXTOK];
  int tcol[MAXTOK];
  twill_ilp *m;
  ilp_names rows, cols;
  int obj_row;          /* row table value -2: objective; -3: dropped N */
  char *obj_name;
  /* per-row pending data: sense and rhs, range */
  char *sense;
  double *rhs, *range;
  signed char *has_range;
  int rcap;
  /* column entries collected as triplets into the model directly */
  int integer_mode;
  int cur_col;
  signed char *bound_seen; /* per column: a bound set explicitly */
  int bcap;
  int fixed; /* fixed-column fields (second attempt) */
} mps;

static int fail(mps *p, int col, const char *fmt, ...) {
  if (p->err && p->errlen) {
    int k = snprintf(p->err, p->errlen, "%s:%d:%d: ", p->file, p->line, col);
    if (k < 0) k = 0;
    if ((size_t)k < p->errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(p->err + k, p->errlen - (size_t)k, fmt, ap);
      va_end(ap);
    }
  }
  return 0;
}

static int tokeq(const mps *p, int i, const char *s) {
  return p->tlen[i] == strlen(s) && !memcmp(p->tok[i], s, p->tlen[i]);
}

/* token i as a C string in buf (truncated for messages) */
static const char *tokstr(const mps *p, int i, char *buf, size_t n) {
  size_t l = p->tlen[i] < n - 1 ? p->tlen[i] : n - 1;
  memcpy(buf, p->tok[i], l);
  buf[l] = 0;
  return buf;
}

static int number(mps *p, int i, double *v) {
  char buf[64];
  if (p->tlen[i] >= sizeof buf) return fail(p, p->tcol[i], "bad number '%.20s...'", p->tok[i]);
  tokstr(p, i, buf, sizeof buf);
  char *end;
  errno = 0;
  double x = strtod(buf, &end);
  if (end == buf || *end || isnan(x) || (errno == ERANGE && isinf(x)))
    return fail(p, p->tcol[i], "bad number '%s'", buf);
  if (x >= 1e30) x = HUGE_VAL;
  if (x <= -1e30) x = -HUGE_VAL;
  *v = x;
  return 1;
}

static int ensure_rows(mps *p, int need) {
  if (need <= p->rcap) return 1;
  int nc = p->rcap ? p->rcap * 2 : 64;
  while (nc < need) nc *= 2;
  char *s = realloc(p->sense, (size_t)nc);
  if (!s) return 0;
  p->sense = s;
  double *r = realloc(p->rhs, (size_t)nc * sizeof(double));
  if (!r) return 0;
  p->rhs = r;
  double *g = realloc(p->range, (size_t)nc * sizeof(double));
  if (!g) return 0;
  p->range = g;
  signed char *h = realloc(p->has_range, (size_t)nc);
  if (!h) return 0;
  p->has_range = h;
  p->rcap = nc;
  return 1;
}

static int ensure_cols(mps *p, int need) {
  if (need <= p->bcap) return 1;
  int nc = p->bcap ? p->bcap * 2 : 64;
  while (nc < need) nc *= 2;
  signed char *b = realloc(p->bound_seen, (size_t)nc);
  if (!b) return 0;
  memset(b + p->bcap, 0, (size_t)(nc - p->bcap));
  p->bound_seen = b;
  p->bcap = nc;
  return 1;
}

/* Fixed MPS: fields in columns 2-3, 5-12, 15-22, 25-36, 40-47, 50-61
 * (names may contain spaces); empty fields are skipped. */
static void split_fixed(mps *p, const char *s, size_t n) {
  static const int fb[6] = {1, 4, 14, 24, 39, 49}, fe[6] = {3, 12, 22, 36, 47, 61};
  p->ntok = 0;
  for (int k = 0; k < 6; k++) {
    size_t b = (size_t)fb[k], e = (size_t)fe[k];
    if (b >= n) break;
    if (e > n) e = n;
    while (b < e && (s[b] == ' ' || s[b] == '\r')) b++;
    while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\r')) e--;
    if (e == b) continue;
    p->tok[p->ntok] = s + b;
    p->tlen[p->ntok] = e - b;
    p->tcol[p->ntok] = (int)b + 1;
    p->ntok++;
  }
}

static void split(mps *p, const char *s, size_t n) {
  if (p->fixed && (s[0] == ' ' || s[0] == '\t')) {
    split_fixed(p, s, n);
    return;
  }
  p->ntok = 0;
  size_t i = 0;
  while (i < n && p->ntok < MAXTOK) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    if (i >= n) break;
    size_t b = i;
    while (i < n && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    p->tok[p->ntok] = s + b;
    p->tlen[p->ntok] = i - b;
    p->tcol[p->ntok] = (int)b + 1;
    p->ntok++;
  }
  if (p->ntok == MAXTOK) {
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    if (i < n) p->ntok = MAXTOK + 1; /* too many fields */
  }
}

enum { S_NONE, S_NAME, S_OBJSENSE, S_ROWS, S_COLUMNS, S_RHS, S_RANGES, S_BOUNDS, S_END };

static int row_of(mps *p, int t, int *row) {
  int r = twill_ilp_names_find(&p->rows, p->tok[t], p->tlen[t]);
  if (r == -1) {
    char b[64];
    return fail(p, p->tcol[t], "unknown row '%s'", tokstr(p, t, b, sizeof b));
  }
  *row = r;
  return 1;
}

static int col_of(mps *p, int t, int *col) {
  int c = twill_ilp_names_find(&p->cols, p->tok[t], p->tlen[t]);
  if (c < 0) {
    char b[64];
    return fail(p, p->tcol[t], "unknown column '%s'", tokstr(p, t, b, sizeof b));
  }
  *col = c;
  return 1;
}

static int add_entry(mps *p, int rowtok, int valtok) {
  int r;
  double v;
  if (!row_of(p, rowtok, &r) || !number(p, valtok, &v)) return 0;
  if (isinf(v)) return fail(p, p->tcol[valtok], "infinite coefficient");
  twill_ilp *m = p->m;
  if (r == -2) {
    m->obj[p->cur_col] += v;
    return 1;
  }
  if (r == -3) return 1;
  if (m->nz + 1 > m->nzcap) {
    int nc = m->nzcap ? 2 * m->nzcap : 256;
    int *a = realloc(m->zr, (size_t)nc * sizeof(int));
    if (!a) return fail(p, 1, "out of memory");
    m->zr = a;
    a = realloc(m->zc, (size_t)nc * sizeof(int));
    if (!a) return fail(p, 1, "out of memory");
    m->zc = a;
    double *d = realloc(m->zv, (size_t)nc * sizeof(double));
    if (!d) return fail(p, 1, "out of memory");
    m->zv = d;
    m->nzcap = nc;
  }
  if (v == 0) return 1;
  m->zr[m->nz] = r;
  m->zc[m->nz] = p->cur_col;
  m->zv[m->nz++] = v;
  return 1;
}

static int section(mps *p, int *sec) {
  char b[64];
  if (tokeq(p, 0, "NAME")) { *sec = S_NAME; return 1; }
  if (tokeq(p, 0, "ROWS")) { *sec = S_ROWS; return 1; }
  if (tokeq(p, 0, "COLUMNS")) { *sec = S_COLUMNS; return 1; }
  if (tokeq(p, 0, "RHS")) { *sec = S_RHS; return 1; }
  if (tokeq(p, 0, "RANGES")) { *sec = S_RANGES; return 1; }
  if (tokeq(p, 0, "BOUNDS")) { *sec = S_BOUNDS; return 1; }
  if (tokeq(p, 0, "ENDATA")) { *sec = S_END; return 1; }
  if (tokeq(p, 0, "OBJSENSE") || tokeq(p, 0, "OBJSENSE:")) { *sec = S_OBJSENSE; return 1; }
  return fail(p, 1, "unknown section '%s'", tokstr(p, 0, b, sizeof b));
}

static int objsense(mps *p, int t) {
  char b[64];
  if (tokeq(p, t, "MAX") || tokeq(p, t, "MAXIMIZE")) p->m->maximize = 1;
  else if (tokeq(p, t, "MIN") || tokeq(p, t, "MINIMIZE")) p->m->maximize = 0;
  else return fail(p, p->tcol[t], "bad OBJSENSE '%s' (expected MIN or MAX)", tokstr(p, t, b, sizeof b));
  return 1;
}

static int data_line(mps *p, int sec) {
  char b[64];
  twill_ilp *m = p->m;
  switch (sec) {
  case S_NONE: case S_NAME:
    return fail(p, p->tcol[0], "data line outside a section");
  case S_END:
    return fail(p, p->tcol[0], "data after ENDATA");
  case S_OBJSENSE:
    return objsense(p, 0);
  case S_ROWS: {
    if (p->ntok != 2) return fail(p, p->tcol[0], "ROWS line needs a type and a name");
    char t = p->tlen[0] == 1 ? p->tok[0][0] : '?';
    if (t != 'N' && t != 'L' && t != 'G' && t != 'E')
      return fail(p, p->tcol[0], "unknown row type '%s'", tokstr(p, 0, b, sizeof b));
    if (twill_ilp_names_find(&p->rows, p->tok[1], p->tlen[1]) != -1 ||
        (p->obj_name && strlen(p->obj_name) == p->tlen[1] && !memcmp(p->obj_name, p->tok[1], p->tlen[1])))
      return fail(p, p->tcol[1], "duplicate row '%s'", tokstr(p, 1, b, sizeof b));
    char name[256];
    if (p->tlen[1] >= sizeof name) return fail(p, p->tcol[1], "row name too long");
    tokstr(p, 1, name, sizeof name);
    if (t == 'N') {
      char *nm = malloc(strlen(name) + 1);
      if (!nm) return fail(p, 1, "out of memory");
      strcpy(nm, name);
      /* keep N row names in a side table owned by the model names? store
       * them as dropped rows via a leaked-free list: use obj_name for the
       * first, a private list for the rest */
      int v = p->obj_row ? -3 : -2;
      if (!p->obj_row) {
        p->obj_row = 1;
        p->obj_name = nm;
      } else {
        free(nm);
        nm = NULL;
      }
      if (nm) {
        if (!twill_ilp_names_put(&p->rows, p->obj_name, v)) return fail(p, 1, "out of memory");
      } else {
        /* dropped N rows: add a hidden name owned by the table list */
        char *d = malloc(strlen(name) + 1);
        if (!d) return fail(p, 1, "out of memory");
        strcpy(d, name);
        if (!twill_ilp_names_put(&p->rows, d, -3)) { free(d); return fail(p, 1, "out of memory"); }
      }
      return 1;
    }
    int r = twill_ilp_add_row(m, name, 0, NULL, NULL, 'E', 0, 0);
    if (r < 0 || !ensure_rows(p, r + 1) || !twill_ilp_names_put(&p->rows, m->rname[r], r))
      return fail(p, 1, "out of memory");
    p->sense[r] = t;
    p->rhs[r] = 0;
    p->range[r] = 0;
    p->has_range[r] = 0;
    return 1;
  }
  case S_COLUMNS: {
    if (p->ntok >= 3 && (tokeq(p, 1, "'MARKER'") || tokeq(p, 1, "MARKER"))) {
      if (tokeq(p, 2, "'INTORG'")) p->integer_mode = 1;
      else if (tokeq(p, 2, "'INTEND'")) p->integer_mode = 0;
      else return fail(p, p->tcol[2], "unknown marker '%s'", tokstr(p, 2, b, sizeof b));
      return 1;
    }
    if (p->ntok != 3 && p->ntok != 5)
      return fail(p, p->tcol[0], "COLUMNS line needs a column and 1 or 2 (row, value) pairs");
    int c = twill_ilp_names_find(&p->cols, p->tok[0], p->tlen[0]);
    if (c < 0) {
      char name[256];
      if (p->tlen[0] >= sizeof name) return fail(p, p->tcol[0], "column name too long");
      tokstr(p, 0, name, sizeof name);
      c = twill_ilp_add_var(m, name, p->integer_mode ? TWILL_ILP_INTEGER : TWILL_ILP_CONTINUOUS,
                            0, TWILL_ILP_INF, 0);
      if (c < 0 || !ensure_cols(p, c + 1) || !twill_ilp_names_put(&p->cols, m->vname[c], c))
        return fail(p, 1, "out of memory");
    } else if (c != p->cur_col) {
      return fail(p, p->tcol[0], "column '%s' is not contiguous", tokstr(p, 0, b, sizeof b));
    }
    p->cur_col = c;
    if (!add_entry(p, 1, 2)) return 0;
    if (p->ntok == 5 && !add_entry(p, 3, 4)) return 0;
    return 1;
  }
  case S_RHS: case S_RANGES: {
    int first;
    if (p->ntok == 2 || p->ntok == 4) first = 0;
    else if (p->ntok == 3 || p->ntok == 5) first = 1;
    else return fail(p, p->tcol[0], "%s line needs 1 or 2 (row, value) pairs", sec == S_RHS ? "RHS" : "RANGES");
    for (int t = first; t + 1 < p->ntok; t += 2) {
      int r = -1;
      double v = 0;
      if (!row_of(p, t, &r) || !number(p, t + 1, &v)) return 0;
      if (sec == S_RHS) {
        if (isinf(v)) return fail(p, p->tcol[t + 1], "infinite right-hand side");
        if (r == -2) m->c0 = -v;
        else if (r >= 0) p->rhs[r] = v;
      } else {
        if (r == -2 || r == -3) return fail(p, p->tcol[t], "RANGES on free row '%s'", tokstr(p, t, b, sizeof b));
        if (isinf(v)) return fail(p, p->tcol[t + 1], "infinite range");
        p->range[r] = v;
        p->has_range[r] = 1;
      }
    }
    return 1;
  }
  case S_BOUNDS: {
    static const char *types[] = {"UP", "LO", "FX", "FR", "MI", "PL", "BV", "LI", "UI", "SC"};
    int bt = -1;
    for (int k = 0; k < 10; k++)
      if (tokeq(p, 0, types[k])) bt = k;
    if (bt < 0) return fail(p, p->tcol[0], "unknown bound type '%s'", tokstr(p, 0, b, sizeof b));
    if (bt == 9) return fail(p, p->tcol[0], "semi-continuous bounds (SC) are not supported");
    int needval = !(bt == 3 || bt == 4 || bt == 5 || bt == 6);
    int ct, vt = -1;
    if (needval) {
      if (p->ntok == 4) { ct = 2; vt = 3; }
      else if (p->ntok == 3) { ct = 1; vt = 2; }
      else return fail(p, p->tcol[0], "bound %s needs a column and a value", types[bt]);
    } else {
      if (p->ntok == 2) ct = 1;
      else if (p->ntok == 3) {
        /* "FR BND X" or "BV X 1" */
        if (twill_ilp_names_find(&p->cols, p->tok[2], p->tlen[2]) >= 0) ct = 2;
        else { ct = 1; vt = 2; }
      } else if (p->ntok == 4) { ct = 2; vt = 3; }
      else return fail(p, p->tcol[0], "bound %s needs a column", types[bt]);
    }
    int c = -1;
    double v = 0;
    if (!col_of(p, ct, &c)) return 0;
    if (vt >= 0 && !number(p, vt, &v)) return 0;
    double *lb = &m->vlb[c], *ub = &m->vub[c];
    switch (bt) {
    case 0: /* UP */
      if (v < 0 && *lb == 0 && !(p->bound_seen[c] & 1)) *lb = -HUGE_VAL;
      *ub = v;
      p->bound_seen[c] |= 2;
      break;
    case 1: *lb = v; p->bound_seen[c] |= 1; break;
    case 2: *lb = *ub = v; p->bound_seen[c] |= 3; break;
    case 3: *lb = -HUGE_VAL; *ub = HUGE_VAL; break;
    case 4: *lb = -HUGE_VAL; p->bound_seen[c] |= 1; break;
    case 5: *ub = HUGE_VAL; break;
    case 6: m->vtype[c] = TWILL_ILP_BINARY; *lb = 0; *ub = 1; break;
    case 7: m->vtype[c] = TWILL_ILP_INTEGER; *lb = v; p->bound_seen[c] |= 1; break;
    case 8:
      m->vtype[c] = TWILL_ILP_INTEGER;
      if (v < 0 && *lb == 0 && !(p->bound_seen[c] & 1)) *lb = -HUGE_VAL;
      *ub = v;
      break;
    default: break;
    }
    if ((bt == 0 || bt == 1 || bt == 2 || bt == 7 || bt == 8) && isinf(v) &&
        ((bt == 2) || (bt == 1 && v > 0) || (bt == 7 && v > 0) || ((bt == 0 || bt == 8) && v < 0)))
      return fail(p, p->tcol[vt], "infinite bound value");
    return 1;
  }
  }
  return fail(p, 1, "internal error");
}

static void free_dropped(mps *p) {
  for (int i = 0; i < p->rows.cap; i++)
    if (p->rows.key[i] && p->rows.val[i] == -3) free(p->rows.key[i]);
}

static twill_ilp *parse(const char *text, size_t len, const char *file,
                       char *err, size_t errlen, int fixed) {
  mps P, *p = &P;
  memset(p, 0, sizeof P);
  p->fixed = fixed;
  p->file = file ? file : "<mps>";
  p->err = err;
  p->errlen = errlen;
  p->cur_col = -1;
  if (err && errlen) err[0] = 0;
  p->m = twill_ilp_new();
  int ok = p->m != NULL, sec = S_NONE, seen_end = 0;
  if (!ok) fail(p, 1, "out of memory");
  size_t i = 0;
  while (ok && i < len && !seen_end) {
    size_t b = i;
    while (i < len && text[i] != '\n') i++;
    size_t n = i - b;
    if (i < len) i++;
    p->line++;
    const char *s = text + b;
    if (memchr(s, 0, n)) { ok = fail(p, (int)((const char *)memchr(s, 0, n) - s) + 1, "NUL character"); break; }
    if (n == 0 || s[0] == '*') continue;
    split(p, s, n);
    if (p->ntok == 0) continue;
    if (p->ntok > MAXTOK) { ok = fail(p, 1, "too many fields"); break; }
    if (s[0] != ' ' && s[0] != '\t') {
      int nsec = S_NONE;
      if (!section(p, &nsec)) { ok = 0; break; }
      if (nsec == S_END) { seen_end = 1; break; }
      sec = nsec;
      if (sec == S_NAME) {
        if (p->ntok >= 2) {
          char nm[256];
          tokstr(p, 1, nm, sizeof nm);
          twill_ilp_set_name(p->m, nm);
        }
      } else if (sec == S_OBJSENSE) {
        if (p->ntok >= 2) ok = objsense(p, 1);
      } else if (p->ntok > 1 && sec != S_RHS && sec != S_RANGES && sec != S_BOUNDS) {
        char bb[64];
        ok = fail(p, p->tcol[1], "unexpected '%s' after section name", tokstr(p, 1, bb, sizeof bb));
      }
      continue;
    }
    ok = data_line(p, sec);
  }
  if (ok && !seen_end) {
    p->line++;
    ok = fail(p, 1, "missing ENDATA");
  }
  if (ok) {
    twill_ilp *m = p->m;
    for (int r = 0; r < m->m; r++) {
      double rhs = p->rhs[r], R = p->range[r];
      switch (p->sense[r]) {
      case 'L': m->rlo[r] = -HUGE_VAL; m->rhi[r] = rhs; break;
      case 'G': m->rlo[r] = rhs; m->rhi[r] = HUGE_VAL; break;
      default: m->rlo[r] = m->rhi[r] = rhs; break;
      }
      if (p->has_range[r]) {
        if (p->sense[r] == 'L') m->rlo[r] = rhs - fabs(R);
        else if (p->sense[r] == 'G') m->rhi[r] = rhs + fabs(R);
        else if (R > 0) m->rhi[r] = rhs + R;
        else m->rlo[r] = rhs + R;
      }
    }
    for (int j = 0; j < m->n; j++)
      if (m->vlb[j] > m->vub[j]) {
        /* keep: the solver reports infeasible */
      }
  }
  free_dropped(p);
  free(p->obj_name);
  twill_ilp_names_free(&p->rows);
  twill_ilp_names_free(&p->cols);
  free(p->sense); free(p->rhs); free(p->range); free(p->has_range); free(p->bound_seen);
  if (!ok) {
    twill_ilp_free(p->m);
    return NULL;
  }
  return p->m;
}

/* Free format first (names without spaces, any spacing); if that fails, the
 * fixed column layout (names with spaces, as in Netlib's FORPLAN); the
 * diagnostic reported is the free-format one. */
twill_ilp *twill_ilp_parse_mps(const char *text, size_t len, const char *file,
                               char *err, size_t errlen) {
  twill_ilp *m = parse(text, len, file, err, errlen, 0);
  if (m) return m;
  char tmp[8];
  m = parse(text, len, file, tmp, sizeof tmp, 1);
  if (m && err && errlen) err[0] = 0;
  return m;
}

twill_ilp *twill_ilp_read_mps(const char *path, char *err, size_t errlen) {
  twill_diag d;
  size_t len = 0;
  char *buf = twill_read_file(path, &len, &d);
  if (!buf) {
    snprintf(err, errlen, "%s:0:0: %s", d.file, d.msg);
    return NULL;
  }
  twill_ilp *m =
      twill_ilp_parse_mps(buf, len, strcmp(path, "-") ? path : "<stdin>", err, errlen);
  free(buf);
  return m;
}
