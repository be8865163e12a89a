/* tests/linkmap/check_only.c: `twill check KERNEL CERT` (machine from the
 * kernel, its default parameters, budget 300) linked from the checker's
 * objects alone: core/check/, sat/smt_check.o, ilp/check/vipr_check.o and
 * vipr_num.o, the graph and machine readers, and the validators
 * core/schedule/schedule.o and core/joint/joint_model.o (the Makefile's
 * CHECK_ONLY_OBJ).  That it links at all shows that the checker calls no
 * search code: no encoder, SAT or SMT solver, simplex, branch and bound or
 * normalization program is in the link.  tests/linkmap/check_only.sh runs
 * it on certificates the full program writes. */
#include <stdio.h>
#include <stdlib.h>

#include "twill/check.h"
#include "twill/io.h"
#include "twill/kernel.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: check_only KERNEL CERT\n");
    return 1;
  }
  twill_graph *g;
  twill_arch *m;
  twill_diag d;
  if (twill_kernel_load(argv[1], NULL, &g, &m, &d)) {
    twill_diag_print(&d, stderr);
    return 1;
  }
  size_t len;
  char *c = twill_read_file(argv[2], &len, &d);
  if (!c) {
    twill_diag_print(&d, stderr);
    return 1;
  }
  twill_joint_params p;
  twill_joint_params_default(&p, m);
  /* `twill check` without --warps: the launch search up to the machine's
   * warps (twill/launch.h) */
  twill_check_subject s = {g, m, 300, &p, m->warps};
  char msg[4000];
  int rc = twill_check_cert(&s, c, len, NULL, msg, sizeof msg);
  if (rc) fprintf(stderr, "%s: %s\n", argv[2], msg);
  printf(rc ? "s NOT VERIFIED\n" : "c %s\ns VERIFIED\n", msg);
  free(c);
  twill_graph_free(g);
  twill_arch_free(m);
  return rc;
}
