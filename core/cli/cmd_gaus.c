/* core/cli/cmd_gaus.c: `twill gaus`, the GauS scheduler on a kernel, an
 * external graph (.gml, .aig) or a seeded random graph.
 *
 * stdout carries only results that depend on the input and flags (same
 * bytes for any --threads); progress goes to stderr when stderr is a
 * terminal, timings to stderr with --timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "twill/arch.h"
#include "twill/builtin.h"
#include "cli.h"
#include "twill/formats.h"
#include "twill/gaus.h"
#include "twill/schedule.h"

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

static void json_str(const char *s, FILE *f) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

/* JSON text with the HLS keys "delay" and "resource" (and none of the
 * kernel format's "ops"/"units") is an hls_heurigym instance; other JSON is
 * a kernel. */
static int is_hls_json(const char *s, size_t len) {
  int hls = 0, kern = 0;
  for (size_t i = 0; i + 10 <= len; i++) {
    if (s[i] != '"') continue;
    if (!memcmp(s + i, "\"delay\"", 7) || !memcmp(s + i, "\"resource\"", 10)) hls = 1;
    if (!memcmp(s + i, "\"ops\"", 5) || !memcmp(s + i, "\"units\"", 7)) kern = 1;
  }
  return hls && !kern;
}

enum { IN_KERNEL, IN_GML, IN_AIG, IN_HLS };

/* What the input is: a file by its extension (and a .json by its keys);
 * standard input, which has no name, by its first bytes: binary AIGER
 * starts "aig ", networkx GML with "graph [", HLS JSON by its keys;
 * anything else is a kernel (.twill text or JSON). */
static int input_kind(const char *path, const char *text, size_t len) {
  if (strcmp(path, "-")) {
    if (ends_with(path, ".gml")) return IN_GML;
    if (ends_with(path, ".aig")) return IN_AIG;
    return ends_with(path, ".json") && is_hls_json(text, len) ? IN_HLS : IN_KERNEL;
  }
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' ||
                     text[i] == '\n'))
    i++;
  if (len - i >= 4 && !memcmp(text + i, "aig ", 4)) return IN_AIG;
  if (len - i >= 5 && !memcmp(text + i, "graph", 5)) {
    size_t j = i + 5;
    while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n')) j++;
    if (j < len && text[j] == '[') return IN_GML;
  }
  if (i < len && text[i] == '{' && is_hls_json(text, len)) return IN_HLS;
  return IN_KERNEL;
}

