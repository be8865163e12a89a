/* codegen/model.c: the pipelined loop as the emitters see it (model.h). */
#include "model.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int twill_cg_op_span(const cg_model *cm, int v) {
  return twill_op_span(&cm->g->ops[v], cm->wg);
}

long twill_cg_op_len(const cg_model *cm, int v) {
  long l = cm->g->ops[v].lat;
  return l > 0 ? l : 1;
}

/* Instances at equal times follow a topological order of the
 * zero-distance edges (cg_inst.rank), so that every warp program meets
 * same-cycle producers before their consumers. */
static int cmp_inst(const void *a, const void *b) {
  const cg_inst *x = a, *y = b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
  return x->iter - y->iter;
}

static int topo_rank(const twill_graph *g, int *rank) {
  int n = g->nops;
  int *indeg = calloc(n > 0 ? (size_t)n : 1, sizeof *indeg);
  if (!indeg) return -1;
  for (int v = 0; v < n; v++) rank[v] = -1;
  for (int e = 0; e < g->nedges; e++)
    if (!g->edges[e].dist && g->edges[e].src != g->edges[e].dst)
      indeg[g->edges[e].dst]++;
  for (int k = 0; k < n; k++) {
    int pick = -1;
    for (int v = 0; v < n && pick < 0; v++)
      if (rank[v] < 0 && !indeg[v]) pick = v;
    for (int v = 0; v < n && pick < 0; v++) /* a cycle: index order */
      if (rank[v] < 0) pick = v;
    rank[pick] = k;
    for (int e = 0; e < g->nedges; e++)
      if (g->edges[e].src == pick && !g->edges[e].dist &&
          g->edges[e].dst != pick && indeg[g->edges[e].dst] > 0)
        indeg[g->edges[e].dst]--;
  }
  free(indeg);
  return 0;
}

static int build_roles(cg_model *cm) {
  const twill_graph *g = cm->g;
  int n = g->nops;
  cm->role_of = malloc((n > 0 ? (size_t)n : 1) * sizeof *cm->role_of);
  if (!cm->role_of) return -1;
  if (!cm->warps) {
    cm->roles = calloc(1, sizeof *cm->roles);
    if (!cm->roles) return -1;
    cm->nroles = 1;
    cm->roles[0].first = -1;
    cm->roles[0].nwarps = 0;
    cm->roles[0].nops = n;
    bool vo = n > 0;
    for (int v = 0; v < n; v++) {
      cm->role_of[v] = 0;
      if (!g->ops[v].varlat) vo = false;
    }
    cm->roles[0].varlat_only = vo;
    return 0;
  }
  /* Merge overlapping warp intervals: sort ops' intervals by first warp. */
  int maxw = 0;
  for (int v = 0; v < n; v++) {
    int e = cm->s->warp[v] + twill_cg_op_span(cm, v);
    if (e > maxw) maxw = e;
  }
  int *cover = calloc((size_t)maxw + 1, sizeof *cover);
  if (!cover) return -1;
  /* cover[w] = 1 when warp w is used; link[w] = 1 when w-1 and w belong to
   * the same op's span (so the roles must merge). */
  int *link = calloc((size_t)maxw + 1, sizeof *link);
  if (!link) {
    free(cover);
    return -1;
  }
  for (int v = 0; v < n; v++) {
    int w = cm->s->warp[v], sp = twill_cg_op_span(cm, v);
    for (int k = 0; k < sp; k++) {
      cover[w + k] = 1;
      if (k) link[w + k] = 1;
    }
  }
  cm->roles = calloc((size_t)maxw + 1, sizeof *cm->roles);
  int *rid = malloc(((size_t)maxw + 1) * sizeof *rid);
  if (!cm->roles || !rid) {
    free(cover);
    free(link);
    free(rid);
    return -1;
  }
  int nr = 0;
  for (int w = 0; w < maxw; w++) {
    rid[w] = -1;
    if (!cover[w]) continue;
    if (link[w] && w > 0 && rid[w - 1] >= 0) {
      rid[w] = rid[w - 1];
      cm->roles[rid[w]].nwarps++;
    } else {
      rid[w] = nr;
      cm->roles[nr].first = w;
      cm->roles[nr].nwarps = 1;
      cm->roles[nr].varlat_only = true;
      nr++;
    }
  }
  cm->nroles = nr;
  for (int v = 0; v < n; v++) {
    int r = rid[cm->s->warp[v]];
    cm->role_of[v] = r;
    cm->roles[r].nops++;
    if (!g->ops[v].varlat) cm->roles[r].varlat_only = false;
  }
  free(cover);
  free(link);
  free(rid);
  return 0;
}

