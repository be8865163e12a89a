/* core/cli/commands.c: the command table, its usage texts and option tables.
 *
 * One row per subcommand: its name, its function (core/cli/cmd_*.c), the
 * line `twill help` lists, the text `twill help CMD` prints and the options
 * it accepts.  The parsers read the same option tables (cli.h), so every
 * option a command accepts is listed by its help; each default written here
 * is the one the code uses (tests/test_cli.c compares them with the
 * library's defaults).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define ARCH_HELP                                                          \
  "machine: hopper, blackwell or an .arch file\n"                          \
  "(default: the kernel's arch line, else hopper)"

static const twill_cli_opt solve_opts[] = {
    {"--arch", "A", ARCH_HELP},
    {"--json", NULL, "print the report as JSON"},
    {"--cert", "FILE", "write a certificate; `twill check KERNEL FILE`\n"
                       "verifies it"},
    {"--time-limit", "S", "seconds for the whole search (default: 60);\n"
                          "exit 3 at the limit"},
    {"--threads", "N", "the least-L search tries N lengths at once, and\n"
                       "from 2 on the next I is asked beside the one\n"
                       "being refuted (same answer and bytes for every\n"
                       "N) (default: 1)"},
    {"--warps", "N", "fix the warps W the CTA runs, a multiple of the\n"
                     "warpgroup size, launched at the largest R with\n"
                     "32*W*R within the register file (default:\n"
                     "searched, below)"},
    {"--max-warps", "N", "search every warp count W in whole warpgroups up\n"
                         "to N, each at the launch budget R(W) the register\n"
                         "file allows; the answer: least I, then L, then\n"
                         "fewest warps (default: the machine's warps:\n"
                         "hopper 12, blackwell 16)"},
    {"--pareto", NULL, "print the front (R, W) -> (I*, L*) of the warp\n"
                       "counts searched; with --cert F, one certificate\n"
                       "per point, F.wN (`twill check --warps N`)"},
    {"--regs", "N", "per-thread register ceiling of a warpgroup, at\n"
                    "least the setmaxnreg minimum (default: the\n"
                    "machine's reg_budget: hopper 240, blackwell 128)"},
    {"--no-cross-warp", NULL, "register values may not move between warps"},
    {"--extra-copies", "K", "also try K more copies of I than the paper does\n"
                            "(default: 0)"},
    {"--no-normalize", NULL, "keep the kernel's own cycle counts (default:\n"
                             "normalized with budget 300)"},
    {"--budget", "U", "normalization budget: the distinct normalized\n"
                      "costs sum to at most U (default: 300)"},
    {"--no-symmetry", NULL, "do not break the symmetry of warps (their\n"
                            "first-use order) nor of sub-tiles; the same\n"
                            "I* and L"},
    {"--no-subtile-symmetry", NULL, "do not order isomorphic sub-tiles by their\n"
                                    "first ops' starts (done in kernels of 23\n"
                                    "ops or more); the same I* and L"},
    {"--no-explain", NULL, "do not name the constraint families that\n"
                           "conflict at a refuted I"},
    {"--normalized-kernel", "FILE", "write the normalized kernel (JSON) to FILE"},
    {"--emit", "F", "also write the schedule as F (pseudocode, cuda,\n"
                    "table, gantt, svg, json, dot; see `twill help\n"
                    "emit`) to -o FILE, or to standard output instead\n"
                    "of the report"},
    {"-o", "FILE", "where --emit writes (default: standard output)"},
    {"--first-model", NULL, "keep the first schedule found at (I*, L*), as\n"
                            "the paper does; by default twill then looks\n"
                            "for the one with the fewest register values\n"
                            "crossing warps"},
    {"--same", "A,B,...", "every listed op shares a warp with A"},
    {"--apart", "A,B,...", "the listed ops share no warp"},
    {"--own", "A,B,...", "as --same, and no other op uses their warps"},
    {"--lead", "A,B", "A of the next iteration issues before B of this\n"
                      "one (FA3's hoisting: --lead S_0,PV_0)"},
    {"--gaus-min-ops", "N", "from N ops on, a legalized GauS-C schedule is\n"
                            "phase 1's first incumbent at its I (the\n"
                            "heuristic, whose L sets the copies, stays;\n"
                            "never a bound) (default: 20; 0: never)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt bounds_opts[] = {
    {"--arch", "A", ARCH_HELP},
    {"--json", NULL, "print {kernel, arch, res_mii, rec_mii, mii, units,\n"
                     "saturated_units, critical_cycle, cycle_latency,\n"
                     "cycle_distance} as JSON"},
    {NULL, NULL, NULL}};

static const twill_cli_opt modulo_opts[] = {
    {"--arch", "A", ARCH_HELP},
    {"--json", NULL, "print the result as JSON"},
    {"--heuristic", NULL, "iterative modulo scheduling only: a schedule,\n"
                          "not a proof (no --cert)"},
    {"--no-normalize", NULL, "keep the kernel's own cycle counts (default:\n"
                             "normalized with budget 300)"},
    {"--budget", "U", "normalization budget: the distinct normalized\n"
                      "costs sum to at most U (default: 300)"},
    {"--time-limit", "S", "seconds for the search, and apart for the\n"
                          "normalization (default: 60); exit 3 at the\n"
                          "limit"},
    {"--node-limit", "N", "branch-and-bound nodes per I (default: none)"},
    {"--cert", "FILE", "write a certificate; `twill check KERNEL FILE`\n"
                       "verifies it"},
    {"--gaus-min-ops", "N", "from N ops on, a legalized GauS-C schedule is\n"
                            "the heuristic when its (I, L) is smaller, else\n"
                            "the program's first incumbent at its I (never\n"
                            "a bound: what is proven does not change)\n"
                            "(default: 20; 0: never)"},
    {"--engine", "E", "ilp, smt or both: who decides each I (default:\n"
                      "both)"},
    {"--threads", "T", "1: the engines in turn; 2: they race (default:\n"
                       "2); the output is the same"},
    {"--smt-budget", "C", "the SMT engine's conflicts per I when the ILP\n"
                          "runs too (default: 200000)"},
    {"--off", "LEVERS", "switch off parts of the formulation, to measure\n"
                        "them: a comma list of reduce (every op keeps a\n"
                        "variable), structured (Eichenberger-Davidson\n"
                        "dependence rows), windows (slots outside an op's\n"
                        "time window fixed), slots (the SMT engine's unit\n"
                        "rows over slot variables, every residue of a full\n"
                        "unit covered), times (with slots, the unit rows\n"
                        "over the start times too, where a stretch of time\n"
                        "too short for the uses it must hold is a\n"
                        "conflict), relative (the unit rows over times\n"
                        "relative to an anchor op, on the circle of\n"
                        "residues, where they refute an I at once)\n"
                        "(default: none)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt gaus_opts[] = {
    {"--random", "N", "schedule a seeded random graph of N ops (seed\n"
                      "--seed; loop-carried edges with formulation C\n"
                      "only) instead of a file"},
    {"--formulation", "A|B|C|L", "the problem (default: A; L for HLS.json)"},
    {"--ii", "I", "formulation C: the target II (default: 0, the MII)"},
    {"--steps", "D", "the horizon in steps (default: 0, from the graph)"},
    {"--iters", "K", "Adam iterations (default: 1000)"},
    {"--lr", "X", "Adam step (default: 0.05)"},
    {"--alpha", "X", "weight of communication in A (default: 0.01)"},
    {"--tau", "X", "LogSumExp temperature (default: 1)"},
    {"--seed", "S", "random seed (default: 1)"},
    {"--threads", "T", "threads; the same bytes for every T (default: 1)"},
    {"--time-limit", "S", "seconds (default: none); exit 3 when it stops\n"
                          "the search"},
    {"--arch", "A", ARCH_HELP},
    {"--json", NULL, "the schedule in the keys of `twill modulo --json`\n"
                     "(kernel, arch, ii, length, times and stages by op\n"
                     "name, in the kernel's own cycles: \"time_unit\":\n"
                     "\"cycle\"), which `twill emit` draws, then GauS's\n"
                     "measures (formulation, horizon, steps, peaks,\n"
                     "objective)"},
    {"--timing", NULL, "seconds per step on stderr"},
    {"--no-restart", NULL, "do not restart the relaxation from each\n"
                           "legalized schedule (by default every periodic\n"
                           "legalization that is legal re-initializes mu to\n"
                           "it, and sigma and Adam as at the start)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt emit_opts[] = {
    {"--format", "F", "pseudocode, cuda, table, gantt, svg, json or dot\n"
                      "(required; also --format=F)"},
    {"-o", "FILE", "write to FILE (default: standard output)"},
    {"--arch", "A", "machine: hopper, blackwell or an .arch file\n"
                    "(default: the schedule's arch, else the kernel's\n"
                    "arch line, else hopper)"},
    {"--complete", NULL, "with --format cuda: a complete, runnable sm_90a\n"
                         "GEMM (TMA loads, an mbarrier ring with a stage\n"
                         "per buffer the release frees ahead, wgmma, a\n"
                         "bf16 epilogue) and a host harness that checks it\n"
                         "against a CPU GEMM and cuBLAS and prints TFLOP/s;\n"
                         "for a kernel built like gemm-hopper (two loads,\n"
                         "an MMA, a release).  A KERNEL is solved first (as\n"
                         "`twill solve`: the optimal schedule, not the\n"
                         "heuristic one)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt check_opts[] = {
    {"--arch", "A", ARCH_HELP},
    {"--no-normalize", NULL, "the certificate is of the kernel's own cycle\n"
                             "counts (default: normalized with budget 300)"},
    {"--budget", "U", "the normalization budget the certificate was made\n"
                      "with (default: 300)"},
    {"--warps", "N", "solve certificates: as `twill solve --warps`\n"
                     "(default: the warp count searched)"},
    {"--max-warps", "N", "solve certificates: as `twill solve --max-warps`\n"
                         "(default: the machine's warps)"},
    {"--regs", "N", "solve certificates: as `twill solve --regs`\n"
                    "(default: the machine's)"},
    {"--no-cross-warp", NULL, "solve certificates: as `twill solve\n"
                              "--no-cross-warp`"},
    {"--same", "A,B,...", "solve certificates: the relations of `twill\n"
                          "solve`, in the same order"},
    {"--apart", "A,B,...", "(as --same)"},
    {"--own", "A,B,...", "(as --same)"},
    {"--lead", "A,B", "(as --same)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt validate_opts[] = {
    {"--arch", "A", ARCH_HELP},
    {"--text", NULL, "print the .twill text form (the default)"},
    {"--json", NULL, "print the JSON form"},
    {"--dot", NULL, "print the graph for Graphviz"},
    {NULL, NULL, NULL}};

static const twill_cli_opt convert_opts[] = {
    {"-o", "OUT.json", "write to OUT.json (default: standard output)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt kernels_opts[] = {
    {"--print", "NAME", "write the kernel's .twill source to standard output"},
    {NULL, NULL, NULL}};

static const twill_cli_opt random_opts[] = {
    {"--nodes", "N", "ops (default: 10)"},
    {"--density", "D", "probability of each forward edge u->v, u < v\n"
                       "(default: 0.3)"},
    {"--back-edges", "B", "expected loop-carried edges per op (default: 0.2)"},
    {"--units", "U", "unit kinds (default: 3)"},
    {"--max-lat", "L", "latencies drawn from 1..L (default: 10)"},
    {"--max-dist", "K", "back-edge distances drawn from 1..K (default: 2)"},
    {"--max-cap", "C", "unit capacities drawn from 1..C (default: 2)"},
    {"--gaps", NULL, "some ops get reservation tables that use a unit\n"
                     "at two offsets"},
    {"--seed", "S", "random seed (default: 1)"},
    {"--json", NULL, "print the JSON form (default: .twill text)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt sat_opts[] = {
    {"--proof", "FILE", "write a DRAT proof of unsatisfiability (text)"},
    {"--binary-proof", NULL, "with --proof: binary DRAT"},
    {"--lrat", NULL, "with --proof: LRAT, with hints"},
    {"--time-limit", "S", "seconds (default: none); then s UNKNOWN"},
    {"--opt", "NAME=VALUE", "a solver option, repeatable: the table below\n"
                            "(twill/sat.h)"},
    {"--option", "NAME=VALUE", "the same as --opt"},
    {NULL, NULL, NULL}};

static const twill_cli_opt smt_opts[] = {
    {"--proof", "FILE", "write the twill-smt certificate (theory lemmas\n"
                        "+ DRAT)"},
    {"--time-limit", "S", "seconds (default: none); at the limit, or on\n"
                          "SIGINT/SIGTERM, the answer is s UNKNOWN"},
    {"--check", "PROOF", "check PROOF instead of solving: s VERIFIED (exit\n"
                         "0), else exit 1; with FILE it also requires the\n"
                         "proof to begin with FILE's own variables,\n"
                         "constraints and clauses and to add none after\n"
                         "them but input clauses, which it lists (alone\n"
                         "it trusts the proof's input lines)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt drat_opts[] = {
    {"--lrat", NULL, "the proof is text LRAT, each lemma checked by\n"
                     "following its hints (default: DRAT, text or\n"
                     "binary)"},
    {NULL, NULL, NULL}};

static const twill_cli_opt ilp_opts[] = {
    {"--format", "F", "lp or mps (default: lp for a name ending in .lp,\n"
                      "mps for any other name and for standard input)"},
    {"--max", NULL, "maximize, whatever the file says (default: the\n"
                    "file's sense: MPS OBJSENSE, else minimize; LP's\n"
                    "minimize or maximize)"},
    {"--min", NULL, "minimize, whatever the file says"},
    {"--cert", "FILE.vipr", "write a VIPR certificate of the optimum or of\n"
                            "infeasibility (check it with `twill\n"
                            "vipr-check`); when one cannot be written, the\n"
                            "search runs again without reduced-cost fixing,\n"
                            "then without cuts (default: none)"},
    {"-o", "FILE", "write the solution to FILE ('-': to standard\n"
                   "output, instead of the report): a line 'status S'\n"
                   "(optimal, infeasible, unbounded, limit, error), a\n"
                   "line 'objective V' ('objective -' when no solution\n"
                   "is known), then 'NAME VALUE' for every variable in\n"
                   "the file's order (%.17g, which reads back to the\n"
                   "same double)"},
    {"--time-limit", "S", "seconds of wall clock (default 0: none); exit 3\n"
                          "at the limit"},
    {"--node-limit", "N", "branch-and-bound nodes (default 0: none)"},
    {"--no-cuts", NULL, "no cuts at the root (default: all separators)"},
    {"--option", "NAME=VALUE", "set the solver's option NAME (table below),\n"
                               "after the shorthands: --time-limit,\n"
                               "--node-limit and --no-cuts set time_limit,\n"
                               "node_limit and cuts=0 (e.g. cut_mir=0 leaves\n"
                               "out the c-MIR cuts); repeatable"},
    {"--verbose", NULL, "the solver's log on stderr: cut rounds, LP work,\n"
                        "certificate failures (verbosity=1; --option\n"
                        "verbosity=2 adds every node LP that is not\n"
                        "optimal)"},
    {"--json", NULL, "print {status, objective, values, stats} instead"},
    {NULL, NULL, NULL}};

static const twill_cli_opt report_opts[] = {
    {"-o", "FILE", "the page (default: standard output)"},
    {"--arch", "A", ARCH_HELP},
    {"--solver", "S", "how a KERNEL is solved: solve (Algorithm 1, as\n"
                      "`twill solve`), modulo (phase 1, as `twill\n"
                      "modulo`: no warps) or gaus (GauS formulation C on\n"
                      "the kernel's own cycles: a heuristic, never\n"
                      "certified) (default: solve)"},
    {"--no-cert", NULL, "neither write nor check a certificate; the page\n"
                        "says \"not certified\""},
    {"--cert", "FILE", "also save the certificate the page's status is\n"
                       "about (solve and modulo)"},
    {"--time-limit", "S", "seconds for the search (default: 60); exit 3 at\n"
                          "the limit, the page says what was proven"},
    {"--no-normalize", NULL, "keep the kernel's own cycle counts (default:\n"
                             "normalized with budget 300; the page shows\n"
                             "both scales)"},
    {"--budget", "U", "normalization budget (default: 300)"},
    {"--warps", "N", "--solver solve: warps the CTA runs (default: the\n"
                     "machine's)"},
    {"--regs", "N", "--solver solve: per-thread register budget of a\n"
                    "warpgroup (default: the machine's reg_budget)"},
    {"--no-cross-warp", NULL, "--solver solve: register values may not move\n"
                              "between warps"},
    {"--first-model", NULL, "--solver solve: the first schedule found at\n"
                            "(I*, L*), as the paper does"},
    {"--same", "A,B,...", "--solver solve: every listed op shares a warp\n"
                          "with A"},
    {"--apart", "A,B,...", "--solver solve: the listed ops share no warp"},
    {"--own", "A,B,...", "--solver solve: as --same, and no other op uses\n"
                         "their warps"},
    {"--lead", "A,B", "--solver solve: A of the next iteration issues\n"
                      "before B of this one"},
    {NULL, NULL, NULL}};

const twill_command twill_commands[] = {
    {"solve", twill_cmd_solve,
     "joint software pipelining + warp specialization (Algorithm 1)",
     "usage: twill solve KERNEL [options]\n"
     "\n"
     "Twill's Algorithm 1: phase 1 gives the least I with a modulo schedule;\n"
     "at each I the joint SWP + warp-specialization problem (twill/joint.h:\n"
     "registers per warp, blocking waits, cross-warp transfers, memories,\n"
     "the variable-latency warp) is solved on the CDCL core with integer\n"
     "propagators for every L within the same number of copies; when it is\n"
     "unsatisfiable, the families of constraints that already conflict are\n"
     "named and phase 1 is re-solved at I + 1.  Prints I*, L, the schedule\n"
     "(start, stage, slot, warp), the warp roles, register and shared-memory\n"
     "use, and the search log (one progress line per query on stderr when\n"
     "it is a terminal).  --same, --apart and --own ask role questions, each\n"
     "repeatable: the answer (and its certificate) is then the best under\n"
     "those roles, and an UNSAT names them.  The warp count W is searched\n"
     "too (twill/launch.h): each W in whole warpgroups is launched at the\n"
     "most registers per thread R(W) with 32*W*R(W) within the register\n"
     "file, setmaxnreg sharing that among its warpgroups; the answer is the\n"
     "least I, then L, then the fewest warps, and the search lists every W\n"
     "with its (I*, L*) or why it fails.  KERNEL '-' is standard input.\n",
     solve_opts,
     "Exit 0 optimal, 3 limit (best schedule and proven bound printed),\n"
     "2 infeasible at every I: an op alone over the budget; the registers\n"
     "live at one slot (a warpgroup op's, the values kept live at every\n"
     "slot) fitting no assignment to the warpgroups; or (tried once, when\n"
     "phase 1's I fails) not even one iteration without the loop-carried\n"
     "edges has a joint schedule; --cert then certifies the last two.\n"},
    {"bounds", twill_cmd_bounds,
     "lower bounds on the initiation interval (ResMII, RecMII) with witnesses",
     "usage: twill bounds KERNEL [options]\n"
     "\n"
     "Prints ResMII per unit (busy cycles per iteration over capacity),\n"
     "the saturated unit, RecMII with a critical cycle (the recurrence whose\n"
     "latency over distance, rounded up, is largest), and MII = max of both.\n"
     "KERNEL '-' is standard input.\n",
     bounds_opts, NULL},
    {"modulo", twill_cmd_modulo, "optimal modulo schedule (Twill phase 1)",
     "usage: twill modulo KERNEL [options]\n"
     "\n"
     "Normalizes the costs (the program of docs/model.md section 2), then\n"
     "for I = MII, MII+1, ... decides the problem at I: is there a modulo\n"
     "schedule, and its least length L; the first feasible I is optimal.\n"
     "Prints the bounds, the search log, I*, L and the schedule (start,\n"
     "stage, slot) in real cycles, the normalized values beside them (the\n"
     "same normalization as twill solve); on a terminal, one progress line\n"
     "per I on stderr.\n"
     "The problem at I keeps only the ops on a unit that can be\n"
     "over-subscribed, joined by the longest paths through the others.  Two\n"
     "engines decide it: the integer program on our branch and bound (ilp)\n"
     "and start times on the CDCL core (smt).  With both (the default) the\n"
     "SMT engine's answer is taken when it settles the I within its\n"
     "--smt-budget conflicts, the ILP's otherwise; --threads 2 races them,\n"
     "--threads 1 runs them in turn, with the same output.\n"
     "--cert FILE writes a certificate that `twill check KERNEL FILE`\n"
     "verifies: MII re-derived, the schedule validated, and a VIPR proof for\n"
     "every I in [MII, I*) (infeasible) and for I* (no shorter L), each about\n"
     "the plain integer program at I (every op, no reduction), which is\n"
     "solved again for the certificate whichever engine decided the I.\n"
     "KERNEL '-' is standard input.\n",
     modulo_opts,
     "Exit 0 optimal, 3 limit reached (the best schedule and proven bounds\n"
     "are printed).\n"},
    {"gaus", twill_cmd_gaus, "GauS differentiable scheduler for large graphs",
     "usage: twill gaus KERNEL|FILE.gml|FILE.aig|HLS.json [options]\n"
     "       twill gaus --random N [options]\n"
     "\n"
     "Gaussian start times N(mu, sigma^2) over D steps, the paper's losses,\n"
     "the augmented Lagrangian around Adam, then legalization (every\n"
     "schedule printed passes the validator).  Formulations (the GauS paper, arXiv 2602.20427):\n"
     "  A  resource + communication (default)   B  peak memory\n"
     "  C  modulo memory at II under a modulo resource cap, with\n"
     "     recurrences; the least II the initial relaxation legalizes at is\n"
     "     searched up from the target (galloping, then bisection), then the\n"
     "     relaxation aims at one less (said on stderr)\n"
     "  L  latency under per-step unit caps (default for HLS.json, the\n"
     "     hls_heurigym operator-scheduling files: delay/resource/nodes/edges)\n"
     "The input is told by its extension; '-' (standard input) by its\n"
     "content.  Progress goes to stderr when it is a terminal.\n",
     gaus_opts, "Exit 0, 3 when the time limit stopped the search.\n"},
    {"emit", twill_cmd_emit,
     "pseudocode, CUDA skeleton, tables, Gantt, SVG, JSON, DOT",
     "usage: twill emit KERNEL|SCHEDULE.json --format F [options]\n"
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
     "SCHEDULE.json is a schedule as `--json` prints it (modulo, solve, emit):\n"
     "it carries its kernel and the mapping of its normalized costs, so it is\n"
     "drawn from the file alone (older files name the kernel: a built-in or a\n"
     "file, also looked up beside the schedule).\n"
     "Every output prints real cycles and states the normalization scale.\n"
     "Given a KERNEL, emit uses a built-in heuristic schedule (not optimal)\n"
     "and a default warp assignment, and says so in the output.  '-' reads\n"
     "either from standard input.\n",
     emit_opts, NULL},
    {"report", twill_cmd_report,
     "one self-contained HTML page about a schedule, for review or teaching",
     "usage: twill report KERNEL|SCHEDULE.json [options]\n"
     "\n"
     "Writes one HTML file (inline SVG, CSS and script; it loads nothing)\n"
     "with: the answer and the certificate's status; the lower bounds and\n"
     "why (ResMII per unit with the saturated unit, RecMII with a critical\n"
     "cycle); every I the search refuted with the constraint families that\n"
     "conflict (\"registers of warpgroup 1; blocking wait of rescale_1\");\n"
     "the kernel graph; the steady state per warp role and per unit; the\n"
     "whole pipelined loop with its prologue and epilogue; the modulo\n"
     "reservation table; register, shared- and tensor-memory pressure per\n"
     "slot; the schedule op by op.  Hovering an op lights its edges, bars\n"
     "and slots; a toggle shows cycles real or normalized.\n"
     "A KERNEL is solved first (--solver); the certificate the solver\n"
     "writes is verified at once by the independent checker (as `twill\n"
     "check`).  SCHEDULE.json: what `twill solve --json`, `twill modulo\n"
     "--json`, `twill gaus --json` or `twill emit --format json` wrote (its\n"
     "\"kernel\" a built-in or a file, also looked up beside the\n"
     "schedule), drawn as it is: the search log and the warp model come\n"
     "from the file when it has them; an \"infeasible at every I\" answer of\n"
     "`twill solve --json` (no times) is reported as such; the solver\n"
     "options go with a KERNEL only.  '-' reads either from standard input.\n",
     report_opts,
     "Exit 0, 2 infeasible at every I, 3 limit (the page is written in each\n"
     "case), 1 bad usage or input, or a certificate the checker rejects.\n"},
    {"check", twill_cmd_check, "verify a modulo or solve certificate against a kernel and machine",
     "usage: twill check KERNEL CERT [options]\n"
     "\n"
     "Verifies a certificate of `twill modulo --cert` or `twill solve --cert`.\n"
     "What is claimed about comes from this command line, never from CERT:\n"
     "the kernel, its machine (its arch line, or --arch), the normalization\n"
     "budget (300 unless --budget or --no-normalize) and, for a solve\n"
     "certificate, the joint problem's parameters (the machine's, with the\n"
     "same flags as `twill solve`).  CERT states them too; a difference is a\n"
     "rejection naming the value.  The checker computes the normalized costs\n"
     "and verifies the certificate's proof of their optimality, re-derives\n"
     "the MII, builds every program and joint problem itself, validates the\n"
     "schedules, and verifies every VIPR and twill-smt proof with exact\n"
     "arithmetic; it runs no solver and reads no clock.  Either of KERNEL and\n"
     "CERT may be '-' (standard input), not both.\n",
     check_opts,
     "Prints the verdict (kernel, machine, claim, parameters, costs) and\n"
     "s VERIFIED (exit 0), or s NOT VERIFIED with CERT:LINE: reason on\n"
     "stderr (exit 1).\n"},
    {"validate", twill_cmd_validate,
     "parse and validate a kernel; print it back (.twill, JSON or DOT)",
     "usage: twill validate KERNEL [options]\n"
     "\n"
     "Parses KERNEL, checks it (names, latencies, distances, zero-distance\n"
     "cycles, units and memories against the machine) and prints it back in\n"
     "the chosen form.  KERNEL '-' is standard input.\n",
     validate_opts, "Exit 1 with file:line:col on error.\n"},
    {"convert-hatschet", twill_cmd_convert_hatschet,
     "convert a HatScheT instance (GraphML + resource model) to JSON",
     "usage: twill convert-hatschet GRAPH.graphml RM.xml [options]\n"
     "\n"
     "Reads a HatScheT modulo-scheduling instance and writes the JSON kernel\n"
     "form: one op per node (latency of its resource type), one declared\n"
     "unit per limited type used (capacity = limit; each op of the type\n"
     "uses it blockingTime cycles at offset 0), no use for unlimited types\n"
     "(limit -1), edge lat = latency(source) + delay, dist = distance.\n"
     "Either file may be '-' (standard input), not both.\n",
     convert_opts, "Errors are reported as file:line:col (exit 1).\n"},
    {"kernels", twill_cmd_kernels, "list the built-in kernels",
     "usage: twill kernels [options]\n"
     "\n"
     "Lists the built-in kernels, one line each.\n",
     kernels_opts, NULL},
    {"random", twill_cmd_random, "generate a seeded random kernel",
     "usage: twill random [options]\n"
     "\n"
     "Writes a random loop body: N ops, forward edges u->v (u < v) with\n"
     "probability D, about B loop-carried back edges per op (distance 1..K),\n"
     "U unit kinds of capacity 1..C, latencies 1..L.  Same flags, same\n"
     "bytes, on every machine.\n",
     random_opts, NULL},
    {"sat", twill_cmd_sat, "CDCL SAT solver on DIMACS CNF, with DRAT/LRAT proofs",
     "usage: twill sat FILE.cnf [options]\n"
     "\n"
     "Solves a DIMACS CNF ('-': standard input) and prints the SAT\n"
     "competition's output: c statistics, s SATISFIABLE with v lines (the\n"
     "model), s UNSATISFIABLE or s UNKNOWN.\n",
     sat_opts,
     "Exit 10 SAT, 20 UNSAT, 0 unknown, 1 bad usage or input.\n"},
    {"smt", twill_cmd_smt, "integer/linear constraints on the CDCL core, with checked proofs",
     "usage: twill smt FILE [--proof FILE] [--time-limit S]\n"
     "       twill smt FILE --check PROOF\n"
     "       twill smt --check PROOF\n"
     "\n"
     "Reads the text format of twill/smt.h (int, bool, lin, diff, pb, mod,\n"
     "imp, clause, min), prints s SATISFIABLE / s UNSATISFIABLE / s OPTIMUM\n"
     "FOUND (after an 'o VALUE' line) and 'v NAME VALUE' lines.  FILE or\n"
     "PROOF may be '-' (standard input), not both.\n",
     smt_opts,
     "Exit 10 satisfiable or optimum, 20 unsatisfiable, 0 unknown, 1 input\n"
     "error; with --check 0 verified, 1 not.\n"},
    {"drat-check", twill_cmd_drat_check, "check a DRAT refutation of a CNF",
     "usage: twill drat-check FILE.cnf FILE.drat [options]\n"
     "\n"
     "Backward DRAT check of a refutation of FILE.cnf (RUP, else RAT on the\n"
     "first literal; text or binary DRAT).  Either file may be '-'\n"
     "(standard input), not both.\n",
     drat_opts, "Prints s VERIFIED (exit 0) or s NOT VERIFIED (exit 1).\n"},
    {"ilp", twill_cmd_ilp, "LP/MIP solver on MPS and CPLEX LP files, with VIPR certificates",
     "usage: twill ilp FILE [options]\n"
     "\n"
     "Solves the LP or MIP in FILE by bounded simplex and branch and bound,\n"
     "with Gomory, c-MIR, knapsack cover and divisibility (GCD) cuts and\n"
     "big-M rows tightened by implied bounds (vub) at the root and RENS/RINS\n"
     "sub-MIPs for incumbents.  FILE is MPS, fixed or free (OBJSENSE, RANGES,\n"
     "every bound type but SC, integer markers), or CPLEX LP (minimize or\n"
     "maximize, subject to, bounds, general, binary, end; a range as\n"
     "lo <= expression <= hi; SOS, semi-continuous, quadratic, indicator and\n"
     "lazy parts are rejected); '-' reads standard input, and after '--'\n"
     "FILE may start with '-'.  Prints status, objective, nonzero values and\n"
     "statistics.\n",
     ilp_opts,
     "Exit 0 optimal, 2 infeasible, 4 unbounded (no certificate), 3 time or\n"
     "node limit (the best solution found is printed), 1 bad usage or input,\n"
     "or an optimal or infeasible result --cert could not certify.\n"},
    {"vipr-check", twill_cmd_vipr_check, "check a VIPR MIP certificate with exact arithmetic",
     "usage: twill vipr-check FILE.vipr\n"
     "\n"
     "Checks a VIPR certificate (Cheung, Gleixner and Steffy's format for\n"
     "verified MIP results, as `twill ilp --cert` writes it) in exact\n"
     "rational arithmetic: every derived constraint follows from the\n"
     "problem's constraints and the earlier derivations, every solution in\n"
     "SOL is feasible with its objective value, and the derivations prove\n"
     "the claimed bound (RTP: infeasible, or the range of the optimum).\n"
     "FILE '-' is standard input.\n",
     NULL,
     "Prints s VERIFIED after a c line with the proven result (exit 0), or\n"
     "the reason on stderr and s NOT VERIFIED (exit 1).\n"},
    {NULL, NULL, NULL, NULL, NULL, NULL}};

const twill_command *twill_command_find(const char *name) {
  for (const twill_command *c = twill_commands; c->name; c++)
    if (!strcmp(c->name, name)) return c;
  return NULL;
}

/* An option's lines: "  --name ARG" in a column of OPT_COL characters,
 * then its help, continuation lines under the first (a name too long for
 * the column puts the help on the next line). */
#define OPT_COL 24

void twill_cli_usage(const char *cmd, FILE *f) {
  const twill_command *c = twill_command_find(cmd);
  if (!c) return;
  fputs(c->usage, f);
  if (c->opts && c->opts[0].name) {
    fputs("\noptions:\n", f);
    for (const twill_cli_opt *o = c->opts; o->name; o++) {
      char head[64];
      int n = snprintf(head, sizeof head, "  %s%s%s", o->name, o->arg ? " " : "",
                       o->arg ? o->arg : "");
      fputs(head, f);
      if (n >= OPT_COL - 1) fprintf(f, "\n%*s", OPT_COL, "");
      else fprintf(f, "%*s", OPT_COL - n, "");
      for (const char *h = o->help; *h; h++) {
        fputc(*h, f);
        if (*h == '\n') fprintf(f, "%*s", OPT_COL, "");
      }
      fputc('\n', f);
    }
  }
  /* the part of a usage that a library table generates */
  if (c->run == twill_cmd_ilp) twill_cmd_ilp_options(f);
  if (c->run == twill_cmd_sat) {
    fputc('\n', f);
    twill_cli_sat_options(f);
  }
  if (c->tail) {
    fputc('\n', f);
    fputs(c->tail, f);
  }
}
