/* tests/test_modulo_cert.c: certificates of phase 1 pass the checker, and
 * corrupted ones fail. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bf_modulo.h"
#include "check_main.h"
#include "fixtures.h"
#include "testutil.h"
#include "twill/bounds.h"
#include "twill/check.h"
#include "twill/kernel.h"
#include "twill/modulo.h"
#include "twill/normalize.h"

/* A machine named "hopper" for graphs built in code (their units are
 * declared, so its numbers do not matter; the certificate names it). */
static twill_arch *machine(void) {
  twill_arch *m = twill_arch_new("hopper");
  ck_assert_ptr_nonnull(m);
  return m;
}

/* The certificate of g's phase 1, costs as given (the graphs here are
 * already in the units they are checked in). */
static char *certify_with(const twill_graph *g, int engines, size_t *len) {
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.certify = 1;
  o.engines = engines;
  twill_modulo_result r;
  ck_assert_int_eq(twill_modulo_solve(g, &o, &r), 0);
  ck_assert_int_eq(r.status, TWILL_MODULO_OPTIMAL);
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  ck_assert_int_eq(twill_modulo_write_cert(g, "hopper", NULL, &r, f), 0);
  fclose(f);
  twill_modulo_result_clear(&r);
  return buf;
}

/* The ILP engine: its answers proven again on the plain program, VIPR
 * proofs throughout (L the critical path needs none: a path line) */
static char *certify(const twill_graph *g, size_t *len) {
  return certify_with(g, TWILL_MODULO_ENGINE_ILP, len);
}

/* Check c against g (not normalized) on the "hopper" of machine(). */
static int check(const twill_graph *g, const char *c, size_t len, char *msg) {
  twill_arch *m = machine();
  twill_check_subject s = {g, m, 0, NULL, 0};
  int rc = twill_check_cert(&s, c, len, NULL, msg, 2000);
  twill_arch_free(m);
  return rc;
}

/* Check c against the kernel g0 (real costs) normalized with budget U. */
static int check_norm(const twill_graph *g0, const twill_arch *m, long U, const char *c,
                      size_t len, char *msg) {
  twill_check_subject s = {g0, m, U, NULL, 0};
  return twill_check_cert(&s, c, len, NULL, msg, 2000);
}

/* The gap kernel: MII 2 but no schedule at 2 (see test_modulo_exact):
 * its certificate holds a VIPR infeasibility proof at I = 2. */
static twill_graph *gap(void) { return tf_gap(); }

START_TEST(gap_certificate_verifies) {
  twill_graph *g = gap();
  size_t len;
  char *c = certify(g, &len);
  ck_assert_ptr_nonnull(strstr(c, "vipr 2 infeasible"));
  ck_assert_ptr_nonnull(strstr(c, "path 3 optimal"));
  char msg[2000];
  ck_assert_msg(check(g, c, len, msg) == 0, "%s", msg);
  /* by hand: a holds U (capacity 1) at cycles 0 and 2, so ResMII = 2, but
   * at I = 2 both uses fall in one slot (the VIPR proof); at I = 3, a at 0
   * and b at 3 (edge latency 3): L = 4 */
  ck_assert_msg(strstr(msg, "I* = 3, L* = 4 proven least at I*") != NULL, "%s", msg);
  ck_assert_msg(strstr(msg, "none exists at I in [2, 3)") != NULL, "%s", msg);
  free(c);
  twill_graph_free(g);
}
END_TEST

/* Replace the first occurrence of `from` after `after` with `to`. */
static char *edit(const char *c, const char *after, const char *from,
                  const char *to) {
  const char *a = strstr(c, after);
  ck_assert_ptr_nonnull(a);
  const char *p = strstr(a, from);
  ck_assert_ptr_nonnull(p);
  size_t n = strlen(c) - strlen(from) + strlen(to) + 1;
  char *out = malloc(n);
  size_t k = (size_t)(p - c);
  memcpy(out, c, k);
  strcpy(out + k, to);
  strcat(out, p + strlen(from));
  return out;
}

static void expect_reject(const twill_graph *g, char *bad, const char *why) {
  char msg[2000];
  ck_assert_msg(check(g, bad, strlen(bad), msg) == 1, "accepted: %s", why);
  fprintf(stderr, "rejected (%s): %s\n", why, msg);
  free(bad);
}

