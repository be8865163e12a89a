/* core/cli/cmd_check.c: `twill check KERNEL CERT`, the independent verifier. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/joint.h"
#include "twill/modulo.h"
#include "twill/normalize.h"

/* The value of header key KEY (a line "KEY VALUE") into out. */
static int header_value(const char *cert, size_t len, const char *key,
                        char *out, size_t n) {
  size_t k = strlen(key);
  const char *p = cert, *end = cert + len;
  while (p < end) {
    const char *e = memchr(p, '\n', (size_t)(end - p));
    size_t l = e ? (size_t)(e - p) : (size_t)(end - p);
    if (l > k && !strncmp(p, key, k) && p[k] == ' ') {
      size_t m = l - k - 1 < n - 1 ? l - k - 1 : n - 1;
      memcpy(out, p + k + 1, m);
      out[m] = 0;
      return 0;
    }
    if (l >= 4 && !strncmp(p, "vipr", 4)) break; /* header ends */
    p = e ? e + 1 : end;
  }
  return -1;
}

/* Where the machine came from, for its diagnostic: --arch, or the
 * certificate's header line. */
static const char *arch_from(const char *arch, const char *archname,
                             const char *certp) {
  static char buf[300];
  if (arch != archname) return "twill check: --arch";
  snprintf(buf, sizeof buf, "%s: its 'arch' line", certp);
  return buf;
}

static int check_solve(const char *kernel, const char *arch, char *cert,
                       size_t len, const char *certp) {
  char archname[256];
  if (!arch && !header_value(cert, len, "arch", archname, sizeof archname))
    arch = archname;
  twill_graph *g;
  twill_arch *m;
  if (twill_cli_load_kernel(kernel, arch, arch_from(arch, archname, certp), &g, &m)) {
    free(cert);
    return TWILL_EXIT_USAGE;
  }
  char msg[800];
  int bad = twill_solve_check_cert(g, m, cert, len, msg, sizeof msg);
  if (bad) {
    fprintf(stderr, "%s: %s\n", certp, msg);
    printf("s NOT VERIFIED\n");
  } else {
    printf("c %s\ns VERIFIED\n", msg);
  }
  twill_graph_free(g);
  twill_arch_free(m);
  free(cert);
  return bad ? TWILL_EXIT_USAGE : TWILL_EXIT_OK;
}

int twill_cmd_check(int argc, char **argv) {
  const char *kernel = NULL, *certp = NULL, *arch = NULL;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (a.opt) {
      if (twill_cli_is(&a, "--arch")) arch = a.val;
    } else if (!kernel) kernel = a.val;
    else if (!certp) certp = a.val;
    else return twill_cli_error("check", "too many arguments");
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!kernel || !certp) return twill_cli_error("check", "need KERNEL and CERT");
  if (!strcmp(kernel, "-") && !strcmp(certp, "-"))
    return twill_cli_error("check", "KERNEL and CERT cannot both be standard input");
  size_t len = 0;
  char *cert = twill_cli_read_file(certp, &len);
  if (!cert) {
    fprintf(stderr, "%s: cannot read: %s\n", certp, strerror(errno));
    return TWILL_EXIT_USAGE;
  }
  static const char solve_magic[] = "twill-certificate 1 solve\n";
  if (len >= sizeof solve_magic - 1 && !memcmp(cert, solve_magic, sizeof solve_magic - 1))
    return check_solve(kernel, arch, cert, len, certp);
  char archname[256], norm[64];
  if (!arch && !header_value(cert, len, "arch", archname, sizeof archname))
    arch = archname;
  long budget = 0;
  if (!header_value(cert, len, "normalize", norm, sizeof norm) &&
      strcmp(norm, "off"))
    budget = strtol(norm, NULL, 10);
  twill_graph *g0, *g;
  twill_arch *m;
  if (twill_cli_load_kernel(kernel, arch, arch_from(arch, archname, certp), &g0, &m)) {
    free(cert);
    return TWILL_EXIT_USAGE;
  }
  twill_norm nm;
  memset(&nm, 0, sizeof nm);
  g = g0;
  if (budget > 0) g = twill_normalize_graph(g0, budget, 0, &nm);
  char msg[600] = "cannot normalize the kernel's costs";
  int bad = !g || twill_modulo_check_cert(g, cert, len, msg, sizeof msg);
  if (bad) {
    fprintf(stderr, "%s: %s\n", certp, msg);
    printf("s NOT VERIFIED\n");
  } else {
    printf("c %s\ns VERIFIED\n", msg);
  }
  if (g && g != g0) twill_graph_free(g);
  twill_graph_free(g0);
  twill_arch_free(m);
  twill_norm_clear(&nm);
  free(cert);
  return bad ? TWILL_EXIT_USAGE : TWILL_EXIT_OK;
}
