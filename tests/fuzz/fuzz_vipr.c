/* tests/fuzz/fuzz_vipr.c: libFuzzer target for the VIPR certificate checker.
 *
 * The whole checker (tokenizer, number parser, exact arithmetic, every
 * reason) runs on the input from memory.  It must never crash, hang or
 * grow memory beyond a small multiple of the input: counts are read but
 * tables grow only as entries arrive, number tokens are capped at
 * VIPR_NUM_MAX_CHARS, exponents at VIPR_NUM_MAX_EXP and intermediate
 * numbers at VIPR_BIG_MAX_LIMBS limbs (ilp/check/vipr_num.h).
 * Seeds: tests/fuzz/seeds/vipr/ (the hand-written test certificates).
 */
#include <stddef.h>
#include <stdint.h>

#include "twill/vipr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char msg[600];
  twill_vipr_check_mem("fuzz.vipr", (const char *)data, size, msg, sizeof msg);
  return 0;
}
