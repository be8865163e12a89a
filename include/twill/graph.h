/* twill/graph.h: the dependence graph of one loop body.
 *
 * G = (V, E).  Every op v is a tile-level instruction that issues once per
 * iteration; every edge (u, v, d, delta) says that the instance of v in
 * iteration i may issue no earlier than d cycles after the instance of u in
 * iteration i - delta:
 *
 *        t(v) + I*(i)  >=  t(u) + I*(i - delta) + d
 *   <=>  t(v) - t(u)   >=  d - I*delta                       (issue-to-issue)
 *
 * An op's reservation table is a list of uses: unit U is busy with `count`
 * instances from cycle `offset` to `offset + cycles - 1` after the op issues.
 *
 * Units are named in the graph; their capacities come from the machine
 * (arch/) unless the kernel declares or overrides them with a `unit` line.
 * twill_graph_bind() resolves every unit against a machine.
 *
 * Ownership: a twill_graph owns every string and array inside it; free it
 * with twill_graph_free().  The struct is plain so that solvers can read it
 * directly; build and change it only through the functions below, which
 * keep the invariants (indices in range, unique names).
 */
#ifndef TWILL_GRAPH_H
#define TWILL_GRAPH_H

#include <stdbool.h>
#include <stdio.h>

#include "twill/diag.h"

/* Who issues an op.  A warpgroup-wide op (Hopper wgmma, TMEM loads) needs a
 * whole warpgroup; a thread-issued op (tcgen05.mma, TMA) one thread of one
 * warp. */
typedef enum twill_issue {
  TWILL_ISSUE_WARP = 0,      /* default: one warp */
  TWILL_ISSUE_THREAD = 1,    /* a single thread of one warp */
  TWILL_ISSUE_WARPGROUP = 2  /* all warps of one warpgroup */
} twill_issue;

typedef struct twill_use {
  int unit;   /* index into graph->units */
  int offset; /* first busy cycle, counted from issue (>= 0) */
  int cycles; /* number of busy cycles (>= 1) */
  int count;  /* instances of the unit held in each of those cycles (>= 1) */
} twill_use;

typedef struct twill_unit {
  char *name;
  int capacity;  /* instances per SM; valid after bind or when declared */
  bool declared; /* capacity given by the kernel (`unit` line / JSON) */
  int line;      /* where declared or first used (0 if built in code) */
} twill_unit;

typedef struct twill_op {
  char *name;
  long lat;         /* cycles(v): issue to completion; >= 0 */
  twill_use *uses;
  int nuses;
  /* Annotations for the joint SWP+WS problem (docs/model.md section 1). */
  long regs;        /* registers per thread its result holds while live */
  long smem;        /* bytes of shared memory its result holds while live */
  long tmem;        /* TMEM columns its result holds while live */
  long spill;       /* cross-warp transfer cost of its result, cycles;
                       -1: use the machine's default; only on an op with
                       regs > 0 (the only results that move between warps
                       at a cost: twill/joint.h, "cross-warp") */
  twill_issue issue;
  int groups;       /* warpgroups a warpgroup-issued op takes together
                       (1, 2 or 4; aligned: its first warp a multiple of
                       groups x warpgroup), e.g. a 256-row tile's TMEM
                       load needs 8 warps; 1 for other ops */
  bool varlat;      /* variable latency: runs on the designated warp W_vl */
  int line;         /* source line (0 if built in code) */
  int col;          /* column of its name there (of its object in JSON) */
} twill_op;

/* Warps an op occupies on a machine with warpgroups of wg warps. */
static inline int twill_op_span(const twill_op *o, int wg) {
  return o->issue == TWILL_ISSUE_WARPGROUP ? (o->groups > 1 ? o->groups : 1) * wg : 1;
}

typedef struct twill_edge {
  int src, dst;     /* op indices */
  long lat;         /* d >= 0 */
  int dist;         /* delta >= 0 */
  bool blocking;    /* dst needs a blocking wait for src's result */
  int line;
} twill_edge;

typedef struct twill_graph {
  char *name;       /* kernel name */
  char *arch;       /* machine named by the kernel (built-in or path), or NULL */
  int arch_line, arch_col; /* where the file names it (0: not known), so
                              that an unknown machine is reported there */
  twill_unit *units;
  int nunits;
  twill_op *ops;
  int nops;
  twill_edge *edges;
  int nedges;
  /* private: growth capacities, and an open-addressing index of op names
   * (slot holds op index + 1, 0 = empty; ophash_cap is 0 or a power of 2) */
  int cap_units, cap_ops, cap_edges;
  int *ophash;
  int ophash_cap;
} twill_graph;

/* ---- building ---------------------------------------------------------- */

/* New empty graph; NULL on allocation failure. */
twill_graph *twill_graph_new(const char *name);
void twill_graph_free(twill_graph *g);

/* Deep copy; NULL on allocation failure. */
twill_graph *twill_graph_clone(const twill_graph *g);

