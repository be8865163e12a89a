/* tests/test_sat.c: the CDCL solver, its DIMACS reader, its proofs and the
 * independent DRAT/LRAT checkers.
 *
 * Independent references used here:
 *  - a brute-force enumerator (all 2^n assignments) for small formulas;
 *  - every model is checked clause by clause against the input;
 *  - every refutation is checked by sat/drat_check.c, which shares no code
 *    with the solver;
 *  - the statuses of the suite instances come from answers.tsv (MiniSat,
 *    CaDiCaL, PicoSAT agreeing, see its README).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "twill/dimacs.h"
#include "check_main.h"
#include "testutil.h"
#include "twill/sat.h"

/* ----------------------------------------------------------- utilities */

static uint64_t rng_state;
static uint64_t rng(void) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}
static int rnd_int(int n) { return (int)(rng() % (uint64_t)n); }

typedef struct {
  int nvars, nclauses;
  int *lits; /* clauses, each ended by 0 */
  size_t nlits;
} cnf_t;

static void cnf_push(cnf_t *f, int x) {
  f->lits = realloc(f->lits, (f->nlits + 1) * sizeof *f->lits);
  ck_assert_ptr_nonnull(f->lits);
  f->lits[f->nlits++] = x;
  if (x == 0) f->nclauses++;
}

static char *cnf_text(const cnf_t *f, size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *m = open_memstream(&buf, &n);
  ck_assert_ptr_nonnull(m);
  fprintf(m, "p cnf %d %d\n", f->nvars, f->nclauses);
  for (size_t i = 0; i < f->nlits; i++)
    fprintf(m, f->lits[i] ? "%d " : "0\n", f->lits[i]);
  fclose(m);
  *len = n;
  return buf;
}

static int model_ok(const twill_sat *s, const int *lits, size_t nlits) {
  int sat = 0;
  for (size_t i = 0; i < nlits; i++) {
    if (lits[i] == 0) {
      if (!sat) return 0;
      sat = 0;
    } else if (twill_sat_value(s, lits[i]) == 1)
      sat = 1;
  }
  return 1;
}

/* brute force: 1 if some assignment satisfies f and the assumptions */
static int brute(const cnf_t *f, const int *assume, int na) {
  for (uint32_t m = 0; m < (1u << f->nvars); m++) {
    int ok = 1;
    for (int a = 0; a < na && ok; a++) {
      int v = abs(assume[a]) - 1;
      int val = (m >> v) & 1;
      if ((assume[a] > 0) != val) ok = 0;
    }
    int sat = 0;
    for (size_t i = 0; i < f->nlits && ok; i++) {
      int l = f->lits[i];
      if (l == 0) {
        if (!sat) ok = 0;
        sat = 0;
      } else {
        int val = (m >> (abs(l) - 1)) & 1;
        if ((l > 0) == val) sat = 1;
      }
    }
    if (ok) return 1;
  }
  return 0;
}

static void random_cnf(cnf_t *f, int nvars, int nclauses, int maxw) {
  memset(f, 0, sizeof *f);
  f->nvars = nvars;
  for (int c = 0; c < nclauses; c++) {
    int w = 1 + rnd_int(maxw);
    for (int k = 0; k < w; k++) {
      int v = 1 + rnd_int(nvars);
      cnf_push(f, rnd_int(2) ? v : -v);
    }
    cnf_push(f, 0);
  }
}

static void add_all(twill_sat *s, const int *lits, size_t nlits) {
  size_t st = 0;
  for (size_t i = 0; i < nlits; i++)
    if (lits[i] == 0) {
      ck_assert_int_ge(twill_sat_add_clause(s, lits + st, (int)(i - st)), 0);
      st = i + 1;
    }
}

/* Solve f with a proof of the given format; check the model or the proof.
 * Returns the status. */
static int solve_checked(const cnf_t *f, int format, int opt_seed) {
  char *pbuf = NULL;
  size_t plen = 0;
  FILE *pf = open_memstream(&pbuf, &plen);
  ck_assert_ptr_nonnull(pf);
  twill_sat *s = twill_sat_new();
  ck_assert_ptr_nonnull(s);
  twill_sat_set_proof(s, pf, format);
  if (opt_seed) {
    twill_sat_set_option(s, "seed", opt_seed);
    twill_sat_set_option(s, "restart", opt_seed % 3);
    twill_sat_set_option(s, "minimize", (opt_seed >> 1) & 1);
    twill_sat_set_option(s, "phase", (opt_seed >> 2) & 1);
  }
  for (int v = 0; v < f->nvars; v++) twill_sat_new_var(s);
  add_all(s, f->lits, f->nlits);
  int r = twill_sat_solve(s);
  fclose(pf);
  if (r == 10) ck_assert_msg(model_ok(s, f->lits, f->nlits), "model violates a clause");
  if (r == 20) {
    size_t clen;
    char *ctext = cnf_text(f, &clen);
    char msg[256];
    int ok = format == TWILL_PROOF_LRAT ? twill_lrat_check(ctext, clen, pbuf, plen, msg, sizeof msg)
                                        : twill_drat_check(ctext, clen, pbuf, plen, msg, sizeof msg);
    ck_assert_msg(ok == 1, "proof (format %d) rejected: %s", format, msg);
    free(ctext);
  }
  twill_sat_free(s);
  free(pbuf);
  return r;
}

/* ------------------------------------------------------- suite instances */

typedef struct {
  char file[128];
  int status;
} inst;
static inst *insts;
static int ninsts;

