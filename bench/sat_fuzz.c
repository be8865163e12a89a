/* bench/sat_fuzz.c: self-tester for twill's SAT solver (not part of
 * `make check`).
 *
 * Generates random CNFs (uniform k-SAT near the threshold, mixed widths,
 * with and without units/duplicates), and
 *   - small ones (<= 14 variables): compares the answer with brute force,
 *     also under random assumptions (failed assumptions must be a core);
 *   - larger ones: runs the solver under 4 option sets (seeds, Luby/EMA
 *     restarts, minimization on/off, phases, no reduction) which must
 *     agree;
 *   - checks every model against every clause and every refutation with
 *     the in-tree checkers (text DRAT, binary DRAT, LRAT in rotation).
 * On a failure it shrinks the formula by delta debugging (clauses, then
 * literals) while the same failure kind persists, and writes it to
 * OUTDIR/sat_fuzz_fail_<seed>_<n>.cnf.
 *
 * Build (from the repository root; no Makefile change needed):
 *   cc -std=c11 -O2 -g -Iinclude -D_POSIX_C_SOURCE=200809L \
 *      bench/sat_fuzz.c sat/solver.c sat/drat_check.c -o build/sat_fuzz -lm
 * Run:
 *   build/sat_fuzz [--seconds S] [--seed N] [--max-vars V] [--out DIR]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "twill/dimacs.h"
#include "twill/sat.h"

typedef struct {
  int nvars;
  int **cl; /* each clause: cl[i][0] = size, then literals */
  int ncl;
} formula;

static uint64_t rs;
static uint64_t rng(void) {
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}
static int rint_(int n) { return (int)(rng() % (uint64_t)n); }

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "sat_fuzz: out of memory\n");
    exit(2);
  }
  return p;
}

static void f_free(formula *f) {
  for (int i = 0; i < f->ncl; i++) free(f->cl[i]);
  free(f->cl);
  f->cl = NULL;
  f->ncl = 0;
}

static formula f_copy(const formula *f) {
  formula g = {f->nvars, xmalloc(sizeof(int *) * (size_t)f->ncl), f->ncl};
  for (int i = 0; i < f->ncl; i++) {
    g.cl[i] = xmalloc(sizeof(int) * (size_t)(f->cl[i][0] + 1));
    memcpy(g.cl[i], f->cl[i], sizeof(int) * (size_t)(f->cl[i][0] + 1));
  }
  return g;
}

static formula gen(int maxv) {
  formula f;
  int kind = rint_(4);
  int n = kind == 0 ? 1 + rint_(14) : 5 + rint_(maxv);
  double ratio = kind == 3 ? 4.26 : 1.0 + (double)rint_(60) / 10.0;
  int k = kind == 3 ? 3 : 2 + rint_(3);
  int m = (int)(ratio * n) + 1;
  f.nvars = n;
  f.ncl = m;
  f.cl = xmalloc(sizeof(int *) * (size_t)m);
  for (int i = 0; i < m; i++) {
    int w = kind == 1 ? 1 + rint_(k + 2) : k;
    if (kind == 2 && rint_(50) == 0) w = 1;
    f.cl[i] = xmalloc(sizeof(int) * (size_t)(w + 1));
    f.cl[i][0] = w;
    for (int j = 1; j <= w; j++) {
      int v = 1 + rint_(n);
      f.cl[i][j] = rint_(2) ? v : -v;
    }
  }
  return f;
}

static char *f_text(const formula *f, size_t *len) {
  char *b = NULL;
  FILE *m = open_memstream(&b, len);
  if (!m) exit(2);
  fprintf(m, "p cnf %d %d\n", f->nvars, f->ncl);
  for (int i = 0; i < f->ncl; i++) {
    for (int j = 1; j <= f->cl[i][0]; j++) fprintf(m, "%d ", f->cl[i][j]);
    fprintf(m, "0\n");
  }
  fclose(m);
  return b;
}

