/* ilp/mip/bb.c: LP-based branch and bound: the set-up of a search, its
 * node loop, and its result.
 *
 * Internally the problem is  min c'x  (c = -obj when maximizing).
 * Node selection: best bound (smallest parent LP bound; ties: the smaller
 * estimate, deeper, then older; node.c), with depth-first plunges: after
 * branching, the child on the side the LP value rounds to is processed
 * next, its sibling goes to the open list.  Each node re-solves the LP from
 * its parent's basis (dual simplex), after domain propagation (prop.c).
 * Branching: reliability branching on pseudo-costs (branch.c).  Reduced-
 * cost fixing (rcfix.c).  Incumbents (heur.c): rounding of each node's LP
 * solution, the plunges of the tree, fractional diving off the tree, and
 * RENS/RINS sub-MIPs (submip.c).  Pruning: LP bound >= U - tol, or
 * >= U - 1 + tol when the objective is integral (integer coefficients on
 * integer variables only; search_cutoff).
 * Everything is deterministic; the time limit only stops the search.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../log.h"
#include "search.h"

/* certify: keep the root LP's basis in model order (rows left out of the
 * LP count as basic) for the writer's exact solves; on failure none. */
static void save_root_basis(twill_ilp *m, lp_solver *lp, const int *lprow, int mlp) {
  int n = m->n, N = n + m->m;
  signed char *lpst = malloc((size_t)(n + mlp) + 1);
  free(m->root_basis);
  m->root_basis = calloc((size_t)N + 1, 1);
  if (!lpst || !m->root_basis) {
    free(lpst);
    free(m->root_basis);
    m->root_basis = NULL;
    return;
  }
  twill_lps_get_basis(lp, lpst);
  memcpy(m->root_basis, lpst, (size_t)n);
  for (int k = 0; k < mlp; k++) m->root_basis[n + lprow[k]] = lpst[n + k];
  free(lpst);
}

/* The search's arrays and the model's matrix by columns: 0 when out of
 * memory. */
static int search_alloc(search *S) {
  int n = S->n, N = S->N, mr = S->mr;
  S->c = calloc((size_t)n + 1, sizeof(double));
  S->lb = calloc((size_t)N + 1, sizeof(double));
  S->ub = calloc((size_t)N + 1, sizeof(double));
  S->x = calloc((size_t)N + 1, sizeof(double));
  S->xr = calloc((size_t)n + 1, sizeof(double));
  S->act = calloc((size_t)mr + 1, sizeof(double));
  S->dred = calloc((size_t)n + 1, sizeof(double));
  S->xd = calloc((size_t)n + 1, sizeof(double));
  S->xdr = calloc((size_t)n + 1, sizeof(double));
  S->pc = calloc(2 * (size_t)n + 1, sizeof(double));
  S->pcn = calloc(2 * (size_t)n + 1, sizeof(int));
  S->basis = calloc((size_t)N + 1, 1);
  S->nlb = calloc((size_t)n + 1, sizeof(double));
  S->nub = calloc((size_t)n + 1, sizeof(double));
  S->slb = calloc((size_t)n + 1, sizeof(double));
  S->sub = calloc((size_t)n + 1, sizeof(double));
  S->inst = calloc((size_t)n + 1, sizeof(int));
  S->cand = calloc((size_t)n + 1, sizeof(int));
  S->score = calloc(2 * (size_t)n + 2, sizeof(double));
  S->mark = calloc((size_t)n + 1, 1);
  return S->c && S->lb && S->ub && S->x && S->xr && S->act && S->dred && S->xd && S->xdr &&
         S->pc && S->pcn && S->basis && S->nlb && S->nub && S->slb && S->sub && S->inst &&
         S->mark && S->cand && S->score && twill_ilp_build_csc(S->m, &S->cbeg, &S->cidx, &S->cval);
}

