/* codegen/cuda_gemm.c: a complete, runnable Hopper (sm_90a) GEMM from a
 * solved schedule: `twill emit --format cuda --complete`.
 *
 * The skeleton (cuda.c) leaves one empty stub per tile op; here every op
 * of a GEMM main loop does its work with the tile ops of
 * codegen/tileops_sm90.cuh, and a host harness (codegen/gemm_host.cuh)
 * checks and times the kernel.  Both files are inlined, so the .cu is
 * self-contained.
 *
 * The kernels this applies to are those built only from these ops (the
 * shape of kernels/gemm-hopper.twill), recognised by their annotations and
 * edges, not by their names:
 *   mma      the one warpgroup-issued op, with a self edge of distance 1
 *            (the accumulator is carried);
 *   loads    the two variable-latency, thread-issued ops with shared memory
 *            that feed mma at distance 0: the first in the kernel's op
 *            order is A (M x K), the second B (N x K), both K-major;
 *   release  the op fed by mma at distance 0 that feeds both loads at one
 *            distance D >= 1 (the load of iteration j + D reuses the
 *            buffer released in iteration j).
 * Tile shape from the annotations: K step BK = 64 bf16 (one 128-byte
 * swizzle row), BM = smem(A) / (2 BK), BN = smem(B) / (2 BK), and
 * regs(mma) must be BM*BN/128, the f32 accumulators of a BM x BN tile over
 * the 128 threads of a warpgroup.  For gemm-hopper: 16384 / 128 = 128 rows
 * each, 128*128/128 = 128 registers.
 *
 * What the schedule decides in the output:
 *   - the warp roles and the code of each, in the order of the
 *     straight-line program Q (prologue, steady-state loop, epilogue), as
 *     in the skeleton;
 *   - the ring of each load: D stages (its shared-memory tiles, a "full"
 *     mbarrier completed by the TMA's transaction bytes, an "empty" one
 *     completed by the release), D the distance of the release -> load
 *     edge; the depth model.c gives that edge, floor((t(load) + D*I -
 *     t(release)) / I) + 1, the free buffers in flight, is at most D (for
 *     gemm-hopper's solved schedule, (0 + 4*2 - 2) / 2 + 1 = 4 = D);
 *   - the wgmma.wait_group count of each release: the mma instances of
 *     later iterations that Q issues before it (1 in gemm-hopper's steady
 *     state, where release(i) follows mma(i+1); 0 in the epilogue);
 *   - the setmaxnreg budget of each warpgroup (model.c's plan, as in the
 *     skeleton).
 * Not from the schedule: the persistent tile loop around the main loop
 * (every role walks the output tiles blockIdx.x, + gridDim.x, ..., the
 * ring positions running on across tiles) and the epilogue after it (wait
 * for every MMA, convert to bf16, store), which the loop graph does not
 * model.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_text.h"
#include "model.h"

typedef struct gemm_ops {
  int load[2]; /* A, B */
  int mma, rel;
  int stages;
  int bm, bn, bk;
  int mma_role, mma_off; /* mma's role, its first warp inside the role */
} gemm_ops;

#define BK 64

