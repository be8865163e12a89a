/* core/modulo/modulo_solve.c: Twill phase 1's search over I (twill/modulo.h):
 * the heuristic's bound, the reduced problem at each I, and the two engines
 * with the rule that makes their race deterministic.
 *
 * The rule.  At each I the SMT engine runs with a budget of conflicts
 * (opts.smt_conflicts, the same on every machine).  If it settles the I
 * within the budget (no schedule, or a schedule and its least L), its
 * answer and proof are the ones kept; otherwise the ILP's.  So the bytes
 * out are a function of the input and the budget alone, whichever engine
 * finishes first:
 *   threads 2: the ILP starts on a second thread while the SMT engine runs
 *     on this one.  If the SMT engine settles the I, the ILP is cancelled
 *     and its result dropped; if not, the ILP's result is awaited.  The
 *     SMT engine itself is never cut short for the ILP's sake.
 *   threads 1: the SMT engine, then the ILP only when the budget did not
 *     settle the I.
 * Only when both stop at a limit (time, nodes, an interrupt) does the
 * outcome depend on the clock, as a limit may: then the better of
 * their schedules and the larger of their bounds are kept.  With a single
 * engine there is no race and no budget.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "modulo_engine.h"
#include "twill/bounds.h"
#include "twill/gaus.h"
#include "twill/ilp.h"
#include "twill/modulo.h"

/* The SMT engine's conflicts per I before the ILP's answer is taken.
 * About a second of search on the development machine: the HLS loops the
 * SMT engine settles at all take far fewer. */
#define SMT_BUDGET 200000

void twill_modulo_opts_default(twill_modulo_opts *o) {
  memset(o, 0, sizeof *o);
  o->threads = 2;
  o->smt_conflicts = SMT_BUDGET;
  o->form = TWILL_MODULO_FORM_ALL;
  o->gaus_min_ops = TWILL_MODULO_GAUS_MIN_OPS;
}

void twill_modulo_result_clear(twill_modulo_result *r) {
  twill_schedule_free(r->sched);
  for (int i = 0; i < r->ntries; i++) free(r->tries[i].vipr);
  free(r->tries);
  memset(r, 0, sizeof *r);
}

void twill_modulo_decision_clear(twill_modulo_decision *d) {
  free(d->kt);
  free(d->proof);
  memset(d, 0, sizeof *d);
}

double twill_modulo_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int settled(const twill_modulo_decision *d) {
  return d->status == TWILL_ILP_OPTIMAL || d->status == TWILL_ILP_INFEASIBLE;
}

/* Has the SMT engine's answer settled the I for the caller: a proof
 * either way, or, when L is not asked for, a schedule (found within the
 * budget, so the same one on every machine)? */
static int smt_settled(const twill_modulo_decision *d, const twill_modulo_job *job) {
  return settled(d) || (job->feasible_only && d->kt);
}

typedef struct ilp_run {
  const twill_graph *g;
  const twill_modulo_red *r;
  twill_modulo_job job;
  twill_modulo_decision d;
  int rc;
} ilp_run;

static void *ilp_main(void *arg) {
  ilp_run *x = arg;
  x->rc = twill_modulo_ilp_decide(x->g, x->r, &x->job, &x->d);
  return NULL;
}

/* Neither engine settled the I (limits, or an ILP too large): the better schedule (the SMT engine's
 * on a tie, its budget being the deterministic part) and the larger
 * proven bound, into *s. */
static void merge_limits(twill_modulo_decision *s, twill_modulo_decision *i) {
  long lower = s->lower > i->lower ? s->lower : i->lower;
  if (i->kt && (!s->kt || i->length < s->length)) {
    free(s->kt);
    s->kt = i->kt;
    s->length = i->length;
    i->kt = NULL;
  }
  s->lower = lower;
  /* an ILP too large to build says nothing: the SMT engine's limit stands */
  s->status = TWILL_ILP_LIMIT;
}

/* The decision at r->ii by the rule above; *engine says whose it is.
 * 0, or -1 out of memory. */