int twill_cmd_gaus(int argc, char **argv) {
  twill_gaus_opts o;
  twill_gaus_opts_default(&o);
  const char *kernel = NULL, *arch = NULL;
  long nrandom = 0;
  int json = 0, timing = 0, form_given = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int ar;
  while ((ar = twill_cli_next(&a)) > 0) {
    long v = 0;
    double x = 0;
    int e = 0;
    if (!a.opt) {
      if (kernel) return twill_cli_error("gaus", "more than one KERNEL ('%s')", a.val);
      kernel = a.val;
    } else if (twill_cli_is(&a, "--json")) json = 1;
    else if (twill_cli_is(&a, "--timing")) timing = 1;
    else if (twill_cli_is(&a, "--no-restart")) o.restart = false;
    else if (twill_cli_is(&a, "--random")) {
      if (!(e = twill_cli_long(&a, 1, 10000000, &v))) nrandom = v;
    } else if (twill_cli_is(&a, "--ii")) {
      if (!(e = twill_cli_long(&a, 0, 100000000, &v))) o.ii = v;
    } else if (twill_cli_is(&a, "--steps")) {
      if (!(e = twill_cli_long(&a, 0, 100000000, &v))) o.steps = v;
    } else if (twill_cli_is(&a, "--iters")) {
      if (!(e = twill_cli_long(&a, 0, 100000000, &v))) o.iters = v;
    } else if (twill_cli_is(&a, "--threads")) {
      if (!(e = twill_cli_long(&a, 1, 256, &v))) o.threads = (int)v;
    } else if (twill_cli_is(&a, "--seed")) {
      if (!(e = twill_cli_long(&a, 0, 2147483647L, &v))) o.seed = (unsigned long long)v;
    } else if (twill_cli_is(&a, "--time-limit")) {
      if (!(e = twill_cli_double(&a, 0, 1e9, &x))) o.time_limit = x;
    } else if (twill_cli_is(&a, "--lr")) {
      if (!(e = twill_cli_double(&a, 1e-9, 1e3, &x))) o.lr_mu = o.lr_s = x;
    } else if (twill_cli_is(&a, "--alpha")) {
      if (!(e = twill_cli_double(&a, 0, 1e9, &x))) o.alpha = x;
    } else if (twill_cli_is(&a, "--tau")) {
      if (!(e = twill_cli_double(&a, 1e-6, 1e9, &x))) o.tau = x;
    } else if (twill_cli_is(&a, "--arch")) {
      arch = a.val;
    } else if (twill_cli_is(&a, "--formulation")) {
      if (strlen(a.val) != 1 || !strchr("ABCL", a.val[0]))
        return twill_cli_error("gaus", "--formulation expects A, B, C or L, got '%s'",
                               a.val);
      o.form = a.val[0];
      form_given = 1;
    }
    if (e) return TWILL_EXIT_USAGE;
  }
  if (ar < 0) return TWILL_EXIT_USAGE;
  if (!kernel == !nrandom)
    return twill_cli_error("gaus", "give exactly one of KERNEL and --random N");
  o.progress = isatty(2) != 0;

  twill_graph *g = NULL;
  twill_arch *m = NULL;
  double *ecost = NULL;
  if (nrandom) {
    twill_random_opts ro;
    twill_random_opts_default(&ro);
    ro.nodes = (int)nrandom;
    ro.seed = o.seed;
    if (o.form != 'C') ro.back_edges = 0;
    g = twill_graph_random(&ro);
    if (!g) {
      fprintf(stderr, "twill gaus: out of memory\n");
      return TWILL_EXIT_USAGE;
    }
  } else {
    /* read once: standard input cannot be read again to try another form */
    size_t len = 0;
    char *data = twill_builtin_kernel(kernel) ? NULL : twill_cli_read_file(kernel, &len);
    const char *name = strcmp(kernel, "-") ? kernel : "<stdin>";
    int kind = data ? input_kind(kernel, data, len) : IN_KERNEL;
    twill_diag d;
    memset(&d, 0, sizeof d);
    int bad = 0;
    if (kind == IN_GML) {
      g = twill_gaus_read_gml(data, len, name, &ecost, &d);
    } else if (kind == IN_AIG) {
      g = twill_gaus_read_aig(data, len, name, &d);
    } else if (kind == IN_HLS) {
      g = twill_gaus_read_hls(data, len, name, &d);
      if (!form_given) o.form = 'L'; /* the problem the file states */
    } else {
      /* a built-in name, a kernel file, or a name that is neither (which
       * twill_cli_load_kernel then reports) */
      bad = data ? twill_cli_load_kernel_text(data, len, name, arch,
                                              "twill gaus: --arch", &g, &m)
                 : twill_cli_load_kernel(kernel, arch, "twill gaus: --arch", &g, &m);
    }
    free(data);
    if (bad) return TWILL_EXIT_USAGE;
    if (!g) {
      twill_diag_print(&d, stderr);
      return TWILL_EXIT_USAGE;
    }
  }

  int rc = TWILL_EXIT_USAGE;
  twill_gaus_result r;
  memset(&r, 0, sizeof r);
  twill_gaus_problem *p = twill_gaus_problem_from_graph(g, ecost);
  twill_schedule *s = NULL;
  if (!p) {
    fprintf(stderr, "twill gaus: out of memory\n");
    goto out;
  }
  if (twill_gaus_solve(p, &o, &r, stderr)) goto out;
  s = twill_schedule_new(g->nops, r.ii);
  if (!s) goto out;
  for (int i = 0; i < g->nops; i++) s->start[i] = r.t[i];
  char why[512];
  if (twill_schedule_validate(g, m, s, why, sizeof why)) {
    fprintf(stderr, "twill gaus: internal error: schedule rejected: %s\n", why);
    goto out;
  }
  if (timing)
    fprintf(stderr,
            "gaus timing: %ld steps, %.6g s/step (median; mean %.6g), first "
            "legal after %ld steps %.6g s, restarts %ld, threads %d\n",
            r.steps, r.step_median, r.seconds_per_step, r.first_legal_step,
            r.first_legal_seconds, r.restarts, o.threads);
  const twill_gaus_eval_t *e = &r.eval;
  const char *name = g->name ? g->name : "graph";
  if (json) {
    printf("{\n  \"kernel\": ");
    json_str(name, stdout);
    printf(",\n  \"formulation\": \"%c\",\n  \"ops\": %d,\n  \"edges\": %d,\n",
           o.form, g->nops, g->nedges);
    printf("  \"ii\": %ld,\n  \"length\": %ld,\n  \"horizon\": %ld,\n"
           "  \"steps\": %ld,\n  \"time_limited\": %s,\n",
           r.ii, e->length, r.D, r.steps, r.time_limited ? "true" : "false");
    printf("  \"res_peak\": %.17g,\n  \"com\": %.17g,\n  \"mem_peak\": %.17g,\n"
           "  \"objective\": %.17g,\n",
           e->res_peak, e->com, e->mem_peak, e->objective);
    printf("  \"relaxation\": {\"loss\": %.17g, \"res\": %.17g, \"com\": %.17g, "
           "\"mem\": %.17g, \"dep\": %.17g, \"lat\": %.17g, \"cap\": %.17g},\n",
           r.terms.total, r.terms.res, r.terms.com, r.terms.mem, r.terms.dep,
           r.terms.lat, r.terms.cap);
    printf("  \"start\": [");
    for (int i = 0; i < g->nops; i++) printf("%s%ld", i ? ", " : "", r.t[i]);
    printf("]\n}\n");
  } else {
    printf("kernel %s: %d ops, %d edges, formulation %c\n", name, g->nops,
           g->nedges, o.form);
    printf("II %ld  length %ld  horizon %ld  steps %ld%s\n", r.ii, e->length,
           r.D, r.steps, r.time_limited ? "  (stopped by the time limit)" : "");
    printf("resource peak %.6g  communication %.6g  memory peak %.6g  "
           "objective %.6g\n",
           e->res_peak, e->com, e->mem_peak, e->objective);
    printf("relaxation: loss %.6g  res %.6g  com %.6g  mem %.6g  dep %.3g  "
           "lat %.3g  cap %.3g\n",
           r.terms.total, r.terms.res, r.terms.com, r.terms.mem, r.terms.dep,
           r.terms.lat, r.terms.cap);
    if (g->nops <= 50) {
      printf("schedule (op: start stage slot):\n");
      for (int i = 0; i < g->nops; i++)
        printf("  %s: %ld %ld %ld\n", g->ops[i].name, r.t[i], r.t[i] / r.ii,
               r.t[i] % r.ii);
    } else {
      long maxs = 0;
      for (int i = 0; i < g->nops; i++)
        if (r.t[i] / r.ii > maxs) maxs = r.t[i] / r.ii;
      printf("schedule: %d ops over %ld stages (not listed: more than 50 ops; "
             "use --json)\n",
             g->nops, maxs + 1);
    }
  }
  rc = r.time_limited ? TWILL_EXIT_LIMIT : TWILL_EXIT_OK;
out:
  twill_schedule_free(s);
  twill_gaus_result_free(&r);
  twill_gaus_problem_free(p);
  free(ecost);
  twill_graph_free(g);
  twill_arch_free(m);
  return rc;
}
