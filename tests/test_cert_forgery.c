/* tests/test_cert_forgery.c: forged certificates are refused.
 *
 * Part 1, one regression per class of the adversarial review of the
 * checker (each got VERIFIED for a false claim before this suite), driven
 * through `twill solve|modulo --cert` and `twill check` and built by text
 * edits of genuine certificates, so that they read the same on every
 * certificate version:
 *   1  a number read two ways (a zero-padded right-hand side);
 *   2  header lines after the proof blocks, the last one printed;
 *   3  an input clause spelled " a 0" or "a<TAB>0" after the problem;
 *   4  the embedded phase-1 block read by two readers;
 *   5  a refutation at an L shorter than the claim needs;
 *   6  the machine, the parameters and the budget taken from the
 *      certificate.
 * The claims forged are false by hand: fig1 has I* = 2, L* = 4 (kernels.md
 * 1: TC busy 2 cycles of capacity 1; S@0 P@1 O@3), and gemm-hopper has a
 * joint schedule at I = 2 on the machine's 12 warps (its certificate).
 *
 * Part 2, systematic forgeries on tiny kernels whose truth brute force
 * knows (tests/bf_joint.c): every integer outside the proofs changed,
 * every line dropped, doubled or swapped with the next, text after `end`,
 * input lines in every spelling inside every refutation, refutations moved
 * to other (I, L), and the certificate checked against a neighbouring
 * kernel or machine.  A structural forgery must be refused; any other
 * forgery the checker accepts must claim something brute force confirms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bf_joint.h"
#include "bf_modulo.h"
#include "check_main.h"
#include "fixtures.h"
#include "testutil.h"
#include "twill/arch.h"
#include "twill/check.h"
#include "twill/joint.h"
#include "twill/modulo.h"

/* ---- a certificate as lines and blocks --------------------------------- */

typedef struct part {
  char *line; /* without its newline */
  char *blk;  /* the block after the line, or NULL */
  size_t blen;
} part;

typedef struct cert {
  part *p;
  int n;
} cert;

/* A line announces a block when it starts with one of these words and ends
 * with a byte count (both certificate versions). */
static int announces(const char *line) {
  static const char *const w[] = {"vipr ", "smt ", "phase1 ", "refute ", "never ",
                                  "norm-proof "};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    if (!strncmp(line, w[i], strlen(w[i]))) return 1;
  return 0;
}

static cert parse(const char *t, size_t len) {
  cert c = {calloc(4096, sizeof(part)), 0};
  size_t i = 0;
  while (i < len) {
    const char *e = memchr(t + i, '\n', len - i);
    ck_assert_ptr_nonnull(e);
    size_t n = (size_t)(e - (t + i));
    part *p = &c.p[c.n++];
    ck_assert_int_lt(c.n, 4096);
    p->line = strndup(t + i, n);
    i += n + 1;
    if (announces(p->line)) {
      const char *sp = strrchr(p->line, ' ');
      size_t b = (size_t)atol(sp + 1);
      p->blk = malloc(b + 1);
      memcpy(p->blk, t + i, b);
      p->blen = b;
      i += b + 1;
    }
  }
  return c;
}

static void cert_free(cert *c) {
  for (int i = 0; i < c->n; i++) free(c->p[i].line), free(c->p[i].blk);
  free(c->p);
}

/* The text, each announcing line's count set to its block's length. */
static char *render(const cert *c, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  for (int i = 0; i < c->n; i++) {
    const part *p = &c->p[i];
    if (p->blk) {
      const char *sp = strrchr(p->line, ' ');
      fprintf(f, "%.*s %zu\n", (int)(sp - p->line), p->line, p->blen);
      fwrite(p->blk, 1, p->blen, f);
      fputc('\n', f);
    } else {
      fprintf(f, "%s\n", p->line);
    }
  }
  fclose(f);
  return buf;
}

static int find(const cert *c, const char *prefix) {
  for (int i = 0; i < c->n; i++)
    if (!strncmp(c->p[i].line, prefix, strlen(prefix))) return i;
  return -1;
}

static void set_line(cert *c, int i, const char *text) {
  free(c->p[i].line);
  c->p[i].line = strdup(text);
}

static void insert(cert *c, int at, const char *line, const char *blk, size_t blen) {
  memmove(c->p + at + 1, c->p + at, (size_t)(c->n - at) * sizeof *c->p);
  c->n++;
  c->p[at].line = strdup(line);
  c->p[at].blk = blk ? memcpy(malloc(blen + 1), blk, blen) : NULL;
  c->p[at].blen = blen;
}

static void drop(cert *c, int i) {
  free(c->p[i].line), free(c->p[i].blk);
  memmove(c->p + i, c->p + i + 1, (size_t)(c->n - i - 1) * sizeof *c->p);
  c->n--;
}

/* ---- the command line ------------------------------------------------- */

/* Scratch files, named by the test's process so that suites run at the
 * same time (release, debug and sanitizer builds, other checkouts) do not
 * overwrite each other's; set by the fixture in each test's process. */
static char made_path[64], forged_path[64], smt_path[64], proof_path[64];
#define MADE made_path
#define FORGED forged_path
#define SMTF smt_path
#define PROOFF proof_path

static void name_scratch(void) {
  int pid = (int)getpid();
  snprintf(made_path, sizeof made_path, "/tmp/twill_forge_made.%d.cert", pid);
  snprintf(forged_path, sizeof forged_path, "/tmp/twill_forge.%d.cert", pid);
  snprintf(smt_path, sizeof smt_path, "/tmp/twill_forge.%d.smt", pid);
  snprintf(proof_path, sizeof proof_path, "/tmp/twill_forge.%d.proof", pid);
}

