/* ilp/log.c: log lines to the model's callback (see log.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

void twill_ilp_set_log(twill_ilp *m, twill_ilp_log_fn fn, void *ctx) {
  m->log = fn;
  m->log_ctx = ctx;
}

int twill_ilp_logs(const twill_ilp *m, int level) {
  return m->log && m->opt.verbosity >= level;
}

void twill_ilp_log(const twill_ilp *m, int level, const char *fmt, ...) {
  if (!twill_ilp_logs(m, level)) return;
  char small[256], *line = small;
  va_list ap;
  va_start(ap, fmt);
  int len = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (len < 0) return;
  if ((size_t)len >= sizeof small) {
    /* a long line (a certificate failure lists its culprits) */
    line = malloc((size_t)len + 1);
    if (!line) return;
    va_start(ap, fmt);
    vsnprintf(line, (size_t)len + 1, fmt, ap);
    va_end(ap);
  }
  m->log(m->log_ctx, level, line);
  if (line != small) free(line);
}
