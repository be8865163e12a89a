/* core/gaus/gaus.c: the GauS relaxation: problem arrays, windowed CDFs, the
 * losses of Formulations A, B and C with hand-written gradients, the
 * augmented Lagrangian and Adam (twill/gaus.h has the definitions).
 *
 * Gradient plan: every loss is a function of the window values
 * F_i(d) = Phi((d + 0.5 - mu_i)/sigma_i) (resource, memory, communication)
 * or of (mu, sigma) directly (Dep, Lat).  Aggregates (U, Reg, MRes) are
 * summed into per-chunk partial arrays, reduced in chunk order, and their
 * adjoints dL/dU are formed serially; op passes then pull the adjoints
 * over their own window.  Edge terms write four per-edge slots
 * (d/dmu_src, d/dsigma_src, d/dmu_dst, d/dsigma_dst) that each op gathers
 * in CSR order.  Nothing is ever added to shared memory by two chunks.
 */
#include "twill/gaus.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gaus_pool.h"
#include "gaus_priv.h"

#define SQRT1_2 0.70710678118654752440
#define WIN 9.0 /* window half-width in sigmas */
#define CHUNK 256
#define MAXCH 64

/* ---- problem ----------------------------------------------------------- */

twill_gaus_problem *twill_gaus_problem_new(int n, int ne, int nunits,
                                           int nuses) {
  if (n < 0 || ne < 0 || nunits < 0 || nuses < 0) return NULL;
  twill_gaus_problem *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  p->ne = ne;
  p->nunits = nunits;
  p->nuses = nuses;
  size_t N = (size_t)n + 1, E = (size_t)ne + 1, U = (size_t)nuses + 1,
         R = (size_t)nunits + 1;
  p->lat = calloc(N, sizeof *p->lat);
  p->w = calloc(N, sizeof *p->w);
  p->uoff = calloc(N + 1, sizeof *p->uoff);
  p->uunit = calloc(U, sizeof(int));
  p->uoffset = calloc(U, sizeof(int));
  p->ucycles = calloc(U, sizeof(int));
  p->ucount = calloc(U, sizeof(double));
  p->cap = calloc(R, sizeof(double));
  p->esrc = calloc(E, sizeof(int));
  p->edst = calloc(E, sizeof(int));
  p->elat = calloc(E, sizeof(long));
  p->edist = calloc(E, sizeof(int));
  p->ecost = calloc(E, sizeof(double));
  if (!p->lat || !p->w || !p->uoff || !p->uunit || !p->uoffset ||
      !p->ucycles || !p->ucount || !p->cap || !p->esrc || !p->edst ||
      !p->elat || !p->edist || !p->ecost) {
    twill_gaus_problem_free(p);
    return NULL;
  }
  for (int i = 0; i < n; i++) p->w[i] = 1.0;
  for (int e = 0; e < ne; e++) p->ecost[e] = 1.0;
  return p;
}

void twill_gaus_problem_free(twill_gaus_problem *p) {
  if (!p) return;
  free(p->lat);
  free(p->w);
  free(p->uoff);
  free(p->uunit);
  free(p->uoffset);
  free(p->ucycles);
  free(p->ucount);
  free(p->cap);
  free(p->esrc);
  free(p->edst);
  free(p->elat);
  free(p->edist);
  free(p->ecost);
  free(p->out_off);
  free(p->out_e);
  free(p->in_off);
  free(p->in_e);
  free(p);
}

int twill_gaus_problem_finish(twill_gaus_problem *p) {
  int n = p->n, ne = p->ne;
  for (int e = 0; e < ne; e++)
    if (p->esrc[e] < 0 || p->esrc[e] >= n || p->edst[e] < 0 ||
        p->edst[e] >= n || p->elat[e] < 0 || p->edist[e] < 0)
      return -1;
  if (p->uoff[0] != 0 || p->uoff[n] != p->nuses) return -1;
  for (int i = 0; i < n; i++)
    if (p->uoff[i + 1] < p->uoff[i]) return -1;
  for (int u = 0; u < p->nuses; u++)
    if (p->uunit[u] < 0 || p->uunit[u] >= p->nunits || p->uoffset[u] < 0 ||
        p->ucycles[u] < 1 || p->ucount[u] < 0)
      return -1;
  free(p->out_off);
  free(p->out_e);
  free(p->in_off);
  free(p->in_e);
  p->out_off = calloc((size_t)n + 1, sizeof(int));
  p->in_off = calloc((size_t)n + 1, sizeof(int));
  p->out_e = malloc(((size_t)ne + 1) * sizeof(int));
  p->in_e = malloc(((size_t)ne + 1) * sizeof(int));
  if (!p->out_off || !p->in_off || !p->out_e || !p->in_e) return -1;
  for (int e = 0; e < ne; e++) {
    p->out_off[p->esrc[e] + 1]++;
    p->in_off[p->edst[e] + 1]++;
  }
  for (int i = 0; i < n; i++) {
    p->out_off[i + 1] += p->out_off[i];
    p->in_off[i + 1] += p->in_off[i];
  }
  int *po = malloc(((size_t)n + 1) * sizeof(int));
  int *pi = malloc(((size_t)n + 1) * sizeof(int));
  if (!po || !pi) {
    free(po);
    free(pi);
    return -1;
  }
  memcpy(po, p->out_off, ((size_t)n + 1) * sizeof(int));
  memcpy(pi, p->in_off, ((size_t)n + 1) * sizeof(int));
  for (int e = 0; e < ne; e++) {
    p->out_e[po[p->esrc[e]]++] = e;
    p->in_e[pi[p->edst[e]]++] = e;
  }
  free(po);
  free(pi);
  return 0;
}

twill_gaus_problem *twill_gaus_problem_from_graph(const twill_graph *g,
                                                  const double *edge_cost) {
  int nuses = 0;
  for (int i = 0; i < g->nops; i++) nuses += g->ops[i].nuses;
  twill_gaus_problem *p =
      twill_gaus_problem_new(g->nops, g->nedges, g->nunits, nuses);
  if (!p) return NULL;
  bool regs = false;
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i].regs > 0) regs = true;
  int u = 0;
  for (int i = 0; i < g->nops; i++) {
    const twill_op *op = &g->ops[i];
    p->lat[i] = op->lat;
    p->w[i] = regs ? (double)op->regs : 1.0;
    p->uoff[i] = u;
    for (int k = 0; k < op->nuses; k++, u++) {
      p->uunit[u] = op->uses[k].unit;
      p->uoffset[u] = op->uses[k].offset;
      p->ucycles[u] = op->uses[k].cycles;
      p->ucount[u] = op->uses[k].count;
    }
  }
  p->uoff[g->nops] = u;
  for (int r = 0; r < g->nunits; r++) p->cap[r] = g->units[r].capacity;
  for (int e = 0; e < g->nedges; e++) {
    p->esrc[e] = g->edges[e].src;
    p->edst[e] = g->edges[e].dst;
    p->elat[e] = g->edges[e].lat;
    p->edist[e] = g->edges[e].dist;
    p->ecost[e] = edge_cost ? edge_cost[e] : 1.0;
  }
  if (twill_gaus_problem_finish(p) != 0) {
    twill_gaus_problem_free(p);
    return NULL;
  }
  return p;
}

