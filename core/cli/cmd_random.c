/* core/cli/cmd_random.c: `twill random`, seeded random kernels. */
#include <string.h>

#include "cli.h"

int twill_cmd_random(int argc, char **argv) {
  twill_random_opts o;
  twill_random_opts_default(&o);
  int json = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    long v = 0;
    double x = 0;
    int e = 0;
    if (!a.opt) return twill_cli_error("random", "unexpected argument '%s'", a.val);
    if (twill_cli_is(&a, "--json")) json = 1;
    else if (twill_cli_is(&a, "--gaps")) o.gaps = true;
    else if (twill_cli_is(&a, "--nodes")) {
      if (!(e = twill_cli_long(&a, 1, 1000000, &v))) o.nodes = (int)v;
    } else if (twill_cli_is(&a, "--density")) {
      if (!(e = twill_cli_double(&a, 0, 1, &x))) o.density = x;
    } else if (twill_cli_is(&a, "--back-edges")) {
      if (!(e = twill_cli_double(&a, 0, 100, &x))) o.back_edges = x;
    } else if (twill_cli_is(&a, "--units")) {
      if (!(e = twill_cli_long(&a, 1, 64, &v))) o.units = (int)v;
    } else if (twill_cli_is(&a, "--max-lat")) {
      if (!(e = twill_cli_long(&a, 1, 1000000, &v))) o.max_lat = (int)v;
    } else if (twill_cli_is(&a, "--max-dist")) {
      if (!(e = twill_cli_long(&a, 1, 1000, &v))) o.max_dist = (int)v;
    } else if (twill_cli_is(&a, "--max-cap")) {
      if (!(e = twill_cli_long(&a, 1, 1000, &v))) o.max_cap = (int)v;
    } else if (twill_cli_is(&a, "--seed")) {
      if (!(e = twill_cli_long(&a, 0, 2147483647L, &v))) o.seed = (unsigned long long)v;
    }
    if (e) return TWILL_EXIT_USAGE;
  }
  if (r < 0) return TWILL_EXIT_USAGE;
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
