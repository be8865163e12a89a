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
 */
#ifndef TWILL_NORMALIZE_H
#define TWILL_NORMALIZE_H

#include "twill/graph.h"

typedef struct twill_norm {
  int n;          /* distinct positive costs */
  long *cost;     /* real costs, ascending */
  long *scaled;   /* their normalized values */
  long F;         /* the optimum of the program */
  long sum;       /* sum of the normalized values */
  long U;
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
 * on error; *nm receives the mapping. */
twill_graph *twill_normalize_graph(const twill_graph *g, long U,
                                   double time_limit, twill_norm *nm);

#endif
