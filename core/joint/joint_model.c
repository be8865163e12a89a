/* core/joint/joint_model.c: the joint SWP+WS model in plain arithmetic: default
 * parameters, the validator, and the usage report (twill/joint.h).
 *
 * This file is the definition the encoder and the brute-force enumerator
 * are tested against, so it computes every quantity directly from the
 * start times and warps, with no shared code from the encoder. */
#include "twill/joint.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void twill_joint_params_default(twill_joint_params *p, const twill_arch *m) {
  memset(p, 0, sizeof *p);
  p->warps = m && m->warps > 0 ? m->warps : 1;
  p->warpgroup = m && m->warpgroup > 0 ? m->warpgroup : 4;
  if (p->warps % p->warpgroup) p->warpgroup = 1;
  p->regs = m && m->reg_budget > 0 ? m->reg_budget : 255;
  p->regs_per_sm = m ? m->regs_per_sm : 65536;
  p->reg_lo = m ? m->setmaxnreg_lo : 0;
  p->reg_step = m ? m->setmaxnreg_step : 0;
  p->cross_warp = m ? m->cross_warp : 0;
  p->no_cross_warp = false;
  p->smem_cap = m ? twill_arch_mem_cap(m, "smem") : -1;
  p->tmem_cap = m ? twill_arch_mem_cap(m, "tmem") : -1;
  p->symmetry = true;
  p->subtile_symmetry = true;
  p->reg_total = true;
}

static int fail(char *why, size_t n, const char *fmt, ...) {
  if (why && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

static int span(const twill_op *o, const twill_joint_params *p) {
  return twill_op_span(o, p->warpgroup);
}

/* Do the warp sets of u and v intersect? */
static bool share(const twill_graph *g, const twill_joint_params *p,
                  const twill_schedule *s, int u, int v) {
  int a = s->warp[u], b = s->warp[v];
  int ea = a + span(&g->ops[u], p), eb = b + span(&g->ops[v], p);
  return a < eb && b < ea;
}

/* e(v): the end of v's lifetime in absolute cycles (iteration 0). */
static long life_end(const twill_graph *g, const twill_schedule *s, int v) {
  long e = s->start[v] + lat1(&g->ops[v]);
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *ed = &g->edges[i];
    if (ed->src != v) continue;
    long u = s->start[ed->dst] + s->ii * (long)ed->dist;
    if (u > e) e = u;
  }
  return e;
}

/* n_v(s) for s in [0, I): copies of v's result live at slot s, and at
 * least k_min(v) of them where the parameters give a floor. */
static void live_counts(const twill_graph *g, const twill_joint_params *p,
                        const twill_schedule *s, int v, long *n) {
  long I = s->ii, t = s->start[v], e = life_end(g, s, v);
  long k0 = p->min_live && p->min_live[v] > 0 ? p->min_live[v] : 0;
  for (long k = 0; k < I; k++) n[k] = 0;
  for (long tau = t; tau < e; tau++) n[tau % I]++;
  for (long k = 0; k < I; k++)
    if (n[k] < k0) n[k] = k0;
}

static bool varlat_any(const twill_graph *g) {
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].varlat) return true;
  return false;
}

static int check_warps(const twill_graph *g, const twill_joint_params *p,
                       const twill_schedule *s, char *why, size_t n) {
  bool vl = varlat_any(g);
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    int w = s->warp[v], sp = span(o, p);
    if (w < 0 || w + sp > p->warps || w % sp)
      return fail(why, n, "op '%s' on warp %d: not a %s within [0, %d)",
                  o->name, w, sp > 1 ? "whole warpgroup" : "warp", p->warps);
    if (vl && o->varlat != (w == 0))
      return fail(why, n,
                  o->varlat ? "variable-latency op '%s' is not on warp 0"
                            : "op '%s' shares warp 0 with the "
                              "variable-latency ops",
                  o->name);
  }
  return 0;
}

/* A register edge (its source keeps its result in registers, variable-
 * latency or not) crosses warps when the consumer runs on a warp that does
 * not hold the value: S(dst) is not inside S(src).  Interval arithmetic on
 * the warp ranges, with no use of how blocks are aligned. */
static bool crosses(const twill_graph *g, const twill_joint_params *p,
                    const twill_schedule *s, const twill_edge *e) {
  const twill_op *u = &g->ops[e->src];
  if (e->src == e->dst || u->regs <= 0) return false;
  int a = s->warp[e->src], b = s->warp[e->dst];
  int ea = a + span(u, p), eb = b + span(&g->ops[e->dst], p);
  return !(a <= b && eb <= ea);
}

