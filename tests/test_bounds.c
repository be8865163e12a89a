/* tests/test_bounds.c: ResMII and RecMII against hand derivations and
 * against brute-force enumeration of every elementary cycle. */
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "fixtures.h"
#include "testutil.h"
#include "twill/bounds.h"
#include "twill/graph.h"

/* fig1 (Twill paper, Fig. 1): S, P, O of 1 cycle; S, O on TC (cap 1), P on EXP
 * (cap 1); edges S->P (1,0), P->O (1,0), O->O (1,1).
 *   ResMII(TC)  = ceil((1 + 1) / 1) = 2,  ResMII(EXP) = ceil(1/1) = 1
 *   RecMII      = the self-loop O->O: ceil(1 / 1) = 1
 *   MII         = max(2, 1) = 2 */
static twill_graph *fig1(void) { return tf_fig1(); }

START_TEST(fig1_bounds) {
  twill_graph *g = fig1();
  twill_diag d;
  ck_assert_int_eq(twill_graph_validate(g, &d), 0);
  ck_assert_int_eq(twill_graph_bind(g, NULL, &d), 0);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  ck_assert_int_eq(b.res_mii, 2);
  ck_assert_str_eq(g->units[b.res_unit].name, "TC");
  ck_assert_int_eq(b.unit_mii[1], 1);
  ck_assert_int_eq(b.rec_mii, 1);
  ck_assert_int_eq(b.ncycle, 1);
  ck_assert_int_eq(b.cycle[0], 2); /* the self-loop O->O */
  ck_assert_int_eq(b.mii, 2);
  twill_bounds_clear(&b);
  twill_graph_free(g);
}
END_TEST

/* dragon (twill-egraphs dragon_book): RRTs a=[[1,0]], b=[[0,1]],
 * c=[[1,0]], d=[[1,0],[0,1]] (d uses unit 0 in its first cycle and unit 1
 * in its second), capacities 1, 1.  Edges d->c (0,1), c->b (0,1),
 * d->b (0,2), b->a (0,2), b->d (1,1).
 *   unit 0: a 1 + c 1 + d 1 = 3 -> ResMII 3;  unit 1: b 1 + d 1 = 2
 *   cycles: d->c->b->d: lat 0+0+1 = 1, dist 1+1+1 = 3 -> ceil(1/3) = 1
 *           d->b->d:    lat 0+1 = 1,   dist 2+1 = 3   -> 1
 *   RecMII = 1, MII = 3 (the published II is 3). */
START_TEST(dragon_bounds) {
  twill_graph *g = tf_dragon();
  int u0 = twill_graph_find_unit(g, "u0"), u1 = twill_graph_find_unit(g, "u1");
  twill_diag dg;
  ck_assert_int_eq(twill_graph_validate(g, &dg), 0);
  ck_assert_int_eq(twill_graph_bind(g, NULL, &dg), 0);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  ck_assert_int_eq(b.res_mii, 3);
  ck_assert_int_eq(b.res_unit, u0);
  ck_assert_int_eq(b.unit_mii[u1], 2);
  ck_assert_int_eq(b.rec_mii, 1);
  ck_assert_int_eq(b.mii, 3);
  twill_bounds_clear(&b);
  twill_graph_free(g);
}
END_TEST

/* A recurrence that dominates: x->y (5,0), y->x (4,1), y->y (3,2):
 * cycles x->y->x: 9/1 -> 9; y->y: 3/2 -> 2.  RecMII 9, witness 2 edges. */
START_TEST(recurrence_dominates) {
  twill_graph *g = twill_graph_new("rec");
  int x = twill_graph_add_op(g, "x", 5), y = twill_graph_add_op(g, "y", 4);
  twill_graph_add_edge(g, x, y, 5, 0);
  twill_graph_add_edge(g, y, x, 4, 1);
  twill_graph_add_edge(g, y, y, 3, 2);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  ck_assert_int_eq(b.res_mii, 0);
  ck_assert_int_eq(b.rec_mii, 9);
  ck_assert_int_eq(b.mii, 9);
  ck_assert_int_eq(b.ncycle, 2);
  ck_assert_int_eq(b.cycle_lat, 9);
  ck_assert_int_eq(b.cycle_dist, 1);
  twill_bounds_clear(&b);
  twill_graph_free(g);
}
END_TEST

/* Ratio that needs rounding: a->b (3,0), b->a (4,2): 7/2 -> 4. */
START_TEST(recurrence_rounds_up) {
  twill_graph *g = twill_graph_new("r");
  int a = twill_graph_add_op(g, "a", 3), b_ = twill_graph_add_op(g, "b", 4);
  twill_graph_add_edge(g, a, b_, 3, 0);
  twill_graph_add_edge(g, b_, a, 4, 2);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  ck_assert_int_eq(b.rec_mii, 4);
  ck_assert_int_eq(b.mii, 4);
  ck_assert_int_eq(twill_bounds_rec_ok(g, 3), 0);
  ck_assert_int_eq(twill_bounds_rec_ok(g, 4), 1);
  twill_bounds_clear(&b);
  twill_graph_free(g);
}
END_TEST