/* ---- options ----------------------------------------------------------- */

void twill_gaus_opts_default(twill_gaus_opts *o) {
  memset(o, 0, sizeof *o);
  o->form = 'A';
  o->ii = 0;
  o->steps = 0;
  o->iters = 1000;
  o->threads = 1;
  o->seed = 1;
  o->lr_mu = 0.05; /* the GauS paper gives no value; of 0.01 and 0.05,
                      0.05 converges in the 1000-step default on the test
                      graphs */
  o->lr_s = 0.05;
  o->beta1 = 0.9;
  o->beta2 = 0.999;
  o->eps = 1e-8;
  o->kappa = 1.0 / 6.0;
  o->sigma_min = 0.1;
  o->sigma_init_max = 4.0;
  o->tau = 1.0;
  o->alpha = 0.01; /* 1/ratio with GS-Schedule's ratio 100 (its RW graphs) */
  o->lambda0 = 0.0;
  o->rho0 = 1.0;
  o->gamma = 2.0;
  o->eta = 0.25;
  o->rho_max = 1e4;
  o->alm_every = 100;
  o->legalize_every = 200;
  o->restart = true;
  o->time_limit = 0;
  o->progress = false;
}

/* ---- math helpers ------------------------------------------------------ */

/* Phi(x) = P(N(0,1) <= x) from a table: at the nodes a = k/64 - 9 on
 * [-9, 8.5] one cache line holds the Taylor coefficients of order 0..6 of
 * Phi at a: Phi(a) (from erfc), then phi(a) (-1)^(j-1) He_(j-1)(a) / j!,
 * evaluated at t = x - a, |t| <= 1/128.  The remainder is below
 * t^7/7! max|He_6 phi| < 3e-18; measured against 0.5 erfc(-x/sqrt 2) on
 * 2 10^7 points the absolute error is at most 2.3e-16 (one or two ulps of
 * values near 1, rounding in the sum).  Below -9 it returns 0 (the true
 * value is under 1.2e-19), from 8.5 on 1 (the true value rounds to 1).
 * About 3x faster than erfc; tests/test_gaus.c checks the error bound. */
#define PT_LO 9.0
#define PT_HI 8.5
#define PT_STEP 64
#define PT_N 1121 /* (PT_LO + PT_HI) * PT_STEP + 1 */
static _Alignas(64) double pt_c[PT_N][8];
static pthread_once_t pt_once = PTHREAD_ONCE_INIT;

static void pt_init(void) {
  for (int k = 0; k < PT_N; k++) {
    double a = (double)k / PT_STEP - PT_LO, a2 = a * a;
    double ph = 0.3989422804014327 * exp(-0.5 * a * a);
    double *c = pt_c[k];
    c[0] = 0.5 * erfc(-a * SQRT1_2);
    c[1] = ph;
    c[2] = ph * (-0.5 * a);
    c[3] = ph * (a2 - 1) / 6;
    c[4] = ph * (-a * (a2 - 3)) / 24;
    c[5] = ph * (a2 * a2 - 6 * a2 + 3) / 120;
    c[6] = ph * (-a * (a2 * a2 - 10 * a2 + 15)) / 720;
    c[7] = 0;
  }
}

static inline double phi(double x) {
  return 0.3989422804014327 * exp(-0.5 * x * x);
}

/* Phi(x), and into *pdf (when not NULL) the derivative of the same
 * series, phi(x) to a relative 1e-14 for |x| <= 3 (1e-10 at 9), so that
 * gradients built on pdf are exact derivatives of the Phi used; 0 and 1
 * outside [-9, 8.5] (where the series is constant, pdf = 0).  The sums
 * are split (Estrin) to shorten the dependency chains. */
static inline double Phi_pdf(double x, double *pdf) {
  if (!(x > -PT_LO) || x >= PT_HI) {
    if (pdf) *pdf = x == x ? 0.0 : x;
    return x >= PT_HI ? 1.0 : x < 0 ? 0.0 : x; /* NaN stays NaN */
  }
  int k = (int)((x + PT_LO) * PT_STEP + 0.5);
  const double *c = pt_c[k];
  double t = x - ((double)k * (1.0 / PT_STEP) - PT_LO), t2 = t * t;
  if (pdf) {
    double d0 = c[1] + t * (2 * c[2]), d1 = 3 * c[3] + t * (4 * c[4]),
           d2 = 5 * c[5] + t * (6 * c[6]);
    *pdf = d0 + t2 * (d1 + t2 * d2);
  }
  double lo = c[0] + t * (c[1] + t * c[2]);
  double hi = c[3] + t * c[4] + t2 * (c[5] + t * c[6]);
  return lo + t2 * t * hi;
}

static inline double Phi(double x) { return Phi_pdf(x, NULL); }

double twill_gaus_Phi(double x) {
  pthread_once(&pt_once, pt_init);
  return Phi(x);
}
static inline double softplus(double x) {
  return x > 30 ? x : log1p(exp(x));
}
static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* ---- model ------------------------------------------------------------- */

struct twill_gaus_model {
  const twill_gaus_problem *p;
  twill_gaus_opts o;
  int form;
  long D, ii;
  int n, ne, R;
  long T;        /* length of the per-unit aggregate arrays */
  long Dx;       /* length of the per-step arrays (D + longest use) */
  double *mu, *s, *sig, *dsig;
  double *s0;    /* s at initialization (restarts go back to it) */
  long *lo, *hi;
  long *woff;
  size_t wcap;
  double *F;     /* window entries of all ops, interleaved: F_i(d),
                    dF_i(d)/dmu_i, dF_i(d)/dsigma_i at 3 (woff_i + d - lo_i) */
  long *rhi;     /* end of op i's Reg window (max hi over succ), or -1 */
  long *rlo1, *rlo2; /* largest and second largest lo over op i's
                        distance-0 successors (-1: none): below rlo1
                        some successor's F is 0, below rlo2 two are */
  int nch, ech;
  double *partU, *partR;
  double *U, *aU, *Rg, *aR, *M, *aM;
  double *eg;    /* 4 per edge */
  double *em;    /* 2 per edge: memory gradient to dst */
  double *ev, *edv, *ecm;
  double *tmpT;
  double *ov, *olv, *omu, *osig;
  double *gmu, *gsig;
  double *scratch; /* per op chunk: 2 * (maxdeg + 1) */
  int maxdeg;
  int nmult;
  double *lam, *capg;
  double *busy;  /* per unit: busy instance-cycles, sum of count x cycles */
  double rho, prev_viol;
  double *m1mu, *m2mu, *m1s, *m2s;
  long tstep;
  gaus_pool *pool;
  double len_mx, len_s; /* L: max and sum of the LSE over finish times */
  double bc1, bc2;       /* Adam bias corrections 1 - beta^t of this step */
  /* per evaluation */
  int mask;
  int adam;
};

