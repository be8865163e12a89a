/* core/cli/cmd_check.c: `twill check KERNEL CERT`, the independent verifier.
 *
 * Everything the claim is about comes from this command line, never from
 * the certificate: the kernel, the machine (the kernel's `arch` line, or
 * --arch), the normalization budget (300, --budget U or --no-normalize) and,
 * for a solve certificate, the joint problem's parameters (the machine's,
 * with --warps, --regs, --no-cross-warp and the relations, exactly as
 * `twill solve` derives them).  The certificate states them too; a
 * difference is a rejection that names the value.  The library side
 * (twill_check_cert, core/check/) calls no search code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/check.h"
#include "twill/joint.h"

typedef struct opts {
  const char *kernel, *cert, *arch;
  long warps, regs, budget;
  int no_cross, solve_flags;
  int nrel;
  int rel_kind[TWILL_JOINT_MAX_RELS];
  const char *rel_list[TWILL_JOINT_MAX_RELS];
} opts;

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->budget = 300;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--no-normalize")) o->budget = 0;
    else if (!strcmp(a, "--no-cross-warp")) o->no_cross = 1, o->solve_flags = 1;
    else if (!strcmp(a, "--same") || !strcmp(a, "--apart") || !strcmp(a, "--own") ||
             !strcmp(a, "--lead")) {
      if (i + 1 >= argc) return twill_cli_error("check", "%s needs a value", a);
      if (o->nrel == TWILL_JOINT_MAX_RELS)
        return twill_cli_error("check", "more than %d relations", TWILL_JOINT_MAX_RELS);
      o->rel_kind[o->nrel] = twill_rel_parse_kind(a + 2);
      o->rel_list[o->nrel++] = argv[++i];
      o->solve_flags = 1;
    } else if (!strcmp(a, "--arch")) {
      if (i + 1 >= argc) return twill_cli_error("check", "--arch needs a value");
      o->arch = argv[++i];
    } else if (!strcmp(a, "--warps") || !strcmp(a, "--regs") || !strcmp(a, "--budget")) {
      if (i + 1 >= argc) return twill_cli_error("check", "%s needs a value", a);
      const char *v = argv[++i];
      int e;
      if (!strcmp(a, "--warps")) e = twill_cli_long(a, v, i + 1, 1, 64, &o->warps), o->solve_flags = 1;
      else if (!strcmp(a, "--regs")) e = twill_cli_long(a, v, i + 1, 1, 255, &o->regs), o->solve_flags = 1;
      else e = twill_cli_long(a, v, i + 1, 1, 100000, &o->budget);
      if (e) return TWILL_EXIT_USAGE;
    } else if (a[0] == '-' && a[1]) {
      return twill_cli_error("check", "unknown option '%s'", a);
    } else if (!o->kernel) {
      o->kernel = a;
    } else if (!o->cert) {
      o->cert = a;
    } else {
      return twill_cli_error("check", "too many arguments");
    }
  }
  if (!o->kernel || !o->cert) return twill_cli_error("check", "need KERNEL and CERT");
  return 0;
}

int twill_cmd_check(int argc, char **argv) {
  opts o;
  int rc = parse(argc, argv, &o);
  if (rc) return rc;
  size_t len = 0;
  char *cert = twill_cli_read_file(o.cert, &len);
  if (!cert) {
    fprintf(stderr, "%s: cannot read: %s\n", o.cert, strerror(errno));
    return TWILL_EXIT_USAGE;
  }
  static const char solve_magic[] = "twill-certificate 2 solve\n";
  int solve = len >= sizeof solve_magic - 1 && !memcmp(cert, solve_magic, sizeof solve_magic - 1);
  if (!solve && o.solve_flags) {
    free(cert);
    return twill_cli_error("check", "--warps, --regs, --no-cross-warp and relations are "
                           "parameters of solve certificates; %s is not one", o.cert);
  }
  twill_graph *g;
  twill_arch *m;
  if (twill_cli_load_kernel(o.kernel, o.arch, &g, &m)) {
    free(cert);
    return TWILL_EXIT_USAGE;
  }
  twill_joint_params p;
  twill_joint_relset rels = {NULL, 0};
  if (solve && (rc = twill_cli_joint_params("check", g, m, o.warps, o.regs, o.no_cross, o.nrel,
                                            o.rel_kind, o.rel_list, &p, &rels))) {
    twill_graph_free(g);
    twill_arch_free(m);
    free(cert);
    return rc;
  }
  twill_check_subject s = {g, m, o.budget, solve ? &p : NULL};
  char msg[4000];
  int bad = twill_check_cert(&s, cert, len, NULL, msg, sizeof msg);
  if (bad) {
    fprintf(stderr, "%s: %s\n", o.cert, msg);
    printf("s NOT VERIFIED\n");
  } else {
    printf("c %s\ns VERIFIED\n", msg);
  }
  twill_joint_relset_free(&rels);
  twill_graph_free(g);
  twill_arch_free(m);
  free(cert);
  return bad ? TWILL_EXIT_USAGE : TWILL_EXIT_OK;
}
