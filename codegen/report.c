/* codegen/report.c: the HTML report (twill/codegen.h): the page, its text
 * sections (summary, bounds, search, schedule table, certificate), the
 * style and the script.  The drawings are in report_draw.c, the modulo
 * reservation table and the pressure charts in report_mrt.c.
 *
 * The page is HTML5 that `tidy -errors` accepts, with no URL in it: the
 * style, the SVG drawings and the script are inline, and the SVG needs no
 * namespace attribute inside HTML. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#ifndef TWILL_VERSION
#define TWILL_VERSION "?"
#endif

/* ---- shared helpers (report.h) ----------------------------------------- */

long twill_rpt_real(const rpt *R, long t) {
  if (!R->scaled) return t;
  /* halves away from zero; a time is at most 1e12 and k a ratio of costs,
   * far inside a double's exact integers */
  return (long)llround((double)t * R->r->real_per_cycle);
}

void twill_rpt_esc(FILE *f, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&#39;", f); break;
    default:
      if ((unsigned char)*s >= 0x20 || *s == '\n') fputc(*s, f);
    }
  }
}

static void cy_pair(const rpt *R, long n, long real, bool tspan) {
  if (!R->scaled) {
    fprintf(R->f, "%ld", n);
    return;
  }
  const char *tag = tspan ? "tspan" : "span";
  fprintf(R->f, "<%s class=\"cy\" data-r=\"%ld\" data-n=\"%ld\">%ld</%s>", tag,
          real, n, real, tag);
}

void twill_rpt_time(const rpt *R, long t, bool tspan) {
  cy_pair(R, t, twill_rpt_real(R, t), tspan);
}

void twill_rpt_cost(const rpt *R, long n, long real, bool tspan) {
  cy_pair(R, n, real, tspan);
}

/* Tableau 10 for units, Dark 2 for warp roles, a light set for iterations:
 * three palettes so that a bar's colour says which legend to read. */
static const char *const unit_pal[] = {"#4e79a7", "#f28e2b", "#59a14f",
                                       "#e15759", "#76b7b2", "#edc948",
                                       "#b07aa1", "#ff9da7", "#9c755f",
                                       "#bab0ac"};
static const char *const role_pal[] = {"#1b9e77", "#d95f02", "#7570b3",
                                       "#e7298a", "#66a61e", "#e6ab02",
                                       "#a6761d", "#666666"};
static const char *const iter_pal[] = {"#8dd3c7", "#fdb462", "#bebada",
                                       "#fb8072", "#80b1d3", "#b3de69",
                                       "#fccde5", "#bc80bd", "#ccebc5",
                                       "#ffed6f"};

const char *twill_rpt_color(int k) { return k < 0 ? RPT_NONE_COLOR : unit_pal[k % 10]; }
const char *twill_rpt_role_color(int r) { return r < 0 ? RPT_NONE_COLOR : role_pal[r % 8]; }
const char *twill_rpt_iter_color(int j) { return iter_pal[(j < 0 ? 0 : j) % 10]; }

const char *twill_rpt_op_color(const rpt *R, int v) {
  return twill_rpt_color(R->ucolor[v]);
}

/* ---- style and script --------------------------------------------------- */