static void search_free(search *S) {
  twill_bb_node_free(S->cur);
  for (int k = 0; k < S->nopen; k++) twill_bb_node_free(S->open[k]);
  free(S->open);
  free(S->rootbasis);
  free(S->lprow); free(S->lpcbeg); free(S->lpcidx); free(S->lpcval); free(S->lpbnd);
  free(S->ylp);
  twill_lps_free(S->lp);
  free(S->cbeg); free(S->cidx); free(S->cval); free(S->c); free(S->lb); free(S->ub);
  free(S->x); free(S->xr); free(S->act); free(S->dred); free(S->xd); free(S->xdr);
  free(S->pc); free(S->pcn); free(S->basis); free(S->nlb); free(S->nub); free(S->slb);
  free(S->sub); free(S->inst); free(S->mark); free(S->cand); free(S->score);
  twill_bb_prop_free(&S->R);
}

/* The min-form costs, the root bounds (integer ones rounded inward), the
 * count of integers and whether the objective is integral.  0 when some
 * bounds cross (the model is infeasible as it stands). */
static int root_bounds(search *S) {
  twill_ilp *m = S->m;
  int n = S->n;
  S->nint = 0;
  S->objint = 1;
  for (int j = 0; j < n; j++) {
    S->c[j] = S->sgn * m->obj[j];
    S->lb[j] = m->vlb[j];
    S->ub[j] = m->vub[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) {
      S->nint++;
      S->lb[j] = ceil(S->lb[j] - INT_TOL);
      S->ub[j] = floor(S->ub[j] + INT_TOL);
      if (S->c[j] != round(S->c[j])) S->objint = 0;
    } else if (S->c[j] != 0) {
      S->objint = 0;
    }
  }
  for (int i = 0; i < S->mr; i++) {
    S->lb[n + i] = m->rlo[i];
    S->ub[n + i] = m->rhi[i];
  }
  for (int j = 0; j < S->N; j++)
    if (S->lb[j] > S->ub[j] || S->lb[j] == HUGE_VAL || S->ub[j] == -HUGE_VAL) return 0;
  return 1;
}

/* The search's LP: the user's rows and the cuts binding at the last root
 * LP (nonbasic slack); a cut not binding there is left out (it stays a row
 * of the model, valid for the certificate, with multiplier 0).  lprow maps
 * the LP's rows to the model's.  0 when out of memory. */
static int search_lp(search *S) {
  twill_ilp *m = S->m;
  int n = S->n, mr = S->mr, N = S->N, nz = S->cbeg[n], mlp = 0;
  signed char *rootbasis = S->rootbasis;
  S->lprow = malloc(((size_t)mr + 1) * sizeof(int));
  S->lpcbeg = calloc((size_t)n + 2, sizeof(int));
  S->lpcidx = malloc(((size_t)nz + 1) * sizeof(int));
  S->lpcval = malloc(((size_t)nz + 1) * sizeof(double));
  S->lpbnd = malloc(2 * ((size_t)N + 1) * sizeof(double));
  S->ylp = malloc(((size_t)mr + 1) * sizeof(double));
  int *modrow = malloc(((size_t)mr + 1) * sizeof(int));
  if (!S->lprow || !S->lpcbeg || !S->lpcidx || !S->lpcval || !S->lpbnd || !S->ylp || !modrow) {
    free(modrow);
    return 0;
  }
  for (int i = 0; i < mr; i++) {
    int keep = i < S->mr0 || !rootbasis || rootbasis[n + i] != 0 || m->opt.keep_cuts;
    modrow[i] = keep ? mlp : -1;
    if (keep) S->lprow[mlp++] = i;
  }
  for (int j = 0, q = 0; j < n; j++) {
    for (int p = S->cbeg[j]; p < S->cbeg[j + 1]; p++)
      if (modrow[S->cidx[p]] >= 0) {
        S->lpcidx[q] = modrow[S->cidx[p]];
        S->lpcval[q++] = S->cval[p];
      }
    S->lpcbeg[j + 1] = q;
  }
  free(modrow);
  double *llb = S->lpbnd, *lub = S->lpbnd + N + 1;
  memcpy(llb, S->lb, (size_t)n * sizeof(double));
  memcpy(lub, S->ub, (size_t)n * sizeof(double));
  for (int k = 0; k < mlp; k++) {
    llb[n + k] = S->lb[n + S->lprow[k]];
    lub[n + k] = S->ub[n + S->lprow[k]];
  }
  if (rootbasis)
    for (int k = 0; k < mlp; k++) rootbasis[n + k] = rootbasis[n + S->lprow[k]];
  S->mlp = mlp;
  S->Nlp = n + mlp;
  lp_input in = {mlp, n, S->lpcbeg, S->lpcidx, S->lpcval, S->c, llb, lub};
  S->lp = twill_lps_new(&in);
  if (!S->lp) return 0;
  twill_lps_set_cancel(S->lp, m->cancel);
  twill_lps_set_pricing(S->lp, (int)m->opt.pricing);
  if (rootbasis) twill_lps_set_basis(S->lp, rootbasis);
  if (m->lp_degenerate) twill_lps_set_perturb_early(S->lp, 1);
  return 1;
}

