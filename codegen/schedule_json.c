/* codegen/schedule_json.c: schedules as JSON (docs/formats.md, "Schedules").
 *
 * Reader: {"kernel": s, "arch": s, "ii": n, "times": {op: n},
 * "warps": {op: n}, ...}.  "kernel", "ii" and "times" are required; every
 * other key ("optimal", "length", "stages", "stats", ...) is accepted and
 * not trusted: stages and length are recomputed from the times.
 * Writer: kernel, arch, ii, optimal (when known), length, times, warps,
 * stages, in that order. */
#include <stdlib.h>
#include <string.h>

#include "twill/codegen.h"
#include "twill/json.h"

#define SCHED_MAX_TIME 1000000000000L /* 1e12 cycles: beyond any kernel */

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

void twill_sched_file_free(twill_sched_file *f) {
  if (!f) return;
  free(f->kernel);
  free(f->arch);
  if (f->names)
    for (int k = 0; k < f->nops; k++) free(f->names[k]);
  free(f->names);
  free(f->times);
  free(f->warps);
  free(f);
}

static int get_int(const twill_json *v, long lo, long hi, long *out) {
  if (!v || v->type != TWILL_JSON_NUMBER || !v->is_int || v->integer < lo ||
      v->integer > hi)
    return -1;
  *out = (long)v->integer;
  return 0;
}

twill_sched_file *twill_sched_file_parse(const char *text, size_t len,
                                         const char *file, twill_diag *d) {
  twill_json *root = twill_json_parse(text, len, file, d);
  if (!root) return NULL;
  twill_sched_file *sf = NULL;
  if (root->type != TWILL_JSON_OBJECT) {
    twill_diag_set(d, file, root->line, root->col,
                   "a schedule must be a JSON object");
    goto fail;
  }
  sf = calloc(1, sizeof *sf);
  if (!sf) goto oom;
  const twill_json *k = twill_json_get(root, "kernel");
  if (!k || k->type != TWILL_JSON_STRING || !k->string[0]) {
    twill_diag_set(d, file, k ? k->line : root->line, k ? k->col : root->col,
                   "a schedule needs \"kernel\": the kernel's name or path");
    goto fail;
  }
  if (!(sf->kernel = dup_str(k->string))) goto oom;
  const twill_json *a = twill_json_get(root, "arch");
  if (a && a->type != TWILL_JSON_NULL) {
    if (a->type != TWILL_JSON_STRING || !a->string[0]) {
      twill_diag_set(d, file, a->line, a->col,
                     "\"arch\" must be a machine name or path");
      goto fail;
    }
    if (!(sf->arch = dup_str(a->string))) goto oom;
  }
  const twill_json *nz = twill_json_get(root, "normalize");
  if (nz && get_int(nz, 1, 100000, &sf->normalize)) {
    twill_diag_set(d, file, nz->line, nz->col,
                   "\"normalize\" must be the normalization budget U");
    goto fail;
  }
  const twill_json *ii = twill_json_get(root, "ii");
  if (get_int(ii, 1, SCHED_MAX_TIME, &sf->ii)) {
    twill_diag_set(d, file, ii ? ii->line : root->line,
                   ii ? ii->col : root->col,
                   "a schedule needs \"ii\": an integer in [1, %ld]",
                   SCHED_MAX_TIME);
    goto fail;
  }
  const twill_json *t = twill_json_get(root, "times");
  if (!t || t->type != TWILL_JSON_OBJECT) {
    twill_diag_set(d, file, t ? t->line : root->line, t ? t->col : root->col,
                   "a schedule needs \"times\": an object {op: start cycle}");
    goto fail;
  }
  size_t n = t->len;
  if (n > 1000000) {
    twill_diag_set(d, file, t->line, t->col, "too many ops in \"times\"");
    goto fail;
  }
  sf->nops = (int)n;
  sf->names = calloc(n ? n : 1, sizeof *sf->names);
  sf->times = calloc(n ? n : 1, sizeof *sf->times);
  sf->warps = malloc((n ? n : 1) * sizeof *sf->warps);
  if (!sf->names || !sf->times || !sf->warps) goto oom;
  for (size_t i = 0; i < n; i++) {
    if (!(sf->names[i] = dup_str(t->keys[i]))) goto oom;
    sf->warps[i] = -1;
    if (get_int(&t->items[i], 0, SCHED_MAX_TIME, &sf->times[i])) {
      twill_diag_set(d, file, t->items[i].line, t->items[i].col,
                     "start time of '%s' must be an integer in [0, %ld]",
                     t->keys[i], SCHED_MAX_TIME);
      goto fail;
    }
  }
  const twill_json *w = twill_json_get(root, "warps");
  if (w && w->type != TWILL_JSON_NULL) {
    if (w->type != TWILL_JSON_OBJECT) {
      twill_diag_set(d, file, w->line, w->col,
                     "\"warps\" must be an object {op: warp}");
      goto fail;
    }
    sf->has_warps = true;
    for (size_t i = 0; i < w->len; i++) {
      size_t j = 0;
      while (j < n && strcmp(sf->names[j], w->keys[i])) j++;
      if (j == n) {
        twill_diag_set(d, file, w->key_line ? w->key_line[i] : w->line,
                       w->key_col ? w->key_col[i] : w->col,
                       "\"warps\" names op '%s', which has no start time",
                       w->keys[i]);
        goto fail;
      }
      long wv;
      if (get_int(&w->items[i], 0, 1 << 20, &wv)) {
        twill_diag_set(d, file, w->items[i].line, w->items[i].col,
                       "warp of '%s' must be an integer in [0, %d]",
                       w->keys[i], 1 << 20);
        goto fail;
      }
      sf->warps[j] = (int)wv;
    }
  }
  twill_json_free(root);
  return sf;
oom:
  twill_diag_set(d, file, 0, 0, "out of memory");
fail:
  twill_json_free(root);
  twill_sched_file_free(sf);
  return NULL;
}

