/* arch/arch.c: machine descriptions and the .arch format (twill/arch.h). */
#include "twill/arch.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "twill/builtin.h"
#include "twill/io.h"
#include "twill/suggest.h"

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

twill_arch *twill_arch_new(const char *name) {
  twill_arch *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->name = dup_str(name ? name : "machine");
  if (!m->name) {
    free(m);
    return NULL;
  }
  /* Defaults shared by Hopper and Blackwell (their public specifications;
   * see arch/hopper.arch and arch/blackwell.arch). */
  m->warps = 16;
  m->warpgroup = 4;
  m->regs_per_sm = 65536;
  m->max_regs_thread = 255;
  m->reg_budget = 255;
  m->mma_issue = TWILL_ISSUE_WARP;
  return m;
}

void twill_arch_free(twill_arch *m) {
  if (!m) return;
  for (int i = 0; i < m->nunits; i++) free(m->units[i].name);
  for (int i = 0; i < m->nmems; i++) free(m->mems[i].name);
  free(m->units);
  free(m->mems);
  free(m->name);
  free(m);
}

int twill_arch_set_unit(twill_arch *m, const char *name, int capacity) {
  for (int i = 0; i < m->nunits; i++)
    if (!strcmp(m->units[i].name, name)) {
      m->units[i].capacity = capacity;
      return 0;
    }
  if (m->nunits == m->cap_units) {
    int nc = m->cap_units ? 2 * m->cap_units : 8;
    void *p = realloc(m->units, (size_t)nc * sizeof *m->units);
    if (!p) return -1;
    m->units = p;
    m->cap_units = nc;
  }
  char *n = dup_str(name);
  if (!n) return -1;
  m->units[m->nunits].name = n;
  m->units[m->nunits].capacity = capacity;
  m->nunits++;
  return 0;
}

int twill_arch_set_mem(twill_arch *m, const char *name, long capacity) {
  for (int i = 0; i < m->nmems; i++)
    if (!strcmp(m->mems[i].name, name)) {
      m->mems[i].capacity = capacity;
      return 0;
    }
  if (m->nmems == m->cap_mems) {
    int nc = m->cap_mems ? 2 * m->cap_mems : 4;
    void *p = realloc(m->mems, (size_t)nc * sizeof *m->mems);
    if (!p) return -1;
    m->mems = p;
    m->cap_mems = nc;
  }
  char *n = dup_str(name);
  if (!n) return -1;
  m->mems[m->nmems].name = n;
  m->mems[m->nmems].capacity = capacity;
  m->nmems++;
  return 0;
}

int twill_arch_unit_cap(const twill_arch *m, const char *name) {
  for (int i = 0; i < m->nunits; i++)
    if (!strcmp(m->units[i].name, name)) return m->units[i].capacity;
  return -1;
}

long twill_arch_mem_cap(const twill_arch *m, const char *name) {
  for (int i = 0; i < m->nmems; i++)
    if (!strcmp(m->mems[i].name, name)) return m->mems[i].capacity;
  return -1;
}

twill_arch *twill_arch_clone(const twill_arch *m) {
  twill_arch *c = twill_arch_new(m->name);
  if (!c) return NULL;
  char *name = c->name;
  *c = *m;
  c->name = name;
  c->units = NULL;
  c->mems = NULL;
  c->nunits = c->nmems = c->cap_units = c->cap_mems = 0;
  for (int i = 0; i < m->nunits; i++)
    if (twill_arch_set_unit(c, m->units[i].name, m->units[i].capacity))
      goto fail;
  for (int i = 0; i < m->nmems; i++)
    if (twill_arch_set_mem(c, m->mems[i].name, m->mems[i].capacity))
      goto fail;
  return c;
fail:
  twill_arch_free(c);
  return NULL;
}

/* ---- parsing ----------------------------------------------------------- */

#define MAX_TOKS 8

typedef struct tok {
  const char *s;
  int len;
  int col;
} tok;

typedef struct lexer {
  const char *p, *end;
  int line;
  const char *file;
  twill_diag *d;
  int budget_line, budget_col; /* where reg_budget was set, for its check */
} lexer;

/* Split the next line into tokens; returns the count, or -1 at EOF, or -2
 * on a bad byte / too many tokens (d filled). */
