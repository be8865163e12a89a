/* core/joint/twill.c: Algorithm 1 of the Twill paper (docs/model.md
 * section 5) over the joint encoding, and its certificate.
 *
 *   I, M <- phase 1 (the optimal modulo schedule: core/modulo/modulo_ilp.c)
 *   loop:
 *     C <- ceil(LEN(M) / I) (+ extra copies, our documented extension)
 *     if the joint problem at (I, C*I) is SAT:
 *        L* <- least SAT L in [LEN(M), C*I]   (binary search: the joint
 *              problem is monotone in L, so this is the paper's first SAT
 *              L of its upward scan)
 *        return (I, L*, schedule, warps)
 *     else: I <- I + 1, M <- phase 1 re-solved at I (skipped if infeasible)
 *
 * One refutation at (I, C*I) covers every L the paper tries at I, because
 * a schedule of length L is a schedule of every length >= L.  What is
 * proven is therefore: no I below phase 1's I* admits even a modulo
 * schedule (the phase-1 certificate), and each I in [phase-1 I*, I*)
 * admits no joint schedule within its C(I) copies; at I*, no joint
 * schedule is shorter than L* (a refutation at L* - 1).  Like the paper,
 * the search does not look at more copies than C(I) (docs/model.md section 6);
 * --extra-copies widens it.
 *
 * Certificate: format version 2, written by twill_solve_write_cert below
 * and specified (with the argument for each check) in core/check/
 * cert_solve.c, whose checker shares no code with this file.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>

#include "twill/joint.h"
#include "twill/modulo.h"
#include "twill/normalize.h"

#include "twill/smt.h"

/* Branch-and-bound nodes for phase 1 re-solved at a larger I (see the
 * search loop), after the SMT engine's budget of conflicts settled
 * nothing (twill_modulo_at): a count, not a time slice, so that the
 * output does not depend on the machine's load. */
#define PHASE1_RESOLVE_NODES 1000

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void twill_solve_opts_default(twill_solve_opts *o) {
  memset(o, 0, sizeof *o);
  o->time_limit = 60;
  o->budget = 300;
  o->threads = 1;
  o->explain = true;
  o->gaus_min_ops = TWILL_MODULO_GAUS_MIN_OPS;
}

void twill_solve_result_clear(twill_solve_result *r) {
  twill_graph_free(r->g);
  twill_schedule_free(r->sched);
  for (int i = 0; i < r->ntries; i++) {
    free(r->tries[i].why);
    free(r->tries[i].proof);
    free(r->tries[i].witness);
  }
  free(r->tries);
  free(r->phase1_cert);
  free(r->length_proof);
  free(r->never_proof);
  twill_norm_clear(&r->norm);
  memset(r, 0, sizeof *r);
}

/* The graph the search runs on: the kernel as every solver sees it
 * (twill_normalize_kernel: the machine's cross-warp cost written into the
 * spill of every op that pays it, so that normalization scales it with the
 * other costs, then normalized), and X, the cross-warp cost in its units. */
twill_graph *twill_solve_prepare(const twill_graph *g, const twill_joint_params *p,
                                 long budget, double limit, long *X,
                                 twill_norm *nm) {
  twill_norm local;
  twill_norm *m = nm ? nm : &local;
  twill_graph *n = twill_normalize_kernel(g, p->cross_warp, budget, limit, m);
  *X = p->cross_warp;
  if (n && m->n > 0) {
    long x = twill_norm_map(m, p->cross_warp);
    if (x >= 0) *X = x;
  }
  if (!nm || !n) twill_norm_clear(m);
  return n;
}

static double left_of(const twill_solve_opts *o, double t0) {
  if (o->time_limit <= 0) return 0;
  double l = o->time_limit - (now() - t0);
  return l > 0.001 ? l : 0.001;
}

static bool out_of_time(const twill_solve_opts *o, double t0) {
  return o->time_limit > 0 && now() - t0 >= o->time_limit;
}

static int add_try(twill_solve_result *r, long ii, long lmin, long lmax) {
  twill_solve_try *t = realloc(r->tries, (size_t)(r->ntries + 1) * sizeof *t);
  if (!t) return -1;
  r->tries = t;
  memset(&t[r->ntries], 0, sizeof *t);
  t[r->ntries].ii = ii;
  t[r->ntries].lmin = lmin;
  t[r->ntries].lmax = lmax;
  r->ntries++;
  return 0;
}

static char *capture_proof(const twill_joint *j, size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f) return NULL;
  int bad = twill_joint_write_proof(j, f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* Deletion-based minimization of the failed families: a minimal (not
 * necessarily minimum) set that is already unsatisfiable with the base.
 * Each trial gets EXPLAIN_CONFLICTS conflicts, a count and not a slice of
 * the clock, so the families named are the same on every run whatever
 * the load; a trial that settles nothing keeps its family, which leaves
 * the set unsatisfiable, only perhaps not minimal.  Trials measured on
 * the sub-tiled families take at most about a thousand conflicts at an I;
 * the single-iteration relaxation's encoding is far larger (I' past every
 * lifetime: FA3 forward with 8 sub-tiles on 8 warps, 9 ms a conflict, one
 * trial 956 conflicts and 8.8 s, where the refutation itself took 131), so
 * its trials get twice the refutation's conflicts, at least
 * EXPLAIN_NEVER_CONFLICTS and at most EXPLAIN_CONFLICTS. */
#define EXPLAIN_CONFLICTS 5000
#define EXPLAIN_NEVER_CONFLICTS 100
/* All trials together get at most a quarter of the refutation's own
 * conflicts, and at least EXPLAIN_TOTAL: GEMM + epilogue with 6 tiles on
 * 16 warps refutes I = 48 in 151849 conflicts (69 s), and its 42 trials
 * then took 181312 more without removing a family.  A trial cut short by
 * the total keeps its family, as one cut by its own budget does. */
