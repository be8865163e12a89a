/* graph/formats/parse_json.c: the JSON kernel form (docs/formats.md).
 *
 *   {"kernel": NAME, "arch": NAME, "units": {NAME: capacity, ...},
 *    "ops": [{"name": s, "lat": n, "use": [[UNIT, offset, cycles(, count)]],
 *             "regs": n, "smem": n, "tmem": n, "spill": n,
 *             "issue": "thread"|"warp"|"warpgroup", "varlat": bool}, ...],
 *    "edges": [{"src": s, "dst": s, "lat": n, "dist": n,
 *               "blocking": bool}, ...]}
 *
 * Every member is optional except an op's "name" and an edge's "src" and
 * "dst".  An op's "lat" defaults to 0, an edge's to its source op's
 * latency.  Unknown members are errors.  Members are read in the order
 * units, ops, edges whatever their order in the object, so units are
 * canonical as in the text format: declared ones first, in the order of
 * the "units" object, then the others in order of first use.  Without a
 * "kernel" member the graph is named after the file (its base name without
 * extension), or "kernel".
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "graph_io.h"
#include "twill/graph.h"
#include "twill/json.h"

typedef struct kp {
  const char *file;
  twill_diag *d;
  twill_graph *g;
  twill_gio_names names;
  int *unit_line; /* per declared unit: line of its "units" member */
  int nunit_line;
} kp;

