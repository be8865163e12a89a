/* ilp/cert/leaf.c: a leaf of the tree closed in the certificate: the node
 * LP's multipliers made an exact combination (rounded, projected,
 * repaired), or the root LP's exact duals from its basis (see writer.h and
 * vipr_write.c for the leaf's argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../exact/bigq.h"
#include "../exact/exact_basis.h"
#include "../exact/qsys.h"
#include "../log.h"
#include "writer.h"

/* The cost of repairing column j through the row of CSC position p: the
 * number of the row's other columns that the shift would push onto a side
 * with no bound (a new residual to repair), times 4, plus 2 for a cut row
 * (its multiplier moves the reduced costs of many columns) and 1 for a row
 * with no multiplier yet.  Estimated in floating point; only the choice
 * depends on it, the shift itself is exact.  -1: the row's multiplier
 * cannot take the sign the shift needs. */
static int repair_cost(const W *w, const dec *yr, int j, int p) {
  const twill_ilp *m = w->m;
  int i = w->cidx[p];
  if (!dsign(&w->aval[p])) return -1;
  /* the multiplier after the shift, y_i + r_j / a_ij, must have a side */
  double aij = twill_dec_approx(&w->aval[p]);
  double ny = twill_dec_ratio(&yr[i], &w->r[j]) + 1 / aij; /* divided by r_j */
  int ns = (ny > 0) == (dsign(&w->r[j]) > 0) ? 1 : -1;
  if ((ns > 0 ? w->rG[i] : w->rL[i]) < 0) return -1;
  int cost = (i >= m->m - m->ncut ? 2 : 0) + (dsign(&yr[i]) ? 0 : 1);
  for (int t = w->rbeg[i]; t < w->rbeg[i + 1]; t++) {
    int k = w->rcol[t];
    if (k == j || (w->lidx[k] >= 0 && w->uidx[k] >= 0)) continue;
    /* r_k - a_ik r_j / a_ij, divided by r_j (the numerators over a long
     * denominator can exceed the double range) */
    double nr = (twill_dec_ratio(&w->r[k], &w->r[j]) - twill_dec_approx(&w->aval[w->rpos[t]]) / aij) *
                dsign(&w->r[j]);
    if ((nr > 0 && w->lidx[k] < 0) || (nr < 0 && w->uidx[k] < 0)) cost += 4;
  }
  return cost;
}

/* Repair (exactly) a residual reduced cost r_j != 0 on a variable with no
 * bound on the side it needs: shift the multiplier of a row i of column j
 * by r_j / a_ij, which makes r_j exactly 0 and moves the reduced costs of
 * the row's other variables by tiny amounts (cancelled by their bounds, or
 * repaired in turn).  The row is the one whose shift pushes the fewest
 * other columns onto an unbounded side (repair_cost): taking the first
 * row could shift one row back and forth between two columns for ever
 * (pp08a's stock and backlog columns share their balance rows).
 * Division is avoided with a common denominator: the
 * multipliers and reduced costs are numerators over the integer *q; with
 * a_ij = +-A 10^-e (A an integer), everything is multiplied by A, and the
 * shift's numerator is +-r_j 10^e.  Returns 1 when every residual has a
 * bound to land on. */
