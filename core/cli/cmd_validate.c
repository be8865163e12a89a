/* core/cli/cmd_validate.c: `twill validate`, parse + check + print back. */
#include <string.h>

#include "cli.h"

int twill_cmd_validate(int argc, char **argv) {
  const char *kernel = NULL, *arch = NULL;
  int form = 0; /* 0 text, 1 json, 2 dot */
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      if (kernel) return twill_cli_error("validate", "more than one kernel given");
      kernel = a.val;
    } else if (twill_cli_is(&a, "--json")) form = 1;
    else if (twill_cli_is(&a, "--dot")) form = 2;
    else if (twill_cli_is(&a, "--text")) form = 0;
    else if (twill_cli_is(&a, "--arch")) arch = a.val;
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!kernel) return twill_cli_error("validate", "no kernel given");
  twill_graph *g;
  twill_arch *m;
  if (twill_cli_load_kernel(kernel, arch, "twill validate: --arch", &g, &m)) return TWILL_EXIT_USAGE;
  int rc = form == 1   ? twill_graph_print_json(g, stdout)
           : form == 2 ? twill_graph_print_dot(g, NULL, stdout)
                       : twill_graph_print_text(g, stdout);
  twill_graph_free(g);
  twill_arch_free(m);
  return rc ? TWILL_EXIT_USAGE : TWILL_EXIT_OK;
}
