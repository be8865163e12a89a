/* ilp/cert/derive.c: the certificate's derived bounds and rows: bounds
 * from one row and the others' bounds (propagation, implied bounds), a row
 * that cannot be met (a conflict), reduced-cost fixings from the cutoff,
 * and the root cuts from their splits (writer.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../log.h"
#include "writer.h"

/* The multiplier -a_ik/a_ij of x_k's bound in derive_bound, as its
 * numerator -a_ik * ten over the shared denominator; returns 1 when it is
 * x_k's upper bound that enters (the multiplier's sign, for a <= (up) or
 * >= combination), 0 for the lower. */
static int bound_multiplier(int *ov, dec *lam, const dec *aik, const dec *ten, int up) {
  twill_dec_mul(ov, lam, aik, ten);
  dneg(lam);
  return up ? dsign(lam) > 0 : dsign(lam) < 0;
}

/* Derived bound on x_j from row i (side 0: its <= side, 1: its >= side)
 * and the current bounds of the row's other variables:  the row times
 * 1/a_ij plus, for every other x_k, its bound times -a_ik/a_ij (the upper
 * bound where that multiplier must be >= 0 in a <= combination, ...) is
 * exactly  x_j <= R  (up) or  x_j >= R.  With rnd (x_j integer, val an
 * integer) the line is a `rnd` (floor or ceil of R), else a `lin`; either
 * way the line states val, checked here to be implied.  All multipliers
 * share the denominator A of 1/a_ij = +-10^e / A.  Returns the index of
 * the derived line, -1 when some bound is missing or val is not implied. */
int twill_vw_derive_bound(W *w, int i, int side, int j, int up, double val, int rnd) {
  int ci = side ? w->rG[i] : w->rL[i];
  if (ci < 0) return -1;
  int pj = -1;
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++)
    if (w->rcol[q] == j) pj = w->rpos[q];
  if (pj < 0 || !dsign(&w->aval[pj])) return -1;
  /* the result is <= (up) when a_ij > 0 on the <= side, or a_ij < 0 on
   * the >= side */
  int asg = dsign(&w->aval[pj]);
  if (up != ((asg > 0) == (side == 0))) return -1;
  dec A, ten, N, t;
  int e;
  twill_dec_mant(&A, &e, &w->aval[pj]);
  twill_dec_parse(&w->overflow, &ten, "1");
  twill_dec_scale(&w->overflow, &ten, e);
  if (asg < 0) dneg(&ten); /* numerator of 1/a_ij */
  twill_dec_mul(&w->overflow, &N, &ten, side ? &w->rl[i] : &w->rh[i]);
  int cnt = 1;
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (k == j || !dsign(&w->aval[p])) continue;
    dec lam;
    int useup = bound_multiplier(&w->overflow, &lam, &w->aval[p], &ten, up);
    if ((useup ? w->uidx[k] : w->lidx[k]) < 0) return -1;
    dec bv;
    twill_dec_from(&w->overflow, &bv, useup ? w->curu[k] : w->curl[k]);
    twill_dec_mul(&w->overflow, &t, &lam, &bv);
    twill_dec_add(&w->overflow, &N, &N, &t);
    cnt++;
  }
  /* R = N / A against val */
  dec v, vA;
  twill_dec_from(&w->overflow, &v, val);
  if (rnd) {
    dec one;
    twill_dec_parse(&w->overflow, &one, "1");
    if (!up) dneg(&one);
    twill_dec_add(&w->overflow, &v, &v, &one); /* val + 1 (up) or val - 1 */
  }
  twill_dec_mul(&w->overflow, &vA, &v, &A);
  int c = twill_dec_cmp(&w->overflow, &N, &vA);
  if (rnd ? (up ? c >= 0 : c <= 0) : (up ? c > 0 : c < 0)) return -1;
  if (w->overflow) return -1;
  if (rnd && cnt == 1 && w->rG[i] == w->rL[i]) {
    /* an equality alone: the combination is an equality, which `rnd` does
     * not round; state x_j <= R (>= R) first */
    int d1 = w->base + w->nder++;
    fprintf(w->out, "D%d %s ", d1, up ? "L" : "G");
    twill_dec_print_frac(&w->overflow, w->out, &N, &A);
    fprintf(w->out, " 1 %d 1 { lin 1  %d ", j, ci);
    twill_dec_print_frac(&w->overflow, w->out, &ten, &A);
    fprintf(w->out, " } -1\n");
    int idx = w->base + w->nder++;
    dec shown;
    twill_dec_from(&w->overflow, &shown, val);
    fprintf(w->out, "D%d %s ", idx, up ? "L" : "G");
    twill_dec_print(w->out, &shown);
    fprintf(w->out, " 1 %d 1 { rnd 1  %d 1 } -1\n", j, d1);
    return idx;
  }
  int idx = w->base + w->nder++;
  dec shown;
  twill_dec_from(&w->overflow, &shown, val);
  fprintf(w->out, "D%d %s ", idx, up ? "L" : "G");
  twill_dec_print(w->out, &shown);
  fprintf(w->out, " 1 %d 1 { %s %d  %d ", j, rnd ? "rnd" : "lin", cnt, ci);
  twill_dec_print_frac(&w->overflow, w->out, &ten, &A);
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (k == j || !dsign(&w->aval[p])) continue;
    dec lam;
    int useup = bound_multiplier(&w->overflow, &lam, &w->aval[p], &ten, up);
    fprintf(w->out, "  %d ", useup ? w->uidx[k] : w->lidx[k]);
    twill_dec_print_frac(&w->overflow, w->out, &lam, &A);
  }
  fprintf(w->out, " } -1\n");
  return idx;
}

