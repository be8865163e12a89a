/* core/modulo/modulo_smt.c: phase 1 at one I on the CDCL core (the SMT
 * engine of core/modulo/modulo_engine.h).
 *
 * The reduced problem at (I, Lmax) as twill-smt constraints, in this order
 * (a certificate's refutation starts with exactly these lines, and the
 * checker, core/check/cert_modulo_smt.c, states them again from its own
 * reduction of the kernel and compares):
 *   1. per kept op i, in order: int t_i in [lo_i, Lmax - tail_i]
 *      (completion: L - t >= tail, L <= Lmax);
 *   2. per dep (x, y, w), in order: diff t_x - t_y <= -w;
 *   3. per kept unit U, in order: mod cap(U) I over, for each kept op i
 *      in order, each of its uses (U, o, c, n) in order, j < c, n times:
 *      t_i @ o + j.
 * Nothing else: the modulo propagator checks the residues of fixed start
 * times and prunes a bound whose residue is full (a time window per
 * residue), the difference propagator keeps the windows of the deps.
 *
 * At I the engine first asks for any schedule within the horizon (Lmax =
 * H: a refutation there proves that none exists at I), then for the least
 * L: the critical path first (often met: then the bound needs no proof),
 * then a binary search, each probe a fresh encoding at Lmax = mid.  A
 * model's times are compacted (each op to the least stage its slot
 * allows), which can only shorten it.  The last refuted probe is at L* - 1:
 * its refutation proves L >= L*.  Every probe shares one budget of
 * conflicts, so the outcome within a budget is the same on any machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modulo_engine.h"
#include "twill/ilp.h"
#include "twill/smt.h"

/* The encoding at lmax (>= r->lfloor, so every domain is non-empty); the
 * int var of kept op i is i.  NULL on allocation failure. */
static twill_smt *encode(const twill_graph *g, const twill_modulo_red *r,
                         long lmax, int proof) {
  twill_smt *m = twill_smt_new();
  if (!m || (proof && twill_smt_enable_proof(m))) {
    twill_smt_free(m);
    return NULL;
  }
  int ok = 1;
  for (int i = 0; i < r->n && ok; i++)
    ok = twill_smt_int(m, r->lo[i], lmax - r->tail[i]) == i;
  for (int k = 0; k < r->ndeps && ok; k++)
    ok = twill_smt_diff(m, r->deps[k].x, r->deps[k].y, -r->deps[k].w) >= 0;
  int cap = 0, *vars = NULL;
  int64_t *offs = NULL;
  for (int ku = 0; ku < r->nunits && ok; ku++) {
    int u = r->unit[ku], n = 0;
    for (int i = 0; i < r->n && ok; i++) {
      const twill_op *op = &g->ops[r->op[i]];
      for (int x = 0; x < op->nuses && ok; x++) {
        const twill_use *us = &op->uses[x];
        if (us->unit != u) continue;
        for (int j = 0; j < us->cycles && ok; j++)
          for (int c = 0; c < us->count && ok; c++) {
            if (n == cap) {
              int nc = cap ? 2 * cap : 64;
              int *nv = realloc(vars, (size_t)nc * sizeof *nv);
              int64_t *no = nv ? realloc(offs, (size_t)nc * sizeof *no) : NULL;
              if (nv) vars = nv;
              if (no) offs = no;
              if (!nv || !no) {
                ok = 0;
                break;
              }
              cap = nc;
            }
            vars[n] = i;
            offs[n++] = (int64_t)us->offset + j;
          }
      }
    }
    if (ok && n)
      ok = twill_smt_modulo(m, g->units[u].capacity, r->ii, vars, offs, n) >= 0;
  }
  free(vars);
  free(offs);
  if (!ok) {
    twill_smt_free(m);
    return NULL;
  }
  return m;
}

typedef struct probe {
  const twill_graph *g;
  const twill_modulo_red *r;
  const twill_modulo_job *job;
  long used;       /* conflicts so far */
} probe;

/* Is there a schedule with L <= lmax?  10: yes, times in kt; 20: no, the
 * refutation in *proof (with certify); 0: unknown; -1: error. */