int twill_vw_repair(W *w, dec *yr, int *yc, dec *q) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, ret = 0;
  int *uses = calloc((size_t)mr + 1, sizeof(int));
  if (!uses) return 0;
  for (int pass = 0; pass < 2 * n + 8; pass++) {
    int bad = -1;
    for (int j = 0; j < n && bad < 0; j++) {
      int sg = dsign(&w->r[j]);
      if (sg && (sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) bad = j;
    }
    if (bad < 0) { ret = 1; break; }
    int j = bad, row = -1, rp = -1, best = -1;
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      /* a row used before costs more: two columns with opposite
       * coefficients in one row would take turns in it (pp08a's S0502
       * and S0503 in PP0503) */
      int cost = repair_cost(w, yr, j, p);
      if (cost >= 0) cost += 3 * uses[w->cidx[p]];
      if (cost >= 0 && (best < 0 || cost < best)) { best = cost; row = w->cidx[p]; rp = p; }
    }
    if (row < 0) {
      if (twill_ilp_logs(m, 1))
        twill_ilp_log(m, 1, "vipr: repair: no row can take x%d's remainder %.3g", j,
                      twill_dec_ratio(&w->r[j], q));
      break;
    }
    uses[row]++;
    dec A = w->aval[rp];
    int e = A.e, as = dsign(&A);
    A.e = 0;
    A.neg = 0;
    dec rj = w->r[j];
    for (int i = 0; i < mr; i++) twill_dec_mul(&w->overflow, &yr[i], &yr[i], &A);
    for (int k = 0; k < n; k++) twill_dec_mul(&w->overflow, &w->r[k], &w->r[k], &A);
    twill_dec_mul(&w->overflow, q, q, &A);
    dec delta = rj; /* +-r_j 10^e */
    twill_dec_scale(&w->overflow, &delta, e);
    if (as < 0) dneg(&delta);
    twill_dec_add(&w->overflow, &yr[row], &yr[row], &delta);
    for (int t = w->rbeg[row]; t < w->rbeg[row + 1]; t++) {
      dec u;
      twill_dec_mul(&w->overflow, &u, &w->aval[w->rpos[t]], &delta);
      dneg(&u);
      twill_dec_add(&w->overflow, &w->r[w->rcol[t]], &w->r[w->rcol[t]], &u);
    }
    yc[row] = 0; /* set below from the sign */
    if (w->overflow) break;
  }
  free(uses);
  return ret;
}

#define PROJ_MAX 6
/* det of the nt x nt matrix M, its column rc (if >= 0) replaced by v, by
 * Laplace expansion along the last row over column subsets:
 *   g(S) = sum_{j in S} (-1)^{#(S above j)} M[|S|-1][j] g(S - j),  g({}) = 1,
 * det = g(all).  Exact, division free, and the digits grow only linearly
 * (a product of nt entries per term), unlike plain elimination, whose
 * cross-multiplied entries double their length at every pivot.  g is
 * scratch of 2^nt entries; nt <= PROJ_MAX keeps that at 64. */
static void det_subsets(int *ov, dec (*M)[PROJ_MAX], int nt, int rc, const dec *v, dec *g,
                        dec *det) {
  unsigned full = (1u << nt) - 1;
  twill_dec_parse(ov, &g[0], "1");
  for (unsigned S = 1; S <= full; S++) {
    int k = -1, above = 0;
    for (unsigned b = S; b; b &= b - 1) k++;
    dzero(&g[S]);
    for (int j = nt - 1; j >= 0; j--) {
      if (!(S >> j & 1)) continue;
      const dec *e = j == rc ? &v[k] : &M[k][j];
      if (dsign(e)) {
        dec t;
        twill_dec_mul(ov, &t, e, &g[S & ~(1u << j)]);
        if (above & 1) dneg(&t);
        twill_dec_add(ov, &g[S], &g[S], &t);
      }
      above++;
    }
  }
  *det = g[full];
}

/* Exact projection for the variables with an infinite bound (free, or
 * one-sided), done before twill_vw_repair():  T = those whose residual r_j is on a
 * side with no bound, or tiny (it could land there); when some are bad, the
 * row multipliers on |T| rows R (chosen in floating point: rows whose
 * multiplier is clearly nonzero first, then two-sided rows, others last)
 * get a shift dy solving  M dy = r_T  exactly, M_kl = a_{R_l, T_k}, so that
 * every r_j, j in T, becomes exactly 0 while the other reduced costs move
 * by tiny amounts (their bounds absorb them).  The solve is division free,
 * by Cramer's rule: with D = det M and N_l = det M with column l := r_T,
 * the numerators over the new denominator q |D| are  y_R |D| + sgn(D) N_l
 * (N_l times 10^e when D = +-A 10^-e, so that the denominator stays an
 * integer).  (Gauss-Jordan without division, as first written here,
 * squared the entries' length at each pivot and overflowed the 432 digits
 * of a dec at four rows of 12-digit coefficients.)
 * Returns 1 when nothing was bad or the projection left nothing bad (state
 * committed), 0 when it did not apply (state untouched). */
