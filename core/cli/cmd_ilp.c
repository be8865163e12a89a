/* core/cli/cmd_ilp.c: `twill ilp FILE.mps [--cert FILE.vipr] [--time-limit S]
 * [--node-limit N] [--no-cuts] [--option NAME=VALUE]... [--verbose] [--json]`.
 *
 * Prints the status, the objective, the nonzero values and statistics (text
 * or JSON).  Exit: 0 optimal, 2 infeasible or unbounded, 3 limit, 1 bad
 * usage or input.  Wall-clock time and the solver's log (--verbose) go to
 * stderr only, so that standard output is the same bytes for the same input
 * and flags.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/ilp.h"

static const char usage[] =
    "usage: twill ilp FILE.mps [--cert FILE.vipr] [--time-limit S]\n"
    "                 [--node-limit N] [--no-cuts] [--option NAME=VALUE]...\n"
    "                 [--verbose] [--json]\n";

static int parse_double(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return end != s && !*end && !errno && !isnan(*v);
}

/* The solver's option table, for `twill help ilp`. */
void twill_cmd_ilp_options(FILE *f) {
  twill_ilp_option_info o;
  fprintf(f, "\noptions (--option NAME=VALUE): name, default, values (a..b: integers,\n"
             "[a, b]: real), what it does\n");
  for (int k = 0; twill_ilp_option(k, &o); k++) {
    char range[64];
    snprintf(range, sizeof range, o.integer ? "%g..%g" : "[%g, %g]", o.lo, o.hi);
    fprintf(f, "  %-11s %-3g %-9s %s\n", o.name, o.def, range, o.help);
  }
}

/* --option NAME=VALUE on m: 0, or 1 after saying what is wrong. */
static int set_option(twill_ilp *m, const char *arg) {
  const char *eq = strchr(arg, '=');
  char name[64];
  double v;
  if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name) {
    fprintf(stderr, "twill ilp: --option expects NAME=VALUE, got '%s'\n", arg);
    return 1;
  }
  memcpy(name, arg, (size_t)(eq - arg));
  name[eq - arg] = 0;
  twill_ilp_option_info o;
  int known = 0;
  for (int k = 0; twill_ilp_option(k, &o) && !known; k++) known = !strcmp(o.name, name);
  if (!known) {
    fprintf(stderr, "twill ilp: unknown option '%s' (try 'twill help ilp')\n", name);
    return 1;
  }
  if (!parse_double(eq + 1, &v) || twill_ilp_set_option(m, name, v) != 0) {
    fprintf(stderr, "twill ilp: option %s: %s is out of [%g, %g]%s\n", name, eq + 1, o.lo, o.hi,
            o.integer ? " or not an integer" : "");
    return 1;
  }
  return 0;
}

