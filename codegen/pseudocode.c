/* codegen/pseudocode.c: the pipelined loop as prologue, steady state and
 * epilogue, then (with warps) one program per warp role with the waits and
 * arrives that the cross-warp edges need. */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static void inst_line(const cg_model *cm, const cg_inst *in, FILE *f,
                      const char *indent) {
  char it[32], wl[32], nm[160];
  const twill_op *o = &cm->g->ops[in->op];
  snprintf(nm, sizeof nm, "%s(%s)", o->name,
           twill_cg_iter_label(cm, in, it, sizeof it));
  fprintf(f, "%scycle %-6ld %-20s stage %-3ld slot %-6ld warp %s\n", indent,
          twill_cg_real(cm, in->time), nm, cm->stage[in->op],
          twill_cg_real(cm, cm->slot[in->op]),
          twill_cg_warp_label(cm, in->op, wl, sizeof wl));
}

static void section_head(const cg_model *cm, int sec, FILE *f,
                         const char *indent) {
  long I = cm->I, C = cm->C;
  if (sec == 0)
    fprintf(f, "%sprologue (cycles 0..%ld):\n", indent,
            twill_cg_real(cm, (C - 1) * I) - 1);
  else if (sec == 1)
    fprintf(f,
            "%ssteady state: for i = 0 .. N-%ld (i = oldest iteration in "
            "flight; body = %ld cycles, Q cycles %ld..%ld):\n",
            indent, C, twill_cg_real(cm, I), twill_cg_real(cm, (C - 1) * I),
            twill_cg_real(cm, C * I) - 1);
  else
    fprintf(f, "%sepilogue (cycles %ld..%ld):\n", indent,
            twill_cg_real(cm, C * I), twill_cg_real(cm, cm->T) - 1);
}

/* Ring name of cross edge k. */
static void ring_name(const cg_model *cm, int k, char *buf, size_t n) {
  snprintf(buf, n, "r%d(%s->%s)", k, cm->g->ops[cm->x[k].src].name,
           cm->g->ops[cm->x[k].dst].name);
}

/* Iteration expression `lab` shifted by -d. */
static void shift_label(const char *lab, long d, char *buf, size_t n) {
  if (!d) {
    snprintf(buf, n, "%s", lab);
    return;
  }
  /* lab is "3", "i", "i+2" or "N-1" */
  char *end;
  long v = strtol(lab, &end, 10);
  if (end != lab && !*end) {
    snprintf(buf, n, "%ld", v - d);
    return;
  }
  const char *pm = strpbrk(lab, "+-");
  long off = 0;
  char base[16];
  if (pm) {
    off = strtol(pm, NULL, 10);
    size_t bl = (size_t)(pm - lab) < sizeof base ? (size_t)(pm - lab) : sizeof base - 1;
    memcpy(base, lab, bl);
    base[bl] = 0;
  } else {
    snprintf(base, sizeof base, "%s", lab);
  }
  off -= d;
  if (off > 0)
    snprintf(buf, n, "%s+%ld", base, off);
  else if (off < 0)
    snprintf(buf, n, "%s%ld", base, off);
  else
    snprintf(buf, n, "%s", base);
}

