/* twill/codegen.h: every output a person reads, from a kernel, its machine
 * and a modulo schedule (optionally with a warp assignment).
 *
 * The pipelined loop follows docs/model.md section 3: with
 * L = twill_schedule_length() and C = ceil(L / I) overlapped copies, the
 * straight-line program Q runs the steady state once and is
 * T = (C - 1)*I + L cycles long:
 *   prologue      cycles [0, (C-1)*I)
 *   steady state  cycles [(C-1)*I, C*I)   (the loop body, one per I)
 *   epilogue      cycles [C*I, T)
 * In the steady state, i names the oldest iteration still in flight: op v
 * runs for iteration i + (C - 1 - stage(v)), stage(v) = t(v) / I.
 *
 * Formats: pseudocode, cuda (sm_90a warp-specialized skeleton), table,
 * gantt (text, <= 100 columns), svg, json (docs/formats.md), dot.
 * Every emitter writes deterministic bytes and returns 0, or -1 on a write
 * or allocation error.  g must be bound (unit capacities known) and s valid
 * for it (twill_schedule_validate).
 */
#ifndef TWILL_CODEGEN_H
#define TWILL_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "twill/arch.h"
#include "twill/diag.h"
#include "twill/graph.h"
#include "twill/joint.h"
#include "twill/schedule.h"

typedef enum twill_emit_format {
  TWILL_EMIT_PSEUDOCODE = 0,
  TWILL_EMIT_CUDA,
  TWILL_EMIT_TABLE,
  TWILL_EMIT_GANTT,
  TWILL_EMIT_SVG,
  TWILL_EMIT_JSON,
  TWILL_EMIT_DOT,
  TWILL_EMIT_NFORMATS
} twill_emit_format;

/* Format by name ("pseudocode", "cuda", ...); -1 if unknown. */
int twill_emit_format_parse(const char *name);
const char *twill_emit_format_name(twill_emit_format f);

/* What the outputs say about where the schedule came from. */
typedef struct twill_emit_opts {
  bool heuristic; /* the built-in fallback, not an optimal schedule */
  const char *source; /* e.g. the schedule file; NULL: none */
} twill_emit_opts;

/* C = ceil(L / I), the overlapped copies every format but dot expands;
 * twill_emit refuses (-1) a schedule of more than TWILL_EMIT_MAX_COPIES. */
#define TWILL_EMIT_MAX_COPIES 256
long twill_emit_copies(const twill_graph *g, const twill_schedule *s);

/* One emitter per format; opts may be NULL. */
int twill_emit(const twill_graph *g, const twill_arch *m,
               const twill_schedule *s, twill_emit_format f,
               const twill_emit_opts *opts, FILE *out);
int twill_emit_pseudocode(const twill_graph *g, const twill_arch *m,
                          const twill_schedule *s,
                          const twill_emit_opts *opts, FILE *out);
int twill_emit_cuda(const twill_graph *g, const twill_arch *m,
                    const twill_schedule *s, const twill_emit_opts *opts,
                    FILE *out);
/* A complete, runnable sm_90a GEMM (codegen/cuda_gemm.c): the schedule of a
 * GEMM main loop (two TMA loads, a warpgroup MMA with its accumulator
 * carried, a release that frees the loads' buffers at a distance D) made
 * into a warp-specialized kernel with TMA, a D-stage mbarrier ring, wgmma
 * and a bf16 epilogue, plus a host harness (seeded inputs, CPU and cuBLAS
 * references, TFLOP/s).  Returns 0; -1 on a write or allocation error; -2
 * when the kernel or schedule is not such a main loop, with the reason in
 * why and in *line the kernel line it is about (0: none; line may be
 * NULL).  s needs a warp assignment. */
int twill_emit_cuda_complete(const twill_graph *g, const twill_arch *m,
                             const twill_schedule *s,
                             const twill_emit_opts *opts, FILE *out,
                             char *why, size_t whylen, int *line);
int twill_emit_table(const twill_graph *g, const twill_arch *m,
                     const twill_schedule *s, const twill_emit_opts *opts,
                     FILE *out);
int twill_emit_gantt(const twill_graph *g, const twill_arch *m,
                     const twill_schedule *s, const twill_emit_opts *opts,
                     FILE *out);
int twill_emit_svg(const twill_graph *g, const twill_arch *m,
                   const twill_schedule *s, const twill_emit_opts *opts,
                   FILE *out);
int twill_emit_json(const twill_graph *g, const twill_arch *m,
                    const twill_schedule *s, const twill_emit_opts *opts,
                    FILE *out);