static int next_line(lexer *lx, tok *t) {
  if (lx->p >= lx->end) return -1;
  lx->line++;
  const char *ls = lx->p;
  const char *le = memchr(ls, '\n', (size_t)(lx->end - ls));
  if (!le) le = lx->end;
  lx->p = le < lx->end ? le + 1 : le;
  int n = 0;
  const char *q = ls;
  while (q < le) {
    unsigned char c = (unsigned char)*q;
    if (c == '#') break;
    if (c == ' ' || c == '\t' || c == '\r') {
      q++;
      continue;
    }
    if (c < 32 || c > 126)
      return twill_diag_set(lx->d, lx->file, lx->line, (int)(q - ls) + 1,
                            "unexpected byte 0x%02x", c) - 1;
    const char *s = q;
    while (q < le && *q != ' ' && *q != '\t' && *q != '\r' && *q != '#')
      q++;
    if (n == MAX_TOKS)
      return twill_diag_set(lx->d, lx->file, lx->line, (int)(s - ls) + 1,
                            "too many fields") - 1;
    t[n].s = s;
    t[n].len = (int)(q - s);
    t[n].col = (int)(s - ls) + 1;
    n++;
  }
  return n;
}

static int tok_is(const tok *t, const char *w) {
  return (size_t)t->len == strlen(w) && !memcmp(t->s, w, (size_t)t->len);
}

static int tok_long(lexer *lx, const tok *t, const char *what, long lo,
                    long hi, long *out) {
  char buf[32];
  int ok = t->len > 0 && t->len < (int)sizeof buf;
  if (ok) {
    memcpy(buf, t->s, (size_t)t->len);
    buf[t->len] = 0;
    for (int i = 0; i < t->len; i++)
      if (!isdigit((unsigned char)buf[i]) && !(i == 0 && buf[i] == '-'))
        ok = 0;
  }
  if (!ok)
    return twill_diag_set(lx->d, lx->file, lx->line, t->col,
                          "expected an integer for %s, got '%.*s'", what,
                          t->len > 40 ? 40 : t->len, t->s);
  errno = 0;
  long v = strtol(buf, NULL, 10);
  if (errno || v < lo || v > hi)
    return twill_diag_set(lx->d, lx->file, lx->line, t->col,
                          "%s must be in [%ld, %ld], got %s", what, lo, hi,
                          buf);
  *out = v;
  return 0;
}

static int tok_name(lexer *lx, const tok *t, char *buf, size_t n) {
  if ((size_t)t->len >= n)
    return twill_diag_set(lx->d, lx->file, lx->line, t->col,
                          "name too long (%d bytes, at most %zu)", t->len,
                          n - 1);
  for (int i = 0; i < t->len; i++) {
    unsigned char c = (unsigned char)t->s[i];
    if (!isalnum(c) && c != '_' && c != '-' && c != '.')
      return twill_diag_set(lx->d, lx->file, lx->line, t->col + i,
                            "bad character '%c' in name", c);
  }
  memcpy(buf, t->s, (size_t)t->len);
  buf[t->len] = 0;
  return 0;
}

static int expect_args(lexer *lx, const tok *t, int n, int want) {
  if (n == want) return 0;
  if (n < want)
    return twill_diag_set(lx->d, lx->file, lx->line, t[n - 1].col + t[n - 1].len,
                          "'%.*s' needs %d value%s", t[0].len, t[0].s,
                          want - 1, want == 2 ? "" : "s");
  return twill_diag_set(lx->d, lx->file, lx->line, t[want].col,
                        "unexpected '%.*s' after '%.*s'",
                        t[want].len > 40 ? 40 : t[want].len, t[want].s,
                        t[0].len, t[0].s);
}

