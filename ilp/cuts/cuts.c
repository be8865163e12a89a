/* ilp/cuts/cuts.c: the rounds of root cutting planes.
 *
 * Each round solves the root LP of the model as it stands (the user's rows
 * and the cuts so far) from the last round's basis, asks each separator
 * (cuts.h) for cuts violated at its optimum x*, scores them by efficacy
 * (violation over norm), and adds the best as rows of the model with their
 * derivations, passing over one nearly parallel to a cut already taken.
 * The rounds stop after CUT_ROUNDS, when the bound stalls, or when a round
 * adds nothing.  A round whose LP does not finish within its iteration
 * budget takes its predecessor's cuts back.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lp/lp.h"
#include "../log.h"
#include "cuts.h"

#define CUT_ROUNDS 20
#define CUT_STALL 3 /* rounds that gain under 1e-3 (relative) before the cuts stop */
#define CUT_PER_ROUND 50
#define CUT_CANDS 250
#define CUT_EFFICACY 1e-4
#define CUT_MIR_ROWS 300
#define CUT_MAX_PARALLEL 0.99
#define FLAT_ROUNDS 3 /* rounds without progress before the cuts stop */

typedef struct cand {
  double eff;
  int k; /* basic variable */
} cand;

/* A scored cut candidate: a GMI cut (kind 0) of basic variable k, a MIR
 * cut (kind 1) of row k's side at aggregation level naggr with its delta,
 * a cover (kind 2) or a divisibility cut (kind 3) of row k's side. */
typedef struct sc {
  double eff, delta;
  int kind, k, side, naggr;
} sc;

static int cmp_score(const void *a, const void *b) {
  const sc *p = a, *q = b;
  if (p->eff != q->eff) return p->eff > q->eff ? -1 : 1;
  if (p->kind != q->kind) return p->kind - q->kind;
  if (p->k != q->k) return p->k - q->k;
  if (p->side != q->side) return p->side - q->side;
  return p->naggr - q->naggr;
}

static int cmp_cand(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->eff != y->eff) return x->eff < y->eff ? -1 : 1; /* most fractional first */
  return x->k - y->k;
}

/* Row i's activity is integral at every integer point when its
 * coefficients are integers on integer variables only. */
static void integral_rows(const twill_ilp *m, const int *rbeg, const int *rcol,
                          const double *rval, char *rint) {
  for (int i = 0; i < m->m; i++) {
    rint[i] = 1;
    for (int q = rbeg[i]; q < rbeg[i + 1] && rint[i]; q++)
      if (m->vtype[rcol[q]] == TWILL_ILP_CONTINUOUS || rval[q] != round(rval[q])) rint[i] = 0;
  }
}

/* Variables the certificate can bound on both sides: a finite bound in the
 * model, or one implied by a row whose other variables are all bounded
 * (what ilp/cert/sol.c's implied_bounds derives).  The writer needs a bound
 * wherever a remainder lands, and a remainder of floating-point noise can
 * land on either side. */
static void boxed(const twill_ilp *m, const int *cbeg, const int *cidx, const double *cval,
                  const int *rbeg, const int *rcol, const double *rval, char *box) {
  for (int j = 0; j < m->n; j++) box[j] = !isinf(m->vlb[j]) && !isinf(m->vub[j]);
  for (int j = 0; j < m->n; j++) {
    if (box[j]) continue;
    int lo = !isinf(m->vlb[j]), hi = !isinf(m->vub[j]);
    for (int p = cbeg[j]; p < cbeg[j + 1] && !(lo && hi); p++) {
      int i = cidx[p], others = 1;
      for (int q = rbeg[i]; q < rbeg[i + 1] && others; q++)
        if (rcol[q] != j && (isinf(m->vlb[rcol[q]]) || isinf(m->vub[rcol[q]]))) others = 0;
      (void)rval;
      if (!others || cval[p] == 0) continue;
      /* a_ij > 0: the <= side bounds x_j above, the >= side below */
      int pos = cval[p] > 0;
      if (!isinf(m->rhi[i])) { if (pos) hi = 1; else lo = 1; }
      if (!isinf(m->rlo[i])) { if (pos) lo = 1; else hi = 1; }
    }
    box[j] = lo && hi;
  }
}

/* Violation of c'x >= d at x, over |c|. */
static double efficacy(const cutbuf *cb, int n, const double *x, double d) {
  double act = 0, nrm = 0;
  for (int j = 0; j < n; j++) { act += cb->c[j] * x[j]; nrm += cb->c[j] * cb->c[j]; }
  return nrm > 0 ? (d - act) / sqrt(nrm) : 0;
}