#define EXPLAIN_TOTAL 20000
static char *explain(twill_joint *j, bool *core, const twill_solve_opts *o,
                     double t0, int64_t budget) {
  int n = twill_joint_num_families(j);
  bool *trial = malloc((size_t)(n ? n : 1) * sizeof *trial);
  bool *nc = malloc((size_t)(n ? n : 1) * sizeof *nc);
  if (!trial || !nc) {
    free(trial), free(nc);
    return NULL;
  }
  uint64_t c0 = twill_joint_num_conflicts(j);
  uint64_t total = c0 / 4 > EXPLAIN_TOTAL ? c0 / 4 : EXPLAIN_TOTAL, used = 0;
  for (int f = 0; f < n && !out_of_time(o, t0) && used < total; f++) {
    if (!core[f]) continue;
    memcpy(trial, core, (size_t)n * sizeof *trial);
    trial[f] = false;
    uint64_t left = total - used;
    twill_joint_set_conflict_limit(j, (int64_t)(left < (uint64_t)budget ? left : (uint64_t)budget));
    if (twill_joint_solve(j, trial, left_of(o, t0), NULL, nc) == 20)
      memcpy(core, nc, (size_t)n * sizeof *core);
    used = twill_joint_num_conflicts(j) - c0;
  }
  twill_joint_set_conflict_limit(j, -1);
  free(trial), free(nc);
  size_t cap = 64, len = 0;
  char *s = malloc(cap);
  if (!s) return NULL;
  s[0] = 0;
  int k = 0;
  for (int f = 0; f < n; f++) {
    if (!core[f]) continue;
    const char *name = twill_joint_family_name(j, f);
    size_t need = len + strlen(name) + 3;
    if (need > cap) {
      char *ns = realloc(s, cap = 2 * need);
      if (!ns) {
        free(s);
        return NULL;
      }
      s = ns;
    }
    len += (size_t)sprintf(s + len, "%s%s", k++ ? "; " : "", name);
  }
  if (!k) {
    free(s);
    s = strdup("dependences, unit capacity and completion alone");
  }
  return s;
}

/* Refute (I, L) outright, without a certificate (certified refutations
 * come from the search that found them: at_ii, length_query).  20
 * proven. */
static int refute(const twill_graph *g, const twill_joint_params *p, long ii,
                  long L, double limit) {
  twill_joint *j = twill_joint_new(g, p, ii, L, false);
  if (!j) return -1;
  int r = twill_joint_refute(j, limit);
  twill_joint_free(j);
  return r;
}

/* The certificate of an encoding its search just refuted under the
 * selectors: the families made units on it (the learned clauses settle
 * that at once; twill_joint_write_proof moves the units to where the
 * checker's rebuilt encoding has them).  20 with *proof, 0 limit, -1
 * error (10 here would be a bug). */
static int certify_refuted(twill_joint *j, double limit, char **proof, size_t *plen) {
  twill_joint_set_conflict_limit(j, -1);
  int rr = twill_joint_refute(j, limit);
  if (rr == 20 && !(*proof = capture_proof(j, plen))) rr = -1;
  return rr == 20 ? 20 : rr == 0 ? 0 : -1;
}

static long min_length(const twill_graph *g);
static bool buildable(const twill_graph *g, long L) {
  return L >= min_length(g);
}

/* At I with an L range: 10 found (r filled), 20 refuted, 0 limit, -1 err. */
static long min_length(const twill_graph *g) {
  long x = 1;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].lat > x) x = g->ops[v].lat;
  return x;
}

/* lp: LEN(M) of phase 1's schedule at I (sets the copies); lo: a proven
 * lower bound on L at I (phase 1's, or the longest op). */
static bool least_length(const twill_graph *g, const twill_joint_params *p,
                         const twill_solve_opts *o, double t0, long ii,
                         long *lo_io, long *hi_io, twill_schedule **s,
                         long *refuted, char **proof, size_t *plen);

static int length_query(const twill_graph *g, const twill_joint_params *p, long ii, long L,
                        bool certify, double limit, twill_schedule **s, char **proof,
                        size_t *plen);

/* Phase 1's progress lines through the caller's log, prefixed. */
static void phase1_log(void *ctx, const char *line) {
  const twill_solve_opts *o = ctx;
  char buf[200];
  snprintf(buf, sizeof buf, "phase 1: %s", line);
  o->log(o->log_ctx, buf);
}

/* The joint question at one I up to its verdict: the encoding at
 * (I, lmax) solved, and when refuted explained and certified.  Its answer
 * depends on (I, lmax) alone, so with twill_solve_opts.threads > 1 the
 * search asks the next I on a thread of its own while this one runs and
 * takes the answers in order: the same tries, proofs and progress lines
 * as one at a time. */
typedef struct iquery {
  const twill_graph *g;
  const twill_joint_params *p;
  const twill_solve_opts *o;
  double t0;
  long ii, lmax;
  int st;             /* 10 with s, 20, 0 limit, -1 error */
  twill_schedule *s;
  char *why;          /* with explain and 20 */
  char *proof;        /* with certify and 20 */
  size_t proof_len;
  uint64_t conflicts; /* the solve's (not the explanation's) */
  double solve_s;     /* for the progress line */
  double seconds;
  atomic_int cancel;
} iquery;

static void iquery_init(iquery *q, const twill_solve_result *r, const twill_solve_opts *o,
                        double t0, long ii, long lmax) {
  memset(q, 0, sizeof *q);
  q->g = r->g, q->p = &r->p, q->o = o, q->t0 = t0;
  q->ii = ii, q->lmax = lmax;
  q->st = -1;
  atomic_init(&q->cancel, 0);
}

static void iquery_clear(iquery *q) {
  twill_schedule_free(q->s);
  free(q->why);
  free(q->proof);
  q->s = NULL, q->why = q->proof = NULL;
}

static void *iquery_run(void *arg) {
  iquery *q = arg;
  const twill_solve_opts *o = q->o;
  double ts = now();
  twill_joint *j = twill_joint_new(q->g, q->p, q->ii, q->lmax, o->certify);
  int nf = j ? twill_joint_num_families(j) : 0;
  bool *core = j ? calloc((size_t)(nf ? nf : 1), sizeof *core) : NULL;
  if (j) twill_joint_set_cancel(j, &q->cancel);
  int st = core ? twill_joint_solve(j, NULL, left_of(o, q->t0), &q->s, core) : -1;
  q->conflicts = j ? twill_joint_num_conflicts(j) : 0;
  q->solve_s = now() - ts;
  if (st == 20 && o->explain) q->why = explain(j, core, o, q->t0, EXPLAIN_CONFLICTS);
  free(core);
  /* the certificate from this search (and the explanation's trials) */
  if (st == 20 && o->certify) st = certify_refuted(j, left_of(o, q->t0), &q->proof, &q->proof_len);
  twill_joint_free(j);
  q->st = st;
  q->seconds = now() - ts;
  return NULL;
}

