/* graph/graph_io.c: helpers shared by the kernel readers and printers. */
#include "graph_io.h"

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
