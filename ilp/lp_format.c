/* ilp/lp_format.c: reader of the CPLEX LP format (the format `glpsol --lp`,
 * cbc and HiGHS read), for LPs and MIPs.
 *
 * Sources: the CPLEX File Formats Reference ("LP file format": objective,
 * constraints, bounds, variable names) and Appendix C "CPLEX LP format" of
 * the GLPK reference manual.  What is read, as a grammar over tokens
 * (keywords case-insensitive, names case-sensitive):
 *
 *   file       := objective section* ['end']
 *   objective  := ('minimize'|'minimum'|'min'|'maximize'|'maximum'|'max')
 *                 [NAME ':'] sum
 *   section    := st constraint*          st := 'subject' 'to' | 'such' 'that'
 *                                                | 'st' | 's.t.' | 'st.'
 *               | ('bounds'|'bound') bound*
 *               | ('general'|'generals'|'gen'|'integer'|'integers'|'int') NAME*
 *               | ('binary'|'binaries'|'bin') NAME*
 *   constraint := [NAME ':'] sum SENSE const          (sum has a variable)
 *               | [NAME ':'] const SENSE sum          (reversed: sum SENSE' const)
 *               | [NAME ':'] const SENSE sum SENSE const   (ranged; both
 *                                              senses '<=' or both '>=')
 *   bound      := NAME 'free' | NAME SENSE value | value SENSE NAME
 *               | value SENSE NAME SENSE value   (both '<=' or both '>=')
 *   sum        := term (('+'|'-') term)*      term := ['+'|'-'] [NUMBER] NAME
 *                                                   | ['+'|'-'] NUMBER
 *   const      := ['+'|'-'] NUMBER            value := ['+'|'-'] (NUMBER |
 *                                                      'inf' | 'infinity')
 *   SENSE      := '<' | '<=' | '=<' | '>' | '>=' | '=>' | '='
 *
 * Lexical rules.  '\' starts a comment to the end of the line.  A NUMBER is
 * digits with an optional '.' and fraction and an optional exponent
 * (e, E, then an optional sign and digits); a NAME is a letter or one of
 * !"#$%&()/,;?@_`'{}|~ followed by those, digits and '.', so a name never
 * starts with a digit or '.', and a number directly followed by a name is a
 * coefficient and its variable (`3x`, `2.5e3y`, `3e1x` = 30 x); a
 * coefficient and its variable may be on different lines.  Section keywords
 * count only as the first token of a line (GLPK's rule) and not before
 * ':' (`SOS1: x + y <= 1` is a constraint named SOS1), so they and
 * 'inf', 'infinity' and 'free' are reserved: not variable names.  Every
 * constraint begins on a new line (the first may follow 'subject to'), so
 * `x + y >= 3 z` is an error, not a constraint followed by `3 z`.
 *
 * Meaning.  Variables are created where first named, in that order, with
 * bounds [0, +inf) (CPLEX's default).  Constants in a sum are moved to the
 * right-hand side; in the objective they are its constant term.  Terms on
 * the same variable are summed.  Each bound line replaces the bound(s) it
 * states (the last one wins); 'x free' is [-inf, +inf]; a negative upper
 * bound leaves the lower bound at 0 (unlike MPS's UP rule: CPLEX and GLPK
 * do the same).  A variable in a binary section is integer with bounds
 * [0, 1], whatever the bounds section said (GLPK's rule); in a general
 * section it becomes integer with its bounds.  Numbers of magnitude
 * >= 1e30 are infinite, as in the MPS reader; only bound values may be.
 * Unnamed constraints are called c1, c2, ... by position, as CPLEX does.
 * The sections after the objective may come in any order and repeat.
 *
 * Rejected with file:line:col and a reason, never skipped: semi-continuous
 * and SOS sections, lazy constraints and user cuts, quadratic terms ('[',
 * '^', '*'), indicator constraints ('->'), a variable on the right-hand
 * side, anything after 'end'.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "reader.h"
#include "twill/io.h"

enum { T_EOF, T_ERR, T_NAME, T_NUM, T_SIGN, T_SENSE, T_COLON };

typedef struct {
  int t;
  const char *s; /* the lexeme */
  size_t n;
  int line, col;
  int bol;       /* the first token of its line */
  double v;      /* T_NUM */
  char c;        /* T_SIGN: '+' '-'; T_SENSE: 'L' 'G' 'E' */
  const char *msg; /* T_ERR: what is wrong */
} tok;

