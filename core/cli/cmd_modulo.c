/* core/cli/cmd_modulo.c: `twill modulo`, Twill phase 1 from the command line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "twill/bounds.h"
#include "cli.h"
#include "twill/codegen.h"
#include "twill/json.h"
#include "twill/modulo.h"
#include "twill/normalize.h"

typedef struct opts {
  const char *kernel, *arch, *cert;
  int json, heuristic, normalize;
  long budget;
  double time_limit;
  long node_limit;
  long gaus_min_ops;
  int engines;
  long threads, smt_budget;
  unsigned form;
} opts;

/* --off LIST: the formulation's levers to switch off (for measuring them). */
static int parse_off(const char *v, unsigned *form) {
  static const char *words[] = {"reduce", "structured", "windows", "slots", "times", "relative"};
  while (*v) {
    const char *e = strchr(v, ',');
    size_t n = e ? (size_t)(e - v) : strlen(v);
    int k = 0;
    while (k < 6 && (strlen(words[k]) != n || strncmp(v, words[k], n))) k++;
    if (k == 6)
      return twill_cli_error("modulo", "--off: unknown lever '%.*s' (reduce, "
                                       "structured, windows, slots, times, relative)",
                             (int)n, v);
    *form &= ~(1u << k);
    if (!e) break;
    v = e + 1;
  }
  return 0;
}

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->normalize = 1;
  o->budget = 300;
  o->time_limit = 60; /* every search has a limit, as every solver call does */
  o->gaus_min_ops = TWILL_MODULO_GAUS_MIN_OPS;
  twill_modulo_opts mo;
  twill_modulo_opts_default(&mo);
  o->threads = mo.threads;
  o->smt_budget = mo.smt_conflicts;
  o->form = mo.form;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      if (o->kernel) return twill_cli_error("modulo", "more than one kernel given");
      o->kernel = a.val;
    } else if (twill_cli_is(&a, "--json")) o->json = 1;
    else if (twill_cli_is(&a, "--heuristic")) o->heuristic = 1;
    else if (twill_cli_is(&a, "--no-normalize")) o->normalize = 0;
    else if (twill_cli_is(&a, "--cert")) o->cert = a.val;
    else if (twill_cli_is(&a, "--arch")) o->arch = a.val;
    else if (twill_cli_is(&a, "--budget")) {
      if (twill_cli_long(&a, 1, 100000, &o->budget)) return 1;
    } else if (twill_cli_is(&a, "--node-limit")) {
      if (twill_cli_long(&a, 1, 1000000000L, &o->node_limit)) return 1;
    } else if (twill_cli_is(&a, "--gaus-min-ops")) {
      if (twill_cli_long(&a, 0, 100000000L, &o->gaus_min_ops)) return 1;
    } else if (twill_cli_is(&a, "--time-limit")) {
      if (twill_cli_double(&a, 0.001, 1e7, &o->time_limit)) return 1;
    } else if (twill_cli_is(&a, "--engine")) {
      if (!strcmp(a.val, "ilp")) o->engines = TWILL_MODULO_ENGINE_ILP;
      else if (!strcmp(a.val, "smt")) o->engines = TWILL_MODULO_ENGINE_SMT;
      else if (!strcmp(a.val, "both")) o->engines = 0;
      else return twill_cli_error("modulo", "--engine: ilp, smt or both, not '%s'", a.val);
    } else if (twill_cli_is(&a, "--threads")) {
      if (twill_cli_long(&a, 1, 64, &o->threads)) return 1;
    } else if (twill_cli_is(&a, "--smt-budget")) {
      if (twill_cli_long(&a, 0, 1000000000000L, &o->smt_budget)) return 1;
    } else if (twill_cli_is(&a, "--off")) {
      if (parse_off(a.val, &o->form)) return 1;
    }
  }
  if (r < 0) return 1;
  if (!o->kernel) return twill_cli_error("modulo", "no kernel given");
  return 0;
}

/* Times are printed in real cycles: a normalized time t as
 * round(t * num / den) (twill_norm_scale), with the solver's own value
 * beside it, "(normalized t)", when the costs were normalized. */
