/* core/joint/joint_enc.c: the joint SWP+WS problem at fixed (I, L) encoded on the
 * integer theory layer (twill/smt.h): linear integer arithmetic, as in the
 * paper, but with integer start times with difference and modulo
 * propagators instead of the paper's Boolean op[v, i, t] grid, Booleans for
 * the warp assignment, and
 * Boolean grids only where a cycle-by-cycle count is unavoidable
 * (lifetimes, "running at slot s").
 *
 * Each statement of the model in twill/joint.h becomes:
 *   completion   the domain of t(v): [0, L - max(lat, 1)]
 *   dependence   t(u) - t(v) <= I*delta - d                 (diff)
 *   capacity     one modulo-resource constraint per unit    (mod)
 *   warps        on(v, w) Booleans; exactly one warp (or one group) per op
 *   var. latency on(v, 0) <-> varlat(v)
 *   lifetimes    live(v, tau) forced true by
 *                  [t(v) <= tau] & ~[t(v) <= tau - max(lat,1)]
 *                  [t(v) <= tau] & ~[t(u) <= tau - I*delta]   per user u
 *                (only forced up: live appears only on the small side of
 *                capacity constraints, so a spurious "live" never helps);
 *                an op with a floor k = k_min(v) >= 1 has no grid: k
 *                copies at every slot (see floored() for why that is exact)
 *   registers    z(v, w, tau) >= on(v, w) & live(v, tau);
 *                per warp w, slot s: sum regs(v) z(v, w, tau = s mod I)
 *                  + sum over floored v of k*regs(v) on(v, w)
 *                  + sum over phantoms ph(v, w, s) of regs(v) (covers)
 *                  - STEP*q(g) <= LO       (r_g = LO + STEP*q_g <= R)
 *                register file: sum_g 32*WG*STEP*q_g <= regs_per_sm - G*32*WG*LO
 *                total (p->reg_total, joint.h REGISTER TOTAL): per slot,
 *                  sum over warpgroup values of regs * live <= the sum of
 *                  the groups' budgets, under its own guard literal
 *   memories     per slot: sum smem(v) live(v, tau = s mod I)
 *                  <= capacity - sum over floored v of k*smem(v)
 *   cross-warp   per register edge u -> v (regs(u) > 0):
 *                span(v) <= span(u): p(w) -> on(u, w), p(w) -> on(v, w);
 *                  cw | OR_w p(w)   (S(v) inside S(u) iff they meet)
 *                span(v) > span(u): cw   (S(v) is never inside S(u));
 *                cw -> t(u) - t(v) <= I*delta - d - X
 *   blocking     run(o, s) >= [t(o) = a] for s in a .. a+lat(o)-1 (mod I);
 *                sw(o, v) >= on(o, w) & on(v, w);
 *                ~([t(v) = b] & sw(o, v) & run(o, b mod I)), and the same
 *                under cw for the consumer of a crossing register edge
 * Every family but the base is guarded by a selector literal, assumed in
 * a solve, so a refutation's failed assumptions name the families it used.
 *
 * Symmetry: warpgroups are interchangeable (all but the group of W_vl), and
 * so are the warps inside a group (all but W_vl itself).  Any schedule can
 * first be relabelled inside each group so that warps are first used in
 * order of op index, then whole groups permuted so that groups are first
 * used in op order; the second step keeps the first's property.  So the
 * precedence clauses below ("op j on warp w implies an op i <= j on warp
 * w - 1", and the same for groups with i < j) keep every (I, L) that was
 * satisfiable satisfiable; tests check it against the unbroken encoding.
 */
#include "twill/joint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "twill/smt.h"

struct twill_joint {
  const twill_graph *g;
  twill_joint_params p;
  long I, L;
  int W, WG, G;
  twill_smt *m;
  int T;          /* constant-true literal */
  int *t;         /* int var per op */
  long *ub;       /* max start per op */
  int *on;        /* on[v*W + w] */
  int **eq;       /* eq[v][a]: [t(v) = a], 0 until created */
  int **live;     /* live[v][tau], NULL for ops holding nothing */
  long *H;        /* grid length of live[v] */
  int **run;      /* run[v][s] */
  int *cw;        /* "crosses warps" literal per register edge */
  int *cw_dst;    /* its consumer */
  int *cw_sel;    /* its family's selector */
  int ncw;
  int *sw;        /* sw[o * nops + v]: shares-a-warp literal, 0 if none */
  int vl_sel;     /* the variable-latency family's selector, 0 if none */
  int nfam;
  char *fam[TWILL_JOINT_MAX_FAMILIES];
  int sel[TWILL_JOINT_MAX_FAMILIES];
  int err;
  /* with a proof: the input bytes the encoding wrote (build), and where
   * twill_joint_refute's units landed after them (a search before it
   * may have written order literals in between; twill_joint_write_proof
   * moves the units back to in_built) */
  size_t in_built, units_from, units_to;
  bool units;     /* twill_joint_refute has added them */
  /* scratch clause */
  int *cl;
  int ncl, ccl;
};

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }
/* Warps an op occupies: 1, a warpgroup, or `groups` aligned warpgroups. */
static int span_of(const twill_joint *j, const twill_op *o) {
  return twill_op_span(o, j->WG);
}

/* ---- clause building with constant folding ----------------------------- */

static void cl_start(twill_joint *j) { j->ncl = 0; }

/* Returns 1 if the clause became a tautology. */
static int cl_lit(twill_joint *j, int lit) {
  if (lit == j->T) j->ncl = -1;
  if (j->ncl < 0 || lit == -j->T) return j->ncl < 0;
  for (int i = 0; i < j->ncl; i++) {
    if (j->cl[i] == lit) return 0;
    if (j->cl[i] == -lit) {
      j->ncl = -1;
      return 1;
    }
  }
  if (j->ncl == j->ccl) {
    int nc = j->ccl ? 2 * j->ccl : 64;
    int *n = realloc(j->cl, (size_t)nc * sizeof *n);
    if (!n) {
      j->err = 1;
      return 1;
    }
    j->cl = n;
    j->ccl = nc;
  }
  j->cl[j->ncl++] = lit;
  return 0;
}

