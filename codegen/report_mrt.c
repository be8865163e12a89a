/* codegen/report_mrt.c: the report's modulo reservation table and the
 * register, shared- and tensor-memory pressure per slot of the steady
 * state.
 *
 * Both are piecewise constant over the slots [0, I): an op's use of a unit
 * changes the table only where it starts and ends (mod I), and a value's
 * live copies change only where its lifetime starts and ends (mod I).  So
 * each is shown as runs of slots between those breakpoints (at most two per
 * use or op, whatever I is), each run evaluated at its first slot.
 *
 * Lifetimes are the joint model's (twill/joint.h, "lifetimes"): v's result
 * is live over [t(v), e(v)) with e(v) = max(t(v) + max(lat(v), 1), max over
 * edges (v, u, d, delta) of t(u) + I*delta), and n_v(s) = #{k : t(v) <= s +
 * k*I < e(v)} copies are live at slot s.  need(w, s) = sum over the ops v
 * that run on warp w of regs(v) * n_v(s); a warpgroup needs the largest
 * need of its warps.  (The "no I at all" floors of joint_never.c do not
 * apply to a schedule.) */
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* floor(a / b) and ceil(a / b) for b > 0 and any a. */
static long fdiv(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static long cdiv(long a, long b) { return -fdiv(-a, b); }

static long modI(long a, long I) { return a - fdiv(a, I) * I; }

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

/* Sort and deduplicate; returns the new count (0 is always present). */
static int uniq(long *p, int n) {
  qsort(p, (size_t)n, sizeof *p, cmp_long);
  int k = 0;
  for (int i = 0; i < n; i++)
    if (!k || p[k - 1] != p[i]) p[k++] = p[i];
  return k;
}

/* Instances of a use [start, start + cycles) (absolute) busy at slot a:
 * one per k with start <= a + k*I < start + cycles. */
static long copies_at(long start, long len, long a, long I) {
  if (len <= 0) return 0;
  long n = fdiv(start + len - 1 - a, I) - cdiv(start - a, I) + 1;
  return n > 0 ? n : 0;
}

/* The colour of op v's chips and bars where the reader compares warp
 * roles: its role, or (no warps) its iteration offset. */
static const char *role_fill(const rpt *R, int v) {
  const cg_model *cm = &R->cm;
  return cm->warps ? twill_rpt_role_color(cm->role_of[v])
                   : twill_rpt_iter_color((int)(cm->C - 1 - cm->stage[v]));
}

/* A row's first cell: the slots [a, b), half open so that it reads the
 * same in real cycles (where slot b - 1 ends just before b's real start). */
static void slot_range(rpt *R, long a, long b) {
  fprintf(R->f, "<tr data-slots=\"%ld %ld\"><td class=\"num\">[", a, b);
  twill_rpt_time(R, a, false);
  fprintf(R->f, ", ");
  twill_rpt_time(R, b, false);
  fprintf(R->f, ")</td>");
}

int twill_rpt_mrt(rpt *R) {
  const twill_graph *g = R->g;
  const cg_model *cm = &R->cm;
  const twill_schedule *s = R->r->s;
  FILE *f = R->f;
  long I = cm->I;
  int nu = g->nunits;
  if (!nu) {
    fprintf(f, "<p>The kernel uses no unit.</p>\n");
    return 0;
  }
  int nb = 1;
  for (int v = 0; v < g->nops; v++) nb += 2 * g->ops[v].nuses;
  long *bp = malloc((size_t)nb * sizeof *bp);
  long *cnt = calloc((size_t)nu, sizeof *cnt);
  long *busy = calloc((size_t)nu, sizeof *busy);
  char *prev = NULL, *cur = NULL;
  size_t prevlen = 0, curlen = 0;
  if (!bp || !cnt || !busy) goto oom;
  int k = 0;
  bp[k++] = 0;
  for (int v = 0; v < g->nops; v++)
    for (int u = 0; u < g->ops[v].nuses; u++) {
      const twill_use *us = &g->ops[v].uses[u];
      long a = s->start[v] + us->offset;
      bp[k++] = modI(a, I);
      bp[k++] = modI(a + us->cycles, I);
      busy[us->unit] += (long)us->cycles * us->count;
    }
  nb = uniq(bp, k);
  fprintf(f, "<p class=\"note\">For each unit and each slot of the steady state, "
             "the ops holding it (every iteration in flight counts: a use of c "
             "cycles from cycle t busy in slots t, ..., t+c-1 mod I) and the "
             "instances busy over the capacity.  Slots with the same contents "
             "are merged.  Chips coloured by %s.</p>\n",
          cm->warps ? "warp role" : "iteration offset (i+k)");
  fprintf(f, "<table id=\"mrt-table\"><thead><tr><th>slots</th>");
  for (int u = 0; u < nu; u++) {
    fprintf(f, "<th>");
    twill_rpt_esc(f, g->units[u].name);
    fprintf(f, " (x%d)</th>", g->units[u].capacity);
  }
  fprintf(f, "</tr></thead><tbody>\n");
  /* rows between breakpoints; a row whose cells equal the previous one's
   * is merged into it (its end moves) */
  long row_a = 0;
  for (int r = 0; r < nb; r++) {
    long a = bp[r], b = r + 1 < nb ? bp[r + 1] : I;
    FILE *m = open_memstream(&cur, &curlen);
    if (!m) goto oom;
    for (int u = 0; u < nu; u++) {
      long used = 0;
      fprintf(m, "<td");
      for (int v = 0; v < g->nops; v++)
        for (int q = 0; q < g->ops[v].nuses; q++)
          if (g->ops[v].uses[q].unit == u)
            used += copies_at(s->start[v] + g->ops[v].uses[q].offset,
                              g->ops[v].uses[q].cycles, a, I) *
                    g->ops[v].uses[q].count;
      cnt[u] = used;
      if (used >= g->units[u].capacity && used) fprintf(m, " style=\"background:#fff3e0\"");
      fprintf(m, ">");
      for (int v = 0; v < g->nops; v++) {
        long n = 0;
        for (int q = 0; q < g->ops[v].nuses; q++)
          if (g->ops[v].uses[q].unit == u)
            n += copies_at(s->start[v] + g->ops[v].uses[q].offset,
                           g->ops[v].uses[q].cycles, a, I) *
                 g->ops[v].uses[q].count;
        if (!n) continue;
        fprintf(m, "<span class=\"chip\" data-op=\"%d\" style=\"background:%s\">", v,
                role_fill(R, v));
        twill_rpt_esc(m, g->ops[v].name);
        if (n > 1) fprintf(m, " x%ld", n);
        fprintf(m, "</span>");
      }
      if (used) fprintf(m, " <span class=\"muted\">%ld/%d</span>", used, g->units[u].capacity);
      else fprintf(m, "<span class=\"muted\">.</span>");
      fprintf(m, "</td>");
    }
    if (fclose(m)) goto oom;
    if (prev && !strcmp(prev, cur)) {
      free(cur);
      cur = NULL;
      continue;
    }
    if (prev) {
      /* print the previous row, now that its end is known */
      slot_range(R, row_a, a);
      fprintf(f, "%s</tr>\n", prev);
      free(prev);
    }
    prev = cur;
    prevlen = curlen;
    cur = NULL;
    row_a = a;
    (void)b;
  }
  if (prev) {
    slot_range(R, row_a, I);
    fprintf(f, "%s</tr>\n", prev);
  }
  fprintf(f, "</tbody><tfoot><tr><th>utilization</th>");
  for (int u = 0; u < nu; u++) {
    long den = I * (g->units[u].capacity > 0 ? g->units[u].capacity : 1);
    fprintf(f, "<td class=\"num\">%ld%%</td>", (busy[u] * 100 + den / 2) / den);
  }
  fprintf(f, "</tr></tfoot></table>\n");
  (void)prevlen;
  free(prev);
  free(bp);
  free(cnt);
  free(busy);
  return 0;
oom:
  free(prev);
  free(cur);
  free(bp);
  free(cnt);
  free(busy);
  return -1;
}

/* ---- pressure ------------------------------------------------------------ */

#define P_LEFT 190.0
#define P_W 960.0
#define PANEL_H 64

typedef struct press {
  long *from, *to;  /* lifetime of each op's result, absolute cycles */
  int nruns;
  long *ra;         /* run starts (slots), nruns entries, ra[0] = 0 */
} press;

static long op_copies(const press *P, int v, long a, long I) {
  return copies_at(P->from[v], P->to[v] - P->from[v], a, I);
}

/* Is warp w among op v's warps? */
static bool on_warp(const rpt *R, int v, int w) {
  const twill_schedule *s = R->r->s;
  if (!s->warp) return true;
  int sp = twill_op_span(&R->g->ops[v], R->wg);
  return w >= s->warp[v] && w < s->warp[v] + sp;
}

/* Register need of warps [w0, w1) at slot a (the largest of its warps);
 * with no warp assignment, of all ops together. */
static long need_at(const rpt *R, const press *P, int w0, int w1, long a) {
  const twill_graph *g = R->g;
  long I = R->cm.I, best = 0;
  for (int w = w0; w < w1; w++) {
    long sum = 0;
    for (int v = 0; v < g->nops; v++)
      if (g->ops[v].regs && on_warp(R, v, w)) sum += g->ops[v].regs * op_copies(P, v, a, I);
    if (sum > best) best = sum;
  }
  return best;
}

static long mem_at(const rpt *R, const press *P, bool tmem, long a) {
  const twill_graph *g = R->g;
  long sum = 0;
  for (int v = 0; v < g->nops; v++) {
    long per = tmem ? g->ops[v].tmem : g->ops[v].smem;
    if (per) sum += per * op_copies(P, v, a, R->cm.I);
  }
  return sum;
}

/* One panel: a step chart of val[run] over [0, I) against a limit (<= 0:
 * none) and a second line (budget, <= 0: none); each run is a rect with a
 * tooltip and data-op = the ops live in it that count here. */
typedef enum pkind { P_REGS, P_SMEM, P_TMEM } pkind;

static void panel(rpt *R, const press *P, int y, const char *label, pkind kind,
                  int w0, int w1, const long *val, long limit, long budget,
                  const char *unit) {
  FILE *f = R->f;
  const twill_graph *g = R->g;
  long I = R->cm.I;
  double sx = P_W / (double)I;
  long ymax = limit > 0 ? limit : 1;
  for (int r = 0; r < P->nruns; r++)
    if (val[r] > ymax) ymax = val[r];
  if (budget > ymax) ymax = budget;
  double sy = (PANEL_H - 14) / (double)ymax;
  int base = y + PANEL_H - 4;
  long peak = 0;
  for (int r = 0; r < P->nruns; r++)
    if (val[r] > peak) peak = val[r];
  fprintf(f, "<text x=\"6\" y=\"%d\">", y + 18);
  twill_rpt_esc(f, label);
  fprintf(f, "</text><text x=\"6\" y=\"%d\" fill=\"#555\">peak %ld", y + 32, peak);
  if (limit > 0) fprintf(f, " of %ld", limit);
  fprintf(f, "</text><text x=\"6\" y=\"%d\" fill=\"#555\">%s</text>\n", y + 46, unit);
  fprintf(f, "<line x1=\"%.0f\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" stroke=\"#333\"/>\n",
          P_LEFT, base, P_LEFT + P_W, base);
  /* the step path */
  fprintf(f, "<path fill=\"#4e79a7\" fill-opacity=\"0.25\" stroke=\"#4e79a7\" "
             "stroke-width=\"1.5\" d=\"M%.1f %d",
          P_LEFT, base);
  for (int r = 0; r < P->nruns; r++) {
    long a = P->ra[r], b = r + 1 < P->nruns ? P->ra[r + 1] : I;
    double yv = base - (double)val[r] * sy;
    fprintf(f, " L%.1f %.1f L%.1f %.1f", P_LEFT + (double)a * sx, yv,
            P_LEFT + (double)b * sx, yv);
  }
  fprintf(f, " L%.1f %d Z\"/>\n", P_LEFT + P_W, base);
  if (limit > 0) {
    double yl = base - (double)limit * sy;
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#c62828\" "
               "stroke-dasharray=\"6 3\"><title>limit %ld</title></line>\n",
            P_LEFT, yl, P_LEFT + P_W, yl, limit);
  }
  if (budget > 0 && budget != limit) {
    double yb = base - (double)budget * sy;
    fprintf(f, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#1a7f37\" "
               "stroke-dasharray=\"2 2\"><title>setmaxnreg budget %ld</title></line>\n",
            P_LEFT, yb, P_LEFT + P_W, yb, budget);
  }
  /* hover targets: one per run, naming the ops live there */
  for (int r = 0; r < P->nruns; r++) {
    long a = P->ra[r], b = r + 1 < P->nruns ? P->ra[r + 1] : I;
    fprintf(f, "<rect class=\"run\" data-op=\"");
    int any = 0;
    for (int v = 0; v < g->nops; v++) {
      long per = kind == P_REGS ? g->ops[v].regs : kind == P_SMEM ? g->ops[v].smem
                                                                  : g->ops[v].tmem;
      if (!per || !op_copies(P, v, a, I)) continue;
      if (kind == P_REGS) {
        bool in = false;
        for (int w = w0; w < w1 && !in; w++) in = on_warp(R, v, w);
        if (!in) continue;
      }
      fprintf(f, "%s%d", any++ ? " " : "", v);
    }
    fprintf(f, "\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"><title>slots "
               "%ld-%ld (real %ld-%ld): %ld %s",
            P_LEFT + (double)a * sx, y + 2, (double)(b - a) * sx, PANEL_H - 6, a, b - 1,
            twill_rpt_real(R, a), twill_rpt_real(R, b) - 1, val[r], unit);
    for (int v = 0; v < g->nops; v++) {
      long per = kind == P_REGS ? g->ops[v].regs : kind == P_SMEM ? g->ops[v].smem
                                                                  : g->ops[v].tmem;
      long n = per ? op_copies(P, v, a, I) : 0;
      if (!n) continue;
      if (kind == P_REGS) {
        bool in = false;
        for (int w = w0; w < w1 && !in; w++) in = on_warp(R, v, w);
        if (!in) continue;
      }
      fprintf(f, "; ");
      twill_rpt_esc(f, g->ops[v].name);
      fprintf(f, " x%ld (%ld)", n, per * n);
    }
    fprintf(f, "</title></rect>\n");
  }
}