static int brute(const formula *f, const int *as, int na) {
  if (f->nvars > 20) return -1;
  for (uint32_t x = 0; x < (1u << f->nvars); x++) {
    int ok = 1;
    for (int a = 0; a < na && ok; a++)
      if ((as[a] > 0) != (int)((x >> (abs(as[a]) - 1)) & 1)) ok = 0;
    for (int i = 0; i < f->ncl && ok; i++) {
      int sat = 0;
      for (int j = 1; j <= f->cl[i][0] && !sat; j++) {
        int l = f->cl[i][j];
        if ((l > 0) == (int)((x >> (abs(l) - 1)) & 1)) sat = 1;
      }
      ok = sat;
    }
    if (ok) return 1;
  }
  return 0;
}

enum { OK = 0, F_BRUTE, F_DISAGREE, F_MODEL, F_PROOF, F_UNKNOWN, F_CORE };
static const char *fail_name[] = {"ok", "differs from brute force", "option sets disagree",
                                  "model violates a clause", "proof rejected",
                                  "unknown without a limit", "failed assumptions not a core"};

static int run(const formula *f, int cfg, int fmt, const int *as, int na, int *status,
               int *core, int *ncore) {
  char *pb = NULL;
  size_t pl = 0;
  FILE *pf = na ? NULL : open_memstream(&pb, &pl);
  twill_sat *s = twill_sat_new();
  if (!s) exit(2);
  if (pf) twill_sat_set_proof(s, pf, fmt);
  if (cfg) {
    twill_sat_set_option(s, "seed", cfg * 7919);
    twill_sat_set_option(s, "restart", cfg % 3);
    twill_sat_set_option(s, "minimize", !(cfg & 2));
    twill_sat_set_option(s, "phase", (cfg >> 2) & 1);
    twill_sat_set_option(s, "reduce", cfg != 3);
  }
  for (int v = 0; v < f->nvars; v++) twill_sat_new_var(s);
  for (int i = 0; i < f->ncl; i++) twill_sat_add_clause(s, f->cl[i] + 1, f->cl[i][0]);
  for (int a = 0; a < na; a++) twill_sat_assume(s, as[a]);
  int r = twill_sat_solve(s);
  if (pf) fclose(pf);
  *status = r;
  int res = OK;
  if (r == 0) res = F_UNKNOWN;
  if (r == 10) {
    for (int i = 0; i < f->ncl && !res; i++) {
      int sat = 0;
      for (int j = 1; j <= f->cl[i][0]; j++)
        if (twill_sat_value(s, f->cl[i][j]) == 1) sat = 1;
      if (!sat) res = F_MODEL;
    }
    for (int a = 0; a < na; a++)
      if (twill_sat_value(s, as[a]) != 1) res = F_MODEL;
  }
  if (r == 20 && na && core) {
    *ncore = 0;
    for (int a = 0; a < na; a++)
      if (twill_sat_failed(s, as[a])) core[(*ncore)++] = as[a];
  }
  if (r == 20 && pf) {
    size_t cl;
    char *ct = f_text(f, &cl);
    char msg[256];
    int ok = fmt == TWILL_PROOF_LRAT ? twill_lrat_check(ct, cl, pb, pl, msg, sizeof msg)
                                     : twill_drat_check(ct, cl, pb, pl, msg, sizeof msg);
    if (ok != 1) res = F_PROOF;
    free(ct);
  }
  twill_sat_free(s);
  free(pb);
  return res;
}

static int assumptions_seed;

/* Full test of one formula; returns a failure kind. */
static int test(const formula *f, uint64_t salt) {
  int st0;
  int res = run(f, 0, (int)(salt % 3), NULL, 0, &st0, NULL, NULL);
  if (res) return res;
  int b = f->nvars <= 14 ? brute(f, NULL, 0) : -1;
  if (b >= 0 && (b ? 10 : 20) != st0) return F_BRUTE;
  for (int cfg = 1; cfg <= 3; cfg++) {
    int st;
    res = run(f, cfg, (int)((salt + (uint64_t)cfg) % 3), NULL, 0, &st, NULL, NULL);
    if (res) return res;
    if (st != st0) return F_DISAGREE;
  }
  if (b == 1 && f->nvars <= 14) {
    /* assumptions: derived from salt so that shrinking replays them */
    uint64_t save = rs;
    rs = salt * 2654435761u + (uint64_t)assumptions_seed + 1;
    for (int t = 0; t < 3; t++) {
      int as[5], na = 1 + rint_(5), core[5], nc = 0, st;
      for (int a = 0; a < na; a++) {
        int v = 1 + rint_(f->nvars);
        as[a] = rint_(2) ? v : -v;
      }
      res = run(f, t, 0, as, na, &st, core, &nc);
      if (res) break;
      int e = brute(f, as, na) ? 10 : 20;
      if (e != st) {
        res = F_BRUTE;
        break;
      }
      if (st == 20 && (nc == 0 || brute(f, core, nc))) {
        res = F_CORE;
        break;
      }
    }
    rs = save;
  }
  return res;
}

