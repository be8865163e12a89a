/* core/cli/cmd_smt.c: `twill smt FILE [--proof FILE] [--time-limit S]`. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/smt.h"
#include "twill/io.h"
#include "twill/sat.h"

/* SIGINT / SIGTERM: every solver stops at its next check (the search and
 * the theory's propagation loop both look), and the answer is unknown. */
static void on_signal(int sig) {
  (void)sig;
  twill_sat_interrupt_all();
}

/* Check the proof text buf (takes it). */
static int check_proof_text(char *buf, size_t len) {
  char msg[256];
  int r = twill_smt_check_proof(buf, len, msg, sizeof msg);
  free(buf);
  if (r == 1) {
    printf("s VERIFIED\n");
    return 0;
  }
  printf("s NOT VERIFIED\n");
  fprintf(stderr, "%s\n", msg);
  return 1;
}

static int check_proof(const char *path) {
  size_t len;
  char *buf = twill_cli_read_file(path, &len);
  if (!buf) {
    fprintf(stderr, "twill smt: cannot read '%s'\n", path);
    return 1;
  }
  return check_proof_text(buf, len);
}

/* The proof against the problem file: it must begin with exactly what the
 * parsed problem writes before any solving (variables, constraints, input
 * clauses), so it cannot refute a different problem; what it adds after
 * that as input clauses (the "x <= optimum - 1" of a minimization) is
 * listed, since the refutation covers the problem plus those. */
static int check_against(const char *file, const char *path) {
  size_t len, plen = 0;
  char *buf = twill_cli_read_file(file, &len), err[256], *pre = NULL;
  if (!buf) {
    fprintf(stderr, "twill smt: cannot read '%s'\n", file);
    return 1;
  }
  twill_smt_problem p;
  int rc = twill_smt_parse(strcmp(file, "-") ? file : "<stdin>", buf, len, 1, &p,
                           err, sizeof err);
  free(buf);
  if (rc) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  FILE *f = open_memstream(&pre, &plen);
  int bad = !f || twill_smt_write_proof(p.m, f);
  if (f) fclose(f);
  twill_smt_problem_free(&p);
  char *cert = bad ? NULL : twill_cli_read_file(path, &len);
  if (!cert) {
    fprintf(stderr, "twill smt: cannot read '%s'\n", path);
    free(pre);
    return 1;
  }
  if (len < plen || memcmp(cert, pre, plen)) {
    printf("s NOT VERIFIED\n");
    fprintf(stderr, "%s: does not begin with the problem of %s\n", path, file);
    free(pre), free(cert);
    return 1;
  }
  free(pre);
  /* minimization adds its bound as input clauses (listed below); a new
   * variable or constraint would change the problem: refused */
  const char *bad_in = twill_smt_proof_new_input(cert + plen, len - plen, 1);
  if (bad_in) {
    const char *e = memchr(bad_in, '\n', (size_t)(cert + len - bad_in));
    int n = e ? (int)(e - bad_in) : (int)(cert + len - bad_in);
    printf("s NOT VERIFIED\n");
    fprintf(stderr, "%s: adds an input after the problem of %s: '%.*s'\n", path, file,
            n > 60 ? 60 : n, bad_in);
    free(cert);
    return 1;
  }
  int extra = 0;
  for (size_t i = plen; i + 2 < len; i++)
    if ((i == plen || cert[i - 1] == '\n') && cert[i] == 'a' && cert[i + 1] == ' ') {
      const char *e = memchr(cert + i, '\n', len - i);
      int n = e ? (int)(e - (cert + i)) : (int)(len - i);
      printf("c with the added input clause: %.*s\n", n, cert + i);
      extra++;
    }
  (void)extra;
  /* the proof already read (standard input cannot be read twice) */
  return check_proof_text(cert, len);
}

int twill_cmd_smt(int argc, char **argv) {
  const char *file = NULL, *proof = NULL, *check = NULL;
  double tlim = 0;
  int given_limit = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int ar;
  while ((ar = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      if (file) return twill_cli_error("smt", "extra argument '%s'", a.val);
      file = a.val;
    } else if (twill_cli_is(&a, "--check")) check = a.val;
    else if (twill_cli_is(&a, "--proof")) proof = a.val;
    else if (twill_cli_is(&a, "--time-limit")) {
      if (twill_cli_double(&a, 0, 1e9, &tlim)) return 1;
      given_limit = 1;
    }
  }
  if (ar < 0) return 1;
  if (check) {
    if (proof || given_limit)
      return twill_cli_error("smt", "--check checks a proof: no --proof or "
                                    "--time-limit with it");
    if (file && !strcmp(file, "-") && !strcmp(check, "-"))
      return twill_cli_error("smt", "FILE and PROOF cannot both be standard input");
    return file ? check_against(file, check) : check_proof(check);
  }
  if (!file) return twill_cli_error("smt", "no FILE given");
  size_t len;
  char *buf = twill_cli_read_file(file, &len);
  if (!buf) {
    fprintf(stderr, "twill smt: cannot read '%s'\n", file);
    return 1;
  }
  twill_smt_problem p;
  char err[256];
  int rc = twill_smt_parse(strcmp(file, "-") ? file : "<stdin>", buf, len,
                           proof != NULL, &p, err, sizeof err);
  free(buf);
  if (rc) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (tlim > 0) twill_smt_set_time_limit(p.m, tlim);
  int64_t opt = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  int r = p.obj >= 0 ? twill_smt_minimize(p.m, p.obj, &opt) : twill_smt_solve(p.m);
  if (r == 10) {
    if (p.obj >= 0) printf("o %lld\ns OPTIMUM FOUND\n", (long long)opt);
    else printf("s SATISFIABLE\n");
    for (int i = 0; i < p.nnames; i++) {
      const twill_smt_name *nm = &p.names[i];
      long long v = nm->is_bool ? twill_smt_lit_value(p.m, nm->id) == 1
                                : (long long)twill_smt_value(p.m, nm->id);
      printf("v %s %lld\n", nm->name, v);
    }
  } else if (r == 20) {
    printf("s UNSATISFIABLE\n");
  } else {
    printf("s UNKNOWN\n");
  }
  if (proof) {
    FILE *f = fopen(proof, "w");
    if (!f || twill_smt_write_proof(p.m, f)) {
      fprintf(stderr, "twill smt: cannot write proof '%s'\n", proof);
      if (f) fclose(f);
      twill_smt_problem_free(&p);
      return 1;
    }
    if (fclose(f)) {
      fprintf(stderr, "twill smt: cannot write proof '%s'\n", proof);
      twill_smt_problem_free(&p);
      return 1;
    }
  }
  twill_smt_problem_free(&p);
  return r;
}