/* Row i (side 0: <=, 1: >=) cannot be met within the current bounds:
 * the row times -1 (<=) or 1 (>=) plus every bound of its variables at
 * the side that extremizes the activity gives 0 >= beta with beta > 0.
 * Returns the derived index (*beta set), -1 when beta is not positive. */
int twill_vw_derive_conflict(W *w, int i, int side, dec *beta) {
  int ci = side ? w->rG[i] : w->rL[i];
  if (ci < 0) return -1;
  dec b, t, gs;
  twill_dec_parse(&w->overflow, &gs, side ? "1" : "-1");
  twill_dec_mul(&w->overflow, &b, &gs, side ? &w->rl[i] : &w->rh[i]);
  int cnt = 1;
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (!dsign(&w->aval[p])) continue;
    dec lam;
    twill_dec_mul(&w->overflow, &lam, &w->aval[p], &gs);
    dneg(&lam);
    int uselo = dsign(&lam) > 0;
    if ((uselo ? w->lidx[k] : w->uidx[k]) < 0) return -1;
    dec bv;
    twill_dec_from(&w->overflow, &bv, uselo ? w->curl[k] : w->curu[k]);
    twill_dec_mul(&w->overflow, &t, &lam, &bv);
    twill_dec_add(&w->overflow, &b, &b, &t);
    cnt++;
  }
  if (dsign(&b) <= 0 || w->overflow) return -1;
  int idx = w->base + w->nder++;
  fprintf(w->out, "D%d G ", idx);
  twill_dec_print(w->out, &b);
  fprintf(w->out, " 0 { lin %d  %d ", cnt, ci);
  twill_dec_print(w->out, &gs);
  for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
    int k = w->rcol[q], p = w->rpos[q];
    if (!dsign(&w->aval[p])) continue;
    dec lam;
    twill_dec_mul(&w->overflow, &lam, &w->aval[p], &gs);
    dneg(&lam);
    int uselo = dsign(&lam) > 0;
    fprintf(w->out, "  %d ", uselo ? w->lidx[k] : w->uidx[k]);
    twill_dec_print(w->out, &lam);
  }
  fprintf(w->out, " } -1\n");
  *beta = b;
  return idx;
}

/* Reduced-cost fixings at node v, from its LP multipliers y.  With the
 * exact combination  q s c'x = yr'Ax + sum_k r_k x_k  (dual_combination),
 * the incumbent's cutoff  s c'x <= s best  (the `sol` line) and the rows
 * give  r'x <= q s best - yr'(sides).  For a fixing of x_j (r_j > 0 at its
 * lower bound: x_j <= val; r_j < 0 at its upper: x_j >= val) the bounds of
 * every other x_k then give  r_j x_j <= G_j,  rounded.  Listing all those
 * bounds in each fixing's line costs n terms a fixing (cap6000: 6000 x
 * thousands), so the fixings go in blocks of about sqrt(n): one `lin` line
 * per block, H_b:  sum_{j in b} r_j x_j <= G_b,  takes the sol line, the
 * rows and the bounds outside the block; each fixing is then a `rnd` of
 * H_b over r_j and the bounds of the rest of its block.  out[t] gets the
 * line of fixing t.  Returns 0, -1 when some fixing is not implied. */
