/* tests/test_check.c: the checker's own pieces (core/check/).
 *
 *  - its translation of the joint model against the solver's encoder
 *    (byte for byte, on random kernels with every annotation, floors,
 *    relations and symmetry breaking) and against brute force (the
 *    translation loaded into the SMT solver here is satisfiable exactly
 *    when enumeration finds a legal schedule);
 *  - the symmetry rule: asked to break a symmetry that is not there (warp
 *    0 pinned by a variable-latency op), it refuses;
 *  - the normalization it verifies, with a hand-derived optimum;
 *  - the strict grammar of the reader, on every line of a certificate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_joint.h"
#include "check_main.h"
#include "fixtures.h"
#include "testutil.h"
#include "twill/check.h"
#include "twill/joint.h"
#include "twill/smt.h"

/* Random annotations: registers, shared and tensor memory, spill,
 * warpgroup issue over one or two groups, a variable-latency source,
 * blocking edges. */
static void annotate(twill_graph *g, unsigned long long *r) {
  for (int v = 0; v < g->nops; v++) {
    twill_op *o = &g->ops[v];
    o->regs = (long)(tf_rnd(r) % 4);
    o->smem = tf_rnd(r) % 3 == 0 ? 10 : 0;
    o->tmem = tf_rnd(r) % 4 == 0 ? 7 : 0;
    if (tf_rnd(r) % 4 == 0) o->issue = TWILL_ISSUE_WARPGROUP;
    if (o->regs > 0 && tf_rnd(r) % 4 == 0) o->spill = (long)(tf_rnd(r) % 3);
  }
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].issue == TWILL_ISSUE_WARPGROUP && tf_rnd(r) % 5 == 0) g->ops[v].groups = 2;
  for (int v = 0; v < g->nops; v++) {
    int pred = 0;
    for (int i = 0; i < g->nedges; i++) pred |= g->edges[i].dst == v;
    if (!pred && g->ops[v].issue != TWILL_ISSUE_WARPGROUP && tf_rnd(r) % 3 == 0) {
      g->ops[v].varlat = true;
      break;
    }
  }
  for (int i = 0; i < g->nedges; i++)
    if (tf_rnd(r) % 3 == 0) g->edges[i].blocking = true;
}

typedef struct setup {
  twill_joint_params p;
  twill_joint_relset rs;
  int floors[16];
  int cover_ops[48], cover_at[4];
  long ii, L;
} setup;

/* Random parameters (and relations, floors, I, L) for g. */
static void random_setup(twill_graph *g, unsigned long long *r, setup *s) {
  twill_joint_params_default(&s->p, NULL);
  static const int wgs[3] = {1, 2, 4};
  s->p.warpgroup = wgs[tf_rnd(r) % 3];
  s->p.warps = s->p.warpgroup * (1 + (int)(tf_rnd(r) % 3));
  s->p.regs = 3 + (long)(tf_rnd(r) % 5);
  s->p.regs_per_sm = 1 << 20;
  s->p.reg_lo = s->p.reg_step = 0;
  if (tf_rnd(r) % 3 == 0) {
    s->p.reg_lo = 1, s->p.reg_step = 1 + (int)(tf_rnd(r) % 2);
    s->p.regs_per_sm = 64 * (2 + (long)(tf_rnd(r) % 6));
  }
  s->p.cross_warp = (long)(tf_rnd(r) % 3);
  s->p.no_cross_warp = tf_rnd(r) % 5 == 0;
  s->p.smem_cap = tf_rnd(r) % 2 ? 20 : -1;
  s->p.tmem_cap = tf_rnd(r) % 2 ? 10 : -1;
  s->p.symmetry = tf_rnd(r) % 4 != 0;
  s->rs.rels = NULL;
  s->rs.n = 0;
  if (tf_rnd(r) % 3 == 0 && g->nops >= 2) {
    char list[64], why[100];
    snprintf(list, sizeof list, "%s,%s", g->ops[0].name, g->ops[1].name);
    twill_joint_rel_add(&s->rs, g, (twill_rel_kind)(tf_rnd(r) % 4), list, why, sizeof why);
  }
  s->p.rels = s->rs.rels;
  s->p.nrels = s->rs.n;
  s->ii = 1 + (long)(tf_rnd(r) % 4);
  s->L = 1 + (long)(tf_rnd(r) % 8);
  memset(s->floors, 0, sizeof s->floors);
  if (tf_rnd(r) % 3 == 0) { /* floors need I past every lifetime */
    for (int v = 0; v < g->nops && v < 16; v++) s->floors[v] = (int)(tf_rnd(r) % 3);
    s->p.min_live = s->floors;
    s->ii = s->L + 2 + (long)(tf_rnd(r) % 8);
    /* covers, as the same relaxation has them: up to 3, of the ops that
     * hold registers and have no floor, each op at most once per cover */
    int nc = 0, ne = 0;
    s->cover_at[0] = 0;
    for (int c = 0; c < 3 && tf_rnd(r) % 2; c++) {
      for (int v = 0; v < g->nops && v < 16; v++)
        if (g->ops[v].regs > 0 && !s->floors[v] && tf_rnd(r) % 2) s->cover_ops[ne++] = v;
      if (ne > s->cover_at[nc]) s->cover_at[++nc] = ne;
    }
    s->p.cover_ops = s->cover_ops;
    s->p.cover_at = s->cover_at;
    s->p.ncovers = nc;
  }
}

