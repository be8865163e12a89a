/* sat/stats.c: the rows of the statistics table (TWILL_SAT_STATS in
 * twill/sat.h) as data, for a front end that lists them. */
#include <stddef.h>

#include "twill/sat.h"

static const twill_sat_stat_info rows[] = {
#define ROW(field, line, name, help) {name, line, help},
    TWILL_SAT_STATS(ROW)
#undef ROW
};

static const size_t offsets[] = {
#define OFFSET(field, line, name, help) offsetof(twill_sat_stats, field),
    TWILL_SAT_STATS(OFFSET)
#undef OFFSET
};

enum { NROWS = (int)(sizeof rows / sizeof *rows) };

const twill_sat_stat_info *twill_sat_stat(int i) {
  return i >= 0 && i < NROWS ? &rows[i] : NULL;
}

uint64_t twill_sat_stat_value(const twill_sat_stats *st, int i) {
  if (i < 0 || i >= NROWS) return 0;
  return *(const uint64_t *)(const void *)((const char *)st + offsets[i]);
}
