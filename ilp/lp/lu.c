/* ilp/lp/lu.c: the LU factorization of the simplex basis and its updates.
 *
 * P B Q = L U; basic logicals and column singletons are pivoted first, the
 * remaining nucleus is eliminated in a dense workspace with
 * Markowitz-style threshold pivoting (eliminate), and L and U are stored as
 * sparse columns and again as sparse rows (btran); updates
 * B_k = B_0 E_1 ... E_k in product form (E_t the identity with column r
 * replaced by alpha = B^{-1}a_q), refactorized when the etas' work exceeds
 * the factorization's (at most every REFACTOR updates).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lp_solver.h"

static int grow(void **p, int *cap, int need, size_t sz) {
  if (need <= *cap) return 1;
  int nc = *cap;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, (size_t)nc * sz);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  return 1;
}

static int grow2(int **ip, double **vp, int *cap, int need) {
  if (need <= *cap) return 1;
  int c1 = *cap, c2 = *cap;
  if (!grow((void **)ip, &c1, need, sizeof(int))) return 0;
  if (!grow((void **)vp, &c2, need, sizeof(double))) return 0;
  *cap = c1;
  return 1;
}

/* Order the basis for the dense elimination: logicals first, then
 * structurals by increasing column count (a stable counting sort, so the
 * order is deterministic).  Partial pivoting in column order then meets
 * the sparse columns first, which keeps the fill of L and U small. */
static int order_basis(lp_solver *s) {
  int m = s->m, n = s->n, maxc = 0;
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    int c = j >= n ? 0 : s->cbeg[j + 1] - s->cbeg[j];
    if (c > maxc) maxc = c;
  }
  int *cnt = calloc((size_t)maxc + 2, sizeof(int));
  int *nh = malloc((size_t)(m ? m : 1) * sizeof(int));
  if (!cnt || !nh) { free(cnt); free(nh); return 0; }
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    cnt[(j >= n ? 0 : s->cbeg[j + 1] - s->cbeg[j]) + 1]++;
  }
  for (int c = 1; c <= maxc + 1; c++) cnt[c] += cnt[c - 1];
  for (int k = 0; k < m; k++) {
    int j = s->head[k];
    nh[cnt[j >= n ? 0 : s->cbeg[j + 1] - s->cbeg[j]]++] = j;
  }
  for (int k = 0; k < m; k++) {
    s->head[k] = nh[k];
    s->pos[nh[k]] = k;
  }
  free(cnt);
  free(nh);
  return 1;
}

/* (tbeg, tidx, tval) := the m x m matrix (beg, idx, val) (by columns) by
 * rows, a counting sort (deterministic); fill is m ints of workspace. */
static int transpose(int m, const int *beg, const int *idx, const double *val,
                     int *tbeg, int **tidx, double **tval, int *tcap, int *fill) {
  int nz = beg[m];
  if (!grow2(tidx, tval, tcap, nz)) return 0;
  memset(tbeg, 0, ((size_t)m + 1) * sizeof(int));
  for (int p = 0; p < nz; p++) tbeg[idx[p] + 1]++;
  for (int i = 0; i < m; i++) tbeg[i + 1] += tbeg[i];
  memcpy(fill, tbeg, (size_t)m * sizeof(int));
  for (int k = 0; k < m; k++)
    for (int p = beg[k]; p < beg[k + 1]; p++) {
      int q = fill[idx[p]]++;
      (*tidx)[q] = k;
      (*tval)[q] = val[p];
    }
  return 1;
}

/* The logicals of the basis (order_basis puts them first) pivot on their
 * own rows: with those rows first, P B = [-I B12; 0 B22], so that only the
 * structural block B22 (rows not covered by a basic logical) goes through
 * the dense elimination, and U takes B12 as it is.  The work is then
 * O(s^2) for s basic structurals instead of O(m^2). */
/* Column singletons: a structural with one nonzero in the rows not yet
 * pivoted (rpos < 0) pivots there, its other entries go to U; repeat.
 * The basis positions from nl on are reordered so that the singletons
 * come first.  Returns the number of pivoted positions (nl and the
 * singletons), -1 when out of memory. */
