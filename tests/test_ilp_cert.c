/* tests/test_ilp_cert.c: VIPR certificates written by ilp/cert/,
 * verified by the independent exact checker (twill_vipr_check_mem,
 * ilp/check/vipr_check.c, which shares no code with the solver).
 *
 * Certified: random small bounded MIPs (objective also compared with brute
 * force enumeration, the independent reason for the expected value), the
 * MIPLIB instances the suite test solves, infeasible MIPs, and the modulo-
 * scheduling programs of twill phase 1 at a feasible and an infeasible I.
 * Corrupted certificates (a multiplier changed, a branch dropped, a
 * solution value changed) must be rejected. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ilp/exact/exact_basis.h"
#include "../ilp/exact/exact_point.h"
#include "../ilp/exact/qsys.h"
#include "check_main.h"
#include "testutil.h"
#include "twill/ilp.h"
#include "twill/modulo.h"
#include "twill/vipr.h"

#define INF TWILL_ILP_INF

/* Solve m with certify on, write its certificate (must succeed), check it
 * (must verify).  Returns the certificate text (caller frees). */
/* A certificate's number (an integer or a fraction p/q, as the writer
 * prints them; a decimal too) as a double, *end after it. */
static double vnum(const char *s, char **end) {
  double x = strtod(s, end);
  if (**end == '/') {
    double q = strtod(*end + 1, end);
    if (q != 0) x /= q;
  }
  return x;
}

static int may_fail; /* a writer failure (-1) is allowed: returns NULL */

static char *certify(twill_ilp *m, twill_ilp_status want, const char *what) {
  twill_ilp_set_certify(m, 1);
  twill_ilp_status st = twill_ilp_solve(m);
  if ((int)want < 0)
    ck_assert_msg(st == TWILL_ILP_OPTIMAL || st == TWILL_ILP_INFEASIBLE, "%s: status %s", what,
                  twill_ilp_status_name(st));
  else
    ck_assert_msg(st == want, "%s: status %s, expected %s", what, twill_ilp_status_name(st),
                  twill_ilp_status_name(want));
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(f);
  int w = twill_ilp_write_vipr(m, f);
  fclose(f);
  if (w != 0 && may_fail) {
    free(buf);
    return NULL;
  }
  ck_assert_msg(w == 0, "%s: no certificate written", what);
  char msg[512];
  int rc = twill_vipr_check_mem(what, buf, len, msg, sizeof msg);
  ck_assert_msg(rc == 0, "%s: certificate not verified: %s", what, msg);
  return buf;
}

static void expect_rejected(const char *text, const char *what) {
  char msg[512];
  int rc = twill_vipr_check_mem(what, text, strlen(text), msg, sizeof msg);
  if (rc != 1 && getenv("TWILL_CERT_DUMP")) {
    char fn[256];
    snprintf(fn, sizeof fn, "%s-%s", getenv("TWILL_CERT_DUMP"), what);
    for (char *q = fn + strlen(getenv("TWILL_CERT_DUMP")); *q; q++) if (*q == ' ' || *q == '(' || *q == ')' || *q == '/') *q = '_';
    FILE *f = fopen(fn, "w");
    if (f) { fputs(text, f); fclose(f); }
  }
  ck_assert_msg(rc == 1, "%s: corrupted certificate accepted", what);
}

/* Corruptions.  Each returns a new string, or NULL when the certificate has
 * nothing of that kind. */

/* Number of terms of constraint i of the CON section (-1: a derived one). */
static int con_terms(const char *c, long i) {
  const char *p = strstr(c, "\nCON ");
  ck_assert_ptr_nonnull(p);
  long ncon = atol(p + 5);
  if (i >= ncon) return -1;
  p = strchr(p + 1, '\n') + 1;
  for (long k = 0; k < i; k++) p = strchr(p, '\n') + 1;
  const char *t = p;
  for (int f = 0; f < 3; f++) {  /* name, sense, rhs */
    while (*t == ' ') t++;
    while (*t && *t != ' ') t++;
  }
  return (int)strtol(t, NULL, 10);
}

/* Change a multiplier of a `lin` derivation: the first one in the file on
 * a constraint with a nonzero left-hand side (changing the multiplier of
 * an empty row would keep a valid proof); a digit is appended to its
 * decimal ("1" -> "17", "-0.5" -> "-0.57"). */
static char *bad_multiplier(const char *c) {
  const char *p = c;
  while ((p = strstr(p, "{ lin "))) {
    p += 6;
    char *q;
    long cnt = strtol(p, &q, 10);
    for (long t = 0; t < cnt; t++) {
      long i = strtol(q, &q, 10);
      while (*q == ' ') q++;
      const char *v = q;
      while (*q && *q != ' ' && *q != '\n') q++;
      if (con_terms(c, i) == 0) continue;
      (void)v;
      size_t k = (size_t)(q - c), n = strlen(c);
      char *out = malloc(n + 2);
      memcpy(out, c, k);
      out[k] = '7';
      memcpy(out + k + 1, c + k, n - k + 1);
      return out;
    }
  }
  return NULL;
}

/* Does derived line `ln` (a `lin`, or a `rnd` of one) use constraint a? */
static int uses(const char **line, int base, long d, long a) {
  for (int depth = 0; depth < 2 && d >= base; depth++) {
    const char *r = strchr(line[d - base], '{') + 2;
    if (strncmp(r, "lin", 3) && strncmp(r, "rnd", 3)) return 0;
    char *q;
    long cnt = strtol(r + 4, &q, 10), first = -1;
    for (long t = 0; t < cnt; t++) {
      long i = strtol(q, &q, 10);
      vnum(q, &q);
      if (i == a) return 1;
      if (!t) first = i;
    }
    if (strncmp(r, "rnd", 3)) return 0;
    d = first; /* rnd 1  k 1: look into k */
  }
  return 0;
}

/* Drop a branch: a `uns` of the tree (a line named D..., not a cut's C...
 * line, which the rest of the proof may never use) whose child derivation
 * uses the child's branching assumption directly is replaced by that child
 * alone (`lin 1  d 1`); the assumption then stays open to the end, so the
 * proof is incomplete. */
static char *drop_branch(const char *c) {
  const char *der = strstr(c, "\nDER ");
  const char *con = strstr(c, "\nCON ");
  if (!der || !con) return NULL;
  int nd = atoi(der + 5), base = atoi(con + 5);
  if (nd <= 0) return NULL;
  const char **line = calloc((size_t)nd, sizeof *line);
  ck_assert_ptr_nonnull(line);
  const char *p = strchr(der + 1, '\n');
  for (int k = 0; k < nd && p; k++) {
    line[k] = p + 1;
    p = strchr(p + 1, '\n');
  }
  char *out = NULL;
  for (int k = nd - 1; k >= 0 && !out; k--) {
    if (!line[k] || line[k][0] == 'C') continue;
    const char *r = strchr(line[k], '{');
    if (!r || strncmp(r, "{ uns ", 6)) continue;
    char *q;
    long d[2], a[2];
    d[0] = strtol(r + 6, &q, 10);
    a[0] = strtol(q, &q, 10);
    d[1] = strtol(q, &q, 10);
    a[1] = strtol(q, &q, 10);
    for (int s = 0; s < 2 && !out; s++) {
      if (!uses(line, base, d[s], a[s])) continue;
      char mid[64];
      snprintf(mid, sizeof mid, "{ lin 1  %ld 1 ", d[s]);
      const char *e = strchr(r, '}');
      size_t pre = (size_t)(r - c), n = strlen(c);
      out = malloc(n + sizeof mid);
      memcpy(out, c, pre);
      strcpy(out + pre, mid);
      strcat(out, e);
    }
  }
  free(line);
  return out;
}

