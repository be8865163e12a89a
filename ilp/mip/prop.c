/* ilp/mip/prop.c: domain propagation on the rows of the model at each
 * node of the search. */
#include <math.h>
#include <stdlib.h>

#include "search.h"

/* Domain propagation (activity-based bound tightening) on the rows, for
 * integer variables only: with every other variable of row i at the bound
 * that minimizes the activity, sum_k a_ik x_k <= hi_i gives
 * a_ij x_j <= hi_i - minact_{-j}, rounded down (up for a_ij < 0) to an
 * integer, with a small slack on the safe side so that the exact
 * arithmetic of the certificate (see bb_prop in model.h) proves at least
 * the bound used here; the >= side likewise with the maximum activity.
 * Rows are taken from a queue (all rows at the root, the rows of the
 * branching variable below), a row whose variable changed comes back,
 * within a work limit.  The node's bounds (nl, nu), its change list, the
 * LP and (certify) the tree record are updated.  Returns 0, 1 when a row
 * cannot be met (*crow, *cside), -1 when out of memory. */
static int propagate(twill_ilp *m, const csr *R, lp_solver *lp, node *cur, int recidx,
                     double *nl, double *nu, char *mark, int *inst, int *ninst,
                     int *crow, int *cside) {
  int mr = m->m, qh = 0, qn = 0;
  bb_rec *rec = &m->rec[recidx];
  /* (a row still queued when another cannot be met keeps its mark, below,
   * and is not queued again in this search: later nodes do not propagate
   * it.  Kept as it is: the search's path, node for node, depends on it) */
  if (rec->var < 0) {
    for (int i = 0; i < mr; i++) { R->queue[qn++] = i; R->inq[i] = 1; }
  } else {
    for (int p = R->cbeg[rec->var]; p < R->cbeg[rec->var + 1]; p++) {
      int i = R->cidx[p];
      if (!R->inq[i]) { R->queue[qn++] = i; R->inq[i] = 1; }
    }
  }
  long work = 0, limit = 4L * R->beg[mr] + 1000;
  int ret = 0;
  while (qn > 0 && work < limit) {
    int i = R->queue[qh];
    qh = (qh + 1) % mr;
    qn--;
    R->inq[i] = 0;
    int b = R->beg[i], e = R->beg[i + 1];
    work += e - b;
    if (b == e) continue; /* an empty row is the LP's business */
    for (int side = 0; side < 2; side++) {
      double rhs = side ? m->rlo[i] : m->rhi[i];
      if (isinf(rhs)) continue;
      /* side 0: minimum activity against hi; side 1: maximum against lo,
       * written as the minimum of the negated row against -lo */
      double sg = side ? -1.0 : 1.0, act = 0, mag = fabs(rhs);
      int ninf = 0, infk = -1;
      for (int p = b; p < e; p++) {
        double a = sg * R->val[p];
        int k = R->col[p];
        double bd = a > 0 ? nl[k] : nu[k];
        if (isinf(bd)) { ninf++; infk = k; continue; }
        act += a * bd;
        mag += fabs(a * bd);
      }
      double r = sg * rhs, tol = 1e-6 + 1e-9 * mag;
      if (ninf == 0 && act > r + tol) {
        *crow = i;
        *cside = side;
        return 1;
      }
      if (ninf > 1) continue;
      for (int p = b; p < e; p++) {
        int k = R->col[p];
        double a = sg * R->val[p];
        if (m->vtype[k] == TWILL_ILP_CONTINUOUS || a == 0) continue;
        double bd = a > 0 ? nl[k] : nu[k];
        if (ninf == 1 && k != infk) continue;
        double rest = isinf(bd) ? act : act - a * bd;
        double t = (r - rest) / a, slack = 1e-6 + 1e-9 * mag / fabs(a);
        if (fabs(t) > 1e9) continue;
        double l = nl[k], u = nu[k];
        if (a > 0) {
          double v = floor(t + slack);
          if (v >= u) continue;
          u = v;
        } else {
          double v = ceil(t - slack);
          if (v <= l) continue;
          l = v;
        }
        if (l > u) {
          *crow = i;
          *cside = side;
          return 1;
        }
        if (m->opt.certify) {
          bb_prop *pp = realloc(rec->prop, (size_t)(rec->nprop + 1) * sizeof *pp);
          if (!pp) return -1;
          rec->prop = pp;
          pp[rec->nprop].var = k;
          pp[rec->nprop].row = i;
          pp[rec->nprop].up = a > 0;
          pp[rec->nprop].side = (signed char)side;
          pp[rec->nprop++].val = a > 0 ? u : l;
        }
        nl[k] = l;
        nu[k] = u;
        if (!twill_bb_push_change(cur, k, l, u)) return -1;
        twill_lps_set_bounds(lp, k, l, u);
        if (!mark[k]) { mark[k] = 1; inst[(*ninst)++] = k; }
        /* the bound moved: this row's activities are stale, and the rows
         * of x_k may tighten further */
        for (int pq = R->cbeg[k]; pq < R->cbeg[k + 1]; pq++) {
          int q = R->cidx[pq];
          if (R->inq[q]) continue;
          R->queue[(qh + qn) % mr] = q;
          qn++;
          R->inq[q] = 1;
        }
        goto next_row;
      }
    }
  next_row:;
  }
  while (qn > 0) {
    R->inq[R->queue[qh]] = 0;
    qh = (qh + 1) % mr;
    qn--;
  }
  return ret;
}

int twill_bb_propagate(search *S, int *crow, int *cside) {
  return propagate(S->m, &S->R, S->lp, S->cur, S->cur->rec, S->nlb, S->nub, S->mark, S->inst,
                   &S->ninst, crow, cside);
}

int twill_bb_prop_init(search *S) {
  csr *R = &S->R;
  int n = S->n, mr = S->mr, mr0 = S->mr0;
  const int *cbeg = S->cbeg, *cidx = S->cidx;
  const double *cval = S->cval;
  R->cbeg = cbeg;
  R->cidx = cidx;
  R->beg = calloc((size_t)mr + 2, sizeof(int));
  R->col = calloc((size_t)cbeg[n] + 1, sizeof(int));
  R->val = calloc((size_t)cbeg[n] + 1, sizeof(double));
  R->queue = calloc((size_t)mr + 1, sizeof(int));
  R->inq = calloc((size_t)mr + 1, 1);
  if (!R->beg || !R->col || !R->val || !R->queue || !R->inq) return 0;
  /* (the cut rows are left empty: dense, and rarely worth propagating) */
  for (int p = 0; p < cbeg[n]; p++)
    if (cidx[p] < mr0) R->beg[cidx[p] + 2]++;
  for (int i = 0; i < mr; i++) R->beg[i + 2] += R->beg[i + 1];
  for (int j = 0; j < n; j++)
    for (int p = cbeg[j]; p < cbeg[j + 1]; p++) {
      if (cidx[p] >= mr0) continue;
      int q = R->beg[cidx[p] + 1]++;
      R->col[q] = j;
      R->val[q] = cval[p];
    }
  return 1;
}

void twill_bb_prop_free(csr *R) {
  free(R->beg);
  free(R->col);
  free(R->val);
  free(R->queue);
  free(R->inq);
}
