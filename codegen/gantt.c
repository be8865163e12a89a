/* codegen/gantt.c: the pipelined loop as a text Gantt chart (at most 100
 * columns, scaled) and as an SVG picture.  Rows are warp roles (or units);
 * a row splits into lanes so that bars never overlap. */
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define GANTT_COLS 100
#define LABEL_W 10
#define PLOT_W (GANTT_COLS - LABEL_W - 2)

typedef struct bar {
  long from, to;   /* cycles [from, to) */
  int op, iter;    /* iter: Q's iteration */
  int lane;
  long pack_to;    /* end used for lane packing (>= to) */
} bar;

typedef struct row {
  char label[40];
  bar *bars;
  int nbars, cap;
  int nlanes;
} row;

static int row_add(row *r, long from, long to, int op, int iter) {
  if (r->nbars == r->cap) {
    int nc = r->cap ? 2 * r->cap : 16;
    bar *nb = realloc(r->bars, (size_t)nc * sizeof *nb);
    if (!nb) return -1;
    r->bars = nb;
    r->cap = nc;
  }
  bar *b = &r->bars[r->nbars++];
  b->from = from;
  b->to = to > from ? to : from + 1;
  b->op = op;
  b->iter = iter;
  b->lane = 0;
  b->pack_to = b->to;
  return 0;
}

static int cmp_bar(const void *a, const void *b) {
  const bar *x = a, *y = b;
  if (x->from != y->from) return x->from < y->from ? -1 : 1;
  if (x->op != y->op) return x->op - y->op;
  return x->iter - y->iter;
}

/* Horizontal scale: zoom columns per cycle (zoom >= 1), or cpc cycles per
 * column (zoom == 0). */
typedef struct scale {
  long x0;
  long zoom, cpc;
} scale;

/* Column where cycle t starts, rounded to the nearest column so that bars
 * that touch in cycles do not overlap in columns. */
static long col_of(const scale *sc, long t) {
  long d = t - sc->x0;
  if (sc->zoom) return d * sc->zoom;
  return (d + sc->cpc / 2) / sc->cpc;
}

/* Greedy interval packing: each bar to the first lane whose last bar ends
 * (in columns of sc) before it starts. */
static int pack(row *r, const scale *sc) {
  /* a row may have no bars (a declared unit no op uses): qsort's base
   * must not be NULL even for zero items */
  if (r->nbars > 1) qsort(r->bars, (size_t)r->nbars, sizeof *r->bars, cmp_bar);
  long *end = malloc((size_t)(r->nbars > 0 ? r->nbars : 1) * sizeof *end);
  if (!end) return -1;
  r->nlanes = 0;
  for (int k = 0; k < r->nbars; k++) {
    long c0 = col_of(sc, r->bars[k].from);
    long c1 = col_of(sc, r->bars[k].pack_to);
    if (c1 <= c0) c1 = c0 + 1;
    int l = 0;
    while (l < r->nlanes && end[l] > c0) l++;
    if (l == r->nlanes) r->nlanes++;
    end[l] = c1;
    r->bars[k].lane = l;
  }
  if (!r->nlanes) r->nlanes = 1;
  free(end);
  return 0;
}

static void rows_free(row *rows, int n) {
  if (!rows) return;
  for (int k = 0; k < n; k++) free(rows[k].bars);
  free(rows);
}

/* Rows per role (by_unit 0) or per unit (1) with the bars of Q's instances
 * clipped to [x0, x1). */