/* A copy of c with the number at [p, e) replaced by x + add + rel |x|. */
static char *splice_number(const char *c, const char *p, const char *e, double add, double rel) {
  char val[128], *end;
  snprintf(val, sizeof val, "%.*s", (int)(e - p), p);
  double x = vnum(val, &end);
  char nv[160];
  snprintf(nv, sizeof nv, "%.17g", x + add + rel * fabs(x));
  size_t k = (size_t)(p - c), n = strlen(c);
  char *out = malloc(n + strlen(nv) + 1);
  ck_assert_ptr_nonnull(out);
  memcpy(out, c, k);
  strcpy(out + k, nv);
  strcat(out, e);
  return out;
}

/* Change the first value of the first solution by +1/2 (an integer
 * variable then has a fractional value). */
static char *bad_solution(const char *c) {
  const char *p = strstr(c, "\nSOL ");
  if (!p || p[5] == '0') return NULL;
  p = strchr(p + 1, '\n');
  if (!p) return NULL;
  p++;
  while (*p && *p != ' ') p++;     /* solution name */
  int cnt = (int)strtol(p, (char **)&p, 10);
  if (cnt < 1) return NULL;
  strtol(p, (char **)&p, 10);      /* variable index */
  while (*p == ' ') p++;
  const char *e = p;
  while (*e && *e != ' ' && *e != '\n') e++;
  return splice_number(c, p, e, 0.5, 0);
}

/* Raise the right-hand side of the first root cut (a C... line, `uns` of
 * its split) by 1/1000 of its magnitude plus 1e-3: both sides then fail to
 * dominate it. */
static char *bad_cut(const char *c) {
  const char *p = strstr(c, "\nDER ");
  while (p && (p = strstr(p, "\nC")) && !(p[2] >= '0' && p[2] <= '9')) p++;
  if (!p) return NULL;
  p++;
  const char *v = strchr(p, ' ');   /* after the name */
  if (!v) return NULL;
  v = strchr(v + 1, ' ');           /* after the sense */
  if (!v) return NULL;
  v++;
  const char *e = strchr(v, ' ');
  if (!e) return NULL;
  return splice_number(c, v, e, 1e-3, 1e-3);
}

/* Make the incumbent's cutoff (the `{ sol }` line that reduced-cost
 * fixings start from) stronger than the solution allows: lower its
 * right-hand side (a <= for min) by 1 plus 1/1000 of its magnitude, or
 * raise it (>= for max). */
static char *bad_cutoff(const char *c) {
  const char *q = strstr(c, " OBJ { sol }");
  if (!q) return NULL;
  const char *p = q;
  while (p > c && p[-1] != ' ') p--; /* the right-hand side */
  int le = p >= c + 2 && p[-2] == 'L';
  return splice_number(c, p, q, le ? -1 : 1, le ? -1e-3 : 1e-3);
}

/* b (a corrupted certificate, or NULL when c had nothing of that kind)
 * must be rejected; it is freed.  Returns 1 when there was one. */
static int rejected(char *b, const char *what, const char *kind) {
  if (!b) return 0;
  char name[160];
  snprintf(name, sizeof name, "%s (%s)", what, kind);
  expect_rejected(b, name);
  free(b);
  return 1;
}

static int corrupt_all(const char *c, const char *what, int sol) {
  int k = rejected(bad_multiplier(c), what, "multiplier");
  k += rejected(drop_branch(c), what, "branch dropped");
  k += rejected(bad_cut(c), what, "cut too strong");
  k += rejected(sol ? bad_solution(c) : NULL, what, "solution");
  k += rejected(bad_cutoff(c), what, "cutoff too strong");
  return k;
}

/* ---- random bounded MIPs vs brute force ---- */
static unsigned long long rng_state;
static int rnd(int lo, int hi) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return lo + (int)((rng_state >> 33) % (unsigned long long)(hi - lo + 1));
}

START_TEST(random_mips_certified) {
  int rounds = tu_under_valgrind() ? 10 : 400;
  int nopt = 0, ninf = 0, nuns = 0, nrej = 0, ncuts = 0, nfix = 0;
  rng_state = 987654321ull + (unsigned long long)_i;
  for (int t = 0; t < rounds; t++) {
    int n = rnd(2, 5), r = rnd(1, 4), U = rnd(1, 4);
    double A[4][5], lo[4], hi[4], c[5];
    twill_ilp *m = twill_ilp_new();
    int maxim = rnd(0, 1);
    for (int j = 0; j < n; j++) {
      c[j] = rnd(-6, 6);
      /* loop variant 1: fractional objective (no rounding of bounds) */
      if (_i == 1) c[j] /= 4;
      twill_ilp_add_var(m, NULL, _i == 2 && j == 0 ? TWILL_ILP_BINARY : TWILL_ILP_INTEGER, 0,
                        _i == 2 && j == 0 ? 1 : U, c[j]);
    }
    twill_ilp_set_maximize(m, maxim);
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < n; j++) A[i][j] = rnd(-4, 5);
      if (_i == 1) A[i][0] /= 2;
      int kind = rnd(0, 3), b = rnd(-4, 12);
      char sense = kind == 0 ? 'L' : kind == 1 ? 'G' : kind == 2 ? 'R' : 'E';
      double range = sense == 'R' ? rnd(0, 4) : 0;
      lo[i] = sense == 'L' ? -INF : b;
      hi[i] = sense == 'G' ? INF : sense == 'R' ? b + range : b;
      int idx[5];
      for (int j = 0; j < n; j++) idx[j] = j;
      ck_assert_int_ge(twill_ilp_add_row(m, NULL, n, idx, A[i], sense, b, range), 0);
    }
    double best = NAN;
    int pt[5] = {0}, ub[5];
    for (int j = 0; j < n; j++) ub[j] = _i == 2 && j == 0 ? 1 : U;
    for (;;) {
      int ok = 1;
      for (int i = 0; i < r && ok; i++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += A[i][j] * pt[j];
        ok = s >= lo[i] && s <= hi[i];
      }
      if (ok) {
        double z = 0;
        for (int j = 0; j < n; j++) z += c[j] * pt[j];
        if (isnan(best) || (maxim ? z > best : z < best)) best = z;
      }
      int j = 0;
      while (j < n && pt[j] == ub[j]) pt[j++] = 0;
      if (j == n) break;
      pt[j]++;
    }
    char what[64];
    snprintf(what, sizeof what, "random %d/%d", _i, t);
    char *cert = certify(m, isnan(best) ? TWILL_ILP_INFEASIBLE : TWILL_ILP_OPTIMAL, what);
    if (isnan(best)) {
      ninf++;
      ck_assert_ptr_nonnull(strstr(cert, "RTP infeas"));
    } else {
      nopt++;
      ck_assert_msg(fabs(twill_ilp_objective(m) - best) < 1e-9, "%s: %g vs brute force %g",
                    what, twill_ilp_objective(m), best);
    }
    if (strstr(cert, "{ uns ")) nuns++;
    if (strstr(cert, "{ sol }")) nfix++;
    twill_ilp_stats st;
    twill_ilp_get_stats(m, &st);
    if (st.cuts > 0) ncuts++;
    nrej += corrupt_all(cert, what, 1);
    free(cert);
    twill_ilp_free(m);
  }
  fprintf(stderr, "random MIPs (variant %d): %d optimal, %d infeasible, %d with a split (branching "
          "or cut), %d with root cuts, %d with reduced-cost fixings, %d corruptions rejected\n",
          _i, nopt, ninf, nuns, ncuts, nfix, nrej);
  ck_assert_int_gt(nopt, 0);
  ck_assert_int_gt(ncuts, 0); /* the cuts met the brute-force optimum, certified */
  ck_assert_int_gt(ninf, 0);
}
END_TEST