static void cl_end(twill_joint *j) {
  if (j->ncl < 0 || j->err) return;
  if (twill_smt_clause(j->m, j->cl, j->ncl) < 0) j->err = 1;
}

static void clause2(twill_joint *j, int a, int b) {
  cl_start(j);
  cl_lit(j, a);
  cl_lit(j, b);
  cl_end(j);
}

static void clause3(twill_joint *j, int a, int b, int c) {
  cl_start(j);
  cl_lit(j, a);
  cl_lit(j, b);
  cl_lit(j, c);
  cl_end(j);
}

static int new_bool(twill_joint *j) {
  int b = twill_smt_bool(j->m);
  if (!b) j->err = 1;
  return b ? b : j->T;
}

static int le(twill_joint *j, int v, long k) {
  return twill_smt_le_lit(j->m, j->t[v], k);
}

static int eqlit(twill_joint *j, int v, long a) {
  if (a < 0 || a > j->ub[v]) return -j->T;
  if (!j->eq[v][a]) {
    int e = twill_smt_eq_lit(j->m, j->t[v], a);
    if (!e) {
      j->err = 1;
      return -j->T;
    }
    j->eq[v][a] = e;
  }
  return j->eq[v][a];
}

static int on(const twill_joint *j, int v, int w) { return j->on[v * j->W + w]; }

static int family(twill_joint *j, const char *fmt, const char *a,
                  const char *b, long n) {
  if (j->nfam == TWILL_JOINT_MAX_FAMILIES) {
    j->err = 1;
    return j->T;
  }
  char buf[256];
  if (b)
    snprintf(buf, sizeof buf, fmt, a, b);
  else if (a)
    snprintf(buf, sizeof buf, fmt, a);
  else
    snprintf(buf, sizeof buf, fmt, n);
  j->fam[j->nfam] = strdup(buf);
  if (!j->fam[j->nfam]) j->err = 1;
  j->sel[j->nfam] = new_bool(j);
  return j->sel[j->nfam++];
}

/* ---- the families ------------------------------------------------------ */

static void enc_times(twill_joint *j) {
  const twill_graph *g = j->g;
  for (int v = 0; v < g->nops && !j->err; v++) {
    j->t[v] = twill_smt_int(j->m, 0, j->ub[v]);
    if (j->t[v] < 0) j->err = 1;
  }
  if (!j->err) j->T = twill_smt_true_lit(j->m);
  for (int i = 0; i < g->nedges && !j->err; i++) {
    const twill_edge *e = &g->edges[i];
    long c = j->I * (long)e->dist - e->lat;
    if (e->src == e->dst) {
      if (c < 0) {
        cl_start(j);
        cl_end(j);
      }
      continue;
    }
    if (twill_smt_diff(j->m, j->t[e->src], j->t[e->dst], c) < 0) j->err = 1;
  }
}

static void enc_capacity(twill_joint *j) {
  const twill_graph *g = j->g;
  for (int u = 0; u < g->nunits && !j->err; u++) {
    int n = 0, cap = 0;
    int *vars = NULL;
    int64_t *off = NULL;
    for (int pass = 0; pass < 2; pass++) {
      n = 0;
      for (int v = 0; v < g->nops; v++)
        for (int k = 0; k < g->ops[v].nuses; k++) {
          const twill_use *us = &g->ops[v].uses[k];
          if (us->unit != u) continue;
          for (int c = 0; c < us->cycles; c++)
            for (int r = 0; r < us->count; r++, n++)
              if (pass) vars[n] = j->t[v], off[n] = us->offset + c;
        }
      if (pass) break;
      if (n <= g->units[u].capacity) break;
      vars = malloc((size_t)n * sizeof *vars);
      off = malloc((size_t)n * sizeof *off);
      cap = 1;
      if (!vars || !off) {
        j->err = 1;
        break;
      }
    }
    if (cap && !j->err &&
        twill_smt_modulo(j->m, g->units[u].capacity, j->I, vars, off, n) < 0)
      j->err = 1;
    free(vars);
    free(off);
  }
}

static bool any_varlat(const twill_graph *g) {
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].varlat) return true;
  return false;
}

static void enc_warps(twill_joint *j) {
  const twill_graph *g = j->g;
  int W = j->W;
  int *b = malloc((size_t)(W > 0 ? W : 1) * sizeof *b);
  if (!b) {
    j->err = 1;
    return;
  }
  for (int v = 0; v < g->nops && !j->err; v++) {
    /* one Boolean per aligned block of span warps (n = 0: the op does not
     * fit the machine, and the empty clause below says so) */
    int sp = span_of(j, &g->ops[v]);
    int n = W / sp;
    for (int k = 0; k < n; k++) b[k] = new_bool(j);
    for (int w = 0; w < W; w++) j->on[v * W + w] = w / sp < n ? b[w / sp] : -j->T;
    cl_start(j);
    for (int k = 0; k < n; k++) cl_lit(j, b[k]);
    cl_end(j);
    for (int k = 0; k < n; k++)
      for (int l = k + 1; l < n; l++) clause2(j, -b[k], -b[l]);
  }
  free(b);
  if (!any_varlat(g) || j->err) return;
  int s = j->vl_sel = family(j, "variable-latency ops alone on warp 0", NULL, NULL, 0);
  for (int v = 0; v < g->nops; v++)
    clause2(j, -s, g->ops[v].varlat ? on(j, v, 0) : -on(j, v, 0));
}

