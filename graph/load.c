/* graph/load.c: read a kernel file in either format (twill/graph.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "twill/graph.h"

twill_graph *twill_graph_load_file(const char *path, twill_diag *d) {
  if (!path) {
    twill_diag_set(d, "", 0, 0, "no kernel file given");
    return NULL;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    twill_diag_set(d, path, 0, 0, "cannot open: %s", strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    if (cap > ((size_t)1 << 30)) { /* 1 GiB: not a kernel */
      free(buf);
      fclose(f);
      twill_diag_set(d, path, 0, 0, "file too large");
      return NULL;
    }
    char *nb = realloc(buf, 2 * cap);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  if (!buf) {
    fclose(f);
    twill_diag_set(d, path, 0, 0, "out of memory");
    return NULL;
  }
  if (ferror(f)) {
    int e = errno;
    free(buf);
    fclose(f);
    twill_diag_set(d, path, 0, 0, "cannot read: %s", strerror(e));
    return NULL;
  }
  fclose(f);
  size_t i = 0;
  if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) i = 3;
  while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
                   buf[i] == '\n'))
    i++;
  twill_graph *g = i < n && buf[i] == '{'
                       ? twill_graph_parse_json(buf, n, path, d)
                       : twill_graph_parse_text(buf, n, path, d);
  free(buf);
  return g;
}
