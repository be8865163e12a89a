/* core/commands.c: the command table and its usage texts.
 *
 * One row per subcommand.  A row whose function is NULL is a command of the
 * design that is not built yet; `twill help` says so.
 */
#include <stdio.h>
#include <string.h>

#include "twill/cli.h"
#include "twill/codegen.h"

const twill_command twill_commands[] = {
    {"solve", NULL,
     "joint software pipelining + warp specialization (Algorithm 1)",
     "usage: twill solve KERNEL [--arch A] [--json] [--cert FILE]\n"
     "                   [--time-limit S] [--threads N]\n"},
    {"bounds", twill_cmd_bounds,
     "lower bounds on the initiation interval (ResMII, RecMII) with witnesses",
     "usage: twill bounds KERNEL [--arch A] [--json]\n"
     "\n"
     "Prints ResMII per unit (busy cycles per iteration over capacity),\n"
     "the saturated unit, RecMII with a critical cycle (the recurrence whose\n"
     "latency over distance, rounded up, is largest), and MII = max of both.\n"
     "  --arch A   machine: built-in name (hopper, blackwell) or .arch file\n"
     "  --json     print {kernel, arch, res_mii, rec_mii, mii, units,\n"
     "             saturated_unit, critical_cycle} as JSON\n"},
    {"modulo", NULL, "optimal modulo schedule (Twill phase 1)",
     "usage: twill modulo KERNEL [--json] [--cert FILE] [--time-limit S]\n"},
    {"gaus", NULL, "GauS differentiable scheduler for large graphs",
     "usage: twill gaus KERNEL|--random N [--ii I] [--steps D] [--iters K]\n"
     "                  [--threads T] [--seed S] [--json]\n"},
    {"emit", twill_cmd_emit,
     "pseudocode, CUDA skeleton, tables, Gantt, SVG, JSON, DOT",
     "usage: twill emit KERNEL|SCHEDULE.json --format F [-o FILE] [--arch A]\n"
     "\n"
     "Writes a modulo schedule in a form a person reads.  F is one of:\n"
     "  pseudocode  prologue, steady state (one body per I) and epilogue,\n"
     "              then one program per warp with its mbarrier waits/arrives\n"
     "  cuda        warp-specialized CUDA C++ skeleton for sm_90a\n"
     "  table       stage table, modulo reservation table, pressure per warp\n"
     "  gantt       text Gantt chart (steady state and whole loop, <= 100 cols)\n"
     "  svg         the Gantt chart as an SVG picture\n"
     "  json        the schedule as JSON (kernel, arch, ii, length, times,\n"
     "              warps, stages)\n"
     "  dot         the dependence graph coloured by warp (Graphviz)\n"
     "SCHEDULE.json is a schedule as `--json` prints it; its \"kernel\" names\n"
     "a built-in kernel or a file (also looked up beside the schedule).\n"
     "Given a KERNEL, emit uses a built-in heuristic schedule (not optimal)\n"
     "and a default warp assignment, and says so in the output.\n"
     "  -o FILE    write to FILE instead of standard output\n"
     "  --arch A   machine: built-in name (hopper, blackwell) or .arch file\n"},
    {"check", NULL, "verify a schedule and its optimality certificate",
     "usage: twill check KERNEL CERT\n"},
    {"validate", twill_cmd_validate,
     "parse and validate a kernel; print it back (.twill, JSON or DOT)",
     "usage: twill validate KERNEL [--arch A] [--json | --dot | --text]\n"
     "\n"
     "Parses KERNEL, checks it (names, latencies, distances, zero-distance\n"
     "cycles, units against the machine) and prints it back in the chosen\n"
     "form (default: .twill text).  Exit 1 with file:line:col on error.\n"},
    {"kernels", twill_cmd_kernels, "list the built-in kernels",
     "usage: twill kernels [--print NAME]\n"
     "\n"
     "Lists the built-in kernels, one line each.  --print NAME writes the\n"
     "kernel's .twill source to standard output.\n"},
    {"random", twill_cmd_random, "generate a seeded random kernel",
     "usage: twill random [--nodes N] [--density D] [--back-edges B]\n"
     "                    [--units U] [--max-lat L] [--max-dist K]\n"
     "                    [--max-cap C] [--gaps] [--seed S] [--json]\n"
     "\n"
     "Writes a random loop body: N ops, forward edges u->v (u < v) with\n"
     "probability D, about B loop-carried back edges per op (distance 1..K),\n"
     "U unit kinds of capacity 1..C, latencies 1..L; --gaps gives some ops\n"
     "reservation tables that use a unit at two offsets.  Same flags, same\n"
     "bytes.  Defaults: N 10, D 0.2, B 0.1, U 2, L 4, K 2, C 2, seed 1.\n"},
    {"sat", NULL, "CDCL SAT solver on DIMACS CNF, with DRAT/LRAT proofs",
     "usage: twill sat FILE.cnf [--proof FILE.drat] [--binary-proof]\n"
     "                 [--time-limit S]\n"},
    {"drat-check", NULL, "check a DRAT refutation of a CNF",
     "usage: twill drat-check FILE.cnf FILE.drat\n"},
    {"ilp", NULL, "LP/MIP solver on MPS files, with VIPR certificates",
     "usage: twill ilp FILE.mps [--cert FILE.vipr] [--time-limit S] [--json]\n"},
    {"vipr-check", NULL, "check a VIPR MIP certificate with exact arithmetic",
     "usage: twill vipr-check FILE.vipr\n"},
    {NULL, NULL, NULL, NULL}};

const twill_command *twill_command_find(const char *name) {
  for (const twill_command *c = twill_commands; c->name; c++)
    if (!strcmp(c->name, name)) return c;
  return NULL;
}

void twill_cli_usage(const char *cmd, FILE *f) {
  const twill_command *c = twill_command_find(cmd);
  if (!c) return;
  fprintf(f, "%s", c->usage);
  if (!c->run) fprintf(f, "\n(not built yet in this version)\n");
}