/* ddmin-style shrinking over clauses, then literals. */
static void shrink(formula *f, int kind, uint64_t salt) {
  int chunk = f->ncl / 2;
  while (chunk >= 1) {
    int progress = 0;
    for (int start = 0; start < f->ncl;) {
      formula g = {f->nvars, xmalloc(sizeof(int *) * (size_t)f->ncl), 0};
      for (int i = 0; i < f->ncl; i++)
        if (i < start || i >= start + chunk) g.cl[g.ncl++] = f->cl[i];
      if (g.ncl < f->ncl && test(&g, salt) == kind) {
        for (int i = start; i < start + chunk && i < f->ncl; i++) free(f->cl[i]);
        free(f->cl);
        *f = g;
        progress = 1;
      } else {
        free(g.cl);
        start += chunk;
      }
    }
    if (!progress) chunk /= 2;
  }
  for (int i = 0; i < f->ncl; i++)
    for (int j = 1; j <= f->cl[i][0] && f->cl[i][0] > 1;) {
      int saved = f->cl[i][j];
      int n = f->cl[i][0];
      f->cl[i][j] = f->cl[i][n];
      f->cl[i][0] = n - 1;
      if (test(f, salt) == kind)
        continue;
      f->cl[i][0] = n;
      f->cl[i][j] = saved;
      j++;
    }
}

int main(int argc, char **argv) {
  double seconds = 60;
  uint64_t seed = 1;
  int maxv = 200;
  const char *out = ".";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--max-vars") && i + 1 < argc) maxv = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else {
      fprintf(stderr, "usage: sat_fuzz [--seconds S] [--seed N] [--max-vars V] [--out DIR]\n");
      return 1;
    }
  }
  if (maxv < 1) maxv = 1;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  long n = 0, nsat = 0, nunsat = 0, nfail = 0;
  rs = seed * 0x9E3779B97F4A7C15ull + 1;
  assumptions_seed = (int)seed;
  for (;;) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > seconds) break;
    formula f = gen(maxv);
    uint64_t salt = rng();
    int kind = test(&f, salt);
    n++;
    if (kind) {
      nfail++;
      formula g = f_copy(&f);
      shrink(&g, kind, salt);
      char path[512];
      snprintf(path, sizeof path, "%s/sat_fuzz_fail_%llu_%ld.cnf", out, (unsigned long long)seed, n);
      FILE *o = fopen(path, "w");
      if (o) {
        size_t len;
        char *txt = f_text(&g, &len);
        fprintf(o, "c sat_fuzz: %s (salt %llu)\n", fail_name[kind], (unsigned long long)salt);
        fwrite(txt, 1, len, o);
        free(txt);
        fclose(o);
      }
      printf("FAIL %s: formula %ld (%d vars, %d clauses) shrunk to %d clauses: %s\n",
             fail_name[kind], n, f.nvars, f.ncl, g.ncl, path);
      fflush(stdout);
      f_free(&g);
    } else {
      int st;
      run(&f, 0, 0, NULL, 0, &st, NULL, NULL);
      if (st == 10) nsat++;
      else nunsat++;
    }
    f_free(&f);
  }
  printf("sat_fuzz: %ld formulas (%ld SAT, %ld UNSAT), %ld failures, seed %llu\n", n, nsat,
         nunsat, nfail, (unsigned long long)seed);
  return nfail ? 1 : 0;
}