static int project(W *w, dec *yr, dec *q, const double *yf, int farkas) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m;
  int T[PROJ_MAX], nt = 0, nbad = 0;
  int *cand = malloc((size_t)(n ? n : 1) * sizeof(int));
  double *col = malloc(((size_t)PROJ_MAX + 1) * ((size_t)mr + 1) * sizeof(double));
  if (!cand || !col) { free(cand); free(col); return 0; }
  int nc = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int j = 0; j < n; j++) {
      int lo = w->lidx[j] >= 0, hi = w->uidx[j] >= 0;
      if (lo && hi) continue;
      int sg = dsign(&w->r[j]);
      int bad = sg && (sg > 0 ? !lo : !hi);
      int tiny = fabs(twill_dec_ratio(&w->r[j], q)) <= 1e-7;
      if (pass == 0 && bad) { cand[nc++] = j; nbad++; }
      if (pass == 1 && !bad && tiny) cand[nc++] = j;
    }
  if (!nbad) { free(cand); free(col); return 1; }
  /* an independent subset of the candidates' columns (over the rows that
   * can carry a multiplier), bad ones first */
  int cpiv[PROJ_MAX];
  for (int c = 0; c < nc && nt < PROJ_MAX; c++) {
    double *v = col + (size_t)nt * (size_t)mr, vmax = 0;
    for (int i = 0; i < mr; i++) v[i] = 0;
    for (int p = w->cbeg[cand[c]]; p < w->cbeg[cand[c] + 1]; p++) {
      int i = w->cidx[p];
      if (w->rG[i] < 0 && w->rL[i] < 0) continue;
      v[i] = twill_dec_to_double(&w->aval[p]);
      vmax = fmax(vmax, fabs(v[i]));
    }
    if (vmax == 0) continue;
    for (int t = 0; t < nt; t++) {
      const double *u = col + (size_t)t * (size_t)mr;
      double f = v[cpiv[t]] / u[cpiv[t]];
      if (f != 0)
        for (int i = 0; i < mr; i++) v[i] -= f * u[i];
    }
    int pk = -1;
    double best = 1e-9 * vmax;
    for (int i = 0; i < mr; i++)
      if (fabs(v[i]) > best) { best = fabs(v[i]); pk = i; }
    if (pk < 0) continue;
    cpiv[nt] = pk;
    T[nt++] = cand[c];
  }
  free(cand);
  free(col);
  if (!nt) return 0;
  /* rows: greedy rank selection in floating point */
  int R[PROJ_MAX], nr = 0;
  double basis[PROJ_MAX][PROJ_MAX]; /* reduced selected row vectors */
  int bpiv[PROJ_MAX];
  for (int cls = 0; cls < 3 && nr < nt; cls++)
    for (int i = 0; i < mr && nr < nt; i++) {
      int two = w->rG[i] >= 0 && w->rL[i] >= 0;
      int act = fabs(yf[i]) > 1e-9;
      int c = act ? 0 : two ? 1 : 2;
      if (c != cls || (w->rG[i] < 0 && w->rL[i] < 0)) continue;
      double v[PROJ_MAX];
      for (int k = 0; k < nt; k++) {
        v[k] = 0;
        for (int p = w->cbeg[T[k]]; p < w->cbeg[T[k] + 1]; p++)
          if (w->cidx[p] == i) v[k] = twill_dec_to_double(&w->aval[p]);
      }
      double vmax = 0;
      for (int k = 0; k < nt; k++) vmax = fmax(vmax, fabs(v[k]));
      if (vmax == 0) continue;
      for (int t = 0; t < nr; t++) {
        double f = v[bpiv[t]] / basis[t][bpiv[t]];
        for (int k = 0; k < nt; k++) v[k] -= f * basis[t][k];
      }
      int pk = -1;
      double best = 1e-9 * vmax;
      for (int k = 0; k < nt; k++)
        if (fabs(v[k]) > best) { best = fabs(v[k]); pk = k; }
      if (pk < 0) continue;
      memcpy(basis[nr], v, sizeof v);
      bpiv[nr] = pk;
      R[nr++] = i;
    }
  if (nr < nt) return 0;
  /* exact M, then Cramer: D = det M, N_l = det M with column l := r_T */
  dec (*M)[PROJ_MAX] = calloc(PROJ_MAX, sizeof *M);
  dec *ny = calloc((size_t)mr + 1, sizeof(dec));
  dec *nrj = calloc((size_t)n + 1, sizeof(dec));
  dec *g = calloc((size_t)1 << PROJ_MAX, sizeof(dec));
  if (!M || !ny || !nrj || !g) { free(M); free(ny); free(nrj); free(g); return 0; }
  /* the solve runs on an overflow flag of its own: an overflow here only
   * means that the projection does not apply */
  int pov = 0, ok = 0;
  dec rT[PROJ_MAX], N[PROJ_MAX], D;
  memset(rT, 0, sizeof rT); /* det_subsets reads [0, nt) only; -O1 cannot tell */
  for (int k = 0; k < nt; k++) {
    rT[k] = w->r[T[k]];
    for (int l = 0; l < nt; l++) {
      dzero(&M[k][l]);
      for (int p = w->cbeg[T[k]]; p < w->cbeg[T[k] + 1]; p++)
        if (w->cidx[p] == R[l]) M[k][l] = w->aval[p];
    }
  }
  det_subsets(&pov, M, nt, -1, rT, g, &D);
  for (int l = 0; l < nt; l++) det_subsets(&pov, M, nt, l, rT, g, &N[l]);
  if (!dsign(&D) || pov) goto done;
  int dneg_ = dsign(&D) < 0;
  /* the new denominator must stay an integer: |D| 10^e(D) */
  int eD = D.e;
  dec aD = D;
  aD.e = 0;
  if (dneg_) dneg(&aD);
  for (int i = 0; i < mr; i++) twill_dec_mul(&pov, &ny[i], &yr[i], &aD);
  for (int l = 0; l < nt; l++) {
    dec cr = N[l];
    if (dneg_) dneg(&cr);
    twill_dec_scale(&pov, &cr, eD);
    twill_dec_add(&pov, &ny[R[l]], &ny[R[l]], &cr);
  }
  dec nq;
  twill_dec_mul(&pov, &nq, q, &aD);
  /* r = q s c - A' y, recomputed */
  for (int j = 0; j < n; j++) {
    if (farkas) dzero(&nrj[j]);
    else {
      twill_dec_mul(&pov, &nrj[j], &w->cobj[j], &nq);
      if (w->s < 0) dneg(&nrj[j]);
    }
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      dec t;
      twill_dec_mul(&pov, &t, &ny[w->cidx[p]], &w->aval[p]);
      dneg(&t);
      twill_dec_add(&pov, &nrj[j], &nrj[j], &t);
    }
  }
  if (pov) goto done;
  ok = 1;
  for (int j = 0; j < n && ok; j++) {
    int sg = dsign(&nrj[j]);
    if (sg && (sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) ok = 0;
  }
  for (int i = 0; i < mr && ok; i++) {
    int sg = dsign(&ny[i]);
    if (sg && (sg > 0 ? w->rG[i] : w->rL[i]) < 0) ok = 0;
  }
  if (ok) {
    memcpy(yr, ny, (size_t)mr * sizeof(dec));
    memcpy(w->r, nrj, (size_t)n * sizeof(dec));
    *q = nq;
  }
done:
  free(M);
  free(ny);
  free(nrj);
  free(g);
  return ok;
}

