/* graph/graph.c: building, copying, validating and binding a dependence
 * graph (twill/graph.h). */
#include "twill/graph.h"

#include <stdlib.h>
#include <string.h>


static char *dup_str(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* Grow *arr (element size sz) so that it holds at least need elements. */
static int grow(void **arr, int *cap, int need, size_t sz) {
  if (need <= *cap) return 0;
  int ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > (1 << 28)) return -1;
    ncap *= 2;
  }
  void *p = realloc(*arr, (size_t)ncap * sz);
  if (!p) return -1;
  *arr = p;
  *cap = ncap;
  return 0;
}

twill_graph *twill_graph_new(const char *name) {
  twill_graph *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->name = dup_str(name ? name : "kernel");
  if (!g->name) {
    free(g);
    return NULL;
  }
  return g;
}

void twill_graph_free(twill_graph *g) {
  if (!g) return;
  for (int i = 0; i < g->nunits; i++) free(g->units[i].name);
  for (int i = 0; i < g->nops; i++) {
    free(g->ops[i].name);
    free(g->ops[i].uses);
  }
  free(g->units);
  free(g->ops);
  free(g->edges);
  free(g->ophash);
  free(g->name);
  free(g->arch);
  free(g);
}

int twill_graph_set_arch(twill_graph *g, const char *arch) {
  char *a = dup_str(arch);
  if (arch && !a) return -1;
  free(g->arch);
  g->arch = a;
  g->arch_line = g->arch_col = 0; /* a parser sets them after this */
  return 0;
}

int twill_graph_find_unit(const twill_graph *g, const char *name) {
  for (int i = 0; i < g->nunits; i++)
    if (!strcmp(g->units[i].name, name)) return i;
  return -1;
}

int twill_graph_unit(twill_graph *g, const char *name) {
  int u = twill_graph_find_unit(g, name);
  if (u >= 0) return u;
  if (grow((void **)&g->units, &g->cap_units, g->nunits + 1,
           sizeof *g->units))
    return -1;
  twill_unit *un = &g->units[g->nunits];
  memset(un, 0, sizeof *un);
  un->name = dup_str(name);
  if (!un->name) return -1;
  return g->nunits++;
}

int twill_graph_declare_unit(twill_graph *g, const char *name, int capacity) {
  int u = twill_graph_unit(g, name);
  if (u < 0) return -1;
  g->units[u].capacity = capacity;
  g->units[u].declared = true;
  return u;
}

/* FNV-1a: a fixed hash, so lookups behave the same on every machine. */
static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

int twill_graph_find_op(const twill_graph *g, const char *name) {
  if (!g->ophash_cap) {
    for (int i = 0; i < g->nops; i++)
      if (!strcmp(g->ops[i].name, name)) return i;
    return -1;
  }
  unsigned mask = (unsigned)g->ophash_cap - 1;
  for (unsigned h = name_hash(name) & mask;; h = (h + 1) & mask) {
    int k = g->ophash[h];
    if (!k) return -1;
    if (!strcmp(g->ops[k - 1].name, name)) return k - 1;
  }
}

static void index_insert(twill_graph *g, int v) {
  unsigned mask = (unsigned)g->ophash_cap - 1;
  unsigned h = name_hash(g->ops[v].name) & mask;
  while (g->ophash[h]) h = (h + 1) & mask;
  g->ophash[h] = v + 1;
}

/* Keep the index at most half full; rebuild it when it grows. */
static int index_reserve(twill_graph *g, int nops) {
  if (g->ophash_cap >= 2 * nops && g->ophash_cap) return 0;
  int cap = 16;
  while (cap < 2 * nops) {
    if (cap > (1 << 29)) return -1;
    cap *= 2;
  }
  int *t = calloc((size_t)cap, sizeof *t);
  if (!t) return -1;
  free(g->ophash);
  g->ophash = t;
  g->ophash_cap = cap;
  for (int v = 0; v < g->nops; v++) index_insert(g, v);
  return 0;
}

