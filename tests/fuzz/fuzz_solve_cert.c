/* tests/fuzz/fuzz_solve_cert.c: libFuzzer target for the certificate
 * checker (core/check/) on the built-in fig1 with the machine's default
 * parameters and budget, the way `twill check fig1 CERT` runs it.
 *
 * The checker states the joint problem for every refutation it reads, so
 * the limits on I and L (TWILL_CHECK_MAX_TIME) are what keep a hostile
 * certificate bounded; the embedded phase-1 and twill-smt blocks go
 * through their own checkers.  Seeds: tests/fuzz/seeds/solve_cert/.
 * (tests/fuzz/fuzz_cert_claims.c judges what a verified certificate
 * claims; this target looks for crashes, leaks and hangs.)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "twill/check.h"
#include "twill/joint.h"
#include "twill/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static twill_graph *g;
  static twill_arch *m;
  static twill_joint_params p;
  if (!g) {
    twill_diag d;
    if (twill_kernel_load("fig1", NULL, &g, &m, &d)) abort();
    twill_joint_params_default(&p, m);
  }
  twill_check_subject s = {g, m, 300, &p, 0};
  char msg[4000];
  twill_check_cert(&s, (const char *)data, size, NULL, msg, sizeof msg);
  return 0;
}