/* The exact combination behind a node's LP multipliers y (times sg):
 * rounded multipliers yr over the integer denominator q (project and
 * repair), the remainders w->r = q s c - A'yr (Farkas: -A'yr), yc[i] the
 * row side each multiplier uses (-1: none), and *b the rows' part of the
 * bound, sum yr_i (side value).  Returns 1, 0 when no exact combination
 * was found, -1 when out of memory. */
int twill_vw_dual_combination(W *w, const double *y, double sg, int farkas, dec *yr, int *yc,
                            dec *q, dec *b) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m;
  dzero(b);
  twill_dec_parse(&w->overflow, q, "1");
  for (int j = 0; j < n; j++) {
    if (farkas) dzero(&w->r[j]);
    else {
      w->r[j] = w->cobj[j];
      if (w->s < 0) dneg(&w->r[j]);
    }
  }
  for (int i = 0; i < mr; i++) {
    double v = sg * y[i];
    dzero(&yr[i]);
    yc[i] = -1;
    if (fabs(v) < 1e-13) continue;
    if (v > 0 && w->rG[i] < 0) continue;
    if (v < 0 && w->rL[i] < 0) continue;
    twill_dec_round(&w->overflow, &yr[i], v, 12);
    yc[i] = 0;
  }
  /* r = s c - A'y (column by column) */
  for (int j = 0; j < n; j++)
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      int i = w->cidx[p];
      if (yc[i] < 0) continue;
      dec t;
      twill_dec_mul(&w->overflow, &t, &yr[i], &w->aval[p]);
      dneg(&t);
      twill_dec_add(&w->overflow, &w->r[j], &w->r[j], &t);
    }
  project(w, yr, q, y, farkas);
  int ok = twill_vw_repair(w, yr, yc, q);
  /* the side each multiplier uses, and its part of the bound */
  for (int i = 0; i < mr && ok; i++) {
    int sgn = dsign(&yr[i]);
    yc[i] = sgn > 0 ? w->rG[i] : sgn < 0 ? w->rL[i] : -1;
    if (sgn && yc[i] < 0) ok = 0;
    if (yc[i] < 0) continue;
    dec t;
    twill_dec_mul(&w->overflow, &t, &yr[i], sgn > 0 ? &w->rl[i] : &w->rh[i]);
    twill_dec_add(&w->overflow, b, b, &t);
  }
  return ok;
}

