/* codegen/emit.c: the dispatcher over the output formats. */
#include "twill/codegen.h"

long twill_emit_copies(const twill_graph *g, const twill_schedule *s) {
  long L = twill_schedule_length(g, s);
  return s->ii > 0 ? (L + s->ii - 1) / s->ii : 0;
}

int twill_emit(const twill_graph *g, const twill_arch *m,
               const twill_schedule *s, twill_emit_format f,
               const twill_emit_opts *opts, FILE *out) {
  /* every format but dot draws or writes out each of the C overlapped
   * copies: a schedule thousands of I long is a mistake, not a picture */
  if (f != TWILL_EMIT_DOT && twill_emit_copies(g, s) > TWILL_EMIT_MAX_COPIES)
    return -1;
  switch (f) {
  case TWILL_EMIT_PSEUDOCODE: return twill_emit_pseudocode(g, m, s, opts, out);
  case TWILL_EMIT_CUDA: return twill_emit_cuda(g, m, s, opts, out);
  case TWILL_EMIT_TABLE: return twill_emit_table(g, m, s, opts, out);
  case TWILL_EMIT_GANTT: return twill_emit_gantt(g, m, s, opts, out);
  case TWILL_EMIT_SVG: return twill_emit_svg(g, m, s, opts, out);
  case TWILL_EMIT_JSON: return twill_emit_json(g, m, s, opts, out);
  case TWILL_EMIT_DOT: return twill_emit_dot(g, m, s, opts, out);
  default: return -1;
  }
}
