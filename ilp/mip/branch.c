/* ilp/mip/branch.c: pseudo-costs, reliability branching, and the two
 * children of a node. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define REL 4      /* observations each way before a pseudo-cost is trusted */
#define SB_CAND 8  /* strong-branching candidates at most per node */
#define SB_ITERS 40 /* dual simplex iterations per side of one */

/* The mean observed pseudo-cost per unit change, down (d = 0) and up
 * (d = 1), over the variables with observations; 1 where there are none:
 * the stand-in for a variable not yet branched on. */
static void pseudo_cost_means(int n, const double *pc, const int *pcn, double avg[2]) {
  for (int d = 0; d < 2; d++) {
    double sum = 0;
    int cnt = 0;
    for (int j = 0; j < n; j++)
      if (pcn[2 * j + d]) {
        sum += pc[2 * j + d] / pcn[2 * j + d];
        cnt++;
      }
    avg[d] = cnt && sum > 0 ? sum / cnt : 1;
  }
}

/* Branching: the candidate with the best product score
 * max(D-, eps) max(D+, eps) of its estimated objective gains D- (down) and
 * D+ (up).  The gains are pseudo-costs (the average per unit of movement
 * seen so far, times the distance to move; the average over all variables
 * while a variable has none) once a variable has REL observations in both
 * directions; before that (reliability branching), up to SB_CAND of the
 * most promising unreliable candidates get strong branching: SB_ITERS dual
 * simplex iterations on each side from this node's basis, which gives the
 * gain (a dual bound when the iteration limit stops it) and a pseudo-cost
 * observation.  A side that is infeasible or reaches the cutoff ends the
 * search: that variable is taken at once (one child closes right away).
 * Strong branching spends at most about half the LP iterations of the
 * search.  It only chooses the variable: the tree and its certificate are
 * as before.  The LP is left with this node's bounds and basis (basis).
 * Returns the variable, or -2 when out of memory. */
static int choose_branch(const twill_ilp *m, lp_solver *lp, const double *x, double z,
                         double cutoff, double deadline, int *cand, int ncand, double *pc,
                         int *pcn, const signed char *basis, double *score, long *sb_iters) {
  int n = m->n;
  double avg[2];
  pseudo_cost_means(n, pc, pcn, avg);
  int bj = -1, nsb = 0;
  double bscore = -1;
  for (int k = 0; k < ncand; k++) {
    int j = cand[k];
    double f = x[j] - floor(x[j]);
    double dn = (pcn[2 * j] ? pc[2 * j] / pcn[2 * j] : avg[0]) * f;
    double up = (pcn[2 * j + 1] ? pc[2 * j + 1] / pcn[2 * j + 1] : avg[1]) * (1 - f);
    score[k] = fmax(dn, 1e-6) * fmax(up, 1e-6);
    if (pcn[2 * j] < REL || pcn[2 * j + 1] < REL) nsb++;
  }
  long budget = twill_lps_iterations(lp) / 2 + 20000 - *sb_iters;
  if (nsb && budget > 0) {
    /* the unreliable candidates, best pseudo-cost score first (ties: lower
     * index), strong branched in that order */
    int *order = malloc((size_t)ncand * sizeof(int));
    if (!order) return -2;
    int no = 0;
    for (int k = 0; k < ncand; k++) {
      int j = cand[k];
      if (pcn[2 * j] >= REL && pcn[2 * j + 1] >= REL) continue;
      int t = no++;
      while (t > 0 && score[order[t - 1]] < score[k]) { order[t] = order[t - 1]; t--; }
      order[t] = k;
    }
    if (no > SB_CAND) no = SB_CAND;
    for (int t = 0; t < no && bj < 0; t++) {
      int k = order[t], j = cand[k];
      double v = x[j], f = v - floor(v), l, u, gain[2];
      twill_lps_get_bounds(lp, j, &l, &u);
      int closed = 0;
      for (int d = 0; d < 2; d++) {
        long i0 = twill_lps_iterations(lp);
        twill_lps_set_bounds(lp, j, d ? ceil(v) : l, d ? u : floor(v));
        int st = twill_lps_solve_dual_limit(lp, deadline, SB_ITERS);
        *sb_iters += twill_lps_iterations(lp) - i0;
        double zc = st == LPS_INFEASIBLE ? HUGE_VAL
                    : (st == LPS_OPTIMAL || st == LPS_LIMIT) ? twill_lps_obj(lp) : z;
        twill_lps_set_bounds(lp, j, l, u);
        twill_lps_set_basis(lp, basis);
        if (zc >= cutoff) closed = 1;
        gain[d] = zc > z ? zc - z : 0;
        if (st == LPS_OPTIMAL || (st == LPS_LIMIT && zc < HUGE_VAL)) {
          /* a stopped dual gives only a lower estimate: count it when it
           * says more than the pseudo-cost would */
          pc[2 * j + d] += gain[d] / (d ? 1 - f : f);
          pcn[2 * j + d]++;
        }
      }
      if (closed) { bj = j; break; }
      score[k] = fmax(gain[0], 1e-6) * fmax(gain[1], 1e-6);
    }
    free(order);
    if (bj >= 0) return bj;
  }
  for (int k = 0; k < ncand; k++)
    if (score[k] > bscore) { bscore = score[k]; bj = cand[k]; }
  return bj;
}

