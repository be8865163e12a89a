/* core/schedule/kernel.c: a kernel bound to its machine (twill/kernel.h). */
#include <stdlib.h>
#include <string.h>

#include "twill/builtin.h"
#include "twill/io.h"
#include "twill/kernel.h"
#include "twill/suggest.h"

int twill_graph_bind(twill_graph *g, const twill_arch *m, twill_diag *d) {
  for (int u = 0; u < g->nunits; u++) {
    twill_unit *un = &g->units[u];
    if (un->declared) continue;
    int cap = m ? twill_arch_unit_cap(m, un->name) : -1;
    if (cap < 1) {
      if (m)
        return twill_diag_set(d, "", un->line, 0,
                              "unit '%s' is not declared in the kernel and "
                              "machine '%s' has no such unit",
                              un->name, m->name);
      return twill_diag_set(d, "", un->line, 0,
                            "unit '%s' is not declared and no machine is "
                            "given",
                            un->name);
    }
    un->capacity = cap;
  }
  /* tensor memory exists on some machines only (Blackwell's TMEM; Hopper
   * has none): an op that keeps its result there cannot run elsewhere, and
   * the joint model would otherwise drop the memory it needs (tmem_cap < 0
   * means "none", not "unlimited") */
  if (m && twill_arch_mem_cap(m, "tmem") < 0)
    for (int v = 0; v < g->nops; v++)
      if (g->ops[v].tmem > 0)
        return twill_diag_set(d, "", g->ops[v].line, g->ops[v].col,
                              "op '%s' holds tmem %ld but machine '%s' has "
                              "no tensor memory",
                              g->ops[v].name, g->ops[v].tmem, m->name);
  for (int v = 0; v < g->nops; v++) {
    const twill_op *o = &g->ops[v];
    for (int k = 0; k < o->nuses; k++)
      if (o->uses[k].count > g->units[o->uses[k].unit].capacity)
        return twill_diag_set(
            d, "", o->line, 0,
            "op '%s' needs %d instances of unit '%s' in one cycle but the "
            "unit has %d",
            o->name, o->uses[k].count, g->units[o->uses[k].unit].name,
            g->units[o->uses[k].unit].capacity);
  }
  return 0;
}

/* Validate g (parsed from file), load its machine and bind; takes g. */
static int finish(twill_graph *g, const char *file, const char *arch_override,
                  twill_graph **gp, twill_arch **mp, twill_diag *d) {
  twill_arch *m = NULL;
  if (!g) goto fail;
  if (twill_graph_validate(g, d)) {
    snprintf(d->file, sizeof d->file, "%s", file);
    goto fail;
  }
  const char *an = arch_override ? arch_override : g->arch ? g->arch : "hopper";
  m = twill_arch_load(an, d);
  if (!m) {
    /* a machine the file names but that does not exist: at its name in
     * the file (an override has no position; the caller says where it
     * came from) */
    if (!arch_override && g->arch && !d->file[0]) {
      snprintf(d->file, sizeof d->file, "%s", file);
      d->line = g->arch_line;
      d->col = g->arch_col;
    }
    goto fail;
  }
  if (twill_graph_bind(g, m, d)) {
    snprintf(d->file, sizeof d->file, "%s", file);
    goto fail;
  }
  *gp = g;
  *mp = m;
  return 0;
fail:
  twill_graph_free(g);
  twill_arch_free(m);
  return -1;
}

int twill_kernel_load_text(const char *text, size_t len, const char *file,
                           const char *arch_override, twill_graph **gp,
                           twill_arch **mp, twill_diag *d) {
  return finish(twill_graph_parse_any(text, len, file, d), file, arch_override,
                gp, mp, d);
}

int twill_kernel_load(const char *kernel, const char *arch_override,
                      twill_graph **gp, twill_arch **mp, twill_diag *d) {
  char file[TWILL_DIAG_FILE];
  const char *text = twill_builtin_kernel(kernel);
  if (text) {
    snprintf(file, sizeof file, "<builtin>/%s.twill", kernel);
    return finish(twill_graph_parse_text(text, strlen(text), file, d), file,
                  arch_override, gp, mp, d);
  }
  snprintf(file, sizeof file, "%s", strcmp(kernel, "-") ? kernel : "<stdin>");
  size_t len = 0;
  char *buf = twill_read_file(kernel, &len, d);
  if (!buf) {
    /* a name that is neither built in nor a file: say both */
    char why[TWILL_DIAG_MSG];
    const char *r = d->msg;
    if (!strncmp(r, "cannot open: ", 13)) r += 13;
    snprintf(why, sizeof why, "%s", r);
    /* a bare word close to a built-in name is likely a typo of it */
    const char *best = NULL;
    if (!strchr(kernel, '/')) {
      twill_suggest s;
      twill_suggest_init(&s, kernel);
      for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++)
        twill_suggest_add(&s, k->name);
      best = twill_suggest_best(&s);
    }
    twill_diag_set(d, file, 0, 0,
                   "not a built-in kernel (see 'twill kernels') and cannot be "
                   "opened: %.120s%s%s%s",
                   why, best ? "; did you mean '" : "", best ? best : "",
                   best ? "'?" : "");
    return -1;
  }
  int r = twill_kernel_load_text(buf, len, file, arch_override, gp, mp, d);
  free(buf);
  return r;
}
