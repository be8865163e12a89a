/* tests/fuzz/fuzz_schedule_json.c: the schedule JSON reader never crashes,
 * leaks or loops; whatever it accepts is drawn the way `twill emit` draws
 * it: the kernel it carries ("source", else fig1), its machine ("machine",
 * else hopper), "warp_count", the normalized graph rebuilt from
 * "normalization" (twill_normalize_kernel_apply, which must refuse a
 * mapping that lacks a cost with a message), the times bound or refused
 * with a message, and a valid schedule through every emitter with the
 * file's units (norm, source, heuristic). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "twill/builtin.h"
#include "twill/codegen.h"
#include "twill/kernel.h"
#include "twill/normalize.h"

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
  twill_graph *g0 = NULL;
  if (sf->source) {
    g0 = twill_graph_clone(sf->source);
  } else {
    const char *text = twill_builtin_kernel("fig1");
    g0 = twill_graph_parse_text(text, strlen(text), "fig1", &d);
  }
  twill_arch *m = sf->machine
                      ? twill_arch_parse(sf->machine, strlen(sf->machine), "m", &d)
                      : twill_arch_load("hopper", &d);
  twill_graph *g = NULL;
  if (g0 && m && !twill_graph_validate(g0, &d) && !twill_graph_bind(g0, m, &d)) {
    if (sf->warp_count > 0 && sf->warp_count <= 1024) m->warps = sf->warp_count;
    char why[256] = "";
    g = twill_normalize_kernel_apply(g0, m->cross_warp, &sf->norm, why, sizeof why);
    if (!g && !why[0]) __builtin_trap();
  }
  if (g) {
    twill_schedule *s = twill_sched_file_bind(sf, g, "fuzz.json", &d);
    if (!s && !d.msg[0]) __builtin_trap();
    char why[256];
    if (s && s->ii <= 4096 && !twill_schedule_validate(g, m, s, why, sizeof why)) {
      twill_emit_opts o = {sf->heuristic, NULL, g0, sf->norm.n > 0 ? &sf->norm : NULL};
      FILE *null = fopen("/dev/null", "w");
      if (null) {
        for (int f = 0; f < TWILL_EMIT_NFORMATS; f++)
          twill_emit(g, m, s, (twill_emit_format)f, &o, null);
        fclose(null);
      }
    }
    twill_schedule_free(s);
  }
  twill_graph_free(g);
  twill_graph_free(g0);
  twill_arch_free(m);
  twill_sched_file_free(sf);
  return 0;
}