int twill_rpt_pressure(rpt *R) {
  const twill_graph *g = R->g;
  const cg_model *cm = &R->cm;
  const twill_schedule *s = R->r->s;
  const twill_joint_params *p = R->r->p;
  const twill_arch *m = R->r->m;
  FILE *f = R->f;
  long I = cm->I;
  int n = g->nops;
  press P;
  memset(&P, 0, sizeof P);
  P.from = malloc(((size_t)n + 1) * sizeof *P.from);
  P.to = malloc(((size_t)n + 1) * sizeof *P.to);
  P.ra = malloc((2 * (size_t)n + 1) * sizeof *P.ra);
  long *val = NULL;
  if (!P.from || !P.to || !P.ra) goto oom;
  for (int v = 0; v < n; v++) {
    long t = s->start[v], e = t + twill_cg_op_len(cm, v);
    for (int k = 0; k < g->nedges; k++)
      if (g->edges[k].src == v) {
        long use = s->start[g->edges[k].dst] + I * g->edges[k].dist;
        if (use > e) e = use;
      }
    P.from[v] = t;
    P.to[v] = e;
  }
  int k = 0;
  P.ra[k++] = 0;
  for (int v = 0; v < n; v++)
    if (g->ops[v].regs || g->ops[v].smem || g->ops[v].tmem) {
      P.ra[k++] = modI(P.from[v], I);
      P.ra[k++] = modI(P.to[v], I);
    }
  P.nruns = uniq(P.ra, k);
  val = malloc((size_t)P.nruns * sizeof *val);
  if (!val) goto oom;
  /* panels: each warpgroup with an op (or all ops), smem, tmem */
  int G = 1, wg = R->wg;
  if (s->warp) {
    int maxw = 0;
    for (int v = 0; v < n; v++) {
      int e = s->warp[v] + twill_op_span(&g->ops[v], wg);
      if (e > maxw) maxw = e;
    }
    G = (maxw + wg - 1) / wg;
  }
  long smem_cap = p ? p->smem_cap : m ? twill_arch_mem_cap(m, "smem") : -1;
  long tmem_cap = p ? p->tmem_cap : m ? twill_arch_mem_cap(m, "tmem") : -1;
  bool any_tmem = false, any_smem = false, any_regs = false;
  for (int v = 0; v < n; v++) {
    any_tmem |= g->ops[v].tmem > 0;
    any_smem |= g->ops[v].smem > 0;
    any_regs |= g->ops[v].regs > 0;
  }
  bool *gused = calloc((size_t)G + 1, sizeof *gused);
  if (!gused) goto oom;
  int nused = 0;
  for (int gi = 0; gi < G && any_regs; gi++) {
    gused[gi] = !s->warp;
    for (int v = 0; v < n && !gused[gi]; v++)
      for (int w = gi * wg; w < (gi + 1) * wg; w++) gused[gi] |= on_warp(R, v, w);
    nused += gused[gi];
  }
  int npanels = nused + (any_smem ? 1 : 0) + (any_tmem && tmem_cap >= 0 ? 1 : 0);
  fprintf(f, "<p class=\"note\">A result is live from its issue to the issue "
             "of its last reader (loop-carried readers I&#183;dist later), at "
             "least until it completes; at slot s of the steady state its copies "
             "from every iteration in flight count.  Registers are per thread "
             "of the warps the producing op runs on; a warpgroup needs the "
             "largest need of its warps.  Hover a slot to see which values are "
             "live.</p>\n");
  if (!npanels) {
    fprintf(f, "<p>No op keeps a result in registers or memory.</p>\n");
    free(gused);
    free(val);
    free(P.from);
    free(P.to);
    free(P.ra);
    return 0;
  }
  /* a summary table first */
  fprintf(f, "<table id=\"pressure-table\"><thead><tr><th>who</th><th>peak "
             "need</th><th>budget</th></tr></thead><tbody>\n");
  long rf_total = 0;
  long reg_budget = p ? p->regs : m ? m->reg_budget : 0;
  for (int gi = 0; gi < G; gi++) {
    int w0 = s->warp ? gi * wg : 0, w1 = s->warp ? (gi + 1) * wg : 1;
    if (!gused[gi]) continue;
    long peak = 0;
    for (int r = 0; r < P.nruns; r++) {
      long x = need_at(R, &P, w0, w1, P.ra[r]);
      if (x > peak) peak = x;
    }
    long rg = reg_budget;
    if (p && p->reg_step > 0) {
      rg = (peak + p->reg_step - 1) / p->reg_step * p->reg_step;
      if (rg < p->reg_lo) rg = p->reg_lo;
    }
    rf_total += 32L * wg * rg;
    fprintf(f, "<tr><td>");
    if (s->warp) fprintf(f, "warpgroup %d (warps %d-%d)", gi, w0, w1 - 1);
    else fprintf(f, "all ops (no warp assignment)");
    fprintf(f, "</td><td class=\"num\">%ld registers/thread</td><td>", peak);
    if (p && p->reg_step > 0)
      fprintf(f, "setmaxnreg %ld (the least multiple of %d from %d that holds "
                 "it; at most %ld)",
              rg, p->reg_step, p->reg_lo, p->regs);
    else if (reg_budget > 0)
      fprintf(f, "%ld", reg_budget);
    fprintf(f, "</td></tr>\n");
  }
  if (any_regs && p && p->reg_step > 0 && s->warp)
    fprintf(f, "<tr><td>register file</td><td class=\"num\">%ld registers</td>"
               "<td>%ld (the warpgroups with ops: &#8721; 32&#183;%d&#183;budget)"
               "</td></tr>\n",
            rf_total, p->regs_per_sm, wg);
  long speak = 0, tpeak = 0;
  for (int r = 0; r < P.nruns; r++) {
    long x = mem_at(R, &P, false, P.ra[r]), y = mem_at(R, &P, true, P.ra[r]);
    if (x > speak) speak = x;
    if (y > tpeak) tpeak = y;
  }
  if (any_smem) {
    fprintf(f, "<tr><td>shared memory</td><td class=\"num\">%ld bytes</td><td>", speak);
    if (smem_cap >= 0) fprintf(f, "%ld", smem_cap);
    else fprintf(f, "unlimited");
    fprintf(f, "</td></tr>\n");
  }
  if (any_tmem && tmem_cap >= 0)
    fprintf(f, "<tr><td>tensor memory</td><td class=\"num\">%ld columns</td>"
               "<td>%ld</td></tr>\n",
            tpeak, tmem_cap);
  fprintf(f, "</tbody></table>\n");
  /* the panels */
  int H = npanels * PANEL_H + 30;
  double W = P_LEFT + P_W + 20;
  fprintf(f, "<svg id=\"pressure-svg\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 "
             "%.0f %d\" role=\"img\" aria-label=\"pressure per slot\">\n",
          W, H, W, H);
  int y = 0;
  for (int gi = 0; gi < G; gi++) {
    int w0 = s->warp ? gi * wg : 0, w1 = s->warp ? (gi + 1) * wg : 1;
    if (!gused[gi]) continue;
    for (int r = 0; r < P.nruns; r++) val[r] = need_at(R, &P, w0, w1, P.ra[r]);
    long peak = 0;
    for (int r = 0; r < P.nruns; r++)
      if (val[r] > peak) peak = val[r];
    long rg = 0;
    if (p && p->reg_step > 0) {
      rg = (peak + p->reg_step - 1) / p->reg_step * p->reg_step;
      if (rg < p->reg_lo) rg = p->reg_lo;
    }
    char lab[64];
    if (s->warp) snprintf(lab, sizeof lab, "warpgroup %d regs", gi);
    else snprintf(lab, sizeof lab, "all ops regs");
    panel(R, &P, y, lab, P_REGS, w0, w1, val, p ? p->regs : reg_budget, rg,
          "regs/thread");
    y += PANEL_H;
  }
  if (any_smem) {
    for (int r = 0; r < P.nruns; r++) val[r] = mem_at(R, &P, false, P.ra[r]);
    panel(R, &P, y, "shared memory", P_SMEM, 0, 0, val, smem_cap, 0, "bytes");
    y += PANEL_H;
  }
  if (any_tmem && tmem_cap >= 0) {
    for (int r = 0; r < P.nruns; r++) val[r] = mem_at(R, &P, true, P.ra[r]);
    panel(R, &P, y, "tensor memory", P_TMEM, 0, 0, val, tmem_cap, 0, "columns");
    y += PANEL_H;
  }
  /* slot axis */
  double sx = P_W / (double)I;
  long step = 1, raw = I / 10 > 0 ? I / 10 : 1;
  while (step * 10 <= raw) step *= 10;
  if (raw >= 5 * step) step *= 5;
  else if (raw >= 2 * step) step *= 2;
  for (long t = 0; t <= I; t += step) {
    if (I - t < step / 2 && t) continue;
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", P_LEFT + (double)t * sx,
            y + 14);
    twill_rpt_time(R, t, true);
    fprintf(f, "</text>");
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%d\" text-anchor=\"end\">slot (<tspan "
             "class=\"cyunit\">%s</tspan>)</text>\n</svg>\n",
          P_LEFT + P_W, y + 28, R->scaled ? "real cycles" : "cycles");
  fprintf(f, "<p class=\"legend note\">red dashes: the limit (the budget --regs, "
             "or the capacity); green dots: the setmaxnreg budget the need "
             "rounds up to.</p>\n");
  free(gused);
  free(val);
  free(P.from);
  free(P.to);
  free(P.ra);
  return 0;
oom:
  free(val);
  free(P.from);
  free(P.to);
  free(P.ra);
  return -1;
}
