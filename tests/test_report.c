/* tests/test_report.c: `twill report`, the HTML page about a schedule.
 *
 * The pages are made once (an unchecked fixture: every built-in kernel, a
 * user kernel, phase 1, GauS, schedule files) into build/report/ (beside
 * the program under test), then:
 *   - each page is self-contained (no URL, no external file) and has its
 *     sections; the answers, bounds and explanations on it are checked
 *     against values derived by hand (next to each check);
 *   - `tidy -errors -q` accepts every page, when tidy is installed;
 *   - headless Chromium renders every page, when chromium is installed:
 *     a harness page (written here) loads each report in a frame, checks
 *     that its script ran (the units toggle it inserts), that its key
 *     elements are there, that hovering an op lights its edges, its bars
 *     and its reservation-table slots, that the toggle writes normalized
 *     and real cycles, and the browser's log must hold no console message
 *     (an uncaught script error is one).  The same run saves a screenshot
 *     (build/report/screenshot.png: fa3-fwd-hopper's page at full size on
 *     the left, the others at 40% on the right).  One browser start for all
 *     pages (it takes seconds on a shared machine); when the pages are
 *     byte for byte the ones a browser check already passed (the stamp
 *     browser-verified.txt, e.g. the debug build's pass after the optimized
 *     one) and the harness is unchanged, they are not rendered again.
 * Without tidy or chromium the suite says so in one line and passes. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "testutil.h"

/* ---- the pages ----------------------------------------------------------- */

enum { K_SCHEDULE, K_INFEASIBLE };

typedef struct page {
  const char *name;      /* file NAME.html */
  const char *args[12];  /* after "report"; "@" stands for the input */
  const char *input;     /* a kernel, or a file written in the fixture */
  int want_rc;
  int kind;
  int browser;           /* rendered in the browser check */
  int rc;                /* what the fixture got */
} page;

/* The user kernel: A's result (100 registers per thread) stays live from
 * A's issue until B issues, at least 8 cycles later, on A's warpgroup.
 * Hand derivation (--no-normalize, budget 240 registers per thread, Hopper):
 *   ResMII = max(TC 2/1, FMA 2/1) = 2, no recurrence: MII = 2.
 *   At I the live copies of A's result are ceil(8/I) at some slot (its
 *   lifetime is >= 8 cycles: t(B) >= t(A) + 8), all on A's warpgroup:
 *   need >= 100 * ceil(8/I): I = 2: 400, I = 3: 300, both over 240, so the
 *   solver must refute I = 2 and 3 with "registers of warpgroup ..."
 *   (the group A runs on; warp symmetry is broken by first use: 0).
 *   I = 4: t(A) = 0, t(B) = 8 on the same warpgroup (a crossing edge would
 *   add the 256-cycle transfer): A has 2 copies (200), B's own result 1
 *   copy (8): need 208 <= 240.  L = 8 + lat(B) = 10. */
static const char regs_demo[] =
    "# a register-bound loop: see tests/test_report.c\n"
    "kernel regs-demo\n"
    "arch hopper\n"
    "op A lat 8 use TC:2 issue warpgroup regs 100\n"
    "op B lat 2 use FMA:2 issue warpgroup regs 8\n"
    "edge A B lat 8\n";

static page pages[] = {
    {"fa3-fwd-hopper", {"@", NULL}, "fa3-fwd-hopper", 0, K_SCHEDULE, 1, -1},
    {"fig1", {"@", NULL}, "fig1", 0, K_SCHEDULE, 1, -1},
    {"dragon", {"@", NULL}, "dragon", 0, K_SCHEDULE, 1, -1},
    {"gemm-hopper", {"@", NULL}, "gemm-hopper", 0, K_SCHEDULE, 1, -1},
    {"fa4-fwd-blackwell", {"@", NULL}, "fa4-fwd-blackwell", 0, K_SCHEDULE, 1, -1},
    {"fa3-bwd-hopper", {"@", NULL}, "fa3-bwd-hopper", 0, K_SCHEDULE, 1, -1},
    {"fa4-bwd-blackwell", {"@", NULL}, "fa4-bwd-blackwell", 0, K_SCHEDULE, 1, -1},
    {"fa4-fwd-nosub-blackwell", {"@", NULL}, "fa4-fwd-nosub-blackwell", 2,
     K_INFEASIBLE, 1, -1},
    {"regs-demo", {"@", NULL}, "regs-demo.twill", 0, K_SCHEDULE, 1, -1},
    {"fig1-modulo", {"@", "--solver", "modulo", NULL}, "fig1", 0, K_SCHEDULE, 1, -1},
    {"fig1-gaus", {"@", "--solver", "gaus", NULL}, "fig1", 0, K_SCHEDULE, 1, -1},
    {"gemm-file", {"@", NULL}, "gemm-hopper.solve.json", 0, K_SCHEDULE, 1, -1},
    {"regs-demo-raw", {"@", "--no-normalize", NULL}, "regs-demo.twill", 0, K_SCHEDULE, 0, -1},
    {"nosub-file", {"@", NULL}, "nosub.solve.json", 2, K_INFEASIBLE, 0, -1},
    {"gemm-nocert", {"@", "--no-cert", NULL}, "gemm-hopper", 0, K_SCHEDULE, 0, -1},
    {"regs-demo-64", {"@", "--regs", "64", NULL}, "regs-demo.twill", 2, K_INFEASIBLE, 0, -1},
    {"gaus-file", {"@", NULL}, "gemm-hopper.gaus.json", 0, K_SCHEDULE, 1, -1},
};
#define NPAGES ((int)(sizeof pages / sizeof *pages))

static char dir[4096];

/* A new string, printf-style (NULL out of memory). */
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!p) return NULL;
  va_start(ap, f);
  vsnprintf(p, (size_t)n + 1, f, ap);
  va_end(ap);
  return p;
}

