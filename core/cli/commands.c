/* core/cli/commands.c: the command table and its usage texts.
 *
 * One row per subcommand: its name, its function (core/cli/cmd_*.c), the
 * line `twill help` lists and the text `twill help CMD` prints.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "twill/codegen.h"
#include "twill/gaus.h"
#include "twill/formats.h"
#include "twill/ilp.h"
#include "twill/joint.h"
#include "twill/modulo.h"
#include "twill/sat.h"
#include "twill/smt.h"
#include "twill/vipr.h"

const twill_command twill_commands[] = {
    {"solve", twill_cmd_solve,
     "joint software pipelining + warp specialization (Algorithm 1)",
     "usage: twill solve KERNEL [--arch A] [--json] [--cert FILE]\n"
     "                   [--time-limit S] [--threads N] [--warps N]\n"
     "                   [--regs N] [--no-cross-warp] [--extra-copies K]\n"
     "                   [--no-normalize] [--budget U] [--no-symmetry]\n"
     "                   [--no-explain] [--normalized-kernel FILE]\n"
     "                   [--emit F [-o FILE]] [--first-model]\n"
     "                   [--same OPS] [--apart OPS] [--own OPS]\n"
     "                   [--lead A,B]\n"
     "\n"
     "Twill's Algorithm 1: phase 1 gives the least I with a modulo schedule;\n"
     "at each I the joint SWP + warp-specialization problem (twill/joint.h:\n"
     "registers per warp, blocking waits, cross-warp transfers, memories,\n"
     "the variable-latency warp) is solved on the CDCL core with integer\n"
     "propagators for every L within the same number of copies; when it is\n"
     "unsatisfiable, the families of constraints that already conflict are\n"
     "named and phase 1 is re-solved at I + 1.  Prints I*, L, the schedule\n"
     "(start, stage, slot, warp), the warp roles, register and shared-memory\n"
     "use, and the search log.  Costs are normalized (budget U = 300).\n"
     "  --warps N          warps the CTA runs (default: the machine's)\n"
     "  --regs N           per-thread register budget of a warpgroup\n"
     "  --no-cross-warp    register values may not move between warps\n"
     "  --extra-copies K   also try K more copies of I than the paper does\n"
     "  --first-model      keep the first schedule found at (I*, L*), as the\n"
     "                     paper does; by default twill then looks for the one\n"
     "                     with the fewest register values crossing warps\n"
     "  --same A,B,...     role questions, each repeatable: every listed op\n"
     "  --apart A,B,...    shares a warp with A / the listed ops share no\n"
     "  --own A,B,...      warp / as --same, and no other op uses their warps;\n"
     "                     the answer (and its certificate) is then the best\n"
     "                     under those roles, and an UNSAT names them\n"
     "  --lead A,B         A of the next iteration issues before B of this one\n"
     "                     (FA3's hoisting: --lead S_0,PV_0)\n"
     "  --cert FILE        write a certificate; `twill check KERNEL FILE`\n"
     "  --time-limit S     whole search (default 60 s); exit 3 on a limit\n"
     "  --threads N        the least-L search tries N lengths at once (same\n"
     "                     answer and bytes for every N; it pays only when\n"
     "                     that search dominates, not on the built-ins)\n"
     "  --emit F           also write the schedule as F (pseudocode, cuda,\n"
     "                     table, gantt, svg, json, dot; see `twill help\n"
     "                     emit`) to -o FILE, or to stdout instead of the\n"
     "                     report\n"
     "Exit 0 optimal, 3 limit (best schedule and proven bound printed),\n"
     "2 infeasible at every I: an op alone over the budget, or (tried once,\n"
     "when phase 1's I fails) not even one iteration without the\n"
     "loop-carried edges has a joint schedule; --cert then certifies that.\n"},
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
    {"modulo", twill_cmd_modulo, "optimal modulo schedule (Twill phase 1)",
     "usage: twill modulo KERNEL [--arch A] [--json] [--heuristic]\n"
     "                    [--no-normalize] [--budget U] [--time-limit S]\n"
     "                    [--node-limit N] [--cert FILE] [--engine E]\n"
     "                    [--threads T] [--smt-budget C] [--off LEVERS]\n"
     "\n"
     "Normalizes the costs (the program of twill.md 4, budget U = 300), then\n"
     "for I = MII, MII+1, ... decides the problem at I: is there a modulo\n"
     "schedule, and its least length L; the first feasible I is optimal.\n"
     "Prints the bounds, the search log, I*, L and the schedule (start,\n"
     "stage, slot).  --heuristic: iterative modulo scheduling only.\n"
     "--time-limit defaults to 60 s.  Exit 0 optimal, 3 limit reached (the\n"
     "best schedule and proven bounds are printed).\n"
     "The problem at I keeps only the ops on a unit that can be\n"
     "over-subscribed, joined by the longest paths through the others.  Two\n"
     "engines decide it: the integer program on our branch and bound (ilp)\n"
     "and start times on the CDCL core (smt); --engine ilp|smt|both (both,\n"
     "the default: the SMT engine has C conflicts per I, --smt-budget, 200000\n"
     "by default, and its answer is taken when it settles the I, the ILP's\n"
     "otherwise).  --threads 2 (the default) races them on two threads,\n"
     "--threads 1 runs them in turn: same output.  --off LEVERS switches\n"
     "off parts of the formulation, a comma list of reduce, structured\n"
     "(Eichenberger-Davidson dependence rows), windows (slots outside an\n"
     "op's time window fixed), slots (the SMT engine's unit rows over\n"
     "slot variables, every residue of a full unit covered), to measure\n"
     "them.\n"
     "--cert FILE writes a certificate that `twill check KERNEL FILE`\n"
     "verifies: MII re-derived, the schedule validated, and a proof (VIPR\n"
     "or twill-smt) for every I in [MII, I*) (infeasible) and for I* (no\n"
     "shorter L, or L is the critical path).\n"},
    {"gaus", twill_cmd_gaus, "GauS differentiable scheduler for large graphs",
     "usage: twill gaus KERNEL|FILE.gml|FILE.aig|HLS.json|--random N\n"
     "                  [--formulation A|B|C|L]\n"
     "                  [--ii I] [--steps D] [--iters K] [--threads T] [--seed S]\n"
     "                  [--time-limit S] [--lr X] [--alpha X] [--tau X]\n"
     "                  [--arch A] [--json] [--timing] [--no-restart]\n"
     "\n"
     "Gaussian start times N(mu, sigma^2) over D steps, the paper's losses,\n"
     "the augmented Lagrangian around Adam, then legalization (every\n"
     "schedule printed passes the validator).  Formulations (gaus.md):\n"
     "  A  resource + communication (default)   B  peak memory\n"
     "  C  modulo memory at II under a modulo resource cap, with\n"
     "     recurrences; when the relaxation cannot be legalized at II, II\n"
     "     grows (said on stderr)\n"
     "  L  latency under per-step unit caps (default for HLS.json, the\n"
     "     hls_heurigym operator-scheduling files: delay/resource/nodes/edges)\n"
     "  --iters K (1000)  --lr X (Adam step, 0.05)  --alpha X (0.01)\n"
     "  --tau X (LogSumExp temperature, 1)  --steps D (horizon; 0: from the\n"
     "  graph)  --ii I (C: target II; 0: the MII)  --threads T: same bytes\n"
     "  for every T  --timing: seconds per step on stderr\n"
     "  --no-restart: do not restart the relaxation from each legalized\n"
     "  schedule (by default every periodic legalization that is legal\n"
     "  re-initializes mu to it and sigma, Adam as at the start)\n"},
    {"emit", twill_cmd_emit,
     "pseudocode, CUDA skeleton, tables, Gantt, SVG, JSON, DOT",
     "usage: twill emit KERNEL|SCHEDULE.json --format F [-o FILE] [--arch A]\n"
     "                  [--complete]\n"
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
     "  --arch A   machine: built-in name (hopper, blackwell) or .arch file\n"
     "  --complete with --format cuda: a complete, runnable sm_90a GEMM (TMA\n"
     "             loads, an mbarrier ring with a stage per buffer the release\n"
     "             frees ahead, wgmma, a bf16 epilogue) and a host harness\n"
     "             that checks it against a CPU GEMM and cuBLAS and prints\n"
     "             TFLOP/s; for a kernel built like gemm-hopper (two loads, an\n"
     "             MMA, a release).  A KERNEL is solved first (as `twill\n"
     "             solve`: the optimal schedule, not the heuristic one).\n"},
    {"check", twill_cmd_check, "verify a schedule and its optimality certificate",
     "usage: twill check KERNEL CERT [--arch A]\n"
     "\n"
     "Rebuilds every model from KERNEL itself (never from CERT), re-derives\n"
     "the MII, validates the schedule, checks that each proof starts only\n"
     "from constraints of the rebuilt program, and verifies every proof with\n"
     "exact arithmetic.  Prints s VERIFIED (exit 0) or s NOT VERIFIED with\n"
     "the reason (exit 1).  Certificates of `twill modulo --cert` so far.\n"},
    {"validate", twill_cmd_validate,
     "parse and validate a kernel; print it back (.twill, JSON or DOT)",
     "usage: twill validate KERNEL [--arch A] [--json | --dot | --text]\n"
     "\n"
     "Parses KERNEL, checks it (names, latencies, distances, zero-distance\n"
     "cycles, units against the machine) and prints it back in the chosen\n"
     "form (default: .twill text).  Exit 1 with file:line:col on error.\n"},
    {"convert-hatschet", twill_cmd_convert_hatschet,
     "convert a HatScheT instance (GraphML + resource model) to JSON",
     "usage: twill convert-hatschet GRAPH.graphml RM.xml [-o OUT.json]\n"
     "\n"
     "Reads a HatScheT modulo-scheduling instance and writes the JSON kernel\n"
     "form: one op per node (latency of its resource type), one declared\n"
     "unit per limited type used (capacity = limit; each op of the type\n"
     "uses it blockingTime cycles at offset 0), no use for unlimited types\n"
     "(limit -1), edge lat = latency(source) + delay, dist = distance.\n"
     "Errors are reported as file:line:col (exit 1).\n"},
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
    {"sat", twill_cmd_sat, "CDCL SAT solver on DIMACS CNF, with DRAT/LRAT proofs",
     "usage: twill sat FILE.cnf [--proof FILE] [--binary-proof] [--lrat]\n"
     "                 [--time-limit S] [--opt NAME=VALUE]...\n"
     "\n"
     "Exit 10 SAT (v lines give the model), 20 UNSAT, 0 unknown, 1 bad input.\n"
     "  --proof FILE     write a DRAT proof (text; --binary-proof: binary;\n"
     "                   --lrat: LRAT with hints)\n"
     "  --time-limit S   stop after S seconds (s UNKNOWN)\n"
     "  --opt NAME=VALUE set a solver option (also --option), repeatable:\n"},
    {"smt", twill_cmd_smt, "integer/linear constraints on the CDCL core, with checked proofs",
     "usage: twill smt FILE [--proof FILE] [--time-limit S]\n"
     "       twill smt FILE --check PROOF\n"
     "       twill smt --check PROOF\n"
     "\n"
     "Reads the text format of twill/smt.h (int, bool, lin, diff, pb, mod,\n"
     "imp, clause, min), prints s SATISFIABLE / s UNSATISFIABLE / s OPTIMUM\n"
     "FOUND (after an 'o VALUE' line) and 'v NAME VALUE' lines.  Exit 10\n"
     "satisfiable or optimum, 20 unsatisfiable, 0 unknown, 1 input error.\n"
     "--proof FILE: the twill-smt certificate (theory lemmas + DRAT);\n"
     "--check PROOF re-derives it (s VERIFIED, exit 0; else exit 1); with\n"
     "FILE it also requires the proof to begin with FILE's own variables,\n"
     "constraints and clauses and to add none after them but input clauses,\n"
     "which it lists (alone it trusts the proof's input lines).\n"
     "--time-limit S: none by default; at the limit, or on SIGINT/SIGTERM,\n"
     "the answer is s UNKNOWN (exit 0).\n"},
    {"drat-check", twill_cmd_drat_check, "check a DRAT refutation of a CNF",
     "usage: twill drat-check FILE.cnf FILE.drat [--lrat]\n"
     "\n"
     "Backward DRAT check (text or binary); --lrat: check an LRAT proof.\n"
     "Prints s VERIFIED (exit 0) or s NOT VERIFIED (exit 1).\n"},
    {"ilp", twill_cmd_ilp, "LP/MIP solver on MPS and CPLEX LP files, with VIPR certificates",
     "usage: twill ilp FILE [--format lp|mps] [--max | --min] [--cert FILE.vipr]\n"
     "                 [-o FILE] [--time-limit S] [--node-limit N] [--no-cuts]\n"
     "                 [--option NAME=VALUE]... [--verbose] [--json]\n"
     "\n"
     "Solves the LP or MIP in FILE by bounded simplex and branch and bound,\n"
     "with Gomory, c-MIR, knapsack cover and divisibility (GCD) cuts and\n"
     "big-M rows tightened by implied bounds (vub) at the root and RENS/RINS\n"
     "sub-MIPs for incumbents.  FILE is MPS, fixed or free (OBJSENSE, RANGES,\n"
     "every bound type but SC, integer markers), or CPLEX LP (minimize or\n"
     "maximize, subject to, bounds, general, binary, end; a range as\n"
     "lo <= expression <= hi; SOS, semi-continuous, quadratic, indicator and\n"
     "lazy parts are rejected); '-' reads standard input.  Prints status,\n"
     "objective, nonzero values and statistics.\n"
     "  --format F       lp or mps (default: lp for a name ending in .lp, mps\n"
     "                   for any other name and for standard input)\n"
     "  --max, --min     maximize / minimize, whatever the file says (default:\n"
     "                   the file's sense: MPS OBJSENSE, else minimize; LP's\n"
     "                   minimize or maximize)\n"
     "  --cert FILE      write a VIPR certificate of the optimum or of\n"
     "                   infeasibility (check it with `twill vipr-check`); when\n"
     "                   one cannot be written, the search runs again without\n"
     "                   reduced-cost fixing, then without cuts (default: none)\n"
     "  -o FILE          write the solution to FILE ('-': to standard output,\n"
     "                   instead of the report): a line 'status S' (optimal,\n"
     "                   infeasible, unbounded, limit, error), a line\n"
     "                   'objective V' ('objective -' when no solution is\n"
     "                   known), then 'NAME VALUE' for every variable in the\n"
     "                   file's order (VALUE is the last field; %.17g, which\n"
     "                   reads back to the same double)\n"
     "  --time-limit S   seconds of wall clock (default 0: none)\n"
     "  --node-limit N   branch-and-bound nodes (default 0: none)\n"
     "  --no-cuts        no cuts at the root (default: all separators)\n"
     "  --option N=V     set the solver's option N (table below) to V, after\n"
     "                   the shorthands: --time-limit, --node-limit and\n"
     "                   --no-cuts set time_limit, node_limit and cuts=0\n"
     "                   (e.g. cut_mir=0 leaves out the c-MIR cuts)\n"
     "  --verbose        the solver's log on stderr: cut rounds, LP work,\n"
     "                   certificate failures (verbosity=1; --option\n"
     "                   verbosity=2 adds every node LP that is not optimal)\n"
     "  --json           print {status, objective, values, stats} instead\n"
     "  --               what follows is FILE, even if it starts with '-'\n"
     "Exit 0 optimal, 2 infeasible, 4 unbounded (no certificate), 3 time or\n"
     "node limit (the best solution found is printed), 1 bad usage or input,\n"
     "or an optimal or infeasible result --cert could not certify.\n"},
    {"vipr-check", twill_cmd_vipr_check, "check a VIPR MIP certificate with exact arithmetic",
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
  /* the part of a usage that a library table generates */
  if (c->run == twill_cmd_ilp) twill_cmd_ilp_options(f);
  if (c->run == twill_cmd_sat) twill_cli_sat_options(f);
}