/* The caller's solution (twill_ilp_set_start), when it is one, as the
 * first incumbent, rounded like any heuristic point.  0 when out of
 * memory. */
static int mip_start(search *S) {
  twill_ilp *m = S->m;
  if (!m->start || !twill_bb_feasible(m, m->m - m->ncut, S->cbeg, S->cidx, S->cval, m->start, S->act))
    return 1;
  double zs = 0;
  for (int j = 0; j < S->n; j++) {
    S->xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? m->start[j] : round(m->start[j]);
    zs += S->c[j] * S->xr[j];
  }
  S->inc = zs;
  return twill_bb_new_incumbent(m, S->xr, S->inc, S->sgn, 0);
}

/* The current node is closed, by the LP of tree record `proof`. */
static void close_node(search *S, int proof) {
  S->m->rec[S->cur->rec].proof = proof;
  twill_bb_node_free(S->cur);
  S->cur = NULL;
}

/* The search stops short: the current node's bound and the open nodes'
 * bounds go into the global bound, the nodes are dropped. */
static void abandon(search *S, int open_too) {
  node *cur = S->cur;
  S->incomplete = 1;
  if (cur->bound < S->global_bound || S->global_bound == -HUGE_VAL) S->global_bound = cur->bound;
  twill_bb_node_free(cur);
  S->cur = NULL;
  while (open_too && S->nopen) {
    node *o = S->open[--S->nopen];
    if (o->bound < S->global_bound) S->global_bound = o->bound;
    twill_bb_node_free(o);
  }
}

/* Install the current node's bounds in nlb, nub and the LP: the root's,
 * then its changes in order. */
static void install_bounds(search *S) {
  twill_ilp *m = S->m;
  node *cur = S->cur;
  for (int k = 0; k < S->ninst; k++) {
    int j = S->inst[k];
    S->nlb[j] = S->lb[j];
    S->nub[j] = S->ub[j];
    S->mark[j] = 0;
  }
  S->ninst = 0;
  for (int k = 0; k < cur->nchg; k++) {
    int j = cur->cvar[k];
    S->nlb[j] = cur->clb[k];
    S->nub[j] = cur->cub[k];
  }
  for (int j = 0; j < S->n; j++) {
    if (m->vtype[j] == TWILL_ILP_CONTINUOUS) continue;
    double ol, ou;
    twill_lps_get_bounds(S->lp, j, &ol, &ou);
    if (ol != S->nlb[j] || ou != S->nub[j]) twill_lps_set_bounds(S->lp, j, S->nlb[j], S->nub[j]);
  }
  for (int k = 0; k < cur->nchg; k++)
    if (!S->mark[cur->cvar[k]]) {
      S->mark[cur->cvar[k]] = 1;
      S->inst[S->ninst++] = cur->cvar[k];
    }
}

