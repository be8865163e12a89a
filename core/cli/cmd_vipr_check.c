/* core/cli/cmd_vipr_check.c: `twill vipr-check FILE.vipr`: prints
 * "s VERIFIED" (exit 0) or the reason on stderr and "s NOT VERIFIED"
 * (exit 1). */
#include <stdio.h>

#include "cli.h"
#include "twill/vipr.h"

int twill_cmd_vipr_check(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: twill vipr-check FILE.vipr\n");
    return 1;
  }
  char msg[600];
  int rc = twill_vipr_check_file(argv[1], msg, sizeof msg);
  if (rc == 0) {
    printf("c %s\ns VERIFIED\n", msg);
    return 0;
  }
  fprintf(stderr, "%s\n", msg);
  printf("s NOT VERIFIED\n");
  return 1;
}