START_TEST(corrupted_certificates_fail) {
  twill_graph *g = gap();
  size_t len;
  char *c = certify(g, &len);
  /* a claimed I below the truth: needs a schedule that does not exist */
  expect_reject(g, edit(c, "", "ii 3", "ii 2"), "ii lowered");
  /* a claimed L shorter than the schedule's (hand: a at 0 holds U at 0
   * and 2, b >= 3, so L = 4) */
  ck_assert_ptr_nonnull(strstr(c, "length 4\n"));
  expect_reject(g, edit(c, "", "length 4\n", "length 3\n"), "length lowered");
  /* b moved to 0, before a's result (edge a -> b, lat 3) */
  {
    char *bad = strdup(c);
    char *tb = strstr(bad, "time b ");
    ck_assert_ptr_nonnull(tb);
    char *e = strchr(tb, '\n');
    memmove(tb + 8, e, strlen(e) + 1);
    tb[7] = '0';
    expect_reject(g, bad, "time moved");
  }
  /* the infeasibility proof dropped */
  {
    const char *v = strstr(c, "vipr 2 infeasible");
    const char *w = strstr(c, "path 3 optimal");
    size_t n = strlen(c) - (size_t)(w - v) + 1;
    char *bad = malloc(n);
    memcpy(bad, c, (size_t)(v - c));
    strcpy(bad + (v - c), w);
    expect_reject(g, bad, "dropped proof");
  }
  /* a derivation's first multiplier replaced by another number */
  {
    const char *lin = strstr(strstr(c, "vipr 2"), "{ lin ");
    ck_assert_ptr_nonnull(lin);
    const char *p = lin + 6;
    for (int field = 0; field < 2; field++) { /* count, first index */
      while (*p == ' ') p++;
      while (*p != ' ') p++;
    }
    while (*p == ' ') p++;
    const char *q = p;
    while (*q != ' ' && *q != '}') q++;
    size_t n = strlen(c) + 8;
    char *bad = malloc(n);
    memcpy(bad, c, (size_t)(p - c));
    strcpy(bad + (p - c), "3");
    strcat(bad, q);
    expect_reject(g, bad, "multiplier changed");
  }
  /* a constraint of the proof tightened beyond the program: the first
   * "<= 1" of the block (a binary's bound) made "<= 0" */
  {
    const char *blk = strstr(c, "vipr 2");
    const char *cap = strstr(blk, " L 1 ");
    ck_assert_ptr_nonnull(cap);
    char *bad = strdup(c);
    bad[cap - c + 3] = '0';
    expect_reject(g, bad, "constraint tightened");
  }
  /* not a certificate at all */
  expect_reject(g, strdup("hello\n"), "garbage");
  expect_reject(g, edit(c, "", "end\n", ""), "missing end");
  free(c);
  twill_graph_free(g);
}
END_TEST

START_TEST(random_certificates_verify) {
  int trials = tu_under_valgrind() ? 8 : 60;
  unsigned long long r = 4242;
  for (int t = 0; t < trials; t++) {
    twill_graph *g = twill_graph_new("r");
    twill_graph_declare_unit(g, "u0", 1);
    int n = 2 + (int)(tf_rnd(&r) % 4);
    for (int v = 0; v < n; v++) {
      char nm[4] = {'v', (char)('0' + v), 0, 0};
      twill_graph_add_op(g, nm, 1 + (int)(tf_rnd(&r) % 3));
      twill_graph_add_use(g, v, 0, 0, 1, 1);
      if (tf_rnd(&r) % 3 == 0) twill_graph_add_use(g, v, 0, 2, 1, 1);
    }
    for (int a = 0; a + 1 < n; a++)
      if (tf_rnd(&r) % 2) twill_graph_add_edge(g, a, a + 1, g->ops[a].lat, 0);
    /* whichever engine decides, the certificate's proofs are about the
     * plain program the checker states */
    for (int e = 0; e <= 2; e++) {
      size_t len;
      char *c = certify_with(g, e, &len);
      char msg[2000];
      ck_assert_msg(check(g, c, len, msg) == 0, "trial %d, engines %d: %s", t, e, msg);
      free(c);
    }
    twill_graph_free(g);
  }
}
END_TEST

