/* graph/formats/json.c: the JSON reader (a DOM with source positions) and the
 * streaming writer (twill/json.h).
 *
 * Reader: RFC 8259.  Positions are 1-based lines and 1-based byte columns.
 * Rejected: duplicate object keys, nesting deeper than TWILL_JSON_MAX_DEPTH,
 * invalid UTF-8 (overlong forms, encoded surrogates, > U+10FFFF), raw
 * control characters in strings, lone surrogate \u escapes, \u0000 (the DOM
 * keeps NUL-terminated strings), numbers whose value is not finite, and
 * anything after the top value but blanks.  A number is_int when it is
 * written without fraction or exponent and fits in long long.
 */
#include "twill/json.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- reader ------------------------------------------------------------ */

typedef struct jp {
  const unsigned char *s;
  size_t len, pos;
  int line;
  size_t line_start; /* offset of the current line's first byte */
  const char *file;
  twill_diag *d;
  int depth;
} jp;

static int col_at(const jp *p, size_t pos) {
  size_t c = pos - p->line_start + 1;
  return c > 1000000000u ? 1000000000 : (int)c;
}

static int col(const jp *p) { return col_at(p, p->pos); }

static void skip_ws(jp *p) {
  while (p->pos < p->len) {
    unsigned char c = p->s[p->pos];
    if (c == '\n') {
      p->pos++;
      p->line++;
      p->line_start = p->pos;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      p->pos++;
    } else {
      break;
    }
  }
}