static char *path_in(const char *name, const char *ext) {
  return fmt("%s/%s%s", dir, name, ext);
}

/* build/bin/twill -> build/report */
static void set_dir(void) {
  const char *bin = getenv("TWILL_BIN");
  if (!bin || !*bin) bin = "bin/twill";
  snprintf(dir, sizeof dir, "%s", bin);
  char *s = strrchr(dir, '/');
  if (s) *s = 0;
  else snprintf(dir, sizeof dir, ".");
  s = strrchr(dir, '/');
  if (s && !strcmp(s, "/bin")) *s = 0;
  size_t n = strlen(dir);
  snprintf(dir + n, sizeof dir - n, "/report");
  mkdir(dir, 0755);
}

static int write_text(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int bad = fwrite(text, 1, len, f) != len;
  return fclose(f) || bad ? -1 : 0;
}

/* `twill ARGS > FILE`: the exit status. */
static int twill_to_file(const char *const *args, const char *file) {
  char *out = NULL;
  int rc = tu_run_twill(&out, NULL, args);
  if (out && write_text(file, out, strlen(out))) rc = -1;
  free(out);
  return rc;
}

static void make_pages(void) {
  set_dir();
  char *kp = path_in("regs-demo", ".twill");
  write_text(kp, regs_demo, sizeof regs_demo - 1);
  char *gj = path_in("gemm-hopper.solve", ".json");
  const char *a1[] = {"solve", "gemm-hopper", "--json", NULL};
  twill_to_file(a1, gj);
  char *nj = path_in("nosub.solve", ".json");
  const char *a2[] = {"solve", "fa4-fwd-nosub-blackwell", "--json", NULL};
  twill_to_file(a2, nj);
  char *uj = path_in("gemm-hopper.gaus", ".json");
  const char *a3[] = {"gaus", "gemm-hopper", "--formulation", "C", "--json", NULL};
  twill_to_file(a3, uj);
  for (int i = 0; i < NPAGES; i++) {
    page *pg = &pages[i];
    char *in = strchr(pg->input, '.') ? path_in(pg->input, "") : strdup(pg->input);
    char *out = path_in(pg->name, ".html");
    const char *args[20];
    int n = 0;
    args[n++] = "report";
    for (int k = 0; pg->args[k]; k++) args[n++] = !strcmp(pg->args[k], "@") ? in : pg->args[k];
    args[n++] = "-o";
    args[n++] = out;
    args[n] = NULL;
    char *err = NULL;
    pg->rc = tu_run_twill(NULL, &err, args);
    if (pg->rc != pg->want_rc)
      fprintf(stderr, "report %s: exit %d (want %d): %s\n", pg->name, pg->rc,
              pg->want_rc, err ? err : "");
    free(err);
    free(in);
    free(out);
  }
  free(kp);
  free(gj);
  free(nj);
  free(uj);
}

static char *page_text(const char *name) {
  char *p = path_in(name, ".html");
  size_t len = 0;
  char *t = tu_read_file(p, &len);
  ck_assert_msg(t != NULL, "%s: not written", p);
  free(p);
  return t;
}

/* The text of the element that starts at the first occurrence of marker,
 * up to the matching close tag of its kind (no nesting of the same tag
 * inside, which holds for the rows and paragraphs looked at here). */
static char *element(const char *html, const char *marker, const char *close) {
  const char *a = strstr(html, marker);
  ck_assert_msg(a != NULL, "no '%s' on the page", marker);
  const char *b = strstr(a, close);
  ck_assert_msg(b != NULL, "'%s' not closed", marker);
  return strndup(a, (size_t)(b - a) + strlen(close));
}

static void has(const char *text, const char *needle, const char *where) {
  ck_assert_msg(strstr(text, needle) != NULL, "%s lacks '%s'", where, needle);
}

static void lacks(const char *text, const char *needle, const char *where) {
  ck_assert_msg(strstr(text, needle) == NULL, "%s has '%s'", where, needle);
}

/* ---- the pages, without a browser ------------------------------------------ */

START_TEST(every_page_made_with_its_exit_status) {
  for (int i = 0; i < NPAGES; i++)
    ck_assert_msg(pages[i].rc == pages[i].want_rc, "%s: exit %d, want %d", pages[i].name,
                  pages[i].rc, pages[i].want_rc);
}
END_TEST

/* Self-contained: nothing is fetched (no URL of any scheme, no link, no
 * src, no import, no url() but fragment references into the page itself),
 * one script, the sections the issue asks for. */
START_TEST(pages_are_self_contained) {
  for (int i = 0; i < NPAGES; i++) {
    const page *pg = &pages[i];
    char *t = page_text(pg->name);
    ck_assert_msg(!strncmp(t, "<!DOCTYPE html>\n<html lang=\"en\">", 31), "%s: not HTML5",
                  pg->name);
    const char *bad[] = {"http:", "https:", "file:", "//www", "<link", " src=", "@import",
                         "<iframe", "<img", "<object", "<embed"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) lacks(t, bad[k], pg->name);
    for (const char *u = strstr(t, "url("); u; u = strstr(u + 1, "url("))
      ck_assert_msg(u[4] == '#', "%s: url() to something outside the page", pg->name);
    const char *s1 = strstr(t, "<script>");
    ck_assert_msg(s1 && !strstr(s1 + 1, "<script"), "%s: not exactly one script", pg->name);
    const char *ids[] = {"id=\"summary\"", "id=\"answer\"", "id=\"cert-status\"",
                         "id=\"bounds\"", "id=\"resmii\"", "id=\"search\"",
                         "id=\"graph-svg\"", "id=\"certificate\"", "id=\"units\""};
    for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) has(t, ids[k], pg->name);
    if (pg->kind == K_SCHEDULE) {
      const char *sched[] = {"id=\"steady-svg\"", "id=\"loop-svg\"", "id=\"mrt-table\"",
                             "id=\"pressure\"", "id=\"optable\""};
      for (size_t k = 0; k < sizeof sched / sizeof *sched; k++) has(t, sched[k], pg->name);
    } else {
      has(t, "id=\"never\"", pg->name);
      lacks(t, "id=\"steady-svg\"", pg->name);
    }
    ck_assert_msg(strlen(t) > 7 && !strcmp(t + strlen(t) - 8, "</html>\n"), "%s: cut short",
                  pg->name);
    free(t);
  }
}
END_TEST

