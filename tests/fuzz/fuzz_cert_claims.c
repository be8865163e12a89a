/* tests/fuzz/fuzz_cert_claims.c: libFuzzer target whose oracle is "VERIFIED
 * implies the claim is true".
 *
 * At start it solves a few tiny kernels (fig1 in phase 1 and on one warp,
 * fig1 with blocking edges, tf_gap in phase 1, a value kept live two
 * iterations on 8 warps at budgets 128 and 192: "no I at all" and an
 * optimum; the packing rule's kernel, genuine and with a forged
 * "never-pack" line) with certificates.  Each input picks one of them and either
 * replaces its certificate by the input's bytes, or edits it: lines
 * dropped, doubled, moved or replaced by the input's bytes, bytes of a
 * line or of a proof block changed, inserted or dropped, numbers
 * replaced, with every block's byte count set to its new length (so the
 * edits reach the VIPR and twill-smt proofs and the checks that tie them
 * to the kernel).  Whenever twill_check_cert verifies the result, the
 * claim is checked by brute force (tests/bf_joint.c); a false claim
 * aborts.  Seeds: tests/fuzz/seeds/cert_claims/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bf_joint.h"
#include "../fixtures.h"
#include "twill/check.h"
#include "twill/joint.h"
#include "twill/modulo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct subject {
  twill_graph *g;
  twill_joint_params p;
  int solve;
  long imax, lmax; /* how far "no I at all" is enumerated */
  char *cert;
  size_t len;
  twill_check_claim seen[16]; /* claims brute force already confirmed */
  int nseen;
  int forge; /* cut the answer off and claim "never-pack x" (false) */
} subject;

#define NSUB 8
static subject sub[NSUB];
static twill_arch *mach;

static void make(subject *s) {
  FILE *f = open_memstream(&s->cert, &s->len);
  if (!f) abort();
  if (s->solve) {
    twill_solve_opts o;
    twill_solve_opts_default(&o);
    o.certify = true;
    o.budget = 0;
    o.time_limit = 0;
    twill_solve_result r;
    if (twill_solve(s->g, NULL, &s->p, &o, &r) || twill_solve_write_cert(&r, "tiny", f)) abort();
    twill_solve_result_clear(&r);
  } else {
    twill_modulo_opts o;
    twill_modulo_opts_default(&o);
    o.certify = 1;
    twill_modulo_result r;
    if (twill_modulo_solve(s->g, &o, &r) || twill_modulo_write_cert(s->g, "tiny", NULL, &r, f))
      abort();
    twill_modulo_result_clear(&r);
  }
  fclose(f);
  if (s->forge) { /* the header, then a false "no I at all" */
    char *cut = strstr(s->cert, "\nii ");
    if (!cut) abort();
    static const char tail[] = "never-pack x\nend\n";
    size_t keep = (size_t)(cut + 1 - s->cert);
    char *c = malloc(keep + sizeof tail);
    if (!c) abort();
    memcpy(c, s->cert, keep);
    memcpy(c + keep, tail, sizeof tail);
    free(s->cert);
    s->cert = c;
    s->len = keep + sizeof tail - 1;
  }
}

static void init(void) {
  mach = twill_arch_new("tiny");
  twill_graph *fb = tf_fig1();
  for (int i = 0; i < fb->nedges; i++) fb->edges[i].blocking = true;
  /* "no I at all" of the two-iteration loop enumerated for I <= 10 and
   * L <= 8: b (latency 2) and a fit in 3 cycles, and its reason (two
   * copies of 96 registers) holds at every I */
  sub[0] = (subject){tf_fig1(), tf_tiny_params(1, 1, 8), 0, 16, 12, NULL, 0, {{0}}, 0};
  sub[1] = (subject){tf_gap(), tf_tiny_params(1, 1, 8), 0, 16, 12, NULL, 0, {{0}}, 0};
  sub[2] = (subject){tf_fig1(), tf_tiny_params(1, 1, 8), 1, 16, 12, NULL, 0, {{0}}, 0};
  sub[3] = (subject){fb, tf_tiny_params(1, 1, 8), 1, 16, 12, NULL, 0, {{0}}, 0};
  sub[4] = (subject){tf_two_iterations(), tf_tiny_params(8, 4, 128), 1, 10, 8, NULL, 0, {{0}}, 0};
  sub[5] = (subject){tf_two_iterations(), tf_tiny_params(8, 4, 192), 1, 10, 8, NULL, 0, {{0}}, 0};
  /* the packing rule (tf_pack): a genuine "never-pack x" (5 + 4 > 8 at
   * every I), and the same line forged for x of 4, which has a schedule */
  sub[6] = (subject){tf_pack(5), tf_tiny_params(8, 4, 8), 1, 6, 5, NULL, 0, {{0}}, 0, 0};
  sub[7] = (subject){tf_pack(4), tf_tiny_params(8, 4, 8), 1, 6, 5, NULL, 0, {{0}}, 0, 1};
  for (int k = 0; k < NSUB; k++) make(&sub[k]);
  if (getenv("FUZZ_CERT_CLAIMS_SEEDS")) { /* write the seed corpus */
    for (int k = 0; k < NSUB; k++) {
      char path[512];
      snprintf(path, sizeof path, "%s/genuine-%d", getenv("FUZZ_CERT_CLAIMS_SEEDS"), k);
      FILE *f = fopen(path, "wb");
      if (!f) abort();
      fputc(k, f), fputc(0, f); /* subject k, the edit script (empty) */
      fclose(f);
    }
  }
}

