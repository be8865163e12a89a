/* twill/dimacs.h: CNF in DIMACS form, and the independent checkers of
 * refutations of a CNF (DRAT, LRAT).
 *
 * The reader is a parser in the project's style: it never prints or exits;
 * errors come back as "file:line:col: message", a clause-count mismatch as a
 * warning.
 *
 * The checkers share no code with the solver (their own CNF reader, clause
 * store and unit propagation), so that a solver bug cannot hide in them.
 *   twill_drat_check: backward DRAT checking (RUP, else RAT on the first
 *     literal), deletions honoured, only lemmas used in the refutation are
 *     checked (marking).  Text and binary DRAT (binary: the proof holds a
 *     NUL byte) are both accepted.
 *   twill_lrat_check: text LRAT, each lemma checked by following its hints
 *     (every hint must be unit or falsified under the lemma's negation;
 *     RAT hints are not supported and rejected).
 * Both return 1 when the proof refutes the CNF, 0 when not (msg says why,
 * e.g. "lemma 17 (proof line 17) failed"), -1 on unreadable input.
 */
#ifndef TWILL_DIMACS_H
#define TWILL_DIMACS_H

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

int twill_drat_check(const char *cnf, size_t cnf_len, const char *proof,
                     size_t proof_len, char *msg, size_t msgcap);
int twill_lrat_check(const char *cnf, size_t cnf_len, const char *proof,
                     size_t proof_len, char *msg, size_t msgcap);

#endif
