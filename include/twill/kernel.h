/* twill/kernel.h: a kernel together with its machine.
 *
 * The graph (graph/) and the machine (arch/) are read separately; binding
 * one to the other sits above both: every unit the kernel uses but does not
 * declare takes the machine's capacity, and an op may hold tensor memory
 * only on a machine that has some.  twill_kernel_load does the whole
 * job the commands and tests need: a built-in name or a path, the machine
 * (an override, else the kernel's `arch` line, else "hopper"), validation
 * and binding.
 */
#ifndef TWILL_KERNEL_H
#define TWILL_KERNEL_H

#include "twill/arch.h"
#include "twill/diag.h"
#include "twill/graph.h"

/* Resolve every unit against machine m: undeclared units take the machine's
 * capacity; a unit missing from both is an error (reported at the line of
 * its first use).  A use that needs more instances in one cycle than the
 * unit has is an error too, and so is an op holding tensor memory (tmem)
 * on a machine without any (reported at the op).  m may be NULL: then
 * every unit must be declared.  Returns 0 or -1 with d filled. */
int twill_graph_bind(twill_graph *g, const twill_arch *m, twill_diag *d);

/* Load a kernel given as a built-in name or a path (.twill or JSON; "-" is
 * standard input), load its machine (arch_override if not NULL, else the
 * kernel's `arch` line, else "hopper"), validate the graph and bind its
 * units.  Returns 0 with *g and *m owned by the caller, or -1 with d filled
 * (file:line:col: message).  A machine named by the kernel's `arch` line
 * that is neither built in nor a file is reported at that line; an
 * arch_override naming none leaves d->file empty ("unknown machine 'X'
 * (known: ...)"), for the caller to say where the name came from.  A name
 * that is neither a built-in kernel nor a file is offered the closest
 * built-in name when it looks like a typo of one. */
int twill_kernel_load(const char *kernel, const char *arch_override,
                      twill_graph **g, twill_arch **m, twill_diag *d);

/* The same for a kernel already read (.twill or JSON text, len bytes; file
 * names it in diagnostics), so that a caller that had to look at the bytes
 * first (standard input, read once) need not read them again. */
int twill_kernel_load_text(const char *text, size_t len, const char *file,
                           const char *arch_override, twill_graph **g,
                           twill_arch **m, twill_diag *d);

#endif