static int decide(const twill_graph *g, const twill_modulo_red *r,
                  const twill_modulo_opts *o, const twill_modulo_job *base,
                  twill_modulo_decision *d, int *engine) {
  int engines = o->engines ? o->engines : TWILL_MODULO_ENGINE_ILP | TWILL_MODULO_ENGINE_SMT;
  twill_modulo_job js = *base;
  /* the ILP's own proofs (about the reduced program, which the checker
   * does not state) are never kept: certify_plain proves its answers again */
  twill_modulo_job ji = *base;
  ji.certify = 0;
  if (!(engines & TWILL_MODULO_ENGINE_SMT)) {
    *engine = TWILL_MODULO_ENGINE_ILP;
    return twill_modulo_ilp_decide(g, r, &ji, d);
  }
  if (!(engines & TWILL_MODULO_ENGINE_ILP)) {
    *engine = TWILL_MODULO_ENGINE_SMT;
    js.smt_conflicts = -1;
    return twill_modulo_smt_decide(g, r, &js, d);
  }
  js.smt_conflicts = o->smt_conflicts;
  atomic_int stop;
  atomic_init(&stop, 0);
  ilp_run ir;
  memset(&ir, 0, sizeof ir);
  ir.g = g;
  ir.r = r;
  ir.job = ji;
  ir.job.cancel = &stop;
  pthread_t th;
  int threaded = o->threads >= 2 && !pthread_create(&th, NULL, ilp_main, &ir);
  int rc = twill_modulo_smt_decide(g, r, &js, d);
  *engine = TWILL_MODULO_ENGINE_SMT;
  if (rc == 0 && smt_settled(d, &js)) {
    if (threaded) {
      atomic_store(&stop, 1);
      pthread_join(th, NULL);
      twill_modulo_decision_clear(&ir.d);
    }
    return 0;
  }
  if (threaded) pthread_join(th, NULL);
  else ir.rc = twill_modulo_ilp_decide(g, r, &ir.job, &ir.d);
  if (rc || ir.rc) {
    twill_modulo_decision_clear(&ir.d);
    return -1;
  }
  if (settled(&ir.d)) {
    twill_modulo_decision_clear(d);
    *d = ir.d;
    *engine = TWILL_MODULO_ENGINE_ILP;
    return 0;
  }
  merge_limits(d, &ir.d);
  twill_modulo_decision_clear(&ir.d);
  return 0;
}

static int add_try(twill_modulo_result *r, long ii, const twill_modulo_decision *d,
                   int engine, double sec) {
  twill_modulo_try *t = realloc(r->tries, (size_t)(r->ntries + 1) * sizeof *t);
  if (!t) return -1;
  r->tries = t;
  t += r->ntries++;
  memset(t, 0, sizeof *t);
  t->ii = ii;
  t->status = d->status;
  t->engine = engine;
  t->seconds = sec;
  t->nodes = d->work;
  t->bound = d->bound;
  return 0;
}

/* The heuristic's schedule, from I = from up (the answer of last resort
 * when a limit strikes before the engines find one).  0, or -1 out of
 * memory; r->sched stays NULL when an interrupt stopped it. */
static int fallback(const twill_graph *g, const twill_modulo_opts *o, long from,
                    twill_modulo_result *r) {
  twill_ims_opts io;
  twill_ims_opts_default(&io);
  io.ii_min = from;
  twill_schedule *h = NULL;
  if (twill_modulo_ims(g, &io, &h) < 0) return -1;
  if (!h) return twill_ilp_interrupted() ? 0 : -1;
  /* GauS (core/gaus/gaus_hint.c) on larger kernels: its schedule when its
   * (I, L) is smaller and not below what the engines refuted (it is never
   * a bound; bench/results/gaus-exact-*.md: IMS missed I* from 20 ops on) */
  twill_schedule *gs = o->gaus_min_ops > 0 && g->nops >= o->gaus_min_ops && !o->skip_length
                           ? twill_gaus_hint(g)
                           : NULL;
  if (gs && gs->ii >= from &&
      (gs->ii < h->ii ||
       (gs->ii == h->ii && twill_schedule_length(g, gs) < twill_schedule_length(g, h)))) {
    twill_schedule_free(h);
    h = gs;
    gs = NULL;
  }
  twill_schedule_free(gs);
  r->heuristic_ii = h->ii;
  r->heuristic_length = twill_schedule_length(g, h);
  if (o->log) {
    char line[128];
    snprintf(line, sizeof line, "heuristic I %ld, L %ld", h->ii, r->heuristic_length);
    o->log(o->log_ctx, line);
  }
  r->sched = h;
  r->ii = h->ii;
  r->length = r->heuristic_length;
  return 0;
}