static int fail(char *why, size_t n, int *line, int at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int fail(char *why, size_t n, int *line, int at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  *line = at;
  return -1;
}

static bool in_span(const cg_model *cm, int v, int w) {
  int w0 = cm->s->warp[v];
  return w >= w0 && w < w0 + twill_cg_op_span(cm, v);
}

/* Recognise the GEMM main loop (see the top of the file); 0, or -1 with a
 * reason and the kernel line it is about (0: none). */
static int classify(const cg_model *cm, gemm_ops *k, char *why, size_t n,
                    int *line) {
  const twill_graph *g = cm->g;
  *line = 0;
  k->mma = k->rel = k->load[0] = k->load[1] = -1;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].issue == TWILL_ISSUE_WARPGROUP) {
      if (k->mma >= 0)
        return fail(why, n, line, g->ops[v].line,
                    "--complete: a second warpgroup op '%s' (a GEMM main loop "
                    "has one, the MMA)", g->ops[v].name);
      k->mma = v;
    }
  if (k->mma < 0)
    return fail(why, n, line, 0,
                "--complete: no warpgroup-issued op (the MMA)");
  const twill_op *mo = &g->ops[k->mma];
  bool self = false;
  int nl = 0;
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    if (ed->dst != k->mma) continue;
    if (ed->src == k->mma) {
      if (ed->dist != 1)
        return fail(why, n, line, ed->line,
                    "--complete: the MMA's self edge must have distance 1 (the "
                    "accumulator of the previous iteration)");
      self = true;
      continue;
    }
    const twill_op *o = &g->ops[ed->src];
    if (ed->dist != 0 || !o->varlat || o->issue != TWILL_ISSUE_THREAD || o->smem <= 0)
      return fail(why, n, line, ed->line,
                  "--complete: '%s' feeds the MMA but is not a tile load (variable "
                  "latency, thread-issued, shared memory, distance 0)", o->name);
    if (nl == 2)
      return fail(why, n, line, o->line,
                  "--complete: a third load '%s' feeds the MMA (A and B only)", o->name);
    k->load[nl++] = ed->src;
  }
  if (!self)
    return fail(why, n, line, mo->line,
                "--complete: the MMA '%s' has no self edge of distance 1 (an "
                "accumulating MMA)", mo->name);
  if (nl != 2)
    return fail(why, n, line, mo->line,
                "--complete: the MMA '%s' is fed by %d loads, not 2 (A and B)",
                mo->name, nl);
  if (k->load[0] > k->load[1]) {
    int t = k->load[0];
    k->load[0] = k->load[1];
    k->load[1] = t;
  }
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    if (ed->src != k->mma || ed->dst == k->mma) continue;
    if (k->rel >= 0 || ed->dist != 0)
      return fail(why, n, line, ed->line,
                  "--complete: the MMA may feed one op, the release, at distance "
                  "0 ('%s')", g->ops[ed->dst].name);
    k->rel = ed->dst;
  }
  if (k->rel < 0)
    return fail(why, n, line, mo->line,
                "--complete: nothing releases the MMA's shared-memory stages (an op "
                "fed by '%s')", mo->name);
  const twill_op *ro = &g->ops[k->rel];
  if (ro->varlat || ro->issue == TWILL_ISSUE_WARPGROUP || ro->smem || ro->regs)
    return fail(why, n, line, ro->line,
                "--complete: the release '%s' must be a plain warp op (no variable "
                "latency, registers or shared memory)", ro->name);
  if (g->nops != 4)
    return fail(why, n, line, 0,
                "--complete: %d ops; a GEMM main loop has 4 (two loads, the MMA, "
                "the release)", g->nops);
  /* every edge is one of the five kinds; the release feeds each load once */
  int dist[2] = {-1, -1};
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    if (ed->dst == k->mma || (ed->src == k->mma && ed->dst == k->rel)) continue;
    int a = ed->dst == k->load[0] ? 0 : ed->dst == k->load[1] ? 1 : -1;
    if (ed->src != k->rel || a < 0 || dist[a] >= 0 || ed->dist < 1)
      return fail(why, n, line, ed->line,
                  "--complete: edge %s -> %s is not part of a GEMM main loop (loads "
                  "-> MMA, MMA -> MMA, MMA -> release, release -> each load once at "
                  "a distance >= 1)", g->ops[ed->src].name, g->ops[ed->dst].name);
    dist[a] = ed->dist;
  }
  for (int a = 0; a < 2; a++)
    if (dist[a] < 0)
      return fail(why, n, line, g->ops[k->load[a]].line,
                  "--complete: the release does not feed the load '%s' (no ring "
                  "of buffers)", g->ops[k->load[a]].name);
  if (dist[0] != dist[1])
    return fail(why, n, line, ro->line,
                "--complete: '%s' frees A's buffers at distance %d and B's at "
                "%d: one ring needs one", ro->name, dist[0], dist[1]);
  k->stages = dist[0];
  /* tile shape */
  k->bk = BK;
  long sa = g->ops[k->load[0]].smem, sb = g->ops[k->load[1]].smem;
  const long row = 2 * BK;
  if (sa % row || sb % row)
    return fail(why, n, line, g->ops[k->load[sa % row ? 0 : 1]].line,
                "--complete: smem of '%s' is not a whole number of %ld-byte rows "
                "(BK = 64 bf16)", g->ops[k->load[sa % row ? 0 : 1]].name, row);
  k->bm = (int)(sa / row);
  k->bn = (int)(sb / row);
  if (k->bm % 64 || k->bm > 256)
    return fail(why, n, line, g->ops[k->load[0]].line,
                "--complete: A's tile has %d rows; wgmma takes 64 at a time and a "
                "TMA box at most 256 (64, 128, 192 or 256)", k->bm);
  if (k->bn % 8 || k->bn > 256)
    return fail(why, n, line, g->ops[k->load[1]].line,
                "--complete: B's tile has %d rows; wgmma's N is a multiple of 8 up "
                "to 256", k->bn);
  if (mo->regs != (long)k->bm * k->bn / 128)
    return fail(why, n, line, mo->line,
                "--complete: the MMA '%s' holds %ld registers per thread; a %ld-element "
                "f32 tile over 128 threads needs BM*BN/128",
                mo->name, mo->regs, (long)k->bm * k->bn);
  /* the schedule */
  if (!cm->warps)
    return fail(why, n, line, 0,
                "--complete: the schedule has no warp assignment");
  int mw = cm->s->warp[k->mma];
  if (!in_span(cm, k->mma, cm->s->warp[k->rel]))
    return fail(why, n, line, ro->line,
                "--complete: the release '%s' runs on warp %d, outside the MMA's "
                "warpgroup (from warp %d): only the warps that issued a wgmma can "
                "wait for it", ro->name, cm->s->warp[k->rel], mw);
  for (int a = 0; a < 2; a++)
    if (cm->role_of[k->load[a]] == cm->role_of[k->mma])
      return fail(why, n, line, g->ops[k->load[a]].line,
                  "--complete: the load '%s' shares warps with the MMA; the loads "
                  "need a producer warp of their own", g->ops[k->load[a]].name);
  if (twill_cg_op_span(cm, k->mma) != cm->wg)
    return fail(why, n, line, mo->line,
                "--complete: the MMA '%s' spans %d warps; one warpgroup (%d) issues "
                "its wgmmas", mo->name, twill_cg_op_span(cm, k->mma), cm->wg);
  for (int r = 0; r < cm->nroles; r++)
    if (cm->roles[r].first / cm->wg != (cm->roles[r].first + cm->roles[r].nwarps - 1) / cm->wg)
      return fail(why, n, line, 0,
                  "--complete: a warp role (warps %d-%d) straddles two warpgroups, "
                  "which setmaxnreg gives separate budgets",
                  cm->roles[r].first, cm->roles[r].first + cm->roles[r].nwarps - 1);
  k->mma_role = cm->role_of[k->mma];
  k->mma_off = mw - cm->roles[k->mma_role].first;
  if (cm->roles[k->mma_role].nwarps != twill_cg_op_span(cm, k->mma))
    return fail(why, n, line, mo->line,
                "--complete: the MMA '%s' shares its role with ops outside its "
                "warpgroup", mo->name);
  /* The ring's tokens (free buffers) in flight, model.c's depth
   * floor((t(load) + D*I - t(release)) / I) + 1, are at most D whenever the
   * release issues after the load of its iteration (it waits for the MMA,
   * which waits for the load); D buffers then hold every value in flight. */
  for (int x = 0; x < cm->nx; x++)
    if (cm->x[x].src == k->rel && cm->x[x].depth > k->stages)
      return fail(why, n, line, ro->line,
                  "--complete: the schedule keeps %ld values of '%s' in flight on a "
                  "ring of %d buffers", cm->x[x].depth, ro->name, k->stages);
  long smem = (long)k->stages * (sa + sb);
  long cap = cm->m ? twill_arch_mem_cap(cm->m, "smem") : -1;
  if (cap <= 0) cap = 232448; /* Hopper: 227 KB for one block */
  if (smem + 1024 + 32L * k->stages > cap)
    return fail(why, n, line, 0,
                "--complete: %ld bytes of shared memory in the ring, over the "
                "machine's %ld", smem, cap);
  return 0;
}