/* The log (level 1): why a leaf found no exact combination. */
static void leaf_why(const W *w, const dec *yr, int farkas) {
  const twill_ilp *m = w->m;
  char line[1024];
  size_t len = 0;
#define WHY(...) \
  (len += (size_t)snprintf(line + len, len < sizeof line ? sizeof line - len : 0, __VA_ARGS__))
  WHY("vipr: no exact %s combination at a leaf:", farkas ? "Farkas" : "dual");
  if (w->overflow) WHY(" a number exceeded %d digits;", 9 * DEC_LIMBS);
  int shown = 0;
  for (int j = 0; j < m->n && shown < 8; j++) {
    int sgn = dsign(&w->r[j]);
    if (sgn && (sgn > 0 ? w->lidx[j] : w->uidx[j]) < 0) {
      WHY(" x%d needs %s bound (remainder numerator %.3g);", j, sgn > 0 ? "a lower" : "an upper",
          twill_dec_to_double(&w->r[j]));
      shown++;
    }
  }
  for (int i = 0; i < m->m && shown < 8; i++) {
    int sgn = dsign(&yr[i]);
    if (sgn && (sgn > 0 ? w->rG[i] : w->rL[i]) < 0) {
      WHY(" row %d%s has no %s side for its multiplier;", i, i >= m->m - m->ncut ? " (a cut)" : "",
          sgn > 0 ? ">=" : "<=");
      shown++;
    }
  }
  if (!shown && !w->overflow)
    WHY(farkas ? " its right-hand side is not positive;"
               : " its bound could not be stated over the denominator;");
#undef WHY
  twill_ilp_log(m, 1, "%s", line);
}