/* What each I of a certificate carries (core/check/cert_check.c).  The
 * checker states the plain program at I (check_phase1.c) and the SMT
 * engine's problem (check_reduce.c, check_phase1_smt.c), but not the ILP
 * engine's reduced program with its windows and structured rows.  So:
 *   an I the SMT engine settled keeps its twill-smt refutation;
 *   an I the ILP settled is proven again on the plain program (the race's
 *     answer says which proof to ask for), its VIPR proof kept;
 *   at I*, when L* is the critical path at I*, no proof (a path line).
 * A plain proof that does not finish within the limits leaves the try
 * without one: the writer then refuses the certificate, or at I* marks L
 * unproven (twill_modulo_write_body).  Deterministic: the plain program
 * and its search depend on (g, I, L) alone.  0, or -1 out of memory. */
static int certify_plain(const twill_graph *g, const twill_modulo_opts *o, double t0,
                         twill_modulo_result *r) {
  double deadline = o->time_limit > 0 ? t0 + o->time_limit : 0;
  long crit = -1;
  if (r->sched && r->status == TWILL_MODULO_OPTIMAL) {
    twill_modulo_red red;
    if (twill_modulo_reduce(g, r->ii, 0, &red)) return -1;
    crit = red.lfloor;
    twill_modulo_red_clear(&red);
  }
  for (int i = 0; i < r->ntries; i++) {
    twill_modulo_try *t = &r->tries[i];
    int at_opt = t->ii == r->ii;
    if (!r->sched || t->ii > r->ii) continue;
    if (at_opt ? r->status != TWILL_MODULO_OPTIMAL : t->status != TWILL_ILP_INFEASIBLE)
      continue;
    if (at_opt && r->length == crit) {
      free(t->vipr);
      t->vipr = NULL;
      t->vipr_len = 0;
      t->smt_proof = 0;
      t->bound = TWILL_MODULO_BOUND_PATH;
      continue;
    }
    if (t->vipr && t->smt_proof) continue;
    free(t->vipr);
    t->vipr = NULL;
    t->vipr_len = 0;
    t->smt_proof = 0;
    t->bound = TWILL_MODULO_BOUND_PROOF;
    double ts = twill_modulo_clock();
    char *proof = NULL;
    size_t plen = 0;
    int st = twill_modulo_plain_proof(g, t->ii, at_opt ? r->length : 0,
                                      at_opt ? r->sched : NULL, deadline, o->node_limit,
                                      &proof, &plen);
    int want = at_opt ? TWILL_ILP_OPTIMAL : TWILL_ILP_INFEASIBLE;
    if (st == want) {
      t->vipr = proof;
      t->vipr_len = plen;
    } else {
      free(proof);
      if (st != TWILL_ILP_LIMIT && st != TWILL_ILP_ERROR)
        r->status = TWILL_MODULO_ERROR; /* the plain program disagrees: never certify that */
    }
    if (o->log) {
      char line[160];
      snprintf(line, sizeof line, "I %ld: plain program for the certificate: %s (%.2f s)",
               t->ii, st == want ? "proven" : st == TWILL_ILP_LIMIT ? "limit" : "failed",
               twill_modulo_clock() - ts);
      o->log(o->log_ctx, line);
    }
  }
  return 0;
}

