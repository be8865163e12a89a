/* graph/formats/print.c: print a graph as .twill text, JSON and Graphviz DOT.
 *
 * Text and JSON print back exactly what the parsers read: the same units
 * (declared ones as `unit` lines / the "units" object, the others only
 * through uses), ops, edges and annotations in the same order, so
 * print-then-parse is the identity on every parsed graph.  Only annotations
 * that differ from their defaults are printed; an edge's latency is printed
 * in text only when it differs from its source op's latency.
 *
 * Limit: a graph built in code with an undeclared unit that no op uses has
 * no text or JSON form for that unit; it is left out.
 */
#include <string.h>

#include "graph_io.h"
#include "twill/graph.h"
#include "twill/json.h"

static int finish(FILE *f) {
  if (fflush(f) == EOF || ferror(f)) return -1;
  return 0;
}

/* True if name ends in 'x' followed by digits (and something before). */
static bool ends_like_count(const char *s) {
  size_t n = strlen(s), k = n;
  while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9') k--;
  return k < n && k >= 2 && s[k - 1] == 'x';
}

static void print_use(const twill_graph *g, const twill_use *u, FILE *f) {
  const char *name = g->units[u->unit].name;
  fprintf(f, " use %s", name);
  if (u->offset != 0 || u->count != 1 || ends_like_count(name))
    fprintf(f, "@%d", u->offset);
  if (u->cycles != 1) fprintf(f, ":%d", u->cycles);
  if (u->count != 1) fprintf(f, "x%d", u->count);
}

int twill_graph_print_text(const twill_graph *g, FILE *f) {
  fprintf(f, "kernel %s\n", g->name ? g->name : "kernel");
  if (g->arch) fprintf(f, "arch %s\n", g->arch);
  for (int u = 0; u < g->nunits; u++)
    if (g->units[u].declared)
      fprintf(f, "unit %s %d\n", g->units[u].name, g->units[u].capacity);
  for (int v = 0; v < g->nops; v++) {
    const twill_op *op = &g->ops[v];
    fprintf(f, "op %s lat %ld", op->name, op->lat);
    for (int k = 0; k < op->nuses; k++) print_use(g, &op->uses[k], f);
    if (op->regs) fprintf(f, " regs %ld", op->regs);
    if (op->smem) fprintf(f, " smem %ld", op->smem);
    if (op->tmem) fprintf(f, " tmem %ld", op->tmem);
    if (op->spill != -1) fprintf(f, " spill %ld", op->spill);
    if (op->issue != TWILL_ISSUE_WARP)
      fprintf(f, " issue %s", twill_gio_issue_name(op->issue));
    if (op->groups > 1) fprintf(f, " groups %d", op->groups);
    if (op->varlat) fputs(" varlat yes", f);
    fputc('\n', f);
  }
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    fprintf(f, "edge %s %s", twill_gio_op_name(g, e->src),
            twill_gio_op_name(g, e->dst));
    if (e->src < 0 || e->src >= g->nops || e->lat != g->ops[e->src].lat)
      fprintf(f, " lat %ld", e->lat);
    if (e->dist) fprintf(f, " dist %d", e->dist);
    if (e->blocking) fputs(" blocking yes", f);
    fputc('\n', f);
  }
  return finish(f);
}

