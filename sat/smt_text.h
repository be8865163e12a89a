/* sat/smt_text.h: the reader of `twill smt` files (private to sat/).
 *
 * A parser in the project's style: it never prints or exits; errors come
 * back as "file:line:col: message".  The format is described in
 * twill/smt.h (section "Text format").
 */
#ifndef TWILL_SAT_SMT_TEXT_H
#define TWILL_SAT_SMT_TEXT_H

#include <stddef.h>

#include "twill/smt.h"

typedef struct {
  char *name;
  int is_bool;
  int id; /* int var index, or the Boolean's literal */
} twill_smt_name;

typedef struct {
  twill_smt *m;
  twill_smt_name *names;
  int nnames, cap;
  int obj; /* objective int var, -1 when none */
} twill_smt_problem;

/* Parse buf[0..len) into a new solver (with proofs when proof != 0).
 * Returns 0, or -1 with the message in err (nothing to free then). */
int twill_smt_parse(const char *file, const char *buf, size_t len, int proof,
                    twill_smt_problem *out, char *err, size_t errcap);
void twill_smt_problem_free(twill_smt_problem *p);

#endif