/* The checker's statement of the problem is the encoder's, byte for byte:
 * the solver's proofs refute exactly what the checker states. */
START_TEST(translation_matches_encoder) {
  unsigned long long r = 0x7a11ULL + (unsigned long long)_i;
  int trials = tu_under_valgrind() ? 20 : 400, compared = 0, floors = 0, sym = 0, covers = 0;
  for (int k = 0; k < trials; k++) {
    twill_graph *g = tf_random_loop(&r, 3, 4);
    annotate(g, &r);
    setup s;
    random_setup(g, &r, &s);
    size_t n1 = 0, n2 = 0;
    char why[300];
    char *a = twill_joint_preamble(g, &s.p, s.ii, s.L, &n1);
    char *b = twill_check_joint_text(g, &s.p, s.ii, s.L, &n2, why, sizeof why);
    ck_assert_msg(!a == !b, "trial %d: encoder %s, checker %s (%s)", k, a ? "states" : "refuses",
                  b ? "states" : "refuses", why);
    if (a) {
      size_t i = 0;
      while (i < n1 && i < n2 && a[i] == b[i]) i++;
      ck_assert_msg(n1 == n2 && i == n1, "trial %d: the texts differ at byte %zu", k, i);
      compared++;
      floors += s.p.min_live != NULL;
      sym += s.p.symmetry;
      covers += s.p.ncovers > 0 && s.p.symmetry;
    }
    free(a);
    free(b);
    twill_joint_relset_free(&s.rs);
    twill_graph_free(g);
  }
  ck_assert_int_gt(compared, trials / 2);
  ck_assert_int_gt(floors, trials / 10);
  ck_assert_int_gt(sym, trials / 4);
  /* phantoms through the warp symmetry check; valgrind's 20 trials may
   * have none */
  if (!tu_under_valgrind()) ck_assert_int_gt(covers, trials / 40);
}
END_TEST

/* ---- the translation against enumeration ------------------------------ */

/* Load a twill-smt preamble (the lines before any proof step) into a
 * fresh solver: the proof's variable numbers mapped to the solver's. */
typedef struct loader {
  twill_smt *m;
  int *lit;     /* proof SAT var -> solver literal (0 unmapped) */
  int nlit;
  int *x;       /* proof int var -> solver int var */
  int nx;
  int T;
} loader;

static int map_lit(loader *ld, int l) {
  int v = abs(l);
  ck_assert_int_lt(v, ld->nlit);
  if (v == ld->T) return l > 0 ? twill_smt_true_lit(ld->m) : -twill_smt_true_lit(ld->m);
  if (!ld->lit[v]) ld->lit[v] = twill_smt_bool(ld->m);
  return l > 0 ? ld->lit[v] : -ld->lit[v];
}