START_TEST(command_line_round_trip) {
  char *out, *err;
  const char *a[] = {"modulo", "fig1", "--cert", tu_scratch("twill-test-fig1.cert"), NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  free(out);
  free(err);
  const char *b[] = {"check", "fig1", tu_scratch("twill-test-fig1.cert"), NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, b), 0);
  ck_assert_ptr_nonnull(strstr(out, "s VERIFIED"));
  free(out);
  free(err);
  /* the same certificate does not prove anything about another kernel */
  const char *d[] = {"check", "dragon", tu_scratch("twill-test-fig1.cert"), NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, d), 1);
  ck_assert_ptr_nonnull(strstr(out, "s NOT VERIFIED"));
  free(out);
  free(err);
  remove(tu_scratch("twill-test-fig1.cert"));
}
END_TEST

/* A limit after I* is settled: the certificate proves I* and marks L
 * unproven; removing the mark makes it claim more than it proves. */
START_TEST(partial_certificate_when_length_unproven) {
  twill_graph *g0;
  twill_arch *m;
  ck_assert_int_eq(tu_load_kernel("fa3-fwd-hopper", NULL, &g0, &m), 0);
  twill_norm nm;
  twill_graph *g = twill_normalize_kernel(g0, m->cross_warp, 300, 0, &nm);
  ck_assert_ptr_nonnull(g);
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.certify = 1;
  o.engines = TWILL_MODULO_ENGINE_ILP;
  o.form = 0;        /* the plain program */
  o.node_limit = 50; /* far too few to close L at I = 32 */
  twill_modulo_result r;
  ck_assert_int_eq(twill_modulo_solve(g, &o, &r), 0);
  ck_assert_int_eq(r.status, TWILL_MODULO_LIMIT);
  ck_assert_int_eq(r.ii, 32); /* = ResMII: TC 4 x 8 normalized cycles */
  ck_assert_int_eq(r.ii_lower, 32);
  char *c = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&c, &len);
  ck_assert_int_eq(twill_modulo_write_cert(g, m->name, &nm, &r, f), 0);
  fclose(f);
  char msg[2000];
  ck_assert_msg(check_norm(g0, m, 300, c, len, msg) == 0, "%s", msg);
  ck_assert_msg(strstr(msg, "NOT proven least") != NULL, "%s", msg);
  char *bad = edit(c, "", "length-proof none\n", "");
  ck_assert_int_eq(check_norm(g0, m, 300, bad, strlen(bad), msg), 1);
  free(bad);
  free(c);
  twill_modulo_result_clear(&r);
  twill_norm_clear(&nm);
  twill_graph_free(g);
  twill_graph_free(g0);
  twill_arch_free(m);
}
END_TEST

/* twill modulo --json feeds twill emit: the file carries the solver's
 * normalized times and their mapping (fa3-bwd-hopper: costs 128 -> 1,
 * 256 -> 2 (the hopper cross-warp cost, paid by the ops that hold
 * registers), 512 -> 4, exact ratios, so 128 real cycles per normalized
 * cycle), and emit rebuilds the normalized kernel from that mapping and
 * draws it in real cycles: I* = 20 normalized (the .twill file's MII of
 * 2560 cycles over 128) is I = 2560. */
START_TEST(modulo_json_feeds_emit) {
  char *out, *err;
  const char *a[] = {"modulo", "fa3-bwd-hopper", "--json", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 0);
  ck_assert_ptr_nonnull(strstr(out, "\"real_per_normalized_cycle\": 128"));
  ck_assert_ptr_nonnull(strstr(out, "\"ii\": 2560"));
  ck_assert_ptr_nonnull(strstr(out, "\"normalized\": {\n    \"ii\": 20,"));
  FILE *f = fopen(tu_scratch("twill-test-bwd.json"), "w");
  ck_assert_ptr_nonnull(f);
  fputs(out, f);
  fclose(f);
  free(out);
  free(err);
  const char *b[] = {"emit", tu_scratch("twill-test-bwd.json"), "--format", "table", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, b), 0);
  ck_assert_ptr_nonnull(strstr(out, "I = 2560,"));
  ck_assert_ptr_nonnull(strstr(out, "1 normalized cycle = 128 cycles"));
  free(out);
  free(err);
  remove(tu_scratch("twill-test-bwd.json"));
}
END_TEST