/* ---- the text ------------------------------------------------------------ */

static void emit_wgmma(FILE *f, int bn) {
  int nr = bn / 2;
  fprintf(f,
          "// D[64x%d] += A[64x16] * B[16x%d]: bf16 in, f32 accumulators in "
          "registers (%d per thread).\n"
          "__device__ __forceinline__ void wgmma_m64n%dk16(float (&d)[%d], "
          "uint64_t da, uint64_t db) {\n#if TWILL_SM90A\n"
          "  asm volatile(\n      \"{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%d, 0;\\n\"\n"
          "      \"wgmma.mma_async.sync.aligned.m64n%dk16.f32.bf16.bf16 {\"\n",
          bn, bn, nr, bn, nr, nr + 2, bn);
  for (int i = 0; i < nr; i += 8) {
    fprintf(f, "      \"");
    for (int j = i; j < i + 8 && j < nr; j++)
      fprintf(f, "%%%d%s", j, j + 1 < nr ? ", " : "");
    fprintf(f, "\"\n");
  }
  fprintf(f, "      \"}, %%%d, %%%d, p, 1, 1, 0, 0;\\n}\\n\"\n      : ", nr, nr + 1);
  for (int j = 0; j < nr; j++)
    fprintf(f, "\"+f\"(d[%d])%s%s", j, j + 1 < nr ? ", " : "",
            j % 6 == 5 && j + 1 < nr ? "\n        " : "");
  fprintf(f, "\n      : \"l\"(da), \"l\"(db), \"r\"(1));\n#else\n"
             "  (void)d; (void)da; (void)db;\n#endif\n}\n\n");
}

