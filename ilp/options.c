/* ilp/options.c: the option table of options.h as data, and its setter,
 * getter and listing (twill/ilp.h). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "model.h"

typedef struct option_row {
  twill_ilp_option_info info;
  size_t offset; /* of its field in ilp_options */
} option_row;

static const option_row table[] = {
#define TWILL_ILP_OPTION_ROW(name, integer, def, lo, hi, help) \
  {{#name, def, lo, hi, integer, help}, offsetof(ilp_options, name)},
    TWILL_ILP_OPTIONS(TWILL_ILP_OPTION_ROW)
#undef TWILL_ILP_OPTION_ROW
};

enum { NOPTIONS = (int)(sizeof table / sizeof table[0]) };

static const option_row *find(const char *name) {
  for (int k = 0; k < NOPTIONS; k++)
    if (!strcmp(table[k].info.name, name)) return &table[k];
  return NULL;
}

static double *field(ilp_options *o, const option_row *r) {
  return (double *)((char *)o + r->offset);
}

void twill_ilp_options_init(ilp_options *o) {
  for (int k = 0; k < NOPTIONS; k++) *field(o, &table[k]) = table[k].info.def;
}

int twill_ilp_set_option(twill_ilp *m, const char *name, double value) {
  const option_row *r = name ? find(name) : NULL;
  /* (!(a <= b) also rejects NaN) */
  if (!r || !(value >= r->info.lo && value <= r->info.hi)) return -1;
  if (r->info.integer && value != floor(value)) return -1;
  *field(&m->opt, r) = value;
  return 0;
}

int twill_ilp_get_option(const twill_ilp *m, const char *name, double *value) {
  const option_row *r = name ? find(name) : NULL;
  if (!r) return -1;
  *value = *(const double *)((const char *)&m->opt + r->offset);
  return 0;
}

int twill_ilp_option(int k, twill_ilp_option_info *info) {
  if (k < 0 || k >= NOPTIONS) return 0;
  *info = table[k].info;
  return 1;
}