static int unexpected(jp *p, const char *what) {
  if (p->pos >= p->len)
    return twill_diag_set(p->d, p->file, p->line, col(p),
                          "unexpected end of input, expected %s", what);
  unsigned char c = p->s[p->pos];
  if (c >= 0x21 && c < 0x7f)
    return twill_diag_set(p->d, p->file, p->line, col(p),
                          "unexpected character '%c', expected %s", c, what);
  return twill_diag_set(p->d, p->file, p->line, col(p),
                        "unexpected byte 0x%02x, expected %s", c, what);
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  if (c < 0x80) return 1;
  size_t k;
  uint32_t cp;
  if (c >= 0xc2 && c <= 0xdf) {
    k = 2;
    cp = c & 0x1f;
  } else if (c >= 0xe0 && c <= 0xef) {
    k = 3;
    cp = c & 0x0f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    k = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (n < k) return 0;
  for (size_t i = 1; i < k; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) return 0;
  if (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) return 0;
  return k;
}

static int hex4(const unsigned char *s, size_t n, unsigned *out) {
  if (n < 4) return -1;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    unsigned char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  *out = v;
  return 0;
}

static size_t put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xc0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xe0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  o[0] = (char)(0xf0 | (cp >> 18));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  o[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* Parse a string at p->pos (a '"'); *out gets a malloc'd copy. */
static int parse_string(jp *p, char **out, size_t *outlen) {
  size_t start = ++p->pos; /* after the quote */
  /* The decoded string is never longer than the source. */
  size_t end = start;
  while (end < p->len && p->s[end] != '"') {
    if (p->s[end] == '\\' && end + 1 < p->len) end++;
    end++;
  }
  char *buf = malloc(end - start + 1);
  if (!buf)
    return twill_diag_set(p->d, p->file, p->line, col(p), "out of memory");
  size_t n = 0;
  for (;;) {
    if (p->pos >= p->len) {
      free(buf);
      return twill_diag_set(p->d, p->file, p->line, col(p),
                            "unterminated string");
    }
    unsigned char c = p->s[p->pos];
    if (c == '"') {
      p->pos++;
      break;
    }
    if (c < 0x20) {
      free(buf);
      if (c == 0)
        return twill_diag_set(p->d, p->file, p->line, col(p),
                              "NUL byte in string");
      return twill_diag_set(p->d, p->file, p->line, col(p),
                            "unescaped control character 0x%02x in string", c);
    }
    if (c == '\\') {
      if (p->pos + 1 >= p->len) {
        free(buf);
        p->pos++;
        return twill_diag_set(p->d, p->file, p->line, col(p),
                              "unterminated string");
      }
      unsigned char e = p->s[p->pos + 1];
      const char *simple = strchr("\"\\/bfnrt", e);
      if (e && simple) {
        static const char map[] = "\"\\/\b\f\n\r\t";
        buf[n++] = map[simple - "\"\\/bfnrt"];
        p->pos += 2;
        continue;
      }
      if (e != 'u') {
        int ecol = col(p);
        free(buf);
        if (e >= 0x21 && e < 0x7f)
          return twill_diag_set(p->d, p->file, p->line, ecol,
                                "invalid escape '\\%c' in string", e);
        return twill_diag_set(p->d, p->file, p->line, ecol,
                              "invalid escape in string");
      }
      int ucol = col(p);
      unsigned u;
      if (hex4(p->s + p->pos + 2, p->len - p->pos - 2, &u) < 0) {
        free(buf);
        return twill_diag_set(p->d, p->file, p->line, ucol,
                              "invalid \\u escape: expected 4 hex digits");
      }
      p->pos += 6;
      uint32_t cp = u;
      if (u >= 0xdc00 && u <= 0xdfff) {
        free(buf);
        return twill_diag_set(p->d, p->file, p->line, ucol,
                              "unpaired low surrogate \\u%04X in string", u);
      }
      if (u >= 0xd800 && u <= 0xdbff) {
        unsigned lo;
        if (p->pos + 1 < p->len && p->s[p->pos] == '\\' &&
            p->s[p->pos + 1] == 'u' &&
            hex4(p->s + p->pos + 2, p->len - p->pos - 2, &lo) == 0 &&
            lo >= 0xdc00 && lo <= 0xdfff) {
          p->pos += 6;
          cp = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
        } else {
          free(buf);
          return twill_diag_set(p->d, p->file, p->line, ucol,
                                "unpaired high surrogate \\u%04X in string",
                                u);
        }
      }
      if (cp == 0) {
        free(buf);
        return twill_diag_set(p->d, p->file, p->line, ucol,
                              "\\u0000 (NUL) in string is not supported");
      }
      n += put_utf8(buf + n, cp);
      continue;
    }
    size_t k = utf8_len(p->s + p->pos, p->len - p->pos);
    if (k == 0) {
      free(buf);
      return twill_diag_set(p->d, p->file, p->line, col(p),
                            "invalid UTF-8 in string");
    }
    memcpy(buf + n, p->s + p->pos, k);
    n += k;
    p->pos += k;
  }
  buf[n] = '\0';
  *out = buf;
  if (outlen) *outlen = n;
  return 0;
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int parse_number(jp *p, twill_json *v) {
  size_t start = p->pos;
  size_t i = p->pos;
  bool integral = true;
  if (i < p->len && p->s[i] == '-') i++;
  if (i >= p->len || !is_digit(p->s[i])) {
    p->pos = i;
    return unexpected(p, "a digit");
  }
  if (p->s[i] == '0') {
    i++;
    if (i < p->len && is_digit(p->s[i]))
      return twill_diag_set(p->d, p->file, p->line, col_at(p, start),
                            "invalid number: leading zero");
  } else {
    while (i < p->len && is_digit(p->s[i])) i++;
  }
  if (i < p->len && p->s[i] == '.') {
    integral = false;
    i++;
    if (i >= p->len || !is_digit(p->s[i])) {
      p->pos = i;
      return unexpected(p, "a digit after '.'");
    }
    while (i < p->len && is_digit(p->s[i])) i++;
  }
  if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
    integral = false;
    i++;
    if (i < p->len && (p->s[i] == '+' || p->s[i] == '-')) i++;
    if (i >= p->len || !is_digit(p->s[i])) {
      p->pos = i;
      return unexpected(p, "a digit in the exponent");
    }
    while (i < p->len && is_digit(p->s[i])) i++;
  }
  size_t n = i - start;
  char small[64];
  char *tmp = n < sizeof small ? small : malloc(n + 1);
  if (!tmp)
    return twill_diag_set(p->d, p->file, p->line, col_at(p, start),
                          "out of memory");
  memcpy(tmp, p->s + start, n);
  tmp[n] = '\0';
  errno = 0;
  double x = strtod(tmp, NULL);
  int bad = !isfinite(x);
  v->is_int = false;
  if (integral) {
    errno = 0;
    long long ll = strtoll(tmp, NULL, 10);
    if (errno == 0) {
      v->is_int = true;
      v->integer = ll;
    }
  }
  if (tmp != small) free(tmp);
  if (bad)
    return twill_diag_set(p->d, p->file, p->line, col_at(p, start),
                          "number out of range");
  v->type = TWILL_JSON_NUMBER;
  v->number = x;
  p->pos = i;
  return 0;
}

static int parse_value(jp *p, twill_json *v);

/* Free the contents of v (not v itself). */
static void json_clear(twill_json *v) {
  if (!v) return;
  free(v->string);
  if (v->items) {
    for (size_t i = 0; i < v->len; i++) json_clear(&v->items[i]);
    free(v->items);
  }
  if (v->keys) {
    for (size_t i = 0; i < v->len; i++) free(v->keys[i]);
    free(v->keys);
  }
  free(v->key_line);
  free(v->key_col);
  memset(v, 0, sizeof *v);
}

static int grow(jp *p, twill_json *v, size_t *cap, bool object) {
  if (v->len < *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 4;
  twill_json *items = realloc(v->items, nc * sizeof *items);
  if (!items) goto oom;
  v->items = items;
  if (object) {
    char **keys = realloc(v->keys, nc * sizeof *keys);
    if (!keys) goto oom;
    v->keys = keys;
    int *kl = realloc(v->key_line, nc * sizeof *kl);
    if (!kl) goto oom;
    v->key_line = kl;
    int *kc = realloc(v->key_col, nc * sizeof *kc);
    if (!kc) goto oom;
    v->key_col = kc;
  }
  *cap = nc;
  return 0;
oom:
  return twill_diag_set(p->d, p->file, p->line, col(p), "out of memory");
}

static int parse_array(jp *p, twill_json *v) {
  v->type = TWILL_JSON_ARRAY;
  size_t cap = 0;
  p->pos++; /* '[' */
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == ']') {
    p->pos++;
    return 0;
  }
  for (;;) {
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']' && v->len > 0)
      return twill_diag_set(p->d, p->file, p->line, col(p),
                            "trailing comma in array");
    if (grow(p, v, &cap, false)) return -1;
    twill_json *it = &v->items[v->len];
    memset(it, 0, sizeof *it);
    v->len++;
    if (parse_value(p, it)) return -1;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == ']') {
      p->pos++;
      return 0;
    }
    return unexpected(p, "',' or ']' in array");
  }
}

