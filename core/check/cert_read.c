/* core/check/cert_read.c: the one reader of twill certificates.
 *
 * Every line of a certificate, every embedded block and every number goes
 * through this file, so the checker never reads one value two ways.  The
 * grammar is strict: a line is tokens separated by exactly one space, with
 * no blank at either end and no other control or white-space byte; a line
 * ends with '\n' (the last one too); an integer is "0" or an optional '-'
 * and digits without a leading zero, below 2^62 in magnitude (a longer one
 * is refused as too large, never cut or wrapped), so the text of a number
 * and its value are one-to-one and what the verdict prints is what was
 * read.  A block is announced by a count of bytes on its line and followed
 * by exactly that many bytes and a '\n'; its lines keep their numbers in
 * the certificate for messages.
 */
#include "check_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void twill_cr_init(cert_rd *r, const char *text, size_t len, int line, char *msg,
                   size_t msglen) {
  memset(r, 0, sizeof *r);
  r->p = text;
  r->end = text + len;
  r->line = line;
  r->msg = msg;
  r->msglen = msglen;
}

int twill_cr_fail(cert_rd *r, const char *fmt, ...) {
  char buf[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (r->msg && r->msglen) snprintf(r->msg, r->msglen, "certificate:%d: %s", r->line, buf);
  return -1;
}

/* Split the line [s, e) into tokens; -1 on a grammar error. */
static int split(cert_rd *r, const char *s, const char *e) {
  r->ntok = 0;
  if (s == e) return twill_cr_fail(r, "empty line");
  const char *t = s;
  for (const char *c = s; c <= e; c++) {
    if (c < e && *c != ' ') {
      unsigned char b = (unsigned char)*c;
      if (b < 0x21 || b == 0x7f)
        return twill_cr_fail(r, "byte 0x%02x in a line (tokens are separated by "
                                "single spaces)", b);
      continue;
    }
    if (c == t) return twill_cr_fail(r, c == s ? "line starts with a blank"
                                        : c == e ? "line ends with a blank"
                                                 : "two blanks in a row");
    if (r->ntok == CR_MAX_TOK) return twill_cr_fail(r, "more than %d tokens in a line", CR_MAX_TOK);
    r->tok[r->ntok] = t;
    r->toklen[r->ntok++] = (size_t)(c - t);
    t = c + 1;
  }
  return 0;
}

int twill_cr_line(cert_rd *r) {
  r->line++;
  if (r->p >= r->end) return twill_cr_fail(r, "unexpected end of the certificate");
  const char *e = memchr(r->p, '\n', (size_t)(r->end - r->p));
  if (!e) return twill_cr_fail(r, "the last line does not end with a newline");
  const char *s = r->p;
  r->p = e + 1;
  return split(r, s, e);
}

int twill_cr_at_end(const cert_rd *r) { return r->p >= r->end; }

int twill_cr_is(const cert_rd *r, int i, const char *word) {
  size_t n = strlen(word);
  return i < r->ntok && r->toklen[i] == n && !memcmp(r->tok[i], word, n);
}

int twill_cr_key(cert_rd *r, const char *key, int ntok) {
  if (!twill_cr_is(r, 0, key))
    return twill_cr_fail(r, "expected '%s', found '%.*s'", key,
                         (int)(r->ntok ? (r->toklen[0] > 40 ? 40 : r->toklen[0]) : 0),
                         r->ntok ? r->tok[0] : "");
  if (ntok >= 0 && r->ntok != ntok)
    return twill_cr_fail(r, "'%s' takes %d value%s, the line has %d", key, ntok - 1,
                         ntok == 2 ? "" : "s", r->ntok - 1);
  return 0;
}

int twill_cr_parse_int(const char *s, size_t n, int64_t *out) {
  size_t i = 0;
  int neg = 0;
  if (n && s[0] == '-') neg = 1, i = 1;
  if (i == n) return -1;
  if (s[i] == '0' && (n - i > 1 || neg)) return -1; /* leading zero or -0 */
  uint64_t v = 0, lim = ((uint64_t)1 << 62) - 1;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    uint64_t d = (uint64_t)(s[i] - '0');
    if (v > (lim - d) / 10) { /* before it wraps: 2^64 + 4 must not read as 4 */
      for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return -1;
      return -2;
    }
    v = v * 10 + d;
  }
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 0;
}

int twill_cr_int(cert_rd *r, int i, int64_t lo, int64_t hi, int64_t *out, const char *what) {
  if (i >= r->ntok) return twill_cr_fail(r, "%s missing", what);
  int64_t v;
  int rc = twill_cr_parse_int(r->tok[i], r->toklen[i], &v);
  /* a token is not NUL-terminated (the last one may end the buffer): print
   * at most its own bytes */
  int shown = r->toklen[i] > 40 ? 40 : (int)r->toklen[i];
  if (rc == -2)
    return twill_cr_fail(r, "%s '%.*s%s' is too large", what, shown, r->tok[i],
                         r->toklen[i] > 40 ? "..." : "");
  if (rc)
    return twill_cr_fail(r, "%s '%.*s' is not an integer in canonical form", what, shown,
                         r->tok[i]);
  if (v < lo || v > hi)
    return twill_cr_fail(r, "%s %lld out of [%lld, %lld]", what, (long long)v,
                         (long long)lo, (long long)hi);
  *out = v;
  return 0;
}

int twill_cr_long(cert_rd *r, int i, long lo, long hi, long *out, const char *what) {
  int64_t v;
  if (twill_cr_int(r, i, lo, hi, &v, what)) return -1;
  *out = (long)v;
  return 0;
}

int twill_cr_word(cert_rd *r, int i, const char *want, const char *what) {
  if (twill_cr_is(r, i, want)) return 0;
  return twill_cr_fail(r, "%s: expected '%s', found '%.*s'", what, want,
                       (int)(i < r->ntok ? (r->toklen[i] > 40 ? 40 : r->toklen[i]) : 0),
                       i < r->ntok ? r->tok[i] : "");
}

int twill_cr_block(cert_rd *r, int i, const char **blk, size_t *n, cert_rd *sub) {
  int64_t len;
  if (twill_cr_int(r, i, 0, (int64_t)(r->end - r->p), &len, "block length")) return -1;
  if ((size_t)len >= (size_t)(r->end - r->p) || r->p[len] != '\n')
    return twill_cr_fail(r, "the block of %lld bytes is not followed by a newline",
                         (long long)len);
  *blk = r->p;
  *n = (size_t)len;
  if (sub) twill_cr_init(sub, r->p, (size_t)len, r->line, r->msg, r->msglen);
  for (int64_t k = 0; k < len; k++) r->line += r->p[k] == '\n';
  r->p += len + 1;
  r->line++;
  return 0;
}

int twill_cr_end(cert_rd *r) {
  if (twill_cr_line(r) || twill_cr_key(r, "end", 1)) return -1;
  if (r->p != r->end) {
    r->line++;
    return twill_cr_fail(r, "text after 'end'");
  }
  return 0;
}