/* fa3-fwd-hopper (kernels/fa3-fwd-hopper.twill's own derivation):
 * TC busy 4 x 512 = 2048 cycles per iteration with capacity 1: ResMII =
 * 2048, saturated; the critical cycle PV_s -> rescale_s -> PV_s has latency
 * 512 + 64 = 576 over distance 1.  Normalized with budget 300 the costs
 * are 64 k (k = 64 real cycles): 512 -> 8, so the normalized ResMII is
 * 4 x 8 = 32.  Algorithm 1 meets the MII (README: I* = phase 1's), so the
 * answer is I = 2048 real, 32 normalized, optimal and certified.  FA3's
 * ping-pong (Shah et al., FA3 section 3.1): each Q sub-tile's GEMMs and
 * softmax run on its own consumer warpgroup, so every op of sub-tile 0
 * shares one warpgroup and every op of sub-tile 1 another. */
START_TEST(fa3_answer_bounds_and_warpgroups) {
  char *t = page_text("fa3-fwd-hopper");
  char *ans = element(t, "id=\"answer\"", "</dd>");
  has(ans, "optimal", "the answer");
  has(ans, "data-r=\"2048\" data-n=\"32\"", "the answer's I");
  free(ans);
  char *tc = element(t, "<tr class=\"sat\"><td>TC", "</tr>");
  has(tc, "saturated", "the TC row");
  has(tc, ">2048<", "the TC row");
  free(tc);
  char *rec = element(t, "id=\"recmii\"", "</p>");
  has(rec, ">rescale_1<", "the critical cycle");
  has(rec, ">PV_1<", "the critical cycle");
  has(rec, "data-r=\"576\"", "the critical cycle");
  free(rec);
  char *cert = element(t, "id=\"cert-status\"", "</dd>");
  has(cert, "certificate verified", "the certificate");
  free(cert);
  /* the warp column of the op table, per sub-tile */
  const char *sub[2][6] = {{"S_0", "max_0", "exp_0", "sum_0", "rescale_0", "PV_0"},
                           {"S_1", "max_1", "exp_1", "sum_1", "rescale_1", "PV_1"}};
  char warp[2][32];
  char *tab = element(t, "id=\"optable\"", "</table>");
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < 6; k++) {
      char key[64];
      snprintf(key, sizeof key, ">%s</span></td>", sub[s][k]);
      const char *row = strstr(tab, key);
      ck_assert_msg(row != NULL, "no row for %s", sub[s][k]);
      /* the fifth cell: start, stage, slot, then warp */
      const char *c = row;
      for (int n = 0; n < 4; n++) c = strstr(c + 1, "<td");
      c = strchr(c, '>') + 1;
      char w[32];
      snprintf(w, sizeof w, "%.*s", (int)(strchr(c, '<') - c), c);
      if (!k) snprintf(warp[s], sizeof warp[s], "%s", w);
      ck_assert_msg(!strcmp(w, warp[s]), "%s on %s, %s on %s", sub[s][k], w, sub[s][0],
                    warp[s]);
    }
  ck_assert_msg(strcmp(warp[0], warp[1]), "both sub-tiles on %s", warp[0]);
  ck_assert_msg(strchr(warp[0], '-') && strchr(warp[1], '-'), "not warpgroups: %s, %s",
                warp[0], warp[1]);
  free(tab);
  free(t);
}
END_TEST

/* regs-demo --no-normalize (derivation at regs_demo above): I = 2 and 3
 * refuted by the registers of the warpgroup, I = 4 optimal, L = 10, a peak
 * need of 208 registers per thread. */
START_TEST(refuted_ii_with_explanations) {
  char *t = page_text("regs-demo-raw");
  for (int ii = 2; ii <= 3; ii++) {
    char key[64];
    snprintf(key, sizeof key, "<tr class=\"refuted\" data-ii=\"%d\">", ii);
    char *row = element(t, key, "</tr>");
    has(row, "UNSAT", key);
    has(row, "<b>registers of warpgroup 0</b>", key);
    has(row, "more registers per thread", key); /* the gloss */
    free(row);
  }
  char *row = element(t, "<tr class=\"found\" data-ii=\"4\">", "</tr>");
  has(row, "SAT", "I = 4");
  free(row);
  char *ans = element(t, "id=\"answer\"", "</dd>");
  has(ans, "optimal", "the answer");
  has(ans, "I = 4</span>", "the answer");
  has(ans, "L = 10</span>", "the answer");
  free(ans);
  char *pr = element(t, "id=\"pressure-table\"", "</table>");
  has(pr, "warpgroup 0 (warps 0-3)</td><td class=\"num\">208 registers/thread", "pressure");
  free(pr);
  char *u = element(t, "id=\"units\"", "</span></dd>");
  has(u, "data-scaled=\"0\"", "costs as given");
  free(u);
  free(t);
}
END_TEST

/* The pressure per slot is computed here (codegen/report_mrt.c) from the
 * lifetimes; `twill solve` prints each warpgroup's need through another
 * path (twill_joint_usage in core/joint).  Both must give the same peak for
 * every warpgroup that has an op. */
