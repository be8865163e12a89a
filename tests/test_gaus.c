/* tests/test_gaus.c: GauS (core/gaus*.c): gradients against central finite
 * differences, legality of legalized schedules, II against a brute-force
 * optimum, determinism across thread counts, the GML/AIG readers and the
 * command. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "testutil.h"
#include "twill/gaus.h"

/* ---- a small deterministic RNG and random problems ---------------------- */

static unsigned long long rng_state;
static unsigned long long rnd(void) {
  unsigned long long z = (rng_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static double urand(void) { return (double)(rnd() >> 11) / 9007199254740992.0; }
static int irand(int lo, int hi) { return lo + (int)(rnd() % (unsigned)(hi - lo + 1)); }

/* n ops, forward edges with probability dens, back edges with distance 1-2,
 * nunits units of capacity 1-3, up to 2 uses per op. */
static twill_gaus_problem *rand_problem(int n, double dens, int nback,
                                        int nunits, int maxlat) {
  int ne = 0, cap_e = n * 4 + nback + 1;
  int *es = malloc((size_t)cap_e * sizeof(int)), *ed = malloc((size_t)cap_e * sizeof(int));
  for (int j = 1; j < n; j++) {
    int k = 0;
    for (int i = j - 1; i >= 0 && k < 4; i--)
      if (urand() < dens) {
        es[ne] = i, ed[ne] = j, ne++, k++;
      }
  }
  int nfwd = ne;
  for (int b = 0; b < nback && n > 1; b++) {
    int i = irand(1, n - 1), j = irand(i > 8 ? i - 8 : 0, i - 1); /* local loops */
    es[ne] = i, ed[ne] = j, ne++;
  }
  int nuses = 0;
  int *nu = malloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; i++)
    nuses += (nu[i] = irand(0, nunits < 2 ? nunits : 2));
  twill_gaus_problem *p = twill_gaus_problem_new(n, ne, nunits, nuses);
  ck_assert_ptr_nonnull(p);
  int u = 0;
  for (int i = 0; i < n; i++) {
    p->lat[i] = irand(0, maxlat);
    p->w[i] = 0.5 + 2.5 * urand();
    p->uoff[i] = u;
    int base = nunits ? irand(0, nunits - 1) : 0;
    for (int k = 0; k < nu[i]; k++, u++) { /* distinct units: always fits */
      p->uunit[u] = (base + k) % nunits;
      p->uoffset[u] = irand(0, 1);
      p->ucycles[u] = irand(1, 2);
      p->ucount[u] = 1;
    }
  }
  p->uoff[n] = u;
  for (int r = 0; r < nunits; r++) p->cap[r] = irand(1, 3);
  for (int e = 0; e < ne; e++) {
    p->esrc[e] = es[e];
    p->edst[e] = ed[e];
    p->elat[e] = e < nfwd ? p->lat[es[e]] : irand(1, maxlat + 1);
    p->edist[e] = e < nfwd ? 0 : irand(1, 2);
    p->ecost[e] = (double)irand(0, 2) + (urand() < 0.5 ? 0.5 : 0);
  }
  ck_assert_int_eq(twill_gaus_problem_finish(p), 0);
  free(es);
  free(ed);
  free(nu);
  return p;
}

/* ---- finite-difference gradient checks ---------------------------------- */

/* Central differences with h = 1e-6 on every mu_i and s_i.  The loss is
 * smooth except at measure-zero kinks (ReLU at U = C and at the horizon;
 * the random points avoid them with probability 1).  Truncation error is
 * O(h^2 f''') ~ 1e-10 and roundoff O(eps |f| / h) ~ 1e-10 |f| for |f| up
 * to 1e3, so 1e-5 relative to max(1, |grad|) leaves two orders of
 * magnitude of room while catching any wrong term (errors are O(1)). */
static void fd_check(twill_gaus_problem *p, char form, int mask, long D,
                     long ii) {
  twill_gaus_opts o;
  twill_gaus_opts_default(&o);
  o.form = form;
  o.tau = 0.7;
  o.alpha = 0.8;
  twill_gaus_model *m = twill_gaus_model_new(p, &o, D, ii);
  ck_assert_ptr_nonnull(m);
  double *lam = twill_gaus_model_lambda(m);
  for (int k = 0; k < twill_gaus_model_nmult(m); k++) lam[k] = 2 * urand();
  twill_gaus_model_set_rho(m, 1.5);
  double *mu = twill_gaus_model_mu(m), *s = twill_gaus_model_s(m);
  int n = p->n;
  for (int i = 0; i < n; i++) {
    mu[i] = -1.0 + (double)(D + 1) * urand(); /* some outside the horizon */
    s[i] = -1.5 + 2.5 * urand();
  }
  double *gm = calloc((size_t)n, sizeof(double)), *gs = calloc((size_t)n, sizeof(double));
  twill_gaus_terms t;
  double f0 = twill_gaus_eval(m, mask, gm, gs, &t);
  ck_assert(isfinite(f0));
  const double h = 1e-6;
  for (int which = 0; which < 2; which++)
    for (int i = 0; i < n; i++) {
      double *x = which ? &s[i] : &mu[i];
      double x0 = *x;
      *x = x0 + h;
      double fp = twill_gaus_eval(m, mask, NULL, NULL, NULL);
      *x = x0 - h;
      double fm = twill_gaus_eval(m, mask, NULL, NULL, NULL);
      *x = x0;
      double num = (fp - fm) / (2 * h);
      double an = which ? gs[i] : gm[i];
      double tol = 1e-5 * fmax(1.0, fmax(fabs(an), fabs(num)));
      ck_assert_msg(fabs(num - an) <= tol,
                    "form %c mask %d d/d%s[%d]: analytic %.10g numeric %.10g",
                    form, mask, which ? "s" : "mu", i, an, num);
    }
  free(gm);
  free(gs);
  twill_gaus_model_free(m);
}

static void fd_form(char form, const int *masks, int nm) {
  int reps = tu_under_valgrind() ? 1 : 6;
  for (int rep = 0; rep < reps; rep++) {
    rng_state = 1000 + (unsigned long long)rep * 77 + (unsigned long long)form;
    twill_gaus_problem *p = rand_problem(irand(4, 10), 0.4, 3, 2, 3);
    for (int k = 0; k < nm; k++) fd_check(p, form, masks[k], 12, 3 + rep % 3);
    fd_check(p, form, TWILL_GAUS_ALL, 12, 3);
    twill_gaus_problem_free(p);
  }
}

START_TEST(fd_formulation_a) {
  int masks[] = {TWILL_GAUS_DEP, TWILL_GAUS_LAT, TWILL_GAUS_RES, TWILL_GAUS_CAP,
                 TWILL_GAUS_COM};
  fd_form('A', masks, 5);
}
END_TEST

START_TEST(fd_formulation_b) {
  int masks[] = {TWILL_GAUS_DEP, TWILL_GAUS_LAT, TWILL_GAUS_MEM};
  fd_form('B', masks, 3);
}
END_TEST

START_TEST(fd_formulation_c) {
  int masks[] = {TWILL_GAUS_DEP, TWILL_GAUS_LAT, TWILL_GAUS_CAP, TWILL_GAUS_MEM};
  fd_form('C', masks, 4);
}
END_TEST


/* ---- legality, optimality, determinism ---------------------------------- */

static void solve_legal(twill_gaus_problem *p, char form, long iters,
                        int threads, twill_gaus_result *r) {
  twill_gaus_opts o;
  twill_gaus_opts_default(&o);
  o.form = form;
  o.iters = iters;
  o.threads = threads;
  o.legalize_every = 50;
  ck_assert_int_eq(twill_gaus_solve(p, &o, r, stderr), 0);
  if (getenv("GAUS_DEBUG"))
    fprintf(stderr, "n %d form %c ii %ld steps %ld s/step %.3g\n", p->n, form,
            r->ii, r->steps, r->seconds_per_step);
  char why[200];
  ck_assert_msg(twill_gaus_check(p, r->t, r->ii, why, sizeof why) == 0,
                "illegal: %s", why);
  ck_assert_int_ge(r->ii, 1);
}

START_TEST(legal_on_random_graphs) {
  int sizes[] = {10, 50, 200, 2000};
  int ns = tu_under_valgrind() ? 2 : 4;
  const char forms[] = "ABC";
  for (int k = 0; k < ns; k++)
    for (int f = 0; f < 3; f++) {
      rng_state = 5000 + (unsigned long long)k * 13 + (unsigned long long)f;
      int n = sizes[k];
      twill_gaus_problem *p = rand_problem(n, 0.3, n / 10 + 1, 2, 3);
      twill_gaus_result r;
      solve_legal(p, forms[f], n >= 2000 ? 60 : 150, 2, &r);
      twill_gaus_result_free(&r);
      twill_gaus_problem_free(p);
    }
}
END_TEST

/* Brute force: the smallest II with a legal modulo schedule.  For fixed
 * slots s_i = t_i mod II the resource check is exact, and the start times
 * t_i = s_i + II k_i exist iff the integer difference constraints
 * k_j - k_i >= ceil((lat - II dist - s_j + s_i) / II) have no positive
 * cycle (Bellman-Ford).  s_0 = 0 w.l.o.g. (shifting all slots is a
 * symmetry). */
static long cdiv(long a, long b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

static int kfeasible(const twill_gaus_problem *p, long ii, const long *s) {
  long k[16] = {0};
  for (int sweep = 0; sweep <= p->n + 1; sweep++) {
    int ch = 0;
    for (int e = 0; e < p->ne; e++) {
      int i = p->esrc[e], j = p->edst[e];
      long w = cdiv(p->elat[e] - ii * p->edist[e] - s[j] + s[i], ii);
      if (k[j] < k[i] + w) k[j] = k[i] + w, ch = 1;
    }
    if (!ch) return 1;
  }
  return 0;
}

static int bf_dfs(const twill_gaus_problem *p, long ii, long *s, int i,
                  double *mrt) {
  if (i == p->n) return kfeasible(p, ii, s);
  for (long v = 0; v < (i == 0 ? 1 : ii); v++) {
    int ok = 1;
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
      for (int c = 0; c < p->ucycles[u]; c++)
        mrt[(long)p->uunit[u] * ii + (v + p->uoffset[u] + c) % ii] += p->ucount[u];
    for (int r = 0; r < p->nunits; r++)
      for (long q = 0; q < ii; q++)
        if (mrt[r * ii + q] > p->cap[r]) ok = 0;
    s[i] = v;
    if (ok && bf_dfs(p, ii, s, i + 1, mrt)) ok = 2;
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++)
      for (int c = 0; c < p->ucycles[u]; c++)
        mrt[(long)p->uunit[u] * ii + (v + p->uoffset[u] + c) % ii] -= p->ucount[u];
    if (ok == 2) return 1;
  }
  return 0;
}

static long brute_ii(const twill_gaus_problem *p) {
  for (long ii = 1;; ii++) {
    long s[16];
    double *mrt = calloc((size_t)(p->nunits * ii + 1), sizeof(double));
    int f = bf_dfs(p, ii, s, 0, mrt);
    free(mrt);
    if (f) return ii;
  }
}

START_TEST(ii_against_brute_force) {
  int reps = tu_under_valgrind() ? 2 : 12;
  for (int rep = 0; rep < reps; rep++) {
    rng_state = 9000 + (unsigned long long)rep;
    twill_gaus_problem *p = rand_problem(irand(4, 7), 0.35, 2, 1, 2);
    long opt = brute_ii(p);
    ck_assert_int_ge(opt, twill_gaus_mii(p)); /* MII is a lower bound */
    twill_gaus_result r;
    solve_legal(p, 'C', 200, 1, &r);
    ck_assert_msg(r.ii <= 2 * opt, "rep %d: II %ld > 2 x optimum %ld", rep,
                  r.ii, opt);
    twill_gaus_result_free(&r);
    twill_gaus_problem_free(p);
  }
}
END_TEST

START_TEST(threads_are_bit_identical) {
  const char forms[] = "ABC";
  int n = tu_under_valgrind() ? 300 : 1000;
  for (int f = 0; f < 3; f++) {
    rng_state = 777 + (unsigned long long)f;
    twill_gaus_problem *p = rand_problem(n, 0.3, n / 20, 2, 3);
    twill_gaus_result r1, r2;
    solve_legal(p, forms[f], 40, 1, &r1);
    solve_legal(p, forms[f], 40, 3, &r2);
    ck_assert_int_eq(r1.ii, r2.ii);
    ck_assert(!memcmp(r1.mu, r2.mu, (size_t)n * sizeof(double)));
    ck_assert(!memcmp(r1.sigma, r2.sigma, (size_t)n * sizeof(double)));
    ck_assert(!memcmp(r1.t, r2.t, (size_t)n * sizeof(long)));
    twill_gaus_result_free(&r1);
    twill_gaus_result_free(&r2);
    twill_gaus_problem_free(p);
  }
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("gaus");
  TCase *tc = tcase_create("gradients");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, fd_formulation_a);
  tcase_add_test(tc, fd_formulation_b);
  tcase_add_test(tc, fd_formulation_c);
  suite_add_tcase(s, tc);
  TCase *tl = tcase_create("legal");
  tcase_set_timeout(tl, 120);
  tcase_add_test(tl, legal_on_random_graphs);
  tcase_add_test(tl, ii_against_brute_force);
  tcase_add_test(tl, threads_are_bit_identical);
  suite_add_tcase(s, tl);
  return s;
}

TWILL_CHECK_MAIN
