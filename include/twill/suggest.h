/* twill/suggest.h: "did you mean" for a mistyped name.
 *
 * The front ends name what they accept (commands, options, built-in kernels
 * and machines); when a word matches none, the closest one is offered if
 * the word is plausibly a typo of it.  Closeness is the optimal string
 * alignment distance (Damerau-Levenshtein without repeated edits of a
 * substring): insertions, deletions, substitutions and swaps of two
 * adjacent characters each cost 1, so "slove" is 1 from "solve".
 *
 *   twill_suggest s;
 *   twill_suggest_init(&s, word);
 *   for (each candidate c) twill_suggest_add(&s, c);
 *   const char *best = twill_suggest_best(&s);   (NULL: nothing close)
 */
#ifndef TWILL_SUGGEST_H
#define TWILL_SUGGEST_H

#include <stddef.h>

/* The optimal string alignment distance between a and b, or cap + 1 when
 * it exceeds cap (the work stops early then). */
int twill_edit_distance(const char *a, const char *b, int cap);

typedef struct twill_suggest {
  const char *word;
  const char *best;    /* closest candidate so far (first of ties) */
  int dist;            /* its distance */
  const char *prefix;  /* the one candidate word is a prefix of, if one */
  int nprefix;         /* how many candidates word is a prefix of */
} twill_suggest;

void twill_suggest_init(twill_suggest *s, const char *word);
void twill_suggest_add(twill_suggest *s, const char *candidate);
/* The candidate to offer, or NULL.  A candidate within distance
 * max(1, min(3, strlen(word) / 4)) (the closest, the first of ties), and
 * fewer edits than word has characters; else, for a word of 4 or more
 * characters, the only candidate it is a prefix of ("gemm" ->
 * "gemm-hopper"). */
const char *twill_suggest_best(const twill_suggest *s);

#endif