static row *build_rows(const cg_model *cm, int by_unit, long x0, long x1,
                       int *nrows) {
  const twill_graph *g = cm->g;
  int n = by_unit ? g->nunits : cm->nroles;
  row *rows = calloc((size_t)(n > 0 ? n : 1), sizeof *rows);
  if (!rows) return NULL;
  for (int r = 0; r < n; r++) {
    if (by_unit)
      snprintf(rows[r].label, sizeof rows[r].label, "%s", g->units[r].name);
    else
      twill_cg_role_label(cm, r, rows[r].label, sizeof rows[r].label);
  }
  for (int q = 0; q < cm->ninst; q++) {
    const cg_inst *in = &cm->inst[q];
    if (by_unit) {
      const twill_op *o = &g->ops[in->op];
      for (int k = 0; k < o->nuses; k++) {
        long a = in->time + o->uses[k].offset, b = a + o->uses[k].cycles;
        if (a < x0) a = x0;
        if (b > x1) b = x1;
        if (a >= b) continue;
        if (row_add(&rows[o->uses[k].unit], a, b, in->op, in->iter)) goto oom;
      }
    } else {
      long a = in->time, b = a + twill_cg_op_len(cm, in->op);
      if (a < x0) a = x0;
      if (b > x1) b = x1;
      if (a >= b) continue;
      if (row_add(&rows[cm->role_of[in->op]], a, b, in->op, in->iter))
        goto oom;
    }
  }
  *nrows = n;
  return rows;
oom:
  rows_free(rows, n);
  return NULL;
}

