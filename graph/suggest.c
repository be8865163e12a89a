/* graph/suggest.c: the closest known name to a mistyped one
 * (twill/suggest.h).  It lives in the lowest module so that the machine and
 * kernel loaders and the program can all offer one. */
#include "twill/suggest.h"

#include <stdlib.h>
#include <string.h>

/* Optimal string alignment: d[i][j] is the distance between the first i
 * characters of a and the first j of b,
 *   d[i][j] = min(d[i-1][j] + 1, d[i][j-1] + 1,
 *                 d[i-1][j-1] + (a[i-1] != b[j-1]),
 *                 d[i-2][j-2] + 1 if a[i-1] == b[j-2] and a[i-2] == b[j-1]).
 * Three rows suffice.  The names compared are short (commands, options,
 * kernel names); longer ones are cut at 255 characters, which can only make
 * a distance smaller than the cap look larger, never the reverse. */
#define SUGGEST_MAX 255

int twill_edit_distance(const char *a, const char *b, int cap) {
  size_t n = strlen(a), m = strlen(b);
  if (n > SUGGEST_MAX) n = SUGGEST_MAX;
  if (m > SUGGEST_MAX) m = SUGGEST_MAX;
  if ((n > m ? n - m : m - n) > (size_t)cap) return cap + 1;
  int rows[3][SUGGEST_MAX + 1];
  int *pp = rows[0], *prev = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++) prev[j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = (int)i;
    int row_min = cur[0];
    for (size_t j = 1; j <= m; j++) {
      int v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      if (sub < v) v = sub;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          pp[j - 2] + 1 < v)
        v = pp[j - 2] + 1;
      cur[j] = v;
      if (v < row_min) row_min = v;
    }
    /* every later row is at least this row's minimum */
    if (row_min > cap) return cap + 1;
    int *t = pp;
    pp = prev;
    prev = cur;
    cur = t;
  }
  return prev[m] > cap ? cap + 1 : prev[m];
}

static int max_edits(const char *word) {
  int k = (int)(strlen(word) / 4);
  return k < 1 ? 1 : k > 3 ? 3 : k;
}

void twill_suggest_init(twill_suggest *s, const char *word) {
  memset(s, 0, sizeof *s);
  s->word = word ? word : "";
  s->dist = max_edits(s->word) + 1;
}

void twill_suggest_add(twill_suggest *s, const char *c) {
  if (!c || !strcmp(c, s->word)) return;
  int d = twill_edit_distance(s->word, c, s->dist - 1);
  if (d < s->dist) {
    s->dist = d;
    s->best = c;
  }
  size_t n = strlen(s->word);
  if (n >= 4 && !strncmp(c, s->word, n)) {
    if (!s->nprefix) s->prefix = c;
    s->nprefix++;
  }
}

const char *twill_suggest_best(const twill_suggest *s) {
  /* "fewer edits than characters": a 1-character word is 1 edit from every
   * 1-character name, which is no evidence of a typo */
  if (s->best && s->dist < (int)strlen(s->word)) return s->best;
  if (s->nprefix == 1) return s->prefix;
  return NULL;
}
