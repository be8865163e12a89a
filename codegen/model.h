/* codegen/model.h: what every emitter derives from (graph, machine,
 * schedule): stages, slots, copies, the instances of the straight-line
 * program Q, warp roles and the cross-warp edges with their ring depths.
 * Private to codegen/. */
#ifndef TWILL_CODEGEN_MODEL_H
#define TWILL_CODEGEN_MODEL_H

#include <stdbool.h>
#include <stdio.h>

#include "twill/codegen.h"

/* A warp role: a maximal set of warps [first, first + nwarps) whose ops'
 * warp spans overlap.  Without a warp assignment there is one role, -1. */
typedef struct cg_role {
  int first, nwarps;
  int nops;
  bool varlat_only; /* every op of the role has variable latency */
} cg_role;

/* An edge whose ends run on different roles: it needs an mbarrier ring of
 * `depth` stages (values of the producer in flight at once). */
typedef struct cg_xedge {
  int edge;          /* index into g->edges */
  int src, dst;      /* ops */
  int prole, crole;  /* producer, consumer role */
  long depth;
} cg_xedge;

/* One instance of the straight-line program Q: op v of iteration j. */
typedef struct cg_inst {
  int op, iter;
  int rank;          /* topological rank of op (zero-distance edges) */
  long time;         /* t(v) + iter*I */
  int section;       /* 0 prologue, 1 steady, 2 epilogue */
} cg_inst;

typedef struct cg_model {
  const twill_graph *g;
  const twill_arch *m;
  const twill_schedule *s;
  const twill_emit_opts *opts;
  long I, L, C, T;
  long *stage, *slot;   /* per op */
  int wg;               /* warps per warpgroup */
  bool warps;           /* the schedule has a warp assignment */
  cg_role *roles;
  int nroles;
  int *role_of;         /* per op */
  cg_xedge *x;
  int nx;
  cg_inst *inst;        /* C*nops instances sorted by (time, op) */
  int ninst;
  /* units (twill_emit_opts): g's times are normalized cycles when norm is
   * set; printed numbers are real cycles, times through twill_cg_real(),
   * costs from src (opts->kernel, the kernel as written: same ops and
   * edges as g) */
  const twill_graph *src;
  const twill_norm *norm; /* NULL: g's cycles are real */
  long num, den;          /* real cycles per cycle of g, reduced (1/1) */
} cg_model;

/* The CTA's warpgroups and registers per thread, as the CUDA outputs set
 * them: warpgroups [0, nwg) cover every role; a warpgroup with a
 * fixed-latency op gets the machine's reg_budget (lowered to fit the
 * register file beside the others at the setmaxnreg floor, a multiple of
 * the setmaxnreg step), the others the floor.  base is the allocation at
 * launch (register file / threads, a multiple of the step, at most the
 * per-thread maximum), from which setmaxnreg moves each warpgroup. */
typedef struct cg_regplan {
  int nwg, nwarps, threads;
  int base, lo, budget;
  bool setmaxnreg;  /* the machine has setmaxnreg */
  int *regs;        /* per warpgroup */
} cg_regplan;

int twill_cg_model_init(cg_model *cm, const twill_graph *g, const twill_arch *m,
                  const twill_schedule *s, const twill_emit_opts *opts);
void twill_cg_model_free(cg_model *cm);
/* 0, or -1 on allocation failure; free with twill_cg_regplan_free. */
int twill_cg_regplan_init(const cg_model *cm, cg_regplan *rp);
void twill_cg_regplan_free(cg_regplan *rp);

/* Warps an op spans (a warpgroup op: the warpgroup size). */
int twill_cg_op_span(const cg_model *cm, int v);
/* Cycles an op occupies from issue (lat, at least 1). */
long twill_cg_op_len(const cg_model *cm, int v);
/* "w3", "w4-7", or "-" without warps.  buf of at least 32 bytes. */
const char *twill_cg_warp_label(const cg_model *cm, int v, char *buf, size_t n);
const char *twill_cg_role_label(const cg_model *cm, int r, char *buf, size_t n);
/* Iteration label of instance (v, iter of Q) inside a section:
 * prologue "3", steady "i+1" / "i", epilogue "N-1". */
const char *twill_cg_iter_label(const cg_model *cm, const cg_inst *in, char *buf,
                          size_t n);
/* A C identifier from an op name. */
const char *twill_cg_ident(const char *name, char *buf, size_t n);
/* A time (or a span of time) of g in real cycles, round(t * num / den):
 * the one conversion every emitter prints through. */
long twill_cg_real(const cg_model *cm, long t);
/* The scale as text: "256" or "512/3" (real cycles per cycle of g). */
const char *twill_cg_ratio(const cg_model *cm, char *buf, size_t n);
/* One line (pfx-prefixed) stating that times are real cycles of a schedule
 * solved on normalized costs, and the scale; nothing without a norm. */
void twill_cg_scale_line(const cg_model *cm, FILE *f, const char *pfx);
/* The header comment lines common to every text output, each prefixed by
 * `pfx` ("// ", "# ", ...), the scale line included. */
void twill_cg_header(const cg_model *cm, FILE *f, const char *pfx,
               const char *what);

#endif