static void enc_symmetry(twill_joint *j) {
  const twill_graph *g = j->g;
  int W = j->W, WG = j->WG, G = j->G;
  bool vl = any_varlat(g), multi = false;
  for (int v = 0; v < g->nops; v++)
    if (span_of(j, &g->ops[v]) > WG) multi = true;
  /* groups: first use in op order.  An op over several aligned groups
   * makes only block-preserving renamings symmetries: then the groups are
   * left unordered (the warps inside a group stay interchangeable). */
  for (int gr = (vl ? 1 : 0) + 1; gr < G && !multi; gr++)
    for (int v = 0; v < g->nops; v++)
      for (int w = gr * WG; w < (gr + 1) * WG; w++) {
        cl_start(j);
        cl_lit(j, -on(j, v, w));
        for (int i = 0; i < v; i++)
          for (int x = (gr - 1) * WG; x < gr * WG; x++) cl_lit(j, on(j, i, x));
        cl_end(j);
      }
  /* warps inside a group */
  for (int gr = 0; gr < G; gr++)
    for (int r = (gr == 0 && vl ? 1 : 0) + 1; r < WG; r++) {
      int w = gr * WG + r;
      for (int v = 0; v < g->nops; v++) {
        cl_start(j);
        cl_lit(j, -on(j, v, w));
        for (int i = 0; i <= v; i++) cl_lit(j, on(j, i, w - 1));
        cl_end(j);
      }
    }
  (void)W;
}

/* Isomorphic sub-tiles start in order (twill/joint.h, SUB-TILE SYMMETRY;
 * the classes and the argument in core/joint/joint_enc_sym.c): one
 * difference constraint t(a) - t(b) <= 0 per pair, after the warp order. */
static void enc_subtiles(twill_joint *j) {
  const twill_graph *g = j->g;
  int *pairs = malloc((size_t)(g->nops > 0 ? 2 * g->nops : 2) * sizeof *pairs);
  int np = pairs ? twill_joint_subtile_order(g, &j->p, pairs, g->nops) : -1;
  if (np < 0) j->err = 1;
  for (int i = 0; i < np && !j->err; i++)
    if (twill_smt_diff(j->m, j->t[pairs[2 * i]], j->t[pairs[2 * i + 1]], 0) < 0) j->err = 1;
  free(pairs);
}

/* ---- relations (the user's role questions) ------------------------------
 * share(a, b): with a single-warp op on one side, its warp lies in the other
 * op's set (on(x, w) -> on(y, w)); two warpgroup ops: the same group.
 * disjoint(a, b): no warp in both sets. */
static void rel_share(twill_joint *j, int s, int a, int b) {
  if (span_of(j, &j->g->ops[b]) > span_of(j, &j->g->ops[a])) {
    int t = a;
    a = b, b = t;
  }
  /* now b's block is no larger than a's: aligned blocks of 1, WG, 2 WG and
   * 4 WG warps nest, so they share a warp iff b's lies inside a's */
  for (int w = 0; w < j->W; w++) clause3(j, -s, -on(j, b, w), on(j, a, w));
}

static void rel_disjoint(twill_joint *j, int s, int a, int b) {
  for (int w = 0; w < j->W; w++) clause3(j, -s, -on(j, a, w), -on(j, b, w));
}

static void enc_relations(twill_joint *j) {
  const twill_graph *g = j->g;
  for (int k = 0; k < j->p.nrels && !j->err; k++) {
    const twill_joint_rel *r = &j->p.rels[k];
    char name[200];
    int n = snprintf(name, sizeof name, "--%s ", twill_rel_name(r->kind));
    for (int i = 0; i < r->nops && n < (int)sizeof name; i++)
      n += snprintf(name + n, sizeof name - (size_t)n, "%s%s", i ? "," : "",
                    g->ops[r->ops[i]].name);
    int s = family(j, "relation %s", name, NULL, 0);
    if (r->kind == TWILL_REL_LEAD) { /* t(a) - t(b) <= -I - 1 under s */
      twill_smt_term tm[2] = {{.a = 1, .var = j->t[r->ops[0]], .lit = 0},
                              {.a = -1, .var = j->t[r->ops[1]], .lit = 0}};
      if (r->nops != 2 || twill_smt_linear(j->m, tm, 2, -j->I - 1, s) < 0) j->err = 1;
      continue;
    }
    for (int i = 0; i < r->nops; i++)
      for (int l = i + 1; l < r->nops; l++) {
        if (r->kind == TWILL_REL_APART) rel_disjoint(j, s, r->ops[i], r->ops[l]);
        else if (i == 0) rel_share(j, s, r->ops[0], r->ops[l]);
      }
    if (r->kind != TWILL_REL_OWN) continue;
    for (int v = 0; v < g->nops; v++) {
      bool in = false;
      for (int i = 0; i < r->nops; i++) in = in || r->ops[i] == v;
      if (!in)
        for (int i = 0; i < r->nops; i++) rel_disjoint(j, s, v, r->ops[i]);
    }
  }
}

/* A register edge (regs(u) > 0, variable-latency or not) crosses when
 * S(v) is not inside S(u).  Blocks are aligned and their sizes (1, WG,
 * 2 WG, 4 WG) each divide the next, so two blocks are nested or disjoint:
 * with span(v) <= span(u), S(v) lies inside S(u) iff they share a warp;
 * with span(v) > span(u) it never does, and the edge always crosses. */
