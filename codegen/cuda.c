/* codegen/cuda.c: a warp-specialized CUDA C++ skeleton for sm_90a.
 *
 * Shape of the output:
 *   - one __device__ stub per tile op (tile_<op>(ctx, iter, warp)), which
 *     the user fills in;
 *   - one mbarrier ring per cross-warp edge, with as many stages as the
 *     schedule keeps in flight (model.c), full barriers (producer ->
 *     consumer) and empty barriers (consumer -> producer), waited on with
 *     mbarrier.try_wait.parity;
 *   - one __device__ function per warp role holding the prologue, the
 *     steady-state loop and the epilogue of that role, in schedule order;
 *   - the kernel: barrier init, setmaxnreg per warpgroup from the register
 *     budget, and one if/else chain that dispatches on the warp index.
 * Compiles with nvcc -std=c++17 -arch=sm_90a -c (setmaxnreg guarded by
 * __CUDA_ARCH_FEAT_SM90_ALL for the plain compute_90 pass that -arch=sm_90a
 * also runs) and with -gencode=arch=compute_90a,code=sm_90a.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

typedef struct cuda_ctx {
  cg_model *cm;
  FILE *f;
  char ns[96];
} cuda_ctx;

static void ring_ident(const cg_model *cm, int k, char *buf, size_t n) {
  char a[64], b[64];
  twill_cg_ident(cm->g->ops[cm->x[k].src].name, a, sizeof a);
  twill_cg_ident(cm->g->ops[cm->x[k].dst].name, b, sizeof b);
  snprintf(buf, n, "r%d_%s_to_%s", k, a, b);
}

/* Iteration expression of instance `in`: prologue "k", steady "i + k",
 * epilogue "n - k". */
static void iter_expr(const cg_model *cm, const cg_inst *in, char *buf,
                      size_t n) {
  if (in->section == 0)
    snprintf(buf, n, "%d", in->iter);
  else if (in->section == 1)
    snprintf(buf, n, "i + %d", in->iter);
  else
    snprintf(buf, n, "n - %ld", cm->C - in->iter);
}

static void emit_inst(const cuda_ctx *cx, const cg_inst *in, int role,
                      const char *ind) {
  const cg_model *cm = cx->cm;
  const twill_graph *g = cm->g;
  FILE *f = cx->f;
  int v = in->op;
  char it[48], id[96], rn[160], wl[32], is[48];
  iter_expr(cm, in, it, sizeof it);
  twill_cg_ident(g->ops[v].name, id, sizeof id);
  const cg_role *ro = &cm->roles[role];
  int span = cm->warps ? twill_cg_op_span(cm, v) : ro->nwarps;
  char sub[8] = "";
  /* an op narrower than its role runs on its own warps only */
  if (cm->warps && span < ro->nwarps) {
    int w0 = cm->s->warp[v] - ro->first;
    if (span == 1)
      fprintf(f, "%sif (warp == %d) {\n", ind, w0);
    else
      fprintf(f, "%sif (warp >= %d && warp < %d) {\n", ind, w0, w0 + span);
    snprintf(sub, sizeof sub, "  ");
  }
  char ind2[64];
  snprintf(ind2, sizeof ind2, "%s%s", ind, sub);
  snprintf(is, sizeof is, "%s", it);
  fprintf(f, "%s// cycle %ld: %s, iteration %s, stage %ld, slot %ld, warp %s\n",
          ind2, twill_cg_real(cm, in->time), g->ops[v].name, it, cm->stage[v],
          twill_cg_real(cm, cm->slot[v]),
          twill_cg_warp_label(cm, v, wl, sizeof wl));
  fprintf(f, "%s{\n%s  const int it = %s;\n", ind2, ind2, is);
  for (int k = 0; k < cm->nx; k++) {
    if (cm->x[k].dst != v) continue;
    const twill_edge *e = &g->edges[cm->x[k].edge];
    ring_ident(cm, k, rn, sizeof rn);
    fprintf(f, "%s  consumer_wait(ss.%s, it - %d);\n", ind2, rn, e->dist);
  }
  for (int k = 0; k < cm->nx; k++) {
    if (cm->x[k].src != v) continue;
    const twill_edge *e = &g->edges[cm->x[k].edge];
    ring_ident(cm, k, rn, sizeof rn);
    fprintf(f, "%s  producer_acquire(ss.%s, it, %d, n);\n", ind2, rn, e->dist);
  }
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    if (ed->dst != v || !ed->blocking) continue;
    if (cm->warps && cm->role_of[ed->src] != role) continue;
    fprintf(f, "%s  // blocking: %s's result must be complete here (e.g. "
               "wgmma.wait_group in the stub)\n",
            ind2, g->ops[ed->src].name);
  }
  fprintf(f, "%s  tile_%s(ctx, it, warp);\n", ind2, id);
  for (int k = 0; k < cm->nx; k++) {
    if (cm->x[k].src != v) continue;
    ring_ident(cm, k, rn, sizeof rn);
    fprintf(f, "%s  producer_commit(ss.%s, it);\n", ind2, rn);
  }
  for (int k = 0; k < cm->nx; k++) {
    if (cm->x[k].dst != v) continue;
    const twill_edge *e = &g->edges[cm->x[k].edge];
    ring_ident(cm, k, rn, sizeof rn);
    fprintf(f, "%s  consumer_release(ss.%s, it - %d);\n", ind2, rn, e->dist);
  }
  fprintf(f, "%s}\n", ind2);
  if (*sub) fprintf(f, "%s}\n", ind);
}