static void log_stderr(void *ctx, int level, const char *line) {
  (void)ctx;
  (void)level;
  fprintf(stderr, "%s\n", line);
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

static void json_num(FILE *f, double v) {
  if (isnan(v) || isinf(v)) fputs("null", f);
  else fprintf(f, "%.17g", v);
}

static void print_json(const twill_ilp *m, twill_ilp_status st, const twill_ilp_stats *s) {
  int n = twill_ilp_num_vars(m);
  printf("{\"status\": ");
  json_str(stdout, twill_ilp_status_name(st));
  printf(", \"objective\": ");
  json_num(stdout, twill_ilp_has_solution(m) ? twill_ilp_objective(m) : NAN);
  printf(", \"values\": {");
  int first = 1;
  if (twill_ilp_has_solution(m))
    for (int j = 0; j < n; j++) {
      double v = twill_ilp_value(m, j);
      if (v == 0) continue;
      printf(first ? "" : ", ");
      first = 0;
      json_str(stdout, twill_ilp_var_name(m, j));
      printf(": ");
      json_num(stdout, v);
    }
  /* the statistics table's rows marked json, in its order; the gap means
   * nothing without a solution, the root bound nothing without cuts */
  printf("}, \"stats\": {");
  twill_ilp_stat_info si;
  for (int k = 0, shown = 0; twill_ilp_stat(k, &si); k++) {
    if (!si.json) continue;
    double v = twill_ilp_stat_value(s, k);
    if ((!strcmp(si.key, "gap") && !twill_ilp_has_solution(m)) ||
        (!strcmp(si.key, "root_bound") && !s->cuts))
      v = NAN;
    printf("%s\"%s\": ", shown++ ? ", " : "", si.key);
    if (si.integer) printf("%ld", (long)v);
    else json_num(stdout, v);
  }
  printf(", \"incumbents\": [");
  for (int k = 0;; k++) {
    double o;
    long nd;
    if (!twill_ilp_history(m, k, &o, &nd)) break;
    printf("%s{\"objective\": ", k ? ", " : "");
    json_num(stdout, o);
    printf(", \"node\": %ld}", nd);
  }
  printf("]}}\n");
}

static void print_text(const twill_ilp *m, twill_ilp_status st, const twill_ilp_stats *s) {
  int n = twill_ilp_num_vars(m);
  printf("status: %s\n", twill_ilp_status_name(st));
  if (twill_ilp_has_solution(m)) {
    printf("objective: %.12g\n", twill_ilp_objective(m));
    printf("solution (nonzero values):\n");
    for (int j = 0; j < n; j++) {
      double v = twill_ilp_value(m, j);
      if (v != 0) printf("  %-16s %.12g\n", twill_ilp_var_name(m, j), v);
    }
  }
  /* (a layout of its own, older than the statistics table) */
  printf("nodes: %ld\nlp iterations: %ld\nmax depth: %d\n", s->nodes, s->lp_iterations,
         s->depth_max);
  if (s->cuts) printf("cuts: %d (root bound %.12g)\n", s->cuts, s->root_bound);
  if (!isinf(s->best_bound) && !isnan(s->best_bound)) printf("best bound: %.12g\n", s->best_bound);
  if (twill_ilp_has_solution(m)) printf("gap: %.3g\n", s->gap);
  for (int k = 0;; k++) {
    double o;
    long nd;
    if (!twill_ilp_history(m, k, &o, &nd)) break;
    printf("incumbent %d: %.12g at node %ld\n", k + 1, o, nd);
  }
}

/* The certificate of the solve that gave st (cuts: whether it had cuts),
 * to the file cert.  When it cannot be written, the same search again
 * without what it could not derive: first the reduced-cost fixings (a
 * cutoff from a SOL solution that is not exactly feasible), then the cuts
 * (a leaf whose rounded multipliers on cut rows leave a remainder where a
 * variable has no bound).  Returns 0, 1 when no certificate could be
 * given, 2 when the file could not be written. */
static int write_cert(twill_ilp *m, twill_ilp_status st, int cuts, const char *cert) {
  FILE *f = fopen(cert, "w");
  if (!f) {
    fprintf(stderr, "twill ilp: cannot write %s: %s\n", cert, strerror(errno));
    return 2;
  }
  int w = twill_ilp_write_vipr(m, f);
  for (int retry = 0; retry < 2 && w != 0; retry++) {
    if (st != TWILL_ILP_OPTIMAL && st != TWILL_ILP_INFEASIBLE) break;
    if (retry == 0 && !(st == TWILL_ILP_OPTIMAL && twill_ilp_has_rcfix(m))) continue;
    if (retry == 1 && !cuts) continue;
    fprintf(stderr, retry == 0 ? "twill ilp: the certificate could not derive the "
                                 "reduced-cost fixings; solving again without them\n"
                               : "twill ilp: the certificate could not be written with the "
                                 "cuts; solving again without cuts\n");
    twill_ilp_set_rcfix(m, 0);
    if (retry == 1) twill_ilp_set_cuts(m, 0);
    if (twill_ilp_solve(m) != st) break;
    fclose(f);
    f = fopen(cert, "w");
    if (!f) {
      fprintf(stderr, "twill ilp: cannot write %s: %s\n", cert, strerror(errno));
      return 2;
    }
    w = twill_ilp_write_vipr(m, f);
  }
  int bad = w != 0;
  if (bad) fprintf(stderr, "twill ilp: no certificate could be written for this result\n");
  if (fclose(f) != 0) bad = 2;
  return bad;
}

/* Solve m, print the result (JSON or text) and write the certificate;
 * returns the exit status. */
static int solve_and_print(twill_ilp *m, const char *cert, int json) {
  twill_ilp_status st = twill_ilp_solve(m);
  twill_ilp_stats s;
  twill_ilp_get_stats(m, &s);
  int rc = st == TWILL_ILP_OPTIMAL ? 0
         : st == TWILL_ILP_INFEASIBLE || st == TWILL_ILP_UNBOUNDED ? 2
         : st == TWILL_ILP_LIMIT ? 3 : 1;
  if (json) print_json(m, st, &s);
  else print_text(m, st, &s);
  fprintf(stderr, "twill ilp: %.3f s\n", s.seconds);
  if (cert) {
    /* no certificate for a proven result is an error (a limit has none
     * to give); a file that cannot be written always is */
    int bad = write_cert(m, st, s.cuts != 0, cert);
    if (bad == 2 || (bad == 1 && (rc == 0 || rc == 2))) rc = 1;
  }
  return rc;
}

int twill_cmd_ilp(int argc, char **argv) {
  const char *file = NULL, *cert = NULL;
  int json = 0, verbose = 0, nopt = 0;
  /* the options in order (--time-limit S, --node-limit N and --no-cuts are
   * shorthands for time_limit=S, node_limit=N and cuts=0) */
  const char **opts = calloc((size_t)argc + 1, sizeof *opts);
  if (!opts) {
    fprintf(stderr, "twill ilp: out of memory\n");
    return 1;
  }
  char *owned[2] = {NULL, NULL}; /* the shorthands' NAME=VALUE */
  int nowned = 0, rc = 1;
  twill_ilp *m = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    double v;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      rc = 0;
      goto out;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--verbose")) {
      verbose = 1;
    } else if (!strcmp(a, "--no-cuts")) {
      opts[nopt++] = "cuts=0";
    } else if (!strcmp(a, "--cert") && i + 1 < argc) {
      cert = argv[++i];
    } else if (!strcmp(a, "--option") && i + 1 < argc) {
      opts[nopt++] = argv[++i];
    } else if ((!strcmp(a, "--time-limit") || !strcmp(a, "--node-limit")) && i + 1 < argc) {
      int nodes = a[2] == 'n';
      if (!parse_double(argv[++i], &v) || v < 0 || (nodes && v != floor(v))) {
        fprintf(stderr, "twill ilp: bad %s '%s'\n", a, argv[i]);
        goto out;
      }
      size_t len = strlen(argv[i]) + 16;
      char *o = malloc(len);
      if (!o) goto out;
      snprintf(o, len, "%s=%s", nodes ? "node_limit" : "time_limit", argv[i]);
      free(owned[nodes]);
      owned[nodes] = o;
      opts[nopt++] = o;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "twill ilp: unknown or incomplete option '%s'\n%s", a, usage);
      goto out;
    } else if (!file) {
      file = a;
    } else {
      fprintf(stderr, "twill ilp: more than one input file\n%s", usage);
      goto out;
    }
  }
  (void)nowned;
  if (!file) {
    fputs(usage, stderr);
    goto out;
  }
  char err[512];
  m = twill_ilp_read_mps(file, err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    goto out;
  }
  if (verbose) twill_ilp_set_option(m, "verbosity", 1);
  for (int k = 0; k < nopt; k++)
    if (set_option(m, opts[k])) goto out;
  twill_ilp_set_log(m, log_stderr, NULL);
  if (cert) twill_ilp_set_certify(m, 1);
  rc = solve_and_print(m, cert, json);
out:
  twill_ilp_free(m);
  free(owned[0]);
  free(owned[1]);
  free(opts);
  return rc;
}
