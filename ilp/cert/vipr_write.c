/* ilp/cert/vipr_write.c: VIPR 1.0 certificates (Cheung, Gleixner, Steffy) of
 * the last solve: LP optimality and LP infeasibility at every leaf of the
 * branch-and-bound tree, folded by `uns` along the branchings (`asm`).
 * This file writes the problem (VAR, INT, OBJ, CON), RTP and SOL, and the
 * DER body the other files of ilp/cert/ derive (writer.h).
 *
 * The problem is written as the certificate's own data: every coefficient
 * and bound is printed as the shortest decimal that reads back to the same
 * double, and all arithmetic is exact on those decimals (dec.h: a small
 * fixed-capacity decimal bignum, value = (-1)^neg * mag * 10^-e).
 *
 * Leaf closed by LP bound (minimize form  min s c'x, s = +1 or -1 for max):
 * with float duals y of the node LP, rounded to 12 significant digits (and
 * set to 0 where the row side they need does not exist), the reduced
 * vector r = s c - A'y is computed exactly; every r_j != 0 is cancelled by
 * the bound constraint x_j >= l_j (r_j > 0) or x_j <= u_j (r_j < 0) that holds
 * at the node (a CON bound or a branching `asm`).  The combination is then
 * exactly s c'x >= beta, beta = sum y_i side_i + sum r_j bound_j, which is
 * what `lin` states.  Farkas leaves: the same with s c replaced by 0 and the
 * multipliers' sign chosen so that beta > 0 (0 >= beta is absurd).
 * When the objective is integral (integer coefficients on integer variables
 * only), a leaf bound beta is strengthened to ceil(beta) by `rnd`.
 * Inner nodes: OBJ >= min(beta_0, beta_1) by `uns` of the two children.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../exact/bigq.h"
#include "writer.h"

static void name_out(FILE *f, const char *s) {
  if (!*s) { fputc('_', f); return; }
  /* a name is one token: no white space, no control character, no '%',
   * which starts a comment in VIPR (a fuzzed MPS name had one), and no
   * '{' or '}', which the checker reads as tokens of their own (LP names
   * may hold them: a fuzzed LP file had one) */
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    fputc(ch <= ' ' || ch == 127 || ch == '%' || ch == '{' || ch == '}' ? '_' : ch, f);
  }
}

static void writer_free(W *w) {
  if (w->out) fclose(w->out);
  free(w->cbeg); free(w->cidx); free(w->aval); free(w->cobj);
  free(w->r); free(w->rl); free(w->rh); free(w->lidx); free(w->uidx);
  free(w->curl); free(w->curu); free(w->rG); free(w->rL);
  free(w->rbeg); free(w->rcol); free(w->rpos); free(w->solx);
  if (w->solq) {
    twill_bq_free_vec(w->solq, w->m->n);
    twill_bq_free(&w->solqobj);
  }
}

/* The writer for m: the matrix, objective and sides as decimals, the CON
 * section's constraints (integer bounds rounded inward, as the solver did;
 * a cut row is usable once derived, twill_vw_derive_cuts), the rows by
 * columns, the DER body's stream (*body).  *cval: the matrix's doubles.
 * 0 when out of memory. */
