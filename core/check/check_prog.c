/* core/check/check_prog.c: a program the checker states itself, and the
 * test that a VIPR certificate's problem is that program or weaker
 * (check_int.h).  Comparisons are exact: the VIPR side arrives as the VIPR
 * checker read it (twill_vipr_check_mem_problem), integers and reduced
 * fractions, and the program's data are integers below 2^40. */
#include "check_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef __int128 wide;

#define PROG_MAX ((int64_t)1 << 40)

int twill_cprog_init(cprog *p, int n) {
  memset(p, 0, sizeof *p);
  size_t k = n > 0 ? (size_t)n : 1;
  p->n = n;
  p->is_int = calloc(k, 1);
  p->lo = calloc(k, sizeof *p->lo);
  p->hi = calloc(k, sizeof *p->hi);
  p->has_lo = calloc(k, 1);
  p->has_hi = calloc(k, 1);
  p->obj = calloc(k, sizeof *p->obj);
  p->rstart = malloc(sizeof *p->rstart);
  if (!p->is_int || !p->lo || !p->hi || !p->has_lo || !p->has_hi || !p->obj || !p->rstart) {
    twill_cprog_free(p);
    return -1;
  }
  p->rstart[0] = 0;
  return 0;
}

void twill_cprog_free(cprog *p) {
  free(p->is_int), free(p->lo), free(p->hi), free(p->has_lo), free(p->has_hi);
  free(p->obj), free(p->rstart), free(p->rvar), free(p->rcoef), free(p->rlo);
  free(p->rhi), free(p->rhas_lo), free(p->rhas_hi), free(p->head), free(p->next);
  memset(p, 0, sizeof *p);
}

static int64_t clampv(cprog *p, int64_t v) {
  if (v < -PROG_MAX || v > PROG_MAX) p->oom = 1; /* refuse, never wrap */
  return v;
}

void twill_cprog_var(cprog *p, int j, int is_int, int has_lo, int64_t lo, int has_hi,
                     int64_t hi, int64_t obj) {
  if (j < 0 || j >= p->n) {
    p->oom = 1;
    return;
  }
  p->is_int[j] = (unsigned char)is_int;
  p->has_lo[j] = (unsigned char)has_lo;
  p->has_hi[j] = (unsigned char)has_hi;
  p->lo[j] = clampv(p, lo);
  p->hi[j] = clampv(p, hi);
  p->obj[j] = clampv(p, obj);
}

void twill_cprog_row(cprog *p, int n, const int *var, const int64_t *coef, int has_lo,
                     int64_t lo, int has_hi, int64_t hi) {
  if (p->oom) return;
  if (p->nrows + 2 > p->caprows) {
    int nc = p->caprows ? 2 * p->caprows : 256;
    size_t *rs = realloc(p->rstart, ((size_t)nc + 1) * sizeof *rs);
    if (rs) p->rstart = rs;
    int64_t *a = realloc(p->rlo, (size_t)nc * sizeof *a);
    if (a) p->rlo = a;
    int64_t *b = realloc(p->rhi, (size_t)nc * sizeof *b);
    if (b) p->rhi = b;
    unsigned char *c = realloc(p->rhas_lo, (size_t)nc);
    if (c) p->rhas_lo = c;
    unsigned char *d = realloc(p->rhas_hi, (size_t)nc);
    if (d) p->rhas_hi = d;
    if (!rs || !a || !b || !c || !d) {
      p->oom = 1;
      return;
    }
    p->caprows = nc;
  }
  if (p->nterms + (size_t)n + 1 > p->capterms) {
    size_t nc = p->capterms ? 2 * p->capterms : 4096;
    while (nc < p->nterms + (size_t)n + 1) nc *= 2;
    int *v = realloc(p->rvar, nc * sizeof *v);
    if (v) p->rvar = v;
    int64_t *c = realloc(p->rcoef, nc * sizeof *c);
    if (c) p->rcoef = c;
    if (!v || !c) {
      p->oom = 1;
      return;
    }
    p->capterms = nc;
  }
  /* sorted by variable, duplicates summed, zeros dropped (insertion) */
  size_t s = p->nterms, k = s;
  for (int i = 0; i < n; i++) {
    if (var[i] < 0 || var[i] >= p->n) {
      p->oom = 1;
      return;
    }
    size_t at = s;
    while (at < k && p->rvar[at] < var[i]) at++;
    if (at < k && p->rvar[at] == var[i]) {
      p->rcoef[at] = clampv(p, p->rcoef[at] + coef[i]);
      continue;
    }
    memmove(p->rvar + at + 1, p->rvar + at, (k - at) * sizeof *p->rvar);
    memmove(p->rcoef + at + 1, p->rcoef + at, (k - at) * sizeof *p->rcoef);
    p->rvar[at] = var[i];
    p->rcoef[at] = clampv(p, coef[i]);
    k++;
  }
  size_t w = s;
  for (size_t i = s; i < k; i++)
    if (p->rcoef[i]) p->rvar[w] = p->rvar[i], p->rcoef[w++] = p->rcoef[i];
  p->nterms = w;
  int r = p->nrows++;
  p->rstart[r + 1] = w;
  p->rlo[r] = clampv(p, lo);
  p->rhi[r] = clampv(p, hi);
  p->rhas_lo[r] = (unsigned char)has_lo;
  p->rhas_hi[r] = (unsigned char)has_hi;
}