/* Whether the cut in cb is more parallel than par (cosine) to one of the
 * k cuts in kept (unit vectors, n each); if not, it joins them there.
 * idx: n scratch. */
static int too_parallel(const cutbuf *cb, int n, double *kept, int k, double par, int *idx) {
  int nz = 0;
  double nrm = 0;
  for (int j = 0; j < n; j++)
    if (cb->c[j] != 0) { idx[nz++] = j; nrm += cb->c[j] * cb->c[j]; }
  nrm = sqrt(nrm);
  if (nrm == 0) return 1;
  for (int t = 0; t < k; t++) {
    const double *w = kept + (size_t)t * (size_t)n;
    double dot = 0;
    for (int q = 0; q < nz; q++) dot += w[idx[q]] * cb->c[idx[q]];
    if (dot / nrm > par) return 1;
  }
  double *w = kept + (size_t)k * (size_t)n;
  memset(w, 0, (size_t)n * sizeof(double));
  for (int q = 0; q < nz; q++) w[idx[q]] = cb->c[idx[q]] / nrm;
  return 0;
}

/* Append the cut in cb as a model row with its derivation. */
static int add_cut(twill_ilp *m, int mr, const cutbuf *cb, double d, double p0, const double lam[2],
                   const char *kind, int *idx, double *val) {
  int n = m->n, nnz = 0;
  for (int j = 0; j < n; j++)
    if (cb->c[j] != 0) { idx[nnz] = j; val[nnz++] = cb->c[j]; }
  if (m->ncut == m->cutcap) {
    int nc = m->cutcap ? 2 * m->cutcap : 32;
    ilp_cut *p = realloc(m->cut, (size_t)nc * sizeof *p);
    if (!p) return -1;
    m->cut = p;
    m->cutcap = nc;
  }
  ilp_cut *ct = &m->cut[m->ncut];
  memset(ct, 0, sizeof *ct);
  int np = 0, nm[2] = {0, 0};
  for (int j = 0; j < n; j++) np += cb->pi[j] != 0;
  for (int i = 0; i < mr; i++) { nm[0] += cb->mu0[i] != 0; nm[1] += cb->mu1[i] != 0; }
  ct->pidx = malloc(((size_t)np + 1) * sizeof(int));
  ct->pval = malloc(((size_t)np + 1) * sizeof(double));
  for (int s = 0; s < 2; s++) {
    ct->midx[s] = malloc(((size_t)nm[s] + 1) * sizeof(int));
    ct->mval[s] = malloc(((size_t)nm[s] + 1) * sizeof(double));
  }
  if (!ct->pidx || !ct->pval || !ct->midx[0] || !ct->mval[0] || !ct->midx[1] || !ct->mval[1]) {
    free(ct->pidx); free(ct->pval);
    for (int s = 0; s < 2; s++) { free(ct->midx[s]); free(ct->mval[s]); }
    return -1;
  }
  for (int j = 0; j < n; j++)
    if (cb->pi[j] != 0) { ct->pidx[ct->npi] = j; ct->pval[ct->npi++] = cb->pi[j]; }
  for (int i = 0; i < mr; i++) {
    if (cb->mu0[i] != 0) { ct->midx[0][ct->nmu[0]] = i; ct->mval[0][ct->nmu[0]++] = cb->mu0[i]; }
    if (cb->mu1[i] != 0) { ct->midx[1][ct->nmu[1]] = i; ct->mval[1][ct->nmu[1]++] = cb->mu1[i]; }
  }
  ct->p0 = p0;
  ct->lam[0] = lam[0];
  ct->lam[1] = lam[1];
  if (!m->ncut) m->nz_before_cuts = m->nz;
  ct->nz0 = m->nz;
  char name[32];
  snprintf(name, sizeof name, "%s%d", kind, m->ncut);
  int row = twill_ilp_add_row_raw(m, name, nnz, idx, val, d, HUGE_VAL);
  if (row < 0) {
    free(ct->pidx); free(ct->pval);
    for (int s = 0; s < 2; s++) { free(ct->midx[s]); free(ct->mval[s]); }
    return -1;
  }
  ct->row = row;
  m->ncut++;
  return 0;
}