static bool edge_used(const twill_gaus_model *m, int e) {
  return m->form == 'C' || m->p->edist[e] == 0;
}

/* per-step unit usage U_r(d) is needed: A (objective and caps), L (caps) */
static bool plain_res(const twill_gaus_model *m) {
  if (m->form == 'A') return m->mask & (TWILL_GAUS_RES | TWILL_GAUS_CAP);
  return m->form == 'L' && (m->mask & TWILL_GAUS_CAP);
}

void twill_gaus_model_free(twill_gaus_model *m) {
  if (!m) return;
  twill_gaus_pool_free(m->pool);
  free(m->mu);
  free(m->s);
  free(m->s0);
  free(m->sig);
  free(m->dsig);
  free(m->lo);
  free(m->hi);
  free(m->woff);
  free(m->F);
  free(m->rhi);
  free(m->rlo1);
  free(m->rlo2);
  free(m->partU);
  free(m->partR);
  free(m->U);
  free(m->aU);
  free(m->Rg);
  free(m->aR);
  free(m->M);
  free(m->aM);
  free(m->eg);
  free(m->em);
  free(m->ev);
  free(m->tmpT);
  free(m->edv);
  free(m->ecm);
  free(m->ov);
  free(m->olv);
  free(m->omu);
  free(m->osig);
  free(m->gmu);
  free(m->gsig);
  free(m->scratch);
  free(m->lam);
  free(m->capg);
  free(m->busy);
  free(m->m1mu);
  free(m->m2mu);
  free(m->m1s);
  free(m->m2s);
  free(m);
}

static int nchunks(int count) {
  int c = (count + CHUNK - 1) / CHUNK;
  if (c < 1) c = 1;
  if (c > MAXCH) c = MAXCH;
  return c;
}

twill_gaus_model *twill_gaus_model_new(const twill_gaus_problem *p,
                                       const twill_gaus_opts *o, long D,
                                       long ii) {
  pthread_once(&pt_once, pt_init);
  twill_gaus_model *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->p = p;
  m->o = *o;
  m->form = o->form;
  if (D < 1) D = 1;
  if (ii < 1) ii = 1;
  m->D = D;
  m->ii = ii;
  m->n = p->n;
  m->ne = p->ne;
  m->R = p->nunits;
  long ext = 1;
  for (int u = 0; u < p->nuses; u++)
    if ((long)p->uoffset[u] + p->ucycles[u] > ext)
      ext = (long)p->uoffset[u] + p->ucycles[u];
  m->Dx = D + ext;
  m->T = m->form == 'C' ? ii : m->Dx;
  m->nch = nchunks(m->n);
  m->ech = nchunks(m->ne);
  size_t N = (size_t)m->n + 1, E = (size_t)m->ne + 1;
  int maxdeg = 0;
  for (int i = 0; i < m->n; i++) {
    int d = p->out_off[i + 1] - p->out_off[i];
    if (d > maxdeg) maxdeg = d;
  }
  m->maxdeg = maxdeg;
  size_t RT = (size_t)m->R * (size_t)m->T + 1;
  m->nmult = m->ne + m->n + (int)(RT - 1);
  m->mu = calloc(N, sizeof(double));
  m->s = calloc(N, sizeof(double));
  m->s0 = calloc(N, sizeof(double));
  m->sig = calloc(N, sizeof(double));
  m->dsig = calloc(N, sizeof(double));
  m->lo = calloc(N, sizeof(long));
  m->hi = calloc(N, sizeof(long));
  m->woff = calloc(N + 1, sizeof(long));
  m->rhi = calloc(N, sizeof(long));
  m->rlo1 = calloc(N, sizeof(long));
  m->rlo2 = calloc(N, sizeof(long));
  m->partU = calloc((size_t)m->nch * RT, sizeof(double));
  m->partR = calloc((size_t)m->nch * (size_t)m->Dx, sizeof(double));
  m->U = calloc(RT, sizeof(double));
  m->aU = calloc(RT, sizeof(double));
  m->capg = calloc(RT, sizeof(double));
  m->busy = calloc((size_t)m->R + 1, sizeof(double));
  m->Rg = calloc((size_t)m->Dx, sizeof(double));
  m->aR = calloc((size_t)m->Dx, sizeof(double));
  m->M = calloc((size_t)ii, sizeof(double));
  m->aM = calloc((size_t)ii, sizeof(double));
  m->eg = calloc(4 * E, sizeof(double));
  m->em = calloc(2 * E, sizeof(double));
  m->ev = calloc(E, sizeof(double));
  m->tmpT = calloc((size_t)m->T + 1, sizeof(double));
  m->edv = calloc(E, sizeof(double));
  m->ecm = calloc(E, sizeof(double));
  m->ov = calloc(N, sizeof(double));
  m->olv = calloc(N, sizeof(double));
  m->omu = calloc(N, sizeof(double));
  m->osig = calloc(N, sizeof(double));
  m->gmu = calloc(N, sizeof(double));
  m->gsig = calloc(N, sizeof(double));
  m->scratch = calloc((size_t)m->nch * 2 * ((size_t)maxdeg + 1), sizeof(double));
  m->lam = calloc((size_t)m->nmult + 1, sizeof(double));
  m->m1mu = calloc(N, sizeof(double));
  m->m2mu = calloc(N, sizeof(double));
  m->m1s = calloc(N, sizeof(double));
  m->m2s = calloc(N, sizeof(double));
  m->pool = twill_gaus_pool_new(o->threads);
  if (!m->mu || !m->s || !m->s0 || !m->sig || !m->dsig || !m->lo || !m->hi ||
      !m->woff || !m->rhi || !m->rlo1 || !m->rlo2 || !m->partU || !m->partR || !m->U || !m->aU ||
      !m->capg || !m->busy || !m->Rg || !m->aR || !m->M || !m->aM || !m->eg || !m->em ||
      !m->ev || !m->tmpT || !m->edv || !m->ecm || !m->ov || !m->olv || !m->omu ||
      !m->osig || !m->gmu || !m->gsig || !m->scratch || !m->lam ||
      !m->m1mu || !m->m2mu || !m->m1s || !m->m2s || !m->pool) {
    twill_gaus_model_free(m);
    return NULL;
  }
  for (int u = 0; u < p->nuses; u++)
    m->busy[p->uunit[u]] += p->ucount[u] * p->ucycles[u];
  for (int k = 0; k < m->nmult; k++) m->lam[k] = o->lambda0;
  m->rho = o->rho0;
  m->prev_viol = INFINITY;
  return m;
}

