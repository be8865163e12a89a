/* sat/options.c: the rows of the option table (sat/options.h) as data: the
 * listing of twill_sat_option() and the lookup by name behind
 * twill_sat_set_option / twill_sat_get_option. */
#include "options.h"

#include <stddef.h>
#include <string.h>

static const twill_sat_option_info rows[] = {
#define ROW(name, def, lo, hi, help) {#name, def, lo, hi, help},
    TWILL_SAT_OPTIONS(ROW)
#undef ROW
};

/* where each row's value lives in sat_options, in the order of rows[] */
static const size_t offsets[] = {
#define OFFSET(name, def, lo, hi, help) offsetof(sat_options, name),
    TWILL_SAT_OPTIONS(OFFSET)
#undef OFFSET
};

enum { NROWS = (int)(sizeof rows / sizeof *rows) };

const twill_sat_option_info *twill_sat_option(int i) {
  return i >= 0 && i < NROWS ? &rows[i] : NULL;
}

void twill_sat_options_init(sat_options *o) {
#define INIT(name, def, lo, hi, help) o->name = def;
  TWILL_SAT_OPTIONS(INIT)
#undef INIT
}

int twill_sat_options_find(const char *name) {
  for (int i = 0; i < NROWS; i++)
    if (!strcmp(rows[i].name, name)) return i;
  return -1;
}

int64_t *twill_sat_options_at(sat_options *o, int i) {
  return (int64_t *)(void *)((char *)o + offsets[i]);
}

int64_t twill_sat_options_get(const sat_options *o, int i) {
  return *(const int64_t *)(const void *)((const char *)o + offsets[i]);
}
