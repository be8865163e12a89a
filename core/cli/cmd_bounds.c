/* core/cli/cmd_bounds.c: `twill bounds`, the lower bounds on I with reasons. */
#include <string.h>

#include "twill/bounds.h"
#include "cli.h"
#include "twill/json.h"

/* Ops that use unit u, as "name cycles" pairs, for the reason line. */
static void print_unit_users(const twill_graph *g, int u, FILE *f) {
  int shown = 0;
  for (int v = 0; v < g->nops; v++)
    for (int k = 0; k < g->ops[v].nuses; k++) {
      const twill_use *us = &g->ops[v].uses[k];
      if (us->unit != u) continue;
      if (shown == 8) {
        fputs(", ...", f);
        shown++;
      }
      if (shown > 8) continue;
      fprintf(f, "%s%s %d", shown ? ", " : "", g->ops[v].name,
              us->cycles * us->count);
      shown++;
    }
}

static void print_text(const twill_graph *g, const twill_arch *m,
                       const twill_bounds *b) {
  printf("kernel %s on %s: %d ops, %d edges\n", g->name, m->name, g->nops,
         g->nedges);
  printf("\nResMII %ld", b->res_mii);
  if (b->res_unit >= 0) {
    printf(": unit %s is busy %ld cycles per iteration with capacity %d\n",
           g->units[b->res_unit].name, b->res_busy,
           g->units[b->res_unit].capacity);
    printf("  (");
    print_unit_users(g, b->res_unit, stdout);
    printf(")\n");
  } else {
    printf(": no op uses a unit\n");
  }
  printf("  %-10s %10s %8s %10s\n", "unit", "busy", "capacity", "ceil");
  for (int u = 0; u < g->nunits; u++)
    printf("  %-10s %10ld %8d %10ld%s\n", g->units[u].name, b->unit_busy[u],
           g->units[u].capacity, b->unit_mii[u],
           b->unit_mii[u] == b->res_mii && b->res_mii ? "  saturated" : "");
  printf("\nRecMII %ld", b->rec_mii);
  if (b->ncycle) {
    printf(": critical cycle, latency %ld over distance %ld, "
           "ceil(%ld/%ld) = %ld\n  ",
           b->cycle_lat, b->cycle_dist, b->cycle_lat, b->cycle_dist,
           b->rec_mii);
    for (int i = 0; i < b->ncycle; i++) {
      const twill_edge *e = &g->edges[b->cycle[i]];
      printf("%s -(lat %ld, dist %d)-> ", g->ops[e->src].name, e->lat,
             e->dist);
    }
    printf("%s\n", g->ops[g->edges[b->cycle[0]].src].name);
  } else {
    printf(": %s\n", b->rec_mii ? "" : "no recurrence with positive latency");
  }
  const char *why = b->res_mii >= b->rec_mii
                        ? (b->res_mii ? "resource-bound" : "trivial")
                        : "recurrence-bound";
  printf("\nMII %ld (%s)\n", b->mii, why);
}

static int print_json(const twill_graph *g, const twill_arch *m,
                      const twill_bounds *b) {
  twill_jw w;
  twill_jw_init(&w, stdout, true);
  twill_jw_object_begin(&w);
  twill_jw_key(&w, "kernel");
  twill_jw_string(&w, g->name);
  twill_jw_key(&w, "arch");
  twill_jw_string(&w, m->name);
  twill_jw_key(&w, "res_mii");
  twill_jw_int(&w, b->res_mii);
  twill_jw_key(&w, "rec_mii");
  twill_jw_int(&w, b->rec_mii);
  twill_jw_key(&w, "mii");
  twill_jw_int(&w, b->mii);
  twill_jw_key(&w, "units");
  twill_jw_array_begin(&w);
  for (int u = 0; u < g->nunits; u++) {
    twill_jw_object_begin(&w);
    twill_jw_key(&w, "name");
    twill_jw_string(&w, g->units[u].name);
    twill_jw_key(&w, "busy");
    twill_jw_int(&w, b->unit_busy[u]);
    twill_jw_key(&w, "capacity");
    twill_jw_int(&w, g->units[u].capacity);
    twill_jw_key(&w, "mii");
    twill_jw_int(&w, b->unit_mii[u]);
    twill_jw_object_end(&w);
  }
  twill_jw_array_end(&w);
  twill_jw_key(&w, "saturated_units");
  twill_jw_array_begin(&w);
  for (int u = 0; u < g->nunits; u++)
    if (b->res_mii && b->unit_mii[u] == b->res_mii)
      twill_jw_string(&w, g->units[u].name);
  twill_jw_array_end(&w);
  twill_jw_key(&w, "critical_cycle");
  twill_jw_array_begin(&w);
  for (int i = 0; i < b->ncycle; i++) {
    const twill_edge *e = &g->edges[b->cycle[i]];
    twill_jw_object_begin(&w);
    twill_jw_key(&w, "src");
    twill_jw_string(&w, g->ops[e->src].name);
    twill_jw_key(&w, "dst");
    twill_jw_string(&w, g->ops[e->dst].name);
    twill_jw_key(&w, "lat");
    twill_jw_int(&w, e->lat);
    twill_jw_key(&w, "dist");
    twill_jw_int(&w, e->dist);
    twill_jw_object_end(&w);
  }
  twill_jw_array_end(&w);
  twill_jw_key(&w, "cycle_latency");
  twill_jw_int(&w, b->cycle_lat);
  twill_jw_key(&w, "cycle_distance");
  twill_jw_int(&w, b->cycle_dist);
  twill_jw_object_end(&w);
  return twill_jw_finish(&w);
}

int twill_cmd_bounds(int argc, char **argv) {
  const char *kernel = NULL, *arch = NULL;
  int json = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      if (kernel) return twill_cli_error("bounds", "more than one kernel given");
      kernel = a.val;
    } else if (twill_cli_is(&a, "--json")) {
      json = 1;
    } else if (twill_cli_is(&a, "--arch")) {
      arch = a.val;
    }
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!kernel) return twill_cli_error("bounds", "no kernel given");
  twill_graph *g;
  twill_arch *m;
  if (twill_cli_load_kernel(kernel, arch, "twill bounds: --arch", &g, &m)) return TWILL_EXIT_USAGE;
  twill_bounds b;
  int rc = TWILL_EXIT_OK;
  if (twill_bounds_compute(g, &b)) {
    fprintf(stderr, "twill bounds: out of memory\n");
    rc = TWILL_EXIT_USAGE;
  } else {
    if (json) {
      if (print_json(g, m, &b)) rc = TWILL_EXIT_USAGE;
    } else {
      print_text(g, m, &b);
    }
    twill_bounds_clear(&b);
  }
  twill_graph_free(g);
  twill_arch_free(m);
  return rc;
}
