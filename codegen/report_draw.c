/* codegen/report_draw.c: the report's drawings (inline SVG): the kernel
 * graph, the steady state (one I) per warp role and per unit, and the whole
 * pipelined loop per warp role with its prologue, steady state and
 * epilogue.
 *
 * Every element that stands for op v carries data-op="v" (the page's script
 * lights them together on hover); edges carry data-src and data-dst.
 * Geometry is in the cycles of the graph scheduled; labels go through the
 * scale helpers of report.h. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Drawings of more ops than this would be walls of bars; the tables say
 * the same in text. */
#define MAX_DRAWN_OPS 400

/* ---- the kernel graph ---------------------------------------------------- */

#define NODE_H 38
#define LAYER_GAP 52
#define NODE_GAP 26
#define MARGIN 16

typedef struct gnode {
  int layer;
  double key;   /* barycenter while ordering */
  int pos;      /* position within its layer */
  double x, y, w; /* top-left corner, width */
} gnode;

/* Order of nodes: by layer, barycenter, previous position, index. */
static int node_before(int u, int v, const gnode *nd) {
  if (nd[u].layer != nd[v].layer) return nd[u].layer < nd[v].layer ? -1 : 1;
  if (nd[u].key != nd[v].key) return nd[u].key < nd[v].key ? -1 : 1;
  if (nd[u].pos != nd[v].pos) return nd[u].pos < nd[v].pos ? -1 : 1;
  return u - v;
}

/* Insertion sort of an index array (graphs are at most MAX_DRAWN_OPS ops;
 * qsort has no context argument in C11). */
static void sort_by_key(int *idx, int n, const gnode *nd) {
  for (int i = 1; i < n; i++) {
    int x = idx[i], j = i - 1;
    while (j >= 0 && node_before(idx[j], x, nd) > 0) {
      idx[j + 1] = idx[j];
      j--;
    }
    idx[j + 1] = x;
  }
}

/* Layers: the longest path over zero-distance edges (they form a DAG: the
 * graph validator rejects zero-distance cycles), then a few barycenter
 * sweeps to order each layer (Sugiyama's heuristic; deterministic). */
static int layout(const twill_graph *g, gnode *nd) {
  int n = g->nops;
  int *indeg = calloc((size_t)n + 1, sizeof *indeg);
  int *queue = malloc(((size_t)n + 1) * sizeof *queue);
  int *idx = malloc(((size_t)n + 1) * sizeof *idx);
  if (!indeg || !queue || !idx) {
    free(indeg);
    free(queue);
    free(idx);
    return -1;
  }
  for (int e = 0; e < g->nedges; e++)
    if (!g->edges[e].dist && g->edges[e].src != g->edges[e].dst)
      indeg[g->edges[e].dst]++;
  int qh = 0, qt = 0;
  for (int v = 0; v < n; v++) {
    nd[v].layer = 0;
    if (!indeg[v]) queue[qt++] = v;
  }
  while (qh < qt) {
    int u = queue[qh++];
    for (int e = 0; e < g->nedges; e++) {
      const twill_edge *ed = &g->edges[e];
      if (ed->src != u || ed->dist || ed->dst == u) continue;
      if (nd[ed->dst].layer < nd[u].layer + 1) nd[ed->dst].layer = nd[u].layer + 1;
      if (--indeg[ed->dst] == 0) queue[qt++] = ed->dst;
    }
  }
  for (int v = 0; v < n; v++) {
    nd[v].key = v;
    nd[v].pos = v;
    idx[v] = v;
  }
  sort_by_key(idx, n, nd);
  for (int k = 0; k < n; k++) nd[idx[k]].pos = k;
  for (int sweep = 0; sweep < 8; sweep++) {
    bool down = sweep % 2 == 0;
    for (int v = 0; v < n; v++) {
      double sum = 0;
      int cnt = 0;
      for (int e = 0; e < g->nedges; e++) {
        const twill_edge *ed = &g->edges[e];
        if (ed->dist || ed->src == ed->dst) continue;
        int other = down ? (ed->dst == v ? ed->src : -1) : (ed->src == v ? ed->dst : -1);
        if (other < 0) continue;
        sum += nd[other].pos;
        cnt++;
      }
      nd[v].key = cnt ? sum / cnt : nd[v].pos;
    }
    sort_by_key(idx, n, nd);
    for (int k = 0; k < n; k++) nd[idx[k]].pos = k;
  }
  /* positions within the layer, from 0 */
  int k = 0;
  while (k < n) {
    int j = k;
    while (j < n && nd[idx[j]].layer == nd[idx[k]].layer) j++;
    for (int i = k; i < j; i++) nd[idx[i]].pos = i - k;
    k = j;
  }
  free(indeg);
  free(queue);
  free(idx);
  return 0;
}