/* One key line (everything but `arch`).  Returns 0 or -1 (d filled). */
static int parse_key(lexer *lx, twill_arch *m, const tok *t, int n) {
  char name[64];
  long v, lo, hi, st;
  if (tok_is(&t[0], "unit")) {
    if (expect_args(lx, t, n, 3) || tok_name(lx, &t[1], name, sizeof name) ||
        tok_long(lx, &t[2], "a unit capacity", 1, 1000000, &v))
      return -1;
    for (int i = 0; i < m->nunits; i++)
      if (!strcmp(m->units[i].name, name))
        return twill_diag_set(lx->d, lx->file, lx->line, t[1].col,
                              "unit '%s' declared twice", name);
    return twill_arch_set_unit(m, name, (int)v)
               ? twill_diag_set(lx->d, lx->file, lx->line, 0, "out of memory")
               : 0;
  }
  if (tok_is(&t[0], "memory")) {
    if (expect_args(lx, t, n, 3) || tok_name(lx, &t[1], name, sizeof name) ||
        tok_long(lx, &t[2], "a memory capacity", 1, 1000000000000L, &v))
      return -1;
    if (twill_arch_mem_cap(m, name) >= 0)
      return twill_diag_set(lx->d, lx->file, lx->line, t[1].col,
                            "memory '%s' declared twice", name);
    return twill_arch_set_mem(m, name, v)
               ? twill_diag_set(lx->d, lx->file, lx->line, 0, "out of memory")
               : 0;
  }
  if (tok_is(&t[0], "setmaxnreg")) {
    if (expect_args(lx, t, n, 4) ||
        tok_long(lx, &t[1], "setmaxnreg low", 0, 255, &lo) ||
        tok_long(lx, &t[2], "setmaxnreg high", 0, 256, &hi) ||
        tok_long(lx, &t[3], "setmaxnreg step", 0, 256, &st))
      return -1;
    if (lo > hi || (hi && !st))
      return twill_diag_set(lx->d, lx->file, lx->line, t[1].col,
                            "setmaxnreg needs low <= high and a step");
    m->setmaxnreg_lo = (int)lo;
    m->setmaxnreg_hi = (int)hi;
    m->setmaxnreg_step = (int)st;
    return 0;
  }
  if (tok_is(&t[0], "mma_issue")) {
    if (expect_args(lx, t, n, 2)) return -1;
    if (tok_is(&t[1], "thread"))
      m->mma_issue = TWILL_ISSUE_THREAD;
    else if (tok_is(&t[1], "warp"))
      m->mma_issue = TWILL_ISSUE_WARP;
    else if (tok_is(&t[1], "warpgroup"))
      m->mma_issue = TWILL_ISSUE_WARPGROUP;
    else
      return twill_diag_set(lx->d, lx->file, lx->line, t[1].col,
                            "mma_issue must be thread, warp or warpgroup");
    return 0;
  }
  static const struct {
    const char *key;
    long lo, hi;
  } ints[] = {{"clock_mhz", 1, 100000},    {"warps", 1, 64},
              {"warpgroup", 1, 64},        {"regs_per_sm", 1, 16777216},
              {"max_regs_thread", 1, 65536}, {"reg_budget", 1, 65536},
              {"cross_warp", 0, 1000000000}};
  for (size_t k = 0; k < sizeof ints / sizeof *ints; k++) {
    if (!tok_is(&t[0], ints[k].key)) continue;
    if (expect_args(lx, t, n, 2) ||
        tok_long(lx, &t[1], ints[k].key, ints[k].lo, ints[k].hi, &v))
      return -1;
    switch (k) {
      case 0: m->clock_mhz = v; break;
      case 1: m->warps = (int)v; break;
      case 2: m->warpgroup = (int)v; break;
      case 3: m->regs_per_sm = v; break;
      case 4: m->max_regs_thread = (int)v; break;
      case 5:
        m->reg_budget = (int)v;
        lx->budget_line = lx->line;
        lx->budget_col = t[1].col;
        break;
      default: m->cross_warp = v; break;
    }
    return 0;
  }
  return twill_diag_set(lx->d, lx->file, lx->line, t[0].col,
                        "unknown key '%.*s'", t[0].len > 40 ? 40 : t[0].len,
                        t[0].s);
}

twill_arch *twill_arch_parse(const char *text, size_t len, const char *file,
                             twill_diag *d) {
  lexer lx = {text, text + len, 0, file ? file : "<arch>", d, 0, 0};
  tok t[MAX_TOKS];
  twill_arch *m = NULL;
  int n;
  while ((n = next_line(&lx, t)) != -1) {
    if (n < -1) goto fail;
    if (n == 0) continue;
    if (!m) {
      char name[64];
      if (!tok_is(&t[0], "arch")) {
        twill_diag_set(d, lx.file, lx.line, t[0].col,
                       "expected 'arch NAME' first, got '%.*s'",
                       t[0].len > 40 ? 40 : t[0].len, t[0].s);
        goto fail;
      }
      if (expect_args(&lx, t, n, 2) || tok_name(&lx, &t[1], name, sizeof name))
        goto fail;
      m = twill_arch_new(name);
      if (!m) {
        twill_diag_set(d, lx.file, lx.line, 0, "out of memory");
        goto fail;
      }
      continue;
    }
    if (tok_is(&t[0], "arch")) {
      twill_diag_set(d, lx.file, lx.line, t[0].col, "second 'arch' line");
      goto fail;
    }
    if (parse_key(&lx, m, t, n)) goto fail;
  }
  if (!m) {
    twill_diag_set(d, lx.file, lx.line + 1, 1,
                   "missing 'arch NAME' line (empty machine file)");
    return NULL;
  }
  if (m->reg_budget > m->max_regs_thread) {
    twill_diag_set(d, lx.file, lx.budget_line, lx.budget_col,
                   "reg_budget %d exceeds max_regs_thread %d", m->reg_budget,
                   m->max_regs_thread);
    goto fail;
  }
  return m;
fail:
  twill_arch_free(m);
  return NULL;
}