static void warp_programs(const cg_model *cm, FILE *f) {
  const twill_graph *g = cm->g;
  fprintf(f, "\n# cross-warp edges: one mbarrier ring each (full: producer -> "
             "consumer, empty: consumer -> producer)\n");
  if (!cm->nx) fprintf(f, "#   none: no edge crosses warps\n");
  for (int k = 0; k < cm->nx; k++) {
    char rn[160], a[32], b[32];
    const twill_edge *e = &g->edges[cm->x[k].edge];
    ring_name(cm, k, rn, sizeof rn);
    fprintf(f, "#   %-28s %s -> %s  lat %ld dist %d%s  stages %ld\n", rn,
            twill_cg_role_label(cm, cm->x[k].prole, a, sizeof a),
            twill_cg_role_label(cm, cm->x[k].crole, b, sizeof b),
            cm->src->edges[cm->x[k].edge].lat, e->dist,
            e->blocking ? " blocking" : "", cm->x[k].depth);
  }
  for (int r = 0; r < cm->nroles; r++) {
    char rl[32];
    fprintf(f, "\nwarp program %s (%s):\n", twill_cg_role_label(cm, r, rl, sizeof rl),
            cm->roles[r].varlat_only ? "variable-latency ops" : "fixed-latency ops");
    int sec = -1;
    for (int q = 0; q < cm->ninst; q++) {
      const cg_inst *in = &cm->inst[q];
      if (cm->role_of[in->op] != r) continue;
      if (in->section != sec) {
        sec = in->section;
        section_head(cm, sec, f, "  ");
      }
      char it[64], it2[64], rn[160];
      twill_cg_iter_label(cm, in, it, sizeof it);
      const char *ind = "      ";
      /* consumer waits for every cross-warp input */
      for (int k = 0; k < cm->nx; k++) {
        if (cm->x[k].dst != in->op) continue;
        const twill_edge *e = &g->edges[cm->x[k].edge];
        ring_name(cm, k, rn, sizeof rn);
        shift_label(it, e->dist, it2, sizeof it2);
        if (in->section == 0 && in->iter < e->dist) continue;
        fprintf(f, "%swait   %s.full[%s]%s\n", ind, rn, it2,
                e->dist ? "   (none while that iteration is < 0)" : "");
      }
      /* producer acquires a free slot of every output ring */
      for (int k = 0; k < cm->nx; k++) {
        if (cm->x[k].src != in->op) continue;
        ring_name(cm, k, rn, sizeof rn);
        shift_label(it, cm->x[k].depth, it2, sizeof it2);
        if (in->section == 0 && in->iter < cm->x[k].depth) continue;
        fprintf(f, "%swait   %s.empty[%s]   (slot reuse: ring of %ld)\n",
                ind, rn, it2, cm->x[k].depth);
      }
      inst_line(cm, in, f, "    ");
      for (int k = 0; k < cm->nx; k++) {
        if (cm->x[k].src != in->op) continue;
        ring_name(cm, k, rn, sizeof rn);
        fprintf(f, "%sarrive %s.full[%s]   (at completion, cycle %ld)\n", ind,
                rn, it, twill_cg_real(cm, in->time + g->ops[in->op].lat));
      }
      for (int k = 0; k < cm->nx; k++) {
        if (cm->x[k].dst != in->op) continue;
        const twill_edge *e = &g->edges[cm->x[k].edge];
        ring_name(cm, k, rn, sizeof rn);
        shift_label(it, e->dist, it2, sizeof it2);
        if (in->section == 0 && in->iter < e->dist) continue;
        fprintf(f, "%sarrive %s.empty[%s]\n", ind, rn, it2);
      }
    }
  }
}

int twill_emit_pseudocode(const twill_graph *g, const twill_arch *m,
                          const twill_schedule *s,
                          const twill_emit_opts *opts, FILE *f) {
  cg_model cm;
  if (twill_cg_model_init(&cm, g, m, s, opts)) return -1;
  twill_cg_header(&cm, f, "# ", "pseudocode");
  fprintf(f,
          "# each line: cycle, op(iteration), stage = t/I, warp; N = trip "
          "count (N >= C-1 = %ld);\n"
          "# steady state: op v runs for iteration i + (C-1-stage(v)).\n\n",
          cm.C - 1);
  int sec = -1;
  for (int q = 0; q < cm.ninst; q++) {
    const cg_inst *in = &cm.inst[q];
    if (in->section != sec) {
      if (sec < 0 && in->section == 1) fprintf(f, "prologue: (empty)\n");
      sec = in->section;
      section_head(&cm, sec, f, "");
    }
    inst_line(&cm, in, f, "  ");
  }
  if (sec < 0)
    fprintf(f, "(no ops)\n");
  else if (sec == 1)
    fprintf(f, "epilogue: (empty)\n");
  if (cm.warps) warp_programs(&cm, f);
  twill_cg_model_free(&cm);
  return ferror(f) ? -1 : 0;
}