int twill_cg_model_init(cg_model *cm, const twill_graph *g, const twill_arch *m,
                  const twill_schedule *s, const twill_emit_opts *opts) {
  memset(cm, 0, sizeof *cm);
  cm->g = g;
  cm->m = m;
  cm->s = s;
  cm->opts = opts;
  cm->src = opts && opts->kernel ? opts->kernel : g;
  cm->norm = opts && opts->norm && opts->norm->n > 0 ? opts->norm : NULL;
  twill_norm_scale(cm->norm, &cm->num, &cm->den);
  /* the source must be g's kernel: same ops and edges, in the same order */
  if (cm->src->nops != g->nops || cm->src->nedges != g->nedges) return -1;
  cm->I = s->ii > 0 ? s->ii : 1;
  cm->L = twill_schedule_length(g, s);
  cm->C = (cm->L + cm->I - 1) / cm->I;
  if (cm->C < 1) cm->C = 1;
  cm->T = (cm->C - 1) * cm->I + cm->L;
  cm->wg = m && m->warpgroup > 0 ? m->warpgroup : 4;
  cm->warps = s->warp != NULL;
  size_t n = g->nops > 0 ? (size_t)g->nops : 1;
  cm->stage = malloc(n * sizeof *cm->stage);
  cm->slot = malloc(n * sizeof *cm->slot);
  if (!cm->stage || !cm->slot) goto oom;
  for (int v = 0; v < g->nops; v++) {
    cm->stage[v] = s->start[v] / cm->I;
    cm->slot[v] = s->start[v] % cm->I;
  }
  if (build_roles(cm)) goto oom;
  /* Cross-warp edges.  A value of iteration j made at t(u) + jI is read by
   * v of iteration j + dist at t(v) + (j + dist)I; producer instances that
   * start before that read are all in flight: depth = floor((t(v) + dist*I
   * - t(u)) / I) + 1 >= 1 (the span is >= lat >= 0 for a valid schedule). */
  cm->x = malloc((g->nedges > 0 ? (size_t)g->nedges : 1) * sizeof *cm->x);
  if (!cm->x) goto oom;
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    if (!cm->warps || cm->role_of[ed->src] == cm->role_of[ed->dst]) continue;
    cg_xedge *x = &cm->x[cm->nx++];
    x->edge = e;
    x->src = ed->src;
    x->dst = ed->dst;
    x->prole = cm->role_of[ed->src];
    x->crole = cm->role_of[ed->dst];
    long span = s->start[ed->dst] + (long)ed->dist * cm->I - s->start[ed->src];
    if (span < 0) span = 0;
    x->depth = span / cm->I + 1;
  }
  cm->ninst = (int)(cm->C * g->nops);
  cm->inst = malloc((cm->ninst > 0 ? (size_t)cm->ninst : 1) * sizeof *cm->inst);
  if (!cm->inst) goto oom;
  int *rank = malloc(n * sizeof *rank);
  if (!rank || topo_rank(g, rank)) {
    free(rank);
    goto oom;
  }
  int k = 0;
  for (int v = 0; v < g->nops; v++)
    for (long j = 0; j < cm->C; j++) {
      cg_inst *in = &cm->inst[k++];
      in->op = v;
      in->rank = rank[v];
      in->iter = (int)j;
      in->time = s->start[v] + j * cm->I;
      in->section = in->time < (cm->C - 1) * cm->I ? 0
                    : in->time < cm->C * cm->I     ? 1
                                                   : 2;
    }
  free(rank);
  qsort(cm->inst, (size_t)cm->ninst, sizeof *cm->inst, cmp_inst);
  return 0;
