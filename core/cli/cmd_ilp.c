/* core/cli/cmd_ilp.c: `twill ilp FILE [--format lp|mps] [--max|--min]
 * [--cert FILE.vipr] [-o FILE] [--time-limit S] [--node-limit N]
 * [--no-cuts] [--option NAME=VALUE]... [--verbose] [--json]` (the full text
 * is `twill help ilp`, in core/cli/commands.c, ending in the solver's option
 * table).
 *
 * Reads MPS or CPLEX LP (by the name's extension, or --format; '-' is
 * standard input), prints the status, the objective, the nonzero values
 * and statistics (text or JSON), and with -o writes the solution.  Exit:
 * 0 optimal, 2 infeasible, 4 unbounded, 3 limit, 1 bad usage or input (or
 * an optimal or infeasible result that --cert could not certify).
 * Unbounded has its own code: such a model has solutions, arbitrarily
 * good ones, which 2 ("infeasible", as in every twill command) would
 * deny, and no VIPR certificate exists for it.  Wall-clock time and the
 * solver's log (--verbose) go to stderr only, so that standard output is the same bytes for the same
 * input and flags.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/ilp.h"
#include "twill/io.h"

enum { EXIT_ILP_OK = 0, EXIT_ILP_INPUT = 1, EXIT_ILP_INFEASIBLE = 2, EXIT_ILP_LIMIT = 3,
       EXIT_ILP_UNBOUNDED = 4 };

static const char usage[] =
    "usage: twill ilp FILE [--format lp|mps] [--max | --min] [--cert FILE.vipr]\n"
    "                 [-o FILE] [--time-limit S] [--node-limit N] [--no-cuts]\n"
    "                 [--option NAME=VALUE]... [--verbose] [--json]\n"
    "                 (twill help ilp)\n";

static int usage_error(const char *fmt, const char *arg) {
  fputs("twill ilp: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs(" (try 'twill help ilp')\n", stderr);
  return EXIT_ILP_INPUT;
}

/* Whether path ends in ext, ignoring case. */
static int ends_with(const char *path, const char *ext) {
  size_t n = strlen(path), k = strlen(ext);
  if (n < k) return 0;
  for (size_t i = 0; i < k; i++) {
    char c = path[n - k + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != ext[i]) return 0;
  }
  return 1;
}

/* -o: "status S", "objective V" (or "-"), then "NAME VALUE" for every
 * variable in the model's order; %.17g reads back to the same double. */