static int rcfix_block(W *w, const dec *yr, const int *yc, const dec *q, const dec *brow,
                       const bb_prop *fx, int nb, int *out, char *inb) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, cnt = 1;
  dec G, t;
  dec sbest = w->best;
  if (w->s < 0) dneg(&sbest);
  twill_dec_mul(&w->overflow, &G, q, &sbest);
  dec nb_ = *brow;
  dneg(&nb_);
  twill_dec_add(&w->overflow, &G, &G, &nb_);
  for (int t2 = 0; t2 < nb; t2++) inb[fx[t2].var] = 1;
  for (int i = 0; i < mr; i++) cnt += yc[i] >= 0;
  for (int k = 0; k < n; k++) {
    int sgn = dsign(&w->r[k]);
    if (inb[k] || !sgn) continue;
    if ((sgn > 0 ? w->lidx[k] : w->uidx[k]) < 0) return -1;
    dec bv;
    twill_dec_from(&w->overflow, &bv, sgn > 0 ? w->curl[k] : w->curu[k]);
    twill_dec_mul(&w->overflow, &t, &w->r[k], &bv);
    dneg(&t);
    twill_dec_add(&w->overflow, &G, &G, &t);
    cnt++;
  }
  if (w->overflow) return -1;
  int h = w->base + w->nder++;
  fprintf(w->out, "D%d L ", h);
  twill_dec_print(w->out, &G);
  fprintf(w->out, " %d", nb);
  for (int t2 = 0; t2 < nb; t2++) {
    fprintf(w->out, "  %d ", fx[t2].var);
    twill_dec_print(w->out, &w->r[fx[t2].var]);
  }
  fprintf(w->out, " { lin %d  %d ", cnt, w->solidx);
  twill_dec_parse(&w->overflow, &t, w->s < 0 ? "-1" : "1"); /* s q */
  twill_dec_mul(&w->overflow, &t, &t, q);
  twill_dec_print(w->out, &t);
  for (int i = 0; i < mr; i++) {
    if (yc[i] < 0) continue;
    t = yr[i];
    dneg(&t);
    fprintf(w->out, "  %d ", yc[i]);
    twill_dec_print(w->out, &t);
  }
  for (int k = 0; k < n; k++) {
    int sgn = dsign(&w->r[k]);
    if (inb[k] || !sgn) continue;
    t = w->r[k];
    dneg(&t);
    fprintf(w->out, "  %d ", sgn > 0 ? w->lidx[k] : w->uidx[k]);
    twill_dec_print(w->out, &t);
  }
  fprintf(w->out, " } -1\n");
  /* each fixing of the block */
  for (int a = 0; a < nb; a++) {
    int j = fx[a].var, up = fx[a].up, rs = dsign(&w->r[j]);
    dec Gj = G, A, ten, v, one;
    for (int c = 0; c < nb; c++) {
      int k = fx[c].var, sgn = dsign(&w->r[k]);
      if (c == a) continue;
      if ((sgn > 0 ? w->lidx[k] : w->uidx[k]) < 0) return -1;
      dec bv;
      twill_dec_from(&w->overflow, &bv, sgn > 0 ? w->curl[k] : w->curu[k]);
      twill_dec_mul(&w->overflow, &t, &w->r[k], &bv);
      dneg(&t);
      twill_dec_add(&w->overflow, &Gj, &Gj, &t);
    }
    /* Gj against (val + 1) r_j (up) or (val - 1) r_j */
    twill_dec_parse(&w->overflow, &one, up ? "1" : "-1");
    twill_dec_from(&w->overflow, &v, fx[a].val);
    twill_dec_add(&w->overflow, &v, &v, &one);
    twill_dec_mul(&w->overflow, &t, &v, &w->r[j]);
    if (twill_dec_cmp(&w->overflow, &Gj, &t) >= 0 || w->overflow) return -1;
    /* the multipliers over r_j = sign 10^-e A: numerators times sign 10^e */
    int e;
    twill_dec_mant(&A, &e, &w->r[j]);
    twill_dec_parse(&w->overflow, &ten, "1");
    twill_dec_scale(&w->overflow, &ten, e);
    if (rs < 0) dneg(&ten);
    out[a] = w->base + w->nder++;
    twill_dec_from(&w->overflow, &v, fx[a].val);
    fprintf(w->out, "D%d %s ", out[a], up ? "L" : "G");
    twill_dec_print(w->out, &v);
    fprintf(w->out, " 1 %d 1 { rnd %d  %d ", j, nb, h);
    twill_dec_print_frac(&w->overflow, w->out, &ten, &A);
    for (int c = 0; c < nb; c++) {
      int k = fx[c].var, sgn = dsign(&w->r[k]);
      if (c == a) continue;
      twill_dec_mul(&w->overflow, &t, &w->r[k], &ten);
      dneg(&t);
      fprintf(w->out, "  %d ", sgn > 0 ? w->lidx[k] : w->uidx[k]);
      twill_dec_print_frac(&w->overflow, w->out, &t, &A);
    }
    fprintf(w->out, " } -1\n");
  }
  return 0;
}