START_TEST(register_peaks_agree_with_solve) {
  const char *kernels[] = {"fa3-bwd-hopper", "gemm-hopper"};
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
    char *out = NULL;
    const char *args[] = {"solve", kernels[i], NULL};
    ck_assert_int_eq(tu_run_twill(&out, NULL, args), 0);
    char *t = page_text(kernels[i]);
    char *pr = element(t, "id=\"pressure-table\"", "</table>");
    int groups = 0;
    for (const char *l = strstr(out, "  warpgroup "); l; l = strstr(l + 1, "  warpgroup ")) {
      int g = 0, w0 = 0, w1 = 0;
      long need = 0;
      ck_assert_int_eq(sscanf(l, "  warpgroup %d (warps %d-%d, %ld regs/thread needed)", &g,
                              &w0, &w1, &need),
                       4);
      char key[160];
      snprintf(key, sizeof key,
               "warpgroup %d (warps %d-%d)</td><td class=\"num\">%ld registers/thread", g, w0,
               w1, need);
      has(pr, key, kernels[i]);
      groups++;
    }
    ck_assert_int_ge(groups, 2);
    free(pr);
    free(t);
    free(out);
  }
}
END_TEST

/* fa4-fwd-nosub-blackwell: infeasible at every I (README; the FA4 paper's
 * ablation: without sub-tiling the softmax does not fit the registers).
 * The page says what `twill solve` says, word for word, and certifies
 * it. */
START_TEST(infeasible_at_every_i) {
  char *out = NULL;
  const char *args[] = {"solve", "fa4-fwd-nosub-blackwell", NULL};
  ck_assert_int_eq(tu_run_twill(&out, NULL, args), 2);
  const char *line = strstr(out, "infeasible at every I: ");
  ck_assert_ptr_nonnull(line);
  line += strlen("infeasible at every I: ");
  char *why = strndup(line, strcspn(line, "\n"));
  free(out);
  for (int k = 0; k < 2; k++) {
    const char *name = k ? "nosub-file" : "fa4-fwd-nosub-blackwell";
    char *t = page_text(name);
    char *ans = element(t, "id=\"answer\"", "</dd>");
    has(ans, "infeasible at every I", name);
    has(ans, why, name);
    free(ans);
    char *nv = element(t, "id=\"never\"", "</div>");
    has(nv, "<b>registers of warpgroup 2</b>", name);
    has(nv, "<b>variable-latency ops alone on warp 0</b>", name);
    free(nv);
    char *cert = element(t, "id=\"cert-status\"", "</dd>");
    has(cert, k ? "not certified" : "certificate verified", name);
    free(cert);
    free(t);
  }
  free(why);
}
END_TEST

/* regs-demo --regs 64: A alone holds 100 registers per thread, over 64,
 * whatever I: infeasible before any search, and nothing to certify. */
START_TEST(infeasible_without_search) {
  char *t = page_text("regs-demo-64");
  char *ans = element(t, "id=\"answer\"", "</dd>");
  has(ans, "infeasible at every I", "the answer");
  has(ans, "op &#39;A&#39; alone holds 100 registers per thread, over the budget 64",
      "the answer");
  free(ans);
  lacks(t, "id=\"tries\"", "regs-demo-64");
  char *cert = element(t, "id=\"cert-status\"", "</dd>");
  has(cert, "needs no search", "the certificate");
  free(cert);
  free(t);
}
END_TEST

/* fig1 under phase 1 (the paper's Figure 1, kernels/fig1.twill): I = 2,
 * L = 4, M(S) = 0, M(P) = 1, M(O) = 3: the tensor core holds S in slot 0
 * and O in slot 3 mod 2 = 1, the EXP unit P in slot 1. */
START_TEST(phase1_reservation_table) {
  char *t = page_text("fig1-modulo");
  char *ans = element(t, "id=\"answer\"", "</dd>");
  has(ans, "optimal", "the answer");
  has(ans, "data-n=\"2\"", "the answer's I");
  has(ans, "L = <span class=\"cy\" data-r=\"4\" data-n=\"4\">", "the answer's L");
  free(ans);
  char *s0 = element(t, "<tr data-slots=\"0 1\">", "</tr>");
  char *s1 = element(t, "<tr data-slots=\"1 2\">", "</tr>");
  /* cells: TC, then EXP (the kernel's unit order) */
  const char *tc0 = strstr(s0, "</td><td") + 5, *exp0 = strstr(tc0 + 1, "<td");
  ck_assert_msg(strstr(tc0, ">S<") && strstr(tc0, ">S<") < exp0, "slot 0, TC: %s", s0);
  ck_assert_msg(!strstr(exp0, "chip"), "slot 0, EXP: %s", s0);
  const char *tc1 = strstr(s1, "</td><td") + 5, *exp1 = strstr(tc1 + 1, "<td");
  ck_assert_msg(strstr(tc1, ">O<") && strstr(tc1, ">O<") < exp1, "slot 1, TC: %s", s1);
  ck_assert_msg(strstr(exp1, ">P<") != NULL, "slot 1, EXP: %s", s1);
  free(s0);
  free(s1);
  char *cert = element(t, "id=\"cert-status\"", "</dd>");
  has(cert, "certificate verified", "phase 1's certificate");
  free(cert);
  has(t, "twill modulo", "the solver line");
  free(t);
}
END_TEST

/* GauS proves nothing: the page says heuristic and not certified, draws a
 * schedule at an I no smaller than fig1's MII (2), in the kernel's own
 * cycles (nothing to toggle). */
