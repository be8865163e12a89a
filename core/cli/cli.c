/* core/cli/cli.c: helpers shared by the subcommands: usage errors, loading a
 * kernel with its machine, the log callback and SIGINT. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/io.h"
#include "twill/kernel.h"

#include <signal.h>

#include "twill/ilp.h"
#include "twill/sat.h"

int twill_cli_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "twill %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try 'twill help %s')\n", cmd);
  return TWILL_EXIT_USAGE;
}

int twill_cli_load_kernel(const char *kernel, const char *arch_override,
                          const char *arch_from, twill_graph **gp,
                          twill_arch **mp) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  if (twill_kernel_load(kernel, arch_override, gp, mp, &d) == 0) return 0;
  if (!d.file[0] && arch_override && arch_from)
    fprintf(stderr, "%s: ", arch_from);
  twill_diag_print(&d, stderr);
  return -1;
}

int twill_cli_load_kernel_text(const char *text, size_t len, const char *file,
                               const char *arch_override, const char *arch_from,
                               twill_graph **gp, twill_arch **mp) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  if (twill_kernel_load_text(text, len, file, arch_override, gp, mp, &d) == 0)
    return 0;
  if (!d.file[0] && arch_override && arch_from)
    fprintf(stderr, "%s: ", arch_from);
  twill_diag_print(&d, stderr);
  return -1;
}

void twill_cli_log(void *ctx, const char *line) {
  (void)ctx;
  fprintf(stderr, "twill: %s\n", line);
}

char *twill_cli_read_file(const char *path, size_t *len) {
  twill_diag d;
  return twill_read_file(path, len, &d);
}

/* SIGINT during a search: every SAT and ILP solve stops at its next check,
 * as if its time limit had struck, so the command reports the best
 * schedule found and the best proven bound and exits 3. */
static void on_interrupt(int sig) {
  (void)sig;
  twill_sat_interrupt_all();
  twill_ilp_interrupt_all();
}

void twill_cli_catch_interrupt(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
}