static int check_cross(const twill_graph *g, const twill_joint_params *p,
                       const twill_schedule *s, char *why, size_t n) {
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    const twill_op *u = &g->ops[e->src];
    if (!crosses(g, p, s, e)) continue;
    if (p->no_cross_warp)
      return fail(why, n,
                  "edge %s -> %s crosses warps (%d, %d) but cross-warp "
                  "transfers are forbidden",
                  u->name, g->ops[e->dst].name, s->warp[e->src],
                  s->warp[e->dst]);
    long X = u->spill >= 0 ? u->spill : p->cross_warp;
    long need = e->lat + X - s->ii * (long)e->dist;
    long have = s->start[e->dst] - s->start[e->src];
    if (have < need)
      return fail(why, n,
                  "cross-warp edge %s -> %s: t(%s) - t(%s) = %ld < %ld + "
                  "transfer %ld - %ld*%d",
                  u->name, g->ops[e->dst].name, g->ops[e->dst].name, u->name,
                  have, e->lat, X, s->ii, e->dist);
  }
  return 0;
}

static int check_blocking(const twill_graph *g, const twill_joint_params *p,
                          const twill_schedule *s, char *why, size_t n) {
  long I = s->ii;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    /* a blocking edge, or a crossing value's barrier wait */
    if (!e->blocking && !crosses(g, p, s, e)) continue;
    int v = e->dst;
    for (int o = 0; o < g->nops; o++) {
      if (o == v || g->ops[o].lat <= 0 || !share(g, p, s, o, v)) continue;
      long r = ((s->start[v] - s->start[o]) % I + I) % I;
      bool running = g->ops[o].lat >= I || r < g->ops[o].lat;
      if (running)
        return fail(why, n,
                    "%s of '%s' (on '%s') at cycle %ld while "
                    "'%s' (started %ld, %ld cycles) runs on the same warp",
                    e->blocking ? "blocking wait" : "cross-warp barrier wait",
                    g->ops[v].name, g->ops[e->src].name, s->start[v],
                    g->ops[o].name, s->start[o], g->ops[o].lat);
    }
  }
  return 0;
}

/* Per-warp register need, max over slots, into need[w]; memory peaks. */
static int usage(const twill_graph *g, const twill_joint_params *p,
                 const twill_schedule *s, long *need, long *smem,
                 long *tmem) {
  long I = s->ii;
  long *n = malloc((size_t)I * sizeof *n);
  long *acc = calloc((size_t)p->warps * (size_t)I, sizeof *acc);
  long *sm = calloc((size_t)I, sizeof *sm), *tm = calloc((size_t)I, sizeof *tm);
  if (!n || !acc || !sm || !tm) {
    free(n), free(acc), free(sm), free(tm);
    return -1;
  }
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    if (o->regs <= 0 && o->smem <= 0 && o->tmem <= 0) continue;
    live_counts(g, p, s, v, n);
    for (long k = 0; k < I; k++) {
      sm[k] += o->smem * n[k];
      tm[k] += o->tmem * n[k];
      for (int w = s->warp[v]; w < s->warp[v] + span(o, p); w++)
        acc[(size_t)w * (size_t)I + (size_t)k] += o->regs * n[k];
    }
  }
  *smem = *tmem = 0;
  for (long k = 0; k < I; k++) {
    if (sm[k] > *smem) *smem = sm[k];
    if (tm[k] > *tmem) *tmem = tm[k];
  }
  for (int w = 0; w < p->warps; w++) {
    need[w] = 0;
    for (long k = 0; k < I; k++)
      if (acc[(size_t)w * (size_t)I + (size_t)k] > need[w])
        need[w] = acc[(size_t)w * (size_t)I + (size_t)k];
  }
  free(n), free(acc), free(sm), free(tm);
  return 0;
}

/* The least legal budget of a group that needs `need` registers. */
static long group_budget(const twill_joint_params *p, long need) {
  if (p->reg_step <= 0) return p->regs;
  long r = p->reg_lo;
  if (need > r) r += (need - r + p->reg_step - 1) / p->reg_step * p->reg_step;
  return r;
}

void twill_joint_usage(const twill_graph *g, const twill_joint_params *p,
                       const twill_schedule *s, long *group_regs,
                       long *smem_peak, long *tmem_peak) {
  long *need = calloc((size_t)p->warps, sizeof *need);
  int G = p->warps / p->warpgroup;
  *smem_peak = *tmem_peak = 0;
  for (int gi = 0; gi < G; gi++) group_regs[gi] = 0;
  if (!need || usage(g, p, s, need, smem_peak, tmem_peak)) {
    free(need);
    return;
  }
  for (int w = 0; w < p->warps; w++)
    if (need[w] > group_regs[w / p->warpgroup])
      group_regs[w / p->warpgroup] = need[w];
  free(need);
}

