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

#endif