/* the L range's top at I: the copies of phase 1's length lp */
static long at_ii_lmax(const twill_graph *g, const twill_solve_opts *o, long ii, long lp) {
  long copies = (lp + ii - 1) / ii + (o->extra_copies > 0 ? o->extra_copies : 0);
  long lmax = copies * ii;
  /* the launch search only needs to know whether this I reaches the
   * length its answer has (twill_solve_opts.length_max) */
  if (o->ii_max > 0 && ii == o->ii_max && o->length_max >= min_length(g) &&
      o->length_max < lmax)
    lmax = o->length_max;
  return lmax;
}

/* pre: the question at this I already asked (on another thread, joined),
 * or NULL to ask it here */
static int at_ii(twill_solve_result *r, const twill_solve_opts *o, double t0,
                 long ii, long lp, long lo, const long *witness, uint64_t *spent,
                 iquery *pre) {
  const twill_graph *g = r->g;
  long lmax = at_ii_lmax(g, o, ii, lp);
  if (lo < min_length(g)) lo = min_length(g);
  if (lo > lp) lo = lp;
  if (add_try(r, ii, lo, lmax)) return -1;
  twill_solve_try *t = &r->tries[r->ntries - 1];
  if (witness) { /* the modulo schedule whose length set the copies */
    t->witness = malloc((size_t)(g->nops > 0 ? g->nops : 1) * sizeof *t->witness);
    if (!t->witness) return -1;
    memcpy(t->witness, witness, (size_t)g->nops * sizeof *t->witness);
  }
  iquery local, *q = pre;
  if (!q) {
    iquery_init(&local, r, o, t0, ii, lmax);
    iquery_run(&local);
    q = &local;
  }
  if (q->ii != ii || q->lmax != lmax) { /* a bug: asked the wrong question */
    iquery_clear(q);
    return -1;
  }
  double ts = now() - q->seconds;
  *spent += q->conflicts;
  int st = q->st;
  twill_schedule *s = q->s;
  q->s = NULL;
  if (o->log) {
    char line[160];
    if (st == 10 && s)
      snprintf(line, sizeof line, "I %ld, L <= %ld: SAT, length %ld (%.2f s)", ii, lmax,
               twill_schedule_length(g, s), q->solve_s);
    else
      snprintf(line, sizeof line, "I %ld, L <= %ld: %s (%.2f s)", ii, lmax,
               st == 20 ? "UNSAT" : "limit", q->solve_s);
    o->log(o->log_ctx, line);
  }
  t->why = q->why, t->proof = q->proof, t->proof_len = q->proof_len;
  q->why = q->proof = NULL;
  t->status = st;
  if (st != 10) {
    twill_schedule_free(s);
    t->seconds = q->seconds;
    return st;
  }
  /* least L, SAT known at hi */
  long hi = lmax;
  long refuted = -1; /* largest L the search itself proved infeasible */
  char *rproof = NULL; /* with certify: its certificate */
  size_t rlen = 0;
  bool proven = least_length(g, &r->p, o, t0, ii, &lo, &hi, &s, &refuted, &rproof, &rlen);
  r->ii = ii;
  r->length = hi;
  r->sched = s;
  /* L* - 1 refuted outright: the binary search may not have tried it.
   * A certificate needs the proof: the search's own when it refuted
   * L* - 1, else asked the search's way (length_query: the same bytes
   * either way, so the same for every thread count) */
  if (proven && buildable(g, hi - 1) && o->certify) {
    if (refuted == hi - 1 && rproof) {
      r->length_proof = rproof, r->length_proof_len = rlen;
      rproof = NULL;
    } else {
      twill_schedule *none = NULL;
      int rr = length_query(g, &r->p, ii, hi - 1, true, left_of(o, t0), &none,
                            &r->length_proof, &r->length_proof_len);
      twill_schedule_free(none);
      proven = rr == 20;
    }
  } else if (proven && buildable(g, hi - 1) && refuted != hi - 1) {
    int rr = refute(g, &r->p, ii, hi - 1, left_of(o, t0));
    proven = rr == 20;
  }
  free(rproof);
  r->length_proven = proven;
  t->seconds = now() - ts;
  return 10;
}

/* (I, L) asked as the least-L search asks it: a fresh encoding solved
 * under its selectors (10 with *s, 20, 0 limit, -1 error).  With certify,
 * an UNSAT is made a certificate on the same encoding (twill_joint_refute:
 * the learned clauses settle it at once) into *proof.  The same steps
 * whoever calls it, so the certificate of (I, L) has the same bytes
 * whether the search asked L or the refutation of L* - 1 did. */
static int length_query(const twill_graph *g, const twill_joint_params *p, long ii, long L,
                        bool certify, double limit, twill_schedule **s, char **proof,
                        size_t *plen) {
  double t = now();
  twill_joint *j = twill_joint_new(g, p, ii, L, certify);
  int st = j ? twill_joint_solve(j, NULL, limit, s, NULL) : -1;
  if (st == 20 && certify) {
    double left = limit > 0 ? limit - (now() - t) : 0; /* 0: none */
    st = certify_refuted(j, limit > 0 && left < 0.001 ? 0.001 : left, proof, plen);
  }
  twill_joint_free(j);
  return st;
}

/* One length query of the least-L search, run on its own thread: a fresh
 * encoding at (I, L), so its answer and model depend on (I, L) only. */
typedef struct lquery {
  const twill_graph *g;
  const twill_joint_params *p;
  long ii, L;
  double limit;
  bool certify;
  int status;          /* 10, 20, 0 limit, -1 error */
  twill_schedule *s;
  char *proof;         /* with certify and 20: its certificate */
  size_t proof_len;
  double seconds;      /* for the progress line */
} lquery;

static void *lquery_run(void *arg) {
  lquery *q = arg;
  double t = now();
  q->status = length_query(q->g, q->p, q->ii, q->L, q->certify, q->limit, &q->s, &q->proof,
                           &q->proof_len);
  q->seconds = now() - t;
  return NULL;
}

/* Least L in [lo, hi] with hi known SAT (model *s): each round queries up
 * to T lengths splitting [lo, hi) evenly, on T threads (the last on this
 * one), then keeps the least SAT length as hi and moves lo past the
 * largest UNSAT length below it.  Every model comes from a fresh encoding
 * at its length, so the final (L*, model) is the same for every T.
 * *refuted gets the largest length proved UNSAT, and with o->certify
 * *proof its certificate (the caller frees it); returns false when a
 * query hit a limit (L* is then not proven). */