/* Set the machine name (copied); returns 0, or -1 on allocation failure. */
int twill_graph_set_arch(twill_graph *g, const char *arch);

/* Index of unit NAME, adding it undeclared if absent; -1 on alloc failure. */
int twill_graph_unit(twill_graph *g, const char *name);
/* Declare (or re-declare) a unit's capacity; returns its index or -1. */
int twill_graph_declare_unit(twill_graph *g, const char *name, int capacity);
int twill_graph_find_unit(const twill_graph *g, const char *name);

/* Add an op with default annotations (no uses, regs 0, issue warp, spill -1).
 * Returns its index, -1 on allocation failure, -2 if the name exists. */
int twill_graph_add_op(twill_graph *g, const char *name, long lat);
int twill_graph_find_op(const twill_graph *g, const char *name);
/* Append a use to op v; returns 0 or -1 on allocation failure. */
int twill_graph_add_use(twill_graph *g, int v, int unit, int offset,
                        int cycles, int count);

/* Add an edge; returns its index or -1 on allocation failure. */
int twill_graph_add_edge(twill_graph *g, int src, int dst, long lat, int dist);

/* Annotations of op v for the joint problem (see twill_op), so that a
 * program building a kernel never writes the struct's fields.  Each returns
 * 0, or -1 when v is not an op or the value is out of its range: regs,
 * smem, tmem >= 0; spill >= -1 (-1: the machine's default); groups 1, 2 or
 * 4.  twill_graph_set_blocking marks edge e. */
int twill_graph_set_regs(twill_graph *g, int v, long regs);
int twill_graph_set_smem(twill_graph *g, int v, long bytes);
int twill_graph_set_tmem(twill_graph *g, int v, long columns);
int twill_graph_set_spill(twill_graph *g, int v, long cycles);
int twill_graph_set_issue(twill_graph *g, int v, twill_issue issue);
int twill_graph_set_groups(twill_graph *g, int v, int groups);
int twill_graph_set_varlat(twill_graph *g, int v, bool varlat);
int twill_graph_set_blocking(twill_graph *g, int e, bool blocking);

/* ---- checking ---------------------------------------------------------- */

/* Structural validation: non-negative latencies and distances, uses with
 * offset >= 0, cycles >= 1, count >= 1, declared capacities >= 1, a spill
 * only on an op that keeps registers, and no
 * cycle whose iteration distances sum to zero (such a loop can never
 * issue).  On failure fills d (file may be empty: the caller sets it) with
 * the line of the offending op or edge, and returns -1. */
int twill_graph_validate(const twill_graph *g, twill_diag *d);

/* ---- text formats ------------------------------------------------------ */

/* Parse the .twill text format (docs/formats.md).  `file` is the name used in
 * messages.  Returns a graph, or NULL with d filled (file:line:col).  The
 * text need not be NUL-terminated: len bytes are read. */
twill_graph *twill_graph_parse_text(const char *text, size_t len,
                                    const char *file, twill_diag *d);
/* Parse the JSON kernel form. */
twill_graph *twill_graph_parse_json(const char *text, size_t len,
                                    const char *file, twill_diag *d);
/* Parse either form, chosen by content: JSON if the first non-blank byte is
 * '{', text otherwise. */
twill_graph *twill_graph_parse_any(const char *text, size_t len,
                                   const char *file, twill_diag *d);
/* Read a file ("-": standard input) and parse it with _parse_any. */
twill_graph *twill_graph_load_file(const char *path, twill_diag *d);

/* Print in .twill text form / JSON form.  print-then-parse is the identity
 * (same ops, edges, units, annotations, in the same order).  Returns 0, or
 * -1 on a write error. */
int twill_graph_print_text(const twill_graph *g, FILE *f);
int twill_graph_print_json(const twill_graph *g, FILE *f);

/* Graphviz DOT.  warp may be NULL; otherwise warp[v] colours op v (-1: no
 * warp). */
int twill_graph_print_dot(const twill_graph *g, const int *warp, FILE *f);

/* ---- random graphs ----------------------------------------------------- */

typedef struct twill_random_opts {
  int nodes;          /* number of ops (>= 1) */
  double density;     /* probability of a forward edge u->v, u < v */
  double back_edges;  /* expected back edges per op (loop-carried) */
  int units;          /* number of unit kinds (>= 1) */
  int max_lat;        /* op latencies drawn from [1, max_lat] */
  int max_dist;       /* back-edge distances drawn from [1, max_dist] */
  int max_cap;        /* unit capacities drawn from [1, max_cap] */
  bool gaps;          /* reservation tables with gaps (two uses of a unit) */
  unsigned long long seed;
} twill_random_opts;

void twill_random_opts_default(twill_random_opts *o);
/* Deterministic for a given opts (same seed, same graph on every machine).
 * Always valid: forward edges go from lower to higher index, back edges
 * have distance >= 1.  NULL on allocation failure. */
twill_graph *twill_graph_random(const twill_random_opts *o);

#endif