static void load_answers(void) {
  /* tests/data/suites/sat: the vendored subset (tests/data/vendor.sh leaves
   * out the hard instances and those that take seconds) */
  char *ap = tu_data_path("suites/sat/answers.tsv");
  size_t alen = 0;
  char *a = ap ? tu_read_file(ap, &alen) : NULL;
  free(ap);
  if (!a) return;
  char *save = NULL;
  int first = 1, nseen = 0;
  for (char *line = strtok_r(a, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (first) { /* header row */
      first = 0;
      continue;
    }
    char *tab = strchr(line, '\t');
    if (!tab) continue;
    *tab = 0;
    char *st = tab + 1;
    if (strlen(line) >= sizeof insts[0].file) continue;
    /* under valgrind: every 8th instance among those MiniSat solves in
     * under 0.01 s (column 3) */
    if (tu_under_valgrind()) {
      char *t3 = strchr(st, '\t');
      if (!t3 || atof(t3 + 1) >= 0.01 || nseen++ % 8) continue;
    }
    insts = realloc(insts, (size_t)(ninsts + 1) * sizeof *insts);
    if (!insts) abort();
    snprintf(insts[ninsts].file, sizeof insts[ninsts].file, "%s", line);
    insts[ninsts].status = !strncmp(st, "SAT", 3) ? 10 : !strncmp(st, "UNSAT", 5) ? 20 : -1;
    ninsts++;
  }
  free(a);
}

START_TEST(suite_is_present) {
  /* tests/data/suites/sat/answers.tsv lists 183 instances (README.md) */
  ck_assert_msg(ninsts > 0, "cannot read %s", tu_data_where("suites/sat/answers.tsv"));
  ck_assert_int_ge(ninsts, tu_under_valgrind() ? 10 : 183);
  if (!tu_under_valgrind()) ck_assert_int_eq(ninsts, 183);
}
END_TEST

START_TEST(suite_instance) {
  const inst *in = &insts[_i];
  char rel[200];
  snprintf(rel, sizeof rel, "suites/sat/%s", in->file);
  char *path = tu_data_path(rel);
  size_t len = 0;
  char *text = tu_read_file(path, &len);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  twill_cnf cnf;
  char err[512], warn[512];
  ck_assert_msg(twill_dimacs_parse(in->file, text, len, &cnf, err, sizeof err, warn, sizeof warn) == 0,
                "%s", err);
  cnf_t f = {cnf.nvars, cnf.nclauses, cnf.lits, cnf.nlits};
  /* rotate the proof formats over the instances */
  int fmt = _i % 3 == 0 ? TWILL_PROOF_DRAT_TEXT
            : _i % 3 == 1 ? TWILL_PROOF_DRAT_BINARY : TWILL_PROOF_LRAT;
  char *pbuf = NULL;
  size_t plen = 0;
  FILE *pf = in->status == 20 ? open_memstream(&pbuf, &plen) : NULL;
  twill_sat *s = twill_sat_new();
  ck_assert_ptr_nonnull(s);
  if (pf) twill_sat_set_proof(s, pf, fmt);
  for (int v = 0; v < f.nvars; v++) twill_sat_new_var(s);
  add_all(s, f.lits, f.nlits);
  int r = twill_sat_solve(s);
  ck_assert_msg(r == in->status, "%s: got %d, answers.tsv says %d", in->file, r, in->status);
  if (r == 10) ck_assert_msg(model_ok(s, f.lits, f.nlits), "%s: model violates a clause", in->file);
  twill_sat_free(s);
  if (pf) {
    fclose(pf);
    char msg[256];
    int ok = fmt == TWILL_PROOF_LRAT ? twill_lrat_check(text, len, pbuf, plen, msg, sizeof msg)
                                     : twill_drat_check(text, len, pbuf, plen, msg, sizeof msg);
    ck_assert_msg(ok == 1, "%s: proof (format %d) rejected: %s", in->file, fmt, msg);
    free(pbuf);
  }
  twill_cnf_free(&cnf);
  free(text);
  free(path);
}
END_TEST

/* ---------------------------------------------- random vs brute force */

START_TEST(random_vs_brute_force) {
  rng_state = 0x1234567ull + (uint64_t)_i * 7919u;
  int rounds = tu_under_valgrind() ? 60 : 1000;
  int nsat = 0, nunsat = 0;
  for (int r = 0; r < rounds; r++) {
    int n = 1 + rnd_int(12);
    /* around the 3-SAT threshold (4.26 n) and beyond, mixed widths */
    int m = 1 + rnd_int(6 * n);
    cnf_t f;
    random_cnf(&f, n, m, 1 + rnd_int(4));
    int expect = brute(&f, NULL, 0) ? 10 : 20;
    int got = solve_checked(&f, r % 3, r % 5 ? r : 0);
    ck_assert_msg(got == expect, "round %d (n=%d m=%d): solver %d, brute force %d", r, n, m, got,
                  expect);
    if (got == 10) nsat++;
    else nunsat++;
    free(f.lits);
  }
  /* the generator must exercise both answers */
  ck_assert_int_gt(nsat, rounds / 10);
  ck_assert_int_gt(nunsat, rounds / 10);
}
END_TEST

/* Larger random 3-SAT near the threshold (n = 40..60): no brute force, but
 * models are checked, proofs are checked, and options/seeds must agree. */
START_TEST(random_medium_self_consistent) {
  rng_state = 0xabcdefull;
  int rounds = tu_under_valgrind() ? 4 : 60;
  for (int r = 0; r < rounds; r++) {
    int n = 40 + rnd_int(21);
    cnf_t f;
    memset(&f, 0, sizeof f);
    f.nvars = n;
    int m = (int)(4.26 * n);
    for (int c = 0; c < m; c++) {
      for (int k = 0; k < 3; k++) {
        int v = 1 + rnd_int(n);
        cnf_push(&f, rnd_int(2) ? v : -v);
      }
      cnf_push(&f, 0);
    }
    int a = solve_checked(&f, TWILL_PROOF_DRAT_TEXT, 0);
    int b = solve_checked(&f, TWILL_PROOF_LRAT, 3 + r);
    int c = solve_checked(&f, TWILL_PROOF_DRAT_BINARY, 6 + r);
    ck_assert_int_ne(a, 0);
    ck_assert_int_eq(a, b);
    ck_assert_int_eq(a, c);
    free(f.lits);
  }
}
END_TEST

/* ---------------------------------------------------- incremental API */

START_TEST(assumptions_and_failed) {
  twill_sat *s = twill_sat_new();
  /* (1 v 2) (-1 v 3): assuming -2 and -3 is contradictory (-2 forces 1,
   * 1 forces 3), and both assumptions are needed; 4 is unconstrained. */
  int c1[] = {1, 2}, c2[] = {-1, 3};
  ck_assert_int_eq(twill_sat_add_clause(s, c1, 2), 1);
  ck_assert_int_eq(twill_sat_add_clause(s, c2, 2), 1);
  twill_sat_new_var(s); /* 4 */
  twill_sat_assume(s, -2);
  twill_sat_assume(s, 4);
  twill_sat_assume(s, -3);
  ck_assert_int_eq(twill_sat_solve(s), 20);
  ck_assert_int_eq(twill_sat_failed(s, -2), 1);
  ck_assert_int_eq(twill_sat_failed(s, -3), 1);
  ck_assert_int_eq(twill_sat_failed(s, 4), 0);
  /* assumptions last one solve only */
  ck_assert_int_eq(twill_sat_solve(s), 10);
  ck_assert_int_eq(twill_sat_failed(s, -2), 0);
  /* assume -2 only: 1 and 3 must be true */
  twill_sat_assume(s, -2);
  ck_assert_int_eq(twill_sat_solve(s), 10);
  ck_assert_int_eq(twill_sat_value(s, 1), 1);
  ck_assert_int_eq(twill_sat_value(s, 3), 1);
  ck_assert_int_eq(twill_sat_value(s, -3), -1);
  /* add clauses between solves: (-3) forces -1 then 2 */
  int c3[] = {-3};
  ck_assert_int_eq(twill_sat_add_clause(s, c3, 1), 1);
  ck_assert_int_eq(twill_sat_solve(s), 10);
  ck_assert_int_eq(twill_sat_value(s, 1), -1);
  ck_assert_int_eq(twill_sat_value(s, 2), 1);
  /* an assumption contradicting a level-0 fact fails alone */
  twill_sat_assume(s, 4);
  twill_sat_assume(s, 3);
  ck_assert_int_eq(twill_sat_solve(s), 20);
  ck_assert_int_eq(twill_sat_failed(s, 3), 1);
  ck_assert_int_eq(twill_sat_failed(s, 4), 0);
  /* new variables after solving; then make it UNSAT for good */
  int v5 = twill_sat_new_var(s);
  ck_assert_int_eq(v5, 5);
  int c4[] = {-2, 5}, c5[] = {-5};
  ck_assert_int_eq(twill_sat_add_clause(s, c4, 2), 1);
  ck_assert_int_eq(twill_sat_solve(s), 10);
  ck_assert_int_eq(twill_sat_value(s, 5), 1);
  ck_assert_int_ge(twill_sat_add_clause(s, c5, 1), 0);
  ck_assert_int_eq(twill_sat_solve(s), 20);
  /* once UNSAT, adding clauses says so */
  int c6[] = {1, 2, 3};
  ck_assert_int_eq(twill_sat_add_clause(s, c6, 3), 0);
  twill_sat_free(s);
}
END_TEST

/* Random incremental sessions vs brute force: clauses are added in
 * batches, each batch solved under random assumptions; the failed
 * assumptions must themselves be contradictory (checked by re-solving
 * under them alone, and by brute force). */
START_TEST(random_incremental) {
  rng_state = 0x5eed5eedull;
  int sessions = tu_under_valgrind() ? 20 : 300;
  for (int t = 0; t < sessions; t++) {
    int n = 3 + rnd_int(9);
    cnf_t f;
    memset(&f, 0, sizeof f);
    f.nvars = n;
    twill_sat *s = twill_sat_new();
    twill_sat_set_option(s, "seed", t + 1);
    for (int v = 0; v < n; v++) twill_sat_new_var(s);
    for (int batch = 0; batch < 6; batch++) {
      int m = 1 + rnd_int(n);
      for (int c = 0; c < m; c++) {
        size_t st = f.nlits;
        int w = 1 + rnd_int(3);
        for (int k = 0; k < w; k++) {
          int v = 1 + rnd_int(n);
          cnf_push(&f, rnd_int(2) ? v : -v);
        }
        cnf_push(&f, 0);
        twill_sat_add_clause(s, f.lits + st, w);
      }
      int na = rnd_int(4), as[4];
      for (int a = 0; a < na; a++) {
        int v = 1 + rnd_int(n);
        as[a] = rnd_int(2) ? v : -v;
        twill_sat_assume(s, as[a]);
      }
      int expect = brute(&f, as, na) ? 10 : 20;
      int got = twill_sat_solve(s);
      ck_assert_int_eq(got, expect);
      if (got == 10) {
        ck_assert(model_ok(s, f.lits, f.nlits));
        for (int a = 0; a < na; a++) ck_assert_int_eq(twill_sat_value(s, as[a]), 1);
      } else if (brute(&f, NULL, 0)) {
        /* UNSAT only because of the assumptions: the failed ones suffice */
        int core[4], nc = 0;
        for (int a = 0; a < na; a++)
          if (twill_sat_failed(s, as[a])) core[nc++] = as[a];
        ck_assert_int_gt(nc, 0);
        ck_assert_int_eq(brute(&f, core, nc), 0);
        for (int a = 0; a < nc; a++) twill_sat_assume(s, core[a]);
        ck_assert_int_eq(twill_sat_solve(s), 20);
      }
    }
    twill_sat_free(s);
    free(f.lits);
  }
}
END_TEST

/* hole N: N+1 pigeons in N holes, the classic family that needs
 * exponentially many resolution steps (Haken 1985). */
static void pigeonhole(twill_sat *s, int holes) {
  int p = holes + 1;
#define PV(i, j) ((i) * holes + (j) + 1)
  for (int i = 0; i < p; i++) {
    int c[64];
    for (int j = 0; j < holes; j++) c[j] = PV(i, j);
    twill_sat_add_clause(s, c, holes);
  }
  for (int j = 0; j < holes; j++)
    for (int a = 0; a < p; a++)
      for (int b = a + 1; b < p; b++) {
        int c[2] = {-PV(a, j), -PV(b, j)};
        twill_sat_add_clause(s, c, 2);
      }
#undef PV
}

START_TEST(conflict_limit) {
  twill_sat *s = twill_sat_new();
  pigeonhole(s, 7);
  twill_sat_set_conflict_limit(s, 50);
  ck_assert_int_eq(twill_sat_solve(s), 0);
  twill_sat_stats st;
  twill_sat_get_stats(s, &st);
  ck_assert_int_le(st.conflicts, 50);
  twill_sat_set_conflict_limit(s, -1);
  ck_assert_int_eq(twill_sat_solve(s), 20);
  twill_sat_free(s);
}
END_TEST

START_TEST(time_limit) {
  twill_sat *s = twill_sat_new();
  pigeonhole(s, 11); /* far beyond a second */
  twill_sat_set_time_limit(s, 0.2);
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  ck_assert_int_eq(twill_sat_solve(s), 0);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double el = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
  ck_assert_msg(el < (tu_under_valgrind() ? 20.0 : 2.0), "time limit overrun: %.2f s", el);
  twill_sat_free(s);
}
END_TEST

static void *interrupter(void *arg) {
  struct timespec d = {0, 100000000};
  nanosleep(&d, NULL);
  twill_sat_interrupt(arg);
  return NULL;
}

START_TEST(interrupt_from_thread) {
  twill_sat *s = twill_sat_new();
  pigeonhole(s, 11);
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, interrupter, s), 0);
  ck_assert_int_eq(twill_sat_solve(s), 0);
  pthread_join(th, NULL);
  /* the flag is cleared by the next solve: a small limit still works */
  twill_sat_set_conflict_limit(s, 10);
  ck_assert_int_eq(twill_sat_solve(s), 0);
  twill_sat_free(s);
}
END_TEST