static int parse_object(jp *p, twill_json *v) {
  v->type = TWILL_JSON_OBJECT;
  size_t cap = 0;
  p->pos++; /* '{' */
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == '}') {
    p->pos++;
    return 0;
  }
  for (;;) {
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}' && v->len > 0)
      return twill_diag_set(p->d, p->file, p->line, col(p),
                            "trailing comma in object");
    if (p->pos >= p->len || p->s[p->pos] != '"')
      return unexpected(p, "a string key");
    int kline = p->line, kcol = col(p);
    char *key = NULL;
    if (parse_string(p, &key, NULL)) return -1;
    for (size_t i = 0; i < v->len; i++) {
      if (strcmp(v->keys[i], key) == 0) {
        int fl = v->key_line[i], fc = v->key_col[i];
        twill_diag_set(p->d, p->file, kline, kcol,
                       "duplicate key \"%.64s\" (first at line %d, column %d)",
                       key, fl, fc);
        free(key);
        return -1;
      }
    }
    if (grow(p, v, &cap, true)) {
      free(key);
      return -1;
    }
    size_t k = v->len;
    v->keys[k] = key;
    v->key_line[k] = kline;
    v->key_col[k] = kcol;
    memset(&v->items[k], 0, sizeof v->items[k]);
    v->len++;
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != ':')
      return unexpected(p, "':' after object key");
    p->pos++;
    if (parse_value(p, &v->items[k])) return -1;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->pos < p->len && p->s[p->pos] == '}') {
      p->pos++;
      return 0;
    }
    return unexpected(p, "',' or '}' in object");
  }
}