static void enc_cross(twill_joint *j) {
  const twill_graph *g = j->g;
  for (int i = 0; i < g->nedges && !j->err; i++) {
    const twill_edge *e = &g->edges[i];
    const twill_op *u = &g->ops[e->src];
    if (e->src == e->dst || u->regs <= 0) continue;
    int s = family(j, "cross-warp transfer %s->%s", u->name,
                   g->ops[e->dst].name, 0);
    cl_start(j);
    cl_lit(j, -s);
    if (span_of(j, &g->ops[e->dst]) <= span_of(j, u)) {
      int *pw = malloc((size_t)j->W * sizeof *pw);
      if (!pw) {
        j->err = 1;
        return;
      }
      for (int w = 0; w < j->W; w++) {
        pw[w] = new_bool(j);
        clause2(j, -pw[w], on(j, e->src, w));
        clause2(j, -pw[w], on(j, e->dst, w));
      }
      cl_start(j);
      cl_lit(j, -s);
      for (int w = 0; w < j->W; w++) cl_lit(j, pw[w]);
      free(pw);
    }
    if (j->p.no_cross_warp) {
      cl_end(j);
      continue;
    }
    int cw = new_bool(j);
    cl_lit(j, cw);
    cl_end(j);
    j->cw[j->ncw] = cw;
    j->cw_dst[j->ncw] = e->dst;
    j->cw_sel[j->ncw++] = s;
    long X = u->spill >= 0 ? u->spill : j->p.cross_warp;
    twill_smt_term tm[2] = {{1, j->t[e->src], 0}, {-1, j->t[e->dst], 0}};
    if (!j->err &&
        twill_smt_linear(j->m, tm, 2, j->I * (long)e->dist - e->lat - X, cw) < 0)
      j->err = 1;
  }
}

static bool holds(const twill_joint *j, const twill_op *o) {
  return o->regs > 0 || o->smem > 0 || (o->tmem > 0 && j->p.tmem_cap >= 0);
}

/* k_min(v) of the model ("lifetimes"): 0 unless the parameters set it. */
static long floor_of(const twill_joint *j, int v) {
  return j->p.min_live && j->p.min_live[v] > 0 ? j->p.min_live[v] : 0;
}

/* The lifetime grid of v: every cycle its result can be live in, [0, H)
 * with H the latest end e(v) any start times in the domains allow. */
static long grid_len(const twill_joint *j, int v) {
  const twill_graph *g = j->g;
  long H = j->ub[v] + lat1(&g->ops[v]);
  for (int i = 0; i < g->nedges; i++)
    if (g->edges[i].src == v) {
      long e = j->ub[g->edges[i].dst] + j->I * (long)g->edges[i].dist;
      if (e > H) H = e;
    }
  return H;
}

/* An op with k = k_min(v) >= 1 whose grid has at most k cycles in each
 * residue class (H <= k*I) has n_v(s) = max(copies live at s, k) = k at
 * every slot, whatever its start: it needs no lifetime grid and adds
 * k * footprint to every slot (on its warps, for registers).  That is the
 * only use of k_min (the "no I at all" relaxation, where I' is past every
 * lifetime); build() refuses a floor that could be exceeded, so the
 * encoding never has to state max(sum, k). */
static bool floored(const twill_joint *j, int v) {
  return floor_of(j, v) > 0;
}

static void enc_liveness(twill_joint *j) {
  const twill_graph *g = j->g;
  for (int v = 0; v < g->nops && !j->err; v++) {
    const twill_op *o = &g->ops[v];
    if (!holds(j, o) || floored(j, v)) continue;
    long H = grid_len(j, v);
    j->H[v] = H;
    j->live[v] = malloc((size_t)H * sizeof **j->live);
    if (!j->live[v]) {
      j->err = 1;
      return;
    }
    for (long tau = 0; tau < H; tau++) {
      int lv = j->live[v][tau] = new_bool(j);
      clause3(j, -le(j, v, tau), le(j, v, tau - lat1(o)), lv);
      for (int i = 0; i < g->nedges; i++) {
        const twill_edge *e = &g->edges[i];
        if (e->src != v) continue;
        clause3(j, -le(j, v, tau), le(j, e->dst, tau - j->I * (long)e->dist), lv);
      }
    }
  }
}

/* A linear constraint from a term buffer; grows it as needed. */
typedef struct tbuf {
  twill_smt_term *t;
  int n, cap;
} tbuf;

static void tb_push(twill_joint *j, tbuf *b, int64_t a, int var, int lit) {
  if (b->n == b->cap) {
    int nc = b->cap ? 2 * b->cap : 64;
    twill_smt_term *n = realloc(b->t, (size_t)nc * sizeof *n);
    if (!n) {
      j->err = 1;
      return;
    }
    b->t = n;
    b->cap = nc;
  }
  b->t[b->n].a = a;
  b->t[b->n].var = var;
  b->t[b->n].lit = lit;
  b->n++;
}

static void enc_memory(twill_joint *j, const char *name, long cap, int which) {
  const twill_graph *g = j->g;
  bool any = false;
  for (int v = 0; v < g->nops; v++)
    if ((which ? g->ops[v].tmem : g->ops[v].smem) > 0) any = true;
  if (!any || cap < 0 || j->err) return;
  int s = family(j, "%s capacity", name, NULL, 0);
  tbuf b = {0};
  for (long k = 0; k < j->I && !j->err; k++) {
    b.n = 0;
    long sum = 0, fixed = 0; /* fixed: the floored ops' k * footprint */
    for (int v = 0; v < g->nops; v++) {
      long a = which ? g->ops[v].tmem : g->ops[v].smem;
      if (a > 0 && floored(j, v)) fixed += a * floor_of(j, v);
      if (a <= 0 || !j->live[v]) continue;
      for (long tau = k; tau < j->H[v]; tau += j->I) {
        tb_push(j, &b, a, -1, j->live[v][tau]);
        sum += a;
      }
    }
    if (j->err || sum + fixed <= cap) continue;
    if (fixed > cap) { /* the floors alone overflow: the family fails */
      cl_start(j);
      cl_lit(j, -s);
      cl_end(j);
    } else if (twill_smt_linear(j->m, b.t, b.n, cap - fixed, s) < 0) {
      j->err = 1;
    }
  }
  free(b.t);
}

/* Phantom copies of the covers ("lifetimes" in twill/joint.h): for the
 * e-th op v of the covers (cover_ops[e]), each span-aligned warp w0 and
 * slot k, ph(e, w0, k) -> on(v, w0) ("a copy of v held on v's warps at k
 * that the lifetime grid does not show"), and per cover C and slot k
 *   OR over v in C, tau = k (mod I) of live(v, tau)  |  OR of C's ph(., ., k)
 * A phantom weighs regs(v) in the register rows of its warps.  Index of
 * ph(e, w0, k) in the array phantoms() returns: phantom_at(). */