/* ------------------------------------------------ theory propagators */

/* "at most one of vars 1..k" as a lazy theory: a true var implies the
 * others false, explained by the binary clause (-i v -j). */
typedef struct {
  int k;
  int reason[64];
  int buf[2];
  twill_sat *s;
  int calls, explains;
} amo_theory;

static int amo_propagate(void *ctx, twill_sat *s, const int *lits, int n) {
  amo_theory *t = ctx;
  (void)lits;
  (void)n;
  t->calls++;
  int first = 0, second = 0;
  for (int v = 1; v <= t->k; v++)
    if (twill_sat_current_value(s, v) == 1) {
      if (!first) first = v;
      else if (!second) second = v;
    }
  if (second) {
    int c[2] = {-first, -second};
    twill_sat_theory_conflict(s, c, 2);
    return 0;
  }
  if (first)
    for (int v = 1; v <= t->k; v++)
      if (v != first && twill_sat_current_value(s, v) == 0) {
        t->reason[v] = first;
        twill_sat_theory_imply(s, -v);
      }
  return 0;
}

static int amo_explain(void *ctx, int lit, const int **clause) {
  amo_theory *t = ctx;
  t->explains++;
  int v = -lit;
  t->buf[0] = lit;
  t->buf[1] = -t->reason[v];
  *clause = t->buf;
  return 2;
}