#define LOOK 3

typedef struct {
  const char *text, *file;
  size_t len, pos;
  int line, lstart;    /* current line and the offset where it starts */
  int last_line;       /* line of the last token lexed (for bol) */
  tok la[LOOK];        /* lookahead */
  int nla;
  char *err;
  size_t errlen;
  int failed;
  twill_ilp *m;
  ilp_names vars, rows;
  /* a sum being read */
  int *idx;
  double *val;
  int nterm, tcap;
} lpp;

/* ---- diagnostics ---- */

static int fail_at(lpp *p, const tok *t, const char *fmt, ...) {
  if (p->failed) return 0;
  p->failed = 1;
  if (!p->err || !p->errlen) return 0;
  int k = snprintf(p->err, p->errlen, "%s:%d:%d: ", p->file, t->line, t->col);
  if (k < 0 || (size_t)k >= p->errlen) return 0;
  if (t->t == T_ERR) {
    /* the token itself is malformed: say that, not what was expected */
    unsigned char c = (unsigned char)t->s[0];
    if (t->msg)
      snprintf(p->err + k, p->errlen - (size_t)k, "%s", t->msg);
    else if (c > 0x20 && c < 0x7f)
      snprintf(p->err + k, p->errlen - (size_t)k, "unexpected character '%c'", c);
    else
      snprintf(p->err + k, p->errlen - (size_t)k, "unexpected byte 0x%02x", c);
    return 0;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err + k, p->errlen - (size_t)k, fmt, ap);
  va_end(ap);
  return 0;
}

/* The token as text for messages (at most 40 bytes, then "..."). */
static const char *show(const tok *t, char *buf, size_t n) {
  if (t->t == T_EOF) return "end of file";
  size_t l = t->n < 40 ? t->n : 40;
  if (l > n - 4) l = n - 4;
  snprintf(buf, n, "%.*s%s", (int)l, t->s, t->n > l ? "..." : "");
  return buf;
}

/* ---- lexer ---- */

static int name_start(unsigned char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return 1;
  return c && strchr("!\"#$%&()/,;?@_`'{}|~", c) != NULL;
}
static int name_char(unsigned char c) {
  return name_start(c) || (c >= '0' && c <= '9') || c == '.';
}
static int digit(unsigned char c) { return c >= '0' && c <= '9'; }