/* The blocks of op v: one per multiple of its span below W (an op wider
 * than the machine still has one, as its z grid does). */
static size_t blocks(const twill_joint *j, int v) {
  int sp = span_of(j, &j->g->ops[v]);
  return (size_t)((j->W + sp - 1) / sp);
}

static size_t phantom_at(const twill_joint *j, int e, int w0, long k) {
  size_t x = 0;
  for (int f = 0; f < e; f++)
    x += blocks(j, j->p.cover_ops[f]) * (size_t)j->I;
  int sp = span_of(j, &j->g->ops[j->p.cover_ops[e]]);
  return x + (size_t)(w0 / sp) * (size_t)j->I + (size_t)k;
}

static int *phantoms(twill_joint *j) {
  const twill_joint_params *p = &j->p;
  if (p->ncovers <= 0 || j->err) return NULL;
  int ne = p->cover_at[p->ncovers];
  size_t n = phantom_at(j, ne - 1, 0, 0) +
             blocks(j, p->cover_ops[ne - 1]) * (size_t)j->I;
  int *ph = malloc(n * sizeof *ph);
  if (!ph) {
    j->err = 1;
    return NULL;
  }
  for (int e = 0; e < ne; e++) {
    int v = p->cover_ops[e], sp = span_of(j, &j->g->ops[v]);
    for (int w0 = 0; w0 < j->W; w0 += sp)
      for (long k = 0; k < j->I; k++) {
        int x = ph[phantom_at(j, e, w0, k)] = new_bool(j);
        clause2(j, -x, on(j, v, w0));
      }
  }
  for (int c = 0; c < p->ncovers && !j->err; c++)
    for (long k = 0; k < j->I && !j->err; k++) {
      cl_start(j);
      for (int e = p->cover_at[c]; e < p->cover_at[c + 1]; e++) {
        int v = p->cover_ops[e];
        for (long tau = k; tau < j->H[v]; tau += j->I) cl_lit(j, j->live[v][tau]);
      }
      for (int e = p->cover_at[c]; e < p->cover_at[c + 1]; e++) {
        int sp = span_of(j, &j->g->ops[p->cover_ops[e]]);
        for (int w0 = 0; w0 < j->W; w0 += sp) cl_lit(j, ph[phantom_at(j, e, w0, k)]);
      }
      cl_end(j);
    }
  return ph;
}

/* The register total (twill/joint.h, REGISTER TOTAL): per slot k, the
 * registers of the values warpgroup ops hold, over all groups, within what
 * the register file leaves the groups that can hold them.  It is the sum of
 * one warp's row per group and the register-file row; a single-warp op sits
 * on one warp of its group, not necessarily the one summed, so it is left
 * out, and so is a variable-latency op (group 0 may hold it).  A selector
 * of its own, implied by every family it is the sum of, so that an
 * explanation that drops one of them drops the total too. */
static void enc_register_total(twill_joint *j, const int *gsel, const int *ph, tbuf *b) {
  const twill_graph *g = j->g;
  const twill_joint_params *p = &j->p;
  int WG = j->WG, G = j->G;
  long step = p->reg_step;
  /* with the variable-latency warp, group 0 holds none of the values
   * summed, and its budget is at least LO */
  bool vl = j->vl_sel != 0;
  long q = (p->regs_per_sm - (long)G * 32L * WG * p->reg_lo) / (32L * WG * step);
  long rhs0 = (long)(vl ? G - 1 : G) * p->reg_lo + step * q;
  int x = new_bool(j);
  cl_start(j);
  for (int gr = 0; gr <= G; gr++) cl_lit(j, -gsel[gr]);
  if (vl) cl_lit(j, -j->vl_sel);
  cl_lit(j, x);
  cl_end(j);
  for (long k = 0; k < j->I && !j->err; k++) {
    long rhs = rhs0, sum = 0;
    b->n = 0;
    for (int v = 0; v < g->nops; v++) {
      const twill_op *o = &g->ops[v];
      int sp = span_of(j, o);
      if (o->regs <= 0 || sp < WG || o->varlat) continue;
      long c = o->regs * (sp / WG); /* once per group of its block */
      if (floored(j, v)) {
        rhs -= c * floor_of(j, v);
        continue;
      }
      for (long tau = k; tau < j->H[v]; tau += j->I) tb_push(j, b, c, -1, j->live[v][tau]), sum += c;
    }
    for (int e = 0; ph && e < p->cover_at[p->ncovers]; e++) {
      int v = p->cover_ops[e], sp = span_of(j, &g->ops[v]);
      if (sp < WG || g->ops[v].varlat) continue;
      for (int w0 = 0; w0 < j->W; w0 += sp) {
        tb_push(j, b, g->ops[v].regs * (sp / WG), -1, ph[phantom_at(j, e, w0, k)]);
        sum += g->ops[v].regs * (sp / WG);
      }
    }
    if (sum > rhs && !j->err && twill_smt_linear(j->m, b->t, b->n, rhs, x) < 0) j->err = 1;
  }
}