/* An integral objective: the leaf's bound line idx (OBJ >= *beta, min
 * form) strengthened to OBJ >= ceil(*beta) by `rnd`.  Returns the index
 * of the line that states the leaf's bound. */
static int leaf_round(W *w, int idx, dec *beta) {
  if (!w->objint) return idx;
  dec cb = *beta;
  twill_dec_ceil(&w->overflow, &cb);
  if (twill_dec_cmp(&w->overflow, &cb, beta) == 0) return idx;
  int k = w->base + w->nder++;
  dec shown = cb;
  if (w->s < 0) dneg(&shown);
  fprintf(w->out, "D%d %s ", k, w->s < 0 ? "L" : "G");
  twill_dec_print(w->out, &shown);
  fprintf(w->out, " OBJ { rnd 1  %d 1 } -1\n", idx);
  *beta = cb;
  return k;
}

/* Derive the leaf bound from multipliers y (LP at proof node). Returns the
 * derived index; *absurd set for Farkas; *beta the min-form bound. */
int twill_vw_leaf(W *w, const double *y, int farkas, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m;
  for (int attempt = 0, last = farkas ? 1 : 0; attempt <= last; attempt++) {
    double sg = attempt ? -1.0 : 1.0;
    dec b, q;
    dec *yr = calloc((size_t)mr + 1, sizeof(dec));
    int *yc = calloc((size_t)mr + 1, sizeof(int));
    if (!yr || !yc) { free(yr); free(yc); w->fail = 1; return -1; }
    int ok = twill_vw_dual_combination(w, y, sg, farkas, yr, yc, &q, &b);
    for (int j = 0; j < n && ok; j++) {
      int sgn = dsign(&w->r[j]);
      if (!sgn) continue;
      int ci = sgn > 0 ? w->lidx[j] : w->uidx[j];
      if (ci < 0) { ok = 0; break; }
      dec bv, t;
      twill_dec_from(&w->overflow, &bv, sgn > 0 ? w->curl[j] : w->curu[j]);
      twill_dec_mul(&w->overflow, &t, &w->r[j], &bv);
      twill_dec_add(&w->overflow, &b, &b, &t);
    }
    /* with a denominator q != 1, the bound is b/q: state a decimal d with
     * d q <= b (slightly weaker than b/q; d > 0 for Farkas) */
    int unit = q.n == 1 && q.d[0] == 1 && q.e == 0;
    if (ok && !unit) {
      double bf = twill_dec_ratio(&b, &q);
      int found = 0;
      for (int k = 0; k < 8 && !found && isfinite(bf); k++) {
        double slack = k ? (farkas ? fabs(bf) : fmax(1.0, fabs(bf))) * pow(10, 2 * k - 17) : 0;
        dec d, t;
        twill_dec_round(&w->overflow, &d, bf - slack, 17);
        if (farkas && dsign(&d) <= 0) break;
        twill_dec_mul(&w->overflow, &t, &d, &q);
        if (twill_dec_cmp(&w->overflow, &t, &b) <= 0) { b = d; found = 1; }
      }
      if (!found) ok = 0;
    }
    if (ok && farkas && dsign(&b) <= 0) ok = 0;
    if (!ok || w->overflow) {
      if (attempt == last && twill_ilp_logs(m, 1)) leaf_why(w, yr, farkas);
      free(yr);
      free(yc);
      continue;
    }
    /* write it: multipliers of rows, then bounds (negated for max) */
    int cnt = 0;
    for (int i = 0; i < mr; i++) if (yc[i] >= 0) cnt++;
    for (int j = 0; j < n; j++) if (dsign(&w->r[j])) cnt++;
    double flip = (!farkas && w->s < 0) ? -1 : 1;
    int idx = w->base + w->nder++;
    fprintf(w->out, "D%d %s ", idx, flip < 0 ? "L" : "G");
    dec shown = b;
    if (flip < 0) dneg(&shown);
    twill_dec_print(w->out, &shown);
    fprintf(w->out, farkas ? " 0 { lin %d" : " OBJ { lin %d", cnt);
    /* merge multipliers per constraint index (E rows: same index both
     * sides is impossible for one row; bounds are distinct) */
    for (int i = 0; i < mr; i++) {
      if (yc[i] < 0) continue;
      dec t = yr[i];
      if (flip < 0) dneg(&t);
      fprintf(w->out, "  %d ", yc[i]);
      twill_dec_print_frac(&w->overflow, w->out, &t, &q);
    }
    for (int j = 0; j < n; j++) {
      int sgn = dsign(&w->r[j]);
      if (!sgn) continue;
      dec t = w->r[j];
      if (flip < 0) dneg(&t);
      fprintf(w->out, "  %d ", sgn > 0 ? w->lidx[j] : w->uidx[j]);
      twill_dec_print_frac(&w->overflow, w->out, &t, &q);
    }
    fprintf(w->out, " } -1\n");
    free(yr);
    free(yc);
    *absurd = farkas;
    *beta = b;
    return farkas ? idx : leaf_round(w, idx, beta);
  }
  w->fail = 1;
  return -1;
}

