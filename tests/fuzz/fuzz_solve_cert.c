/* tests/fuzz/fuzz_solve_cert.c: libFuzzer target for the `twill solve`
 * certificate checker (core/check/cert_solve.c), against the built-in fig1.
 *
 * The checker rebuilds the joint encoding for every refutation it reads,
 * so the header limits (I, L <= 20000, warps <= 64) are what keep a hostile
 * certificate bounded; the embedded phase-1 and twill-smt blocks go through
 * their own checkers.  Seeds: tests/fuzz/seeds/solve_cert/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "twill/kernel.h"
#include "twill/joint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static twill_graph *g;
  static twill_arch *m;
  if (!g) {
    twill_diag d;
    if (twill_kernel_load("fig1", NULL, &g, &m, &d)) abort();
  }
  char msg[800];
  twill_solve_check_cert(g, m, (const char *)data, size, msg, sizeof msg);
  return 0;
}