oom:
  twill_cg_model_free(cm);
  return -1;
}

void twill_cg_model_free(cg_model *cm) {
  free(cm->stage);
  free(cm->slot);
  free(cm->roles);
  free(cm->role_of);
  free(cm->x);
  free(cm->inst);
  memset(cm, 0, sizeof *cm);
}

static int round_down(int x, int step) { return step > 0 ? x / step * step : x; }

int twill_cg_regplan_init(const cg_model *cm, cg_regplan *rp) {
  const twill_arch *m = cm->m;
  int G = cm->wg;
  memset(rp, 0, sizeof *rp);
  int used = 0;
  for (int r = 0; r < cm->nroles; r++)
    if (cm->roles[r].first + cm->roles[r].nwarps > used)
      used = cm->roles[r].first + cm->roles[r].nwarps;
  int nwg = (used + G - 1) / G;
  if (nwg < 1) nwg = 1;
  rp->nwg = nwg;
  rp->nwarps = nwg * G;
  rp->threads = rp->nwarps * 32;
  int *comp = calloc((size_t)nwg, sizeof *comp);
  rp->regs = calloc((size_t)nwg, sizeof *rp->regs);
  if (!comp || !rp->regs) {
    free(comp);
    twill_cg_regplan_free(rp);
    return -1;
  }
  for (int r = 0; r < cm->nroles; r++)
    if (!cm->roles[r].varlat_only)
      for (int w = cm->roles[r].first; w < cm->roles[r].first + cm->roles[r].nwarps; w++)
        comp[w / G] = 1;
  int lo = m && m->setmaxnreg_lo > 0 ? m->setmaxnreg_lo : 24;
  int hi = m && m->setmaxnreg_hi > 0 ? m->setmaxnreg_hi : 256;
  int step = m && m->setmaxnreg_step > 0 ? m->setmaxnreg_step : 8;
  long rf = m && m->regs_per_sm > 0 ? m->regs_per_sm : 65536;
  int budget = m && m->reg_budget > 0 ? m->reg_budget : 168;
  rp->setmaxnreg = !m || m->setmaxnreg_hi > 0;
  int ncomp = 0;
  for (int k = 0; k < nwg; k++) ncomp += comp[k];
  long per_thread = rf / (G * 32); /* register units per thread-slot */
  int rc = budget;
  if (ncomp) {
    long room = (per_thread - (long)(nwg - ncomp) * lo) / ncomp;
    if (room < rc) rc = (int)room;
  }
  rc = round_down(rc, step);
  if (rc > hi) rc = round_down(hi, step);
  if (rc < lo) rc = lo;
  int maxr = m && m->max_regs_thread > 0 ? m->max_regs_thread : 255;
  int base = round_down((int)(rf / rp->threads), step);
  if (base > maxr) base = round_down(maxr, step);
  for (int k = 0; k < nwg; k++) rp->regs[k] = comp[k] ? rc : lo;
  rp->base = base;
  rp->lo = lo;
  rp->budget = budget;
  free(comp);
  return 0;
}

void twill_cg_regplan_free(cg_regplan *rp) {
  free(rp->regs);
  rp->regs = NULL;
}

const char *twill_cg_warp_label(const cg_model *cm, int v, char *buf, size_t n) {
  if (!cm->warps) {
    snprintf(buf, n, "-");
    return buf;
  }
  int w = cm->s->warp[v], sp = twill_cg_op_span(cm, v);
  if (sp > 1)
    snprintf(buf, n, "w%d-%d", w, w + sp - 1);
  else
    snprintf(buf, n, "w%d", w);
  return buf;
}

