/* sat/dimacs.h: the DIMACS CNF reader of `twill sat` (private to sat/).
 *
 * A parser in the project's style: it never prints or exits; errors come
 * back as "file:line:col: message", a clause-count mismatch as a warning.
 */
#ifndef TWILL_SAT_DIMACS_H
#define TWILL_SAT_DIMACS_H

#include <stddef.h>

typedef struct twill_cnf {
  int nvars;        /* from the header */
  int nclauses;     /* clauses read */
  int *lits;        /* every clause's literals followed by 0 */
  size_t nlits;     /* entries in lits, the 0s included */
} twill_cnf;

/* Parse buf[0..len) (name is used in messages).  Returns 0 and fills *out
 * (free with twill_cnf_free), or -1 with the message in err.  warn gets a
 * warning (or "" if none).  A line starting with '%' ends the clauses (the
 * SATLIB trailer). */
int twill_dimacs_parse(const char *name, const char *buf, size_t len,
                       twill_cnf *out, char *err, size_t errcap, char *warn,
                       size_t warncap);
void twill_cnf_free(twill_cnf *cnf);

#endif
