/* core/modulo/modulo_ilp.c: optimal modulo scheduling on ilp/ (twill/modulo.h).
 *
 * The program at fixed I (the slot-and-stage form of the first author's
 * modulo-scheduling ILP; the Twill paper cites Stoutchinin's and states none):
 *
 *   a[v][s] in {0,1}, s in [0, I)      op v issues in slot s
 *   k[v] in [0, W] integer             its stage
 *   t[v] integer                       its start time
 *   L integer                          the schedule length (minimized)
 *
 *   sum_s a[v][s] = 1                                      (one slot)
 *   t[v] - I*k[v] - sum_s s*a[v][s] = 0                    (t = I*k + slot)
 *   t[d] - t[s] >= lat - I*dist           for every edge   (dependence)
 *   sum_v sum_{uses (U,o,c,n) of v} n * sum_{j<c} a[v][(q - o - j) mod I]
 *       <= cap(U)                          for every unit U, slot q
 *   L - t[v] >= max(lat(v), 1)             for every op    (length)
 *
 * Horizon.  Fix any feasible slots.  The stages then satisfy difference
 * constraints k[d] - k[s] >= ceil((lat - I*dist - slot[d] + slot[s]) / I),
 * whose least solution (with k >= 0) is feasible too and minimizes every
 * t[v] at once, hence L.  It is a longest path over a simple path, and each
 * edge weight is at most ceil((lat + I - 1) / I), so k[v] <= W with
 * W = sum over edges (not self-loops) of that bound.  Bounding k by W thus
 * loses no schedule and no optimal length: infeasibility of the bounded
 * program proves that no schedule exists at I.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "twill/bounds.h"
#include "twill/ilp.h"
#include "twill/gaus.h"
#include "twill/modulo.h"

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }

static long stage_bound(const twill_graph *g, long ii) {
  long w = 0;
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue;
    w += (e->lat + ii - 1) / ii;
  }
  return w;
}

long twill_modulo_horizon(const twill_graph *g, long ii) {
  long maxlat = 1;
  for (int v = 0; v < g->nops; v++)
    if (lat1(&g->ops[v]) > maxlat) maxlat = lat1(&g->ops[v]);
  return ii * (stage_bound(g, ii) + 1) - 1 + maxlat;
}

void twill_modulo_opts_default(twill_modulo_opts *o) {
  o->time_limit = 0;
  o->node_limit = 0;
  o->certify = 0;
  o->skip_length = 0;
  o->gaus_min_ops = TWILL_MODULO_GAUS_MIN_OPS;
  o->log = NULL;
  o->log_ctx = NULL;
}

void twill_modulo_result_clear(twill_modulo_result *r) {
  twill_schedule_free(r->sched);
  for (int i = 0; i < r->ntries; i++) free(r->tries[i].vipr);
  free(r->tries);
  memset(r, 0, sizeof *r);
}

/* Variable layout: op v's slots at v*(I+2) .. +I-1, then k[v], t[v]; L last. */
typedef struct layout {
  long ii;
  int stride;
} layout;

static int var_a(const layout *l, int v, long s) { return v * l->stride + (int)s; }
static int var_k(const layout *l, int v) { return v * l->stride + (int)l->ii; }
static int var_t(const layout *l, int v) { return v * l->stride + (int)l->ii + 1; }

/* Longest paths at I (no positive cycle once I >= RecMII):
 *   asap[v] = max(0, max over edges u->v of asap[u] + lat - I*dist)
 *   tail[v] = max(lat1(v), max over edges v->w of lat - I*dist + tail[w])
 * Every schedule has t[v] >= asap[v] and L >= t[v] + tail[v]. */
static int longest_paths(const twill_graph *g, long ii, long *asap,
                         long *tail) {
  for (int v = 0; v < g->nops; v++) asap[v] = 0, tail[v] = lat1(&g->ops[v]);
  for (int it = 0; it <= g->nops; it++) {
    int changed = 0;
    for (int i = 0; i < g->nedges; i++) {
      const twill_edge *e = &g->edges[i];
      long w = e->lat - ii * (long)e->dist;
      if (asap[e->src] + w > asap[e->dst]) asap[e->dst] = asap[e->src] + w, changed = 1;
      if (w + tail[e->dst] > tail[e->src]) tail[e->src] = w + tail[e->dst], changed = 1;
    }
    if (!changed) return 0;
  }
  return -1; /* positive cycle: I below RecMII */
}