int twill_modulo_solve(const twill_graph *g, const twill_modulo_opts *o,
                       twill_modulo_result *r) {
  twill_modulo_opts def;
  if (!o) {
    twill_modulo_opts_default(&def);
    o = &def;
  }
  memset(r, 0, sizeof *r);
  r->form = o->form;
  double t0 = twill_modulo_clock();
  twill_bounds b;
  if (twill_bounds_compute(g, &b)) return -1;
  r->res_mii = b.res_mii;
  r->rec_mii = b.rec_mii;
  r->mii = b.mii;
  twill_bounds_clear(&b);
  r->ii_lower = r->mii;
  r->status = TWILL_MODULO_LIMIT;
  if (o->log) {
    char line[96];
    snprintf(line, sizeof line, "MII %ld", r->mii);
    o->log(o->log_ctx, line);
  }
  /* I = MII, MII + 1, ...: each I is settled (no schedule, or a schedule
   * and its least L) or the search stops at a limit.  There is always an I
   * with a schedule (one where no two uses of a unit overlap), so the loop
   * ends.  The heuristic runs only when the engines found no schedule (a
   * limit): on the largest HLS loops its own search over I costs more
   * than the exact one (ChStone aes/graph12: 16 s of 1367 ops). */
  for (long ii = r->mii;; ii++) {
    twill_modulo_red red;
    if (twill_modulo_reduce(g, ii, (o->form & TWILL_MODULO_FORM_REDUCE) != 0, &red)) {
      r->status = TWILL_MODULO_ERROR;
      break;
    }
    twill_modulo_job job;
    memset(&job, 0, sizeof job);
    job.ilp_nodes = o->node_limit;
    job.deadline = o->time_limit > 0 ? t0 + o->time_limit : 0;
    job.certify = o->certify;
    job.form = o->form;
    job.feasible_only = o->skip_length;
    if (job.deadline > 0 && twill_modulo_clock() >= job.deadline) {
      twill_modulo_red_clear(&red);
      break;
    }
    double ts = twill_modulo_clock();
    twill_modulo_decision d;
    int engine = 0;
    int rc = decide(g, &red, o, &job, &d, &engine);
    if (rc || add_try(r, ii, &d, engine, twill_modulo_clock() - ts)) {
      twill_modulo_decision_clear(&d);
      twill_modulo_red_clear(&red);
      return -1;
    }
    if (o->log) {
      char line[192];
      double sec = twill_modulo_clock() - ts;
      const char *who = engine == TWILL_MODULO_ENGINE_SMT ? "conflicts, smt" : "nodes, ilp";
      if (d.status == TWILL_ILP_OPTIMAL)
        snprintf(line, sizeof line, "I %ld: feasible, least L %ld (%.2f s, %ld %s)", ii,
                 d.length, sec, d.work, who);
      else if (d.kt)
        snprintf(line, sizeof line, "I %ld: feasible, L %ld, at least %ld (%.2f s, %ld %s)",
                 ii, d.length, d.lower, sec, d.work, who);
      else
        snprintf(line, sizeof line, "I %ld: %s (%.2f s, %ld %s)", ii,
                 d.status == TWILL_ILP_INFEASIBLE ? "infeasible"
                 : d.status == TWILL_ILP_LIMIT    ? "limit"
                                                  : "failed",
                 sec, d.work, who);
      o->log(o->log_ctx, line);
    }
    if (o->certify && settled(&d) && d.proof) {
      r->tries[r->ntries - 1].vipr = d.proof;
      r->tries[r->ntries - 1].vipr_len = d.plen;
      r->tries[r->ntries - 1].smt_proof = engine == TWILL_MODULO_ENGINE_SMT;
      d.proof = NULL;
    }
    if (d.status == TWILL_ILP_INFEASIBLE) {
      r->ii_lower = ii + 1;
      twill_modulo_decision_clear(&d);
      twill_modulo_red_clear(&red);
      continue;
    }
    if (d.kt) {
      twill_schedule *s = twill_modulo_red_extend(g, &red, d.kt);
      char why[256];
      if (!s || twill_schedule_validate(g, NULL, s, why, sizeof why)) {
        /* never hand out a schedule the validator rejects */
        twill_schedule_free(s);
        r->status = TWILL_MODULO_ERROR;
      } else {
        r->sched = s;
        r->ii = ii;
        r->length = twill_schedule_length(g, s);
        if (d.status == TWILL_ILP_OPTIMAL) {
          r->length_lower = r->length;
          r->status = TWILL_MODULO_OPTIMAL;
        } else {
          r->length_lower = d.lower;
        }
      }
    } else if (d.status == TWILL_ILP_ERROR) {
      r->status = TWILL_MODULO_ERROR;
    }
    twill_modulo_decision_clear(&d);
    twill_modulo_red_clear(&red);
    break; /* a schedule, or a limit: I is settled or stays unproven */
  }
  if (!r->sched && r->status != TWILL_MODULO_ERROR && fallback(g, o, r->ii_lower, r))
    return -1;
  if (r->status == TWILL_MODULO_LIMIT && r->sched) {
    /* whatever the engines proved, the critical path at I bounds L */
    twill_modulo_red red;
    if (!twill_modulo_reduce(g, r->ii, 1, &red)) {
      if (red.lfloor > r->length_lower) r->length_lower = red.lfloor;
      twill_modulo_red_clear(&red);
    }
  }
  if (o->certify && certify_plain(g, o, t0, r)) return -1;
  r->seconds = twill_modulo_clock() - t0;
  return 0;
}