START_TEST(gaus_schedule) {
  char *t = page_text("fig1-gaus");
  char *ans = element(t, "id=\"answer\"", "</dd>");
  has(ans, ">heuristic<", "GauS's answer");
  const char *ii = strstr(ans, "I = ");
  ck_assert_ptr_nonnull(ii);
  ck_assert_int_ge(atol(ii + 4), 2);
  free(ans);
  char *cert = element(t, "id=\"cert-status\"", "</dd>");
  has(cert, "not certified", "GauS");
  free(cert);
  has(t, "data-scaled=\"0\"", "GauS's cycles");
  free(t);
}
END_TEST

/* A `twill gaus --json` file ("ii" and "start", one start time per op in
 * the kernel's op order): the page draws exactly those start times at that
 * I, says heuristic and not certified, in the kernel's own cycles. */
START_TEST(gaus_file_as_written) {
  char *jp = path_in("gemm-hopper.gaus", ".json");
  size_t len = 0;
  char *j = tu_read_file(jp, &len);
  ck_assert_ptr_nonnull(j);
  const char *ii = strstr(j, "\"ii\": "), *st = strstr(j, "\"start\": [");
  ck_assert_msg(ii && st, "not a GauS file: %s", j);
  char *t = page_text("gaus-file");
  has(t, "schedule read from twill gaus --json", "gaus-file");
  char *ans = element(t, "id=\"answer\"", "</dd>");
  has(ans, ">heuristic<", "the answer");
  char want[64];
  snprintf(want, sizeof want, "I = %ld</span>", atol(ii + 6));
  has(ans, want, "the answer");
  free(ans);
  has(t, "data-scaled=\"0\"", "GauS's cycles");
  char *cert = element(t, "id=\"cert-status\"", "</dd>");
  has(cert, "not certified", "gaus-file");
  free(cert);
  /* the op table's start column, row by row (rows in op order) */
  char *tab = element(t, "id=\"optable\"", "</table>");
  const char *row = tab, *p = st + strlen("\"start\": [");
  int n = 0;
  while ((row = strstr(row + 1, "<tr data-op=")) != NULL) {
    char *end = NULL;
    long want_t = strtol(p, &end, 10);
    ck_assert_msg(end != p, "more rows than start times");
    p = end + strspn(end, ", ");
    const char *c = strstr(row, "</td><td class=\"num\">");
    ck_assert_ptr_nonnull(c);
    ck_assert_int_eq(atol(c + strlen("</td><td class=\"num\">")), want_t);
    n++;
  }
  ck_assert_int_eq(n, 4); /* gemm-hopper's 4 ops */
  ck_assert_msg(*p == ']', "fewer rows than start times: %s", p);
  free(tab);
  free(t);
  free(j);
  free(jp);
}
END_TEST

/* A schedule file of twill solve --json gives the same answer as the
 * kernel: the same I and L (both spans, real and normalized), optimal. */
START_TEST(schedule_file_same_answer) {
  char *a = page_text("gemm-hopper"), *b = page_text("gemm-file");
  char *ia = element(a, "id=\"answer-ii\"", "</span></span>");
  char *ib = element(b, "id=\"answer-ii\"", "</span></span>");
  ck_assert_str_eq(ia, ib);
  char *la = element(a, "id=\"answer-length\"", "</span></span>");
  char *lb = element(b, "id=\"answer-length\"", "</span></span>");
  ck_assert_str_eq(la, lb);
  has(b, "schedule read from twill solve --json", "gemm-file");
  char *ans = element(b, "id=\"answer\"", "</dd>");
  has(ans, "optimal", "gemm-file");
  free(ans);
  free(ia);
  free(ib);
  free(la);
  free(lb);
  free(a);
  free(b);
  char *c = page_text("gemm-nocert");
  has(c, "not certified (--no-cert)", "gemm-nocert");
  free(c);
}
END_TEST

/* '-' is standard input, read once: a schedule file piped in gives the
 * page the file gives (but for the input's name on it), and a kernel
 * piped in is solved as the built-in of the same text is. */
START_TEST(standard_input) {
  char *jp = path_in("gemm-hopper.solve", ".json");
  size_t len = 0;
  char *j = tu_read_file(jp, &len);
  ck_assert_ptr_nonnull(j);
  char *out = NULL, *err = NULL;
  const char *a1[] = {"report", "-", NULL};
  ck_assert_int_eq(tu_run_twill_in(j, len, &out, &err, a1), 0);
  char *file = page_text("gemm-file");
  char *ia = element(out, "id=\"answer\"", "</dd>");
  char *ib = element(file, "id=\"answer\"", "</dd>");
  ck_assert_str_eq(ia, ib);
  char *ta = element(out, "id=\"optable\"", "</table>"),
       *tb = element(file, "id=\"optable\"", "</table>");
  ck_assert_str_eq(ta, tb);
  free(ia);
  free(ib);
  free(ta);
  free(tb);
  free(file);
  free(out);
  free(err);
  free(j);
  free(jp);
  const char *a2[] = {"kernels", "--print", "fig1", NULL};
  char *src = NULL;
  ck_assert_int_eq(tu_run_twill(&src, NULL, a2), 0);
  const char *a3[] = {"report", "-", "--solver", "modulo", NULL};
  ck_assert_int_eq(tu_run_twill_in(src, strlen(src), &out, &err, a3), 0);
  char *mod = page_text("fig1-modulo");
  ia = element(out, "id=\"mrt-table\"", "</table>");
  ib = element(mod, "id=\"mrt-table\"", "</table>");
  ck_assert_str_eq(ia, ib);
  free(ia);
  free(ib);
  free(mod);
  free(src);
  free(out);
  free(err);
}
END_TEST

