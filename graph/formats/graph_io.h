/* graph/formats/graph_io.h: helpers shared by the kernel readers and printers
 * (parse_text.c, parse_json.c, print.c).  Private to graph/. */
#ifndef TWILL_GRAPH_IO_H
#define TWILL_GRAPH_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "twill/graph.h"

/* Largest value of an int field (capacity, offset, cycles, count, dist) and
 * of a long field (latencies, regs, smem, tmem, spill) in a kernel file. */
#define TWILL_GIO_INT_MAX 2147483647LL
#define TWILL_GIO_LONG_MAX 1000000000000LL

/* A name of an op, unit or kernel: 1..TWILL_GIO_NAME_MAX bytes of letters,
 * digits and _ . - + / $ ^ * < > ! ? % & | ~ = ( ) [ ] (no blanks, quotes,
 * '#', '@', ':' or ','), so that every format can print it back. */
#define TWILL_GIO_NAME_MAX 128
bool twill_gio_name_ok(const char *s, size_t n);
/* A machine name (built-in name or path): 1..1024 printable ASCII bytes
 * other than blank and '#'. */
bool twill_gio_arch_ok(const char *s, size_t n);

/* "thread" / "warp" / "warpgroup"; returns 0 or -1 if s names none. */
int twill_gio_issue_parse(const char *s, size_t n, twill_issue *out);
const char *twill_gio_issue_name(twill_issue i);

/* A hash index from op name to op index, so that a parser looks names up
 * in constant time (kernels from circuits have tens of thousands of ops). */
typedef struct twill_gio_names {
  int *slot;  /* op index, or -1 for an empty slot */
  size_t cap; /* a power of two, or 0 */
  size_t n;
} twill_gio_names;
/* Index of the op named name (len bytes), or -1. */
int twill_gio_names_find(const twill_gio_names *h, const twill_graph *g,
                         const char *name, size_t len);
/* Add op v (its name must not be in h yet); 0, or -1 on allocation failure. */
int twill_gio_names_add(twill_gio_names *h, const twill_graph *g, int v);
void twill_gio_names_free(twill_gio_names *h);

/* Name of op v for messages and printers (never NULL). */
const char *twill_gio_op_name(const twill_graph *g, int v);

#endif