/* Every built-in kernel gets a certified optimal I (normalized costs):
 * I* = MII from the bounds in its .twill file divided by the normalized
 * unit (fig1 2, dragon 3, gemm 512/256 = 2: its costs {1, 256, 512}
 * with hopper's cross-warp 256 normalize to 0, 1, 2 (F = 2, docs/tutorial.md
 * derives it), fa3-fwd 2048/64 = 32, fa4-fwd 32,
 * fa3-bwd 2560/128 = 20, fa4-bwd 2560/32 = 80: its costs 32, 64, 128, 512
 * and blackwell's cross-warp 256 are 1, 2, 4, 16, 8 times 32, whose sum
 * 31 fits the budget exactly).  A small node limit keeps
 * the test short; L may then be certified or marked unproven, except on
 * fa4-fwd: there the heuristic's schedule, handed to the search as its
 * first incumbent, already meets the root's bound, so L is proven at once
 * (before the start, 500,000 nodes did not prove it). */
START_TEST(every_builtin_kernel_certifies_its_ii) {
  static const struct { const char *name; long ii; int l_proven; } k[] = {
      {"fig1", 2, 0}, {"dragon", 3, 0}, {"gemm-hopper", 2, 0}, {"fa3-fwd-hopper", 32, 0},
      {"fa4-fwd-blackwell", 32, 1}, {"fa3-bwd-hopper", 20, 0},
      {"fa4-bwd-blackwell", 80, 0}};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    twill_graph *g0;
    twill_arch *m;
    ck_assert_int_eq(tu_load_kernel(k[i].name, NULL, &g0, &m), 0);
    twill_norm nm;
    /* as twill modulo and the checker normalize: the machine's cross-warp
     * cost among the costs */
    twill_graph *g = twill_normalize_kernel(g0, m->cross_warp, 300, 0, &nm);
    ck_assert_ptr_nonnull(g);
    twill_modulo_opts o;
    twill_modulo_opts_default(&o);
    o.certify = 1;
    o.node_limit = 200;
    twill_modulo_result r;
    ck_assert_int_eq(twill_modulo_solve(g, &o, &r), 0);
    ck_assert_msg(r.ii == k[i].ii && r.ii_lower == r.ii, "%s: I %ld (>= %ld)",
                  k[i].name, r.ii, r.ii_lower);
    if (k[i].l_proven)
      ck_assert_msg(r.status == TWILL_MODULO_OPTIMAL && r.length_lower == r.length,
                    "%s: L %ld not proven (>= %ld)", k[i].name, r.length, r.length_lower);
    char *c = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&c, &len);
    ck_assert_int_eq(twill_modulo_write_cert(g, m->name, &nm, &r, f), 0);
    fclose(f);
    char msg[2000];
    ck_assert_msg(check_norm(g0, m, 300, c, len, msg) == 0, "%s: %s", k[i].name, msg);
    free(c);
    twill_modulo_result_clear(&r);
    twill_norm_clear(&nm);
    twill_graph_free(g);
    twill_graph_free(g0);
    twill_arch_free(m);
  }
}
END_TEST

/* The gap kernel decided by the SMT engine alone: it refutes I = 2 (a's
 * two uses of U, at offsets 0 and 2, share the slot 0 mod 2) and at I = 3
 * finds L = 4, the critical path (a: 3 cycles, then b).  The certificate
 * carries its twill-smt refutation, which the checker verifies against
 * its own statement of the reduced problem, and a path line for L, which
 * it checks against the critical path it derives. */
START_TEST(smt_engine_certificate_verifies) {
  twill_graph *g = tf_gap();
  size_t len;
  char *c = certify_with(g, TWILL_MODULO_ENGINE_SMT, &len);
  ck_assert_ptr_nonnull(strstr(c, "\nform reduce,slots,times,relative\n"));
  ck_assert_ptr_nonnull(strstr(c, "\nsmt 2 infeasible "));
  ck_assert_ptr_nonnull(strstr(c, "\npath 3 optimal\n"));
  char msg[2000];
  ck_assert_msg(check(g, c, len, msg) == 0, "%s", msg);
  ck_assert_msg(strstr(msg, "I* = 3, L* = 4 proven least at I* (the critical path at I*)"),
                "%s", msg);
  ck_assert_msg(strstr(msg, "none exists at I in [2, 3) (0 VIPR, 1 twill-smt)"), "%s", msg);
  /* the same answers from the ILP: its proof of I = 2 is made again on
   * the plain program the checker states, a VIPR proof */
  free(c);
  c = certify_with(g, TWILL_MODULO_ENGINE_ILP, &len);
  ck_assert_ptr_nonnull(strstr(c, "\nvipr 2 infeasible "));
  ck_assert_msg(check(g, c, len, msg) == 0, "%s", msg);
  ck_assert_msg(strstr(msg, "(1 VIPR, 0 twill-smt)"), "%s", msg);
  free(c);
  twill_graph_free(g);
}
END_TEST

