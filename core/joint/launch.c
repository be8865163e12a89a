/* core/joint/launch.c: the launch configuration (warps W, registers per
 * thread R(W)) searched together with the schedule; the coupling and the
 * search order are stated in twill/launch.h.
 *
 * Why the answer over all W is exact: Algorithm 1 at each W proves its own
 * I*(W) (every I below refuted within Algorithm 1's copies) or that W has
 * no schedule at any I; the least I over W is then min_W I*(W), and the
 * least L and fewest warps at it follow from each W's least L at I*.  A W
 * solved after an answer at I is known only needs its refutations up to
 * I (twill_solve_opts.ii_max), so the largest W, usually the best, goes
 * first and bounds the rest.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "twill/launch.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

long twill_launch_regs(long F, int maxr, int W) {
  if (W <= 0) return 0;
  long r = F / (32L * W);
  if (r > maxr) r = maxr;
  return r / TWILL_LAUNCH_ALLOC * TWILL_LAUNCH_ALLOC;
}

int twill_launch_params(const twill_joint_params *base, int maxr, int W,
                        twill_joint_params *out, char *why, size_t whylen) {
  int wg = base->warpgroup > 0 ? base->warpgroup : 1;
  if (W < wg || W % wg || W > TWILL_LAUNCH_MAX) {
    if (why) snprintf(why, whylen, "%d warps is not a whole number of warpgroups of %d "
                      "(at most %d warps)", W, wg, TWILL_LAUNCH_MAX);
    return -1;
  }
  long R = twill_launch_regs(base->regs_per_sm, maxr, W);
  long lo = base->reg_step > 0 ? base->reg_lo : 1;
  if (R < lo || R < 1) {
    if (why) snprintf(why, whylen, "%d warps launch at %ld registers per thread (%ld in the "
                      "register file / (32 * %d), in units of %d), below the minimum %ld",
                      W, R, base->regs_per_sm, W, TWILL_LAUNCH_ALLOC, lo);
    return -1;
  }
  *out = *base;
  out->warps = W;
  out->regs_per_sm = 32L * W * R;
  if (base->reg_step <= 0 && out->regs > R) out->regs = R;
  return 0;
}

int twill_launch_set(const twill_joint_params *base, int maxr, int wmax, int *ws, int cap) {
  int n = 0, wg = base->warpgroup > 0 ? base->warpgroup : 1;
  twill_joint_params q;
  for (int W = wg; W <= wmax && W <= TWILL_LAUNCH_MAX && n < cap; W += wg)
    if (!twill_launch_params(base, maxr, W, &q, NULL, 0)) ws[n++] = W;
  return n;
}

void twill_launch_result_clear(twill_launch_result *res) {
  for (int k = 0; k < res->n; k++) twill_solve_result_clear(&res->pt[k].r);
  free(res->pt);
  memset(res, 0, sizeof *res);
  res->best = -1;
}

/* (I, L, W) order of the answer: least I, then least L, then fewest W. */
static int better(const twill_launch_point *a, const twill_launch_point *b) {
  if (a->r.ii != b->r.ii) return a->r.ii < b->r.ii;
  if (a->r.length != b->r.length) return a->r.length < b->r.length;
  return a->warps < b->warps;
}

static int has_answer(const twill_launch_point *p) {
  return p->r.sched && (p->r.status == 0 || p->r.status == 3);
}

int twill_solve_launch(const twill_graph *g, const twill_arch *m,
                       const twill_joint_params *base, const twill_solve_opts *o,
                       int wmax, int pareto, twill_launch_result *res) {
  memset(res, 0, sizeof *res);
  res->best = -1;
  double t0 = now();
  int maxr = m && m->max_regs_thread > 0 ? m->max_regs_thread : 255;
  int ws[TWILL_LAUNCH_MAX];
  int n = wmax > 0 ? twill_launch_set(base, maxr, wmax, ws, TWILL_LAUNCH_MAX) : 0;
  if (wmax <= 0) ws[n++] = base->warps;
  res->pt = calloc((size_t)(n > 0 ? n : 1), sizeof *res->pt);
  if (!res->pt) return -1;
  res->n = n;
  for (int k = 0; k < n; k++) {
    twill_launch_point *pt = &res->pt[k];
    pt->warps = ws[k];
    if (wmax > 0) {
      if (twill_launch_params(base, maxr, ws[k], &pt->p, NULL, 0)) return -1;
    } else {
      pt->p = *base; /* --warps: the caller already applied the coupling */
    }
    pt->launch_regs = twill_launch_regs(base->regs_per_sm, maxr, ws[k]);
  }
  int limit = 0;
  for (int k = n - 1; k >= 0; k--) { /* the largest W first */
    twill_launch_point *pt = &res->pt[k];
    twill_solve_opts so = *o;
    if (o->time_limit > 0) {
      /* the whole search shares the limit: a W left no time is not
       * started (a limit, never "infeasible") */
      double left = o->time_limit - (now() - t0);
      if (left < 0.01 && k < n - 1) { /* the largest W always runs */
        pt->r.status = 3;
        limit = 1;
        continue;
      }
      so.time_limit = left > 0.001 ? left : 0.001;
    }
    /* a later (smaller) W only matters if it reaches the answer's I at
     * its length or shorter: it is asked just that, and refuted there
     * otherwise (enough for the certificate: need <= that length) */
    so.ii_max = !pareto && res->best >= 0 ? res->pt[res->best].r.ii : 0;
    so.length_max = so.ii_max ? res->pt[res->best].r.length : 0;
    int bad = twill_solve(g, m, &pt->p, &so, &pt->r);
    if ((bad || pt->r.status < 0) && o->time_limit > 0 && now() - t0 >= o->time_limit) {
      /* a step cut short by the clock (normalization, phase 1) fails
       * rather than stopping: at the limit that is the limit */
      if (k < n - 1) { /* the largest W keeps what it has, for the report */
        twill_solve_result_clear(&pt->r);
        pt->r.status = 3;
        limit = 1;
        continue;
      }
    }
    if (bad) return -1;
    int st = pt->r.status;
    if (st < 0) {
      res->status = -1;
      return 0;
    }
    if (st == 3) limit = 1;
    if (has_answer(pt) && (res->best < 0 || better(pt, &res->pt[res->best]))) res->best = k;
  }
  if (pareto) { /* on the front: strictly better than every fewer-warp W */
    for (int k = 0; k < n; k++) {
      if (!has_answer(&res->pt[k])) continue;
      int on = 1;
      for (int j = 0; j < k && on; j++) {
        const twill_launch_point *a = &res->pt[j], *b = &res->pt[k];
        if (has_answer(a) && !(b->r.ii < a->r.ii ||
                               (b->r.ii == a->r.ii && b->r.length < a->r.length)))
          on = 0;
      }
      res->pt[k].front = on;
    }
  }
  if (res->best >= 0)
    res->status = limit || res->pt[res->best].r.status != 0 ? 3 : 0;
  else
    res->status = limit ? 3 : 2;
  res->seconds = now() - t0;
  return 0;
}