/* The schedule of a decision at I as a schedule of the kernel; NULL when it
 * has none, or out of memory, or (never expected) the validator rejects it. */
static twill_schedule *decision_schedule(const twill_graph *g, const twill_modulo_red *r,
                                         const twill_modulo_decision *d) {
  if (!d->kt) return NULL;
  twill_schedule *s = twill_modulo_red_extend(g, r, d->kt);
  if (s && twill_schedule_validate(g, NULL, s, NULL, 0)) {
    twill_schedule_free(s);
    s = NULL;
  }
  return s;
}

/* Algorithm 1's re-solve at one I: decide()'s rule on one thread, the SMT
 * engine within its budget of conflicts first, then, when that settles
 * nothing, the ILP engine within node_limit nodes.  Both limits are
 * counts, so the answer does not depend on the machine's speed
 * (time_limit is only a safety net).  The SMT
 * engine first: the structured ILP's nodes are costly at large I (FA3's
 * forward pass on 8 warps re-solved I = 33 and 34 in 11.5 and 14.1 s of
 * 1000 nodes each; the SMT engine settles each in well under a second). */
int twill_modulo_at(const twill_graph *g, long ii, double time_limit,
                    long node_limit, twill_schedule **out) {
  *out = NULL;
  twill_modulo_red r;
  if (twill_modulo_reduce(g, ii, 1, &r)) return -1;
  twill_modulo_job job;
  memset(&job, 0, sizeof job);
  job.ilp_nodes = node_limit;
  job.deadline = time_limit > 0 ? twill_modulo_clock() + time_limit : 0;
  job.form = TWILL_MODULO_FORM_ALL;
  /* the rule of decide(), one engine after the other */
  twill_modulo_opts o;
  twill_modulo_opts_default(&o);
  o.threads = 1;
  twill_modulo_decision d;
  memset(&d, 0, sizeof d);
  int engine;
  int rc = decide(g, &r, &o, &job, &d, &engine) ? -1 : 0;
  if (rc == 0) {
    rc = d.status == TWILL_ILP_OPTIMAL      ? 0
         : d.status == TWILL_ILP_INFEASIBLE ? 1
         : d.status == TWILL_ILP_LIMIT      ? 2
                                            : -1;
    if (rc >= 0 && d.kt && !(*out = decision_schedule(g, &r, &d))) rc = -1;
  }
  twill_modulo_decision_clear(&d);
  twill_modulo_red_clear(&r);
  return rc;
}
