/* tests/fuzz/fuzz_mps.c: the MPS reader, and a short certified solve of
 * what it accepts (node and time limits keep each input fast).  A
 * certificate the writer produces must pass the independent checker: a
 * rejected one is a soundness bug of the solver or its cuts, and traps. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "twill/ilp.h"
#include "twill/vipr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[256];
  twill_ilp *m = twill_ilp_parse_mps((const char *)data, size, "fuzz.mps", err, sizeof err);
  if (!m) return 0;
  if (twill_ilp_num_vars(m) <= 50 && twill_ilp_num_rows(m) <= 50) {
    twill_ilp_set_node_limit(m, 20);
    twill_ilp_set_time_limit(m, 1);
    twill_ilp_set_certify(m, 1);
    twill_ilp_status st = twill_ilp_solve(m);
    if (st == TWILL_ILP_OPTIMAL || st == TWILL_ILP_INFEASIBLE) {
      char *buf = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&buf, &len);
      if (f) {
        int w = twill_ilp_write_vipr(m, f);
        fclose(f);
        char msg[256];
        if (w == 0 && twill_vipr_check_mem("fuzz", buf, len, msg, sizeof msg) != 0) {
          fprintf(stderr, "certificate rejected: %s\n", msg);
          __builtin_trap();
        }
        free(buf);
      }
    }
  }
  twill_ilp_free(m);
  return 0;
}
