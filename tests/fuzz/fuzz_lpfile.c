/* tests/fuzz/fuzz_lpfile.c: the CPLEX LP reader (ilp/lp_format.c), and a
 * short certified solve of what it accepts (node and time limits keep
 * each input fast), as fuzz_mps.c does for MPS.  A certificate the writer
 * produces must pass the independent checker: a rejected one traps.  An
 * input the reader rejects must say where: "fuzz.lp:LINE:COL: ". */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/ilp.h"
#include "twill/vipr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[256];
  twill_ilp *m = twill_ilp_parse_lp((const char *)data, size, "fuzz.lp", err, sizeof err);
  if (!m) {
    int line = 0, col = 0;
    if (sscanf(err, "fuzz.lp:%d:%d: ", &line, &col) != 2 || line < 1 || col < 1 ||
        !strstr(err, ": ")) {
      fprintf(stderr, "diagnostic without a position: %s\n", err);
      __builtin_trap();
    }
    return 0;
  }
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