/* The current node's LP from its parent's basis; returns its LPS_ status. */
static int solve_node_lp(search *S) {
  twill_ilp *m = S->m;
  node *cur = S->cur;
  lp_solver *lp = S->lp;
  if (cur->basis) twill_lps_set_basis(lp, cur->basis);
  S->nodes++;
  if (cur->depth > m->stats.depth_max) m->stats.depth_max = cur->depth;
  int st = twill_lps_solve(lp, S->deadline);
  if (st == LPS_LIMIT && !twill_lps_halted(m->cancel) &&
      !(S->deadline > 0 && twill_lps_clock() > S->deadline)) {
    /* The iteration limit, not the clock: a stalled simplex (air04
     * under --cert, node 230: the dual gave up on a tiny pivot and the
     * primal ran 115624 degenerate iterations).  Once more from the
     * slack basis, each structural at the bound its cost prefers (dual
     * feasible where that bound is finite), as the root's first solve. */
    for (int j = 0; j < S->n; j++) S->basis[j] = S->c[j] < 0 ? 2 : 1;
    for (int k = S->n; k < S->Nlp; k++) S->basis[k] = 0;
    twill_lps_set_basis(lp, S->basis);
    st = twill_lps_solve(lp, S->deadline);
    twill_ilp_log(m, 1, "node %ld: LP again from a slack basis: status %d", S->nodes, st);
  }
  if (st != LPS_OPTIMAL) twill_ilp_log(m, 2, "node %ld: LP status %d", S->nodes, st);
  return st;
}

/* certify: the node's LP multipliers (dual, or Farkas when infeasible) in
 * its tree record, by model row. */
static void keep_multipliers(search *S, bb_rec *rec, int farkas) {
  rec->y = calloc((size_t)(S->mr ? S->mr : 1), sizeof(double));
  if (farkas) twill_lps_get_farkas(S->lp, S->ylp);
  else twill_lps_get_dual(S->lp, S->ylp, NULL);
  if (rec->y)
    for (int k = 0; k < S->mlp; k++) rec->y[S->lprow[k]] = S->ylp[k];
  if (farkas) rec->farkas = 1;
}

enum { STEP_ERROR = -1, STEP_NEXT = 0, STEP_STOP = 1, STEP_BRANCH = 2 };

/* The current node's LP solved with status st: a node that is closed or
 * stops the search (STEP_NEXT, STEP_STOP), or, optimal and not closed
 * (STEP_BRANCH), with its LP point in x, z, the fractional candidates in
 * cand and the incumbents of rounding.  STEP_ERROR when out of memory. */
static int node_lp_result(search *S, int st) {
  twill_ilp *m = S->m;
  node *cur = S->cur;
  bb_rec *rec = &m->rec[cur->rec];
  int n = S->n;
  if (st == LPS_LIMIT || st == LPS_ERROR) {
    abandon(S, st == LPS_LIMIT);
    return st == LPS_LIMIT ? STEP_STOP : STEP_NEXT;
  }
  if (st == LPS_UNBOUNDED) {
    S->unbounded = 1;
    twill_bb_node_free(cur);
    S->cur = NULL;
    return STEP_STOP;
  }
  if (st == LPS_INFEASIBLE) {
    if (m->opt.certify) keep_multipliers(S, rec, 1);
    if (S->nodes == 1) S->root_bound = HUGE_VAL;
    close_node(S, cur->rec);
    return STEP_NEXT;
  }
  double z = S->z = twill_lps_obj(S->lp);
  if (S->nodes == 1) S->root_bound = z;
  twill_lps_get_x(S->lp, S->x);
  if (m->opt.certify) {
    keep_multipliers(S, rec, 0);
    if (S->nodes == 1) save_root_basis(m, S->lp, S->lprow, S->mlp);
  }
  twill_bb_observe(S, z);
  if (z >= S->cutoff) {
    close_node(S, cur->rec);
    return STEP_NEXT;
  }
  /* fractional variables */
  const double *x = S->x;
  S->ncand = 0;
  for (int j = 0; j < n; j++) {
    if (m->vtype[j] == TWILL_ILP_CONTINUOUS) continue;
    double f = x[j] - floor(x[j]);
    if (f < INT_TOL || f > 1 - INT_TOL) continue;
    S->cand[S->ncand++] = j;
  }
  if (!S->ncand) {
    /* integral LP optimum: new incumbent, whose value is that of the
     * rounded point (the LP's z carries the integers' rounding error:
     * 70.9999999999 for 71) */
    double zr = 0;
    for (int j = 0; j < n; j++) {
      S->xr[j] = m->vtype[j] == TWILL_ILP_CONTINUOUS ? x[j] : round(x[j]);
      zr += S->c[j] * S->xr[j];
    }
    if (zr < S->inc) {
      S->inc = zr;
      if (!twill_bb_new_incumbent(m, S->xr, S->inc, S->sgn, S->nodes)) return STEP_ERROR;
    }
    close_node(S, cur->rec);
    return STEP_NEXT;
  }
  int rd = twill_bb_round(S);
  if (rd < 0) return STEP_ERROR;
  if (rd > 0) {
    close_node(S, cur->rec);
    return STEP_NEXT;
  }
  return STEP_BRANCH;
}