static char *make(const char *const *args, size_t *len) {
  char *out, *err;
  int rc = tu_run_twill(&out, &err, args);
  ck_assert_msg(rc == 0 || rc == 2, "%s: exit %d: %s", args[0], rc, err);
  free(out), free(err);
  char *c = tu_read_file(MADE, len);
  ck_assert_ptr_nonnull(c);
  remove(MADE);
  return c;
}

/* `twill check KERNEL CERT [flags]`: the exit status; *out, *err kept. */
static int check_cli(const char *kernel, const char *text, size_t len,
                     const char *const *flags, char **out, char **err) {
  FILE *f = fopen(FORGED, "w");
  ck_assert_ptr_nonnull(f);
  fwrite(text, 1, len, f);
  fclose(f);
  const char *a[32];
  int k = 0;
  a[k++] = "check", a[k++] = kernel, a[k++] = FORGED;
  for (int i = 0; flags && flags[i]; i++) a[k++] = flags[i];
  a[k] = NULL;
  int rc = tu_run_twill(out, err, a);
  remove(FORGED);
  return rc;
}

static void expect_refused(const char *kernel, const cert *c, const char *const *flags,
                           const char *what) {
  size_t len;
  char *t = render(c, &len);
  char *out, *err;
  int rc = check_cli(kernel, t, len, flags, &out, &err);
  ck_assert_msg(rc == 1 && strstr(out, "s NOT VERIFIED"), "%s: accepted: %s", what, out);
  fprintf(stderr, "refused (%s): %s", what, err);
  free(out), free(err), free(t);
}

/* The schedule of fig1 at I = 3, L = 3 (a modulo schedule, legal with
 * every op on warp 0 too: fig1 has no registers or blocking edges). */
static void fig1_at_3(cert *c, int warps) {
  static const char *const op[3] = {"S", "P", "O"};
  for (int v = 0; v < 3; v++) {
    char pre[16], line[64];
    snprintf(pre, sizeof pre, "time %s ", op[v]);
    int i = find(c, pre);
    ck_assert_int_ge(i, 0);
    snprintf(line, sizeof line, warps ? "time %s %d 0" : "time %s %d", op[v], v);
    set_line(c, i, line);
  }
}

/* ---- part 1: the six classes ------------------------------------------ */

/* Class 1.  A phase-1 certificate claiming fig1's I* = 3: its proof that
 * I = 2 is infeasible starts from a_S,0 >= 1 and a_S,1 >= 1 (S in both
 * slots) and S's one-slot row; with the right-hand sides written as 1
 * after 70 zeros, a reader that cut tokens at 63 characters saw the
 * harmless a >= 0 where the VIPR checker saw a >= 1. */
START_TEST(class1_a_number_read_two_ways) {
  const char *const a[] = {"modulo", "fig1", "--cert", MADE, NULL};
  size_t len;
  char *t = make(a, &len);
  cert c = parse(t, len);
  free(t);
  char one[80];
  memset(one, '0', 70);
  strcpy(one + 70, "1");
  char vipr[1024];
  int n = snprintf(vipr, sizeof vipr,
                   "VER 1.0\nVAR 13\na_0_0 a_0_1 k_0 t_0 a_1_0 a_1_1 k_1 t_1 a_2_0 a_2_1 k_2 "
                   "t_2 L\nINT 13\n0 1 2 3 4 5 6 7 8 9 10 11 12\nOBJ min\n1  12 1\nCON 3 2\n"
                   "B0 G %s 1  0 1\nB1 G %s 1  1 1\nS0 E 1 2  0 1  1 1\nRTP infeas\nSOL 0\n"
                   "DER 1\nF G 1 0 { lin 3  0 1  1 1  2 -1 } -1\n", one, one);
  set_line(&c, find(&c, "ii "), "ii 3");
  set_line(&c, find(&c, "length "), "length 3");
  int h = find(&c, "heuristic ");
  set_line(&c, h, "heuristic 3 3");
  insert(&c, find(&c, "form ") + 1, "length-proof none", NULL, 0);
  fig1_at_3(&c, 0);
  int v = find(&c, "vipr 2 ");
  if (v < 0) v = find(&c, "smt 2 "); /* phase 1's SMT engine proved L* = 4 */
  ck_assert_int_ge(v, 0);
  drop(&c, v);
  insert(&c, v, "vipr 2 infeasible 0", vipr, (size_t)n);
  expect_refused("fig1", &c, NULL, "class 1: zero-padded right-hand sides");
  /* the same with 2^64 + 1 as a coefficient (strtol saturated it) */
  char big[1024];
  n = snprintf(big, sizeof big,
               "VER 1.0\nVAR 13\na_0_0 a_0_1 k_0 t_0 a_1_0 a_1_1 k_1 t_1 a_2_0 a_2_1 k_2 "
               "t_2 L\nINT 13\n0 1 2 3 4 5 6 7 8 9 10 11 12\nOBJ min\n1  12 1\nCON 2 1\n"
               "B0 G 18446744073709551617 1  0 18446744073709551617\nS0 E 1 2  0 1  1 1\n"
               "RTP infeas\nSOL 0\nDER 0\n");
  free(c.p[v].blk);
  c.p[v].blk = strdup(big);
  c.p[v].blen = (size_t)n;
  expect_refused("fig1", &c, NULL, "class 1: a coefficient past 2^64");
  cert_free(&c);
}
END_TEST

/* Class 2.  Header lines after the proof blocks ("ii 3" and "length-proof
 * none" before "end" of fig1's phase-1 certificate): the last value was
 * printed, "I* = 3", beside proofs that were about I = 2. */