/* max over v of asap[v] + tail[v]: no schedule at I is shorter. */
static long critical_length(const twill_graph *g, long ii) {
  size_t nn = (size_t)g->nops + 1;
  long crit = 0, *asap = malloc(nn * sizeof *asap),
       *tail = malloc(nn * sizeof *tail);
  if (asap && tail && !longest_paths(g, ii, asap, tail))
    for (int v = 0; v < g->nops; v++)
      if (asap[v] + tail[v] > crit) crit = asap[v] + tail[v];
  free(asap);
  free(tail);
  return crit;
}

/* Hand a schedule at the program's I to the search as its first incumbent
 * (the ILP ignores it unless it meets every constraint).  0, or -1 out of
 * memory. */
static int start_from(twill_ilp *m, const layout *l, const twill_graph *g,
                      const twill_schedule *s) {
  int n = twill_ilp_num_vars(m);
  double *x = calloc((size_t)(n ? n : 1), sizeof *x);
  if (!x) return -1;
  for (int v = 0; v < g->nops; v++) {
    long t = s->start[v];
    x[var_a(l, v, t % l->ii)] = 1;
    x[var_k(l, v)] = (double)(t / l->ii);
    x[var_t(l, v)] = (double)t;
  }
  x[g->nops * l->stride] = (double)twill_schedule_length(g, s); /* L */
  int rc = twill_ilp_set_start(m, x);
  free(x);
  return rc;
}

/* The program at I.  lmax_hint > 0 caps L: the length of a schedule known
 * at this I (the optimum cannot exceed it). */
