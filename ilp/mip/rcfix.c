/* ilp/mip/rcfix.c: reduced-cost fixing.
 *
 * At an LP optimum z with incumbent U, a nonbasic integer x_j at its lower
 * bound l with reduced cost d_j > 0 satisfies  z + d_j (x_j - l) <= U  in
 * every better solution, so x_j <= l + floor((U - z)/d_j) (symmetric at the
 * upper bound).  The fixings are bound changes of the node, inherited by
 * both children.
 *
 * With a certificate, each fixing is a derived line (ilp/cert/derive.c's
 * derive_rcfix, from this node's multipliers and the incumbent's cutoff),
 * so the bound is taken with a margin for the exact recomputation: the
 * bound the rounded multipliers prove is within about 1e-9 |z| of z.  The
 * cutoff there is the SOL section's solution, which must be exactly
 * feasible (for a mixed model an exact vertex, its value rounded up by
 * about 1e-12 relative); when none is, the writer fails and `twill ilp`
 * solves again without fixings.  In a mixed model they stop below depth
 * FIX_DEPTH_MIXED (measured below).  The certificate spends about terms
 * (every multiplier and remainder of the node) plus 2 sqrt(terms) a fixing,
 * so the certified fixings stop at FIX_TERMS terms in all (about 20 bytes
 * each); the first, at the root and near it, are those that fix the most.
 */
#include <math.h>
#include <stdlib.h>

#include "search.h"

#define FIX_TERMS 20000000L /* certified reduced-cost fixings: their terms in all */
/* Certified fixings of a mixed model only down to this depth: at every
 * depth they doubled modglob's certificate (447 to 895 MB; vpm2 301 to
 * 670 MB, pk1 333 to 715 MB) for no fewer nodes, while bell3a and fiber
 * gain most from those near the root (bell3a: 56481 nodes without, 41913
 * to depth 10, 22691 at every depth; fiber 1175, 267).  With 10, the
 * certificates of modglob, vpm2 and pk1 stay within 15% of none. */
#define FIX_DEPTH_MIXED 10

int twill_bb_rcfix(search *S) {
  twill_ilp *m = S->m;
  node *cur = S->cur;
  bb_rec *rec = &m->rec[cur->rec];
  const signed char *basis = S->basis;
  double *dred = S->dred, inc = S->inc, z = S->z;
  int n = S->n;
  int fix_here = !m->opt.certify ||
                 (S->fix_terms < FIX_TERMS && (S->nint == n || cur->depth <= FIX_DEPTH_MIXED));
  if (!(inc < HUGE_VAL && m->opt.rcfix && fix_here)) return 0;
  twill_lps_get_dual(S->lp, NULL, dred);
  double gap = inc - z, eps = 1e-9, dmin = 1e-7;
  long terms = 0; /* the size of one fixing's line in the certificate */
  if (m->opt.certify) {
    gap += 1e-6 * (1 + fabs(z)) + 1e-6 * (1 + fabs(inc));
    eps = 1e-3;
    dmin = 1e-5;
    for (int j = 0; j < n; j++) terms += dred[j] != 0;
    for (int k = 0; k < S->mlp && rec->y; k++) terms += rec->y[S->lprow[k]] != 0;
  }
  int nfixed = 0;
  for (int j = 0; j < n && S->fix_terms < FIX_TERMS; j++) {
    if (m->vtype[j] == TWILL_ILP_CONTINUOUS || basis[j] == 0) continue;
    double l, u;
    twill_lps_get_bounds(S->lp, j, &l, &u);
    double nl = l, nu = u;
    if (basis[j] == 1 && dred[j] > dmin && u - l > gap / dred[j] + eps)
      nu = l + floor(gap / dred[j] + eps);
    else if (basis[j] == 2 && dred[j] < -dmin && u - l > gap / -dred[j] + eps)
      nl = u - floor(gap / -dred[j] + eps);
    if (nl == l && nu == u) continue;
    if (m->opt.certify) {
      bb_prop *pp = realloc(rec->prop, (size_t)(rec->nprop + 1) * sizeof *pp);
      if (!pp) return -1;
      rec->prop = pp;
      pp[rec->nprop].var = j;
      pp[rec->nprop].row = -1;
      pp[rec->nprop].up = nu < u;
      pp[rec->nprop].side = 0;
      pp[rec->nprop++].val = nu < u ? nu : nl;
      /* a block line per sqrt(terms) fixings, and their own lines */
      S->fix_terms += (long)(2 * sqrt((double)terms)) + (nfixed++ == 0 ? terms : 0);
    }
    if (!twill_bb_push_change(cur, j, nl, nu)) return -1;
  }
  return 0;
}