static int load(const char *text, size_t len) {
  loader ld = {twill_smt_new(), calloc(1 << 20, sizeof(int)), 1 << 20,
               calloc(1 << 16, sizeof(int)), 1 << 16, 0};
  ck_assert_ptr_nonnull(ld.m);
  int unsat = 0;
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    if (!e) e = end;
    char line[1 << 16];
    size_t n = (size_t)(e - p);
    ck_assert_uint_lt(n, sizeof line);
    memcpy(line, p, n);
    line[n] = 0;
    p = e + 1;
    char *tok = strtok(line, " ");
    if (!tok || !strcmp(tok, "p")) continue;
    if (!strcmp(tok, "T")) {
      ld.T = atoi(strtok(NULL, " "));
    } else if (!strcmp(tok, "i")) {
      int x = atoi(strtok(NULL, " "));
      long lo = atol(strtok(NULL, " ")), hi = atol(strtok(NULL, " "));
      ld.x[x] = twill_smt_int(ld.m, lo, hi);
      ck_assert_int_ge(ld.x[x], 0);
    } else if (!strcmp(tok, "o")) {
      int x = atoi(strtok(NULL, " "));
      long k = atol(strtok(NULL, " "));
      int l = atoi(strtok(NULL, " "));
      ld.lit[l] = twill_smt_le_lit(ld.m, ld.x[x], k);
    } else if (!strcmp(tok, "a")) {
      int lits[4096], k = 0;
      for (char *t = strtok(NULL, " "); t && strcmp(t, "0"); t = strtok(NULL, " "))
        lits[k++] = map_lit(&ld, atoi(t));
      if (twill_smt_clause(ld.m, lits, k) == 0) unsat = 1;
    } else if (!strcmp(tok, "k")) {
      strtok(NULL, " "); /* id */
      char *kind = strtok(NULL, " ");
      if (!strcmp(kind, "lin")) {
        int reif = atoi(strtok(NULL, " ")), n2 = atoi(strtok(NULL, " "));
        twill_smt_term *t = malloc((size_t)(n2 + 1) * sizeof *t);
        for (int i = 0; i < n2; i++) {
          t[i].a = atol(strtok(NULL, " "));
          char *v = strtok(NULL, " ");
          if (v[0] == 'x') t[i].var = ld.x[atoi(v + 1)], t[i].lit = 0;
          else t[i].var = -1, t[i].lit = map_lit(&ld, atoi(v + 1));
        }
        long b = atol(strtok(NULL, " "));
        ck_assert_int_ge(twill_smt_linear(ld.m, t, n2, b, reif ? map_lit(&ld, reif) : 0), 1);
        free(t);
      } else {
        int cap = atoi(strtok(NULL, " "));
        long period = atol(strtok(NULL, " "));
        int n2 = atoi(strtok(NULL, " "));
        int *vars = malloc((size_t)(n2 + 1) * sizeof *vars);
        int64_t *off = malloc((size_t)(n2 + 1) * sizeof *off);
        for (int i = 0; i < n2; i++) {
          vars[i] = ld.x[atoi(strtok(NULL, " "))];
          off[i] = atol(strtok(NULL, " "));
        }
        ck_assert_int_ge(twill_smt_modulo(ld.m, cap, period, vars, off, n2), 1);
        free(vars);
        free(off);
      }
    }
  }
  int st = unsat ? 20 : twill_smt_solve(ld.m);
  ck_assert_msg(st == 10 || st == 20, "solver gave %d", st);
  twill_smt_free(ld.m);
  free(ld.lit);
  free(ld.x);
  return st == 10;
}

/* Satisfiable iff enumeration finds a legal schedule: the checker's
 * statement of the model loses no schedule (soundness of a refutation)
 * and adds none (it is the model), with and without symmetry breaking. */
START_TEST(translation_vs_brute_force) {
  unsigned long long r = 0xb00fULL + (unsigned long long)_i;
  int trials = tu_under_valgrind() ? 8 : 150, sat = 0, unsat = 0;
  for (int k = 0; k < trials; k++) {
    twill_graph *g;
    for (;;) {
      g = tf_random_loop(&r, 2, 1000);
      if (g->nops <= 4) break;
      twill_graph_free(g);
    }
    annotate(g, &r);
    setup s;
    random_setup(g, &r, &s);
    s.p.warps = 4, s.p.warpgroup = 2; /* enumeration stays small */
    s.p.min_live = NULL;
    s.p.ncovers = 0;
    s.ii = 1 + (long)(tf_rnd(&r) % 3);
    s.L = 2 + (long)(tf_rnd(&r) % 4);
    int want = -1;
    for (int symm = 0; symm < 2; symm++) {
      s.p.symmetry = symm;
      size_t n;
      char why[300];
      char *t = twill_check_joint_text(g, &s.p, s.ii, s.L, &n, why, sizeof why);
      if (!t) break; /* L shorter than an op: nothing to state */
      if (want < 0) want = bf_joint_feasible(g, &s.p, s.ii, s.L);
      int got = load(t, n);
      ck_assert_msg(got == want, "trial %d I %ld L %ld symmetry %d: translation %d, brute %d",
                    k, s.ii, s.L, symm, got, want);
      free(t);
    }
    if (want == 1) sat++;
    if (want == 0) unsat++;
    twill_joint_relset_free(&s.rs);
    twill_graph_free(g);
  }
  /* both answers are exercised; the 8 trials of a valgrind run look for
   * memory errors, too few to ask that of them */
  if (!tu_under_valgrind()) {
    ck_assert_int_gt(sat, trials / 10);
    ck_assert_int_gt(unsat, trials / 10);
  }
}
END_TEST

