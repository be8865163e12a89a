/* tests/test_graph_io.c: the kernel formats (.twill text, JSON kernel form),
 * the JSON reader and writer, DOT output and the random generator.
 *
 * Expected diagnostics are written out in full, "file:line:col: message";
 * each column was counted by hand on the input next to it (1-based bytes).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/graph.h"
#include "twill/json.h"

/* ---- helpers ----------------------------------------------------------- */

typedef int (*printer)(const twill_graph *, FILE *);

static char *print_str(printer fn, const twill_graph *g) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(fn(g, f), 0);
  fclose(f);
  return buf;
}

static char *dot_str(const twill_graph *g, const int *warp) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(twill_graph_print_dot(g, warp, f), 0);
  fclose(f);
  return buf;
}

/* "file:line:col: msg" as twill_diag_print writes it, without newline. */
static void diag_str(const twill_diag *d, char *out, size_t cap) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  ck_assert_ptr_nonnull(f);
  twill_diag_print(d, f);
  fclose(f);
  if (n && buf[n - 1] == '\n') buf[n - 1] = '\0';
  snprintf(out, cap, "%s", buf);
  free(buf);
}

/* Structural equality; on a difference writes why into why. */
static bool graphs_equal(const twill_graph *a, const twill_graph *b,
                         char *why, size_t cap) {
#define DIFF(...)                          \
  do {                                     \
    snprintf(why, cap, __VA_ARGS__);       \
    return false;                          \
  } while (0)
  if (strcmp(a->name, b->name)) DIFF("name %s vs %s", a->name, b->name);
  if (!a->arch != !b->arch || (a->arch && strcmp(a->arch, b->arch)))
    DIFF("arch");
  if (a->nunits != b->nunits) DIFF("nunits %d vs %d", a->nunits, b->nunits);
  for (int u = 0; u < a->nunits; u++) {
    const twill_unit *x = &a->units[u], *y = &b->units[u];
    if (strcmp(x->name, y->name)) DIFF("unit %d: %s vs %s", u, x->name, y->name);
    if (x->declared != y->declared) DIFF("unit %s declared", x->name);
    if (x->declared && x->capacity != y->capacity)
      DIFF("unit %s capacity", x->name);
  }
  if (a->nops != b->nops) DIFF("nops %d vs %d", a->nops, b->nops);
  for (int v = 0; v < a->nops; v++) {
    const twill_op *x = &a->ops[v], *y = &b->ops[v];
    if (strcmp(x->name, y->name)) DIFF("op %d: %s vs %s", v, x->name, y->name);
    if (x->lat != y->lat || x->regs != y->regs || x->smem != y->smem ||
        x->tmem != y->tmem || x->spill != y->spill || x->issue != y->issue ||
        x->varlat != y->varlat)
      DIFF("op %s fields", x->name);
    if (x->nuses != y->nuses) DIFF("op %s nuses", x->name);
    for (int k = 0; k < x->nuses; k++) {
      const twill_use *p = &x->uses[k], *q = &y->uses[k];
      if (strcmp(a->units[p->unit].name, b->units[q->unit].name) ||
          p->offset != q->offset || p->cycles != q->cycles ||
          p->count != q->count)
        DIFF("op %s use %d", x->name, k);
    }
  }
  if (a->nedges != b->nedges) DIFF("nedges %d vs %d", a->nedges, b->nedges);
  for (int i = 0; i < a->nedges; i++) {
    const twill_edge *x = &a->edges[i], *y = &b->edges[i];
    if (x->src != y->src || x->dst != y->dst || x->lat != y->lat ||
        x->dist != y->dist || x->blocking != y->blocking)
      DIFF("edge %d", i);
  }
  return true;
#undef DIFF
}

static twill_graph *parse_text_ok(const char *s) {
  twill_diag d;
  twill_graph *g = twill_graph_parse_text(s, strlen(s), "t.twill", &d);
  if (!g) {
    char m[600];
    diag_str(&d, m, sizeof m);
    ck_abort_msg("parse failed: %s", m);
  }
  return g;
}

static twill_graph *parse_json_ok(const char *s, const char *file) {
  twill_diag d;
  twill_graph *g = twill_graph_parse_json(s, strlen(s), file, &d);
  if (!g) {
    char m[600];
    diag_str(&d, m, sizeof m);
    ck_abort_msg("parse failed: %s", m);
  }
  return g;
}

static void assert_equal(const twill_graph *a, const twill_graph *b) {
  char why[256];
  ck_assert_msg(graphs_equal(a, b, why, sizeof why), "graphs differ: %s", why);
}

/* Text: print, re-parse, compare; and the second print is byte-identical. */
static void text_round_trip(const twill_graph *g) {
  char *s = print_str(twill_graph_print_text, g);
  twill_graph *h = parse_text_ok(s);
  assert_equal(g, h);
  char *s2 = print_str(twill_graph_print_text, h);
  ck_assert_str_eq(s, s2);
  free(s);
  free(s2);
  twill_graph_free(h);
}

static void json_round_trip(const twill_graph *g) {
  char *s = print_str(twill_graph_print_json, g);
  twill_graph *h = parse_json_ok(s, "t.json");
  assert_equal(g, h);
  char *s2 = print_str(twill_graph_print_json, h);
  ck_assert_str_eq(s, s2);
  free(s);
  free(s2);
  twill_graph_free(h);
}

/* A kernel that uses every feature of the text format. */
static const char *sample =
    "# a sample kernel\n"
    "\n"
    "kernel sample   # trailing comment\n"
    "arch hopper\n"
    "unit TC 1\n"
    "op load lat 500 use TMA issue thread varlat yes smem 32768\n"
    "op mma lat 1024 use TC@0:1024 regs 64 issue warpgroup\n"
    "  op\tsfx lat 40 use ALU:2x2 use TC@3 regs 32 spill 12 tmem 128\n"
    "unit TMA 2\n"
    "op store lat 10 use TMA@1:2x2#no blank before the comment\n"
    "edge load mma\n"
    "edge mma sfx lat 1000 blocking yes\n"
    "edge sfx mma dist 1\n"
    "edge sfx load lat 7 dist 2 blocking no\r\n"
    "edge store store dist 1\n";

/* ---- parsing and printing --------------------------------------------- */

