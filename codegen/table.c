/* codegen/table.c: the stage table, the modulo reservation table per unit
 * and register / shared-memory pressure per warp role over the steady
 * state.  Long intervals are shown as runs of slots with equal rows. */
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* Live interval of op v's result in one iteration, [from, to): from issue to
 * the issue of its last consumer (edge distances shift by I), or to its
 * completion when nothing reads it. */
static void live_range(const cg_model *cm, int v, long *from, long *to) {
  const twill_graph *g = cm->g;
  long a = cm->s->start[v], b = a + twill_cg_op_len(cm, v);
  for (int e = 0; e < g->nedges; e++) {
    if (g->edges[e].src != v) continue;
    long use = cm->s->start[g->edges[e].dst] + (long)g->edges[e].dist * cm->I;
    if (use > b) b = use;
  }
  *from = a;
  *to = b;
}

/* Add w to every steady-state slot covered by [from, to) folded mod I. */
static void fold_add(long *acc, long I, long from, long to, long w) {
  if (to <= from || !w) return;
  long len = to - from;
  long full = len / I, rem = len % I;
  if (full)
    for (long k = 0; k < I; k++) acc[k] += w * full;
  long s = from % I;
  for (long c = 0; c < rem; c++) acc[(s + c) % I] += w;
}

/* Print rows of ncol values per slot, merging equal consecutive slots;
 * a run of slots [k, j) is labelled by the real cycles it covers. */
static void print_runs(const cg_model *cm, FILE *f, const long *rows, long I,
                       int ncol, const int *cap, int width) {
  long k = 0;
  while (k < I) {
    long j = k + 1;
    while (j < I && !memcmp(&rows[j * ncol], &rows[k * ncol],
                            (size_t)ncol * sizeof *rows))
      j++;
    char lab[48];
    long lo = twill_cg_real(cm, k), hi = twill_cg_real(cm, j) - 1;
    if (hi <= lo)
      snprintf(lab, sizeof lab, "%ld", lo);
    else
      snprintf(lab, sizeof lab, "%ld-%ld", lo, hi);
    fprintf(f, "  %-13s", lab);
    for (int c = 0; c < ncol; c++) {
      char cell[48];
      long v = rows[k * ncol + c];
      if (cap)
        snprintf(cell, sizeof cell, v ? "%ld/%d" : ".", v, cap[c]);
      else
        snprintf(cell, sizeof cell, "%ld", v);
      fprintf(f, " %*s", width, cell);
    }
    fprintf(f, "\n");
    k = j;
  }
}