static bool least_length(const twill_graph *g, const twill_joint_params *p,
                         const twill_solve_opts *o, double t0, long ii,
                         long *lo_io, long *hi_io, twill_schedule **s,
                         long *refuted, char **proof, size_t *plen) {
  int T = o->threads > 1 ? (o->threads > 16 ? 16 : o->threads) : 1;
  long lo = *lo_io, hi = *hi_io;
  bool proven = true;
  lquery q[16];
  pthread_t th[16];
  /* A model found at L is a schedule of its own length (its last end),
   * which the solver's low-first phase often keeps well below L: hi moves
   * there at once (FA3 backward with 4 sub-tiles on 16 warps: found at
   * L <= 240 with length 80 = L*, where bisecting from 240 spent 50 s on
   * lengths between).  from_L: the length asked when *s was found. */
  long from_L = hi;
  if (*s) {
    long len = twill_schedule_length(g, *s);
    if (len < hi) hi = len;
  }
  while (lo < hi && !out_of_time(o, t0)) {
    long span = hi - lo;
    int n = span < T ? (int)span : T;
    for (int k = 0; k < n; k++) {
      /* n points: binary search for n = 1, even splits above */
      q[k] = (lquery){g,    p, ii, lo + span * (k + 1) / (n + 1), left_of(o, t0), o->certify,
                      0,    NULL, NULL, 0, 0};
    }
    int started = 0;
    for (int k = 0; k + 1 < n; k++) {
      if (pthread_create(&th[k], NULL, lquery_run, &q[k])) break;
      started++;
    }
    for (int k = started; k < n; k++) lquery_run(&q[k]);
    for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
    long qlen[16];
    for (int k = 0; k < n; k++)
      qlen[k] = q[k].status == 10 && q[k].s ? twill_schedule_length(g, q[k].s) : q[k].L;
    for (int k = 0; k < n && o->log; k++) {
      char line[160];
      if (q[k].status == 10)
        snprintf(line, sizeof line, "I %ld, L <= %ld: SAT, length %ld (%.2f s)", ii, q[k].L,
                 qlen[k], q[k].seconds);
      else
        snprintf(line, sizeof line, "I %ld, L <= %ld: %s (%.2f s)", ii, q[k].L,
                 q[k].status == 20 ? "UNSAT" : "limit", q[k].seconds);
      o->log(o->log_ctx, line);
    }
    long new_hi = hi, new_lo = lo;
    int best = -1;
    /* the shortest model; of equal ones, the one asked at the least L */
    for (int k = 0; k < n; k++)
      if (q[k].status == 10 && (qlen[k] < new_hi || (best >= 0 && qlen[k] == new_hi &&
                                                      q[k].L < q[best].L)))
        new_hi = qlen[k], best = k;
    for (int k = 0; k < n; k++) {
      if (q[k].L >= new_hi) continue;
      if (q[k].status == 20) {
        if (q[k].L + 1 > new_lo) new_lo = q[k].L + 1;
        if (q[k].L > *refuted) {
          *refuted = q[k].L;
          free(*proof);
          *proof = q[k].proof, *plen = q[k].proof_len;
          q[k].proof = NULL;
        }
      } else if (q[k].status != 10) {
        proven = false;
      }
    }
    if (best >= 0) {
      twill_schedule_free(*s);
      *s = q[best].s;
      from_L = q[best].L;
      q[best].s = NULL;
    }
    for (int k = 0; k < n; k++) {
      twill_schedule_free(q[k].s);
      free(q[k].proof);
    }
    if (new_lo == lo && new_hi == hi) { /* only limits: no progress */
      proven = false;
      break;
    }
    lo = new_lo, hi = new_hi;
  }
  if (lo < hi) proven = false;
  /* The model kept is the one a fresh encoding at hi itself gives, found
   * again if it came from a longer L: which lengths were asked depends on
   * the thread count, the answer must not (without it, a limit keeps
   * the model at hand, a schedule of length hi all the same) */
  if (from_L != hi && !out_of_time(o, t0)) {
    twill_schedule *m = NULL;
    char *none = NULL;
    size_t nlen = 0;
    if (length_query(g, p, ii, hi, false, left_of(o, t0), &m, &none, &nlen) == 10 && m) {
      twill_schedule_free(*s);
      *s = m;
      m = NULL;
    }
    twill_schedule_free(m);
  }
  *lo_io = lo, *hi_io = hi;
  return proven;
}

/* At (I*, L*): the schedule with the fewest register values crossing
 * warps, within TIEBREAK_CONFLICTS conflicts (and a tenth of the time
 * left, a guard); kept only if the validator accepts it (it always
 * should).  A count, so that the schedule printed is the same on every
 * run: the built-in kernels settle the question within 767 conflicts and
 * the scaling families within 12921, except FA3 backward with 4 sub-tiles
 * on 16 warps, which then keeps its best at the budget. */
#define TIEBREAK_CONFLICTS 20000
static void tiebreak(twill_solve_result *r, const twill_solve_opts *o,
                     double t0) {
  twill_joint *j = twill_joint_new(r->g, &r->p, r->ii, r->length, false);
  if (!j) return;
  twill_schedule *best = NULL;
  int count;
  double limit = o->time_limit > 0 ? left_of(o, t0) / 10 : 10;
  if (twill_joint_min_cross(j, limit, TIEBREAK_CONFLICTS, &best, &count) == 10 && best &&
      twill_joint_validate(r->g, &r->p, r->length, best, NULL, 0) == 0) {
    twill_schedule_free(r->sched);
    r->sched = best;
    r->cross_edges = count;
    best = NULL;
  }
  twill_schedule_free(best);
  twill_joint_free(j);
}

/* Phase 1's I failed: is there any I at all?  The single-iteration
 * relaxation of core/joint/joint_never.c, solved once.  20: none (r->why_never
 * says why, and with certify r->never_proof refutes it); 10 or 0 (a limit):
 * the search goes on; -1 error.  A relaxation too long to encode is not
 * tried. */