static void lex(lpp *p, tok *t) {
  const char *s = p->text;
  size_t n = p->len;
  for (;;) {
    while (p->pos < n && (s[p->pos] == ' ' || s[p->pos] == '\t' || s[p->pos] == '\r' ||
                          s[p->pos] == '\f' || s[p->pos] == '\v'))
      p->pos++;
    if (p->pos < n && s[p->pos] == '\\') {
      while (p->pos < n && s[p->pos] != '\n') p->pos++;
      continue;
    }
    if (p->pos < n && s[p->pos] == '\n') {
      p->pos++;
      p->line++;
      p->lstart = (int)p->pos;
      continue;
    }
    break;
  }
  memset(t, 0, sizeof *t);
  t->line = p->line;
  t->col = (int)(p->pos - (size_t)p->lstart) + 1;
  t->bol = p->line != p->last_line;
  p->last_line = p->line;
  t->s = s + p->pos;
  if (p->pos >= n) {
    t->t = T_EOF;
    return;
  }
  size_t b = p->pos;
  unsigned char c = (unsigned char)s[b];
  if (digit(c) || (c == '.' && b + 1 < n && digit((unsigned char)s[b + 1]))) {
    size_t i = b;
    while (i < n && digit((unsigned char)s[i])) i++;
    if (i < n && s[i] == '.') {
      i++;
      while (i < n && digit((unsigned char)s[i])) i++;
    }
    /* an exponent only when digits follow: `2e` then `x` is 2 times ex */
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      size_t j = i + 1;
      if (j < n && (s[j] == '+' || s[j] == '-')) j++;
      if (j < n && digit((unsigned char)s[j])) {
        while (j < n && digit((unsigned char)s[j])) j++;
        i = j;
      }
    }
    char buf[128];
    t->n = i - b;
    p->pos = i;
    if (t->n >= sizeof buf) {
      t->t = T_ERR;
      t->msg = "number too long";
      return;
    }
    memcpy(buf, s + b, t->n);
    buf[t->n] = 0;
    errno = 0;
    double v = strtod(buf, NULL);
    if (errno == ERANGE && isinf(v)) {
      t->t = T_ERR;
      t->msg = "number out of range";
      return;
    }
    if (v >= 1e30) v = HUGE_VAL;
    t->t = T_NUM;
    t->v = v;
    return;
  }
  if (name_start(c)) {
    size_t i = b;
    while (i < n && name_char((unsigned char)s[i])) i++;
    t->t = T_NAME;
    t->n = i - b;
    p->pos = i;
    return;
  }
  p->pos++;
  t->n = 1;
  switch (c) {
  case '+': t->t = T_SIGN; t->c = '+'; return;
  case '-':
    if (p->pos < n && s[p->pos] == '>') {
      t->t = T_ERR;
      t->msg = "indicator constraints ('->') are not supported";
      return;
    }
    t->t = T_SIGN;
    t->c = '-';
    return;
  case ':': t->t = T_COLON; return;
  case '<':
    if (p->pos < n && s[p->pos] == '-') {
      t->t = T_ERR;
      t->msg = "indicator constraints ('<->') are not supported";
      return;
    }
    if (p->pos < n && s[p->pos] == '=') p->pos++;
    t->t = T_SENSE;
    t->c = 'L';
    break;
  case '>':
    if (p->pos < n && s[p->pos] == '=') p->pos++;
    t->t = T_SENSE;
    t->c = 'G';
    break;
  case '=':
    t->t = T_SENSE;
    t->c = 'E';
    if (p->pos < n && s[p->pos] == '<') { p->pos++; t->c = 'L'; }
    else if (p->pos < n && s[p->pos] == '>') { p->pos++; t->c = 'G'; }
    break;
  case '[': case ']': case '^': case '*':
    t->t = T_ERR;
    t->msg = "quadratic terms ('[', '^', '*') are not supported";
    return;
  case 0:
    t->t = T_ERR;
    t->msg = "NUL character";
    return;
  default:
    t->t = T_ERR; /* msg NULL: fail_at names the character */
    return;
  }
  t->n = p->pos - b;
}

static const tok *peek(lpp *p, int k) {
  while (p->nla <= k) lex(p, &p->la[p->nla++]);
  return &p->la[k];
}

static tok next(lpp *p) {
  peek(p, 0);
  tok t = p->la[0];
  memmove(p->la, p->la + 1, (size_t)(p->nla - 1) * sizeof *p->la);
  p->nla--;
  return t;
}

/* ---- keywords ---- */

static int is_word(const tok *t, const char *w) {
  if (t->t != T_NAME || t->n != strlen(w)) return 0;
  for (size_t i = 0; i < t->n; i++) {
    char c = t->s[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != w[i]) return 0;
  }
  return 1;
}

static int is_any(const tok *t, const char *const *ws) {
  for (; *ws; ws++)
    if (is_word(t, *ws)) return 1;
  return 0;
}

enum { S_NONE = -1, S_OBJ_MIN, S_OBJ_MAX, S_ST, S_BOUNDS, S_GEN, S_BIN, S_END, S_UNSUPPORTED };

