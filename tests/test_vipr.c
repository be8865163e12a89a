/* tests/test_vipr.c: the VIPR certificate checker and its exact arithmetic.
 *
 * Certificates under tests/data/vipr/ are written by hand; each file's
 * comments derive it.  Every valid certificate is also corrupted in the ways
 * a wrong proof can be wrong (table `mutants` below: one substitution each,
 * with the reason it must be rejected) and each corruption must be rejected
 * with a file:line:col diagnostic naming the failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../ilp/check/vipr_num.h"
#include "check_main.h"
#include "testutil.h"
#include "twill/vipr.h"

/* ------------------------------------------------------------ bignums */

static vipr_big big(const char *s) {
  vipr_big a;
  twill_vipr_big_init(&a);
  ck_assert_int_eq(twill_vipr_big_parse(&a, s, strlen(s)), 0);
  return a;
}

static void assert_big(const vipr_big *a, const char *want) {
  char *s = twill_vipr_big_str(a);
  ck_assert_str_eq(s, want);
  free(s);
}

static void assert_q(const vipr_q *a, const char *want) {
  char *s = twill_vipr_q_str(a);
  ck_assert_str_eq(s, want);
  free(s);
}

START_TEST(big_mul_beyond_64_bits) {
  /* (2^64 + 1)(2^64 - 1) = 2^128 - 1 */
  vipr_big a = big("18446744073709551617"), b = big("18446744073709551615"), r;
  twill_vipr_big_init(&r);
  ck_assert_int_eq(twill_vipr_big_mul(&r, &a, &b), 0);
  assert_big(&r, "340282366920938463463374607431768211455");
  /* in place, with a negative factor: -(2^64+1) * (2^64+1) = -(2^128 + 2^65 + 1) */
  twill_vipr_big_sub(&b, &b, &a); /* b = -2 */
  ck_assert_int_eq(twill_vipr_big_mul(&a, &a, &a), 0);
  assert_big(&a, "340282366920938463500268095579187314689");
  ck_assert_int_eq(twill_vipr_big_mul(&a, &a, &b), 0);
  assert_big(&a, "-680564733841876927000536191158374629378");
  twill_vipr_big_free(&a);
  twill_vipr_big_free(&b);
  twill_vipr_big_free(&r);
}
END_TEST

START_TEST(big_add_sub_carries) {
  vipr_big a = big("18446744073709551615"), one = big("1"), r;
  twill_vipr_big_init(&r);
  twill_vipr_big_add(&r, &a, &one); /* 2^64 - 1 + 1 = 2^64 */
  assert_big(&r, "18446744073709551616");
  twill_vipr_big_sub(&r, &r, &a); /* back to 1 */
  assert_big(&r, "1");
  twill_vipr_big_sub(&r, &one, &a); /* 1 - (2^64 - 1) = -(2^64 - 2) */
  assert_big(&r, "-18446744073709551614");
  twill_vipr_big_sub(&r, &a, &a);
  assert_big(&r, "0");
  ck_assert_int_eq(twill_vipr_big_sgn(&r), 0);
  vipr_big m = big("-5"), t = big("3");
  twill_vipr_big_add(&r, &m, &t);
  assert_big(&r, "-2");
  ck_assert_int_lt(twill_vipr_big_cmp(&m, &t), 0);
  ck_assert_int_gt(twill_vipr_big_cmp(&a, &t), 0);
  twill_vipr_big_free(&a); twill_vipr_big_free(&one); twill_vipr_big_free(&r);
  twill_vipr_big_free(&m); twill_vipr_big_free(&t);
}
END_TEST

