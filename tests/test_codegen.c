/* tests/test_codegen.c: codegen outputs against hand derivations.
 *
 * fig1 (Twill paper, Fig. 1) at I = 2 with M = {S:0, P:2, O:3}:
 *   L = max(t + lat) = O: 3 + 1 = 4; copies C = ceil(4/2) = 2;
 *   T = (C-1)*I + L = 2 + 4 = 6.
 *   stage = t / I: S 0, P 1, O 1; slot = t mod I: S 0, P 0, O 1.
 *   Q (the straight-line program, steady state once) holds iterations 0
 *   and 1: S(0)@0, P(0)@2, O(0)@3, S(1)@2, P(1)@4, O(1)@5.
 *   prologue [0, 2): only S(0) (P(0) issues at 2, the first steady cycle,
 *     so it belongs to the steady state, not the prologue);
 *   steady   [2, 4): S(1)@2, P(0)@2, O(0)@3.  With i = the oldest
 *     iteration in flight (0 in Q), S runs for i + (C-1-stage) = i+1,
 *     P and O for i; slots: S(i+1) and P(i) in slot 0, O(i) in slot 1;
 *   epilogue [4, 6): P(1)@4, O(1)@5, iteration 1 = N-1 of an N-iteration
 *     loop (Q has N = C = 2).
 * With warps S, O on w0 and P on w1: S->P and P->O cross warps.
 *   ring S->P: the value of iteration j is made at t(S) + jI and read at
 *     t(P) + jI, 2 cycles later = one I, so values j and j+1 are in flight
 *     together: floor(2/2) + 1 = 2 stages;
 *   ring P->O: read 1 cycle after it is made: floor(1/2) + 1 = 1 stage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/builtin.h"
#include "twill/codegen.h"
#include "twill/json.h"

static twill_graph *fig1(void) {
  twill_graph *g = twill_graph_new("fig1");
  int tc = twill_graph_declare_unit(g, "TC", 1);
  int ex = twill_graph_declare_unit(g, "EXP", 1);
  int s = twill_graph_add_op(g, "S", 1), p = twill_graph_add_op(g, "P", 1),
      o = twill_graph_add_op(g, "O", 1);
  twill_graph_add_use(g, s, tc, 0, 1, 1);
  twill_graph_add_use(g, p, ex, 0, 1, 1);
  twill_graph_add_use(g, o, tc, 0, 1, 1);
  twill_graph_add_edge(g, s, p, 1, 0);
  twill_graph_add_edge(g, p, o, 1, 0);
  twill_graph_add_edge(g, o, o, 1, 1);
  return g;
}

typedef struct fx {
  twill_graph *g;
  twill_arch *m;
  twill_schedule *s;
} fx;

static fx fig1_fx(int warps) {
  fx x;
  twill_diag d;
  x.g = fig1();
  x.m = twill_arch_load("hopper", &d);
  ck_assert_ptr_nonnull(x.m);
  ck_assert_int_eq(twill_graph_bind(x.g, x.m, &d), 0);
  x.s = twill_schedule_new(3, 2);
  x.s->start[0] = 0;
  x.s->start[1] = 2;
  x.s->start[2] = 3;
  if (warps) {
    ck_assert_int_eq(twill_schedule_add_warps(x.s), 0);
    x.s->warp[0] = 0;
    x.s->warp[1] = 1;
    x.s->warp[2] = 0;
  }
  char why[256] = "";
  ck_assert_msg(twill_schedule_validate(x.g, x.m, x.s, why, sizeof why) == 0,
                "%s", why);
  return x;
}

static void fx_free(fx *x) {
  twill_schedule_free(x->s);
  twill_graph_free(x->g);
  twill_arch_free(x->m);
}

/* Run one emitter into a malloc'd string. */
static char *emit_str(const fx *x, twill_emit_format f, bool heuristic) {
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(mf);
  twill_emit_opts o = {heuristic, NULL};
  int rc;
  switch (f) {
  case TWILL_EMIT_PSEUDOCODE: rc = twill_emit_pseudocode(x->g, x->m, x->s, &o, mf); break;
  case TWILL_EMIT_CUDA: rc = twill_emit_cuda(x->g, x->m, x->s, &o, mf); break;
  case TWILL_EMIT_TABLE: rc = twill_emit_table(x->g, x->m, x->s, &o, mf); break;
  case TWILL_EMIT_GANTT: rc = twill_emit_gantt(x->g, x->m, x->s, &o, mf); break;
  case TWILL_EMIT_SVG: rc = twill_emit_svg(x->g, x->m, x->s, &o, mf); break;
  case TWILL_EMIT_DOT: rc = twill_emit_dot(x->g, x->m, x->s, &o, mf); break;
  default: rc = -1;
  }
  fclose(mf);
  ck_assert_int_eq(rc, 0);
  return buf;
}

