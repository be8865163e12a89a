/* tests/fixtures.h: small graphs built in code, shared by the suites, each
 * with its expected figures derived by hand where it is used. */
#ifndef TWILL_FIXTURES_H
#define TWILL_FIXTURES_H

#include "twill/graph.h"
#include "twill/joint.h"

/* fig1 (Twill paper, Fig. 1): S, P, O of 1 cycle; S, O on TC, P on EXP (cap 1);
 * edges S->P (1,0), P->O (1,0), O->O (1,1). */
twill_graph *tf_fig1(void);
/* dragon (twill-egraphs dragon_book, see kernels/dragon.twill): a, b, c, d
 * on u0/u1 (cap 1); d holds u0 then u1. */
twill_graph *tf_dragon(void);
/* gap: op a (lat 3) holds U (cap 1) at cycles 0 and 2; b after a (lat 3).
 * MII 2, but no schedule at 2 (both uses in slot 0): I* = 3. */
twill_graph *tf_gap(void);
/* One unit of capacity 1: a uses it at offsets 0, 1, 3; b and c for 2
 * cycles each.  7 uses: MII 7, and at I = 7 the unit is full but the
 * residue a leaves between its uses at 1 and 3 fits no 2-cycle use: no
 * schedule; at I = 8 a at 0, b at 4, c at 6 fit.  So I* = 8. */
twill_graph *tf_hole(void);

/* The third example of the conformance check: a (lat 0) -> b (lat 2, on
 * unit A for 2 cycles, thread-issued, 96 registers), blocking, and
 * b -> b (lat 2, distance 2), blocking.  b's value lives from t(b) until b
 * two iterations later, t(b) + 2I, so at every I two copies are live at
 * every slot: 192 registers on b's warp (test_joint derives the rest). */
twill_graph *tf_two_iterations(void);
/* The packing rule's kernel (core/joint/joint_never.c): a variable-
 * latency load ld (thread, latency 0), so warp 0 is its own; x, a
 * warpgroup op of rx registers; an accumulator c1 -> c2 -> c1 (distance
 * 1), warpgroup ops of 4 registers each, one of which is live at every
 * slot.  On 8 warps (groups of 4) at R = 8 only group 1 runs warpgroup
 * ops: rx = 5 fits at no I (5 + 4 > 8), rx = 4 has a schedule. */
twill_graph *tf_pack(long rx);
/* A tiny machine for the joint model: W warps in groups of WG, a budget
 * of R registers per thread, a register file that never binds, no
 * setmaxnreg, cross-warp transfers of cost 1, no memory capacities. */
twill_joint_params tf_tiny_params(int W, int WG, long R);

/* xorshift64: the suites' deterministic generator. */
unsigned long long tf_rnd(unsigned long long *x);
/* A random loop of 2..5 ops on 1..nu_max units: one use per op (and a
 * second use with a gap at offset 2 with probability 1/gap_every), forward
 * edges with probability 1/3, maybe one back edge. */
twill_graph *tf_random_loop(unsigned long long *r, int nu_max, int gap_every);

#endif