#define NEVER_MAX_LENGTH 2048
#define NEVER_EARLY_CONFLICTS 100
/* The least budget of a try after a refuted I (see never_next below):
 * every kernel the tests and benches prove infeasible at every I is
 * settled within it; beyond, the relaxation is mostly a schedule found
 * slowly (FA3 forward with 5 sub-tiles on 12 warps: 12386 conflicts,
 * 10 s, where the whole search over I takes 2 s). */
#define NEVER_LATE_CONFLICTS 1000
/* A conflict of the relaxation (its I' and L' past every lifetime) costs
 * about this many of the joint problem's at an I: 3.7 ms against 0.23 ms
 * on FA3 forward with 6 sub-tiles on 16 warps; so the budget, counted in
 * the refutations' conflicts divided by it, is about their time. */
#define NEVER_LATE_RATIO 16
/* The relaxation once, with or without its covers: 20 refuted (r's
 * never_* fields set), 10 a schedule, 0 a limit (or too long), -1 error. */
static int never_once(twill_solve_result *r, const twill_solve_opts *o, double t0,
                      int64_t conflicts, bool covers) {
  twill_joint_rel keep[TWILL_JOINT_MAX_RELS];
  if (r->p.nrels > TWILL_JOINT_MAX_RELS) return 0;
  twill_joint_params q = twill_never_params(&r->p, keep);
  twill_graph *gn = twill_never_graph(r->g);
  int *k = malloc((size_t)(r->g->nops > 0 ? r->g->nops : 1) * sizeof *k);
  if (!gn || !k || twill_never_live(r->g, k)) {
    twill_graph_free(gn);
    free(k);
    return -1;
  }
  q.min_live = k;
  int *cov = NULL, *cov_at = NULL, ncov = 0;
  if (covers && twill_never_covers(r->g, k, &cov, &cov_at, &ncov)) {
    twill_graph_free(gn);
    free(k);
    return -1;
  }
  if (covers && ncov == 0) { /* the same problem as without */
    twill_graph_free(gn);
    free(k), free(cov), free(cov_at);
    return 10;
  }
  q.cover_ops = cov;
  q.cover_at = cov_at;
  q.ncovers = ncov;
  long ii, L;
  twill_never_size(gn, &q, &ii, &L);
  if (L > NEVER_MAX_LENGTH) {
    twill_graph_free(gn);
    free(k), free(cov), free(cov_at);
    return 0;
  }
  twill_joint *j = twill_joint_new(gn, &q, ii, L, o->certify);
  if (j) twill_joint_set_conflict_limit(j, conflicts);
  int nf = j ? twill_joint_num_families(j) : 0;
  bool *core = j ? calloc((size_t)(nf ? nf : 1), sizeof *core) : NULL;
  int st = core ? twill_joint_solve(j, NULL, left_of(o, t0) / 4, NULL, core) : -1;
  if (st == 20) {
    int64_t b = 2 * (int64_t)twill_joint_num_conflicts(j);
    b = b < EXPLAIN_NEVER_CONFLICTS ? EXPLAIN_NEVER_CONFLICTS : b > EXPLAIN_CONFLICTS ? EXPLAIN_CONFLICTS : b;
    char *why = o->explain ? explain(j, core, o, t0, b) : NULL;
    bool floors = false;
    for (int v = 0; v < r->g->nops; v++) floors = floors || k[v] > 0;
    snprintf(r->why_never, sizeof r->why_never,
             "not even one iteration has a joint schedule%s%s%s",
             floors || ncov ? " (holding the copies its loop-carried values keep "
                              "live at every I)" : "",
             why ? ": " : "", why ? why : "");
    free(why);
  }
  free(core);
  if (st == 20 && o->certify)
    st = certify_refuted(j, left_of(o, t0), &r->never_proof, &r->never_proof_len);
  twill_joint_free(j);
  twill_graph_free(gn);
  free(k), free(cov), free(cov_at);
  r->never_ii = ii;
  r->never_L = L;
  r->never_covers = covers;
  return st;
}

/* The floors alone first (a smaller problem, and the certificate of
 * twill 1b9741f and before); the covers only when that one has a
 * schedule or runs out: they find more, but their phantom copies are
 * choices the search must rule out one by one (GEMM + epilogue k = 7 on
 * 12 warps: 2181 conflicts without them, 32651 with).  Returns as
 * never_once; 10 only when both have a schedule. */
static int never(twill_solve_result *r, const twill_solve_opts *o, double t0,
                 int64_t conflicts) {
  int st = never_once(r, o, t0, conflicts, false);
  if (st == 20 || st < 0) return st;
  int sc = never_once(r, o, t0, conflicts, true);
  return sc == 10 ? st : sc;
}

/* The packing rule (core/joint/joint_never.c): no search, a count of the
 * registers that are live together at one slot.  1: it proves "no I"
 * (r->never_pack, r->why_never set), 0: it does not, -1: out of memory. */
static int pack_never(twill_solve_result *r) {
  const twill_graph *g = r->g;
  int *k = malloc((size_t)(g->nops > 0 ? g->nops : 1) * sizeof *k);
  int *cov = NULL, *cov_at = NULL, ncov = 0, x = -1, rc = -1, cnt[2] = {0, 0};
  if (k && !twill_never_live(g, k) && !twill_never_covers(g, k, &cov, &cov_at, &ncov))
    rc = twill_never_pack(g, &r->p, k, cov, cov_at, ncov, &x, cnt);
  if (rc > 0) {
    r->never_pack = x + 1;
    snprintf(r->why_never, sizeof r->why_never,
             "at a slot where op '%s' holds its %ld registers per thread, the values live at "
             "every slot (%d accumulator chains, %d ops with live copies) fit no assignment "
             "to the warpgroups within their register budgets",
             g->ops[x].name, g->ops[x].regs, cnt[0], cnt[1]);
  }
  free(k), free(cov), free(cov_at);
  return rc;
}

/* Phase 1 again after a refuted I, from. */
typedef struct inext {
  int pr;     /* the last re-solve's: 0 or 2 go on, else the search stops
                 (the cap, the time, an error) */
  long ii;    /* the first I after from that phase 1 did not refute */
  long nskip; /* from + 1 .. from + nskip: refuted by phase 1 */
  long lp;    /* the length that sets the copies at ii (in: the last one,
                 kept when no schedule is found) */
  long lo;    /* a proven lower bound on L at ii, or 0 */
  long *wit;  /* in: a buffer of one start per op; out: that schedule */
  bool has_wit;
} inext;