/* Asked to break a symmetry that is not there, the checker refuses: a
 * variable-latency op pins warp 0 (joint.h), so swapping warps 0 and 1 is
 * no automorphism.  By hand: fig1 with S variable-latency on 2 warps of
 * one group: the clause "S on warp 0" is there, "S on warp 1" is not. */
START_TEST(symmetry_rule_refuses_a_false_symmetry) {
  twill_graph *g = tf_fig1();
  g->ops[twill_graph_find_op(g, "S")].varlat = true;
  twill_joint_params p;
  twill_joint_params_default(&p, NULL);
  p.warps = 2, p.warpgroup = 2, p.regs = 8, p.reg_step = 0, p.smem_cap = -1, p.tmem_cap = -1;
  p.symmetry = true;
  size_t n;
  char why[300];
  char *t = twill_check_joint_text(g, &p, 2, 4, &n, why, sizeof why);
  ck_assert_msg(t != NULL, "%s", why);
  free(t);
  t = twill_check_joint_text_sb(g, &p, 2, 4, 1, &n, why, sizeof why);
  ck_assert_ptr_null(t);
  ck_assert_msg(strstr(why, "swapping warps 0 and 1") != NULL, "%s", why);
  /* without the variable-latency op the same symmetry holds */
  g->ops[twill_graph_find_op(g, "S")].varlat = false;
  t = twill_check_joint_text_sb(g, &p, 2, 4, 1, &n, why, sizeof why);
  ck_assert_msg(t != NULL, "%s", why);
  free(t);
  twill_graph_free(g);
}
END_TEST

/* ---- certificates through the command line ---------------------------- */

static char *tmpfile_with(const char *name, const char *text, size_t len) {
  char *path = malloc(256);
  snprintf(path, 256, "/tmp/twill_test_check_%s.%d", name, (int)getpid());
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fwrite(text, 1, len, f);
  fclose(f);
  return path;
}

static int run_check(const char *kernel, const char *cert, size_t len, char **err) {
  char *path = tmpfile_with("c.cert", cert, len);
  char *out;
  const char *a[] = {"check", kernel, path, NULL};
  int rc = tu_run_twill(&out, err, a);
  if (rc == 0) ck_assert_ptr_nonnull(strstr(out, "s VERIFIED"));
  else ck_assert_ptr_nonnull(strstr(out, "s NOT VERIFIED"));
  free(out);
  remove(path);
  free(path);
  return rc;
}

static char *make_cert(const char *cmd, const char *kernel, size_t *len) {
  char *out, *err;
  const char *a[] = {cmd, kernel, "--cert", tu_scratch("twill_test_check_made.cert"), NULL};
  int rc = tu_run_twill(&out, &err, a);
  ck_assert_msg(rc == 0 || rc == 2, "%s %s: %d %s", cmd, kernel, rc, err);
  free(out), free(err);
  char *c = tu_read_file(tu_scratch("twill_test_check_made.cert"), len);
  ck_assert_ptr_nonnull(c);
  remove(tu_scratch("twill_test_check_made.cert"));
  return c;
}

/* Every line outside the proof blocks, spelled with a blank before it,
 * after it, doubled inside it or a tab for a blank, and every such line
 * repeated: rejected (one spelling per value, each key once). */