/* ---- editing the certificate as lines and blocks ----------------------- */

typedef struct part {
  char *line;
  size_t llen;
  char *blk; /* NULL: no block */
  size_t blen;
} part;

static int announces(const char *l, size_t n) {
  static const char *const w[] = {"vipr ", "phase1 ", "refute ", "never ", "norm-proof "};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++)
    if (n >= strlen(w[i]) && !memcmp(l, w[i], strlen(w[i]))) return 1;
  return 0;
}

static int split(const char *t, size_t len, part *p, int cap) {
  int n = 0;
  size_t i = 0;
  while (i < len && n < cap) {
    const char *e = memchr(t + i, '\n', len - i);
    size_t m = e ? (size_t)(e - (t + i)) : len - i;
    p[n].line = malloc(m + 1);
    memcpy(p[n].line, t + i, m);
    p[n].llen = m;
    p[n].blk = NULL;
    p[n].blen = 0;
    i += m + 1;
    if (announces(p[n].line, m)) {
      const char *sp = p[n].line + m;
      while (sp > p[n].line && sp[-1] != ' ') sp--;
      size_t b = (size_t)strtoul(sp, NULL, 10);
      if (i + b <= len) {
        p[n].blk = malloc(b + 1);
        memcpy(p[n].blk, t + i, b);
        p[n].blen = b;
        p[n].llen = (size_t)(sp - p[n].line) - 1; /* without the count */
        i += b + 1;
      }
    }
    n++;
  }
  return n;
}

static char *join(const part *p, int n, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f) abort();
  for (int i = 0; i < n; i++) {
    fwrite(p[i].line, 1, p[i].llen, f);
    if (p[i].blk) {
      fprintf(f, " %zu\n", p[i].blen);
      fwrite(p[i].blk, 1, p[i].blen, f);
    }
    fputc('\n', f);
  }
  fclose(f);
  return buf;
}

typedef struct rd {
  const uint8_t *d;
  size_t n, i;
} rd;

static unsigned byte(rd *r) { return r->i < r->n ? r->d[r->i++] : 0; }
static unsigned u16(rd *r) { return byte(r) | byte(r) << 8; }

/* replace [at, at+del) of a buffer by ins */
static void splice(char **b, size_t *n, size_t at, size_t del, const char *ins, size_t nin) {
  if (at > *n) at = *n;
  if (del > *n - at) del = *n - at;
  char *o = malloc(*n - del + nin + 1);
  memcpy(o, *b, at);
  if (nin) memcpy(o + at, ins, nin);
  memcpy(o + at + nin, *b + at + del, *n - at - del);
  *n = *n - del + nin;
  free(*b);
  *b = o;
}