const char *twill_cg_role_label(const cg_model *cm, int r, char *buf, size_t n) {
  const cg_role *ro = &cm->roles[r];
  if (ro->first < 0)
    snprintf(buf, n, "all");
  else if (ro->nwarps > 1)
    snprintf(buf, n, "w%d-%d", ro->first, ro->first + ro->nwarps - 1);
  else
    snprintf(buf, n, "w%d", ro->first);
  return buf;
}

const char *twill_cg_iter_label(const cg_model *cm, const cg_inst *in, char *buf,
                          size_t n) {
  if (in->section == 0) {
    snprintf(buf, n, "%d", in->iter);
  } else if (in->section == 1) {
    /* Q's steady window holds iterations 0..C-1 with i = 0. */
    if (in->iter)
      snprintf(buf, n, "i+%d", in->iter);
    else
      snprintf(buf, n, "i");
  } else {
    /* Q's iteration j is N - (C - j) of an N-iteration loop. */
    snprintf(buf, n, "N-%ld", cm->C - in->iter);
  }
  return buf;
}

const char *twill_cg_ident(const char *name, char *buf, size_t n) {
  size_t k = 0;
  if (n == 0) return buf;
  if (!isalpha((unsigned char)name[0]) && name[0] != '_' && k + 1 < n)
    buf[k++] = '_';
  for (const char *p = name; *p && k + 1 < n; p++)
    buf[k++] = isalnum((unsigned char)*p) ? *p : '_';
  buf[k] = 0;
  return buf;
}

long twill_cg_real(const cg_model *cm, long t) {
  return twill_norm_real(t, cm->num, cm->den);
}

const char *twill_cg_ratio(const cg_model *cm, char *buf, size_t n) {
  if (cm->den == 1) snprintf(buf, n, "%ld", cm->num);
  else snprintf(buf, n, "%ld/%ld", cm->num, cm->den);
  return buf;
}

void twill_cg_scale_line(const cg_model *cm, FILE *f, const char *pfx) {
  if (!cm->norm) return;
  char k[64];
  fprintf(f,
          "%sreal cycles: solved on normalized costs (budget %ld, error %ld); "
          "1 normalized cycle = %s cycles%s\n",
          pfx, cm->norm->U, cm->norm->F, twill_cg_ratio(cm, k, sizeof k),
          cm->den > 1 ? ", times rounded to whole cycles" : "");
}

void twill_cg_header(const cg_model *cm, FILE *f, const char *pfx,
               const char *what) {
  fprintf(f, "%stwill %s: kernel %s on %s\n", pfx, what, cm->g->name,
          cm->m ? cm->m->name : "(no machine)");
  if (cm->opts && cm->opts->heuristic)
    fprintf(f,
            "%sheuristic schedule, not optimal (list / iterative modulo "
            "scheduling, default warps)\n",
            pfx);
  else if (cm->opts && cm->opts->source)
    fprintf(f, "%sschedule from %s\n", pfx, cm->opts->source);
  twill_cg_scale_line(cm, f, pfx);
  fprintf(f,
          "%sI = %ld, L = %ld, copies C = ceil(L/I) = %ld, T = (C-1)*I + L = "
          "%ld\n",
          pfx, twill_cg_real(cm, cm->I), twill_cg_real(cm, cm->L), cm->C,
          twill_cg_real(cm, cm->T));
  fprintf(f,
          "%sprologue [0, %ld), steady state [%ld, %ld) (loop body, one per "
          "I), epilogue [%ld, %ld)\n",
          pfx, twill_cg_real(cm, (cm->C - 1) * cm->I),
          twill_cg_real(cm, (cm->C - 1) * cm->I), twill_cg_real(cm, cm->C * cm->I),
          twill_cg_real(cm, cm->C * cm->I), twill_cg_real(cm, cm->T));
}
