/* graph/graph_io.h: helpers shared by the kernel readers and printers
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

/* Name of op v for messages and printers (never NULL). */
const char *twill_gio_op_name(const twill_graph *g, int v);

#endif