START_TEST(text_parses_every_feature) {
  twill_graph *g = parse_text_ok(sample);
  ck_assert_str_eq(g->name, "sample");
  ck_assert_str_eq(g->arch, "hopper");
  /* Units: declared first in declaration order (TC, TMA), then ALU. */
  ck_assert_int_eq(g->nunits, 3);
  ck_assert_str_eq(g->units[0].name, "TC");
  ck_assert(g->units[0].declared);
  ck_assert_int_eq(g->units[0].capacity, 1);
  ck_assert_str_eq(g->units[1].name, "TMA");
  ck_assert_int_eq(g->units[1].capacity, 2);
  ck_assert_int_eq(g->units[1].line, 9);
  ck_assert_str_eq(g->units[2].name, "ALU");
  ck_assert(!g->units[2].declared);
  ck_assert_int_eq(g->units[2].line, 8);
  ck_assert_int_eq(g->nops, 4);
  const twill_op *load = &g->ops[0], *mma = &g->ops[1], *sfx = &g->ops[2];
  ck_assert_int_eq(load->lat, 500);
  ck_assert_int_eq(load->issue, TWILL_ISSUE_THREAD);
  ck_assert(load->varlat);
  ck_assert_int_eq(load->smem, 32768);
  ck_assert_int_eq(load->spill, -1);
  ck_assert_int_eq(load->line, 6);
  ck_assert_int_eq(mma->issue, TWILL_ISSUE_WARPGROUP);
  ck_assert_int_eq(mma->regs, 64);
  ck_assert_int_eq(mma->uses[0].unit, 0);
  ck_assert_int_eq(mma->uses[0].offset, 0);
  ck_assert_int_eq(mma->uses[0].cycles, 1024);
  ck_assert_int_eq(mma->uses[0].count, 1);
  ck_assert_int_eq(sfx->nuses, 2);
  /* ALU:2x2 = offset 0 (default), 2 cycles, 2 instances. */
  ck_assert_int_eq(sfx->uses[0].unit, 2);
  ck_assert_int_eq(sfx->uses[0].offset, 0);
  ck_assert_int_eq(sfx->uses[0].cycles, 2);
  ck_assert_int_eq(sfx->uses[0].count, 2);
  ck_assert_int_eq(sfx->uses[1].offset, 3);
  ck_assert_int_eq(sfx->uses[1].cycles, 1);
  ck_assert_int_eq(sfx->spill, 12);
  ck_assert_int_eq(sfx->tmem, 128);
  ck_assert_int_eq(g->ops[3].uses[0].offset, 1);
  ck_assert_int_eq(g->ops[3].uses[0].count, 2);
  ck_assert_int_eq(g->nedges, 5);
  /* Edge latency defaults to the source's: load has lat 500. */
  ck_assert_int_eq(g->edges[0].lat, 500);
  ck_assert_int_eq(g->edges[0].dist, 0);
  ck_assert_int_eq(g->edges[1].lat, 1000);
  ck_assert(g->edges[1].blocking);
  ck_assert_int_eq(g->edges[2].lat, 40);
  ck_assert_int_eq(g->edges[2].dist, 1);
  ck_assert_int_eq(g->edges[3].lat, 7);
  ck_assert(!g->edges[3].blocking);
  ck_assert_int_eq(g->edges[4].src, 3);
  ck_assert_int_eq(g->edges[4].dst, 3);
  ck_assert_int_eq(g->edges[4].line, 15);
  twill_graph_free(g);
}
END_TEST

START_TEST(text_prints_canonically) {
  twill_graph *g = parse_text_ok(sample);
  char *s = print_str(twill_graph_print_text, g);
  /* Hand-written: declared units first, defaults left out, edge lat only
   * where it differs from the source's (mma->sfx 1000 != 1024, sfx->load 7
   * != 40). */
  ck_assert_str_eq(s,
                   "kernel sample\n"
                   "arch hopper\n"
                   "unit TC 1\n"
                   "unit TMA 2\n"
                   "op load lat 500 use TMA smem 32768 issue thread varlat "
                   "yes\n"
                   "op mma lat 1024 use TC:1024 regs 64 issue warpgroup\n"
                   "op sfx lat 40 use ALU@0:2x2 use TC@3 regs 32 tmem 128 "
                   "spill 12\n"
                   "op store lat 10 use TMA@1:2x2\n"
                   "edge load mma\n"
                   "edge mma sfx lat 1000 blocking yes\n"
                   "edge sfx mma dist 1\n"
                   "edge sfx load lat 7 dist 2\n"
                   "edge store store dist 1\n");
  free(s);
  text_round_trip(g);
  json_round_trip(g);
  twill_graph_free(g);
}
END_TEST

/* The same kernel built through the API alone (units, ops, uses, edges and
 * every annotation by its setter) prints the hand-written text above. */
