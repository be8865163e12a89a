/* twill/joint.h: joint software pipelining + warp specialization (Twill
 * phase 2, docs/model.md section 4) and Algorithm 1 (docs/model.md section 5).
 *
 * THE MODEL.  A joint schedule at initiation interval I and length L gives
 * every op v a start time t(v) and a warp set S(v): one warp {w} for a warp-
 * or thread-issued op, a whole aligned warpgroup {g*WG .. g*WG+WG-1} for a
 * warpgroup-issued op (`groups` n > 1: n aligned warpgroups, n*WG warps
 * starting at a multiple of n*WG).  It is legal when all of the following hold (the
 * validator twill_joint_validate() checks exactly this list, the encoder
 * core/joint/joint_enc.c states it as clauses and linear constraints, and the
 * brute-force enumerator of the tests enumerates against the validator):
 *
 *  completion    0 <= t(v) and t(v) + max(lat(v), 1) <= L
 *  dependence    t(v) - t(u) >= d - I*delta for every edge (u, v, d, delta)
 *  capacity      modulo reservation table: per unit and slot s in [0, I),
 *                the instances held in cycles = s (mod I) <= capacity
 *  var. latency  when the kernel has variable-latency ops: warp 0 is W_vl;
 *                0 in S(v) iff v is variable-latency (a warpgroup-issued
 *                variable-latency op takes group 0, whose other warps stay
 *                open to warp-issued ops; none of the built-ins has one)
 *  lifetimes     the result of v is live over absolute cycles [t(v), e(v))
 *                with e(v) = max(t(v) + max(lat(v), 1), max over edges
 *                (v, u, d, delta) of t(u) + I*delta); in the steady state
 *                n_v(s) = max(#{k : t(v) <= s + k*I < e(v)}, k_min(v))
 *                copies are live at slot s, where k_min(v) =
 *                p->min_live[v], or 0 when p->min_live is NULL (only the
 *                "no I at all" relaxation sets it: see core/joint/joint_never.c)
 *                and, per cover C of p (ops; again only the "no I at all"
 *                relaxation has any): at every slot s where no op of C has
 *                a live copy, one op v of C, of the schedule's choice,
 *                holds one more copy than n_v(s) says ("a phantom copy",
 *                counted in need(w, s) below, not in the memories;
 *                joint_never.c says why)
 *  registers     per warp w and slot s: need(w, s) = sum over v with w in
 *                S(v) of regs(v) * n_v(s) (registers per thread); warpgroup
 *                g runs with a budget r_g >= need of each of its warps.
 *                With setmaxnreg (machine: LO HI STEP, STEP > 0): r_g in
 *                {LO, LO+STEP, ...}, r_g <= R, and the register file holds
 *                every group: sum_g 32*WG*r_g <= regs_per_sm.  Without it
 *                (STEP = 0): r_g = R and no register-file total (the user's
 *                R is taken as already fitting).  R = --regs, or the
 *                machine's reg_budget; HI is not used (R <= HI).
 *                `twill solve` sets regs_per_sm to the CTA's own
 *                allocation 32*W*R(W) at each warp count W it runs
 *                (twill/launch.h: the launch coupling), not the file.
 *  memories      per slot s: sum_v smem(v) * n_v(s) <= capacity of smem, and
 *                the same for tmem where the machine has it (on a machine
 *                without tmem, tmem footprints are ignored)
 *  cross-warp    a register edge is an edge (u, v, d, delta) with u != v
 *                whose source keeps its result in registers: regs(u) > 0,
 *                whether u is variable-latency or not (the Twill paper's
 *                CROSS-WARP SPILLS, Figure 6, quantifies over every edge).  It
 *                crosses warps when v runs on a warp that does not hold
 *                u's result:
 *                  crosses(u, v)  <=>  u != v, regs(u) > 0, and some
 *                                      w in S(v) is not in S(u).
 *                So (our decision: the paper gives no rule for ops over
 *                several warps; earlier versions of twill charged only
 *                edges whose warp sets were disjoint):
 *                  - u on one warp, v a warpgroup op: it crosses, even when
 *                    u's warp lies in v's group (the group's other warps do
 *                    not have the value; registers are per thread and a
 *                    shuffle reaches only the lanes of one warp);
 *                  - u a warpgroup op, v on one warp of u's group: it does
 *                    not cross (that warp holds its own lanes of u's
 *                    result);
 *                  - ops of equal span cross iff S(u) != S(v).
 *                the paper writes the rule for one warp per op (u on w,
 *                v on w' != w); for sets, "v on a warp w' that does not
 *                hold u's value" is the reading above.  A crossing edge
 *                moves the value through shared memory:
 *                  t(v) - t(u) >= d + X(u) - I*delta,
 *                X(u) = spill(u) when the kernel gives one, else the
 *                machine's cross_warp.  With --no-cross-warp a register
 *                edge must instead not cross (S(v) subset of S(u)).
 *                Sources without registers (TMEM or shared-memory results,
 *                barriers) synchronize through an mbarrier at no extra
 *                cost; a kernel may not give them a spill (the parsers and
 *                twill_graph_validate reject `spill` on an op with regs 0:
 *                it would have no effect).  The consumer of a crossing
 *                value waits on a barrier: it counts as a blocking
 *                consumer (below) for that edge.
 *  blocking      for a blocking edge into v, or a register edge into v
 *                that crosses warps: when v issues, no other op o
 *                sharing a warp with v is running: for o != v with S(o) and
 *                S(v) not disjoint, (t(v) - t(o)) mod I is not in
 *                [0, lat(o) - 1] (every copy of o counts: steady state;
 *                ops of latency 0 never run; v's own copies are not checked)
 *
 *  relations     optional, the user's questions about warp roles (twill
 *                solve --same / --apart / --own), each over a list of ops:
 *                same:  every listed op shares a warp with the first one;
 *                apart: the listed ops' warp sets are pairwise disjoint;
 *                own:   as same, and no op outside the list shares a warp
 *                       with a listed op (the ops have their warps to
 *                       themselves);
 *                lead:  two ops A, B: A of the next iteration issues
 *                       before B of this one, t(A) + I < t(B) (FA3's
 *                       hoisting of the next S GEMM before this PV).
 *                All four are invariant under renaming warps and groups,
 *                so the symmetry breaking below stays sound with them.
 *
 * SUB-TILE SYMMETRY (p->symmetry and p->subtile_symmetry, no relations).
 * Sub-tiles are the connected components of the ops that are not "shared"
 * (an op is shared when two different ops adjacent to it have the same
 * signature: lat, uses, regs, smem, tmem, spill, issue, groups, varlat and
 * k_min); two equal-size components are twins when swapping them op for op
 * in index order is an automorphism of the kernel (signatures kept, edges
 * onto edges, and covers, if any, onto covers); each component joins the first earlier class whose first
 * component it is a twin of.  Per class C_1..C_m the encoding adds
 * t(C_i[0]) <= t(C_i+1[0]) (first ops in index order): one schedule of every
 * orbit of the sub-tile permutations survives.  The checker derives the
 * same classes from the kernel and accepts the order only after it has
 * mapped its own translation through every transposition (C_1 C_i) and
 * found it unchanged (core/joint/joint_enc_sym.c has the argument).
 *
 * REGISTER TOTAL (p->reg_total, with setmaxnreg: STEP > 0).  A consequence
 * of the registers rule, stated so that the search need not find it: per
 * slot s, sum over the ops v that are neither warp- nor thread-issued nor
 * variable-latency of regs(v) * (span(v) / WG) * n_v(s) (phantom copies
 * counted) <= G' * LO + STEP * Q, where Q = floor((regs_per_sm -
 * G*32*WG*LO) / (32*WG*STEP)) bounds sum_g q_g, and G' = G - 1 when the
 * kernel has variable-latency ops (group 0 holds none of these values and
 * still has r_0 >= LO), else G.  Each copy summed sits on every warp of
 * span(v)/WG whole groups, so it is counted in need(w_g, s) of the first
 * warp w_g of each, and sum_g need(w_g, s) <= sum_g r_g.  The per-group
 * rows imply it only after a case split over the warp assignment; stated,
 * it prunes start times directly (FA3 forward with 5 sub-tiles on 16 warps:
 * I = 80 refuted in 25 s, no verdict in 300 s without).  The checker states
 * it too (core/check/check_joint.c) and the brute-force test holds both
 * against enumeration.
 *
 * Two ops on one warp may otherwise overlap (tensor-core and TMA ops are
 * asynchronous); what pushes work onto more warps is the register limit,
 * the blocking waits and the variable-latency warp, as in the paper.
 *
 * Every cost is in the graph's units: the solver runs on the normalized
 * graph, with the machine's cross-warp cost materialized into each op's
 * spill before normalization so it is scaled with the rest.
 *
 * Constraint families (for explanations, each guarded by a selector
 * literal): "registers of warpgroup g", "register file", "shared-memory
 * capacity", "tensor-memory capacity", "blocking wait of v",
 * "cross-warp transfer u->v", "variable-latency warp", and one per
 * relation ("--own a,b,...").  Completion,
 * dependences, capacity and warp uniqueness are the base (phase 1 already
 * showed they are satisfiable together).
 */