/* Make the cut in cb derivable by the certificate writer, or say it is not.
 * The writer derives each side as  lam side + sum mu_i a_i + bounds  and
 * puts each variable's exact remainder r_j = c_j - lam pi_j - sum mu_i a_ij
 * on the bound of its sign.  A boxed variable (see boxed()) has both.  One
 * with a single bound in the model has a remainder of the right sign in
 * exact arithmetic (the cut complements it at that bound) but the floating
 * -point cut can leave it -1e-17 on the other side; so its cut coefficient
 * moves by a margin toward that bound, which weakens the cut by a hair:
 *   lower bound only:  c_j += e, d += e l_j   (e x_j >= e l_j)
 *   upper bound only:  c_j -= e, d -= e u_j   (-e x_j >= -e u_j),
 * e = 1e-8 (1 + |c_j| + |lam| |pi_j| + sum_i |mu_i a_ij|), far above the
 * tableau's and the writer's rounding.  The search's LP gets the cut as
 * moved, so it is the same row the certificate derives.  Where only the
 * rows touch x_j (c_j = pi_j = 0) there is no margin: the writer cancels
 * such a remainder by shifting row multipliers exactly (cut_repair in
 * ilp/cert/derive.c), as margins there made modglob's cuts dense and its root
 * bound weaker.  A variable with no bound at all in a row the cut uses:
 * such cuts are not taken.
 * acc: n scratch.  Returns 1 (the cut in cb, *d, adjusted) or 0. */
static int certifiable(const twill_ilp *m, int mr, cutbuf *cb, double *d, const double lam[2],
                       const int *rbeg, const int *rcol, const double *rval, const char *box,
                       double *acc) {
  int n = m->n;
  memset(acc, 0, (size_t)n * sizeof(double));
  for (int i = 0; i < mr; i++) {
    double mu = fabs(cb->mu0[i]) + fabs(cb->mu1[i]);
    if (mu == 0) continue;
    for (int q = rbeg[i]; q < rbeg[i + 1]; q++) {
      int j = rcol[q];
      if (!box[j] && isinf(m->vlb[j]) && isinf(m->vub[j])) return 0;
      acc[j] += mu * fabs(rval[q]);
    }
  }
  double lm = fabs(lam[0]) + fabs(lam[1]);
  for (int j = 0; j < n; j++) {
    /* no margin where only the rows touch x_j (c_j = pi_j = 0): the
     * writer repairs those remainders exactly (cut_repair), and margins
     * there made modglob's cuts dense */
    if (box[j] || (cb->c[j] == 0 && cb->pi[j] == 0)) continue;
    int lo = !isinf(m->vlb[j]), hi = !isinf(m->vub[j]);
    if (!lo && !hi) return 0;
    double e = 1e-8 * (1 + fabs(cb->c[j]) + lm * fabs(cb->pi[j]) + acc[j]);
    if (lo) { cb->c[j] += e; *d += e * m->vlb[j]; }
    else { cb->c[j] -= e; *d -= e * m->vub[j]; }
  }
  return 1;
}

/* ---- the rounds ---- */

/* What the rounds carry from one to the next. */
typedef struct rounds {
  twill_ilp *m;
  int n, mr0;           /* structurals; the user's rows */
  double deadline, sgn;
  signed char *basis;   /* the last optimal round LP's basis, or NULL */
  double prev;          /* its objective */
  int stall, flat;      /* rounds that gained little, nothing */
  int ncut_before;      /* the cuts before the last round's */
  int rolled_back;
  long it0;             /* the first round's LP iterations */
  int use_gmi, use_mir, use_cover, use_gcd, use_vub;
} rounds;

/* One round's workspace: the model as it stands (mr rows), its LP, and
 * the separators' scratch. */
typedef struct round_ws {
  int mr, N;
  int *cbeg, *cidx, *rbeg, *rcol;
  double *cval, *rval;
  double *c, *lb, *ub, *x, *u, *alpha, *bndv, *val, *cwt, *cyv, *acc;
  signed char *sgv, *st;
  int *vub, *sup, *idx, *cit;
  char *insup, *rint, *box, *cinc;
  cand *cands;
  covitem *cord;
  cutbuf cb;
  mirctx cx; /* (its marks carry from the scoring to the taking of cuts) */
  lp_solver *lp;
} round_ws;

static void ws_free(round_ws *w) {
  twill_lps_free(w->lp);
  free(w->cbeg); free(w->cidx); free(w->cval); free(w->c); free(w->lb); free(w->ub);
  free(w->x); free(w->u); free(w->alpha); free(w->bndv); free(w->sgv); free(w->vub);
  free(w->sup); free(w->insup); free(w->st); free(w->rbeg); free(w->rint); free(w->box);
  free(w->cands); free(w->idx); free(w->val);
  free(w->cb.c); free(w->cb.pi); free(w->cb.mu0); free(w->cb.mu1); free(w->rcol); free(w->rval);
  free(w->cit); free(w->cwt); free(w->cyv); free(w->cord); free(w->cinc); free(w->acc);
}