static void edge_label(rpt *R, int e, double x, double y) {
  const twill_edge *ed = &R->g->edges[e];
  fprintf(R->f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\" font-size=\"10\">", x, y);
  twill_rpt_cost(R, ed->lat, R->src->edges[e].lat, true);
  if (ed->dist) fprintf(R->f, " d%d", ed->dist);
  fprintf(R->f, "</text>");
}

int twill_rpt_graph_svg(rpt *R) {
  const twill_graph *g = R->g;
  FILE *f = R->f;
  int n = g->nops;
  if (n > MAX_DRAWN_OPS) {
    fprintf(f, "<p>%d ops: not drawn (more than %d).</p>\n", n, MAX_DRAWN_OPS);
    return 0;
  }
  gnode *nd = calloc((size_t)n + 1, sizeof *nd);
  char *crit = calloc((size_t)g->nedges + 1, 1);
  if (!nd || !crit || layout(g, nd)) {
    free(nd);
    free(crit);
    return -1;
  }
  if (R->bounds)
    for (int k = 0; k < R->b.ncycle; k++) crit[R->b.cycle[k]] = 1;
  /* widths, layer widths */
  int nl = 0;
  for (int v = 0; v < n; v++) {
    size_t len = strlen(g->ops[v].name);
    double w = 7.0 * (double)(len > 14 ? len : 14) + 16;
    nd[v].w = w;
    if (nd[v].layer + 1 > nl) nl = nd[v].layer + 1;
  }
  double *lw = calloc((size_t)nl + 1, sizeof *lw);
  if (!lw) {
    free(nd);
    free(crit);
    return -1;
  }
  for (int v = 0; v < n; v++) lw[nd[v].layer] += nd[v].w + NODE_GAP;
  double maxw = 0;
  for (int l = 0; l < nl; l++)
    if (lw[l] > maxw) maxw = lw[l];
  /* x: each layer centred; nodes in pos order */
  for (int l = 0; l < nl; l++) {
    double x = MARGIN + (maxw - lw[l]) / 2;
    for (int p = 0;; p++) {
      int v = -1;
      for (int u = 0; u < n && v < 0; u++)
        if (nd[u].layer == l && nd[u].pos == p) v = u;
      if (v < 0) break;
      nd[v].x = x;
      nd[v].y = MARGIN + 10 + l * (NODE_H + LAYER_GAP);
      x += nd[v].w + NODE_GAP;
    }
  }
  /* room on the right for loop-carried edges */
  int maxspan = 1;
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    int d = abs(nd[ed->src].layer - nd[ed->dst].layer);
    if (ed->dist && d + 1 > maxspan) maxspan = d + 1;
  }
  double W = MARGIN * 2 + maxw + 40 + 14.0 * maxspan;
  double H = MARGIN * 2 + 20 + nl * (NODE_H + LAYER_GAP);
  fprintf(f, "<svg id=\"graph-svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 "
             "%.0f %.0f\" role=\"img\" aria-label=\"kernel graph\">\n",
          W, H, W, H);
  fprintf(f, "<defs><marker id=\"rpt-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" "
             "refY=\"5\" markerUnits=\"userSpaceOnUse\" markerWidth=\"9\" markerHeight=\"9\" "
             "orient=\"auto-start-reverse\"><path d=\"M0 0 L10 5 L0 10 z\" "
             "fill=\"#555\"/></marker></defs>\n");
  /* edges first, under the nodes */
  for (int e = 0; e < g->nedges; e++) {
    const twill_edge *ed = &g->edges[e];
    const gnode *a = &nd[ed->src], *b = &nd[ed->dst];
    double x1, y1, x2, y2, c1x, c1y, c2x, c2y;
    if (ed->src == ed->dst) {
      /* a small loop over the node's top right corner, out of the gap
       * between nodes */
      x1 = a->x + a->w - 26;
      y1 = a->y;
      x2 = a->x + a->w;
      y2 = a->y + 10;
      c1x = x1;
      c1y = a->y - 26;
      c2x = x2 + 22;
      c2y = a->y - 4;
    } else if (!ed->dist && b->layer > a->layer) {
      x1 = a->x + a->w / 2;
      y1 = a->y + NODE_H;
      x2 = b->x + b->w / 2;
      y2 = b->y;
      double dy = (y2 - y1) / 2;
      c1x = x1;
      c1y = y1 + dy;
      c2x = x2;
      c2y = y2 - dy;
    } else {
      /* loop-carried (or sideways): out of the source's right side, into
       * the destination's right side, bulging right by the layers crossed */
      int d = abs(a->layer - b->layer);
      x1 = a->x + a->w;
      y1 = a->y + NODE_H / 2.0 + 6;
      x2 = b->x + b->w;
      y2 = b->y + NODE_H / 2.0 - 6;
      double right = (x1 > x2 ? x1 : x2) + 28 + 14.0 * d;
      c1x = right;
      c1y = y1;
      c2x = right;
      c2y = y2;
    }
    fprintf(f, "<path class=\"edge%s%s\" data-src=\"%d\" data-dst=\"%d\" "
               "d=\"M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f\" "
               "marker-end=\"url(#rpt-arrow)\"><title>",
            ed->dist ? " back" : "", crit[e] ? " crit" : "", ed->src, ed->dst, x1,
            y1, c1x, c1y, c2x, c2y, x2, y2);
    twill_rpt_esc(f, g->ops[ed->src].name);
    fprintf(f, " -> ");
    twill_rpt_esc(f, g->ops[ed->dst].name);
    fprintf(f, ": latency %ld, distance %d%s%s</title></path>\n", ed->lat, ed->dist,
            ed->blocking ? ", blocking" : "", crit[e] ? ", on the critical cycle" : "");
    /* the cubic's midpoint: (P0 + 3 P1 + 3 P2 + P3) / 8 */
    double mx = (x1 + 3 * c1x + 3 * c2x + x2) / 8, my = (y1 + 3 * c1y + 3 * c2y + y2) / 8;
    edge_label(R, e, mx + 3, my + 3);
    fprintf(f, "\n");
  }
  for (int v = 0; v < n; v++) {
    const twill_op *o = &g->ops[v];
    bool sat = false;
    if (R->bounds && R->b.res_unit >= 0)
      for (int k = 0; k < o->nuses; k++)
        if (o->uses[k].unit == R->b.res_unit) sat = true;
    fprintf(f, "<g class=\"node%s\" data-op=\"%d\"><title>", sat ? " sat" : "", v);
    twill_rpt_esc(f, o->name);
    fprintf(f, ": latency %ld", o->lat);
    for (int k = 0; k < o->nuses; k++) {
      fprintf(f, "%s", k ? ", " : "; uses ");
      twill_rpt_esc(f, g->units[o->uses[k].unit].name);
    }
    if (o->regs) fprintf(f, "; %ld regs/thread", o->regs);
    if (o->smem) fprintf(f, "; %ld bytes smem", o->smem);
    if (o->varlat) fprintf(f, "; variable latency");
    fprintf(f, "</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
               "rx=\"5\" fill=\"%s\" fill-opacity=\"0.35\"/>",
            nd[v].x, nd[v].y, nd[v].w, NODE_H, twill_rpt_op_color(R, v));
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
               "font-weight=\"bold\">",
            nd[v].x + nd[v].w / 2, nd[v].y + 15);
    twill_rpt_esc(f, o->name);
    fprintf(f, "</text><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
               "fill=\"#333\">lat ",
            nd[v].x + nd[v].w / 2, nd[v].y + 30);
    twill_rpt_cost(R, o->lat, R->src->ops[v].lat, true);
    if (R->sched && R->cm.warps) {
      char wl[32];
      fprintf(f, " %s", twill_cg_warp_label(&R->cm, v, wl, sizeof wl));
    }
    fprintf(f, "</text></g>\n");
  }
  fprintf(f, "</svg>\n<p class=\"legend note\">fill: the op's unit");
  for (int u = 0; u < g->nunits; u++) {
    fprintf(f, "<span class=\"sw\" style=\"background:%s\">&#160;</span>", twill_rpt_color(u));
    twill_rpt_esc(f, g->units[u].name);
  }
  fprintf(f, "<span class=\"sw\" style=\"background:%s\">&#160;</span>no unit; "
             "solid arrows: same iteration, dashed: loop-carried (dN: N "
             "iterations later), labels: latency; red: the critical cycle; "
             "thick red outline: ops on the saturated unit.</p>\n",
          RPT_NONE_COLOR);
  free(nd);
  free(crit);
  free(lw);
  return 0;
}