START_TEST(api_setters_build_the_sample) {
  twill_graph *g = twill_graph_new("sample");
  ck_assert_ptr_nonnull(g);
  ck_assert_int_eq(twill_graph_set_arch(g, "hopper"), 0);
  int tc = twill_graph_declare_unit(g, "TC", 1);
  int tma = twill_graph_declare_unit(g, "TMA", 2);
  int load = twill_graph_add_op(g, "load", 500);
  int mma = twill_graph_add_op(g, "mma", 1024);
  int sfx = twill_graph_add_op(g, "sfx", 40);
  int store = twill_graph_add_op(g, "store", 10);
  int alu = twill_graph_unit(g, "ALU");
  ck_assert_int_eq(twill_graph_add_use(g, load, tma, 0, 1, 1), 0);
  ck_assert_int_eq(twill_graph_add_use(g, mma, tc, 0, 1024, 1), 0);
  ck_assert_int_eq(twill_graph_add_use(g, sfx, alu, 0, 2, 2), 0);
  ck_assert_int_eq(twill_graph_add_use(g, sfx, tc, 3, 1, 1), 0);
  ck_assert_int_eq(twill_graph_add_use(g, store, tma, 1, 2, 2), 0);
  ck_assert_int_eq(twill_graph_set_smem(g, load, 32768), 0);
  ck_assert_int_eq(twill_graph_set_issue(g, load, TWILL_ISSUE_THREAD), 0);
  ck_assert_int_eq(twill_graph_set_varlat(g, load, true), 0);
  ck_assert_int_eq(twill_graph_set_regs(g, mma, 64), 0);
  ck_assert_int_eq(twill_graph_set_issue(g, mma, TWILL_ISSUE_WARPGROUP), 0);
  ck_assert_int_eq(twill_graph_set_regs(g, sfx, 32), 0);
  ck_assert_int_eq(twill_graph_set_tmem(g, sfx, 128), 0);
  ck_assert_int_eq(twill_graph_set_spill(g, sfx, 12), 0);
  ck_assert_int_ge(twill_graph_add_edge(g, load, mma, 500, 0), 0);
  int e = twill_graph_add_edge(g, mma, sfx, 1000, 0);
  ck_assert_int_eq(twill_graph_set_blocking(g, e, true), 0);
  ck_assert_int_ge(twill_graph_add_edge(g, sfx, mma, 40, 1), 0);
  ck_assert_int_ge(twill_graph_add_edge(g, sfx, load, 7, 2), 0);
  ck_assert_int_ge(twill_graph_add_edge(g, store, store, 10, 1), 0);
  /* out of range: refused, nothing changed */
  ck_assert_int_eq(twill_graph_set_regs(g, mma, -1), -1);
  ck_assert_int_eq(twill_graph_set_spill(g, sfx, -2), -1);
  ck_assert_int_eq(twill_graph_set_groups(g, mma, 3), -1);
  ck_assert_int_eq(twill_graph_set_issue(g, mma, (twill_issue)7), -1);
  ck_assert_int_eq(twill_graph_set_tmem(g, 99, 1), -1);
  ck_assert_int_eq(twill_graph_set_blocking(g, 99, true), -1);
  ck_assert_int_eq(twill_graph_set_groups(g, mma, 2), 0);
  ck_assert_int_eq(g->ops[mma].groups, 2);
  ck_assert_int_eq(twill_graph_set_groups(g, mma, 1), 0);
  char *s = print_str(twill_graph_print_text, g);
  twill_graph *h = parse_text_ok(sample);
  char *want = print_str(twill_graph_print_text, h);
  ck_assert_str_eq(s, want);
  free(s);
  free(want);
  twill_graph_free(h);
  twill_graph_free(g);
}
END_TEST

START_TEST(text_json_text_is_identity) {
  twill_graph *g = parse_text_ok(sample);
  char *j = print_str(twill_graph_print_json, g);
  twill_graph *h = parse_json_ok(j, "t.json");
  assert_equal(g, h);
  char *t1 = print_str(twill_graph_print_text, g);
  char *t2 = print_str(twill_graph_print_text, h);
  ck_assert_str_eq(t1, t2);
  free(j);
  free(t1);
  free(t2);
  twill_graph_free(h);
  twill_graph_free(g);
}
END_TEST

START_TEST(json_prints_one_op_per_line) {
  twill_graph *g = parse_text_ok("kernel k\nunit TC 2\n"
                                 "op a lat 3 use TC@1:2x2 regs 8\n"
                                 "op b lat 0 use X\n"
                                 "edge a b dist 1 blocking yes\n");
  char *s = print_str(twill_graph_print_json, g);
  ck_assert_str_eq(s,
                   "{\n"
                   "  \"kernel\": \"k\",\n"
                   "  \"units\": {\n"
                   "    \"TC\": 2\n"
                   "  },\n"
                   "  \"ops\": [\n"
                   "    {\"name\":\"a\",\"lat\":3,\"use\":[[\"TC\",1,2,2]],"
                   "\"regs\":8},\n"
                   "    {\"name\":\"b\",\"lat\":0,\"use\":[[\"X\",0,1]]}\n"
                   "  ],\n"
                   "  \"edges\": [\n"
                   "    {\"src\":\"a\",\"dst\":\"b\",\"lat\":3,\"dist\":1,"
                   "\"blocking\":true}\n"
                   "  ]\n"
                   "}\n");
  free(s);
  twill_graph_free(g);
}
END_TEST

START_TEST(json_kernel_parses) {
  const char *s =
      "{\"edges\": [{\"src\": \"b\", \"dst\": \"a\", \"dist\": 1},\n"
      "            {\"src\": \"a\", \"dst\": \"b\", \"lat\": 9, "
      "\"blocking\": false}],\n"
      " \"ops\": [{\"name\": \"a\", \"use\": [[\"V\", 0, 1], [\"TC\", 2, 3, "
      "4]],\n"
      "          \"issue\": \"warpgroup\", \"varlat\": true, \"regs\": 4, \"spill\": 0},\n"
      "         {\"name\": \"b\", \"lat\": 5, \"tmem\": 64}],\n"
      " \"units\": {\"TC\": 4}, \"arch\": \"arch/x.arch\"}\n";
  twill_graph *g = parse_json_ok(s, "dir/my-kernel.v2.json");
  /* No "kernel": named after the file without its last extension. */
  ck_assert_str_eq(g->name, "my-kernel.v2");
  ck_assert_str_eq(g->arch, "arch/x.arch");
  ck_assert_int_eq(g->nunits, 2);
  ck_assert_str_eq(g->units[0].name, "TC"); /* declared first */
  ck_assert_str_eq(g->units[1].name, "V");
  ck_assert_int_eq(g->ops[0].lat, 0); /* optional, 0 */
  ck_assert_int_eq(g->ops[0].uses[1].count, 4);
  ck_assert_int_eq(g->ops[0].spill, 0);
  ck_assert_int_eq(g->ops[0].line, 3);
  ck_assert_int_eq(g->ops[1].tmem, 64);
  /* Edges in document order; lat defaults to the source's (b: 5). */
  ck_assert_int_eq(g->edges[0].src, 1);
  ck_assert_int_eq(g->edges[0].lat, 5);
  ck_assert_int_eq(g->edges[1].lat, 9);
  ck_assert_int_eq(g->edges[1].line, 2);
  json_round_trip(g);
  text_round_trip(g);
  twill_graph_free(g);
}
END_TEST

