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
#include "twill/launch.h"

typedef struct opts {
  const char *kernel, *cert, *arch;
  long warps, regs, budget, max_warps;
  int no_cross, solve_flags;
  int nrel;
  int rel_kind[TWILL_JOINT_MAX_RELS];
  const char *rel_list[TWILL_JOINT_MAX_RELS];
} opts;

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->budget = 300;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    int e = 0;
    if (!a.opt) {
      if (!o->kernel) o->kernel = a.val;
      else if (!o->cert) o->cert = a.val;
      else return twill_cli_error("check", "too many arguments");
    } else if (twill_cli_is(&a, "--arch")) o->arch = a.val;
    else if (twill_cli_is(&a, "--no-normalize")) o->budget = 0;
    else if (twill_cli_is(&a, "--budget")) e = twill_cli_long(&a, 1, 100000, &o->budget);
    else if (twill_cli_is(&a, "--no-cross-warp")) o->no_cross = 1, o->solve_flags = 1;
    else if (twill_cli_is(&a, "--warps")) e = twill_cli_long(&a, 1, 64, &o->warps), o->solve_flags = 1;
    else if (twill_cli_is(&a, "--regs")) e = twill_cli_long(&a, 1, 255, &o->regs), o->solve_flags = 1;
    else if (twill_cli_is(&a, "--max-warps"))
      e = twill_cli_long(&a, 1, TWILL_LAUNCH_MAX, &o->max_warps), o->solve_flags = 1;
    else if (twill_cli_is(&a, "--same") || twill_cli_is(&a, "--apart") ||
             twill_cli_is(&a, "--own") || twill_cli_is(&a, "--lead")) {
      if (o->nrel == TWILL_JOINT_MAX_RELS)
        return twill_cli_error("check", "more than %d relations", TWILL_JOINT_MAX_RELS);
      o->rel_kind[o->nrel] = twill_rel_parse_kind(a.opt + 2);
      o->rel_list[o->nrel++] = a.val;
      o->solve_flags = 1;
    }
    if (e) return TWILL_EXIT_USAGE;
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!o->kernel || !o->cert) return twill_cli_error("check", "need KERNEL and CERT");
  if (o->warps && o->max_warps)
    return twill_cli_error("check", "--warps fixes the warp count; --max-warps searches it");
  if (!strcmp(o->kernel, "-") && !strcmp(o->cert, "-"))
    return twill_cli_error("check", "KERNEL and CERT cannot both be standard input");
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
    return twill_cli_error("check", "--warps, --max-warps, --regs, --no-cross-warp and relations are "
                           "parameters of solve certificates; %s is not one", o.cert);
  }
  twill_graph *g;
  twill_arch *m;
  if (twill_cli_load_kernel(o.kernel, o.arch, "twill check: --arch", &g, &m)) {
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
  /* --warps N: the launch of N warps (twill/launch.h), as `twill solve
   * --warps N` derives it; else the certificate answers over every
   * runnable warp count up to --max-warps or the machine's warps, and the
   * checker derives each one's parameters from p itself */
  if (solve && o.warps) {
    char why[300];
    twill_joint_params q;
    if (twill_launch_params(&p, m->max_regs_thread, (int)o.warps, &q, why, sizeof why)) {
      rc = twill_cli_error("check", "--warps %ld on %s: %s", o.warps, m->name, why);
      twill_joint_relset_free(&rels);
      twill_graph_free(g);
      twill_arch_free(m);
      free(cert);
      return rc;
    }
    p = q;
  }
  int wmax = o.warps ? 0 : (int)(o.max_warps ? o.max_warps : m->warps);
  twill_check_subject s = {g, m, o.budget, solve ? &p : NULL, solve ? wmax : 0};
  char msg[4000];
  int bad = twill_check_cert(&s, cert, len, NULL, msg, sizeof msg);
  if (bad) {
    /* the reader's "certificate:LINE: why" becomes CERT:LINE: why */
    static const char pre[] = "certificate:";
    if (!strncmp(msg, pre, sizeof pre - 1))
      fprintf(stderr, "%s:%s\n", o.cert, msg + sizeof pre - 1);
    else
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