typedef struct gctx {
  const cg_model *cm;
  const gemm_ops *k;
  FILE *f;
  char id[4][96]; /* identifiers of load A, load B, mma, release */
} gctx;

static void iter_expr(const cg_model *cm, const cg_inst *in, char *buf, size_t n) {
  if (in->section == 0)
    snprintf(buf, n, "%d", in->iter);
  else if (in->section == 1)
    snprintf(buf, n, "i + %d", in->iter);
  else
    snprintf(buf, n, "n - %ld", cm->C - in->iter);
}

/* wgmma.wait_group count at release instance q: the mma instances of a
 * later iteration that Q issues before it (those may keep running; the
 * one of q's iteration and all earlier ones must be done). */
static int wait_count(const gctx *x, int q) {
  const cg_model *cm = x->cm;
  int c = 0;
  for (int p = 0; p < q; p++)
    if (cm->inst[p].op == x->k->mma && cm->inst[p].iter > cm->inst[q].iter) c++;
  return c;
}

static void emit_inst(const gctx *x, int q, const char *ind) {
  const cg_model *cm = x->cm;
  const gemm_ops *k = x->k;
  const cg_inst *in = &cm->inst[q];
  FILE *f = x->f;
  int v = in->op, r = cm->role_of[v];
  char it[48], wl[32];
  iter_expr(cm, in, it, sizeof it);
  fprintf(f, "%s// cycle %ld: %s, iteration %s, stage %ld, slot %ld, warp %s\n", ind,
          twill_cg_real(cm, in->time), cm->g->ops[v].name, it, cm->stage[v],
          twill_cg_real(cm, cm->slot[v]),
          twill_cg_warp_label(cm, v, wl, sizeof wl));
  int wrel = cm->s->warp[v] - cm->roles[r].first;
  if (v == k->load[0] || v == k->load[1]) {
    int a = v == k->load[1];
    fprintf(f, "%sif (warp == %d && lane == 0) op_%s(ss, tm_%s, base + (%s), %s, %s);\n",
            ind, wrel, x->id[a], x->id[a], it, it, a ? "tn * kBN" : "tm * kBM");
  } else if (v == k->mma) {
    fprintf(f, "%sop_%s(ss, acc, base + (%s));\n", ind, x->id[2], it);
  } else {
    /* wgmma.wait_group is .aligned over the warpgroup: every warp of the
     * MMA's warpgroup waits here (compute-sanitizer's synccheck reports a
     * "warpgroup MMA sequence error" when only the release's warp does);
     * the arrive is the release's warp's alone */
    fprintf(f, "%sop_%s<%d>(ss, base + (%s), warp == %d && lane == 0);\n", ind,
            x->id[3], wait_count(x, q), it, wrel);
  }
}

