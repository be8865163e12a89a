/* codegen/report.h: what the parts of the HTML report share (private to
 * codegen/): the page being written, the one conversion from the cycles of
 * the graph scheduled to real cycles, HTML escaping, and the colours.
 *
 * Cycle counts: every number that is a count of cycles goes through
 * twill_rpt_time (times: start, slot, I, L, bounds) or twill_rpt_cost (a
 * latency or use the kernel states itself, whose real value is the
 * kernel's own).  When the graph is normalized each writes
 *   <span class="cy" data-r="REAL" data-n="NORMALIZED">REAL</span>
 * (a tspan inside SVG text), which the page's script flips between the two
 * values; otherwise the plain number.  Drawings keep one grid step per
 * cycle of the graph scheduled. */
#ifndef TWILL_CODEGEN_REPORT_H
#define TWILL_CODEGEN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"
#include "twill/bounds.h"
#include "twill/codegen.h"

typedef struct rpt {
  const twill_report *r;
  const twill_graph *g;   /* scheduled */
  const twill_graph *src; /* the kernel's own costs (g when none given) */
  FILE *f;
  bool scaled;            /* g is normalized: real and normalized differ */
  bool sched;             /* r->s is set and cm is valid */
  cg_model cm;
  twill_bounds b;
  bool bounds;            /* b is valid */
  int wg;                 /* warps per warpgroup */
  int *ucolor;            /* per op: palette index of its first unit, -1 */
} rpt;

/* THE scale conversion: a time t in cycles of the graph scheduled, in real
 * cycles: round(t * k) with k = real_per_cycle; t itself when not scaled. */
long twill_rpt_real(const rpt *R, long t);

/* Text with &, <, >, " and ' escaped (control characters dropped). */
void twill_rpt_esc(FILE *f, const char *s);
/* A time (see above); tspan: inside SVG text. */
void twill_rpt_time(const rpt *R, long t, bool tspan);
/* A cost of op/edge: n in the graph scheduled, real as the kernel states. */
void twill_rpt_cost(const rpt *R, long n, long real, bool tspan);

/* Colours (each palette cycles): by unit, by warp role, by iteration. */
const char *twill_rpt_color(int k);
const char *twill_rpt_role_color(int r);
const char *twill_rpt_iter_color(int j);
#define RPT_NONE_COLOR "#9e9e9e"
/* The colour of op v's bars by its first unit (RPT_NONE_COLOR: none). */
const char *twill_rpt_op_color(const rpt *R, int v);

/* The drawings (codegen/report_draw.c): kernel graph, steady state per warp
 * role and per unit, the whole pipelined loop.  0 or -1 (allocation). */
int twill_rpt_graph_svg(rpt *R);
int twill_rpt_steady_svg(rpt *R);
int twill_rpt_loop_svg(rpt *R);
/* The modulo reservation table and the pressure per slot
 * (codegen/report_mrt.c).  0 or -1 (allocation). */
int twill_rpt_mrt(rpt *R);
int twill_rpt_pressure(rpt *R);

#endif