static int pivot_singletons(lp_solver *s, int nl, int *rpos) {
  int m = s->m, nfix = nl;
  int ns = m - nl, bnz = 0;
  for (int k = nl; k < m; k++) bnz += s->cbeg[s->head[k] + 1] - s->cbeg[s->head[k]];
  int *cnt = malloc(((size_t)ns + 1) * sizeof(int));
  int *rbeg = calloc((size_t)m + 2, sizeof(int));
  int *rk = malloc(((size_t)bnz + 1) * sizeof(int));
  int *queue = malloc(((size_t)ns + 1) * sizeof(int));
  int *nh = malloc(((size_t)m + 1) * sizeof(int));
  char *done = calloc((size_t)ns + 1, 1);
  if (!cnt || !rbeg || !rk || !queue || !nh || !done) {
    free(cnt); free(rbeg); free(rk); free(queue); free(nh); free(done);
    return 0;
  }
  for (int k = 0; k < ns; k++) {
    int j = s->head[nl + k];
    cnt[k] = 0;
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++)
      if (s->cval[p] != 0 && rpos[s->cidx[p]] < 0) { cnt[k]++; rbeg[s->cidx[p] + 2]++; }
  }
  for (int i = 0; i < m; i++) rbeg[i + 2] += rbeg[i + 1];
  for (int k = 0; k < ns; k++) {
    int j = s->head[nl + k];
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++)
      if (s->cval[p] != 0 && rpos[s->cidx[p]] < 0) rk[rbeg[s->cidx[p] + 1]++] = k;
  }
  int qh = 0, qt = 0;
  for (int k = 0; k < ns; k++)
    if (cnt[k] == 1) queue[qt++] = k;
  for (int k = 0; k < nl; k++) nh[k] = s->head[k];
  while (qh < qt) {
    int k = queue[qh++];
    if (done[k] || cnt[k] != 1) continue;
    int j = s->head[nl + k], r = -1;
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1] && r < 0; p++)
      if (s->cval[p] != 0 && rpos[s->cidx[p]] < 0) r = s->cidx[p];
    if (r < 0) continue;
    done[k] = 1;
    rpos[r] = nfix;
    s->prow[nfix] = r;
    nh[nfix++] = j;
    for (int q = rbeg[r]; q < rbeg[r + 1]; q++) {
      int k2 = rk[q];
      if (done[k2]) continue;
      if (--cnt[k2] == 1) queue[qt++] = k2;
    }
  }
  for (int k = 0, t = nfix; k < ns; k++)
    if (!done[k]) nh[t++] = s->head[nl + k];
  for (int k = nl; k < m; k++) {
    s->head[k] = nh[k];
    s->pos[nh[k]] = k;
  }
  free(cnt); free(rbeg); free(rk); free(queue); free(nh); free(done);
  return nfix;
}
/* The basis is one: head[] lists m distinct basic variables, pos[] is its
 * inverse there, and no other variable is basic (after each
 * factorization, in builds without NDEBUG). */
static void check_basis(const lp_solver *s) {
#ifndef NDEBUG
  int nb = 0;
  for (int j = 0; j < s->N; j++) nb += s->st[j] == B_BASIC;
  assert(nb == s->m);
  for (int k = 0; k < s->m; k++) assert(s->st[s->head[k]] == B_BASIC && s->pos[s->head[k]] == k);
#else
  (void)s;
#endif
}