static int check_resources(const twill_graph *g, const twill_joint_params *p,
                           const twill_schedule *s, char *why, size_t n) {
  long *need = calloc((size_t)p->warps, sizeof *need), smem, tmem;
  if (!need || usage(g, p, s, need, &smem, &tmem)) {
    free(need);
    return fail(why, n, "out of memory");
  }
  int G = p->warps / p->warpgroup;
  long total = 0;
  for (int gi = 0; gi < G; gi++) {
    long worst = 0;
    int ww = gi * p->warpgroup;
    for (int w = gi * p->warpgroup; w < (gi + 1) * p->warpgroup; w++)
      if (need[w] > worst) worst = need[w], ww = w;
    if (group_budget(p, worst) > p->regs || worst > p->regs) {
      free(need);
      return fail(why, n,
                  "warp %d needs %ld registers per thread, over the budget "
                  "%ld",
                  ww, worst, p->regs);
    }
    total += 32L * p->warpgroup * group_budget(p, worst);
  }
  free(need);
  if (p->reg_step > 0 && total > p->regs_per_sm)
    return fail(why, n,
                "the warpgroups' register budgets need %ld registers, the "
                "SM has %ld",
                total, p->regs_per_sm);
  if (p->smem_cap >= 0 && smem > p->smem_cap)
    return fail(why, n, "shared memory peaks at %ld bytes, capacity %ld", smem,
                p->smem_cap);
  if (p->tmem_cap >= 0 && tmem > p->tmem_cap)
    return fail(why, n, "tensor memory peaks at %ld columns, capacity %ld",
                tmem, p->tmem_cap);
  return 0;
}

const char *twill_rel_name(twill_rel_kind k) {
  return k == TWILL_REL_SAME    ? "same"
         : k == TWILL_REL_APART ? "apart"
         : k == TWILL_REL_OWN   ? "own"
                                : "lead";
}

int twill_rel_parse_kind(const char *word) {
  if (!strcmp(word, "same")) return TWILL_REL_SAME;
  if (!strcmp(word, "apart")) return TWILL_REL_APART;
  if (!strcmp(word, "own")) return TWILL_REL_OWN;
  if (!strcmp(word, "lead")) return TWILL_REL_LEAD;
  return -1;
}

void twill_joint_relset_free(twill_joint_relset *rs) {
  for (int k = 0; k < rs->n; k++) free((void *)rs->rels[k].ops);
  free(rs->rels);
  rs->rels = NULL;
  rs->n = 0;
}

int twill_joint_rel_add(twill_joint_relset *rs, const twill_graph *g,
                        twill_rel_kind kind, const char *list, char *why,
                        size_t whylen) {
  const char *nm = twill_rel_name(kind);
  if (rs->n >= TWILL_JOINT_MAX_RELS)
    return fail(why, whylen, "more than %d relations", TWILL_JOINT_MAX_RELS);
  size_t cap = 1;
  for (const char *c = list; *c; c++) cap += *c == ',';
  int *ops = malloc(cap * sizeof *ops);
  twill_joint_rel *nr = realloc(rs->rels, (size_t)(rs->n + 1) * sizeof *nr);
  if (!ops || !nr) {
    free(ops);
    if (nr) rs->rels = nr;
    return fail(why, whylen, "out of memory");
  }
  rs->rels = nr;
  int n = 0;
  for (const char *c = list;;) {
    const char *e = strchr(c, ',');
    size_t len = e ? (size_t)(e - c) : strlen(c);
    int v = -1;
    for (int i = 0; i < g->nops && v < 0; i++)
      if (strlen(g->ops[i].name) == len && !strncmp(g->ops[i].name, c, len)) v = i;
    if (v < 0) {
      free(ops);
      return fail(why, whylen, "--%s: unknown op '%.*s'", nm,
                  (int)(len > 64 ? 64 : len), c);
    }
    for (int i = 0; i < n; i++)
      if (ops[i] == v) {
        free(ops);
        return fail(why, whylen, "--%s: op '%s' listed twice", nm,
                    g->ops[v].name);
      }
    ops[n++] = v;
    if (!e) break;
    c = e + 1;
  }
  if (n < (kind == TWILL_REL_OWN ? 1 : 2) || (kind == TWILL_REL_LEAD && n != 2)) {
    free(ops);
    return fail(why, whylen, "--%s needs %s %d ops", nm,
                kind == TWILL_REL_LEAD ? "exactly" : "at least",
                kind == TWILL_REL_OWN ? 1 : 2);
  }
  rs->rels[rs->n].kind = kind;
  rs->rels[rs->n].nops = n;
  rs->rels[rs->n].ops = ops;
  rs->n++;
  return 0;
}