#ifndef TWILL_JOINT_H
#define TWILL_JOINT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "twill/arch.h"
#include "twill/graph.h"
#include "twill/normalize.h"
#include "twill/schedule.h"

typedef enum twill_rel_kind {
  TWILL_REL_SAME,
  TWILL_REL_APART,
  TWILL_REL_OWN,
  TWILL_REL_LEAD
} twill_rel_kind;

/* A relation over ops (indices into the graph): see "relations" above. */
typedef struct twill_joint_rel {
  twill_rel_kind kind;
  int nops;
  const int *ops;
} twill_joint_rel;

#define TWILL_JOINT_MAX_RELS 64

typedef struct twill_joint_params {
  int warps;          /* W: warps the CTA runs */
  int warpgroup;      /* WG: warps per warpgroup (W a multiple of it) */
  long regs;          /* R: per-thread register budget of a group */
  long regs_per_sm;
  int reg_lo, reg_step; /* setmaxnreg granularity; reg_step 0: r_g = R */
  long cross_warp;    /* X for ops with spill < 0, in graph units */
  bool no_cross_warp; /* register edges must stay on one warp */
  long smem_cap;      /* bytes; < 0: unlimited */
  long tmem_cap;      /* columns; < 0: the machine has none */
  bool symmetry;      /* break warp symmetry (default on) */
  bool subtile_symmetry; /* with symmetry: also order isomorphic sub-tiles
                         (below; default on: twill_joint_params_default) */
  bool reg_total;     /* state the register total (REGISTER TOTAL below;
                         default on) */
  const int *min_live; /* k_min(v) per op (see "lifetimes"), not owned;
                          NULL: none.  Only the "no I at all" relaxation
                          sets it; it is never written to a certificate
                          (the checker derives it from the kernel) */
  /* covers (see "lifetimes"), not owned: cover c is the ops
   * cover_ops[cover_at[c] .. cover_at[c+1]-1]; ncovers 0: none.  Like
   * min_live, only the "no I at all" relaxation sets them. */
  const int *cover_ops, *cover_at;
  int ncovers;
  const twill_joint_rel *rels; /* not owned; NULL when nrels == 0 */
  int nrels;
} twill_joint_params;

