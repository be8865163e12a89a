/* graph/formats/gaus_io.c: readers for the external GauS graphs
 * (tests/data/suites/gaus/README.md): GML (gs_schedule_rw) and binary
 * AIGER (epfl_aig).  They never print: errors come back as
 * file:line:col (GML) or a byte offset in the message (AIG).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/formats.h"
#include "twill/json.h"

/* ---- GML --------------------------------------------------------------- */

typedef struct gml {
  const char *s;
  size_t len, pos;
  int line, col;
  const char *file;
  twill_diag *d;
} gml;

typedef enum { T_EOF, T_KEY, T_INT, T_REAL, T_STR, T_OPEN, T_CLOSE, T_BAD } tkind;

typedef struct tok {
  tkind k;
  int line, col;
  long long iv;
  char key[32];
} tok;

static void gml_adv(gml *g) {
  if (g->s[g->pos] == '\n') {
    g->line++;
    g->col = 1;
  } else {
    g->col++;
  }
  g->pos++;
}

static tok gml_next(gml *g) {
  tok t;
  memset(&t, 0, sizeof t);
  for (;;) {
    while (g->pos < g->len &&
           (g->s[g->pos] == ' ' || g->s[g->pos] == '\t' || g->s[g->pos] == '\n' ||
            g->s[g->pos] == '\r'))
      gml_adv(g);
    if (g->pos < g->len && g->s[g->pos] == '#') { /* comment line */
      while (g->pos < g->len && g->s[g->pos] != '\n') gml_adv(g);
      continue;
    }
    break;
  }
  t.line = g->line;
  t.col = g->col;
  if (g->pos >= g->len) {
    t.k = T_EOF;
    return t;
  }
  char c = g->s[g->pos];
  if (c == '[') {
    gml_adv(g);
    t.k = T_OPEN;
  } else if (c == ']') {
    gml_adv(g);
    t.k = T_CLOSE;
  } else if (c == '"') {
    gml_adv(g);
    while (g->pos < g->len && g->s[g->pos] != '"') gml_adv(g);
    if (g->pos >= g->len) {
      t.k = T_BAD;
      snprintf(t.key, sizeof t.key, "unterminated string");
      return t;
    }
    gml_adv(g);
    t.k = T_STR;
  } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
    size_t n = 0;
    while (g->pos < g->len) {
      char x = g->s[g->pos];
      if (!((x >= 'a' && x <= 'z') || (x >= 'A' && x <= 'Z') || x == '_' ||
            (x >= '0' && x <= '9')))
        break;
      if (n + 1 < sizeof t.key) t.key[n++] = x;
      gml_adv(g);
    }
    t.key[n] = 0;
    t.k = T_KEY;
  } else if (c == '-' || c == '+' || (c >= '0' && c <= '9') || c == '.') {
    int neg = c == '-', real = 0, digits = 0, over = 0;
    long long v = 0;
    if (c == '-' || c == '+') gml_adv(g);
    while (g->pos < g->len) {
      char x = g->s[g->pos];
      if (x >= '0' && x <= '9') {
        digits++;
        if (!real) {
          if (v > (LLONG_MAX - 9) / 10) over = 1;
          else v = v * 10 + (x - '0');
        }
      } else if (x == '.' || x == 'e' || x == 'E' ||
                 ((x == '-' || x == '+') && real)) {
        real = 1;
      } else {
        break;
      }
      gml_adv(g);
    }
    if (!digits || over) {
      t.k = T_BAD;
      snprintf(t.key, sizeof t.key, over ? "number out of range" : "bad number");
      return t;
    }
    t.k = real ? T_REAL : T_INT;
    t.iv = neg ? -v : v;
  } else {
    t.k = T_BAD;
    snprintf(t.key, sizeof t.key, "unexpected character '%c'",
             c >= 32 && c < 127 ? c : '?');
    gml_adv(g);
  }
  return t;
}

static int gml_err(gml *g, const tok *t, const char *msg) {
  return twill_diag_set(g->d, g->file, t->line, t->col, "%s", msg);
}