int twill_gaus_model_nmult(const twill_gaus_model *m) { return m->nmult; }
double *twill_gaus_model_lambda(twill_gaus_model *m) { return m->lam; }
void twill_gaus_model_set_rho(twill_gaus_model *m, double rho) {
  m->rho = rho;
}
double *twill_gaus_model_mu(twill_gaus_model *m) { return m->mu; }
double *twill_gaus_model_s(twill_gaus_model *m) { return m->s; }

/* ---- initialization ---------------------------------------------------- */

static long latp(long l) { return l < 1 ? 1 : l; }

/* ASAP over distance-0 edges; returns the critical-path length, or -1 on a
 * zero-distance cycle / allocation failure.  order (may be NULL) gets a
 * topological order. */
long twill_gaus_asap(const twill_gaus_problem *p, long *asap, int *order) {
  int n = p->n;
  int *indeg = calloc((size_t)n + 1, sizeof(int));
  int *q = malloc(((size_t)n + 1) * sizeof(int));
  if (!indeg || !q) {
    free(indeg);
    free(q);
    return -1;
  }
  for (int e = 0; e < p->ne; e++)
    if (p->edist[e] == 0) indeg[p->edst[e]]++;
  int qh = 0, qt = 0;
  for (int i = 0; i < n; i++) {
    asap[i] = 0;
    if (!indeg[i]) q[qt++] = i;
  }
  long cp = 0;
  while (qh < qt) {
    int v = q[qh++];
    if (asap[v] + latp(p->lat[v]) > cp) cp = asap[v] + latp(p->lat[v]);
    for (int k = p->out_off[v]; k < p->out_off[v + 1]; k++) {
      int e = p->out_e[k];
      if (p->edist[e]) continue;
      int w = p->edst[e];
      if (asap[v] + p->elat[e] > asap[w]) asap[w] = asap[v] + p->elat[e];
      if (--indeg[w] == 0) q[qt++] = w;
    }
  }
  if (order) memcpy(order, q, (size_t)n * sizeof(int));
  free(indeg);
  free(q);
  return qt == n ? cp : -1;
}

void twill_gaus_model_init(twill_gaus_model *m) {
  const twill_gaus_problem *p = m->p;
  int n = m->n;
  long *asap = calloc((size_t)n + 1, sizeof(long));
  long *alap = calloc((size_t)n + 1, sizeof(long));
  int *order = calloc((size_t)n + 1, sizeof(int));
  bool ok = asap && alap && order && twill_gaus_asap(p, asap, order) >= 0;
  unsigned long long x = m->o.seed * 0x9E3779B97F4A7C15ULL + 1;
  for (int k = n - 1; ok && k >= 0; k--) {
    int v = order[k];
    long a = m->D - latp(p->lat[v]);
    for (int j = p->out_off[v]; j < p->out_off[v + 1]; j++) {
      int e = p->out_e[j];
      if (p->edist[e]) continue;
      long b = alap[p->edst[e]] - p->elat[e];
      if (b < a) a = b;
    }
    alap[v] = a;
  }
  for (int i = 0; i < n; i++) {
    double lo = ok ? (double)asap[i] : 0, hi = ok ? (double)alap[i] : 0;
    if (hi < lo) hi = lo;
    /* splitmix64 jitter in [-0.05, 0.05) breaks ties between twins */
    x += 0x9E3779B97F4A7C15ULL;
    unsigned long long z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    double jit = ((double)(z >> 11) / 9007199254740992.0 - 0.5) * 0.1;
    m->mu[i] = 0.5 * (lo + hi) + jit;
    double sg = m->o.kappa * (hi - lo);
    if (sg > m->o.sigma_init_max) sg = m->o.sigma_init_max;
    double xx = sg - m->o.sigma_min;
    if (xx < 0.05) xx = 0.05;
    m->s[i] = m->s0[i] = log(expm1(xx));
    m->m1mu[i] = m->m2mu[i] = m->m1s[i] = m->m2s[i] = 0;
  }
  m->tstep = 0;
  free(asap);
  free(alap);
  free(order);
}

/* ---- window access ------------------------------------------------------ */

static inline double Fv(const twill_gaus_model *m, int i, long d) {
  if (d < m->lo[i]) return 0.0;
  if (d >= m->hi[i]) return 1.0;
  return m->F[3 * (m->woff[i] + d - m->lo[i])];
}
static inline double Fmv(const twill_gaus_model *m, int i, long d) {
  if (d < m->lo[i] || d >= m->hi[i]) return 0.0;
  return m->F[3 * (m->woff[i] + d - m->lo[i]) + 1];
}
static inline double Fsv(const twill_gaus_model *m, int i, long d) {
  if (d < m->lo[i] || d >= m->hi[i]) return 0.0;
  return m->F[3 * (m->woff[i] + d - m->lo[i]) + 2];
}

static void chunk_range(int count, int nch, int c, int *a, int *b) {
  *a = (int)((long long)count * c / nch);
  *b = (int)((long long)count * (c + 1) / nch);
}

/* phase 1: sigma and window bounds */
static void ph_window(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  int a, b;
  chunk_range(m->n, m->nch, c, &a, &b);
  for (int i = a; i < b; i++) {
    /* softplus and its derivative, the sigmoid, from one exp */
    double x = m->s[i], ex = exp(-fabs(x));
    double sp = (x > 0 ? x : 0) + log1p(ex);
    m->sig[i] = m->o.sigma_min + sp;
    m->dsig[i] = x >= 0 ? 1.0 / (1.0 + ex) : ex / (1.0 + ex);
    double mu = m->mu[i], sg = m->sig[i];
    double flo = floor(mu - 0.5 - WIN * sg);
    double fhi = ceil(mu - 0.5 + WIN * sg) + 1;
    long Dm = m->D - 1;
    long lo = flo < 0 ? 0 : (flo > (double)Dm ? Dm : (long)flo);
    long hi = fhi < 0 ? 0 : (fhi > (double)Dm ? Dm : (long)fhi);
    if (lo > hi) lo = hi;
    m->lo[i] = lo;
    m->hi[i] = hi;
  }
}