static int writer_init(W *w, const twill_ilp *m, double **cval, char **body, size_t *bodylen) {
  int n = m->n, mr = m->m;
  memset(w, 0, sizeof *w);
  w->m = m;
  w->s = m->maximize ? -1 : 1;
  if (!twill_ilp_build_csc(m, &w->cbeg, &w->cidx, cval)) return 0;
  w->cval = *cval;
  int nz = w->cbeg[n];
  w->aval = calloc((size_t)nz + 1, sizeof(dec));
  w->cobj = calloc((size_t)n + 1, sizeof(dec));
  w->r = calloc((size_t)n + 1, sizeof(dec));
  w->rl = calloc((size_t)mr + 1, sizeof(dec));
  w->rh = calloc((size_t)mr + 1, sizeof(dec));
  w->lidx = calloc((size_t)n + 1, sizeof(int));
  w->uidx = calloc((size_t)n + 1, sizeof(int));
  w->curl = calloc((size_t)n + 1, sizeof(double));
  w->curu = calloc((size_t)n + 1, sizeof(double));
  w->rG = calloc((size_t)mr + 1, sizeof(int));
  w->rL = calloc((size_t)mr + 1, sizeof(int));
  w->rbeg = calloc((size_t)mr + 2, sizeof(int));
  w->rcol = calloc((size_t)nz + 1, sizeof(int));
  w->rpos = calloc((size_t)nz + 1, sizeof(int));
  w->out = open_memstream(body, bodylen);
  if (!w->aval || !w->cobj || !w->r || !w->rl || !w->rh || !w->lidx || !w->uidx || !w->curl ||
      !w->curu || !w->rG || !w->rL || !w->rbeg || !w->rcol || !w->rpos || !w->out)
    return 0;
  int *ov = &w->overflow;
  for (int p = 0; p < nz; p++) twill_dec_from(ov, &w->aval[p], (*cval)[p]);
  w->objint = 1;
  for (int j = 0; j < n; j++) {
    twill_dec_from(ov, &w->cobj[j], m->obj[j]);
    int isint = m->vtype[j] != TWILL_ILP_CONTINUOUS;
    if (m->obj[j] != 0 && (!isint || m->obj[j] != round(m->obj[j]))) w->objint = 0;
  }
  int ncon = 0;
  for (int j = 0; j < n; j++) {
    double l = m->vlb[j], u = m->vub[j];
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) {
      l = ceil(l - 1e-6);
      u = floor(u + 1e-6);
    }
    w->curl[j] = l;
    w->curu[j] = u;
    w->lidx[j] = isinf(l) ? -1 : ncon++;
    w->uidx[j] = isinf(u) ? -1 : ncon++;
  }
  w->nbound = ncon;
  w->mr0 = mr - m->ncut;
  for (int i = 0; i < mr; i++) {
    double lo = m->rlo[i], hi = m->rhi[i];
    if (i >= w->mr0) {
      w->rG[i] = w->rL[i] = -1;
      twill_dec_from(ov, &w->rl[i], lo);
      continue;
    }
    if (lo == hi) w->rG[i] = w->rL[i] = ncon++;
    else {
      w->rG[i] = isinf(lo) ? -1 : ncon++;
      w->rL[i] = isinf(hi) ? -1 : ncon++;
    }
    if (!isinf(lo)) twill_dec_from(ov, &w->rl[i], lo);
    if (!isinf(hi)) twill_dec_from(ov, &w->rh[i], hi);
  }
  w->ncon = w->base = ncon;
  /* the rows (columns ascending in each), for derived bounds and the CON
   * section */
  for (int p = 0; p < nz; p++) w->rbeg[w->cidx[p] + 2]++;
  for (int i = 0; i < mr; i++) w->rbeg[i + 2] += w->rbeg[i + 1];
  for (int j = 0; j < n; j++)
    for (int p = w->cbeg[j]; p < w->cbeg[j + 1]; p++) {
      int q = w->rbeg[w->cidx[p] + 1]++;
      w->rcol[q] = j;
      w->rpos[q] = p;
    }
  w->solx = calloc((size_t)n + 1, sizeof(dec));
  return 1;
}

/* The DER body: the SOL point first (its cutoff line needs it), the
 * implied bounds, the cuts, the cutoff, then the tree.  The bounds the walk
 * changes are the model's again after it.  The index of the root's line
 * (*beta, *absurd), -1 when some step failed. */
