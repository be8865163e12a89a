/* core/cli/cmd_ilp.c: `twill ilp FILE.mps [--cert FILE.vipr] [--time-limit S]
 * [--node-limit N] [--json]`.
 *
 * Prints the status, the objective, the nonzero values and statistics (text
 * or JSON).  Exit: 0 optimal, 2 infeasible or unbounded, 3 limit, 1 bad
 * usage or input.  Wall-clock time goes to stderr only, so that standard
 * output is the same bytes for the same input and flags.
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
    "                 [--node-limit N] [--no-cuts] [--json]\n";

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

static int parse_double(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return end != s && !*end && !errno && !isnan(*v);
}

int twill_cmd_ilp(int argc, char **argv) {
  const char *file = NULL, *cert = NULL;
  double tlim = 0, nlim = 0;
  int json = 0, nocuts = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      json = 1;
    } else if (!strcmp(a, "--no-cuts")) {
      nocuts = 1;
    } else if (!strcmp(a, "--cert") && i + 1 < argc) {
      cert = argv[++i];
    } else if (!strcmp(a, "--time-limit") && i + 1 < argc) {
      if (!parse_double(argv[++i], &tlim) || tlim < 0) {
        fprintf(stderr, "twill ilp: bad --time-limit '%s'\n", argv[i]);
        return 1;
      }
    } else if (!strcmp(a, "--node-limit") && i + 1 < argc) {
      if (!parse_double(argv[++i], &nlim) || nlim < 0 || nlim != floor(nlim)) {
        fprintf(stderr, "twill ilp: bad --node-limit '%s'\n", argv[i]);
        return 1;
      }
    } else if (a[0] == '-' && a[1]) {
      return twill_cli_unknown_option("ilp", a);
    } else if (!file) {
      file = a;
    } else {
      fprintf(stderr, "twill ilp: more than one input file\n%s", usage);
      return 1;
    }
  }
  if (!file) {
    fputs(usage, stderr);
    return 1;
  }
  char err[512];
  twill_ilp *m = twill_ilp_read_mps(file, err, sizeof err);
  if (!m) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  twill_ilp_set_time_limit(m, tlim);
  twill_ilp_set_node_limit(m, (long)nlim);
  if (cert) twill_ilp_set_certify(m, 1);
  if (nocuts) twill_ilp_set_cuts(m, 0);
  twill_ilp_status st = twill_ilp_solve(m);
  twill_ilp_stats s;
  twill_ilp_get_stats(m, &s);
  int rc = st == TWILL_ILP_OPTIMAL ? 0
         : st == TWILL_ILP_INFEASIBLE || st == TWILL_ILP_UNBOUNDED ? 2
         : st == TWILL_ILP_LIMIT ? 3 : 1;
  int n = twill_ilp_num_vars(m);
  if (json) {
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
    printf("}, \"stats\": {\"nodes\": %ld, \"lp_iterations\": %ld, \"best_bound\": ",
           s.nodes, s.lp_iterations);
    json_num(stdout, s.best_bound);
    printf(", \"gap\": ");
    json_num(stdout, twill_ilp_has_solution(m) ? s.gap : NAN);
    printf(", \"max_depth\": %d, \"cuts\": %d, \"root_bound\": ", s.depth_max, s.cuts);
    json_num(stdout, s.cuts ? s.root_bound : NAN);
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
  } else {
    printf("status: %s\n", twill_ilp_status_name(st));
    if (twill_ilp_has_solution(m)) {
      printf("objective: %.12g\n", twill_ilp_objective(m));
      printf("solution (nonzero values):\n");
      for (int j = 0; j < n; j++) {
        double v = twill_ilp_value(m, j);
        if (v != 0) printf("  %-16s %.12g\n", twill_ilp_var_name(m, j), v);
      }
    }
    printf("nodes: %ld\nlp iterations: %ld\nmax depth: %d\n", s.nodes, s.lp_iterations,
           s.depth_max);
    if (s.cuts) printf("cuts: %d (root bound %.12g)\n", s.cuts, s.root_bound);
    if (!isinf(s.best_bound) && !isnan(s.best_bound)) printf("best bound: %.12g\n", s.best_bound);
    if (twill_ilp_has_solution(m)) printf("gap: %.3g\n", s.gap);
    for (int k = 0;; k++) {
      double o;
      long nd;
      if (!twill_ilp_history(m, k, &o, &nd)) break;
      printf("incumbent %d: %.12g at node %ld\n", k + 1, o, nd);
    }
  }
  fprintf(stderr, "twill ilp: %.3f s\n", s.seconds);
  if (cert) {
    FILE *f = fopen(cert, "w");
    if (!f) {
      fprintf(stderr, "twill ilp: cannot write %s: %s\n", cert, strerror(errno));
      rc = 1;
    } else {
      int w = twill_ilp_write_vipr(m, f);
      /* When the certificate cannot be written, the same search again
       * without what it could not derive: first the reduced-cost fixings
       * (a cutoff from a SOL solution that is not exactly feasible), then
       * the cuts (a leaf whose rounded multipliers on cut rows leave a
       * remainder where a variable has no bound) */
      for (int retry = 0; retry < 2 && w != 0; retry++) {
        if (st != TWILL_ILP_OPTIMAL && st != TWILL_ILP_INFEASIBLE) break;
        if (retry == 0 && !(st == TWILL_ILP_OPTIMAL && twill_ilp_has_rcfix(m))) continue;
        if (retry == 1 && (nocuts || !s.cuts)) continue;
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
          twill_ilp_free(m);
          return 1;
        }
        w = twill_ilp_write_vipr(m, f);
      }
      if (w != 0) {
        fprintf(stderr, "twill ilp: no certificate could be written for this result\n");
        if (rc == 0 || rc == 2) rc = 1;
      }
      if (fclose(f) != 0) rc = 1;
    }
  }
  twill_ilp_free(m);
  return rc;
}
