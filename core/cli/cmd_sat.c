/* core/cli/cmd_sat.c: `twill sat` and `twill drat-check`. */
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
    else if (twill_cli_is(&a, "--opt")) {
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
    char name[32];
    const char *eq = strchr(opts[k], '=');
    size_t nl = eq ? (size_t)(eq - opts[k]) : 0;
    if (!eq || nl >= sizeof name) rc = -2;
    else {
      memcpy(name, opts[k], nl);
      name[nl] = 0;
      if (!twill_sat_set_option(s, name, strtoll(eq + 1, NULL, 10))) rc = -2;
    }
    if (rc == -2) {
      twill_cli_error("sat", "bad --opt '%s' (NAME=VALUE: seed, restart, minimize, "
                             "phase, reduce)", opts[k]);
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
  printf("c conflicts %llu decisions %llu propagations %llu\n",
         (unsigned long long)st.conflicts, (unsigned long long)st.decisions,
         (unsigned long long)st.propagations);
  printf("c restarts %llu reductions %llu learned %llu deleted %llu\n",
         (unsigned long long)st.restarts, (unsigned long long)st.reductions,
         (unsigned long long)st.learned, (unsigned long long)st.deleted);
  printf("c learned-literals %llu minimized-literals %llu\n",
         (unsigned long long)st.learned_literals, (unsigned long long)st.minimized_literals);
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