static void amo_backtrack(void *ctx, int level) {
  (void)ctx;
  (void)level;
}

START_TEST(theory_hook_vs_brute_force) {
  rng_state = 0x7e0e7ull;
  int rounds = tu_under_valgrind() ? 300 : 800;
  int used_explain = 0, nunsat = 0;
  for (int r = 0; r < rounds; r++) {
    int n = 3 + rnd_int(10);
    cnf_t f;
    random_cnf(&f, n, 1 + rnd_int(3 * n), 3);
    amo_theory t;
    memset(&t, 0, sizeof t);
    t.k = 1 + rnd_int(n);
    /* reference: the same formula with the pairwise AMO clauses */
    cnf_t g = f;
    g.lits = malloc(f.nlits * sizeof *g.lits);
    memcpy(g.lits, f.lits, f.nlits * sizeof *g.lits);
    for (int i = 1; i <= t.k; i++)
      for (int j = i + 1; j <= t.k; j++) {
        cnf_push(&g, -i);
        cnf_push(&g, -j);
        cnf_push(&g, 0);
      }
    int expect = brute(&g, NULL, 0) ? 10 : 20;
    twill_sat *s = twill_sat_new();
    twill_sat_theory th = {&t, amo_propagate, amo_explain, amo_backtrack};
    twill_sat_set_theory(s, &th);
    for (int v = 0; v < n; v++) twill_sat_new_var(s);
    add_all(s, f.lits, f.nlits);
    int got = twill_sat_solve(s);
    ck_assert_msg(got == expect, "round %d: theory solver %d, brute force %d", r, got, expect);
    if (got == 10) ck_assert(model_ok(s, g.lits, g.nlits));
    else nunsat++;
    if (t.explains) used_explain = 1;
    twill_sat_free(s);
    free(f.lits);
    free(g.lits);
  }
  /* explanations are rare on these tiny theories: the first of them falls
   * after round 300, so the shortened valgrind run cannot require one */
  if (!tu_under_valgrind()) ck_assert(used_explain);
  ck_assert_int_gt(nunsat, 0);
}
END_TEST

/* ------------------------------------------- checker on hand proofs */

/* F: (1 2)(1 -2)(-1 3 4)(-1 3 -4)(-1 -3 4)(-1 -3 -4).  Unit 1 is RUP
 * (assume -1: 2 and -2), then 3 is RUP (with 1: 4 and -4), then the empty
 * clause (1, 3 give 4 and -4).  Unit -1 is neither RUP (assuming 1 only
 * leaves binary clauses) nor RAT (resolvent (-1 2) with (1 2) is not
 * implied by UP), and without the lemma 1 the lemma 3 is not RUP either. */
static const char hand_cnf[] =
    "p cnf 4 6\n1 2 0\n1 -2 0\n-1 3 4 0\n-1 3 -4 0\n-1 -3 4 0\n-1 -3 -4 0\n";

static int check_text(const char *proof) {
  char msg[256];
  return twill_drat_check(hand_cnf, strlen(hand_cnf), proof, strlen(proof), msg, sizeof msg);
}

START_TEST(drat_checker_hand_proofs) {
  ck_assert_int_eq(check_text("1 0\n3 0\n0\n"), 1);
  ck_assert_int_eq(check_text("1 0\nd 1 2 0\n3 0\n0\n"), 1);   /* deletion of an unused clause */
  ck_assert_int_eq(check_text("3 0\n0\n"), 0);                 /* lemma 1 dropped */
  ck_assert_int_eq(check_text("1 0\n0\n"), 0);                 /* lemma 3 dropped */
  ck_assert_int_eq(check_text("-1 0\n3 0\n0\n"), 0);           /* literal flipped */
  ck_assert_int_eq(check_text("1 0\n-3 0\n0\n"), 1);           /* -3 is RUP too (symmetry in 3) */
  ck_assert_int_eq(check_text("1 0\n3 0\n"), 0);               /* no empty clause */
  ck_assert_int_eq(check_text("1 0\nd 1 0\n3 0\n0\n"), 0);     /* the unit deleted again */
  ck_assert_int_eq(check_text("0\n"), 0);
  /* RAT: 5 is a fresh variable; (5 1) is RAT on 5 (no clause has -5) */
  ck_assert_int_eq(check_text("5 1 0\n1 0\n3 0\n0\n"), 1);
  /* binary encoding of "1 0\n3 0\n0\n": a, 2*1=2, 0 / a, 2*3=6, 0 / a, 0 */
  const char bin[] = {'a', 2, 0, 'a', 6, 0, 'a', 0};
  char msg[256];
  ck_assert_int_eq(twill_drat_check(hand_cnf, strlen(hand_cnf), bin, sizeof bin, msg, sizeof msg), 1);
  const char binbad[] = {'a', 3, 0, 'a', 6, 0, 'a', 0}; /* 3 = literal -1 */
  ck_assert_int_eq(twill_drat_check(hand_cnf, strlen(hand_cnf), binbad, sizeof binbad, msg, sizeof msg), 0);
}
END_TEST

