/* tests/fuzz/fuzz_arch.c: libFuzzer target for the .arch parser: parse;
 * when it parses, print, re-parse and require the same printed bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/arch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  twill_diag d;
  twill_arch *m = twill_arch_parse((const char *)data, size, "fuzz", &d);
  if (!m) return 0;
  char *a = NULL, *b = NULL;
  size_t la = 0, lb = 0;
  FILE *f = open_memstream(&a, &la);
  twill_arch_print(m, f);
  fclose(f);
  twill_arch *m2 = twill_arch_parse(a, la, "printed", &d);
  if (!m2) abort();
  f = open_memstream(&b, &lb);
  twill_arch_print(m2, f);
  fclose(f);
  if (la != lb || memcmp(a, b, la)) abort();
  free(a);
  free(b);
  twill_arch_free(m);
  twill_arch_free(m2);
  return 0;
}
