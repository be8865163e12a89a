/* tests/fuzz/fuzz_mps.c: the MPS reader, and a short solve of what it
 * accepts (node and time limits keep each input fast). */
#include <stddef.h>
#include <stdint.h>

#include "twill/ilp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[256];
  twill_ilp *m = twill_ilp_parse_mps((const char *)data, size, "fuzz.mps", err, sizeof err);
  if (!m) return 0;
  if (twill_ilp_num_vars(m) <= 50 && twill_ilp_num_rows(m) <= 50) {
    twill_ilp_set_node_limit(m, 20);
    twill_ilp_set_time_limit(m, 1);
    twill_ilp_solve(m);
  }
  twill_ilp_free(m);
  return 0;
}