static void has(const char *text, const char *needle) {
  if (!strstr(text, needle)) fprintf(stderr, "--- output:\n%s\n", text);
  ck_assert_msg(strstr(text, needle) != NULL, "missing: %.200s", needle);
}

/* ---- fig1 golden outputs -------------------------------------------------- */

START_TEST(fig1_pseudocode_golden) {
  fx x = fig1_fx(0);
  char *out = emit_str(&x, TWILL_EMIT_PSEUDOCODE, false);
  const char *want =
      "# twill pseudocode: kernel fig1 on hopper\n"
      "# I = 2, L = 4, copies C = ceil(L/I) = 2, T = (C-1)*I + L = 6\n"
      "# prologue [0, 2), steady state [2, 4) (loop body, one per I), "
      "epilogue [4, 6)\n"
      "# each line: cycle, op(iteration), stage = t/I, warp; N = trip count "
      "(N >= C-1 = 1);\n"
      "# steady state: op v runs for iteration i + (C-1-stage(v)).\n"
      "\n"
      "prologue (cycles 0..1):\n"
      "  cycle 0      S(0)                 stage 0   slot 0      warp -\n"
      "steady state: for i = 0 .. N-2 (i = oldest iteration in flight; body "
      "= 2 cycles, Q cycles 2..3):\n"
      "  cycle 2      S(i+1)               stage 0   slot 0      warp -\n"
      "  cycle 2      P(i)                 stage 1   slot 0      warp -\n"
      "  cycle 3      O(i)                 stage 1   slot 1      warp -\n"
      "epilogue (cycles 4..5):\n"
      "  cycle 4      P(N-1)               stage 1   slot 0      warp -\n"
      "  cycle 5      O(N-1)               stage 1   slot 1      warp -\n";
  ck_assert_str_eq(out, want);
  free(out);
  fx_free(&x);
}
END_TEST

/* A legal fig1 schedule with O pushed to cycle 1001 spans C = ceil(1002/2)
 * = 501 copies: the dispatcher refuses to expand it (it once took minutes
 * in the Gantt's lane packing, found by fuzz_schedule_json) but still
 * writes the DOT graph, which has no copies. */
START_TEST(too_many_copies_refused) {
  fx x = fig1_fx(0);
  x.s->start[2] = 1001;
  ck_assert_int_eq(twill_emit_copies(x.g, x.s), 501);
  FILE *null = fopen("/dev/null", "w");
  ck_assert_ptr_nonnull(null);
  ck_assert_int_eq(twill_emit(x.g, x.m, x.s, TWILL_EMIT_GANTT, NULL, null), -1);
  ck_assert_int_eq(twill_emit(x.g, x.m, x.s, TWILL_EMIT_SVG, NULL, null), -1);
  ck_assert_int_eq(twill_emit(x.g, x.m, x.s, TWILL_EMIT_DOT, NULL, null), 0);
  x.s->start[2] = 3;
  ck_assert_int_eq(twill_emit(x.g, x.m, x.s, TWILL_EMIT_GANTT, NULL, null), 0);
  fclose(null);
  fx_free(&x);
}
END_TEST