int twill_emit_dot(const twill_graph *g, const twill_arch *m,
                   const twill_schedule *s, const twill_emit_opts *opts,
                   FILE *out);

/* ---- schedule files (codegen/schedule_json.c) -------------------------- */

/* A schedule as read from JSON, before it is matched to a kernel. */
typedef struct twill_sched_file {
  char *kernel; /* required */
  char *arch;   /* NULL when absent */
  long ii;
  int nops;     /* entries in "times" */
  char **names; /* op names, in file order */
  long *times;
  int *warps;   /* -1 where "warps" has no entry */
  bool has_warps;
  long normalize; /* "normalize": U when the times are in normalized
                     cycles (twill modulo); 0 when in the kernel's own */
} twill_sched_file;

/* Parse a schedule JSON (docs/formats.md; {"kernel", "arch", "ii", "times",
 * "warps", ...}; other keys are accepted and ignored).  Returns NULL with d
 * filled (file:line:col) on error; never prints. */
twill_sched_file *twill_sched_file_parse(const char *text, size_t len,
                                         const char *file, twill_diag *d);
void twill_sched_file_free(twill_sched_file *f);
/* Match to g by op names: every op of g needs a time, no unknown names.
 * NULL with d filled on error. */
twill_schedule *twill_sched_file_bind(const twill_sched_file *f,
                                      const twill_graph *g, const char *file,
                                      twill_diag *d);

/* ---- the HTML report (codegen/report.c) --------------------------------
 *
 * One self-contained HTML5 page (inline SVG, CSS and a little script; no
 * network, no other file) for people who review or teach a schedule: the
 * answer and the certificate's status, the lower bounds and why (the
 * saturated unit, the critical cycle), every I the search refuted with its
 * explanation, the kernel graph, the steady state per warp role and per
 * unit with the prologue and epilogue of the whole pipelined loop, the
 * modulo reservation table, and register, shared- and tensor-memory
 * pressure per slot.  Hovering an op highlights its edges, its bars and its
 * slots; a toggle switches every cycle count between real and normalized
 * cycles (the script inserts it; without the script the page shows real
 * cycles).  Same report, same bytes. */

/* The certificate's status. */
typedef enum twill_report_cert {
  TWILL_REPORT_CERT_NONE = 0, /* not certified: cert_msg says why */
  TWILL_REPORT_CERT_VERIFIED, /* the checker verified the certificate */
  TWILL_REPORT_CERT_FAILED    /* the checker rejected it: cert_msg */
} twill_report_cert;

/* One I the search tried, in the cycles of the graph scheduled. */
typedef struct twill_report_try {
  long ii;
  long lmin, lmax;  /* the lengths searched (lmax 0: not a joint search) */
  int outcome;      /* 1 a schedule, 0 refuted (proven), -1 not settled */
  const char *what; /* the outcome in the solver's words ("UNSAT", ...) */
  const char *why;  /* refuted: the constraint families that conflict,
                       "; "-separated (twill/joint.h); NULL: none given */
} twill_report_try;

typedef struct twill_report {
  const char *input;   /* the KERNEL or SCHEDULE.json the user named */
  const char *solver;  /* who made the schedule, in words */
  const twill_graph *g; /* the graph scheduled, bound; normalized when
                           real_per_cycle > 0 */
  const twill_graph *source; /* the same ops with the kernel's own costs
                                (NULL: g's costs are the kernel's) */
  const twill_arch *m; /* warps: the CTA's */
  const twill_schedule *s; /* NULL: no schedule (infeasible, limit) */
  double real_per_cycle; /* real cycles per cycle of g; <= 0: g's cycles
                            are real cycles (nothing to toggle) */
  const twill_joint_params *p; /* the warp model the schedule satisfies
                                  (in g's cycles); NULL: none */
  bool optimal;        /* no schedule at a smaller I (proven) */
  bool length_proven;  /* none shorter at this I (proven) */
  bool heuristic;      /* a heuristic's schedule: nothing proven */
  bool infeasible;     /* no schedule at any I (proven) */
  const char *why_infeasible;
  long ii_lower;       /* proven: no schedule below this I (0: unknown) */
  const twill_report_try *tries;
  int ntries;
  const char *phase1;  /* one line about phase 1, NULL: none */
  twill_report_cert cert;
  const char *cert_msg;
} twill_report;

/* Write the page.  0, or -1 on a write or allocation error, or when the
 * schedule spans more than TWILL_EMIT_MAX_COPIES copies. */
int twill_emit_report(const twill_report *r, FILE *out);

#endif