/* A random loop (12 ops, capacities 1, reservation gaps, back edges) on
 * which the longest paths at I = MII = 17 raise one op's value more than
 * n + 1 times within single passes of a FIFO search, with no positive
 * cycle (RecMII is 7, from twill_bounds' own cycle search): a search that
 * counted raises instead of queue joins called that a cycle, and the
 * checker then could not derive the reduced problem at I = 17 and
 * rejected a sound certificate (found by bench/modulo.sh's hard part).
 * The SMT engine refutes I = 17 in about 12000 conflicts. */
START_TEST(longest_paths_raised_often_are_no_cycle) {
  twill_random_opts ro;
  twill_random_opts_default(&ro);
  ro.nodes = 12;
  ro.units = 2;
  ro.max_cap = 1;
  ro.gaps = true;
  ro.back_edges = 0.2;
  ro.max_lat = 6;
  ro.seed = 4;
  twill_graph *g = twill_graph_random(&ro);
  ck_assert_ptr_nonnull(g);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  ck_assert_int_eq(b.rec_mii, 7);
  ck_assert_int_eq(b.mii, 17);
  twill_bounds_clear(&b);
  size_t len;
  char *c = certify_with(g, TWILL_MODULO_ENGINE_SMT, &len);
  char msg[2000];
  ck_assert_msg(check(g, c, len, msg) == 0, "%s", msg);
  ck_assert_ptr_nonnull(strstr(c, "\nsmt 17 infeasible "));
  free(c);
  twill_graph_free(g);
}
END_TEST

/* A copy of c with its form line replaced by "form F". */
static char *with_form(const char *c, const char *f) {
  const char *at = strstr(c, "\nform ");
  ck_assert_ptr_nonnull(at);
  const char *eol = strchr(at + 1, '\n');
  size_t n = strlen(c) + strlen(f) + 16;
  char *b = malloc(n);
  ck_assert_ptr_nonnull(b);
  snprintf(b, n, "%.*s\nform %s%s", (int)(at - c), c, f, eol);
  return b;
}

/* The hole kernel (tests/fixtures.h: a full unit, MII 7, I* 8): the SMT
 * engine's refutation of I = 7 is stated over slot variables with the
 * full unit's coverage clauses and the rows over the times (form
 * reduce,slots,times,relative); the checker states the same from the form line,
 * so a certificate whose form line no longer names slots, or times, is
 * rejected. */
START_TEST(slots_certificate_verifies) {
  twill_graph *g = tf_hole();
  size_t len;
  char *c = certify_with(g, TWILL_MODULO_ENGINE_SMT, &len);
  char msg[2000];
  ck_assert_msg(check(g, c, len, msg) == 0, "%s", msg);
  ck_assert_ptr_nonnull(strstr(c, "\nform reduce,slots,times,relative\n"));
  ck_assert_ptr_nonnull(strstr(c, "\nsmt 7 infeasible "));
  /* no relative row applies here, so the form a certificate had before
   * the row (without "relative") states the same problem */
  char *old = with_form(c, "reduce,slots,times");
  ck_assert_msg(check(g, old, strlen(old), msg) == 0, "%s", msg);
  free(old);
  /* (slots,times states the same problem here: the reduction keeps every
   * op of this kernel) */
  static const char *const other[] = {"reduce", "reduce,slots", "none", "slots",
                                      "reduce,times", "times", "reduce,slots,times,",
                                      "slots,reduce,times"};
  for (int k = 0; k < 8; k++) {
    char *bad = with_form(c, other[k]);
    ck_assert_msg(check(g, bad, strlen(bad), msg) == 1, "form %s accepted", other[k]);
    /* a statement that differs, or one that stops short of the 4c rows
     * (then the refutation's own input goes on past it) */
    ck_assert_msg(strstr(msg, k < 4 ? "the twill-smt refutation at I = 7" : "form: expected"),
                  "%s: %s", other[k], msg);
    free(bad);
  }
  free(c);
  twill_graph_free(g);
}
END_TEST

/* The race's rule (core/modulo/modulo_solve.c): the SMT engine's answer
 * within its conflict budget, else the ILP's; which thread ends first
 * never shows.  Certificates with --threads 1 and 2 are the same bytes,
 * with the default budget (the SMT engine answers), with a budget of 20
 * conflicts (the ILP answers the I the SMT engine cannot settle in 20),
 * and with none (the ILP alone); and they verify. */