/* One step of the node loop: the next node, processed. */
static int step(search *S) {
  twill_ilp *m = S->m;
  if (!S->cur) {
    S->cur = twill_bb_heap_pop(S->open, &S->nopen); /* best bound */
    S->plunge = 0;
  }
  node *cur = S->cur;
  S->cutoff = search_cutoff(S);
  if (cur->bound >= S->cutoff) {
    /* pruned by the parent's bound: the parent's multipliers prove it */
    close_node(S, m->rec[cur->rec].parent);
    return STEP_NEXT;
  }
  if ((m->opt.node_limit > 0 && S->nodes >= m->opt.node_limit) ||
      (S->deadline > 0 && twill_lps_clock() > S->deadline) || twill_lps_halted(m->cancel)) {
    abandon(S, 1);
    return STEP_STOP;
  }
  install_bounds(S);
  if (S->prop_on && !cur->propagated) {
    int crow = -1, cside = 0;
    int pr = twill_bb_propagate(S, &crow, &cside);
    if (pr < 0) return STEP_ERROR;
    cur->propagated = 1;
    if (pr > 0) {
      /* closed by propagation: the row cannot be met */
      S->nodes++;
      m->rec[cur->rec].crow = crow;
      m->rec[cur->rec].cside = cside;
      close_node(S, cur->rec);
      return STEP_NEXT;
    }
  }
  int r = node_lp_result(S, solve_node_lp(S));
  if (r != STEP_BRANCH) return r;
  twill_lps_get_basis(S->lp, S->basis);
  if (twill_bb_rcfix(S) < 0) return STEP_ERROR;
  int bj = twill_bb_choose_branch(S);
  if (bj == -2 || twill_bb_branch(S, bj) < 0) return STEP_ERROR;
  /* a plunge deeper than the binaries allow is walking along an
   * unbounded integer direction (x <= 44 | x >= 45, then 52, 60, ...,
   * the bound rising each level and no incumbent to stop it): back to
   * the best bound.  Each node holds its path's changes, so an endless
   * plunge would also use memory quadratic in its depth. */
  if (++S->plunge > S->plunge_max) {
    twill_bb_heap_push(S->open, &S->nopen, S->cur);
    S->cur = NULL;
  }
  if (twill_bb_dive(S) < 0 || twill_bb_submip(S) < 0) return STEP_ERROR;
  return STEP_NEXT;
}