static void enc_registers(twill_joint *j) {
  const twill_graph *g = j->g;
  int W = j->W, WG = j->WG, G = j->G;
  const twill_joint_params *p = &j->p;
  bool any = false;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].regs > 0) any = true;
  if (!any || j->err) return;
  long step = p->reg_step > 0 ? p->reg_step : 0;
  long base = step ? p->reg_lo : p->regs;
  int *q = calloc((size_t)G, sizeof *q);
  /* z literals: per (op, warp, tau); warpgroup ops share one per group */
  int **z = calloc((size_t)g->nops * (size_t)W, sizeof *z);
  tbuf b = {0};
  if (!q || !z) j->err = 1;
  for (int gr = 0; gr < G && step && !j->err; gr++) {
    q[gr] = twill_smt_int(j->m, 0, (p->regs - p->reg_lo) / step);
    if (q[gr] < 0) j->err = 1;
  }
  for (int v = 0; v < g->nops && !j->err; v++) {
    const twill_op *o = &g->ops[v];
    if (o->regs <= 0 || floored(j, v)) continue;
    for (int w = 0; w < W && !j->err; w++) {
      int *zz = z[(size_t)v * W + w];
      int sp = span_of(j, o);
      if (w % sp) {
        z[(size_t)v * W + w] = z[(size_t)v * W + w - w % sp];
        continue;
      }
      zz = z[(size_t)v * W + w] = malloc((size_t)j->H[v] * sizeof *zz);
      if (!zz) {
        j->err = 1;
        break;
      }
      for (long tau = 0; tau < j->H[v]; tau++) {
        zz[tau] = new_bool(j);
        clause3(j, -on(j, v, w), -j->live[v][tau], zz[tau]);
      }
    }
  }
  int *ph = phantoms(j);
  int *gsel = calloc((size_t)G + 1, sizeof *gsel);
  if (!gsel) j->err = 1;
  for (int gr = 0; gr < G && !j->err; gr++) {
    int s = gsel[gr] = G > 1 || WG > 1
                ? family(j, "registers of warpgroup %ld", NULL, NULL, gr)
                : family(j, "registers of warp %ld", NULL, NULL, gr);
    for (int w = gr * WG; w < (gr + 1) * WG && !j->err; w++)
      for (long k = 0; k < j->I && !j->err; k++) {
        b.n = 0;
        long sum = 0;
        for (int v = 0; v < g->nops; v++) {
          if (g->ops[v].regs <= 0) continue;
          if (floored(j, v)) { /* k copies whenever v is on w */
            long a = g->ops[v].regs * floor_of(j, v);
            if (on(j, v, w) != -j->T) tb_push(j, &b, a, -1, on(j, v, w)), sum += a;
            continue;
          }
          for (long tau = k; tau < j->H[v]; tau += j->I) {
            tb_push(j, &b, g->ops[v].regs, -1, z[(size_t)v * W + w][tau]);
            sum += g->ops[v].regs;
          }
        }
        for (int e = 0; ph && e < p->cover_at[p->ncovers]; e++) {
          int v = p->cover_ops[e], sp = span_of(j, &g->ops[v]);
          tb_push(j, &b, g->ops[v].regs, -1, ph[phantom_at(j, e, w - w % sp, k)]);
          sum += g->ops[v].regs;
        }
        if (step) tb_push(j, &b, -step, q[gr], 0);
        if ((step || sum > base) && !j->err &&
            twill_smt_linear(j->m, b.t, b.n, base, s) < 0)
          j->err = 1;
      }
  }
  if (step && !j->err) {
    int s = family(j, "register file", NULL, NULL, 0);
    b.n = 0;
    for (int gr = 0; gr < G; gr++) tb_push(j, &b, 32L * WG * step, q[gr], 0);
    long rhs = p->regs_per_sm - (long)G * 32L * WG * p->reg_lo;
    if (!j->err && twill_smt_linear(j->m, b.t, b.n, rhs, s) < 0) j->err = 1;
    gsel[G] = s;
    if (p->reg_total) enc_register_total(j, gsel, ph, &b);
  }
  free(gsel);
  for (int v = 0; v < g->nops; v++)
    for (int w = 0; w < W; w++)
      if (!(w % span_of(j, &g->ops[v]))) free(z[(size_t)v * W + w]);
  free(z);
  free(q);
  free(ph);
  free(b.t);
}

/* sw(o, v): forced true when o and v share a warp (cached per pair). */
static int shared_lit(twill_joint *j, int o, int v) {
  int *c = &j->sw[(size_t)o * (size_t)j->g->nops + (size_t)v];
  if (!*c) {
    *c = new_bool(j);
    for (int w = 0; w < j->W; w++) clause3(j, -on(j, o, w), -on(j, v, w), *c);
  }
  return *c;
}

/* run(o, s): forced true when a copy of o runs at slot s. */
static int *running(twill_joint *j, int o) {
  if (!j->run[o]) {
    j->run[o] = malloc((size_t)j->I * sizeof **j->run);
    if (!j->run[o]) {
      j->err = 1;
      return NULL;
    }
    for (long k = 0; k < j->I; k++) j->run[o][k] = new_bool(j);
    for (long a = 0; a <= j->ub[o]; a++)
      for (long c = 0; c < j->g->ops[o].lat; c++)
        clause2(j, -eqlit(j, o, a), j->run[o][(a + c) % j->I]);
  }
  return j->run[o];
}

/* Under selector s (and literal cond, when not 0): when v issues, no other
 * op sharing a warp with v runs. */
static void forbid_running(twill_joint *j, int v, int s, int cond) {
  const twill_graph *g = j->g;
  for (int o = 0; o < g->nops && !j->err; o++) {
    if (o == v || g->ops[o].lat <= 0) continue;
    int sw = shared_lit(j, o, v);
    if (g->ops[o].lat >= j->I) { /* o runs at every slot */
      cl_start(j);
      cl_lit(j, -s);
      if (cond) cl_lit(j, -cond);
      cl_lit(j, -sw);
      cl_end(j);
      continue;
    }
    int *run = running(j, o);
    if (!run) return;
    for (long bt = 0; bt <= j->ub[v]; bt++) {
      cl_start(j);
      cl_lit(j, -s);
      if (cond) cl_lit(j, -cond);
      cl_lit(j, -eqlit(j, v, bt));
      cl_lit(j, -sw);
      cl_lit(j, -run[bt % j->I]);
      cl_end(j);
    }
  }
}