static char *certify_opts(const twill_graph *g, int threads, long budget, int *smt,
                          size_t *len) {
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.certify = 1;
  o.threads = threads;
  if (budget >= 0) o.smt_conflicts = budget;
  else o.engines = TWILL_MODULO_ENGINE_ILP;
  twill_modulo_result r;
  ck_assert_int_eq(twill_modulo_solve(g, &o, &r), 0);
  ck_assert_int_eq(r.status, TWILL_MODULO_OPTIMAL);
  *smt = 0;
  for (int i = 0; i < r.ntries; i++) *smt += r.tries[i].engine == TWILL_MODULO_ENGINE_SMT;
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  ck_assert_int_eq(twill_modulo_write_cert(g, "hopper", NULL, &r, f), 0);
  fclose(f);
  twill_modulo_result_clear(&r);
  return buf;
}

/* Does some twill-smt refutation in c state a relative row?  Its row is
 * the only modulo row declared right after ints (its own); the other rows
 * follow deps, slot rows, rows or clauses. */
static int states_relative_row(const char *c) {
  for (const char *p = strstr(c, "\ni "); p; p = strstr(p + 1, "\ni ")) {
    const char *e = strchr(p + 1, '\n');
    if (e && !strncmp(e, "\nk ", 3)) {
      const char *q = e + 3;
      while (*q >= '0' && *q <= '9') q++;
      if (!strncmp(q, " mod ", 5)) return 1;
    }
  }
  return 0;
}

/* The frame: four writes on one port W (capacity 1) end an iteration
 * that two ops e1 -> e2 on a port E close (w_i -> e1: lat 1; e1 -> e2:
 * lat 1; e2 -> w_i of the next iteration: lat 3).  By hand: each write
 * lies within [t_e1 + 4 - I, t_e1 - 1], so the four need I - 4 >= 4: I* =
 * 8, though ResMII = 4 and RecMII = 5 (the cycle w -> e1 -> e2 -> w: 5 at
 * distance 1).  At I = 8 the writes at 0..3, e1 at 4, e2 at 5: L* = 6.
 * back is e2 -> w's latency (3 here). */
static twill_graph *frame(long back) {
  twill_graph *g = twill_graph_new("frame");
  int w = twill_graph_declare_unit(g, "W", 1), e = twill_graph_declare_unit(g, "E", 1);
  int e1 = twill_graph_add_op(g, "e1", 1), e2 = twill_graph_add_op(g, "e2", 1);
  twill_graph_add_use(g, e1, e, 0, 1, 1);
  twill_graph_add_use(g, e2, e, 0, 1, 1);
  twill_graph_add_edge(g, e1, e2, 1, 0);
  for (int i = 0; i < 4; i++) {
    char nm[4] = {'w', (char)('1' + i), 0, 0};
    int v = twill_graph_add_op(g, nm, 1);
    twill_graph_add_use(g, v, w, 0, 1, 1);
    twill_graph_add_edge(g, v, e1, 1, 0);
    twill_graph_add_edge(g, e2, v, back, 1);
  }
  return g;
}

/* The SMT engine's refutations of I = 5, 6, 7 state the relative row:
 * the writes' times relative to e1 in [4 - I, -1], moved by I to [4, I -
 * 1] (the cut at their residue 4), four uses in I - 4 < 4 cycles, refuted
 * before any decision; the checker states the same row from the kernel
 * and accepts.  Told that e2 -> w takes 2 cycles (I* = 7
 * by the same count: [3 - I, -1]; MII 4), it refuses the certificate's
 * claim. */