/* ---- bar charts ---------------------------------------------------------- */

#define PLOT_W 1000.0
#define LEFT 150.0
#define LANE_H 22
#define MIN_PX 6.0

typedef struct item {
  int row, lane;
  int nseg;
  double x0[2], x1[2];  /* pixel extents inside the plot */
  int op;
  const char *fill;
  char label[80];
  char title[320];
} item;

typedef struct chart {
  item *it;
  int n, cap;
  int nrows;
  char (*rowlab)[64];
  int *lanes;          /* per row */
} chart;

static item *chart_add(chart *c) {
  if (c->n == c->cap) {
    int nc = c->cap ? 2 * c->cap : 64;
    item *ni = realloc(c->it, (size_t)nc * sizeof *ni);
    if (!ni) return NULL;
    c->it = ni;
    c->cap = nc;
  }
  item *it = &c->it[c->n++];
  memset(it, 0, sizeof *it);
  return it;
}

static void chart_free(chart *c) {
  free(c->it);
  free(c->rowlab);
  free(c->lanes);
}

static int chart_rows(chart *c, int nrows) {
  c->nrows = nrows;
  c->rowlab = calloc((size_t)nrows + 1, sizeof *c->rowlab);
  c->lanes = calloc((size_t)nrows + 1, sizeof *c->lanes);
  return c->rowlab && c->lanes ? 0 : -1;
}