static int write_body(W *w, const double *cval, dec *beta, int *absurd) {
  int n = w->m->n;
  int *olidx = malloc(((size_t)n + 1) * sizeof(int));
  int *ouidx = malloc(((size_t)n + 1) * sizeof(int));
  double *ocurl = malloc(((size_t)n + 1) * sizeof(double));
  double *ocuru = malloc(((size_t)n + 1) * sizeof(double));
  int last = -1;
  if (olidx && ouidx && ocurl && ocuru) {
    memcpy(olidx, w->lidx, (size_t)n * sizeof(int));
    memcpy(ouidx, w->uidx, (size_t)n * sizeof(int));
    memcpy(ocurl, w->curl, (size_t)n * sizeof(double));
    memcpy(ocuru, w->curu, (size_t)n * sizeof(double));
    if (!twill_vw_choose_sol(w, w->mr0)) twill_vw_exact_sol(w, w->mr0);
    twill_vw_implied_bounds(w, cval);
    twill_vw_derive_cuts(w);
    twill_vw_sol_line(w);
    last = twill_vw_walk_tree(w, beta, absurd);
    memcpy(w->lidx, olidx, (size_t)n * sizeof(int));
    memcpy(w->uidx, ouidx, (size_t)n * sizeof(int));
    memcpy(w->curl, ocurl, (size_t)n * sizeof(double));
    memcpy(w->curu, ocuru, (size_t)n * sizeof(double));
  }
  free(olidx); free(ouidx); free(ocurl); free(ocuru);
  return last;
}

/* The problem: VER, VAR, INT, OBJ, CON (the bounds, then the user's rows;
 * the cut rows are derived in DER). */
static void write_problem(W *w, FILE *f) {
  const twill_ilp *m = w->m;
  int n = m->n, *ov = &w->overflow;
  fprintf(f, "%% twill ilp certificate");
  if (m->name) {
    fputs(": ", f);
    name_out(f, m->name);
  }
  fprintf(f, "\nVER 1.0\nVAR %d\n", n);
  for (int j = 0; j < n; j++) {
    name_out(f, m->vname[j]);
    fputc(j + 1 < n ? ' ' : '\n', f);
  }
  if (!n) fputc('\n', f);
  int nint = 0;
  for (int j = 0; j < n; j++) nint += m->vtype[j] != TWILL_ILP_CONTINUOUS;
  fprintf(f, "INT %d\n", nint);
  for (int j = 0, k = 0; j < n; j++)
    if (m->vtype[j] != TWILL_ILP_CONTINUOUS) fprintf(f, "%d%c", j, ++k < nint ? ' ' : '\n');
  if (!nint) fputc('\n', f);
  int nobj = 0;
  for (int j = 0; j < n; j++) nobj += m->obj[j] != 0;
  fprintf(f, "OBJ %s\n%d", m->maximize ? "max" : "min", nobj);
  for (int j = 0; j < n; j++)
    if (m->obj[j] != 0) {
      fprintf(f, "  %d ", j);
      twill_dec_print(f, &w->cobj[j]);
    }
  fprintf(f, "\nCON %d %d\n", w->ncon, w->nbound);
  for (int j = 0; j < n; j++) {
    dec v;
    if (w->lidx[j] >= 0) {
      twill_dec_from(ov, &v, w->curl[j]);
      fprintf(f, "L%d G ", j);
      twill_dec_print(f, &v);
      fprintf(f, " 1 %d 1\n", j);
    }
    if (w->uidx[j] >= 0) {
      twill_dec_from(ov, &v, w->curu[j]);
      fprintf(f, "U%d L ", j);
      twill_dec_print(f, &v);
      fprintf(f, " 1 %d 1\n", j);
    }
  }
  for (int i = 0; i < w->mr0; i++) {
    for (int side = 0; side < 2; side++) {
      int ci = side ? w->rL[i] : w->rG[i];
      if (ci < 0 || (side && w->rL[i] == w->rG[i])) continue;
      const char *sense = w->rL[i] == w->rG[i] ? "E" : side ? "L" : "G";
      fprintf(f, "R%d%s %s ", i, w->rL[i] == w->rG[i] ? "" : side ? "u" : "l", sense);
      twill_dec_print(f, side ? &w->rh[i] : &w->rl[i]);
      fprintf(f, " %d", w->rbeg[i + 1] - w->rbeg[i]);
      for (int q = w->rbeg[i]; q < w->rbeg[i + 1]; q++) {
        fprintf(f, "  %d ", w->rcol[q]);
        twill_dec_print(f, &w->aval[w->rpos[q]]);
      }
      fputc('\n', f);
    }
  }
}