START_TEST(strict_grammar_on_every_line) {
  static const char *const kinds[2] = {"modulo", "solve"};
  for (int kd = 0; kd < 2; kd++) {
    size_t len;
    char *c = make_cert(kinds[kd], "fig1", &len);
    char *err;
    ck_assert_int_eq(run_check("fig1", c, len, &err), 0);
    free(err);
    /* line starts, skipping the blocks */
    size_t starts[512];
    int nl = 0;
    for (size_t i = 0; i < len && nl < 512;) {
      starts[nl++] = i;
      const char *e = memchr(c + i, '\n', len - i);
      size_t next = (size_t)(e - c) + 1;
      long blk = -1;
      const char *last = e;
      while (last > c + i && last[-1] != ' ') last--;
      if (last > c + i && (!strncmp(c + i, "phase1 ", 7) || !strncmp(c + i, "refute ", 7) ||
                           !strncmp(c + i, "vipr ", 5) || !strncmp(c + i, "smt ", 4) ||
                           !strncmp(c + i, "norm-proof ", 11) ||
                           !strncmp(c + i, "never ", 6)))
        blk = atol(last);
      i = blk >= 0 ? next + (size_t)blk + 1 : next;
    }
    int tried = 0;
    for (int l = 0; l < nl; l++) {
      size_t s = starts[l];
      size_t e = (size_t)((const char *)memchr(c + s, '\n', len - s) - c);
      const char *sp = memchr(c + s, ' ', e - s);
      for (int v = 0; v < 5; v++) {
        char *b = malloc(2 * len + 8);
        size_t k = 0;
        memcpy(b, c, s), k = s;
        if (v == 0) b[k++] = ' ';
        if ((v == 2 || v == 3) && !sp) { /* a line of one token */
          free(b);
          continue;
        }
        if (v == 2 || v == 3) { /* the first blank doubled, or a tab */
          size_t at = (size_t)(sp - c);
          memcpy(b + k, c + s, at - s), k += at - s;
          if (v == 2) b[k++] = ' ', b[k++] = ' ';
          else b[k++] = '\t';
          memcpy(b + k, c + at + 1, len - at - 1), k += len - at - 1;
        } else if (v == 4) { /* the line twice */
          memcpy(b + k, c + s, e - s + 1), k += e - s + 1;
          memcpy(b + k, c + s, len - s), k += len - s;
        } else {
          memcpy(b + k, c + s, e - s), k += e - s;
          if (v == 1) b[k++] = ' ';
          memcpy(b + k, c + e, len - e), k += len - e;
        }
        int rc = run_check("fig1", b, k, &err);
        ck_assert_msg(rc == 1, "%s certificate, line %d variant %d accepted", kinds[kd], l + 1, v);
        free(err);
        free(b);
        tried++;
      }
    }
    ck_assert_int_gt(tried, 20);
    /* and text after end */
    char *b = malloc(len + 16);
    memcpy(b, c, len);
    memcpy(b + len, "ii 3\n", 5);
    ck_assert_int_eq(run_check("fig1", b, len + 5, &err), 1);
    ck_assert_msg(strstr(err, "text after 'end'") != NULL, "%s", err);
    free(err);
    free(b);
    free(c);
  }
}
END_TEST

/* Numbers have one spelling: a leading zero, "-0", "+1", a huge value are
 * refused, never cut or wrapped (class 1 of the review). */
START_TEST(numbers_have_one_spelling) {
  size_t len;
  char *c = make_cert("solve", "fig1", &len);
  static const char *const from[] = {"\nii 2\n", "\nii 2\n", "\nii 2\n", "\nlength 4\n",
                                     "\nnorm 1 1\n"};
  static const char *const to[] = {"\nii 02\n", "\nii +2\n",
                                   "\nii 00000000000000000000000000000000000000000000000000000000000000000002\n",
                                   "\nlength 18446744073709551620\n", "\nnorm 1 -0\n"};
  for (size_t k = 0; k < sizeof from / sizeof *from; k++) {
    const char *at = strstr(c, from[k]);
    ck_assert_ptr_nonnull(at);
    size_t nf = strlen(from[k]), nt = strlen(to[k]);
    char *b = malloc(len + nt + 1);
    size_t off = (size_t)(at - c);
    memcpy(b, c, off);
    memcpy(b + off, to[k], nt);
    memcpy(b + off + nt, at + nf, len - off - nf);
    char *err;
    ck_assert_msg(run_check("fig1", b, len - nf + nt, &err) == 1, "case %zu accepted", k);
    ck_assert_msg(strstr(err, "canonical") || strstr(err, "too large"), "case %zu: %s", k, err);
    free(err);
    free(b);
  }
  free(c);
}
END_TEST

/* A bad number as the last token of the buffer: the message shows the
 * token's own bytes, never past the end (the library gets the bytes with
 * no terminating NUL; an exact-size copy lets the sanitizers and valgrind
 * see a read past it).  Found by fuzz_solve_cert. */