/* phase 2: F, dF/dmu, dF/dsigma in the window, and the unit usage.  Along
 * the window z steps by h = 1/sigma, so phi(z + h) = phi(z) q with
 * q = exp(-z h - h^2/2), and q itself steps by the constant factor
 * exp(-h^2): two exp() per op instead of one per window entry (relative
 * error a few ulps per step, far below the finite-difference tolerance;
 * used only for h^2 <= 200, so no factor over- or underflows; larger h
 * falls back to exp per entry).  (Phi_pdf's series derivative per entry
 * instead of the recurrence was measured slower.) */
static void ph_fill(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  const twill_gaus_problem *p = m->p;
  int a, b;
  chunk_range(m->n, m->nch, c, &a, &b);
  size_t RT = (size_t)m->R * (size_t)m->T;
  double *pu = m->partU + (size_t)c * (RT + 1);
  memset(pu, 0, (RT + 1) * sizeof(double));
  memset(m->partR + (size_t)c * (size_t)m->Dx, 0, (size_t)m->Dx * sizeof(double));
  bool res = plain_res(m);
  bool mres = m->form == 'C' && (m->mask & TWILL_GAUS_CAP);
  for (int i = a; i < b; i++) {
    double mu = m->mu[i], sg = m->sig[i], h = 1.0 / sg;
    long lo = m->lo[i], hi = m->hi[i], w = hi - lo;
    double *F = m->F + 3 * m->woff[i];
    if (w > 0) {
      double z = ((double)lo + 0.5 - mu) * h;
      bool rec = h * h <= 200;
      double ph = phi(z), q = rec ? exp(-z * h - 0.5 * h * h) : 0,
             qq = rec ? exp(-h * h) : 0;
      for (long k = 0; k < w; k++) {
        double zk = ((double)(lo + k) + 0.5 - mu) * h;
        if (k > 0) {
          if (rec) {
            ph *= q;
            q *= qq;
          } else {
            ph = phi(zk);
          }
        }
        F[3 * k] = Phi(zk);
        F[3 * k + 1] = -ph * h;
        F[3 * k + 2] = -zk * ph * h;
      }
    }
    /* the op's share of the per-chunk unit usage, while its window is
       in L1 (phase 3 adds the memory aggregate, which needs the
       successors' windows) */
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
      int r = p->uunit[u], off = p->uoffset[u], cyc = p->ucycles[u];
      double cnt = p->ucount[u];
      double *row = pu + (size_t)r * (size_t)m->T;
      if (res) {
        long d0 = lo + off, d1 = hi + off + cyc; /* d in [d0, d1) */
        if (d1 > m->T) d1 = m->T;
        for (long d = d0; d < d1; d++)
          row[d] += cnt * (Fv(m, i, d - off) - Fv(m, i, d - off - cyc));
      } else if (mres) {
        for (long d = lo; d <= hi; d++) {
          double P = Fv(m, i, d) - Fv(m, i, d - 1);
          for (int k = 0; k < cyc; k++)
            row[(d + off + k) % m->ii] += cnt * P;
        }
      }
    }
  }
}

/* phase 3: per-chunk partial memory aggregates (B, C) */
static void ph_aggregate(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  const twill_gaus_problem *p = m->p;
  int a, b;
  chunk_range(m->n, m->nch, c, &a, &b);
  double *pr = m->partR + (size_t)c * (size_t)m->Dx;
  bool mem = (m->form == 'B' || m->form == 'C') && (m->mask & TWILL_GAUS_MEM);
  if (!mem) return;
  for (int i = a; i < b; i++) {
    long lo = m->lo[i];
    if (m->rhi[i] > lo) {
      /* below rlo1 a successor has F = 0, so the product is 0 (the loop
         below would find the same 0) */
      long d = lo, z = m->rlo1[i] < m->rhi[i] ? m->rlo1[i] : m->rhi[i];
      for (; d < z; d++) pr[d] += p->w[i] * Fv(m, i, d) * (1.0 - 0.0);
      for (; d < m->rhi[i]; d++) {
        double pr1 = 1.0;
        for (int k = p->out_off[i]; k < p->out_off[i + 1]; k++) {
          int e = p->out_e[k];
          if (p->edist[e]) continue;
          pr1 *= Fv(m, p->edst[e], d);
          if (pr1 == 0) break; /* F >= 0: the product stays 0 */
        }
        pr[d] += p->w[i] * Fv(m, i, d) * (1.0 - pr1);
      }
    }
  }
}

/* phase 4: reduce partials in chunk order (parallel over entries) */
static void ph_reduce(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  size_t RT = (size_t)m->R * (size_t)m->T;
  int a, b;
  chunk_range((int)RT, m->nch, c, &a, &b);
  for (int k = a; k < b; k++) {
    double s = 0;
    for (int ch = 0; ch < m->nch; ch++) s += m->partU[(size_t)ch * (RT + 1) + k];
    m->U[k] = s;
  }
  chunk_range((int)m->Dx, m->nch, c, &a, &b);
  for (int k = a; k < b; k++) {
    double s = 0;
    for (int ch = 0; ch < m->nch; ch++)
      s += m->partR[(size_t)ch * (size_t)m->Dx + k];
    m->Rg[k] = s;
  }
}

/* tau * LSE(x/tau) over len entries; adjoint (softmax times scale) added
 * to adj. */
static double lse(const double *x, long len, double tau, double *adj,
                  double scale) {
  if (len <= 0) return 0;
  double mx = x[0];
  for (long k = 1; k < len; k++)
    if (x[k] > mx) mx = x[k];
  double s = 0;
  for (long k = 0; k < len; k++) s += exp((x[k] - mx) / tau);
  if (adj)
    for (long k = 0; k < len; k++) adj[k] += scale * exp((x[k] - mx) / tau) / s;
  return mx + tau * log(s);
}