/* The result of a search that ran to its end or its limit. */
static twill_ilp_status result_of(search *S) {
  twill_ilp *m = S->m;
  double sgn = S->sgn, inc = S->inc, gb = S->global_bound;
  twill_ilp_status result;
  m->stats.nodes = S->nodes;
  m->complete = !S->incomplete && !S->unbounded;
  if (S->unbounded) {
    result = TWILL_ILP_UNBOUNDED;
  } else if (S->incomplete) {
    result = TWILL_ILP_LIMIT;
    m->stats.best_bound = sgn * (gb > -HUGE_VAL ? (inc < gb ? inc : gb) : S->root_bound) + m->c0;
  } else if (inc < HUGE_VAL) {
    result = TWILL_ILP_OPTIMAL;
    m->stats.best_bound = sgn * inc + m->c0;
  } else {
    result = TWILL_ILP_INFEASIBLE;
    m->stats.best_bound = sgn * HUGE_VAL;
  }
  if (m->has_sol && twill_bb_polish(m, S->c) < 0) return TWILL_ILP_ERROR;
  if (m->has_sol) {
    twill_bb_snap_to_bounds(m);
    m->objval = 0;
    for (int j = 0; j < S->n; j++) m->objval += m->obj[j] * m->sol[j];
    m->objval += m->c0;
    double bb = m->stats.best_bound;
    m->stats.gap = isinf(bb) ? HUGE_VAL : fabs(m->objval - bb) / fmax(1.0, fabs(m->objval));
  }
  m->stats.incumbents = m->nhist;
  return result;
}

twill_ilp_status twill_ilp_branch_and_bound(twill_ilp *m) {
  search S0, *S = &S0;
  memset(S, 0, sizeof *S);
  S->m = m;
  S->t0 = twill_lps_clock();
  S->deadline = m->opt.time_limit > 0 ? S->t0 + m->opt.time_limit : 0;
  /* the root cuts first: they become rows of the model for the search */
  if (twill_ilp_root_cuts(m, S->deadline, &S->rootbasis) < 0) {
    m->stats.seconds = twill_lps_clock() - S->t0;
    return TWILL_ILP_ERROR;
  }
  S->n = m->n;
  S->mr = m->m;
  S->N = S->n + S->mr;
  S->mr0 = S->mr - m->ncut;
  S->sgn = m->maximize ? -1.0 : 1.0;
  S->inc = HUGE_VAL; /* incumbent, minimize form */
  twill_ilp_status result = TWILL_ILP_ERROR;
  if (!search_alloc(S)) goto done;
  if (!root_bounds(S)) {
    result = TWILL_ILP_INFEASIBLE;
    m->stats.best_bound = HUGE_VAL;
    goto done;
  }
  memcpy(S->nlb, S->lb, (size_t)S->n * sizeof(double));
  memcpy(S->nub, S->ub, (size_t)S->n * sizeof(double));
  if (!twill_bb_prop_init(S)) goto done;
  S->prop_on = S->nint > 0 && m->opt.propagate;
  if (!search_lp(S) || !mip_start(S)) goto done;
  S->cur = calloc(1, sizeof *S->cur);
  if (!S->cur) goto done;
  S->cur->bound = -HUGE_VAL;
  S->cur->rec = twill_bb_add_rec(m, -1, -1, 0, 0);
  if (S->cur->rec < 0) goto done;
  S->root_bound = -HUGE_VAL;
  S->global_bound = -HUGE_VAL;
  S->plunge_max = 2 * S->nint + 100;
  twill_bb_heur_init(S);
  int r = STEP_NEXT;
  while ((S->cur || S->nopen) && r == STEP_NEXT) r = step(S);
  if (r != STEP_ERROR) result = result_of(S);
done:
  if (S->lp) m->stats.lp_iterations = twill_lps_iterations(S->lp);
  m->stats.seconds = twill_lps_clock() - S->t0;
  if (S->lp && twill_ilp_logs(m, 1) && !m->submip) {
    long ds, dd;
    twill_lps_dual_steps(S->lp, &ds, &dd);
    twill_ilp_log(m, 1, "search: %ld LP iterations, dual %ld (%ld degenerate)",
                  twill_lps_iterations(S->lp), ds, dd);
  }
  search_free(S);
  return result;
}

/* The model's entry point (twill/ilp.h): the search is above the model, so
 * that model.c never calls into it. */
twill_ilp_status twill_ilp_solve(twill_ilp *m) {
  twill_ilp_clear_results(m);
  return m->status = twill_ilp_branch_and_bound(m);
}
