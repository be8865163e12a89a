/* codegen/schedule_json.c: schedule files, written and read
 * (docs/formats.md, "Schedules"; the fields in twill/codegen.h).
 *
 * Reader: "kernel", "ii" and "times" are required; "normalized" and
 * "normalization" come together; every other key ("optimal", "length",
 * "stages", "stats", ...) is accepted and not trusted: stages and length are
 * recomputed from the times.
 * Writer: kernel, arch, the schedule's keys (twill_sched_json_write), the
 * source kernel and machine last. */
#include <stdlib.h>
#include <string.h>

#include "twill/codegen.h"
#include "twill/json.h"

#define SCHED_MAX_TIME 1000000000000L /* 1e12 cycles: beyond any kernel */
#define SCHED_MAX_BUDGET 100000      /* the largest --budget */

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
  twill_norm_clear(&f->norm);
  twill_graph_free(f->source);
  free(f->machine);
  free(f);
}

static int get_int(const twill_json *v, long lo, long hi, long *out) {
  if (!v || v->type != TWILL_JSON_NUMBER || !v->is_int || v->integer < lo ||
      v->integer > hi)
    return -1;
  *out = (long)v->integer;
  return 0;
}

/* A cost as an object key: a positive decimal integer without sign or
 * leading zero (so that one cost has one spelling). */
static int cost_key(const char *k, long *out) {
  if (!k[0] || k[0] == '0' || strlen(k) > 13) return -1;
  long v = 0;
  for (const char *p = k; *p; p++) {
    if (*p < '0' || *p > '9') return -1;
    v = v * 10 + (*p - '0');
  }
  if (v > SCHED_MAX_TIME) return -1;
  *out = v;
  return 0;
}

/* "normalization": {"budget", "error", "costs", "real_per_normalized_cycle"} */
static int read_norm(const twill_json *nz, const char *file, twill_norm *nm,
                     twill_diag *d) {
  if (nz->type != TWILL_JSON_OBJECT)
    return twill_diag_set(d, file, nz->line, nz->col,
                          "\"normalization\" must be an object {\"budget\", "
                          "\"error\", \"costs\"}");
  long U, F;
  const twill_json *u = twill_json_get(nz, "budget");
  if (get_int(u, 1, SCHED_MAX_BUDGET, &U))
    return twill_diag_set(d, file, u ? u->line : nz->line, u ? u->col : nz->col,
                          "normalization \"budget\" must be an integer in "
                          "[1, %d]", SCHED_MAX_BUDGET);
  const twill_json *e = twill_json_get(nz, "error");
  if (get_int(e, 0, SCHED_MAX_TIME, &F))
    return twill_diag_set(d, file, e ? e->line : nz->line, e ? e->col : nz->col,
                          "normalization \"error\" must be an integer >= 0");
  const twill_json *c = twill_json_get(nz, "costs");
  if (!c || c->type != TWILL_JSON_OBJECT || c->len < 1 || c->len > 100000)
    return twill_diag_set(d, file, c ? c->line : nz->line, c ? c->col : nz->col,
                          "normalization \"costs\" must be an object {\"REAL\": "
                          "normalized} with at least one cost");
  size_t n = c->len;
  long *cost = malloc(n * sizeof *cost), *val = malloc(n * sizeof *val);
  if (!cost || !val) {
    free(cost), free(val);
    return twill_diag_set(d, file, 0, 0, "out of memory");
  }
  int bad = 0;
  for (size_t i = 0; i < n && !bad; i++) {
    int kl = c->key_line ? c->key_line[i] : c->line;
    int kc = c->key_col ? c->key_col[i] : c->col;
    if (cost_key(c->keys[i], &cost[i]))
      bad = twill_diag_set(d, file, kl, kc,
                           "normalization cost '%.40s' must be a positive "
                           "integer without leading zeros", c->keys[i]);
    else if (get_int(&c->items[i], 0, U, &val[i]))
      bad = twill_diag_set(d, file, c->items[i].line, c->items[i].col,
                           "normalized value of cost %ld must be an integer in "
                           "[0, %ld] (the budget)", cost[i], U);
  }
  char why[160];
  if (!bad && twill_norm_from_pairs(cost, val, (int)n, U, F, nm, why, sizeof why))
    bad = twill_diag_set(d, file, c->line, c->col, "normalization: %s", why);
  free(cost), free(val);
  if (bad) return -1;
  /* the scale, if given, must be the one the mapping implies */
  const twill_json *k = twill_json_get(nz, "real_per_normalized_cycle");
  if (k) {
    long num, den, a = -1, b = 1;
    twill_norm_scale(nm, &num, &den);
    if (k->type == TWILL_JSON_NUMBER && k->is_int) {
      a = (long)k->integer;
    } else if (k->type == TWILL_JSON_STRING) {
      char tail;
      if (sscanf(k->string, "%ld/%ld%c", &a, &b, &tail) != 2) a = -1;
    }
    if (a != num || b != den) {
      twill_norm_clear(nm);
      return twill_diag_set(d, file, k->line, k->col,
                            "\"real_per_normalized_cycle\" must be %ld%s%.0ld "
                            "(the largest cost over its normalized value)",
                            num, den > 1 ? "/" : "", den > 1 ? den : 0);
    }
  }
  return 0;
}