/* A growable set of relations that owns its op arrays. */
typedef struct twill_joint_relset {
  twill_joint_rel *rels;
  int n;
} twill_joint_relset;

/* Add the relation KIND over "a,b,c" (op names of g): at least two ops for
 * same and apart, one for own, exactly two for lead, no op twice.  0, or
 * -1 with why. */
int twill_joint_rel_add(twill_joint_relset *rs, const twill_graph *g,
                        twill_rel_kind kind, const char *list, char *why,
                        size_t whylen);
void twill_joint_relset_free(twill_joint_relset *rs);
/* "same" / "apart" / "own" / "lead" -> kind; -1 if none */
int twill_rel_parse_kind(const char *word);

/* "same", "apart", "own" */
const char *twill_rel_name(twill_rel_kind k);
/* Do the relations of p hold in s?  0 yes, else -1 and why. */
int twill_joint_check_rels(const twill_graph *g, const twill_joint_params *p,
                           const twill_schedule *s, char *why, size_t whylen);

/* Defaults from the machine: its warps, warpgroup size, reg_budget,
 * setmaxnreg, cross_warp (real cycles), smem and tmem capacities. */
void twill_joint_params_default(twill_joint_params *p, const twill_arch *m);

/* Check a joint schedule (s->warp set: first warp of each op) at I = s->ii
 * and length L against g (bound) and p.  0 if legal, else -1 and the first
 * violated constraint in why. */
int twill_joint_validate(const twill_graph *g, const twill_joint_params *p,
                         long L, const twill_schedule *s, char *why,
                         size_t whylen);

/* The register need of each warpgroup of a legal schedule (max over its
 * warps and slots), and the smem / tmem peaks; arrays of W/WG entries. */