START_TEST(big_divmod_hand_values) {
  vipr_big a = big("340282366920938463463374607431768211455"),
           b = big("18446744073709551617"), q, m;
  twill_vipr_big_init(&q);
  twill_vipr_big_init(&m);
  /* (2^128 - 1) / (2^64 + 1) = 2^64 - 1 exactly */
  ck_assert_int_eq(twill_vipr_big_divmod(&q, &m, &a, &b), 0);
  assert_big(&q, "18446744073709551615");
  assert_big(&m, "0");
  /* (10^30 + 7) = (10^15 + 3)(10^15 - 3) + 16 */
  vipr_big c = big("1000000000000000000000000000007"), d = big("1000000000000003");
  ck_assert_int_eq(twill_vipr_big_divmod(&q, &m, &c, &d), 0);
  assert_big(&q, "999999999999997");
  assert_big(&m, "16");
  /* floor division: -7 = 2(-4) + 1, 7 = -2(-4) - 1, -7 = -2(3) - 1 */
  const char *cases[][4] = {{"-7", "2", "-4", "1"}, {"7", "-2", "-4", "-1"},
                            {"-7", "-2", "3", "-1"}, {"7", "2", "3", "1"},
                            {"-6", "3", "-2", "0"}};
  for (int i = 0; i < 5; i++) {
    vipr_big x = big(cases[i][0]), y = big(cases[i][1]);
    ck_assert_int_eq(twill_vipr_big_divmod(&q, &m, &x, &y), 0);
    assert_big(&q, cases[i][2]);
    assert_big(&m, cases[i][3]);
    twill_vipr_big_free(&x);
    twill_vipr_big_free(&y);
  }
  vipr_big z = big("0");
  ck_assert_int_eq(twill_vipr_big_divmod(&q, &m, &a, &z), -1);
  twill_vipr_big_free(&a); twill_vipr_big_free(&b); twill_vipr_big_free(&c); twill_vipr_big_free(&d);
  twill_vipr_big_free(&q); twill_vipr_big_free(&m); twill_vipr_big_free(&z);
}
END_TEST

/* Random multi-limb numbers, biased to all-ones and zero limbs (the cases
 * that exercise Algorithm D's correction steps): check a = q b + r with
 * 0 <= r < b, an identity independent of how division is done. */
START_TEST(big_divmod_identity_random) {
  uint64_t seed = 12345;
  int rounds = tu_under_valgrind() ? 200 : 3000;
  char buf[64];
  for (int it = 0; it < rounds; it++) {
    vipr_big a, b, q, m, t;
    twill_vipr_big_init(&a); twill_vipr_big_init(&b); twill_vipr_big_init(&q);
    twill_vipr_big_init(&m); twill_vipr_big_init(&t);
    vipr_big *xs[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      int limbs = 1 + (int)((seed >> 33) % (k ? 4 : 8));
      twill_vipr_big_set_i64(xs[k], 0);
      for (int l = 0; l < limbs; l++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t v = (uint32_t)(seed >> 32);
        if ((seed >> 8) % 4 == 0) v = 0xffffffffu;
        if ((seed >> 8) % 4 == 1) v = 0x80000000u;
        vipr_big s;
        twill_vipr_big_init(&s);
        snprintf(buf, sizeof buf, "4294967296");
        vipr_big base = big(buf);
        twill_vipr_big_mul(xs[k], xs[k], &base);
        twill_vipr_big_set_i64(&s, v);
        twill_vipr_big_add(xs[k], xs[k], &s);
        twill_vipr_big_free(&s);
        twill_vipr_big_free(&base);
      }
    }
    if (twill_vipr_big_sgn(&b) == 0) twill_vipr_big_set_i64(&b, 7);
    ck_assert_int_eq(twill_vipr_big_divmod(&q, &m, &a, &b), 0);
    ck_assert_int_ge(twill_vipr_big_sgn(&m), 0);
    ck_assert_int_lt(twill_vipr_big_cmp(&m, &b), 0);
    twill_vipr_big_mul(&t, &q, &b);
    twill_vipr_big_add(&t, &t, &m);
    ck_assert_int_eq(twill_vipr_big_cmp(&t, &a), 0);
    twill_vipr_big_free(&a); twill_vipr_big_free(&b); twill_vipr_big_free(&q);
    twill_vipr_big_free(&m); twill_vipr_big_free(&t);
  }
}
END_TEST

START_TEST(big_gcd_hand_values) {
  vipr_big r;
  twill_vipr_big_init(&r);
  const char *cases[][3] = {
      /* 2^64 + 1 divides 2^128 - 1 */
      {"340282366920938463463374607431768211455", "18446744073709551617",
       "18446744073709551617"},
      /* gcd(2^96, 3 * 2^64) = 2^64 */
      {"79228162514264337593543950336", "55340232221128654848",
       "18446744073709551616"},
      {"-12", "18", "6"}, {"0", "5", "5"}, {"0", "0", "0"},
      /* consecutive Fibonacci numbers are coprime: F(100), F(99) */
      {"354224848179261915075", "218922995834555169026", "1"}};
  for (int i = 0; i < 6; i++) {
    vipr_big a = big(cases[i][0]), b = big(cases[i][1]);
    ck_assert_int_eq(twill_vipr_big_gcd(&r, &a, &b), 0);
    assert_big(&r, cases[i][2]);
    twill_vipr_big_free(&a);
    twill_vipr_big_free(&b);
  }
  twill_vipr_big_free(&r);
}
END_TEST