static void enc_blocking(twill_joint *j) {
  const twill_graph *g = j->g;
  int n = g->nops;
  for (int v = 0; v < n && !j->err; v++) {
    bool blk = false;
    for (int i = 0; i < g->nedges; i++)
      if (g->edges[i].dst == v && g->edges[i].blocking) blk = true;
    if (!blk) continue;
    int s = family(j, "blocking wait of %s", g->ops[v].name, NULL, 0);
    forbid_running(j, v, s, 0);
  }
  /* a value that crosses warps is received with a barrier wait, which
   * blocks the consumer's warp like any other (the Twill paper's second
   * CONCURRENCY constraint the paper mentions without a formula) */
  for (int e = 0; e < j->ncw && !j->err; e++)
    forbid_running(j, j->cw_dst[e], j->cw_sel[e], j->cw[e]);
}

/* ---- construction ------------------------------------------------------ */

void twill_joint_free(twill_joint *j) {
  if (!j) return;
  twill_smt_free(j->m);
  for (int v = 0; j->g && v < j->g->nops; v++) {
    if (j->eq) free(j->eq[v]);
    if (j->live) free(j->live[v]);
    if (j->run) free(j->run[v]);
  }
  free(j->eq), free(j->live), free(j->run);
  free(j->t), free(j->ub), free(j->on), free(j->H), free(j->cl), free(j->cw);
  free(j->cw_dst), free(j->cw_sel), free(j->sw);
  for (int f = 0; f < j->nfam; f++) free(j->fam[f]);
  free(j);
}

/* Covers name ops that hold registers, have no floor (their grids carry
 * the copies the cover clause reads) and appear once in their cover. */
static bool bad_covers(const twill_joint *j) {
  const twill_joint_params *p = &j->p;
  if (p->ncovers < 0 || (p->ncovers > 0 && (!p->cover_ops || !p->cover_at))) return true;
  if (p->ncovers > 0 && p->cover_at[0] != 0) return true;
  for (int c = 0; c < p->ncovers; c++) {
    if (p->cover_at[c + 1] <= p->cover_at[c]) return true;
    for (int e = p->cover_at[c]; e < p->cover_at[c + 1]; e++) {
      int v = p->cover_ops[e];
      if (v < 0 || v >= j->g->nops || j->g->ops[v].regs <= 0 || floored(j, v)) return true;
      for (int f = p->cover_at[c]; f < e; f++)
        if (p->cover_ops[f] == v) return true;
    }
  }
  return false;
}

static twill_joint *build(const twill_graph *g, const twill_joint_params *p,
                          long ii, long L, bool proof) {
  if (ii < 1 || p->warps < 1 || p->warpgroup < 1 || p->warps % p->warpgroup ||
      (p->reg_step > 0 && p->regs < p->reg_lo) || p->nrels < 0 ||
      p->nrels > TWILL_JOINT_MAX_RELS || (p->nrels > 0 && !p->rels))
    return NULL;
  for (int k = 0; k < p->nrels; k++)
    for (int i = 0; i < p->rels[k].nops; i++)
      if (p->rels[k].ops[i] < 0 || p->rels[k].ops[i] >= g->nops) return NULL;
  for (int v = 0; v < g->nops; v++)
    if (L - lat1(&g->ops[v]) < 0) return NULL;
  twill_joint *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->g = g;
  j->p = *p;
  j->I = ii;
  j->L = L;
  j->W = p->warps;
  j->WG = p->warpgroup;
  j->G = p->warps / p->warpgroup;
  size_t n = g->nops > 0 ? (size_t)g->nops : 1;
  j->m = twill_smt_new();
  j->t = calloc(n, sizeof *j->t);
  j->ub = calloc(n, sizeof *j->ub);
  j->on = calloc(n * (size_t)j->W, sizeof *j->on);
  j->eq = calloc(n, sizeof *j->eq);
  j->live = calloc(n, sizeof *j->live);
  j->H = calloc(n, sizeof *j->H);
  j->run = calloc(n, sizeof *j->run);
  size_t ne = g->nedges > 0 ? (size_t)g->nedges : 1;
  j->cw = calloc(ne, sizeof *j->cw);
  j->cw_dst = calloc(ne, sizeof *j->cw_dst);
  j->cw_sel = calloc(ne, sizeof *j->cw_sel);
  j->sw = calloc(n * n, sizeof *j->sw);
  if (!j->m || !j->t || !j->ub || !j->on || !j->eq || !j->live || !j->H ||
      !j->run || !j->cw || !j->cw_dst || !j->cw_sel || !j->sw ||
      (proof && twill_smt_enable_proof(j->m))) {
    twill_joint_free(j);
    return NULL;
  }
  for (int v = 0; v < g->nops; v++) {
    j->ub[v] = L - lat1(&g->ops[v]);
    j->eq[v] = calloc((size_t)j->ub[v] + 1, sizeof **j->eq);
    if (!j->eq[v]) j->err = 1;
  }
  for (int v = 0; v < g->nops && !j->err; v++)
    if (floored(j, v) && holds(j, &g->ops[v]) && grid_len(j, v) > floor_of(j, v) * ii)
      j->err = 1;
  if (!j->err && bad_covers(j)) j->err = 1;
  if (!j->err) enc_times(j);
  if (!j->err) enc_capacity(j);
  if (!j->err) enc_warps(j);
  if (!j->err && p->symmetry) enc_symmetry(j);
  if (!j->err && p->symmetry && p->subtile_symmetry) enc_subtiles(j);
  if (!j->err) enc_relations(j);
  if (!j->err) enc_cross(j);
  if (!j->err) enc_liveness(j);
  if (!j->err) enc_registers(j);
  if (!j->err) enc_memory(j, "shared-memory", p->smem_cap, 0);
  if (!j->err) enc_memory(j, "tensor-memory", p->tmem_cap, 1);
  if (!j->err) enc_blocking(j);
  if (j->err) {
    twill_joint_free(j);
    return NULL;
  }
  j->in_built = j->units_from = j->units_to = twill_smt_input_bytes(j->m);
  return j;
}