/* The workspace for m as it stands, the matrix by columns and by rows:
 * 0 when out of memory. */
static int ws_alloc(round_ws *w, twill_ilp *m) {
  int n = m->n, mr = m->m, N = n + mr;
  memset(w, 0, sizeof *w);
  w->mr = mr;
  w->N = N;
  w->c = calloc((size_t)n + 1, sizeof(double));
  w->lb = calloc((size_t)N + 1, sizeof(double));
  w->ub = calloc((size_t)N + 1, sizeof(double));
  w->x = calloc((size_t)N + 1, sizeof(double));
  w->u = calloc((size_t)mr + 1, sizeof(double));
  w->alpha = calloc((size_t)N + 1, sizeof(double));
  w->bndv = calloc((size_t)N + 1, sizeof(double));
  w->sgv = calloc((size_t)N + 1, 1);
  w->vub = calloc((size_t)n + 1, sizeof(int));
  w->sup = calloc((size_t)n + 1, sizeof(int));
  w->insup = calloc((size_t)n + 1, 1);
  w->st = calloc((size_t)N + 1, 1);
  w->rbeg = calloc((size_t)mr + 2, sizeof(int));
  w->rint = calloc((size_t)mr + 1, 1);
  w->box = calloc((size_t)n + 1, 1);
  w->cands = calloc((size_t)n + 1, sizeof(cand));
  w->idx = calloc((size_t)n + 1, sizeof(int));
  w->val = calloc((size_t)n + 1, sizeof(double));
  w->cit = calloc((size_t)n + 1, sizeof(int));
  w->cwt = calloc((size_t)n + 1, sizeof(double));
  w->cyv = calloc((size_t)n + 1, sizeof(double));
  w->cord = calloc((size_t)n + 1, sizeof(covitem));
  w->cinc = calloc((size_t)n + 1, 1);
  w->acc = calloc((size_t)n + 1, sizeof(double));
  w->cb = (cutbuf){n, calloc((size_t)n + 1, sizeof(double)), calloc((size_t)n + 1, sizeof(double)),
                   calloc((size_t)mr + 1, sizeof(double)), calloc((size_t)mr + 1, sizeof(double))};
  int ok = w->c && w->lb && w->ub && w->x && w->u && w->alpha && w->bndv && w->sgv && w->vub &&
           w->sup && w->insup && w->st && w->rbeg && w->rint && w->box && w->cands && w->idx &&
           w->val && w->cit && w->cwt && w->cyv && w->cord && w->cinc && w->acc && w->cb.c &&
           w->cb.pi && w->cb.mu0 && w->cb.mu1 && twill_ilp_build_csc(m, &w->cbeg, &w->cidx, &w->cval);
  if (!ok) return 0;
  int nz = w->cbeg[n];
  w->rcol = malloc(((size_t)nz + 1) * sizeof(int));
  w->rval = malloc(((size_t)nz + 1) * sizeof(double));
  if (!w->rcol || !w->rval) return 0;
  twill_ilp_csc_transpose(n, mr, w->cbeg, w->cidx, w->cval, w->rbeg, w->rcol, w->rval);
  return 1;
}

/* The round's LP and what the separators read of the model: the costs,
 * the bounds (integer ones rounded inward; *stop when they cross), the
 * integral rows, the variable upper bounds, the boxed variables.  0 when
 * out of memory. */
static int ws_prepare(round_ws *w, const rounds *R, int *stop) {
  twill_ilp *m = R->m;
  int n = R->n, mr = w->mr;
  for (int j = 0; j < n; j++) {
    w->c[j] = R->sgn * m->obj[j];
    w->lb[j] = m->vlb[j];
    w->ub[j] = m->vub[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) {
      w->lb[j] = ceil(w->lb[j] - 1e-6);
      w->ub[j] = floor(w->ub[j] + 1e-6);
    }
    if (w->lb[j] > w->ub[j]) *stop = 1;
  }
  for (int i = 0; i < mr; i++) {
    w->lb[n + i] = m->rlo[i];
    w->ub[n + i] = m->rhi[i];
  }
  integral_rows(m, w->rbeg, w->rcol, w->rval, w->rint);
  twill_cut_find_vubs(m, mr, w->rbeg, w->rcol, w->rval, w->ub, w->vub);
  boxed(m, w->cbeg, w->cidx, w->cval, w->rbeg, w->rcol, w->rval, w->box);
  lp_input in = {mr, n, w->cbeg, w->cidx, w->cval, w->c, w->lb, w->ub};
  w->lp = *stop ? NULL : twill_lps_new(&in);
  return w->lp || *stop;
}