void twill_joint_usage(const twill_graph *g, const twill_joint_params *p,
                       const twill_schedule *s, long *group_regs,
                       long *smem_peak, long *tmem_peak);

/* Algorithm 1 (twill_solve) orders sub-tiles only in kernels of at least
 * this many ops: every built-in kernel (at most 22 ops, each solved in
 * under a second without it) keeps the schedule it had before the order
 * existed (the order changes which of the equally good schedules the
 * search meets first); the certificate records whether it was used. */
#define TWILL_SUBTILE_MIN_OPS 23
/* The register total is stated from the same size on, for the same reason
 * (on fa4-bwd it changes the schedule met first and costs time).  The
 * certificate does not record it: the checker derives it from the kernel's
 * op count. */
#define TWILL_REG_TOTAL_MIN_OPS TWILL_SUBTILE_MIN_OPS

/* The sub-tile order of g under p (see SUB-TILE SYMMETRY): pairs (a, b),
 * meaning t(a) <= t(b), into pairs[2i], pairs[2i+1] (at most max_pairs;
 * g->nops - 1 always suffice).  Returns the number of pairs, 0 with
 * relations, or -1 out of memory. */
int twill_joint_subtile_order(const twill_graph *g, const twill_joint_params *p,
                              int *pairs, int max_pairs);
/* The cover of p whose op list is cover c's mapped op by op through the
 * op involution sig (sig[v]: v's image), or -1 when none is. */
int twill_joint_cover_image(const twill_joint_params *p, const int *sig, int c);

/* ---- the SAT encoding at fixed (I, L) --------------------------------- */

typedef struct twill_joint twill_joint;

#define TWILL_JOINT_MAX_FAMILIES 256

/* Build the encoding.  proof: log a certificate (twill/smt.h format).
 * NULL on error (bad parameters, an empty domain: L too short for an op,
 * a floor k_min(v) >= 1 that a lifetime could exceed: an op whose latest
 * possible end e(v) passes k_min(v) * I, or memory).  */
twill_joint *twill_joint_new(const twill_graph *g,
                             const twill_joint_params *p, long ii, long L,
                             bool proof);
void twill_joint_free(twill_joint *j);
int twill_joint_num_families(const twill_joint *j);
const char *twill_joint_family_name(const twill_joint *j, int f);

/* Solve with the families in `on` (NULL: all) assumed.  10 SAT (model in
 * *out, a new schedule with warps), 20 UNSAT, 0 limit.  After 20 with
 * core != NULL: core[f] = 1 for the families in the solver's failed set. */
int twill_joint_solve(twill_joint *j, const bool *on, double time_limit,
                      twill_schedule **out, bool *core);
/* Among the schedules of this (I, L), one with the fewest register values
 * crossing warps (an extension: the paper stops at the first model).
 * Returns 10 with *best (replaced) and *count, else the solver's answer.
 * conflicts (< 0: none): a budget for all its solves together; spent,
 * the best schedule so far is kept (the same one on every run, where a
 * time limit would make it depend on the load). */
int twill_joint_min_cross(twill_joint *j, double time_limit, int64_t conflicts,
                          twill_schedule **best, int *count);
/* A budget of conflicts for each later solve (< 0: none), counted from
 * that solve's start, beside its time limit: a count does not depend on
 * the load, so an answer bounded by it is the same on every run.
 * twill_joint_num_conflicts: the conflicts of every solve so far. */
void twill_joint_set_conflict_limit(twill_joint *j, int64_t conflicts);
/* Stop every later solve soon after *flag becomes nonzero (another
 * thread's cancel; NULL: none): it returns 0, as at a limit. */
void twill_joint_set_cancel(twill_joint *j, const atomic_int *flag);
uint64_t twill_joint_num_conflicts(const twill_joint *j);
/* Turn the selectors into input units and solve again: 20 means the
 * certificate (twill_joint_write_proof) refutes the encoding outright.
 * After a twill_joint_solve that answered 20 under the selectors, the
 * clauses it learned settle this at once, and the certificate (its units
 * moved to where a fresh encoding writes them, before the literals the
 * search created: twill_smt_write_proof_moved) has that search in it: a
 * certified refutation is searched for once, not twice. */
int twill_joint_refute(twill_joint *j, double time_limit);
int twill_joint_write_proof(const twill_joint *j, FILE *f);
/* The certificate preamble a fresh encoding writes (no solve, selectors as
 * units): what the checker compares a refutation's first lines with. */