/* Same input and flags, same bytes (no clock, no address on the page). */
START_TEST(deterministic) {
  char *o1 = NULL, *o2 = NULL;
  const char *args[] = {"report", "gemm-hopper", NULL};
  ck_assert_int_eq(tu_run_twill(&o1, NULL, args), 0);
  ck_assert_int_eq(tu_run_twill(&o2, NULL, args), 0);
  ck_assert_str_eq(o1, o2);
  char *t = page_text("gemm-hopper");
  ck_assert_str_eq(o1, t);
  free(o1);
  free(o2);
  free(t);
}
END_TEST

START_TEST(bad_input) {
  char *out = NULL, *err = NULL;
  const char *a1[] = {"report", "fig1", "--frobnicate", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 1);
  has(err, "unknown option '--frobnicate'", "stderr");
  free(out);
  free(err);
  const char *a2[] = {"report", "no-such-kernel.twill", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 1);
  ck_assert_str_eq(out, "");
  free(out);
  free(err);
  const char *a3[] = {"report", "fig1", "--solver", "ilp", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 1);
  has(err, "--solver expects solve, modulo or gaus", "stderr");
  free(out);
  free(err);
  /* a schedule file with a syntax error: file:line:col */
  char *bad = path_in("bad-schedule", ".json");
  const char text[] = "{\"kernel\": \"fig1\", \"ii\": 2,\n \"times\": {\"S\": 0,, }}\n";
  ck_assert_int_eq(write_text(bad, text, sizeof text - 1), 0);
  const char *a4[] = {"report", bad, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 1);
  char want[4200];
  snprintf(want, sizeof want, "%s:2:", bad);
  has(err, want, "stderr");
  free(out);
  free(err);
  /* a schedule that breaks a dependence (S -> P, latency 1) */
  const char text2[] = "{\"kernel\": \"fig1\", \"ii\": 2, \"times\": {\"S\": 0, \"P\": 0, "
                       "\"O\": 3}}\n";
  ck_assert_int_eq(write_text(bad, text2, sizeof text2 - 1), 0);
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 1);
  has(err, "invalid schedule", "stderr");
  free(out);
  free(err);
  /* a GauS file whose start times do not match the kernel: file:line:col */
  const char text3[] = "{\"kernel\": \"fig1\", \"formulation\": \"C\", \"ii\": 2,\n"
                       " \"start\": [0, 1]}\n";
  ck_assert_int_eq(write_text(bad, text3, sizeof text3 - 1), 0);
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 1);
  snprintf(want, sizeof want, "%s:2:11: \"start\" must hold one start time per op", bad);
  has(err, want, "stderr");
  free(out);
  free(err);
  /* solver flags do not go with a file */
  const char *a5[] = {"report", bad, "--no-cert", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a5), 1);
  free(out);
  free(err);
  unlink(bad);
  free(bad);
  /* an unwritable output */
  const char *a6[] = {"report", "fig1", "-o", "/nonexistent-dir/x.html", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a6), 1);
  has(err, "cannot write", "stderr");
  free(out);
  free(err);
}
END_TEST

/* ---- tidy and the browser ---------------------------------------------------- */

static int have(const char *prog) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
  return system(cmd) == 0;
}

/* `tidy -errors -q` prints every error and warning; a valid page gets
 * neither. */
START_TEST(tidy_accepts_every_page) {
  if (!have("tidy")) {
    printf("test_report: tidy is not installed: HTML validity not checked "
           "(apt-get install tidy)\n");
    return;
  }
  for (int i = 0; i < NPAGES; i++) {
    char *p = path_in(pages[i].name, ".html"), *log = path_in(pages[i].name, ".tidy");
    char *cmd = fmt("tidy -errors -q '%s' > '%s' 2>&1", p, log);
    ck_assert_ptr_nonnull(cmd);
    int rc = system(cmd);
    size_t len = 0;
    char *out = tu_read_file(log, &len);
    ck_assert_msg(rc == 0 && len == 0, "tidy on %s: %s", p, out ? out : "?");
    free(out);
    unlink(log);
    free(cmd);
    free(p);
    free(log);
  }
}
END_TEST

/* The harness: every page in a frame (fa3-fwd-hopper at full size, the
 * others at 40%), the checks of the file comment in its script, and their
 * outcome in #result, which --dump-dom prints. */
static const char harness_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<title>twill report: browser check</title><style>\n"
    "body{margin:0;width:2816px;background:#777}\n"
    "#big{position:absolute;left:0;top:0;width:1280px;height:4300px;border:0;"
    "background:#fff}\n"
    "#grid{position:absolute;left:1280px;top:0;width:1536px;display:flex;"
    "flex-wrap:wrap}\n"
    ".cell{display:inline-block;width:510px;height:700px;overflow:hidden;"
    "vertical-align:top;border:1px solid #333;position:relative}\n"
    ".cell iframe{width:1280px;height:1750px;border:0;transform:scale(.4);"
    "transform-origin:0 0;background:#fff}\n"
    "#result{display:none}\n</style></head><body>\n";

