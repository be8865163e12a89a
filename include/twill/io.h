/* twill/io.h: the one whole-file reader every front end uses.
 *
 * "-" names standard input, so that every command reading a file also
 * reads a pipe.  The bytes come back NUL-terminated (one extra byte not
 * counted in *len) so that text parsers may stop at the NUL as well as at
 * len.  Files over 1 GiB are refused: nothing twill reads is that large, and
 * a runaway pipe should not take the machine's memory.
 */
#ifndef TWILL_IO_H
#define TWILL_IO_H

#include <stddef.h>

#include "twill/diag.h"

/* The file's bytes (malloc'd, caller frees), their count in *len (may be
 * NULL).  NULL with d filled ("PATH: cannot open: reason", "cannot read",
 * "file too large", "out of memory") on failure. */
char *twill_read_file(const char *path, size_t *len, twill_diag *d);

#endif