static twill_ilp *build(const twill_graph *g, long ii, long lmax_hint,
                        layout *l) {
  if (ii > 100000 || (long)g->nops * (ii + 2) > 20000000) return NULL;
  l->ii = ii;
  l->stride = (int)ii + 2;
  long H = twill_modulo_horizon(g, ii);
  if (lmax_hint > 0 && lmax_hint < H) H = lmax_hint;
  size_t nn = g->nops > 0 ? (size_t)g->nops : 1;
  long *asap = malloc(nn * sizeof *asap), *tail = malloc(nn * sizeof *tail);
  if (!asap || !tail || longest_paths(g, ii, asap, tail)) {
    free(asap);
    free(tail);
    return NULL;
  }
  twill_ilp *m = twill_ilp_new();
  if (!m) {
    free(asap);
    free(tail);
    return NULL;
  }
  /* No root cuts here: the modulo programs come with the heuristic's
   * schedule as a MIP start and are solved once per I, and the Gomory/MIR
   * rounds cost more than they save (fa3-fwd-hopper: 10.5 s with them,
   * 1.0 s without, measured on the same machine) */
  twill_ilp_set_cuts(m, 0);
  char name[64];
  int n = g->nops, ok = 1;
  for (int v = 0; v < n && ok; v++) {
    for (long s = 0; s < ii && ok; s++) {
      snprintf(name, sizeof name, "a_%d_%ld", v, s);
      ok = twill_ilp_add_var(m, name, TWILL_ILP_BINARY, 0, 1, 0) >= 0;
    }
    long lo = asap[v], hi = H - tail[v];
    if (hi < lo) hi = lo; /* cannot happen: H is a feasible length */
    snprintf(name, sizeof name, "k_%d", v);
    ok = ok && twill_ilp_add_var(m, name, TWILL_ILP_INTEGER, (double)(lo / ii),
                                 (double)(hi / ii), 0) >= 0;
    snprintf(name, sizeof name, "t_%d", v);
    ok = ok && twill_ilp_add_var(m, name, TWILL_ILP_INTEGER, (double)lo,
                                 (double)hi, 0) >= 0;
  }
  int L = ok ? twill_ilp_add_var(m, "L", TWILL_ILP_INTEGER, 0, (double)H, 1) : -1;
  size_t cap = (size_t)ii + 2 + (size_t)n * (size_t)ii + 4;
  int *idx = malloc(cap * sizeof *idx);
  double *val = malloc(cap * sizeof *val);
  if (L < 0 || !idx || !val) goto fail;
  for (int v = 0; v < n; v++) {
    for (long s = 0; s < ii; s++) {
      idx[s] = var_a(l, v, s);
      val[s] = 1;
    }
    snprintf(name, sizeof name, "slot_%d", v);
    if (twill_ilp_add_row(m, name, (int)ii, idx, val, 'E', 1, 0) < 0) goto fail;
    int k = 0;
    idx[k] = var_t(l, v), val[k++] = 1;
    idx[k] = var_k(l, v), val[k++] = -(double)ii;
    for (long s = 1; s < ii; s++) idx[k] = var_a(l, v, s), val[k++] = -(double)s;
    snprintf(name, sizeof name, "time_%d", v);
    if (twill_ilp_add_row(m, name, k, idx, val, 'E', 0, 0) < 0) goto fail;
    idx[0] = L, val[0] = 1;
    idx[1] = var_t(l, v), val[1] = -1;
    snprintf(name, sizeof name, "len_%d", v);
    if (twill_ilp_add_row(m, name, 2, idx, val, 'G', (double)tail[v], 0) < 0)
      goto fail;
  }
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src == e->dst) continue; /* holds for every I >= RecMII */
    idx[0] = var_t(l, e->dst), val[0] = 1;
    idx[1] = var_t(l, e->src), val[1] = -1;
    snprintf(name, sizeof name, "dep_%d", i);
    if (twill_ilp_add_row(m, name, 2, idx, val, 'G',
                          (double)(e->lat - ii * (long)e->dist), 0) < 0)
      goto fail;
  }
  /* Folded reservation tables: op v in slot s holds unit U in slot q when
   * (s + o + j) mod I = q for some j < c; count the j's. */
  long *fold = calloc((size_t)ii, sizeof *fold);
  if (!fold) goto fail;
  for (int u = 0; u < g->nunits; u++)
    for (long q = 0; q < ii; q++) {
      int k = 0;
      for (int v = 0; v < n; v++) {
        memset(fold, 0, (size_t)ii * sizeof *fold);
        int uses = 0;
        for (int x = 0; x < g->ops[v].nuses; x++) {
          const twill_use *us = &g->ops[v].uses[x];
          if (us->unit != u) continue;
          uses = 1;
          for (long j = 0; j < us->cycles; j++)
            fold[((q - us->offset - j) % ii + ii) % ii] += us->count;
        }
        if (!uses) continue;
        for (long s = 0; s < ii; s++)
          if (fold[s]) idx[k] = var_a(l, v, s), val[k++] = (double)fold[s];
      }
      if (!k) continue;
      snprintf(name, sizeof name, "cap_%d_%ld", u, q);
      if (twill_ilp_add_row(m, name, k, idx, val, 'L',
                            (double)g->units[u].capacity, 0) < 0) {
        free(fold);
        goto fail;
      }
    }
  free(fold);
  free(idx);
  free(val);
  free(asap);
  free(tail);
  return m;
fail:
  free(idx);
  free(val);
  free(asap);
  free(tail);
  twill_ilp_free(m);
  return NULL;
}