static int write_solution(const twill_ilp *m, twill_ilp_status st, FILE *f) {
  fprintf(f, "status %s\n", twill_ilp_status_name(st));
  if (!twill_ilp_has_solution(m)) {
    fprintf(f, "objective -\n");
  } else {
    fprintf(f, "objective %.17g\n", twill_ilp_objective(m));
    for (int j = 0; j < twill_ilp_num_vars(m); j++)
      fprintf(f, "%s %.17g\n", twill_ilp_var_name(m, j), twill_ilp_value(m, j) + 0.0);
  }
  return ferror(f) ? -1 : 0;
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

int twill_cmd_ilp(int argc, char **argv) {
  const char *file = NULL, *cert = NULL, *out = NULL, *format = NULL;
  double tlim = 0, nlim = 0;
  int json = 0, nocuts = 0, sense = -1, verbose = 0, nopt = 0;
  /* the --option values, in order: applied once the model is read */
  const char **opts = calloc((size_t)argc + 1, sizeof *opts);
  if (!opts) {
    fprintf(stderr, "twill ilp: out of memory\n");
    return EXIT_ILP_INPUT;
  }
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      /* a file; '-' alone is standard input */
      if (file) {
        usage_error("more than one input file ('%s')", a.val);
        r = -1;
        break;
      }
      file = a.val;
    } else if (twill_cli_is(&a, "--json")) {
      json = 1;
    } else if (twill_cli_is(&a, "--no-cuts")) {
      nocuts = 1;
    } else if (twill_cli_is(&a, "--verbose")) {
      verbose = 1;
    } else if (twill_cli_is(&a, "--option")) {
      opts[nopt++] = a.val;
    } else if (twill_cli_is(&a, "--max") || twill_cli_is(&a, "--min")) {
      int mx = a.opt[3] == 'a';
      if (sense >= 0 && sense != mx) {
        usage_error("%s", "--max and --min contradict each other");
        r = -1;
        break;
      }
      sense = mx;
    } else if (twill_cli_is(&a, "--cert")) {
      cert = a.val;
    } else if (twill_cli_is(&a, "-o")) {
      out = a.val;
    } else if (twill_cli_is(&a, "--format")) {
      if (strcmp(a.val, "lp") && strcmp(a.val, "mps")) {
        usage_error("--format expects lp or mps, got '%s'", a.val);
        r = -1;
        break;
      }
      format = a.val;
    } else if (twill_cli_is(&a, "--time-limit")) {
      if (!parse_double(a.val, &tlim) || tlim < 0) {
        usage_error("--time-limit expects seconds >= 0, got '%s'", a.val);
        r = -1;
        break;
      }
    } else if (twill_cli_is(&a, "--node-limit")) {
      if (!parse_double(a.val, &nlim) || nlim < 0 || nlim != floor(nlim) || nlim > 1e18) {
        usage_error("--node-limit expects a whole number >= 0, got '%s'", a.val);
        r = -1;
        break;
      }
    }
  }
  if (r < 0 || !file) {
    if (r >= 0) fputs(usage, stderr);
    free(opts);
    return EXIT_ILP_INPUT;
  }
  int lp = format ? !strcmp(format, "lp") : ends_with(file, ".lp");
  char err[512];
  twill_ilp *m;
  /* "-" is standard input: both readers take it (twill_read_file) */
  m = lp ? twill_ilp_read_lp(file, err, sizeof err) : twill_ilp_read_mps(file, err, sizeof err);
  if (!m) {
    free(opts);
    fprintf(stderr, "%s\n", err);
    return EXIT_ILP_INPUT;
  }
  if (sense >= 0) twill_ilp_set_maximize(m, sense);
  twill_ilp_set_time_limit(m, tlim);
  twill_ilp_set_node_limit(m, (long)nlim);
  if (cert) twill_ilp_set_certify(m, 1);
  if (nocuts) twill_ilp_set_cuts(m, 0);
  if (verbose) twill_ilp_set_option(m, "verbosity", 1);
  for (int k = 0; k < nopt; k++)
    if (set_option(m, opts[k])) {
      free(opts);
      twill_ilp_free(m);
      return EXIT_ILP_INPUT;
    }
  free(opts);
  twill_ilp_set_log(m, log_stderr, NULL);
  twill_ilp_status st = twill_ilp_solve(m);
  twill_ilp_stats s;
  twill_ilp_get_stats(m, &s);
  int rc = st == TWILL_ILP_OPTIMAL ? EXIT_ILP_OK
         : st == TWILL_ILP_INFEASIBLE ? EXIT_ILP_INFEASIBLE
         : st == TWILL_ILP_UNBOUNDED ? EXIT_ILP_UNBOUNDED
         : st == TWILL_ILP_LIMIT ? EXIT_ILP_LIMIT : EXIT_ILP_INPUT;
  int n = twill_ilp_num_vars(m);
  int report = !(out && !strcmp(out, "-")); /* -o -: the solution instead */
  if (!report) {
    if (write_solution(m, st, stdout) != 0) rc = EXIT_ILP_INPUT;
  } else if (json) {
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
  if (out && report) {
    FILE *f = fopen(out, "w");
    if (!f) {
      fprintf(stderr, "twill ilp: cannot write %s: %s\n", out, strerror(errno));
      rc = EXIT_ILP_INPUT;
    } else {
      int w = write_solution(m, st, f);
      if (fclose(f) != 0 || w != 0) {
        fprintf(stderr, "twill ilp: error writing %s\n", out);
        rc = EXIT_ILP_INPUT;
      }
    }
  }
  if (cert) {
    FILE *f = fopen(cert, "w");
    if (!f) {
      fprintf(stderr, "twill ilp: cannot write %s: %s\n", cert, strerror(errno));
      rc = EXIT_ILP_INPUT;
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
          return EXIT_ILP_INPUT;
        }
        w = twill_ilp_write_vipr(m, f);
      }
      if (w != 0) {
        fprintf(stderr, "twill ilp: no certificate could be written for this result\n");
        if (rc == EXIT_ILP_OK || rc == EXIT_ILP_INFEASIBLE) rc = EXIT_ILP_INPUT;
      }
      if (fclose(f) != 0) rc = EXIT_ILP_INPUT;
    }
  }
  twill_ilp_free(m);
  return rc;
}