twill_schedule *twill_sched_file_bind(const twill_sched_file *f,
                                      const twill_graph *g, const char *file,
                                      twill_diag *d) {
  twill_schedule *s = twill_schedule_new(g->nops, f->ii);
  if (!s || (f->has_warps && twill_schedule_add_warps(s))) {
    twill_schedule_free(s);
    twill_diag_set(d, file, 0, 0, "out of memory");
    return NULL;
  }
  char *seen = calloc(g->nops > 0 ? (size_t)g->nops : 1, 1);
  if (!seen) {
    twill_schedule_free(s);
    twill_diag_set(d, file, 0, 0, "out of memory");
    return NULL;
  }
  for (int k = 0; k < f->nops; k++) {
    int v = twill_graph_find_op(g, f->names[k]);
    if (v < 0) {
      twill_diag_set(d, file, 0, 0, "op '%s' is not in kernel '%s'",
                     f->names[k], g->name);
      goto fail;
    }
    s->start[v] = f->times[k];
    seen[v] = 1;
    if (f->has_warps) s->warp[v] = f->warps[k];
  }
  for (int v = 0; v < g->nops; v++) {
    if (!seen[v]) {
      twill_diag_set(d, file, 0, 0, "op '%s' of kernel '%s' has no start time",
                     g->ops[v].name, g->name);
      goto fail;
    }
    if (f->has_warps && s->warp[v] < 0) {
      twill_diag_set(d, file, 0, 0, "op '%s' has no warp in \"warps\"",
                     g->ops[v].name);
      goto fail;
    }
  }
  free(seen);
  return s;
fail:
  free(seen);
  twill_schedule_free(s);
  return NULL;
}

int twill_emit_json(const twill_graph *g, const twill_arch *m,
                    const twill_schedule *s, const twill_emit_opts *opts,
                    FILE *f) {
  twill_jw w;
  twill_jw_init(&w, f, true);
  twill_jw_object_begin(&w);
  twill_jw_key(&w, "kernel");
  twill_jw_string(&w, g->name);
  if (m) {
    twill_jw_key(&w, "arch");
    twill_jw_string(&w, m->name);
  }
  twill_jw_key(&w, "ii");
  twill_jw_int(&w, s->ii);
  if (opts && opts->heuristic) {
    twill_jw_key(&w, "optimal");
    twill_jw_bool(&w, false);
  }
  twill_jw_key(&w, "length");
  twill_jw_int(&w, twill_schedule_length(g, s));
  twill_jw_key(&w, "times");
  twill_jw_object_begin(&w);
  for (int v = 0; v < g->nops; v++) {
    twill_jw_key(&w, g->ops[v].name);
    twill_jw_int(&w, s->start[v]);
  }
  twill_jw_object_end(&w);
  if (s->warp) {
    twill_jw_key(&w, "warps");
    twill_jw_object_begin(&w);
    for (int v = 0; v < g->nops; v++) {
      twill_jw_key(&w, g->ops[v].name);
      twill_jw_int(&w, s->warp[v]);
    }
    twill_jw_object_end(&w);
  }
  twill_jw_key(&w, "stages");
  twill_jw_object_begin(&w);
  for (int v = 0; v < g->nops; v++) {
    twill_jw_key(&w, g->ops[v].name);
    twill_jw_int(&w, s->ii > 0 ? s->start[v] / s->ii : 0);
  }
  twill_jw_object_end(&w);
  if (opts && opts->heuristic) {
    twill_jw_key(&w, "stats");
    twill_jw_object_begin(&w);
    twill_jw_key(&w, "source");
    twill_jw_string(&w, "heuristic schedule, not optimal");
    twill_jw_object_end(&w);
  }
  twill_jw_object_end(&w);
  return twill_jw_finish(&w);
}
