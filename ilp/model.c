/* ilp/model.c: the modeling API of twill/ilp.h (storage and queries). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

twill_ilp *twill_ilp_new(void) {
  twill_ilp *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->status = TWILL_ILP_UNSOLVED;
  twill_ilp_options_init(&m->opt);
  return m;
}

void twill_ilp_clear_results(twill_ilp *m) {
  free(m->sol);
  m->sol = NULL;
  m->has_sol = 0;
  m->objval = 0;
  memset(&m->stats, 0, sizeof m->stats);
  m->nhist = 0;
  for (int i = 0; i < m->nrec; i++) {
    free(m->rec[i].y);
    free(m->rec[i].prop);
  }
  m->nrec = 0;
  m->complete = 0;
  free(m->root_basis);
  m->root_basis = NULL;
  m->status = TWILL_ILP_UNSOLVED;
  twill_ilp_drop_cuts(m);
}

void twill_ilp_drop_cuts_from(twill_ilp *m, int k) {
  if (k < 0) k = 0;
  if (k >= m->ncut) return;
  for (int t = k; t < m->ncut; t++) {
    ilp_cut *c = &m->cut[t];
    free(c->pidx); free(c->pval);
    for (int s = 0; s < 2; s++) { free(c->midx[s]); free(c->mval[s]); }
  }
  int drop = m->ncut - k;
  for (int i = m->m - drop; i < m->m; i++) free(m->rname[i]);
  m->m -= drop;
  m->nz = m->cut[k].nz0;
  m->ncut = k;
}

void twill_ilp_drop_cuts(twill_ilp *m) { twill_ilp_drop_cuts_from(m, 0); }

void twill_ilp_free(twill_ilp *m) {
  if (!m) return;
  twill_ilp_clear_results(m);
  for (int j = 0; j < m->n; j++) free(m->vname[j]);
  for (int i = 0; i < m->m; i++) free(m->rname[i]);
  free(m->vname); free(m->vtype); free(m->vlb); free(m->vub); free(m->obj);
  free(m->rname); free(m->rlo); free(m->rhi);
  free(m->zr); free(m->zc); free(m->zv);
  free(m->hobj); free(m->hnode); free(m->rec); free(m->cut);
  free(m->name);
  free(m->start);
  free(m);
}

static int grow(void **p, size_t sz, int need, int *cap) {
  if (need <= *cap) return 1;
  int nc = *cap ? *cap : 8;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, (size_t)nc * sz);
  if (!q) return 0;
  *p = q;
  return 1;
}

int twill_ilp_add_var(twill_ilp *m, const char *name, twill_ilp_vartype type,
                      double lb, double ub, double obj) {
  if (isnan(lb) || isnan(ub) || isnan(obj)) return -1;
  if (type == TWILL_ILP_BINARY) {
    if (lb < 0) lb = 0;
    if (ub > 1) ub = 1;
  }
  int need = m->n + 1, cap = m->ncap, ok = 1;
  int c1 = cap; ok &= grow((void **)&m->vname, sizeof(char *), need, &c1);
  c1 = cap; ok &= grow((void **)&m->vtype, 1, need, &c1);
  c1 = cap; ok &= grow((void **)&m->vlb, sizeof(double), need, &c1);
  c1 = cap; ok &= grow((void **)&m->vub, sizeof(double), need, &c1);
  c1 = cap; ok &= grow((void **)&m->obj, sizeof(double), need, &c1);
  if (!ok) return -1;
  if (need > m->ncap) {
    int nc = m->ncap ? m->ncap : 8;
    while (nc < need) nc *= 2;
    m->ncap = nc;
  }
  char buf[32];
  if (!name) {
    snprintf(buf, sizeof buf, "x%d", m->n);
    name = buf;
  }
  char *nm = dupstr(name);
  if (!nm) return -1;
  int j = m->n++;
  m->vname[j] = nm;
  m->vtype[j] = (signed char)type;
  m->vlb[j] = lb;
  m->vub[j] = ub;
  m->obj[j] = obj;
  m->status = TWILL_ILP_UNSOLVED;
  return j;
}

int twill_ilp_add_row(twill_ilp *m, const char *name, int nnz, const int *idx,
                      const double *val, char sense, double rhs, double range) {
  double lo, hi;
  if (isnan(rhs) || nnz < 0) return -1;
  switch (sense) {
  case 'L': lo = -TWILL_ILP_INF; hi = rhs; break;
  case 'G': lo = rhs; hi = TWILL_ILP_INF; break;
  case 'E': lo = hi = rhs; break;
  case 'R':
    if (!(range >= 0)) return -1;
    lo = rhs; hi = rhs + range;
    break;
  default: return -1;
  }
  for (int k = 0; k < nnz; k++)
    if (idx[k] < 0 || idx[k] >= m->n || isnan(val[k]) || isinf(val[k])) return -1;
  twill_ilp_drop_cuts(m); /* rows of the last solve's root, not the user's */
  return twill_ilp_add_row_raw(m, name, nnz, idx, val, lo, hi);
}

