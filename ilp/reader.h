/* ilp/reader.h: what the MPS and CPLEX LP readers share (private to ilp/):
 * a table from names to indices and reading a whole file or stream. */
#ifndef TWILL_ILP_READER_H
#define TWILL_ILP_READER_H

#include <stddef.h>
#include <stdio.h>

/* Open addressing on a power-of-two table, at most half full.  Keys are
 * borrowed (the names live in the model, or with the caller). */
typedef struct ilp_names {
  char **key;
  int *val;
  int cap, cnt;
} ilp_names;

/* The value stored under the n bytes at s, or -1 when absent. */
int ilp_names_find(const ilp_names *h, const char *s, size_t n);
/* Store v under the NUL-terminated s (not copied).  1, or 0 when out of
 * memory. */
int ilp_names_put(ilp_names *h, const char *s, int v);
void ilp_names_free(ilp_names *h);

/* The whole of f in a malloc'd buffer (*len bytes, NUL-terminated).
 * Returns NULL when out of memory or on a read error. */
char *ilp_read_stream(FILE *f, size_t *len);

#endif