static void emit_role(const cuda_ctx *cx, int r) {
  const cg_model *cm = cx->cm;
  FILE *f = cx->f;
  char rl[32];
  twill_cg_role_label(cm, r, rl, sizeof rl);
  fprintf(f,
          "\n// Warp role %s (%s): its share of the pipelined loop, in "
          "schedule order.\n"
          "// warp: the warp index inside the role.\n",
          rl, cm->roles[r].varlat_only ? "variable-latency ops" : "fixed-latency ops");
  fprintf(f,
          "__device__ __forceinline__ void role_%d(SharedStorage &ss, Ctx "
          "&ctx, int warp) {\n  const int n = ctx.n_iter;\n  (void)ss;\n  (void)n;\n",
          r);
  int sec = -1;
  for (int q = 0; q < cm->ninst; q++) {
    const cg_inst *in = &cm->inst[q];
    if (cm->role_of[in->op] != r) continue;
    if (in->section != sec) {
      if (sec == 1) fprintf(f, "  }\n");
      sec = in->section;
      if (sec == 0)
        fprintf(f, "  // ---- prologue: Q cycles [0, %ld)\n",
                twill_cg_real(cm, (cm->C - 1) * cm->I));
      else if (sec == 1)
        fprintf(f,
                "  // ---- steady state: one body per I = %ld cycles; i = "
                "oldest iteration in flight\n"
                "  for (int i = 0; i + %ld < n; ++i) {\n",
                twill_cg_real(cm, cm->I), cm->C - 1);
      else
        fprintf(f, "  // ---- epilogue: Q cycles [%ld, %ld)\n",
                twill_cg_real(cm, cm->C * cm->I), twill_cg_real(cm, cm->T));
    }
    emit_inst(cx, in, r, sec == 1 ? "    " : "  ");
  }
  if (sec == 1) fprintf(f, "  }\n");
  fprintf(f, "}\n");
}