static bool overlaps(const item *a, const item *b) {
  for (int i = 0; i < a->nseg; i++)
    for (int j = 0; j < b->nseg; j++)
      if (a->x0[i] < b->x1[j] - 0.01 && b->x0[j] < a->x1[i] - 0.01) return true;
  return false;
}

/* First fit in item order: each item to the lowest lane of its row where it
 * overlaps nothing (pixels, bars at least MIN_PX wide; bars that touch, as
 * an op ending where the next starts, share a lane). */
static void chart_pack(chart *c) {
  for (int k = 0; k < c->n; k++) {
    item *it = &c->it[k];
    for (int s = 0; s < it->nseg; s++)
      if (it->x1[s] - it->x0[s] < MIN_PX) it->x1[s] = it->x0[s] + MIN_PX;
    for (int lane = 0;; lane++) {
      bool ok = true;
      for (int j = 0; j < k && ok; j++)
        if (c->it[j].row == it->row && c->it[j].lane == lane && overlaps(&c->it[j], it))
          ok = false;
      if (ok) {
        it->lane = lane;
        if (lane + 1 > c->lanes[it->row]) c->lanes[it->row] = lane + 1;
        break;
      }
    }
  }
  for (int r = 0; r < c->nrows; r++)
    if (!c->lanes[r]) c->lanes[r] = 1;
}