int twill_ilp_add_row_raw(twill_ilp *m, const char *name, int nnz, const int *idx,
                    const double *val, double lo, double hi) {
  int need = m->m + 1, cap = m->mcap, ok = 1;
  int c1 = cap; ok &= grow((void **)&m->rname, sizeof(char *), need, &c1);
  c1 = cap; ok &= grow((void **)&m->rlo, sizeof(double), need, &c1);
  c1 = cap; ok &= grow((void **)&m->rhi, sizeof(double), need, &c1);
  if (!ok) return -1;
  if (need > m->mcap) {
    int nc = m->mcap ? m->mcap : 8;
    while (nc < need) nc *= 2;
    m->mcap = nc;
  }
  int zneed = m->nz + nnz, zc = m->nzcap;
  ok = 1;
  c1 = zc; ok &= grow((void **)&m->zr, sizeof(int), zneed, &c1);
  c1 = zc; ok &= grow((void **)&m->zc, sizeof(int), zneed, &c1);
  c1 = zc; ok &= grow((void **)&m->zv, sizeof(double), zneed, &c1);
  if (!ok) return -1;
  if (zneed > m->nzcap) {
    int nc = m->nzcap ? m->nzcap : 8;
    while (nc < zneed) nc *= 2;
    m->nzcap = nc;
  }
  char buf[32];
  if (!name) {
    snprintf(buf, sizeof buf, "r%d", m->m);
    name = buf;
  }
  char *nm = dupstr(name);
  if (!nm) return -1;
  int i = m->m++;
  m->rname[i] = nm;
  m->rlo[i] = lo;
  m->rhi[i] = hi;
  for (int k = 0; k < nnz; k++) {
    if (val[k] == 0) continue;
    m->zr[m->nz] = i;
    m->zc[m->nz] = idx[k];
    m->zv[m->nz++] = val[k];
  }
  m->status = TWILL_ILP_UNSOLVED;
  return i;
}

void twill_ilp_set_obj(twill_ilp *m, int var, double coef) {
  if (var >= 0 && var < m->n) m->obj[var] = coef;
}
void twill_ilp_set_obj_const(twill_ilp *m, double c0) { m->c0 = c0; }
void twill_ilp_set_maximize(twill_ilp *m, int maximize) { m->maximize = !!maximize; }
void twill_ilp_set_name(twill_ilp *m, const char *name) {
  char *d = dupstr(name ? name : "");
  if (!d) return;
  free(m->name);
  m->name = d;
}
/* The shorthands for options (the option table's ranges do not apply:
 * they keep the meaning they had before the table, <= 0 for no limit) */
void twill_ilp_set_certify(twill_ilp *m, int on) { m->opt.certify = !!on; }
void twill_ilp_set_time_limit(twill_ilp *m, double seconds) {
  m->opt.time_limit = seconds > 0 ? seconds : 0;
}
void twill_ilp_set_node_limit(twill_ilp *m, long nodes) {
  /* (the option's range ends at 1e15: a double holds such counts exactly) */
  m->opt.node_limit = nodes <= 0 ? 0 : nodes < 1000000000000000L ? (double)nodes : 1e15;
}
void twill_ilp_set_cuts(twill_ilp *m, int on) { m->opt.cuts = !!on; }
void twill_ilp_set_rcfix(twill_ilp *m, int on) { m->opt.rcfix = !!on; }
void twill_ilp_set_cancel(twill_ilp *m, const atomic_int *flag) { m->cancel = flag; }