START_TEST(use_counts_and_unit_names_with_x) {
  /* "ex2" declared: `use ex2` is that unit; undeclared "qx3" splits into
   * unit q, count 3; `ex2@0x2` is unit ex2 with count 2. */
  twill_graph *g = parse_text_ok("kernel k\nunit ex2 4\n"
                                 "op a lat 1 use ex2 use qx3 use ex2@0x2\n");
  ck_assert_int_eq(g->nunits, 2);
  ck_assert_str_eq(g->units[1].name, "q");
  ck_assert_int_eq(g->ops[0].uses[0].unit, 0);
  ck_assert_int_eq(g->ops[0].uses[0].count, 1);
  ck_assert_int_eq(g->ops[0].uses[1].count, 3);
  ck_assert_int_eq(g->ops[0].uses[2].count, 2);
  char *s = print_str(twill_graph_print_text, g);
  ck_assert_str_eq(s, "kernel k\nunit ex2 4\n"
                      "op a lat 1 use ex2@0 use q@0x3 use ex2@0x2\n");
  free(s);
  text_round_trip(g);
  twill_graph_free(g);
}
END_TEST

START_TEST(empty_kernel_round_trips) {
  twill_graph *g = parse_text_ok("kernel empty\n");
  ck_assert_int_eq(g->nops, 0);
  text_round_trip(g);
  json_round_trip(g);
  twill_graph_free(g);
  g = parse_json_ok("{}", "");
  ck_assert_str_eq(g->name, "kernel");
  twill_graph_free(g);
}
END_TEST

START_TEST(load_file_picks_the_format) {
  char path[] = "/tmp/twill-test-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs("\n  \t{\"kernel\": \"j\", \"ops\": [{\"name\": \"a\"}]}", f);
  fclose(f);
  twill_diag d;
  twill_graph *g = twill_graph_load_file(path, &d);
  ck_assert_ptr_nonnull(g);
  ck_assert_str_eq(g->name, "j");
  twill_graph_free(g);
  f = fopen(path, "w");
  fputs(sample, f);
  fclose(f);
  g = twill_graph_load_file(path, &d);
  ck_assert_ptr_nonnull(g);
  ck_assert_str_eq(g->name, "sample");
  twill_graph_free(g);
  f = fopen(path, "w");
  fputs("kernel k\nop a lat x\n", f);
  fclose(f);
  ck_assert_ptr_null(twill_graph_load_file(path, &d));
  ck_assert_str_eq(d.file, path);
  ck_assert_int_eq(d.line, 2);
  ck_assert_int_eq(d.col, 10);
  unlink(path);
  ck_assert_ptr_null(twill_graph_load_file(path, &d));
  ck_assert_str_eq(d.file, path);
  ck_assert_str_eq(d.msg, "cannot open: No such file or directory");
}
END_TEST

START_TEST(zero_distance_cycle_is_reported_with_the_file) {
  const char *s = "kernel k\nop a lat 1\nop b lat 1\n"
                  "edge a b\nedge b a\nedge b a dist 1\n";
  twill_diag d;
  memset(&d, 0, sizeof d);
  ck_assert_ptr_null(twill_graph_parse_text(s, strlen(s), "c.twill", &d));
  ck_assert_str_eq(d.file, "c.twill");
  ck_assert_int_ge(d.line, 4);
  ck_assert_int_le(d.line, 5);
  memset(&d, 0, sizeof d);
  const char *j = "{\"ops\": [{\"name\": \"a\"}],\n"
                  " \"edges\": [{\"src\": \"a\", \"dst\": \"a\"}]}";
  ck_assert_ptr_null(twill_graph_parse_json(j, strlen(j), "c.json", &d));
  ck_assert_str_eq(d.file, "c.json");
  ck_assert_int_eq(d.line, 2);
}
END_TEST

START_TEST(builtin_kernels_parse_and_round_trip) {
  /* Every .twill file under kernels/ shipped with twill parses, validates and prints
   * back to itself in both formats. */
  char *dir = tu_src_path("kernels");
  DIR *dp = opendir(dir);
  ck_assert_msg(dp != NULL, "cannot open %s", dir);
  int n = 0;
  struct dirent *de;
  while ((de = readdir(dp))) {
    size_t len = strlen(de->d_name);
    if (len < 7 || strcmp(de->d_name + len - 6, ".twill")) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
    twill_diag d;
    twill_graph *g = twill_graph_load_file(path, &d);
    if (!g) {
      char m[600];
      diag_str(&d, m, sizeof m);
      ck_abort_msg("%s", m);
    }
    ck_assert_int_gt(g->nops, 0);
    text_round_trip(g);
    json_round_trip(g);
    twill_graph_free(g);
    n++;
  }
  closedir(dp);
  free(dir);
  ck_assert_int_ge(n, 1);
}
END_TEST

/* ---- malformed inputs: exact messages ----------------------------------- */

typedef struct bad {
  char kind;          /* 'T' text, 'J' JSON value, 'K' JSON kernel */
  const char *in;
  size_t len;         /* 0: strlen(in) */
  const char *want;
} bad;