/* A "nice" tick step near span/10: 1, 2 or 5 times a power of ten. */
static long tick_step(long span) {
  long raw = span / 10 > 0 ? span / 10 : 1, p = 1;
  while (p * 10 <= raw) p *= 10;
  if (raw >= 5 * p) return 5 * p;
  if (raw >= 2 * p) return 2 * p;
  return p;
}

/* Draw c over cycles [0, span) of a window starting at cycle x0 (ticks
 * labelled x0 + t); bands: optional phase bands drawn first. */
static void chart_draw(rpt *R, const chart *c, const char *id, long x0, long span,
                       const long *bands, int nbands, const char *const *bandlab,
                       int sep_after) {
  FILE *f = R->f;
  double sx = PLOT_W / (double)(span > 0 ? span : 1);
  int lanes = 0;
  for (int r = 0; r < c->nrows; r++) lanes += c->lanes[r];
  int top = nbands ? 24 : 6;
  int sep = sep_after >= 0 ? 10 : 0;
  int plot_h = lanes * LANE_H + sep;
  double W = LEFT + PLOT_W + 20;
  int H = top + plot_h + 40;
  fprintf(f, "<svg id=\"%s\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
             "role=\"img\" aria-label=\"%s\">\n",
          id, W, H, W, H, id);
  for (int k = 0; k < nbands; k++) {
    if (bands[k + 1] <= bands[k]) continue;
    double bx = LEFT + (double)(bands[k] - x0) * sx, bw = (double)(bands[k + 1] - bands[k]) * sx;
    fprintf(f, "<rect x=\"%.1f\" y=\"2\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
               "stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
            bx, bw, top + plot_h - 2, k % 2 ? "#e3ecf7" : "#f3f3f3");
    if ((double)strlen(bandlab[k]) * 6.6 + 6 <= bw)
      fprintf(f, "<text x=\"%.1f\" y=\"16\" text-anchor=\"middle\" "
                 "font-weight=\"bold\">%s</text>\n",
              bx + bw / 2, bandlab[k]);
  }
  int y = top;
  int *rowy = malloc(((size_t)c->nrows + 1) * sizeof *rowy);
  if (!rowy) return;
  for (int r = 0; r < c->nrows; r++) {
    rowy[r] = y;
    int h = c->lanes[r] * LANE_H;
    fprintf(f, "<text x=\"6\" y=\"%d\">", y + 15);
    twill_rpt_esc(f, c->rowlab[r]);
    fprintf(f, "</text><line x1=\"2\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" "
               "stroke=\"#ddd\"/>\n",
            y + h, W - 10, y + h);
    y += h;
    if (r == sep_after) {
      fprintf(f, "<line x1=\"2\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" stroke=\"#888\" "
                 "stroke-width=\"2\"/>\n",
              y + sep / 2, W - 10, y + sep / 2);
      y += sep;
    }
  }
  for (int k = 0; k < c->n; k++) {
    const item *it = &c->it[k];
    int by = rowy[it->row] + it->lane * LANE_H + 2;
    fprintf(f, "<g data-op=\"%d\"><title>", it->op);
    twill_rpt_esc(f, it->title);
    fprintf(f, "</title>");
    for (int s = 0; s < it->nseg; s++) {
      fprintf(f, "<rect class=\"bar\" data-op=\"%d\" x=\"%.1f\" y=\"%d\" "
                 "width=\"%.1f\" height=\"%d\" rx=\"2\" fill=\"%s\"/>",
              it->op, LEFT + it->x0[s], by, it->x1[s] - it->x0[s], LANE_H - 4,
              it->fill);
    }
    /* the label on each segment, cut to fit, none when too narrow */
    for (int sg = 0; sg < it->nseg; sg++) {
      int fit = (int)((it->x1[sg] - it->x0[sg] - 4) / 6.6);
      if (fit < 3) continue;
      char lab[80];
      snprintf(lab, sizeof lab, "%s", it->label);
      if ((int)strlen(lab) > fit) {
        lab[fit - 1] = '~';
        lab[fit] = 0;
      }
      fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"#111\">", LEFT + it->x0[sg] + 2,
              by + 13);
      twill_rpt_esc(f, lab);
      fprintf(f, "</text>");
    }
    fprintf(f, "</g>\n");
  }
  /* axis */
  int ay = top + plot_h;
  fprintf(f, "<line x1=\"%.0f\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" stroke=\"#333\"/>\n",
          LEFT, ay, LEFT + PLOT_W, ay);
  long step = tick_step(span);
  for (long t = 0; t <= span; t += step) {
    double x = LEFT + (double)t * sx;
    fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>",
            x, ay, x, ay + 4);
    if (span - t < step / 2 && t) continue;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", x, ay + 16);
    twill_rpt_time(R, x0 + t, true);
    fprintf(f, "</text>\n");
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"end\"><tspan "
             "class=\"cyunit\">%s</tspan></text>\n</svg>\n",
          LEFT + PLOT_W, ay + 32, R->scaled ? "real cycles" : "cycles");
  free(rowy);
}