static const char *const kw_min[] = {"minimize", "minimum", "min", NULL};
static const char *const kw_max[] = {"maximize", "maximum", "max", NULL};
static const char *const kw_st[] = {"st", "s.t.", "st.", NULL};
static const char *const kw_bounds[] = {"bounds", "bound", NULL};
static const char *const kw_gen[] = {"general", "generals", "gen", "integer", "integers", "int",
                                     NULL};
static const char *const kw_bin[] = {"binary", "binaries", "bin", NULL};
static const char *const kw_semi[] = {"semi", "semis", "semi-continuous", "semicontinuous", NULL};
static const char *const kw_sos[] = {"sos", "sos1", "sos2", NULL};
static const char *const kw_reserved[] = {"inf", "infinity", "free", NULL};

/* The section keyword at lookahead position 0 (which must begin a line),
 * and how many tokens it spans. */
static int section_at(lpp *p, int *ntok) {
  const tok *t = peek(p, 0);
  *ntok = 1;
  /* a name followed by ':' is a label, even a keyword's (glpsol names
   * enigma's rows SOS0, SOS1, ...) */
  if (t->t != T_NAME || !t->bol || peek(p, 1)->t == T_COLON) return S_NONE;
  if (is_any(t, kw_min)) return S_OBJ_MIN;
  if (is_any(t, kw_max)) return S_OBJ_MAX;
  if (is_any(t, kw_st)) return S_ST;
  if ((is_word(t, "subject") && is_word(peek(p, 1), "to")) ||
      (is_word(t, "such") && is_word(peek(p, 1), "that"))) {
    *ntok = 2;
    return S_ST;
  }
  if (is_any(t, kw_bounds)) return S_BOUNDS;
  if (is_any(t, kw_gen)) return S_GEN;
  if (is_any(t, kw_bin)) return S_BIN;
  if (is_word(t, "end")) return S_END;
  if (is_any(t, kw_semi) || is_any(t, kw_sos) ||
      (is_word(t, "lazy") && is_word(peek(p, 1), "constraints")) ||
      (is_word(t, "user") && is_word(peek(p, 1), "cuts")))
    return S_UNSUPPORTED;
  return S_NONE;
}

static int at_section(lpp *p) {
  int k;
  return peek(p, 0)->t == T_EOF || section_at(p, &k) != S_NONE;
}

/* A name at lookahead k that can be a variable: not a constraint label
 * (followed by ':'), not a reserved word, not a section keyword. */
static int var_at(lpp *p, int k) {
  const tok *t = peek(p, k);
  if (t->t != T_NAME || is_any(t, kw_reserved)) return 0;
  if (peek(p, k + 1)->t == T_COLON) return 0;
  if (k == 0 && t->bol) {
    int nt;
    if (section_at(p, &nt) != S_NONE) return 0;
  }
  return 1;
}

/* ---- model building ---- */

static int var_of(lpp *p, const tok *t) {
  int j = twill_ilp_names_find(&p->vars, t->s, t->n);
  if (j >= 0) return j;
  char *nm = malloc(t->n + 1);
  if (!nm) return fail_at(p, t, "out of memory"), -1;
  memcpy(nm, t->s, t->n);
  nm[t->n] = 0;
  j = twill_ilp_add_var(p->m, nm, TWILL_ILP_CONTINUOUS, 0, TWILL_ILP_INF, 0);
  free(nm);
  if (j < 0 || !twill_ilp_names_put(&p->vars, p->m->vname[j], j))
    return fail_at(p, t, "out of memory"), -1;
  return j;
}

static int push_term(lpp *p, const tok *at, int j, double v) {
  if (p->nterm == p->tcap) {
    int nc = p->tcap ? 2 * p->tcap : 64;
    int *ni = realloc(p->idx, (size_t)nc * sizeof *ni);
    if (!ni) return fail_at(p, at, "out of memory");
    p->idx = ni;
    double *nv = realloc(p->val, (size_t)nc * sizeof *nv);
    if (!nv) return fail_at(p, at, "out of memory");
    p->val = nv;
    p->tcap = nc;
  }
  p->idx[p->nterm] = j;
  p->val[p->nterm++] = v;
  return 1;
}

