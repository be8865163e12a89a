/* tests/fuzz/fuzz_twill_text.c: libFuzzer target for the .twill text
 * parser: parse; when it parses, print (text and JSON), re-parse and
 * require the same printed bytes. */
#include <stdint.h>

#include "fuzz_graph_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  twill_diag d;
  twill_graph *g = twill_graph_parse_text((const char *)data, size, "fuzz", &d);
  if (!g) return 0;
  fz_check_graph(g);
  twill_graph_free(g);
  return 0;
}