/* ---- the root leaf from the exact duals of the root LP's basis ----
 *
 * When the rounded float duals cannot be repaired (ill-conditioned LPs:
 * perold, pilot4, share1b, whose free columns keep remainders the decimal
 * projection cannot cancel within 432 digits), the basis itself gives
 * exact duals: B'y = c_B in rational arithmetic (exact_basis.c).  Then
 * r = s c - A'y is exactly 0 on the basic columns, and on the others has
 * the sign of the bound the basis holds them at, unless the float basis
 * was optimal only within tolerance; the combination is checked like any
 * other (every nonzero r_j and y_i needs its side) and written with each
 * multiplier as its own fraction. */

/* print a (negated when neg) as p or p/q */
int twill_vw_bq_out(FILE *f, const bigq *a, int neg) {
  char *p = twill_bz_str(&a->num), *q = a->den.n ? twill_bz_str(&a->den) : NULL;
  int ok = p && (q || !a->den.n);
  if (ok) {
    if (neg && *p != '-' && twill_bq_sign(a)) fputc('-', f);
    fputs(neg && *p == '-' ? p + 1 : p, f);
    if (q && strcmp(q, "1")) fprintf(f, "/%s", q);
  }
  free(p);
  free(q);
  return ok ? 0 : -1;
}

/* a decimal d <= b (17 digits, b's double lowered a little until exact) */
static int decimal_below(int *ov, dec *d, const bigq *b) {
  double bf = twill_bq_to_double(b);
  bigq t;
  twill_bq_init(&t);
  int found = 0;
  for (int k = 0; k < 8 && !found && isfinite(bf); k++) {
    char buf[64];
    double slack = k ? fmax(1.0, fabs(bf)) * pow(10, 2 * k - 17) : 0;
    snprintf(buf, sizeof buf, "%.17g", bf - slack);
    if (twill_bq_parse(&t, buf)) break;
    if (twill_bq_cmp(&t, b) <= 0) found = twill_dec_parse(ov, d, buf);
  }
  twill_bq_free(&t);
  return found;
}

/* r = s c - A'y, the bound b = sum y_i side_i + sum r_j bound_j, and the
 * sides: 1 when every nonzero y_i and r_j has a constraint to use */