int twill_bb_choose_branch(search *S) {
  int bj = choose_branch(S->m, S->lp, S->x, S->z, S->cutoff, S->deadline, S->cand, S->ncand,
                         S->pc, S->pcn, S->basis, S->score, &S->sb_iters);
  /* one of the fractional candidates */
  assert(bj == -2 || (bj >= 0 && bj < S->n && S->m->vtype[bj] != TWILL_ILP_CONTINUOUS));
  return bj;
}

/* The pseudo-cost observation: the objective's degradation per unit of
 * movement of the variable the node branched on. */
void twill_bb_observe(search *S, double z) {
  const node *cur = S->cur;
  const bb_rec *rec = &S->m->rec[cur->rec];
  if (rec->var >= 0 && cur->bound > -HUGE_VAL && cur->pfrac > 0) {
    double deg = z - cur->bound;
    S->pc[2 * rec->var + rec->dir] += (deg > 0 ? deg : 0) / cur->pfrac;
    S->pcn[2 * rec->var + rec->dir]++;
  }
}

/* The best estimate of an integer solution below the current node: z plus,
 * for every fractional variable, the cheaper pseudo-cost rounding; ebj gets
 * bj's two roundings (its own share is left out of the estimate). */
static double estimate(const search *S, int bj, double ebj[2]) {
  const double *x = S->x, *pc = S->pc;
  const int *pcn = S->pcn;
  double est = S->z, avg[2];
  ebj[0] = ebj[1] = 0;
  pseudo_cost_means(S->n, pc, pcn, avg);
  for (int k = 0; k < S->ncand; k++) {
    int j = S->cand[k];
    double f = x[j] - floor(x[j]);
    double dn = (pcn[2 * j] ? pc[2 * j] / pcn[2 * j] : avg[0]) * f;
    double up = (pcn[2 * j + 1] ? pc[2 * j + 1] / pcn[2 * j + 1] : avg[1]) * (1 - f);
    est += dn < up ? dn : up;
    if (j == bj) {
      est -= dn < up ? dn : up;
      ebj[0] = dn;
      ebj[1] = up;
    }
  }
  return est;
}

/* Child dir (0: x_bj <= floor(v), 1: >= ceil(v)) of the current node, its
 * bound the node's LP bound and its basis the node's; NULL when out of
 * memory. */
static node *child(search *S, int bj, int dir, double est) {
  twill_ilp *m = S->m;
  node *cur = S->cur, *k = calloc(1, sizeof *k);
  double v = S->x[bj];
  if (!k) return NULL;
  k->depth = cur->depth + 1;
  k->bound = S->z;
  k->est = est;
  k->pfrac = dir ? ceil(v) - v : v - floor(v);
  k->rec = twill_bb_add_rec(m, cur->rec, bj, dir, dir ? ceil(v) : floor(v));
  k->nchg = cur->nchg + 1;
  k->cvar = malloc((size_t)k->nchg * sizeof(int));
  k->clb = malloc((size_t)k->nchg * sizeof(double));
  k->cub = malloc((size_t)k->nchg * sizeof(double));
  k->basis = malloc((size_t)S->Nlp);
  if (k->rec < 0 || !k->cvar || !k->clb || !k->cub || !k->basis) {
    twill_bb_node_free(k);
    return NULL;
  }
  if (cur->nchg) {
    memcpy(k->cvar, cur->cvar, (size_t)cur->nchg * sizeof(int));
    memcpy(k->clb, cur->clb, (size_t)cur->nchg * sizeof(double));
    memcpy(k->cub, cur->cub, (size_t)cur->nchg * sizeof(double));
  }
  double l, u;
  twill_lps_get_bounds(S->lp, bj, &l, &u);
  for (int t = 0; t < cur->nchg; t++)
    if (cur->cvar[t] == bj) { l = cur->clb[t]; u = cur->cub[t]; }
  if (dir) l = ceil(v);
  else u = floor(v);
  k->cvar[cur->nchg] = bj;
  k->clb[cur->nchg] = l;
  k->cub[cur->nchg] = u;
  memcpy(k->basis, S->basis, (size_t)S->Nlp);
  return k;
}

int twill_bb_branch(search *S, int bj) {
  double ebj[2];
  double est = estimate(S, bj, ebj);
  double v = S->x[bj];
  double f = v - floor(v);
  node *kid[2] = {NULL, NULL};
  for (int dir = 0; dir < 2; dir++) {
    kid[dir] = child(S, bj, dir, est + ebj[dir]);
    if (!kid[dir]) {
      twill_bb_node_free(kid[0]);
      return -1;
    }
  }
  int first = f < 0.5 ? 0 : 1;
  if (S->nopen + 2 > S->opencap) {
    int nc = S->opencap ? 2 * S->opencap : 64;
    node **o = realloc(S->open, (size_t)nc * sizeof *o);
    if (!o) { twill_bb_node_free(kid[0]); twill_bb_node_free(kid[1]); return -1; }
    S->open = o;
    S->opencap = nc;
  }
  twill_bb_heap_push(S->open, &S->nopen, kid[1 - first]);
  twill_bb_node_free(S->cur);
  S->cur = kid[first];
  return 0;
}
