/* core/cli/cmd_convert.c: `twill convert-hatschet GRAPH.graphml RM.xml
 * [-o OUT.json]`: a HatScheT instance as a JSON kernel. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "twill/formats.h"

int twill_cmd_convert_hatschet(int argc, char **argv) {
  const char *files[2] = {NULL, NULL}, *outp = NULL;
  int nf = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (a.opt) {
      if (twill_cli_is(&a, "-o")) outp = a.val;
    } else if (nf == 2) {
      return twill_cli_error("convert-hatschet", "more than two files given");
    } else {
      files[nf++] = a.val;
    }
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (nf < 2)
    return twill_cli_error("convert-hatschet",
                           "need a graph (.graphml) and a resource model "
                           "(.xml)");
  if (!strcmp(files[0], "-") && !strcmp(files[1], "-"))
    return twill_cli_error("convert-hatschet", "GRAPH.graphml and RM.xml cannot "
                                               "both be standard input");
  twill_diag d;
  twill_graph *g = twill_hatschet_load(files[0], files[1], &d);
  if (!g) {
    twill_diag_print(&d, stderr);
    return TWILL_EXIT_USAGE;
  }
  FILE *f = outp ? fopen(outp, "w") : stdout;
  if (!f) {
    fprintf(stderr, "%s: cannot open for writing: %s\n", outp,
            strerror(errno));
    twill_graph_free(g);
    return TWILL_EXIT_USAGE;
  }
  int bad = twill_graph_print_json(g, f);
  if (outp) bad |= fclose(f) != 0;
  else bad |= fflush(f) != 0;
  twill_graph_free(g);
  if (bad) {
    fprintf(stderr, "%s: write error\n", outp ? outp : "<stdout>");
    return TWILL_EXIT_USAGE;
  }
  return TWILL_EXIT_OK;
}