static int ask(probe *p, long lmax, long *kt, char **proof, size_t *plen) {
  const twill_modulo_job *job = p->job;
  twill_smt *m = encode(p->g, p->r, lmax, job->certify);
  if (!m) return -1;
  if (job->smt_conflicts >= 0) {
    long left = job->smt_conflicts - p->used;
    if (left <= 0) {
      twill_smt_free(m);
      return 0;
    }
    twill_smt_set_conflict_limit(m, left);
  }
  if (job->deadline > 0) {
    double left = job->deadline - twill_modulo_clock();
    if (left <= 0) {
      twill_smt_free(m);
      return 0;
    }
    twill_smt_set_time_limit(m, left);
  }
  twill_smt_set_cancel(m, job->cancel);
  int st = twill_smt_solve(m);
  p->used += (long)twill_smt_num_conflicts(m);
  int rc = st == 10 || st == 20 ? st : 0;
  if (st == 10)
    for (int i = 0; i < p->r->n; i++) kt[i] = (long)twill_smt_value(m, i);
  if (st == 20 && job->certify) {
    FILE *f = open_memstream(proof, plen);
    if (!f || twill_smt_write_proof(m, f)) rc = -1;
    if (f && fclose(f)) rc = -1;
    if (rc < 0) {
      free(*proof);
      *proof = NULL;
    }
  }
  twill_smt_free(m);
  return rc;
}

int twill_modulo_smt_decide(const twill_graph *g, const twill_modulo_red *r,
                            const twill_modulo_job *job,
                            twill_modulo_decision *d) {
  memset(d, 0, sizeof *d);
  d->status = TWILL_ILP_LIMIT;
  size_t nn = (size_t)r->n + 1;
  long *kt = malloc(nn * sizeof *kt), *best = malloc(nn * sizeof *best);
  if (!kt || !best) {
    free(kt);
    free(best);
    return -1;
  }
  probe p = {g, r, job, 0};
  long ub;
  char *pf = NULL;
  size_t pl = 0;
  int rc = 0;
  if (job->lcap > 0) {
    memcpy(best, job->start_kt, (size_t)r->n * sizeof *best);
    ub = twill_modulo_red_compact(r, best);
    if (ub < 0 || ub > job->lcap) ub = job->lcap; /* (cannot happen) */
  } else {
    int st = ask(&p, r->horizon, best, &pf, &pl);
    if (st < 0) goto fail;
    if (st == 20) {
      d->status = TWILL_ILP_INFEASIBLE;
      d->proof = pf;
      d->plen = pl;
      pf = NULL;
      goto done;
    }
    if (st == 0) goto done; /* nothing proven, nothing found */
    ub = twill_modulo_red_compact(r, best);
    if (ub < 0) goto fail;
  }
  d->kt = best;
  best = NULL;
  d->length = ub;
  long lb = r->lfloor;
  int first = 1, refuted = 0;
  while (lb < ub) {
    long mid = first ? lb : lb + (ub - 1 - lb) / 2;
    first = 0;
    char *q = NULL;
    size_t ql = 0;
    int st = ask(&p, mid, kt, &q, &ql);
    if (st < 0) goto fail;
    if (st == 0) break;
    if (st == 10) {
      long l = twill_modulo_red_compact(r, kt);
      if (l < 0 || l > mid) goto fail;
      memcpy(d->kt, kt, (size_t)r->n * sizeof *kt);
      ub = d->length = l;
    } else {
      free(pf);
      pf = q;
      pl = ql;
      lb = mid + 1;
      refuted = 1;
    }
  }
  d->lower = lb;
  if (lb >= ub) {
    d->status = TWILL_ILP_OPTIMAL;
    d->lower = ub;
    d->bound = refuted ? TWILL_MODULO_BOUND_PROOF : TWILL_MODULO_BOUND_PATH;
    d->proof = pf;
    d->plen = pl;
    pf = NULL;
  }
  goto done;
fail:
  rc = -1;
  d->status = TWILL_ILP_ERROR;
done:
  free(pf);
  free(kt);
  free(best);
  d->work = p.used;
  return rc;
}