static int literal(jp *p, const char *word) {
  size_t n = strlen(word);
  if (p->len - p->pos >= n && memcmp(p->s + p->pos, word, n) == 0) {
    p->pos += n;
    return 0;
  }
  return twill_diag_set(p->d, p->file, p->line, col(p),
                        "invalid literal (expected %s)", word);
}

static int parse_value(jp *p, twill_json *v) {
  skip_ws(p);
  v->line = p->line;
  v->col = col(p);
  if (p->pos >= p->len) return unexpected(p, "a value");
  unsigned char c = p->s[p->pos];
  switch (c) {
  case '{':
  case '[': {
    if (p->depth >= TWILL_JSON_MAX_DEPTH)
      return twill_diag_set(p->d, p->file, p->line, col(p),
                            "nesting deeper than %d levels",
                            TWILL_JSON_MAX_DEPTH);
    p->depth++;
    int r = c == '{' ? parse_object(p, v) : parse_array(p, v);
    p->depth--;
    return r;
  }
  case '"':
    v->type = TWILL_JSON_STRING;
    return parse_string(p, &v->string, &v->len);
  case 't':
    v->type = TWILL_JSON_BOOL;
    v->boolean = true;
    return literal(p, "true");
  case 'f':
    v->type = TWILL_JSON_BOOL;
    v->boolean = false;
    return literal(p, "false");
  case 'n':
    v->type = TWILL_JSON_NULL;
    return literal(p, "null");
  default:
    if (c == '-' || is_digit(c)) return parse_number(p, v);
    return unexpected(p, "a value");
  }
}

twill_json *twill_json_parse(const char *text, size_t len, const char *file,
                             twill_diag *d) {
  jp p = {(const unsigned char *)text, len, 0, 1, 0, file, d, 0};
  if (!text && len) {
    twill_diag_set(d, file, 0, 0, "no input");
    return NULL;
  }
  twill_json *v = calloc(1, sizeof *v);
  if (!v) {
    twill_diag_set(d, file, 0, 0, "out of memory");
    return NULL;
  }
  /* A UTF-8 byte order mark is allowed and skipped. */
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) p.pos = 3;
  if (parse_value(&p, v) == 0) {
    skip_ws(&p);
    if (p.pos == p.len) return v;
    twill_diag_set(d, file, p.line, col(&p),
                   "unexpected data after the JSON value");
  }
  json_clear(v);
  free(v);
  return NULL;
}

void twill_json_free(twill_json *v) {
  if (!v) return;
  json_clear(v);
  free(v);
}

const twill_json *twill_json_get(const twill_json *obj, const char *key) {
  if (!obj || obj->type != TWILL_JSON_OBJECT || !key) return NULL;
  for (size_t i = 0; i < obj->len; i++)
    if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
  return NULL;
}

/* ---- writer ------------------------------------------------------------ */

static void w_put(twill_jw *w, const char *s) {
  if (fputs(s, w->f) == EOF) w->error = 1;
}

static void w_newline_indent(twill_jw *w, int depth) {
  if (!w->pretty) return;
  if (putc('\n', w->f) == EOF) w->error = 1;
  for (int i = 0; i < depth; i++) w_put(w, "  ");
}

