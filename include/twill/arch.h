/* twill/arch.h: machine descriptions (one SM of a tensor-core GPU).
 *
 * A machine gives what the schedulers need and nothing else: functional
 * units and how many instances of each an SM has, the memories a result can
 * live in and their capacities, the warps available for specialization, the
 * register file and its per-thread limits, and the cost of moving a value
 * from one warp to another.  Built-in machines: "hopper" (H100 SXM5) and
 * "blackwell" (B200); every number in them says where it comes from.
 *
 * The .arch text format (line-oriented, '#' comments, blank-separated):
 *
 *   arch NAME                      first line that is not a comment
 *   clock_mhz N                    SM clock, for cycles <-> seconds
 *   unit NAME CAPACITY             a functional unit kind
 *   memory NAME CAPACITY           smem (bytes), tmem (columns), ...
 *   warps N                        warps a CTA may use for specialization
 *   warpgroup N                    warps per warpgroup (4)
 *   regs_per_sm N                  32-bit registers per SM
 *   max_regs_thread N              hard per-thread limit (255)
 *   reg_budget N                   default per-thread budget of a compute thread
 *   setmaxnreg LO HI STEP          setmaxnreg range and granularity (0 0 0: absent)
 *   cross_warp N                   default cycles to move a value between warps
 *   mma_issue thread|warp|warpgroup  who issues the tensor-core op
 *
 * Every key except `arch` is optional; unknown keys are errors.
 */
#ifndef TWILL_ARCH_H
#define TWILL_ARCH_H

#include <stdio.h>

#include "twill/diag.h"
#include "twill/graph.h"

typedef struct twill_arch_unit {
  char *name;
  int capacity;
} twill_arch_unit;

typedef struct twill_arch_mem {
  char *name;
  long capacity;
} twill_arch_mem;

typedef struct twill_arch {
  char *name;
  long clock_mhz;
  twill_arch_unit *units;
  int nunits;
  twill_arch_mem *mems;
  int nmems;
  int warps;            /* warps available to one CTA */
  int warpgroup;        /* warps per warpgroup */
  long regs_per_sm;
  int max_regs_thread;
  int reg_budget;       /* default per-thread budget of a compute thread */
  int setmaxnreg_lo, setmaxnreg_hi, setmaxnreg_step;
  long cross_warp;      /* default cross-warp transfer cost, cycles */
  twill_issue mma_issue;
  int cap_units, cap_mems; /* private */
} twill_arch;

twill_arch *twill_arch_new(const char *name);
void twill_arch_free(twill_arch *m);
twill_arch *twill_arch_clone(const twill_arch *m);

/* Add or replace a unit / memory; 0 or -1 on allocation failure. */
int twill_arch_set_unit(twill_arch *m, const char *name, int capacity);
int twill_arch_set_mem(twill_arch *m, const char *name, long capacity);
/* Capacity of a unit (-1 if absent) / memory (-1 if absent). */
int twill_arch_unit_cap(const twill_arch *m, const char *name);
long twill_arch_mem_cap(const twill_arch *m, const char *name);

/* Parse .arch text; NULL with d filled on error. */
twill_arch *twill_arch_parse(const char *text, size_t len, const char *file,
                             twill_diag *d);
/* A built-in machine by name ("hopper", "blackwell"), or else a path to an
 * .arch file.  NULL with d filled when neither. */
twill_arch *twill_arch_load(const char *name_or_path, twill_diag *d);
/* Print in .arch form (parse(print(m)) == m). */
int twill_arch_print(const twill_arch *m, FILE *f);

/* Built-in machines: names, and their .arch source text. */
int twill_arch_builtin_count(void);
const char *twill_arch_builtin_name(int i);
const char *twill_arch_builtin_text(const char *name); /* NULL if unknown */

#endif
