/* core/cli/main.c: the twill program, a thin dispatcher over libtwill.a.
 *
 * `twill CMD ARGS...` runs a subcommand; `twill help [CMD]`, `twill CMD
 * --help` and `twill --version` are handled here so every command answers
 * them the same way.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "twill/suggest.h"

#ifndef TWILL_VERSION
#define TWILL_VERSION "0.0.0"
#endif

static void print_overview(FILE *f) {
  fprintf(f,
          "twill %s: optimal software pipelining and warp specialization\n"
          "for tensor-core GPU loops, with certificates.\n\n"
          "usage: twill COMMAND [ARGS...]\n"
          "       twill help [COMMAND]\n"
          "       twill --version\n\ncommands:\n",
          TWILL_VERSION);
  for (const twill_command *c = twill_commands; c->name; c++)
    fprintf(f, "  %-11s %s\n", c->name, c->summary);
  fprintf(f,
          "\nKERNEL is a built-in kernel name (see `twill kernels`) or a\n"
          "path to a .twill or JSON kernel file; a file named '-' is\n"
          "standard input, for every command.  `twill help COMMAND` lists a\n"
          "command's options.\n"
          "exit status: 0 ok, 1 bad usage or input, 2 infeasible,\n"
          "3 limit reached without proof, 4 unbounded (twill ilp)\n"
          "(twill sat: 10 SAT, 20 UNSAT, 0 unknown).\n");
}

/* "twill: unknown command 'slove'; did you mean 'solve'? (try ...)". */
static int unknown_command(const char *name) {
  twill_suggest s;
  twill_suggest_init(&s, name);
  for (const twill_command *c = twill_commands; c->name; c++)
    twill_suggest_add(&s, c->name);
  const char *best = twill_suggest_best(&s);
  fprintf(stderr, "twill: unknown command '%s'", name);
  if (best) fprintf(stderr, "; did you mean '%s'?", best);
  fprintf(stderr, " (try 'twill help')\n");
  return TWILL_EXIT_USAGE;
}

static int help(int argc, char **argv) {
  if (argc < 2) {
    print_overview(stdout);
    return TWILL_EXIT_OK;
  }
  if (!twill_command_find(argv[1])) return unknown_command(argv[1]);
  twill_cli_usage(argv[1], stdout);
  return TWILL_EXIT_OK;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_overview(stderr);
    return TWILL_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--version") || !strcmp(name, "version")) {
    printf("twill %s\n", TWILL_VERSION);
    return TWILL_EXIT_OK;
  }
  if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h"))
    return help(argc - 1, argv + 1);
  const twill_command *c = twill_command_find(name);
  if (!c) return unknown_command(name);
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--")) break;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      twill_cli_usage(name, stdout);
      return TWILL_EXIT_OK;
    }
  }
  return c->run(argc - 1, argv + 1);
}