/* sum := term (('+'|'-') term)*.  Appends its variable terms to the
 * current sum (p->idx/val) and adds its constants to *c0; *nitems counts
 * the terms read (0: nothing that starts a term was there). */
static int parse_sum(lpp *p, double *c0, int *nitems) {
  *nitems = 0;
  for (;;) {
    const tok *t = peek(p, 0);
    double sign = 1;
    char sc = 0; /* the sign read, if any */
    if (t->t == T_SIGN) {
      sc = next(p).c;
      sign = sc == '-' ? -1 : 1;
    } else if (*nitems > 0) {
      return 1; /* a term without a sign: the sum ended before it */
    }
    t = peek(p, 0);
    if (t->t == T_NUM) {
      tok nt = next(p);
      if (isinf(nt.v)) return fail_at(p, &nt, "infinite coefficient or constant");
      if (var_at(p, 0)) {
        tok vt = next(p);
        int j = var_of(p, &vt);
        if (j < 0 || !push_term(p, &vt, j, sign * nt.v)) return 0;
      } else {
        *c0 += sign * nt.v;
      }
    } else if (var_at(p, 0)) {
      tok vt = next(p);
      int j = var_of(p, &vt);
      if (j < 0 || !push_term(p, &vt, j, sign)) return 0;
    } else if (!sc) {
      return 1; /* nothing here: an empty sum */
    } else {
      char b[64];
      if (t->t == T_NAME && is_any(t, kw_reserved))
        return fail_at(p, t, "'%s' is a keyword, not a variable or a number", show(t, b, sizeof b));
      return fail_at(p, t, "expected a number or a variable after '%c', got '%s'", sc,
                     show(t, b, sizeof b));
    }
    ++*nitems;
  }
}

/* const := ['+'|'-'] NUMBER; value also allows 'inf' and 'infinity'. */
static int parse_number(lpp *p, int allow_inf, double *v, tok *at) {
  double sign = 1;
  const tok *t = peek(p, 0);
  *at = *t;
  if (t->t == T_SIGN) {
    sign = next(p).c == '-' ? -1 : 1;
    t = peek(p, 0);
  }
  char b[64];
  if (t->t == T_NUM) {
    *v = sign * next(p).v;
  } else if (t->t == T_NAME && (is_word(t, "inf") || is_word(t, "infinity"))) {
    if (!allow_inf) return fail_at(p, t, "the right-hand side must be finite");
    next(p);
    *v = sign * HUGE_VAL;
  } else {
    return fail_at(p, t, allow_inf ? "expected a number or 'inf', got '%s'"
                                   : "expected a number (the right-hand side), got '%s'",
                   show(t, b, sizeof b));
  }
  if (!allow_inf && isinf(*v)) return fail_at(p, at, "the right-hand side must be finite");
  return 1;
}

static char flip(char s) { return s == 'L' ? 'G' : s == 'G' ? 'L' : 'E'; }

/* After a constraint or a bound: the next one begins on a new line. */
static int end_of_item(lpp *p, const char *what) {
  const tok *t = peek(p, 0);
  if (t->t == T_EOF || t->bol) return 1;
  char b[64];
  if (t->t == T_SENSE)
    return fail_at(p, t, "a second sense: a range is written 'lo <= expression <= hi' "
                         "with constants outside");
  return fail_at(p, t, "unexpected '%s' after the %s (each %s begins on a new line)",
                 show(t, b, sizeof b), what, what);
}

