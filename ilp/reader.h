/* ilp/reader.h: what the MPS and CPLEX LP readers share (private to ilp/):
 * a table from names to indices (files are read by twill_read_file,
 * twill/io.h). */
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
int twill_ilp_names_find(const ilp_names *h, const char *s, size_t n);
/* Store v under the NUL-terminated s (not copied).  1, or 0 when out of
 * memory. */
int twill_ilp_names_put(ilp_names *h, const char *s, int v);
void twill_ilp_names_free(ilp_names *h);

#endif
