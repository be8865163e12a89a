/* ilp/reader.c: the name table and stream reading of reader.h. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* djb2: names in models are short identifiers; any spread will do */
static unsigned long hash(const char *s, size_t n) {
  unsigned long h = 5381;
  for (size_t i = 0; i < n; i++) h = h * 33 + (unsigned char)s[i];
  return h;
}

int twill_ilp_names_find(const ilp_names *h, const char *s, size_t n) {
  if (!h->cap) return -1;
  unsigned long i = hash(s, n) & (unsigned long)(h->cap - 1);
  while (h->key[i]) {
    if (strlen(h->key[i]) == n && !memcmp(h->key[i], s, n)) return h->val[i];
    i = (i + 1) & (unsigned long)(h->cap - 1);
  }
  return -1;
}

int twill_ilp_names_put(ilp_names *h, const char *s, int v) {
  if (2 * (h->cnt + 1) > h->cap) {
    int nc = h->cap ? 2 * h->cap : 64;
    char **nk = calloc((size_t)nc, sizeof *nk);
    int *nv = calloc((size_t)nc, sizeof *nv);
    if (!nk || !nv) { free(nk); free(nv); return 0; }
    for (int i = 0; i < h->cap; i++)
      if (h->key[i]) {
        unsigned long p = hash(h->key[i], strlen(h->key[i])) & (unsigned long)(nc - 1);
        while (nk[p]) p = (p + 1) & (unsigned long)(nc - 1);
        nk[p] = h->key[i];
        nv[p] = h->val[i];
      }
    free(h->key);
    free(h->val);
    h->key = nk;
    h->val = nv;
    h->cap = nc;
  }
  unsigned long i = hash(s, strlen(s)) & (unsigned long)(h->cap - 1);
  while (h->key[i]) i = (i + 1) & (unsigned long)(h->cap - 1);
  h->key[i] = (char *)s;
  h->val[i] = v;
  h->cnt++;
  return 1;
}

void twill_ilp_names_free(ilp_names *h) {
  free(h->key);
  free(h->val);
  h->key = NULL;
  h->val = NULL;
  h->cap = h->cnt = 0;
}