/* "times": {op: t} into names/times (allocated, n entries). */
static int read_times(const twill_json *t, const char *what, const char *file,
                      twill_sched_file *sf, twill_diag *d) {
  size_t n = t->len;
  if (n > 1000000)
    return twill_diag_set(d, file, t->line, t->col, "too many ops in %s", what);
  sf->nops = (int)n;
  sf->names = calloc(n ? n : 1, sizeof *sf->names);
  sf->times = calloc(n ? n : 1, sizeof *sf->times);
  sf->warps = malloc((n ? n : 1) * sizeof *sf->warps);
  if (!sf->names || !sf->times || !sf->warps)
    return twill_diag_set(d, file, 0, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    if (!(sf->names[i] = dup_str(t->keys[i])))
      return twill_diag_set(d, file, 0, 0, "out of memory");
    sf->warps[i] = -1;
    if (get_int(&t->items[i], 0, SCHED_MAX_TIME, &sf->times[i]))
      return twill_diag_set(d, file, t->items[i].line, t->items[i].col,
                            "start time of '%s' in %s must be an integer in "
                            "[0, %ld]", t->keys[i], what, SCHED_MAX_TIME);
  }
  return 0;
}

/* The real "ii" and "times" of a normalized file must be the normalized
 * ones scaled: the solver's values are what emit binds, and an edit of the
 * real ones would otherwise be dropped without a word. */