int twill_vw_derive_rcfix(W *w, const double *y, const bb_prop *fx, int nf, int *out) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, ret = -1;
  if (w->solidx < 0 || !y) return -1;
  dec *yr = calloc((size_t)mr + 1, sizeof(dec));
  int *yc = calloc((size_t)mr + 1, sizeof(int));
  char *inb = calloc((size_t)n + 1, 1);
  dec q, b;
  if (!yr || !yc || !inb) goto out;
  if (twill_vw_dual_combination(w, y, 1.0, 0, yr, yc, &q, &b) != 1) goto out;
  int nr = 0;
  for (int k = 0; k < n; k++) nr += dsign(&w->r[k]) != 0;
  for (int t = 0; t < nf; t++)
    if (dsign(&w->r[fx[t].var]) != (fx[t].up ? 1 : -1)) goto out;
  int B = (int)sqrt((double)nr) + 1;
  for (int t = 0; t < nf; t += B) {
    int nb = nf - t < B ? nf - t : B;
    int rc = rcfix_block(w, yr, yc, &q, &b, fx + t, nb, out + t, inb);
    for (int c = 0; c < nb; c++) inb[fx[t + c].var] = 0;
    if (rc < 0) goto out;
  }
  ret = 0;
out:
  free(yr);
  free(yc);
  free(inb);
  return ret;
}

