/* tests/fuzz/fuzz_hatschet.c: libFuzzer target for the HatScheT converter
 * (graph/formats/hatschet.c): its XML reader and the model mapping.
 *
 * Input: GRAPHML '\f' RM (split at the first form feed; without one the
 * whole input is the graph and a fixed small resource model is used).
 * When it converts, the graph must print and re-parse identically (as the
 * kernel-format targets require). */
#include <stdint.h>
#include <string.h>

#include "fuzz_graph_common.h"
#include "twill/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char RM_DEFAULT[] =
    "<ModelInformation><Resources>"
    "<Resource name=\"a\" latency=\"1\" limit=\"-1\" blockingTime=\"1\"/>"
    "<Resource name=\"m\" latency=\"2\" limit=\"2\" blockingTime=\"1\"/>"
    "</Resources></ModelInformation>";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  const char *ff = memchr(s, '\f', size);
  const char *rm = RM_DEFAULT;
  size_t glen = size, rlen = sizeof RM_DEFAULT - 1;
  if (ff) {
    glen = (size_t)(ff - s);
    rm = ff + 1;
    rlen = size - glen - 1;
  }
  twill_diag d;
  twill_graph *g =
      twill_hatschet_convert(s, glen, "fuzz.graphml", rm, rlen, "fuzzRM.xml", &d);
  if (!g) return 0;
  fz_check_graph(g);
  twill_graph_free(g);
  return 0;
}