/* ---- the nucleus: Markowitz-style elimination in a dense workspace ----
 *
 * Each step takes the active column with the fewest nonzeros in the active
 * rows, and in it, among the entries within a factor PIV_REL of the largest
 * (threshold partial pivoting), the one whose row has the fewest active
 * nonzeros.  Plain partial pivoting in a fixed column order filled L and U
 * of air04's bases to 20 times the nonzeros of B; the counts (kept exact
 * through fill and cancellation) keep them close to B's.
 * Rows are not moved in W: physical row i of the nucleus is row orow[i] of
 * B, ipos[i] the step that pivots it (-1 while active), and arow[0..na-1]
 * lists the active ones; a swap of rows across all the columns cost a cache
 * miss per column and step.  W is all zero on entry (the extraction clears
 * what it reads), so no O(sz^2) memset either, unless an allocation failure
 * left it dirty.
 * The columns of each row and the rows of each column that may hold a
 * nonzero are a pool of entries linked both ways (stale ones, whose value
 * cancelled to zero, and repeated ones are skipped), so that a step visits
 * only the entries of its pivot row and column; the active columns sit in
 * buckets by count (doubly linked), so that the sparsest one is found
 * without a scan, bmin bounding the smallest count. */
typedef struct nucleus {
  lp_solver *s;
  int sz, np, na, bmin;
  double *W;
  /* s->flist, cut in 16 arrays of m: list is the pivot column's rows */
  int *list, *rcnt, *ccnt, *orow, *ipos, *arow, *ohead, *cperm, *bnext, *rhead;
  int *cmark, *cstep, *chead, *rmk, *bprev, *bhead; /* bhead: m + 1 */
} nucleus;

static void nucleus_arrays(nucleus *nu, lp_solver *s, int sz) {
  int m = s->m, *list = s->flist;
  nu->s = s;
  nu->sz = sz;
  nu->W = s->W;
  nu->list = list;
  nu->rcnt = list + m;
  nu->ccnt = list + 2 * m;
  nu->orow = list + 3 * m;
  nu->ipos = list + 4 * m;
  nu->arow = list + 5 * m;
  nu->ohead = list + 6 * m;
  nu->cperm = list + 7 * m;
  nu->bnext = list + 8 * m;
  nu->rhead = list + 9 * m;
  nu->cmark = list + 10 * m;
  nu->cstep = list + 11 * m;
  nu->chead = list + 12 * m;
  nu->rmk = list + 13 * m;
  nu->bprev = list + 14 * m;
  nu->bhead = list + 15 * m;
}

/* A pool entry: (row i, column c) may hold a nonzero.  0 when out of
 * memory. */
static int row_add(nucleus *nu, int i, int c) {
  lp_solver *s = nu->s;
  int np = nu->np;
  if (np == s->plcap) {
    int c1 = s->plcap, c2 = s->plcap;
    int c3 = s->plcap, c4 = s->plcap;
    if (!grow((void **)&s->plnext, &c1, np + 1, sizeof(int)) ||
        !grow((void **)&s->plcol, &c2, np + 1, sizeof(int)) ||
        !grow((void **)&s->pcnext, &c3, np + 1, sizeof(int)) ||
        !grow((void **)&s->pcrow, &c4, np + 1, sizeof(int)))
      return 0;
    s->plcap = c1;
  }
  s->plcol[np] = c;
  s->plnext[np] = nu->rhead[i];
  s->pcrow[np] = i;
  s->pcnext[np] = nu->chead[c];
  nu->chead[c] = np;
  nu->rhead[i] = np;
  nu->np = np + 1;
  return 1;
}

static void bucket_out(nucleus *nu, int c) {
  if (nu->bprev[c] >= 0) nu->bnext[nu->bprev[c]] = nu->bnext[c];
  else nu->bhead[nu->ccnt[c]] = nu->bnext[c];
  if (nu->bnext[c] >= 0) nu->bprev[nu->bnext[c]] = nu->bprev[c];
}

static void bucket_in(nucleus *nu, int c) {
  int n0 = nu->ccnt[c];
  nu->bprev[c] = -1;
  nu->bnext[c] = nu->bhead[n0];
  if (nu->bhead[n0] >= 0) nu->bprev[nu->bhead[n0]] = c;
  nu->bhead[n0] = c;
  if (n0 < nu->bmin) nu->bmin = n0;
}

/* The nucleus' columns (basis positions nfix.., rows not yet pivoted) into
 * W, with their counts and pool entries.  0 when out of memory. */
