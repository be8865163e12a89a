/* sat/drat_check.h: independent proof checkers for refutations of a CNF.
 *
 * Shares no code with the solver (its own CNF reader, clause store and
 * unit propagation), so that a solver bug cannot hide in the checker.
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
#ifndef TWILL_SAT_DRAT_CHECK_H
#define TWILL_SAT_DRAT_CHECK_H

#include <stddef.h>

int twill_drat_check(const char *cnf, size_t cnf_len, const char *proof,
                     size_t proof_len, char *msg, size_t msgcap);
int twill_lrat_check(const char *cnf, size_t cnf_len, const char *proof,
                     size_t proof_len, char *msg, size_t msgcap);

#endif