START_TEST(relative_row_refutes_the_frame) {
  twill_graph *g = frame(3);
  ck_assert_int_eq(bf_modulo_min_ii(g, 16), 8);
  ck_assert_int_eq(bf_modulo_min_len(g, 8), 6);
  size_t len;
  char *c = certify_with(g, TWILL_MODULO_ENGINE_SMT, &len);
  char msg[2000];
  ck_assert_msg(check(g, c, len, msg) == 0, "%s", msg);
  ck_assert_msg(strstr(msg, "I* = 8, L* = 6 proven least at I*"), "%s", msg);
  for (long ii = 5; ii <= 7; ii++) {
    char head[64], row[64], dom[64];
    snprintf(head, sizeof head, "\nsmt %ld infeasible ", ii);
    snprintf(row, sizeof row, " mod 1 %ld 4 18 0 19 0 20 0 21 0\n", ii);
    snprintf(dom, sizeof dom, "\ni 18 4 %ld\ni 19 4 %ld\n", ii - 1, ii - 1);
    const char *b = strstr(c, head);
    ck_assert_msg(b != NULL, "no refutation of I = %ld", ii);
    const char *end = strstr(b + 1, "\nsmt ");
    const char *r = strstr(b, row), *d = strstr(b, dom);
    ck_assert_msg(r && d && (!end || (r < end && d < end)), "I = %ld: no relative row", ii);
  }
  free(c);
  twill_graph *gp = tf_gap(); /* no row there: the test of a row can fail */
  c = certify_with(gp, TWILL_MODULO_ENGINE_SMT, &len);
  ck_assert(!states_relative_row(c));
  twill_graph_free(gp);
  free(c);
  c = certify_with(g, TWILL_MODULO_ENGINE_SMT, &len);
  ck_assert(states_relative_row(c));
  /* without "relative" on its form line the checker states no row, and
   * the refutations' own lines for it are refused */
  char *bad = with_form(c, "reduce,slots,times");
  ck_assert_int_ne(check(g, bad, strlen(bad), msg), 0);
  ck_assert_msg(strstr(msg, "after the problem's own input"), "%s", msg);
  free(bad);
  /* the lever off (--off relative): the search alone, the same answer */
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.certify = 1;
  o.engines = TWILL_MODULO_ENGINE_SMT;
  o.form &= ~(unsigned)TWILL_MODULO_FORM_RELATIVE;
  twill_modulo_result res;
  ck_assert_int_eq(twill_modulo_solve(g, &o, &res), 0);
  ck_assert_int_eq(res.status, TWILL_MODULO_OPTIMAL);
  ck_assert_int_eq(res.ii, 8);
  ck_assert_int_eq(res.length, 6);
  char *off = NULL;
  size_t offlen = 0;
  FILE *f = open_memstream(&off, &offlen);
  ck_assert_int_eq(twill_modulo_write_cert(g, "hopper", NULL, &res, f), 0);
  fclose(f);
  twill_modulo_result_clear(&res);
  ck_assert_ptr_nonnull(strstr(off, "\nform reduce,slots,times\n"));
  ck_assert(!states_relative_row(off));
  ck_assert_msg(check(g, off, offlen, msg) == 0, "%s", msg);
  free(off);
  twill_graph *h = frame(2);
  ck_assert_int_eq(bf_modulo_min_ii(h, 16), 7);
  ck_assert_int_ne(check(h, c, len, msg), 0);
  ck_assert_msg(strstr(msg, "expected the proof for I = 4"), "%s", msg);
  free(c);
  twill_graph_free(h);
  twill_graph_free(g);
}
END_TEST

/* Random frames (6 ops: e1 -> e2 on E; 2-3 writes on W of capacity 1, each
 * for 1-2 cycles at offset 0-1; reads on R of capacity 2 feeding the
 * writes; back edges from e2 and from writes to reads): the SMT engine's
 * I* and L* equal the brute force's, and every certificate verifies, also
 * where the relative row refuted an I (asserted to happen). */