static int nucleus_load(nucleus *nu, int nfix, const int *rpos) {
  lp_solver *s = nu->s;
  int sz = nu->sz;
  if (s->wdirty) memset(nu->W, 0, (size_t)s->m * (size_t)s->m * sizeof(double));
  s->wdirty = 1;
  for (int i = 0; i < sz; i++) {
    nu->orow[i] = s->prow[nfix + i];
    nu->ipos[i] = -1;
    nu->arow[i] = i;
    nu->rcnt[i] = 0;
    nu->rhead[i] = -1;
    nu->ohead[i] = s->head[nfix + i];
    nu->cmark[i] = -1;
    nu->cstep[i] = -1;
    nu->chead[i] = -1;
    nu->rmk[i] = -1;
  }
  nu->np = 0;
  nu->na = sz;
  for (int c = 0; c < sz; c++) {
    int j = nu->ohead[c], cc = 0;
    double *col = nu->W + (size_t)c * sz;
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
      int i = rpos[s->cidx[p]] - nfix;
      if (i < 0) continue;
      double o = col[i], v = o + s->cval[p];
      if (o == 0 && v != 0) {
        cc++;
        nu->rcnt[i]++;
        if (!row_add(nu, i, c)) return 0;
      } else if (o != 0 && v == 0) {
        cc--;
        nu->rcnt[i]--;
      }
      col[i] = v;
    }
    nu->ccnt[c] = cc;
  }
  nu->bmin = sz;
  for (int t = 0; t <= sz; t++) nu->bhead[t] = -1;
  for (int c = sz - 1; c >= 0; c--) bucket_in(nu, c);
  return 1;
}

/* The pivot row of column c at step k: the threshold-Markowitz choice; a
 * column with no entry above TOL_SING is singular and replaced by the
 * logical of the active row with the lowest index (its transformed column
 * is -e_p, see the note in ilp/lp/lp.h).  Returns the row, -1 when out of
 * memory. */
static int choose_pivot(nucleus *nu, int c) {
  lp_solver *s = nu->s;
  double *ck = nu->W + (size_t)c * nu->sz;
  int p = -1;
  double best = 0;
  for (int e = nu->chead[c]; e >= 0; e = s->pcnext[e]) {
    int i = s->pcrow[e];
    if (nu->ipos[i] < 0 && fabs(ck[i]) > best) best = fabs(ck[i]);
  }
  if (best >= TOL_SING) {
    double bv = 0;
    for (int e = nu->chead[c]; e >= 0; e = s->pcnext[e]) {
      int i = s->pcrow[e];
      double a = fabs(ck[i]);
      if (nu->ipos[i] >= 0 || a < PIV_REL * best) continue;
      if (p < 0 || nu->rcnt[i] < nu->rcnt[p] ||
          (nu->rcnt[i] == nu->rcnt[p] && (a > bv || (a == bv && i < p)))) {
        p = i;
        bv = a;
      }
    }
    assert(p >= 0); /* the largest entry qualifies */
    return p;
  }
  for (int t = 0; t < nu->na; t++)
    if (p < 0 || nu->arow[t] < p) p = nu->arow[t];
  int old = nu->ohead[c];
  int lg = s->n + nu->orow[p];
  for (int t = 0; t < nu->na; t++)
    if (ck[nu->arow[t]] != 0) nu->rcnt[nu->arow[t]]--;
  for (int i = 0; i < nu->sz; i++) ck[i] = 0;
  ck[p] = -1.0;
  nu->rcnt[p]++;
  if (!row_add(nu, p, c)) return -1;
  nu->ohead[c] = lg;
  s->st[lg] = B_BASIC;
  make_nonbasic(s, old, s->x[old]);
  return p;
}

/* The elimination, step k = 0 .. sz-1: the sparsest active column, its
 * pivot, the column scaled to L's multipliers, and the active columns of
 * the pivot row updated.  *fops grows by the work.  0 when out of memory. */