START_TEST(class2_header_after_the_proofs) {
  const char *const a[] = {"modulo", "fig1", "--cert", MADE, NULL};
  size_t len;
  char *t = make(a, &len);
  cert c = parse(t, len);
  free(t);
  int e = find(&c, "end");
  insert(&c, e, "ii 3", NULL, 0);
  insert(&c, e + 1, "length-proof none", NULL, 0);
  expect_refused("fig1", &c, NULL, "class 2: ii after the proofs");
  cert_free(&c);
  /* and after "end" */
  t = make(a, &len);
  c = parse(t, len);
  free(t);
  insert(&c, c.n, "ii 3", NULL, 0);
  expect_refused("fig1", &c, NULL, "class 2: ii after end");
  cert_free(&c);
}
END_TEST

/* fig1's solve certificate turned into a claim of I* = 3: the schedule at
 * (3, 3), and the refutation at (2, 4) that claim needs (phase 1's L at 2
 * is 4, one copy of 2 short of nothing: ceil(4/2)*2 = 4) made of the
 * problem at (2, 4) followed by `extra` (the problem at (2, 3) is in the
 * certificate's length proof; fig1 holds nothing, so only the domains,
 * "i X 0 2" at L = 3, differ at L = 4). */
static cert fig1_claims_3(const char *extra) {
  /* one warp count (--warps 12): the forged refutation goes just before
   * "end", where a searched certificate has the other warp counts */
  const char *const a[] = {"solve", "fig1", "--warps", "12", "--cert", MADE, NULL};
  size_t len;
  char *t = make(a, &len);
  cert c = parse(t, len);
  free(t);
  int r = find(&c, "refute 2 3 ");
  ck_assert_int_ge(r, 0);
  char *pre = malloc(c.p[r].blen + 256);
  size_t k = 0;
  const char *b = c.p[r].blk, *end = b + c.p[r].blen;
  while (b < end) {
    const char *e = memchr(b, '\n', (size_t)(end - b));
    if (!e) e = end;
    if (*b == 'o' || *b == 't') break; /* the proof starts */
    int x;
    long lo, hi;
    char tail, line[128] = "";
    /* the block is not a C string: sscanf gets one line, terminated */
    if ((size_t)(e - b) + 1 < sizeof line) memcpy(line, b, (size_t)(e - b) + 1);
    if (sscanf(line, "i %d %ld %ld%c", &x, &lo, &hi, &tail) == 4 && tail == '\n' && hi == 2)
      k += (size_t)sprintf(pre + k, "i %d %ld 3\n", x, lo);
    else
      memcpy(pre + k, b, (size_t)(e - b) + 1), k += (size_t)(e - b) + 1;
    b = e + 1;
  }
  k += (size_t)sprintf(pre + k, "%s", extra);
  drop(&c, r);
  set_line(&c, find(&c, "ii "), "ii 3");
  set_line(&c, find(&c, "length "), "length 3");
  fig1_at_3(&c, 1);
  int e = find(&c, "end");
  insert(&c, e, "refute 2 4 0", pre, k);
  insert(&c, e + 1, "length-proof none", NULL, 0);
  free(pre);
  return c;
}

/* Class 3.  An empty input clause after the problem, spelled so that a
 * filter looking for "a " at the start of a line missed it while the
 * proof reader (which skips blanks and splits on tabs) read it. */
START_TEST(class3_input_spelled_with_blanks) {
  static const char *const spell[] = {" a 0\n", "a\t0\n", "\ta 0\n", "  a  0\n", "a 0\n"};
  static const char *const shown[] = {"' a 0'", "'a<TAB>0'", "'<TAB>a 0'", "'  a  0'", "'a 0'"};
  for (size_t s = 0; s < sizeof spell / sizeof *spell; s++) {
    cert c = fig1_claims_3(spell[s]);
    char what[64];
    snprintf(what, sizeof what, "class 3: %s in a refutation", shown[s]);
    const char *const w12[] = {"--warps", "12", NULL};
    expect_refused("fig1", &c, w12, what);
    cert_free(&c);
  }
  /* `twill smt F --check P`: a satisfiable F "refuted" the same way */
  FILE *f = fopen(SMTF, "w");
  fputs("int x 0 3\nint y 0 3\nlin 1 x + 1 y <= 4\n", f);
  fclose(f);
  char *out, *err;
  const char *const a[] = {"smt", SMTF, "--proof", PROOFF, NULL};
  ck_assert_int_eq(tu_run_twill(&out, &err, a), 10); /* x = y = 0 */
  free(out), free(err);
  size_t len;
  char *p = tu_read_file(PROOFF, &len);
  ck_assert_ptr_nonnull(p);
  for (size_t s = 0; s < sizeof spell / sizeof *spell; s++) {
    f = fopen(PROOFF, "w");
    fwrite(p, 1, len, f);
    fputs(spell[s], f);
    fclose(f);
    const char *const b[] = {"smt", SMTF, "--check", PROOFF, NULL};
    int rc = tu_run_twill(&out, &err, b);
    ck_assert_msg(rc == 1 && strstr(out, "s NOT VERIFIED"), "smt: spelling %zu accepted: %s", s, out);
    free(out), free(err);
  }
  free(p);
  remove(SMTF);
  remove(PROOFF);
}
END_TEST

/* Class 4.  The phase-1 block with a second "ii" line (3) before its own
 * (2): one reader took the first, the phase-1 checker the last, so phase
 * 1 "proved" no modulo schedule below 3 and no refutation was needed. */
START_TEST(class4_phase1_block_read_twice) {
  const char *const a[] = {"solve", "fig1", "--cert", MADE, NULL};
  size_t len;
  char *t = make(a, &len);
  cert c = parse(t, len);
  free(t);
  int ph = find(&c, "phase1 ");
  ck_assert_int_ge(ph, 0);
  char *blk = c.p[ph].blk;
  char *ii = strstr(blk, "ii 2\n");
  ck_assert_ptr_nonnull(ii);
  char *nb = malloc(c.p[ph].blen + 8);
  size_t off = (size_t)(ii - blk);
  memcpy(nb, blk, off);
  memcpy(nb + off, "ii 3\n", 5);
  memcpy(nb + off + 5, ii, c.p[ph].blen - off);
  free(c.p[ph].blk);
  c.p[ph].blk = nb;
  c.p[ph].blen += 5;
  for (int r; (r = find(&c, "refute ")) >= 0;) drop(&c, r);
  set_line(&c, find(&c, "ii "), "ii 3");
  set_line(&c, find(&c, "length "), "length 3");
  fig1_at_3(&c, 1);
  insert(&c, find(&c, "end"), "length-proof none", NULL, 0);
  expect_refused("fig1", &c, NULL, "class 4: two ii lines in the phase-1 block");
  cert_free(&c);
}
END_TEST