int twill_emit_cuda(const twill_graph *g, const twill_arch *m,
                    const twill_schedule *s, const twill_emit_opts *opts,
                    FILE *f) {
  cg_model cm;
  if (twill_cg_model_init(&cm, g, m, s, opts)) return -1;
  cuda_ctx cx;
  cx.cm = &cm;
  cx.f = f;
  twill_cg_ident(g->name, cx.ns, sizeof cx.ns);
  int G = cm.wg;
  /* Without a warp assignment the whole loop is one role on warp 0 (or the
   * first warpgroup when an op needs one). */
  if (!cm.warps) {
    int span = 1;
    for (int v = 0; v < g->nops; v++)
      if (twill_cg_op_span(&cm, v) > span) span = twill_cg_op_span(&cm, v);
    cm.roles[0].first = 0;
    cm.roles[0].nwarps = span;
  }
  cg_regplan rp;
  if (twill_cg_regplan_init(&cm, &rp)) {
    twill_cg_model_free(&cm);
    return -1;
  }
  int nwg = rp.nwg, nwarps = rp.nwarps, threads = rp.threads;
  int *regs = rp.regs, base = rp.base, budget = rp.budget, lo = rp.lo;
  bool has_setmaxnreg = rp.setmaxnreg;

  twill_cg_header(&cm, f, "// ", "CUDA skeleton (sm_90a, warp-specialized)");
  fprintf(f,
          "// Build: nvcc -std=c++17 -arch=sm_90a -c this.cu  (or "
          "-gencode=arch=compute_90a,code=sm_90a)\n"
          "// Fill in the tile_* stubs and Ctx.  Launch with %d threads "
          "(%d warps) per CTA:\n"
          "//   %s::kernel<<<grid, %s::kThreads>>>(ctx);\n"
          "// The pipelined loop needs ctx.n_iter >= C - 1 = %ld "
          "iterations.\n"
          "// Define TWILL_CHECK_RINGS to make every ring carry the "
          "iteration it holds and trap on a mismatch.\n",
          threads, nwarps, cx.ns, cx.ns, cm.C - 1);
  fprintf(f, "#include <cstdint>\n\nnamespace %s {\n\n", cx.ns);
  fprintf(f,
          "constexpr int kWarps = %d;\nconstexpr int kThreads = kWarps * "
          "32;\nconstexpr int kII = %ld;      // initiation interval "
          "(cycles)\nconstexpr int kCopies = %ld;  // C = ceil(L / I)\n"
          "static_assert(kII >= 1 && kCopies >= 1, \"a modulo schedule\");\n\n",
          nwarps, twill_cg_real(&cm, cm.I), cm.C);
  fprintf(f,
          "// What the tile ops share: fill in (pointers, tensor maps, "
          "shared-memory tiles).\nstruct Ctx {\n  int n_iter;  // loop trip "
          "count N\n  void *user;\n};\n\n");
  /* stubs */
  fprintf(f, "// ---- tile ops: one stub each, to be filled in ----\n");
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    char id[96], wl[32];
    twill_cg_ident(o->name, id, sizeof id);
    fprintf(f,
            "// %s: lat %ld, %s-issued%s, warp %s, regs %ld, smem %ld\n"
            "__device__ __forceinline__ void tile_%s(Ctx &ctx, int iter, int "
            "warp) {\n  (void)ctx; (void)iter; (void)warp;\n"
            "#ifdef TWILL_TILE_HOOK\n  TWILL_TILE_HOOK(%d, ctx, iter, warp);\n"
            "#endif\n}\n",
            o->name, cm.src->ops[v].lat,
            o->issue == TWILL_ISSUE_WARPGROUP ? "warpgroup"
            : o->issue == TWILL_ISSUE_THREAD  ? "thread"
                                              : "warp",
            o->varlat ? ", variable latency" : "",
            twill_cg_warp_label(&cm, v, wl, sizeof wl), o->regs, o->smem, id, v);
  }
  /* barrier helpers */
  fputs(
      "\n// ---- mbarrier rings (inline PTX) ----\n"
      "__device__ __forceinline__ uint32_t smem_u32(const void *p) {\n"
      "  return static_cast<uint32_t>(__cvta_generic_to_shared(p));\n}\n"
      "__device__ __forceinline__ void mbar_init(uint64_t *bar, uint32_t "
      "count) {\n"
      "  asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" :: "
      "\"r\"(smem_u32(bar)), \"r\"(count) : \"memory\");\n}\n"
      "__device__ __forceinline__ void mbar_arrive(uint64_t *bar) {\n"
      "  asm volatile(\"{\\n\\t.reg .b64 st;\\n\\t"
      "mbarrier.arrive.shared::cta.b64 st, [%0];\\n\\t}\" :: "
      "\"r\"(smem_u32(bar)) : \"memory\");\n}\n"
      "__device__ __forceinline__ void mbar_wait(uint64_t *bar, uint32_t "
      "parity) {\n"
      "  asm volatile(\"{\\n\\t.reg .pred p;\\n\\tTWILL_WAIT:\\n\\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\\n\\t"
      "@!p bra TWILL_WAIT;\\n\\t}\" :: \"r\"(smem_u32(bar)), \"r\"(parity) : "
      "\"memory\");\n}\n\n"
      "// A ring of D stages: full[s] completes when the producer committed "
      "the value in\n"
      "// stage s, empty[s] when every consumer warp released it.  Value j "
      "lives in stage j % D;\n"
      "// its phase parity is (j / D) & 1.\n"
      "template <int D, int kProducerWarps, int kConsumerWarps> struct Ring "
      "{\n"
      "  uint64_t full[D];\n  uint64_t empty[D];\n"
      "#ifdef TWILL_CHECK_RINGS\n  int held[D];\n#endif\n"
      "  __device__ void init() {\n"
      "    for (int s = 0; s < D; ++s) {\n"
      "      mbar_init(&full[s], kProducerWarps);\n"
      "      mbar_init(&empty[s], kConsumerWarps);\n    }\n  }\n};\n\n"
      "// Producer of value j: wait until the consumer released value j - D "
      "(read by consumer\n"
      "// iteration j - D + dist, which exists only while that is < n).\n"
      "template <class R> __device__ __forceinline__ void "
      "producer_acquire(R &r, int j, int dist, int n) {\n"
      "  constexpr int D = sizeof(r.full) / sizeof(r.full[0]);\n"
      "  if (j >= D && j - D + dist < n) mbar_wait(&r.empty[j % D], "
      "((j / D) - 1) & 1);\n}\n"
      "template <class R> __device__ __forceinline__ void "
      "producer_commit(R &r, int j) {\n"
      "  constexpr int D = sizeof(r.full) / sizeof(r.full[0]);\n"
      "  __syncwarp();\n"
      "  if ((threadIdx.x & 31) == 0) {\n"
      "#ifdef TWILL_CHECK_RINGS\n    r.held[j % D] = j;\n#endif\n"
      "    mbar_arrive(&r.full[j % D]);\n  }\n}\n"
      "// Consumer of value j (j < 0: the loop's initial value, no wait).\n"
      "template <class R> __device__ __forceinline__ void consumer_wait(R &r, "
      "int j) {\n"
      "  constexpr int D = sizeof(r.full) / sizeof(r.full[0]);\n"
      "  if (j < 0) return;\n"
      "  mbar_wait(&r.full[j % D], (j / D) & 1);\n"
      "#ifdef TWILL_CHECK_RINGS\n  if (r.held[j % D] != j) __trap();\n#endif\n"
      "}\n"
      "template <class R> __device__ __forceinline__ void "
      "consumer_release(R &r, int j) {\n"
      "  constexpr int D = sizeof(r.full) / sizeof(r.full[0]);\n"
      "  if (j < 0) return;\n  __syncwarp();\n"
      "  if ((threadIdx.x & 31) == 0) mbar_arrive(&r.empty[j % D]);\n}\n\n",
      f);
  fprintf(f, "// One ring per cross-warp edge; stages = values in flight.\n"
             "struct SharedStorage {\n");
  for (int k = 0; k < cm.nx; k++) {
    char rn[160], a[32], b[32];
    ring_ident(&cm, k, rn, sizeof rn);
    const twill_edge *e = &g->edges[cm.x[k].edge];
    int pw = twill_cg_op_span(&cm, cm.x[k].src), cw = twill_cg_op_span(&cm, cm.x[k].dst);
    fprintf(f, "  Ring<%ld, %d, %d> %s;  // %s -> %s, lat %ld, dist %d\n",
            cm.x[k].depth, pw, cw, rn,
            twill_cg_role_label(&cm, cm.x[k].prole, a, sizeof a),
            twill_cg_role_label(&cm, cm.x[k].crole, b, sizeof b),
            cm.src->edges[cm.x[k].edge].lat, e->dist);
  }
  if (!cm.nx) fprintf(f, "  int unused;  // no edge crosses warps\n");
  fprintf(f, "};\n");
  for (int r = 0; r < cm.nroles; r++) emit_role(&cx, r);

  fprintf(f,
          "\n// setmaxnreg exists on sm_90a only: `nvcc -arch=sm_90a` also "
          "compiles a plain\n// compute_90 pass (the embedded PTX) that "
          "would reject it, so it is guarded as\n// CUTLASS guards it.\n"
          "template <int N> __device__ __forceinline__ void setmaxnreg_inc() "
          "{\n#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
          "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %%0;\" :: "
          "\"n\"(N));\n#endif\n}\n"
          "template <int N> __device__ __forceinline__ void setmaxnreg_dec() "
          "{\n#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
          "  asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %%0;\" :: "
          "\"n\"(N));\n#endif\n}\n\n");
  fprintf(f,
          "__global__ void __launch_bounds__(kThreads, 1) kernel(Ctx ctx) {\n"
          "  __shared__ SharedStorage ss;\n"
          "  const int warp = __shfl_sync(0xffffffffu, (int)threadIdx.x / 32, "
          "0);\n"
          "  const int wg = warp / %d;\n  (void)wg;\n"
          "  if (threadIdx.x == 0) {\n",
          G);
  for (int k = 0; k < cm.nx; k++) {
    char rn[160];
    ring_ident(&cm, k, rn, sizeof rn);
    fprintf(f, "    ss.%s.init();\n", rn);
  }
  fprintf(f,
          "  }\n  __syncthreads();\n"
          "  // every role sees the same n: all leave together when the loop "
          "is too short\n"
          "  if (ctx.n_iter < kCopies - 1) return;\n");
  if (has_setmaxnreg) {
    fprintf(f,
            "  // registers per thread by warpgroup (launch: %d each; budget "
            "%d, floor %d)\n",
            base, budget, lo);
    bool any = false;
    for (int k = 0; k < nwg; k++) {
      if (regs[k] == base) continue;
      fprintf(f, "  %sif (wg == %d) setmaxnreg_%s<%d>();\n", any ? "else " : "",
              k, regs[k] > base ? "inc" : "dec", regs[k]);
      any = true;
    }
    if (!any) fprintf(f, "  // (every warpgroup keeps the launch allocation)\n");
  }
  fprintf(f, "  // warp roles\n");
  for (int r = 0; r < cm.nroles; r++) {
    const cg_role *ro = &cm.roles[r];
    fprintf(f, "%sif (warp >= %d && warp < %d) {\n    role_%d(ss, ctx, warp - %d);\n  }",
            r ? " else " : "  ", ro->first, ro->first + ro->nwarps, r,
            ro->first);
  }
  fprintf(f, "\n  // other warps: idle\n}\n\n}  // namespace %s\n", cx.ns);
  twill_cg_regplan_free(&rp);
  twill_cg_model_free(&cm);
  return ferror(f) ? -1 : 0;
}