/* The round's LP, from the last round's basis.  After the first round it
 * runs within an iteration budget of 3 it0 + 1000 (it0: the first round's).
 * A very degenerate LP (10teams: 44636 iterations after 50 Gomory cuts,
 * 2756 before) is solved once more, perturbed (below); if that too runs
 * out, the last round's cuts are taken back.  Across the suite no other
 * round needs more than a quarter of it (p2756: 304 of 1168).  An iteration
 * budget, not a time budget, so that the cuts are the same on any machine
 * under any load.  (Each round's LP is a fresh object from the last basis:
 * twill_lps_solve runs the dual first from it.)  *stop when the rounds end
 * here; x and st get the optimum and its basis.  0 when out of memory. */
static int round_lp(rounds *R, round_ws *w, int round_, int *stop) {
  twill_ilp *m = R->m;
  lp_solver *lp = w->lp;
  double deadline = R->deadline;
  twill_lps_set_pricing(lp, (int)m->opt.pricing);
  twill_lps_set_cancel(lp, m->cancel);
  if (R->basis) twill_lps_set_basis(lp, R->basis);
  if (m->lp_degenerate) twill_lps_set_perturb_early(lp, 1);
  long budget = m->opt.cut_budget > 0 ? (long)m->opt.cut_budget : 3 * R->it0 + 1000;
  int lst = round_ == 0 ? twill_lps_solve(lp, deadline) : twill_lps_solve_limit(lp, deadline, budget);
  if (round_ > 0 && lst == LPS_LIMIT && R->basis && !m->lp_degenerate && !twill_lps_halted(m->cancel) &&
      (deadline <= 0 || twill_lps_clock() < deadline)) {
    /* once more from the same basis, the costs perturbed after the
     * first dual iteration: on 10teams the dual then needs about 335
     * iterations, not 44636.  The LP is marked degenerate, and every
     * later LP of this solve (the other rounds, the search's nodes)
     * perturbs early too.  Only from here, so that no model whose
     * LPs fit their budgets changes its path */
    twill_lps_set_basis(lp, R->basis);
    twill_lps_set_perturb_early(lp, 1);
    m->lp_degenerate = 1;
    lst = twill_lps_solve_limit(lp, deadline, budget);
    twill_ilp_log(m, 1, "cut round %d: LP again, perturbed: status %d", round_, lst);
  }
  if (round_ == 0) R->it0 = twill_lps_iterations(lp);
  if (round_ > 0 && lst != LPS_OPTIMAL && lst != LPS_INFEASIBLE) {
    twill_ilp_drop_cuts_from(m, R->ncut_before);
    R->rolled_back = 1;
    twill_ilp_log(m, 1, "cut round %d: LP status %d, the last round's cuts taken back", round_, lst);
  }
  if (lst == LPS_INFEASIBLE && round_ > 0) {
    /* the cuts proved the root infeasible (divisibility cuts on
     * 6 x1 + 6 x2 - 4 x3 = 21): no basis, so that the search keeps
     * every cut, not only those binding at the last optimal LP */
    free(R->basis);
    R->basis = NULL;
  }
  if (lst != LPS_OPTIMAL) {
    *stop = 1;
    return 1;
  }
  double z = twill_lps_obj(lp);
  if (round_ > 0 && z - R->prev <= 1e-6 * fmax(1.0, fabs(z))) {
    if (++R->flat >= FLAT_ROUNDS) *stop = 1;
  } else {
    R->flat = 0;
    if (round_ > 0 && z - R->prev <= 1e-3 * fmax(1.0, fabs(z)) && ++R->stall >= CUT_STALL) *stop = 1;
  }
  if (twill_ilp_logs(m, 1)) {
    long ds, dd;
    twill_lps_dual_steps(lp, &ds, &dd);
    twill_ilp_log(m, 1, "cut round %d: %d rows, bound %.10g, %ld iterations, dual %ld (%ld degenerate)",
                  round_, w->mr, R->sgn * z + m->c0, twill_lps_iterations(lp), ds, dd);
  }
  R->prev = z;
  twill_lps_get_x(lp, w->x);
  twill_lps_get_basis(lp, w->st);
  free(R->basis);
  R->basis = malloc((size_t)w->N + 1);
  if (!R->basis) return 0;
  memcpy(R->basis, w->st, (size_t)w->N);
  m->stats.root_bound = R->sgn * z + m->c0;
  return 1;
}

/* certify: the cut in w->cb made derivable (certifiable), or not taken. */
static int derivable(const rounds *R, round_ws *w, double *d, const double lam[2]) {
  return !R->m->opt.certify ||
         certifiable(R->m, w->mr, &w->cb, d, lam, w->rbeg, w->rcol, w->rval, w->box, w->acc);
}