/* Class 5.  fig1's genuine refutation at (2, 3) (its proof that L* = 4)
 * used as the refutation of I = 2 for a claim of I* = 3: nothing tied its
 * L to the L the claim needs (4). */
START_TEST(class5_refutation_too_short) {
  const char *const a[] = {"solve", "fig1", "--cert", MADE, NULL};
  size_t len;
  char *t = make(a, &len);
  cert c = parse(t, len);
  free(t);
  set_line(&c, find(&c, "ii "), "ii 3");
  set_line(&c, find(&c, "length "), "length 3");
  fig1_at_3(&c, 1);
  insert(&c, find(&c, "end"), "length-proof none", NULL, 0);
  char *out, *err;
  char *txt = render(&c, &len);
  int rc = check_cli("fig1", txt, len, NULL, &out, &err);
  ck_assert_msg(rc == 1, "class 5 accepted: %s", out);
  fprintf(stderr, "refused (class 5): %s", err);
  free(out), free(err), free(txt);
  cert_free(&c);
}
END_TEST

/* Class 6.  The claim's machine and parameters belong to the check, not to
 * the certificate: a certificate made on another machine, with other
 * flags or another budget says nothing about the kernel as checked. */
START_TEST(class6_machine_and_parameters_from_the_check) {
  char *out, *err;
  size_t len;
  /* gemm-hopper on 4 warps: the variable-latency warp and the MMA
   * warpgroup cannot both fit, "infeasible at every I"; on the machine's
   * 12 warps I* = 2 (its own certificate verifies) */
  const char *const a[] = {"solve", "gemm-hopper", "--warps", "4", "--cert",
                           MADE, NULL};
  char *t = make(a, &len);
  const char *const w12[] = {"--warps", "12", NULL};
  ck_assert_int_eq(check_cli("gemm-hopper", t, len, w12, &out, &err), 1);
  ck_assert_msg(strstr(err, "warps: the certificate says 4, the check derives 12"), "%s", err);
  free(out), free(err);
  /* without --warps the check asks for the launch search's certificate
   * (twill/launch.h), which a fixed-W one is not */
  ck_assert_int_eq(check_cli("gemm-hopper", t, len, NULL, &out, &err), 1);
  ck_assert_msg(strstr(err, "expected 'launch'"), "%s", err);
  free(out), free(err);
  const char *const w4[] = {"--warps", "4", NULL};
  ck_assert_int_eq(check_cli("gemm-hopper", t, len, w4, &out, &err), 0);
  ck_assert_msg(strstr(out, "infeasible at every I") && strstr(out, "machine hopper") &&
                    strstr(out, "warps 4"), "%s", out);
  free(out), free(err), free(t);
  /* fig1 certified on blackwell, checked on its own arch line's hopper */
  const char *const b[] = {"modulo", "fig1", "--arch", "blackwell", "--cert",
                           MADE, NULL};
  t = make(b, &len);
  ck_assert_int_eq(check_cli("fig1", t, len, NULL, &out, &err), 1);
  ck_assert_msg(strstr(err, "machine 'blackwell'"), "%s", err);
  free(out), free(err);
  const char *const bw[] = {"--arch", "blackwell", NULL};
  ck_assert_int_eq(check_cli("fig1", t, len, bw, &out, &err), 0);
  free(out), free(err), free(t);
  /* the normalization budget */
  const char *const c[] = {"modulo", "fig1", "--no-normalize", "--cert",
                           MADE, NULL};
  t = make(c, &len);
  ck_assert_int_eq(check_cli("fig1", t, len, NULL, &out, &err), 1);
  free(out), free(err);
  const char *const nn[] = {"--no-normalize", NULL};
  ck_assert_int_eq(check_cli("fig1", t, len, nn, &out, &err), 0);
  ck_assert_msg(strstr(out, "costs as given"), "%s", out);
  free(out), free(err), free(t);
  const char *const d[] = {"solve", "dragon", "--budget", "50", "--cert",
                           MADE, NULL};
  t = make(d, &len);
  ck_assert_int_eq(check_cli("dragon", t, len, NULL, &out, &err), 1);
  ck_assert_msg(strstr(err, "budget 50 differs from the check's 300"), "%s", err);
  free(out), free(err);
  const char *const b50[] = {"--budget", "50", NULL};
  ck_assert_int_eq(check_cli("dragon", t, len, b50, &out, &err), 0);
  free(out), free(err), free(t);
}
END_TEST

/* ---- part 2: systematic forgeries on tiny kernels ---------------------- */

typedef struct subject {
  const char *name;
  twill_graph *g;
  twill_joint_params p;
  int solve; /* 0: a phase-1 certificate */
  twill_arch *m;
} subject;