static const char css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
    "margin:0;color:#222;background:#fafafa}\n"
    "header,section,footer{max-width:1240px;margin:0 auto;padding:8px 20px}\n"
    "header{background:#fff;border-bottom:1px solid #ddd}\n"
    "h1{font-size:22px;margin:10px 0 4px}h2{font-size:18px;margin:18px 0 6px;"
    "border-bottom:1px solid #ddd}h3{font-size:15px;margin:12px 0 4px}\n"
    "nav a{margin-right:12px}\n"
    "code,.mono,td.num{font-family:'DejaVu Sans Mono',monospace;font-size:13px}\n"
    "dl.summary{display:grid;grid-template-columns:max-content 1fr;gap:3px 14px;"
    "margin:8px 0}dl.summary dt{font-weight:600}dl.summary dd{margin:0}\n"
    "table{border-collapse:collapse;margin:6px 0;background:#fff}\n"
    "th,td{border:1px solid #ccc;padding:2px 7px;text-align:left;"
    "vertical-align:top}th{background:#eee}td.num{text-align:right}\n"
    ".ok{color:#1a7f37;font-weight:600}.bad{color:#c62828;font-weight:600}"
    ".warn{color:#9a6700;font-weight:600}.muted{color:#666}\n"
    ".badge{display:inline-block;padding:1px 8px;border-radius:10px;"
    "color:#fff;font-weight:600}.badge.ok{background:#1a7f37;color:#fff}"
    ".badge.bad{background:#c62828;color:#fff}.badge.warn{background:#9a6700;"
    "color:#fff}.badge.muted{background:#777;color:#fff}\n"
    "tr.sat td{background:#fff3e0}tr.refuted td{background:#fdecea}"
    "tr.found td{background:#e8f5e9}\n"
    ".chip{display:inline-block;padding:0 5px;margin:1px 2px;border-radius:3px;"
    "color:#fff;font-size:12px;cursor:default}\n"
    ".fam{margin:2px 0}.fam b{font-family:'DejaVu Sans Mono',monospace}\n"
    "svg{max-width:100%;height:auto;background:#fff;border:1px solid #ddd}\n"
    "svg text{font-family:'DejaVu Sans Mono',monospace;font-size:11px}\n"
    ".edge{fill:none;stroke:#777;stroke-width:1.3}"
    ".edge.back{stroke-dasharray:5 3}.edge.crit{stroke:#c62828;stroke-width:2.6}\n"
    ".node rect{stroke:#333;stroke-width:1}.node.sat rect{stroke:#c62828;"
    "stroke-width:3}\n"
    ".bar{stroke:#333;stroke-width:.5}\n"
    ".run{fill:#000;fill-opacity:0}.run:hover{fill-opacity:.06}"
    ".run.hl{fill:#000;fill-opacity:.14}\n"
    ".focus .bar:not(.hl),.focus .node:not(.hl),.focus .edge:not(.hl){"
    "opacity:.22}\n"
    ".focus .chip:not(.hl){opacity:.35}\n"
    ".hl.bar,.node.hl rect{stroke:#000;stroke-width:2.5}\n"
    ".edge.hl{stroke:#000;stroke-width:2.8;opacity:1}\n"
    ".chip.hl,tr.hl td{outline:2px solid #000}\n"
    "#units fieldset{position:fixed;top:8px;right:12px;z-index:10;margin:0;"
    "padding:2px 10px;border:1px solid #888;background:#fff;"
    "box-shadow:0 1px 4px rgba(0,0,0,.25)}\n"
    ".legend span.sw{display:inline-block;width:12px;height:12px;margin:0 4px "
    "0 10px;vertical-align:-2px;border:1px solid #555}\n"
    ".note{color:#555;font-size:13px}\n"
    ".box{background:#fff;border:1px solid #ddd;padding:6px 10px;margin:6px 0}\n"
    ".box.bad{border-color:#c62828}pre.box{white-space:pre-wrap}\n";

/* Hover: every element naming op v (data-op, a space-separated list of op
 * indices) and every edge from or to v is lit, the rest dimmed.  Units:
 * every .cy element holds both values; the toggle writes one of them.  The
 * toggle exists only where the script ran. */
static const char script[] =
    "(function () {\n"
    "  'use strict';\n"
    "  var doc = document, body = doc.body, lit = [];\n"
    "  function clear() {\n"
    "    for (var i = 0; i < lit.length; i++) lit[i].classList.remove('hl');\n"
    "    lit = [];\n"
    "    body.classList.remove('focus');\n"
    "  }\n"
    "  function light(sel) {\n"
    "    var l = doc.querySelectorAll(sel);\n"
    "    for (var i = 0; i < l.length; i++) { l[i].classList.add('hl'); lit.push(l[i]); }\n"
    "  }\n"
    "  doc.addEventListener('mouseover', function (ev) {\n"
    "    var t = ev.target && ev.target.closest ? ev.target.closest('[data-op]') : null;\n"
    "    clear();\n"
    "    if (!t) return;\n"
    "    var ops = t.getAttribute('data-op').split(' ');\n"
    "    for (var i = 0; i < ops.length; i++) {\n"
    "      if (!/^[0-9]+$/.test(ops[i])) continue;\n"
    "      light('[data-op~=\"' + ops[i] + '\"]');\n"
    "      light('.edge[data-src=\"' + ops[i] + '\"], .edge[data-dst=\"' + ops[i] + '\"]');\n"
    "    }\n"
    "    body.classList.add('focus');\n"
    "  });\n"
    "  function show(mode) {\n"
    "    var l = doc.querySelectorAll('.cy');\n"
    "    for (var i = 0; i < l.length; i++)\n"
    "      l[i].textContent = l[i].getAttribute(mode === 'n' ? 'data-n' : 'data-r');\n"
    "    var u = doc.querySelectorAll('.cyunit');\n"
    "    for (var k = 0; k < u.length; k++)\n"
    "      u[k].textContent = mode === 'n' ? 'normalized cycles' : 'real cycles';\n"
    "  }\n"
    "  var box = doc.getElementById('units');\n"
    "  if (box && box.getAttribute('data-scaled') === '1') {\n"
    "    var fs = doc.createElement('fieldset');\n"
    "    fs.id = 'cycle-toggle';\n"
    "    var lg = doc.createElement('legend');\n"
    "    lg.textContent = 'show cycles as';\n"
    "    fs.appendChild(lg);\n"
    "    [['r', 'real'], ['n', 'normalized']].forEach(function (o) {\n"
    "      var lab = doc.createElement('label'), inp = doc.createElement('input');\n"
    "      inp.type = 'radio'; inp.name = 'cycles'; inp.value = o[0];\n"
    "      inp.id = 'cycles-' + o[0];\n"
    "      inp.checked = o[0] === 'r';\n"
    "      inp.addEventListener('change', function () { if (inp.checked) show(o[0]); });\n"
    "      lab.appendChild(inp);\n"
    "      lab.appendChild(doc.createTextNode(' ' + o[1] + ' '));\n"
    "      fs.appendChild(lab);\n"
    "    });\n"
    "    box.appendChild(fs);\n"
    "  }\n"
    "})();\n";

