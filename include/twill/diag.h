/* twill/diag.h: one diagnostic, as every parser reports it.
 *
 * A parser never prints and never exits: it fills a twill_diag and returns
 * non-zero.  The caller prints it with twill_diag_print() as
 *     file:line:col: message
 * which is the form editors and scripts understand.  line and col are
 * 1-based; 0 means "not known" (for example a missing required section is
 * reported at the end of the file, or a value given on the command line).
 */
#ifndef TWILL_DIAG_H
#define TWILL_DIAG_H

#include <stdio.h>

#define TWILL_DIAG_MSG 256
#define TWILL_DIAG_FILE 256

typedef struct twill_diag {
  char file[TWILL_DIAG_FILE];
  int line;
  int col;
  char msg[TWILL_DIAG_MSG];
} twill_diag;

/* Fill d (if not NULL) with a formatted message.  Returns -1 so that a
 * parser can write `return twill_diag_set(d, ...);`. */
int twill_diag_set(twill_diag *d, const char *file, int line, int col,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Print "file:line:col: msg\n" (omitting unknown parts) to f. */
void twill_diag_print(const twill_diag *d, FILE *f);

#endif
