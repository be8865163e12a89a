/* graph/diag.c: formatting and printing diagnostics (twill/diag.h). */
#include "twill/diag.h"

#include <stdarg.h>
#include <string.h>

int twill_diag_set(twill_diag *d, const char *file, int line, int col,
                   const char *fmt, ...) {
  if (!d) return -1;
  snprintf(d->file, sizeof d->file, "%s", file ? file : "");
  d->line = line;
  d->col = col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->msg, sizeof d->msg, fmt, ap);
  va_end(ap);
  return -1;
}

void twill_diag_print(const twill_diag *d, FILE *f) {
  if (d->file[0]) {
    fputs(d->file, f);
    if (d->line > 0) {
      fprintf(f, ":%d", d->line);
      if (d->col > 0) fprintf(f, ":%d", d->col);
    }
    fputs(": ", f);
  }
  fprintf(f, "%s\n", d->msg);
}
