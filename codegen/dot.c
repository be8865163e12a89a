/* codegen/dot.c: the dependence graph in Graphviz DOT, ops coloured by warp
 * role and labelled with their start, stage and warp. */
#include "model.h"

static const char *dot_fill[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f",
                                 "#cab2d6", "#ffff99", "#1f78b4", "#33a02c",
                                 "#e31a1c", "#ff7f00", "#6a3d9a", "#b15928"};

static void dot_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s >= 0x20) fputc(*s, f);
  }
  fputc('"', f);
}

int twill_emit_dot(const twill_graph *g, const twill_arch *m,
                   const twill_schedule *s, const twill_emit_opts *opts,
                   FILE *f) {
  cg_model cm;
  if (twill_cg_model_init(&cm, g, m, s, opts)) return -1;
  twill_cg_header(&cm, f, "// ", "dot");
  fprintf(f, "digraph ");
  dot_str(f, g->name);
  fprintf(f, " {\n  rankdir=TB;\n  node [shape=box, style=\"rounded,filled\", "
             "fontname=\"monospace\"];\n");
  for (int v = 0; v < g->nops; v++) {
    char wl[32], lab[256];
    snprintf(lab, sizeof lab, "%s\\nt=%ld stage %ld warp %s%s",
             g->ops[v].name, twill_cg_real(&cm, s->start[v]), cm.stage[v],
             twill_cg_warp_label(&cm, v, wl, sizeof wl),
             g->ops[v].varlat ? "\\nvariable latency" : "");
    fprintf(f, "  n%d [label=\"", v);
    for (const char *p = lab; *p; p++) {
      if (*p == '"') fputc('\\', f);
      fputc(*p, f);
    }
    fprintf(f, "\", fillcolor=\"%s\"];\n",
            cm.warps ? dot_fill[cm.role_of[v] % 12] : "#eeeeee");
  }
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    int cross = cm.warps && cm.role_of[ed->src] != cm.role_of[ed->dst];
    fprintf(f, "  n%d -> n%d [label=\"%ld%s%.0d\"%s%s];\n", ed->src, ed->dst,
            cm.src->edges[e].lat, ed->dist ? ", d=" : "", ed->dist,
            ed->dist ? ", style=dashed" : "",
            cross ? ", color=\"#d62728\", penwidth=2" : "");
  }
  if (cm.warps) {
    fprintf(f, "  // legend: one colour per warp role; red edges cross warps "
               "(mbarrier ring)\n");
    for (int r = 0; r < cm.nroles; r++) {
      char rl[32];
      fprintf(f, "  legend%d [label=\"warps %s\", shape=note, fillcolor=\"%s\"];\n",
              r, twill_cg_role_label(&cm, r, rl, sizeof rl), dot_fill[r % 12]);
    }
  }
  fprintf(f, "}\n");
  twill_cg_model_free(&cm);
  return ferror(f) ? -1 : 0;
}