static int check_real(const twill_json *root, const twill_sched_file *sf,
                      const char *file, twill_diag *d) {
  long num, den, x;
  twill_norm_scale(&sf->norm, &num, &den);
  const twill_json *ii = twill_json_get(root, "ii");
  if (get_int(ii, 0, SCHED_MAX_TIME, &x) || x != twill_norm_real(sf->ii, num, den))
    return twill_diag_set(d, file, ii ? ii->line : root->line,
                          ii ? ii->col : root->col,
                          "\"ii\" must be %ld: normalized.ii %ld in real cycles "
                          "(edit normalized.ii, the solver's value)",
                          twill_norm_real(sf->ii, num, den), sf->ii);
  const twill_json *t = twill_json_get(root, "times");
  if (!t || t->type != TWILL_JSON_OBJECT || t->len != (size_t)sf->nops)
    return twill_diag_set(d, file, t ? t->line : root->line,
                          t ? t->col : root->col,
                          "\"times\" must give the %d ops of normalized.times "
                          "in real cycles", sf->nops);
  for (int i = 0; i < sf->nops; i++) {
    size_t j = (size_t)i;
    if (strcmp(t->keys[j], sf->names[i]))
      for (j = 0; j < t->len && strcmp(t->keys[j], sf->names[i]); j++) {
      }
    long want = twill_norm_real(sf->times[i], num, den);
    if (j == t->len)
      return twill_diag_set(d, file, t->line, t->col,
                            "\"times\" has no entry for '%s'", sf->names[i]);
    if (get_int(&t->items[j], 0, SCHED_MAX_TIME, &x) || x != want)
      return twill_diag_set(d, file, t->items[j].line, t->items[j].col,
                            "real time of '%s' must be %ld: normalized %ld in "
                            "real cycles (edit normalized.times, the solver's "
                            "values)", sf->names[i], want, sf->times[i]);
  }
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
  const twill_json *nz = twill_json_get(root, "normalization");
  const twill_json *nd = twill_json_get(root, "normalized");
  if (!nz != !nd) {
    const twill_json *x = nz ? nz : nd;
    twill_diag_set(d, file, x->line, x->col,
                   "\"normalized\" (the solver's times) and \"normalization\" "
                   "(their mapping to real cycles) come together");
    goto fail;
  }
  if (nz && read_norm(nz, file, &sf->norm, d)) goto fail;
  const twill_json *old = twill_json_get(root, "normalize");
  if (!nz && old && get_int(old, 1, SCHED_MAX_BUDGET, &sf->normalize)) {
    twill_diag_set(d, file, old->line, old->col,
                   "\"normalize\" must be the normalization budget U");
    goto fail;
  }
  /* the solver's own ii and times: "normalized" when there is one */
  const twill_json *base = root;
  const char *where = "\"times\"";
  if (nd) {
    if (nd->type != TWILL_JSON_OBJECT) {
      twill_diag_set(d, file, nd->line, nd->col,
                     "\"normalized\" must be an object {\"ii\", \"times\"}");
      goto fail;
    }
    base = nd;
    where = "normalized.times";
  }
  const twill_json *ii = twill_json_get(base, "ii");
  if (get_int(ii, 1, SCHED_MAX_TIME, &sf->ii)) {
    twill_diag_set(d, file, ii ? ii->line : base->line,
                   ii ? ii->col : base->col,
                   "a schedule needs %s\"ii\": an integer in [1, %ld]",
                   nd ? "normalized." : "", SCHED_MAX_TIME);
    goto fail;
  }
  const twill_json *t = twill_json_get(base, "times");
  if (!t || t->type != TWILL_JSON_OBJECT) {
    twill_diag_set(d, file, t ? t->line : base->line, t ? t->col : base->col,
                   "a schedule needs %s: an object {op: start cycle}", where);
    goto fail;
  }
  if (read_times(t, where, file, sf, d)) goto fail;
  size_t n = (size_t)sf->nops;
  if (nd && check_real(root, sf, file, d)) goto fail;
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
  const twill_json *wc = twill_json_get(root, "warp_count");
  long wcv = 0;
  if (wc && get_int(wc, 1, 1 << 20, &wcv)) {
    twill_diag_set(d, file, wc->line, wc->col,
                   "\"warp_count\" must be an integer in [1, %d]", 1 << 20);
    goto fail;
  }
  sf->warp_count = (int)wcv;
  const twill_json *h = twill_json_get(root, "heuristic");
  if (h) {
    if (h->type != TWILL_JSON_BOOL) {
      twill_diag_set(d, file, h->line, h->col, "\"heuristic\" must be true or false");
      goto fail;
    }
    sf->heuristic = h->boolean;
  }
  const twill_json *src = twill_json_get(root, "source");
  if (src && !(sf->source = twill_graph_from_json(src, file, d))) goto fail;
  const twill_json *mt = twill_json_get(root, "machine");
  if (mt) {
    if (mt->type != TWILL_JSON_STRING) {
      twill_diag_set(d, file, mt->line, mt->col,
                     "\"machine\" must be the machine's .arch text");
      goto fail;
    }
    if (!(sf->machine = dup_str(mt->string))) goto oom;
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

/* Is m the built-in machine of its name, apart from its warps (which
 * "warp_count" carries)?  Compared as printed .arch text. */
static bool builtin_machine(const twill_arch *m) {
  if (!m || !m->name || !twill_arch_builtin_text(m->name)) return false;
  twill_diag d;
  twill_arch *b = twill_arch_load(m->name, &d);
  twill_arch *c = twill_arch_clone(m);
  char *x = NULL, *y = NULL;
  size_t xn = 0, yn = 0;
  bool same = false;
  if (b && c) {
    c->warps = b->warps;
    FILE *fx = open_memstream(&x, &xn), *fy = open_memstream(&y, &yn);
    if (fx && fy && !twill_arch_print(b, fx) && !twill_arch_print(c, fy)) {
      fclose(fx), fclose(fy);
      fx = fy = NULL;
      same = xn == yn && !memcmp(x, y, xn);
    }
    if (fx) fclose(fx);
    if (fy) fclose(fy);
  }
  free(x), free(y);
  twill_arch_free(b);
  twill_arch_free(c);
  return same;
}

static void times_object(twill_jw *w, const twill_graph *g,
                         const twill_schedule *s, long num, long den) {
  twill_jw_object_begin(w);
  for (int v = 0; v < g->nops; v++) {
    twill_jw_key(w, g->ops[v].name);
    twill_jw_int(w, twill_norm_real(s->start[v], num, den));
  }
  twill_jw_object_end(w);
}

static void write_mapping(twill_jw *w, const twill_norm *nm, long num,
                          long den) {
  twill_jw_key(w, "normalization");
  twill_jw_object_begin(w);
  twill_jw_key(w, "budget");
  twill_jw_int(w, nm->U);
  twill_jw_key(w, "error");
  twill_jw_int(w, nm->F);
  twill_jw_key(w, "costs");
  twill_jw_object_begin(w);
  for (int i = 0; i < nm->n; i++) {
    char key[32];
    snprintf(key, sizeof key, "%ld", nm->cost[i]);
    twill_jw_key(w, key);
    twill_jw_int(w, nm->scaled[i]);
  }
  twill_jw_object_end(w);
  twill_jw_key(w, "real_per_normalized_cycle");
  if (den == 1) {
    twill_jw_int(w, num);
  } else {
    char k[48];
    snprintf(k, sizeof k, "%ld/%ld", num, den);
    twill_jw_string(w, k);
  }
  twill_jw_object_end(w);
}

void twill_sched_json_write(twill_jw *w, const twill_graph *g,
                            const twill_arch *m, const twill_schedule *s,
                            const twill_emit_opts *opts) {
  const twill_norm *nm = opts && opts->norm && opts->norm->n > 0 ? opts->norm : NULL;
  long num, den, L = s ? twill_schedule_length(g, s) : 0;
  twill_norm_scale(nm, &num, &den);
  twill_jw_key(w, "units");
  twill_jw_string(w, nm ? "real cycles, except under \"normalized\", "
                          "\"tries\", \"stats\" and \"params\": the "
                          "solver's own normalized cycles; real = "
                          "round(normalized x real_per_normalized_cycle)"
                        : "cycles (the kernel's costs as given, not "
                          "normalized)");
  if (!s) { /* no schedule (infeasible, a limit): the units only */
    if (nm) write_mapping(w, nm, num, den);
    return;
  }
  twill_jw_key(w, "ii");
  twill_jw_int(w, twill_norm_real(s->ii, num, den));
  twill_jw_key(w, "length");
  twill_jw_int(w, twill_norm_real(L, num, den));
  twill_jw_key(w, "times");
  times_object(w, g, s, num, den);
  if (s->warp) {
    twill_jw_key(w, "warps");
    twill_jw_object_begin(w);
    for (int v = 0; v < g->nops; v++) {
      twill_jw_key(w, g->ops[v].name);
      twill_jw_int(w, s->warp[v]);
    }
    twill_jw_object_end(w);
  }
  twill_jw_key(w, "stages");
  twill_jw_object_begin(w);
  for (int v = 0; v < g->nops; v++) {
    twill_jw_key(w, g->ops[v].name);
    twill_jw_int(w, s->ii > 0 ? s->start[v] / s->ii : 0);
  }
  twill_jw_object_end(w);
  if (nm) {
    twill_jw_key(w, "normalized");
    twill_jw_object_begin(w);
    twill_jw_key(w, "ii");
    twill_jw_int(w, s->ii);
    twill_jw_key(w, "length");
    twill_jw_int(w, L);
    twill_jw_key(w, "times");
    times_object(w, g, s, 1, 1);
    twill_jw_object_end(w);
    write_mapping(w, nm, num, den);
  }
  if (s->warp && m) {
    twill_jw_key(w, "warp_count");
    twill_jw_int(w, m->warps);
  }
  if (opts && opts->heuristic) {
    twill_jw_key(w, "heuristic");
    twill_jw_bool(w, true);
  }
}

void twill_sched_json_write_source(twill_jw *w, const twill_graph *g,
                                   const twill_arch *m,
                                   const twill_emit_opts *opts) {
  twill_jw_key(w, "source");
  twill_graph_write_json(opts && opts->kernel ? opts->kernel : g, w);
  if (m && !builtin_machine(m)) {
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (f && !twill_arch_print(m, f) && !fclose(f)) {
      f = NULL;
      twill_jw_key(w, "machine");
      twill_jw_string(w, text);
    } else {
      w->error = 1; /* no file without its machine */
    }
    if (f) fclose(f);
    free(text);
  }
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
  if (opts && opts->heuristic) {
    twill_jw_key(&w, "optimal");
    twill_jw_bool(&w, false);
  }
  twill_sched_json_write(&w, g, m, s, opts);
  if (opts && opts->heuristic) {
    twill_jw_key(&w, "stats");
    twill_jw_object_begin(&w);
    twill_jw_key(&w, "source");
    twill_jw_string(&w, "heuristic schedule, not optimal");
    twill_jw_object_end(&w);
  }
  twill_sched_json_write_source(&w, g, m, opts);
  twill_jw_object_end(&w);
  return twill_jw_finish(&w);
}