/* phase 5: edges (Dep/Rec and communication) */
static void ph_edges(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  const twill_gaus_problem *p = m->p;
  int a, b;
  chunk_range(m->ne, m->ech, c, &a, &b);
  bool dep = m->mask & TWILL_GAUS_DEP;
  bool com = m->form == 'A' && (m->mask & TWILL_GAUS_COM);
  /* Dep in three passes over the chunk, each with a short body so that
     the out-of-order core overlaps many edges (one pass had a ~100-cycle
     dependency chain per edge: sqrt, division, Phi); the eg slots hold
     (u, sd, Phi(u), phi(u)) in between */
  if (dep) {
    for (int e = a; e < b; e++) {
      double *g = m->eg + 4 * (size_t)e;
      if (!edge_used(m, e)) continue;
      int i = p->esrc[e], j = p->edst[e];
      double l = (double)p->elat[e] - (double)m->ii * p->edist[e];
      if (m->form != 'C') l = (double)p->elat[e];
      double si = m->sig[i], sj = m->sig[j];
      double sd = sqrt(si * si + sj * sj);
      g[0] = (l - (m->mu[j] - m->mu[i])) / sd;
      g[1] = sd;
    }
    for (int e = a; e < b; e++) {
      double *g = m->eg + 4 * (size_t)e;
      if (edge_used(m, e)) g[2] = Phi_pdf(g[0], &g[3]);
    }
  }
  for (int e = a; e < b; e++) {
    double *g = m->eg + 4 * (size_t)e;
    m->ev[e] = m->edv[e] = m->ecm[e] = 0;
    m->em[2 * (size_t)e] = m->em[2 * (size_t)e + 1] = 0;
    if (!edge_used(m, e)) {
      g[0] = g[1] = g[2] = g[3] = 0;
      continue;
    }
    int i = p->esrc[e], j = p->edst[e];
    if (dep) {
      double u = g[0], sd = g[1], Pu = g[2], pu = g[3];
      double si = m->sig[i], sj = m->sig[j];
      double V = sd * (u * Pu + pu);
      double lam = m->lam[e];
      double w = lam + m->rho * V;
      m->edv[e] = V;
      m->ev[e] = lam * V + 0.5 * m->rho * V * V;
      double wp = w * pu / sd;
      g[0] = w * Pu;
      g[1] = wp * si;
      g[2] = -w * Pu;
      g[3] = wp * sj;
    } else {
      g[0] = g[1] = g[2] = g[3] = 0;
    }
    if (com && p->ecost[e] != 0 && p->edist[e] == 0) {
      double ce = p->ecost[e], al = m->o.alpha;
      long d0 = m->lo[i], d1 = m->hi[j]; /* F_i = 0 below lo_i, F_j = 1 from hi_j */
      if (d1 > m->D - 1) d1 = m->D - 1;
      double v = 0, gmi = 0, gsi = 0, gmj = 0, gsj = 0;
      /* ascending d in three ranges cut at lo_j and hi_i (same additions,
         same order as one loop over d, without the window tests) */
      long hii = m->hi[i], loj = m->lo[j];
      /* triples (F, dF/dmu, dF/dsigma) of step d at Fi + 3 (d - lo_i) */
      const double *Fi = m->F + 3 * m->woff[i], *Fj = m->F + 3 * m->woff[j];
      long li = m->lo[i];
      long b1 = hii < loj ? hii : loj, b2 = hii < loj ? loj : hii;
      if (b1 > d1) b1 = d1;
      if (b2 > d1) b2 = d1;
      long d = d0;
      for (; d < b1; d++) { /* F_j = 0, inside i's window */
        const double *x = Fi + 3 * (d - li);
        v += x[0];
        gmi += x[1];
        gsi += x[2];
      }
      if (d < b2) {
        if (loj <= hii) {
          for (; d < b2; d++) { /* inside both windows */
            const double *x = Fi + 3 * (d - li), *y = Fj + 3 * (d - loj);
            double fi = x[0], fj1 = 1 - y[0];
            v += fi * fj1;
            gmi += x[1] * fj1;
            gsi += x[2] * fj1;
            gmj -= fi * y[1];
            gsj -= fi * y[2];
          }
        } else {
          for (; d < b2; d++) v += 1.0; /* F_i = 1, F_j = 0 */
        }
      }
      for (; d < d1; d++) { /* F_i = 1, inside j's window */
        const double *y = Fj + 3 * (d - loj);
        v += 1 - y[0];
        gmj -= y[1];
        gsj -= y[2];
      }
      m->ecm[e] = ce * v;
      g[0] += al * ce * gmi;
      g[1] += al * ce * gsi;
      g[2] += al * ce * gmj;
      g[3] += al * ce * gsj;
    }
  }
}

/* phase 6: memory adjoint through the lifetimes (writes own accumulators
 * and the dst slots of the op's out-edges) */
static void ph_mem_adj(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  const twill_gaus_problem *p = m->p;
  int a, b;
  chunk_range(m->n, m->nch, c, &a, &b);
  bool mem = (m->form == 'B' || m->form == 'C') && (m->mask & TWILL_GAUS_MEM);
  double *pre = m->scratch + (size_t)c * 2 * ((size_t)m->maxdeg + 1);
  double *suf = pre + m->maxdeg + 1;
  for (int i = a; i < b; i++) {
    m->omu[i] = m->osig[i] = 0;
    if (!mem || m->rhi[i] <= m->lo[i]) continue;
    int k0 = p->out_off[i], k1 = p->out_off[i + 1], deg = k1 - k0;
    double bi = p->w[i];
    for (long d = m->lo[i]; d < m->rhi[i]; d++) {
      double A = m->aR[d];
      if (A == 0) continue;
      if (d < m->rlo2[i]) { /* two successors with F = 0 (as below) */
        double gF0 = A * bi * (1 - 0.0);
        m->omu[i] += gF0 * Fmv(m, i, d);
        m->osig[i] += gF0 * Fsv(m, i, d);
        continue;
      }
      /* two successors not started yet (F = 0): the product and every
         product but one factor are 0, so only the own term remains
         (scanned from the end: later successors tend to start later) */
      int zeros = 0;
      for (int k = deg - 1; k >= 0 && zeros < 2; k--) {
        int e = p->out_e[k0 + k];
        if (!p->edist[e] && Fv(m, p->edst[e], d) == 0) zeros++;
      }
      if (zeros >= 2) {
        double gF0 = A * bi * (1 - 0.0);
        m->omu[i] += gF0 * Fmv(m, i, d);
        m->osig[i] += gF0 * Fsv(m, i, d);
        continue;
      }
      /* prefix/suffix products over the distance-0 successors */
      pre[0] = 1;
      for (int k = 0; k < deg; k++) {
        int e = p->out_e[k0 + k];
        double f = p->edist[e] ? 1.0 : Fv(m, p->edst[e], d);
        pre[k + 1] = pre[k] * f;
      }
      suf[deg] = 1;
      for (int k = deg - 1; k >= 0; k--) {
        int e = p->out_e[k0 + k];
        double f = p->edist[e] ? 1.0 : Fv(m, p->edst[e], d);
        suf[k] = suf[k + 1] * f;
      }
      double fi = Fv(m, i, d);
      double gFi = A * bi * (1 - pre[deg]);
      m->omu[i] += gFi * Fmv(m, i, d);
      m->osig[i] += gFi * Fsv(m, i, d);
      for (int k = 0; k < deg; k++) {
        int e = p->out_e[k0 + k];
        if (p->edist[e]) continue;
        int j = p->edst[e];
        double gFj = -A * bi * fi * pre[k] * suf[k + 1];
        m->em[2 * (size_t)e] += gFj * Fmv(m, j, d);
        m->em[2 * (size_t)e + 1] += gFj * Fsv(m, j, d);
      }
    }
  }
}