typedef struct units {
  long num, den;
  bool on;
} units;

static units units_of(const twill_norm *nm) {
  units u;
  u.on = nm && nm->n > 0;
  twill_norm_scale(u.on ? nm : NULL, &u.num, &u.den);
  return u;
}

static long real(const units *u, long t) { return twill_norm_real(t, u->num, u->den); }

/* "512" or "512 (normalized 2)" */
static const char *both(const units *u, long t, char *buf, size_t n) {
  if (u->on) snprintf(buf, n, "%ld (normalized %ld)", real(u, t), t);
  else snprintf(buf, n, "%ld", t);
  return buf;
}

static void print_text(const twill_graph *g, const twill_arch *m, const opts *o,
                       const twill_norm *nm, const twill_modulo_result *r) {
  units u = units_of(nm);
  char b1[64], b2[64], b3[64], b4[64];
  printf("kernel %s on %s: %d ops, %d edges\n", g->name, m->name, g->nops,
         g->nedges);
  if (u.on) {
    printf("costs normalized (U = %ld, F = %ld):", nm->U, nm->F);
    for (int i = 0; i < nm->n; i++)
      printf("%s %ld -> %ld", i ? "," : "", nm->cost[i], nm->scaled[i]);
    printf("\n");
    if (u.den == 1)
      printf("cycles below are real: solved on normalized costs, 1 normalized "
             "cycle = %ld cycles\n", u.num);
    else
      printf("cycles below are real: solved on normalized costs, 1 normalized "
             "cycle = %ld/%ld cycles, rounded to whole cycles\n", u.num, u.den);
  }
  if (u.on)
    printf("ResMII %ld, RecMII %ld, MII %ld (normalized %ld, %ld, %ld)\n",
           real(&u, r->res_mii), real(&u, r->rec_mii), real(&u, r->mii),
           r->res_mii, r->rec_mii, r->mii);
  else
    printf("ResMII %ld, RecMII %ld, MII %ld\n", r->res_mii, r->rec_mii, r->mii);
  if (r->heuristic_ii > 0)
    printf("heuristic (iterative modulo scheduling): I = %s%s\n",
           both(&u, r->heuristic_ii, b1, sizeof b1),
           o->heuristic ? "" : " (the engines found no schedule in the limit)");
  for (int i = 0; i < r->ntries; i++) {
    const twill_modulo_try *t = &r->tries[i];
    const char *what = t->status == 0   ? "feasible, minimal L found"
                       : t->status == 1 ? "infeasible (proven)"
                       : t->status == 3 ? "limit reached"
                                        : "error";
    /* no seconds here: same input, same bytes (the progress lines on a
     * terminal carry them, on stderr) */
    int smt = t->engine == TWILL_MODULO_ENGINE_SMT;
    printf("  I = %s: %s (%s, %ld %s)\n", both(&u, t->ii, b1, sizeof b1), what,
           smt ? "SMT engine" : "ILP", t->nodes, smt ? "conflicts" : "nodes");
  }
  if (o->heuristic)
    printf("I = %s, L = %s (heuristic schedule, not proven optimal)\n",
           both(&u, r->ii, b1, sizeof b1), both(&u, r->length, b2, sizeof b2));
  else if (r->status == TWILL_MODULO_OPTIMAL && !u.on)
    printf("I* = %ld, L = %ld: optimal (no schedule at I < %ld; none shorter "
           "at I*)\n",
           r->ii, r->length, r->ii);
  else if (r->status == TWILL_MODULO_OPTIMAL)
    /* the proof is about normalized I: "below I*" in the solver's cycles */
    printf("I* = %s, L = %s: optimal (no schedule at a smaller I; none "
           "shorter at I*)\n",
           both(&u, r->ii, b1, sizeof b1), both(&u, r->length, b2, sizeof b2));
  else if (r->ii_lower == r->ii)
    printf("I* = %s is optimal; limit reached before L was: best L = %s, "
           "proven L >= %s\n",
           both(&u, r->ii, b1, sizeof b1), both(&u, r->length, b2, sizeof b2),
           both(&u, r->length_lower, b3, sizeof b3));
  else
    printf("limit reached: best schedule I = %s, L = %s; proven I >= %s, "
           "L >= %s at that I\n",
           both(&u, r->ii, b1, sizeof b1), both(&u, r->length, b2, sizeof b2),
           both(&u, r->ii_lower, b3, sizeof b3),
           both(&u, r->length_lower, b4, sizeof b4));
  if (u.on)
    printf("\n  %-14s %8s %6s %6s %11s\n", "op", "start", "stage", "slot",
           "normalized");
  else
    printf("\n  %-14s %8s %6s %6s\n", "op", "start", "stage", "slot");
  for (int v = 0; v < g->nops; v++) {
    long t = r->sched->start[v];
    if (u.on)
      printf("  %-14s %8ld %6ld %6ld %11ld\n", g->ops[v].name, real(&u, t),
             t / r->ii, real(&u, t % r->ii), t);
    else
      printf("  %-14s %8ld %6ld %6ld\n", g->ops[v].name, t, t / r->ii, t % r->ii);
  }
}