static int check_lrat(const char *proof) {
  char msg[256];
  return twill_lrat_check(hand_cnf, strlen(hand_cnf), proof, strlen(proof), msg, sizeof msg);
}

START_TEST(lrat_checker_hand_proofs) {
  /* 7: (1) from -1 => clause 1 gives 2, clause 2 is falsified
   * 8: (3) from -3 and 7 => clause 3 gives 4, clause 4 falsified
   * 9: () from 7, 8 => clause 5 gives 4, clause 6 falsified */
  ck_assert_int_eq(check_lrat("7 1 0 1 2 0\n8 3 0 7 3 4 0\n9 0 7 8 5 6 0\n"), 1);
  ck_assert_int_eq(check_lrat("7 1 0 1 2 0\n7 d 1 0\n8 3 0 7 3 4 0\n9 0 7 8 5 6 0\n"), 1);
  ck_assert_int_eq(check_lrat("8 3 0 7 3 4 0\n9 0 7 8 5 6 0\n"), 0);          /* lemma dropped */
  ck_assert_int_eq(check_lrat("7 -1 0 1 2 0\n8 3 0 7 3 4 0\n9 0 7 8 5 6 0\n"), 0); /* flipped */
  /* hint order: under -3 alone clause 3 (-1 3 4) is not unit before 7 */
  ck_assert_int_eq(check_lrat("7 1 0 1 2 0\n8 3 0 3 7 4 0\n9 0 7 8 5 6 0\n"), 0);
  /* hints 2 then 1 work as well: (1 -2) gives -2, then (1 2) is false */
  ck_assert_int_eq(check_lrat("7 1 0 2 1 0\n8 3 0 7 3 4 0\n9 0 7 8 5 6 0\n"), 1);
  ck_assert_int_eq(check_lrat("7 1 0 1 2 0\n7 d 7 0\n8 3 0 7 3 4 0\n9 0 7 8 5 6 0\n"), 0);
  ck_assert_int_eq(check_lrat("7 1 0 1 2 0\n8 3 0 7 3 4 0\n"), 0);            /* no empty clause */
}
END_TEST

/* A real solver proof, corrupted: the proof with every lemma removed but
 * the empty clause is rejected (hole6 is not refutable by unit propagation:
 * every clause has two or more literals and there are no units). */
START_TEST(corrupted_solver_proof) {
  twill_sat *s = twill_sat_new();
  char *pbuf = NULL;
  size_t plen = 0;
  FILE *pf = open_memstream(&pbuf, &plen);
  twill_sat_set_proof(s, pf, TWILL_PROOF_DRAT_TEXT);
  pigeonhole(s, 6);
  ck_assert_int_eq(twill_sat_solve(s), 20);
  twill_sat_free(s);
  fclose(pf);
  /* the CNF text of hole6 */
  char *ctext = NULL;
  size_t clen = 0;
  FILE *m = open_memstream(&ctext, &clen);
  int holes = 6, p = 7;
  fprintf(m, "p cnf %d %d\n", p * holes, p + holes * p * (p - 1) / 2);
  for (int i = 0; i < p; i++) {
    for (int j = 0; j < holes; j++) fprintf(m, "%d ", i * holes + j + 1);
    fprintf(m, "0\n");
  }
  for (int j = 0; j < holes; j++)
    for (int a = 0; a < p; a++)
      for (int b = a + 1; b < p; b++) fprintf(m, "-%d -%d 0\n", a * holes + j + 1, b * holes + j + 1);
  fclose(m);
  char msg[256];
  ck_assert_int_eq(twill_drat_check(ctext, clen, pbuf, plen, msg, sizeof msg), 1);
  ck_assert_int_eq(twill_drat_check(ctext, clen, "0\n", 2, msg, sizeof msg), 0);
  /* drop the first half of the lemma lines (deletions kept): the proof can
   * no longer be complete, since the kept lemmas were derived using them...
   * not guaranteed in general, so instead flip the sign of every literal
   * of every lemma: each lemma stays a set of literals, the proof becomes
   * nonsense and the first used lemma fails. */
  char *bad = malloc(2 * plen + 1);
  size_t bn = 0;
  int line_is_del = 0, at_start = 1;
  for (size_t i = 0; i < plen; i++) {
    char c = pbuf[i];
    if (at_start) line_is_del = c == 'd';
    at_start = c == '\n';
    if (!line_is_del && c >= '1' && c <= '9' && (i == 0 || pbuf[i - 1] == ' ' || pbuf[i - 1] == '\n'))
      bad[bn++] = '-';
    if (!line_is_del && c == '-') continue;
    bad[bn++] = c;
  }
  /* a lemma of hole6 whose every literal is flipped: the solver's first
   * lemma is a clause of negative literals (at-most-one side) turned
   * positive or vice versa; the checker must reject the whole proof */
  ck_assert_int_eq(twill_drat_check(ctext, clen, bad, bn, msg, sizeof msg), 0);
  free(bad);
  free(ctext);
  free(pbuf);
}
END_TEST

/* --------------------------------------------------------- DIMACS */

static void expect_error(const char *text, const char *msg) {
  twill_cnf cnf;
  char err[512], warn[512];
  int r = twill_dimacs_parse("t.cnf", text, strlen(text), &cnf, err, sizeof err, warn, sizeof warn);
  ck_assert_msg(r == -1, "accepted: %s", text);
  ck_assert_str_eq(err, msg);
}