/* phase 7: per-op gradient, gather, Adam */
static void ph_ops(void *ctx, int c) {
  twill_gaus_model *m = ctx;
  const twill_gaus_problem *p = m->p;
  int a, b;
  chunk_range(m->n, m->nch, c, &a, &b);
  bool res = plain_res(m);
  bool mres = m->form == 'C' && (m->mask & TWILL_GAUS_CAP);
  bool lat = m->mask & TWILL_GAUS_LAT;
  bool len = m->form == 'L' && (m->mask & TWILL_GAUS_LEN);
  for (int i = a; i < b; i++) {
    double gm = m->omu[i], gs = m->osig[i];
    long lo = m->lo[i], hi = m->hi[i];
    for (int u = p->uoff[i]; u < p->uoff[i + 1]; u++) {
      int r = p->uunit[u], off = p->uoffset[u], cyc = p->ucycles[u];
      double cnt = p->ucount[u];
      const double *arow = m->aU + (size_t)r * (size_t)m->T;
      if (res) {
        /* U(d) gets cnt F(d-off) - cnt F(d-off-cyc): dL/dF(x) =
           cnt (aU(x+off) - aU(x+off+cyc)); x + off + cyc < hi + ext <=
           D + ext = T, so both stay inside the row */
        const double *Fx = m->F + 3 * m->woff[i], *a1 = arow + lo + off,
                     *a2 = a1 + cyc;
        for (long k = 0; k < hi - lo; k++) {
          double gF = cnt * (a1[k] - a2[k]);
          gm += gF * Fx[3 * k + 1];
          gs += gF * Fx[3 * k + 2];
        }
      } else if (mres) {
        /* P^d = F(d) - F(d-1), d in [lo, hi]; slot sum A(d) */
        for (long x = lo; x < hi; x++) {
          double Ax = 0, Ax1 = 0;
          for (int k = 0; k < cyc; k++) {
            Ax += arow[(x + off + k) % m->ii];
            Ax1 += arow[(x + 1 + off + k) % m->ii];
          }
          double gF = cnt * (Ax - Ax1);
          gm += gF * Fmv(m, i, x);
          gs += gF * Fsv(m, i, x);
        }
      }
    }
    if (len) gm += exp((m->mu[i] + (double)p->lat[i] - m->len_mx) / m->o.tau) /
                   m->len_s;
    m->ov[i] = m->olv[i] = 0;
    if (lat) {
      double ub = (double)(m->D - latp(p->lat[i]));
      double g = 0, dg = 0;
      if (m->mu[i] > ub) g += m->mu[i] - ub, dg += 1;
      if (m->mu[i] < 0) g += -m->mu[i], dg -= 1;
      double lam = m->lam[m->ne + i];
      m->olv[i] = g;
      m->ov[i] = lam * g + 0.5 * m->rho * g * g;
      gm += (lam + m->rho * g) * dg;
    }
    for (int k = p->out_off[i]; k < p->out_off[i + 1]; k++) {
      int e = p->out_e[k];
      gm += m->eg[4 * (size_t)e];
      gs += m->eg[4 * (size_t)e + 1];
    }
    for (int k = p->in_off[i]; k < p->in_off[i + 1]; k++) {
      int e = p->in_e[k];
      gm += m->eg[4 * (size_t)e + 2] + m->em[2 * (size_t)e];
      gs += m->eg[4 * (size_t)e + 3] + m->em[2 * (size_t)e + 1];
    }
    m->gmu[i] = gm;
    m->gsig[i] = gs * m->dsig[i];
    if (m->adam) {
      const twill_gaus_opts *o = &m->o;
      double b1 = o->beta1, b2 = o->beta2;
      double c1 = m->bc1, c2 = m->bc2;
      double g1 = m->gmu[i], g2 = m->gsig[i];
      m->m1mu[i] = b1 * m->m1mu[i] + (1 - b1) * g1;
      m->m2mu[i] = b2 * m->m2mu[i] + (1 - b2) * g1 * g1;
      m->m1s[i] = b1 * m->m1s[i] + (1 - b1) * g2;
      m->m2s[i] = b2 * m->m2s[i] + (1 - b2) * g2 * g2;
      m->mu[i] -= o->lr_mu * (m->m1mu[i] / c1) / (sqrt(m->m2mu[i] / c2) + o->eps);
      m->s[i] -= o->lr_s * (m->m1s[i] / c1) / (sqrt(m->m2s[i] / c2) + o->eps);
    }
  }
}

static int ensure_windows(twill_gaus_model *m) {
  long tot = 0;
  for (int i = 0; i < m->n; i++) {
    m->woff[i] = tot;
    tot += m->hi[i] - m->lo[i];
  }
  m->woff[m->n] = tot;
  if ((size_t)tot + 1 > m->wcap) {
    size_t cap = (size_t)tot + 1 + (size_t)tot / 2;
    double *F = realloc(m->F, 3 * cap * sizeof(double));
    if (!F) return -1;
    m->F = F;
    m->wcap = cap;
  }
  /* Reg window (B, C): up to the last successor's hi */
  const twill_gaus_problem *p = m->p;
  if (m->form != 'B' && m->form != 'C') return 0;
  for (int i = 0; i < m->n; i++) {
    long r = -1, l1 = -1, l2 = -1;
    for (int k = p->out_off[i]; k < p->out_off[i + 1]; k++) {
      int e = p->out_e[k];
      if (p->edist[e]) continue;
      if (m->hi[p->edst[e]] > r) r = m->hi[p->edst[e]];
      long l = m->lo[p->edst[e]];
      if (l > l1) {
        l2 = l1;
        l1 = l;
      } else if (l > l2) {
        l2 = l;
      }
    }
    m->rlo1[i] = l1;
    m->rlo2[i] = l2;
    m->rhi[i] = r;
  }
  return 0;
}