static void emit_role(const gctx *x, int r) {
  const cg_model *cm = x->cm;
  const gemm_ops *k = x->k;
  FILE *f = x->f;
  char rl[32];
  bool has_mma = r == k->mma_role;
  twill_cg_role_label(cm, r, rl, sizeof rl);
  fprintf(f,
          "// Warp role %s: its share of the pipelined loop in the order of Q, once "
          "per output tile.\n"
          "__device__ __forceinline__ void role_%d(SharedStorage &ss, const "
          "CUtensorMap *tm_%s,\n    const CUtensorMap *tm_%s, const Params &p, int "
          "warp) {\n"
          "  const int n = p.n_iter;\n  const int lane = threadIdx.x & 31;\n"
          "  (void)lane; (void)tm_%s; (void)tm_%s;\n",
          rl, r, x->id[0], x->id[1], x->id[0], x->id[1]);
  if (has_mma) fprintf(f, "  float acc[kBM / 64][kBN / 2];\n");
  fprintf(f,
          "  // base: ring values of earlier tiles (each tile sends n through every "
          "ring)\n"
          "  int base = 0;\n"
          "  for (int tile = blockIdx.x; tile < p.tiles; tile += gridDim.x, base += n) "
          "{\n"
          "    int tm, tn;\n    tile_coords(p, tile, tm, tn);\n    (void)tm; (void)tn;\n");
  if (has_mma)
    fprintf(f, "    zero_acc(acc);\n");
  int sec = -1;
  for (int q = 0; q < cm->ninst; q++) {
    const cg_inst *in = &cm->inst[q];
    if (cm->role_of[in->op] != r) continue;
    if (in->section != sec) {
      if (sec == 1) fprintf(f, "    }\n");
      sec = in->section;
      if (sec == 0)
        fprintf(f, "    // ---- prologue: Q cycles [0, %ld)\n",
                twill_cg_real(cm, (cm->C - 1) * cm->I));
      else if (sec == 1)
        fprintf(f,
                "    // ---- steady state: one body per I = %ld; i = oldest iteration "
                "in flight\n"
                "    for (int i = 0; i + %ld < n; ++i) {\n",
                twill_cg_real(cm, cm->I), cm->C - 1);
      else
        fprintf(f, "    // ---- epilogue: Q cycles [%ld, %ld)\n",
                twill_cg_real(cm, cm->C * cm->I), twill_cg_real(cm, cm->T));
    }
    emit_inst(x, q, sec == 1 ? "      " : "    ");
  }
  if (sec == 1) fprintf(f, "    }\n");
  if (has_mma)
    fprintf(f,
            "    // the GEMM epilogue (after the loop): every MMA done, C = bf16(acc)\n"
            "    store_tile(acc, p, tm, tn, warp - %d, lane);\n",
            k->mma_off);
  fprintf(f, "  }\n}\n\n");
}

