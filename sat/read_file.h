/* sat/read_file.h: read a whole file into memory (sat/ is libc-only, so it
 * keeps this small helper of its own for its front ends). */
#ifndef TWILL_SAT_READ_FILE_H
#define TWILL_SAT_READ_FILE_H

#include <stddef.h>

/* The file's bytes (malloc'd, caller frees) and their count in *len; NULL
 * if it cannot be opened or read, or memory runs out. */
char *twill_sat_read_file(const char *path, size_t *len);

#endif