/* MIR on the user's rows that are tight at x* (in row order): the best cut
 * of each aggregation level is a candidate (the row alone often gives the
 * strongest, a knapsack; the path through other rows the one a flow
 * structure needs), its best delta among the candidates and their halves. */
static int score_mir(const rounds *R, round_ws *w, sc *score, int scap, int ns) {
  int n = R->n;
  mirctx *cx = &w->cx;
  const double *x = w->x;
  for (int i = 0, rows = 0; i < R->mr0 && rows < CUT_MIR_ROWS; i++) {
    if (w->rbeg[i + 1] - w->rbeg[i] < 2 || w->rbeg[i + 1] - w->rbeg[i] > 1000) continue;
    for (int side = 0; side < 2; side++) {
      double h = side ? w->lb[n + i] : w->ub[n + i];
      if (isinf(h) || fabs(x[n + i] - h) > 1e-6 * (1 + fabs(h))) continue;
      int counted = 0;
      for (int a = 0; a <= MIR_AGGR; a++) {
        double dl[DMAX], d, p0, lam[2], best = CUT_EFFICACY, bdelta = 0;
        cx->naggr = a;
        int nd = twill_cut_mir(cx, i, side, 0, &w->cb, &d, &p0, lam, dl);
        if (cx->aggr < a) break; /* nothing more to aggregate */
        if (nd <= 0) continue;   /* no integer variable inside its bounds */
        if (!counted++) rows++;
        for (int t = 0; t < nd; t++) {
          if (!twill_cut_mir(cx, i, side, dl[t], &w->cb, &d, &p0, lam, NULL)) continue;
          if (!derivable(R, w, &d, lam)) continue;
          double eff = efficacy(&w->cb, n, x, d);
          if (eff > best) { best = eff; bdelta = dl[t]; }
        }
        if (!(bdelta > 0 && best > CUT_EFFICACY)) continue;
        /* the best delta and its halves were tried: keep the best one */
        double bd = bdelta, be = -1;
        for (int t = 1; t < 4; t++) {
          double delta = bdelta / (double)(1 << t);
          if (!twill_cut_mir(cx, i, side, delta, &w->cb, &d, &p0, lam, dl)) continue;
          if (!derivable(R, w, &d, lam)) continue;
          double eff = efficacy(&w->cb, n, x, d);
          if (eff > be) { be = eff; bd = delta; }
        }
        if (best >= be) { be = best; bd = bdelta; }
        if (be > CUT_EFFICACY && ns < scap) score[ns++] = (sc){be, bd, 1, i, side, a};
      }
    }
  }
  return ns;
}

/* The candidates of every separator, scored by efficacy (*score, malloc'd,
 * *ns of them): GMI cuts of the most fractional basic integers, MIR, GCD
 * and cover cuts of the user's rows.  0 when out of memory. */
