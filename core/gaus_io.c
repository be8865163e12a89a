/* core/gaus_io.c: readers for the external GauS graphs
 * (../shared/suites/gaus/README.md): GML (gs_schedule_rw) and binary
 * AIGER (epfl_aig).  They never print: errors come back as
 * file:line:col (GML) or a byte offset in the message (AIG).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twill/gaus.h"

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