static int err_at(kp *p, const twill_json *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int err_at(kp *p, const twill_json *v, const char *fmt, ...) {
  char msg[TWILL_DIAG_MSG];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return twill_diag_set(p->d, p->file, v ? v->line : 0, v ? v->col : 0, "%s",
                        msg);
}

static int err_key(kp *p, const twill_json *obj, size_t i, const char *fmt,
                   const char *key) {
  return twill_diag_set(p->d, p->file, obj->key_line[i], obj->key_col[i], fmt,
                        key);
}

static int oom(kp *p) {
  return twill_diag_set(p->d, p->file, 0, 0, "out of memory");
}

static const char *type_name(const twill_json *v) {
  switch (v->type) {
  case TWILL_JSON_NULL: return "null";
  case TWILL_JSON_BOOL: return "a boolean";
  case TWILL_JSON_NUMBER: return "a number";
  case TWILL_JSON_STRING: return "a string";
  case TWILL_JSON_ARRAY: return "an array";
  default: return "an object";
  }
}

/* Integer in [lo, maxv]; lo is 0 or 1. */
static int get_int(kp *p, const twill_json *v, const char *field,
                   const char *what, long long lo, long long maxv,
                   long long *out) {
  if (v->type != TWILL_JSON_NUMBER)
    return err_at(p, v, "expected an integer for '%s', got %s", field,
                  type_name(v));
  if (!v->is_int)
    return err_at(p, v, "expected an integer for '%s', got %.17g", field,
                  v->number);
  if (v->integer < 0)
    return err_at(p, v, "negative %s %lld", what, v->integer);
  if (v->integer > maxv)
    return err_at(p, v, "integer %lld out of range (max %lld)", v->integer,
                  maxv);
  if (v->integer < lo)
    return err_at(p, v, "%s must be at least %lld", what, lo);
  *out = v->integer;
  return 0;
}

static int get_name(kp *p, const twill_json *v, const char *field,
                    const char *kind, const char **out) {
  if (v->type != TWILL_JSON_STRING)
    return err_at(p, v, "expected a string for '%s', got %s", field,
                  type_name(v));
  if (!twill_gio_name_ok(v->string, v->len))
    return err_at(p, v, "invalid %s name '%.64s'", kind, v->string);
  *out = v->string;
  return 0;
}

static int get_bool(kp *p, const twill_json *v, const char *field, bool *out) {
  if (v->type != TWILL_JSON_BOOL)
    return err_at(p, v, "expected true or false for '%s', got %s", field,
                  type_name(v));
  *out = v->boolean;
  return 0;
}

static int expect_object(kp *p, const twill_json *v, const char *what) {
  if (v->type != TWILL_JSON_OBJECT)
    return err_at(p, v, "expected %s (an object), got %s", what,
                  type_name(v));
  return 0;
}

static int expect_array(kp *p, const twill_json *v, const char *field) {
  if (v->type != TWILL_JSON_ARRAY)
    return err_at(p, v, "expected an array for '%s', got %s", field,
                  type_name(v));
  return 0;
}

/* Reject members other than those in `known` (NULL-terminated). */
static int check_fields(kp *p, const twill_json *obj,
                        const char *const *known, const char *where) {
  for (size_t i = 0; i < obj->len; i++) {
    bool ok = false;
    for (int k = 0; known[k]; k++)
      if (strcmp(obj->keys[i], known[k]) == 0) ok = true;
    if (!ok) {
      char fmt[64];
      snprintf(fmt, sizeof fmt, "unknown field '%%.64s' in %s", where);
      return err_key(p, obj, i, fmt, obj->keys[i]);
    }
  }
  return 0;
}

static int do_units(kp *p, const twill_json *u) {
  if (expect_object(p, u, "'units'")) return -1;
  p->unit_line = calloc(u->len ? u->len : 1, sizeof *p->unit_line);
  if (!p->unit_line) return oom(p);
  for (size_t i = 0; i < u->len; i++) {
    const char *name = u->keys[i];
    if (!twill_gio_name_ok(name, strlen(name)))
      return err_key(p, u, i, "invalid unit name '%.64s'", name);
    long long cap;
    if (get_int(p, &u->items[i], name, "capacity", 1, TWILL_GIO_INT_MAX,
                &cap))
      return -1;
    int x = twill_graph_declare_unit(p->g, name, (int)cap);
    if (x < 0) return oom(p);
    p->g->units[x].line = u->key_line[i];
    p->unit_line[x] = u->key_line[i];
    p->nunit_line = x + 1;
  }
  return 0;
}

static int do_use(kp *p, int v, const twill_json *it) {
  if (it->type != TWILL_JSON_ARRAY || (it->len != 3 && it->len != 4))
    return err_at(p, it,
                  "expected a use [UNIT, offset, cycles] or [UNIT, offset, "
                  "cycles, count]");
  const char *uname;
  if (get_name(p, &it->items[0], "use", "unit", &uname)) return -1;
  long long off, cyc, cnt = 1;
  if (get_int(p, &it->items[1], "use", "use offset", 0, TWILL_GIO_INT_MAX,
              &off) ||
      get_int(p, &it->items[2], "use", "use cycles", 1, TWILL_GIO_INT_MAX,
              &cyc) ||
      (it->len == 4 && get_int(p, &it->items[3], "use", "use count", 1,
                               TWILL_GIO_INT_MAX, &cnt)))
    return -1;
  if (off + cyc > TWILL_GIO_INT_MAX)
    return err_at(p, it, "use of '%s' ends past cycle %lld", uname,
                  TWILL_GIO_INT_MAX);
  int before = p->g->nunits;
  int u = twill_graph_unit(p->g, uname);
  if (u < 0) return oom(p);
  if (p->g->nunits > before) p->g->units[u].line = it->line;
  const twill_unit *un = &p->g->units[u];
  if (un->declared && cnt > un->capacity)
    return err_at(p, it,
                  "unit '%s' used with count %lld but its capacity is %d "
                  "(declared at line %d)",
                  uname, cnt, un->capacity,
                  u < p->nunit_line ? p->unit_line[u] : 0);
  if (twill_graph_add_use(p->g, v, u, (int)off, (int)cyc, (int)cnt))
    return oom(p);
  return 0;
}

static const char *const op_fields[] = {"name", "lat",   "use",   "regs",
                                        "smem", "tmem",  "spill", "issue",
                                        "varlat", "groups", NULL};

static int do_op(kp *p, const twill_json *o) {
  if (expect_object(p, o, "an op")) return -1;
  if (check_fields(p, o, op_fields, "op")) return -1;
  const twill_json *jn = twill_json_get(o, "name");
  if (!jn) return err_at(p, o, "op is missing 'name'");
  const char *name;
  if (get_name(p, jn, "name", "op", &name)) return -1;
  int prev = twill_gio_names_find(&p->names, p->g, name, strlen(name));
  if (prev >= 0)
    return err_at(p, jn, "duplicate op '%s' (first defined at line %d)", name,
                  p->g->ops[prev].line);
  long long lat = 0;
  const twill_json *jl = twill_json_get(o, "lat");
  if (jl && get_int(p, jl, "lat", "latency", 0, TWILL_GIO_LONG_MAX, &lat))
    return -1;
  int v = twill_graph_add_op(p->g, name, (long)lat);
  if (v < 0 || twill_gio_names_add(&p->names, p->g, v)) return oom(p);
  p->g->ops[v].line = o->line;
  p->g->ops[v].col = o->col;
  static const char *const longs[] = {"regs", "smem", "tmem", "spill"};
  for (int k = 0; k < 4; k++) {
    const twill_json *x = twill_json_get(o, longs[k]);
    long long val;
    if (!x) continue;
    if (get_int(p, x, longs[k], longs[k], 0, TWILL_GIO_LONG_MAX, &val))
      return -1;
    twill_op *op = &p->g->ops[v];
    if (k == 0) op->regs = (long)val;
    else if (k == 1) op->smem = (long)val;
    else if (k == 2) op->tmem = (long)val;
    else op->spill = (long)val;
  }
  /* spill is the cost of moving a register value to another warp (the
   * model in twill/joint.h); on a result that keeps no registers it would
   * be silently ignored, so it is an error */
  if (p->g->ops[v].spill >= 0 && p->g->ops[v].regs <= 0) {
    for (size_t i = 0; i < o->len; i++)
      if (!strcmp(o->keys[i], "spill"))
        return err_key(p, o, i, "%s has no effect on an op that keeps no registers",
                       "spill");
  }
  const twill_json *ji = twill_json_get(o, "issue");
  if (ji) {
    if (ji->type != TWILL_JSON_STRING ||
        twill_gio_issue_parse(ji->string, ji->len, &p->g->ops[v].issue))
      return err_at(p, ji,
                    "expected \"thread\", \"warp\" or \"warpgroup\" for "
                    "'issue'");
  }
  const twill_json *jv = twill_json_get(o, "varlat");
  if (jv && get_bool(p, jv, "varlat", &p->g->ops[v].varlat)) return -1;
  const twill_json *jg = twill_json_get(o, "groups");
  if (jg) {
    long long k;
    if (get_int(p, jg, "groups", "warpgroup count", 1, 4, &k)) return -1;
    if (k == 3) return err_at(p, jg, "'groups' must be 1, 2 or 4, got 3");
    if (k > 1 && p->g->ops[v].issue != TWILL_ISSUE_WARPGROUP)
      return err_at(p, jg, "'groups' %lld needs \"issue\": \"warpgroup\"", k);
    p->g->ops[v].groups = (int)k;
  }
  const twill_json *ju = twill_json_get(o, "use");
  if (ju) {
    if (expect_array(p, ju, "use")) return -1;
    for (size_t i = 0; i < ju->len; i++)
      if (do_use(p, v, &ju->items[i])) return -1;
  }
  return 0;
}

static const char *const edge_fields[] = {"src",  "dst",      "lat",
                                          "dist", "blocking", NULL};

static int edge_end(kp *p, const twill_json *e, const char *field, int *out) {
  const twill_json *j = twill_json_get(e, field);
  if (!j) return err_at(p, e, "edge is missing '%s'", field);
  const char *name;
  if (get_name(p, j, field, "op", &name)) return -1;
  *out = twill_gio_names_find(&p->names, p->g, name, strlen(name));
  if (*out < 0) return err_at(p, j, "unknown op '%s' in edge", name);
  return 0;
}

static int do_edge(kp *p, const twill_json *e) {
  if (expect_object(p, e, "an edge")) return -1;
  if (check_fields(p, e, edge_fields, "edge")) return -1;
  int src, dst;
  if (edge_end(p, e, "src", &src) || edge_end(p, e, "dst", &dst)) return -1;
  long long lat = p->g->ops[src].lat, dist = 0;
  bool blocking = false;
  const twill_json *x;
  if ((x = twill_json_get(e, "lat")) &&
      get_int(p, x, "lat", "latency", 0, TWILL_GIO_LONG_MAX, &lat))
    return -1;
  if ((x = twill_json_get(e, "dist")) &&
      get_int(p, x, "dist", "distance", 0, TWILL_GIO_INT_MAX, &dist))
    return -1;
  if ((x = twill_json_get(e, "blocking")) &&
      get_bool(p, x, "blocking", &blocking))
    return -1;
  int k = twill_graph_add_edge(p->g, src, dst, (long)lat, (int)dist);
  if (k < 0) return oom(p);
  p->g->edges[k].blocking = blocking;
  p->g->edges[k].line = e->line;
  return 0;
}

/* Kernel name from the file name: base name without extension. */
static void name_from_file(const char *file, char *buf, size_t cap) {
  const char *b = file ? strrchr(file, '/') : NULL;
  b = b ? b + 1 : (file ? file : "");
  size_t n = strlen(b);
  const char *dot = strrchr(b, '.');
  if (dot && dot != b) n = (size_t)(dot - b);
  if (n > 0 && n < cap && twill_gio_name_ok(b, n)) {
    memcpy(buf, b, n);
    buf[n] = '\0';
  } else {
    snprintf(buf, cap, "kernel");
  }
}

static const char *const top_fields[] = {"kernel", "arch", "units", "ops",
                                         "edges",  NULL};

static int parse_kernel(kp *p, const twill_json *root) {
  if (root->type != TWILL_JSON_OBJECT)
    return err_at(p, root, "expected a kernel (a JSON object), got %s",
                  type_name(root));
  if (check_fields(p, root, top_fields, "kernel")) return -1;
  const twill_json *x = twill_json_get(root, "kernel");
  char name[TWILL_GIO_NAME_MAX + 1];
  if (x) {
    const char *s;
    if (get_name(p, x, "kernel", "kernel", &s)) return -1;
    snprintf(name, sizeof name, "%s", s);
  } else {
    name_from_file(p->file, name, sizeof name);
  }
  p->g = twill_graph_new(name);
  if (!p->g) return oom(p);
  if ((x = twill_json_get(root, "arch"))) {
    if (x->type != TWILL_JSON_STRING)
      return err_at(p, x, "expected a string for 'arch', got %s",
                    type_name(x));
    if (!twill_gio_arch_ok(x->string, x->len))
      return err_at(p, x, "invalid machine name '%.64s'", x->string);
    if (twill_graph_set_arch(p->g, x->string)) return oom(p);
    p->g->arch_line = x->line;
    p->g->arch_col = x->col;
  }
  if ((x = twill_json_get(root, "units")) && do_units(p, x)) return -1;
  if ((x = twill_json_get(root, "ops"))) {
    if (expect_array(p, x, "ops")) return -1;
    for (size_t i = 0; i < x->len; i++)
      if (do_op(p, &x->items[i])) return -1;
  }
  if ((x = twill_json_get(root, "edges"))) {
    if (expect_array(p, x, "edges")) return -1;
    for (size_t i = 0; i < x->len; i++)
      if (do_edge(p, &x->items[i])) return -1;
  }
  if (twill_graph_validate(p->g, p->d)) {
    if (p->d) snprintf(p->d->file, sizeof p->d->file, "%s", p->file);
    return -1;
  }
  return 0;
}

twill_graph *twill_graph_parse_json(const char *text, size_t len,
                                    const char *file, twill_diag *d) {
  kp p;
  memset(&p, 0, sizeof p);
  p.file = file ? file : "";
  p.d = d;
  twill_json *root = twill_json_parse(text ? text : "", text ? len : 0,
                                      p.file, d);
  if (!root) return NULL;
  int r = parse_kernel(&p, root);
  twill_json_free(root);
  free(p.unit_line);
  twill_gio_names_free(&p.names);
  if (r) {
    twill_graph_free(p.g);
    return NULL;
  }
  return p.g;
}