/* RTP and SOL: the range the tree proves (beta, min form) up to the SOL
 * point's value, and that point (choose_sol's exactly feasible incumbent,
 * or exact_sol's rationals); an infeasible model's RTP infeas.  -1 when
 * the cutoff of reduced-cost fixings has no SOL point to come from, or
 * out of memory. */
static int write_range(W *w, FILE *f, const dec *beta) {
  const twill_ilp *m = w->m;
  int n = m->n, *ov = &w->overflow;
  if (!(m->status == TWILL_ILP_OPTIMAL && m->has_sol)) {
    fprintf(f, "RTP infeas\nSOL 0\n");
    return 0;
  }
  /* the fixings' cutoff must be the SOL section's */
  if (w->solidx >= 0 && (!w->solok || !w->bestok)) return -1;
  if (!w->overflow) {
    dec shown = *beta;
    if (w->s < 0) dneg(&shown);
    fprintf(f, "RTP range ");
    if (w->s < 0) {
      if (w->solok) twill_dec_print_frac(ov, f, &w->solobj, &w->solden);
      else if (w->solq) twill_vw_bq_out(f, &w->solqobj, 0);
      else fputs("-inf", f);
      fputc(' ', f);
    }
    twill_dec_print(f, &shown);
    if (w->s > 0) {
      fputc(' ', f);
      if (w->solok) twill_dec_print_frac(ov, f, &w->solobj, &w->solden);
      else if (w->solq) twill_vw_bq_out(f, &w->solqobj, 0);
      else fputs("inf", f);
    }
    fputc('\n', f);
  }
  if (w->solok) {
    int cnt = 0;
    for (int j = 0; j < n; j++) cnt += dsign(&w->solx[j]) != 0;
    fprintf(f, "SOL 1\nincumbent %d", cnt);
    for (int j = 0; j < n; j++)
      if (dsign(&w->solx[j]) != 0) {
        fprintf(f, "  %d ", j);
        twill_dec_print_frac(ov, f, &w->solx[j], &w->solden);
      }
    fputc('\n', f);
  } else if (w->solq) {
    int cnt = 0, err = 0;
    for (int j = 0; j < n; j++) cnt += twill_bq_sign(&w->solq[j]) != 0;
    fprintf(f, "SOL 1\nincumbent %d", cnt);
    for (int j = 0; j < n && !err; j++)
      if (twill_bq_sign(&w->solq[j]) != 0) {
        fprintf(f, "  %d ", j);
        err = twill_vw_bq_out(f, &w->solq[j], 0);
      }
    fputc('\n', f);
    if (err) return -1;
  } else {
    fprintf(f, "SOL 0\n");
  }
  return 0;
}

int twill_ilp_write_vipr(const twill_ilp *m, FILE *f) {
  if (!m->complete || !m->nrec || !m->opt.certify ||
      (m->status != TWILL_ILP_OPTIMAL && m->status != TWILL_ILP_INFEASIBLE))
    return -1;
  W w;
  double *cval = NULL;
  char *body = NULL;
  size_t bodylen = 0;
  int ret = -1, absurd = 0;
  dec beta;
  if (!writer_init(&w, m, &cval, &body, &bodylen)) goto done;
  int last = write_body(&w, cval, &beta, &absurd);
  fclose(w.out);
  w.out = NULL;
  if (w.fail || w.overflow || last < 0) goto done;
  if (m->status == TWILL_ILP_INFEASIBLE && !absurd) goto done;
  if (m->status == TWILL_ILP_OPTIMAL && absurd) goto done;
  write_problem(&w, f);
  if (write_range(&w, f, &beta) < 0 || w.overflow) goto done;
  fprintf(f, "DER %d\n", w.nder);
  fwrite(body, 1, bodylen, f);
  ret = ferror(f) ? -1 : 0;
done:
  writer_free(&w);
  free(cval);
  free(body);
  return ret;
}
