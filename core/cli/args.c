/* core/cli/args.c: reading a command line against the command's option
 * table (cli.h): operands, options with or without values, numbers in a
 * range, and "did you mean" for an option the table does not have. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/suggest.h"

static const twill_cli_opt *find_opt(const twill_cli_opt *opts,
                                     const char *name, size_t len) {
  for (const twill_cli_opt *o = opts; o && o->name; o++)
    if (strlen(o->name) == len && !strncmp(o->name, name, len)) return o;
  return NULL;
}

static const twill_cli_opt *table_of(const char *cmd) {
  const twill_command *c = twill_command_find(cmd);
  return c ? c->opts : NULL;
}

/* "twill CMD: unknown option '--jsn'; did you mean '--json'? (try ...)" */
static int unknown(const char *cmd, const twill_cli_opt *opts, const char *arg) {
  size_t len = strcspn(arg, "=");
  const twill_cli_opt *o = find_opt(opts, arg, len);
  /* a parser of its own (ilp) may not take "--name=value" */
  if (o && o->arg && arg[len] == '=')
    return twill_cli_error(cmd, "'%s': give %s's value as the next argument", arg,
                           o->name);
  if (o && o->arg) return twill_cli_error(cmd, "%s needs a value (%s)", o->name, o->arg);
  if (o && arg[len] == '=') return twill_cli_error(cmd, "%s takes no value", o->name);
  if (o) /* the table has it, the command's own parser does not */
    return twill_cli_error(cmd, "%s is listed but not read (a bug)", o->name);
  twill_suggest s;
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), arg);
  twill_suggest_init(&s, word);
  for (o = opts; o && o->name; o++) twill_suggest_add(&s, o->name);
  const char *best = twill_suggest_best(&s);
  if (best)
    return twill_cli_error(cmd, "unknown option '%s'; did you mean '%s'?", arg, best);
  return twill_cli_error(cmd, "unknown option '%s'", arg);
}

int twill_cli_unknown_option(const char *cmd, const char *arg) {
  return unknown(cmd, table_of(cmd), arg);
}

void twill_cli_args_init(twill_cli_args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->cmd = argc > 0 ? argv[0] : "";
  a->opts = table_of(a->cmd);
  a->argc = argc;
  a->argv = argv;
  a->next = 1;
}

int twill_cli_next(twill_cli_args *a) {
  assert((!a->opt || a->matched) && "an option of the table the parser ignores");
  a->opt = a->val = NULL;
  a->matched = 0;
  while (a->next < a->argc) {
    const char *arg = a->argv[a->next++];
    if (a->operands_only || arg[0] != '-' || !arg[1]) {
      a->val = arg;
      return 1;
    }
    if (!strcmp(arg, "--")) {
      a->operands_only = 1;
      continue;
    }
    /* "--name=value" for long options; "-o" takes its value apart */
    size_t len = arg[1] == '-' ? strcspn(arg, "=") : strlen(arg);
    const twill_cli_opt *o = find_opt(a->opts, arg, len);
    if (!o) {
      unknown(a->cmd, a->opts, arg);
      return -1;
    }
    a->opt = o->name;
    if (arg[len] == '=') {
      if (!o->arg) {
        twill_cli_error(a->cmd, "%s takes no value", o->name);
        return -1;
      }
      a->val = arg + len + 1;
    } else if (o->arg) {
      if (a->next >= a->argc) {
        twill_cli_error(a->cmd, "%s needs a value (%s)", o->name, o->arg);
        return -1;
      }
      a->val = a->argv[a->next++];
    }
    return 1;
  }
  return 0;
}

int twill_cli_is(twill_cli_args *a, const char *name) {
  assert(find_opt(a->opts, name, strlen(name)) &&
         "a parser branch for an option its table lacks");
  int is = a->opt && !strcmp(a->opt, name);
  if (is) a->matched = 1;
  return is;
}

/* A bad value names the command and the option it was given to. */
int twill_cli_long(const twill_cli_args *a, long lo, long hi, long *out) {
  const char *arg = a->val;
  char *end = NULL;
  errno = 0;
  long v = arg ? strtol(arg, &end, 10) : 0;
  if (!arg || !*arg || *end || errno || v < lo || v > hi) {
    fprintf(stderr, "twill %s: %s expects an integer in [%ld, %ld], got '%s'\n",
            a->cmd, a->opt ? a->opt : "", lo, hi, arg ? arg : "");
    return -1;
  }
  *out = v;
  return 0;
}

int twill_cli_double(const twill_cli_args *a, double lo, double hi,
                     double *out) {
  const char *arg = a->val;
  char *end = NULL;
  errno = 0;
  double v = arg ? strtod(arg, &end) : 0;
  if (!arg || !*arg || *end || errno || !isfinite(v) || v < lo || v > hi) {
    fprintf(stderr, "twill %s: %s expects a number in [%g, %g], got '%s'\n",
            a->cmd, a->opt ? a->opt : "", lo, hi, arg ? arg : "");
    return -1;
  }
  *out = v;
  return 0;
}