static const bad bads[] = {
    /* .twill (file t.twill) */
    {'T', "", 0, "t.twill:1:1: missing 'kernel' line"},
    {'T', "# only a comment\n", 0, "t.twill:2:1: missing 'kernel' line"},
    {'T', "op a lat 1\nkernel k\n", 0, "t.twill:1:1: 'kernel' must come first"},
    {'T', "kernel\n", 0, "t.twill:1:7: expected a kernel name after 'kernel'"},
    {'T', "kernel k extra\n", 0,
     "t.twill:1:10: unexpected 'extra' after kernel name"},
    {'T', "kernel k\nkernel j\n", 0,
     "t.twill:2:1: duplicate 'kernel' line (first at line 1)"},
    {'T', "kernel k\nfrob x\n", 0, "t.twill:2:1: unknown directive 'frob'"},
    {'T', "kernel k\nop a lat abc\n", 0,
     "t.twill:2:10: expected an integer after 'lat', got 'abc'"},
    {'T', "kernel k\nop a lat -3\n", 0, "t.twill:2:10: negative latency -3"},
    {'T', "kernel k\nop a lat 99999999999999\n", 0,
     "t.twill:2:10: integer 99999999999999 out of range (max 1000000000000)"},
    {'T', "kernel k\nop a lat 1\nop a lat 2\n", 0,
     "t.twill:3:4: duplicate op 'a' (first defined at line 2)"},
    {'T', "kernel k\nop a lat 1\nedge a X\n", 0,
     "t.twill:3:8: unknown op 'X' in edge"},
    {'T', "kernel k\nop a lat 1 color red\n", 0,
     "t.twill:2:12: unknown op key 'color'"},
    {'T', "kernel k\nop a use TC\n", 0,
     "t.twill:2:6: expected 'lat' after op name, got 'use'"},
    {'T', "kernel k\nop a lat\n", 0,
     "t.twill:2:9: expected an integer after 'lat'"},
    {'T', "kernel k\nunit TC 0\n", 0,
     "t.twill:2:9: unit capacity must be at least 1"},
    {'T', "kernel k\nunit TC 1\nunit TC 2\n", 0,
     "t.twill:3:6: duplicate unit 'TC' (first declared at line 2)"},
    {'T', "kernel k\nunit TC 1\nop a lat 1 use TCx2\n", 0,
     "t.twill:3:16: unit 'TC' used with count 2 but its capacity is 1 "
     "(declared at line 2)"},
    {'T', "kernel k\nop a lat 1 use TC@x\n", 0,
     "t.twill:2:19: expected an integer after '@', got 'x'"},
    {'T', "kernel k\nop a lat 1 use TC:0\n", 0,
     "t.twill:2:19: use cycles must be at least 1"},
    {'T', "kernel k\nop a lat 1 use TC:2@1\n", 0,
     "t.twill:2:20: unexpected '@' in use 'TC:2@1' (expected "
     "UNIT[@OFFSET][:CYCLES][xCOUNT])"},
    {'T', "kernel k\nop a lat 1 use TC@-1\n", 0,
     "t.twill:2:19: negative use offset -1"},
    {'T', "kernel k\nop a lat 1 issue sometimes\n", 0,
     "t.twill:2:18: expected thread, warp or warpgroup after 'issue', got "
     "'sometimes'"},
    {'T', "kernel k\nop a lat 1 groups 2\n", 0,
     "t.twill:2:12: 'groups 2' needs 'issue warpgroup'"},
    {'T', "kernel k\nop a lat 1 issue warpgroup groups 3\n", 0,
     "t.twill:2:35: 'groups' must be 1, 2 or 4, got 3"},
    {'T', "kernel k\nop a lat 1 issue warpgroup groups 0\n", 0,
     "t.twill:2:35: 'groups' must be 1, 2 or 4, got 0"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"groups\":2}]}", 0,
     "k.json:1:30: 'groups' 2 needs \"issue\": \"warpgroup\""},
    {'K', "{\"ops\":[{\"name\":\"a\",\"issue\":\"warpgroup\",\"groups\":3}]}", 0,
     "k.json:1:50: 'groups' must be 1, 2 or 4, got 3"},
    {'T', "kernel k\nop a lat 1 varlat maybe\n", 0,
     "t.twill:2:19: expected 'yes' or 'no' after 'varlat', got 'maybe'"},
    {'T', "kernel k\nop a lat 1 regs 4 regs 5\n", 0,
     "t.twill:2:19: duplicate key 'regs' in op"},
    {'T', "kernel k\nop a lat 1\nedge a a dist 1 dist 2\n", 0,
     "t.twill:3:17: duplicate key 'dist' in edge"},
    {'T', "kernel k\nop a lat 1\nedge a a weight 3\n", 0,
     "t.twill:3:10: unknown edge key 'weight'"},
    {'T', "kernel k\nop a lat 1\nedge a a dist -1\n", 0,
     "t.twill:3:15: negative distance -1"},
    {'T', "kernel k\nop a lat 1\nedge a a dist 3000000000\n", 0,
     "t.twill:3:15: integer 3000000000 out of range (max 2147483647)"},
    {'T', "kernel k\nop a\x01 lat 1\n", 0,
     "t.twill:2:5: unexpected control character 0x01"},
    {'T', "kernel k\nop a lat 1\0\n", 21, "t.twill:2:11: NUL byte in input"},
    {'T', "kernel k\narch hopper\narch blackwell\n", 0,
     "t.twill:3:1: duplicate 'arch' line (first at line 2)"},
    {'T', "kernel k\nop a\"b lat 1\n", 0, "t.twill:2:4: invalid op name 'a\"b'"},
    {'T', "kernel k\nop a lat 1 use\n", 0,
     "t.twill:2:15: expected UNIT[@OFFSET][:CYCLES][xCOUNT] after 'use'"},
    {'T', "kernel k\nop a lat 1 spill\n", 0,
     "t.twill:2:17: expected an integer after 'spill'"},
    /* spill is the cost of moving a register value between warps
     * (twill/joint.h): on an op with no registers it would be silently
     * ignored, so it is an error, at the spill key, in either order */
    {'T', "kernel k\nop a lat 1 varlat yes spill 3\n", 0,
     "t.twill:2:23: spill has no effect on an op that keeps no registers"},
    {'T', "kernel k\nop a lat 1 spill 0 regs 0 smem 8\n", 0,
     "t.twill:2:12: spill has no effect on an op that keeps no registers"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"spill\":3,\"tmem\":2}]}", 0,
     "k.json:1:21: spill has no effect on an op that keeps no registers"},
    {'T', "kernel k\nop a lat 1 use @1\n", 0,
     "t.twill:2:16: expected a unit name in use '@1'"},
    {'T', "kernel k\nedge a\n", 0, "t.twill:2:6: unknown op 'a' in edge"},
    /* Machine names are printable ASCII so that JSON can carry them. */
    {'T', "kernel k\narch h\xe3\n", 0,
     "t.twill:2:6: invalid machine name 'h\xe3'"},
    /* JSON values (file x.json) */
    {'J', "", 0, "x.json:1:1: unexpected end of input, expected a value"},
    {'J', "{\"a\":1,}", 0, "x.json:1:8: trailing comma in object"},
    {'J', "[1,2,]", 0, "x.json:1:6: trailing comma in array"},
    {'J', "{\"a\":1,\"a\":2}", 0,
     "x.json:1:8: duplicate key \"a\" (first at line 1, column 2)"},
    {'J', "[01]", 0, "x.json:1:2: invalid number: leading zero"},
    {'J', "[1.]", 0,
     "x.json:1:4: unexpected character ']', expected a digit after '.'"},
    {'J', "[1e]", 0,
     "x.json:1:4: unexpected character ']', expected a digit in the "
     "exponent"},
    {'J', "\"a\\qb\"", 0, "x.json:1:3: invalid escape '\\q' in string"},
    {'J', "\"\\ud800\"", 0,
     "x.json:1:2: unpaired high surrogate \\uD800 in string"},
    {'J', "\"\\ud800\\u0041\"", 0,
     "x.json:1:2: unpaired high surrogate \\uD800 in string"},
    {'J', "\"\\udc00\"", 0,
     "x.json:1:2: unpaired low surrogate \\uDC00 in string"},
    {'J', "\"\\u0000\"", 0,
     "x.json:1:2: \\u0000 (NUL) in string is not supported"},
    {'J', "\"a\nb\"", 0,
     "x.json:1:3: unescaped control character 0x0a in string"},
    {'J', "\"\xc3\x28\"", 0, "x.json:1:2: invalid UTF-8 in string"},
    {'J', "\"\xed\xa0\x80\"", 0, "x.json:1:2: invalid UTF-8 in string"},
    {'J', "\"\xc0\xaf\"", 0, "x.json:1:2: invalid UTF-8 in string"},
    {'J', "[1e999]", 0, "x.json:1:2: number out of range"},
    {'J', "{} x", 0, "x.json:1:4: unexpected data after the JSON value"},
    {'J', "[tru]", 0, "x.json:1:2: invalid literal (expected true)"},
    {'J', "{\"a\" 1}", 0,
     "x.json:1:6: unexpected character '1', expected ':' after object key"},
    {'J', "{1:2}", 0,
     "x.json:1:2: unexpected character '1', expected a string key"},
    {'J', "[1 2]", 0,
     "x.json:1:4: unexpected character '2', expected ',' or ']' in array"},
    {'J', "\"abc", 0, "x.json:1:5: unterminated string"},
    {'J', "[\n  -]", 0,
     "x.json:2:4: unexpected character ']', expected a digit"},
    {'J', "\"\\u12G4\"", 0,
     "x.json:1:2: invalid \\u escape: expected 4 hex digits"},
    {'J', "[\"a\0\"]", 5, "x.json:1:4: NUL byte in string"},
    {'J', "[+1]", 0, "x.json:1:2: unexpected character '+', expected a value"},
    /* JSON kernels (file k.json) */
    {'K', "[]", 0, "k.json:1:1: expected a kernel (a JSON object), got an array"},
    {'K', "{\"kernel\":\"k\",\"nodes\":[]}", 0,
     "k.json:1:15: unknown field 'nodes' in kernel"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"lat\":-3}]}", 0,
     "k.json:1:27: negative latency -3"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"lat\":1.5}]}", 0,
     "k.json:1:27: expected an integer for 'lat', got 1.5"},
    {'K', "{\"ops\":[{\"name\":\"a\"},{\"name\":\"a\"}]}", 0,
     "k.json:1:30: duplicate op 'a' (first defined at line 1)"},
    {'K', "{\"ops\":[{\"lat\":1}]}", 0, "k.json:1:9: op is missing 'name'"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"colour\":1}]}", 0,
     "k.json:1:21: unknown field 'colour' in op"},
    {'K', "{\"ops\":[{\"name\":\"a\"}],\"edges\":[{\"src\":\"a\",\"dst\":\"b\"}]}",
     0, "k.json:1:49: unknown op 'b' in edge"},
    {'K', "{\"units\":{\"TC\":0}}", 0,
     "k.json:1:16: capacity must be at least 1"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"use\":[[\"TC\",0]]}]}", 0,
     "k.json:1:28: expected a use [UNIT, offset, cycles] or [UNIT, offset, "
     "cycles, count]"},
    {'K', "{\n  \"ops\": [\n    {\"name\": \"a\", \"issue\": \"block\"}\n  ]\n}",
     0,
     "k.json:3:28: expected \"thread\", \"warp\" or \"warpgroup\" for "
     "'issue'"},
    {'K', "{\"ops\":[{\"name\":\"a\"}],\"edges\":[{\"src\":\"a\"}]}", 0,
     "k.json:1:32: edge is missing 'dst'"},
    {'K', "{\"ops\":[{\"name\":\"a\",\"varlat\":\"yes\"}]}", 0,
     "k.json:1:30: expected true or false for 'varlat', got a string"},
    {'K',
     "{\"units\":{\"TC\":1},\"ops\":[{\"name\":\"a\",\"use\":[[\"TC\",0,1,2]]}]}",
     0,
     "k.json:1:45: unit 'TC' used with count 2 but its capacity is 1 "
     "(declared at line 1)"},
    {'K', "{\"kernel\": 3}", 0,
     "k.json:1:12: expected a string for 'kernel', got a number"},
    {'K', "{\"ops\": [}", 0,
     "k.json:1:10: unexpected character '}', expected a value"},
    {'K', "{\"ops\":[{\"name\":\"a b\"}]}", 0,
     "k.json:1:17: invalid op name 'a b'"},
    {'K', "{\"ops\":{}}", 0,
     "k.json:1:8: expected an array for 'ops', got an object"},
};

