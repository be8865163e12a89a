/* twill/normalize.h: cost normalization (docs/model.md section 2; the Twill
 * paper's section 5.2).
 *
 * Scaling every cycle count by one positive factor gives an isomorphic
 * scheduling problem, so only ratios matter.  Normalization picks small
 * integers C' whose pairwise ratios are as close as possible to those of
 * the real costs C, by the integer program
 *
 *   minimize   F   (then, as a tie-break, sum C')
 *   subject to -F <= C[i]*C'[j] - C[j]*C'[i] <= F    for all i < j
 *              1 <= sum C' <= U,   C'[i] >= 0 integer
 *
 * solved on ilp/ with the objective (U+1)*F + sum C' (sum C' <= U < U+1
 * makes it lexicographic).  As in the paper a cost may normalize to 0 when
 * it is tiny beside the others (a 1-cycle release beside a 512-cycle GEMM);
 * our one change when applying the mapping: a unit use keeps at least one
 * cycle, so no op silently stops occupying its unit.
 *
 * Normalized together: every distinct positive value among op latencies,
 * use offsets and use lengths, edge latencies and spill costs of the graph;
 * the mapping is kept so results are reported in both units.
 *
 * ONE normalization per kernel and machine.  `twill modulo`, `twill solve`,
 * `twill emit` and both certificate checkers normalize a kernel through
 * twill_normalize_kernel(), which first writes the machine's cross-warp cost
 * into the spill of every op that pays it by default
 * (twill_op_pays_cross_warp) and then normalizes that graph's costs: the
 * same kernel on the same machine gets the same mapping everywhere, and the
 * rule that decides who pays the default lives in one place.  Phase 1 does
 * not read spill, but its costs are normalized with it, so that phase 1 and
 * phase 2 speak the same cycles.
 *
 * Solving and applying are separate: twill_normalize_apply() rebuilds the
 * normalized graph from a mapping alone (a schedule file, a certificate)
 * without the program and without a clock.
 *
 * What users see: a normalized time t is reported as round(t * num / den)
 * real cycles with num/den = twill_norm_scale(), the largest real cost over
 * its normalized value (the cost the program fits best in relative terms;
 * exact for every cost when F = 0).
 */
#ifndef TWILL_NORMALIZE_H
#define TWILL_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "twill/graph.h"

typedef struct twill_norm {
  int n;          /* distinct positive costs */
  long *cost;     /* real costs, ascending */
  long *scaled;   /* their normalized values */
  long F;         /* the optimum of the program */
  long sum;       /* sum of the normalized values */
  long U;
  char *vipr;     /* with two costs or more and a proven optimum: the
                     program's VIPR certificate (RTP range), else NULL */
  size_t vipr_len;
} twill_norm;

/* Normalize n distinct positive costs (any order) with budget U >= n.
 * Returns 0, 1 if the program hit its limit (no proven optimum; out holds
 * the best found), -1 on error.  Free with twill_norm_clear(). */
int twill_normalize_costs(const long *costs, int n, long U, double time_limit,
                          twill_norm *out);
void twill_norm_clear(twill_norm *nm);
/* The normalized value of a real cost (0 stays 0; -1 for an unknown cost;
 * a positive cost may map to 0). */
long twill_norm_map(const twill_norm *nm, long cost);

/* A copy of g with every cost normalized (U: budget, default 300).  NULL
 * on error; *nm receives the mapping.  The graph's own costs only: kernels
 * go through twill_normalize_kernel(). */
twill_graph *twill_normalize_graph(const twill_graph *g, long U,
                                   double time_limit, twill_norm *nm);

/* A copy of g with every cost replaced by its value under nm (twill_norm_map;
 * a unit use keeps at least one cycle).  Pure: no program, no clock.  NULL
 * when a positive cost of g has no value in nm (why says which, if not
 * NULL) or on allocation failure. */
twill_graph *twill_normalize_apply(const twill_graph *g, const twill_norm *nm,
                                   char *why, size_t whylen);

/* Does op o pay the machine's cross-warp cost when its result crosses
 * warps, for want of its own `spill`?  Ops that keep a result in
 * registers, variable-latency or not, and give no spill of their own
 * (twill/joint.h, "cross-warp"). */
bool twill_op_pays_cross_warp(const twill_op *o);
/* A copy of g with cross_warp (cycles) written into the spill of every op
 * that pays it (twill_op_pays_cross_warp).  NULL on allocation failure. */
twill_graph *twill_graph_with_cross_warp(const twill_graph *g, long cross_warp);

/* The kernel as every solver sees it: twill_graph_with_cross_warp(g,
 * cross_warp), then, when U > 0, normalized (twill_normalize_graph).  With
 * U <= 0 nm is left empty (n = 0) and the costs stay real.  NULL on error
 * (a budget below the number of distinct costs, memory). */
twill_graph *twill_normalize_kernel(const twill_graph *g, long cross_warp,
                                    long U, double time_limit, twill_norm *nm);
/* The same graph from a mapping already known (read from a file): with
 * nm->n == 0 the costs stay real.  NULL with why on a cost nm lacks. */
twill_graph *twill_normalize_kernel_apply(const twill_graph *g, long cross_warp,
                                          const twill_norm *nm, char *why,
                                          size_t whylen);

/* A mapping from pairs (cost[i] -> scaled[i]), e.g. read from a file:
 * costs positive and distinct (any order), scaled >= 0 and not all 0.
 * Returns 0, or -1 with why on bad pairs or memory. */
int twill_norm_from_pairs(const long *cost, const long *scaled, int n, long U,
                          long F, twill_norm *out, char *why, size_t whylen);

/* Real cycles per normalized cycle as a reduced fraction num/den: the
 * largest cost whose normalized value is positive over that value.  1/1
 * for NULL or an empty mapping (costs as given). */
void twill_norm_scale(const twill_norm *nm, long *num, long *den);
/* round(t * num / den) for t >= 0 (halves up), in integer arithmetic:
 * how every output shows a normalized time in real cycles. */
long twill_norm_real(long t, long num, long den);

#endif
