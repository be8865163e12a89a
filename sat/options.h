/* sat/options.h: the options of the CDCL core (sat/solver.c), one table.
 *
 * Each row X(name, default, lo, hi, help) is one integer option.  The table
 * is the only place an option is declared: it makes the solver's options
 * struct (sat_options, one int64_t per row), the range-checked
 * twill_sat_set_option / twill_sat_get_option, and the rows that
 * twill_sat_option() lists (`twill help sat` prints them).  A new option is
 * a row here and the code in sat/solver.c that reads it.
 *
 * Every default is the constant the solver used before the option existed,
 * so a solver left at its defaults searches exactly as it did; lo and hi
 * bound what set_option accepts (the value is never clamped).  Fractions
 * are integers in per mille or per cent, so that an option stays an
 * integer and the double the solver computes from it is the same double as
 * the old constant (950 / 1000.0 == 0.95, both correctly rounded).
 */
#ifndef TWILL_SAT_OPTIONS_H
#define TWILL_SAT_OPTIONS_H

#include <stdint.h>

#include "twill/sat.h"

/* clang-format off */
#define TWILL_SAT_OPTIONS(X)                                                   \
  X(seed, 0, 0, INT64_MAX,                                                     \
    "seed of the initial variable order (0: none, deterministic per seed)")    \
  X(restart, 2, 0, 2,                                                          \
    "restarts: 0 EMA of LBD, 1 Luby, 2 alternating EMA and Luby phases")       \
  X(minimize, 1, 0, 1, "recursive minimization of learned clauses")            \
  X(phase, 0, 0, 1, "initial phase of every variable: 0 false, 1 true")        \
  X(reduce, 1, 0, 1,                                                           \
    "now and then delete the worse half of the learned clauses of LBD > 2")   \
  X(reduceint, 2000, 1, 1000000000,                                            \
    "conflicts before the first reduction, and the base interval")            \
  X(reduceinc, 300, 0, 1000000,                                                \
    "the interval grows by this many conflicts per reduction")                 \
  X(decay, 950, 500, 999,                                                      \
    "VSIDS activity decay per conflict, per mille")                            \
  X(restartmargin, 125, 100, 1000,                                             \
    "EMA restart when the fast LBD average exceeds this % of the slow one")
/* clang-format on */

typedef struct sat_options {
#define TWILL_SAT_OPTION_FIELD(name, def, lo, hi, help) int64_t name;
  TWILL_SAT_OPTIONS(TWILL_SAT_OPTION_FIELD)
#undef TWILL_SAT_OPTION_FIELD
} sat_options;

/* Every option at its default. */
void twill_sat_options_init(sat_options *o);

/* The row number of option name, -1 when no option has that name; its row
 * is twill_sat_option(i) and its value in o is at twill_sat_options_at. */
int twill_sat_options_find(const char *name);
int64_t *twill_sat_options_at(sat_options *o, int i);
int64_t twill_sat_options_get(const sat_options *o, int i);

#endif