static bool listed(const twill_joint_rel *r, int v) {
  for (int i = 0; i < r->nops; i++)
    if (r->ops[i] == v) return true;
  return false;
}

int twill_joint_check_rels(const twill_graph *g, const twill_joint_params *p,
                           const twill_schedule *s, char *why, size_t whylen) {
  for (int k = 0; k < p->nrels; k++) {
    const twill_joint_rel *r = &p->rels[k];
    const char *nm = twill_rel_name(r->kind);
    for (int i = 0; i < r->nops; i++)
      if (r->ops[i] < 0 || r->ops[i] >= g->nops)
        return fail(why, whylen, "--%s names op %d of %d", nm, r->ops[i],
                    g->nops);
    if (r->kind == TWILL_REL_LEAD) {
      if (r->nops != 2) return fail(why, whylen, "--lead needs two ops");
      int a = r->ops[0], b = r->ops[1];
      if (!(s->start[a] + s->ii < s->start[b]))
        return fail(why, whylen, "--lead: '%s' of the next iteration (%ld) "
                    "does not issue before '%s' (%ld)", g->ops[a].name,
                    s->start[a] + s->ii, g->ops[b].name, s->start[b]);
      continue;
    }
    for (int i = 0; i < r->nops; i++)
      for (int l = i + 1; l < r->nops; l++) {
        int a = r->ops[i], b = r->ops[l];
        bool sh = share(g, p, s, a, b);
        if (r->kind == TWILL_REL_APART && sh)
          return fail(why, whylen, "--apart: '%s' and '%s' share a warp",
                      g->ops[a].name, g->ops[b].name);
        if (r->kind != TWILL_REL_APART && i == 0 && !sh)
          return fail(why, whylen, "--%s: '%s' and '%s' share no warp", nm,
                      g->ops[a].name, g->ops[b].name);
      }
    if (r->kind != TWILL_REL_OWN) continue;
    for (int v = 0; v < g->nops; v++) {
      if (listed(r, v)) continue;
      for (int i = 0; i < r->nops; i++)
        if (share(g, p, s, v, r->ops[i]))
          return fail(why, whylen, "--own: '%s' shares a warp with '%s'",
                      g->ops[v].name, g->ops[r->ops[i]].name);
    }
  }
  return 0;
}

int twill_joint_validate(const twill_graph *g, const twill_joint_params *p,
                         long L, const twill_schedule *s, char *why,
                         size_t whylen) {
  if (!s->warp) return fail(why, whylen, "the schedule has no warps");
  if (p->ncovers)
    return fail(why, whylen, "covers belong to the single-iteration relaxation, whose "
                "phantom copies a schedule does not state");
  if (p->warps < 1 || p->warpgroup < 1 || p->warps % p->warpgroup)
    return fail(why, whylen, "%d warps do not form warpgroups of %d",
                p->warps, p->warpgroup);
  /* completion first: with every start in [0, L - lat], no later sum or
   * difference of start times can overflow */
  for (int v = 0; v < g->nops; v++) {
    if (s->start[v] < 0)
      return fail(why, whylen, "op '%s' starts at %ld < 0", g->ops[v].name,
                  s->start[v]);
    if (s->start[v] > L - lat1(&g->ops[v]))
      return fail(why, whylen, "op '%s' (%ld cycles) starts at %ld and ends "
                  "after the length %ld", g->ops[v].name, lat1(&g->ops[v]),
                  s->start[v], L);
  }
  /* dependences and modulo capacity: the phase-1 validator, without its
   * warp rules (the joint model states its own below) */
  twill_schedule base = *s;
  base.warp = NULL;
  if (twill_schedule_validate(g, NULL, &base, why, whylen)) return -1;
  if (check_warps(g, p, s, why, whylen)) return -1;
  if (check_cross(g, p, s, why, whylen)) return -1;
  if (check_blocking(g, p, s, why, whylen)) return -1;
  if (twill_joint_check_rels(g, p, s, why, whylen)) return -1;
  return check_resources(g, p, s, why, whylen);
}