int twill_emit_cuda_complete(const twill_graph *g, const twill_arch *m,
                             const twill_schedule *s, const twill_emit_opts *opts,
                             FILE *f, char *why, size_t whylen, int *line) {
  cg_model cm;
  int dummy;
  if (!line) line = &dummy;
  *line = 0;
  if (twill_cg_model_init(&cm, g, m, s, opts)) {
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  gemm_ops k;
  if (classify(&cm, &k, why, whylen, line)) {
    twill_cg_model_free(&cm);
    return -2;
  }
  cg_regplan rp;
  if (twill_cg_regplan_init(&cm, &rp)) {
    twill_cg_model_free(&cm);
    snprintf(why, whylen, "out of memory");
    return -1;
  }
  gctx x;
  x.cm = &cm;
  x.k = &k;
  x.f = f;
  twill_cg_ident(g->ops[k.load[0]].name, x.id[0], sizeof x.id[0]);
  twill_cg_ident(g->ops[k.load[1]].name, x.id[1], sizeof x.id[1]);
  twill_cg_ident(g->ops[k.mma].name, x.id[2], sizeof x.id[2]);
  twill_cg_ident(g->ops[k.rel].name, x.id[3], sizeof x.id[3]);
  char ns[96];
  twill_cg_ident(g->name, ns, sizeof ns);
  const char *A = x.id[0], *B = x.id[1], *MM = x.id[2], *R = x.id[3];

  twill_cg_header(&cm, f, "// ", "complete CUDA GEMM (sm_90a, warp-specialized)");
  fprintf(f,
          "// C[M][N] = A[M][K] * B[N][K]^T, bf16 in, f32 accumulate, bf16 out; A and "
          "B K-contiguous.\n"
          "// Tile %dx%dx%d (BM x BN x BK): A from '%s', B from '%s', MMA '%s', "
          "release '%s'.\n"
          "// Build: nvcc -std=c++17 -O3 -arch=sm_90a -o gemm this.cu\n"
          "//   (or -gencode=arch=compute_90a,code=sm_90a; add -ldl on glibc < 2.34)\n"
          "// Run:   ./gemm [--size M N K]... [--cube S]... [--reps R] [--seed S]\n"
          "// Self-contained: codegen/tileops_sm90.cuh (the tile ops) and "
          "codegen/gemm_host.cuh\n"
          "// (the harness) are inlined below; define TWILL_NO_MAIN to drop main().\n",
          k.bm, k.bn, k.bk, g->ops[k.load[0]].name, g->ops[k.load[1]].name,
          g->ops[k.mma].name, g->ops[k.rel].name);
  fputs("\n// ======== codegen/tileops_sm90.cuh ========\n", f);
  fputs(twill_cuda_tileops_sm90, f);
  fputs("// ======== end of codegen/tileops_sm90.cuh ========\n\n", f);
  fputs("#include <cuda.h>  // CUtensorMap (a type only: no -lcuda)\n\n", f);
  fprintf(f, "namespace %s {\n\nusing namespace twill_sm90;\n\n", ns);
  fprintf(f,
          "constexpr const char *kName = \"%s\";\n"
          "constexpr int kBM = %d, kBN = %d, kBK = %d;\n"
          "// the ring: release -> %s / %s at distance %d, and the schedule keeps %d "
          "values in flight\n"
          "constexpr int kStages = %d;\n"
          "constexpr int kThreads = %d;  // %d warpgroups\n"
          "constexpr int kII = %ld, kLength = %ld, kCopies = %ld;  // I, L, C = "
          "ceil(L / I)\n"
          "constexpr int kBytes_%s = kBM * kBK * 2, kBytes_%s = kBN * kBK * 2;\n\n",
          g->name, k.bm, k.bn, k.bk, g->ops[k.load[0]].name, g->ops[k.load[1]].name,
          k.stages, k.stages, k.stages, rp.threads, rp.nwg, twill_cg_real(&cm, cm.I),
          twill_cg_real(&cm, cm.L), cm.C, A, B);
  fprintf(f,
          "// One ring per load: kStages tiles, 'full' barriers (ring %s -> %s: the "
          "TMA's bytes)\n"
          "// and 'empty' barriers (ring %s -> %s: the release).  Value j lives in "
          "stage j %% kStages\n"
          "// and completes phase j / kStages of its barriers.  Tiles 1024-byte aligned "
          "(128B swizzle).\n"
          "struct SharedStorage {\n"
          "  alignas(1024) __nv_bfloat16 tile_%s[kStages][kBM * kBK];\n"
          "  alignas(1024) __nv_bfloat16 tile_%s[kStages][kBN * kBK];\n"
          "  uint64_t full_%s[kStages], empty_%s[kStages];\n"
          "  uint64_t full_%s[kStages], empty_%s[kStages];\n"
          "};\n"
          "constexpr int kSmemBytes = (int)sizeof(SharedStorage) + 1024;  // + "
          "alignment slack\n\n",
          A, MM, R, A, A, B, A, A, B, B);
  fputs("struct Params {\n"
        "  int M, N, K;\n"
        "  int n_iter;                  // K steps: ceil(K / kBK), the loop's trip count\n"
        "  int tiles_m, tiles_n, tiles;  // output tiles\n"
        "  __nv_bfloat16 *C;             // M x N, row-major\n"
        "};\n\n"
        "// Tile t in groups of 8 tile rows, column by column inside a group, so "
        "that the CTAs\n"
        "// running at once share rows of A and columns of B in L2.\n"
        "__device__ __forceinline__ void tile_coords(const Params &p, int t, int &tm, "
        "int &tn) {\n"
        "  const int per_group = 8 * p.tiles_n, first = t / per_group * 8;\n"
        "  const int rows = min(p.tiles_m - first, 8), r = t % per_group;\n"
        "  tm = first + r % rows;\n  tn = r / rows;\n}\n\n",
        f);
  emit_wgmma(f, k.bn);
  /* tile ops */
  for (int a = 0; a < 2; a++)
    fprintf(f,
            "// %s: the TMA load of iteration k_it's %s tile (value j of its ring).\n"
            "__device__ __forceinline__ void op_%s(SharedStorage &ss, const CUtensorMap "
            "*tm, int j, int k_it, int row0) {\n"
            "  const int s = j %% kStages;\n"
            "  // ring %s -> %s: wait for the release of value j - kStages (a fresh "
            "barrier passes parity 1)\n"
            "  mbar_wait(&ss.empty_%s[s], ((j / kStages) & 1) ^ 1);\n"
            "  mbar_arrive_expect_tx(&ss.full_%s[s], kBytes_%s);\n"
            "  tma_load_2d(&ss.tile_%s[s][0], tm, &ss.full_%s[s], k_it * kBK, row0);\n"
            "}\n\n",
            g->ops[k.load[a]].name, a ? "B (N x K)" : "A (M x K)", x.id[a], R, x.id[a],
            x.id[a], x.id[a], x.id[a], x.id[a], x.id[a]);
  fprintf(f,
          "__device__ __forceinline__ void zero_acc(float (&acc)[kBM / 64][kBN / 2]) {\n"
          "#pragma unroll\n  for (int h = 0; h < kBM / 64; ++h)\n#pragma unroll\n"
          "    for (int r = 0; r < kBN / 2; ++r) acc[h][r] = 0.0f;\n}\n\n"
          "// %s: acc += A(j) * B(j)^T, kBK / 16 steps of kBM / 64 wgmmas, one batch.\n"
          "__device__ __forceinline__ void op_%s(SharedStorage &ss, float (&acc)[kBM / "
          "64][kBN / 2], int j) {\n"
          "  const int s = j %% kStages;\n  const uint32_t ph = (j / kStages) & 1;\n"
          "  mbar_wait(&ss.full_%s[s], ph);  // ring %s -> %s\n"
          "  mbar_wait(&ss.full_%s[s], ph);  // ring %s -> %s\n"
          "#pragma unroll\n  for (int h = 0; h < kBM / 64; ++h)\n#pragma unroll\n"
          "    for (int r = 0; r < kBN / 2; ++r) fence_operand(acc[h][r]);\n"
          "  wgmma_fence();\n"
          "  const uint64_t da = wgmma_desc_sw128(&ss.tile_%s[s][0]);\n"
          "  const uint64_t db = wgmma_desc_sw128(&ss.tile_%s[s][0]);\n"
          "#pragma unroll\n  for (int kk = 0; kk < kBK / 16; ++kk)\n#pragma unroll\n"
          "    for (int h = 0; h < kBM / 64; ++h)\n"
          "      // +32 bytes per K step (>> 4 in the descriptor), +64 rows x 128 bytes "
          "per M half\n"
          "      wgmma_m64n%dk16(acc[h], da + 2 * kk + h * (64 * 128 >> 4), db + 2 * kk);\n"
          "  wgmma_commit();\n"
          "#pragma unroll\n  for (int h = 0; h < kBM / 64; ++h)\n#pragma unroll\n"
          "    for (int r = 0; r < kBN / 2; ++r) fence_operand(acc[h][r]);\n"
          "}\n\n",
          g->ops[k.mma].name, MM, A, A, MM, B, B, MM, A, B, k.bn);
  fprintf(f,
          "// %s: once the MMA of value j has read its stage (at most kWait later "
          "batches still\n"
          "// running: the schedule's count), hand both buffers back to the loads.  "
          "The whole\n"
          "// warpgroup waits (wgmma.wait_group is warpgroup-aligned); one thread of "
          "the release's\n// warp arrives.\n"
          "template <int kWait> __device__ __forceinline__ void op_%s(SharedStorage "
          "&ss, int j, bool arrive) {\n"
          "  const int s = j %% kStages;\n  wgmma_wait<kWait>();\n"
          "  if (arrive) {\n    mbar_arrive(&ss.empty_%s[s]);\n"
          "    mbar_arrive(&ss.empty_%s[s]);\n  }\n}\n\n"
          "__device__ __forceinline__ void store_tile(float (&acc)[kBM / 64][kBN / 2], "
          "const Params &p, int tm, int tn,\n    int warp, int lane) {\n"
          "  wgmma_wait<0>();\n"
          "#pragma unroll\n  for (int h = 0; h < kBM / 64; ++h) {\n"
          "#pragma unroll\n    for (int r = 0; r < kBN / 2; ++r) fence_operand(acc[h][r]);\n"
          "    store_acc_bf16<kBN>(acc[h], p.C, p.N, tm * kBM + 64 * h, tn * kBN, p.M, p.N, "
          "warp, lane);\n  }\n}\n\n",
          g->ops[k.rel].name, R, A, B);
  for (int r = 0; r < cm.nroles; r++) emit_role(&x, r);
  /* the kernel */
  fprintf(f,
          "__global__ void __launch_bounds__(kThreads, 1)\n"
          "kernel(const __grid_constant__ CUtensorMap tm_%s, const __grid_constant__ "
          "CUtensorMap tm_%s, const Params p) {\n"
          "#if TWILL_SM90A\n"
          "  extern __shared__ __align__(1024) uint8_t smem_raw[];\n"
          "  SharedStorage &ss = *reinterpret_cast<SharedStorage *>(\n"
          "      (reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));\n"
          "  const int warp = __shfl_sync(0xffffffffu, (int)threadIdx.x / 32, 0);\n"
          "  const int wg = warp / %d;\n  (void)wg;\n"
          "  if (threadIdx.x == 0) {\n"
          "    for (int s = 0; s < kStages; ++s) {\n"
          "      mbar_init(&ss.full_%s[s], 1);   // the producer's expect_tx, then "
          "the TMA's bytes\n"
          "      mbar_init(&ss.full_%s[s], 1);\n"
          "      mbar_init(&ss.empty_%s[s], 1);  // one release\n"
          "      mbar_init(&ss.empty_%s[s], 1);\n    }\n"
          "    mbar_init_fence();\n"
          "    tma_prefetch_desc(&tm_%s);\n    tma_prefetch_desc(&tm_%s);\n  }\n"
          "  __syncthreads();\n"
          "  // every role sees the same n: all leave together when the loop is too "
          "short\n"
          "  if (p.n_iter < kCopies - 1) return;\n",
          A, B, cm.wg, A, B, A, B, A, B);
  /* One branch per warpgroup, its setmaxnreg first and then its roles:
   * ptxas allocates the code after a setmaxnreg within that budget only
   * when no path from a smaller budget reaches it (a shared role dispatch
   * after the setmaxnreg branches would hold every role to the smallest
   * budget, and ptxas drops setmaxnreg: info C7507). */
  fprintf(f,
          "  // registers per thread by warpgroup (launch: %d each; budget %d, floor "
          "%d),\n  // then the warp roles of that warpgroup\n",
          rp.base, rp.budget, rp.lo);
  for (int w = 0; w < rp.nwg; w++) {
    fprintf(f, "%sif (wg == %d) {\n", w ? " else " : "  ", w);
    if (rp.setmaxnreg && rp.regs[w] != rp.base)
      fprintf(f, "    setmaxnreg_%s<%d>();\n", rp.regs[w] > rp.base ? "inc" : "dec",
              rp.regs[w]);
    for (int r = 0; r < cm.nroles; r++) {
      const cg_role *ro = &cm.roles[r];
      if (ro->first / cm.wg != w) continue;
      fprintf(f,
              "    if (warp >= %d && warp < %d) role_%d(ss, &tm_%s, &tm_%s, p, warp - "
              "%d);\n",
              ro->first, ro->first + ro->nwarps, r, A, B, ro->first);
    }
    fprintf(f, "  }");
  }
  fprintf(f,
          "\n  // other warps: idle\n"
          "#else\n"
          "  // compiled for a target without sm_90a's wgmma and setmaxnreg (the "
          "plain compute_90\n"
          "  // pass of -arch=sm_90a): never run there\n"
          "  (void)p;\n  __trap();\n"
          "#endif\n}\n\n}  // namespace %s\n\n"
          "namespace twill_gemm = %s;\n\n",
          ns, ns);
  fputs("// ======== codegen/gemm_host.cuh ========\n", f);
  fputs(twill_cuda_gemm_host, f);
  fputs("// ======== end of codegen/gemm_host.cuh ========\n", f);
  twill_cg_regplan_free(&rp);
  twill_cg_model_free(&cm);
  return ferror(f) ? -1 : 0;
}