static void legend_units(rpt *R, const char *what) {
  FILE *f = R->f;
  fprintf(f, "<p class=\"legend note\">%s", what);
  for (int u = 0; u < R->g->nunits; u++) {
    fprintf(f, "<span class=\"sw\" style=\"background:%s\">&#160;</span>", twill_rpt_color(u));
    twill_rpt_esc(f, R->g->units[u].name);
  }
  fprintf(f, "<span class=\"sw\" style=\"background:%s\">&#160;</span>no unit</p>\n",
          RPT_NONE_COLOR);
}

/* Wrap [a, a + len) onto the window [0, I) in pixels. */
static void wrap(item *it, long a, long len, long I, double sx) {
  if (len >= I) {
    it->nseg = 1;
    it->x0[0] = 0;
    it->x1[0] = (double)I * sx;
    return;
  }
  a %= I;
  if (a + len <= I) {
    it->nseg = 1;
    it->x0[0] = (double)a * sx;
    it->x1[0] = (double)(a + len) * sx;
  } else {
    it->nseg = 2;
    it->x0[0] = (double)a * sx;
    it->x1[0] = (double)I * sx;
    it->x0[1] = 0;
    it->x1[1] = (double)(a + len - I) * sx;
  }
}

int twill_rpt_steady_svg(rpt *R) {
  const twill_graph *g = R->g;
  const cg_model *cm = &R->cm;
  FILE *f = R->f;
  if (g->nops > MAX_DRAWN_OPS) {
    fprintf(f, "<p>%d ops: not drawn (more than %d); see the tables.</p>\n", g->nops,
            MAX_DRAWN_OPS);
    return 0;
  }
  long I = cm->I;
  double sx = PLOT_W / (double)I;
  /* rows: warp roles, then the units any op uses */
  int *urow = malloc(((size_t)g->nunits + 1) * sizeof *urow);
  if (!urow) return -1;
  int nrows = cm->nroles;
  for (int u = 0; u < g->nunits; u++) {
    urow[u] = -1;
    for (int v = 0; v < g->nops && urow[u] < 0; v++)
      for (int k = 0; k < g->ops[v].nuses; k++)
        if (g->ops[v].uses[k].unit == u) urow[u] = nrows++;
  }
  chart c;
  memset(&c, 0, sizeof c);
  if (chart_rows(&c, nrows)) goto oom;
  for (int r = 0; r < cm->nroles; r++) {
    char rl[32];
    twill_cg_role_label(cm, r, rl, sizeof rl);
    if (cm->warps && cm->roles[r].nwarps == R->wg && cm->roles[r].first % R->wg == 0)
      snprintf(c.rowlab[r], sizeof c.rowlab[r], "warpgroup %d (%s)",
               cm->roles[r].first / R->wg, rl);
    else if (cm->warps)
      snprintf(c.rowlab[r], sizeof c.rowlab[r], "warps %s%s", rl,
               cm->roles[r].varlat_only ? " varlat" : "");
    else
      snprintf(c.rowlab[r], sizeof c.rowlab[r], "all ops");
  }
  for (int u = 0; u < g->nunits; u++)
    if (urow[u] >= 0)
      snprintf(c.rowlab[urow[u]], sizeof c.rowlab[urow[u]], "unit %s (x%d)",
               g->units[u].name, g->units[u].capacity);
  /* items in slot order so that the packing reads left to right */
  int *ord = malloc(((size_t)g->nops + 1) * sizeof *ord);
  if (!ord) goto oom;
  for (int v = 0; v < g->nops; v++) ord[v] = v;
  for (int i = 1; i < g->nops; i++) {
    int x = ord[i], j = i - 1;
    while (j >= 0 && (cm->slot[ord[j]] > cm->slot[x] ||
                      (cm->slot[ord[j]] == cm->slot[x] && ord[j] > x))) {
      ord[j + 1] = ord[j];
      j--;
    }
    ord[j + 1] = x;
  }
  for (int i = 0; i < g->nops; i++) {
    int v = ord[i];
    const twill_op *o = &g->ops[v];
    long k = cm->C - 1 - cm->stage[v];
    char it_lab[24], wl[32];
    if (k) snprintf(it_lab, sizeof it_lab, "i+%ld", k);
    else snprintf(it_lab, sizeof it_lab, "i");
    twill_cg_warp_label(cm, v, wl, sizeof wl);
    item *it = chart_add(&c);
    if (!it) goto oom2;
    it->row = cm->role_of[v];
    it->op = v;
    it->fill = twill_rpt_op_color(R, v);
    long len = twill_cg_op_len(cm, v);
    wrap(it, cm->slot[v], len, I, sx);
    if (len >= I)
      snprintf(it->label, sizeof it->label, "%s %s (x%ld)", o->name, it_lab, (len + I - 1) / I);
    else
      snprintf(it->label, sizeof it->label, "%s %s", o->name, it_lab);
    snprintf(it->title, sizeof it->title,
             "%s of iteration %s: issues at slot %ld (%ld real), stage %ld, runs "
             "%ld cycles (%ld real), warps %s",
             o->name, it_lab, cm->slot[v], twill_rpt_real(R, cm->slot[v]), cm->stage[v],
             len, R->src->ops[v].lat, wl);
  }
  for (int i = 0; i < g->nops; i++) {
    int v = ord[i];
    const twill_op *o = &g->ops[v];
    for (int k = 0; k < o->nuses; k++) {
      const twill_use *us = &o->uses[k];
      for (int cnt = 0; cnt < us->count; cnt++) {
        item *it = chart_add(&c);
        if (!it) goto oom2;
        it->row = urow[us->unit];
        it->op = v;
        it->fill = cm->warps ? twill_rpt_role_color(cm->role_of[v])
                             : twill_rpt_iter_color((int)(cm->C - 1 - cm->stage[v]));
        wrap(it, cm->slot[v] + us->offset, us->cycles, I, sx);
        snprintf(it->label, sizeof it->label, "%s", o->name);
        char rl[32];
        snprintf(it->title, sizeof it->title,
                 "%s holds %s from slot %ld (%ld real) for %d cycles; warps %s",
                 o->name, g->units[us->unit].name, (cm->slot[v] + us->offset) % I,
                 twill_rpt_real(R, (cm->slot[v] + us->offset) % I), us->cycles,
                 cm->warps ? twill_cg_role_label(cm, cm->role_of[v], rl, sizeof rl) : "-");
      }
    }
  }
  chart_pack(&c);
  fprintf(f, "<p class=\"note\">The loop body: one window of I cycles, "
             "[(C-1)&#183;I, C&#183;I) of the straight-line program, in which "
             "each op issues once, for iteration i+k with k = C-1-stage (i is "
             "the oldest iteration in flight).  Bars that run past the window "
             "wrap to its start.  Above the line, one row per warp role, bars "
             "coloured by unit; below it, one row per unit, bars coloured by "
             "the warp role that holds it%s.</p>\n",
          cm->warps ? "" : " (no warp assignment: by iteration)");
  chart_draw(R, &c, "steady-svg", 0, I, NULL, 0, NULL, cm->nroles - 1);
  legend_units(R, "warp-role rows, by unit:");
  if (cm->warps) {
    fprintf(f, "<p class=\"legend note\">unit rows, by warp role:");
    for (int r = 0; r < cm->nroles; r++) {
      fprintf(f, "<span class=\"sw\" style=\"background:%s\">&#160;</span>",
              twill_rpt_role_color(r));
      twill_rpt_esc(f, c.rowlab[r]);
    }
    fprintf(f, "</p>\n");
  }
  free(ord);
  free(urow);
  chart_free(&c);
  return 0;
oom2:
  free(ord);
oom:
  free(urow);
  chart_free(&c);
  return -1;
}