static int score_cuts(const rounds *R, round_ws *w, sc **scorep, int *nsp) {
  twill_ilp *m = R->m;
  int n = R->n, mr = w->mr, nc = 0, ns = 0;
  const double *x = w->x;
  for (int j = 0; j < n; j++) {
    if (m->vtype[j] == TWILL_ILP_CONTINUOUS || w->st[j] != 0) continue;
    double f = x[j] - floor(x[j]);
    if (f < CUT_MIN_F || f > 1 - CUT_MIN_F) continue;
    w->cands[nc].eff = fabs(f - 0.5);
    w->cands[nc++].k = j;
  }
  qsort(w->cands, (size_t)nc, sizeof *w->cands, cmp_cand);
  if (nc > CUT_CANDS) nc = CUT_CANDS;
  int scap = nc + 2 * CUT_MIR_ROWS * (MIR_AGGR + 1) + 4 * R->mr0 + 1;
  sc *score = *scorep = calloc((size_t)scap, sizeof *score);
  if (!score) return 0;
  for (int t = 0; R->use_gmi && t < nc; t++) {
    int k = w->cands[t].k;
    double d, p0, lam[2];
    if (!twill_lps_tableau_row(w->lp, k, w->u, w->alpha)) continue;
    if (!twill_cut_gmi(m, mr, k, w->alpha, w->st, w->lb, w->ub, w->rint, w->rbeg, w->rcol, w->rval,
                       &w->cb, w->sgv, w->bndv, &d, &p0, lam))
      continue;
    if (!derivable(R, w, &d, lam)) continue;
    double eff = efficacy(&w->cb, n, x, d);
    if (!(eff > CUT_EFFICACY)) continue;
    score[ns++] = (sc){eff, 0, 0, k, 0, 0};
  }
  w->cx = (mirctx){m,          mr,      R->mr0,  x,       w->lb,   w->ub,    w->rint, w->rbeg,
                   w->rcol,    w->cbeg, w->cidx, w->vub,  w->rval, w->cval,  w->alpha, w->bndv,
                   w->sgv,     w->sup,  0,       w->insup, 0,      0};
  if (R->use_mir) ns = score_mir(R, w, score, scap, ns);
  /* divisibility cuts on the user's rows (exact as they stand: no margins
   * needed, see certifiable) */
  for (int i = 0; R->use_gcd && i < R->mr0; i++)
    for (int side = 0; side < 2; side++) {
      double d, p0, lam[2];
      if (!twill_cut_gcd(m, mr, i, side, x, w->rint, w->rbeg, w->rcol, w->rval, &w->cb, &d, &p0, lam))
        continue;
      double eff = efficacy(&w->cb, n, x, d);
      if (eff > CUT_EFFICACY && ns < scap) score[ns++] = (sc){eff, 0, 3, i, side, 0};
    }
  /* knapsack covers on the user's rows */
  for (int i = 0; R->use_cover && i < R->mr0; i++) {
    if (w->rbeg[i + 1] - w->rbeg[i] < 2 || w->rbeg[i + 1] - w->rbeg[i] > 1000) continue;
    for (int side = 0; side < 2; side++) {
      double d, p0, lam[2];
      if (!twill_cut_cover(m, mr, i, side, x, w->lb, w->ub, w->rbeg, w->rcol, w->rval, w->cit,
                           w->cwt, w->cyv, w->cord, w->cinc, &w->cb, &d, &p0, lam))
        continue;
      if (!derivable(R, w, &d, lam)) continue;
      double eff = efficacy(&w->cb, n, x, d);
      if (eff > CUT_EFFICACY && ns < scap) score[ns++] = (sc){eff, 0, 2, i, side, 0};
    }
  }
  *nsp = ns;
  return 1;
}

/* The scored candidates, best first (ties: GMI before MIR, lower index,
 * side, level: a total order, so the same on every platform's qsort),
 * made again and added as rows while the quotas last.  The rows the
 * derivations use are those of this round's LP: cut rows added in this
 * round must not shift them, and do not.  A cut nearly parallel to one
 * already taken this round is passed over (it would cut off much the
 * same).  Covers have their own quota: many rows give one, and they would
 * crowd out the Gomory and MIR cuts (mitre's bound fell with one quota for
 * all).  *added counts them; 0 when out of memory. */
static int take_cuts(const rounds *R, round_ws *w, sc *score, int ns, int *added) {
  twill_ilp *m = R->m;
  int n = R->n, mr = w->mr;
  qsort(score, (size_t)ns, sizeof *score, cmp_score);
  double *kept = ns ? malloc(2 * (size_t)CUT_PER_ROUND * (size_t)n * sizeof(double)) : NULL;
  if (ns && !kept) return 0;
  int quota[2] = {0, 0}, ok = 1;
  for (int t = 0; ok && t < ns && *added < 2 * CUT_PER_ROUND; t++) {
    double d, p0, lam[2], dl[DMAX];
    int got, qk = score[t].kind >= 2;
    if (quota[qk] >= CUT_PER_ROUND) continue;
    if (score[t].kind == 0)
      got = twill_lps_tableau_row(w->lp, score[t].k, w->u, w->alpha) &&
            twill_cut_gmi(m, mr, score[t].k, w->alpha, w->st, w->lb, w->ub, w->rint, w->rbeg,
                          w->rcol, w->rval, &w->cb, w->sgv, w->bndv, &d, &p0, lam);
    else if (score[t].kind == 3)
      got = twill_cut_gcd(m, mr, score[t].k, score[t].side, w->x, w->rint, w->rbeg, w->rcol,
                          w->rval, &w->cb, &d, &p0, lam);
    else if (score[t].kind == 2)
      got = twill_cut_cover(m, mr, score[t].k, score[t].side, w->x, w->lb, w->ub, w->rbeg,
                            w->rcol, w->rval, w->cit, w->cwt, w->cyv, w->cord, w->cinc, &w->cb,
                            &d, &p0, lam);
    else {
      w->cx.naggr = score[t].naggr;
      got = twill_cut_mir(&w->cx, score[t].k, score[t].side, score[t].delta, &w->cb, &d, &p0,
                          lam, dl);
    }
    if (got && score[t].kind != 3 && !derivable(R, w, &d, lam)) got = 0;
    if (!got || too_parallel(&w->cb, n, kept, *added, CUT_MAX_PARALLEL, w->idx)) continue;
    static const char *kinds[] = {"gmi", "mir", "cover", "gcd"};
    if (add_cut(m, mr, &w->cb, d, p0, lam, kinds[score[t].kind], w->idx, w->val) < 0) ok = 0;
    else { (*added)++; quota[qk]++; }
  }
  free(kept);
  return ok;
}