/* A random magnitude of `limbs` 32-bit limbs, a quarter of them all ones
 * and a quarter zero (the shapes where carries and estimates go wrong). */
static void rnd_big_limbs(vipr_big *a, uint64_t *seed, int limbs) {
  vipr_big base = big("4294967296"), s;
  twill_vipr_big_init(&s);
  twill_vipr_big_set_i64(a, 0);
  for (int l = 0; l < limbs; l++) {
    *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t v = (uint32_t)(*seed >> 32);
    if ((*seed >> 8) % 4 == 0) v = 0xffffffffu;
    if ((*seed >> 8) % 4 == 1) v = 0;
    ck_assert_int_eq(twill_vipr_big_mul(a, a, &base), 0);
    twill_vipr_big_set_i64(&s, v);
    ck_assert_int_eq(twill_vipr_big_add(a, a, &s), 0);
  }
  twill_vipr_big_free(&s);
  twill_vipr_big_free(&base);
}

/* twill_vipr_big_gcd (Lehmer's) against plain Euclid by long division, on
 * numbers up to 100 limbs: random pairs, pairs with a common factor, pairs
 * a = q b + r with a quotient of up to 20 limbs, near-equal pairs. */
START_TEST(big_gcd_matches_euclid) {
  uint64_t seed = 99;
  int rounds = tu_under_valgrind() ? 30 : 300;
  vipr_big a, b, c, g, x, y, t;
  twill_vipr_big_init(&a); twill_vipr_big_init(&b); twill_vipr_big_init(&c); twill_vipr_big_init(&g);
  twill_vipr_big_init(&x); twill_vipr_big_init(&y); twill_vipr_big_init(&t);
  for (int it = 0; it < rounds; it++) {
    int kind = it % 4;
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    rnd_big_limbs(&a, &seed, 1 + (int)((seed >> 33) % 100));
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    rnd_big_limbs(&b, &seed, 1 + (int)((seed >> 33) % 100));
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    rnd_big_limbs(&c, &seed, 1 + (int)((seed >> 33) % 20));
    if (kind == 1) {
      ck_assert_int_eq(twill_vipr_big_mul(&a, &a, &c), 0);
      ck_assert_int_eq(twill_vipr_big_mul(&b, &b, &c), 0);
    } else if (kind == 2) {
      ck_assert_int_eq(twill_vipr_big_mul(&c, &c, &b), 0);
      ck_assert_int_eq(twill_vipr_big_add(&a, &a, &c), 0);
    } else if (kind == 3) {
      ck_assert_int_eq(twill_vipr_big_copy(&a, &b), 0);
      twill_vipr_big_set_i64(&c, (int64_t)(it % 1000));
      ck_assert_int_eq(twill_vipr_big_add(&a, &a, &c), 0);
    }
    ck_assert_int_eq(twill_vipr_big_gcd(&g, &a, &b), 0);
    /* Euclid */
    ck_assert_int_eq(twill_vipr_big_copy(&x, &a), 0);
    ck_assert_int_eq(twill_vipr_big_copy(&y, &b), 0);
    while (twill_vipr_big_sgn(&y)) {
      ck_assert_int_eq(twill_vipr_big_divmod(NULL, &t, &x, &y), 0);
      ck_assert_int_eq(twill_vipr_big_copy(&x, &y), 0);
      ck_assert_int_eq(twill_vipr_big_copy(&y, &t), 0);
    }
    ck_assert_msg(twill_vipr_big_cmp(&g, &x) == 0, "round %d: Lehmer's gcd differs from Euclid's", it);
    ck_assert_int_eq(twill_vipr_big_gcd(&g, &b, &a), 0);
    ck_assert_msg(twill_vipr_big_cmp(&g, &x) == 0, "round %d: gcd(b, a) differs", it);
  }
  twill_vipr_big_free(&a); twill_vipr_big_free(&b); twill_vipr_big_free(&c); twill_vipr_big_free(&g);
  twill_vipr_big_free(&x); twill_vipr_big_free(&y); twill_vipr_big_free(&t);
}
END_TEST