START_TEST(relative_row_agrees_with_brute_force) {
  int trials = tu_under_valgrind() ? 4 : 40, fired = 0;
  unsigned long long x = 9001;
  for (int t = 0; t < trials; t++) {
    twill_graph *g = twill_graph_new("rf");
    int wu = twill_graph_declare_unit(g, "W", 1), eu = twill_graph_declare_unit(g, "E", 1);
    int ru = twill_graph_declare_unit(g, "R", 2);
    int e1 = twill_graph_add_op(g, "e1", 1), e2 = twill_graph_add_op(g, "e2", 1);
    twill_graph_add_use(g, e1, eu, 0, 1, 1);
    twill_graph_add_use(g, e2, eu, 0, 1, 1);
    twill_graph_add_edge(g, e1, e2, 1, 0);
    int k = 2 + (int)(tf_rnd(&x) % 2), w0 = g->nops;
    for (int i = 0; i < k; i++) {
      char nm[4] = {'w', (char)('0' + i), 0, 0};
      int v = twill_graph_add_op(g, nm, 2);
      /* one cycle of W, or two, at offset 0 or 1: the row's uses keep
       * their offsets when their op's window moves */
      twill_graph_add_use(g, v, wu, (int)(tf_rnd(&x) % 2), 1 + (int)(tf_rnd(&x) % 3 == 0), 1);
      twill_graph_add_edge(g, v, e1, 1 + (long)(tf_rnd(&x) % 2), 0);
      twill_graph_add_edge(g, e2, v, 1 + (long)(tf_rnd(&x) % 4), 1);
    }
    for (int i = 0; i < 4 - k; i++) {
      char nm[4] = {'r', (char)('0' + i), 0, 0};
      int v = twill_graph_add_op(g, nm, 2);
      twill_graph_add_use(g, v, ru, 0, 1, 1);
      twill_graph_add_edge(g, v, w0 + (int)(tf_rnd(&x) % (unsigned)k), 2, 0);
      if (tf_rnd(&x) % 2)
        twill_graph_add_edge(g, w0 + (int)(tf_rnd(&x) % (unsigned)k), v,
                             1 + (long)(tf_rnd(&x) % 3), 1);
    }
    long ii = bf_modulo_min_ii(g, 16);
    ck_assert_int_gt(ii, 0);
    twill_modulo_opts o;
    twill_modulo_opts_default(&o);
    o.engines = TWILL_MODULO_ENGINE_SMT;
    twill_modulo_result r;
    ck_assert_int_eq(twill_modulo_solve(g, &o, &r), 0);
    ck_assert_int_eq(r.status, TWILL_MODULO_OPTIMAL);
    ck_assert_msg(r.ii == ii && r.length == bf_modulo_min_len(g, ii),
                  "trial %d: I %ld L %ld, brute force I %ld L %ld", t, r.ii, r.length, ii,
                  bf_modulo_min_len(g, ii));
    twill_modulo_result_clear(&r);
    size_t len;
    char *c = certify_with(g, TWILL_MODULO_ENGINE_SMT, &len);
    char msg[2000];
    ck_assert_msg(check(g, c, len, msg) == 0, "trial %d: %s", t, msg);
    fired += states_relative_row(c);
    free(c);
    twill_graph_free(g);
  }
  ck_assert_msg(tu_under_valgrind() || fired * 8 >= trials,
                "the relative row refuted an I in %d of %d", fired, trials);
}
END_TEST

START_TEST(threads_give_the_same_bytes) {
  twill_graph *gs[3] = {tf_gap(), tf_hole(), tf_fig1()};
  static const long budgets[] = {200000, 20, -1};
  int smt_answered = 0, ilp_answered = 0;
  for (int k = 0; k < 3; k++)
    for (int b = 0; b < 3; b++) {
      size_t l1, l2;
      int s1, s2;
      char *c1 = certify_opts(gs[k], 1, budgets[b], &s1, &l1);
      char *c2 = certify_opts(gs[k], 2, budgets[b], &s2, &l2);
      ck_assert_msg(l1 == l2 && !memcmp(c1, c2, l1), "kernel %d, budget %ld: bytes differ",
                    k, budgets[b]);
      ck_assert_int_eq(s1, s2);
      smt_answered += s1 > 0;
      ilp_answered += budgets[b] < 0;
      char msg[2000];
      ck_assert_msg(check(gs[k], c1, l1, msg) == 0, "kernel %d, budget %ld: %s", k,
                    budgets[b], msg);
      free(c1);
      free(c2);
    }
  /* both engines' answers are among them */
  ck_assert_int_gt(smt_answered, 0);
  ck_assert_int_gt(ilp_answered, 0);
  for (int k = 0; k < 3; k++) twill_graph_free(gs[k]);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("modulo_cert");
  TCase *tc = tcase_create("cert");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, gap_certificate_verifies);
  tcase_add_test(tc, corrupted_certificates_fail);
  tcase_add_test(tc, random_certificates_verify);
  tcase_add_test(tc, command_line_round_trip);
  tcase_add_test(tc, partial_certificate_when_length_unproven);
  tcase_add_test(tc, modulo_json_feeds_emit);
  tcase_add_test(tc, every_builtin_kernel_certifies_its_ii);
  tcase_add_test(tc, smt_engine_certificate_verifies);
  tcase_add_test(tc, longest_paths_raised_often_are_no_cycle);
  tcase_add_test(tc, slots_certificate_verifies);
  tcase_add_test(tc, threads_give_the_same_bytes);
  tcase_add_test(tc, relative_row_refutes_the_frame);
  tcase_add_test(tc, relative_row_agrees_with_brute_force);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
