/* graph/formats/hatschet.c: HatScheT instances (GraphML + resource model XML) to
 * twill kernels (twill/formats.h).
 *
 * Two parts: a small XML reader that builds an element tree (only what the
 * HatScheT files use; everything else is an error with file:line:col), and
 * the mapping from the two trees to a twill_graph.
 */
#include "twill/formats.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "twill/io.h"

/* ======================================================================
 * XML reader
 * ====================================================================== */

#define XML_MAX_DEPTH 256
#define XML_MAX_NAME 256

typedef struct xattr {
  char *name;  /* qualified name as written */
  char *value; /* entities decoded */
  int line, col;   /* of the name */
  int vline, vcol; /* of the opening quote */
} xattr;

typedef struct xelem {
  char *name;        /* qualified name as written */
  const char *local; /* after the last ':' (points into name) */
  int line, col;     /* of the '<' */
  xattr *attrs;
  int nattrs, cattrs;
  struct xelem **kids;
  int nkids, ckids;
  char *text; /* direct character data, decoded, NUL-terminated */
  size_t tlen, tcap;
  int tline, tcol; /* where the first character data starts */
} xelem;

typedef struct xp {
  const char *s;
  size_t n, i;
  int line, col;
  const char *file;
  twill_diag *d;
} xp;