/* 1 when some remainder r_j lands on a side where x_j has no bound */
static int unbounded_remainder(const W *w) {
  for (int j = 0; j < w->m->n; j++) {
    int sg = dsign(&w->r[j]);
    if (sg && (sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) return 1;
  }
  return 0;
}

/* *out = a decimal d within about 1e-12 relative of num / den (den > 0),
 * on the side `side` says: d >= num / den for +1, d <= num / den for -1;
 * checked exactly by multiplying back (out may be num).  Returns 0, or -1
 * when the check fails (dratio off on huge numbers). */
int twill_vw_decimal_near(int *ov, dec *out, const dec *num, const dec *den, int side) {
  double v = twill_dec_ratio(num, den);
  dec d, t;
  twill_dec_round(ov, &d, v + side * 1e-12 * (1 + fabs(v)), 15);
  twill_dec_mul(ov, &t, &d, den);
  if (*ov || (side > 0 ? twill_dec_cmp(ov, &t, num) < 0 : twill_dec_cmp(ov, &t, num) > 0)) return -1;
  *out = d;
  return 0;
}

/* A cut side whose rows leave a tiny remainder on an unbounded side of a
 * variable (ilp/cuts/cuts.c adds no safety margin where the cut and the split give
 * a variable coefficient 0 and only the rows touch it: those margins made
 * modglob's cuts dense and its root weaker).  twill_vw_repair() shifts row
 * multipliers exactly as at a leaf; everything then is a numerator over
 * *q: mu, the remainders, and *b = lam q prhs + sum mu side (the caller
 * adds the bound terms, sum r bound).
 * *mu and *mi grow to the rows twill_vw_repair() touched.  Returns 0, or -1 when
 * no repair works. */
static int cut_repair(W *w, const dec *lam, const dec *prhs, dec **mu, int **mi, int *nm,
                      dec *b, dec *q) {
  const twill_ilp *m = w->m;
  int mr = m->m, ret = -1;
  dec *yr = calloc((size_t)mr + 1, sizeof(dec));
  int *yc = calloc((size_t)mr + 1, sizeof(int));
  dec *nmu = calloc((size_t)mr + 1, sizeof(dec));
  int *nmi = calloc((size_t)mr + 1, sizeof(int));
  if (!yr || !yc || !nmu || !nmi) goto done;
  for (int k = 0; k < *nm; k++) yr[(*mi)[k]] = (*mu)[k];
  if (!twill_vw_repair(w, yr, yc, q)) goto done;
  if (twill_ilp_logs(m, 1)) twill_ilp_log(m, 1, "vipr: cut side repaired (over %.3g)", twill_dec_approx(q));
  dec t;
  twill_dec_mul(&w->overflow, b, lam, q);
  twill_dec_mul(&w->overflow, b, b, prhs);
  int k = 0;
  for (int i = 0; i < mr; i++) {
    int sg = dsign(&yr[i]);
    if (!sg) continue;
    if ((sg > 0 ? w->rG[i] : w->rL[i]) < 0) goto done;
    twill_dec_mul(&w->overflow, &t, &yr[i], sg > 0 ? &w->rl[i] : &w->rh[i]);
    twill_dec_add(&w->overflow, b, b, &t);
    nmu[k] = yr[i];
    nmi[k++] = i;
  }
  free(*mu);
  free(*mi);
  *mu = nmu;
  *mi = nmi;
  nmu = NULL;
  nmi = NULL;
  *nm = k;
  ret = w->overflow ? -1 : 0;
done:
  free(yr);
  free(yc);
  free(nmu);
  free(nmi);
  return ret;
}

/* The lines of one side of a cut's split (see ilp_cut in model.h and
 * ilp/cuts/): the side as an assumption (A aidx), then the cut c'x >= D_side
 * as `lin` of the side times -lam (side 0, a <= row) or lam (side 1), the
 * rows times their multipliers (12 significant digits; one whose row side
 * does not exist is left out) and, for every x_j, the bound that cancels
 * the remainder r_j = c_j - (the rest)_j exactly.  A remainder with no
 * bound on its side goes to cut_repair, and the multipliers are then
 * fractions over its q.  Returns the index of the `lin` line (*D its
 * right-hand side), -1 when some remainder has no bound to land on and no
 * repair works (nothing is printed then). */
static int cut_side(W *w, const ilp_cut *ct, int side, int print, int *aidx, dec *D) {
  const twill_ilp *m = w->m;
  int n = m->n, row = ct->row;
  dec lam, t, b;
  twill_dec_round(&w->overflow, &lam, ct->lam[side], 15);
  if (!side) dneg(&lam);
  dec *mu = calloc((size_t)ct->nmu[side] + 1, sizeof(dec));
  int *mi = calloc((size_t)ct->nmu[side] + 1, sizeof(int));
  if (!mu || !mi) { free(mu); free(mi); return -1; }
  for (int j = 0; j < n; j++) dzero(&w->r[j]);
  /* r = c - (lam pi + sum mu_i a_i), b = lam side_rhs + sum mu_i side_i */
  for (int q = w->rbeg[row]; q < w->rbeg[row + 1]; q++) w->r[w->rcol[q]] = w->aval[w->rpos[q]];
  dec prhs;
  twill_dec_from(&w->overflow, &prhs, side ? ct->p0 + 1 : ct->p0);
  twill_dec_mul(&w->overflow, &b, &lam, &prhs);
  for (int k = 0; k < ct->npi; k++) {
    dec pv;
    twill_dec_from(&w->overflow, &pv, ct->pval[k]);
    twill_dec_mul(&w->overflow, &t, &lam, &pv);
    dneg(&t);
    twill_dec_add(&w->overflow, &w->r[ct->pidx[k]], &w->r[ct->pidx[k]], &t);
  }
  int nm = 0;
  for (int k = 0; k < ct->nmu[side]; k++) {
    int i = ct->midx[side][k];
    double v = ct->mval[side][k];
    if (fabs(v) < 1e-13) continue;
    int ci = v > 0 ? w->rG[i] : w->rL[i];
    if (ci < 0) continue;
    twill_dec_round(&w->overflow, &mu[nm], v, 12);
    mi[nm] = i;
    twill_dec_mul(&w->overflow, &t, &mu[nm], v > 0 ? &w->rl[i] : &w->rh[i]);
    twill_dec_add(&w->overflow, &b, &b, &t);
    for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
      twill_dec_mul(&w->overflow, &t, &mu[nm], &w->aval[w->rpos[q]]);
      dneg(&t);
      twill_dec_add(&w->overflow, &w->r[w->rcol[q]], &w->r[w->rcol[q]], &t);
    }
    nm++;
  }
  dec qd;
  twill_dec_parse(&w->overflow, &qd, "1");
  int fr = unbounded_remainder(w);
  if (fr && cut_repair(w, &lam, &prhs, &mu, &mi, &nm, &b, &qd)) {
    free(mu);
    free(mi);
    return -1;
  }
  int cnt = 1 + nm;
  for (int j = 0; j < n; j++) { /* (numerators over q after a repair) */
    int sg = dsign(&w->r[j]);
    if (!sg) continue;
    dec bv;
    twill_dec_from(&w->overflow, &bv, sg > 0 ? w->curl[j] : w->curu[j]);
    twill_dec_mul(&w->overflow, &t, &w->r[j], &bv);
    twill_dec_add(&w->overflow, &b, &b, &t);
    cnt++;
  }
  /* the stated rhs after a repair: a decimal <= b / q */
  int qone = qd.n == 1 && qd.d[0] == 1 && qd.e == 0;
  if (w->overflow || (fr && !qone && twill_vw_decimal_near(&w->overflow, &b, &b, &qd, -1))) {
    free(mu);
    free(mi);
    return -1;
  }
  if (!print) {
    *D = b;
    free(mu);
    free(mi);
    return 0;
  }
  /* the assumption, then the combination */
  *aidx = w->base + w->nder++;
  fprintf(w->out, "A%d %s ", *aidx, side ? "G" : "L");
  twill_dec_print(w->out, &prhs);
  fprintf(w->out, " %d", ct->npi);
  for (int k = 0; k < ct->npi; k++) {
    dec pv;
    twill_dec_from(&w->overflow, &pv, ct->pval[k]);
    fprintf(w->out, "  %d ", ct->pidx[k]);
    twill_dec_print(w->out, &pv);
  }
  fprintf(w->out, " { asm } -1\n");
  int idx = w->base + w->nder++;
  fprintf(w->out, "D%d G ", idx);
  twill_dec_print(w->out, &b);
  fprintf(w->out, " %d", w->rbeg[row + 1] - w->rbeg[row]);
  for (int q = w->rbeg[row]; q < w->rbeg[row + 1]; q++) {
    fprintf(w->out, "  %d ", w->rcol[q]);
    twill_dec_print(w->out, &w->aval[w->rpos[q]]);
  }
  fprintf(w->out, " { lin %d  %d ", cnt, *aidx);
  twill_dec_print(w->out, &lam);
  for (int k = 0; k < nm; k++) {
    int i = mi[k];
    fprintf(w->out, "  %d ", dsign(&mu[k]) > 0 ? w->rG[i] : w->rL[i]);
    twill_dec_print_frac(&w->overflow, w->out, &mu[k], &qd);
  }
  for (int j = 0; j < n; j++) {
    int sg = dsign(&w->r[j]);
    if (!sg) continue;
    fprintf(w->out, "  %d ", sg > 0 ? w->lidx[j] : w->uidx[j]);
    twill_dec_print_frac(&w->overflow, w->out, &w->r[j], &qd);
  }
  fprintf(w->out, " } -1\n");
  *D = b;
  free(mu);
  free(mi);
  return idx;
}