struct twill_ilp *twill_modulo_program(const twill_graph *g, long ii,
                                       long lmax_hint) {
  layout l;
  return build(g, ii, lmax_hint, &l);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int add_try(twill_modulo_result *r, long ii, int st, double sec,
                   long nodes) {
  twill_modulo_try *t = realloc(r->tries, (size_t)(r->ntries + 1) * sizeof *t);
  if (!t) return -1;
  r->tries = t;
  t[r->ntries].ii = ii;
  t[r->ntries].status = st;
  t[r->ntries].seconds = sec;
  t[r->ntries].nodes = nodes;
  t[r->ntries].vipr = NULL;
  t[r->ntries].vipr_len = 0;
  r->ntries++;
  return 0;
}

static twill_schedule *read_schedule(const twill_graph *g, const twill_ilp *m,
                                     const layout *l) {
  twill_schedule *s = twill_schedule_new(g->nops, l->ii);
  if (!s) return NULL;
  for (int v = 0; v < g->nops; v++) {
    double t = twill_ilp_value(m, var_t(l, v));
    s->start[v] = (long)(t + (t >= 0 ? 0.5 : -0.5));
  }
  return s;
}

int twill_modulo_solve(const twill_graph *g, const twill_modulo_opts *o,
                       twill_modulo_result *r) {
  twill_modulo_opts def;
  if (!o) {
    twill_modulo_opts_default(&def);
    o = &def;
  }
  memset(r, 0, sizeof *r);
  double t0 = now();
  twill_bounds b;
  if (twill_bounds_compute(g, &b)) return -1;
  r->res_mii = b.res_mii;
  r->rec_mii = b.rec_mii;
  r->mii = b.mii;
  twill_bounds_clear(&b);
  /* The heuristic's schedule bounds the search and is the answer of last
   * resort when a limit strikes. */
  twill_schedule *heur = NULL;
  if (twill_modulo_ims(g, NULL, &heur) < 0) return -1;
  if (!heur) {
    /* only an interrupt stops the heuristic short of a schedule (it tries
     * every I up to one where nothing overlaps): a limit, nothing found */
    if (!twill_ilp_interrupted()) return -1;
    r->ii_lower = r->mii;
    r->status = TWILL_MODULO_LIMIT;
    r->seconds = now() - t0;
    return 0;
  }
  /* GauS (core/gaus/gaus_hint.c) on larger kernels: the heuristic when its
   * (I, L) is smaller, else the first incumbent at its own I (below) */
  twill_schedule *gaus = o->gaus_min_ops > 0 && g->nops >= o->gaus_min_ops
                             ? twill_gaus_hint(g) : NULL;
  bool gaus_heur = false; /* for the progress line */
  if (gaus && !o->skip_length &&
      (gaus->ii < heur->ii ||
       (gaus->ii == heur->ii &&
        twill_schedule_length(g, gaus) < twill_schedule_length(g, heur)))) {
    twill_schedule *x = heur;
    heur = gaus;
    gaus = x;
    gaus_heur = true;
  }
  r->heuristic_ii = heur->ii;
  r->sched = heur;
  r->ii = heur->ii;
  r->length = twill_schedule_length(g, heur);
  if (o->log) {
    char line[128];
    snprintf(line, sizeof line, "MII %ld; heuristic I %ld, L %ld (%s, %.2f s)",
             r->mii, r->ii, r->length, gaus_heur ? "GauS-C" : "IMS", now() - t0);
    o->log(o->log_ctx, line);
  }
  r->heuristic_length = r->length;
  r->ii_lower = r->mii;
  r->length_lower = 0;
  r->status = TWILL_MODULO_LIMIT;
  for (long ii = r->mii; ii <= r->heuristic_ii; ii++) {
    if (o->skip_length && ii == r->heuristic_ii) {
      r->ii_lower = ii; /* every smaller I was refuted (or is below MII) */
      break;
    }
    layout l;
    twill_ilp *m = build(g, ii, ii == r->heuristic_ii ? r->heuristic_length : 0, &l);
    if (!m) {
      r->status = TWILL_MODULO_ERROR;
      break;
    }
    /* the heuristic's schedule is the first incumbent at its I: when it
     * already meets the program's bound (the critical path, often) the
     * root closes the tree, with a certificate */
    const twill_schedule *first = ii == r->heuristic_ii ? heur
                                  : gaus && ii == gaus->ii ? gaus : NULL;
    if (first && start_from(m, &l, g, first)) {
      twill_ilp_free(m);
      r->status = TWILL_MODULO_ERROR;
      break;
    }
    double left = o->time_limit > 0 ? o->time_limit - (now() - t0) : 0;
    if (o->time_limit > 0 && left <= 0) {
      twill_ilp_free(m);
      break;
    }
    if (left > 0) twill_ilp_set_time_limit(m, left);
    if (o->node_limit > 0) twill_ilp_set_node_limit(m, o->node_limit);
    if (o->certify) twill_ilp_set_certify(m, 1);
    double ts = now();
    twill_ilp_status st = twill_ilp_solve(m);
    twill_ilp_stats stats;
    twill_ilp_get_stats(m, &stats);
    r->nodes += stats.nodes;
    if (o->log) {
      char line[160];
      if (st == TWILL_ILP_OPTIMAL)
        snprintf(line, sizeof line, "I %ld: feasible, least L %.0f (%.2f s, %ld nodes)",
                 ii, twill_ilp_objective(m), now() - ts, stats.nodes);
      else
        snprintf(line, sizeof line, "I %ld: %s (%.2f s, %ld nodes)", ii,
                 st == TWILL_ILP_INFEASIBLE ? "infeasible"
                 : st == TWILL_ILP_LIMIT    ? "limit"
                                            : "failed",
                 now() - ts, stats.nodes);
      o->log(o->log_ctx, line);
    }
    if (add_try(r, ii, (int)st, now() - ts, stats.nodes)) {
      twill_ilp_free(m);
      twill_schedule_free(gaus);
      return -1;
    }
    if (o->certify &&
        (st == TWILL_ILP_INFEASIBLE || st == TWILL_ILP_OPTIMAL)) {
      twill_modulo_try *t = &r->tries[r->ntries - 1];
      FILE *f = open_memstream(&t->vipr, &t->vipr_len);
      int bad = !f || twill_ilp_write_vipr(m, f) != 0;
      if (f) fclose(f);
      if (bad) {
        free(t->vipr);
        t->vipr = NULL;
        t->vipr_len = 0;
      }
    }
    if (st == TWILL_ILP_INFEASIBLE) {
      r->ii_lower = ii + 1;
      twill_ilp_free(m);
      continue;
    }
    if ((st == TWILL_ILP_OPTIMAL || st == TWILL_ILP_LIMIT) &&
        twill_ilp_has_solution(m)) {
      twill_schedule *s = read_schedule(g, m, &l);
      if (!s) {
        twill_ilp_free(m);
        twill_schedule_free(gaus);
        return -1;
      }
      char why[256];
      if (twill_schedule_validate(g, NULL, s, why, sizeof why)) {
        /* never hand out a schedule the validator rejects */
        twill_schedule_free(s);
        r->status = TWILL_MODULO_ERROR;
        twill_ilp_free(m);
        break;
      }
      long len = twill_schedule_length(g, s);
      if (ii < r->ii || len < r->length) {
        twill_schedule_free(r->sched);
        r->sched = s;
        r->ii = ii;
        r->length = len;
      } else {
        twill_schedule_free(s);
      }
      if (st == TWILL_ILP_OPTIMAL) {
        r->length_lower = r->length;
        r->status = TWILL_MODULO_OPTIMAL;
      } else {
        r->length_lower =
            stats.best_bound > 0 ? (long)ceil(stats.best_bound - 1e-6) : 0;
      }
      twill_ilp_free(m);
      break;
    }
    if (st == TWILL_ILP_LIMIT && ii == r->heuristic_ii && isfinite(stats.best_bound)) {
      /* no schedule found at the heuristic's I, but the open nodes bound L
       * from below (the program caps L at the heuristic's length, so the
       * bound holds for every schedule at this I shorter than that one) */
      long lo = (long)ceil(stats.best_bound - 1e-6);
      if (lo > r->heuristic_length) lo = r->heuristic_length;
      if (lo > r->length_lower) r->length_lower = lo;
    }
    twill_ilp_free(m);
    if (st != TWILL_ILP_LIMIT) r->status = TWILL_MODULO_ERROR;
    break; /* limit without a schedule: I stays unproven */
  }
  if (r->status == TWILL_MODULO_LIMIT) {
    /* whatever the program proved, the critical path at I bounds L */
    long crit = critical_length(g, r->ii);
    if (crit > r->length_lower) r->length_lower = crit;
  }
  twill_schedule_free(gaus);
  r->seconds = now() - t0;
  return 0;
}

int twill_modulo_at(const twill_graph *g, long ii, double time_limit,
                    long node_limit, twill_schedule **out) {
  *out = NULL;
  layout l;
  twill_ilp *m = build(g, ii, 0, &l);
  if (!m) return -1;
  if (time_limit > 0) twill_ilp_set_time_limit(m, time_limit);
  if (node_limit > 0) twill_ilp_set_node_limit(m, node_limit);
  twill_ilp_status st = twill_ilp_solve(m);
  int rc = st == TWILL_ILP_OPTIMAL ? 0 : st == TWILL_ILP_INFEASIBLE ? 1 : 2;
  if ((st == TWILL_ILP_OPTIMAL || st == TWILL_ILP_LIMIT) && twill_ilp_has_solution(m)) {
    twill_schedule *s = read_schedule(g, m, &l);
    if (!s) rc = -1;
    else if (twill_schedule_validate(g, NULL, s, NULL, 0)) {
      twill_schedule_free(s);
      rc = -1;
    } else {
      *out = s;
    }
  }
  if (st != TWILL_ILP_OPTIMAL && st != TWILL_ILP_INFEASIBLE && st != TWILL_ILP_LIMIT)
    rc = -1;
  twill_ilp_free(m);
  return rc;
}