int twill_ilp_set_start(twill_ilp *m, const double *x) {
  double *s = malloc((size_t)(m->n ? m->n : 1) * sizeof *s);
  if (!s) return -1;
  memcpy(s, x, (size_t)m->n * sizeof *s);
  free(m->start);
  m->start = s;
  return 0;
}

int twill_ilp_num_vars(const twill_ilp *m) { return m->n; }
int twill_ilp_num_rows(const twill_ilp *m) { return m->m - m->ncut; }
const char *twill_ilp_var_name(const twill_ilp *m, int var) {
  return var >= 0 && var < m->n ? m->vname[var] : NULL;
}
const char *twill_ilp_row_name(const twill_ilp *m, int row) {
  return row >= 0 && row < m->m - m->ncut ? m->rname[row] : NULL;
}
twill_ilp_vartype twill_ilp_var_type(const twill_ilp *m, int var) {
  return (twill_ilp_vartype)m->vtype[var];
}
void twill_ilp_var_bounds(const twill_ilp *m, int var, double *lb, double *ub) {
  *lb = m->vlb[var];
  *ub = m->vub[var];
}
void twill_ilp_row_bounds(const twill_ilp *m, int row, double *lo, double *hi) {
  *lo = m->rlo[row];
  *hi = m->rhi[row];
}
double twill_ilp_coef(const twill_ilp *m, int row, int var) {
  double s = 0;
  for (int k = 0; k < m->nz; k++)
    if (m->zr[k] == row && m->zc[k] == var) s += m->zv[k];
  return s;
}
int twill_ilp_num_nonzeros(const twill_ilp *m) { return m->nz; }
void twill_ilp_nonzero(const twill_ilp *m, int k, int *row, int *var, double *val) {
  *row = m->zr[k];
  *var = m->zc[k];
  *val = m->zv[k];
}
void twill_ilp_activity(const twill_ilp *m, const double *x, double *act) {
  /* the user's rows only: root cuts are the last rows, their entries the
   * last nonzeros */
  int mr = m->m - m->ncut, nz = m->ncut ? m->nz_before_cuts : m->nz;
  for (int i = 0; i < mr; i++) act[i] = 0;
  for (int k = 0; k < nz; k++) act[m->zr[k]] += m->zv[k] * x[m->zc[k]];
}
double twill_ilp_obj_coef(const twill_ilp *m, int var) { return m->obj[var]; }
int twill_ilp_is_maximize(const twill_ilp *m) { return m->maximize; }

twill_ilp_status twill_ilp_status_of(const twill_ilp *m) { return m->status; }
const char *twill_ilp_status_name(twill_ilp_status s) {
  switch (s) {
  case TWILL_ILP_OPTIMAL: return "optimal";
  case TWILL_ILP_INFEASIBLE: return "infeasible";
  case TWILL_ILP_UNBOUNDED: return "unbounded";
  case TWILL_ILP_LIMIT: return "limit";
  case TWILL_ILP_ERROR: return "error";
  default: return "unsolved";
  }
}
int twill_ilp_has_solution(const twill_ilp *m) { return m->has_sol; }
double twill_ilp_objective(const twill_ilp *m) { return m->objval; }
double twill_ilp_value(const twill_ilp *m, int var) {
  return m->has_sol && var >= 0 && var < m->n ? m->sol[var] : 0.0;
}
void twill_ilp_get_stats(const twill_ilp *m, twill_ilp_stats *st) { *st = m->stats; }

static const twill_ilp_stat_info stat_rows[] = {
#define STAT_ROW(type, field, key, json, help) \
  {key, help, (type)0.5 == 0 /* an integer type truncates 0.5 */, json},
    TWILL_ILP_STATS(STAT_ROW)
#undef STAT_ROW
};

