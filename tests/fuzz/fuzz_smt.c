/* tests/fuzz/fuzz_smt.c: the `twill smt` reader, a short solve of what it
 * accepts (small problems, conflict-bounded), and the certificate checker
 * on the raw input and on the certificate of the solve. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "twill/smt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[256];
  twill_smt_check_proof((const char *)data, size, err, sizeof err);
  twill_smt_problem p;
  if (twill_smt_parse("fuzz.smt", (const char *)data, size, 1, &p, err, sizeof err)) return 0;
  int small = 1;
  for (int i = 0; i < twill_smt_num_ints(p.m); i++)
    if (twill_smt_ub(p.m, i) - twill_smt_lb(p.m, i) > 200) small = 0;
  if (small && twill_smt_num_ints(p.m) <= 20) {
    twill_smt_set_time_limit(p.m, 1);
    int64_t opt;
    int r = p.obj >= 0 ? twill_smt_minimize(p.m, p.obj, &opt) : twill_smt_solve(p.m);
    if (r == 20 || (r == 10 && p.obj >= 0)) {
      char *buf = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&buf, &len);
      if (f) {
        twill_smt_write_proof(p.m, f);
        fclose(f);
        if (twill_smt_check_proof(buf, len, err, sizeof err) != 1) abort();
        free(buf);
      }
    }
  }
  twill_smt_problem_free(&p);
  return 0;
}