static int objective(lpp *p) {
  if (peek(p, 0)->t == T_NAME && peek(p, 1)->t == T_COLON) {
    next(p); /* the objective's name: not kept */
    next(p);
  }
  double c0 = 0;
  int items;
  p->nterm = 0;
  if (!parse_sum(p, &c0, &items)) return 0;
  for (int k = 0; k < p->nterm; k++) p->m->obj[p->idx[k]] += p->val[k];
  p->m->c0 = c0;
  if (!at_section(p)) {
    const tok *t = peek(p, 0);
    char b[64];
    if (t->t == T_SENSE)
      return fail_at(p, t, "a sense in the objective (is 'subject to' missing?)");
    return fail_at(p, t, "unexpected '%s' in the objective", show(t, b, sizeof b));
  }
  return 1;
}

static int add_row(lpp *p, const tok *at, const char *name, double lo, double hi) {
  if (twill_ilp_add_row_raw(p->m, name, p->nterm, p->idx, p->val, lo, hi) < 0)
    return fail_at(p, at, "out of memory");
  return 1;
}

static int constraint(lpp *p, int first) {
  const tok *t0 = peek(p, 0);
  tok start = *t0;
  char b[64];
  if (!first && !t0->bol)
    return fail_at(p, t0, "a constraint begins on a new line");
  char *name = NULL;
  char autoname[32];
  if (t0->t == T_NAME && peek(p, 1)->t == T_COLON) {
    tok nt = next(p);
    next(p);
    if (twill_ilp_names_find(&p->rows, nt.s, nt.n) >= 0)
      return fail_at(p, &nt, "duplicate constraint name '%s'", show(&nt, b, sizeof b));
    name = malloc(nt.n + 1);
    if (!name) return fail_at(p, &nt, "out of memory");
    memcpy(name, nt.s, nt.n);
    name[nt.n] = 0;
  } else {
    snprintf(autoname, sizeof autoname, "c%d", p->m->m + 1);
  }
  const char *rname = name ? name : autoname;
  int ok = 0;
  double c1 = 0, c2 = 0, rhs = 0, lo, hi;
  int items1, items2;
  p->nterm = 0;
  if (!parse_sum(p, &c1, &items1)) goto done;
  const tok *st = peek(p, 0);
  if (items1 == 0) {
    fail_at(p, st, "expected a linear expression, got '%s'", show(st, b, sizeof b));
    goto done;
  }
  if (st->t != T_SENSE) {
    fail_at(p, st, "expected '<=', '>=' or '=' and a right-hand side, got '%s'",
            show(st, b, sizeof b));
    goto done;
  }
  tok s1 = next(p);
  if (p->nterm > 0) {
    /* sum SENSE const */
    tok at;
    if (!parse_number(p, 0, &rhs, &at)) goto done;
    if (var_at(p, 0) && !peek(p, 0)->bol) {
      fail_at(p, peek(p, 0), "a variable on the right-hand side (move it to the left)");
      goto done;
    }
    rhs -= c1;
    lo = s1.c == 'L' ? -HUGE_VAL : rhs;
    hi = s1.c == 'G' ? HUGE_VAL : rhs;
  } else {
    /* const SENSE sum [SENSE const]: the variables are on the right */
    if (!parse_sum(p, &c2, &items2)) goto done;
    if (items2 == 0) {
      fail_at(p, peek(p, 0), "expected a linear expression, got '%s'",
              show(peek(p, 0), b, sizeof b));
      goto done;
    }
    const tok *s2p = peek(p, 0);
    if (s2p->t == T_SENSE && !s2p->bol) {
      tok s2 = next(p), at;
      if (s1.c != s2.c || s1.c == 'E') {
        fail_at(p, &s2, "a range needs two '<=' or two '>=' ('lo <= expression <= hi')");
        goto done;
      }
      if (!parse_number(p, 0, &rhs, &at)) goto done;
      double a = c1 - c2, z = rhs - c2;
      lo = s1.c == 'L' ? a : z;
      hi = s1.c == 'L' ? z : a;
    } else {
      char s = flip(s1.c);
      rhs = c1 - c2;
      lo = s == 'L' ? -HUGE_VAL : rhs;
      hi = s == 'G' ? HUGE_VAL : rhs;
    }
  }
  if (!end_of_item(p, "constraint")) goto done;
  if (!add_row(p, &start, rname, lo, hi)) goto done;
  if (name && !twill_ilp_names_put(&p->rows, p->m->rname[p->m->m - 1], p->m->m - 1)) {
    fail_at(p, &start, "out of memory");
    goto done;
  }
  ok = 1;
done:
  free(name);
  return ok;
}

