/* core/gaus/gaus_solve.c: the GauS driver: horizon, initialization, Adam steps
 * with ALM updates, periodic round-and-legalize keeping the best legal
 * schedule, and for Formulation C the II ladder (an II whose relaxation
 * cannot be legalized is reported and II+1 is tried; the plain schedule's
 * II is the guaranteed last rung).
 *
 * Defaults for the horizon D (the GauS paper gives none):
 *   A, B: max(critical path, levels, ceil(1.25 * resource bound)), where
 *         levels = ops on the longest path (GS-Schedule's depth D)
 *   C:    max(critical path, II) + II
 *   L:    max(critical path, resource bound), the latency lower bound
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gaus_priv.h"
#include "twill/gaus.h"

#define L_RESTARTS 8 /* noisy list schedules per legalization (L) */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long res_bound(const twill_gaus_problem *p) {
  long res = 0;
  for (int r = 0; r < p->nunits; r++) {
    if (p->cap[r] <= 0) continue;
    double busy = 0;
    for (int u = 0; u < p->nuses; u++)
      if (p->uunit[u] == r) busy += p->ucount[u] * p->ucycles[u];
    long b = (long)ceil(busy / p->cap[r] - 1e-9);
    if (b > res) res = b;
  }
  return res;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void twill_gaus_result_free(twill_gaus_result *r) {
  if (!r) return;
  free(r->t);
  free(r->mu);
  free(r->sigma);
  memset(r, 0, sizeof *r);
}

static int better(const twill_gaus_eval_t *a, const twill_gaus_eval_t *b,
                  bool modulo) {
  if (modulo && a->ii != b->ii) return a->ii < b->ii;
  if (a->objective != b->objective) return a->objective < b->objective;
  return a->length < b->length;
}

int twill_gaus_solve(const twill_gaus_problem *p, const twill_gaus_opts *o,
                     twill_gaus_result *r, FILE *log) {
  memset(r, 0, sizeof *r);
  int n = p->n;
  long *asap = calloc((size_t)n + 1, sizeof(long));
  long *tc = calloc((size_t)n + 1, sizeof(long));
  double *mu0 = calloc((size_t)n + 1, sizeof(double));
  r->t = calloc((size_t)n + 1, sizeof(long));
  r->mu = calloc((size_t)n + 1, sizeof(double));
  r->sigma = calloc((size_t)n + 1, sizeof(double));
  twill_gaus_model *m = NULL;
  size_t tcap = 0;
  double *times = NULL; /* every step's seconds, for the median */
  int rc = -1;
  if (!asap || !tc || !mu0 || !r->t || !r->mu || !r->sigma) goto out;
  int *order = calloc((size_t)n + 1, sizeof(int));
  long cp = order ? twill_gaus_asap(p, asap, order) : -1;
  long levels = 0; /* nodes on the longest path (GS-Schedule's depth) */
  if (cp >= 0) {
    long *lv = calloc((size_t)n + 1, sizeof(long));
    if (lv) {
      for (int k = 0; k < n; k++) {
        int v = order[k];
        if (lv[v] + 1 > levels) levels = lv[v] + 1;
        for (int j = p->out_off[v]; j < p->out_off[v + 1]; j++) {
          int e = p->out_e[j];
          if (!p->edist[e] && lv[p->edst[e]] < lv[v] + 1) lv[p->edst[e]] = lv[v] + 1;
        }
      }
      free(lv);
    }
  }
  free(order);
  if (cp < 0) {
    if (log) fprintf(log, "gaus: the graph has a cycle of distance-0 edges\n");
    goto out;
  }
  /* the fallback: plain list schedule from ASAP priorities */
  for (int i = 0; i < n; i++) mu0[i] = (double)asap[i];
  long ii_fb = twill_gaus_legalize_plain(p, mu0, tc);
  if (ii_fb < 1) {
    if (log) fprintf(log, "gaus: no legal schedule (a use exceeds its unit)\n");
    goto out;
  }
  bool have = false;
  twill_gaus_eval_t best, ev;
  memset(&best, 0, sizeof best);
  bool modulo = o->form == 'C';
  long ii = 1;
  if (modulo) {
    ii = o->ii > 0 ? o->ii : twill_gaus_mii(p);
    if (ii < 1) ii = 1;
  }
  long rb = res_bound(p);
  double t0 = now_s(), tstep = 0;
  long nsteps = 0, cheap = 4;
  long ii_early = 0; /* C: II of the schedule legalized from the start at
                        II+1..II+4 when II itself failed there (0: none) */
  r->first_legal_step = -1;
  r->first_legal_seconds = -1;
  for (;;) {
    long D = o->steps;
    if (D <= 0) {
      if (modulo)
        D = (cp > ii ? cp : ii) + ii;
      else if (o->form == 'L')
        D = cp > rb ? cp : rb; /* the latency lower bound: the horizon is
                                  the latency target (Lat pulls toward it) */
      else {
        long b = (long)ceil(1.25 * (double)rb);
        D = cp > b ? cp : b;
        if (levels > D) D = levels;
      }
    }
    if (D < 1) D = 1;
    r->D = D;
    twill_gaus_model_free(m);
    m = twill_gaus_model_new(p, o, D, ii);
    if (!m) goto out;
    twill_gaus_model_init(m);
    double *mu = twill_gaus_model_mu(m);
    for (long k = 0; k <= o->iters; k++) {
      if (k > 0) {
        double a = now_s();
        twill_gaus_step(m, &r->terms);
        double dt = now_s() - a;
        tstep += dt;
        if ((size_t)nsteps >= tcap) {
          size_t c = tcap ? 2 * tcap : 1024;
          double *x = realloc(times, c * sizeof(double));
          if (x) times = x, tcap = c;
        }
        if ((size_t)nsteps < tcap) times[nsteps] = dt;
        nsteps++;
        if (o->alm_every > 0 && k % o->alm_every == 0) twill_gaus_alm_update(m);
        if (o->progress && log && k % 100 == 0)
          fprintf(log,
                  "gaus: II %ld step %ld loss %.6g res %.4g com %.4g mem %.4g "
                  "dep %.3g cap %.3g\n",
                  ii, k, r->terms.total, r->terms.res, r->terms.com,
                  r->terms.mem, r->terms.dep, r->terms.cap);
      }
      bool last = k == o->iters;
      bool timeout = o->time_limit > 0 && now_s() - t0 > o->time_limit;
      if (timeout) r->time_limited = true;
      if (k == 0 || last || timeout ||
          (o->legalize_every > 0 && k % o->legalize_every == 0)) {
        long iiL;
        if (modulo) {
          iiL = twill_gaus_legalize_modulo(p, mu, ii, tc) == 0 ? ii : -1;
        } else {
          iiL = twill_gaus_legalize_plain(p, mu, tc);
          /* L: the length is the objective; improve the list schedule
             (forward-backward passes, restarts; all deterministic) */
          if (iiL > 0 && o->form == 'L') {
            long iiI = twill_gaus_improve_plain(p, mu, tc, L_RESTARTS);
            if (iiI > 0) iiL = iiI;
          }
        }
        if (iiL > 0 && twill_gaus_check(p, tc, iiL, NULL, 0) == 0) {
          twill_gaus_measure(p, o, tc, iiL, &ev);
          if (r->first_legal_step < 0) {
            r->first_legal_step = nsteps;
            r->first_legal_seconds = now_s() - t0;
          }
          if (!have || better(&ev, &best, modulo)) {
            best = ev;
            have = true;
            memcpy(r->t, tc, (size_t)n * sizeof(long));
          }
          /* as in the GauS paper: the legalized schedule re-initializes
             (mu, sigma) and the optimization goes on from it */
          if (o->restart && k > 0 && !last && !timeout) {
            twill_gaus_model_restart(m, tc);
            r->restarts++;
          }
        } else if (modulo && k == 0 && !have && !ii_early) {
          /* a first legal schedule now, from the initial relaxation at
             II+1..II+4, instead of after all the steps at II; kept only
             while nothing better turns up */
          for (long j = 1; j <= 4 && ii + j < ii_fb; j++)
            if (twill_gaus_legalize_modulo(p, mu, ii + j, tc) == 0 &&
                twill_gaus_check(p, tc, ii + j, NULL, 0) == 0) {
              twill_gaus_measure(p, o, tc, ii + j, &best);
              memcpy(r->t, tc, (size_t)n * sizeof(long));
              ii_early = ii + j;
              if (r->first_legal_step < 0) {
                r->first_legal_step = nsteps;
                r->first_legal_seconds = now_s() - t0;
              }
              break;
            }
        }
      }
      if (timeout) break;
    }
    if (!modulo || have || r->time_limited) break;
    /* cheap rungs: legalize the same relaxation at II+1, II+2, ... (4 of
       them after the first optimization, doubling after each further one)
       before optimizing again */
    long from = ii;
    for (long k = 0; k < cheap && !have; k++) {
      ii++;
      if (ii >= ii_fb || (ii_early && ii > ii_early)) break;
      if (twill_gaus_legalize_modulo(p, mu, ii, tc) == 0 &&
          twill_gaus_check(p, tc, ii, NULL, 0) == 0) {
        twill_gaus_measure(p, o, tc, ii, &ev);
        if (!ii_early || better(&ev, &best, modulo)) {
          best = ev;
          memcpy(r->t, tc, (size_t)n * sizeof(long));
        }
        have = true;
        if (r->first_legal_step < 0) {
          r->first_legal_step = nsteps;
          r->first_legal_seconds = now_s() - t0;
        }
      }
    }
    bool early = !have && ii_early && ii >= ii_early;
    if (log)
      fprintf(log,
              "gaus: II %ld..%ld: relaxation not legalizable (recurrence or "
              "resource conflict); %s II %ld\n",
              from,
              have ? ii - 1 : early ? ii_early - 1 : (ii >= ii_fb ? ii_fb - 1 : ii),
              have ? "legal at"
              : early ? "using the schedule legalized at the start at"
              : ii >= ii_fb ? "using the list schedule at" : "optimizing at",
              have ? ii : early ? ii_early : (ii >= ii_fb ? ii_fb : ii + 1));
    if (have || early || ii >= ii_fb) break;
    ii++;
    cheap *= 2;
  }
  if (!have && ii_early) have = true; /* best and r->t hold it */
  if (!have) {
    /* last rung: the plain list schedule (legal at its own II) */
    long iiF = twill_gaus_legalize_plain(p, mu0, r->t);
    twill_gaus_measure(p, o, r->t, iiF, &best);
    have = true;
  }
  char why[160];
  if (twill_gaus_check(p, r->t, best.ii, why, sizeof why) != 0) {
    if (log) fprintf(log, "gaus: internal error: illegal schedule: %s\n", why);
    goto out;
  }
  r->ii = best.ii;
  r->eval = best;
  r->steps = nsteps;
  r->seconds_per_step = nsteps ? tstep / (double)nsteps : 0;
  if (nsteps && (size_t)nsteps <= tcap) {
    qsort(times, (size_t)nsteps, sizeof(double), cmp_double);
    r->step_median = nsteps % 2 ? times[nsteps / 2]
                                : 0.5 * (times[nsteps / 2 - 1] + times[nsteps / 2]);
  } else {
    r->step_median = r->seconds_per_step;
  }
  memcpy(r->mu, twill_gaus_model_mu(m), (size_t)n * sizeof(double));
  twill_gaus_model_sigma(m, r->sigma);
  rc = 0;
out:
  free(times);
  twill_gaus_model_free(m);
  free(asap);
  free(tc);
  free(mu0);
  if (rc) twill_gaus_result_free(r);
  return rc;
}
