/* core/gaus/gaus_solve.c: the GauS driver: horizon, initialization, Adam steps
 * with ALM updates, periodic round-and-legalize keeping the best legal
 * schedule, and for Formulation C the search for the least II.
 *
 * Formulation C (the II search).  Let I0 be the target (--ii, else the
 * MII: no schedule has a smaller II).  The initial relaxation is
 * legalized at I0; when that fails, at I0 + 1, I0 + 2, I0 + 4, ... until
 * one succeeds (the plain list schedule's II is a legal last resort),
 * then by bisection between the last failure and that success: a first
 * legal schedule after a logarithmic number of legalizations instead of
 * a full optimization per II.  From then on the model targets the next
 * II to beat, best - 1 (never below I0): it is rebuilt at that II and
 * restarted from the best schedule; each periodic legalization tries the
 * target first (on success the target moves down again) and otherwise the
 * best II (a better objective at the same II, and the schedule the
 * relaxation restarts from).  An II whose legalization fails is only
 * tried again from a later relaxation, so the work per legalization point
 * is at most two legalizations.
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

static double seconds_since(double t0) { return now_s() - t0; }

/* Step bookkeeping shared by both drivers. */
typedef struct stepper {
  double t0, tstep;
  long nsteps;
  double *times;
  size_t tcap;
} stepper;

static void take_step(stepper *st, twill_gaus_model *m, twill_gaus_terms *t) {
  double a = now_s();
  twill_gaus_step(m, t);
  double dt = now_s() - a;
  st->tstep += dt;
  if ((size_t)st->nsteps >= st->tcap) {
    size_t c = st->tcap ? 2 * st->tcap : 1024;
    double *x = realloc(st->times, c * sizeof(double));
    if (x) st->times = x, st->tcap = c;
  }
  if ((size_t)st->nsteps < st->tcap) st->times[st->nsteps] = dt;
  st->nsteps++;
}

static void first_legal(twill_gaus_result *r, const stepper *st) {
  if (r->first_legal_step >= 0) return;
  r->first_legal_step = st->nsteps;
  r->first_legal_seconds = seconds_since(st->t0);
}

static long horizon_c(const twill_gaus_opts *o, long cp, long ii) {
  long D = o->steps > 0 ? o->steps : (cp > ii ? cp : ii) + ii;
  return D < 1 ? 1 : D;
}

/* Legalize mu at ii into tc and measure it; 0 when legal. */
static int legal_at(const twill_gaus_problem *p, const twill_gaus_opts *o,
                    const double *mu, long ii, long *tc, twill_gaus_eval_t *ev) {
  if (twill_gaus_legalize_modulo(p, mu, ii, tc) != 0 ||
      twill_gaus_check(p, tc, ii, NULL, 0) != 0)
    return -1;
  twill_gaus_measure(p, o, tc, ii, ev);
  return 0;
}

/* The least II in [ii0, cap) at which mu legalizes, found by galloping up
 * from ii0 (steps 1, 2, 4, ... past the last failure) and bisecting
 * between the last failure and the first success; best and t get that
 * schedule.  Returns its II, or -1 (none below cap, or the time limit). */
static long search_ii(const twill_gaus_problem *p, const twill_gaus_opts *o,
                      const double *mu, long ii0, long cap, long *tc, long *t,
                      twill_gaus_eval_t *best, double t0) {
  twill_gaus_eval_t ev;
  long lo = ii0 - 1, hi = -1; /* lo failed (or below ii0), hi legal */
  for (long step = 1, ii = ii0; ii < cap; ii = lo + step, step *= 2) {
    if (o->time_limit > 0 && seconds_since(t0) > o->time_limit) return -1;
    if (legal_at(p, o, mu, ii, tc, &ev) == 0) {
      hi = ii;
      *best = ev;
      memcpy(t, tc, (size_t)p->n * sizeof(long));
      break;
    }
    lo = ii;
  }
  while (hi > 0 && hi - lo > 1) {
    if (o->time_limit > 0 && seconds_since(t0) > o->time_limit) break;
    long mid = lo + (hi - lo) / 2;
    if (legal_at(p, o, mu, mid, tc, &ev) == 0) {
      hi = mid;
      *best = ev;
      memcpy(t, tc, (size_t)p->n * sizeof(long));
    } else {
      lo = mid;
    }
  }
  return hi;
}