static char op_letter(int v) {
  static const char L[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return v < 52 ? L[v] : '*';
}

/* One text chart of [x0, x1). iter_base: printed iteration digit is
 * iter - iter_base (steady state: the offset k of i+k). */
static int text_chart(const cg_model *cm, FILE *f, const char *title,
                      int by_unit, long x0, long x1, int steady) {
  int nr = 0;
  row *rows = build_rows(cm, by_unit, x0, x1, &nr);
  if (!rows) return -1;
  long span = x1 - x0 > 0 ? x1 - x0 : 1;
  scale sc = {x0, 0, 1};
  if (span <= PLOT_W) {
    sc.zoom = PLOT_W / span;
    if (sc.zoom > 8) sc.zoom = 8;
  } else {
    sc.cpc = (span + PLOT_W - 1) / PLOT_W;
  }
  int cols = (int)(sc.zoom ? span * sc.zoom : (span + sc.cpc - 1) / sc.cpc);
  for (int r = 0; r < nr; r++)
    if (pack(&rows[r], &sc)) {
      rows_free(rows, nr);
      return -1;
    }
  if (cm->norm) {
    /* the grid stays one step per normalized cycle (legible); its width
     * in real cycles: num/den per normalized cycle */
    long a = cm->num * sc.cpc, b = cm->den * sc.zoom;
    if (!sc.zoom) b = cm->den;
    long q = a, r = b;
    while (r) {
      long t = q % r;
      q = r;
      r = t;
    }
    a /= q, b /= q;
    char w[48];
    if (b == 1) snprintf(w, sizeof w, "%ld", a);
    else snprintf(w, sizeof w, "%ld/%ld", a, b);
    fprintf(f, "\n%s: cycles %ld..%ld, 1 column = %s cycles\n", title,
            twill_cg_real(cm, x0), twill_cg_real(cm, x1) - 1, w);
  } else if (sc.zoom) {
    fprintf(f, "\n%s: cycles %ld..%ld, 1 cycle = %ld column%s\n", title, x0,
            x1 - 1, sc.zoom, sc.zoom > 1 ? "s" : "");
  } else {
    fprintf(f, "\n%s: cycles %ld..%ld, 1 column = %ld cycles\n", title, x0,
            x1 - 1, sc.cpc);
  }
  /* ruler: a cycle number every 10 columns where it fits */
  char line[GANTT_COLS + 1];
  memset(line, ' ', sizeof line);
  int used = LABEL_W + 1;
  long tick = sc.zoom ? (10 + sc.zoom - 1) / sc.zoom * sc.zoom : 10;
  for (int c = 0; c < cols; c += (int)tick) {
    char num[24];
    long t = sc.zoom ? x0 + c / sc.zoom : x0 + (long)c * sc.cpc;
    int k = snprintf(num, sizeof num, "%ld", twill_cg_real(cm, t));
    int at = LABEL_W + 1 + c;
    if (at < used || at + k > GANTT_COLS) continue;
    memcpy(line + at, num, (size_t)k);
    used = at + k + 1;
  }
  int len = GANTT_COLS;
  while (len > 0 && line[len - 1] == ' ') len--;
  fprintf(f, "%.*s\n", len, line);
  /* phases (whole loop only) */
  if (!steady) {
    memset(line, ' ', sizeof line);
    memcpy(line, "phase", 5);
    line[LABEL_W] = '|';
    for (int c = 0; c < cols; c++) {
      long t = sc.zoom ? x0 + c / sc.zoom : x0 + (long)c * sc.cpc;
      char ch = t < (cm->C - 1) * cm->I ? 'p' : t < cm->C * cm->I ? 'S' : 'e';
      line[LABEL_W + 1 + c] = ch;
    }
    line[LABEL_W + 1 + cols] = '|';
    fprintf(f, "%.*s\n", LABEL_W + 2 + cols, line);
  }
  for (int r = 0; r < nr; r++) {
    for (int l = 0; l < rows[r].nlanes; l++) {
      memset(line, ' ', sizeof line);
      char lab[48];
      if (l == 0)
        snprintf(lab, sizeof lab, "%s", rows[r].label);
      else
        snprintf(lab, sizeof lab, "  .%d", l);
      size_t ll = strlen(lab);
      memcpy(line, lab, ll < LABEL_W ? ll : LABEL_W);
      line[LABEL_W] = '|';
      for (int c = 0; c < cols; c++) line[LABEL_W + 1 + c] = ' ';
      for (int k = 0; k < rows[r].nbars; k++) {
        const bar *b = &rows[r].bars[k];
        if (b->lane != l) continue;
        int c0 = (int)col_of(&sc, b->from);
        int c1 = (int)col_of(&sc, b->to);
        if (c1 <= c0) c1 = c0 + 1;
        if (c1 > cols) c1 = cols;
        if (c0 >= cols) c0 = cols - 1;
        int digit = steady ? (int)(cm->C - 1 - cm->stage[b->op]) : b->iter;
        for (int c = c0; c < c1; c++) {
          char ch = '=';
          if (c == c0) ch = op_letter(b->op);
          else if (c == c0 + 1) ch = (char)('0' + digit % 10);
          line[LABEL_W + 1 + c] = ch;
        }
      }
      line[LABEL_W + 1 + cols] = '|';
      fprintf(f, "%.*s\n", LABEL_W + 2 + cols, line);
    }
  }
  rows_free(rows, nr);
  return 0;
}

int twill_emit_gantt(const twill_graph *g, const twill_arch *m,
                     const twill_schedule *s, const twill_emit_opts *opts,
                     FILE *f) {
  cg_model cm;
  if (twill_cg_model_init(&cm, g, m, s, opts)) return -1;
  twill_cg_header(&cm, f, "# ", "gantt");
  fprintf(f, "# a bar: op letter, iteration, '=' for the rest; the iteration "
             "is the number\n# in the whole loop and k of i+k in the steady "
             "state\n# ops:");
  int col = 7;
  for (int v = 0; v < g->nops; v++) {
    char item[96];
    int k = snprintf(item, sizeof item, " %c=%s", op_letter(v), g->ops[v].name);
    if (col + k > GANTT_COLS) {
      fprintf(f, "\n#     ");
      col = 7;
    }
    fprintf(f, "%s", item);
    col += k;
  }
  fprintf(f, "\n");
  long s0 = (cm.C - 1) * cm.I, s1 = cm.C * cm.I;
  int rc = 0;
  if (g->nunits)
    rc |= text_chart(&cm, f, "steady state per unit", 1, s0, s1, 1);
  if (cm.warps)
    rc |= text_chart(&cm, f, "steady state per warp", 0, s0, s1, 1);
  rc |= text_chart(&cm, f,
                   cm.warps ? "whole pipelined loop per warp"
                            : "whole pipelined loop (no warp assignment)",
                   0, 0, cm.T, 0);
  if (g->nunits)
    rc |= text_chart(&cm, f, "whole pipelined loop per unit", 1, 0, cm.T, 0);
  twill_cg_model_free(&cm);
  return rc || ferror(f) ? -1 : 0;
}

/* ---- SVG --------------------------------------------------------------- */

static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\t') fputc(*s, f);
    }
  }
}

static const char *palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                 "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
                                 "#9c755f", "#bab0ac"};