START_TEST(fig1_warp_programs) {
  fx x = fig1_fx(1);
  char *out = emit_str(&x, TWILL_EMIT_PSEUDOCODE, false);
  /* the derivation at the top: two rings, 2 and 1 stages */
  has(out, "#   r0(S->P)                     w0 -> w1  lat 1 dist 0  stages 2\n");
  has(out, "#   r1(P->O)                     w1 -> w0  lat 1 dist 0  stages 1\n");
  /* w0: S(i+1) first takes a free slot of S->P (value i+1 reuses the slot
   * of value i+1-2 = i-1), then publishes it; O(i) waits for P(i). */
  has(out,
      "warp program w0 (fixed-latency ops):\n"
      "  prologue (cycles 0..1):\n"
      "    cycle 0      S(0)                 stage 0   slot 0      warp w0\n"
      "      arrive r0(S->P).full[0]   (at completion, cycle 1)\n"
      "  steady state: for i = 0 .. N-2 (i = oldest iteration in flight; "
      "body = 2 cycles, Q cycles 2..3):\n"
      "      wait   r0(S->P).empty[i-1]   (slot reuse: ring of 2)\n"
      "    cycle 2      S(i+1)               stage 0   slot 0      warp w0\n"
      "      arrive r0(S->P).full[i+1]   (at completion, cycle 3)\n"
      "      wait   r1(P->O).full[i]\n"
      "    cycle 3      O(i)                 stage 1   slot 1      warp w0\n"
      "      arrive r1(P->O).empty[i]\n");
  /* w1: P(i) waits for S(i), takes the one P->O slot (value i-1's). */
  has(out,
      "warp program w1 (fixed-latency ops):\n"
      "  steady state: for i = 0 .. N-2 (i = oldest iteration in flight; "
      "body = 2 cycles, Q cycles 2..3):\n"
      "      wait   r0(S->P).full[i]\n"
      "      wait   r1(P->O).empty[i-1]   (slot reuse: ring of 1)\n"
      "    cycle 2      P(i)                 stage 1   slot 0      warp w1\n"
      "      arrive r1(P->O).full[i]   (at completion, cycle 3)\n"
      "      arrive r0(S->P).empty[i]\n");
  free(out);
  fx_free(&x);
}
END_TEST

START_TEST(fig1_table) {
  fx x = fig1_fx(1);
  char *out = emit_str(&x, TWILL_EMIT_TABLE, false);
  has(out, "S                       0      0        0 w0       TC@0:1");
  has(out, "P                       2      1        0 w1       EXP@0:1");
  has(out, "O                       3      1        1 w0       TC@0:1");
  /* MRT: slot 0 holds S (TC) and P (EXP), slot 1 holds O (TC). */
  has(out, "  0                   1/1       1/1\n");
  has(out, "  1                   1/1         .\n");
  /* TC busy 2 of 2 slots, EXP 1 of 2 */
  has(out, "  utilization        100%       50%\n");
  free(out);
  fx_free(&x);
}
END_TEST

static void check_width(const char *text, int maxw) {
  int col = 0, line = 1;
  for (const char *p = text; *p; p++) {
    if (*p == '\n') {
      col = 0;
      line++;
    } else {
      col++;
      ck_assert_msg(col <= maxw, "line %d longer than %d columns", line, maxw);
    }
  }
}

START_TEST(fig1_gantt) {
  fx x = fig1_fx(1);
  char *out = emit_str(&x, TWILL_EMIT_GANTT, false);
  check_width(out, 100);
  /* steady state, 8 columns a cycle: TC runs S (a) of i+1 then O (c) of i;
   * EXP runs P (b) of i in the first cycle */
  has(out, "TC        |a1======c0======|\n");
  has(out, "EXP       |b0======        |\n");
  /* whole loop: S(0) in the prologue, S(1) O(0) in the steady state, O(1)
   * in the epilogue */
  has(out, "phase     |ppppppppppppppppSSSSSSSSSSSSSSSSeeeeeeeeeeeeeeee|\n");
  has(out, "w0        |a0======        a1======c0======        c1======|\n");
  has(out, "w1        |                b0======        b1======        |\n");
  free(out);
  fx_free(&x);
}
END_TEST

/* ---- a tiny XML well-formedness check -------------------------------------- */

/* Balanced tags, quoted attributes, known entities.  Returns NULL if well
 * formed, else a static reason.  Counts elements named `count_name` with
 * class="bar" in *bars. */
