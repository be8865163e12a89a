/* core/cli/cmd_sat.c: `twill sat` and `twill drat-check`. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/dimacs.h"
#include "twill/sat.h"
#include "twill/io.h"

static twill_sat *volatile g_solver;

static void on_signal(int sig) {
  (void)sig;
  twill_sat *s = g_solver;
  if (s) twill_sat_interrupt(s);
}

void twill_cli_sat_options(FILE *f) {
  fprintf(f, "solver options (--opt NAME=VALUE; default, range):\n");
  for (int i = 0; twill_sat_option(i); i++) {
    const twill_sat_option_info *o = twill_sat_option(i);
    char range[64];
    snprintf(range, sizeof range, "%" PRId64 ", [%" PRId64 ", %" PRId64 "]", o->def, o->lo,
             o->hi);
    fprintf(f, "  %-14s %s\n  %-14s %s\n", o->name, range, "", o->help);
  }
}

/* NAME=VALUE with an integer VALUE: set it on s.  0 ok, else the message
 * is printed and the result is 1 (usage error). */
static int apply_option(twill_sat *s, const char *arg) {
  char name[32];
  const char *eq = strchr(arg, '=');
  size_t nl = eq ? (size_t)(eq - arg) : 0;
  if (!eq || nl == 0 || nl >= sizeof name) {
    fprintf(stderr, "twill sat: --opt expects NAME=VALUE, got '%s'\n", arg);
    return 1;
  }
  memcpy(name, arg, nl);
  name[nl] = 0;
  const twill_sat_option_info *o = NULL;
  for (int i = 0; twill_sat_option(i) && !o; i++)
    if (!strcmp(twill_sat_option(i)->name, name)) o = twill_sat_option(i);
  if (!o) {
    fprintf(stderr, "twill sat: unknown solver option '%s' (try 'twill help sat')\n", name);
    return 1;
  }
  char *end;
  errno = 0;
  long long v = strtoll(eq + 1, &end, 10);
  if (end == eq + 1 || *end || errno || !twill_sat_set_option(s, name, v)) {
    fprintf(stderr,
            "twill sat: option '%s' expects an integer in [%" PRId64 ", %" PRId64 "], got '%s'\n",
            name, o->lo, o->hi, eq + 1);
    return 1;
  }
  return 0;
}

/* The statistics table's rows, line by line: "c NAME VALUE ..." */
static void print_stats(const twill_sat_stats *st) {
  for (int line = 1;; line++) {
    int any = 0;
    for (int i = 0; twill_sat_stat(i); i++) {
      if (twill_sat_stat(i)->line != line) continue;
      printf("%s %s %llu", any ? "" : "c", twill_sat_stat(i)->name,
             (unsigned long long)twill_sat_stat_value(st, i));
      any = 1;
    }
    if (!any) break;
    printf("\n");
  }
}

#define MAX_OPTS 16

