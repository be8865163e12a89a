/* tests/fuzz/fuzz_dimacs.c: libFuzzer target for the DIMACS reader; what
 * parses is also solved under a small conflict limit (a formula that
 * parses must never crash the solver), and a model is checked. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "twill/dimacs.h"
#include "twill/sat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  twill_cnf cnf;
  char err[256], warn[256];
  if (twill_dimacs_parse("fuzz.cnf", (const char *)data, size, &cnf, err, sizeof err, warn,
                         sizeof warn))
    return 0;
  if (cnf.nvars > 100000) {
    twill_cnf_free(&cnf);
    return 0;
  }
  twill_sat *s = twill_sat_new();
  if (!s) {
    twill_cnf_free(&cnf);
    return 0;
  }
  size_t st = 0;
  for (size_t i = 0; i < cnf.nlits; i++)
    if (cnf.lits[i] == 0) {
      twill_sat_add_clause(s, cnf.lits + st, (int)(i - st));
      st = i + 1;
    }
  twill_sat_set_conflict_limit(s, 1000);
  if (twill_sat_solve(s) == TWILL_SAT_SAT) {
    int sat = 0;
    for (size_t i = 0; i < cnf.nlits; i++) {
      if (cnf.lits[i] == 0) {
        if (!sat) abort(); /* model violates a clause */
        sat = 0;
      } else if (twill_sat_value(s, cnf.lits[i]) == 1)
        sat = 1;
    }
  }
  twill_sat_free(s);
  twill_cnf_free(&cnf);
  return 0;
}