static const char *xml_check(const char *s, int *bars) {
  char stack[64][32];
  int depth = 0, roots = 0;
  *bars = 0;
  const char *p = s;
  if (!strncmp(p, "<?xml", 5)) {
    p = strstr(p, "?>");
    if (!p) return "unterminated declaration";
    p += 2;
  }
  while (*p) {
    if (*p == '&') {
      const char *e = strchr(p, ';');
      if (!e || e - p > 6) return "bad entity";
      if (strncmp(p, "&amp;", 5) && strncmp(p, "&lt;", 4) &&
          strncmp(p, "&gt;", 4) && strncmp(p, "&quot;", 6) &&
          strncmp(p, "&apos;", 6))
        return "unknown entity";
      p = e + 1;
      continue;
    }
    if (*p != '<') {
      if (*p == '>') return "stray >";
      if (!depth && *p != '\n' && *p != ' ') return "text outside the root";
      p++;
      continue;
    }
    p++;
    int closing = 0;
    if (*p == '/') {
      closing = 1;
      p++;
    }
    char name[32];
    int n = 0;
    while (*p && *p != ' ' && *p != '>' && *p != '/' && *p != '\n') {
      if (n < 31) name[n++] = *p;
      p++;
    }
    name[n] = 0;
    if (!n) return "empty tag name";
    if (closing) {
      if (*p != '>') return "junk in closing tag";
      if (!depth || strcmp(stack[depth - 1], name)) return "unbalanced tag";
      depth--;
      p++;
      continue;
    }
    int is_bar = 0;
    /* attributes: name="value" */
    for (;;) {
      while (*p == ' ' || *p == '\n') p++;
      if (*p == '>' || (*p == '/' && p[1] == '>')) break;
      if (!*p) return "unterminated tag";
      const char *an = p;
      while (*p && *p != '=' && *p != ' ' && *p != '>') p++;
      if (*p != '=') return "attribute without value";
      size_t anl = (size_t)(p - an);
      p++;
      if (*p != '"' && *p != '\'') return "unquoted attribute";
      char q = *p++;
      const char *v = p;
      while (*p && *p != q) {
        if (*p == '<') return "< in attribute";
        p++;
      }
      if (!*p) return "unterminated attribute";
      if (anl == 5 && !strncmp(an, "class", 5) && p - v == 3 &&
          !strncmp(v, "bar", 3))
        is_bar = 1;
      p++;
    }
    if (is_bar) (*bars)++;
    if (!depth) roots++;
    if (roots > 1) return "more than one root";
    if (*p == '/') {
      p += 2;
      continue;
    }
    if (depth == 64) return "too deep";
    memcpy(stack[depth++], name, (size_t)n + 1);
    p++;
  }
  if (depth) return "unclosed element";
  if (!roots) return "no root";
  return NULL;
}

START_TEST(xml_checker_rejects) {
  int b;
  ck_assert_ptr_null(xml_check("<a x=\"1\"><b/></a>", &b));
  ck_assert_ptr_nonnull(xml_check("<a><b></a></b>", &b));
  ck_assert_ptr_nonnull(xml_check("<a x=1></a>", &b));
  ck_assert_ptr_nonnull(xml_check("<a>&nbsp;</a>", &b));
  ck_assert_ptr_nonnull(xml_check("<a>", &b));
  ck_assert_ptr_null(xml_check("<a><r class=\"bar\"/><r class=\"bar\"/></a>", &b));
  ck_assert_int_eq(b, 2);
}
END_TEST

START_TEST(fig1_svg) {
  fx x = fig1_fx(1);
  char *out = emit_str(&x, TWILL_EMIT_SVG, false);
  int bars = 0;
  const char *why = xml_check(out, &bars);
  ck_assert_msg(why == NULL, "%s", why);
  /* one bar per op instance of Q: 3 ops x C = 2 copies */
  ck_assert_int_eq(bars, 6);
  has(out, ">prologue<");
  has(out, ">steady state<");
  has(out, ">epilogue<");
  free(out);
  fx_free(&x);
}
END_TEST