static int eliminate(nucleus *nu, double *fops) {
  lp_solver *s = nu->s;
  int sz = nu->sz, *list = nu->list;
  for (int k = 0; k < sz; k++) {
    while (nu->bhead[nu->bmin] < 0) nu->bmin++;
    int c = nu->bhead[nu->bmin];
    bucket_out(nu, c);
    *fops += nu->na;
    nu->cperm[k] = c;
    nu->cstep[c] = k;
    double *ck = nu->W + (size_t)c * sz;
    int p = choose_pivot(nu, c);
    if (p < 0) return 0;
    nu->ipos[p] = k;
    for (int t = 0; t < nu->na; t++)
      if (nu->arow[t] == p) { nu->arow[t] = nu->arow[--nu->na]; break; }
    double piv = ck[p];
    int cnt = 0;
    for (int e = nu->chead[c]; e >= 0; e = s->pcnext[e]) {
      int i = s->pcrow[e];
      if (nu->ipos[i] >= 0 || nu->rmk[i] == k || ck[i] == 0) continue;
      nu->rmk[i] = k;
      ck[i] /= piv;
      list[cnt++] = i;
      nu->rcnt[i]--;
    }
    for (int e = nu->rhead[p]; e >= 0; e = s->plnext[e]) {
      int j = s->plcol[e];
      if (nu->cstep[j] >= 0 || nu->cmark[j] == k) continue;
      nu->cmark[j] = k;
      double *cj = nu->W + (size_t)j * sz;
      double f = cj[p];
      if (f == 0) continue;
      bucket_out(nu, j);
      nu->ccnt[j]--; /* row p leaves the active rows */
      *fops += cnt;
      for (int t = 0; t < cnt; t++) {
        int i = list[t];
        double o = cj[i], v = o - ck[i] * f;
        if (o == 0 && v != 0) {
          nu->rcnt[i]++;
          nu->ccnt[j]++;
          if (!row_add(nu, i, j)) return 0;
        } else if (o != 0 && v == 0) {
          nu->rcnt[i]--;
          nu->ccnt[j]--;
        }
        cj[i] = v;
      }
      bucket_in(nu, j);
    }
  }
  return 1;
}

/* L (below the diagonal) and U (entries in earlier rows, then above the
 * diagonal of the dense block) as sparse columns, clearing W; the basic
 * logicals (positions < nl) have U = -1 on the diagonal alone, the
 * singletons (nl .. nfix-1) their columns as they are.  *nnz gets the
 * nonzeros of L and U.  0 when out of memory. */
static int extract(nucleus *nu, int nl, int nfix, const int *rpos, int *nnz) {
  lp_solver *s = nu->s;
  int m = s->m, n = s->n, nlz = 0, nuz = 0;
  for (int k = 0; k < nl; k++) {
    s->lbeg[k] = 0;
    s->ubeg[k] = 0;
    s->udiag[k] = -1.0;
  }
  for (int k = nl; k < nfix; k++) {
    int j = s->head[k];
    s->lbeg[k] = 0;
    s->ubeg[k] = nuz;
    for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
      int i = rpos[s->cidx[p]];
      if (s->cval[p] == 0) continue;
      if (i == k) { s->udiag[k] = s->cval[p]; continue; }
      if (!grow2(&s->uidx, &s->uval, &s->ucap, nuz + 1)) return 0;
      s->uidx[nuz] = i; s->uval[nuz++] = s->cval[p];
    }
  }
  for (int k = nfix; k < m; k++) {
    double *ck = nu->W + (size_t)nu->cperm[k - nfix] * nu->sz;
    int j = s->head[k];
    s->lbeg[k] = nlz;
    s->ubeg[k] = nuz;
    if (j < n)
      for (int p = s->cbeg[j]; p < s->cbeg[j + 1]; p++) {
        int i = rpos[s->cidx[p]];
        if (i >= nfix || s->cval[p] == 0) continue;
        if (!grow2(&s->uidx, &s->uval, &s->ucap, nuz + 1)) return 0;
        s->uidx[nuz] = i; s->uval[nuz++] = s->cval[p];
      }
    for (int e = nu->chead[nu->cperm[k - nfix]]; e >= 0; e = s->pcnext[e]) {
      int i = s->pcrow[e];
      double v = ck[i];
      if (v == 0) continue;
      ck[i] = 0;
      int r = nfix + nu->ipos[i];
      if (r == k) s->udiag[k] = v;
      else if (r < k) {
        if (!grow2(&s->uidx, &s->uval, &s->ucap, nuz + 1)) return 0;
        s->uidx[nuz] = r; s->uval[nuz++] = v;
      } else {
        if (!grow2(&s->lidx, &s->lval, &s->lcap, nlz + 1)) return 0;
        s->lidx[nlz] = r; s->lval[nlz++] = v;
      }
    }
  }
  s->wdirty = 0;
  s->lbeg[m] = nlz;
  s->ubeg[m] = nuz;
  *nnz = nlz + nuz;
  return 1;
}