static int phase1_next(const twill_solve_result *r, const twill_solve_opts *o, double t0,
                       long from, long ii_cap, inext *nx) {
  twill_schedule *ms = NULL;
  int pr = 1;
  long ii = from;
  nx->nskip = 0;
  nx->has_wit = false;
  while (pr == 1 && ++ii <= ii_cap && !out_of_time(o, t0)) {
    /* The re-solve only sets the L range (its copies), so it gets a fixed
     * budget of conflicts and nodes (a time slice would make the range,
     * and so the output, depend on the machine's load); without a
     * schedule in them, iterative modulo scheduling at this I gives one,
     * and without that the previous range's copies are kept.  Only a
     * proof of infeasibility skips an I. */
    pr = twill_modulo_at(r->g, ii, left_of(o, t0), PHASE1_RESOLVE_NODES, &ms);
    if (pr == 1) nx->nskip++;
  }
  nx->pr = pr;
  nx->ii = ii;
  if (pr != 0 && pr != 2) return 0; /* cap, or error */
  if (!ms) {
    twill_ims_opts io;
    twill_ims_opts_default(&io);
    io.ii_min = io.ii_max = ii;
    if (twill_modulo_ims(r->g, &io, &ms) < 0) return -1;
  }
  if (ms) {
    nx->lp = twill_schedule_length(r->g, ms);
    nx->lo = pr == 0 ? nx->lp : 0; /* phase 1's L at I is optimal unless a limit hit */
    memcpy(nx->wit, ms->start, (size_t)r->g->nops * sizeof *nx->wit);
    nx->has_wit = true;
  } else {
    nx->lo = 0;
  }
  twill_schedule_free(ms);
  return 0;
}

/* Stop a question asked ahead and wait for it. */
static void iquery_drop(iquery *q, pthread_t th) {
  if (!q) return;
  atomic_store(&q->cancel, 1);
  pthread_join(th, NULL);
  iquery_clear(q);
  free(q);
}