/* ---- the text sections --------------------------------------------------- */

static const char *unit_name(const rpt *R, int u) {
  return u >= 0 && u < R->g->nunits ? R->g->units[u].name : "?";
}

/* The ops a constraint family names (twill/joint.h's family names), as a
 * data-op list into buf; "" when none. */
static void family_ops(const rpt *R, const char *fam, char *buf, size_t n) {
  static const char *const pre[] = {"blocking wait of ", "cross-warp transfer ",
                                    "--same ", "--apart ", "--own ", "--lead "};
  buf[0] = 0;
  const char *rest = NULL;
  for (size_t k = 0; k < sizeof pre / sizeof *pre && !rest; k++)
    if (!strncmp(fam, pre[k], strlen(pre[k]))) rest = fam + strlen(pre[k]);
  if (!rest) return;
  size_t used = 0;
  char name[256];
  while (*rest) {
    size_t k = 0;
    while (rest[k] && rest[k] != ',' && !(rest[k] == '-' && rest[k + 1] == '>') &&
           k + 1 < sizeof name) {
      name[k] = rest[k];
      k++;
    }
    name[k] = 0;
    int v = twill_graph_find_op(R->g, name);
    if (v >= 0 && used + 12 < n)
      used += (size_t)snprintf(buf + used, n - used, "%s%d", used ? " " : "", v);
    rest += k;
    if (*rest == ',') rest++;
    else if (*rest == '-') rest += 2;
    else if (*rest) rest++;
  }
}

/* What a family of the joint model means, for a reader who has not read
 * twill/joint.h (written after the family's name). */
static void family_gloss(FILE *f, const char *fam) {
  const char *txt = NULL;
  if (!strncmp(fam, "registers of warpgroup", 22))
    txt = "the values live on this warpgroup's warps need more registers per "
          "thread, at some slot of the steady state, than its budget allows";
  else if (!strcmp(fam, "register file"))
    txt = "the warpgroups' register budgets together do not fit the register "
          "file";
  else if (!strncmp(fam, "shared-memory", 13))
    txt = "the buffers live at some slot need more shared memory than the SM has";
  else if (!strncmp(fam, "tensor-memory", 13))
    txt = "the accumulators live at some slot need more tensor memory than the "
          "SM has";
  else if (!strncmp(fam, "variable-latency", 16))
    txt = "variable-latency ops (TMA loads) run alone on warp 0";
  else if (!strncmp(fam, "--", 2))
    txt = "a warp-role relation asked on the command line";
  if (txt) {
    fprintf(f, ": <span class=\"muted\">%s</span>", txt);
  } else if (!strncmp(fam, "blocking wait of ", 17)) {
    fprintf(f, ": <span class=\"muted\">");
    twill_rpt_esc(f, fam + 17);
    fprintf(f, " waits on a barrier for its input and may not issue while "
               "another op of its warp is still running</span>");
  } else if (!strncmp(fam, "cross-warp transfer ", 20) && strstr(fam, "->")) {
    const char *u = fam + 20, *arrow = strstr(fam, "->");
    fprintf(f, ": <span class=\"muted\">the register value of ");
    for (const char *c = u; c < arrow; c++) {
      char one[2] = {*c, 0};
      twill_rpt_esc(f, one);
    }
    fprintf(f, " reaches the warp of ");
    twill_rpt_esc(f, arrow + 2);
    fprintf(f, " through shared memory, which delays it by the transfer "
               "cost</span>");
  }
}

