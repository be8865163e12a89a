/* twill/json.h: one small JSON reader (a DOM with source positions) and one
 * streaming writer with deterministic formatting.
 *
 * Reader: RFC 8259 JSON, UTF-8, nesting limited to TWILL_JSON_MAX_DEPTH;
 * numbers kept as double and, when they are integers that fit, as long
 * long too.  Errors are reported as file:line:col.  Duplicate object keys
 * are an error (a kernel with two "ops" keys is a mistake, not a merge).
 *
 * Writer: keys in the order the caller gives them, two-space indentation
 * (or compact), numbers printed with %.17g (doubles) or %lld (integers),
 * strings escaped.  Same calls, same bytes.
 */
#ifndef TWILL_JSON_H
#define TWILL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "twill/diag.h"

#define TWILL_JSON_MAX_DEPTH 64

typedef enum twill_json_type {
  TWILL_JSON_NULL,
  TWILL_JSON_BOOL,
  TWILL_JSON_NUMBER,
  TWILL_JSON_STRING,
  TWILL_JSON_ARRAY,
  TWILL_JSON_OBJECT
} twill_json_type;

typedef struct twill_json twill_json;
struct twill_json {
  twill_json_type type;
  int line, col;      /* where the value starts */
  bool boolean;
  double number;
  bool is_int;        /* number is an integer that fits in long long */
  long long integer;
  char *string;       /* NUL-terminated (embedded NULs are rejected) */
  size_t len;         /* items in an array / members in an object */
  twill_json *items;  /* array items, or object member values */
  char **keys;        /* object member keys (NULL for arrays) */
  int *key_line, *key_col;
};

twill_json *twill_json_parse(const char *text, size_t len, const char *file,
                             twill_diag *d);
void twill_json_free(twill_json *v);
/* Member of an object by key, or NULL. */
const twill_json *twill_json_get(const twill_json *obj, const char *key);

/* ---- writer ------------------------------------------------------------ */
typedef struct twill_jw {
  FILE *f;
  int depth;
  bool pretty;
  bool first[TWILL_JSON_MAX_DEPTH + 1]; /* no member written yet at depth */
  bool after_key;
  int error;                            /* set on a write error */
} twill_jw;

void twill_jw_init(twill_jw *w, FILE *f, bool pretty);
void twill_jw_object_begin(twill_jw *w);
void twill_jw_object_end(twill_jw *w);
void twill_jw_array_begin(twill_jw *w);
void twill_jw_array_end(twill_jw *w);
void twill_jw_key(twill_jw *w, const char *key);
void twill_jw_string(twill_jw *w, const char *s);
void twill_jw_int(twill_jw *w, long long v);
void twill_jw_double(twill_jw *w, double v); /* non-finite -> null */
void twill_jw_bool(twill_jw *w, bool v);
void twill_jw_null(twill_jw *w);
/* Finish: newline after the top value; returns 0 or -1 on write error. */
int twill_jw_finish(twill_jw *w);

#endif