int twill_cmd_sat(int argc, char **argv) {
  const char *file = NULL, *proof = NULL;
  int binary = 0, lrat = 0, nopts = 0;
  const char *opts[MAX_OPTS];
  double tlim = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int ar;
  while ((ar = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      if (file) return twill_cli_error("sat", "extra argument '%s'", a.val);
      file = a.val;
    } else if (twill_cli_is(&a, "--proof")) proof = a.val;
    else if (twill_cli_is(&a, "--binary-proof")) binary = 1;
    else if (twill_cli_is(&a, "--lrat")) lrat = 1;
    else if (twill_cli_is(&a, "--opt") || twill_cli_is(&a, "--option")) {
      if (nopts == MAX_OPTS)
        return twill_cli_error("sat", "more than %d --opt", MAX_OPTS);
      opts[nopts++] = a.val;
    } else if (twill_cli_is(&a, "--time-limit")) {
      if (twill_cli_double(&a, 0, 1e9, &tlim)) return 1;
    }
  }
  if (ar < 0) return 1;
  if (!file) return twill_cli_error("sat", "no CNF file given");
  if (binary && lrat)
    return twill_cli_error("sat", "--binary-proof and --lrat exclude each other");
  size_t len = 0;
  char *buf = twill_cli_read_file(file, &len);
  if (!buf) {
    fprintf(stderr, "twill sat: cannot read '%s'\n", file);
    return 1;
  }
  twill_cnf cnf;
  char err[512], warn[512];
  if (twill_dimacs_parse(strcmp(file, "-") ? file : "<stdin>", buf, len, &cnf, err, sizeof err, warn, sizeof warn)) {
    fprintf(stderr, "%s\n", err);
    free(buf);
    return 1;
  }
  free(buf);
  if (warn[0]) fprintf(stderr, "%s\n", warn);
  FILE *pf = NULL;
  if (proof) {
    pf = fopen(proof, binary ? "wb" : "w");
    if (!pf) {
      fprintf(stderr, "twill sat: cannot write '%s'\n", proof);
      twill_cnf_free(&cnf);
      return 1;
    }
  }
  twill_sat *s = twill_sat_new();
  if (!s) {
    fprintf(stderr, "twill sat: out of memory\n");
    twill_cnf_free(&cnf);
    if (pf) fclose(pf);
    return 1;
  }
  if (pf)
    twill_sat_set_proof(s, pf, lrat ? TWILL_PROOF_LRAT
                               : binary ? TWILL_PROOF_DRAT_BINARY
                                        : TWILL_PROOF_DRAT_TEXT);
  int rc = 0;
  for (int k = 0; k < nopts; k++) {
    if (apply_option(s, opts[k])) {
      twill_sat_free(s);
      twill_cnf_free(&cnf);
      if (pf) fclose(pf);
      return 1;
    }
  }
  for (int v = 0; v < cnf.nvars; v++)
    if (!twill_sat_new_var(s)) rc = -1;
  size_t start = 0;
  for (size_t i = 0; i < cnf.nlits && rc >= 0; i++)
    if (cnf.lits[i] == 0) {
      if (twill_sat_add_clause(s, cnf.lits + start, (int)(i - start)) < 0) rc = -1;
      start = i + 1;
    }
  if (rc < 0) {
    fprintf(stderr, "twill sat: out of memory\n");
    twill_sat_free(s);
    twill_cnf_free(&cnf);
    if (pf) fclose(pf);
    return 1;
  }
  if (tlim > 0) twill_sat_set_time_limit(s, tlim);
  g_solver = s;
  struct sigaction sa, old_int, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int r = twill_sat_solve(s);
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  g_solver = NULL;
  twill_sat_stats st;
  twill_sat_get_stats(s, &st);
  printf("c variables %d clauses %d\n", cnf.nvars, cnf.nclauses);
  print_stats(&st);
  if (r == TWILL_SAT_SAT) {
    printf("s SATISFIABLE\n");
    char line[100];
    int ln = 0;
    for (int v = 1; v <= cnf.nvars + 1; v++) {
      char tok[16];
      int tn = v <= cnf.nvars ? snprintf(tok, sizeof tok, " %d", twill_sat_value(s, v) > 0 ? v : -v)
                              : snprintf(tok, sizeof tok, " 0");
      if (ln + tn > 78) {
        printf("v%s\n", line);
        ln = 0;
      }
      memcpy(line + ln, tok, (size_t)tn + 1);
      ln += tn;
    }
    printf("v%s\n", line);
  } else if (r == TWILL_SAT_UNSAT) {
    printf("s UNSATISFIABLE\n");
  } else {
    printf("s UNKNOWN\n");
  }
  twill_sat_free(s);
  twill_cnf_free(&cnf);
  if (pf && fclose(pf)) {
    fprintf(stderr, "twill sat: error writing '%s'\n", proof);
    return 1;
  }
  return r;
}

int twill_cmd_drat_check(int argc, char **argv) {
  const char *files[2] = {NULL, NULL};
  int nf = 0, lrat = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (a.opt) {
      if (twill_cli_is(&a, "--lrat")) lrat = 1;
    } else if (nf == 2) {
      return twill_cli_error("drat-check", "extra argument '%s'", a.val);
    } else {
      files[nf++] = a.val;
    }
  }
  if (r < 0) return 1;
  if (nf != 2) return twill_cli_error("drat-check", "need FILE.cnf and FILE.drat");
  if (!strcmp(files[0], "-") && !strcmp(files[1], "-"))
    return twill_cli_error("drat-check", "FILE.cnf and FILE.drat cannot both be "
                                         "standard input");
  size_t clen = 0, plen = 0;
  char *cnf = twill_cli_read_file(files[0], &clen);
  char *prf = cnf ? twill_cli_read_file(files[1], &plen) : NULL;
  if (!cnf || !prf) {
    fprintf(stderr, "twill drat-check: cannot read '%s'\n", cnf ? files[1] : files[0]);
    free(cnf);
    return 1;
  }
  char msg[256];
  int ok = lrat ? twill_lrat_check(cnf, clen, prf, plen, msg, sizeof msg)
                : twill_drat_check(cnf, clen, prf, plen, msg, sizeof msg);
  free(cnf);
  free(prf);
  if (msg[0]) printf("c %s\n", msg);
  printf(ok == 1 ? "s VERIFIED\n" : "s NOT VERIFIED\n");
  return ok == 1 ? 0 : 1;
}