/* A "; "-separated list of families as a list with glosses. */
static void families(const rpt *R, const char *why) {
  FILE *f = R->f;
  fprintf(f, "<ul class=\"fams\">");
  const char *p = why;
  while (p && *p) {
    const char *e = strstr(p, "; ");
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char fam[512];
    if (len >= sizeof fam) len = sizeof fam - 1;
    memcpy(fam, p, len);
    fam[len] = 0;
    char ops[256];
    family_ops(R, fam, ops, sizeof ops);
    fprintf(f, "<li class=\"fam\"");
    if (ops[0]) fprintf(f, " data-op=\"%s\"", ops);
    fprintf(f, "><b>");
    twill_rpt_esc(f, fam);
    fprintf(f, "</b>");
    family_gloss(f, fam);
    fprintf(f, "</li>");
    p = e ? e + 2 : NULL;
  }
  fprintf(f, "</ul>\n");
}

/* A chip naming op v, coloured by its unit. */
static void op_chip(const rpt *R, int v) {
  fprintf(R->f, "<span class=\"chip\" data-op=\"%d\" style=\"background:%s\">", v,
          twill_rpt_op_color(R, v));
  twill_rpt_esc(R->f, R->g->ops[v].name);
  fprintf(R->f, "</span>");
}

/* Distinct (real cost -> normalized) pairs of the kernel, from the two
 * graphs side by side: the mapping as it was applied. */
typedef struct cpair {
  long real, norm;
} cpair;

static int cmp_cpair(const void *a, const void *b) {
  const cpair *x = a, *y = b;
  if (x->real != y->real) return x->real < y->real ? -1 : 1;
  return x->norm < y->norm ? -1 : x->norm > y->norm;
}

static void add_pair(cpair *p, int *n, long real, long norm) {
  if (real <= 0) return;
  for (int k = 0; k < *n; k++)
    if (p[k].real == real && p[k].norm == norm) return;
  p[*n].real = real;
  p[*n].norm = norm;
  (*n)++;
}

static int cost_pairs(const rpt *R) {
  const twill_graph *g = R->g, *s = R->src;
  size_t cap = (size_t)g->nedges + 2 * (size_t)g->nops + 1;
  for (int v = 0; v < g->nops; v++) cap += 2 * (size_t)g->ops[v].nuses;
  cpair *p = malloc(cap * sizeof *p);
  if (!p) return -1;
  int n = 0;
  for (int v = 0; v < g->nops; v++) {
    add_pair(p, &n, s->ops[v].lat, g->ops[v].lat);
    if (s->ops[v].spill >= 0 && g->ops[v].spill >= 0)
      add_pair(p, &n, s->ops[v].spill, g->ops[v].spill);
    for (int k = 0; k < g->ops[v].nuses && k < s->ops[v].nuses; k++) {
      add_pair(p, &n, s->ops[v].uses[k].offset, g->ops[v].uses[k].offset);
      add_pair(p, &n, s->ops[v].uses[k].cycles, g->ops[v].uses[k].cycles);
    }
  }
  for (int e = 0; e < g->nedges; e++) add_pair(p, &n, s->edges[e].lat, g->edges[e].lat);
  qsort(p, (size_t)n, sizeof *p, cmp_cpair);
  for (int k = 0; k < n; k++)
    fprintf(R->f, "%s<code>%ld&#8594;%ld</code>", k ? ", " : "", p[k].real,
            p[k].norm);
  free(p);
  return 0;
}

static void badge(FILE *f, const char *cls, const char *text) {
  fprintf(f, "<span class=\"badge %s\">%s</span>", cls, text);
}

static void cert_badge(const rpt *R) {
  switch (R->r->cert) {
  case TWILL_REPORT_CERT_VERIFIED: badge(R->f, "ok", "certificate verified"); break;
  case TWILL_REPORT_CERT_FAILED: badge(R->f, "bad", "certificate NOT verified"); break;
  default: badge(R->f, "muted", "not certified"); break;
  }
}