START_TEST(q_parse_forms) {
  const char *cases[][2] = {
      {"1.25", "5/4"},  {"-3e2", "-300"},   {"1.5E-2", "3/200"}, {"-.5", "-1/2"},
      {"6/4", "3/2"},   {"0/5", "0"},       {"-0", "0"},         {"+7", "7"},
      {"2.", "2"},      {"-10/4", "-5/2"},  {"0.000", "0"},      {"1e+3", "1000"},
      {"36893488147419103232/3", "36893488147419103232/3"}, /* 2^65 / 3 */
      {"0.1", "1/10"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    vipr_q q;
    twill_vipr_q_init(&q);
    ck_assert_msg(twill_vipr_q_parse(&q, cases[i][0], strlen(cases[i][0])) == 0,
                  "parse %s", cases[i][0]);
    assert_q(&q, cases[i][1]);
    twill_vipr_q_free(&q);
  }
}
END_TEST

START_TEST(q_parse_rejects) {
  const char *bad[] = {"", "1/0", "1/-2", "1/+2", ".", "e5", "1e", "1e1001",
                       "abc", "--1", "1/2/3", "1.2.3", "/2", "1/", "0x10",
                       "1.5/2", "inf", "- 1"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    vipr_q q;
    twill_vipr_q_init(&q);
    ck_assert_msg(twill_vipr_q_parse(&q, bad[i], strlen(bad[i])) != 0, "accepted '%s'",
                  bad[i]);
    twill_vipr_q_free(&q);
  }
}
END_TEST

static vipr_q qv(const char *s) {
  vipr_q q;
  twill_vipr_q_init(&q);
  ck_assert_int_eq(twill_vipr_q_parse(&q, s, strlen(s)), 0);
  return q;
}

START_TEST(q_arithmetic) {
  vipr_q a = qv("1/3"), b = qv("1/6"), r;
  twill_vipr_q_init(&r);
  twill_vipr_q_add(&r, &a, &b); /* 1/3 + 1/6 = 1/2 */
  assert_q(&r, "1/2");
  twill_vipr_q_sub(&r, &r, &r); /* x - x = 0 with denominator 1 */
  assert_q(&r, "0");
  ck_assert(twill_vipr_q_is_int(&r));
  vipr_q c = qv("2/3"), d = qv("9/4");
  twill_vipr_q_mul(&r, &c, &d); /* 2/3 * 9/4 = 3/2 */
  assert_q(&r, "3/2");
  vipr_q e = qv("-7/2");
  twill_vipr_q_floor(&r, &e);
  assert_q(&r, "-4");
  twill_vipr_q_ceil(&r, &e);
  assert_q(&r, "-3");
  vipr_q f = qv("0.3333");
  ck_assert_int_gt(twill_vipr_q_cmp(&a, &f), 0); /* 1/3 > 3333/10000 */
  ck_assert_int_lt(twill_vipr_q_cmp(&e, &f), 0);
  twill_vipr_q_set_i64(&r, 1);
  twill_vipr_q_addmul(&r, &c, &d); /* 1 + 3/2 */
  assert_q(&r, "5/2");
  /* sums with a large common denominator: 1/2^70 + 1/2^70 = 1/2^69 */
  vipr_q g = qv("1/1180591620717411303424");
  twill_vipr_q_add(&r, &g, &g);
  assert_q(&r, "1/590295810358705651712");
  twill_vipr_q_free(&a); twill_vipr_q_free(&b); twill_vipr_q_free(&r); twill_vipr_q_free(&c);
  twill_vipr_q_free(&d); twill_vipr_q_free(&e); twill_vipr_q_free(&f); twill_vipr_q_free(&g);
}
END_TEST

/* ------------------------------------------------------- certificates */

static char *load(const char *name, size_t *len) {
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/vipr/%s", name);
  char *path = tu_src_path(rel);
  char *text = tu_read_file(path, len);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  free(path);
  return text;
}

static const char *valid[] = {"lp_opt.vipr",  "lp_infeas.vipr", "mip_bb.vipr",
                              "mip_sol.vipr", "mip_cg.vipr",    "int_infeas.vipr"};
static const char *summary[] = {
    "optimal value range [7/5, 7/5] verified", "infeasibility verified",
    "optimal value range [1, 1] verified", "optimal value range [1, 1] verified",
    "optimal value range [1, 1] verified", "infeasibility verified"};

START_TEST(valid_certificate_verifies) {
  size_t len;
  char *text = load(valid[_i], &len);
  char msg[600];
  int rc = twill_vipr_check_mem(valid[_i], text, len, msg, sizeof msg);
  ck_assert_msg(rc == 0, "%s: %s", valid[_i], msg);
  ck_assert_msg(strstr(msg, summary[_i]), "%s: %s", valid[_i], msg);
  /* the streaming file reader agrees */
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/vipr/%s", valid[_i]);
  char *path = tu_src_path(rel);
  ck_assert_int_eq(twill_vipr_check_file(path, msg, sizeof msg), 0);
  free(path);
  free(text);
}
END_TEST

/* A bound with a long numerator and denominator is shown rounded, with a
 * "~": the message used to cut it at 60 characters, which dropped digits
 * of the denominator (859.99989 read as 8.6e21). */
START_TEST(long_bound_shown_rounded) {
  size_t len;
  char *text = load("lp_opt.vipr", &len);
  const char *from = "RTP range 7/5 7/5";
  char *at = strstr(text, from);
  ck_assert_ptr_nonnull(at);
  char buf[4096];
  snprintf(buf, sizeof buf, "%.*sRTP range 13999999999999999999999999999999/10000000000000000000000000000000 7/5%s",
           (int)(at - text), text, at + strlen(from));
  char msg[600];
  ck_assert_int_eq(twill_vipr_check_mem("long", buf, strlen(buf), msg, sizeof msg), 0);
  ck_assert_msg(strstr(msg, "optimal value range [~1.4, 7/5] verified"), "%s", msg);
  free(text);
}
END_TEST

typedef struct {
  const char *file, *from, *to, *why;
} mutant;

/* One substitution each; `why` must appear in the diagnostic. */
static const mutant mutants[] = {
    /* lp_infeas, all-flipped with a wrong sign */
    {"lp_infeas.vipr", "farkas G 1  0  { lin 3  0 -1  1 -1  2 1 }",
     "farkas L -1  0  { lin 3  0 1  1 -1  2 -1 }", "wrong sign"},

    /* lp_opt: dual multipliers 2/5, 1/5 on C1, C2 */
    {"lp_opt.vipr", "2 2/5  3 0.2", "2 2/5  3 -0.2", "wrong sign"},
    {"lp_opt.vipr", "2 2/5  3 0.2", "2 1/2  3 0.2", "does not dominate"},
    {"lp_opt.vipr", "lower G 7/5", "lower G 3/2", "does not imply lower"},
    {"lp_opt.vipr", "opt 2  0 4/5  1 0.6", "opt 2  0 1/2  1 1/2",
     "violates constraint 2 (C1)"},
    /* a feasible solution of value 2 cannot show the optimum is <= 7/5 */
    {"lp_opt.vipr", "opt 2  0 4/5  1 0.6", "opt 1  0 2", "no solution reaches"},
    /* the derivation proves 7/5, not 3/2 */
    {"lp_opt.vipr", "RTP range 7/5 7/5\nSOL 1\nopt 2  0 4/5  1 0.6",
     "RTP range 3/2 inf\nSOL 0", "does not imply OBJ >= lb"},
    {"lp_opt.vipr", "RTP range 7/5 7/5", "RTP range 7/5 1", "exceeds upper"},
    {"lp_opt.vipr", "INT 0\n", "", "expected 'INT'"},
    {"lp_opt.vipr", "SOL 1\nopt 2  0 4/5  1 0.6\n", "", "expected 'SOL'"},
    {"lp_opt.vipr", "7/5 OBJ", "7/0 OBJ", "malformed number '7/0'"},
    {"lp_opt.vipr", "0 4/5", "0 4/5x", "malformed number"},
    {"lp_opt.vipr", "C2  G 3  2  0 3  1 1", "C2  G 3  2  0 3  2 1",
     "variable index must be an integer in [0, 1]"},
    {"lp_opt.vipr", "3 0.2 }", "4 0.2 }", "constraint index must be"},
    {"lp_opt.vipr", "2 2/5  3 0.2", "2 2/5  2 0.2", "appears twice"},
    {"lp_opt.vipr", "C1  G 2  2  0 1  1 2", "C1  G 2  2  0 1  0 2", "appears twice"},
    {"lp_opt.vipr", "C1  G", "C1  X", "sense must be"},
    {"lp_opt.vipr", "{ lin 2", "{ lni 2", "unknown reason"},
    {"lp_opt.vipr", "} -1", "} -1 extra", "after the DER section"},
    {"lp_opt.vipr", "VER 1.0", "VER 2.0", "unsupported VIPR version"},
    {"lp_opt.vipr", "2  2 2/5  3 0.2 } -1", "2  2 2/5", "unexpected end of file"},
    {"lp_opt.vipr", "DER 1", "DER -1", "number of derivations"},
    {"lp_opt.vipr", "VAR 2", "VAR 99999", "number of variables"},
    /* lp_infeas: Farkas multipliers -1, -1, 1 */
    {"lp_infeas.vipr", "0 -1  1 -1  2 1", "0 1  1 -1  2 1", "wrong sign"},
    {"lp_infeas.vipr", "0 -1  1 -1  2 1 }", "0 -1  1 -1  2 1/2 }",
     "does not dominate"},
    {"lp_infeas.vipr", "SOL 0", "SOL 1\ns 2  0 1  1 2", "violates constraint 1 (uby)"},
    {"lp_infeas.vipr", "farkas G 1  0", "farkas G 1  1 0 1", "not an absurdity"},
    /* mip_bb: the tree */
    {"mip_bb.vipr", "{ uns 8 3  18 9 }", "{ uns 8 3  8 9 }", "still depends"},
    {"mip_bb.vipr", "{ uns 8 3  18 9 }", "{ uns 8 3  25 9 }",
     "constraint index must be"},
    {"mip_bb.vipr", "bx2 G 2  1  0 1", "bx2 G 3  1  0 1", "do not split"},
    {"mip_bb.vipr", "{ uns 17 12  11 10 }", "{ uns 17 12  11 9 }",
     "different left-hand sides"},
    {"mip_bb.vipr", "{ uns 5 4  7 6 }", "{ uns 4 4  7 6 }",
     "first branch does not dominate"},
    {"mip_bb.vipr", "by1 L 1  1  1 1   { asm } 8", "by1 L 1  1  1 1   { asm } 5",
     "forgotten"},
    {"mip_bb.vipr", "{ uns 8 3  18 9 } -1", "{ lin 1  18 1 } -1", "still depends"},
    {"mip_bb.vipr", "RTP range 1 1", "RTP range -inf 1/2", "better than the RTP"},
    {"mip_bb.vipr", "INT 2\n0 1", "INT 1\n0", "non-integer term"},
    /* mip_sol: the incumbent cutoff */
    {"mip_sol.vipr", "cutoff G 2", "cutoff G 3", "stronger than the cutoff"},
    {"mip_sol.vipr", "RTP range 1 1\nSOL 2\nother 0\nbest 1  0 1",
     "RTP range -inf 1\nSOL 0", "no solution"},
    {"mip_sol.vipr", "best 1  0 1", "best 1  0 1/2", "fractional value"},
    {"mip_sol.vipr", "cutoff G 2  OBJ", "cutoff G 2  1 0 1", "not a bound on the"},
    /* mip_cg: the rounding */
    {"mip_cg.vipr", "INT 2\n0 1", "INT 1\n0", "continuous"},
    {"mip_cg.vipr", "{ rnd 1  2 1/2 }", "{ rnd 1  2 1/3 }", "fractional"},
    {"mip_cg.vipr", "cut L 1", "cut L 0", "does not imply cut"},
    /* int_infeas */
    {"int_infeas.vipr", "INT 1\n0", "INT 0\n", "continuous"},
    {"int_infeas.vipr", "r1 G 1    1  0 1", "r1 G 2    1  0 1", "does not imply r1"},
    {"int_infeas.vipr", "{ lin 1  0 1/2 } 2", "{ lin 1  0 1/2 } 1", "forgotten"},
    {"int_infeas.vipr", "f  G 1    0       { lin 2  2 1  4 -1 } -1",
     "f  G 1    1 0 1   { lin 1  2 1 } -1",
     "not an absurdity"},
};

/* Substitutions that keep a certificate valid (the checker must not be
 * stricter than the format). */
static const mutant variants[] = {
    /* other spellings of the same numbers and tokens */
    {"lp_opt.vipr", "3 0.2 }", "3 2e-1 }", NULL},
    {"lp_opt.vipr", "{ lin 2", "{lin 2", NULL},
    {"lp_opt.vipr", "} -1", "}-1 % trailing comment", NULL},
    {"lp_opt.vipr", "1 0.6", "1 +6/10", NULL},
    /* a weaker stated bound is still implied */
    {"lp_infeas.vipr", "farkas G 1  0", "farkas G 1/2  0", NULL},
    /* scaled Farkas multipliers still give an absurdity (0 >= 1/2) */
    {"lp_infeas.vipr", "0 -1  1 -1  2 1 }", "0 -1/2  1 -1/2  2 1/2 }", NULL},
    /* all signs flipped: a <= combination, 0 <= -1 */
    {"lp_infeas.vipr", "farkas G 1  0  { lin 3  0 -1  1 -1  2 1 }",
     "farkas L -1  0  { lin 3  0 1  1 1  2 -1 }", NULL},
    /* zero multipliers are ignored, whatever their row */
    {"lp_opt.vipr", "{ lin 2  2 2/5  3 0.2 }", "{ lin 3  2 2/5  3 0.2  0 0 }", NULL},
    /* the unsplit pairs may be given in either order */
    {"mip_bb.vipr", "{ uns 8 3  18 9 }", "{ uns 18 9  8 3 }", NULL},
    /* keeping everything forever is allowed */
    {"mip_bb.vipr", "{ asm } 8", "{ asm } -1", NULL},
    /* the cutoff written out instead of with the OBJ keyword */
    {"mip_sol.vipr", "cutoff G 2  OBJ", "cutoff G 2  2  1 1  0 1", NULL},
    /* the bound may be proved on a smaller range than claimed */
    {"mip_cg.vipr", "RTP range 1 1", "RTP range 0 inf", NULL},
};

static char *substitute(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  ck_assert_msg(at != NULL, "'%s' not in certificate", from);
  size_t n = strlen(text) - strlen(from) + strlen(to);
  char *out = malloc(n + 1);
  size_t pre = (size_t)(at - text);
  memcpy(out, text, pre);
  strcpy(out + pre, to);
  strcat(out, at + strlen(from));
  return out;
}

START_TEST(corrupted_certificate_is_rejected) {
  const mutant *mu = &mutants[_i];
  size_t len;
  char *text = load(mu->file, &len);
  char *bad = substitute(text, mu->from, mu->to);
  char msg[600];
  int rc = twill_vipr_check_mem(mu->file, bad, strlen(bad), msg, sizeof msg);
  ck_assert_msg(rc == 1, "%s: '%s' -> '%s' was verified", mu->file, mu->from, mu->to);
  ck_assert_msg(strstr(msg, mu->why), "%s: expected '%s' in: %s", mu->file,
                mu->why, msg);
  /* file:line:col: message */
  char name[64];
  int line = 0, col = 0;
  ck_assert_int_eq(sscanf(msg, "%63[^:]:%d:%d: ", name, &line, &col), 3);
  ck_assert_str_eq(name, mu->file);
  ck_assert(line > 0 && col > 0);
  free(bad);
  free(text);
}
END_TEST

START_TEST(variant_still_verifies) {
  const mutant *mu = &variants[_i];
  size_t len;
  char *text = load(mu->file, &len);
  char *ok = substitute(text, mu->from, mu->to);
  char msg[600];
  int rc = twill_vipr_check_mem(mu->file, ok, strlen(ok), msg, sizeof msg);
  ck_assert_msg(rc == 0, "%s: '%s' -> '%s' rejected: %s", mu->file, mu->from,
                mu->to, msg);
  free(ok);
  free(text);
}
END_TEST

START_TEST(diagnostic_points_at_the_token) {
  size_t len;
  char *text = load("lp_opt.vipr", &len);
  char *bad = substitute(text, "VER 1.0", "VER 2.0");
  /* the version token is on the line of "VER", column 5 */
  int line = 1;
  for (const char *p = bad; p < strstr(bad, "VER 2.0"); p++) line += *p == '\n';
  char msg[600], want[64];
  ck_assert_int_eq(twill_vipr_check_mem("x.vipr", bad, strlen(bad), msg, sizeof msg), 1);
  snprintf(want, sizeof want, "x.vipr:%d:5: ", line);
  ck_assert_msg(!strncmp(msg, want, strlen(want)), "got %s", msg);
  free(bad);
  free(text);
}
END_TEST

START_TEST(degenerate_inputs_are_rejected) {
  char msg[600];
  const char *inputs[] = {"", "% only a comment\n", "VER", "VER 1.0 VAR 1 x INT 1 5",
                          "VER 1.0\nVAR 1 x\nINT 0\nOBJ min 0\nCON 1 0\n"
                          "c G 0 0\nRTP infeas\nSOL 0\nDER 0\n"};
  for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
    ck_assert_int_eq(twill_vipr_check_mem("d", inputs[i], strlen(inputs[i]), msg,
                                          sizeof msg), 1);
  /* NUL byte inside a token */
  const char nul[] = "VER 1\0.0";
  ck_assert_int_eq(twill_vipr_check_mem("d", nul, sizeof nul - 1, msg, sizeof msg), 1);
  ck_assert_ptr_nonnull(strstr(msg, "NUL"));
  /* msg may be NULL */
  ck_assert_int_eq(twill_vipr_check_mem("d", "", 0, NULL, 0), 1);
  /* a very long token is refused, not buffered */
  size_t n = 200000;
  char *big = malloc(n + 1);
  memset(big, '1', n);
  big[n] = 0;
  memcpy(big, "VER ", 4);
  ck_assert_int_eq(twill_vipr_check_mem("d", big, n, msg, sizeof msg), 1);
  ck_assert_ptr_nonnull(strstr(msg, "token longer"));
  free(big);
  ck_assert_int_eq(twill_vipr_check_file("/nonexistent/x.vipr", msg, sizeof msg), 1);
}
END_TEST

/* An objective that is identically zero: "OBJ >= 0" needs no derivation,
 * and an empty range (-inf, inf) needs nothing at all. */
START_TEST(trivial_ranges_verify) {
  char msg[600];
  const char *a = "VER 1.0\nVAR 1 x\nINT 0\nOBJ min 0\nCON 0 0\nRTP range 0 0\n"
                  "SOL 1 zero 0\nDER 0\n";
  ck_assert_msg(twill_vipr_check_mem("t", a, strlen(a), msg, sizeof msg) == 0, "%s", msg);
  const char *b = "VER 1.1\nVAR 1 x\nINT 0\nOBJ max 1 0 1\nCON 0 0\n"
                  "RTP range -inf inf\nSOL 0\nDER 0\n";
  ck_assert_msg(twill_vipr_check_mem("t", b, strlen(b), msg, sizeof msg) == 0, "%s", msg);
}
END_TEST

START_TEST(cli_vipr_check) {
  char *out = NULL, *err = NULL;
  char *path = tu_src_path("tests/data/vipr/mip_bb.vipr");
  const char *args[] = {"vipr-check", path, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "s VERIFIED"));
  free(out);
  free(err);
  /* a corrupted copy */
  size_t len;
  char *text = load("mip_bb.vipr", &len);
  char *bad = substitute(text, "{ uns 8 3  18 9 }", "{ uns 8 3  8 9 }");
  char tmp[] = "/tmp/twill-vipr-XXXXXX";
  int fd = mkstemp(tmp);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, bad, strlen(bad)), (long)strlen(bad));
  close(fd);
  const char *args2[] = {"vipr-check", tmp, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args2), 1);
  ck_assert_ptr_nonnull(strstr(out, "s NOT VERIFIED"));
  ck_assert_ptr_nonnull(strstr(err, tmp));
  ck_assert_ptr_nonnull(strstr(err, "still depends"));
  free(out);
  free(err);
  unlink(tmp);
  const char *args3[] = {"vipr-check", NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, args3), 1);
  ck_assert_ptr_nonnull(strstr(err, "no certificate given (try 'twill help vipr-check')"));
  free(out);
  free(err);
  free(bad);
  free(text);
  free(path);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("vipr");
  TCase *num = tcase_create("arithmetic");
  tcase_add_test(num, big_mul_beyond_64_bits);
  tcase_add_test(num, big_add_sub_carries);
  tcase_add_test(num, big_divmod_hand_values);
  tcase_add_test(num, big_divmod_identity_random);
  tcase_add_test(num, big_gcd_hand_values);
  tcase_add_test(num, big_gcd_matches_euclid);
  tcase_add_test(num, q_parse_forms);
  tcase_add_test(num, q_parse_rejects);
  tcase_add_test(num, q_arithmetic);
  suite_add_tcase(s, num);
  TCase *cert = tcase_create("certificates");
  tcase_set_timeout(cert, 60);
  tcase_add_test(cert, long_bound_shown_rounded);
  tcase_add_loop_test(cert, valid_certificate_verifies, 0,
                      (int)(sizeof valid / sizeof *valid));
  tcase_add_loop_test(cert, corrupted_certificate_is_rejected, 0,
                      (int)(sizeof mutants / sizeof *mutants));
  tcase_add_loop_test(cert, variant_still_verifies, 0,
                      (int)(sizeof variants / sizeof *variants));
  tcase_add_test(cert, diagnostic_points_at_the_token);
  tcase_add_test(cert, degenerate_inputs_are_rejected);
  tcase_add_test(cert, trivial_ranges_verify);
  tcase_add_test(cert, cli_vipr_check);
  suite_add_tcase(s, cert);
  return s;
}

TWILL_CHECK_MAIN
