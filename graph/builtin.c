/* graph/builtin.c: look-ups in the compiled-in kernel table. */
#include "twill/builtin.h"

#include <stdio.h>
#include <string.h>

const char *twill_builtin_kernel(const char *name) {
  for (const twill_builtin_file *k = twill_builtin_kernels; k->name; k++)
    if (!strcmp(k->name, name)) return k->text;
  return NULL;
}

void twill_builtin_kernel_summary(const char *name, char *buf, unsigned len) {
  if (!len) return;
  buf[0] = 0;
  const char *t = twill_builtin_kernel(name);
  if (!t) return;
  /* the first comment line that says something */
  while (*t) {
    const char *e = strchr(t, '\n');
    size_t n = e ? (size_t)(e - t) : strlen(t);
    if (n && t[0] == '#') {
      const char *s = t + 1;
      while (s < t + n && (*s == ' ' || *s == '#')) s++;
      if (s < t + n) {
        size_t m = (size_t)(t + n - s);
        if (m >= len) m = len - 1;
        memcpy(buf, s, m);
        buf[m] = 0;
        return;
      }
    }
    if (!e) break;
    t = e + 1;
  }
}