static int summary(rpt *R) {
  const twill_report *r = R->r;
  const twill_graph *g = R->g;
  FILE *f = R->f;
  fprintf(f, "<header>\n<h1>twill report: ");
  twill_rpt_esc(f, g->name);
  fprintf(f, " on ");
  twill_rpt_esc(f, R->r->m ? R->r->m->name : "(no machine)");
  fprintf(f, "</h1>\n<p class=\"muted\">");
  twill_rpt_esc(f, r->solver ? r->solver : "schedule");
  if (r->input) {
    fprintf(f, "; input <code>");
    twill_rpt_esc(f, r->input);
    fprintf(f, "</code>");
  }
  fprintf(f, "; %d ops, %d edges</p>\n<dl class=\"summary\" id=\"summary\">\n",
          g->nops, g->nedges);
  /* the answer */
  fprintf(f, "<dt>answer</dt><dd id=\"answer\">");
  if (r->infeasible) {
    badge(f, "bad", "infeasible at every I");
    fprintf(f, " no schedule exists at any initiation interval (proven): ");
    twill_rpt_esc(f, r->why_infeasible ? r->why_infeasible : "");
  } else if (!R->sched) {
    badge(f, "warn", "no schedule");
    fprintf(f, " the search stopped at its limit before finding one");
    if (r->ii_lower > 0) {
      fprintf(f, "; proven: no schedule below I = ");
      twill_rpt_time(R, r->ii_lower, false);
    }
  } else {
    if (r->heuristic) badge(f, "warn", "heuristic");
    else if (r->optimal) badge(f, "ok", "optimal");
    else badge(f, "warn", "not proven optimal");
    fprintf(f, " <span id=\"answer-ii\">I = ");
    twill_rpt_time(R, R->cm.I, false);
    fprintf(f, "</span>");
    if (r->optimal) fprintf(f, " (no schedule at a smaller I)");
    else if (r->ii_lower > 0 && r->ii_lower < R->cm.I) {
      fprintf(f, " (proven: none below I = ");
      twill_rpt_time(R, r->ii_lower, false);
      fprintf(f, ")");
    }
    fprintf(f, ", <span id=\"answer-length\">L = ");
    twill_rpt_time(R, R->cm.L, false);
    fprintf(f, "</span>%s", r->length_proven ? " (minimal at this I)"
                            : r->heuristic  ? ""
                                            : " (not proven minimal)");
  }
  fprintf(f, "</dd>\n");
  if (R->bounds) {
    const twill_bounds *b = &R->b;
    fprintf(f, "<dt>lower bound</dt><dd>MII = ");
    twill_rpt_time(R, b->mii, false);
    fprintf(f, " (%s)", b->res_mii >= b->rec_mii ? "resource-bound" : "recurrence-bound");
    if (R->sched && R->cm.I > b->mii) {
      fprintf(f, "; the answer's I is ");
      twill_rpt_time(R, R->cm.I - b->mii, false);
      fprintf(f, " above it: the search below says why");
    } else if (R->sched && R->cm.I == b->mii)
      fprintf(f, "; the answer meets it");
    fprintf(f, "</dd>\n");
  }
  if (r->phase1) {
    fprintf(f, "<dt>phase 1</dt><dd>");
    twill_rpt_esc(f, r->phase1);
    fprintf(f, "</dd>\n");
  }
  if (R->sched) {
    const cg_model *cm = &R->cm;
    fprintf(f, "<dt>pipeline</dt><dd>C = &#8968;L/I&#8969; = %ld overlapped "
               "iterations: prologue ", cm->C);
    twill_rpt_time(R, (cm->C - 1) * cm->I, false);
    fprintf(f, ", steady state ");
    twill_rpt_time(R, cm->I, false);
    fprintf(f, " per iteration, epilogue ");
    twill_rpt_time(R, cm->T - cm->C * cm->I, false);
    fprintf(f, " <span class=\"cyunit\">%s</span></dd>\n",
            R->scaled ? "real cycles" : "cycles");
  }
  if (r->p) {
    const twill_joint_params *p = r->p;
    fprintf(f, "<dt>warps</dt><dd>%d warps (warpgroups of %d), register budget "
               "%ld per thread",
            p->warps, p->warpgroup, p->regs);
    if (p->reg_step > 0)
      fprintf(f, " (setmaxnreg: multiples of %d from %d; register file %ld)",
              p->reg_step, p->reg_lo, p->regs_per_sm);
    fprintf(f, ", cross-warp register values %s</dd>\n",
            p->no_cross_warp ? "forbidden" : "allowed");
  }
  fprintf(f, "<dt>certificate</dt><dd id=\"cert-status\">");
  cert_badge(R);
  if (r->cert_msg) {
    fprintf(f, " ");
    twill_rpt_esc(f, r->cert_msg);
  }
  fprintf(f, "</dd>\n");
  fprintf(f, "<dt>cycles</dt><dd><span id=\"units\" data-scaled=\"%d\">",
          R->scaled ? 1 : 0);
  if (R->scaled) {
    fprintf(f, "shown in <span class=\"cyunit\">real cycles</span>; the solver "
               "ran on normalized costs, 1 normalized cycle = %.6g real cycles "
               "(costs ",
            r->real_per_cycle);
    if (cost_pairs(R)) return -1;
    fprintf(f, ")");
  } else {
    fprintf(f, "the kernel's own cycles (costs not normalized)");
  }
  fprintf(f, "</span></dd>\n</dl>\n");
  fprintf(f, "<nav><a href=\"#bounds\">bounds</a><a href=\"#search\">search</a>"
             "<a href=\"#graph\">kernel graph</a>");
  if (R->sched)
    fprintf(f, "<a href=\"#steady\">steady state</a><a href=\"#loop\">whole "
               "loop</a><a href=\"#mrt\">reservation table</a><a "
               "href=\"#pressure\">pressure</a><a href=\"#ops\">ops</a>");
  fprintf(f, "<a href=\"#certificate\">certificate</a></nav>\n</header>\n");
  return 0;
}