START_TEST(dimacs_errors) {
  /* columns are 1-based; hand counted */
  expect_error("p cnf 3\n1 0\n", "t.cnf:1:8: expected 'p cnf VARS CLAUSES'");
  expect_error("p dnf 3 1\n1 0\n", "t.cnf:1:3: expected 'p cnf VARS CLAUSES'");
  expect_error("p cnf -3 1\n", "t.cnf:1:7: expected 'p cnf VARS CLAUSES'");
  expect_error("p cnf 3 1 7\n1 0\n", "t.cnf:1:11: expected 'p cnf VARS CLAUSES'");
  expect_error("p cnf 3 1\n1 4 0\n", "t.cnf:2:3: literal 4 out of range (header declares 3 variables)");
  expect_error("p cnf 3 1\n 1\t-4 0\n", "t.cnf:2:4: literal -4 out of range (header declares 3 variables)");
  expect_error("p cnf 3 1\n1 99999999999 0\n",
               "t.cnf:2:3: literal 99999999999 out of range (header declares 3 variables)");
  expect_error("p cnf 3 1\n1 2", "t.cnf:2:4: missing final 0 at end of file");
  expect_error("p cnf 3 2\n1 2 0\n-3\n", "t.cnf:4:1: missing final 0 at end of file");
  expect_error("p cnf 3 1\n1 x 0\n", "t.cnf:2:3: unexpected token 'x'");
  expect_error("p cnf 3 1\n1 2- 0\n", "t.cnf:2:3: unexpected token '2-'");
  expect_error("p cnf 3 1\n1 0 c oops\n", "t.cnf:2:5: unexpected token 'c'");
  expect_error("1 2 0\n", "t.cnf:1:1: clause before the 'p cnf' header");
  expect_error("", "t.cnf:1:1: missing 'p cnf' header");
  expect_error("c only a comment\n", "t.cnf:2:1: missing 'p cnf' header");
  expect_error("p cnf 2 1\np cnf 2 1\n", "t.cnf:2:1: second 'p' header line");
}
END_TEST

START_TEST(dimacs_accepts) {
  twill_cnf cnf;
  char err[512], warn[512];
  /* comments after the header, clauses across lines and sharing lines,
   * tabs, CRLF, and the SATLIB '%' trailer */
  const char *t = "c hi\np cnf 4 3\r\n 1 -2\n 3 0 -1\t4 0\nc mid\n2 0\n%\n0\n";
  ck_assert_int_eq(twill_dimacs_parse("t.cnf", t, strlen(t), &cnf, err, sizeof err, warn, sizeof warn), 0);
  ck_assert_int_eq(cnf.nvars, 4);
  ck_assert_int_eq(cnf.nclauses, 3);
  int want[] = {1, -2, 3, 0, -1, 4, 0, 2, 0};
  ck_assert_int_eq(cnf.nlits, 9);
  for (int i = 0; i < 9; i++) ck_assert_int_eq(cnf.lits[i], want[i]);
  ck_assert_str_eq(warn, "");
  twill_cnf_free(&cnf);
  /* clause-count mismatch is a warning */
  const char *u = "p cnf 2 3\n1 0\n";
  ck_assert_int_eq(twill_dimacs_parse("t.cnf", u, strlen(u), &cnf, err, sizeof err, warn, sizeof warn), 0);
  ck_assert_str_eq(warn, "t.cnf:1:1: warning: header declares 3 clauses, found 1");
  twill_cnf_free(&cnf);
}
END_TEST

/* ------------------------------------------------------- front end */

static char *write_tmp(const char *text) {
  char *path = strdup("/tmp/twill-sat-XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  return path;
}

START_TEST(cli_sat_unsat_and_check) {
  char *cnf = write_tmp(hand_cnf);
  char prf[64];
  snprintf(prf, sizeof prf, "%s.drat", cnf);
  char *out = NULL, *err = NULL;
  const char *a1[] = {"sat", cnf, "--proof", prf, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 20);
  ck_assert_ptr_nonnull(strstr(out, "s UNSATISFIABLE\n"));
  ck_assert_ptr_nonnull(strstr(out, "c conflicts "));
  free(out);
  free(err);
  const char *a2[] = {"drat-check", cnf, prf, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 0);
  ck_assert_ptr_nonnull(strstr(out, "s VERIFIED\n"));
  free(out);
  free(err);
  const char *a3[] = {"sat", cnf, "--proof", prf, "--lrat", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 20);
  free(out);
  free(err);
  const char *a4[] = {"drat-check", cnf, prf, "--lrat", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a4), 0);
  ck_assert_ptr_nonnull(strstr(out, "s VERIFIED\n"));
  free(out);
  free(err);
  /* a wrong proof */
  FILE *f = fopen(prf, "w");
  fputs("-1 0\n0\n", f);
  fclose(f);
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 1);
  ck_assert_ptr_nonnull(strstr(out, "s NOT VERIFIED\n"));
  free(out);
  free(err);
  unlink(prf);
  unlink(cnf);
  free(cnf);
}
END_TEST

START_TEST(cli_sat_model_and_errors) {
  /* (1 v 2)(-1)(-2 v 3): the only models have 1 false, 2 and 3 true */
  char *cnf = write_tmp("p cnf 3 3\n1 2 0\n-1 0\n-2 3 0\n");
  char *out = NULL, *err = NULL;
  const char *a1[] = {"sat", cnf, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 10);
  ck_assert_ptr_nonnull(strstr(out, "s SATISFIABLE\nv -1 2 3 0\n"));
  free(out);
  free(err);
  unlink(cnf);
  free(cnf);
  char *bad = write_tmp("p cnf 2 1\n1 3 0\n");
  const char *a2[] = {"sat", bad, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 1);
  char want[256];
  snprintf(want, sizeof want, "%s:2:3: literal 3 out of range (header declares 2 variables)", bad);
  ck_assert_ptr_nonnull(strstr(err, want));
  free(out);
  free(err);
  unlink(bad);
  free(bad);
  char *warn = write_tmp("p cnf 2 2\n1 0\n");
  const char *a3[] = {"sat", warn, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 10);
  ck_assert_ptr_nonnull(strstr(err, "warning: header declares 2 clauses, found 1"));
  free(out);
  free(err);
  unlink(warn);
  free(warn);
}
END_TEST

/* ------------------------------------------- options and statistics */

/* The option table: a new solver reports every row's default; a value
 * outside [lo, hi] is refused and changes nothing (the table's contract in
 * twill/sat.h: never clamped); both ends of the range are accepted; an
 * unknown name is refused by both set and get. */
