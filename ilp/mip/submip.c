/* ilp/mip/submip.c: a smaller MIP solved to find an incumbent (RENS, RINS).
 *
 * The heuristics of bb.c fix many integer variables (RINS: where the node's
 * LP solution agrees with the incumbent; RENS: where the root LP is
 * integral, the others to floor/ceil of their value) and search what is
 * left.  That search is this module's job: a copy of the model (its rows,
 * cut rows included, since they are valid) with the given bounds, a row
 * that asks for an objective strictly better than the incumbent's, no
 * cuts, no certificate, no sub-MIPs of its own, and a node limit.  It is
 * deterministic: only the caller's deadline can end it otherwise.
 *
 * A solution found is a point of the original model (same rows, tighter
 * bounds); the caller still checks it against the user's rows before it
 * takes it, as it does for every heuristic point.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lp/lp.h"
#include "../model.h"

/* The copy: variables with bounds [lb, ub], every row of m, and the
 * objective row  sgn obj'x <= cut_hi  (sgn = -1 when maximizing). */
static twill_ilp *sub_model(const twill_ilp *m, const double *lb, const double *ub,
                            double cut_hi) {
  twill_ilp *s = twill_ilp_new();
  if (!s) return NULL;
  for (int j = 0; j < m->n; j++)
    if (twill_ilp_add_var(s, NULL, (twill_ilp_vartype)m->vtype[j], lb[j], ub[j], m->obj[j]) < 0)
      goto fail;
  s->maximize = m->maximize;
  /* the triplets by row (the MPS reader stores them column by column) */
  int *beg = calloc((size_t)m->m + 2, sizeof(int));
  int *col = malloc(((size_t)m->nz + 1) * sizeof(int));
  double *rv = malloc(((size_t)m->nz + 1) * sizeof(double));
  int ok = beg && col && rv;
  if (ok) {
    for (int p = 0; p < m->nz; p++) beg[m->zr[p] + 2]++;
    for (int i = 0; i < m->m; i++) beg[i + 2] += beg[i + 1];
    for (int p = 0; p < m->nz; p++) {
      int q = beg[m->zr[p] + 1]++;
      col[q] = m->zc[p];
      rv[q] = m->zv[p];
    }
    for (int i = 0; i < m->m && ok; i++)
      ok = twill_ilp_add_row_raw(s, NULL, beg[i + 1] - beg[i], col + beg[i], rv + beg[i], m->rlo[i],
                           m->rhi[i]) >= 0;
  }
  free(beg);
  free(col);
  free(rv);
  if (!ok) goto fail;
  if (!isinf(cut_hi)) {
    double sgn = m->maximize ? -1.0 : 1.0;
    int *idx = malloc(((size_t)m->n + 1) * sizeof(int));
    double *val = malloc(((size_t)m->n + 1) * sizeof(double));
    int k = 0;
    if (!idx || !val) { free(idx); free(val); goto fail; }
    for (int j = 0; j < m->n; j++)
      if (m->obj[j] != 0) { idx[k] = j; val[k++] = sgn * m->obj[j]; }
    int r = twill_ilp_add_row_raw(s, "cutoff", k, idx, val, -HUGE_VAL, cut_hi);
    free(idx);
    free(val);
    if (r < 0) goto fail;
  }
  return s;
fail:
  twill_ilp_free(s);
  return NULL;
}

int twill_ilp_submip(const twill_ilp *m, const double *lb, const double *ub, double cut_hi,
               long nodes, double deadline, double *x, long *iters) {
  twill_ilp *s = sub_model(m, lb, ub, cut_hi);
  if (!s) return -1;
  /* The caller's options (propagation, pricing, the log), but no cuts,
   * no certificate, and reduced-cost fixing on whatever the caller's
   * setting: the caller turns it off only for its certificate's sake. */
  s->opt = m->opt;
  s->opt.cuts = 0;
  s->opt.certify = 0;
  s->opt.rcfix = 1;
  s->log = m->log;
  s->log_ctx = m->log_ctx;
  s->submip = 1;
  s->opt.node_limit = (double)nodes;
  s->opt.time_limit = 0;
  s->cancel = m->cancel;
  if (deadline > 0) {
    double left = deadline - twill_lps_clock();
    if (left <= 0) { twill_ilp_free(s); return 0; }
    s->opt.time_limit = left;
  }
  twill_ilp_status st = twill_ilp_solve(s);
  if (iters) *iters += s->stats.lp_iterations;
  int found = s->has_sol && (st == TWILL_ILP_OPTIMAL || st == TWILL_ILP_LIMIT);
  if (found) memcpy(x, s->sol, (size_t)m->n * sizeof(double));
  twill_ilp_free(s);
  return found;
}
