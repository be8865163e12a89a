/* graph/io.c: the one whole-file reader (twill/io.h).  It lives in the
 * lowest module so that every other one (arch, sat, ilp, core, the program)
 * can use it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/io.h"

#define IO_MAX ((size_t)1 << 30)

char *twill_read_file(const char *path, size_t *len, twill_diag *d) {
  if (len) *len = 0;
  if (!path || !*path) {
    twill_diag_set(d, "", 0, 0, "no file given");
    return NULL;
  }
  int is_stdin = !strcmp(path, "-");
  const char *name = is_stdin ? "<stdin>" : path;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    twill_diag_set(d, name, 0, 0, "cannot open: %s", strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    if (cap >= IO_MAX) {
      free(buf);
      if (!is_stdin) fclose(f);
      twill_diag_set(d, name, 0, 0, "file too large (over 1 GiB)");
      return NULL;
    }
    char *nb = realloc(buf, 2 * cap + 1);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  if (!buf) {
    if (!is_stdin) fclose(f);
    twill_diag_set(d, name, 0, 0, "out of memory");
    return NULL;
  }
  if (ferror(f)) {
    int e = errno;
    free(buf);
    if (!is_stdin) fclose(f);
    twill_diag_set(d, name, 0, 0, "cannot read: %s", strerror(e));
    return NULL;
  }
  if (!is_stdin) fclose(f);
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}