static unsigned hash_terms(const int *var, const int64_t *coef, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ (uint64_t)(uint32_t)var[i]) * 1099511628211ull;
    h = (h ^ (uint64_t)coef[i]) * 1099511628211ull;
  }
  return (unsigned)(h ^ (h >> 32));
}

int twill_cprog_index(cprog *p) {
  if (p->oom) return -1;
  p->nb = 16;
  while (p->nb < 2 * p->nrows) p->nb *= 2;
  p->head = calloc((size_t)p->nb, sizeof *p->head);
  p->next = calloc((size_t)p->nrows + 1, sizeof *p->next);
  if (!p->head || !p->next) return -1;
  for (int r = 0; r < p->nrows; r++) {
    unsigned h = hash_terms(p->rvar + p->rstart[r], p->rcoef + p->rstart[r],
                            p->rstart[r + 1] - p->rstart[r]) & (unsigned)(p->nb - 1);
    p->next[r] = p->head[h];
    p->head[h] = r + 1;
  }
  return 0;
}

static int fail(char *why, size_t n, const char *fmt, ...) {
  if (why && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ceil and floor of an exact rational (den > 0) */
static int64_t qceil(twill_vipr_num q) {
  int64_t f = q.num / q.den;
  if (q.num % q.den && q.num > 0) f++;
  return f;
}
static int64_t qfloor(twill_vipr_num q) {
  int64_t f = q.num / q.den;
  if (q.num % q.den && q.num < 0) f--;
  return f;
}

/* Does  x (sense) rhs  hold for every x in [lo, hi] (with the sides that
 * exist)?  x is an integer expression there, so an integer bound decides. */
static int holds(int sense, twill_vipr_num rhs, int has_lo, wide lo, int has_hi, wide hi) {
  if (sense > 0) return has_lo && lo >= (wide)qceil(rhs);
  if (sense < 0) return has_hi && hi <= (wide)qfloor(rhs);
  return has_lo && has_hi && lo == hi && rhs.den == 1 && lo == (wide)rhs.num;
}

static int implied(const cprog *p, const twill_vipr_con *c) {
  if (!c->rhs.exact) return 0;
  for (int i = 0; i < c->n; i++)
    if (!c->t[i].a.exact || c->t[i].a.den != 1) return 0;
  if (c->n == 0) /* 0 (sense) rhs: true or not by itself */
    return holds(c->sense, c->rhs, 1, 0, 1, 0);
  if (c->n == 1) { /* a bound: a*x over x's range */
    int j = c->t[0].var;
    int64_t a = c->t[0].a.num;
    wide lo = (wide)a * p->lo[j], hi = (wide)a * p->hi[j];
    int hl = a > 0 ? p->has_lo[j] : p->has_hi[j], hh = a > 0 ? p->has_hi[j] : p->has_lo[j];
    if (a < 0) {
      wide t = lo;
      lo = hi, hi = t;
    }
    if (holds(c->sense, c->rhs, hl, lo, hh, hi)) return 1;
  }
  /* a row with the same terms */
  size_t m = c->n > 0 ? (size_t)c->n : 1;
  int *vv = malloc(m * sizeof *vv);
  int64_t *cc = malloc(m * sizeof *cc);
  if (!vv || !cc) {
    free(vv);
    free(cc);
    return 0;
  }
  for (int i = 0; i < c->n; i++) vv[i] = c->t[i].var, cc[i] = c->t[i].a.num;
  unsigned h = hash_terms(vv, cc, (size_t)c->n) & (unsigned)(p->nb - 1);
  int ok = 0;
  for (int r1 = p->head[h]; r1 && !ok; r1 = p->next[r1 - 1]) {
    int r = r1 - 1;
    size_t s = p->rstart[r], e = p->rstart[r + 1];
    if (e - s != (size_t)c->n) continue;
    int same = 1;
    for (size_t k = 0; k < e - s && same; k++) same = p->rvar[s + k] == vv[k] && p->rcoef[s + k] == cc[k];
    if (same)
      ok = holds(c->sense, c->rhs, p->rhas_lo[r], p->rlo[r], p->rhas_hi[r], p->rhi[r]);
  }
  free(vv);
  free(cc);
  return ok;
}

int twill_cprog_judge(const cprog *p, const twill_vipr_problem *pb, char *why, size_t whylen) {
  if (pb->nvars != p->n)
    return fail(why, whylen, "the proof has %d variables, the program %d", pb->nvars, p->n);
  for (int j = 0; j < p->n; j++)
    if (pb->is_int[j] && !p->is_int[j])
      return fail(why, whylen, "the proof declares variable %d integer, the program "
                  "does not", j);
  if (!pb->obj_min) return fail(why, whylen, "the proof maximizes; the program minimizes");
  int nobj = 0;
  for (int j = 0; j < p->n; j++) nobj += p->obj[j] != 0;
  if (pb->nobj != nobj) return fail(why, whylen, "the proof's objective is not the program's");
  for (int i = 0; i < pb->nobj; i++) {
    const twill_vipr_term *t = &pb->obj[i];
    if (!t->a.exact || t->a.den != 1 || t->a.num != p->obj[t->var])
      return fail(why, whylen, "the proof's objective is not the program's (variable %d)",
                  t->var);
  }
  for (int i = 0; i < pb->ncons; i++)
    if (!implied(p, &pb->cons[i]))
      return fail(why, whylen, "constraint %d (%.40s) of the proof is not implied by "
                  "the program the checker built from the kernel", i, pb->cons[i].name);
  return 0;
}