char *twill_joint_preamble(const twill_graph *g, const twill_joint_params *p,
                           long ii, long L, size_t *len);

/* ---- no I at all (core/joint/joint_never.c) ---------------------------------
 * The single-iteration relaxation.  From G:
 *   G'   G without its loop-carried edges (dist >= 1) (twill_never_graph);
 *   k(v) = max(0, max over edges (v, u, d, delta) of G of
 *          delta - D(v, u)), D(v, u) the least sum of distances over the
 *          paths from v to u in G, D(v, v) = 0 (twill_never_live): v's
 *          result holds at least k(v) copies at every slot at every I;
 *   X(v) = spill(v) if given, else the machine's cross_warp, when
 *          regs(v) > 0; else 0;
 *   w(v) = max(lat1(v), max end of v's unit uses, max over v's edges e in
 *          G' of lat(e) + X(v));  L' = sum_v w(v);  U = max end of any
 *          op's unit uses;  I' = L' + U (twill_never_size);
 *   the parameters of G without its "lead" relations (twill_never_params),
 *          with min_live = k and the covers of twill_never_covers.
 * If the joint problem of G' at (I', L') under those parameters is
 * unsatisfiable, G has no joint schedule at any I and L (the argument is
 * in core/joint/joint_never.c).  Algorithm 1 tries it once, when phase 1's I
 * fails; the checker derives G', k, I', L' from the kernel itself. */
twill_graph *twill_never_graph(const twill_graph *g);
void twill_never_size(const twill_graph *gn, const twill_joint_params *p,
                      long *ii, long *L);
/* k(v) for every op of g (with its loop-carried edges) into k (g->nops
 * entries).  0, or -1 out of memory. */
int twill_never_live(const twill_graph *g, int *k);
/* The covers of g given its floors k (twill_never_live): lists of ops of
 * which one holds a copy at every slot at every I (the rule and why are
 * in core/joint/joint_never.c), into *ops and *at (allocated, the layout
 * of twill_joint_params.cover_ops and cover_at) and *n.  0, or -1 out of
 * memory. */
int twill_never_covers(const twill_graph *g, const int *k, int **ops, int **at, int *n);
/* The packing rule (core/joint/joint_never.c): with the floors k and the
 * covers of g, is there an op x whose result, beside the copies that are
 * live at every slot, fits no assignment to the warpgroups' register
 * budgets of p?  1 with *x (then no I has a schedule) and counts[0], [1]
 * the covers and floors counted beside it; 0 none; -1 out of memory. */
int twill_never_pack(const twill_graph *g, const twill_joint_params *p, const int *k,
                     const int *cov, const int *cov_at, int ncov, int *x, int counts[2]);
/* p without its "lead" relations (about the next iteration); keep holds
 * p->nrels entries and backs the result's rels. */
twill_joint_params twill_never_params(const twill_joint_params *p,
                                      twill_joint_rel *keep);

/* ---- Algorithm 1 ------------------------------------------------------ */

typedef struct twill_solve_opts {
  double time_limit;  /* whole search, seconds; <= 0: none */
  long budget;        /* normalization budget U; 0: --no-normalize */
  int extra_copies;   /* 0: the paper's L range; k: k more copies of I */
  bool certify;
  bool explain;       /* minimal failing families at each refuted I */
  /* progress: one line per query, "I 32, L <= 64: SAT, length 60 (0.12 s)"; NULL:
   * silent (the library never prints; the program passes a function that
   * writes to stderr when stderr is a terminal) */
  void (*log)(void *ctx, const char *line);
  void *log_ctx;
  int threads;        /* the least-L search queries this many lengths at
                         once (each on its own encoding), and from 2 on
                         the next I is asked beside the current one; the
                         answer and its bytes do not depend on it */
  bool first_model;   /* the paper's behaviour: keep the first joint model;
                         default: fewest register values crossing warps at
                         (I*, L*) (fewer transfers and barriers) */
  long ii_max;        /* > 0: stop (status 4) once every I <= ii_max is
                         refuted: the caller (the launch search of
                         core/joint/launch.c) already has a schedule at
                         ii_max with other parameters; 0: none */
  long length_max;    /* with ii_max: at I = ii_max only lengths up to
                         this are searched (the caller's answer has it);
                         0: Algorithm 1's copies */
  long gaus_min_ops;  /* phase 1's twill_modulo_opts.gaus_min_ops (a GauS-C
                         schedule as the program's first incumbent from
                         this many ops on; 0: never) */
} twill_solve_opts;