START_TEST(option_table_ranges) {
  twill_sat *s = twill_sat_new();
  int n = 0;
  for (int i = 0; twill_sat_option(i); i++, n++) {
    const twill_sat_option_info *o = twill_sat_option(i);
    for (int j = 0; j < i; j++) ck_assert_str_ne(twill_sat_option(j)->name, o->name);
    ck_assert(o->lo <= o->def && o->def <= o->hi);
    ck_assert(o->help && o->help[0]);
    int64_t v = -12345;
    ck_assert_int_eq(twill_sat_get_option(s, o->name, &v), 1);
    ck_assert_int_eq(v, o->def);
    if (o->lo > INT64_MIN) ck_assert_int_eq(twill_sat_set_option(s, o->name, o->lo - 1), 0);
    if (o->hi < INT64_MAX) ck_assert_int_eq(twill_sat_set_option(s, o->name, o->hi + 1), 0);
    ck_assert_int_eq(twill_sat_get_option(s, o->name, &v), 1);
    ck_assert_int_eq(v, o->def);
    ck_assert_int_eq(twill_sat_set_option(s, o->name, o->hi), 1);
    ck_assert_int_eq(twill_sat_get_option(s, o->name, &v), 1);
    ck_assert_int_eq(v, o->hi);
    ck_assert_int_eq(twill_sat_set_option(s, o->name, o->lo), 1);
    ck_assert_int_eq(twill_sat_get_option(s, o->name, &v), 1);
    ck_assert_int_eq(v, o->lo);
  }
  /* the five options sat.h has always documented, with their defaults */
  const char *names[] = {"seed", "restart", "minimize", "phase", "reduce"};
  const int64_t defs[] = {0, 2, 1, 0, 1};
  twill_sat *t = twill_sat_new();
  for (int i = 0; i < 5; i++) {
    int64_t v = -1;
    ck_assert_int_eq(twill_sat_get_option(t, names[i], &v), 1);
    ck_assert_int_eq(v, defs[i]);
  }
  ck_assert_int_ge(n, 5);
  ck_assert_ptr_null(twill_sat_option(n));
  ck_assert_ptr_null(twill_sat_option(-1));
  int64_t v = 7;
  ck_assert_int_eq(twill_sat_set_option(t, "no-such-option", 1), 0);
  ck_assert_int_eq(twill_sat_get_option(t, "no-such-option", &v), 0);
  ck_assert_int_eq(v, 7);
  ck_assert_int_eq(twill_sat_set_option(t, "restart", 3), 0); /* was clamped to 2 once */
  ck_assert_int_eq(twill_sat_set_option(t, "minimize", 2), 0);
  twill_sat_free(s);
  twill_sat_free(t);
}
END_TEST

/* The options act.  phase: with no clauses every variable is decided once,
 * at its initial phase, so the model is all false (phase 0) or all true
 * (phase 1).  reduceint / reduceinc: a reduction needs at least reduceint +
 * reduceinc * (reductions so far - 1) conflicts after the previous one;
 * with 10 and 0, 100 conflicts of the pigeonhole 7 (which needs thousands)
 * allow 1 to 10 reductions, the default 2000 none, and reduce=0 none. */
START_TEST(options_take_effect) {
  for (int phase = 0; phase < 2; phase++) {
    twill_sat *s = twill_sat_new();
    ck_assert_int_eq(twill_sat_set_option(s, "phase", phase), 1);
    for (int v = 0; v < 5; v++) twill_sat_new_var(s);
    ck_assert_int_eq(twill_sat_solve(s), 10);
    for (int v = 1; v <= 5; v++) ck_assert_int_eq(twill_sat_value(s, v), phase ? 1 : -1);
    twill_sat_free(s);
  }
  uint64_t reductions[3];
  for (int k = 0; k < 3; k++) {
    twill_sat *s = twill_sat_new();
    if (k == 0 || k == 2) {
      ck_assert_int_eq(twill_sat_set_option(s, "reduceint", 10), 1);
      ck_assert_int_eq(twill_sat_set_option(s, "reduceinc", 0), 1);
    }
    if (k == 2) ck_assert_int_eq(twill_sat_set_option(s, "reduce", 0), 1);
    pigeonhole(s, 7);
    twill_sat_set_conflict_limit(s, 100);
    ck_assert_int_eq(twill_sat_solve(s), 0);
    twill_sat_stats st;
    twill_sat_get_stats(s, &st);
    ck_assert_uint_eq(st.conflicts, 100);
    reductions[k] = st.reductions;
    twill_sat_free(s);
  }
  ck_assert_uint_ge(reductions[0], 1);
  ck_assert_uint_le(reductions[0], 10);
  ck_assert_uint_eq(reductions[1], 0);
  ck_assert_uint_eq(reductions[2], 0);
}
END_TEST

/* The statistics table names every field of twill_sat_stats once, and
 * twill_sat_stat_value reads the field the row names (each field set to a
 * different value by its name here, the row's name mapped back by hand). */
START_TEST(stats_table_fields) {
  twill_sat_stats st = {0};
  st.conflicts = 1, st.decisions = 2, st.propagations = 3, st.restarts = 4;
  st.reductions = 5, st.learned = 6, st.deleted = 7, st.learned_literals = 8;
  st.minimized_literals = 9, st.clauses = 10, st.learnts = 11;
  const char *names[] = {"conflicts", "decisions", "propagations", "restarts",
                         "reductions", "learned", "deleted", "learned-literals",
                         "minimized-literals", "clauses", "learnts"};
  int n = 0;
  for (; twill_sat_stat(n); n++) {
    int want = 0;
    for (int k = 0; k < 11; k++)
      if (!strcmp(names[k], twill_sat_stat(n)->name)) want = k + 1;
    ck_assert_msg(want, "unknown statistic %s", twill_sat_stat(n)->name);
    ck_assert_uint_eq(twill_sat_stat_value(&st, n), (uint64_t)want);
  }
  ck_assert_int_eq(n, 11);
  ck_assert_int_eq((int)sizeof st, 11 * (int)sizeof(uint64_t));
}
END_TEST

/* `twill sat` on 3 variables and no clauses: each variable is decided once
 * (3 decisions) and each decision propagated once (3 propagations), nothing
 * else happens; the statistics lines keep their layout and the model
 * follows the phase option.  Bad --opt values are usage errors. */