/* Whether the certificate's SOL point has a fractional value (a/b). */
static int fractional_sol(const char *c) {
  const char *s = strstr(c, "\nSOL 1\n");
  if (!s) return 0;
  s += 7;
  const char *e = strchr(s, '\n');
  for (; *s && s != e; s++)
    if (*s == '/') return 1;
  return 0;
}

/* Random MIPs with bounded continuous variables too (mixed): the
 * certificate alone is the check here (its RTP range holds the incumbent's
 * objective, which the checker recomputes). */
START_TEST(random_mixed_certified) {
  int rounds = tu_under_valgrind() ? 10 : 300, nopt = 0, nrej = 0, nunb = 0, nfail = 0;
  int nfrac = 0;
  rng_state = 4242 + (unsigned long long)_i;
  for (int t = 0; t < rounds; t++) {
    int n = rnd(2, 6), r = rnd(1, 5);
    twill_ilp *m = twill_ilp_new();
    for (int j = 0; j < n; j++) {
      int cont = rnd(0, 1);
      double lb = rnd(-3, 0), ub = rnd(1, 5);
      /* variant 1: continuous variables may lack a bound (the writer
       * then repairs residual reduced costs through a row) */
      if (_i == 1 && cont && rnd(0, 1)) {
        if (rnd(0, 1)) lb = -INF;
        else ub = INF;
      }
      twill_ilp_add_var(m, NULL, cont ? TWILL_ILP_CONTINUOUS : TWILL_ILP_INTEGER, lb, ub,
                        rnd(-9, 9) / 3.0);
    }
    twill_ilp_set_maximize(m, rnd(0, 1));
    for (int i = 0; i < r; i++) {
      double a[6];
      int idx[6];
      for (int j = 0; j < n; j++) { idx[j] = j; a[j] = rnd(-7, 7) / 2.0; }
      int kind = rnd(0, 2);
      char sense = kind == 0 ? 'L' : kind == 1 ? 'G' : 'E';
      ck_assert_int_ge(twill_ilp_add_row(m, NULL, n, idx, a, sense, rnd(-6, 9) / 4.0, 0), 0);
    }
    char what[64];
    snprintf(what, sizeof what, "mixed %d/%d", _i, t);
    if (_i == 1) {
      /* unbounded ones have no certificate: solve once to know */
      twill_ilp_status st = twill_ilp_solve(m);
      if (st == TWILL_ILP_UNBOUNDED) {
        nunb++;
        twill_ilp_free(m);
        continue;
      }
    }
    may_fail = _i == 1;
    char *c = certify(m, (twill_ilp_status)-1, what);
    may_fail = 0;
    if (!c) {
      nfail++;
      twill_ilp_free(m);
      continue;
    }
    nopt += twill_ilp_status_of(m) == TWILL_ILP_OPTIMAL;
    nfrac += strstr(c, " OBJ { sol }") && fractional_sol(c);
    nrej += corrupt_all(c, what, 0);
    free(c);
    twill_ilp_free(m);
  }
  fprintf(stderr, "random mixed MIPs (variant %d): %d/%d optimal, %d unbounded, %d without "
          "certificate, %d reduced-cost fixings from a fractional SOL, %d corruptions "
          "rejected\n", _i, nopt, rounds, nunb, nfail, nfrac, nrej);
  /* the fixings' cutoff from an exact fractional vertex (vipr_write.c's
   * decimal_near): without it mixed models are searched without fixings */
  if (!tu_under_valgrind()) ck_assert_int_gt(nfrac, 0);
  /* variant 1: residual reduced costs on unbounded variables are
   * projected away exactly (project() in ilp/cert/leaf.c) */
  ck_assert_int_eq(nfail, 0);
  ck_assert_int_gt(nopt, 0);
}
END_TEST

/* Random LPs (continuous only) whose variables are free, bounded on one
 * side only, or boxed: every optimal or infeasible one must get a
 * certificate that verifies (the reduced costs of unbounded variables are
 * exactly 0 or of the sign their finite bound allows). */
START_TEST(random_lp_unbounded_vars_certified) {
  int rounds = tu_under_valgrind() ? 10 : 400, nopt = 0, ninf = 0, nunb = 0, nfree = 0;
  rng_state = 777 + (unsigned long long)_i;
  for (int t = 0; t < rounds; t++) {
    int n = rnd(2, 7), r = rnd(1, 6);
    twill_ilp *m = twill_ilp_new();
    for (int j = 0; j < n; j++) {
      double lb = rnd(-4, 0), ub = rnd(1, 6);
      switch (rnd(0, 3)) {
      case 0: lb = -INF; ub = INF; nfree++; break;
      case 1: lb = -INF; break;
      case 2: ub = INF; break;
      default: break;
      }
      /* quarters, not thirds: the certificate states the data as decimals,
       * and with 0.3333333333333333 for 1/3 two proportional columns with
       * a free direction between them can be (exactly) unbounded in the
       * stated problem while the float LP has an optimum */
      twill_ilp_add_var(m, NULL, TWILL_ILP_CONTINUOUS, lb, ub, rnd(-9, 9) / 4.0);
    }
    twill_ilp_set_maximize(m, rnd(0, 1));
    for (int i = 0; i < r; i++) {
      double a[7];
      int idx[7];
      for (int j = 0; j < n; j++) { idx[j] = j; a[j] = rnd(0, 2) ? rnd(-7, 7) / 2.0 : 0; }
      int kind = rnd(0, 3);
      char sense = kind == 0 ? 'L' : kind == 1 ? 'G' : kind == 2 ? 'E' : 'R';
      ck_assert_int_ge(twill_ilp_add_row(m, NULL, n, idx, a, sense, rnd(-6, 9) / 4.0,
                                         sense == 'R' ? rnd(0, 4) : 0), 0);
    }
    twill_ilp_status st = twill_ilp_solve(m);
    if (st == TWILL_ILP_UNBOUNDED) {
      nunb++;
      twill_ilp_free(m);
      continue;
    }
    char what[64];
    snprintf(what, sizeof what, "lp-unbounded-vars %d/%d", _i, t);
    char *c = certify(m, st, what);
    nopt += st == TWILL_ILP_OPTIMAL;
    ninf += st == TWILL_ILP_INFEASIBLE;
    free(c);
    twill_ilp_free(m);
  }
  fprintf(stderr, "random LPs with unbounded variables (seed %d): %d optimal, %d infeasible, "
          "%d unbounded, %d free variables\n", 777 + _i, nopt, ninf, nunb, nfree);
  ck_assert_int_gt(nopt, 0);
  ck_assert_int_gt(ninf, 0);
}
END_TEST

/* ---- MIPLIB instances the suite test solves ---- */
/* flugpl: continuous variables with no upper bound, where the residual
 * reduced costs of the rounded duals are repaired through a row (see
 * repair() in ilp/cert/leaf.c). */
static const char *mip_files[] = {"p0033.mps", "flugpl.mps", "lseu.mps", "mod008.mps",
                                  "stein27.mps"};