/* ---- certificate --------------------------------------------------------- */

static long max_lat1(const twill_graph *g) {
  long x = 1;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].lat > x) x = g->ops[v].lat;
  return x;
}

static const twill_solve_try *try_at(const twill_solve_result *r, long ii) {
  for (int i = 0; i < r->ntries; i++)
    if (r->tries[i].ii == ii) return &r->tries[i];
  return NULL;
}

static void put_refute(FILE *f, long ii, long L, const char *proof, size_t n) {
  fprintf(f, "refute %ld %ld %zu\n", ii, L, n);
  fwrite(proof, 1, n, f);
  fputc('\n', f);
}

/* The section of W (not the answer's): its refutations of every I below
 * the answer's I*, and at I* of every L up to need (the answer's L* when W
 * has fewer warps, L* - 1 when more), or its "no I at all" refutation. */
static int write_other(FILE *f, const twill_launch_point *pt, const twill_launch_point *ans,
                       int all_never) {
  const twill_solve_result *r = &pt->r;
  fprintf(f, "other %d %ld %s\n", pt->warps, pt->launch_regs,
          r->status == 2 ? "never" : "refuted");
  if (r->status == 2) return twill_solve_write_never(r, f);
  if (all_never) return -1;
  long I = ans->r.ii, Ls = ans->r.length;
  for (long i = ans->r.phase1_ii; i < I; i++) {
    const twill_solve_try *t = try_at(r, i);
    if (!t || t->status != 20 || !t->proof) return -1;
    put_refute(f, i, t->lmax, t->proof, t->proof_len);
  }
  long need = pt->warps < ans->warps ? Ls : Ls - 1;
  if (need < max_lat1(r->g)) return 0;
  if (r->sched && r->ii == I) {
    if (!r->length_proof || r->length - 1 < need) return -1;
    put_refute(f, I, r->length - 1, r->length_proof, r->length_proof_len);
    return 0;
  }
  const twill_solve_try *t = try_at(r, I);
  if (!t || t->status != 20 || !t->proof || t->lmax < need) return -1;
  put_refute(f, I, t->lmax, t->proof, t->proof_len);
  return 0;
}

int twill_launch_write_cert(const twill_launch_result *res, const char *machine, FILE *f) {
  int all_never = res->best < 0;
  if (all_never && res->status != 2) return -1;
  int a = all_never ? res->n - 1 : res->best;
  if (a < 0) return -1;
  const twill_launch_point *ans = &res->pt[a];
  char *launch = NULL, *tail = NULL;
  size_t ln = 0, tn = 0;
  FILE *lf = open_memstream(&launch, &ln);
  if (!lf) return -1;
  fprintf(lf, "launch %ld %d ", ans->launch_regs, ans->warps);
  for (int k = 0; k < res->n; k++) fprintf(lf, "%s%d", k ? "," : "", res->pt[k].warps);
  fputc('\n', lf);
  fclose(lf);
  FILE *tf = open_memstream(&tail, &tn);
  int bad = !tf;
  for (int k = 0; k < res->n && !bad; k++)
    if (k != a) bad = write_other(tf, &res->pt[k], ans, all_never);
  if (tf) fclose(tf);
  if (!bad) bad = twill_solve_write_cert_ext(&ans->r, machine, launch, tail, f);
  free(launch);
  free(tail);
  return bad ? -1 : 0;
}