twill_joint *twill_joint_new(const twill_graph *g, const twill_joint_params *p,
                             long ii, long L, bool proof) {
  return build(g, p, ii, L, proof);
}

int twill_joint_num_families(const twill_joint *j) { return j->nfam; }
const char *twill_joint_family_name(const twill_joint *j, int f) {
  return f >= 0 && f < j->nfam ? j->fam[f] : NULL;
}

static twill_schedule *decode(const twill_joint *j) {
  const twill_graph *g = j->g;
  twill_schedule *s = twill_schedule_new(g->nops, j->I);
  if (!s || twill_schedule_add_warps(s)) {
    twill_schedule_free(s);
    return NULL;
  }
  for (int v = 0; v < g->nops; v++) {
    s->start[v] = twill_smt_value(j->m, j->t[v]);
    for (int w = 0; w < j->W && s->warp[v] < 0; w++)
      if (twill_smt_lit_value(j->m, on(j, v, w)) > 0) s->warp[v] = w;
  }
  return s;
}

int twill_joint_solve(twill_joint *j, const bool *fam_on, double time_limit,
                      twill_schedule **out, bool *core) {
  for (int f = 0; f < j->nfam; f++)
    if (!fam_on || fam_on[f]) twill_smt_assume(j->m, j->sel[f]);
  twill_smt_set_time_limit(j->m, time_limit);
  int r = twill_smt_solve(j->m);
  if (r == 10 && out) {
    *out = decode(j);
    if (!*out) return 0;
  }
  if (r == 20 && core)
    for (int f = 0; f < j->nfam; f++)
      core[f] = (!fam_on || fam_on[f]) && twill_smt_failed(j->m, j->sel[f]);
  return r;
}

static int add_units(twill_joint *j) {
  for (int f = 0; f < j->nfam; f++)
    if (twill_smt_clause(j->m, &j->sel[f], 1) < 0) return -1;
  return 0;
}

void twill_joint_set_conflict_limit(twill_joint *j, int64_t conflicts) {
  twill_smt_set_conflict_limit(j->m, conflicts);
}

void twill_joint_set_cancel(twill_joint *j, const atomic_int *flag) {
  twill_smt_set_cancel(j->m, flag);
}

uint64_t twill_joint_num_conflicts(const twill_joint *j) {
  return twill_smt_num_conflicts(j->m);
}

int twill_joint_refute(twill_joint *j, double time_limit) {
  if (!j->units) { /* once: a second call only solves again */
    j->units_from = twill_smt_input_bytes(j->m);
    if (add_units(j)) return 0;
    j->units_to = twill_smt_input_bytes(j->m);
    j->units = true;
  }
  twill_smt_set_time_limit(j->m, time_limit);
  return twill_smt_solve(j->m);
}

int twill_joint_write_proof(const twill_joint *j, FILE *f) {
  /* the selectors were created by build, before in_built */
  return twill_smt_write_proof_moved(j->m, f, j->in_built, j->units_from, j->units_to);
}

char *twill_joint_preamble(const twill_graph *g, const twill_joint_params *p,
                           long ii, long L, size_t *len) {
  twill_joint *j = build(g, p, ii, L, true);
  if (!j) return NULL;
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f || add_units(j) || twill_smt_write_proof(j->m, f)) {
    if (f) fclose(f);
    free(buf);
    twill_joint_free(j);
    return NULL;
  }
  fclose(f);
  twill_joint_free(j);
  *len = n;
  return buf;
}

/* Fewest register values crossing warps, by iterative strengthening: each
 * round adds "sum cw <= k - 1" behind a fresh guard literal and solves
 * under it (with every family assumed); learned clauses carry over.  Only
 * the last SAT model is kept, so a limit leaves the best found. */
/* the budget left of conflicts counted from c0 (< 0: none) onto j's
 * next solve; false when it is spent */
static bool cross_budget(twill_joint *j, int64_t conflicts, uint64_t c0) {
  if (conflicts < 0) return true;
  uint64_t used = twill_joint_num_conflicts(j) - c0;
  if (used >= (uint64_t)conflicts) return false;
  twill_joint_set_conflict_limit(j, conflicts - (int64_t)used);
  return true;
}

static int min_cross_run(twill_joint *j, double time_limit, int64_t conflicts,
                         twill_schedule **best, int *count) {
  double left = time_limit;
  twill_schedule *s = NULL;
  *count = -1;
  uint64_t c0 = twill_joint_num_conflicts(j);
  if (!cross_budget(j, conflicts, c0)) return 0;
  int r = twill_joint_solve(j, NULL, left, &s, NULL);
  if (r != 10) return r;
  for (;;) {
    int k = 0;
    for (int e = 0; e < j->ncw; e++)
      if (twill_smt_lit_value(j->m, j->cw[e]) > 0) k++;
    twill_schedule_free(*best);
    *best = s;
    *count = k;
    if (k == 0) return 10;
    twill_smt_term *tm = malloc((size_t)j->ncw * sizeof *tm);
    if (!tm) return 10;
    for (int e = 0; e < j->ncw; e++) tm[e].a = 1, tm[e].var = -1, tm[e].lit = j->cw[e];
    int guard = twill_smt_bool(j->m);
    int ok = guard && twill_smt_linear(j->m, tm, j->ncw, k - 1, guard) >= 0;
    free(tm);
    if (!ok) return 10;
    twill_smt_assume(j->m, guard);
    s = NULL;
    if (!cross_budget(j, conflicts, c0) || twill_joint_solve(j, NULL, left, &s, NULL) != 10)
      return 10;
  }
}

int twill_joint_min_cross(twill_joint *j, double time_limit, int64_t conflicts,
                          twill_schedule **best, int *count) {
  int r = min_cross_run(j, time_limit, conflicts, best, count);
  twill_joint_set_conflict_limit(j, -1);
  return r;
}