START_TEST(miplib_certified) {
  if (tu_under_valgrind() && _i > 0) return;
  char rel[128], err[512];
  snprintf(rel, sizeof rel, "suites/mip/%s", mip_files[_i]);
  char *path = tu_data_path(rel);
  twill_ilp *m = twill_ilp_read_mps(path, err, sizeof err);
  free(path);
  ck_assert_msg(m != NULL, "%s", err);
  twill_ilp_set_time_limit(m, 120);
  char *cert = certify(m, TWILL_ILP_OPTIMAL, mip_files[_i]);
  /* corruptions on the smaller certificates only (checking mod008's 48 MB
   * takes ~13 s a time) */
  if (strlen(cert) < 5000000) {
    int k = corrupt_all(cert, mip_files[_i], 1);
    ck_assert_int_ge(k, 3);
  }
  /* every one proves both ends of its range: the solution is exactly
   * feasible (flugpl's continuous 59.99999999999999 goes in as 60) */
  ck_assert_msg(strstr(cert, "\nSOL 1\n") != NULL, "%s: no exact solution", mip_files[_i]);
  /* p0033 and lseu are pure binary: the search fixes by reduced cost, and
   * the certificate derives each fixing from the incumbent's cutoff */
  if (_i == 0 || _i == 2) ck_assert_ptr_nonnull(strstr(cert, " OBJ { sol }"));
  free(cert);
  twill_ilp_free(m);
}
END_TEST

/* lseu as a maximization (objective negated, published optimum 1120):
 * the reduced-cost fixings' cutoff is then  c'x >= best  and the fixing
 * lines' multipliers change sign; the certificate must still verify, and
 * a cutoff made stronger must be rejected. */
START_TEST(rc_fixing_maximize_certified) {
  char err[512];
  char *path = tu_data_path("suites/mip/lseu.mps");
  twill_ilp *m = twill_ilp_read_mps(path, err, sizeof err);
  free(path);
  ck_assert_msg(m != NULL, "%s", err);
  for (int j = 0; j < twill_ilp_num_vars(m); j++) twill_ilp_set_obj(m, j, -twill_ilp_obj_coef(m, j));
  twill_ilp_set_maximize(m, 1);
  twill_ilp_set_time_limit(m, 120);
  char *cert = certify(m, TWILL_ILP_OPTIMAL, "lseu maximized");
  ck_assert(fabs(twill_ilp_objective(m) + 1120) < 1e-6);
  ck_assert_ptr_nonnull(strstr(cert, "G -1120 OBJ { sol }"));
  ck_assert_int_eq(rejected(bad_cutoff(cert), "lseu maximized", "cutoff too strong"), 1);
  free(cert);
  twill_ilp_free(m);
}
END_TEST

/* Certify m, optimal, with the root separator sep alone (the option
 * cut_SEP on, the other cut_* off); the objective must be obj, the root
 * bound after the cuts root (within tol) with ncuts cuts.  Returns the
 * certificate. */
static char *certify_one_separator(twill_ilp *m, const char *sep, double obj, double root,
                                   double tol, int ncuts) {
  static const char *const kinds[] = {"gmi", "mir", "cover", "gcd", "vub"};
  for (int k = 0; k < 5; k++) {
    char name[16];
    snprintf(name, sizeof name, "cut_%s", kinds[k]);
    ck_assert_int_eq(twill_ilp_set_option(m, name, !strcmp(kinds[k], sep)), 0);
  }
  char *c = certify(m, TWILL_ILP_OPTIMAL, sep);
  ck_assert_double_eq_tol(twill_ilp_objective(m), obj, 1e-9);
  twill_ilp_stats st;
  twill_ilp_get_stats(m, &st);
  ck_assert_double_eq_tol(st.root_bound, root, tol);
  ck_assert_int_eq(st.cuts, ncuts);
  return c;
}

/* Knapsack covers (ilp/cuts/cover.c), by hand:
 *   max a + b + c + d + e - f/2,  binaries,
 *   3a + 3b + 3c <= 7            cover {a,b,c}:  a + b + c <= 2
 *   -4d - 4e + 4f >= -5          as 4d + 4e + 4(1 - f) <= 9, cover
 *                                {d, e, 1 - f}:  d + e - f <= 1.
 * The LP optimum is 7/3 + 13/8 (a = b = 1, c = 1/3; d = e = 1, f = 3/4);
 * with both covers it is 2 + 3/2 = 7/2, the integer optimum (a = b = 1,
 * d = e = f = 1), so the root bound after the cuts must be 7/2.  With the
 * cover separator alone, the certificate must derive exactly these two
 * cuts, the second from a >= row with a complemented variable. */
START_TEST(cover_cuts_certified) {
  twill_ilp *m = twill_ilp_new();
  const char *names[] = {"a", "b", "c", "d", "e", "f"};
  const double obj[] = {1, 1, 1, 1, 1, -0.5};
  for (int j = 0; j < 6; j++) twill_ilp_add_var(m, names[j], TWILL_ILP_BINARY, 0, 1, obj[j]);
  twill_ilp_set_maximize(m, 1);
  ck_assert_int_ge(twill_ilp_add_row(m, "k1", 3, (int[]){0, 1, 2}, (double[]){3, 3, 3}, 'L', 7, 0), 0);
  ck_assert_int_ge(twill_ilp_add_row(m, "k2", 3, (int[]){3, 4, 5}, (double[]){-4, -4, 4}, 'G', -5, 0), 0);
  /* (GMI finds these two as well) */
  char *c = certify_one_separator(m, "cover", 3.5, 3.5, 1e-9, 2);
  /* the two covers as the certificate derives them (c'x >= d) */
  ck_assert_ptr_nonnull(strstr(c, " G -2 3  0 -1  1 -1  2 -1 { uns "));
  ck_assert_ptr_nonnull(strstr(c, " G -1 3  3 -1  4 -1  5 1 { uns "));
  ck_assert_int_eq(rejected(bad_cut(c), "covers", "cut too strong"), 1);
  ck_assert_int_eq(rejected(bad_multiplier(c), "covers", "multiplier"), 1);
  free(c);
  twill_ilp_free(m);
}
END_TEST

/* Tightened variable upper bounds (ilp/cuts/vub.c), by hand:
 *   min 10 y1 + 12 y2 + x1 + x2,  y binary, x >= 0,
 *   x1 + x2 = 3,  x1 <= 10 y1,  x2 <= 10 y2.
 * The LP sets y = x / 10: a unit costs 2 on arc 1 and 2.2 on arc 2, so
 * the LP bound is 6.  The demand row bounds each x by 3, so the big-M
 * rows tighten to x1 <= 3 y1 and x2 <= 3 y2; then a unit costs 1 + 10/3
 * on arc 1 and 1 + 4 on arc 2, and the LP bound is 13, the integer
 * optimum (y1 = 1, x1 = 3).  With that separator alone, the root bound
 * must be 13 with two cuts, each derived by the certificate as a split
 * on its y; a strengthened cut or a corrupted multiplier is rejected. */
static twill_ilp *fixed_charge(twill_ilp_vartype yt) {
  twill_ilp *m = twill_ilp_new();
  twill_ilp_add_var(m, "x1", TWILL_ILP_CONTINUOUS, 0, HUGE_VAL, 1);
  twill_ilp_add_var(m, "x2", TWILL_ILP_CONTINUOUS, 0, HUGE_VAL, 1);
  twill_ilp_add_var(m, "y1", yt, 0, 1, 10);
  twill_ilp_add_var(m, "y2", yt, 0, 1, 12);
  ck_assert_int_ge(twill_ilp_add_row(m, "dem", 2, (int[]){0, 1}, (double[]){1, 1}, 'E', 3, 0), 0);
  ck_assert_int_ge(twill_ilp_add_row(m, "v1", 2, (int[]){0, 2}, (double[]){1, -10}, 'L', 0, 0), 0);
  ck_assert_int_ge(twill_ilp_add_row(m, "v2", 2, (int[]){1, 3}, (double[]){1, -10}, 'L', 0, 0), 0);
  return m;
}