/* Multi-cycle uses and counts: op uses unit U (cap 2) for 3 cycles with
 * count 2 and another op for 1 cycle: busy 6 + 1 = 7, ceil(7/2) = 4. */
START_TEST(res_counts_cycles_and_instances) {
  twill_graph *g = twill_graph_new("res");
  int u = twill_graph_declare_unit(g, "U", 2);
  int a = twill_graph_add_op(g, "a", 3), b_ = twill_graph_add_op(g, "b", 1);
  twill_graph_add_use(g, a, u, 0, 3, 2);
  twill_graph_add_use(g, b_, u, 0, 1, 1);
  twill_bounds b;
  ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
  ck_assert_int_eq(b.unit_busy[u], 7);
  ck_assert_int_eq(b.res_mii, 4);
  ck_assert_int_eq(b.rec_mii, 0);
  ck_assert_int_eq(b.mii, 4);
  twill_bounds_clear(&b);
  twill_graph_free(g);
}
END_TEST

/* ---- brute force: enumerate every elementary cycle (Johnson-free simple
 * DFS from each smallest start vertex; fine for <= 7 ops). */
typedef struct bf {
  const twill_graph *g;
  int start;
  int onpath[16];
  long best;
} bf;

static long ceil_div(long a, long b) { return (a + b - 1) / b; }

static void bf_dfs(bf *s, int v, long lat, long dist) {
  for (int i = 0; i < s->g->nedges; i++) {
    const twill_edge *e = &s->g->edges[i];
    if (e->src != v) continue;
    if (e->dst == s->start) {
      long L = lat + e->lat, D = dist + e->dist;
      if (D > 0 && ceil_div(L, D) > s->best) s->best = ceil_div(L, D);
      continue;
    }
    if (e->dst < s->start || s->onpath[e->dst]) continue;
    s->onpath[e->dst] = 1;
    bf_dfs(s, e->dst, lat + e->lat, dist + e->dist);
    s->onpath[e->dst] = 0;
  }
}

static long brute_rec_mii(const twill_graph *g) {
  bf s;
  memset(&s, 0, sizeof s);
  s.g = g;
  for (int v = 0; v < g->nops; v++) {
    s.start = v;
    memset(s.onpath, 0, sizeof s.onpath);
    s.onpath[v] = 1;
    bf_dfs(&s, v, 0, 0);
  }
  return s.best;
}

START_TEST(rec_mii_matches_brute_force) {
  int trials = tu_under_valgrind() ? 60 : 400;
  unsigned long long r = 0x9e3779b97f4a7c15ULL;
  for (int t = 0; t < trials; t++) {
    twill_graph *g = twill_graph_new("bf");
    int n = 2 + (int)(tf_rnd(&r) % 6);
    for (int v = 0; v < n; v++) {
      char name[16];
      snprintf(name, sizeof name, "v%d", v);
      twill_graph_add_op(g, name, 1);
    }
    int m = n + (int)(tf_rnd(&r) % (2 * n));
    for (int i = 0; i < m; i++) {
      int a = (int)(tf_rnd(&r) % (unsigned)n),
          b = (int)(tf_rnd(&r) % (unsigned)n);
      /* forward edges may have distance 0; others need >= 1 so that no
       * zero-distance cycle exists */
      int dist = a < b ? (int)(tf_rnd(&r) % 2) : 1 + (int)(tf_rnd(&r) % 3);
      twill_graph_add_edge(g, a, b, (long)(tf_rnd(&r) % 9), dist);
    }
    twill_diag d;
    ck_assert_int_eq(twill_graph_validate(g, &d), 0);
    twill_bounds b;
    ck_assert_int_eq(twill_bounds_compute(g, &b), 0);
    long want = brute_rec_mii(g);
    ck_assert_msg(b.rec_mii == want, "trial %d: rec_mii %ld, brute force %ld",
                  t, b.rec_mii, want);
    if (b.rec_mii > 0) {
      /* the witness is a closed walk whose ratio rounds up to RecMII */
      ck_assert_int_gt(b.ncycle, 0);
      for (int i = 0; i < b.ncycle; i++)
        ck_assert_int_eq(g->edges[b.cycle[i]].dst,
                         g->edges[b.cycle[(i + 1) % b.ncycle]].src);
      ck_assert_int_eq(ceil_div(b.cycle_lat, b.cycle_dist), b.rec_mii);
    }
    twill_bounds_clear(&b);
    twill_graph_free(g);
  }
}
END_TEST

static Suite *make_suite(void) {
  Suite *s = suite_create("bounds");
  TCase *tc = tcase_create("hand");
  tcase_add_test(tc, fig1_bounds);
  tcase_add_test(tc, dragon_bounds);
  tcase_add_test(tc, recurrence_dominates);
  tcase_add_test(tc, recurrence_rounds_up);
  tcase_add_test(tc, res_counts_cycles_and_instances);
  suite_add_tcase(s, tc);
  TCase *bfc = tcase_create("brute");
  tcase_set_timeout(bfc, 120);
  tcase_add_test(bfc, rec_mii_matches_brute_force);
  suite_add_tcase(s, bfc);
  return s;
}

TWILL_CHECK_MAIN