static const char harness_script[] =
    "<pre id=\"result\">pending</pre>\n<script>\n"
    "function check(fr) {\n"
    "  var name = fr.getAttribute('data-name'), kind = fr.getAttribute('data-kind');\n"
    "  var d = fr.contentDocument, bad = [];\n"
    "  if (!d || !d.body || !d.getElementById('summary')) return 'FAIL ' + name + ': not loaded';\n"
    "  var w = d.defaultView;\n"
    "  function need(sel) { if (!d.querySelector(sel)) bad.push('missing ' + sel); }\n"
    "  ['#summary', '#answer', '#cert-status', '#bounds', '#resmii', '#search',\n"
    "   '#graph-svg', '#certificate', 'footer'].forEach(need);\n"
    "  if (kind === 'schedule')\n"
    "    ['#steady-svg', '#loop-svg', '#mrt-table', '#pressure', '#optable'].forEach(need);\n"
    "  if (kind === 'infeasible') {\n"
    "    need('#never');\n"
    "    if (d.querySelector('#steady-svg')) bad.push('a drawing of no schedule');\n"
    "  }\n"
    "  var units = d.getElementById('units');\n"
    "  var scaled = units && units.getAttribute('data-scaled') === '1';\n"
    "  if (scaled && !d.getElementById('cycle-toggle')) bad.push('the script did not insert the toggle');\n"
    "  if (!scaled && d.getElementById('cycle-toggle')) bad.push('a toggle with one scale');\n"
    "  var chip = d.querySelector('#mrt-table .chip[data-op]');\n"
    "  var node = chip ? d.querySelector('#graph-svg .node[data-op=\"' + chip.getAttribute('data-op') + '\"]')\n"
    "                  : d.querySelector('#graph-svg .node[data-op]');\n"
    "  if (!node) bad.push('no node in the graph');\n"
    "  else {\n"
    "    var v = node.getAttribute('data-op');\n"
    "    node.dispatchEvent(new w.MouseEvent('mouseover', {bubbles: true}));\n"
    "    if (!node.classList.contains('hl')) bad.push('the hovered node is not lit');\n"
    "    if (!d.body.classList.contains('focus')) bad.push('the rest is not dimmed');\n"
    "    var mine = d.querySelectorAll('#graph-svg .edge[data-src=\"' + v + '\"], #graph-svg .edge[data-dst=\"' + v + '\"]');\n"
    "    for (var i = 0; i < mine.length; i++)\n"
    "      if (!mine[i].classList.contains('hl')) { bad.push('an edge of the op is not lit'); break; }\n"
    "    if (d.querySelectorAll('#graph-svg .edge.hl').length !== mine.length) bad.push('edges of other ops lit');\n"
    "    if (kind === 'schedule') {\n"
    "      if (!d.querySelector('#steady-svg .bar.hl[data-op=\"' + v + '\"]')) bad.push('its steady-state bar is not lit');\n"
    "      if (!d.querySelector('#loop-svg .bar.hl[data-op=\"' + v + '\"]')) bad.push('its bars in the whole loop are not lit');\n"
    "      if (chip && !d.querySelector('#mrt-table .chip.hl[data-op=\"' + v + '\"]')) bad.push('its reservation-table slots are not lit');\n"
    "      if (d.querySelector('#steady-svg .bar.hl:not([data-op=\"' + v + '\"])')) bad.push('bars of other ops lit');\n"
    "    }\n"
    "    d.body.dispatchEvent(new w.MouseEvent('mouseover', {bubbles: true}));\n"
    "    if (d.querySelector('.hl') || d.body.classList.contains('focus')) bad.push('the light stays on');\n"
    "  }\n"
    "  if (scaled) {\n"
    "    var cys = d.querySelectorAll('.cy');\n"
    "    if (!cys.length) bad.push('no cycle count to toggle');\n"
    "    d.getElementById('cycles-n').click();\n"
    "    for (var j = 0; j < cys.length; j++)\n"
    "      if (cys[j].textContent !== cys[j].getAttribute('data-n')) { bad.push('not normalized: ' + cys[j].textContent); break; }\n"
    "    d.getElementById('cycles-r').click();\n"
    "    for (var k = 0; k < cys.length; k++)\n"
    "      if (cys[k].textContent !== cys[k].getAttribute('data-r')) { bad.push('not real again: ' + cys[k].textContent); break; }\n"
    "  }\n"
    "  return (bad.length ? 'FAIL ' : 'PASS ') + name + (bad.length ? ': ' + bad.join('; ') : '');\n"
    "}\n"
    "window.addEventListener('load', function () {\n"
    "  var out = [], fr = document.querySelectorAll('iframe');\n"
    "  for (var i = 0; i < fr.length; i++) {\n"
    "    try { out.push(check(fr[i])); } catch (e) { out.push('FAIL ' + fr[i].getAttribute('data-name') + ': ' + e); }\n"
    "  }\n"
    "  document.getElementById('result').textContent = out.join('\\n') + '\\nDONE';\n"
    "});\n"
    "</script>\n</body></html>\n";

/* FNV-1a, 64 bits: the stamp names each page by its bytes. */
static unsigned long long fnv(const char *s, size_t n) {
  unsigned long long h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  return h;
}

/* "NAME SIZE HASH" for every page of the browser check, then the hash of
 * the harness (a changed check renders the same pages again). */
static char *stamp_of_pages(void) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  for (int i = 0; i < NPAGES; i++) {
    if (!pages[i].browser) continue;
    char *p = path_in(pages[i].name, ".html");
    size_t len = 0;
    char *t = tu_read_file(p, &len);
    fprintf(f, "%s %zu %016llx\n", pages[i].name, len, t ? fnv(t, len) : 0ULL);
    free(t);
    free(p);
  }
  fprintf(f, "harness %016llx %016llx\n", fnv(harness_head, sizeof harness_head - 1),
          fnv(harness_script, sizeof harness_script - 1));
  fclose(f);
  return buf;
}

static int write_harness(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(harness_head, f);
  for (int pass = 0; pass < 2; pass++) {
    if (pass) fputs("<div id=\"grid\">\n", f);
    for (int i = 0; i < NPAGES; i++) {
      const page *pg = &pages[i];
      bool big = !strcmp(pg->name, "fa3-fwd-hopper");
      if (!pg->browser || big != (pass == 0)) continue;
      fprintf(f, "%s<iframe %s title=\"%s\" data-name=\"%s\" data-kind=\"%s\" "
                 "src=\"%s.html\"></iframe>%s\n",
              big ? "" : "<div class=\"cell\">", big ? "id=\"big\"" : "", pg->name, pg->name,
              pg->kind == K_SCHEDULE ? "schedule" : "infeasible", pg->name,
              big ? "" : "</div>");
    }
    if (pass) fputs("</div>\n", f);
  }
  fputs(harness_script, f);
  return fclose(f) ? -1 : 0;
}

