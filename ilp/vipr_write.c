/* ilp/vipr_write.c: VIPR certificate writer (stub, see below). */
#include "model.h"

int twill_ilp_write_vipr(const twill_ilp *m, FILE *f) {
  (void)m;
  (void)f;
  return -1;
}