static double evaluate(twill_gaus_model *m, int mask, int adam,
                       twill_gaus_terms *t) {
  m->mask = mask;
  m->adam = adam;
  twill_gaus_pool_run(m->pool, ph_window, m, m->nch);
  if (ensure_windows(m) != 0) return NAN;
  twill_gaus_pool_run(m->pool, ph_fill, m, m->nch);
  twill_gaus_pool_run(m->pool, ph_aggregate, m, m->nch);
  twill_gaus_pool_run(m->pool, ph_reduce, m, m->nch);
  /* objective terms and adjoints (serial, small) */
  twill_gaus_terms tt;
  memset(&tt, 0, sizeof tt);
  double total = 0;
  size_t RT = (size_t)m->R * (size_t)m->T;
  memset(m->capg, 0, (RT + 1) * sizeof(double));
  memset(m->aU, 0, (RT + 1) * sizeof(double));
  memset(m->aR, 0, (size_t)m->Dx * sizeof(double));
  memset(m->aM, 0, (size_t)m->ii * sizeof(double));
  const twill_gaus_problem *p = m->p;
  if (m->form == 'A' && (mask & TWILL_GAUS_RES)) {
    /* each unit's usage is measured in units of its mean load per step
       (busy instance-cycles / D, at least 1), so tau and the ALM weights
       mean the same on graphs with weights of 1 and of 5000 */
    for (int r = 0; r < m->R; r++) {
      const double *row = m->U + (size_t)r * (size_t)m->T;
      double busy = m->busy[r];
      if (busy <= 0) continue;
      double c = 1.0 / fmax(1.0, busy / (double)m->D);
      for (long d = 0; d < m->T; d++) m->tmpT[d] = c * row[d];
      tt.res += lse(m->tmpT, m->T, m->o.tau, m->aU + (size_t)r * (size_t)m->T, c);
    }
    total += tt.res;
  }
  if (m->form != 'B' && (mask & TWILL_GAUS_CAP)) {
    double lsum = 0;
    for (int r = 0; r < m->R; r++) {
      if (p->cap[r] <= 0) continue;
      for (long d = 0; d < m->T; d++) {
        size_t k = (size_t)r * (size_t)m->T + (size_t)d;
        double g = m->U[k] - p->cap[r];
        m->capg[k] = g > 0 ? g : 0;
        if (g <= 0) continue;
        double lam = m->lam[m->ne + m->n + (int)k];
        tt.cap += g;
        lsum += lam * g + 0.5 * m->rho * g * g;
        m->aU[k] += lam + m->rho * g;
      }
    }
    total += lsum;
  }
  if ((m->form == 'B' || m->form == 'C') && (mask & TWILL_GAUS_MEM)) {
    if (m->form == 'B') {
      tt.mem = lse(m->Rg, m->Dx, m->o.tau, m->aR, 1.0);
    } else {
      memset(m->M, 0, (size_t)m->ii * sizeof(double));
      for (long d = 0; d < m->Dx; d++) m->M[d % m->ii] += m->Rg[d];
      tt.mem = lse(m->M, m->ii, m->o.tau, m->aM, 1.0);
      for (long d = 0; d < m->Dx; d++) m->aR[d] = m->aM[d % m->ii];
    }
    total += tt.mem;
  }
  if (m->form == 'L' && (mask & TWILL_GAUS_LEN) && m->n > 0) {
    /* tau LSE_i((mu_i + lat_i)/tau); ph_ops adds the softmax weights */
    double mx = -INFINITY, sum = 0;
    for (int i = 0; i < m->n; i++)
      if (m->mu[i] + (double)p->lat[i] > mx) mx = m->mu[i] + (double)p->lat[i];
    for (int i = 0; i < m->n; i++)
      sum += exp((m->mu[i] + (double)p->lat[i] - mx) / m->o.tau);
    m->len_mx = mx;
    m->len_s = sum;
    tt.len = mx + m->o.tau * log(sum);
    total += tt.len;
  }
  twill_gaus_pool_run(m->pool, ph_edges, m, m->ech);
  twill_gaus_pool_run(m->pool, ph_mem_adj, m, m->nch);
  twill_gaus_pool_run(m->pool, ph_ops, m, m->nch);
  double ev = 0, com = 0, ov = 0;
  for (int e = 0; e < m->ne; e++) {
    ev += m->ev[e];
    tt.dep += m->edv[e];
    com += m->ecm[e];
  }
  for (int i = 0; i < m->n; i++) {
    ov += m->ov[i];
    tt.lat += m->olv[i];
  }
  tt.com = com;
  total += ev + ov + m->o.alpha * com;
  tt.total = total;
  if (t) *t = tt;
  return total;
}

double twill_gaus_eval(twill_gaus_model *m, int mask, double *gmu, double *gs,
                       twill_gaus_terms *t) {
  double v = evaluate(m, mask, 0, t);
  if (gmu) memcpy(gmu, m->gmu, (size_t)m->n * sizeof(double));
  if (gs) memcpy(gs, m->gsig, (size_t)m->n * sizeof(double));
  return v;
}

void twill_gaus_model_restart(twill_gaus_model *m, const long *t) {
  for (int i = 0; i < m->n; i++) {
    m->mu[i] = (double)t[i];
    m->s[i] = m->s0[i];
    m->m1mu[i] = m->m2mu[i] = m->m1s[i] = m->m2s[i] = 0;
  }
  m->tstep = 0;
}

double twill_gaus_step(twill_gaus_model *m, twill_gaus_terms *t) {
  m->tstep++;
  m->bc1 = 1 - pow(m->o.beta1, (double)m->tstep);
  m->bc2 = 1 - pow(m->o.beta2, (double)m->tstep);
  return evaluate(m, TWILL_GAUS_ALL, 1, t);
}

void twill_gaus_alm_update(twill_gaus_model *m) {
  double viol = 0;
  for (int e = 0; e < m->ne; e++) {
    m->lam[e] += m->rho * m->edv[e];
    viol += m->edv[e];
  }
  for (int i = 0; i < m->n; i++) {
    m->lam[m->ne + i] += m->rho * m->olv[i];
    viol += m->olv[i];
  }
  size_t RT = (size_t)m->R * (size_t)m->T;
  for (size_t k = 0; k < RT; k++) {
    m->lam[m->ne + m->n + (int)k] += m->rho * m->capg[k];
    viol += m->capg[k];
  }
  if (viol > m->o.eta * m->prev_viol) {
    m->rho *= m->o.gamma;
    if (m->rho > m->o.rho_max) m->rho = m->o.rho_max;
  }
  m->prev_viol = viol;
}

void twill_gaus_model_sigma(const twill_gaus_model *m, double *sig) {
  for (int i = 0; i < m->n; i++)
    sig[i] = m->o.sigma_min + softplus(m->s[i]);
}