static void bounds_section(rpt *R) {
  FILE *f = R->f;
  const twill_graph *g = R->g;
  fprintf(f, "<section id=\"bounds\">\n<h2>Lower bounds and why</h2>\n");
  if (!R->bounds) {
    fprintf(f, "<p>not computed (out of memory)</p>\n</section>\n");
    return;
  }
  const twill_bounds *b = &R->b;
  fprintf(f, "<p class=\"note\">In every window of I consecutive cycles of the "
             "steady state each op issues once, so each unit must absorb its "
             "busy cycles of one iteration: ResMII = max over units of "
             "&#8968;busy / capacity&#8969;.  Going once around a dependence "
             "cycle must take at most its distance in iterations: RecMII = "
             "max over cycles of &#8968;latency / distance&#8969;.  MII = "
             "max(ResMII, RecMII).</p>\n");
  fprintf(f, "<table id=\"resmii\"><thead><tr><th>unit</th><th>capacity</th>"
             "<th>busy per iteration</th><th>&#8968;busy/capacity&#8969;</th>"
             "<th>ops (busy cycles)</th></tr></thead><tbody>\n");
  for (int u = 0; u < g->nunits; u++) {
    bool sat = u == b->res_unit;
    fprintf(f, "<tr%s><td>", sat ? " class=\"sat\"" : "");
    twill_rpt_esc(f, g->units[u].name);
    if (sat) fprintf(f, " <span class=\"bad\">saturated</span>");
    fprintf(f, "</td><td class=\"num\">%d</td><td class=\"num\">",
            g->units[u].capacity);
    twill_rpt_time(R, b->unit_busy[u], false);
    fprintf(f, "</td><td class=\"num\">");
    twill_rpt_time(R, b->unit_mii[u], false);
    fprintf(f, "</td><td>");
    for (int v = 0; v < g->nops; v++) {
      long busy = 0, real = 0;
      const twill_op *o = &g->ops[v], *so = &R->src->ops[v];
      for (int k = 0; k < o->nuses; k++)
        if (o->uses[k].unit == u) {
          busy += (long)o->uses[k].cycles * o->uses[k].count;
          if (k < so->nuses) real += (long)so->uses[k].cycles * so->uses[k].count;
        }
      if (!busy) continue;
      op_chip(R, v);
      fprintf(f, "<span class=\"mono\">");
      twill_rpt_cost(R, busy, real, false);
      fprintf(f, "</span> ");
    }
    fprintf(f, "</td></tr>\n");
  }
  if (!g->nunits)
    fprintf(f, "<tr><td colspan=\"5\">no op uses a unit</td></tr>\n");
  fprintf(f, "</tbody></table>\n<p>ResMII = ");
  twill_rpt_time(R, b->res_mii, false);
  if (b->res_unit >= 0) {
    fprintf(f, ": unit <b>");
    twill_rpt_esc(f, unit_name(R, b->res_unit));
    fprintf(f, "</b> is busy ");
    twill_rpt_time(R, b->res_busy, false);
    fprintf(f, " cycles per iteration with capacity %d.",
            g->units[b->res_unit].capacity);
  }
  fprintf(f, "</p>\n<p id=\"recmii\">RecMII = ");
  twill_rpt_time(R, b->rec_mii, false);
  if (b->ncycle > 0) {
    fprintf(f, ": critical cycle ");
    for (int k = 0; k < b->ncycle; k++) {
      const twill_edge *e = &g->edges[b->cycle[k]];
      if (!k) op_chip(R, e->src);
      fprintf(f, " &#8212;(lat ");
      twill_rpt_cost(R, e->lat, R->src->edges[b->cycle[k]].lat, false);
      fprintf(f, ", dist %d)&#8594; ", e->dist);
      op_chip(R, e->dst);
    }
    fprintf(f, ", latency ");
    twill_rpt_time(R, b->cycle_lat, false);
    fprintf(f, " over distance %ld: &#8968;", b->cycle_dist);
    twill_rpt_time(R, b->cycle_lat, false);
    fprintf(f, "/%ld&#8969; = ", b->cycle_dist);
    twill_rpt_time(R, b->rec_mii, false);
    fprintf(f, " (drawn in red in the kernel graph).");
  } else {
    fprintf(f, ": the graph has no dependence cycle.");
  }
  fprintf(f, "</p>\n<p><b>MII = ");
  twill_rpt_time(R, b->mii, false);
  fprintf(f, "</b>, %s.</p>\n</section>\n",
          b->res_mii >= b->rec_mii ? "bound by resources" : "bound by a recurrence");
}