START_TEST(cli_sat_options_and_stats) {
  char *cnf = write_tmp("p cnf 3 0\n");
  char *out = NULL, *err = NULL;
  const char *a1[] = {"sat", cnf, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a1), 10);
  ck_assert_str_eq(out,
                   "c variables 3 clauses 0\n"
                   "c conflicts 0 decisions 3 propagations 3\n"
                   "c restarts 0 reductions 0 learned 0 deleted 0\n"
                   "c learned-literals 0 minimized-literals 0\n"
                   "s SATISFIABLE\nv -1 -2 -3 0\n");
  free(out);
  free(err);
  const char *a2[] = {"sat", cnf, "--opt", "phase=1", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a2), 10);
  ck_assert_ptr_nonnull(strstr(out, "s SATISFIABLE\nv 1 2 3 0\n"));
  free(out);
  free(err);
  const char *a3[] = {"sat", cnf, "--option", "phase=1", "--opt", "seed=5", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a3), 10);
  ck_assert_ptr_nonnull(strstr(out, "s SATISFIABLE\nv 1 2 3 0\n"));
  free(out);
  free(err);
  const char *bad[][2] = {{"restart=3", "option 'restart' expects an integer in [0, 2], got '3'"},
                          {"phase=", "option 'phase' expects an integer in [0, 1], got ''"},
                          {"seed=12x", "option 'seed' expects an integer"},
                          {"frob=1", "unknown solver option 'frob'"},
                          {"phase", "--opt expects NAME=VALUE, got 'phase'"}};
  for (int i = 0; i < 5; i++) {
    const char *a[] = {"sat", cnf, "--opt", bad[i][0], NULL};
    ck_assert_int_eq(tu_run_twill(&out, &err, a), 1);
    ck_assert_msg(strstr(err, bad[i][1]), "--opt %s: stderr '%s'", bad[i][0], err);
    free(out);
    free(err);
  }
  /* `twill help sat` lists every row of the table with its range */
  const char *h[] = {"help", "sat", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, h), 0);
  for (int i = 0; twill_sat_option(i); i++) {
    const twill_sat_option_info *o = twill_sat_option(i);
    char want[128];
    snprintf(want, sizeof want, "  %-14s %lld, [%lld, %lld]\n", o->name, (long long)o->def,
             (long long)o->lo, (long long)o->hi);
    ck_assert_msg(strstr(out, want), "help lacks '%s'", want);
    ck_assert_ptr_nonnull(strstr(out, o->help));
  }
  free(out);
  free(err);
  unlink(cnf);
  free(cnf);
}
END_TEST

/* ------------------------------------------- invariants (debug builds) */

#ifndef NDEBUG
/* Theories that break the contract of twill/sat.h, which a debug build
 * (asserts compiled in, no NDEBUG) must catch with an assert (SIGABRT)
 * instead of searching on.  Release builds leave these tests out. */

/* When 1 is true, report {1, 2} as a conflict: 1 is not false. */
static int liar_conflict(void *ctx, twill_sat *s, const int *lits, int n) {
  (void)ctx;
  for (int i = 0; i < n; i++)
    if (lits[i] == 1) {
      int cl[2] = {1, 2};
      twill_sat_theory_conflict(s, cl, 2);
    }
  return 0;
}

START_TEST(debug_asserts_theory_conflict_contract) {
  twill_sat *s = twill_sat_new();
  twill_sat_theory th = {NULL, liar_conflict, NULL, NULL};
  twill_sat_set_theory(s, &th);
  twill_sat_new_var(s);
  twill_sat_new_var(s);
  twill_sat_assume(s, 1);
  ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr)); /* the expected message */
  twill_sat_solve(s); /* the assert in twill_sat_theory_conflict aborts */
  twill_sat_free(s);
}
END_TEST

/* When 1 is true, imply 2 and explain it by {2, 1}: the other literal of an
 * explanation must be false, and 1 is true.  With (-1 4)(-2 -4 5)(-2 -4 -5),
 * assuming 1 gives 4 (nothing else), the theory's 2 then gives 5 and a
 * conflict; 2 is not the first UIP (1 reaches the conflict through 4 too),
 * so conflict analysis asks for its reason. */
static int imply_2(void *ctx, twill_sat *s, const int *lits, int n) {
  (void)ctx;
  for (int i = 0; i < n; i++)
    if (lits[i] == 1) twill_sat_theory_imply(s, 2);
  return 0;
}

static int liar_explain(void *ctx, int lit, const int **clause) {
  static const int cl[2] = {2, 1};
  (void)ctx;
  ck_assert_int_eq(lit, 2);
  *clause = cl;
  return 2;
}

START_TEST(debug_asserts_theory_explain_contract) {
  twill_sat *s = twill_sat_new();
  twill_sat_theory th = {NULL, imply_2, liar_explain, NULL};
  twill_sat_set_theory(s, &th);
  int c1[2] = {-1, 4}, c2[3] = {-2, -4, 5}, c3[3] = {-2, -4, -5};
  twill_sat_add_clause(s, c1, 2);
  twill_sat_add_clause(s, c2, 3);
  twill_sat_add_clause(s, c3, 3);
  twill_sat_assume(s, 1);
  ck_assert_ptr_nonnull(freopen("/dev/null", "w", stderr));
  twill_sat_solve(s); /* the assert in explain_lazy aborts */
  twill_sat_free(s);
}
END_TEST
#endif

static Suite *make_suite(void) {
  load_answers();
  Suite *s = suite_create("sat");
  TCase *t = tcase_create("core");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, dimacs_errors);
  tcase_add_test(t, dimacs_accepts);
  tcase_add_test(t, drat_checker_hand_proofs);
  tcase_add_test(t, lrat_checker_hand_proofs);
  tcase_add_test(t, corrupted_solver_proof);
  tcase_add_test(t, assumptions_and_failed);
  tcase_add_test(t, random_incremental);
  tcase_add_test(t, conflict_limit);
  tcase_add_test(t, time_limit);
  tcase_add_test(t, interrupt_from_thread);
  tcase_add_test(t, theory_hook_vs_brute_force);
  tcase_add_loop_test(t, random_vs_brute_force, 0, 3);
  tcase_add_test(t, random_medium_self_consistent);
  tcase_add_test(t, cli_sat_unsat_and_check);
  tcase_add_test(t, cli_sat_model_and_errors);
  tcase_add_test(t, option_table_ranges);
  tcase_add_test(t, options_take_effect);
  tcase_add_test(t, stats_table_fields);
  tcase_add_test(t, cli_sat_options_and_stats);
#ifndef NDEBUG
  /* a debug build: its asserts must stop a theory that breaks the
   * contract (not under valgrind, which runs without fork: the abort would
   * end the whole suite) */
  if (!tu_under_valgrind()) {
    tcase_add_test_raise_signal(t, debug_asserts_theory_conflict_contract, SIGABRT);
    tcase_add_test_raise_signal(t, debug_asserts_theory_explain_contract, SIGABRT);
  }
#endif
  suite_add_tcase(s, t);
  TCase *u = tcase_create("suite");
  tcase_set_timeout(u, 120);
  tcase_add_test(u, suite_is_present);
  tcase_add_loop_test(u, suite_instance, 0, ninsts);
  suite_add_tcase(s, u);
  return s;
}

TWILL_CHECK_MAIN