START_TEST(fig1_dot) {
  fx x = fig1_fx(1);
  char *out = emit_str(&x, TWILL_EMIT_DOT, false);
  has(out, "digraph \"fig1\" {");
  has(out, "n0 -> n1 [label=\"1\", color=\"#d62728\", penwidth=2];");
  has(out, "n2 -> n2 [label=\"1, d=1\", style=dashed];");
  free(out);
  fx_free(&x);
}
END_TEST

/* The greedy fallback on fig1: S at 0 (TC slot 0), P at its earliest 1
 * (EXP free), O at earliest 2, but TC slot 0 is S's, so 3; I = MII = 2. */
START_TEST(fig1_fallback) {
  fx x = fig1_fx(0);
  char why[256] = "";
  twill_schedule *s = twill_schedule_heuristic(x.g, why, sizeof why);
  ck_assert_msg(s != NULL, "%s", why);
  ck_assert_int_eq(s->ii, 2);
  ck_assert_int_eq(s->start[0], 0);
  ck_assert_int_eq(s->start[1], 1);
  ck_assert_int_eq(s->start[2], 3);
  ck_assert_int_eq(twill_schedule_length(x.g, s), 4);
  ck_assert_int_eq(twill_schedule_default_warps(x.g, x.m, s, why, sizeof why), 0);
  /* no warpgroup op, nothing variable-latency: one warp for all */
  ck_assert_int_eq(s->warp[0], 0);
  ck_assert_int_eq(s->warp[1], 0);
  ck_assert_int_eq(s->warp[2], 0);
  ck_assert_msg(twill_schedule_validate(x.g, x.m, s, why, sizeof why) == 0,
                "%s", why);
  twill_schedule_free(s);
  fx_free(&x);
}
END_TEST

/* ---- nvcc ------------------------------------------------------------------ */

/* The skeleton compiles as users build it, `nvcc -arch=sm_90a -c` (which
 * also runs a plain compute_90 pass for the embedded PTX, where setmaxnreg
 * does not exist: the output guards it with __CUDA_ARCH_FEAT_SM90_ALL), and
 * with the explicit -gencode form.  0 ok, 1 skipped (no nvcc), -1 failed. */
static int nvcc_compile(const char *text, const char *tag) {
  int a = tu_nvcc_compile(text, tag, "-arch=sm_90a -Werror all-warnings", NULL);
  if (a) return a;
  return tu_nvcc_compile(text, tag,
                         "-gencode=arch=compute_90a,code=sm_90a -Werror all-warnings",
                         NULL);
}

START_TEST(fig1_cuda_compiles) {
  fx x = fig1_fx(1);
  char *out = emit_str(&x, TWILL_EMIT_CUDA, false);
  has(out, "setmaxnreg");
  has(out, "mbarrier.try_wait.parity");
  has(out, "Ring<2, 1, 1> r0_S_to_P;");
  has(out, "Ring<1, 1, 1> r1_P_to_O;");
  has(out, "__device__ __forceinline__ void tile_S(Ctx &ctx, int iter, int warp)");
  has(out, "if (warp >= 0 && warp < 1) {\n    role_0(ss, ctx, warp - 0);\n  } "
           "else if (warp >= 1 && warp < 2) {");
  ck_assert_int_ge(nvcc_compile(out, "fig1"), 0);
  free(out);
  fx_free(&x);
}
END_TEST


/* ---- every built-in kernel ------------------------------------------------- */

static const char *const builtins[] = {
    "fig1", "dragon", "gemm-hopper", "fa3-fwd-hopper", "fa4-fwd-blackwell",
    "fa3-bwd-hopper", "fa4-bwd-blackwell"};
#define NBUILTIN 7

static fx builtin_fx(const char *name) {
  fx x;
  twill_diag d;
  memset(&d, 0, sizeof d);
  const char *text = twill_builtin_kernel(name);
  ck_assert_ptr_nonnull(text);
  x.g = twill_graph_parse_text(text, strlen(text), name, &d);
  ck_assert_msg(x.g != NULL, "%s: %s", name, d.msg);
  x.m = twill_arch_load(x.g->arch ? x.g->arch : "hopper", &d);
  ck_assert_ptr_nonnull(x.m);
  ck_assert_int_eq(twill_graph_bind(x.g, x.m, &d), 0);
  char why[256] = "";
  x.s = twill_schedule_heuristic(x.g, why, sizeof why);
  ck_assert_msg(x.s != NULL, "%s: %s", name, why);
  ck_assert_msg(twill_schedule_default_warps(x.g, x.m, x.s, why, sizeof why) == 0,
                "%s: %s", name, why);
  ck_assert_msg(twill_schedule_validate(x.g, x.m, x.s, why, sizeof why) == 0,
                "%s: %s", name, why);
  return x;
}