static int exact_bound(W *w, const bigq *y, bigq *r, bigq *b) {
  const twill_ilp *m = w->m;
  bigq a, t;
  twill_bq_init(&a);
  twill_bq_init(&t);
  int ok = 1, err = 0;
  for (int j = 0; j < m->n && !err; j++) {
    err = twill_qs_from_double(&r[j], w->s * m->obj[j]);
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1] && !err; p++) {
      if (!twill_bq_sign(&y[w->cidx[p]])) continue;
      err = twill_qs_from_double(&a, -w->cval[p]) || twill_bq_addmul(&r[j], &r[j], &a, &y[w->cidx[p]]);
    }
  }
  for (int i = 0; i < m->m && ok && !err; i++) {
    int sg = twill_bq_sign(&y[i]);
    if (!sg) continue;
    if ((sg > 0 ? w->rG[i] : w->rL[i]) < 0) { ok = 0; break; }
    err = twill_qs_from_double(&t, sg > 0 ? m->rlo[i] : m->rhi[i]) || twill_bq_addmul(b, b, &t, &y[i]);
  }
  for (int j = 0; j < m->n && ok && !err; j++) {
    int sg = twill_bq_sign(&r[j]);
    if (!sg) continue;
    if ((sg > 0 ? w->lidx[j] : w->uidx[j]) < 0) { ok = 0; break; }
    err = twill_qs_from_double(&t, sg > 0 ? w->curl[j] : w->curu[j]) || twill_bq_addmul(b, b, &t, &r[j]);
  }
  twill_bq_free(&a);
  twill_bq_free(&t);
  return err ? -1 : ok;
}

int twill_vw_leaf_exact(W *w, dec *beta, int *absurd) {
  const twill_ilp *m = w->m;
  int n = m->n, mr = m->m, ret = -1;
  bigq *y = calloc((size_t)mr + 1, sizeof(bigq)), *r = calloc((size_t)n + 1, sizeof(bigq)), b;
  twill_bq_init(&b);
  if (!y || !r) goto done;
  for (int i = 0; i < mr; i++) twill_bq_init(&y[i]);
  for (int j = 0; j < n; j++) twill_bq_init(&r[j]);
  int rc = twill_ilp_basis_duals(m, m->root_basis, (int)w->s, EXACT_DIGITS, y), step = 0;
  if (rc == 1) rc = exact_bound(w, y, r, &b), step = 1;
  if (rc == 1) rc = decimal_below(&w->overflow, beta, &b), step = 2;
  if (rc != 1) {
    twill_ilp_log(m, 1, "vipr: no exact duals from the root basis (%s: %d)",
                  step == 0 ? "solve" : step == 1 ? "sides" : "bound", rc);
    goto done;
  }
  int cnt = 0;
  for (int i = 0; i < mr; i++) cnt += twill_bq_sign(&y[i]) != 0;
  for (int j = 0; j < n; j++) cnt += twill_bq_sign(&r[j]) != 0;
  int idx = w->base + w->nder++, flip = w->s < 0;
  fprintf(w->out, "D%d %s ", idx, flip ? "L" : "G");
  dec shown = *beta;
  if (flip) dneg(&shown);
  twill_dec_print(w->out, &shown);
  fprintf(w->out, " OBJ { lin %d", cnt);
  int err = 0;
  for (int i = 0; i < mr && !err; i++) {
    int sg = twill_bq_sign(&y[i]);
    if (!sg) continue;
    fprintf(w->out, "  %d ", sg > 0 ? w->rG[i] : w->rL[i]);
    err = twill_vw_bq_out(w->out, &y[i], flip);
  }
  for (int j = 0; j < n && !err; j++) {
    int sg = twill_bq_sign(&r[j]);
    if (!sg) continue;
    fprintf(w->out, "  %d ", sg > 0 ? w->lidx[j] : w->uidx[j]);
    err = twill_vw_bq_out(w->out, &r[j], flip);
  }
  fprintf(w->out, " } -1\n");
  if (err) goto done;
  *absurd = 0;
  ret = leaf_round(w, idx, beta);
done:
  twill_bq_free_vec(y, mr);
  twill_bq_free_vec(r, n);
  twill_bq_free(&b);
  return ret;
}