int twill_solve(const twill_graph *g, const twill_arch *m,
                const twill_joint_params *p, const twill_solve_opts *o,
                twill_solve_result *r) {
  (void)m; /* the parameters already carry the machine's values */
  memset(r, 0, sizeof *r);
  double t0 = now();
  r->norm_budget = o->budget;
  long X;
  r->g = twill_solve_prepare(g, p, o->budget, o->time_limit > 0 ? o->time_limit : 60, &X,
                             &r->norm);
  if (!r->g) return -1;
  r->p = *p;
  r->p.cross_warp = X;
  /* the sub-tile order only from TWILL_SUBTILE_MIN_OPS ops on (joint.h) */
  if (r->g->nops < TWILL_SUBTILE_MIN_OPS) r->p.subtile_symmetry = false;
  r->p.reg_total = r->g->nops >= TWILL_REG_TOTAL_MIN_OPS;
  r->cross_warp_real = p->cross_warp;
  /* Infeasible at every I: a result is live for at least one cycle, so
   * its own registers (or shared memory) must fit the budget. */
  for (int v = 0; v < r->g->nops; v++) {
    const twill_op *op = &r->g->ops[v];
    if (op->regs > p->regs || (p->smem_cap >= 0 && op->smem > p->smem_cap)) {
      snprintf(r->why_never, sizeof r->why_never,
               op->regs > p->regs
                   ? "op '%s' alone holds %ld registers per thread, over the budget %ld"
                   : "op '%s' alone holds %ld bytes of shared memory, over the capacity %ld",
               op->name, op->regs > p->regs ? op->regs : op->smem,
               op->regs > p->regs ? p->regs : p->smem_cap);
      r->status = 2;
      r->seconds = now() - t0;
      return 0;
    }
  }
  int pk = pack_never(r);
  if (pk != 0) {
    r->status = pk > 0 ? 2 : -1;
    r->seconds = now() - t0;
    return pk > 0 ? 0 : -1;
  }
  twill_modulo_opts mo;
  twill_modulo_opts_default(&mo);
  /* Algorithm 1 needs phase 1's I* proven, not its L: a quarter of the
   * time goes to phase 1, which stops once I* is settled; its L (optimal
   * or not) only sets the copies, and at_ii finds and proves the least L */
  mo.time_limit = o->time_limit > 0 ? o->time_limit / 4 : 0;
  mo.skip_length = 1;
  /* LEN(M) sets the copies C, and a first schedule's length is whatever
   * the search meets first: the times rows (twill modulo's default) meet
   * longer ones here (FA4 forward: 71 against 64 normalized cycles, FA3
   * backward k = 3 on 16 warps: C 4 against 2), so solve keeps the form
   * its copies were measured with; I* is the same either way */
  mo.form &= ~(unsigned)TWILL_MODULO_FORM_TIMES;
  mo.certify = o->certify;
  mo.gaus_min_ops = o->gaus_min_ops;
  if (o->log) { /* phase 1's progress too, marked as such */
    mo.log = phase1_log;
    mo.log_ctx = (void *)o;
  }
  twill_modulo_result mr;
  if (twill_modulo_solve(r->g, &mo, &mr)) return -1;
  r->phase1_ii = mr.ii;
  r->phase1_length = mr.length;
  r->phase1_length_proven = mr.length_lower >= mr.length;
  r->phase1_ii_proven = mr.ii_lower == mr.ii && mr.status != TWILL_MODULO_ERROR;
  r->ii_lower = mr.ii_lower;
  r->status = 3;
  if (mr.status == TWILL_MODULO_ERROR) r->status = -1;
  if (mr.ii_lower != mr.ii || mr.status == TWILL_MODULO_ERROR) {
    twill_modulo_result_clear(&mr);
    r->seconds = now() - t0;
    return 0;
  }
  if (o->certify) {
    FILE *f = open_memstream(&r->phase1_cert, &r->phase1_cert_len);
    /* the phase-1 certificate needs I* proven; L at I* may be unproven */
    int bad = !f || twill_modulo_write_body(r->g, &mr, f);
    if (f) fclose(f);
    if (bad) {
      free(r->phase1_cert);
      r->phase1_cert = NULL;
    }
  }
  long ii = mr.ii, lp = mr.length, lo = mr.length_lower;
  twill_modulo_result_clear(&mr);
  /* the schedule whose length sets the copies at an I above phase 1's
   * (phase 1's own is in its certificate); NULL when none was found */
  long *wit = NULL, *wbuf = malloc((size_t)(r->g->nops > 0 ? r->g->nops : 1) * sizeof *wbuf);
  if (!wbuf) return -1;
  /* Give up (as a limit, never as "infeasible") past this I: by then one
   * copy spans the whole critical work several times over. */
  long ii_cap = 4 * ii + 16;
  /* The relaxation after a refuted I (every kernel, also those below
   * TWILL_SUBTILE_MIN_OPS ops that skip the early try): a budget of
   * conflicts of 1/NEVER_LATE_RATIO of those the refutations of I have
   * used so far (at least NEVER_LATE_CONFLICTS), tried again with the
   * budget doubled once they have used that much more.  Its tries then
   * take about as long as the search over I (a little more at first, for
   * the least budget), and it settles on a count, not a time.  Settled
   * for good when the relaxation has a schedule. */
  bool never_settled = false;
  uint64_t spent = 0, never_next = 0;
  /* A large kernel may spend the whole limit at phase 1's I without a
   * verdict and never reach the relaxation below; try it first, within a
   * budget of conflicts (a count: the same verdict on every run).  Its
   * encoding is large (I' past every lifetime), so a conflict is slow:
   * NEVER_EARLY_CONFLICTS = 100 costs 0.1-0.25 s on the 26-42-op families
   * where the relaxation has a schedule, and settles GEMM + epilogue with
   * k = 8 on 16 warps, where phase 1's I alone ran out of 20 s.  Kernels
   * below TWILL_SUBTILE_MIN_OPS ops (every built-in) keep the order of
   * Algorithm 1 alone. */
  if (r->g->nops >= TWILL_SUBTILE_MIN_OPS) {
    double tn = now();
    int nv = never(r, o, t0, NEVER_EARLY_CONFLICTS);
    if (o->log) {
      char line[160];
      snprintf(line, sizeof line, "any I at all (one iteration, first, %d conflicts): %s (%.2f s)",
               NEVER_EARLY_CONFLICTS,
               nv == 20 ? "none" : nv == 10 ? "not excluded" : nv == 0 ? "undecided" : "error",
               now() - tn);
      o->log(o->log_ctx, line);
    }
    if (nv == 20 || nv < 0) {
      r->status = nv == 20 ? 2 : -1;
      free(wbuf);
      r->seconds = now() - t0;
      return 0;
    }
    never_settled = nv == 10; /* satisfiable: refuting it again is hopeless */
  }
  /* With threads, once an I has been refuted (most kernels have a
   * schedule at phase 1's I, and would only pay for the next one): phase
   * 1 at the next I and its joint question on a thread of its own
   * (ahead), beside this I's (cur, asked ahead in the previous turn, or
   * NULL).  Taken in order, and dropped when this I settles the search. */
  long *nbuf = malloc((size_t)(r->g->nops > 0 ? r->g->nops : 1) * sizeof *nbuf);
  if (!nbuf) {
    free(wbuf);
    return -1;
  }
  iquery *cur = NULL, *ahead = NULL;
  pthread_t cur_th, ahead_th;
  memset(&cur_th, 0, sizeof cur_th); /* set whenever cur or ahead is */
  memset(&ahead_th, 0, sizeof ahead_th);
  inext nx = {0};
  bool have_nx = false, refuted = false;
  int err = 0;
  for (;;) {
    bool stop_here = o->ii_max > 0 && ii >= o->ii_max;
    if (o->threads > 1 && refuted && !stop_here) {
      nx.lp = lp, nx.wit = nbuf;
      if (phase1_next(r, o, t0, ii, ii_cap, &nx)) {
        err = 1;
        break;
      }
      have_nx = true;
      if ((nx.pr == 0 || nx.pr == 2) && !out_of_time(o, t0) && (ahead = malloc(sizeof *ahead))) {
        iquery_init(ahead, r, o, t0, nx.ii, at_ii_lmax(r->g, o, nx.ii, nx.lp));
        if (pthread_create(&ahead_th, NULL, iquery_run, ahead)) {
          free(ahead);
          ahead = NULL; /* asked here when its turn comes */
        }
      }
    }
    if (cur) pthread_join(cur_th, NULL);
    int st = at_ii(r, o, t0, ii, lp, lo, wit, &spent, cur);
    if (cur) {
      iquery_clear(cur);
      free(cur);
      cur = NULL;
    }
    if (st == 10) {
      iquery_drop(ahead, ahead_th);
      ahead = NULL;
      r->status = r->length_proven ? 0 : 3;
      r->cross_edges = -1;
      if (!o->first_model) tiebreak(r, o, t0);
      /* never hand out a schedule the model's validator rejects */
      if (twill_joint_validate(r->g, &r->p, r->length, r->sched, NULL, 0))
        r->status = -1;
      break;
    }
    if (st != 20) {
      r->status = st < 0 ? -1 : 3;
      break;
    }
    r->ii_lower = ii + 1;
    refuted = true;
    if (!never_settled && spent >= never_next) {
      int64_t b = (int64_t)(spent / NEVER_LATE_RATIO);
      if (b < NEVER_LATE_CONFLICTS) b = NEVER_LATE_CONFLICTS;
      never_next = 2 * NEVER_LATE_RATIO * (uint64_t)b;
      double tn = now();
      int nv = never(r, o, t0, b);
      if (o->log) {
        char line[160];
        snprintf(line, sizeof line, "any I at all (one iteration, %lld conflicts): %s (%.2f s)",
                 (long long)b,
                 nv == 20 ? "none" : nv == 10 ? "not excluded" : nv == 0 ? "undecided" : "error",
                 now() - tn);
        o->log(o->log_ctx, line);
      }
      never_settled = nv == 10;
      if (nv == 20) {
        r->status = 2;
        break;
      }
      if (nv < 0) {
        r->status = -1;
        break;
      }
    }
    if (stop_here) { /* the caller has a schedule at ii_max already */
      r->status = 4;
      break;
    }
    /* phase 1 again at the next I that admits a modulo schedule */
    if (!have_nx) {
      nx.lp = lp, nx.wit = nbuf;
      if (phase1_next(r, o, t0, ii, ii_cap, &nx)) {
        err = 1;
        break;
      }
    }
    have_nx = false;
    for (long k = 1; k <= nx.nskip; k++) {
      if (add_try(r, ii + k, 0, 0)) {
        err = 1;
        break;
      }
      r->tries[r->ntries - 1].status = -1;
      r->ii_lower = ii + k + 1;
    }
    if (err || (nx.pr != 0 && nx.pr != 2)) break; /* cap, or error */
    ii = nx.ii, lp = nx.lp, lo = nx.lo;
    wit = NULL;
    if (nx.has_wit) {
      memcpy(wbuf, nbuf, (size_t)r->g->nops * sizeof *wbuf);
      wit = wbuf;
    }
    cur = ahead, cur_th = ahead_th;
    ahead = NULL;
    if (out_of_time(o, t0)) break;
  }
  iquery_drop(ahead, ahead_th);
  iquery_drop(cur, cur_th);
  free(nbuf);
  if (err) {
    free(wbuf);
    return -1;
  }
  free(wbuf);
  r->seconds = now() - t0;
  return 0;
}

