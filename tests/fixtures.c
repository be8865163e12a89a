/* tests/fixtures.c: the shared test graphs (see fixtures.h). */
#include "fixtures.h"

twill_graph *tf_fig1(void) {
  twill_graph *g = twill_graph_new("fig1");
  int tc = twill_graph_declare_unit(g, "TC", 1);
  int ex = twill_graph_declare_unit(g, "EXP", 1);
  int s = twill_graph_add_op(g, "S", 1), p = twill_graph_add_op(g, "P", 1),
      o = twill_graph_add_op(g, "O", 1);
  twill_graph_add_use(g, s, tc, 0, 1, 1);
  twill_graph_add_use(g, p, ex, 0, 1, 1);
  twill_graph_add_use(g, o, tc, 0, 1, 1);
  twill_graph_add_edge(g, s, p, 1, 0);
  twill_graph_add_edge(g, p, o, 1, 0);
  twill_graph_add_edge(g, o, o, 1, 1);
  return g;
}

twill_graph *tf_dragon(void) {
  twill_graph *g = twill_graph_new("dragon");
  int u0 = twill_graph_declare_unit(g, "u0", 1);
  int u1 = twill_graph_declare_unit(g, "u1", 1);
  int a = twill_graph_add_op(g, "a", 1), b = twill_graph_add_op(g, "b", 1),
      c = twill_graph_add_op(g, "c", 1), d = twill_graph_add_op(g, "d", 2);
  twill_graph_add_use(g, a, u0, 0, 1, 1);
  twill_graph_add_use(g, b, u1, 0, 1, 1);
  twill_graph_add_use(g, c, u0, 0, 1, 1);
  twill_graph_add_use(g, d, u0, 0, 1, 1);
  twill_graph_add_use(g, d, u1, 1, 1, 1);
  twill_graph_add_edge(g, d, c, 0, 1);
  twill_graph_add_edge(g, c, b, 0, 1);
  twill_graph_add_edge(g, d, b, 0, 2);
  twill_graph_add_edge(g, b, a, 0, 2);
  twill_graph_add_edge(g, b, d, 1, 1);
  return g;
}

twill_graph *tf_gap(void) {
  twill_graph *g = twill_graph_new("gap");
  int u = twill_graph_declare_unit(g, "U", 1);
  int a = twill_graph_add_op(g, "a", 3);
  twill_graph_add_use(g, a, u, 0, 1, 1);
  twill_graph_add_use(g, a, u, 2, 1, 1);
  int b = twill_graph_add_op(g, "b", 1);
  twill_graph_add_edge(g, a, b, 3, 0);
  return g;
}

twill_graph *tf_hole(void) {
  twill_graph *g = twill_graph_new("hole");
  int u = twill_graph_declare_unit(g, "U", 1);
  int a = twill_graph_add_op(g, "a", 4);
  twill_graph_add_use(g, a, u, 0, 1, 1);
  twill_graph_add_use(g, a, u, 1, 1, 1);
  twill_graph_add_use(g, a, u, 3, 1, 1);
  int b = twill_graph_add_op(g, "b", 2);
  twill_graph_add_use(g, b, u, 0, 2, 1);
  int c = twill_graph_add_op(g, "c", 2);
  twill_graph_add_use(g, c, u, 0, 2, 1);
  return g;
}

unsigned long long tf_rnd(unsigned long long *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

twill_graph *tf_random_loop(unsigned long long *r, int nu_max, int gap_every) {
  twill_graph *g = twill_graph_new("r");
  int nu = 1 + (int)(tf_rnd(r) % (unsigned)nu_max);
  for (int u = 0; u < nu; u++) {
    char nm[4] = {'u', (char)('0' + u), 0, 0};
    twill_graph_declare_unit(g, nm, 1 + (int)(tf_rnd(r) % 2));
  }
  int n = 2 + (int)(tf_rnd(r) % 4);
  for (int v = 0; v < n; v++) {
    char nm[4] = {'v', (char)('0' + v), 0, 0};
    twill_graph_add_op(g, nm, 1 + (int)(tf_rnd(r) % 3));
    twill_graph_add_use(g, v, (int)(tf_rnd(r) % (unsigned)nu), 0, 1, 1);
    if (tf_rnd(r) % (unsigned)gap_every == 0)
      twill_graph_add_use(g, v, (int)(tf_rnd(r) % (unsigned)nu), 2, 1, 1);
  }
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (tf_rnd(r) % 3 == 0) twill_graph_add_edge(g, a, b, g->ops[a].lat, 0);
  if (tf_rnd(r) % 2) {
    int a = (int)(tf_rnd(r) % (unsigned)n), b = (int)(tf_rnd(r) % (unsigned)n);
    if (b > a) {
      int x = a;
      a = b;
      b = x;
    }
    twill_graph_add_edge(g, a, b, g->ops[a].lat, 1 + (int)(tf_rnd(r) % 2));
  }
  return g;
}

twill_graph *tf_two_iterations(void) {
  twill_graph *g = twill_graph_new("ex3");
  int u = twill_graph_declare_unit(g, "A", 1);
  int a = twill_graph_add_op(g, "a", 0), b = twill_graph_add_op(g, "b", 2);
  twill_graph_add_use(g, b, u, 0, 2, 1);
  g->ops[b].issue = TWILL_ISSUE_THREAD, g->ops[b].regs = 96;
  twill_graph_add_edge(g, a, b, 1, 0);
  twill_graph_add_edge(g, b, b, 2, 2);
  g->edges[0].blocking = g->edges[1].blocking = true;
  return g;
}

twill_graph *tf_pack(long rx) {
  twill_graph *g = twill_graph_new("pack");
  int ld = twill_graph_add_op(g, "ld", 0), x = twill_graph_add_op(g, "x", 1),
      c1 = twill_graph_add_op(g, "c1", 1), c2 = twill_graph_add_op(g, "c2", 1);
  g->ops[ld].issue = TWILL_ISSUE_THREAD, g->ops[ld].varlat = true;
  g->ops[x].issue = g->ops[c1].issue = g->ops[c2].issue = TWILL_ISSUE_WARPGROUP;
  g->ops[x].regs = rx;
  g->ops[c1].regs = g->ops[c2].regs = 4;
  twill_graph_add_edge(g, ld, c1, 0, 0);
  twill_graph_add_edge(g, c1, c2, 1, 0);
  twill_graph_add_edge(g, c2, c1, 1, 1);
  return g;
}

twill_joint_params tf_tiny_params(int W, int WG, long R) {
  twill_joint_params p;
  twill_joint_params_default(&p, NULL);
  p.warps = W;
  p.warpgroup = WG;
  p.regs = R;
  p.regs_per_sm = 1 << 20;
  p.reg_lo = p.reg_step = 0;
  p.cross_warp = 1;
  p.smem_cap = -1;
  p.tmem_cap = -1;
  return p;
}