/* Derive every root cut (in order: a cut may use earlier ones) and make
 * its row usable: c'x >= min(D_0, D_1) by `uns` of the two sides.  A cut
 * that cannot be derived stays unusable (its multipliers are dropped at
 * the leaves, which then may fail to close). */
void twill_vw_derive_cuts(W *w) {
  const twill_ilp *m = w->m;
  for (int k = 0; k < m->ncut; k++) {
    const ilp_cut *ct = &m->cut[k];
    int a[2], d[2];
    dec D[2];
    /* a dry run of both sides first: nothing is printed for a cut that
     * fails */
    if (cut_side(w, ct, 0, 0, &a[0], &D[0]) < 0 || cut_side(w, ct, 1, 0, &a[1], &D[1]) < 0)
      continue;
    d[0] = cut_side(w, ct, 0, 1, &a[0], &D[0]);
    d[1] = cut_side(w, ct, 1, 1, &a[1], &D[1]);
    if (d[0] < 0 || d[1] < 0) { w->fail = 1; return; }
    dec *Dm = twill_dec_cmp(&w->overflow, &D[0], &D[1]) <= 0 ? &D[0] : &D[1];
    int idx = w->base + w->nder++;
    int row = ct->row;
    fprintf(w->out, "C%d G ", idx);
    twill_dec_print(w->out, Dm);
    fprintf(w->out, " %d", w->rbeg[row + 1] - w->rbeg[row]);
    for (int q = w->rbeg[row]; q < w->rbeg[row + 1]; q++) {
      fprintf(w->out, "  %d ", w->rcol[q]);
      twill_dec_print(w->out, &w->aval[w->rpos[q]]);
    }
    fprintf(w->out, " { uns %d %d  %d %d } -1\n", d[0], a[0], d[1], a[1]);
    w->rG[row] = idx;
    w->rl[row] = *Dm;
  }
}