/* Skip one value (a list is skipped whole, nesting at most 64 deep). */
static int gml_skip(gml *g, tok *t) {
  if (t->k == T_INT || t->k == T_REAL || t->k == T_STR) return 0;
  if (t->k != T_OPEN) return gml_err(g, t, t->k == T_BAD ? t->key : "expected a value");
  int depth = 1;
  while (depth > 0) {
    tok u = gml_next(g);
    if (u.k == T_EOF) return gml_err(g, &u, "unexpected end of file in a list");
    if (u.k == T_BAD) return gml_err(g, &u, u.key);
    if (u.k == T_OPEN && ++depth > 64) return gml_err(g, &u, "lists nested too deep");
    if (u.k == T_CLOSE) depth--;
  }
  return 0;
}

typedef struct gnode { long long id, w; int line, col; } gnode;
typedef struct gedge { long long s, t, w; int line, col; } gedge;

static int cmp_node(const void *a, const void *b) {
  const gnode *x = a, *y = b;
  return x->id < y->id ? -1 : x->id > y->id;
}

static long find_node(const gnode *v, long n, long long id) {
  long lo = 0, hi = n - 1;
  while (lo <= hi) {
    long mid = lo + (hi - lo) / 2;
    if (v[mid].id == id) return mid;
    if (v[mid].id < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

twill_graph *twill_gaus_read_gml(const char *text, size_t len,
                                 const char *file, double **edge_cost,
                                 twill_diag *d) {
  gml G = {text, len, 0, 1, 1, file, d};
  gml *g = &G;
  if (edge_cost) *edge_cost = NULL;
  gnode *nodes = NULL;
  gedge *edges = NULL;
  long nn = 0, cn = 0, ne = 0, ce = 0;
  twill_graph *out = NULL;
  double *cost = NULL;
  int *perm = NULL;
  tok t = gml_next(g);
  while (t.k == T_KEY && strcmp(t.key, "graph")) { /* e.g. Creator "x" */
    tok v = gml_next(g);
    if (gml_skip(g, &v)) goto fail;
    t = gml_next(g);
  }
  if (t.k != T_KEY) {
    gml_err(g, &t, t.k == T_BAD ? t.key : "expected 'graph ['");
    goto fail;
  }
  t = gml_next(g);
  if (t.k != T_OPEN) {
    gml_err(g, &t, "expected '[' after 'graph'");
    goto fail;
  }
  for (;;) {
    t = gml_next(g);
    if (t.k == T_CLOSE) break;
    if (t.k != T_KEY) {
      gml_err(g, &t, t.k == T_EOF ? "unexpected end of file: missing ']' of graph"
                     : t.k == T_BAD ? t.key : "expected a key");
      goto fail;
    }
    int is_node = !strcmp(t.key, "node"), is_edge = !strcmp(t.key, "edge");
    tok kt = t;
    tok v = gml_next(g);
    if (!is_node && !is_edge) {
      if (gml_skip(g, &v)) goto fail;
      continue;
    }
    if (v.k != T_OPEN) {
      gml_err(g, &v, is_node ? "expected '[' after 'node'" : "expected '[' after 'edge'");
      goto fail;
    }
    long long id = -1, src = -1, dst = -1, w = 0;
    int have_id = 0, have_s = 0, have_t = 0;
    for (;;) {
      tok k = gml_next(g);
      if (k.k == T_CLOSE) break;
      if (k.k != T_KEY) {
        gml_err(g, &k, k.k == T_EOF ? "unexpected end of file in a node or edge"
                       : k.k == T_BAD ? k.key : "expected a key");
        goto fail;
      }
      tok x = gml_next(g);
      int want = 0;
      long long *dstp = NULL;
      int *flag = NULL;
      if (is_node && !strcmp(k.key, "id")) want = 1, dstp = &id, flag = &have_id;
      else if (is_edge && !strcmp(k.key, "source")) want = 1, dstp = &src, flag = &have_s;
      else if (is_edge && !strcmp(k.key, "target")) want = 1, dstp = &dst, flag = &have_t;
      else if (!strcmp(k.key, "parameter")) want = 2, dstp = &w;
      if (!want) {
        if (gml_skip(g, &x)) goto fail;
        continue;
      }
      if (x.k != T_INT) {
        gml_err(g, &x, x.k == T_BAD ? x.key : "expected an integer");
        goto fail;
      }
      if (x.iv < 0 || x.iv > INT_MAX) {
        gml_err(g, &x, "integer out of range [0, 2147483647]");
        goto fail;
      }
      *dstp = x.iv;
      if (flag) *flag = 1;
    }
    if (is_node) {
      if (!have_id) {
        gml_err(g, &kt, "node without an id");
        goto fail;
      }
      if (nn == cn) {
        cn = cn ? 2 * cn : 256;
        gnode *nv = realloc(nodes, (size_t)cn * sizeof *nv);
        if (!nv) goto oom;
        nodes = nv;
      }
      nodes[nn++] = (gnode){id, w, kt.line, kt.col};
    } else {
      if (!have_s || !have_t) {
        gml_err(g, &kt, have_s ? "edge without a target" : "edge without a source");
        goto fail;
      }
      if (ne == ce) {
        ce = ce ? 2 * ce : 256;
        gedge *ev = realloc(edges, (size_t)ce * sizeof *ev);
        if (!ev) goto oom;
        edges = ev;
      }
      edges[ne++] = (gedge){src, dst, w, kt.line, kt.col};
    }
  }
  t = gml_next(g);
  if (t.k != T_EOF) {
    gml_err(g, &t, "text after the end of the graph");
    goto fail;
  }
  /* index nodes by id (stable: file order kept in the graph) */
  gnode *sorted = malloc(((size_t)nn + 1) * sizeof *sorted);
  if (!sorted) goto oom;
  if (nn) memcpy(sorted, nodes, (size_t)nn * sizeof *sorted);
  for (long i = 0; i < nn; i++) sorted[i].w = i; /* w := file index */
  qsort(sorted, (size_t)nn, sizeof *sorted, cmp_node);
  for (long i = 1; i < nn; i++)
    if (sorted[i].id == sorted[i - 1].id) {
      const gnode *dup = &nodes[sorted[i].w > sorted[i - 1].w ? sorted[i].w : sorted[i - 1].w];
      twill_diag_set(d, file, dup->line, dup->col, "duplicate node id %lld", dup->id);
      free(sorted);
      goto fail;
    }
  out = twill_graph_new("gml");
  cost = malloc(((size_t)ne + 1) * sizeof *cost);
  if (!out || !cost) {
    free(sorted);
    goto oom;
  }
  long long sumw = 0;
  for (long i = 0; i < nn; i++) sumw += nodes[i].w;
  if (sumw > INT_MAX) sumw = INT_MAX;
  int unit = twill_graph_declare_unit(out, "mem", sumw < 1 ? 1 : (int)sumw);
  if (unit < 0) {
    free(sorted);
    goto oom;
  }
  for (long i = 0; i < nn; i++) {
    char name[32];
    snprintf(name, sizeof name, "n%lld", nodes[i].id);
    int v = twill_graph_add_op(out, name, 0);
    if (v < 0 || (nodes[i].w > 0 &&
                  twill_graph_add_use(out, v, unit, 0, 1, (int)nodes[i].w))) {
      free(sorted);
      goto oom;
    }
    out->ops[v].line = nodes[i].line;
  }
  for (long e = 0; e < ne; e++) {
    long a = find_node(sorted, nn, edges[e].s), b = find_node(sorted, nn, edges[e].t);
    if (a < 0 || b < 0) {
      twill_diag_set(d, file, edges[e].line, edges[e].col,
                     "edge %s %lld is not a node id", a < 0 ? "source" : "target",
                     a < 0 ? edges[e].s : edges[e].t);
      free(sorted);
      goto fail;
    }
    int k = twill_graph_add_edge(out, (int)sorted[a].w, (int)sorted[b].w, 0, 0);
    if (k < 0) {
      free(sorted);
      goto oom;
    }
    out->edges[k].line = edges[e].line;
    cost[e] = edges[e].w > 0 ? 1.0 : 0.0;
  }
  free(sorted);
  if (twill_graph_validate(out, d)) {
    snprintf(d->file, sizeof d->file, "%s", file);
    goto fail;
  }
  free(nodes);
  free(edges);
  free(perm);
  if (edge_cost) *edge_cost = cost;
  else free(cost);
  return out;
oom:
  twill_diag_set(d, file, 0, 0, "out of memory");
fail:
  free(nodes);
  free(edges);
  free(perm);
  free(cost);
  twill_graph_free(out);
  return NULL;
}

/* ---- AIGER (binary) ---------------------------------------------------- */

static int aig_num(const char *s, size_t len, size_t *pos, unsigned long *v) {
  size_t p = *pos;
  if (p >= len || s[p] < '0' || s[p] > '9') return -1;
  unsigned long x = 0;
  while (p < len && s[p] >= '0' && s[p] <= '9') {
    if (x > 100000000UL) return -1;
    x = x * 10 + (unsigned long)(s[p] - '0');
    p++;
  }
  *pos = p;
  *v = x;
  return 0;
}

twill_graph *twill_gaus_read_aig(const char *data, size_t len,
                                 const char *file, twill_diag *d) {
  size_t pos = 0;
  unsigned long M = 0, I = 0, L = 0, O = 0, A = 0;
  if (len < 4 || memcmp(data, "aig ", 4)) {
    twill_diag_set(d, file, 1, 1, "expected binary AIGER header 'aig M I L O A'");
    return NULL;
  }
  pos = 4;
  unsigned long *hv[5] = {&M, &I, &L, &O, &A};
  for (int k = 0; k < 5; k++) {
    if (k && (pos >= len || data[pos] != ' ')) {
      twill_diag_set(d, file, 1, (int)pos + 1, "expected a space in the header");
      return NULL;
    }
    if (k) pos++;
    if (aig_num(data, len, &pos, hv[k])) {
      twill_diag_set(d, file, 1, (int)pos + 1, "expected a number (at most 100000000)");
      return NULL;
    }
  }
  if (pos >= len || data[pos] != '\n') {
    twill_diag_set(d, file, 1, (int)pos + 1, "expected end of the header line");
    return NULL;
  }
  pos++;
  if (L != 0) {
    twill_diag_set(d, file, 1, 1, "latches are not supported (L = %lu)", L);
    return NULL;
  }
  if (M != I + L + A) {
    twill_diag_set(d, file, 1, 1, "M = %lu is not I + L + A = %lu", M, I + L + A);
    return NULL;
  }
  if (A > (len - pos) / 2 || O > len - pos) { /* every gate takes >= 2 bytes */
    twill_diag_set(d, file, 1, 1, "file too short for %lu outputs and %lu AND gates", O, A);
    return NULL;
  }
  int line = 2;
  for (unsigned long k = 0; k < O; k++, line++) {
    unsigned long lit;
    size_t st = pos;
    if (aig_num(data, len, &pos, &lit) || pos >= len || data[pos] != '\n') {
      twill_diag_set(d, file, line, 1, "expected an output literal on its own line");
      return NULL;
    }
    (void)st;
    if (lit > 2 * M + 1) {
      twill_diag_set(d, file, line, 1, "output literal %lu exceeds 2M+1 = %lu", lit, 2 * M + 1);
      return NULL;
    }
    pos++;
  }
  twill_graph *g = twill_graph_new("aig");
  if (!g) goto oom;
  char name[32];
  for (unsigned long i = 1; i <= I; i++) {
    snprintf(name, sizeof name, "i%lu", i);
    if (twill_graph_add_op(g, name, 1) < 0) goto oom;
  }
  for (unsigned long k = 0; k < A; k++) {
    unsigned long lhs = 2 * (I + L + k + 1), delta[2];
    for (int j = 0; j < 2; j++) {
      unsigned long x = 0;
      int shift = 0;
      for (;;) {
        if (pos >= len) {
          twill_diag_set(d, file, 0, 0, "byte %zu: end of file inside AND gate %lu", pos, k);
          goto fail;
        }
        unsigned char c = (unsigned char)data[pos++];
        if (shift > 28) {
          twill_diag_set(d, file, 0, 0, "byte %zu: delta of AND gate %lu too long", pos - 1, k);
          goto fail;
        }
        x |= (unsigned long)(c & 0x7f) << shift;
        shift += 7;
        if (!(c & 0x80)) break;
      }
      delta[j] = x;
    }
    if (delta[0] == 0 || delta[0] > lhs || delta[1] > lhs - delta[0]) {
      twill_diag_set(d, file, 0, 0, "byte %zu: AND gate %lu has invalid deltas %lu %lu",
                     pos, k, delta[0], delta[1]);
      goto fail;
    }
    unsigned long r0 = lhs - delta[0], r1 = r0 - delta[1];
    snprintf(name, sizeof name, "a%lu", I + k + 1);
    int v = twill_graph_add_op(g, name, 1);
    if (v < 0) goto oom;
    unsigned long fin[2] = {r0 >> 1, r1 >> 1};
    for (int j = 0; j < 2; j++) {
      if (fin[j] == 0) continue; /* constant: no producer */
      if (twill_graph_add_edge(g, (int)(fin[j] - 1), v, 1, 0) < 0) goto oom;
    }
  }
  return g; /* the symbol table and comments that may follow are ignored */
oom:
  twill_diag_set(d, file, 0, 0, "out of memory");
fail:
  twill_graph_free(g);
  return NULL;
}

/* ---- HLS operator-scheduling JSON (hls_heurigym) ------------------------ */

/* A JSON value's position as a diagnostic. */
static twill_graph *hls_err(twill_diag *d, const char *file,
                            const twill_json *v, const char *fmt,
                            const char *arg) {
  twill_diag_set(d, file, v ? v->line : 0, v ? v->col : 0, fmt, arg);
  return NULL;
}

/* An integer member of an object "delay" / "resource" in [lo, hi]. */
static int hls_int(const twill_json *v, long long lo, long long hi) {
  return v->type == TWILL_JSON_NUMBER && v->is_int && v->integer >= lo &&
         v->integer <= hi;
}

typedef struct hls_id { const char *s; int idx; } hls_id;

static int cmp_hls_id(const void *a, const void *b) {
  const hls_id *x = a, *y = b;
  return strcmp(x->s, y->s);
}

static int hls_find(const hls_id *v, int n, const char *s) {
  hls_id key = {s, 0};
  const hls_id *h = bsearch(&key, v, (size_t)n, sizeof *v, cmp_hls_id);
  return h ? h->idx : -1;
}

twill_graph *twill_gaus_read_hls(const char *text, size_t len,
                                 const char *file, twill_diag *d) {
  twill_json *root = twill_json_parse(text, len, file, d);
  if (!root) return NULL;
  twill_graph *g = NULL;
  hls_id *ids = NULL;
  long *delay = NULL;
  const twill_json *dl = twill_json_get(root, "delay"),
                   *rs = twill_json_get(root, "resource"),
                   *nodes = twill_json_get(root, "nodes"),
                   *edges = twill_json_get(root, "edges"),
                   *name = twill_json_get(root, "name");
  if (root->type != TWILL_JSON_OBJECT) {
    hls_err(d, file, root, "expected an object with \"delay\", \"resource\", "
                           "\"nodes\" and \"edges\"%s", "");
    goto fail;
  }
  for (size_t k = 0; k < root->len; k++) {
    const char *key = root->keys[k];
    if (strcmp(key, "name") && strcmp(key, "delay") && strcmp(key, "resource") &&
        strcmp(key, "nodes") && strcmp(key, "edges")) {
      twill_diag_set(d, file, root->key_line[k], root->key_col[k],
                     "unknown key \"%s\"", key);
      goto fail;
    }
  }
  const char *miss = !dl ? "delay" : !rs ? "resource" : !nodes ? "nodes"
                   : !edges ? "edges" : NULL;
  if (miss) {
    hls_err(d, file, root, "missing key \"%s\"", miss);
    goto fail;
  }
  if (name && name->type != TWILL_JSON_STRING) {
    hls_err(d, file, name, "\"name\" must be a string%s", "");
    goto fail;
  }
  if (dl->type != TWILL_JSON_OBJECT || rs->type != TWILL_JSON_OBJECT) {
    hls_err(d, file, dl->type != TWILL_JSON_OBJECT ? dl : rs,
            "expected an object of operator types%s", "");
    goto fail;
  }
  if (nodes->type != TWILL_JSON_ARRAY || edges->type != TWILL_JSON_ARRAY) {
    hls_err(d, file, nodes->type != TWILL_JSON_ARRAY ? nodes : edges,
            "expected an array%s", "");
    goto fail;
  }
  g = twill_graph_new(name && name->string[0] ? name->string : "hls");
  delay = calloc(dl->len + 1, sizeof *delay);
  ids = malloc((nodes->len + 1) * sizeof *ids);
  if (!g || !delay || !ids) goto oom;
  /* one unit per operator type, in the order of "delay" */
  for (size_t k = 0; k < dl->len; k++) {
    const twill_json *v = &dl->items[k];
    if (!hls_int(v, 0, 1000000)) {
      hls_err(d, file, v, "delay of \"%s\" must be an integer in [0, 1000000]",
              dl->keys[k]);
      goto fail;
    }
    const twill_json *c = twill_json_get(rs, dl->keys[k]);
    if (!c) {
      hls_err(d, file, rs, "no resource count for operator type \"%s\"",
              dl->keys[k]);
      goto fail;
    }
    if (!hls_int(c, 1, 1000000)) {
      hls_err(d, file, c, "resource count of \"%s\" must be an integer in "
                          "[1, 1000000]", dl->keys[k]);
      goto fail;
    }
    delay[k] = (long)v->integer;
    if (twill_graph_declare_unit(g, dl->keys[k], (int)c->integer) != (int)k) goto oom;
  }
  for (size_t k = 0; k < rs->len; k++)
    if (!twill_json_get(dl, rs->keys[k])) {
      twill_diag_set(d, file, rs->key_line[k], rs->key_col[k],
                     "no delay for operator type \"%s\"", rs->keys[k]);
      goto fail;
    }
  if (nodes->len > 10000000) {
    hls_err(d, file, nodes, "too many nodes%s", "");
    goto fail;
  }
  for (size_t k = 0; k < nodes->len; k++) {
    const twill_json *v = &nodes->items[k];
    if (v->type != TWILL_JSON_ARRAY || v->len != 2 ||
        v->items[0].type != TWILL_JSON_STRING ||
        v->items[1].type != TWILL_JSON_STRING) {
      hls_err(d, file, v, "expected a node [\"id\", \"type\"]%s", "");
      goto fail;
    }
    const char *ty = v->items[1].string;
    int r = twill_graph_find_unit(g, ty);
    if (r < 0) {
      hls_err(d, file, &v->items[1], "unknown operator type \"%s\"", ty);
      goto fail;
    }
    char nm[48];
    snprintf(nm, sizeof nm, "n%zu", k);
    int op = twill_graph_add_op(g, nm, delay[r]);
    if (op < 0) goto oom;
    if (delay[r] > 0 && twill_graph_add_use(g, op, r, 0, (int)delay[r], 1)) goto oom;
    g->ops[op].line = v->line;
    ids[k] = (hls_id){v->items[0].string, op};
  }
  int nn = (int)nodes->len;
  qsort(ids, (size_t)nn, sizeof *ids, cmp_hls_id);
  for (int k = 1; k < nn; k++)
    if (!strcmp(ids[k].s, ids[k - 1].s)) {
      int later = ids[k].idx > ids[k - 1].idx ? ids[k].idx : ids[k - 1].idx;
      hls_err(d, file, &nodes->items[later], "duplicate node id \"%s\"", ids[k].s);
      goto fail;
    }
  for (size_t k = 0; k < edges->len; k++) {
    const twill_json *v = &edges->items[k];
    if (v->type != TWILL_JSON_ARRAY || v->len < 2 || v->len > 3 ||
        v->items[0].type != TWILL_JSON_STRING ||
        v->items[1].type != TWILL_JSON_STRING ||
        (v->len == 3 && v->items[2].type != TWILL_JSON_STRING)) {
      hls_err(d, file, v, "expected an edge [\"src\", \"dst\", \"name\"]%s", "");
      goto fail;
    }
    int a = hls_find(ids, nn, v->items[0].string),
        b = hls_find(ids, nn, v->items[1].string);
    if (a < 0 || b < 0) {
      const twill_json *w = a < 0 ? &v->items[0] : &v->items[1];
      hls_err(d, file, w, "\"%s\" is not a node id", w->string);
      goto fail;
    }
    if (a == b) {
      hls_err(d, file, v, "edge from node \"%s\" to itself", v->items[0].string);
      goto fail;
    }
    int e = twill_graph_add_edge(g, a, b, g->ops[a].lat, 0);
    if (e < 0) goto oom;
    g->edges[e].line = v->line;
  }
  /* acyclic (Kahn over a CSR of the edges); a cycle is reported at an
     edge both of whose ends the sort never reached */
  {
    int n = g->nops, m = g->nedges, bad = -1;
    int *indeg = calloc((size_t)n + 1, sizeof(int));
    int *off = calloc((size_t)n + 2, sizeof(int));
    int *adj = malloc(((size_t)m + 1) * sizeof(int));
    int *q = malloc(((size_t)n + 1) * sizeof(int));
    if (!indeg || !off || !adj || !q) {
      free(indeg);
      free(off);
      free(adj);
      free(q);
      goto oom;
    }
    for (int e = 0; e < m; e++) {
      indeg[g->edges[e].dst]++;
      off[g->edges[e].src + 2]++;
    }
    for (int i = 0; i < n; i++) off[i + 2] += off[i + 1];
    for (int e = 0; e < m; e++) adj[off[g->edges[e].src + 1]++] = g->edges[e].dst;
    int qh = 0, qt = 0;
    for (int i = 0; i < n; i++)
      if (!indeg[i]) q[qt++] = i;
    while (qh < qt) {
      int v = q[qh++];
      for (int k = off[v]; k < off[v + 1]; k++)
        if (--indeg[adj[k]] == 0) q[qt++] = adj[k];
    }
    if (qt < n) {
      /* every node the sort left has a left predecessor: walk back along
         one such in-edge per node until a node repeats; the repeated
         node's in-edge lies on a cycle */
      int *pe = q; /* reuse: pe[v] = an in-edge of v from a left node */
      for (int i = 0; i < n; i++) pe[i] = -1;
      int start = -1;
      for (int e = 0; e < m; e++) {
        int a = g->edges[e].src, b = g->edges[e].dst;
        if (indeg[a] > 0 && indeg[b] > 0) {
          pe[b] = e;
          start = b;
        }
      }
      int *seen = off; /* reuse as visit marks */
      for (int i = 0; i <= n; i++) seen[i] = 0;
      int v = start;
      while (v >= 0 && !seen[v]) {
        seen[v] = 1;
        v = pe[v] >= 0 ? g->edges[pe[v]].src : -1;
      }
      bad = v >= 0 ? pe[v] : 0;
    }
    free(indeg);
    free(off);
    free(adj);
    free(q);
    if (bad >= 0) {
      hls_err(d, file, &edges->items[bad],
              "edge on a cycle (the graph must be acyclic)%s", "");
      goto fail;
    }
  }
  if (twill_graph_validate(g, d)) {
    snprintf(d->file, sizeof d->file, "%s", file);
    goto fail;
  }
  free(ids);
  free(delay);
  twill_json_free(root);
  return g;
oom:
  twill_diag_set(d, file, 0, 0, "out of memory");
fail:
  free(ids);
  free(delay);
  twill_graph_free(g);
  twill_json_free(root);
  return NULL;
}