int twill_graph_add_op(twill_graph *g, const char *name, long lat) {
  if (twill_graph_find_op(g, name) >= 0) return -2;
  if (grow((void **)&g->ops, &g->cap_ops, g->nops + 1, sizeof *g->ops) ||
      index_reserve(g, g->nops + 1))
    return -1;
  twill_op *op = &g->ops[g->nops];
  memset(op, 0, sizeof *op);
  op->name = dup_str(name);
  if (!op->name) return -1;
  op->lat = lat;
  op->spill = -1;
  op->issue = TWILL_ISSUE_WARP;
  op->groups = 1;
  index_insert(g, g->nops);
  return g->nops++;
}

int twill_graph_add_use(twill_graph *g, int v, int unit, int offset,
                        int cycles, int count) {
  twill_op *op = &g->ops[v];
  twill_use *u = realloc(op->uses, (size_t)(op->nuses + 1) * sizeof *u);
  if (!u) return -1;
  op->uses = u;
  u[op->nuses].unit = unit;
  u[op->nuses].offset = offset;
  u[op->nuses].cycles = cycles;
  u[op->nuses].count = count;
  op->nuses++;
  return 0;
}

int twill_graph_add_edge(twill_graph *g, int src, int dst, long lat,
                         int dist) {
  if (grow((void **)&g->edges, &g->cap_edges, g->nedges + 1,
           sizeof *g->edges))
    return -1;
  twill_edge *e = &g->edges[g->nedges];
  memset(e, 0, sizeof *e);
  e->src = src;
  e->dst = dst;
  e->lat = lat;
  e->dist = dist;
  return g->nedges++;
}

twill_graph *twill_graph_clone(const twill_graph *g) {
  twill_graph *c = twill_graph_new(g->name);
  if (!c) return NULL;
  if (twill_graph_set_arch(c, g->arch)) goto fail;
  c->arch_line = g->arch_line;
  c->arch_col = g->arch_col;
  for (int i = 0; i < g->nunits; i++) {
    int u = twill_graph_unit(c, g->units[i].name);
    if (u < 0) goto fail;
    c->units[u].capacity = g->units[i].capacity;
    c->units[u].declared = g->units[i].declared;
    c->units[u].line = g->units[i].line;
  }
  for (int i = 0; i < g->nops; i++) {
    const twill_op *o = &g->ops[i];
    if (twill_graph_add_op(c, o->name, o->lat) < 0) goto fail;
    twill_op *n = &c->ops[i];
    char *name = n->name;
    *n = *o;
    n->name = name;
    n->uses = NULL;
    n->nuses = 0;
    for (int k = 0; k < o->nuses; k++)
      if (twill_graph_add_use(c, i, o->uses[k].unit, o->uses[k].offset,
                              o->uses[k].cycles, o->uses[k].count))
        goto fail;
  }
  for (int i = 0; i < g->nedges; i++) {
    if (twill_graph_add_edge(c, g->edges[i].src, g->edges[i].dst,
                             g->edges[i].lat, g->edges[i].dist) < 0)
      goto fail;
    c->edges[i] = g->edges[i];
  }
  return c;
fail:
  twill_graph_free(c);
  return NULL;
}

/* ---- validation -------------------------------------------------------- */

/* Find a cycle made only of zero-distance edges (iterative DFS: kernels from
 * circuits have tens of thousands of ops, too deep for recursion).  On
 * success returns 1 and writes the cycle's edges, in order, into cyc
 * (*ncyc of them); 0 if none; -1 on allocation failure. */
