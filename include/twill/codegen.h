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
#include "twill/json.h"
#include "twill/normalize.h"
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

/* What the outputs say about the schedule and its units.
 *
 * Units: when norm is set, g is the normalized copy of `kernel` and s is in
 * normalized cycles (what the solvers ran on).  Every number an output
 * prints is then in real cycles: times as round(t * num / den) with num/den
 * = twill_norm_scale(norm), costs (latencies, unit uses) as `kernel` gives
 * them; each output states the scale once, in its header.  The drawings
 * keep one grid step per normalized cycle.  Without norm, g's costs are real
 * cycles and nothing is scaled. */
typedef struct twill_emit_opts {
  bool heuristic;            /* the built-in fallback, not an optimal schedule */
  const char *source;        /* where the schedule came from, in words; NULL:
                                not said */
  const twill_graph *kernel; /* the kernel as written (real costs); NULL: g */
  const twill_norm *norm;    /* the mapping g was normalized with; NULL: none */
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

/* ---- schedule files (codegen/schedule_json.c) --------------------------
 *
 * A schedule file is what `twill modulo --json`, `twill solve --json` and
 * `twill emit --format json` write and what `twill emit SCHEDULE.json` reads;
 * it carries everything emit needs, so every format can be drawn from the
 * file alone:
 *   "kernel", "arch"        names (the machine the schedule was solved for)
 *   "units"                 one sentence: which numbers are in which cycles
 *   "ii", "length", "times" real cycles (round(normalized x k) when the
 *                           costs were normalized)
 *   "warps", "stages"       per op, when known (stages of the solver's times)
 *   "normalized"            {"ii", "length", "times"}: the solver's own
 *                           values, in normalized cycles (only when normalized)
 *   "normalization"         {"budget", "error", "costs": {"REAL": normalized},
 *                           "real_per_normalized_cycle": k (an integer, or
 *                           "num/den")} (only when normalized)
 *   "warp_count"            warps the CTA runs (the machine's, or --warps)
 *   "heuristic"             true for the built-in fallback schedule
 *   "source"                the kernel as written (JSON kernel form, real
 *                           costs), from which emit rebuilds the normalized
 *                           graph by applying the mapping (no program run)
 *   "machine"               the machine's .arch text, when it is not a
 *                           built-in machine as named
 * Commands add their own keys ("optimal", "lower_bound", "tries", "params",
 * "stats", ...), which readers ignore.  Older files without "source" name
 * the kernel only (a built-in, or a path); older `twill modulo` files say
 * "normalize": U, and emit re-runs that normalization. */

/* The schedule's keys, into the open top-level object of w: "units" through
 * "heuristic" above.  g, s: what was solved (normalized when opts->norm);
 * m->warps is written as "warp_count" when s has warps. */
void twill_sched_json_write(twill_jw *w, const twill_graph *g,
                            const twill_arch *m, const twill_schedule *s,
                            const twill_emit_opts *opts);
/* "source" (opts->kernel, else g) and "machine" (when m is not the
 * built-in machine of its name, warps aside), into the open object of w:
 * written last, they are the long part of the file. */
void twill_sched_json_write_source(twill_jw *w, const twill_graph *g,
                                   const twill_arch *m,
                                   const twill_emit_opts *opts);

/* A schedule as read from JSON, before it is matched to a kernel. */
typedef struct twill_sched_file {
  char *kernel; /* required */
  char *arch;   /* NULL when absent */
  long ii;      /* the solver's: normalized.ii when normalized, else ii */
  int nops;     /* entries in "times" */
  char **names; /* op names, in file order */
  long *times;  /* the solver's: normalized.times when normalized */
  int *warps;   /* -1 where "warps" has no entry */
  bool has_warps;
  long normalize; /* legacy "normalize": U (times in cycles of a graph
                     normalized without the cross-warp cost); 0 otherwise */
  twill_norm norm;     /* "normalization" (n = 0: none) */
  twill_graph *source; /* "source" (unbound), NULL when absent */
  char *machine;       /* "machine" text, NULL when absent */
  int warp_count;      /* "warp_count", 0 when absent */
  bool heuristic;      /* "heuristic": true */
} twill_sched_file;

/* Parse a schedule file (docs/formats.md; unknown keys are accepted and
 * ignored, and "stages" and "length" are recomputed from the times, but
 * "times" must agree with "normalized"."times" scaled, so that an edit of
 * the real times is not silently dropped).  Returns NULL with d filled
 * (file:line:col) on error; never prints. */
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