/* One bound of var j: x SENSE v. */
static int set_bound(lpp *p, const tok *at, int j, char s, double v) {
  twill_ilp *m = p->m;
  if ((s != 'L' && v == HUGE_VAL) || (s != 'G' && v == -HUGE_VAL))
    return fail_at(p, at, "a bound of %s%s: the variable would have no value",
                   s == 'E' ? "= " : s == 'L' ? "<= " : ">= ", v > 0 ? "+inf" : "-inf");
  if (s == 'L' || s == 'E') m->vub[j] = v;
  if (s == 'G' || s == 'E') m->vlb[j] = v;
  return 1;
}

static int bound(lpp *p) {
  const tok *t = peek(p, 0);
  char b[64];
  if (var_at(p, 0)) {
    tok vt = next(p);
    int j = var_of(p, &vt);
    if (j < 0) return 0;
    if (is_word(peek(p, 0), "free") && !peek(p, 0)->bol) {
      next(p);
      p->m->vlb[j] = -HUGE_VAL;
      p->m->vub[j] = HUGE_VAL;
      return end_of_item(p, "bound");
    }
    const tok *s = peek(p, 0);
    if (s->t != T_SENSE || s->bol)
      return fail_at(p, s, "expected '<=', '>=', '=' or 'free' after '%s'", show(&vt, b, sizeof b));
    tok st = next(p), at;
    double v;
    if (!parse_number(p, 1, &v, &at) || !set_bound(p, &at, j, st.c, v)) return 0;
    return end_of_item(p, "bound");
  }
  if (t->t == T_SIGN || t->t == T_NUM || is_word(t, "inf") || is_word(t, "infinity")) {
    tok at1, at2;
    double v1, v2;
    if (!parse_number(p, 1, &v1, &at1)) return 0;
    const tok *s = peek(p, 0);
    if (s->t != T_SENSE)
      return fail_at(p, s, "expected '<=', '>=' or '=' (a bound is on one variable, "
                           "coefficient 1), got '%s'", show(s, b, sizeof b));
    tok s1 = next(p);
    if (!var_at(p, 0))
      return fail_at(p, peek(p, 0), "expected a variable, got '%s'", show(peek(p, 0), b, sizeof b));
    tok vt = next(p);
    int j = var_of(p, &vt);
    if (j < 0 || !set_bound(p, &at1, j, flip(s1.c), v1)) return 0;
    const tok *s2p = peek(p, 0);
    if (s2p->t == T_SENSE && !s2p->bol) {
      tok s2 = next(p);
      if (s2.c != s1.c || s1.c == 'E')
        return fail_at(p, &s2, "a double bound needs two '<=' or two '>=' ('l <= x <= u')");
      if (!parse_number(p, 1, &v2, &at2) || !set_bound(p, &at2, j, s2.c, v2)) return 0;
    }
    return end_of_item(p, "bound");
  }
  return fail_at(p, t, "expected a bound ('x <= u', 'l <= x <= u', 'x = v', 'x free'), got '%s'",
                 show(t, b, sizeof b));
}

static int type_list(lpp *p, int binary) {
  while (!at_section(p)) {
    const tok *t = peek(p, 0);
    char b[64];
    if (!var_at(p, 0))
      return fail_at(p, t, "expected a variable name, got '%s'", show(t, b, sizeof b));
    tok vt = next(p);
    int j = var_of(p, &vt);
    if (j < 0) return 0;
    if (binary) {
      p->m->vtype[j] = TWILL_ILP_BINARY;
      p->m->vlb[j] = 0;
      p->m->vub[j] = 1;
    } else {
      p->m->vtype[j] = TWILL_ILP_INTEGER;
    }
  }
  return 1;
}