static int xerr(xp *p, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int xerr(xp *p, int line, int col, const char *fmt, ...) {
  if (!p->d) return -1;
  char msg[TWILL_DIAG_MSG];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return twill_diag_set(p->d, p->file, line, col, "%s", msg);
}

static int xoom(xp *p) {
  return xerr(p, p->line, p->col, "out of memory");
}

static void xelem_free(xelem *e) {
  if (!e) return;
  free(e->name);
  for (int i = 0; i < e->nattrs; i++) {
    free(e->attrs[i].name);
    free(e->attrs[i].value);
  }
  free(e->attrs);
  for (int i = 0; i < e->nkids; i++) xelem_free(e->kids[i]);
  free(e->kids);
  free(e->text);
  free(e);
}

static int at_end(const xp *p) { return p->i >= p->n; }
static int cur(const xp *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }
static int starts(const xp *p, const char *lit) {
  size_t k = strlen(lit);
  return p->n - p->i >= k && !memcmp(p->s + p->i, lit, k);
}

static void adv(xp *p) {
  if (p->i >= p->n) return;
  if (p->s[p->i] == '\n') {
    p->line++;
    p->col = 1;
  } else {
    p->col++;
  }
  p->i++;
}

static void adv_n(xp *p, size_t k) {
  while (k--) adv(p);
}

static int is_ws(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static void skip_ws(xp *p) {
  while (!at_end(p) && is_ws(cur(p))) adv(p);
}

static int name_start(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == ':' || c >= 0x80;
}
static int name_char(int c) {
  return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* Growing byte buffer. */
typedef struct buf {
  char *s;
  size_t n, cap;
} buf;

static int buf_put(buf *b, const char *s, size_t k) {
  if (b->n + k + 1 > b->cap) {
    size_t nc = b->cap ? b->cap : 32;
    while (nc < b->n + k + 1) nc *= 2;
    char *t = realloc(b->s, nc);
    if (!t) return -1;
    b->s = t;
    b->cap = nc;
  }
  memcpy(b->s + b->n, s, k);
  b->n += k;
  b->s[b->n] = '\0';
  return 0;
}

/* Printable excerpt of up to 32 bytes at the cursor, for messages. */
static const char *excerpt(const xp *p, char *out, size_t cap) {
  size_t k = 0;
  for (size_t j = p->i; j < p->n && k + 1 < cap && k < 32; j++) {
    unsigned char c = (unsigned char)p->s[j];
    if (c == '\n' || c == '\r') break;
    out[k++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  out[k] = '\0';
  return out;
}

/* A name at the cursor into *out (malloc'd). */
static int read_name(xp *p, char **out, const char *what) {
  int line = p->line, col = p->col;
  size_t start = p->i;
  if (at_end(p) || !name_start(cur(p))) {
    char ex[40];
    if (at_end(p))
      return xerr(p, line, col, "expected %s, got end of input", what);
    return xerr(p, line, col, "expected %s, got '%s'", what,
                excerpt(p, ex, sizeof ex));
  }
  while (!at_end(p) && name_char(cur(p))) adv(p);
  size_t k = p->i - start;
  if (k > XML_MAX_NAME)
    return xerr(p, line, col, "%s is longer than %d bytes", what, XML_MAX_NAME);
  char *s = malloc(k + 1);
  if (!s) return xoom(p);
  memcpy(s, p->s + start, k);
  s[k] = '\0';
  *out = s;
  return 0;
}

static int put_utf8(buf *b, unsigned long cp) {
  char u[4];
  size_t k;
  if (cp < 0x80) {
    u[0] = (char)cp;
    k = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xC0 | (cp >> 6));
    u[1] = (char)(0x80 | (cp & 0x3F));
    k = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xE0 | (cp >> 12));
    u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[2] = (char)(0x80 | (cp & 0x3F));
    k = 3;
  } else {
    u[0] = (char)(0xF0 | (cp >> 18));
    u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[3] = (char)(0x80 | (cp & 0x3F));
    k = 4;
  }
  return buf_put(b, u, k);
}

/* An entity or character reference at the cursor ('&'), appended to b. */
static int read_ref(xp *p, buf *b) {
  int line = p->line, col = p->col;
  adv(p); /* & */
  size_t start = p->i;
  while (!at_end(p) && cur(p) != ';' && p->i - start < 12 &&
         (name_char(cur(p)) || cur(p) == '#'))
    adv(p);
  if (at_end(p) || cur(p) != ';')
    return xerr(p, line, col,
                "unterminated entity reference (a literal '&' must be "
                "written &amp;)");
  size_t k = p->i - start;
  const char *e = p->s + start;
  adv(p); /* ; */
  static const struct {
    const char *name;
    char c;
  } ents[] = {{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'},
              {"apos", '\''}};
  for (size_t j = 0; j < sizeof ents / sizeof ents[0]; j++)
    if (strlen(ents[j].name) == k && !memcmp(ents[j].name, e, k))
      return buf_put(b, &ents[j].c, 1) ? xoom(p) : 0;
  if (k >= 2 && e[0] == '#') {
    unsigned long cp = 0;
    int hex = e[1] == 'x';
    size_t j = hex ? 2 : 1;
    if (j == k) goto bad_char;
    for (; j < k; j++) {
      int c = (unsigned char)e[j], v;
      if (c >= '0' && c <= '9') v = c - '0';
      else if (hex && c >= 'a' && c <= 'f') v = c - 'a' + 10;
      else if (hex && c >= 'A' && c <= 'F') v = c - 'A' + 10;
      else goto bad_char;
      cp = cp * (hex ? 16 : 10) + (unsigned long)v;
      if (cp > 0x10FFFF) goto bad_char;
    }
    if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) goto bad_char;
    return put_utf8(b, cp) ? xoom(p) : 0;
  bad_char:
    return xerr(p, line, col, "invalid character reference '&%.*s;'",
                (int)k, e);
  }
  return xerr(p, line, col, "unknown entity '&%.*s;'", (int)k, e);
}

/* <?...?> or <!--...--> at the cursor. */
static int skip_pi(xp *p) {
  int line = p->line, col = p->col;
  adv_n(p, 2);
  while (!at_end(p) && !starts(p, "?>")) adv(p);
  if (at_end(p))
    return xerr(p, line, col, "unterminated processing instruction '<?'");
  adv_n(p, 2);
  return 0;
}

static int skip_comment(xp *p) {
  int line = p->line, col = p->col;
  adv_n(p, 4);
  while (!at_end(p) && !starts(p, "-->")) adv(p);
  if (at_end(p)) return xerr(p, line, col, "unterminated comment '<!--'");
  adv_n(p, 3);
  return 0;
}

static int unsupported_markup(xp *p) {
  if (starts(p, "<![CDATA["))
    return xerr(p, p->line, p->col, "CDATA sections are not supported");
  if (starts(p, "<!DOCTYPE"))
    return xerr(p, p->line, p->col, "DOCTYPE declarations are not supported");
  return xerr(p, p->line, p->col, "unsupported markup '<!'");
}

static int add_kid(xelem *e, xelem *k) {
  if (e->nkids == e->ckids) {
    int nc = e->ckids ? 2 * e->ckids : 4;
    xelem **t = realloc(e->kids, (size_t)nc * sizeof *t);
    if (!t) return -1;
    e->kids = t;
    e->ckids = nc;
  }
  e->kids[e->nkids++] = k;
  return 0;
}

static int read_attr(xp *p, xelem *e) {
  xattr a;
  memset(&a, 0, sizeof a);
  a.line = p->line;
  a.col = p->col;
  if (read_name(p, &a.name, "an attribute name")) return -1;
  for (int j = 0; j < e->nattrs; j++)
    if (!strcmp(e->attrs[j].name, a.name)) {
      xerr(p, a.line, a.col, "duplicate attribute '%s' in <%s>", a.name,
           e->name);
      free(a.name);
      return -1;
    }
  skip_ws(p);
  if (cur(p) != '=') {
    xerr(p, p->line, p->col, "expected '=' after attribute '%s'", a.name);
    free(a.name);
    return -1;
  }
  adv(p);
  skip_ws(p);
  int q = cur(p);
  if (q != '"' && q != '\'') {
    xerr(p, p->line, p->col,
         "expected a quoted value for attribute '%s'", a.name);
    free(a.name);
    return -1;
  }
  a.vline = p->line;
  a.vcol = p->col;
  adv(p);
  buf b = {0};
  if (buf_put(&b, "", 0)) goto oom;
  for (;;) {
    if (at_end(p)) {
      xerr(p, a.vline, a.vcol, "unterminated value of attribute '%s'",
           a.name);
      goto fail;
    }
    int c = cur(p);
    if (c == q) break;
    if (c == '<') {
      xerr(p, p->line, p->col, "'<' in the value of attribute '%s'", a.name);
      goto fail;
    }
    if (c == 0) {
      xerr(p, p->line, p->col, "NUL byte in the value of attribute '%s'",
           a.name);
      goto fail;
    }
    if (c == '&') {
      if (read_ref(p, &b)) goto fail;
      continue;
    }
    char ch = (char)c;
    if (buf_put(&b, &ch, 1)) goto oom;
    adv(p);
  }
  adv(p); /* closing quote */
  a.value = b.s;
  if (e->nattrs == e->cattrs) {
    int nc = e->cattrs ? 2 * e->cattrs : 4;
    xattr *t = realloc(e->attrs, (size_t)nc * sizeof *t);
    if (!t) {
      free(a.name);
      free(a.value);
      return xoom(p);
    }
    e->attrs = t;
    e->cattrs = nc;
  }
  e->attrs[e->nattrs++] = a;
  return 0;
oom:
  xoom(p);
fail:
  free(a.name);
  free(b.s);
  return -1;
}

static int read_element(xp *p, int depth, xelem **out);

/* Content of e up to and including its end tag. */
static int read_content(xp *p, xelem *e, int depth) {
  buf b = {0};
  for (;;) {
    if (at_end(p)) {
      free(b.s);
      return xerr(p, p->line, p->col,
                  "unexpected end of input: <%s> opened at %d:%d is not "
                  "closed",
                  e->name, e->line, e->col);
    }
    int c = cur(p);
    if (c == '<') {
      if (starts(p, "</")) {
        int line = p->line, col = p->col;
        adv_n(p, 2);
        char *nm = NULL;
        if (read_name(p, &nm, "an element name after '</'")) goto fail;
        skip_ws(p);
        if (cur(p) != '>') {
          free(nm);
          xerr(p, p->line, p->col, "expected '>' to end </%s", e->name);
          goto fail;
        }
        adv(p);
        if (strcmp(nm, e->name)) {
          xerr(p, line, col,
               "mismatched end tag </%s>: <%s> opened at %d:%d is still open",
               nm, e->name, e->line, e->col);
          free(nm);
          goto fail;
        }
        free(nm);
        break;
      }
      if (starts(p, "<!--")) {
        if (skip_comment(p)) goto fail;
        continue;
      }
      if (starts(p, "<?")) {
        if (skip_pi(p)) goto fail;
        continue;
      }
      if (starts(p, "<!")) {
        unsupported_markup(p);
        goto fail;
      }
      xelem *k = NULL;
      if (read_element(p, depth + 1, &k)) goto fail;
      if (add_kid(e, k)) {
        xelem_free(k);
        xoom(p);
        goto fail;
      }
      continue;
    }
    if (e->tline == 0 && !is_ws(c)) {
      e->tline = p->line;
      e->tcol = p->col;
    }
    if (c == '&') {
      if (read_ref(p, &b)) goto fail;
      continue;
    }
    if (c == 0) {
      xerr(p, p->line, p->col, "NUL byte in character data");
      goto fail;
    }
    if (c == '>' && p->i >= 2 && p->s[p->i - 1] == ']' &&
        p->s[p->i - 2] == ']') {
      xerr(p, p->line, p->col, "']]>' is not allowed in character data");
      goto fail;
    }
    char ch = (char)c;
    if (buf_put(&b, &ch, 1)) {
      xoom(p);
      goto fail;
    }
    adv(p);
  }
  e->text = b.s;
  e->tlen = b.n;
  e->tcap = b.cap;
  return 0;
fail:
  free(b.s);
  return -1;
}

static int read_element(xp *p, int depth, xelem **out) {
  if (depth > XML_MAX_DEPTH)
    return xerr(p, p->line, p->col, "elements nested deeper than %d",
                XML_MAX_DEPTH);
  xelem *e = calloc(1, sizeof *e);
  if (!e) return xoom(p);
  e->line = p->line;
  e->col = p->col;
  adv(p); /* < */
  if (read_name(p, &e->name, "an element name after '<'")) goto fail;
  const char *colon = strrchr(e->name, ':');
  e->local = colon ? colon + 1 : e->name;
  if (!*e->local) {
    xerr(p, e->line, e->col + 1, "element name '%s' has an empty local part",
         e->name);
    goto fail;
  }
  for (;;) {
    int had_ws = is_ws(cur(p));
    skip_ws(p);
    if (at_end(p)) {
      xerr(p, p->line, p->col,
           "unexpected end of input inside the tag <%s> opened at %d:%d",
           e->name, e->line, e->col);
      goto fail;
    }
    if (starts(p, "/>")) {
      adv_n(p, 2);
      *out = e;
      return 0;
    }
    if (cur(p) == '>') {
      adv(p);
      if (read_content(p, e, depth)) goto fail;
      *out = e;
      return 0;
    }
    if (!had_ws) {
      char ex[40];
      xerr(p, p->line, p->col, "expected whitespace, '>' or '/>' in <%s>, got '%s'",
           e->name, excerpt(p, ex, sizeof ex));
      goto fail;
    }
    if (read_attr(p, e)) goto fail;
  }
fail:
  xelem_free(e);
  return -1;
}

/* A whole document: prolog, one root element, trailing misc. */
static xelem *xml_parse(const char *s, size_t n, const char *file,
                        twill_diag *d) {
  xp p = {s ? s : "", s ? n : 0, 0, 1, 1, file, d};
  if (starts(&p, "\xEF\xBB\xBF")) {
    p.i = 3; /* UTF-8 byte order mark */
  }
  xelem *root = NULL;
  for (;;) {
    skip_ws(&p);
    if (at_end(&p)) break;
    if (starts(&p, "<?")) {
      if (skip_pi(&p)) goto fail;
    } else if (starts(&p, "<!--")) {
      if (skip_comment(&p)) goto fail;
    } else if (starts(&p, "<!")) {
      unsupported_markup(&p);
      goto fail;
    } else if (cur(&p) == '<' && !starts(&p, "</")) {
      if (root) {
        xerr(&p, p.line, p.col, "a second root element after <%s>",
             root->name);
        goto fail;
      }
      if (read_element(&p, 1, &root)) goto fail;
    } else if (cur(&p) == '<') {
      xerr(&p, p.line, p.col, "end tag without a matching start tag");
      goto fail;
    } else {
      xerr(&p, p.line, p.col, "text outside the root element");
      goto fail;
    }
  }
  if (!root) {
    xerr(&p, p.line, p.col, "no root element");
    return NULL;
  }
  return root;
fail:
  xelem_free(root);
  return NULL;
}

static const xattr *attr_get(const xelem *e, const char *name) {
  for (int i = 0; i < e->nattrs; i++) {
    const char *nm = e->attrs[i].name, *c = strrchr(nm, ':');
    /* xmlns:foo declarations are not attributes of the model */
    if (!strncmp(nm, "xmlns", 5) && (nm[5] == ':' || nm[5] == '\0')) continue;
    if (!strcmp(c ? c + 1 : nm, name)) return &e->attrs[i];
  }
  return NULL;
}

/* ======================================================================
 * The mapping
 * ====================================================================== */

typedef struct rtype {
  const char *name;
  long latency, limit, block;
  int line, col;
  int used;
  int unit; /* index in the graph, -1 if none */
} rtype;

typedef struct node {
  const char *id;
  const char *name;
  const char *type;
  const xelem *e;
  const xelem *type_e; /* the uses_resource data element */
  int rt;              /* resource type index */
  int op;              /* op index */
} node;

typedef struct conv {
  const char *gfile, *rfile;
  twill_diag *d;
  rtype *rt;
  int nrt;
  const rtype **rsorted;
  node *nodes;
  int nnodes;
  node **nsorted;
  twill_graph *g;
} conv;

static int cerr(conv *c, const char *file, int line, int col, const char *fmt,
                ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int cerr(conv *c, const char *file, int line, int col, const char *fmt,
                ...) {
  if (!c->d) return -1;
  char msg[TWILL_DIAG_MSG];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return twill_diag_set(c->d, file, line, col, "%s", msg);
}

/* Strict integer: optional surrounding whitespace, optional '-', digits,
 * |value| <= 1e9. */
static int parse_int(const char *s, long *out) {
  while (is_ws((unsigned char)*s)) s++;
  int neg = 0;
  if (*s == '-' || *s == '+') neg = *s++ == '-';
  if (*s < '0' || *s > '9') return -1;
  long v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s++ - '0');
    if (v > 1000000000L) return -1;
  }
  while (is_ws((unsigned char)*s)) s++;
  if (*s) return -1;
  *out = neg ? -v : v;
  return 0;
}

static int attr_int(conv *c, const xelem *e, const char *name, int required,
                    long dflt, long *out) {
  const xattr *a = attr_get(e, name);
  if (!a) {
    if (!required) {
      *out = dflt;
      return 0;
    }
    return cerr(c, c->rfile, e->line, e->col,
                "<%s> has no '%s' attribute", e->name, name);
  }
  if (parse_int(a->value, out))
    return cerr(c, c->rfile, a->vline, a->vcol,
                "expected an integer for '%s', got '%.64s'", name, a->value);
  return 0;
}

static int cmp_rtype(const void *a, const void *b) {
  return strcmp((*(const rtype *const *)a)->name,
                (*(const rtype *const *)b)->name);
}

static int cmp_node(const void *a, const void *b) {
  return strcmp((*(node *const *)a)->id, (*(node *const *)b)->id);
}

static int read_rm(conv *c, const xelem *root) {
  if (strcmp(root->local, "ModelInformation"))
    return cerr(c, c->rfile, root->line, root->col,
                "expected a <ModelInformation> root element, got <%s>",
                root->name);
  const xelem *res = NULL;
  for (int i = 0; i < root->nkids; i++)
    if (!strcmp(root->kids[i]->local, "Resources")) {
      if (res)
        return cerr(c, c->rfile, root->kids[i]->line, root->kids[i]->col,
                    "a second <Resources> element");
      res = root->kids[i];
    }
  if (!res)
    return cerr(c, c->rfile, root->line, root->col,
                "<%s> has no <Resources> element", root->name);
  c->rt = calloc((size_t)res->nkids + 1, sizeof *c->rt);
  c->rsorted = calloc((size_t)res->nkids + 1, sizeof *c->rsorted);
  if (!c->rt || !c->rsorted)
    return cerr(c, c->rfile, 0, 0, "out of memory");
  for (int i = 0; i < res->nkids; i++) {
    const xelem *e = res->kids[i];
    if (strcmp(e->local, "Resource")) continue;
    rtype *r = &c->rt[c->nrt];
    r->line = e->line;
    r->col = e->col;
    r->unit = -1;
    const xattr *nm = attr_get(e, "name");
    if (!nm)
      return cerr(c, c->rfile, e->line, e->col,
                  "<%s> has no 'name' attribute", e->name);
    if (!nm->value[0])
      return cerr(c, c->rfile, nm->vline, nm->vcol, "empty resource name");
    r->name = nm->value;
    if (attr_int(c, e, "latency", 1, 0, &r->latency) ||
        attr_int(c, e, "limit", 1, 0, &r->limit) ||
        attr_int(c, e, "blockingTime", 0, 1, &r->block))
      return -1;
    if (r->latency < 0)
      return cerr(c, c->rfile, attr_get(e, "latency")->vline,
                  attr_get(e, "latency")->vcol,
                  "resource '%.64s': negative latency %ld", r->name,
                  r->latency);
    if (r->limit == 0 || r->limit < -1 || r->limit > 1000000)
      return cerr(c, c->rfile, attr_get(e, "limit")->vline,
                  attr_get(e, "limit")->vcol,
                  "resource '%.64s': limit must be -1 (unlimited) or in "
                  "[1, 1000000], got %ld",
                  r->name, r->limit);
    if (r->block < 0 || r->block > 1000000) {
      const xattr *a = attr_get(e, "blockingTime");
      return cerr(c, c->rfile, a->vline, a->vcol,
                  "resource '%.64s': blockingTime must be in [0, 1000000], "
                  "got %ld",
                  r->name, r->block);
    }
    c->rsorted[c->nrt] = r;
    c->nrt++;
  }
  qsort(c->rsorted, (size_t)c->nrt, sizeof *c->rsorted, cmp_rtype);
  for (int i = 1; i < c->nrt; i++)
    if (!strcmp(c->rsorted[i - 1]->name, c->rsorted[i]->name)) {
      const rtype *a = c->rsorted[i - 1], *b = c->rsorted[i];
      const rtype *later = a->line > b->line ||
                                   (a->line == b->line && a->col > b->col)
                               ? a
                               : b;
      const rtype *first = later == a ? b : a;
      return cerr(c, c->rfile, later->line, later->col,
                  "resource '%.64s' defined twice (first at %d:%d)",
                  later->name, first->line, first->col);
    }
  return 0;
}

static int find_rtype(const conv *c, const char *name) {
  rtype key;
  key.name = name;
  const rtype *kp = &key;
  const rtype **hit =
      bsearch(&kp, c->rsorted, (size_t)c->nrt, sizeof *c->rsorted, cmp_rtype);
  return hit ? (int)(*hit - c->rt) : -1;
}

static node *find_node(const conv *c, const char *id) {
  node key;
  key.id = id;
  node *kp = &key;
  node **hit =
      bsearch(&kp, c->nsorted, (size_t)c->nnodes, sizeof *c->nsorted, cmp_node);
  return hit ? *hit : NULL;
}

/* The text of a <data key=K> child of e, or NULL; *de gets the element.
 * Two data children with the same key are an error (returns -1). */
static int data_get(conv *c, const xelem *e, const char *key,
                    const xelem **de) {
  *de = NULL;
  for (int i = 0; i < e->nkids; i++) {
    const xelem *k = e->kids[i];
    if (strcmp(k->local, "data")) continue;
    const xattr *a = attr_get(k, "key");
    if (!a)
      return cerr(c, c->gfile, k->line, k->col,
                  "<%s> has no 'key' attribute", k->name);
    if (strcmp(a->value, key)) continue;
    if (*de)
      return cerr(c, c->gfile, k->line, k->col,
                  "a second <data key=\"%s\"> in <%s> at %d:%d", key, e->name,
                  e->line, e->col);
    *de = k;
  }
  return 0;
}

static int data_int(conv *c, const xelem *e, const char *key, long dflt,
                    long *out) {
  const xelem *de;
  if (data_get(c, e, key, &de)) return -1;
  if (!de) {
    *out = dflt;
    return 0;
  }
  if (parse_int(de->text ? de->text : "", out)) {
    int line = de->tline ? de->tline : de->line;
    int col = de->tline ? de->tcol : de->col;
    return cerr(c, c->gfile, line, col,
                "expected an integer for <data key=\"%s\">, got '%.64s'", key,
                de->text ? de->text : "");
  }
  return 0;
}

/* Trimmed copy of a data element's text into a fresh string. */
static char *trimmed(const char *s) {
  if (!s) s = "";
  while (is_ws((unsigned char)*s)) s++;
  size_t k = strlen(s);
  while (k > 0 && is_ws((unsigned char)s[k - 1])) k--;
  char *t = malloc(k + 1);
  if (!t) return NULL;
  memcpy(t, s, k);
  t[k] = '\0';
  return t;
}

/* twill's name alphabet (graph/formats/graph_io.c): letters, digits and
 * _.-+/$^*<>!?%&|~=()[]; anything else becomes '_'; at most 100 bytes. */
static void sanitize(const char *s, char *out, size_t cap) {
  size_t k = 0;
  for (; *s && k + 1 < cap && k < 100; s++) {
    unsigned char ch = (unsigned char)*s;
    int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
             (ch >= '0' && ch <= '9') ||
             (ch && strchr("_.-+/$^*<>!?%&|~=()[]", ch));
    out[k++] = ok ? (char)ch : '_';
  }
  if (k == 0 && cap > 1) out[k++] = 'x';
  out[k] = '\0';
}

/* Kernel name from the graph's path: "<dir>_<base>" without extension. */
static void kernel_name(const char *file, char *out, size_t cap) {
  char tmp[160];
  const char *slash = file ? strrchr(file, '/') : NULL;
  const char *base = slash ? slash + 1 : (file ? file : "");
  size_t bn = strlen(base);
  const char *dot = strchr(base, '.');
  if (dot && dot != base) bn = (size_t)(dot - base);
  size_t k = 0;
  if (slash) {
    const char *d0 = slash;
    while (d0 > file && d0[-1] != '/') d0--;
    size_t dn = (size_t)(slash - d0);
    if (dn > 0 && dn < 60 && strncmp(d0, ".", dn) && strncmp(d0, "..", dn)) {
      memcpy(tmp, d0, dn);
      k = dn;
      tmp[k++] = '_';
    }
  }
  if (bn > sizeof tmp - k - 1) bn = sizeof tmp - k - 1;
  memcpy(tmp + k, base, bn);
  tmp[k + bn] = '\0';
  if (!tmp[0]) snprintf(tmp, sizeof tmp, "hatschet");
  sanitize(tmp, out, cap);
}

/* Add op NAME, making the name unique with a _k suffix. */
static int add_op_unique(twill_graph *g, const char *raw, long lat) {
  char nm[128];
  sanitize(raw, nm, sizeof nm);
  int v = twill_graph_add_op(g, nm, lat);
  for (int k = 2; v == -2; k++) {
    char alt[160];
    snprintf(alt, sizeof alt, "%s_%d", nm, k);
    v = twill_graph_add_op(g, alt, lat);
  }
  return v;
}

static int declare_unit_unique(twill_graph *g, const char *raw, int cap) {
  char nm[128];
  sanitize(raw, nm, sizeof nm);
  if (twill_graph_find_unit(g, nm) < 0)
    return twill_graph_declare_unit(g, nm, cap);
  for (int k = 2;; k++) {
    char alt[160];
    snprintf(alt, sizeof alt, "%s_%d", nm, k);
    if (twill_graph_find_unit(g, alt) < 0)
      return twill_graph_declare_unit(g, alt, cap);
  }
}

static int read_graph(conv *c, const xelem *root) {
  if (strcmp(root->local, "graphml"))
    return cerr(c, c->gfile, root->line, root->col,
                "expected a <graphml> root element, got <%s>", root->name);
  const xelem *gr = NULL;
  for (int i = 0; i < root->nkids; i++)
    if (!strcmp(root->kids[i]->local, "graph")) {
      if (gr)
        return cerr(c, c->gfile, root->kids[i]->line, root->kids[i]->col,
                    "a second <graph> element (one loop per file)");
      gr = root->kids[i];
    }
  if (!gr)
    return cerr(c, c->gfile, root->line, root->col,
                "<%s> has no <graph> element", root->name);

  /* nodes */
  int nn = 0;
  for (int i = 0; i < gr->nkids; i++) nn += !strcmp(gr->kids[i]->local, "node");
  c->nodes = calloc((size_t)nn + 1, sizeof *c->nodes);
  c->nsorted = calloc((size_t)nn + 1, sizeof *c->nsorted);
  if (!c->nodes || !c->nsorted) return cerr(c, c->gfile, 0, 0, "out of memory");
  for (int i = 0; i < gr->nkids; i++) {
    const xelem *e = gr->kids[i];
    if (strcmp(e->local, "node")) continue;
    node *n = &c->nodes[c->nnodes];
    n->e = e;
    const xattr *id = attr_get(e, "id");
    if (!id)
      return cerr(c, c->gfile, e->line, e->col, "<%s> has no 'id' attribute",
                  e->name);
    n->id = id->value;
    const xelem *de;
    if (data_get(c, e, "name", &de)) return -1;
    n->name = de && de->text ? de->text : n->id;
    if (data_get(c, e, "uses_resource", &de)) return -1;
    if (!de)
      return cerr(c, c->gfile, e->line, e->col,
                  "node '%.64s' has no <data key=\"uses_resource\">", n->id);
    n->type_e = de;
    c->nsorted[c->nnodes] = n;
    c->nnodes++;
  }
  qsort(c->nsorted, (size_t)c->nnodes, sizeof *c->nsorted, cmp_node);
  for (int i = 1; i < c->nnodes; i++)
    if (!strcmp(c->nsorted[i - 1]->id, c->nsorted[i]->id)) {
      const node *a = c->nsorted[i - 1], *b = c->nsorted[i];
      const node *later = a > b ? a : b, *first = a > b ? b : a;
      return cerr(c, c->gfile, later->e->line, later->e->col,
                  "node id '%.64s' used twice (first at %d:%d)", later->id,
                  first->e->line, first->e->col);
    }

  /* resource types of the nodes */
  for (int i = 0; i < c->nnodes; i++) {
    node *n = &c->nodes[i];
    char *t = trimmed(n->type_e->text);
    if (!t) return cerr(c, c->gfile, 0, 0, "out of memory");
    n->rt = find_rtype(c, t);
    if (n->rt < 0) {
      const xelem *de = n->type_e;
      cerr(c, c->gfile, de->tline ? de->tline : de->line,
           de->tline ? de->tcol : de->col,
           "node '%.64s' uses resource '%.64s', which %s does not define",
           n->id, t, c->rfile);
      free(t);
      return -1;
    }
    free(t);
    rtype *r = &c->rt[n->rt];
    if (r->limit > 0 && r->block > 0) r->used = 1;
  }

  /* units, in resource-model order */
  for (int i = 0; i < c->nrt; i++) {
    rtype *r = &c->rt[i];
    if (!r->used) continue;
    r->unit = declare_unit_unique(c->g, r->name, (int)r->limit);
    if (r->unit < 0) return cerr(c, c->gfile, 0, 0, "out of memory");
    c->g->units[r->unit].line = 0;
  }

  /* ops */
  for (int i = 0; i < c->nnodes; i++) {
    node *n = &c->nodes[i];
    const rtype *r = &c->rt[n->rt];
    char *nm = trimmed(n->name);
    if (!nm) return cerr(c, c->gfile, 0, 0, "out of memory");
    n->op = add_op_unique(c->g, nm, r->latency);
    free(nm);
    if (n->op < 0) return cerr(c, c->gfile, 0, 0, "out of memory");
    c->g->ops[n->op].line = n->e->line;
    if (r->unit >= 0 &&
        twill_graph_add_use(c->g, n->op, r->unit, 0, (int)r->block, 1))
      return cerr(c, c->gfile, 0, 0, "out of memory");
  }

  /* edges */
  for (int i = 0; i < gr->nkids; i++) {
    const xelem *e = gr->kids[i];
    if (strcmp(e->local, "edge")) continue;
    const xattr *sa = attr_get(e, "source"), *ta = attr_get(e, "target");
    if (!sa || !ta)
      return cerr(c, c->gfile, e->line, e->col,
                  "<%s> has no '%s' attribute", e->name,
                  sa ? "target" : "source");
    const node *s = find_node(c, sa->value), *t = find_node(c, ta->value);
    if (!s || !t) {
      const xattr *a = s ? ta : sa;
      return cerr(c, c->gfile, a->vline, a->vcol,
                  "edge %s '%.64s' is not a node of the graph",
                  s ? "target" : "source", a->value);
    }
    long delay, dist;
    if (data_int(c, e, "delay", 0, &delay) ||
        data_int(c, e, "distance", 0, &dist))
      return -1;
    const xelem *dt;
    if (data_get(c, e, "deptype", &dt)) return -1;
    if (dist < 0 || dist > 1000000)
      return cerr(c, c->gfile, e->line, e->col,
                  "edge %.64s -> %.64s: distance must be in [0, 1000000], "
                  "got %ld",
                  s->id, t->id, dist);
    long lat = c->rt[s->rt].latency + delay;
    if (lat < 0)
      return cerr(c, c->gfile, e->line, e->col,
                  "edge %.64s -> %.64s: latency %ld + delay %ld is negative",
                  s->id, t->id, c->rt[s->rt].latency, delay);
    int k = twill_graph_add_edge(c->g, s->op, t->op, lat, (int)dist);
    if (k < 0) return cerr(c, c->gfile, 0, 0, "out of memory");
    c->g->edges[k].line = e->line;
  }
  return 0;
}

twill_graph *twill_hatschet_convert(const char *graph_text, size_t graph_len,
                                    const char *graph_file,
                                    const char *rm_text, size_t rm_len,
                                    const char *rm_file, twill_diag *d) {
  conv c;
  memset(&c, 0, sizeof c);
  c.gfile = graph_file ? graph_file : "";
  c.rfile = rm_file ? rm_file : "";
  c.d = d;
  twill_graph *out = NULL;
  xelem *rm = xml_parse(rm_text, rm_len, c.rfile, d);
  xelem *gx = rm ? xml_parse(graph_text, graph_len, c.gfile, d) : NULL;
  if (!rm || !gx) goto done;
  if (read_rm(&c, rm)) goto done;
  char kname[128];
  kernel_name(c.gfile, kname, sizeof kname);
  c.g = twill_graph_new(kname);
  if (!c.g) {
    cerr(&c, c.gfile, 0, 0, "out of memory");
    goto done;
  }
  if (read_graph(&c, gx)) goto done;
  if (twill_graph_validate(c.g, d)) {
    if (d) snprintf(d->file, sizeof d->file, "%s", c.gfile);
    goto done;
  }
  out = c.g;
  c.g = NULL;
done:
  twill_graph_free(c.g);
  free(c.rt);
  free(c.rsorted);
  free(c.nodes);
  free(c.nsorted);
  xelem_free(rm);
  xelem_free(gx);
  return out;
}

twill_graph *twill_hatschet_load(const char *graph_path, const char *rm_path,
                                 twill_diag *d) {
  size_t gl = 0, rl = 0;
  char *gt = twill_read_file(graph_path, &gl, d);
  if (!gt) return NULL;
  char *rt = twill_read_file(rm_path, &rl, d);
  if (!rt) {
    free(gt);
    return NULL;
  }
  twill_graph *g =
      twill_hatschet_convert(gt, gl, graph_path, rt, rl, rm_path, d);
  free(gt);
  free(rt);
  return g;
}
