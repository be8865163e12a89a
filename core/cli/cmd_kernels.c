/* core/cli/cmd_kernels.c: `twill kernels`, the built-in kernel list. */
#include <string.h>

#include "twill/builtin.h"
#include "cli.h"
#include "twill/suggest.h"

int twill_cmd_kernels(int argc, char **argv) {
  const char *print = NULL;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (!a.opt) return twill_cli_error("kernels", "unexpected argument '%s'", a.val);
    if (twill_cli_is(&a, "--print")) {
      if (print) return twill_cli_error("kernels", "--print given twice");
      print = a.val;
    }
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (print) {
    const char *t = twill_builtin_kernel(print);
    if (!t) {
      twill_suggest s;
      twill_suggest_init(&s, print);
      for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++)
        twill_suggest_add(&s, k->name);
      const char *best = twill_suggest_best(&s);
      fprintf(stderr, "twill kernels: no built-in kernel '%s'", print);
      if (best) fprintf(stderr, "; did you mean '%s'?", best);
      fprintf(stderr, "\n");
      return TWILL_EXIT_USAGE;
    }
    fputs(t, stdout);
    return TWILL_EXIT_OK;
  }
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