static int zero_distance_cycle(const twill_graph *g, int *cyc, int *ncyc) {
  int n = g->nops, m = g->nedges, rc = -1;
  int *start = calloc((size_t)n + 1, sizeof *start);
  int *adj = malloc(((size_t)m + 1) * sizeof *adj);
  int *color = calloc((size_t)n + 1, sizeof *color);
  int *via = malloc(((size_t)n + 1) * sizeof *via); /* edge into node on path */
  int *stack = malloc(((size_t)n + 1) * sizeof *stack);
  int *next = malloc(((size_t)n + 1) * sizeof *next);
  if (!start || !adj || !color || !via || !stack || !next) goto done;
  for (int e = 0; e < m; e++)
    if (g->edges[e].dist == 0) start[g->edges[e].src + 1]++;
  for (int v = 0; v < n; v++) start[v + 1] += start[v];
  int *fill = next; /* reuse as a cursor while filling */
  for (int v = 0; v < n; v++) fill[v] = start[v];
  for (int e = 0; e < m; e++)
    if (g->edges[e].dist == 0) adj[fill[g->edges[e].src]++] = e;
  rc = 0;
  for (int root = 0; root < n && !rc; root++) {
    if (color[root]) continue;
    int sp = 0;
    stack[sp++] = root;
    color[root] = 1;
    next[root] = start[root];
    while (sp && !rc) {
      int v = stack[sp - 1];
      if (next[v] == start[v + 1]) {
        color[v] = 2;
        sp--;
        continue;
      }
      int e = adj[next[v]++];
      int w = g->edges[e].dst;
      if (color[w] == 0) {
        color[w] = 1;
        via[w] = e;
        next[w] = start[w];
        stack[sp++] = w;
      } else if (color[w] == 1) {
        /* back edge e closes the cycle w -> ... -> v -> w */
        int k = 0, x = v;
        cyc[k++] = e;
        while (x != w) {
          cyc[k++] = via[x];
          x = g->edges[via[x]].src;
        }
        for (int i = 0; i < k / 2; i++) {
          int t = cyc[i];
          cyc[i] = cyc[k - 1 - i];
          cyc[k - 1 - i] = t;
        }
        *ncyc = k;
        rc = 1;
      }
    }
  }
done:
  free(start);
  free(adj);
  free(color);
  free(via);
  free(stack);
  free(next);
  return rc;
}

static int describe_cycle(const twill_graph *g, const int *cyc, int k,
                          twill_diag *d) {
  char buf[TWILL_DIAG_MSG];
  size_t used = 0;
  int shown = k < 6 ? k : 6;
  used += (size_t)snprintf(buf, sizeof buf, "zero-distance cycle ");
  for (int i = 0; i < shown && used < sizeof buf; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s -> ",
                             g->ops[g->edges[cyc[i]].src].name);
  if (used < sizeof buf)
    snprintf(buf + used, sizeof buf - used, "%s%s: no iteration can issue",
             k > shown ? "... -> " : "", g->ops[g->edges[cyc[0]].src].name);
  return twill_diag_set(d, "", g->edges[cyc[k - 1]].line, 0, "%s", buf);
}