START_TEST(chromium_renders_every_page) {
  const char *browser = have("chromium") ? "chromium"
                        : have("chromium-browser") ? "chromium-browser"
                                                   : NULL;
  if (!browser) {
    printf("test_report: chromium is not installed: the pages were not rendered "
           "in a browser (apt-get install chromium)\n");
    return;
  }
  for (int i = 0; i < NPAGES; i++)
    ck_assert_msg(pages[i].rc == pages[i].want_rc, "%s was not made", pages[i].name);
  char *stamp = stamp_of_pages();
  /* the same bytes already passed: this build's stamp, or the optimized
   * build's (make check runs the suites against both) */
  char *stamps[2] = {path_in("browser-verified", ".txt"), NULL};
  const char *src = getenv("TWILL_SRC");
  if (src && *src) stamps[1] = fmt("%s/build/report/browser-verified.txt", src);
  for (int k = 0; k < 2; k++) {
    size_t len = 0;
    char *old = stamps[k] ? tu_read_file(stamps[k], &len) : NULL;
    if (old && !strcmp(old, stamp)) {
      printf("test_report: these pages are byte for byte the ones %s records as "
             "rendered without error; not rendered again\n", stamps[k]);
      free(old);
      free(stamp);
      free(stamps[0]);
      free(stamps[1]);
      return;
    }
    free(old);
  }
  char *harness = path_in("browser-check", ".html");
  char *shot = path_in("screenshot", ".png");
  char *dom = path_in("browser-check", ".dom");
  char *log = path_in("browser-check", ".log");
  char *prof = path_in("chromium-profile", "");
  ck_assert_int_eq(write_harness(harness), 0);
  unlink(shot);
  /* --allow-file-access-from-files: the harness reads its frames' documents
   * (file: pages are otherwise of different origins); logging to stderr
   * puts every console message, uncaught errors included, in the log */
  char *cmd = fmt("DBUS_SESSION_BUS_ADDRESS=disabled: timeout 120 %s --headless --no-sandbox "
               "--disable-gpu --no-first-run --no-default-browser-check "
               "--disable-extensions --allow-file-access-from-files --hide-scrollbars "
               "--user-data-dir='%s' --enable-logging=stderr --v=0 "
               "--window-size=2816,4300 --screenshot='%s' --dump-dom 'file://%s' "
               "> '%s' 2> '%s'",
               browser, prof, shot, harness, dom, log);
  ck_assert_ptr_nonnull(cmd);
  int rc = system(cmd);
  size_t dl = 0, ll = 0;
  char *out = tu_read_file(dom, &dl), *err = tu_read_file(log, &ll);
  ck_assert_msg(rc == 0 && out, "%s failed (%d): %s", browser, rc, err ? err : "");
  const char *r0 = strstr(out, "<pre id=\"result\">");
  ck_assert_msg(r0 && strstr(r0, "DONE"), "the harness did not finish: %s", r0 ? r0 : out);
  /* the outcome only (the harness's own script follows it) */
  char *res = strndup(r0, (size_t)(strstr(r0, "DONE") - r0));
  int fails = 0;
  for (int i = 0; i < NPAGES; i++) {
    if (!pages[i].browser) continue;
    char key[128];
    snprintf(key, sizeof key, "PASS %s\n", pages[i].name);
    if (!strstr(res, key)) fails++;
  }
  ck_assert_msg(!fails && !strstr(res, "FAIL"), "in the browser: %s", res);
  free(res);
  /* no console message at all from a page: an uncaught error is one */
  for (const char *l = err; l && *l;) {
    const char *e = strchr(l, '\n');
    size_t n = e ? (size_t)(e - l) : strlen(l);
    char *line = strndup(l, n);
    ck_assert_msg(!strstr(line, "CONSOLE") && !strstr(line, "Uncaught"),
                  "the browser logged: %s", line);
    free(line);
    l = e ? e + 1 : NULL;
  }
  struct stat st;
  ck_assert_msg(stat(shot, &st) == 0 && st.st_size > 10000, "no screenshot %s", shot);
  FILE *f = fopen(stamps[0], "w");
  if (f) {
    fputs(stamp, f);
    fclose(f);
  }
  printf("test_report: %s rendered the pages without error; screenshot %s\n", browser, shot);
  free(out);
  free(err);
  free(cmd);
  free(harness);
  free(shot);
  free(dom);
  free(log);
  free(prof);
  free(stamp);
  free(stamps[0]);
  free(stamps[1]);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("report");
  TCase *tc = tcase_create("pages");
  tcase_add_unchecked_fixture(tc, make_pages, NULL);
  tcase_set_timeout(tc, 240);
  tcase_add_test(tc, every_page_made_with_its_exit_status);
  tcase_add_test(tc, pages_are_self_contained);
  tcase_add_test(tc, fa3_answer_bounds_and_warpgroups);
  tcase_add_test(tc, refuted_ii_with_explanations);
  tcase_add_test(tc, register_peaks_agree_with_solve);
  tcase_add_test(tc, infeasible_at_every_i);
  tcase_add_test(tc, infeasible_without_search);
  tcase_add_test(tc, phase1_reservation_table);
  tcase_add_test(tc, gaus_schedule);
  tcase_add_test(tc, schedule_file_same_answer);
  tcase_add_test(tc, gaus_file_as_written);
  tcase_add_test(tc, standard_input);
  tcase_add_test(tc, deterministic);
  tcase_add_test(tc, bad_input);
  tcase_add_test(tc, tidy_accepts_every_page);
  tcase_add_test(tc, chromium_renders_every_page);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