static int print_json(const twill_graph *g0, const twill_graph *g,
                      const twill_arch *m, const opts *o, const twill_norm *nm,
                      const twill_modulo_result *r) {
  units u = units_of(nm);
  twill_emit_opts eo = {o->heuristic, NULL, g0, u.on ? nm : NULL};
  twill_jw w;
  twill_jw_init(&w, stdout, true);
  twill_jw_object_begin(&w);
  twill_jw_key(&w, "kernel"), twill_jw_string(&w, g->name);
  twill_jw_key(&w, "arch"), twill_jw_string(&w, m->name);
  twill_jw_key(&w, "optimal");
  twill_jw_bool(&w, !o->heuristic && r->status == TWILL_MODULO_OPTIMAL);
  /* bounds in real cycles, like every cycle count outside "normalized" */
  twill_jw_key(&w, "lower_bound"), twill_jw_int(&w, real(&u, r->ii_lower));
  twill_jw_key(&w, "res_mii"), twill_jw_int(&w, real(&u, r->res_mii));
  twill_jw_key(&w, "rec_mii"), twill_jw_int(&w, real(&u, r->rec_mii));
  twill_sched_json_write(&w, g, m, r->sched, &eo);
  twill_jw_key(&w, "stats");
  twill_jw_object_begin(&w);
  twill_jw_key(&w, "heuristic_ii"), twill_jw_int(&w, r->heuristic_ii);
  twill_jw_key(&w, "nodes"), twill_jw_int(&w, r->nodes);
  twill_jw_key(&w, "tries");
  twill_jw_array_begin(&w);
  for (int i = 0; i < r->ntries; i++) {
    twill_jw_object_begin(&w);
    twill_jw_key(&w, "ii"), twill_jw_int(&w, r->tries[i].ii);
    twill_jw_key(&w, "status");
    twill_jw_string(&w, r->tries[i].status == 0   ? "feasible"
                        : r->tries[i].status == 1 ? "infeasible"
                                                  : "limit");
    twill_jw_key(&w, "engine");
    twill_jw_string(&w, r->tries[i].engine == TWILL_MODULO_ENGINE_SMT ? "smt" : "ilp");
    twill_jw_key(&w, "nodes"), twill_jw_int(&w, r->tries[i].nodes);
    twill_jw_object_end(&w);
  }
  twill_jw_array_end(&w);
  twill_jw_object_end(&w);
  twill_sched_json_write_source(&w, g, m, &eo);
  twill_jw_object_end(&w);
  return twill_jw_finish(&w);
}

