/* core/cli/cmd_kernels.c: `twill kernels`, the built-in kernel list. */
#include <string.h>

#include "twill/builtin.h"
#include "cli.h"
#include "twill/suggest.h"

int twill_cmd_kernels(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--print")) {
    const char *t = twill_builtin_kernel(argv[2]);
    if (!t) {
      twill_suggest s;
      twill_suggest_init(&s, argv[2]);
      for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++)
        twill_suggest_add(&s, k->name);
      const char *best = twill_suggest_best(&s);
      fprintf(stderr, "twill kernels: no built-in kernel '%s'", argv[2]);
      if (best) fprintf(stderr, "; did you mean '%s'?", best);
      fprintf(stderr, "\n");
      return TWILL_EXIT_USAGE;
    }
    fputs(t, stdout);
    return TWILL_EXIT_OK;
  }
  if (argc != 1) return twill_cli_error("kernels", "unexpected arguments");
  for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++) {
    char sum[200];
    twill_builtin_kernel_summary(k->name, sum, sizeof sum);
    /* the summary starts with "NAME: "; print the rest */
    const char *s = sum;
    size_t n = strlen(k->name);
    if (!strncmp(s, k->name, n) && s[n] == ':') s += n + 1;
    while (*s == ' ') s++;
    printf("%-18s %s\n", k->name, s);
  }
  return TWILL_EXIT_OK;
}