const char *twill_arch_builtin_text(const char *name) {
  for (const twill_builtin_file *a = twill_builtin_archs; a->name; a++)
    if (!strcmp(a->name, name)) return a->text;
  return NULL;
}

int twill_arch_builtin_count(void) {
  int n = 0;
  while (twill_builtin_archs[n].name) n++;
  return n;
}

const char *twill_arch_builtin_name(int i) {
  return i >= 0 && i < twill_arch_builtin_count() ? twill_builtin_archs[i].name
                                                  : NULL;
}

/* A bare word that names no built-in and no file is an unknown machine
 * (with the closest built-in name when it looks like a typo of one); a path
 * (it has a '/') or a file that exists but cannot be read says why. */
static void unknown_machine(const char *name, twill_diag *d) {
  char known[128] = "";
  size_t k = 0;
  twill_suggest s;
  twill_suggest_init(&s, name);
  /* the default machine first (hopper), then the others in table order */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < twill_arch_builtin_count(); i++) {
      const char *b = twill_arch_builtin_name(i);
      if ((pass == 0) != !strcmp(b, "hopper")) continue;
      twill_suggest_add(&s, b);
      int w = snprintf(known + k, sizeof known - k, "%s%s", k ? ", " : "", b);
      if (w > 0 && (size_t)w < sizeof known - k) k += (size_t)w;
    }
  const char *best = twill_suggest_best(&s);
  twill_diag_set(d, "", 0, 0, "unknown machine '%.64s' (known: %s)%s%s%s", name,
                 known, best ? "; did you mean '" : "", best ? best : "",
                 best ? "'?" : "");
}

twill_arch *twill_arch_load(const char *name_or_path, twill_diag *d) {
  const char *text = twill_arch_builtin_text(name_or_path);
  if (text) {
    char file[96];
    snprintf(file, sizeof file, "<builtin>/%s.arch", name_or_path);
    return twill_arch_parse(text, strlen(text), file, d);
  }
  if (!strchr(name_or_path, '/') && strcmp(name_or_path, "-") &&
      access(name_or_path, F_OK) != 0 && errno == ENOENT) {
    unknown_machine(name_or_path, d);
    return NULL;
  }
  size_t n = 0;
  char *buf = twill_read_file(name_or_path, &n, d);
  if (!buf) {
    char why[TWILL_DIAG_MSG];
    const char *r = d ? d->msg : "";
    if (!strncmp(r, "cannot open: ", 13)) r += 13;
    snprintf(why, sizeof why, "%s", r);
    twill_diag_set(d, name_or_path, 0, 0,
                   "not a built-in machine (hopper, blackwell) and cannot be "
                   "opened: %s",
                   why);
    return NULL;
  }
  twill_arch *m = twill_arch_parse(buf, n, name_or_path, d);
  free(buf);
  return m;
}

int twill_arch_print(const twill_arch *m, FILE *f) {
  static const char *issue[] = {"warp", "thread", "warpgroup"};
  fprintf(f, "arch %s\n", m->name);
  if (m->clock_mhz) fprintf(f, "clock_mhz %ld\n", m->clock_mhz);
  for (int i = 0; i < m->nunits; i++)
    fprintf(f, "unit %s %d\n", m->units[i].name, m->units[i].capacity);
  for (int i = 0; i < m->nmems; i++)
    fprintf(f, "memory %s %ld\n", m->mems[i].name, m->mems[i].capacity);
  fprintf(f, "warps %d\nwarpgroup %d\nregs_per_sm %ld\nmax_regs_thread %d\n",
          m->warps, m->warpgroup, m->regs_per_sm, m->max_regs_thread);
  fprintf(f, "reg_budget %d\n", m->reg_budget);
  fprintf(f, "setmaxnreg %d %d %d\n", m->setmaxnreg_lo, m->setmaxnreg_hi,
          m->setmaxnreg_step);
  fprintf(f, "cross_warp %ld\nmma_issue %s\n", m->cross_warp,
          issue[m->mma_issue]);
  return ferror(f) ? -1 : 0;
}
