/* core/cli/cmd_vipr_check.c: `twill vipr-check FILE.vipr`: prints
 * "s VERIFIED" (exit 0) or the reason on stderr and "s NOT VERIFIED"
 * (exit 1). */
#include <stdio.h>

#include "cli.h"
#include "twill/vipr.h"

int twill_cmd_vipr_check(int argc, char **argv) {
  const char *file = NULL;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (file) return twill_cli_error("vipr-check", "extra argument '%s'", a.val);
    file = a.val; /* no options: every one read is an operand */
  }
  if (r < 0) return 1;
  if (!file) return twill_cli_error("vipr-check", "no certificate given");
  char msg[600];
  int rc = twill_vipr_check_file(file, msg, sizeof msg);
  if (rc == 0) {
    printf("c %s\ns VERIFIED\n", msg);
    return 0;
  }
  fprintf(stderr, "%s\n", msg);
  printf("s NOT VERIFIED\n");
  return 1;
}