/* Formulation C (the header comment says how).  best/r->t come in holding
 * the plain list schedule (legal at its own II); on return they hold the
 * best schedule found.  Returns 0, or -1 on allocation failure. */
static int solve_c(const twill_gaus_problem *p, const twill_gaus_opts *o,
                   long cp, long ii0, twill_gaus_result *r,
                   twill_gaus_eval_t *best, stepper *st, twill_gaus_model **mp,
                   FILE *log) {
  int n = p->n;
  long *tc = malloc(((size_t)n + 1) * sizeof(long));
  if (!tc) return -1;
  twill_gaus_eval_t ev;
  long target = ii0;
  twill_gaus_model *m = twill_gaus_model_new(p, o, horizon_c(o, cp, target), target);
  *mp = m;
  if (!m) {
    free(tc);
    return -1;
  }
  twill_gaus_model_init(m);
  r->D = horizon_c(o, cp, target);
  /* the first legal schedule below the plain schedule's II */
  long ii_fb = best->ii;
  const double *mu = twill_gaus_model_mu(m);
  bool found = search_ii(p, o, mu, ii0, ii_fb, tc, r->t, best, st->t0) > 0;
  first_legal(r, st); /* found, or the list schedule */
  if (log && best->ii > ii0)
    fprintf(log, "gaus: II %ld..%ld: the initial relaxation not legalized; "
                 "%s at II %ld\n",
            ii0, best->ii - 1, found ? "legal" : "the list schedule", best->ii);
  for (long k = 1; k <= o->iters; k++) {
    if (found && best->ii - 1 >= ii0 && target != best->ii - 1) {
      /* the relaxation now aims at the next II to beat */
      target = best->ii - 1;
      twill_gaus_model_free(m);
      m = *mp = twill_gaus_model_new(p, o, horizon_c(o, cp, target), target);
      if (!m) {
        free(tc);
        return -1;
      }
      twill_gaus_model_init(m);
      twill_gaus_model_restart(m, r->t);
      r->D = horizon_c(o, cp, target);
    }
    take_step(st, m, &r->terms);
    if (o->alm_every > 0 && k % o->alm_every == 0) twill_gaus_alm_update(m);
    if (o->progress && log && k % 100 == 0)
      fprintf(log, "gaus: II %ld (target %ld) step %ld loss %.6g mem %.4g dep %.3g cap %.3g\n",
              best->ii, target, k, r->terms.total, r->terms.mem, r->terms.dep,
              r->terms.cap);
    bool last = k == o->iters;
    bool timeout = o->time_limit > 0 && seconds_since(st->t0) > o->time_limit;
    if (timeout) r->time_limited = true;
    if (!(last || timeout || (o->legalize_every > 0 && k % o->legalize_every == 0)))
      continue;
    mu = twill_gaus_model_mu(m);
    bool legal = false;
    if (!found) {
      /* nothing legalized yet (the model stays at I0): the search again,
         from this relaxation */
      found = search_ii(p, o, mu, ii0, ii_fb, tc, r->t, best, st->t0) > 0;
      if (found && log)
        fprintf(log, "gaus: legal at II %ld after %ld steps\n", best->ii, st->nsteps);
      if (found && o->restart && !last && !timeout) {
        twill_gaus_model_restart(m, r->t);
        r->restarts++;
      }
    } else if (target < best->ii && legal_at(p, o, mu, target, tc, &ev) == 0) {
      legal = true; /* a smaller II: better whatever the objective */
      if (log) fprintf(log, "gaus: legal at II %ld after %ld steps\n", target, st->nsteps);
    } else if (legal_at(p, o, mu, best->ii, tc, &ev) == 0) {
      legal = true;
    }
    if (legal) {
      if (better(&ev, best, true)) {
        *best = ev;
        memcpy(r->t, tc, (size_t)n * sizeof(long));
      }
      /* as the GauS paper does: restart from the legalized schedule */
      if (o->restart && !last && !timeout) {
        twill_gaus_model_restart(m, tc);
        r->restarts++;
      }
    }
    if (timeout) break;
  }
  free(tc);
  return 0;
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
  stepper st = {now_s(), 0, 0, NULL, 0};
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
  r->first_legal_step = -1;
  r->first_legal_seconds = -1;
  twill_gaus_eval_t best, ev;
  memset(&best, 0, sizeof best);
  if (o->form == 'C') {
    r->mii = twill_gaus_mii(p);
    long ii0 = o->ii > 0 ? o->ii : r->mii;
    if (ii0 < 1) ii0 = 1;
    twill_gaus_measure(p, o, tc, ii_fb, &best);
    memcpy(r->t, tc, (size_t)n * sizeof(long));
    if (solve_c(p, o, cp, ii0, r, &best, &st, &m, log)) goto out;
  } else {
    long rb = res_bound(p);
    long D = o->steps;
    if (D <= 0) {
      if (o->form == 'L')
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
    m = twill_gaus_model_new(p, o, D, 1);
    if (!m) goto out;
    twill_gaus_model_init(m);
    double *mu = twill_gaus_model_mu(m);
    bool have = false;
    for (long k = 0; k <= o->iters; k++) {
      if (k > 0) {
        take_step(&st, m, &r->terms);
        if (o->alm_every > 0 && k % o->alm_every == 0) twill_gaus_alm_update(m);
        if (o->progress && log && k % 100 == 0)
          fprintf(log,
                  "gaus: step %ld loss %.6g res %.4g com %.4g mem %.4g "
                  "dep %.3g cap %.3g\n",
                  k, r->terms.total, r->terms.res, r->terms.com, r->terms.mem,
                  r->terms.dep, r->terms.cap);
      }
      bool last = k == o->iters;
      bool timeout = o->time_limit > 0 && seconds_since(st.t0) > o->time_limit;
      if (timeout) r->time_limited = true;
      if (k == 0 || last || timeout ||
          (o->legalize_every > 0 && k % o->legalize_every == 0)) {
        long iiL = twill_gaus_legalize_plain(p, mu, tc);
        /* L: the length is the objective; improve the list schedule
           (forward-backward passes, restarts; all deterministic) */
        if (iiL > 0 && o->form == 'L') {
          long iiI = twill_gaus_improve_plain(p, mu, tc, L_RESTARTS);
          if (iiI > 0) iiL = iiI;
        }
        if (iiL > 0 && twill_gaus_check(p, tc, iiL, NULL, 0) == 0) {
          twill_gaus_measure(p, o, tc, iiL, &ev);
          first_legal(r, &st);
          if (!have || better(&ev, &best, false)) {
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
        }
      }
      if (timeout) break;
    }
    if (!have) {
      /* the plain list schedule (legal at its own II) */
      long iiF = twill_gaus_legalize_plain(p, mu0, r->t);
      twill_gaus_measure(p, o, r->t, iiF, &best);
    }
  }
  char why[160];
  if (twill_gaus_check(p, r->t, best.ii, why, sizeof why) != 0) {
    if (log) fprintf(log, "gaus: internal error: illegal schedule: %s\n", why);
    goto out;
  }
  r->ii = best.ii;
  r->eval = best;
  r->steps = st.nsteps;
  long nsteps = st.nsteps;
  r->seconds_per_step = nsteps ? st.tstep / (double)nsteps : 0;
  if (nsteps && (size_t)nsteps <= st.tcap) {
    qsort(st.times, (size_t)nsteps, sizeof(double), cmp_double);
    r->step_median = nsteps % 2 ? st.times[nsteps / 2]
                                : 0.5 * (st.times[nsteps / 2 - 1] + st.times[nsteps / 2]);
  } else {
    r->step_median = r->seconds_per_step;
  }
  memcpy(r->mu, twill_gaus_model_mu(m), (size_t)n * sizeof(double));
  twill_gaus_model_sigma(m, r->sigma);
  rc = 0;
out:
  free(st.times);
  twill_gaus_model_free(m);
  free(asap);
  free(tc);
  free(mu0);
  if (rc) twill_gaus_result_free(r);
  return rc;
}
