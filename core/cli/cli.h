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

/* One option a command accepts: the parser, `twill help CMD` and the
 * "did you mean" of an unknown option all read this one table, so an
 * option cannot be accepted without being described. */
typedef struct twill_cli_opt {
  const char *name;   /* "--warps", "-o" */
  const char *arg;    /* its value's name ("N", "FILE"); NULL: a flag */
  const char *help;   /* what it does and its default ('\n' between lines) */
} twill_cli_opt;

typedef struct twill_command {
  const char *name;
  twill_cmd_fn run;
  const char *summary;  /* one line for `twill help` */
  const char *usage;    /* synopsis and description for `twill help CMD` */
  const twill_cli_opt *opts; /* its options, ending with {NULL}; NULL: none */
  const char *tail;     /* printed after the options (exit status), or NULL */
} twill_command;

/* The command table, ending with a {NULL} entry. */
extern const twill_command twill_commands[];
const twill_command *twill_command_find(const char *name);

/* Print a command's help: usage, then every option of its table, then the
 * tail (to f). */
void twill_cli_usage(const char *cmd, FILE *f);

/* Reading a command line against the command's option table:
 *
 *   twill_cli_args a;
 *   twill_cli_args_init(&a, argc, argv);        (argv[0]: the command)
 *   int r;
 *   while ((r = twill_cli_next(&a)) > 0) {
 *     if (!a.opt) operand a.val
 *     else if (twill_cli_is(&a, "--json")) ...
 *     else if (twill_cli_is(&a, "--warps") &&
 *              twill_cli_long(&a, 1, 64, &warps)) return TWILL_EXIT_USAGE;
 *   }
 *   if (r < 0) return TWILL_EXIT_USAGE;
 *
 * An argument is an operand when it does not start with '-', when it is
 * "-" (standard input) and after "--".  An option is found in the table
 * ("--name VALUE" or "--name=VALUE" when it takes a value); an unknown one
 * is reported with the closest name of the table ("did you mean"), a
 * missing value as such, both as usage errors on stderr. */
typedef struct twill_cli_args {
  const char *cmd;
  const twill_cli_opt *opts;
  int argc;
  char **argv;
  int next;           /* index of the next argument */
  int operands_only;  /* after "--" */
  const char *opt;    /* the option just read (its table name); NULL: an
                         operand */
  const char *val;    /* its value, or the operand */
  int matched;        /* a twill_cli_is() recognized the option just read */
} twill_cli_args;

void twill_cli_args_init(twill_cli_args *a, int argc, char **argv);
/* 1: a->opt / a->val hold the next option or operand; 0: no more; -1: a
 * usage error, already reported.  (An option of the table that no
 * twill_cli_is() of the parser recognized is a bug, asserted at the next
 * call: a table row the parser ignores.) */
int twill_cli_next(twill_cli_args *a);
/* Is the option just read NAME?  (NAME must be in the command's table: a
 * branch for an option the table lacks is a bug, asserted.) */
int twill_cli_is(twill_cli_args *a, const char *name);

/* The value of the option just read as an integer / a number in [lo, hi].
 * On error prints "twill CMD: OPT expects an integer in [lo, hi], got
 * 'ARG'" to stderr and returns -1. */
int twill_cli_long(const twill_cli_args *a, long lo, long hi, long *out);
int twill_cli_double(const twill_cli_args *a, double lo, double hi,
                     double *out);

/* For a parser that reads argv itself: report the option arg that it does
 * not know (or whose value is missing) with the table's closest name;
 * returns TWILL_EXIT_USAGE. */
int twill_cli_unknown_option(const char *cmd, const char *arg);

/* Report a usage error for cmd (message + hint), return TWILL_EXIT_USAGE. */
int twill_cli_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Load a kernel given as a built-in name or a path (.twill or JSON; "-":
 * standard input), load its machine (arch_override if not NULL, else the
 * kernel's `arch` line, else "hopper"), validate the graph and bind its
 * units.  On error prints the diagnostic to stderr and returns -1; on
 * success the caller owns *g and *m.  arch_from says where arch_override
 * came from ("twill bounds: --arch"): an override that names no machine has
 * no position of its own, so the message starts with it. */
int twill_cli_load_kernel(const char *kernel, const char *arch_override,
                          const char *arch_from, twill_graph **g,
                          twill_arch **m);

/* The same for a kernel's text already read (file: its name in messages). */
int twill_cli_load_kernel_text(const char *text, size_t len, const char *file,
                               const char *arch_override, const char *arch_from,
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
int twill_cmd_report(int argc, char **argv);
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
