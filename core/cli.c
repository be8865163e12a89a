/* core/cli.c: helpers shared by the subcommands: numbers from the command
 * line, usage errors, and loading a kernel with its machine. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "twill/builtin.h"
#include "twill/cli.h"

#include <signal.h>

#include "twill/ilp.h"
#include "twill/sat.h"

/* Command-line values are reported like file positions so that scripts
 * parse every error the same way: <command line>:1:ARGI. */
int twill_cli_long(const char *opt, const char *arg, int argi, long lo,
                   long hi, long *out) {
  char *end = NULL;
  errno = 0;
  long v = arg ? strtol(arg, &end, 10) : 0;
  if (!arg || !*arg || *end || errno || v < lo || v > hi) {
    fprintf(stderr,
            "<command line>:1:%d: %s expects an integer in [%ld, %ld], got "
            "'%s'\n",
            argi, opt, lo, hi, arg ? arg : "");
    return -1;
  }
  *out = v;
  return 0;
}

int twill_cli_double(const char *opt, const char *arg, int argi, double lo,
                     double hi, double *out) {
  char *end = NULL;
  errno = 0;
  double v = arg ? strtod(arg, &end) : 0;
  if (!arg || !*arg || *end || errno || !isfinite(v) || v < lo || v > hi) {
    fprintf(stderr,
            "<command line>:1:%d: %s expects a number in [%g, %g], got "
            "'%s'\n",
            argi, opt, lo, hi, arg ? arg : "");
    return -1;
  }
  *out = v;
  return 0;
}

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
                          twill_graph **gp, twill_arch **mp) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_graph *g = NULL;
  twill_arch *m = NULL;
  const char *text = twill_builtin_kernel(kernel);
  char file[TWILL_DIAG_FILE];
  if (text) {
    snprintf(file, sizeof file, "<builtin>/%s.twill", kernel);
    g = twill_graph_parse_text(text, strlen(text), file, &d);
  } else {
    snprintf(file, sizeof file, "%s", kernel);
    FILE *f = fopen(kernel, "rb");
    if (!f) {
      fprintf(stderr,
              "%s: not a built-in kernel (see 'twill kernels') and cannot be "
              "opened: %s\n",
              kernel, strerror(errno));
      return -1;
    }
    fclose(f);
    g = twill_graph_load_file(kernel, &d);
  }
  if (!g) goto fail;
  if (twill_graph_validate(g, &d)) {
    memcpy(d.file, file, sizeof d.file);
    goto fail;
  }
  const char *an = arch_override ? arch_override : g->arch ? g->arch : "hopper";
  m = twill_arch_load(an, &d);
  if (!m) goto fail;
  if (twill_graph_bind(g, m, &d)) {
    memcpy(d.file, file, sizeof d.file);
    goto fail;
  }
  *gp = g;
  *mp = m;
  return 0;
fail:
  twill_diag_print(&d, stderr);
  twill_graph_free(g);
  twill_arch_free(m);
  return -1;
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
