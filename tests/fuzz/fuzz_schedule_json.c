/* tests/fuzz/fuzz_schedule_json.c: the schedule JSON reader never crashes,
 * leaks or loops; whatever it accepts binds to fig1 or is refused with a
 * message, and a bound schedule goes through the validator and, if valid,
 * every emitter. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "twill/builtin.h"
#include "twill/codegen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_sched_file *sf =
      twill_sched_file_parse((const char *)data, size, "fuzz.json", &d);
  if (!sf) {
    if (!d.msg[0]) __builtin_trap();
    return 0;
  }
  const char *text = twill_builtin_kernel("fig1");
  twill_graph *g = twill_graph_parse_text(text, strlen(text), "fig1", &d);
  twill_arch *m = twill_arch_load("hopper", &d);
  if (g && m && !twill_graph_bind(g, m, &d)) {
    twill_schedule *s = twill_sched_file_bind(sf, g, "fuzz.json", &d);
    char why[256];
    if (s && s->ii <= 4096 && !twill_schedule_validate(g, m, s, why, sizeof why)) {
      FILE *null = fopen("/dev/null", "w");
      if (null) {
        for (int f = 0; f < TWILL_EMIT_NFORMATS; f++)
          twill_emit(g, m, s, (twill_emit_format)f, NULL, null);
        fclose(null);
      }
    }
    twill_schedule_free(s);
  }
  twill_graph_free(g);
  twill_arch_free(m);
  twill_sched_file_free(sf);
  return 0;
}