START_TEST(vub_cuts_certified) {
  twill_ilp *m = fixed_charge(TWILL_ILP_BINARY);
  char *c = certify_one_separator(m, "vub", 13, 13, 1e-6, 2);
  ck_assert_int_eq(rejected(bad_cut(c), "vub", "cut too strong"), 1);
  ck_assert_int_eq(rejected(bad_multiplier(c), "vub", "multiplier"), 1);
  free(c);
  twill_ilp_free(m);
  /* the LP relaxation (y continuous) is the 6 derived above */
  m = fixed_charge(TWILL_ILP_CONTINUOUS);
  ck_assert_int_eq(twill_ilp_solve(m), TWILL_ILP_OPTIMAL);
  ck_assert_double_eq_tol(twill_ilp_objective(m), 6, 1e-9);
  twill_ilp_free(m);
}
END_TEST

/* A mixed optimum at a vertex of rows with long decimal coefficients:
 *   max z + x   s.t.  3.1234567 x + 2 y - z = 10,  x - 1.7654321 y = 0,
 *                     x, y in [0, 100],  z integer in [0, 3.5].
 * By hand: z = 3 (x grows with z), y = 13 / (3.1234567 * 1.7654321 + 2),
 * x = 1.7654321 y: y = 1300000000000000 / 751425072114007 in lowest terms
 * (python3's fractions agree), a fraction that no decimal and no fraction
 * with a denominator below 10^6 equals, so the SOL point must be
 * the exact vertex (ilp/exact/exact_point.c); without it the range stays open.
 * Variant 1 makes the first row an inequality (<= 10), tight at the
 * optimum, and adds a slack row the point must still meet. */
START_TEST(exact_vertex_sol) {
  twill_ilp *m = twill_ilp_new();
  twill_ilp_add_var(m, "x", TWILL_ILP_CONTINUOUS, 0, 100, 1);
  twill_ilp_add_var(m, "y", TWILL_ILP_CONTINUOUS, 0, 100, 0);
  twill_ilp_add_var(m, "z", TWILL_ILP_INTEGER, 0, 3.5, 1);
  twill_ilp_set_maximize(m, 1);
  ck_assert_int_ge(twill_ilp_add_row(m, "r1", 3, (int[]){0, 1, 2},
                                     (double[]){3.1234567, 2, -1}, _i ? 'L' : 'E', 10, 0), 0);
  ck_assert_int_ge(twill_ilp_add_row(m, "r2", 2, (int[]){0, 1}, (double[]){1, -1.7654321}, 'E',
                                     0, 0), 0);
  if (_i)
    ck_assert_int_ge(twill_ilp_add_row(m, "r3", 2, (int[]){0, 1}, (double[]){1.1, 0.3}, 'L', 7,
                                       0), 0);
  char *c = certify(m, TWILL_ILP_OPTIMAL, "exact vertex");
  double y = 13 / (3.1234567 * 1.7654321 + 2), x = 1.7654321 * y;
  ck_assert_double_eq_tol(twill_ilp_objective(m), 3 + x, 1e-9);
  ck_assert_msg(strstr(c, "\nSOL 1\n") != NULL, "no exact solution:\n%s", c);
  /* a solution value changed by one unit in its last digit is infeasible */
  ck_assert_int_ge(corrupt_all(c, "exact vertex", 1), 1);
  free(c);
  /* the point itself: over D = 751425072114007, x = 2295061730000000 / D,
   * y = 1300000000000000 / D, z = 3 = 2254275216342021 / D (the fractions
   * above); with 10 digits allowed there is none */
  double xv[3];
  for (int j = 0; j < 3; j++) xv[j] = twill_ilp_value(m, j);
  const double lb[3] = {0, 0, 0}, ub[3] = {100, 100, 3};
  char **num, *den;
  ck_assert_int_eq(twill_ilp_exact_point(m, 2 + _i, lb, ub, xv, 1e-9, 400, &num, &den), 1);
  ck_assert_str_eq(den, "751425072114007");
  ck_assert_str_eq(num[0], "2295061730000000");
  ck_assert_str_eq(num[1], "1300000000000000");
  ck_assert_str_eq(num[2], "2254275216342021");
  twill_ilp_exact_point_free(3, num, den);
  ck_assert_int_eq(twill_ilp_exact_point(m, 2 + _i, lb, ub, xv, 1e-9, 10, &num, &den), 0);
  twill_ilp_free(m);
}
END_TEST

/* ---- exact solves (ilp/exact/qsys.c, ilp/exact/exact_basis.c) ---- */