/* A "nice" tick step near span/8. */
static long tick_step(long span) {
  long raw = span / 8 > 0 ? span / 8 : 1, p = 1;
  while (p * 10 <= raw) p *= 10;
  if (raw >= 5 * p) return 5 * p;
  if (raw >= 2 * p) return 2 * p;
  return p;
}

#define SVG_W 1200
#define SVG_LEFT 110
#define SVG_RIGHT 20
#define LANE_H 22
#define CHAR_W 6.6
#define MIN_BAR 8.0

int twill_emit_svg(const twill_graph *g, const twill_arch *m,
                   const twill_schedule *s, const twill_emit_opts *opts,
                   FILE *f) {
  cg_model cm;
  if (twill_cg_model_init(&cm, g, m, s, opts)) return -1;
  int nr = 0;
  row *rows = build_rows(&cm, 0, 0, cm.T, &nr);
  if (!rows) {
    twill_cg_model_free(&cm);
    return -1;
  }
  double pw = SVG_W - SVG_LEFT - SVG_RIGHT;
  double sx = pw / (double)(cm.T > 0 ? cm.T : 1);
  scale sc = {0, 1, 1};
  int lanes = 0;
  /* bars are at least MIN_BAR pixels wide (a zero-latency TMA load would
   * be invisible otherwise); pack with that width so none overlap */
  for (int r = 0; r < nr; r++)
    for (int k = 0; k < rows[r].nbars; k++) {
      bar *b = &rows[r].bars[k];
      long minc = (long)(MIN_BAR / sx) + 1;
      if (b->to - b->from < minc) b->pack_to = b->from + minc;
    }
  for (int r = 0; r < nr; r++) {
    if (pack(&rows[r], &sc)) {
      rows_free(rows, nr);
      twill_cg_model_free(&cm);
      return -1;
    }
    lanes += rows[r].nlanes;
  }
  int top = 96, plot_h = lanes * LANE_H + 8;
  int legend_y = top + plot_h + 36;
  int height = legend_y + 40;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
          "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans "
          "Mono, monospace\" font-size=\"11\">\n",
          SVG_W, height, SVG_W, height);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
             "fill=\"#ffffff\"/>\n", SVG_W, height);
  fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">");
  xml_text(f, g->name);
  fprintf(f, " on ");
  xml_text(f, m ? m->name : "(no machine)");
  long Tr = twill_cg_real(&cm, cm.T);
  fprintf(f, ": I = %ld, L = %ld, C = %ld copies, T = %ld cycles</text>\n",
          twill_cg_real(&cm, cm.I), twill_cg_real(&cm, cm.L), cm.C, Tr);
  fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555555\">");
  if (opts && opts->heuristic)
    fprintf(f, "heuristic schedule, not optimal; ");
  if (cm.norm) {
    char k[64];
    fprintf(f, "real cycles: solved on normalized costs (budget %ld, error "
               "%ld), 1 normalized cycle = %s cycles%s; ",
            cm.norm->U, cm.norm->F, twill_cg_ratio(&cm, k, sizeof k),
            cm.den > 1 ? ", rounded" : "");
  }
  fprintf(f, "rows: %s; bars: op instances coloured by iteration</text>\n",
          cm.warps ? "warp roles" : "all ops (no warp assignment)");
  /* phase bands */
  long bounds[4] = {0, (cm.C - 1) * cm.I, cm.C * cm.I, cm.T};
  const char *names[3] = {"prologue", "steady state", "epilogue"};
  const char *shorts[3] = {"pro", "steady", "epi"};
  const char *fills[3] = {"#f3f3f3", "#e3ecf7", "#f3f3f3"};
  for (int k = 0; k < 3; k++) {
    if (bounds[k + 1] <= bounds[k]) continue;
    double x = SVG_LEFT + bounds[k] * sx, w = (bounds[k + 1] - bounds[k]) * sx;
    fprintf(f,
            "<rect class=\"phase\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
            "height=\"%d\" fill=\"%s\" stroke=\"#999999\" "
            "stroke-dasharray=\"4 3\"/>\n",
            x, top - 30, w, plot_h + 30, fills[k]);
    const char *lab = names[k];
    if (strlen(lab) * CHAR_W + 6 > w) lab = shorts[k];
    if (strlen(lab) * CHAR_W + 6 <= w)
      fprintf(f,
              "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
              "font-weight=\"bold\">%s</text>\n",
              x + w / 2, top - 14, lab);
  }
  /* rows */
  int y = top;
  for (int r = 0; r < nr; r++) {
    int h = rows[r].nlanes * LANE_H;
    fprintf(f, "<text x=\"8\" y=\"%d\">", y + 15);
    xml_text(f, rows[r].label);
    if (cm.warps && cm.roles[r].varlat_only) fprintf(f, " (varlat)");
    fprintf(f, "</text>\n");
    fprintf(f,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
            "stroke=\"#cccccc\"/>\n",
            4, y + h + 2, SVG_W - SVG_RIGHT, y + h + 2);
    for (int k = 0; k < rows[r].nbars; k++) {
      const bar *b = &rows[r].bars[k];
      double x = SVG_LEFT + b->from * sx;
      double w = (b->to - b->from) * sx;
      if (w < MIN_BAR) w = MIN_BAR;
      int by = y + b->lane * LANE_H + 2;
      char wl[32];
      const char *color = palette[b->iter % 10];
      fprintf(f, "<g><title>");
      xml_text(f, g->ops[b->op].name);
      fprintf(f, " iteration %d: cycles %ld-%ld, stage %ld, slot %ld, warp %s",
              b->iter, twill_cg_real(&cm, b->from), twill_cg_real(&cm, b->to) - 1,
              cm.stage[b->op], twill_cg_real(&cm, cm.slot[b->op]),
              twill_cg_warp_label(&cm, b->op, wl, sizeof wl));
      fprintf(f,
              "</title><rect class=\"bar\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
              "height=\"%d\" rx=\"2\" fill=\"%s\" stroke=\"#333333\" "
              "stroke-width=\"0.5\"/>",
              x, by, w, LANE_H - 4, color);
      /* label: name(iteration), truncated to the bar, omitted if narrow */
      char lab[128];
      snprintf(lab, sizeof lab, "%s(%d)", g->ops[b->op].name, b->iter);
      int fit = (int)((w - 4) / CHAR_W);
      size_t ll = strlen(lab);
      if (fit >= 3) {
        if ((int)ll > fit) {
          /* keep the name's start and mark the cut */
          lab[fit - 1] = '~';
          lab[fit] = 0;
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" fill=\"#ffffff\">", x + 2,
                by + 13);
        xml_text(f, lab);
        fprintf(f, "</text>");
      }
      fprintf(f, "</g>\n");
    }
    y += h;
  }
  /* axis */
  int ay = top + plot_h;
  fprintf(f,
          "<line x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
          "stroke=\"#333333\"/>\n",
          SVG_LEFT, ay, SVG_LEFT + pw, ay);
  /* ticks at round real cycles; a real cycle t sits at t * den / num
   * cycles of the drawing */
  long step = tick_step(Tr);
  for (long t = 0; t <= Tr; t += step) {
    double x = SVG_LEFT + (double)t * (double)cm.den / (double)cm.num * sx;
    fprintf(f,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
            "stroke=\"#333333\"/>\n",
            x, ay, x, ay + 4);
    if (Tr - t < step / 2 && t) continue; /* would touch the end label */
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%ld</text>\n",
            x, ay + 16, t);
  }
  fprintf(f,
          "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\">%ld cycles</text>\n",
          SVG_LEFT + pw, ay + 30, Tr);
  /* legend */
  fprintf(f, "<text x=\"10\" y=\"%d\">iteration:</text>\n", legend_y + 12);
  for (long j = 0; j < cm.C && j < 10; j++) {
    int lx = 90 + (int)j * 60;
    fprintf(f,
            "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" "
            "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%ld</text>\n",
            lx, legend_y, palette[j % 10], lx + 18, legend_y + 12, j);
  }
  if (cm.C > 10)
    fprintf(f, "<text x=\"%d\" y=\"%d\">(colours repeat every 10)</text>\n",
            90 + 10 * 60, legend_y + 12);
  fprintf(f, "</svg>\n");
  rows_free(rows, nr);
  twill_cg_model_free(&cm);
  return ferror(f) ? -1 : 0;
}
