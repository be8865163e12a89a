/* graph/load.c: read a kernel file in either format (twill/graph.h). */
#include <stdlib.h>
#include <string.h>

#include "twill/graph.h"
#include "twill/io.h"

twill_graph *twill_graph_parse_any(const char *text, size_t len,
                                   const char *file, twill_diag *d) {
  size_t i = 0;
  if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) i = 3;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
                     text[i] == '\n'))
    i++;
  return i < len && text[i] == '{' ? twill_graph_parse_json(text, len, file, d)
                                   : twill_graph_parse_text(text, len, file, d);
}

twill_graph *twill_graph_load_file(const char *path, twill_diag *d) {
  if (!path) {
    twill_diag_set(d, "", 0, 0, "no kernel file given");
    return NULL;
  }
  size_t n = 0;
  char *buf = twill_read_file(path, &n, d);
  if (!buf) return NULL;
  twill_graph *g =
      twill_graph_parse_any(buf, n, strcmp(path, "-") ? path : "<stdin>", d);
  free(buf);
  return g;
}