int twill_graph_validate(const twill_graph *g, twill_diag *d) {
  for (int u = 0; u < g->nunits; u++)
    if (g->units[u].declared && g->units[u].capacity < 1)
      return twill_diag_set(d, "", g->units[u].line, 0,
                            "unit '%s' has capacity %d; it must be >= 1",
                            g->units[u].name, g->units[u].capacity);
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    if (o->lat < 0)
      return twill_diag_set(d, "", o->line, 0,
                            "op '%s' has negative latency %ld", o->name,
                            o->lat);
    if (o->regs < 0 || o->smem < 0 || o->tmem < 0 || o->spill < -1)
      return twill_diag_set(d, "", o->line, 0,
                            "op '%s' has a negative annotation", o->name);
    /* the parsers say where; this catches graphs built in code */
    if (o->spill >= 0 && o->regs == 0)
      return twill_diag_set(d, "", o->line, 0,
                            "op '%s': spill has no effect on an op that keeps "
                            "no registers", o->name);
    for (int k = 0; k < o->nuses; k++) {
      const twill_use *u = &o->uses[k];
      if (u->unit < 0 || u->unit >= g->nunits)
        return twill_diag_set(d, "", o->line, 0,
                              "op '%s' uses an unknown unit", o->name);
      if (u->offset < 0 || u->cycles < 1 || u->count < 1)
        return twill_diag_set(d, "", o->line, 0,
                              "op '%s' uses unit '%s' with offset %d, "
                              "cycles %d, count %d (need offset >= 0, "
                              "cycles >= 1, count >= 1)",
                              o->name, g->units[u->unit].name, u->offset,
                              u->cycles, u->count);
    }
  }
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    if (e->src < 0 || e->src >= g->nops || e->dst < 0 || e->dst >= g->nops)
      return twill_diag_set(d, "", e->line, 0, "edge %d names an unknown op",
                            i);
    if (e->lat < 0)
      return twill_diag_set(d, "", e->line, 0,
                            "edge %s -> %s has negative latency %ld",
                            g->ops[e->src].name, g->ops[e->dst].name, e->lat);
    if (e->dist < 0)
      return twill_diag_set(d, "", e->line, 0,
                            "edge %s -> %s has negative distance %d",
                            g->ops[e->src].name, g->ops[e->dst].name,
                            e->dist);
  }
  int *cyc = malloc(((size_t)g->nops + 1) * sizeof *cyc);
  int ncyc = 0;
  if (!cyc) return twill_diag_set(d, "", 0, 0, "out of memory");
  int r = zero_distance_cycle(g, cyc, &ncyc);
  if (r < 0) {
    free(cyc);
    return twill_diag_set(d, "", 0, 0, "out of memory");
  }
  if (r > 0) {
    describe_cycle(g, cyc, ncyc, d);
    free(cyc);
    return -1;
  }
  free(cyc);
  return 0;
}

/* ---- annotations ------------------------------------------------------- */

static twill_op *op_at(twill_graph *g, int v) {
  return g && v >= 0 && v < g->nops ? &g->ops[v] : NULL;
}

int twill_graph_set_regs(twill_graph *g, int v, long regs) {
  twill_op *o = op_at(g, v);
  if (!o || regs < 0) return -1;
  o->regs = regs;
  return 0;
}

int twill_graph_set_smem(twill_graph *g, int v, long bytes) {
  twill_op *o = op_at(g, v);
  if (!o || bytes < 0) return -1;
  o->smem = bytes;
  return 0;
}

int twill_graph_set_tmem(twill_graph *g, int v, long columns) {
  twill_op *o = op_at(g, v);
  if (!o || columns < 0) return -1;
  o->tmem = columns;
  return 0;
}

int twill_graph_set_spill(twill_graph *g, int v, long cycles) {
  twill_op *o = op_at(g, v);
  if (!o || cycles < -1) return -1;
  o->spill = cycles;
  return 0;
}

int twill_graph_set_issue(twill_graph *g, int v, twill_issue issue) {
  twill_op *o = op_at(g, v);
  if (!o || (issue != TWILL_ISSUE_THREAD && issue != TWILL_ISSUE_WARP &&
             issue != TWILL_ISSUE_WARPGROUP))
    return -1;
  o->issue = issue;
  return 0;
}

int twill_graph_set_groups(twill_graph *g, int v, int groups) {
  twill_op *o = op_at(g, v);
  if (!o || (groups != 1 && groups != 2 && groups != 4)) return -1;
  o->groups = groups;
  return 0;
}

int twill_graph_set_varlat(twill_graph *g, int v, bool varlat) {
  twill_op *o = op_at(g, v);
  if (!o) return -1;
  o->varlat = varlat;
  return 0;
}

int twill_graph_set_blocking(twill_graph *g, int e, bool blocking) {
  if (!g || e < 0 || e >= g->nedges) return -1;
  g->edges[e].blocking = blocking;
  return 0;
}