/* Tightened variable upper bounds, beside the quotas (they replace model
 * rows rather than cut deeper): all of them in the first round, as a
 * presolve would (fixnet6's LP then moves from 1201 to 3205 in one round,
 * not seven), the violated ones later.  0 when out of memory. */
static int take_vubs(const rounds *R, round_ws *w, int round_, int *added) {
  twill_ilp *m = R->m;
  for (int i = 0; R->use_vub && i < R->mr0; i++) {
    double d, p0, lam[2];
    if (!twill_cut_vub(m, w->mr, R->mr0, i, w->cbeg, w->cidx, w->cval, w->rbeg, w->rcol, w->rval,
                       &w->cb, &d, &p0, lam))
      continue;
    if (!derivable(R, w, &d, lam)) continue;
    if (round_ > 0 && !(efficacy(&w->cb, R->n, w->x, d) > CUT_EFFICACY)) continue;
    if (add_cut(m, w->mr, &w->cb, d, p0, lam, "vub", w->idx, w->val) < 0) return 0;
    (*added)++;
  }
  return 1;
}

/* One round: the LP, then (unless it ends the rounds, or the cut rows
 * already number 4 mr0 + 100) the cuts.  *added, *stop; 0 when out of
 * memory. */
static int one_round(rounds *R, round_ws *w, int round_, int *added, int *stop) {
  twill_ilp *m = R->m;
  if (!ws_prepare(w, R, stop)) return 0;
  if (!w->lp) return 1;
  if (!round_lp(R, w, round_, stop)) return 0;
  if (*stop || !(w->mr - R->mr0 < 4 * R->mr0 + 100)) return 1;
  sc *score = NULL;
  int ns = 0;
  int ok = score_cuts(R, w, &score, &ns) && take_cuts(R, w, score, ns, added);
  free(score);
  if (ok) twill_ilp_log(m, 1, "cut round %d: %d candidates, %d kept", round_, ns, *added);
  return ok && take_vubs(R, w, round_, added);
}

int twill_ilp_root_cuts(twill_ilp *m, double deadline, signed char **basis_out) {
  *basis_out = NULL;
  m->lp_degenerate = 0;
  int n = m->n, nint = 0;
  for (int j = 0; j < n; j++) nint += m->vtype[j] != TWILL_ILP_CONTINUOUS;
  if (!nint || !m->m || !m->opt.cuts) return 0;
  rounds R0, *R = &R0;
  memset(R, 0, sizeof *R);
  R->m = m;
  R->n = n;
  R->mr0 = m->m;
  R->deadline = deadline;
  R->sgn = m->maximize ? -1.0 : 1.0;
  R->prev = -HUGE_VAL;
  /* the options cut_gmi, ... choose the separators: to compare them, and
   * for tests that need one kind alone */
  R->use_gmi = m->opt.cut_gmi != 0;
  R->use_mir = m->opt.cut_mir != 0;
  R->use_cover = m->opt.cut_cover != 0;
  R->use_gcd = m->opt.cut_gcd != 0;
  R->use_vub = m->opt.cut_vub != 0;
  int ret = -1;
  for (int round_ = 0; round_ < CUT_ROUNDS; round_++) {
    if (deadline > 0 && twill_lps_clock() > deadline) break;
    round_ws w;
    int stop = 0, added = 0;
    int ok = ws_alloc(&w, m) && one_round(R, &w, round_, &added, &stop);
    if (ok && !R->rolled_back) R->ncut_before = m->ncut - added;
    if (ok && added && R->basis) {
      /* the new logicals start basic */
      signed char *b2 = calloc((size_t)(n + m->m) + 1, 1);
      if (!b2) ok = 0;
      else {
        memcpy(b2, R->basis, (size_t)w.N);
        free(R->basis);
        R->basis = b2;
      }
    }
    ws_free(&w);
    if (!ok) goto done;
    if (stop || !added) break;
  }
  ret = 0;
  /* after a roll back, the model has the rows of the round before the last
   * cuts, and the first n + m entries of basis are that round's basis
   * (later logicals were appended); root_bound is that round's too */
  *basis_out = R->basis;
  R->basis = NULL;
done:
  free(R->basis);
  m->stats.cuts = m->ncut;
  return ret;
}