void twill_graph_write_json(const twill_graph *g, twill_jw *w) {
  /* each op and edge on one line: written compactly inside a pretty
   * writer, the caller's setting restored after each */
  bool pretty = w->pretty;
  twill_jw_object_begin(w);
  twill_jw_key(w, "kernel");
  twill_jw_string(w, g->name ? g->name : "kernel");
  if (g->arch) {
    twill_jw_key(w, "arch");
    twill_jw_string(w, g->arch);
  }
  bool any = false;
  for (int u = 0; u < g->nunits; u++) any = any || g->units[u].declared;
  if (any) {
    twill_jw_key(w, "units");
    twill_jw_object_begin(w);
    for (int u = 0; u < g->nunits; u++) {
      if (!g->units[u].declared) continue;
      twill_jw_key(w, g->units[u].name);
      twill_jw_int(w, g->units[u].capacity);
    }
    twill_jw_object_end(w);
  }
  /* One op or edge per line: each object is written compactly. */
  twill_jw_key(w, "ops");
  twill_jw_array_begin(w);
  for (int v = 0; v < g->nops; v++) {
    const twill_op *op = &g->ops[v];
    twill_jw_object_begin(w);
    w->pretty = false;
    twill_jw_key(w, "name");
    twill_jw_string(w, op->name);
    twill_jw_key(w, "lat");
    twill_jw_int(w, op->lat);
    if (op->nuses) {
      twill_jw_key(w, "use");
      twill_jw_array_begin(w);
      for (int k = 0; k < op->nuses; k++) {
        const twill_use *u = &op->uses[k];
        twill_jw_array_begin(w);
        twill_jw_string(w, g->units[u->unit].name);
        twill_jw_int(w, u->offset);
        twill_jw_int(w, u->cycles);
        if (u->count != 1) twill_jw_int(w, u->count);
        twill_jw_array_end(w);
      }
      twill_jw_array_end(w);
    }
    static const char *const longs[] = {"regs", "smem", "tmem"};
    const long vals[] = {op->regs, op->smem, op->tmem};
    for (int k = 0; k < 3; k++) {
      if (!vals[k]) continue;
      twill_jw_key(w, longs[k]);
      twill_jw_int(w, vals[k]);
    }
    if (op->spill != -1) {
      twill_jw_key(w, "spill");
      twill_jw_int(w, op->spill);
    }
    if (op->issue != TWILL_ISSUE_WARP) {
      twill_jw_key(w, "issue");
      twill_jw_string(w, twill_gio_issue_name(op->issue));
    }
    if (op->groups > 1) {
      twill_jw_key(w, "groups");
      twill_jw_int(w, op->groups);
    }
    if (op->varlat) {
      twill_jw_key(w, "varlat");
      twill_jw_bool(w, true);
    }
    twill_jw_object_end(w);
    w->pretty = pretty;
  }
  twill_jw_array_end(w);
  twill_jw_key(w, "edges");
  twill_jw_array_begin(w);
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    twill_jw_object_begin(w);
    w->pretty = false;
    twill_jw_key(w, "src");
    twill_jw_string(w, twill_gio_op_name(g, e->src));
    twill_jw_key(w, "dst");
    twill_jw_string(w, twill_gio_op_name(g, e->dst));
    twill_jw_key(w, "lat");
    twill_jw_int(w, e->lat);
    twill_jw_key(w, "dist");
    twill_jw_int(w, e->dist);
    if (e->blocking) {
      twill_jw_key(w, "blocking");
      twill_jw_bool(w, true);
    }
    twill_jw_object_end(w);
    w->pretty = pretty;
  }
  twill_jw_array_end(w);
  twill_jw_object_end(w);
}

int twill_graph_print_json(const twill_graph *g, FILE *f) {
  twill_jw w;
  twill_jw_init(&w, f, true);
  twill_graph_write_json(g, &w);
  return twill_jw_finish(&w);
}

/* A DOT string: quotes and backslashes escaped. */
static void dot_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* ColorBrewer Set3, 12 colours: one per warp, repeating after 12. */
static const char *const palette[12] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

int twill_graph_print_dot(const twill_graph *g, const int *warp, FILE *f) {
  fputs("digraph ", f);
  dot_string(f, g->name ? g->name : "kernel");
  fputs(" {\n  node [shape=box, fontname=\"monospace\"];\n", f);
  for (int v = 0; v < g->nops; v++) {
    const twill_op *op = &g->ops[v];
    fprintf(f, "  n%d [label=\"", v);
    for (const char *s = op->name; s && *s; s++) {
      if (*s == '"' || *s == '\\') fputc('\\', f);
      fputc(*s, f);
    }
    fprintf(f, "\\nlat %ld", op->lat);
    if (warp && warp[v] >= 0) fprintf(f, "\\nwarp %d", warp[v]);
    fputc('"', f);
    if (warp && warp[v] >= 0)
      fprintf(f, ", style=filled, fillcolor=\"%s\"", palette[warp[v] % 12]);
    fputs("];\n", f);
  }
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *e = &g->edges[i];
    fprintf(f, "  n%d -> n%d [label=\"%ld/%d\"", e->src, e->dst, e->lat,
            e->dist);
    if (e->dist > 0 && e->blocking) fputs(", style=\"dashed,bold\"", f);
    else if (e->dist > 0) fputs(", style=dashed", f);
    else if (e->blocking) fputs(", style=bold", f);
    fputs("];\n", f);
  }
  fputs("}\n", f);
  return finish(f);
}
