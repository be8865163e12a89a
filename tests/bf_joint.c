/* tests/bf_joint.c: brute force over joint schedules and the claim oracle
 * (see bf_joint.h). */
#include "bf_joint.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bf_modulo.h"

typedef struct bf {
  const twill_graph *g;
  const twill_joint_params *p;
  long L;
  twill_schedule *s;
  int all;        /* visit every legal schedule (for min_cross) */
  int min_cross;  /* fewest register edges crossing warps seen, or -1 */
} bf;

/* Register edges (source holds registers, variable-latency or not) whose
 * consumer runs on a warp the producer's set lacks, counted from the
 * schedule alone: some warp w in [c, c + sv) outside [a, a + su). */
static int crossings(const bf *b) {
  int n = 0;
  for (int i = 0; i < b->g->nedges; i++) {
    const twill_edge *e = &b->g->edges[i];
    const twill_op *u = &b->g->ops[e->src];
    if (e->src == e->dst || u->regs <= 0) continue;
    int su = twill_op_span(u, b->p->warpgroup);
    int sv = twill_op_span(&b->g->ops[e->dst], b->p->warpgroup);
    int a = b->s->warp[e->src], c = b->s->warp[e->dst];
    bool out = false;
    for (int w = c; w < c + sv; w++) out = out || w < a || w >= a + su;
    if (out) n++;
  }
  return n;
}

static int bf_warps(bf *b, int v) {
  if (v == b->g->nops) {
    if (twill_joint_validate(b->g, b->p, b->L, b->s, NULL, 0)) return 0;
    int c = crossings(b);
    if (b->min_cross < 0 || c < b->min_cross) b->min_cross = c;
    return !b->all;
  }
  int step = twill_op_span(&b->g->ops[v], b->p->warpgroup);
  for (int w = 0; w + step <= b->p->warps; w += step) {
    b->s->warp[v] = w;
    if (bf_warps(b, v + 1)) return 1;
  }
  return 0;
}

static int bf_times(bf *b, int v) {
  const twill_graph *g = b->g;
  if (v == g->nops) {
    twill_schedule base = *b->s;
    base.warp = NULL;
    if (twill_schedule_validate(g, NULL, &base, NULL, 0)) return 0;
    return bf_warps(b, 0);
  }
  long lat = g->ops[v].lat > 0 ? g->ops[v].lat : 1;
  for (long t = 0; t + lat <= b->L; t++) {
    b->s->start[v] = t;
    if (bf_times(b, v + 1)) return 1;
  }
  return 0;
}

static int run(const twill_graph *g, const twill_joint_params *p, long ii, long L, int all) {
  bf b = {g, p, L, twill_schedule_new(g->nops, ii), all, -1};
  if (!b.s || twill_schedule_add_warps(b.s)) abort();
  int r = bf_times(&b, 0);
  twill_schedule_free(b.s);
  return all ? b.min_cross : r;
}

int bf_joint_feasible(const twill_graph *g, const twill_joint_params *p, long ii, long L) {
  return run(g, p, ii, L, 0);
}

int bf_joint_min_cross(const twill_graph *g, const twill_joint_params *p, long ii, long L) {
  return run(g, p, ii, L, 1);
}

static long max_lat1(const twill_graph *g) {
  long x = 1;
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].lat > x) x = g->ops[v].lat;
  return x;
}

int bf_claim_true(const twill_graph *g, const twill_joint_params *p,
                  const twill_check_claim *c, long imax, long lmax, char *why,
                  size_t whylen) {
  long m = max_lat1(g);
  if (c->kind == TWILL_CLAIM_NEVER) {
    for (long ii = 1; ii <= imax; ii++)
      if ((ii > 64 || bf_modulo_feasible(g, ii)) && bf_joint_feasible(g, p, ii, lmax)) {
        snprintf(why, whylen, "a joint schedule exists at I %ld, L %ld", ii, lmax);
        return 0;
      }
    return 1;
  }
  /* below phase 1's I (the modulo claim's I): no modulo schedule */
  for (long ii = 1; ii < c->phase1_ii; ii++)
    if (bf_modulo_feasible(g, ii)) {
      snprintf(why, whylen, "a modulo schedule exists at I %ld < %ld", ii, c->phase1_ii);
      return 0;
    }
  if (c->kind == TWILL_CLAIM_MODULO) {
    long len = bf_modulo_min_len(g, c->ii);
    if (len < 0 || len > c->length || (c->length_proven && len != c->length)) {
      snprintf(why, whylen, "the least modulo length at I %ld is %ld, not %ld%s", c->ii, len,
               c->length, c->length_proven ? "" : " or more");
      return 0;
    }
    return 1;
  }
  for (long ii = c->phase1_ii; ii < c->ii; ii++) {
    long len = bf_modulo_min_len(g, ii);
    if (len < 0) continue; /* no modulo schedule: no joint one */
    long cap = (len + ii - 1) / ii * ii;
    if (bf_joint_feasible(g, p, ii, cap)) {
      snprintf(why, whylen, "a joint schedule exists at I %ld within L %ld (copies of %ld)",
               ii, cap, len);
      return 0;
    }
  }
  if (!bf_joint_feasible(g, p, c->ii, c->length)) {
    snprintf(why, whylen, "no joint schedule at I %ld, L %ld", c->ii, c->length);
    return 0;
  }
  if (c->length_proven && c->length - 1 >= m && bf_joint_feasible(g, p, c->ii, c->length - 1)) {
    snprintf(why, whylen, "a joint schedule exists at I %ld, L %ld", c->ii, c->length - 1);
    return 0;
  }
  return 1;
}