/* The genuine certificate of s (costs as given: budget 0). */
static char *genuine(const subject *s, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (s->solve) {
    twill_solve_opts o;
    twill_solve_opts_default(&o);
    o.certify = true;
    o.budget = 0;
    o.time_limit = 60;
    twill_solve_result r;
    ck_assert_int_eq(twill_solve(s->g, NULL, &s->p, &o, &r), 0);
    ck_assert_msg(r.status == 0 || r.status == 2, "%s: status %d", s->name, r.status);
    ck_assert_int_eq(twill_solve_write_cert(&r, "tiny", f), 0);
    twill_solve_result_clear(&r);
  } else {
    twill_modulo_opts o;
    twill_modulo_opts_default(&o);
    o.certify = 1;
    twill_modulo_result r;
    ck_assert_int_eq(twill_modulo_solve(s->g, &o, &r), 0);
    ck_assert_int_eq(twill_modulo_write_cert(s->g, "tiny", NULL, &r, f), 0);
    twill_modulo_result_clear(&r);
  }
  fclose(f);
  return buf;
}

static int accepted, refused, judged, witnessed;

/* Check text against (g, p); when accepted, brute force must agree with
 * the claim.  must_refuse: a structural forgery, never acceptable. */
static void judge(const subject *s, const twill_graph *g, const twill_joint_params *p,
                  const char *text, size_t len, int must_refuse, const char *what) {
  twill_check_subject sub = {g, s->m, 0, s->solve ? p : NULL, 0};
  twill_check_claim cl;
  char msg[4000];
  int rc = twill_check_cert(&sub, text, len, &cl, msg, sizeof msg);
  if (rc) {
    refused++;
    return;
  }
  accepted++;
  ck_assert_msg(!must_refuse, "%s, %s: accepted: %s", s->name, what, msg);
  char why[300];
  long imax = 24, lmax = 16;
  ck_assert_msg(bf_claim_true(g, p, &cl, imax, lmax, why, sizeof why),
                "%s, %s: VERIFIED a false claim (%s): %s", s->name, what, why, msg);
  judged++;
}