START_TEST(builtin_all_formats) {
  const char *name = builtins[_i];
  fx x = builtin_fx(name);
  long L = twill_schedule_length(x.g, x.s);
  long C = (L + x.s->ii - 1) / x.s->ii;
  for (int f = 0; f < TWILL_EMIT_NFORMATS; f++) {
    char *buf = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&buf, &len);
    twill_emit_opts o = {true, NULL};
    ck_assert_int_eq(twill_emit(x.g, x.m, x.s, (twill_emit_format)f, &o, mf), 0);
    fclose(mf);
    ck_assert_msg(len > 0, "%s %s empty", name, twill_emit_format_name(f));
    if (f == TWILL_EMIT_GANTT) check_width(buf, 100);
    if (f == TWILL_EMIT_SVG) {
      int bars = 0;
      const char *why = xml_check(buf, &bars);
      ck_assert_msg(why == NULL, "%s: %s", name, why);
      ck_assert_int_eq(bars, (int)(C * x.g->nops));
    }
    if (f != TWILL_EMIT_JSON && f != TWILL_EMIT_DOT && f != TWILL_EMIT_SVG)
      has(buf, "heuristic schedule, not optimal");
    free(buf);
  }
  fx_free(&x);
}
END_TEST

/* JSON round trip: write, read back with the schedule reader, same times,
 * warps and I; stages written are t / I. */
START_TEST(builtin_json_round_trip) {
  const char *name = builtins[_i];
  fx x = builtin_fx(name);
  char *buf = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&buf, &len);
  ck_assert_int_eq(twill_emit_json(x.g, x.m, x.s, NULL, mf), 0);
  fclose(mf);
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_sched_file *sf = twill_sched_file_parse(buf, len, "rt.json", &d);
  ck_assert_msg(sf != NULL, "%s", d.msg);
  ck_assert_str_eq(sf->kernel, name);
  ck_assert_str_eq(sf->arch, x.m->name);
  twill_schedule *s = twill_sched_file_bind(sf, x.g, "rt.json", &d);
  ck_assert_msg(s != NULL, "%s", d.msg);
  ck_assert_int_eq(s->ii, x.s->ii);
  ck_assert_ptr_nonnull(s->warp);
  for (int v = 0; v < x.g->nops; v++) {
    ck_assert_int_eq(s->start[v], x.s->start[v]);
    ck_assert_int_eq(s->warp[v], x.s->warp[v]);
  }
  twill_json *j = twill_json_parse(buf, len, "rt.json", &d);
  ck_assert_ptr_nonnull(j);
  const twill_json *st = twill_json_get(j, "stages");
  ck_assert_ptr_nonnull(st);
  ck_assert_int_eq((int)st->len, x.g->nops);
  for (int v = 0; v < x.g->nops; v++)
    ck_assert_int_eq(st->items[v].integer, x.s->start[v] / x.s->ii);
  twill_json_free(j);
  twill_schedule_free(s);
  twill_sched_file_free(sf);
  free(buf);
  fx_free(&x);
}
END_TEST

START_TEST(schedule_json_errors) {
  twill_diag d;
  const char *bad[] = {
      "[]", "{\"ii\": 2, \"times\": {}}", "{\"kernel\": \"fig1\", \"times\": {}}",
      "{\"kernel\": \"fig1\", \"ii\": 0, \"times\": {}}",
      "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": -1}}",
      "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0}, \"warps\": {\"X\": 0}}",
      "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 1.5}}", "{"};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    memset(&d, 0, sizeof d);
    twill_sched_file *sf = twill_sched_file_parse(bad[k], strlen(bad[k]), "b.json", &d);
    ck_assert_msg(sf == NULL, "accepted %s", bad[k]);
    ck_assert_msg(d.msg[0], "no message for %s", bad[k]);
  }
  /* unknown op, missing op */
  fx x = fig1_fx(0);
  const char *t1 = "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0, \"P\": 2}}";
  twill_sched_file *sf = twill_sched_file_parse(t1, strlen(t1), "m.json", &d);
  ck_assert_ptr_nonnull(sf);
  ck_assert_ptr_null(twill_sched_file_bind(sf, x.g, "m.json", &d));
  ck_assert_ptr_nonnull(strstr(d.msg, "'O' of kernel 'fig1' has no start time"));
  twill_sched_file_free(sf);
  fx_free(&x);
}
END_TEST