START_TEST(malformed_input_exact_message) {
  const bad *b = &bads[_i];
  size_t len = b->len ? b->len : strlen(b->in);
  twill_diag d;
  memset(&d, 0, sizeof d);
  char got[600];
  if (b->kind == 'T') {
    twill_graph *g = twill_graph_parse_text(b->in, len, "t.twill", &d);
    ck_assert_msg(!g, "case %d parsed", _i);
  } else if (b->kind == 'J') {
    twill_json *v = twill_json_parse(b->in, len, "x.json", &d);
    ck_assert_msg(!v, "case %d parsed", _i);
  } else {
    twill_graph *g = twill_graph_parse_json(b->in, len, "k.json", &d);
    ck_assert_msg(!g, "case %d parsed", _i);
  }
  diag_str(&d, got, sizeof got);
  ck_assert_msg(strcmp(got, b->want) == 0, "case %d: got\n  %s\nwant\n  %s",
                _i, got, b->want);
}
END_TEST

START_TEST(json_nesting_limit) {
  char s[200];
  /* 64 nested arrays parse; the 65th '[' (column 65) is too deep. */
  memset(s, '[', 64);
  memset(s + 64, ']', 64);
  twill_diag d;
  twill_json *v = twill_json_parse(s, 128, "x.json", &d);
  ck_assert_ptr_nonnull(v);
  twill_json_free(v);
  memset(s, '[', 65);
  memset(s + 65, ']', 65);
  ck_assert_ptr_null(twill_json_parse(s, 130, "x.json", &d));
  char got[600];
  diag_str(&d, got, sizeof got);
  ck_assert_str_eq(got, "x.json:1:65: nesting deeper than 64 levels");
}
END_TEST