/* ---- certificate -------------------------------------------------------
 * Format version 2, in core/check/cert_solve.c, whose checker shares no
 * code with this writer. */

static void write_rels(FILE *f, const twill_solve_result *r) {
  for (int k = 0; k < r->p.nrels; k++) {
    const twill_joint_rel *rl = &r->p.rels[k];
    fprintf(f, "rel %s ", twill_rel_name(rl->kind));
    for (int i = 0; i < rl->nops; i++)
      fprintf(f, "%s%s", i ? "," : "", r->g->ops[rl->ops[i]].name);
    fputc('\n', f);
  }
}

static void write_params(FILE *f, const twill_joint_params *p, long xreal) {
  fprintf(f, "params %d %d %ld %ld %d %d %ld %ld %d %ld %ld %d\n", p->warps,
          p->warpgroup, p->regs, p->regs_per_sm, p->reg_lo, p->reg_step,
          xreal, p->cross_warp, p->no_cross_warp ? 1 : 0, p->smem_cap,
          p->tmem_cap, p->symmetry ? (p->subtile_symmetry ? 2 : 1) : 0);
}

/* Kernel, machine, normalization, parameters and relations: what the
 * checker derives itself and compares. */
static int write_header(FILE *f, const twill_solve_result *r, const char *machine,
                        const char *launch) {
  fprintf(f, "twill-certificate 2 solve\nkernel %s\nmachine %s\n", r->g->name, machine);
  twill_norm nm = r->norm;
  nm.U = r->norm_budget;
  if (twill_cert_write_norm(r->norm_budget > 0 ? &nm : NULL, f)) return -1;
  if (launch) fputs(launch, f);
  write_params(f, &r->p, r->cross_warp_real);
  write_rels(f, r);
  return 0;
}

/* "No I at all" (core/joint/joint_never.c): the count's one line, or the
 * refutation of the single-iteration relaxation, which the checker
 * derives. */
int twill_solve_write_never(const twill_solve_result *r, FILE *f) {
  if (r->status != 2) return -1;
  if (r->never_pack > 0) {
    fprintf(f, "never-pack %s\n", r->g->ops[r->never_pack - 1].name);
    return ferror(f) ? -1 : 0;
  }
  if (!r->never_proof) return -1;
  fprintf(f, "%s %ld %ld %zu\n", r->never_covers ? "never-covers" : "never", r->never_ii,
          r->never_L, r->never_proof_len);
  fwrite(r->never_proof, 1, r->never_proof_len, f);
  fputc('\n', f);
  return ferror(f) ? -1 : 0;
}

/* A certificate whose answer is "no I at all": the header, the block above,
 * the launch search's tail. */
static int write_never_cert(const twill_solve_result *r, const char *machine,
                            const char *launch, const char *tail, FILE *f) {
  if ((!r->never_proof && !r->never_pack) || write_header(f, r, machine, launch) ||
      twill_solve_write_never(r, f))
    return -1;
  fprintf(f, "%send\n", tail ? tail : "");
  return ferror(f) ? -1 : 0;
}

int twill_solve_write_cert(const twill_solve_result *r, const char *machine, FILE *f) {
  return twill_solve_write_cert_ext(r, machine, NULL, NULL, f);
}

int twill_solve_write_cert_ext(const twill_solve_result *r, const char *machine,
                               const char *launch, const char *tail, FILE *f) {
  if (r->status == 2) return write_never_cert(r, machine, launch, tail, f);
  if (!r->sched || !r->phase1_cert) return -1;
  for (int i = 0; i < r->ntries; i++) {
    const twill_solve_try *t = &r->tries[i];
    if (t->ii >= r->ii) continue;
    /* an I skipped as infeasible for phase 1 has no certificate here, and
     * an I refuted without a modulo schedule to bound its copies cannot
     * show that the refutation covers them */
    if (t->status != 20 || !t->proof || (t->ii > r->phase1_ii && !t->witness)) return -1;
  }
  if (write_header(f, r, machine, launch)) return -1;
  fprintf(f, "ii %ld\nlength %ld\n", r->ii, r->length);
  for (int v = 0; v < r->g->nops; v++)
    fprintf(f, "time %s %ld %d\n", r->g->ops[v].name, r->sched->start[v], r->sched->warp[v]);
  fprintf(f, "phase1 %zu\n", r->phase1_cert_len);
  fwrite(r->phase1_cert, 1, r->phase1_cert_len, f);
  fputc('\n', f);
  for (int i = 0; i < r->ntries; i++) {
    const twill_solve_try *t = &r->tries[i];
    if (t->ii >= r->ii) continue;
    if (t->ii > r->phase1_ii) {
      fprintf(f, "witness %ld\n", t->ii);
      for (int v = 0; v < r->g->nops; v++)
        fprintf(f, "wtime %s %ld\n", r->g->ops[v].name, t->witness[v]);
    }
    fprintf(f, "refute %ld %ld %zu\n", t->ii, t->lmax, t->proof_len);
    fwrite(t->proof, 1, t->proof_len, f);
    fputc('\n', f);
  }
  if (r->length_proof) {
    fprintf(f, "refute %ld %ld %zu\n", r->ii, r->length - 1, r->length_proof_len);
    fwrite(r->length_proof, 1, r->length_proof_len, f);
    fputc('\n', f);
  } else if (!r->length_proven) {
    fprintf(f, "length-proof none\n");
  }
  if (tail) fputs(tail, f);
  fprintf(f, "end\n");
  return ferror(f) ? -1 : 0;
}