/* All built-in skeletons in one translation unit (each in its namespace):
 * one nvcc run. */
START_TEST(builtin_cuda_compiles) {
  char *all = NULL;
  size_t len = 0;
  FILE *mf = open_memstream(&all, &len);
  for (int k = 0; k < NBUILTIN; k++) {
    fx x = builtin_fx(builtins[k]);
    twill_emit_opts o = {true, NULL};
    ck_assert_int_eq(twill_emit_cuda(x.g, x.m, x.s, &o, mf), 0);
    fx_free(&x);
  }
  fclose(mf);
  has(all, "namespace fa3_fwd_hopper {");
  has(all, "setmaxnreg_inc<240>");
  ck_assert_int_ge(nvcc_compile(all, "built-in kernels"), 0);
  free(all);
}
END_TEST

/* The program: emit from a kernel, and from a schedule file it wrote. */
START_TEST(cli_emit) {
  char *out = NULL, *err = NULL;
  const char *a1[] = {"emit", "fig1", "--format", "pseudocode", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 0);
  has(out, "heuristic schedule, not optimal");
  free(out);
  free(err);
  char path[] = "/tmp/twill_sched_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  const char *js =
      "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0, \"P\": 2, \"O\": 3},"
      " \"warps\": {\"S\": 0, \"P\": 1, \"O\": 0}}\n";
  ck_assert_int_eq((int)write(fd, js, strlen(js)), (int)strlen(js));
  close(fd);
  const char *a2[] = {"emit", path, "--format", "pseudocode", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 0);
  has(out, "  cycle 2      S(i+1)               stage 0   slot 0      warp w0\n");
  has(out, "wait   r0(S->P).full[i]");
  free(out);
  free(err);
  const char *a3[] = {"emit", "fig1", "--format", "nope", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 1);
  free(out);
  free(err);
  /* an invalid schedule (O in S's TC slot) is refused with the reason */
  fd = open(path, O_WRONLY | O_TRUNC);
  const char *bad = "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0, \"P\": 1, \"O\": 2}}";
  ck_assert_int_eq((int)write(fd, bad, strlen(bad)), (int)strlen(bad));
  close(fd);
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 1);
  has(err, "invalid schedule");
  free(out);
  free(err);
  unlink(path);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("codegen");
  TCase *t = tcase_create("fig1");
  tcase_add_test(t, fig1_pseudocode_golden);
  tcase_add_test(t, fig1_warp_programs);
  tcase_add_test(t, too_many_copies_refused);
  tcase_add_test(t, fig1_table);
  tcase_add_test(t, fig1_gantt);
  tcase_add_test(t, xml_checker_rejects);
  tcase_add_test(t, fig1_svg);
  tcase_add_test(t, fig1_dot);
  tcase_add_test(t, fig1_fallback);
  tcase_add_test(t, schedule_json_errors);
  tcase_add_test(t, cli_emit);
  TCase *b = tcase_create("builtin");
  tcase_set_timeout(b, 60);
  tcase_add_loop_test(b, builtin_all_formats, 0, NBUILTIN);
  tcase_add_loop_test(b, builtin_json_round_trip, 0, NBUILTIN);
  suite_add_tcase(s, b);
  suite_add_tcase(s, t);
  TCase *c = tcase_create("cuda");
  tcase_set_timeout(c, 120);
  tcase_add_test(c, fig1_cuda_compiles);
  tcase_add_test(c, builtin_cuda_compiles);
  suite_add_tcase(s, c);
  return s;
}

TWILL_CHECK_MAIN
