/* core/cli/cmd_validate.c: `twill validate`, parse + check + print back. */
#include <string.h>

#include "cli.h"

int twill_cmd_validate(int argc, char **argv) {
  const char *kernel = NULL, *arch = NULL;
  int form = 0; /* 0 text, 1 json, 2 dot */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--json")) form = 1;
    else if (!strcmp(argv[i], "--dot")) form = 2;
    else if (!strcmp(argv[i], "--text")) form = 0;
    else if (!strcmp(argv[i], "--arch") && i + 1 < argc) arch = argv[++i];
    else if (argv[i][0] == '-' && argv[i][1])
      return twill_cli_error("validate", "unknown option '%s'", argv[i]);
    else if (kernel)
      return twill_cli_error("validate", "more than one kernel given");
    else kernel = argv[i];
  }
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