static uint32_t qs_rng(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

static void q_set(bigq *q, long long p, long long d) { ck_assert_int_eq(twill_bq_set_ll(q, p, d), 0); }

static void q_assert(const bigq *q, long long p, long long d, const char *what) {
  bigq t;
  twill_bq_init(&t);
  q_set(&t, p, d);
  ck_assert_msg(twill_bq_cmp(q, &t) == 0, "%s is %g, expected %lld/%lld", what, twill_bq_to_double(q), p, d);
  twill_bq_free(&t);
}

/* Random sparse systems A x = b, n up to 10, with small integer and
 * one-decimal coefficients, built from a chosen rational x* (b = A x*
 * exactly), the entries of each row given in a shuffled column order.
 * The oracle is substitution: the returned x must satisfy every row
 * exactly, and equal x* when no row was dropped (the system is then
 * nonsingular).  A third of the systems repeat a row scaled by 3, so
 * elimination drops a row and the columns it leaves keep their given
 * value. */
START_TEST(qsys_random_systems) {
  uint64_t seed = 77;
  int rounds = tu_under_valgrind() ? 40 : 400, dropped_seen = 0, unique_seen = 0;
  for (int it = 0; it < rounds; it++) {
    int n = 1 + (int)(qs_rng(&seed) % 10), dup = n > 1 && it % 3 == 0;
    long long a[10][10];
    bigq xs[10], x[10], t, u;
    twill_bq_init(&t);
    twill_bq_init(&u);
    for (int j = 0; j < n; j++) {
      twill_bq_init(&xs[j]);
      twill_bq_init(&x[j]);
      q_set(&xs[j], (long long)(qs_rng(&seed) % 41) - 20, 1 + (long long)(qs_rng(&seed) % 12));
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        a[i][j] = qs_rng(&seed) % 3 ? 0 : (long long)(qs_rng(&seed) % 21) - 10; /* tenths */
    for (int i = 0; i < n; i++) a[i][i] += 25; /* most are nonsingular */
    if (dup)
      for (int j = 0; j < n; j++) a[n - 1][j] = 3 * a[0][j];
    qsys *s = twill_qs_new(n, n, 10000, 1000000);
    ck_assert_ptr_nonnull(s);
    for (int i = 0; i < n; i++) {
      ck_assert_int_eq(twill_qs_row(s), 0);
      int order[10];
      for (int j = 0; j < n; j++) order[j] = j;
      for (int j = n - 1; j > 0; j--) {
        int k = (int)(qs_rng(&seed) % (uint32_t)(j + 1)), w = order[j];
        order[j] = order[k];
        order[k] = w;
      }
      for (int k = 0; k < n; k++) {
        int j = order[k];
        q_set(&t, a[i][j], 10);
        ck_assert_int_eq(twill_qs_entry(s, j, &t), 0);
        ck_assert_int_eq(twill_bq_addmul(twill_qs_rhs(s), twill_qs_rhs(s), &t, &xs[j]), 0);
      }
    }
    for (int j = 0; j < n; j++) q_set(&x[j], 0, 1);
    ck_assert_int_eq(twill_qs_solve(s, x), 1);
    int dropped = twill_qs_dropped(s);
    if (dup) ck_assert_int_ge(dropped, 1);
    for (int i = 0; i < n; i++) { /* substitution */
      q_set(&t, 0, 1);
      q_set(&u, 0, 1);
      for (int j = 0; j < n; j++) {
        bigq c;
        twill_bq_init(&c);
        q_set(&c, a[i][j], 10);
        ck_assert_int_eq(twill_bq_addmul(&t, &t, &c, &x[j]), 0);
        ck_assert_int_eq(twill_bq_addmul(&u, &u, &c, &xs[j]), 0);
        twill_bq_free(&c);
      }
      ck_assert_msg(twill_bq_cmp(&t, &u) == 0, "round %d: row %d not met", it, i);
    }
    if (!dropped) {
      unique_seen++;
      for (int j = 0; j < n; j++) ck_assert_msg(twill_bq_cmp(&x[j], &xs[j]) == 0, "round %d: x%d", it, j);
    } else {
      dropped_seen++;
    }
    twill_qs_free(s);
    for (int j = 0; j < n; j++) twill_bq_free(&xs[j]), twill_bq_free(&x[j]);
    twill_bq_free(&t);
    twill_bq_free(&u);
  }
  ck_assert_int_gt(dropped_seen, 0);
  ck_assert_int_gt(unique_seen, 0);
}
END_TEST

/* H8 x = 1 (rows 1/(i+j+1)) in a new system with the given work budget */
static qsys *hilbert8(long long maxwork) {
  qsys *s = twill_qs_new(8, 8, 1000, maxwork);
  bigq t;
  twill_bq_init(&t);
  ck_assert_ptr_nonnull(s);
  for (int i = 0; i < 8; i++) {
    ck_assert_int_eq(twill_qs_row(s), 0);
    q_set(twill_qs_rhs(s), 1, 1);
    for (int j = 0; j < 8; j++) {
      q_set(&t, 1, i + j + 1);
      ck_assert_int_eq(twill_qs_entry(s, j, &t), 0);
    }
  }
  twill_bq_free(&t);
  return s;
}

/* The limits: a column given twice in a row fails (-1), and numbers longer
 * than maxdigits give 0.  The system  x + y = 1,  x + (1 + 1e-20) y = 2
 * has y = 10^20, x = 1 - 10^20 (by hand: the difference of the rows is
 * 1e-20 y = 1), and whichever pivot comes first, the one update it makes
 * leaves a row with a coefficient 1e-20 or a denominator 10^20 + 1: more
 * than 8 digits.  A work budget (limb products) too small gives 0 too.
 * Then the Hilbert matrix H8 (rows 1/(i+j+1)), whose
 * system H8 x = 1 has x0 = -8 and x7 = 51480 (python3's fractions), and
 * entries summing to 8^2 (the entries of H_n^-1 sum to n^2). */
START_TEST(qsys_limits) {
  bigq t, x[8];
  twill_bq_init(&t);
  for (int j = 0; j < 8; j++) twill_bq_init(&x[j]);
  qsys *s = twill_qs_new(2, 2, 100, 1000);
  ck_assert_int_eq(twill_qs_row(s), 0);
  q_set(&t, 1, 1);
  ck_assert_int_eq(twill_qs_entry(s, 1, &t), 0);
  ck_assert_int_eq(twill_qs_entry(s, 1, &t), 0);
  ck_assert_int_eq(twill_qs_entry(s, 2, &t), -1); /* no such column */
  ck_assert_int_eq(twill_qs_solve(s, x), -1);
  twill_qs_free(s);
  for (int limit = 0; limit < 2; limit++) {
    s = twill_qs_new(2, 2, limit ? 8 : 100, 1000);
    ck_assert_int_eq(twill_qs_row(s), 0);
    q_set(twill_qs_rhs(s), 1, 1);
    ck_assert_int_eq(twill_qs_entry(s, 0, &t), 0);
    ck_assert_int_eq(twill_qs_entry(s, 1, &t), 0);
    ck_assert_int_eq(twill_qs_row(s), 0);
    q_set(twill_qs_rhs(s), 2, 1);
    ck_assert_int_eq(twill_qs_entry(s, 0, &t), 0);
    bigq c;
    twill_bq_init(&c);
    ck_assert_int_eq(twill_bq_parse(&c, "1.00000000000000000001"), 0);
    ck_assert_int_eq(twill_qs_entry(s, 1, &c), 0);
    ck_assert_int_eq(twill_qs_solve(s, x), (limit ? 0 : 1));
    if (!limit) {
      ck_assert_int_eq(twill_bq_parse(&c, "100000000000000000000"), 0);
      ck_assert_int_eq(twill_bq_cmp(&x[1], &c), 0);
      ck_assert_int_eq(twill_bq_parse(&c, "-99999999999999999999"), 0);
      ck_assert_int_eq(twill_bq_cmp(&x[0], &c), 0);
    }
    twill_bq_free(&c);
    twill_qs_free(s);
  }
  /* H8 with a work budget of 10 limb products: the first pivot's update
   * of the 7 other rows takes 7 * 8 at least, so the solve gives up */
  s = hilbert8(10);
  ck_assert_int_eq(twill_qs_solve(s, x), 0);
  twill_qs_free(s);
  s = hilbert8(1000000);
  ck_assert_int_eq(twill_qs_solve(s, x), 1);
  bigq sum;
  twill_bq_init(&sum);
  for (int i = 0; i < 8; i++) {
    q_set(&t, 0, 1);
    for (int j = 0; j < 8; j++) {
      bigq c;
      twill_bq_init(&c);
      q_set(&c, 1, i + j + 1);
      ck_assert_int_eq(twill_bq_addmul(&t, &t, &c, &x[j]), 0);
      twill_bq_free(&c);
    }
    q_assert(&t, 1, 1, "H8 row");
    ck_assert_int_eq(twill_bq_add(&sum, &sum, &x[i]), 0);
  }
  q_assert(&x[0], -8, 1, "H8 x0");
  q_assert(&x[7], 51480, 1, "H8 x7");
  q_assert(&sum, 64, 1, "H8 sum");
  twill_bq_free(&sum);
  twill_qs_free(s);
  for (int j = 0; j < 8; j++) twill_bq_free(&x[j]);
  twill_bq_free(&t);
}
END_TEST

/* The values of a basis, by hand:  min -x - y  s.t.  x + 2y <= 4,
 * 3x + y <= 6,  x + y <= 10,  x, y >= 0.  Basis {x, y, logical of row 2},
 * rows 0 and 1 at their upper side:
 *   primal: x + 2y = 4, 3x + y = 6  ->  x = 8/5, y = 6/5;
 *   duals:  y0 + 3 y1 = -1, 2 y0 + y1 = -1, y2 = 0  ->  y0 = -2/5, y1 = -1/5
 *   (maximize -(-x - y): sg = -1 negates them).
 * (Row 3 = 2 x row 0 is tight there too, with its logical basic.)  A
 * basis singular in exact arithmetic (x, y basic with row 0 and its
 * double row 3 nonbasic) gives 0, and so does a basis of the wrong size. */
START_TEST(basis_values_by_hand) {
  twill_ilp *m = twill_ilp_new();
  twill_ilp_add_var(m, "x", TWILL_ILP_CONTINUOUS, 0, INF, -1);
  twill_ilp_add_var(m, "y", TWILL_ILP_CONTINUOUS, 0, INF, -1);
  twill_ilp_add_row(m, "r0", 2, (int[]){0, 1}, (double[]){1, 2}, 'L', 4, 0);
  twill_ilp_add_row(m, "r1", 2, (int[]){1, 0}, (double[]){1, 3}, 'L', 6, 0);
  twill_ilp_add_row(m, "r2", 2, (int[]){0, 1}, (double[]){1, 1}, 'L', 10, 0);
  twill_ilp_add_row(m, "r3", 2, (int[]){0, 1}, (double[]){2, 4}, 'L', 8, 0);
  const double lb[2] = {0, 0}, ub[2] = {INF, INF};
  bigq y[4], x[2];
  for (int i = 0; i < 4; i++) twill_bq_init(&y[i]);
  for (int j = 0; j < 2; j++) twill_bq_init(&x[j]);
  /* st: x, y, then the logicals of rows 0..3; five basic is not a basis */
  signed char st[6] = {0, 0, 0, 2, 0, 0};
  ck_assert_int_eq(twill_ilp_basis_duals(m, st, 1, 1000, y), 0);
  ck_assert_int_eq(twill_ilp_basis_primal(m, st, lb, ub, 1000, x), 0);
  st[2] = 2; /* rows 0 and 1 at their upper side */
  ck_assert_int_eq(twill_ilp_basis_duals(m, st, 1, 1000, y), 1);
  q_assert(&y[0], -2, 5, "y0");
  q_assert(&y[1], -1, 5, "y1");
  q_assert(&y[2], 0, 1, "y2");
  q_assert(&y[3], 0, 1, "y3");
  ck_assert_int_eq(twill_ilp_basis_duals(m, st, -1, 1000, y), 1);
  q_assert(&y[0], 2, 5, "max y0");
  q_assert(&y[1], 1, 5, "max y1");
  ck_assert_int_eq(twill_ilp_basis_primal(m, st, lb, ub, 1000, x), 1);
  q_assert(&x[0], 8, 5, "x");
  q_assert(&x[1], 6, 5, "y");
  /* rows 0 and 3 (= 2 x row 0) nonbasic, rows 1 and 2 basic: singular */
  signed char sing[6] = {0, 0, 2, 0, 0, 2};
  ck_assert_int_eq(twill_ilp_basis_duals(m, sing, 1, 1000, y), 0);
  ck_assert_int_eq(twill_ilp_basis_primal(m, sing, lb, ub, 1000, x), 0);
  for (int i = 0; i < 4; i++) twill_bq_free(&y[i]);
  for (int j = 0; j < 2; j++) twill_bq_free(&x[j]);
  twill_ilp_free(m);
}
END_TEST

/* An LP whose optimal vertex has a 548-digit denominator: x_0 = 1 and
 * 7 x_{k+1} = 7.000001 x_k for k < 80, so x_80 = (7000001/7000000)^80
 * (= 1.0000114286... by the formula).  No decimal and no fraction with a
 * short denominator is exact, and the exact vertex of the tight rows
 * (exact_point.c) passes its 400 digits, so the SOL point must be the
 * exact values of the optimal basis (exact_basis.c); both ends of the
 * range are then proved.  Variant 0 minimizes x_80, variant 1 maximizes
 * -x_80 (the RTP range of a maximum is written the other way round). */
START_TEST(exact_basis_sol_certified) {
  enum { K = 80 };
  twill_ilp *m = twill_ilp_new();
  char name[16];
  for (int k = 0; k <= K; k++) {
    snprintf(name, sizeof name, "x%d", k);
    twill_ilp_add_var(m, name, TWILL_ILP_CONTINUOUS, k ? 0 : 1, k ? INF : 1,
                      k == K ? (_i ? -1 : 1) : 0);
  }
  twill_ilp_set_maximize(m, _i);
  for (int k = 0; k < K; k++)
    ck_assert_int_ge(twill_ilp_add_row(m, NULL, 2, (int[]){k, k + 1}, (double[]){-7.000001, 7},
                                       'E', 0, 0), 0);
  char *c = certify(m, TWILL_ILP_OPTIMAL, "exact basis SOL");
  double want = pow(7.000001 / 7, K);
  ck_assert_double_eq_tol(twill_ilp_objective(m), _i ? -want : want, 1e-12);
  char msg[512];
  ck_assert_int_eq(twill_vipr_check_mem("exact basis SOL", c, strlen(c), msg, sizeof msg), 0);
  ck_assert_msg(strstr(msg, "inf") == NULL, "range not closed: %s", msg);
  ck_assert_msg(strstr(c, "\nSOL 1\n") != NULL, "no SOL section");
  /* a solution value changed in its last digit is rejected, and the
   * other corruptions too */
  ck_assert_int_ge(corrupt_all(c, "exact basis SOL", 1), 1);
  free(c);
  twill_ilp_free(m);
}
END_TEST

/* Names that are not one VIPR token: white space, a control character, and
 * '%' (a comment in VIPR; fuzz_mps found a certificate that the checker
 * rejected for it).  The writer prints them as one token each. */
START_TEST(odd_names_certified) {
  twill_ilp *m = twill_ilp_new();
  twill_ilp_set_name(m, "model\nname % x");
  twill_ilp_add_var(m, "a%b", TWILL_ILP_INTEGER, 0, 5, -1);
  twill_ilp_add_var(m, "c d\te", TWILL_ILP_INTEGER, 0, 5, -1);
  ck_assert_int_ge(twill_ilp_add_row(m, NULL, 2, (int[]){0, 1}, (double[]){2, 2}, 'L', 7, 0), 0);
  char *c = certify(m, TWILL_ILP_OPTIMAL, "odd names"); /* max a + b, 2a + 2b <= 7: 3 */
  ck_assert_double_eq_tol(twill_ilp_objective(m), -3, 1e-9);
  ck_assert_ptr_nonnull(strstr(c, "a_b c_d_e"));
  free(c);
  twill_ilp_free(m);
}
END_TEST

/* ---- infeasible MIPs ---- */
START_TEST(infeasible_certified) {
  /* 2x - 2y = 1 over the integers (parity): LP feasible, no integer point */
  twill_ilp *m = twill_ilp_new();
  twill_ilp_add_var(m, "x", TWILL_ILP_INTEGER, 0, 10, 1);
  twill_ilp_add_var(m, "y", TWILL_ILP_INTEGER, 0, 10, 1);
  ck_assert_int_ge(twill_ilp_add_row(m, NULL, 2, (int[]){0, 1}, (double[]){2, -2}, 'E', 1, 0), 0);
  char *c = certify(m, TWILL_ILP_INFEASIBLE, "parity");
  /* domain propagation tightens x and y by rounding until they cross
   * (`rnd` lines), or the tree splits them (`uns`) */
  ck_assert(strstr(c, "{ uns ") != NULL || strstr(c, "{ rnd ") != NULL);
  ck_assert_int_ge(corrupt_all(c, "parity", 1), strstr(c, "{ uns ") ? 2 : 1);
  free(c);
  twill_ilp_free(m);
  /* LP-infeasible at the root: x + y <= 1, x + y >= 3, binaries */
  m = twill_ilp_new();
  twill_ilp_add_var(m, "x", TWILL_ILP_BINARY, 0, 1, 1);
  twill_ilp_add_var(m, "y", TWILL_ILP_BINARY, 0, 1, 1);
  twill_ilp_add_row(m, NULL, 2, (int[]){0, 1}, (double[]){1, 1}, 'L', 1, 0);
  twill_ilp_add_row(m, NULL, 2, (int[]){0, 1}, (double[]){1, 1}, 'G', 3, 0);
  c = certify(m, TWILL_ILP_INFEASIBLE, "root");
  ck_assert_int_ge(corrupt_all(c, "root", 1), 1);
  free(c);
  twill_ilp_free(m);
  /* pigeonhole: 4 pigeons, 3 holes (x[p][h] binary, every pigeon in a
   * hole, at most one per hole): infeasible by counting (the sum of the
   * pigeon rows is 4, of the hole rows at most 3), already as an LP. */
  m = twill_ilp_new();
  for (int k = 0; k < 12; k++) twill_ilp_add_var(m, NULL, TWILL_ILP_BINARY, 0, 1, 0);
  for (int p = 0; p < 4; p++)
    twill_ilp_add_row(m, NULL, 3, (int[]){3 * p, 3 * p + 1, 3 * p + 2}, (double[]){1, 1, 1},
                      'E', 1, 0);
  for (int h = 0; h < 3; h++)
    twill_ilp_add_row(m, NULL, 4, (int[]){h, 3 + h, 6 + h, 9 + h}, (double[]){1, 1, 1, 1},
                      'L', 1, 0);
  c = certify(m, TWILL_ILP_INFEASIBLE, "pigeonhole");
  ck_assert_int_ge(corrupt_all(c, "pigeonhole", 1), 1);
  free(c);
  twill_ilp_free(m);
}
END_TEST

/* ---- the modulo programs (twill phase 1) ---- */
static twill_graph *gap(void) {
  /* MII 2 but no schedule at I = 2 (tests/test_modulo_exact.c): a uses U at
   * offsets 0 and 2, which collide mod 2. */
  twill_graph *g = twill_graph_new("gap");
  int u = twill_graph_declare_unit(g, "U", 1);
  int a = twill_graph_add_op(g, "a", 3);
  twill_graph_add_use(g, a, u, 0, 1, 1);
  twill_graph_add_use(g, a, u, 2, 1, 1);
  int b = twill_graph_add_op(g, "b", 1);
  twill_graph_add_edge(g, a, b, 3, 0);
  return g;
}

/* The plain program and the one with every lever of the formulation
 * (reduction, structured rows, windows): both certified. */
START_TEST(modulo_programs_certified) {
  twill_graph *g = gap();
  for (unsigned form = 0; form <= TWILL_MODULO_FORM_ALL; form += TWILL_MODULO_FORM_ALL) {
    twill_ilp *m = twill_modulo_program(g, 2, 0, form);
    ck_assert_ptr_nonnull(m);
    char *c = certify(m, TWILL_ILP_INFEASIBLE, "gap I=2");
    ck_assert_int_ge(corrupt_all(c, "gap I=2", 1), 1);
    free(c);
    twill_ilp_free(m);
    m = twill_modulo_program(g, 3, 0, form);
    ck_assert_ptr_nonnull(m);
    c = certify(m, TWILL_ILP_OPTIMAL, "gap I=3");
    ck_assert_int_ge(corrupt_all(c, "gap I=3", 1), form ? 1 : 2);
    free(c);
    twill_ilp_free(m);
  }
  twill_graph_free(g);
}
END_TEST

static unsigned long long xs(unsigned long long *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* Random small graphs (as in test_modulo_exact): the program at MII and at
 * MII + 1 certified, whatever the status. */
START_TEST(modulo_random_certified) {
  int trials = tu_under_valgrind() ? 4 : 60, ninf = 0, nopt = 0;
  unsigned long long r = 1777;
  for (int t = 0; t < trials; t++) {
    twill_graph *g = twill_graph_new("r");
    int nu = 1 + (int)(xs(&r) % 2);
    for (int u = 0; u < nu; u++) {
      char nm[4] = {'u', (char)('0' + u), 0, 0};
      twill_graph_declare_unit(g, nm, 1 + (int)(xs(&r) % 2));
    }
    int n = 2 + (int)(xs(&r) % 3);
    for (int v = 0; v < n; v++) {
      char nm[4] = {'v', (char)('0' + v), 0, 0};
      int op = twill_graph_add_op(g, nm, 1 + (int)(xs(&r) % 3));
      int nuse = 1 + (int)(xs(&r) % 2);
      for (int k = 0; k < nuse; k++)
        twill_graph_add_use(g, op, (int)(xs(&r) % (unsigned)nu), (int)(xs(&r) % 3), 1, 1);
    }
    for (int v = 1; v < n; v++)
      twill_graph_add_edge(g, (int)(xs(&r) % (unsigned)v), v, 1 + (int)(xs(&r) % 3), 0);
    if (xs(&r) % 2) twill_graph_add_edge(g, n - 1, 0, 1, 1 + (int)(xs(&r) % 2));
    for (long ii = 1; ii <= 3; ii++) {
      twill_ilp *m = twill_modulo_program(g, ii, 0, t % 2 ? TWILL_MODULO_FORM_ALL : 0);
      if (!m) continue; /* below RecMII: no program */
      char what[64];
      snprintf(what, sizeof what, "modulo %d I=%ld", t, ii);
      char *c = certify(m, (twill_ilp_status)-1, what);
      twill_ilp_status st = twill_ilp_status_of(m);
      corrupt_all(c, what, 1);
      free(c);
      twill_ilp_free(m);
      if (st == TWILL_ILP_OPTIMAL) nopt++;
      else ninf++;
    }
    twill_graph_free(g);
  }
  fprintf(stderr, "modulo programs: %d optimal, %d infeasible certified\n", nopt, ninf);
  ck_assert_int_gt(nopt, 0);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("ilp_cert");
  TCase *tc = tcase_create("random");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, random_mips_certified, 0, 3);
  tcase_add_loop_test(tc, random_mixed_certified, 0, 2);
  tcase_add_loop_test(tc, random_lp_unbounded_vars_certified, 0, 2);
  tcase_add_test(tc, infeasible_certified);
  tcase_add_test(tc, odd_names_certified);
  tcase_add_test(tc, cover_cuts_certified);
  tcase_add_test(tc, vub_cuts_certified);
  tcase_add_loop_test(tc, exact_vertex_sol, 0, 2);
  tcase_add_test(tc, qsys_random_systems);
  tcase_add_test(tc, qsys_limits);
  tcase_add_test(tc, basis_values_by_hand);
  tcase_add_loop_test(tc, exact_basis_sol_certified, 0, 2);
  suite_add_tcase(s, tc);
  tc = tcase_create("miplib");
  /* mod008 writes and checks a 50 MB certificate: under the sanitizers on
   * a loaded 2-core machine the five took 362-424 s in all (helper's
   * measurement, stop 15), so a case gets 900 s */
  tcase_set_timeout(tc, 900);
  tcase_add_loop_test(tc, miplib_certified, 0, (int)(sizeof mip_files / sizeof *mip_files));
  tcase_add_test(tc, rc_fixing_maximize_certified);
  suite_add_tcase(s, tc);
  tc = tcase_create("modulo");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, modulo_programs_certified);
  tcase_add_test(tc, modulo_random_certified);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
