/* graph/formats/graph_io.c: helpers shared by the kernel readers and printers. */
#include "graph_io.h"

#include <stdlib.h>
#include <string.h>

bool twill_gio_name_ok(const char *s, size_t n) {
  if (!s || n == 0 || n > TWILL_GIO_NAME_MAX) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9'))
      continue;
    if (c == 0 || !strchr("_.-+/$^*<>!?%&|~=()[]", c)) return false;
  }
  return true;
}

bool twill_gio_arch_ok(const char *s, size_t n) {
  if (!s || n == 0 || n > 1024) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c <= 0x20 || c >= 0x7f || c == '#') return false;
  }
  return true;
}

static const char *const issue_names[] = {"warp", "thread", "warpgroup"};

int twill_gio_issue_parse(const char *s, size_t n, twill_issue *out) {
  for (int i = 0; i < 3; i++) {
    if (strlen(issue_names[i]) == n && memcmp(s, issue_names[i], n) == 0) {
      *out = (twill_issue)i;
      return 0;
    }
  }
  return -1;
}

const char *twill_gio_issue_name(twill_issue i) {
  return (int)i >= 0 && (int)i < 3 ? issue_names[i] : "warp";
}

const char *twill_gio_op_name(const twill_graph *g, int v) {
  if (!g || v < 0 || v >= g->nops || !g->ops[v].name) return "?";
  return g->ops[v].name;
}

static size_t name_hash(const char *s, size_t n) {
  unsigned long long x = 1469598103934665603ULL; /* FNV-1a */
  for (size_t i = 0; i < n; i++) {
    x ^= (unsigned char)s[i];
    x *= 1099511628211ULL;
  }
  return (size_t)(x ^ (x >> 29));
}

int twill_gio_names_find(const twill_gio_names *h, const twill_graph *g,
                         const char *name, size_t len) {
  if (!h->cap) return -1;
  size_t i = name_hash(name, len) & (h->cap - 1);
  while (h->slot[i] >= 0) {
    const char *s = g->ops[h->slot[i]].name;
    if (strncmp(s, name, len) == 0 && s[len] == '\0') return h->slot[i];
    i = (i + 1) & (h->cap - 1);
  }
  return -1;
}

static void names_put(twill_gio_names *h, const twill_graph *g, int v) {
  const char *s = g->ops[v].name;
  size_t i = name_hash(s, strlen(s)) & (h->cap - 1);
  while (h->slot[i] >= 0) i = (i + 1) & (h->cap - 1);
  h->slot[i] = v;
}

int twill_gio_names_add(twill_gio_names *h, const twill_graph *g, int v) {
  if (2 * (h->n + 1) > h->cap) {
    size_t nc = h->cap ? 2 * h->cap : 64;
    int *ns = malloc(nc * sizeof *ns);
    if (!ns) return -1;
    for (size_t i = 0; i < nc; i++) ns[i] = -1;
    int *old = h->slot;
    size_t oc = h->cap;
    h->slot = ns;
    h->cap = nc;
    for (size_t i = 0; i < oc; i++)
      if (old[i] >= 0) names_put(h, g, old[i]);
    free(old);
  }
  names_put(h, g, v);
  h->n++;
  return 0;
}

void twill_gio_names_free(twill_gio_names *h) {
  free(h->slot);
  h->slot = NULL;
  h->cap = h->n = 0;
}