int twill_rpt_loop_svg(rpt *R) {
  const twill_graph *g = R->g;
  const cg_model *cm = &R->cm;
  FILE *f = R->f;
  if (g->nops > MAX_DRAWN_OPS) {
    fprintf(f, "<p>%d ops: not drawn (more than %d).</p>\n", g->nops, MAX_DRAWN_OPS);
    return 0;
  }
  double sx = PLOT_W / (double)(cm->T > 0 ? cm->T : 1);
  chart c;
  memset(&c, 0, sizeof c);
  if (chart_rows(&c, cm->nroles)) {
    chart_free(&c);
    return -1;
  }
  for (int r = 0; r < cm->nroles; r++) {
    char rl[32];
    twill_cg_role_label(cm, r, rl, sizeof rl);
    if (cm->warps && cm->roles[r].nwarps == R->wg && cm->roles[r].first % R->wg == 0)
      snprintf(c.rowlab[r], sizeof c.rowlab[r], "warpgroup %d (%s)",
               cm->roles[r].first / R->wg, rl);
    else
      snprintf(c.rowlab[r], sizeof c.rowlab[r], cm->warps ? "warps %s" : "all ops", rl);
  }
  for (int q = 0; q < cm->ninst; q++) {
    const cg_inst *in = &cm->inst[q];
    item *it = chart_add(&c);
    if (!it) {
      chart_free(&c);
      return -1;
    }
    long len = twill_cg_op_len(cm, in->op);
    char il[32];
    twill_cg_iter_label(cm, in, il, sizeof il);
    it->row = cm->role_of[in->op];
    it->op = in->op;
    it->fill = twill_rpt_iter_color(in->iter);
    it->nseg = 1;
    it->x0[0] = (double)in->time * sx;
    it->x1[0] = (double)(in->time + len) * sx;
    snprintf(it->label, sizeof it->label, "%s(%d)", g->ops[in->op].name, in->iter);
    snprintf(it->title, sizeof it->title,
             "%s of iteration %d (%s in the %s): cycles %ld-%ld (real %ld-%ld)",
             g->ops[in->op].name, in->iter, il,
             in->section == 0 ? "prologue" : in->section == 1 ? "steady state" : "epilogue",
             in->time, in->time + len - 1, twill_rpt_real(R, in->time),
             twill_rpt_real(R, in->time + len) - 1);
  }
  chart_pack(&c);
  long bands[4] = {0, (cm->C - 1) * cm->I, cm->C * cm->I, cm->T};
  static const char *const blab[3] = {"prologue", "steady state", "epilogue"};
  fprintf(f, "<p class=\"note\">The straight-line program Q: C = %ld copies of the "
             "iteration, T = (C-1)&#183;I + L cycles.  The prologue fills the "
             "pipeline, the steady state is the loop body (repeated once per "
             "iteration, drawn once), the epilogue drains it.  Bars: op "
             "(iteration of Q), coloured by iteration.</p>\n",
          cm->C);
  chart_draw(R, &c, "loop-svg", 0, cm->T, bands, 3, blab, -1);
  fprintf(f, "<p class=\"legend note\">iteration:");
  for (long j = 0; j < cm->C && j < 10; j++)
    fprintf(f, "<span class=\"sw\" style=\"background:%s\">&#160;</span>%ld",
            twill_rpt_iter_color((int)j), j);
  if (cm->C > 10) fprintf(f, " (colours repeat every 10)");
  fprintf(f, "</p>\n");
  chart_free(&c);
  return 0;
}