/* The logicals of the basis (order_basis puts them first) pivot on their
 * own rows: with those rows first, P B = [-I B12; 0 B22], so that only the
 * structural block B22 (rows not covered by a basic logical) goes through
 * the dense elimination, and U takes B12 as it is.  The work is then
 * O(s^2) for s basic structurals instead of O(m^2). */
int twill_lu_factor(lp_solver *s) {
  int m = s->m, n = s->n;
  if (!order_basis(s)) return 0;
  int nl = 0;
  while (nl < m && s->head[nl] >= n) nl++;
  int *rpos = s->rpos;
  for (int i = 0; i < m; i++) rpos[i] = -1;
  for (int k = 0; k < nl; k++) {
    int i = s->head[k] - n;
    s->prow[k] = i;
    rpos[i] = k;
  }
  int nfix = pivot_singletons(s, nl, rpos);
  if (nfix < 0) return 0;
  for (int i = 0, t = nfix; i < m; i++)
    if (rpos[i] < 0) { s->prow[t] = i; rpos[i] = t++; }
  int sz = m - nfix;
  nucleus nu;
  nucleus_arrays(&nu, s, sz);
  if (!nucleus_load(&nu, nfix, rpos)) return 0;
  double fops = (double)m; /* the work of this factorization, see fcost */
  if (!eliminate(&nu, &fops)) return 0;
  for (int k = 0; k < sz; k++) {
    int j = nu.ohead[nu.cperm[k]];
    s->head[nfix + k] = j;
    s->pos[j] = nfix + k;
  }
  /* row positions after the dense pivoting */
  for (int i = 0; i < sz; i++) s->prow[nfix + nu.ipos[i]] = nu.orow[i];
  for (int k = nfix; k < m; k++) rpos[s->prow[k]] = k;
  int nnz;
  if (!extract(&nu, nl, nfix, rpos, &nnz)) return 0;
  /* with what follows every factorization: x_B and the duals recomputed
   * (a pass over A each) */
  s->fcost = fops + 3.0 * nnz + 2.0 * s->cbeg[n];
  s->ecost = 0;
  if (!transpose(m, s->lbeg, s->lidx, s->lval, s->ltbeg, &s->ltidx, &s->ltval, &s->ltcap, rpos) ||
      !transpose(m, s->ubeg, s->uidx, s->uval, s->utbeg, &s->utidx, &s->utval, &s->utcap, rpos))
    return 0;
  s->neta = 0;
  s->ebeg[0] = 0;
  s->need_factor = 0;
  s->need_xb = 1;
  check_basis(s);
  return 1;
}
/* v (indexed by row) := B^{-1} v (indexed by basis position): L, U, then
 * the etas in order. */