static void edit(part *p, int *np, int cap, rd *r) {
  int n = *np;
  if (!n) return;
  unsigned op = byte(r) % 9, k = u16(r) % (unsigned)n;
  part *q = &p[k];
  switch (op) {
  case 0: /* drop a line (and its block) */
    free(q->line), free(q->blk);
    memmove(p + k, p + k + 1, (size_t)(n - (int)k - 1) * sizeof *p);
    (*np)--;
    break;
  case 1: /* double a line (and its block) */
    if (n < cap) {
      memmove(p + k + 1, p + k, (size_t)(n - (int)k) * sizeof *p);
      p[k + 1].line = memcpy(malloc(q->llen + 1), q->line, q->llen);
      p[k + 1].blk = q->blk ? memcpy(malloc(q->blen + 1), q->blk, q->blen) : NULL;
      (*np)++;
    }
    break;
  case 2: { /* move a line elsewhere */
    unsigned to = u16(r) % (unsigned)n;
    part t = p[k];
    if (to > k) memmove(p + k, p + k + 1, (to - k) * sizeof *p);
    else memmove(p + to + 1, p + to, (k - to) * sizeof *p);
    p[to] = t;
    break;
  }
  case 3: { /* replace a line by the input's bytes */
    size_t m = byte(r) % 48;
    if (m > r->n - r->i) m = r->n - r->i;
    splice(&q->line, &q->llen, 0, q->llen, (const char *)r->d + r->i, m);
    r->i += m;
    break;
  }
  case 4: /* a number of a line: another value */
  case 5: { /* a number inside a block */
    char **b = op == 4 || !q->blk ? &q->line : &q->blk;
    size_t *bn = op == 4 || !q->blk ? &q->llen : &q->blen;
    if (!*bn) break;
    size_t at = (size_t)(u16(r) | (unsigned)byte(r) << 16) % *bn;
    while (at < *bn && ((*b)[at] < '0' || (*b)[at] > '9')) at++;
    size_t e = at;
    while (e < *bn && (*b)[e] >= '0' && (*b)[e] <= '9') e++;
    static const char *const v[] = {"0", "1", "2", "3", "4", "7", "-1", "00", "01",
                                    "18446744073709551617", "9223372036854775807", "1/2"};
    unsigned w = byte(r) % (sizeof v / sizeof *v);
    splice(b, bn, at, e - at, v[w], strlen(v[w]));
    break;
  }
  case 6: /* bytes of a block or line changed */
  case 7: { /* bytes inserted into a block or line */
    char **b = q->blk && byte(r) & 1 ? &q->blk : &q->line;
    size_t *bn = b == &q->blk ? &q->blen : &q->llen;
    size_t at = *bn ? (size_t)(u16(r) | (unsigned)byte(r) << 16) % (*bn + 1) : 0;
    size_t m = 1 + byte(r) % 8;
    if (m > r->n - r->i) m = r->n - r->i;
    splice(b, bn, at, op == 6 ? m : 0, (const char *)r->d + r->i, m);
    r->i += m;
    break;
  }
  default: { /* a line of a block dropped or doubled */
    if (!q->blk || !q->blen) break;
    size_t at = (size_t)(u16(r) | (unsigned)byte(r) << 16) % q->blen;
    while (at > 0 && q->blk[at - 1] != '\n') at--;
    const char *e = memchr(q->blk + at, '\n', q->blen - at);
    size_t m = e ? (size_t)(e - (q->blk + at)) + 1 : q->blen - at;
    if (byte(r) & 1) splice(&q->blk, &q->blen, at, m, NULL, 0);
    else {
      char *copy = memcpy(malloc(m + 1), q->blk + at, m);
      splice(&q->blk, &q->blen, at, 0, copy, m);
      free(copy);
    }
    break;
  }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!mach) init();
  if (size < 2) return 0;
  subject *s = &sub[data[0] % NSUB];
  char *text;
  size_t len;
  if (data[1] == 0xff) { /* the input's own bytes */
    len = size - 2;
    text = memcpy(malloc(len + 1), data + 2, len);
  } else {
    enum { CAP = 4096 };
    part *p = malloc(CAP * sizeof *p);
    int n = split(s->cert, s->len, p, CAP);
    rd r = {data, size, 2};
    for (unsigned k = 0; k < data[1] % 8 && r.i < r.n; k++) edit(p, &n, CAP, &r);
    text = join(p, n, &len);
    for (int i = 0; i < n; i++) free(p[i].line), free(p[i].blk);
    free(p);
  }
  twill_check_subject cs = {s->g, mach, 0, s->solve ? &s->p : NULL, 0};
  twill_check_claim cl;
  char msg[4000];
  if (twill_check_cert(&cs, text, len, &cl, msg, sizeof msg) == 0) {
    int known = 0;
    for (int i = 0; i < s->nseen && !known; i++) {
      const twill_check_claim *o = &s->seen[i];
      known = o->kind == cl.kind && o->ii == cl.ii && o->length == cl.length &&
              o->length_proven == cl.length_proven && o->phase1_ii == cl.phase1_ii;
    }
    char why[400];
    if (!known && !bf_claim_true(s->g, &s->p, &cl, s->imax, s->lmax, why, sizeof why)) {
      fprintf(stderr, "FALSE CLAIM VERIFIED (%s): %s\n", why, msg);
      abort();
    }
    if (!known && s->nseen < 16) s->seen[s->nseen++] = cl;
  }
  free(text);
  return 0;
}