/* Separator and indentation before a value or a key. */
static void w_before(twill_jw *w) {
  if (w->after_key) {
    w->after_key = false;
    return;
  }
  if (w->depth == 0) return;
  int dd = w->depth > TWILL_JSON_MAX_DEPTH ? TWILL_JSON_MAX_DEPTH : w->depth;
  if (!w->first[dd]) w_put(w, ",");
  w->first[dd] = false;
  w_newline_indent(w, w->depth);
}

void twill_jw_init(twill_jw *w, FILE *f, bool pretty) {
  memset(w, 0, sizeof *w);
  w->f = f;
  w->pretty = pretty;
}

static void w_open(twill_jw *w, const char *c) {
  w_before(w);
  w_put(w, c);
  w->depth++;
  if (w->depth > TWILL_JSON_MAX_DEPTH) {
    w->error = 1;
    return;
  }
  w->first[w->depth] = true;
}

static void w_close(twill_jw *w, const char *c) {
  if (w->depth <= 0) {
    w->error = 1;
    return;
  }
  bool empty = w->depth > TWILL_JSON_MAX_DEPTH || w->first[w->depth];
  w->depth--;
  if (!empty) w_newline_indent(w, w->depth);
  w_put(w, c);
}

void twill_jw_object_begin(twill_jw *w) { w_open(w, "{"); }
void twill_jw_object_end(twill_jw *w) { w_close(w, "}"); }
void twill_jw_array_begin(twill_jw *w) { w_open(w, "["); }
void twill_jw_array_end(twill_jw *w) { w_close(w, "]"); }

static void w_string_raw(twill_jw *w, const char *s) {
  if (putc('"', w->f) == EOF) w->error = 1;
  for (const unsigned char *q = (const unsigned char *)(s ? s : ""); *q; q++) {
    char esc[8];
    switch (*q) {
    case '"': w_put(w, "\\\""); break;
    case '\\': w_put(w, "\\\\"); break;
    case '\n': w_put(w, "\\n"); break;
    case '\r': w_put(w, "\\r"); break;
    case '\t': w_put(w, "\\t"); break;
    case '\b': w_put(w, "\\b"); break;
    case '\f': w_put(w, "\\f"); break;
    default:
      if (*q < 0x20 || *q == 0x7f) {
        snprintf(esc, sizeof esc, "\\u%04x", *q);
        w_put(w, esc);
      } else if (putc(*q, w->f) == EOF) {
        w->error = 1;
      }
    }
  }
  if (putc('"', w->f) == EOF) w->error = 1;
}

void twill_jw_key(twill_jw *w, const char *key) {
  w_before(w);
  w_string_raw(w, key);
  w_put(w, w->pretty ? ": " : ":");
  w->after_key = true;
}

void twill_jw_string(twill_jw *w, const char *s) {
  w_before(w);
  w_string_raw(w, s);
}

void twill_jw_int(twill_jw *w, long long v) {
  w_before(w);
  if (fprintf(w->f, "%lld", v) < 0) w->error = 1;
}

void twill_jw_double(twill_jw *w, double v) {
  w_before(w);
  if (!isfinite(v)) {
    w_put(w, "null");
    return;
  }
  if (fprintf(w->f, "%.17g", v) < 0) w->error = 1;
}

void twill_jw_bool(twill_jw *w, bool v) {
  w_before(w);
  w_put(w, v ? "true" : "false");
}

void twill_jw_null(twill_jw *w) {
  w_before(w);
  w_put(w, "null");
}

int twill_jw_finish(twill_jw *w) {
  if (w->depth != 0) w->error = 1;
  if (putc('\n', w->f) == EOF) w->error = 1;
  if (fflush(w->f) == EOF || ferror(w->f)) w->error = 1;
  return w->error ? -1 : 0;
}