/* Implied bounds, derived once before the tree: a variable with an
 * infinite bound whose residual reduced cost at a leaf lands on that side
 * (floating-point noise of the duals, e.g. a basic continuous variable)
 * could not be cancelled.  Where a row bounds such a variable through the
 * finite bounds of its other variables, that bound is derived (a `lin`,
 * stated a little weaker than the floating-point value so that it is
 * exactly implied) and used like a bound of the model.  The tightest row
 * in floating point is taken. */
void twill_vw_implied_bounds(W *w, const double *cval) {
  const twill_ilp *m = w->m;
  int n = m->n, more = 1;
  /* a few passes: a bound found later can bound another variable */
  for (int pass = 0; pass < 8 && more; pass++) {
  more = 0;
  for (int j = 0; j < n; j++)
    for (int up = 0; up < 2; up++) {
      if ((up ? w->uidx[j] : w->lidx[j]) >= 0) continue;
      double best = up ? HUGE_VAL : -HUGE_VAL;
      int brow = -1, bside = 0;
      for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
        int i = w->cidx[p];
        double aij = cval[p];
        if (aij == 0 || i >= m->m - m->ncut) continue; /* cuts: not derived yet */
        /* side 0 bounds x_j above when a_ij > 0, side 1 when a_ij < 0 */
        int side = up ? (aij > 0 ? 0 : 1) : (aij > 0 ? 1 : 0);
        double rhs = side ? m->rlo[i] : m->rhi[i];
        if (isinf(rhs)) continue;
        double sum = rhs, mag = fabs(rhs);
        int ok = 1;
        for (int q = w->rbeg[i]; q < w->rbeg[i + 1] && ok; q++) {
          int k = w->rcol[q];
          if (k == j) continue;
          double lam = -cval[w->rpos[q]] / aij;
          int useup = up ? lam > 0 : lam < 0;
          if ((useup ? w->uidx[k] : w->lidx[k]) < 0) { ok = 0; break; }
          double bv = useup ? w->curu[k] : w->curl[k];
          sum += cval[w->rpos[q]] * -bv;
          mag += fabs(cval[w->rpos[q]] * bv);
        }
        if (!ok) continue;
        double t = sum / aij, slack = (1e-9 * mag + 1e-9) / fabs(aij);
        t = up ? t + slack : t - slack;
        if (fabs(t) > 1e12) continue;
        if (up ? t < best : t > best) { best = t; brow = i; bside = side; }
      }
      if (brow < 0) continue;
      char buf[64];
      snprintf(buf, sizeof buf, "%.12g", best);
      double val = strtod(buf, NULL);
      if (up ? val < best : val > best) val = up ? nextafter(val, HUGE_VAL) : nextafter(val, -HUGE_VAL);
      int d = twill_vw_derive_bound(w, brow, bside, j, up, val, 0);
      if (d < 0) continue;
      if (up) { w->uidx[j] = d; w->curu[j] = val; }
      else { w->lidx[j] = d; w->curl[j] = val; }
      more = 1;
    }
  }
}
