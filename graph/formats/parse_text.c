/* graph/formats/parse_text.c: the .twill kernel text format (docs/formats.md).
 *
 *   kernel NAME                      first line that is not a comment
 *   arch NAME                        built-in machine name or .arch path
 *   unit NAME CAPACITY               declare a unit / override a capacity
 *   op NAME lat CYCLES [use UNIT[@OFFSET][:CYCLES][xCOUNT]]... [KEY VALUE]...
 *   edge SRC DST [lat CYCLES] [dist D] [blocking yes|no]
 *
 * Op keys: regs N, smem BYTES, tmem COLS, spill CYCLES,
 * issue thread|warp|warpgroup, groups 1|2|4 (with issue warpgroup),
 * varlat yes|no.  `#` starts a comment that runs to the end of the line;
 * tokens are separated by blanks.
 *
 * Semantics beyond the grammar:
 *  - Unit order is canonical: declared units first, in the order of their
 *    `unit` lines, then the other units in order of first use.  (JSON uses
 *    the same rule, so both formats print back to the same graph.)
 *  - Edges may name ops defined anywhere in the file; an edge's latency
 *    defaults to its source op's latency.
 *  - In a use, the unit name ends at the first '@' or ':'.  Without either,
 *    a trailing xCOUNT is a count unless the whole word names a unit that
 *    is already known (so `use ex2` keeps a declared unit `ex2`).
 *
 * Every error is file:line:col (col: 1-based byte column of the offending
 * token); the graph is then checked with twill_graph_validate().
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph_io.h"
#include "twill/graph.h"

typedef struct tok {
  size_t off, len;
  int col;
} tok;

typedef struct stmt {
  int line;
  int first, ntok;
  int endcol; /* column just after the last token */
} stmt;

typedef struct use_pos {
  int op, use, line, col;
} use_pos;

typedef struct tp {
  const char *s;
  size_t len;
  const char *file;
  twill_diag *d;
  tok *toks;
  int ntoks, cap_toks;
  stmt *stmts;
  int nstmts, cap_stmts;
  use_pos *uses;
  int nuses, cap_uses;
  int *unit_decl_line; /* per unit: line of its `unit` line, 0 if none */
  int cap_udl;
  twill_graph *g;
  twill_gio_names names;
  int eof_line, eof_col;
} tp;

#define TQ(p, t) (int)((t)->len > 64 ? 64 : (t)->len), (p)->s + (t)->off

static int oom(tp *p) {
  return twill_diag_set(p->d, p->file, 0, 0, "out of memory");
}