int twill_emit_table(const twill_graph *g, const twill_arch *m,
                     const twill_schedule *s, const twill_emit_opts *opts,
                     FILE *f) {
  cg_model cm;
  if (twill_cg_model_init(&cm, g, m, s, opts)) return -1;
  long I = cm.I;
  twill_cg_header(&cm, f, "# ", "table");
  fprintf(f, "\n%-16s %8s %6s %8s %-8s %-24s %5s %8s\n", "op", "start",
          "stage", "slot", "warp", "units (unit@offset:cycles)", "regs",
          "smem");
  for (int v = 0; v < g->nops; v++) {
    /* costs as the kernel gives them, in real cycles */
    const twill_op *o = &cm.src->ops[v];
    char units[256] = "-", wl[32];
    size_t k = 0;
    for (int u = 0; u < o->nuses && k < sizeof units - 1; u++) {
      int r = snprintf(units + k, sizeof units - k, "%s%s@%d:%d%s",
                       u ? "," : "", cm.src->units[o->uses[u].unit].name,
                       o->uses[u].offset, o->uses[u].cycles,
                       o->uses[u].count > 1 ? "x" : "");
      if (r < 0) break;
      k += (size_t)r;
      if (k >= sizeof units) k = sizeof units - 1;
      if (o->uses[u].count > 1 && k < sizeof units - 1) {
        r = snprintf(units + k, sizeof units - k, "%d", o->uses[u].count);
        if (r > 0) k += (size_t)r;
        if (k >= sizeof units) k = sizeof units - 1;
      }
    }
    fprintf(f, "%-16s %8ld %6ld %8ld %-8s %-24s %5ld %8ld\n", o->name,
            twill_cg_real(&cm, s->start[v]), cm.stage[v],
            twill_cg_real(&cm, cm.slot[v]),
            twill_cg_warp_label(&cm, v, wl, sizeof wl), units, o->regs, o->smem);
  }

  /* modulo reservation table */
  int nu = g->nunits;
  long *mrt = calloc((size_t)(nu > 0 ? nu : 1) * (size_t)I, sizeof *mrt);
  int *cap = calloc((size_t)(nu > 0 ? nu : 1), sizeof *cap);
  if (!mrt || !cap) {
    free(mrt);
    free(cap);
    twill_cg_model_free(&cm);
    return -1;
  }
  for (int v = 0; v < g->nops; v++)
    for (int k = 0; k < g->ops[v].nuses; k++) {
      const twill_use *us = &g->ops[v].uses[k];
      long from = s->start[v] + us->offset;
      long full = us->cycles / I, rem = us->cycles % I;
      for (long c = 0; c < I; c++) mrt[c * nu + us->unit] += full * us->count;
      for (long c = 0; c < rem; c++)
        mrt[((from + c) % I) * nu + us->unit] += us->count;
    }
  fprintf(f, "\nmodulo reservation table (slot x unit: instances busy / "
             "capacity; equal slots merged)\n");
  if (!nu) {
    fprintf(f, "  (no units)\n");
  } else {
    fprintf(f, "  %-13s", "slot");
    for (int u = 0; u < nu; u++) {
      cap[u] = g->units[u].capacity;
      fprintf(f, " %9s", g->units[u].name);
    }
    fprintf(f, "\n");
    print_runs(&cm, f, mrt, I, nu, cap, 9);
    fprintf(f, "  %-13s", "utilization");
    for (int u = 0; u < nu; u++) {
      long busy = 0;
      for (long c = 0; c < I; c++) busy += mrt[c * nu + u];
      long den = I * (cap[u] > 0 ? cap[u] : 1);
      char cell[32];
      snprintf(cell, sizeof cell, "%ld%%", (busy * 100 + den / 2) / den);
      fprintf(f, " %9s", cell);
    }
    fprintf(f, "\n");
  }
  free(mrt);
  free(cap);

  /* pressure per role over the steady state */
  int nr = cm.nroles;
  long *reg = calloc((size_t)nr * (size_t)I, sizeof *reg);
  long *sm = calloc((size_t)nr * (size_t)I, sizeof *sm);
  long *col = malloc((size_t)I * sizeof *col);
  if (!reg || !sm || !col) {
    free(reg);
    free(sm);
    free(col);
    twill_cg_model_free(&cm);
    return -1;
  }
  for (int v = 0; v < g->nops; v++) {
    long a, b;
    live_range(&cm, v, &a, &b);
    int r = cm.role_of[v];
    fold_add(reg + (size_t)r * I, I, a, b, g->ops[v].regs);
    fold_add(sm + (size_t)r * I, I, a, b, g->ops[v].smem);
  }
  fprintf(f,
          "\npressure per %s over the steady state (results live from issue "
          "to their last reader;\nregisters per thread of the issuing warps, "
          "shared memory in bytes)\n",
          cm.warps ? "warp role" : "kernel (no warp assignment)");
  fprintf(f, "  %-10s %-9s %8s %8s %10s %10s\n", "warps", "", "regs min",
          "regs max", "smem min", "smem max");
  for (int r = 0; r < nr; r++) {
    long rmin = 0, rmax = 0, smin = 0, smax = 0;
    for (long c = 0; c < I; c++) {
      long x = reg[(size_t)r * I + c], y = sm[(size_t)r * I + c];
      if (!c || x < rmin) rmin = x;
      if (!c || x > rmax) rmax = x;
      if (!c || y < smin) smin = y;
      if (!c || y > smax) smax = y;
    }
    char rl[32];
    fprintf(f, "  %-10s %-9s %8ld %8ld %10ld %10ld\n",
            twill_cg_role_label(&cm, r, rl, sizeof rl),
            cm.roles[r].varlat_only ? "(varlat)" : "", rmin, rmax, smin,
            smax);
  }
  for (int r = 0; r < nr; r++) {
    char rl[32];
    fprintf(f, "\n  %s registers per thread by slot:\n",
            twill_cg_role_label(&cm, r, rl, sizeof rl));
    for (long c = 0; c < I; c++) col[c] = reg[(size_t)r * I + c];
    print_runs(&cm, f, col, I, 1, NULL, 8);
  }
  free(reg);
  free(sm);
  free(col);
  twill_cg_model_free(&cm);
  return ferror(f) ? -1 : 0;
}
