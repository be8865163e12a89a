/* codegen/format.c: the names of the output formats. */
#include <string.h>

#include "twill/codegen.h"

static const char *const fmt_names[TWILL_EMIT_NFORMATS] = {
    "pseudocode", "cuda", "table", "gantt", "svg", "json", "dot"};

int twill_emit_format_parse(const char *name) {
  for (int k = 0; k < TWILL_EMIT_NFORMATS; k++)
    if (name && !strcmp(name, fmt_names[k])) return k;
  return -1;
}

const char *twill_emit_format_name(twill_emit_format f) {
  return (int)f >= 0 && f < TWILL_EMIT_NFORMATS ? fmt_names[f] : "?";
}