void twill_lu_ftran(lp_solver *s, double *v) {
  int m = s->m;
  double *t = s->wb;
  for (int k = 0; k < m; k++) t[k] = v[s->prow[k]];
  for (int k = 0; k < m; k++) {
    double tk = t[k];
    if (tk == 0) continue;
    for (int p = s->lbeg[k]; p < s->lbeg[k + 1]; p++) t[s->lidx[p]] -= s->lval[p] * tk;
  }
  for (int k = m - 1; k >= 0; k--) {
    if (t[k] == 0) continue;
    double tk = t[k] /= s->udiag[k];
    for (int p = s->ubeg[k]; p < s->ubeg[k + 1]; p++) t[s->uidx[p]] -= s->uval[p] * tk;
  }
  for (int e = 0; e < s->neta; e++) {
    int r = s->er[e];
    double tr = t[r];
    if (tr == 0) continue;
    tr /= s->epiv[e];
    for (int p = s->ebeg[e]; p < s->ebeg[e + 1]; p++) t[s->eidx[p]] -= s->eval[p] * tr;
    t[r] = tr;
  }
  memcpy(v, t, (size_t)m * sizeof(double));
}

/* v (indexed by basis position) := B^{-T} v (indexed by row): the etas
 * backwards, then U' and L'. */
void twill_lu_btran(lp_solver *s, double *v) {
  int m = s->m;
  for (int e = s->neta - 1; e >= 0; e--) {
    int r = s->er[e];
    double sum = v[r];
    for (int p = s->ebeg[e]; p < s->ebeg[e + 1]; p++) sum -= s->eval[p] * v[s->eidx[p]];
    v[r] = sum / s->epiv[e];
  }
  /* U' then L' in scatter form over the rows of U and L: a zero v[k]
   * costs nothing, and btran(e_r) stays sparse */
  for (int k = 0; k < m; k++) {
    if (v[k] == 0) continue;
    double vk = v[k] /= s->udiag[k];
    for (int p = s->utbeg[k]; p < s->utbeg[k + 1]; p++) v[s->utidx[p]] -= s->utval[p] * vk;
  }
  for (int k = m - 1; k >= 0; k--) {
    double vk = v[k];
    if (vk == 0) continue;
    for (int p = s->ltbeg[k]; p < s->ltbeg[k + 1]; p++) v[s->ltidx[p]] -= s->ltval[p] * vk;
  }
  double *t = s->wb;
  for (int k = 0; k < m; k++) t[s->prow[k]] = v[k];
  memcpy(v, t, (size_t)m * sizeof(double));
}

/* Replace the basic variable at position r by q; alpha = B^{-1} a_q: the
 * eta E_t is the identity with column r replaced by alpha. */
int twill_lu_update(lp_solver *s, int r, int q, const double *alpha) {
  int m = s->m;
  int e = s->neta;
  /* a pivot the ratio tests accepted, a basic variable leaving, a
   * nonbasic one entering, and room in the eta file */
  assert(r >= 0 && r < m && fabs(alpha[r]) >= TOL_PIV);
  assert(s->st[s->head[r]] == B_BASIC && s->st[q] != B_BASIC);
  assert(e < REFACTOR);
  int base = s->ebeg[e], cnt = 0;
  for (int i = 0; i < m; i++)
    if (i != r && alpha[i] != 0) cnt++;
  if (!grow2(&s->eidx, &s->eval, &s->ecap, base + cnt)) return 0;
  for (int i = 0; i < m; i++)
    if (i != r && alpha[i] != 0) { s->eidx[base] = i; s->eval[base++] = alpha[i]; }
  s->er[e] = r;
  s->epiv[e] = alpha[r];
  s->ebeg[e + 1] = base;
  s->neta = e + 1;
  s->head[r] = q;
  s->pos[q] = r;
  s->st[q] = B_BASIC;
  /* refactorize when the etas' extra work since the last factorization
   * (each iteration passes over the eta file in ftran and btran, about
   * twice and more) exceeds the work of a factorization: that keeps the
   * total near its minimum over the refactorization interval */
  s->ecost += 3.0 * s->ebeg[s->neta];
  if (s->neta >= REFACTOR || s->ecost > ECOST_F * s->fcost) s->need_factor = 1;
  return 1;
}