static int err_at(tp *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int err_at(tp *p, int line, int col, const char *fmt, ...) {
  char msg[TWILL_DIAG_MSG];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return twill_diag_set(p->d, p->file, line, col, "%s", msg);
}

static bool tok_is(const tp *p, const tok *t, const char *w) {
  size_t n = strlen(w);
  return t->len == n && memcmp(p->s + t->off, w, n) == 0;
}

static bool is_blank(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Split the text into statements of tokens. */
static int tokenize(tp *p) {
  size_t i = 0;
  int line = 1;
  while (i <= p->len) {
    size_t ls = i;
    int first = p->ntoks;
    bool comment = false;
    while (i < p->len && p->s[i] != '\n') {
      unsigned char c = (unsigned char)p->s[i];
      if (comment) {
        i++;
        continue;
      }
      if (c == '#') {
        comment = true;
        i++;
        continue;
      }
      if (is_blank(c)) {
        i++;
        continue;
      }
      if (c < 0x20 || c == 0x7f) {
        int col = (int)(i - ls + 1);
        if (c == 0) return err_at(p, line, col, "NUL byte in input");
        return err_at(p, line, col, "unexpected control character 0x%02x", c);
      }
      size_t st = i;
      while (i < p->len) {
        unsigned char e = (unsigned char)p->s[i];
        if (e == '\n' || e == '#' || is_blank(e) || e < 0x20 || e == 0x7f)
          break;
        i++;
      }
      if (i - ls > 100000000u)
        return err_at(p, line, 0, "line too long");
      if (p->ntoks == p->cap_toks) {
        int nc = p->cap_toks ? 2 * p->cap_toks : 64;
        tok *t = realloc(p->toks, (size_t)nc * sizeof *t);
        if (!t) return oom(p);
        p->toks = t;
        p->cap_toks = nc;
      }
      p->toks[p->ntoks++] = (tok){st, i - st, (int)(st - ls + 1)};
    }
    if (p->ntoks > first) {
      if (p->nstmts == p->cap_stmts) {
        int nc = p->cap_stmts ? 2 * p->cap_stmts : 32;
        stmt *s = realloc(p->stmts, (size_t)nc * sizeof *s);
        if (!s) return oom(p);
        p->stmts = s;
        p->cap_stmts = nc;
      }
      const tok *last = &p->toks[p->ntoks - 1];
      p->stmts[p->nstmts++] =
          (stmt){line, first, p->ntoks - first, last->col + (int)last->len};
    }
    p->eof_line = line;
    p->eof_col = (int)(i - ls + 1);
    if (i >= p->len) break;
    i++; /* '\n' */
    if (line == INT32_MAX) return err_at(p, line, 0, "too many lines");
    line++;
  }
  return 0;
}

/* Parse a decimal integer token: optional '-', digits, value <= maxv.
 * `after` names what it follows (for messages), `what` what it is. */
static int parse_int(tp *p, int line, int col, const char *t, size_t n,
                     long long maxv, const char *after, const char *what,
                     long long *out) {
  size_t i = 0;
  bool neg = false;
  if (n > 0 && t[0] == '-') {
    neg = true;
    i = 1;
  }
  if (i >= n)
    return err_at(p, line, col, "expected an integer after %s, got '%.*s'",
                  after, (int)(n > 64 ? 64 : n), t);
  for (size_t k = i; k < n; k++)
    if (t[k] < '0' || t[k] > '9')
      return err_at(p, line, col, "expected an integer after %s, got '%.*s'",
                    after, (int)(n > 64 ? 64 : n), t);
  long long v = 0;
  for (size_t k = i; k < n; k++) {
    v = v * 10 + (t[k] - '0');
    if (v > maxv)
      return err_at(p, line, col, "integer %.*s out of range (max %lld)",
                    (int)(n > 64 ? 64 : n), t, maxv);
  }
  if (neg && v > 0)
    return err_at(p, line, col, "negative %s -%lld", what, v);
  *out = v;
  return 0;
}

/* Integer in token t; if t is NULL (missing), report after the statement. */
static int tok_int(tp *p, const stmt *st, const tok *t, long long maxv,
                   const char *after, const char *what, long long *out) {
  if (!t)
    return err_at(p, st->line, st->endcol,
                  "expected an integer after %s", after);
  return parse_int(p, st->line, t->col, p->s + t->off, t->len, maxv, after,
                   what, out);
}

static int copy_name(tp *p, int line, const tok *t, const char *kind,
                     char *buf) {
  if (!twill_gio_name_ok(p->s + t->off, t->len))
    return err_at(p, line, t->col, "invalid %s name '%.*s'", kind, TQ(p, t));
  memcpy(buf, p->s + t->off, t->len);
  buf[t->len] = '\0';
  return 0;
}

static int yes_no(tp *p, const stmt *st, const tok *key, const tok *t,
                  bool *out) {
  if (t && tok_is(p, t, "yes")) *out = true;
  else if (t && tok_is(p, t, "no")) *out = false;
  else if (t)
    return err_at(p, st->line, t->col,
                  "expected 'yes' or 'no' after '%.*s', got '%.*s'",
                  TQ(p, key), TQ(p, t));
  else
    return err_at(p, st->line, st->endcol,
                  "expected 'yes' or 'no' after '%.*s'", TQ(p, key));
  return 0;
}

static int note_unit_line(tp *p, int u, int line, bool declared) {
  if (u >= p->cap_udl) {
    int nc = p->cap_udl ? 2 * p->cap_udl : 16;
    while (nc <= u) nc *= 2;
    int *a = realloc(p->unit_decl_line, (size_t)nc * sizeof *a);
    if (!a) return oom(p);
    memset(a + p->cap_udl, 0, (size_t)(nc - p->cap_udl) * sizeof *a);
    p->unit_decl_line = a;
    p->cap_udl = nc;
  }
  if (declared) p->unit_decl_line[u] = line;
  return 0;
}

static int st_kernel(tp *p, const stmt *st) {
  tok *t = &p->toks[st->first];
  if (st->ntok < 2)
    return err_at(p, st->line, st->endcol,
                  "expected a kernel name after 'kernel'");
  if (st->ntok > 2)
    return err_at(p, st->line, t[2].col, "unexpected '%.*s' after kernel name",
                  TQ(p, &t[2]));
  char name[TWILL_GIO_NAME_MAX + 1];
  if (copy_name(p, st->line, &t[1], "kernel", name)) return -1;
  p->g = twill_graph_new(name);
  if (!p->g) return oom(p);
  return 0;
}

static int st_unit(tp *p, const stmt *st) {
  tok *t = &p->toks[st->first];
  if (st->ntok < 2)
    return err_at(p, st->line, st->endcol, "expected a unit name after 'unit'");
  char name[TWILL_GIO_NAME_MAX + 1];
  if (copy_name(p, st->line, &t[1], "unit", name)) return -1;
  long long cap;
  if (tok_int(p, st, st->ntok > 2 ? &t[2] : NULL, TWILL_GIO_INT_MAX,
              "unit name", "capacity", &cap))
    return -1;
  if (cap < 1)
    return err_at(p, st->line, t[2].col, "unit capacity must be at least 1");
  if (st->ntok > 3)
    return err_at(p, st->line, t[3].col, "unexpected '%.*s' after capacity",
                  TQ(p, &t[3]));
  int u = twill_graph_find_unit(p->g, name);
  if (u >= 0)
    return err_at(p, st->line, t[1].col,
                  "duplicate unit '%s' (first declared at line %d)", name,
                  p->g->units[u].line);
  u = twill_graph_declare_unit(p->g, name, (int)cap);
  if (u < 0) return oom(p);
  p->g->units[u].line = st->line;
  return note_unit_line(p, u, st->line, true);
}

static int st_arch(tp *p, const stmt *st, int *arch_line) {
  tok *t = &p->toks[st->first];
  if (*arch_line)
    return err_at(p, st->line, t[0].col,
                  "duplicate 'arch' line (first at line %d)", *arch_line);
  if (st->ntok < 2)
    return err_at(p, st->line, st->endcol,
                  "expected a machine name after 'arch'");
  if (st->ntok > 2)
    return err_at(p, st->line, t[2].col,
                  "unexpected '%.*s' after machine name", TQ(p, &t[2]));
  if (!twill_gio_arch_ok(p->s + t[1].off, t[1].len))
    return err_at(p, st->line, t[1].col, "invalid machine name '%.*s'",
                  TQ(p, &t[1]));
  char *a = malloc(t[1].len + 1);
  if (!a) return oom(p);
  memcpy(a, p->s + t[1].off, t[1].len);
  a[t[1].len] = '\0';
  int r = twill_graph_set_arch(p->g, a);
  free(a);
  if (r) return oom(p);
  *arch_line = st->line;
  p->g->arch_line = st->line;
  p->g->arch_col = t[1].col;
  return 0;
}

/* `use` value: UNIT[@OFFSET][:CYCLES][xCOUNT]. */
static int parse_use(tp *p, const stmt *st, int v, const tok *t) {
  const char *s = p->s + t->off;
  size_t n = t->len;
  size_t name_end = n;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '@' || s[i] == ':') {
      name_end = i;
      break;
    }
  size_t rest = name_end; /* where the suffixes start */
  if (name_end == n) {
    /* Only an xCOUNT suffix is possible. */
    size_t k = n;
    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
    if (k < n && k >= 2 && s[k - 1] == 'x') {
      bool whole_known = false;
      if (twill_gio_name_ok(s, n)) {
        char whole[TWILL_GIO_NAME_MAX + 1];
        memcpy(whole, s, n);
        whole[n] = '\0';
        whole_known = twill_graph_find_unit(p->g, whole) >= 0;
      }
      if (!whole_known) name_end = rest = k - 1;
    }
  }
  if (name_end == 0)
    return err_at(p, st->line, t->col, "expected a unit name in use '%.*s'",
                  TQ(p, t));
  if (!twill_gio_name_ok(s, name_end))
    return err_at(p, st->line, t->col, "invalid unit name '%.*s'",
                  (int)(name_end > 64 ? 64 : name_end), s);
  char name[TWILL_GIO_NAME_MAX + 1];
  memcpy(name, s, name_end);
  name[name_end] = '\0';
  long long val[3] = {0, 1, 1};
  static const char seps[3] = {'@', ':', 'x'};
  static const char *const what[3] = {"use offset", "use cycles",
                                      "use count"};
  static const char *const after[3] = {"'@'", "':'", "'x'"};
  int next = 0; /* next suffix allowed */
  size_t i = rest;
  while (i < n) {
    int which = -1;
    for (int k = next; k < 3; k++)
      if (s[i] == seps[k]) which = k;
    if (which < 0)
      return err_at(p, st->line, t->col + (int)i,
                    "unexpected '%c' in use '%.*s' (expected "
                    "UNIT[@OFFSET][:CYCLES][xCOUNT])",
                    s[i], TQ(p, t));
    size_t j = i + 1;
    while (j < n && s[j] != '@' && s[j] != ':' &&
           !(s[j] == 'x' && which < 2))
      j++;
    if (j == i + 1 && j < n)
      return err_at(p, st->line, t->col + (int)j,
                    "expected an integer after %s, got '%c'", after[which],
                    s[j]);
    if (j == i + 1)
      return err_at(p, st->line, t->col + (int)j,
                    "expected an integer after %s", after[which]);
    if (parse_int(p, st->line, t->col + (int)i + 1, s + i + 1, j - i - 1,
                  TWILL_GIO_INT_MAX, after[which], what[which], &val[which]))
      return -1;
    if (which > 0 && val[which] < 1)
      return err_at(p, st->line, t->col + (int)i + 1,
                    "%s must be at least 1", what[which]);
    next = which + 1;
    i = j;
  }
  if (val[0] + val[1] > TWILL_GIO_INT_MAX)
    return err_at(p, st->line, t->col, "use '%.*s' ends past cycle %lld",
                  TQ(p, t), TWILL_GIO_INT_MAX);
  int before = p->g->nunits;
  int u = twill_graph_unit(p->g, name);
  if (u < 0) return oom(p);
  if (p->g->nunits > before) {
    p->g->units[u].line = st->line;
    if (note_unit_line(p, u, st->line, false)) return -1;
  }
  if (twill_graph_add_use(p->g, v, u, (int)val[0], (int)val[1], (int)val[2]))
    return oom(p);
  if (p->nuses == p->cap_uses) {
    int nc = p->cap_uses ? 2 * p->cap_uses : 32;
    use_pos *a = realloc(p->uses, (size_t)nc * sizeof *a);
    if (!a) return oom(p);
    p->uses = a;
    p->cap_uses = nc;
  }
  p->uses[p->nuses++] =
      (use_pos){v, p->g->ops[v].nuses - 1, st->line, t->col};
  return 0;
}

static const char *const op_keys[] = {"use",   "regs",   "smem",   "tmem",
                                      "spill", "issue",  "varlat", "groups",
                                      NULL};

static int st_op(tp *p, const stmt *st) {
  tok *t = &p->toks[st->first];
  if (st->ntok < 2)
    return err_at(p, st->line, st->endcol, "expected an op name after 'op'");
  char name[TWILL_GIO_NAME_MAX + 1];
  if (copy_name(p, st->line, &t[1], "op", name)) return -1;
  int prev = twill_gio_names_find(&p->names, p->g, name, t[1].len);
  if (prev >= 0)
    return err_at(p, st->line, t[1].col,
                  "duplicate op '%s' (first defined at line %d)", name,
                  p->g->ops[prev].line);
  if (st->ntok < 3)
    return err_at(p, st->line, st->endcol, "expected 'lat' after op name");
  if (!tok_is(p, &t[2], "lat"))
    return err_at(p, st->line, t[2].col,
                  "expected 'lat' after op name, got '%.*s'", TQ(p, &t[2]));
  long long lat;
  if (tok_int(p, st, st->ntok > 3 ? &t[3] : NULL, TWILL_GIO_LONG_MAX, "'lat'",
              "latency", &lat))
    return -1;
  int v = twill_graph_add_op(p->g, name, (long)lat);
  if (v < 0 || twill_gio_names_add(&p->names, p->g, v)) return oom(p);
  twill_op *op = &p->g->ops[v];
  op->line = st->line;
  op->col = t[1].col;
  int seen[8] = {0}, groups_col = 0, spill_col = 0;
  for (int i = 4; i < st->ntok; i += 2) {
    const tok *k = &t[i];
    int which = -1;
    for (int j = 0; op_keys[j]; j++)
      if (tok_is(p, k, op_keys[j])) which = j;
    if (which < 0) {
      if (tok_is(p, k, "lat"))
        return err_at(p, st->line, k->col, "duplicate key 'lat' in op");
      return err_at(p, st->line, k->col, "unknown op key '%.*s'", TQ(p, k));
    }
    if (which > 0 && seen[which])
      return err_at(p, st->line, k->col, "duplicate key '%s' in op",
                    op_keys[which]);
    seen[which] = 1;
    const tok *val = i + 1 < st->ntok ? &t[i + 1] : NULL;
    op = &p->g->ops[v];
    if (which == 0) {
      if (!val)
        return err_at(p, st->line, st->endcol,
                      "expected UNIT[@OFFSET][:CYCLES][xCOUNT] after 'use'");
      if (parse_use(p, st, v, val)) return -1;
    } else if (which <= 4) {
      long long x;
      if (tok_int(p, st, val, TWILL_GIO_LONG_MAX, which == 1   ? "'regs'"
                                                  : which == 2 ? "'smem'"
                                                  : which == 3 ? "'tmem'"
                                                               : "'spill'",
                  op_keys[which], &x))
        return -1;
      if (which == 1) op->regs = (long)x;
      else if (which == 2) op->smem = (long)x;
      else if (which == 3) op->tmem = (long)x;
      else op->spill = (long)x, spill_col = k->col;
    } else if (which == 5) {
      if (!val)
        return err_at(p, st->line, st->endcol,
                      "expected thread, warp or warpgroup after 'issue'");
      if (twill_gio_issue_parse(p->s + val->off, val->len, &op->issue))
        return err_at(p, st->line, val->col,
                      "expected thread, warp or warpgroup after 'issue', got "
                      "'%.*s'",
                      TQ(p, val));
    } else if (which == 6) {
      if (yes_no(p, st, k, val, &op->varlat)) return -1;
    } else {
      long long x;
      if (tok_int(p, st, val, 4, "'groups'", "warpgroup count", &x)) return -1;
      if (x != 1 && x != 2 && x != 4)
        return err_at(p, st->line, val->col,
                      "'groups' must be 1, 2 or 4, got %lld", x);
      op->groups = (int)x;
      groups_col = k->col;
    }
  }
  if (op->groups > 1 && op->issue != TWILL_ISSUE_WARPGROUP)
    return err_at(p, st->line, groups_col,
                  "'groups %d' needs 'issue warpgroup'", op->groups);
  /* spill is the cost of moving a register value to another warp (the
   * model in twill/joint.h); on a result that keeps no registers it would
   * be silently ignored, so it is an error */
  if (spill_col && op->regs <= 0)
    return err_at(p, st->line, spill_col,
                  "spill has no effect on an op that keeps no registers");
  return 0;
}

static int find_op_tok(tp *p, const stmt *st, const tok *t, int *out) {
  char name[TWILL_GIO_NAME_MAX + 1];
  if (!twill_gio_name_ok(p->s + t->off, t->len))
    return err_at(p, st->line, t->col, "invalid op name '%.*s'", TQ(p, t));
  memcpy(name, p->s + t->off, t->len);
  name[t->len] = '\0';
  *out = twill_gio_names_find(&p->names, p->g, name, t->len);
  if (*out < 0)
    return err_at(p, st->line, t->col, "unknown op '%s' in edge", name);
  return 0;
}

static int st_edge(tp *p, const stmt *st) {
  tok *t = &p->toks[st->first];
  int src, dst;
  if (st->ntok < 2)
    return err_at(p, st->line, st->endcol,
                  "expected a source op after 'edge'");
  if (find_op_tok(p, st, &t[1], &src)) return -1;
  if (st->ntok < 3)
    return err_at(p, st->line, st->endcol,
                  "expected a destination op after the source op");
  if (find_op_tok(p, st, &t[2], &dst)) return -1;
  long long lat = p->g->ops[src].lat, dist = 0;
  bool blocking = false;
  int seen[3] = {0};
  for (int i = 3; i < st->ntok; i += 2) {
    const tok *k = &t[i];
    const tok *val = i + 1 < st->ntok ? &t[i + 1] : NULL;
    int which = tok_is(p, k, "lat")        ? 0
                : tok_is(p, k, "dist")     ? 1
                : tok_is(p, k, "blocking") ? 2
                                           : -1;
    if (which < 0)
      return err_at(p, st->line, k->col, "unknown edge key '%.*s'", TQ(p, k));
    if (seen[which])
      return err_at(p, st->line, k->col, "duplicate key '%.*s' in edge",
                    TQ(p, k));
    seen[which] = 1;
    if (which == 0) {
      if (tok_int(p, st, val, TWILL_GIO_LONG_MAX, "'lat'", "latency", &lat))
        return -1;
    } else if (which == 1) {
      if (tok_int(p, st, val, TWILL_GIO_INT_MAX, "'dist'", "distance", &dist))
        return -1;
    } else if (yes_no(p, st, k, val, &blocking)) {
      return -1;
    }
  }
  int e = twill_graph_add_edge(p->g, src, dst, (long)lat, (int)dist);
  if (e < 0) return oom(p);
  p->g->edges[e].blocking = blocking;
  p->g->edges[e].line = st->line;
  return 0;
}

/* Uses that need more instances than a declared unit has. */
static int check_counts(tp *p) {
  for (int i = 0; i < p->nuses; i++) {
    const use_pos *up = &p->uses[i];
    const twill_use *us = &p->g->ops[up->op].uses[up->use];
    const twill_unit *un = &p->g->units[us->unit];
    if (un->declared && us->count > un->capacity)
      return err_at(p, up->line, up->col,
                    "unit '%s' used with count %d but its capacity is %d "
                    "(declared at line %d)",
                    un->name, us->count, un->capacity,
                    us->unit < p->cap_udl ? p->unit_decl_line[us->unit] : 0);
  }
  return 0;
}

static int parse_all(tp *p) {
  if (tokenize(p)) return -1;
  if (p->nstmts == 0)
    return err_at(p, p->eof_line, p->eof_col, "missing 'kernel' line");
  const stmt *k0 = &p->stmts[0];
  if (!tok_is(p, &p->toks[k0->first], "kernel"))
    return err_at(p, k0->line, p->toks[k0->first].col,
                  "'kernel' must come first");
  if (st_kernel(p, k0)) return -1;
  /* Pass 1: directives and unit declarations. */
  for (int i = 1; i < p->nstmts; i++) {
    const stmt *st = &p->stmts[i];
    const tok *t0 = &p->toks[st->first];
    if (tok_is(p, t0, "kernel"))
      return err_at(p, st->line, t0->col,
                    "duplicate 'kernel' line (first at line %d)", k0->line);
    if (tok_is(p, t0, "unit")) {
      if (st_unit(p, st)) return -1;
    } else if (!tok_is(p, t0, "arch") && !tok_is(p, t0, "op") &&
               !tok_is(p, t0, "edge")) {
      return err_at(p, st->line, t0->col, "unknown directive '%.*s'",
                    TQ(p, t0));
    }
  }
  /* Pass 2: arch and ops; pass 3: edges. */
  int arch_line = 0;
  for (int i = 1; i < p->nstmts; i++) {
    const stmt *st = &p->stmts[i];
    const tok *t0 = &p->toks[st->first];
    if (tok_is(p, t0, "arch")) {
      if (st_arch(p, st, &arch_line)) return -1;
    } else if (tok_is(p, t0, "op")) {
      if (st_op(p, st)) return -1;
    }
  }
  for (int i = 1; i < p->nstmts; i++) {
    const stmt *st = &p->stmts[i];
    if (tok_is(p, &p->toks[st->first], "edge") && st_edge(p, st)) return -1;
  }
  if (check_counts(p)) return -1;
  if (twill_graph_validate(p->g, p->d)) {
    if (p->d) snprintf(p->d->file, sizeof p->d->file, "%s", p->file);
    return -1;
  }
  return 0;
}

twill_graph *twill_graph_parse_text(const char *text, size_t len,
                                    const char *file, twill_diag *d) {
  tp p;
  memset(&p, 0, sizeof p);
  p.s = text ? text : "";
  p.len = text ? len : 0;
  p.file = file ? file : "";
  p.d = d;
  int r = parse_all(&p);
  free(p.toks);
  free(p.stmts);
  free(p.uses);
  free(p.unit_decl_line);
  twill_gio_names_free(&p.names);
  if (r) {
    twill_graph_free(p.g);
    return NULL;
  }
  return p.g;
}