/* ---- JSON reader and writer ------------------------------------------- */

START_TEST(json_reader_values_and_positions) {
  const char *s = "{\"a\": [1, -0, 2.5e1, 9223372036854775807,\n"
                  "       9223372036854775808, true, null],\n"
                  " \"s\": \"x\\u00e9\\ud83d\\ude00\\n\\\"\\/\"}";
  twill_diag d;
  twill_json *v = twill_json_parse(s, strlen(s), "x.json", &d);
  ck_assert_ptr_nonnull(v);
  ck_assert_int_eq(v->type, TWILL_JSON_OBJECT);
  ck_assert_int_eq(v->len, 2);
  ck_assert_str_eq(v->keys[1], "s");
  ck_assert_int_eq(v->key_line[1], 3);
  ck_assert_int_eq(v->key_col[1], 2);
  const twill_json *a = twill_json_get(v, "a");
  ck_assert_int_eq(a->len, 7);
  ck_assert(a->items[0].is_int && a->items[0].integer == 1);
  ck_assert(a->items[1].is_int && a->items[1].integer == 0);
  ck_assert(!a->items[2].is_int && a->items[2].number == 25.0);
  ck_assert(a->items[3].is_int && a->items[3].integer == 9223372036854775807LL);
  /* 2^63 does not fit in long long: a double only. */
  ck_assert(!a->items[4].is_int);
  ck_assert_int_eq(a->items[4].line, 2);
  ck_assert_int_eq(a->items[4].col, 8);
  ck_assert(a->items[5].type == TWILL_JSON_BOOL && a->items[5].boolean);
  ck_assert_int_eq(a->items[6].type, TWILL_JSON_NULL);
  const twill_json *str = twill_json_get(v, "s");
  /* U+00E9 is C3 A9; U+1F600 (surrogates D83D DE00) is F0 9F 98 80. */
  ck_assert_str_eq(str->string, "x\xc3\xa9\xf0\x9f\x98\x80\n\"/");
  ck_assert_int_eq(str->len, 10); /* 1 + 2 + 4 + 3 bytes */
  ck_assert_ptr_null(twill_json_get(v, "missing"));
  twill_json_free(v);
}
END_TEST

static char *write_sample(bool pretty) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  twill_jw w;
  twill_jw_init(&w, f, pretty);
  twill_jw_object_begin(&w);
  twill_jw_key(&w, "a");
  twill_jw_int(&w, -12);
  twill_jw_key(&w, "b");
  twill_jw_array_begin(&w);
  twill_jw_bool(&w, true);
  twill_jw_null(&w);
  twill_jw_string(&w, "x\"\n\x01");
  twill_jw_array_end(&w);
  twill_jw_key(&w, "c");
  twill_jw_object_begin(&w);
  twill_jw_object_end(&w);
  twill_jw_key(&w, "d");
  twill_jw_array_begin(&w);
  twill_jw_array_end(&w);
  twill_jw_key(&w, "e");
  twill_jw_double(&w, 0.5);
  twill_jw_key(&w, "f");
  twill_jw_double(&w, 1.0 / 0.0);
  twill_jw_object_end(&w);
  ck_assert_int_eq(twill_jw_finish(&w), 0);
  fclose(f);
  return buf;
}

START_TEST(json_writer_bytes) {
  char *p = write_sample(true);
  ck_assert_str_eq(p, "{\n"
                      "  \"a\": -12,\n"
                      "  \"b\": [\n"
                      "    true,\n"
                      "    null,\n"
                      "    \"x\\\"\\n\\u0001\"\n"
                      "  ],\n"
                      "  \"c\": {},\n"
                      "  \"d\": [],\n"
                      "  \"e\": 0.5,\n"
                      "  \"f\": null\n"
                      "}\n");
  char *c = write_sample(false);
  ck_assert_str_eq(c, "{\"a\":-12,\"b\":[true,null,\"x\\\"\\n\\u0001\"],"
                      "\"c\":{},\"d\":[],\"e\":0.5,\"f\":null}\n");
  /* What the writer writes, the reader reads. */
  twill_diag d;
  twill_json *v = twill_json_parse(p, strlen(p), "w.json", &d);
  ck_assert_ptr_nonnull(v);
  ck_assert_str_eq(twill_json_get(v, "b")->items[2].string, "x\"\n\x01");
  twill_json_free(v);
  free(p);
  free(c);
}
END_TEST

/* ---- DOT ---------------------------------------------------------------- */

START_TEST(dot_output) {
  twill_graph *g = parse_text_ok("kernel k\nop a lat 3\nop b lat 4\n"
                                 "edge a b\nedge b a dist 2\n"
                                 "edge a b lat 1 blocking yes\n"
                                 "edge b b dist 1 blocking yes\n");
  char *s = dot_str(g, NULL);
  ck_assert_str_eq(s, "digraph \"k\" {\n"
                      "  node [shape=box, fontname=\"monospace\"];\n"
                      "  n0 [label=\"a\\nlat 3\"];\n"
                      "  n1 [label=\"b\\nlat 4\"];\n"
                      "  n0 -> n1 [label=\"3/0\"];\n"
                      "  n1 -> n0 [label=\"4/2\", style=dashed];\n"
                      "  n0 -> n1 [label=\"1/0\", style=bold];\n"
                      "  n1 -> n1 [label=\"4/1\", style=\"dashed,bold\"];\n"
                      "}\n");
  free(s);
  int warp[2] = {1, -1};
  s = dot_str(g, warp);
  ck_assert_ptr_nonnull(strstr(
      s, "n0 [label=\"a\\nlat 3\\nwarp 1\", style=filled, "
         "fillcolor=\"#ffffb3\"];"));
  ck_assert_ptr_nonnull(strstr(s, "n1 [label=\"b\\nlat 4\"];"));
  free(s);
  twill_graph_free(g);
}
END_TEST

