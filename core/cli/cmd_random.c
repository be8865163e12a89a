/* core/cli/cmd_random.c: `twill random`, seeded random kernels. */
#include <string.h>

#include "cli.h"

int twill_cmd_random(int argc, char **argv) {
  twill_random_opts o;
  twill_random_opts_default(&o);
  int json = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    long v;
    double x;
    if (!strcmp(a, "--json")) {
      json = 1;
      continue;
    }
    if (!strcmp(a, "--gaps")) {
      o.gaps = true;
      continue;
    }
    if (i + 1 >= argc) return twill_cli_error("random", "unknown or incomplete option '%s'", a);
    const char *val = argv[++i];
    if (!strcmp(a, "--nodes")) {
      if (twill_cli_long(a, val, i + 1, 1, 1000000, &v)) return TWILL_EXIT_USAGE;
      o.nodes = (int)v;
    } else if (!strcmp(a, "--density")) {
      if (twill_cli_double(a, val, i + 1, 0, 1, &x)) return TWILL_EXIT_USAGE;
      o.density = x;
    } else if (!strcmp(a, "--back-edges")) {
      if (twill_cli_double(a, val, i + 1, 0, 100, &x)) return TWILL_EXIT_USAGE;
      o.back_edges = x;
    } else if (!strcmp(a, "--units")) {
      if (twill_cli_long(a, val, i + 1, 1, 64, &v)) return TWILL_EXIT_USAGE;
      o.units = (int)v;
    } else if (!strcmp(a, "--max-lat")) {
      if (twill_cli_long(a, val, i + 1, 1, 1000000, &v)) return TWILL_EXIT_USAGE;
      o.max_lat = (int)v;
    } else if (!strcmp(a, "--max-dist")) {
      if (twill_cli_long(a, val, i + 1, 1, 1000, &v)) return TWILL_EXIT_USAGE;
      o.max_dist = (int)v;
    } else if (!strcmp(a, "--max-cap")) {
      if (twill_cli_long(a, val, i + 1, 1, 1000, &v)) return TWILL_EXIT_USAGE;
      o.max_cap = (int)v;
    } else if (!strcmp(a, "--seed")) {
      if (twill_cli_long(a, val, i + 1, 0, 2147483647L, &v)) return TWILL_EXIT_USAGE;
      o.seed = (unsigned long long)v;
    } else {
      return twill_cli_error("random", "unknown option '%s'", a);
    }
  }
  twill_graph *g = twill_graph_random(&o);
  if (!g) {
    fprintf(stderr, "twill random: out of memory\n");
    return TWILL_EXIT_USAGE;
  }
  int rc = json ? twill_graph_print_json(g, stdout)
                : twill_graph_print_text(g, stdout);
  twill_graph_free(g);
  return rc ? TWILL_EXIT_USAGE : TWILL_EXIT_OK;
}
