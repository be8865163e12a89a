/* core/cli/cli.h: the subcommands of the twill program (not part of
 * libtwill.a: the program links against the library).
 *
 * Each subcommand is a function with main()'s signature (argv[0] is the
 * subcommand's name) that returns the process exit status:
 *   0 success, 1 bad usage or input, 2 infeasible, 3 limit reached without
 *   proof, 4 unbounded (`twill ilp`); `twill sat` follows the SAT
 *   competition (10, 20, 0).
 * The program (core/cli/main.c) dispatches through the table in
 * core/cli/commands.c.
 */
#ifndef TWILL_CLI_H
#define TWILL_CLI_H

#include <stdio.h>

#include "twill/arch.h"
#include "twill/graph.h"

enum {
  TWILL_EXIT_OK = 0,
  TWILL_EXIT_USAGE = 1,
  TWILL_EXIT_INFEASIBLE = 2,
  TWILL_EXIT_LIMIT = 3,
  TWILL_EXIT_UNBOUNDED = 4
};

typedef int (*twill_cmd_fn)(int argc, char **argv);

typedef struct twill_command {
  const char *name;
  twill_cmd_fn run;
  const char *summary;  /* one line for `twill help` */
  const char *usage;    /* full text for `twill help CMD` and CMD --help */
} twill_command;

/* The command table, ending with a {NULL} entry. */
extern const twill_command twill_commands[];
const twill_command *twill_command_find(const char *name);

/* Print a command's usage (to f). */
void twill_cli_usage(const char *cmd, FILE *f);

/* Parse a command-line integer in [lo, hi].  On error prints
 * "<command line>:1:ARGI: OPT expects an integer in [lo, hi], got 'ARG'"
 * to stderr and returns -1. */
int twill_cli_long(const char *opt, const char *arg, int argi, long lo,
                   long hi, long *out);
int twill_cli_double(const char *opt, const char *arg, int argi, double lo,
                     double hi, double *out);
/* Report a usage error for cmd (message + hint), return TWILL_EXIT_USAGE. */
int twill_cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Load a kernel given as a built-in name or a path (.twill or JSON), load
 * its machine (arch_override if not NULL, else the kernel's `arch` line,
 * else "hopper"), validate the graph and bind its units.  On error prints
 * the diagnostic to stderr and returns -1; on success the caller owns *g and
 * *m. */
int twill_cli_load_kernel(const char *kernel, const char *arch_override,
                          twill_graph **g, twill_arch **m);

/* twill_read_file ("-": standard input) without its diagnostic: NULL when
 * the file cannot be read; the caller says so in its own words. */
char *twill_cli_read_file(const char *path, size_t *len);

/* A library log callback: "twill: LINE" on stderr (ctx unused). */
void twill_cli_log(void *ctx, const char *line);

/* Install a SIGINT handler that makes every running search stop as on a
 * time limit (the command then reports the best found and exits 3). */
void twill_cli_catch_interrupt(void);

/* The subcommands, one file each in core/cli/ (cmd_NAME.c). */
int twill_cmd_kernels(int argc, char **argv);
int twill_cmd_bounds(int argc, char **argv);
int twill_cmd_random(int argc, char **argv);
int twill_cmd_validate(int argc, char **argv);
int twill_cmd_check(int argc, char **argv);
int twill_cmd_modulo(int argc, char **argv);
int twill_cmd_solve(int argc, char **argv);
int twill_cmd_emit(int argc, char **argv);
int twill_cmd_gaus(int argc, char **argv);
int twill_cmd_convert_hatschet(int argc, char **argv);
int twill_cmd_ilp(int argc, char **argv);
/* The ilp solver's option table, the generated end of `twill help ilp`. */
void twill_cmd_ilp_options(FILE *f);
int twill_cmd_vipr_check(int argc, char **argv);
/* SAT-competition front ends: exit 10 SAT, 20 UNSAT, 0 unknown */
int twill_cmd_sat(int argc, char **argv);
int twill_cmd_drat_check(int argc, char **argv);
/* The SAT solver's option table (name, default, range, help), for `twill
 * help sat`. */
void twill_cli_sat_options(FILE *f);
int twill_cmd_smt(int argc, char **argv);

#endif