enum { NSTATS = (int)(sizeof stat_rows / sizeof stat_rows[0]) };

int twill_ilp_stat(int k, twill_ilp_stat_info *info) {
  if (k < 0 || k >= NSTATS) return 0;
  *info = stat_rows[k];
  return 1;
}

double twill_ilp_stat_value(const twill_ilp_stats *st, int k) {
  int row = 0;
#define STAT_VALUE(type, field, key, json, help) \
  if (row++ == k) return (double)st->field;
  TWILL_ILP_STATS(STAT_VALUE)
#undef STAT_VALUE
  return NAN;
}
int twill_ilp_history(const twill_ilp *m, int k, double *obj, long *node) {
  if (k < 0 || k >= m->nhist) return 0;
  *obj = m->hobj[k];
  *node = m->hnode[k];
  return 1;
}

void twill_ilp_shortest(char *buf, size_t n, double x) {
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, n, "%.*g", p, x);
    if (strtod(buf, NULL) == x) return;
  }
}

void twill_ilp_csc_transpose(int n, int mr, const int *cbeg, const int *cidx, const double *cval,
                       int *rbeg, int *rcol, double *rval) {
  for (int p = 0; p < cbeg[n]; p++) rbeg[cidx[p] + 2]++;
  for (int i = 0; i < mr; i++) rbeg[i + 2] += rbeg[i + 1];
  for (int j = 0; j < n; j++)
    for (int p = cbeg[j]; p < cbeg[j + 1]; p++) {
      int q = rbeg[cidx[p] + 1]++;
      rcol[q] = j;
      rval[q] = cval[p];
    }
}

int twill_ilp_build_csc(const twill_ilp *m, int **cbeg, int **cidx, double **cval) {
  int n = m->n, nz = m->nz;
  int *beg = calloc((size_t)n + 2, sizeof(int));
  int *idx = malloc((size_t)(nz ? nz : 1) * sizeof(int));
  double *val = malloc((size_t)(nz ? nz : 1) * sizeof(double));
  int *last = malloc((size_t)(m->m ? m->m : 1) * sizeof(int));
  if (!beg || !idx || !val || !last) {
    free(beg); free(idx); free(val); free(last);
    return 0;
  }
  for (int k = 0; k < nz; k++) beg[m->zc[k] + 1]++;
  for (int j = 0; j < n; j++) beg[j + 1] += beg[j];
  int *fill = malloc((size_t)(n ? n : 1) * sizeof(int));
  if (!fill) {
    free(beg); free(idx); free(val); free(last);
    return 0;
  }
  memcpy(fill, beg, (size_t)n * sizeof(int));
  for (int k = 0; k < nz; k++) {
    int p = fill[m->zc[k]]++;
    idx[p] = m->zr[k];
    val[p] = m->zv[k];
  }
  free(fill);
  /* sum duplicates (rows are in increasing order within a column since
   * triplets were added row by row) and drop zeros */
  for (int i = 0; i < m->m; i++) last[i] = -1;
  int out = 0;
  for (int j = 0; j < n; j++) {
    int start = out;
    for (int p = beg[j]; p < beg[j + 1]; p++) {
      int i = idx[p];
      if (last[i] >= start) {
        val[last[i]] += val[p];
      } else {
        last[i] = out;
        idx[out] = i;
        val[out++] = val[p];
      }
    }
    int w = start;
    for (int p = start; p < out; p++)
      if (val[p] != 0) { idx[w] = idx[p]; val[w++] = val[p]; }
    out = w;
    beg[j] = start;
  }
  beg[n] = out;
  free(last);
  *cbeg = beg;
  *cidx = idx;
  *cval = val;
  return 1;
}

int twill_ilp_has_rcfix(const twill_ilp *m) {
  for (int v = 0; v < m->nrec; v++)
    for (int k = 0; k < m->rec[v].nprop; k++)
      if (m->rec[v].prop[k].row < 0) return 1;
  return 0;
}