static void search_section(rpt *R) {
  const twill_report *r = R->r;
  FILE *f = R->f;
  fprintf(f, "<section id=\"search\">\n<h2>Search: the I tried</h2>\n");
  if (!r->ntries && !r->infeasible) {
    fprintf(f, "<p>%s</p>\n",
            r->heuristic ? "A heuristic schedule: no I was refuted, so nothing "
                           "below its I is proven impossible beyond the MII."
                         : "The schedule came without a search log.");
  }
  if (r->ntries) {
    fprintf(f, "<table id=\"tries\"><thead><tr><th>I</th><th>lengths "
               "searched</th><th>outcome</th><th>why refuted (constraint "
               "families that conflict)</th></tr></thead><tbody>\n");
    for (int k = 0; k < r->ntries; k++) {
      const twill_report_try *t = &r->tries[k];
      fprintf(f, "<tr class=\"%s\" data-ii=\"%ld\"><td class=\"num\">",
              t->outcome > 0 ? "found" : t->outcome == 0 ? "refuted" : "open", t->ii);
      twill_rpt_time(R, t->ii, false);
      fprintf(f, "</td><td class=\"num\">");
      if (t->lmax > 0) {
        fprintf(f, "L in [");
        twill_rpt_time(R, t->lmin, false);
        fprintf(f, ", ");
        twill_rpt_time(R, t->lmax, false);
        fprintf(f, "]");
      } else {
        fprintf(f, "&#8212;");
      }
      fprintf(f, "</td><td class=\"%s\">",
              t->outcome > 0 ? "ok" : t->outcome == 0 ? "bad" : "warn");
      twill_rpt_esc(f, t->what ? t->what : "");
      fprintf(f, "</td><td>");
      if (t->why) families(R, t->why);
      else if (t->outcome == 0)
        fprintf(f, "<span class=\"muted\">the program at this I has no "
                   "solution (no explanation recorded)</span>");
      fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
  }
  if (r->infeasible) {
    fprintf(f, "<div class=\"box bad\" id=\"never\"><p><b>Infeasible at every "
               "I.</b> ");
    twill_rpt_esc(f, r->why_infeasible ? r->why_infeasible : "");
    fprintf(f, "</p>\n");
    const char *why = r->why_infeasible ? strrchr(r->why_infeasible, ':') : NULL;
    if (why && why[1] == ' ') families(R, why + 2);
    fprintf(f, "<p class=\"note\">One iteration of the loop without its "
               "loop-carried edges, each value holding the copies its "
               "loop-carried edges force at any I, at an I and L so large that "
               "nothing wraps, has no joint schedule: then no I can have "
               "one.</p></div>\n");
  }
  fprintf(f, "</section>\n");
}

static void ops_section(rpt *R) {
  const twill_graph *g = R->g;
  const cg_model *cm = &R->cm;
  FILE *f = R->f;
  fprintf(f, "<section id=\"ops\">\n<h2>The schedule, op by op</h2>\n"
             "<table id=\"optable\"><thead><tr><th>op</th><th>start</th>"
             "<th>stage</th><th>slot</th><th>warp</th><th>latency</th>"
             "<th>units (unit@offset:cycles)</th><th>regs</th><th>smem</th>"
             "<th>tmem</th></tr></thead><tbody>\n");
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v], *so = &R->src->ops[v];
    char wl[32];
    fprintf(f, "<tr data-op=\"%d\"><td>", v);
    op_chip(R, v);
    fprintf(f, "</td><td class=\"num\">");
    twill_rpt_time(R, R->r->s->start[v], false);
    fprintf(f, "</td><td class=\"num\">%ld</td><td class=\"num\">", cm->stage[v]);
    twill_rpt_time(R, cm->slot[v], false);
    fprintf(f, "</td><td>%s%s</td><td class=\"num\">",
            twill_cg_warp_label(cm, v, wl, sizeof wl),
            o->varlat ? " (varlat)" : "");
    twill_rpt_cost(R, o->lat, so->lat, false);
    fprintf(f, "</td><td class=\"mono\">");
    for (int k = 0; k < o->nuses; k++) {
      const twill_use *us = &o->uses[k];
      fprintf(f, "%s", k ? ", " : "");
      twill_rpt_esc(f, unit_name(R, us->unit));
      fprintf(f, "@");
      twill_rpt_cost(R, us->offset, k < so->nuses ? so->uses[k].offset : us->offset, false);
      fprintf(f, ":");
      twill_rpt_cost(R, us->cycles, k < so->nuses ? so->uses[k].cycles : us->cycles, false);
      if (us->count > 1) fprintf(f, "x%d", us->count);
    }
    if (!o->nuses) fprintf(f, "&#8212;");
    fprintf(f, "</td><td class=\"num\">%ld</td><td class=\"num\">%ld</td>"
               "<td class=\"num\">%ld</td></tr>\n",
            o->regs, o->smem, o->tmem);
  }
  if (!g->nops) fprintf(f, "<tr><td colspan=\"10\">the kernel has no op</td></tr>\n");
  fprintf(f, "</tbody></table>\n</section>\n");
}