START_TEST(bad_number_at_the_end_of_the_buffer) {
  static const char *const certs[] = {
      "twill-certificate 2 solve\nkernel fig1\nmachine hopper\nnormalize 300\nnorm 1 1x\n",
      "twill-certificate 2 solve\nkernel fig1\nmachine hopper\nnormalize "
      "99999999999999999999999999\n"};
  twill_graph *g;
  twill_arch *m;
  twill_diag d;
  ck_assert_int_eq(twill_kernel_load("fig1", NULL, &g, &m, &d), 0);
  twill_joint_params p;
  twill_joint_params_default(&p, m);
  twill_check_subject s = {g, m, 300, &p, 0};
  for (size_t k = 0; k < sizeof certs / sizeof *certs; k++) {
    size_t n = strlen(certs[k]);
    char *b = malloc(n), msg[2000];
    memcpy(b, certs[k], n);
    ck_assert_int_ne(twill_check_cert(&s, b, n, NULL, msg, sizeof msg), 0);
    ck_assert_msg(strstr(msg, k ? "too large" : "'1x' is not an integer"), "%s", msg);
    free(b);
  }
  twill_graph_free(g);
  twill_arch_free(m);
}
END_TEST

/* The normalization verified, by hand: costs 1, 3 and 4 (a kernel's op and
 * edge latencies) have F = 0 only with C' proportional to them, and the
 * least sum there is 1 + 3 + 4 = 8 (gcd 1): the optimum is (1, 3, 4), of
 * objective 301*0 + 8.  (2, 6, 8) is feasible with F = 0 but costs 16;
 * (1, 3, 5) has F = |3*5 - 4*3| = 3.  Both are refused, whatever proof
 * comes with them: the proof bounds the objective by 8. */
START_TEST(normalization_optimum_by_hand) {
  const char *k = "kernel n134\narch hopper\nunit U 1\nop a lat 1 use U\nop b lat 3 use U\n"
                  "edge a b lat 4\n";
  char *kp = tmpfile_with("n134.twill", k, strlen(k));
  char *out, *err;
  const char *a[] = {"modulo", kp, "--cert", tu_scratch("twill_test_check_n.cert"), NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  free(out), free(err);
  size_t len;
  char *c = tu_read_file(tu_scratch("twill_test_check_n.cert"), &len);
  ck_assert_ptr_nonnull(c);
  ck_assert_ptr_nonnull(strstr(c, "\nnorm 1 1\nnorm 3 3\nnorm 4 4\nnorm-proof "));
  ck_assert_int_eq(run_check(kp, c, len, &err), 0);
  free(err);
  static const char *const to[] = {"\nnorm 1 2\nnorm 3 6\nnorm 4 8\n",
                                   "\nnorm 1 1\nnorm 3 3\nnorm 4 5\n",
                                   "\nnorm 1 1\nnorm 3 3\n", "\nnorm 1 1\nnorm 4 4\nnorm 3 3\n"};
  const char *at = strstr(c, "\nnorm 1 1\nnorm 3 3\nnorm 4 4\n");
  size_t nf = strlen("\nnorm 1 1\nnorm 3 3\nnorm 4 4\n");
  for (size_t i = 0; i < sizeof to / sizeof *to; i++) {
    size_t nt = strlen(to[i]), off = (size_t)(at - c);
    char *b = malloc(len + nt + 1);
    memcpy(b, c, off);
    memcpy(b + off, to[i], nt);
    memcpy(b + off + nt, at + nf, len - off - nf);
    ck_assert_msg(run_check(kp, b, len - nf + nt, &err) == 1, "mapping %zu accepted", i);
    free(err);
    free(b);
  }
  /* without the proof the mapping is only a claim */
  const char *pr = strstr(c, "norm-proof ");
  const char *after = strstr(pr, "\nii ") + 1;
  char *b = malloc(len + 1);
  size_t off = (size_t)(pr - c);
  memcpy(b, c, off);
  memcpy(b + off, after, len - (size_t)(after - c));
  ck_assert_int_eq(run_check(kp, b, off + len - (size_t)(after - c), &err), 1);
  ck_assert_msg(strstr(err, "expected 'norm-proof'") != NULL, "%s", err);
  free(err);
  free(b);
  free(c);
  remove(tu_scratch("twill_test_check_n.cert"));
  remove(kp);
  free(kp);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("check");
  TCase *tc = tcase_create("check");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, translation_matches_encoder, 0, 2);
  tcase_add_loop_test(tc, translation_vs_brute_force, 0, 2);
  tcase_add_test(tc, symmetry_rule_refuses_a_false_symmetry);
  tcase_add_test(tc, strict_grammar_on_every_line);
  tcase_add_test(tc, numbers_have_one_spelling);
  tcase_add_test(tc, bad_number_at_the_end_of_the_buffer);
  tcase_add_test(tc, normalization_optimum_by_hand);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