int twill_cmd_modulo(int argc, char **argv) {
  opts o;
  if (parse(argc, argv, &o)) return TWILL_EXIT_USAGE;
  twill_graph *g0, *g;
  twill_arch *m;
  if (twill_cli_load_kernel(o.kernel, o.arch, "twill modulo: --arch", &g0, &m)) return TWILL_EXIT_USAGE;
  /* the one normalization of this kernel on this machine, the same as
   * twill solve's (twill_normalize_kernel) */
  twill_norm nm;
  g = twill_normalize_kernel(g0, m->cross_warp, o.normalize ? o.budget : 0,
                             o.time_limit, &nm);
  if (!g) {
    fprintf(stderr, "twill modulo: cost normalization failed (budget %ld "
                    "below the number of distinct costs?)\n", o.budget);
    twill_graph_free(g0);
    twill_arch_free(m);
    return TWILL_EXIT_USAGE;
  }
  twill_modulo_result r;
  memset(&r, 0, sizeof r);
  int rc = TWILL_EXIT_OK;
  if (o.heuristic && o.cert) {
    fprintf(stderr, "twill modulo: --heuristic proves nothing: no --cert\n");
    rc = TWILL_EXIT_USAGE;
  } else if (o.heuristic) {
    if (twill_modulo_ims(g, NULL, &r.sched) != 0) rc = TWILL_EXIT_USAGE;
    else {
      r.ii = r.heuristic_ii = r.sched->ii;
      r.length = twill_schedule_length(g, r.sched);
      twill_bounds b;
      if (!twill_bounds_compute(g, &b)) {
        r.res_mii = b.res_mii;
        r.rec_mii = b.rec_mii;
        r.mii = r.ii_lower = b.mii;
        twill_bounds_clear(&b);
      }
      r.status = TWILL_MODULO_LIMIT;
    }
  } else {
    twill_modulo_opts mo;
    twill_modulo_opts_default(&mo);
    mo.time_limit = o.time_limit;
    mo.node_limit = o.node_limit;
    mo.gaus_min_ops = o.gaus_min_ops;
    mo.certify = o.cert != NULL;
    mo.engines = o.engines;
    mo.threads = (int)o.threads;
    mo.smt_conflicts = o.smt_budget;
    mo.form = o.form;
    if (isatty(2)) mo.log = twill_cli_log; /* progress for a person watching */
    twill_cli_catch_interrupt();
    if (twill_modulo_solve(g, &mo, &r) || r.status == TWILL_MODULO_ERROR)
      rc = TWILL_EXIT_USAGE;
    else if (r.status == TWILL_MODULO_LIMIT)
      rc = TWILL_EXIT_LIMIT;
  }
  if (rc == TWILL_EXIT_USAGE) {
    fprintf(stderr, "twill modulo: the search failed (out of memory or a "
                    "numerical failure in the ILP)\n");
  } else if (!r.sched) {
    units u = units_of(&nm);
    char b[64];
    printf("interrupted before any schedule was found: proven I >= %s\n",
           both(&u, r.ii_lower, b, sizeof b));
  } else if (o.json) {
    if (print_json(g0, g, m, &o, &nm, &r)) rc = TWILL_EXIT_USAGE;
  } else {
    print_text(g, m, &o, &nm, &r);
  }
  if (o.cert && r.sched && (rc == TWILL_EXIT_OK ||
                 (rc == TWILL_EXIT_LIMIT && r.ii_lower == r.ii))) {
    FILE *f = fopen(o.cert, "w");
    if (!f || twill_modulo_write_cert(g, m->name, o.normalize ? &nm : NULL, &r, f)) {
      fprintf(stderr, "twill modulo: cannot write the certificate to %s\n",
              o.cert);
      rc = TWILL_EXIT_USAGE;
    }
    if (f && fclose(f)) rc = TWILL_EXIT_USAGE;
    else if (rc == TWILL_EXIT_LIMIT)
      fprintf(stderr, "twill modulo: the certificate proves I* = %ld; L = %ld "
                      "is marked unproven\n", r.ii, r.length);
  } else if (o.cert && rc == TWILL_EXIT_LIMIT) {
    fprintf(stderr, "twill modulo: no certificate: the search stopped at its "
                    "limit before proving I\n");
  }
  twill_modulo_result_clear(&r);
  twill_graph_free(g);
  twill_graph_free(g0);
  twill_norm_clear(&nm);
  twill_arch_free(m);
  return rc;
}