/* ---- random graphs ------------------------------------------------------ */

START_TEST(random_is_deterministic) {
  twill_random_opts o;
  twill_random_opts_default(&o);
  o.nodes = 20;
  o.gaps = true;
  o.seed = 42;
  twill_graph *a = twill_graph_random(&o), *b = twill_graph_random(&o);
  char *sa = print_str(twill_graph_print_text, a);
  char *sb = print_str(twill_graph_print_text, b);
  ck_assert_str_eq(sa, sb);
  ck_assert_str_eq(a->name, "random-42");
  o.seed = 43;
  twill_graph *c = twill_graph_random(&o);
  char *sc = print_str(twill_graph_print_text, c);
  ck_assert_str_ne(sa, sc);
  free(sa);
  free(sb);
  free(sc);
  twill_graph_free(a);
  twill_graph_free(b);
  twill_graph_free(c);
}
END_TEST

START_TEST(random_graphs_are_valid_and_round_trip) {
  int n = tu_under_valgrind() ? 20 : 300;
  int back = 0, gaps = 0;
  for (int s = 0; s < n; s++) {
    twill_random_opts o;
    twill_random_opts_default(&o);
    o.seed = (unsigned long long)s * 7919u + 1;
    o.nodes = 1 + s % 25;
    o.density = (s % 5) * 0.2;
    o.back_edges = (s % 4) * 0.5;
    o.units = 1 + s % 4;
    o.max_dist = 1 + s % 3;
    o.max_cap = 1 + s % 3;
    o.gaps = s % 2;
    twill_graph *g = twill_graph_random(&o);
    ck_assert_ptr_nonnull(g);
    twill_diag d;
    ck_assert_msg(twill_graph_validate(g, &d) == 0, "seed %d: %s", s, d.msg);
    ck_assert_int_eq(g->nops, o.nodes);
    ck_assert_int_eq(g->nunits, o.units);
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      ck_assert_int_eq(e->lat, g->ops[e->src].lat);
      if (e->dist == 0) ck_assert_int_lt(e->src, e->dst);
      else {
        ck_assert_int_ge(e->src, e->dst);
        ck_assert_int_le(e->dist, o.max_dist);
        back++;
      }
    }
    for (int v = 0; v < g->nops; v++) {
      ck_assert_int_ge(g->ops[v].lat, 1);
      ck_assert_int_le(g->ops[v].lat, o.max_lat);
      if (g->ops[v].nuses == 2) gaps++;
      ck_assert_int_le(g->ops[v].nuses, o.gaps ? 2 : 1);
    }
    for (int u = 0; u < g->nunits; u++) {
      ck_assert(g->units[u].declared);
      ck_assert_int_ge(g->units[u].capacity, 1);
      ck_assert_int_le(g->units[u].capacity, o.max_cap);
    }
    text_round_trip(g);
    json_round_trip(g);
    twill_graph_free(g);
  }
  ck_assert_int_gt(back, 0);
  ck_assert_int_gt(gaps, 0);
}
END_TEST

START_TEST(random_large_graph_density) {
  /* Above 2048 ops forward edges come by geometric jumps: the count must
   * match density * n(n-1)/2 = 0.01 * 3000 * 2999 / 2 = 44985 within 5
   * standard deviations (sqrt(44985 * 0.99) = 211, so +-1055). */
  twill_random_opts o;
  twill_random_opts_default(&o);
  o.nodes = 3000;
  o.density = 0.01;
  o.back_edges = 0;
  o.seed = 5;
  twill_graph *g = twill_graph_random(&o);
  ck_assert_ptr_nonnull(g);
  int fwd = 0;
  for (int i = 0; i < g->nedges; i++) {
    ck_assert_int_lt(g->edges[i].src, g->edges[i].dst);
    ck_assert_int_eq(g->edges[i].dist, 0);
    if (i > 0 && g->edges[i].src == g->edges[i - 1].src)
      ck_assert_int_gt(g->edges[i].dst, g->edges[i - 1].dst);
    fwd++;
  }
  ck_assert_int_ge(fwd, 44985 - 1055);
  ck_assert_int_le(fwd, 44985 + 1055);
  twill_diag d;
  ck_assert_int_eq(twill_graph_validate(g, &d), 0);
  twill_graph_free(g);
}
END_TEST

/* A graph built in code goes through twill_graph_validate, which also
 * refuses a spill on an op without registers (the parsers say where). */
START_TEST(validate_spill_needs_registers) {
  twill_graph *g = twill_graph_new("k");
  int a = twill_graph_add_op(g, "a", 1);
  g->ops[a].spill = 2;
  twill_diag d;
  ck_assert_int_eq(twill_graph_validate(g, &d), -1);
  ck_assert_str_eq(d.msg, "op 'a': spill has no effect on an op that keeps no registers");
  g->ops[a].regs = 1;
  ck_assert_int_eq(twill_graph_validate(g, &d), 0);
  twill_graph_free(g);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("graph_io");
  TCase *t = tcase_create("formats");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, text_parses_every_feature);
  tcase_add_test(t, text_prints_canonically);
  tcase_add_test(t, api_setters_build_the_sample);
  tcase_add_test(t, text_json_text_is_identity);
  tcase_add_test(t, json_prints_one_op_per_line);
  tcase_add_test(t, json_kernel_parses);
  tcase_add_test(t, use_counts_and_unit_names_with_x);
  tcase_add_test(t, empty_kernel_round_trips);
  tcase_add_test(t, load_file_picks_the_format);
  tcase_add_test(t, zero_distance_cycle_is_reported_with_the_file);
  tcase_add_test(t, builtin_kernels_parse_and_round_trip);
  tcase_add_loop_test(t, malformed_input_exact_message, 0,
                      (int)(sizeof bads / sizeof *bads));
  tcase_add_test(t, json_nesting_limit);
  tcase_add_test(t, json_reader_values_and_positions);
  tcase_add_test(t, json_writer_bytes);
  tcase_add_test(t, dot_output);
  tcase_add_test(t, random_is_deterministic);
  tcase_add_test(t, random_graphs_are_valid_and_round_trip);
  tcase_add_test(t, random_large_graph_density);
  tcase_add_test(t, validate_spill_needs_registers);
  suite_add_tcase(s, t);
  return s;
}

TWILL_CHECK_MAIN