static void cert_section(rpt *R) {
  const twill_report *r = R->r;
  FILE *f = R->f;
  fprintf(f, "<section id=\"certificate\">\n<h2>Certificate</h2>\n<p>");
  cert_badge(R);
  fprintf(f, "</p>\n");
  if (r->cert_msg) {
    fprintf(f, "<pre class=\"box%s\" id=\"cert-msg\">",
            r->cert == TWILL_REPORT_CERT_FAILED ? " bad" : "");
    twill_rpt_esc(f, r->cert_msg);
    fprintf(f, "</pre>\n");
  }
  if (r->cert == TWILL_REPORT_CERT_VERIFIED)
    fprintf(f, "<p class=\"note\">The certificate the solver wrote for this "
               "answer was handed to the independent checker, which rebuilds "
               "every encoding from the kernel, re-derives the bounds, "
               "validates the schedule and checks every refutation in exact "
               "arithmetic.  <code>twill check KERNEL CERT</code> does the "
               "same from files.</p>\n");
  fprintf(f, "</section>\n");
}

/* ---- the page ------------------------------------------------------------ */

static int page(rpt *R) {
  FILE *f = R->f;
  const twill_report *r = R->r;
  fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
             "charset=\"utf-8\">\n<meta name=\"viewport\" "
             "content=\"width=device-width, initial-scale=1\">\n"
             "<meta name=\"generator\" content=\"twill %s\">\n<title>twill "
             "report: ",
          TWILL_VERSION);
  twill_rpt_esc(f, R->g->name);
  fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
  if (summary(R)) return -1;
  bounds_section(R);
  search_section(R);
  fprintf(f, "<section id=\"graph\">\n<h2>Kernel graph</h2>\n");
  if (twill_rpt_graph_svg(R)) return -1;
  fprintf(f, "</section>\n");
  if (R->sched) {
    fprintf(f, "<section id=\"steady\">\n<h2>Steady state (one iteration "
               "interval I)</h2>\n");
    if (twill_rpt_steady_svg(R)) return -1;
    fprintf(f, "</section>\n<section id=\"loop\">\n<h2>The whole pipelined "
               "loop: prologue, steady state, epilogue</h2>\n");
    if (twill_rpt_loop_svg(R)) return -1;
    fprintf(f, "</section>\n<section id=\"mrt\">\n<h2>Modulo reservation "
               "table</h2>\n");
    if (twill_rpt_mrt(R)) return -1;
    fprintf(f, "</section>\n<section id=\"pressure\">\n<h2>Register and "
               "memory pressure per slot</h2>\n");
    if (twill_rpt_pressure(R)) return -1;
    fprintf(f, "</section>\n");
    ops_section(R);
  }
  cert_section(R);
  fprintf(f, "<footer class=\"muted\">twill %s; hover an op to light its "
             "edges, bars and slots.</footer>\n<script>\n%s</script>\n"
             "</body>\n</html>\n",
          TWILL_VERSION, script);
  (void)r;
  return 0;
}

int twill_emit_report(const twill_report *r, FILE *out) {
  if (!r || !r->g || !out) return -1;
  if (r->s && twill_emit_copies(r->g, r->s) > TWILL_EMIT_MAX_COPIES) return -1;
  rpt R;
  memset(&R, 0, sizeof R);
  R.r = r;
  R.g = r->g;
  R.src = r->source ? r->source : r->g;
  R.f = out;
  R.scaled = r->real_per_cycle > 0;
  R.wg = r->p ? r->p->warpgroup : r->m && r->m->warpgroup > 0 ? r->m->warpgroup : 4;
  int rc = -1;
  if (R.src->nops != R.g->nops || R.src->nedges != R.g->nedges) return -1;
  R.ucolor = malloc((R.g->nops > 0 ? (size_t)R.g->nops : 1) * sizeof *R.ucolor);
  if (!R.ucolor) return -1;
  for (int v = 0; v < R.g->nops; v++)
    R.ucolor[v] = R.g->ops[v].nuses ? R.g->ops[v].uses[0].unit : -1;
  R.bounds = twill_bounds_compute(R.g, &R.b) == 0;
  if (r->s) {
    if (twill_cg_model_init(&R.cm, r->g, r->m, r->s, NULL)) goto done;
    R.sched = true;
  }
  rc = page(&R);
done:
  if (R.sched) twill_cg_model_free(&R.cm);
  if (R.bounds) twill_bounds_clear(&R.b);
  free(R.ucolor);
  return rc || ferror(out) ? -1 : 0;
}
