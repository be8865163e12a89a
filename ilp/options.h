/* ilp/options.h: the solver's options, one table (private to ilp/).
 *
 * Each row is  X(name, integer, default, lo, hi, "help"):  a numeric
 * setting, whether it takes only integers, its default and range.  The
 * table generates the field of ilp_options that holds it (model.h), the
 * setter and getter by name of twill/ilp.h (options.c, which rejects a name
 * it does not know, a value outside [lo, hi] and a fraction for an integer
 * option) and the listing `twill help ilp` prints (twill_ilp_option).
 * Library code reads m->opt.NAME; nothing reads the environment.
 *
 * The rows that changed the search before they were options (environment
 * switches) keep their old defaults, so a model solved with the defaults
 * takes the same path, node for node, as before.
 */
#ifndef TWILL_ILP_OPTIONS_H
#define TWILL_ILP_OPTIONS_H

#define TWILL_ILP_OPTIONS(X)                                                          \
  X(time_limit, 0, 0, 0, HUGE_VAL, "seconds of search, then status limit (0: none)") \
  X(node_limit, 1, 0, 0, 1e15, "nodes of search, then status limit (0: none)")       \
  X(certify, 1, 0, 0, 1, "record what a VIPR certificate needs (set by --cert)")     \
  X(cuts, 1, 1, 0, 1, "root cutting planes (0: none; each kind below)")              \
  X(cut_gmi, 1, 1, 0, 1, "Gomory mixed-integer cuts from tableau rows")              \
  X(cut_mir, 1, 1, 0, 1, "c-MIR cuts on rows and their aggregations")                \
  X(cut_cover, 1, 1, 0, 1, "knapsack cover cuts")                                    \
  X(cut_gcd, 1, 1, 0, 1, "divisibility (GCD) cuts")                                  \
  X(cut_vub, 1, 1, 0, 1, "big-M rows tightened by implied bounds")                   \
  X(cut_budget, 1, 0, 0, 1e9,                                                         \
    "LP iterations of a cut round after the first (0: 3 x the first's + 1000)")      \
  X(keep_cuts, 1, 0, 0, 1, "every cut in the search's LP (0: those binding at the root)") \
  X(propagate, 1, 1, 0, 1, "domain propagation on the rows at every node")           \
  X(rcfix, 1, 1, 0, 1, "reduced-cost fixing from the incumbent's cutoff")            \
  X(pricing, 1, 1, 0, 1, "simplex pricing: 0 Dantzig, 1 devex (ilp/lp/pricing.h)")   \
  X(verbosity, 1, 0, 0, 2,                                                            \
    "log: 1 cut rounds, LP work, certificate failures; 2 also node LPs")

/* One field per option. */
typedef struct ilp_options {
#define TWILL_ILP_OPTION_FIELD(name, integer, def, lo, hi, help) double name;
  TWILL_ILP_OPTIONS(TWILL_ILP_OPTION_FIELD)
#undef TWILL_ILP_OPTION_FIELD
} ilp_options;

/* Every option at its default. */
void twill_ilp_options_init(ilp_options *o);

#endif
