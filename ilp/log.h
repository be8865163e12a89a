/* ilp/log.h: the solver's log lines (private to ilp/).
 *
 * Library code never prints: a line goes to the log callback of the model
 * (twill_ilp_set_log) when the option verbosity is at least its level, and
 * nowhere otherwise.  Level 1: a summary per cut round and per search, and
 * why a certificate step failed; level 2: detail per node. */
#ifndef TWILL_ILP_LOG_H
#define TWILL_ILP_LOG_H

#include "model.h"

/* Whether a line of this level would be delivered (to skip the work of
 * composing one). */
int twill_ilp_logs(const twill_ilp *m, int level);
/* One line (no trailing newline), printf-style. */
void twill_ilp_log(const twill_ilp *m, int level, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