static int is_int(const char *s, size_t n) {
  size_t i = s[0] == '-';
  if (i == n) return 0;
  for (; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* every token of every line outside the blocks that is an integer: +1,
 * -1, 0, and the count of a block +-1 */
static void forge_numbers(const subject *s, const cert *c0) {
  for (int i = 0; i < c0->n; i++) {
    const char *ln = c0->p[i].line;
    for (const char *t = ln; *t;) {
      const char *e = strchr(t, ' ');
      size_t n = e ? (size_t)(e - t) : strlen(t);
      if (is_int(t, n) && !(c0->p[i].blk && !e)) {
        long v = atol(t);
        long alt[3] = {v + 1, v - 1, 0};
        for (int a = 0; a < 3; a++) {
          if (alt[a] == v) continue;
          char nl[512];
          snprintf(nl, sizeof nl, "%.*s%ld%s", (int)(t - ln), ln, alt[a], e ? e : "");
          cert c = *c0;
          c.p = malloc((size_t)c0->n * sizeof *c.p);
          memcpy(c.p, c0->p, (size_t)c0->n * sizeof *c.p);
          c.p[i].line = nl;
          size_t len;
          char *txt = render(&c, &len);
          judge(s, s->g, &s->p, txt, len, 0, "a number changed");
          free(txt);
          free(c.p);
        }
      }
      if (!e) break;
      t = e + 1;
    }
  }
}

/* every line dropped, doubled, swapped with the next; text after end */
static void forge_lines(const subject *s, const cert *c0) {
  for (int i = 0; i < c0->n; i++)
    for (int op = 0; op < 3; op++) {
      if (op == 2 && i + 1 >= c0->n) continue;
      cert c = {malloc(((size_t)c0->n + 1) * sizeof(part)), 0};
      for (int k = 0; k < c0->n; k++) {
        if (op == 0 && k == i) continue;
        c.p[c.n++] = c0->p[k];
        if (op == 1 && k == i) c.p[c.n++] = c0->p[k];
      }
      if (op == 2) {
        part tmp = c.p[i];
        c.p[i] = c.p[i + 1];
        c.p[i + 1] = tmp;
      }
      size_t len;
      char *txt = render(&c, &len);
      judge(s, s->g, &s->p, txt, len, 1, op == 0 ? "a line dropped" : op == 1 ? "a line doubled"
                                                                            : "lines swapped");
      free(txt);
      free(c.p);
    }
  size_t len;
  char *txt = render(c0, &len);
  char *more = malloc(len + 8);
  memcpy(more, txt, len);
  memcpy(more + len, "end\n", 4);
  judge(s, s->g, &s->p, more, len + 4, 1, "text after end");
  free(more);
  free(txt);
}

/* input lines, in every spelling, at the end of every refutation */
static void forge_inputs(const subject *s, const cert *c0) {
  static const char *const in[] = {" a 0\n", "a\t0\n", "\ta 0\n", "a 0\n", " i 999 0 0\n",
                                   "k 999 lin 0 0 -1\n", " T 1\n", "p twill-smt 2\n"};
  for (int i = 0; i < c0->n; i++) {
    if (!c0->p[i].blk || (strncmp(c0->p[i].line, "refute ", 7) &&
                          strncmp(c0->p[i].line, "never ", 6) && strncmp(c0->p[i].line, "smt ", 4)))
      continue;
    for (size_t k = 0; k < sizeof in / sizeof *in; k++) {
      cert c = *c0;
      c.p = malloc((size_t)c0->n * sizeof *c.p);
      memcpy(c.p, c0->p, (size_t)c0->n * sizeof *c.p);
      size_t bl = c0->p[i].blen, il = strlen(in[k]);
      char *nb = malloc(bl + il + 2);
      memcpy(nb, c0->p[i].blk, bl);
      if (bl && nb[bl - 1] != '\n') nb[bl++] = '\n';
      memcpy(nb + bl, in[k], il);
      c.p[i].blk = nb;
      c.p[i].blen = bl + il;
      size_t len;
      char *txt = render(&c, &len);
      judge(s, s->g, &s->p, txt, len, 1, "an input line in a refutation");
      free(txt);
      free(nb);
      free(c.p);
    }
  }
}

/* A genuine refutation of the problem at (I, L), or NULL when it has a
 * schedule there. */
static char *refutation(const subject *s, long ii, long L, size_t *n) {
  twill_joint *j = twill_joint_new(s->g, &s->p, ii, L, true);
  if (!j) return NULL;
  char *buf = NULL;
  if (twill_joint_refute(j, 30) == 20) {
    FILE *f = open_memstream(&buf, n);
    ck_assert_int_eq(twill_joint_write_proof(j, f), 0);
    fclose(f);
  }
  twill_joint_free(j);
  return buf;
}

/* each refutation replaced by a genuine one at another (I, L) */
static void forge_moves(const subject *s, const cert *c0) {
  for (int i = 0; i < c0->n; i++) {
    long ii, L;
    size_t b;
    if (!c0->p[i].blk || sscanf(c0->p[i].line, "refute %ld %ld %zu", &ii, &L, &b) != 3) continue;
    long to[4][2] = {{ii, L - 1}, {ii, L - 2}, {ii + 1, L}, {ii - 1, L}};
    for (int k = 0; k < 4; k++) {
      if (to[k][0] < 1 || to[k][1] < 1) continue;
      size_t n;
      char *pf = refutation(s, to[k][0], to[k][1], &n);
      if (!pf) continue;
      cert c = *c0;
      c.p = malloc((size_t)c0->n * sizeof *c.p);
      memcpy(c.p, c0->p, (size_t)c0->n * sizeof *c.p);
      char nl[64];
      snprintf(nl, sizeof nl, "refute %ld %ld 0", to[k][0], to[k][1]);
      c.p[i].line = nl;
      c.p[i].blk = pf;
      c.p[i].blen = n;
      size_t len;
      char *txt = render(&c, &len);
      judge(s, s->g, &s->p, txt, len, 0, "a refutation at another (I, L)");
      free(txt);
      free(pf);
      free(c.p);
    }
  }
}

/* the certificate against a neighbouring kernel and machine */
static void forge_neighbours(const subject *s, const char *text, size_t len) {
  for (int v = 0; v < s->g->nops; v++)
    for (int d = -1; d <= 1; d += 2) {
      twill_graph *h = twill_graph_clone(s->g);
      if (h->ops[v].lat + d < 0) {
        twill_graph_free(h);
        continue;
      }
      h->ops[v].lat += d;
      for (int i = 0; i < h->nedges; i++)
        if (h->edges[i].src == v && h->edges[i].lat + d >= 0) h->edges[i].lat += d;
      judge(s, h, &s->p, text, len, 0, "a neighbouring kernel");
      twill_graph_free(h);
    }
  for (int i = 0; i < s->g->nedges; i++) {
    twill_graph *h = twill_graph_clone(s->g);
    h->edges[i] = h->edges[--h->nedges];
    judge(s, h, &s->p, text, len, 0, "an edge dropped");
    twill_graph_free(h);
  }
  if (!s->solve) return;
  twill_joint_params q[4] = {s->p, s->p, s->p, s->p};
  q[0].warps = s->p.warps + s->p.warpgroup;
  q[1].regs = s->p.regs + 1;
  q[2].cross_warp = s->p.cross_warp + 1;
  q[3].no_cross_warp = !s->p.no_cross_warp;
  for (int k = 0; k < 4; k++) judge(s, s->g, &q[k], text, len, 1, "another machine");
}

/* ---- part 3: phase 1's twill-smt refutations and path lines ----------- */

/* The library's checker on g, costs as given, machine "hopper". */
static int check_lib(const twill_graph *g, const char *t, size_t len, char *msg, size_t n) {
  twill_arch *m = twill_arch_new("hopper");
  ck_assert_ptr_nonnull(m);
  twill_check_subject sj = {g, m, 0, NULL, 0};
  int rc = twill_check_cert(&sj, t, len, NULL, msg, n);
  twill_arch_free(m);
  return rc;
}

/* g's phase-1 certificate from the SMT engine alone. */
static char *smt_cert(const twill_graph *g, size_t *len) {
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.certify = 1;
  o.engines = TWILL_MODULO_ENGINE_SMT;
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

static void expect_refused_lib(const twill_graph *g, const cert *c, const char *why,
                               const char *what) {
  size_t len;
  char *t = render(c, &len);
  char msg[2000];
  ck_assert_msg(check_lib(g, t, len, msg, sizeof msg) == 1, "%s: accepted: %s", what, msg);
  ck_assert_msg(strstr(msg, why) != NULL, "%s: refused, but not because '%s': %s", what, why,
                msg);
  fprintf(stderr, "refused (%s): %s\n", what, msg);
  free(t);
}

/* The first occurrence of s in a block (blocks are not NUL-terminated). */
static const char *blk_find(const char *b, size_t n, const char *s) {
  size_t k = strlen(s);
  for (size_t i = 0; i + k <= n; i++)
    if (!memcmp(b + i, s, k)) return b + i;
  return NULL;
}

/* How many times s occurs in the block b of n bytes. */
static int blk_count(const char *b, size_t n, const char *s) {
  int c = 0;
  for (const char *p = blk_find(b, n, s); p; p = blk_find(p + 1, n - (size_t)(p + 1 - b), s)) c++;
  return c;
}

/* The gap kernel (tests/fixtures.h; by hand: a holds U, capacity 1, at
 * cycles 0 and 2, so I = 2 has no schedule, and I* = 3 with a at 0, b at
 * 3, L = 4, the critical path).  Its SMT certificate: "smt 2 infeasible"
 * and "path 3 optimal". */
START_TEST(class7_smt_refutation_of_the_wrong_i) {
  twill_graph *g = tf_gap();
  size_t len;
  char *t = smt_cert(g, &len);
  char msg[2000];
  ck_assert_msg(check_lib(g, t, len, msg, sizeof msg) == 0, "%s", msg);
  cert c = parse(t, len);
  free(t);
  /* a false claim, I* = 4 (a at 0, b at 3 is a modulo schedule at 4, L =
   * 4), with the genuine refutation of I = 2 offered for I = 3 too: the
   * checker states the problem at I = 3 itself, and the refutation is of
   * another problem (its mod line has period 2) */
  set_line(&c, find(&c, "ii "), "ii 4");
  set_line(&c, find(&c, "heuristic "), "heuristic 4 4");
  insert(&c, find(&c, "form ") + 1, "length-proof none", NULL, 0);
  drop(&c, find(&c, "path 3 optimal"));
  int s2 = find(&c, "smt 2 infeasible ");
  ck_assert_int_ge(s2, 0);
  insert(&c, s2 + 1, "smt 3 infeasible 0", c.p[s2].blk, c.p[s2].blen);
  expect_refused_lib(g, &c, "is not of the problem the checker states from the kernel",
                     "class 7: the refutation of I = 2 given for I = 3");
  /* and relabelled as a VIPR proof */
  drop(&c, s2 + 1);
  set_line(&c, s2, "vipr 2 infeasible 0");
  expect_refused_lib(g, &c, "rejected", "class 7: a twill-smt refutation read as VIPR");
  cert_free(&c);
  twill_graph_free(g);
}
END_TEST

/* A reduction that leaves out an op on an over-subscribed unit: the gap
 * kernel with an op d that holds a unit V (capacity 1) at cycles 0 and 2,
 * so V is over-subscribed at I = 2 (ResMII stays 2) and d is kept there.
 * The refutation of I = 2 made for the gap kernel without d (a genuine
 * refutation, of a problem without d) is offered for it: the claim is
 * even true, but the statement is not the checker's, which keeps d. */
START_TEST(class8_reduction_drops_an_op) {
  twill_graph *g0 = tf_gap();
  size_t l0;
  char *t0 = smt_cert(g0, &l0);
  cert c0 = parse(t0, l0);
  free(t0);
  twill_graph *g = tf_gap();
  int v = twill_graph_declare_unit(g, "V", 1);
  int d = twill_graph_add_op(g, "d", 3);
  twill_graph_add_use(g, d, v, 0, 1, 1);
  twill_graph_add_use(g, d, v, 2, 1, 1);
  size_t len;
  char *t = smt_cert(g, &len);
  char msg[2000];
  ck_assert_msg(check_lib(g, t, len, msg, sizeof msg) == 0, "%s", msg);
  cert c = parse(t, len);
  free(t);
  int s2 = find(&c, "smt 2 infeasible "), o2 = find(&c0, "smt 2 infeasible ");
  ck_assert_int_ge(s2, 0);
  ck_assert_int_ge(o2, 0);
  /* d kept: the statements differ (two units' rows, each over the slots
   * and over the times: four mod lines, not two) */
  ck_assert_int_eq(blk_count(c.p[s2].blk, c.p[s2].blen, " mod "), 4);
  ck_assert_int_eq(blk_count(c0.p[o2].blk, c0.p[o2].blen, " mod "), 2);
  free(c.p[s2].blk);
  c.p[s2].blk = memcpy(malloc(c0.p[o2].blen), c0.p[o2].blk, c0.p[o2].blen);
  c.p[s2].blen = c0.p[o2].blen;
  expect_refused_lib(g, &c, "is not of the problem the checker states from the kernel",
                     "class 8: a refutation whose reduction drops d");
  /* a form line without the reduction does not help: the checker then
   * keeps every op */
  set_line(&c, find(&c, "form "), "form slots");
  expect_refused_lib(g, &c, "is not of the problem the checker states from the kernel",
                     "class 8: the same with the reduction off");
  cert_free(&c);
  cert_free(&c0);
  twill_graph_free(g);
  twill_graph_free(g0);
}
END_TEST

/* A critical-path bound larger than the truth: the gap kernel's length
 * claimed at 5 (b moved from 3 to 4 so that the schedule stays valid and
 * has that length) with "path 3 optimal" as its proof; the critical path
 * at I = 3 is 4 (a: lat 3 to b, b: 1 cycle). */
START_TEST(class9_critical_path_above_the_truth) {
  twill_graph *g = tf_gap();
  size_t len;
  char *t = smt_cert(g, &len);
  cert c = parse(t, len);
  free(t);
  set_line(&c, find(&c, "length "), "length 5");
  set_line(&c, find(&c, "heuristic "), "heuristic 3 5");
  set_line(&c, find(&c, "time b "), "time b 4");
  expect_refused_lib(g, &c, "the critical path at I = 3 is 4, not the length 5",
                     "class 9: L = 5 claimed as the critical path");
  cert_free(&c);
  twill_graph_free(g);
}
END_TEST

/* A directive in another spelling inside the embedded refutation: an
 * input clause (the empty one) after the statement, spelled with blanks
 * or a tab, or plainly; sat/smt_check.c's own tokenizer classifies it as
 * an input line and the checker refuses it.  The hole kernel's refutation
 * of I = 7 (tests/fixtures.h) is the subject. */
START_TEST(class10_directive_spelled_with_blanks_in_an_smt_block) {
  static const char *const spell[] = {" a 0\n", "a\t0\n", "\ta 0\n", "  a  0\n", "a 0\n",
                                      " k 999 lin 0 0 -1\n", "i 99 0 0\n"};
  twill_graph *g = tf_hole();
  size_t len;
  char *t = smt_cert(g, &len);
  char msg[2000];
  ck_assert_msg(check_lib(g, t, len, msg, sizeof msg) == 0, "%s", msg);
  cert c0 = parse(t, len);
  free(t);
  int s7 = find(&c0, "smt 7 infeasible ");
  ck_assert_int_ge(s7, 0);
  const char *blk = c0.p[s7].blk;
  size_t bl = c0.p[s7].blen;
  /* after the statement: before its first theory lemma */
  const char *tl = blk_find(blk, bl, "\nt ");
  ck_assert_ptr_nonnull(tl);
  size_t at = (size_t)(tl - blk) + 1;
  for (size_t k = 0; k < sizeof spell / sizeof *spell; k++) {
    size_t il = strlen(spell[k]);
    char *nb = malloc(bl + il);
    memcpy(nb, blk, at);
    memcpy(nb + at, spell[k], il);
    memcpy(nb + at + il, blk + at, bl - at);
    char *keep = c0.p[s7].blk;
    size_t keepn = c0.p[s7].blen;
    c0.p[s7].blk = nb;
    c0.p[s7].blen = bl + il;
    char what[80];
    snprintf(what, sizeof what, "class 10: '%.*s' in a twill-smt refutation", (int)il - 1,
             spell[k]);
    expect_refused_lib(g, &c0, "is rejected", what);
    c0.p[s7].blk = keep;
    c0.p[s7].blen = keepn;
    free(nb);
  }
  cert_free(&c0);
  twill_graph_free(g);
}
END_TEST

START_TEST(systematic_forgeries_on_tiny_kernels) {
  subject ss[8];
  int n = 0;
  twill_graph *fb = tf_fig1();
  for (int i = 0; i < fb->nedges; i++) fb->edges[i].blocking = true;
  ss[n++] = (subject){"fig1 (phase 1)", tf_fig1(), tf_tiny_params(1, 1, 8), 0, NULL};
  ss[n++] = (subject){"gap (phase 1)", tf_gap(), tf_tiny_params(1, 1, 8), 0, NULL};
  ss[n++] = (subject){"fig1 one warp", tf_fig1(), tf_tiny_params(1, 1, 8), 1, NULL};
  ss[n++] = (subject){"fig1 blocking one warp", fb, tf_tiny_params(1, 1, 8), 1, NULL};
  ss[n++] = (subject){"two iterations at 128 (never)", tf_two_iterations(), tf_tiny_params(8, 4, 128), 1, NULL};
  ss[n++] = (subject){"two iterations at 192", tf_two_iterations(), tf_tiny_params(8, 4, 192), 1, NULL};
  /* random loops whose joint I* lies above phase 1's (refutations, and
   * witnesses when two I or more are refuted) */
  unsigned long long r = 0xf0e9ULL;
  for (int tries = 0; tries < 400 && n < 8 && !tu_under_valgrind(); tries++) {
    twill_graph *g = tf_random_loop(&r, 2, 1000);
    if (g->nops > 4) {
      twill_graph_free(g);
      continue;
    }
    for (int v = 0; v < g->nops; v++) g->ops[v].regs = (long)(tf_rnd(&r) % 4);
    for (int i = 0; i < g->nedges; i++) g->edges[i].blocking = tf_rnd(&r) % 2;
    twill_joint_params p = tf_tiny_params(2, 1, 3 + (long)(tf_rnd(&r) % 3));
    twill_solve_opts o;
    twill_solve_opts_default(&o);
    o.budget = 0;
    twill_solve_result res;
    ck_assert_int_eq(twill_solve(g, NULL, &p, &o, &res), 0);
    int good = res.status == 0 && res.ii > res.phase1_ii;
    twill_solve_result_clear(&res);
    if (!good) {
      twill_graph_free(g);
      continue;
    }
    ss[n++] = (subject){"a random loop", g, p, 1, NULL};
  }
  ck_assert_msg(tu_under_valgrind() || n >= 7, "only %d subjects", n);
  for (int k = 0; k < n; k++) {
    subject *s = &ss[k];
    s->m = twill_arch_new("tiny");
    if (tu_under_valgrind() && k > 2) continue;
    size_t len;
    char *t = genuine(s, &len);
    int before = accepted;
    judge(s, s->g, &s->p, t, len, 0, "the genuine certificate");
    ck_assert_msg(accepted == before + 1, "%s: its own certificate is refused", s->name);
    witnessed += strstr(t, "\nwitness ") != NULL;
    cert c = parse(t, len);
    forge_numbers(s, &c);
    forge_lines(s, &c);
    forge_inputs(s, &c);
    if (s->solve) forge_moves(s, &c);
    forge_neighbours(s, t, len);
    cert_free(&c);
    free(t);
  }
  for (int k = 0; k < n; k++) {
    twill_graph_free(ss[k].g);
    twill_arch_free(ss[k].m);
  }
  fprintf(stderr, "forgeries of %d certificates (%d with witnesses): %d refused, %d accepted "
          "(each claim confirmed by brute force)\n", n, witnessed, refused, accepted);
  ck_assert_int_gt(refused, 100);
  ck_assert_int_eq(accepted, judged);
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("cert_forgery");
  TCase *tc = tcase_create("forgery");
  tcase_set_timeout(tc, 600);
  tcase_add_checked_fixture(tc, name_scratch, NULL);
  tcase_add_test(tc, class1_a_number_read_two_ways);
  tcase_add_test(tc, class2_header_after_the_proofs);
  tcase_add_test(tc, class3_input_spelled_with_blanks);
  tcase_add_test(tc, class4_phase1_block_read_twice);
  tcase_add_test(tc, class5_refutation_too_short);
  tcase_add_test(tc, class6_machine_and_parameters_from_the_check);
  tcase_add_test(tc, class7_smt_refutation_of_the_wrong_i);
  tcase_add_test(tc, class8_reduction_drops_an_op);
  tcase_add_test(tc, class9_critical_path_above_the_truth);
  tcase_add_test(tc, class10_directive_spelled_with_blanks_in_an_smt_block);
  tcase_add_test(tc, systematic_forgeries_on_tiny_kernels);
  suite_add_tcase(s, tc);
  return s;
}

TWILL_CHECK_MAIN