typedef struct twill_solve_try {
  long ii, lmin, lmax;   /* the L range searched at this I */
  int status;            /* 10 SAT, 20 UNSAT, 0 limit, -1 phase 1 failed */
  char *why;             /* explanation of an UNSAT (NULL if none) */
  char *proof;           /* with certify: refutation at (ii, lmax) */
  size_t proof_len;
  long *witness;         /* above phase 1's I: the start times of the modulo
                            schedule whose length set lmax (NULL if none) */
  double seconds;
} twill_solve_try;

typedef struct twill_solve_result {
  int status;            /* 0 optimal, 3 limit, 2 infeasible, 4 none at
                            I < opts.ii_max, nor at ii_max within
                            opts.length_max (each refuted), -1 error */
  twill_graph *g;        /* the normalized graph solved (owned) */
  twill_joint_params p;  /* in graph units */
  long phase1_ii, phase1_length;
  long ii, length;       /* the answer (0 if none) */
  long ii_lower;         /* proven: no joint schedule below (in the space searched) */
  bool length_proven;    /* no joint schedule at ii shorter than length */
  int cross_edges;       /* register values crossing warps in sched (-1: not minimized) */
  twill_schedule *sched;
  twill_solve_try *tries;
  int ntries;
  char *phase1_cert;     /* with certify */
  size_t phase1_cert_len;
  char *length_proof;    /* refutation at (ii, length - 1) */
  size_t length_proof_len;
  long norm_budget;
  long cross_warp_real;  /* the cross-warp cost before normalization */
  twill_norm norm;       /* the mapping g was normalized with (n = 0: not
                            normalized), with its optimality proof for the
                            certificate; twill_norm_scale() gives the real
                            cycles per normalized cycle for reports */
  bool phase1_ii_proven; /* phase 1 proved phase1_ii (no modulo schedule
                            below it) */
  bool phase1_length_proven; /* phase 1 proved phase1_length minimal at
                            phase1_ii (it stops once I* is proven, so
                            often not: twill modulo goes on to prove it) */
  char why_never[400];   /* status 2: why no I can ever work */
  char *never_proof;     /* status 2 with certify: the single-iteration */
  size_t never_proof_len; /* relaxation refuted at (never_ii, never_L) */
  long never_ii, never_L;
  bool never_covers;     /* the relaxation refuted had its covers */
  int never_pack;        /* status 2 by the packing rule: its op + 1 (then
                            no never_proof: the checker counts again) */
  double seconds;
} twill_solve_result;

void twill_solve_opts_default(twill_solve_opts *o);
/* The graph Algorithm 1 runs on: twill_normalize_kernel(g, p->cross_warp,
 * budget) (twill/normalize.h: the cross-warp cost written into the spill of
 * every op that pays it, then normalized with budget; 0: not normalized),
 * the same graph `twill modulo` schedules; *X gets cross_warp in the graph's
 * units and *nm (may be NULL) the mapping.  The checker rebuilds it the
 * same way.  NULL on error. */
twill_graph *twill_solve_prepare(const twill_graph *g,
                                 const twill_joint_params *p, long budget,
                                 double limit, long *X, twill_norm *nm);
/* g validated and bound to m; p in real cycles (from the defaults and
 * flags).  Returns 0 (see r->status) or -1. */
int twill_solve(const twill_graph *g, const twill_arch *m,
                const twill_joint_params *p, const twill_solve_opts *o,
                twill_solve_result *r);
void twill_solve_result_clear(twill_solve_result *r);

/* The certificate of a run with opts.certify (format version 2, in
 * core/check/cert_solve.c; checked by twill_check_cert of twill/check.h).
 * 0, or -1 when the result cannot be certified. */
int twill_solve_write_cert(const twill_solve_result *r, const char *machine,
                           FILE *f);
/* The same with the launch search's additions (core/joint/launch.c): the
 * text `launch` (NULL: none) just before the params line, and `tail`
 * (NULL: none) just before the final "end". */
int twill_solve_write_cert_ext(const twill_solve_result *r, const char *machine,
                               const char *launch, const char *tail, FILE *f);
/* A status-2 result's "no I at all" block (never, never-covers or
 * never-pack) as the certificate states it.  0, or -1 when it has none. */
int twill_solve_write_never(const twill_solve_result *r, FILE *f);

#endif