static int parse_file(lpp *p) {
  int k, sec = section_at(p, &k);
  const tok *t = peek(p, 0);
  char b[64];
  if (sec != S_OBJ_MIN && sec != S_OBJ_MAX) {
    if (t->t == T_EOF) return fail_at(p, t, "empty file: expected 'minimize' or 'maximize'");
    if ((is_any(t, kw_min) || is_any(t, kw_max)) && peek(p, 1)->t == T_COLON)
      return fail_at(p, t, "'%s:' is lp_solve's LP format, not CPLEX's (write '%s' without "
                           "a colon, then the objective)", show(t, b, sizeof b),
                     is_any(t, kw_min) ? "minimize" : "maximize");
    return fail_at(p, t, "expected 'minimize' or 'maximize' (the objective comes first), got '%s'",
                   show(t, b, sizeof b));
  }
  p->m->maximize = sec == S_OBJ_MAX;
  next(p);
  if (!objective(p)) return 0;
  for (;;) {
    t = peek(p, 0);
    if (t->t == T_EOF) return 1;
    tok kt = *t;
    sec = section_at(p, &k);
    while (k--) next(p);
    switch (sec) {
    case S_OBJ_MIN: case S_OBJ_MAX:
      return fail_at(p, &kt, "a second objective");
    case S_ST:
      for (int first = 1; !at_section(p); first = 0)
        if (!constraint(p, first)) return 0;
      break;
    case S_BOUNDS:
      while (!at_section(p))
        if (!bound(p)) return 0;
      break;
    case S_GEN:
    case S_BIN:
      if (!type_list(p, sec == S_BIN)) return 0;
      break;
    case S_END:
      t = peek(p, 0);
      if (t->t != T_EOF)
        return fail_at(p, t, "'%s' after 'end' (only comments may follow it)", show(t, b, sizeof b));
      return 1;
    case S_UNSUPPORTED:
      if (is_any(&kt, kw_semi)) return fail_at(p, &kt, "semi-continuous variables are not supported");
      if (is_any(&kt, kw_sos)) return fail_at(p, &kt, "SOS constraints are not supported");
      return fail_at(p, &kt, "lazy constraints and user cuts are not supported");
    default:
      return fail_at(p, &kt, "internal error: no section at '%s'", show(&kt, b, sizeof b));
    }
  }
}

twill_ilp *twill_ilp_parse_lp(const char *text, size_t len, const char *file, char *err,
                              size_t errlen) {
  lpp P, *p = &P;
  memset(p, 0, sizeof P);
  p->text = text;
  p->len = len;
  p->file = file ? file : "<lp>";
  p->err = err;
  p->errlen = errlen;
  p->line = 1;
  p->last_line = 0;
  if (err && errlen) err[0] = 0;
  p->m = twill_ilp_new();
  int ok;
  if (!p->m) {
    tok t = {0};
    t.line = 1;
    t.col = 1;
    ok = fail_at(p, &t, "out of memory");
  } else {
    ok = parse_file(p);
  }
  twill_ilp_names_free(&p->vars);
  twill_ilp_names_free(&p->rows);
  free(p->idx);
  free(p->val);
  if (!ok) {
    twill_ilp_free(p->m);
    return NULL;
  }
  return p->m;
}

twill_ilp *twill_ilp_read_lp(const char *path, char *err, size_t errlen) {
  twill_diag d;
  size_t len = 0;
  char *buf = twill_read_file(path, &len, &d);
  if (!buf) {
    snprintf(err, errlen, "%s:0:0: %s", d.file, d.msg);
    return NULL;
  }
  twill_ilp *m =
      twill_ilp_parse_lp(buf, len, strcmp(path, "-") ? path : "<stdin>", err, errlen);
  free(buf);
  return m;
}
