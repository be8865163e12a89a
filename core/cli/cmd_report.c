/* core/cli/cmd_report.c: `twill report KERNEL|SCHEDULE.json -o FILE`: one
 * self-contained HTML page (codegen/report.c) about a schedule.
 *
 * A KERNEL is solved in process (Algorithm 1 by default; phase 1 with
 * --solver modulo; GauS formulation C with --solver gaus), the certificate
 * the solver writes is handed at once to the checker (twill_solve_check_cert
 * / twill_modulo_check_cert), and the page shows what the library's
 * results say.  A SCHEDULE.json (what `twill modulo --json`, `twill solve
 * --json` and `twill emit --format json` write) goes through the schedule
 * file reader; the search log, the warp model and what was proven are taken
 * from the file's other keys when it has them.  A `twill solve --json` file
 * of an "infeasible at every I" answer has no times: its report shows the
 * kernel, the bounds, the refuted I and why.
 *
 * Exit status: what the answer is (0, 2 infeasible, 3 limit), 1 for bad
 * usage or input; the page is written in every case but 1. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "twill/builtin.h"
#include "twill/check.h"
#include "twill/codegen.h"
#include "twill/gaus.h"
#include "twill/joint.h"
#include "twill/json.h"
#include "twill/modulo.h"
#include "twill/normalize.h"

typedef struct opts {
  const char *input, *arch, *out, *cert;
  char solver; /* 's' Algorithm 1, 'm' phase 1, 'g' GauS */
  bool no_cert, no_normalize, no_cross, first_model;
  long warps, regs, budget;
  double time_limit;
  int nrel;
  twill_rel_kind rel_kind[TWILL_JOINT_MAX_RELS];
  const char *rel_list[TWILL_JOINT_MAX_RELS];
} opts;

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->solver = 's';
  o->budget = 300;
  o->time_limit = 60; /* every search has a limit, as in solve and modulo */
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    int e = 0;
    if (!a.opt) {
      if (o->input)
        return twill_cli_error("report", "more than one input ('%s', '%s')", o->input,
                               a.val);
      o->input = a.val;
    } else if (twill_cli_is(&a, "--no-cert")) o->no_cert = true;
    else if (twill_cli_is(&a, "--no-normalize")) o->no_normalize = true;
    else if (twill_cli_is(&a, "--no-cross-warp")) o->no_cross = true;
    else if (twill_cli_is(&a, "--first-model")) o->first_model = true;
    else if (twill_cli_is(&a, "--same") || twill_cli_is(&a, "--apart") ||
             twill_cli_is(&a, "--own") || twill_cli_is(&a, "--lead")) {
      if (o->nrel == TWILL_JOINT_MAX_RELS)
        return twill_cli_error("report", "more than %d relations", TWILL_JOINT_MAX_RELS);
      o->rel_kind[o->nrel] = (twill_rel_kind)twill_rel_parse_kind(a.opt + 2);
      o->rel_list[o->nrel++] = a.val;
    } else if (twill_cli_is(&a, "-o")) o->out = a.val;
    else if (twill_cli_is(&a, "--arch")) o->arch = a.val;
    else if (twill_cli_is(&a, "--cert")) o->cert = a.val;
    else if (twill_cli_is(&a, "--solver")) {
      if (!strcmp(a.val, "solve")) o->solver = 's';
      else if (!strcmp(a.val, "modulo")) o->solver = 'm';
      else if (!strcmp(a.val, "gaus")) o->solver = 'g';
      else
        return twill_cli_error("report", "--solver expects solve, modulo or gaus, "
                                         "got '%s'", a.val);
    } else if (twill_cli_is(&a, "--warps")) e = twill_cli_long(&a, 1, 64, &o->warps);
    else if (twill_cli_is(&a, "--regs")) e = twill_cli_long(&a, 1, 255, &o->regs);
    else if (twill_cli_is(&a, "--budget")) e = twill_cli_long(&a, 1, 100000, &o->budget);
    else if (twill_cli_is(&a, "--time-limit"))
      e = twill_cli_double(&a, 0.001, 1e7, &o->time_limit);
    if (e) return TWILL_EXIT_USAGE;
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!o->input) return twill_cli_error("report", "no kernel or schedule given");
  if (o->cert && o->no_cert)
    return twill_cli_error("report", "--cert and --no-cert contradict each other");
  if (o->solver == 'g' && o->cert)
    return twill_cli_error("report", "GauS proves nothing: no --cert with --solver gaus");
  if (o->solver != 's' && (o->warps || o->regs || o->nrel || o->no_cross || o->first_model))
    return twill_cli_error("report", "--warps, --regs, --no-cross-warp, --first-model and "
                                     "the warp relations go with --solver solve");
  return 0;
}

/* Real cycles per normalized cycle: the largest cost over its normalized
 * value (as `twill modulo` and `twill solve` state it); 0 without a
 * mapping.  The report converts every time with this one factor. */
static double scale_of(const twill_norm *nm) {
  if (!nm || nm->n == 0 || nm->scaled[nm->n - 1] <= 0) return 0;
  return (double)nm->cost[nm->n - 1] / (double)nm->scaled[nm->n - 1];
}

/* Everything the page is made of, owned here. */
typedef struct made {
  twill_report rep;
  twill_graph *g0;         /* the kernel as loaded */
  twill_graph *gn;         /* the graph scheduled, when not g0 */
  twill_arch *m;
  twill_schedule *s;       /* when not owned by a result below */
  twill_report_try *tries;
  twill_joint_params p;
  char cert_msg[1000];
  char phase1[200];
  char solver[200];
  char *why_never;
  char **whys;             /* owned copies of try explanations */
  int nwhys;
  twill_solve_result sr;
  bool have_sr;
  twill_modulo_result mr;
  bool have_mr;
  twill_norm nm;
  twill_joint_relset rels; /* --same, --apart, --own, --lead */
  int rc;                  /* the exit status the answer gives */
} made;

static void made_free(made *k) {
  if (k->have_sr) twill_solve_result_clear(&k->sr);
  if (k->have_mr) twill_modulo_result_clear(&k->mr);
  for (int i = 0; i < k->nwhys; i++) free(k->whys[i]);
  free(k->whys);
  free(k->why_never);
  free(k->tries);
  twill_schedule_free(k->s);
  twill_graph_free(k->gn);
  twill_graph_free(k->g0);
  twill_arch_free(k->m);
  twill_norm_clear(&k->nm);
  twill_joint_relset_free(&k->rels);
}

/* Save a certificate the user asked for (--cert FILE). */
static int save_cert(const char *path, const char *cert, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(cert, 1, len, f) != len) {
    if (f) fclose(f);
    fprintf(stderr, "%s: cannot write the certificate: %s\n", path, strerror(errno));
    return -1;
  }
  if (fclose(f)) {
    fprintf(stderr, "%s: cannot write the certificate\n", path);
    return -1;
  }
  return 0;
}

static const char *solve_word(int st) {
  return st == 10 ? "SAT" : st == 20 ? "UNSAT" : st == -1 ? "no modulo schedule" : "limit";
}

static int run_solve(const opts *o, made *k) {
  twill_joint_params *p = &k->p;
  twill_joint_params_default(p, k->m);
  if (o->warps) {
    if (o->warps % p->warpgroup)
      return twill_cli_error("report", "--warps %ld is not a multiple of the "
                             "warpgroup size %d", o->warps, p->warpgroup);
    p->warps = (int)o->warps;
  }
  if (o->regs) p->regs = o->regs;
  if (p->reg_step > 0 && p->regs < p->reg_lo)
    return twill_cli_error("report", "--regs %ld is below the machine's "
                           "setmaxnreg minimum %d", p->regs, p->reg_lo);
  p->no_cross_warp = o->no_cross;
  for (int i = 0; i < o->nrel; i++) {
    char why[200];
    if (twill_joint_rel_add(&k->rels, k->g0, o->rel_kind[i], o->rel_list[i], why,
                            sizeof why))
      return twill_cli_error("report", "%s", why);
  }
  p->rels = k->rels.rels;
  p->nrels = k->rels.n;
  twill_solve_opts so;
  twill_solve_opts_default(&so);
  so.time_limit = o->time_limit;
  so.budget = o->no_normalize ? 0 : o->budget;
  so.certify = !o->no_cert;
  so.first_model = o->first_model;
  if (isatty(2)) so.log = twill_cli_log;
  twill_cli_catch_interrupt();
  k->have_sr = true;
  twill_solve_result *r = &k->sr;
  if (twill_solve(k->g0, k->m, p, &so, r) || r->status < 0 || !r->g) {
    fprintf(stderr, "twill report: internal error or out of memory in the solver\n");
    return TWILL_EXIT_USAGE;
  }
  k->rc = r->status == 0 ? TWILL_EXIT_OK : r->status == 2 ? TWILL_EXIT_INFEASIBLE
                                                          : TWILL_EXIT_LIMIT;
  k->tries = calloc((size_t)r->ntries + 1, sizeof *k->tries);
  if (!k->tries) return TWILL_EXIT_USAGE;
  for (int i = 0; i < r->ntries; i++) {
    const twill_solve_try *t = &r->tries[i];
    twill_report_try *q = &k->tries[i];
    q->ii = t->ii;
    q->lmin = t->lmin;
    q->lmax = t->lmax;
    q->outcome = t->status == 10 ? 1 : t->status == 20 || t->status == -1 ? 0 : -1;
    q->what = solve_word(t->status);
    q->why = t->status == -1 ? "no modulo schedule at this I: dependences and unit "
                               "capacities alone conflict (phase 1)"
                             : t->why;
  }
  /* the certificate, checked at once by the independent checker */
  twill_report *rep = &k->rep;
  if (o->no_cert) {
    snprintf(k->cert_msg, sizeof k->cert_msg, "not certified (--no-cert)");
  } else if (r->status == 2 && r->ntries == 0) {
    /* settled before any search (twill solve writes no certificate either):
     * one op's own footprint exceeds the budget, which anyone can check */
    snprintf(k->cert_msg, sizeof k->cert_msg,
             "not certified: the answer needs no search (one op alone exceeds "
             "its budget, as stated above)");
  } else if (!r->sched && r->status != 2) {
    snprintf(k->cert_msg, sizeof k->cert_msg,
             "no certificate: the search stopped at its limit without an answer");
  } else {
    char *cert = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&cert, &len);
    int bad = !mf || twill_solve_write_cert(r, k->m->name, mf);
    if (mf && fclose(mf)) bad = 1;
    if (bad) {
      snprintf(k->cert_msg, sizeof k->cert_msg,
               "no certificate: a proof is missing (the limit was reached before "
               "one was complete)");
    } else {
      char msg[800];
      /* the checker's subject from this command line, as `twill check`
       * builds it: the kernel as written, its machine, the budget, the
       * joint parameters in real cycles */
      twill_check_subject cs = {k->g0, k->m, o->no_normalize ? 0 : o->budget, &k->p, 0};
      int no = twill_check_cert(&cs, cert, len, NULL, msg, sizeof msg);
      rep->cert = no ? TWILL_REPORT_CERT_FAILED : TWILL_REPORT_CERT_VERIFIED;
      snprintf(k->cert_msg, sizeof k->cert_msg, "%s (%zu bytes, checked in process)",
               msg, len);
      if (o->cert && save_cert(o->cert, cert, len)) k->rc = TWILL_EXIT_USAGE;
      if (no) {
        /* the page still says so; the exit status too */
        fprintf(stderr, "twill report: the checker rejected the certificate: %s\n", msg);
        k->rc = TWILL_EXIT_USAGE;
      }
    }
    free(cert);
  }
  if (r->sched) k->m->warps = r->p.warps; /* the emit model checks warps */
  snprintf(k->solver, sizeof k->solver,
           "twill solve: Algorithm 1 (least I with warp specialization, least L "
           "at it%s)", so.first_model ? ", first model" : ", fewest values crossing warps");
  snprintf(k->phase1, sizeof k->phase1,
           "I = %ld, L = %ld in normalized cycles (a modulo schedule without warps, "
           "where Algorithm 1 starts)",
           r->phase1_ii, r->phase1_length);
  rep->g = r->g;
  rep->s = r->sched;
  rep->real_per_cycle = r->norm_budget > 0 ? scale_of(&r->norm) : 0;
  rep->p = &r->p;
  rep->optimal = r->status == 0;
  rep->length_proven = r->length_proven;
  rep->infeasible = r->status == 2;
  rep->why_infeasible = r->status == 2 ? r->why_never : NULL;
  rep->ii_lower = r->ii_lower;
  rep->tries = k->tries;
  rep->ntries = r->ntries;
  rep->phase1 = r->phase1_ii > 0 ? k->phase1 : NULL;
  return 0;
}

static int run_modulo(const opts *o, made *k) {
  twill_graph *g = k->g0;
  if (!o->no_normalize) {
    /* the one normalization of this kernel on this machine, as twill
     * modulo and twill solve make it (twill_normalize_kernel) */
    k->gn = twill_normalize_kernel(k->g0, k->m->cross_warp, o->budget, o->time_limit,
                                   &k->nm);
    if (!k->gn) {
      fprintf(stderr, "twill report: cost normalization failed (budget %ld below "
                      "the number of distinct costs?)\n", o->budget);
      return TWILL_EXIT_USAGE;
    }
    g = k->gn;
  }
  twill_modulo_opts mo;
  twill_modulo_opts_default(&mo);
  mo.time_limit = o->time_limit;
  mo.certify = !o->no_cert;
  twill_cli_catch_interrupt();
  twill_modulo_result *r = &k->mr;
  memset(r, 0, sizeof *r);
  k->have_mr = true;
  if (twill_modulo_solve(g, &mo, r) || r->status == TWILL_MODULO_ERROR) {
    fprintf(stderr, "twill report: the search failed (out of memory or a "
                    "numerical failure in the ILP)\n");
    return TWILL_EXIT_USAGE;
  }
  k->rc = r->status == TWILL_MODULO_OPTIMAL ? TWILL_EXIT_OK : TWILL_EXIT_LIMIT;
  k->tries = calloc((size_t)r->ntries + 1, sizeof *k->tries);
  if (!k->tries) return TWILL_EXIT_USAGE;
  for (int i = 0; i < r->ntries; i++) {
    const twill_modulo_try *t = &r->tries[i];
    twill_report_try *q = &k->tries[i];
    q->ii = t->ii;
    q->outcome = t->status == 0 ? 1 : t->status == 1 ? 0 : -1;
    q->what = t->status == 0   ? "feasible"
              : t->status == 1 ? "infeasible (proven)"
              : t->status == 3 ? "limit"
                               : "error";
    q->why = t->status == 1 ? "no modulo schedule at this I: the dependences and "
                              "unit capacities admit none (the integer program is "
                              "infeasible)"
                            : NULL;
  }
  twill_report *rep = &k->rep;
  bool proven_ii = r->status == TWILL_MODULO_OPTIMAL || (r->sched && r->ii_lower == r->ii);
  if (o->no_cert) {
    snprintf(k->cert_msg, sizeof k->cert_msg, "not certified (--no-cert)");
  } else if (!r->sched || !proven_ii) {
    snprintf(k->cert_msg, sizeof k->cert_msg,
             "no certificate: the search stopped at its limit before proving I");
  } else {
    char *cert = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&cert, &len);
    int bad = !mf || twill_modulo_write_cert(g, k->m->name, o->no_normalize ? NULL : &k->nm,
                                             r, mf);
    if (mf && fclose(mf)) bad = 1;
    if (bad) {
      snprintf(k->cert_msg, sizeof k->cert_msg, "no certificate: a proof is missing");
    } else {
      char msg[800];
      twill_check_subject cs = {k->g0, k->m, o->no_normalize ? 0 : o->budget, NULL, 0};
      int no = twill_check_cert(&cs, cert, len, NULL, msg, sizeof msg);
      rep->cert = no ? TWILL_REPORT_CERT_FAILED : TWILL_REPORT_CERT_VERIFIED;
      snprintf(k->cert_msg, sizeof k->cert_msg, "%s (%zu bytes, checked in process)",
               msg, len);
      if (o->cert && save_cert(o->cert, cert, len)) k->rc = TWILL_EXIT_USAGE;
      if (no) {
        /* the page still says so; the exit status too */
        fprintf(stderr, "twill report: the checker rejected the certificate: %s\n", msg);
        k->rc = TWILL_EXIT_USAGE;
      }
    }
    free(cert);
  }
  snprintf(k->solver, sizeof k->solver,
           "twill modulo: Twill phase 1 (least I, least L at it; no warps)");
  rep->g = g;
  rep->s = r->sched;
  rep->real_per_cycle = o->no_normalize ? 0 : scale_of(&k->nm);
  rep->optimal = proven_ii;
  rep->length_proven = r->status == TWILL_MODULO_OPTIMAL;
  rep->ii_lower = r->ii_lower;
  rep->tries = k->tries;
  rep->ntries = r->ntries;
  return 0;
}

static int run_gaus(const opts *o, made *k) {
  twill_gaus_opts go;
  twill_gaus_opts_default(&go);
  go.form = 'C'; /* the modulo formulation: a loop body at an II */
  go.time_limit = o->time_limit;
  go.progress = isatty(2) != 0;
  twill_gaus_problem *gp = twill_gaus_problem_from_graph(k->g0, NULL);
  twill_gaus_result gr;
  memset(&gr, 0, sizeof gr);
  if (!gp || twill_gaus_solve(gp, &go, &gr, stderr)) {
    fprintf(stderr, "twill report: GauS failed (out of memory)\n");
    twill_gaus_result_free(&gr);
    twill_gaus_problem_free(gp);
    return TWILL_EXIT_USAGE;
  }
  k->s = twill_schedule_new(k->g0->nops, gr.ii);
  if (k->s)
    for (int v = 0; v < k->g0->nops; v++) k->s->start[v] = gr.t[v];
  bool limited = gr.time_limited;
  twill_gaus_result_free(&gr);
  twill_gaus_problem_free(gp);
  char why[512];
  if (!k->s) return TWILL_EXIT_USAGE;
  if (twill_schedule_validate(k->g0, k->m, k->s, why, sizeof why)) {
    fprintf(stderr, "twill report: internal error: GauS schedule rejected: %s\n", why);
    return TWILL_EXIT_USAGE;
  }
  k->rc = limited ? TWILL_EXIT_LIMIT : TWILL_EXIT_OK;
  snprintf(k->cert_msg, sizeof k->cert_msg,
           "not certified: GauS is a heuristic (its schedule passed the validator; "
           "nothing about other I is proven)");
  snprintf(k->solver, sizeof k->solver,
           "twill gaus: GauS formulation C (differentiable modulo scheduling; "
           "the kernel's own cycles)");
  k->rep.g = k->g0;
  k->rep.s = k->s;
  k->rep.heuristic = true;
  return 0;
}

/* ---- schedule files ------------------------------------------------------ */

/* Is the text a JSON object with "times" (a schedule), one that says
 * "infeasible": true (an answer without a schedule), or `twill gaus
 * --json`'s ("formulation" and "start", the start times in op order)?
 * 1 schedule, 2 infeasible answer, 3 GauS, 0 none (a kernel). */
static int file_kind(const char *text, size_t len) {
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
    i++;
  if (i >= len || text[i] != '{') return 0;
  bool times = false, infeasible = false, form = false, start = false;
  for (size_t j = i; j + 7 <= len; j++) {
    if (!memcmp(text + j, "\"times\"", 7)) times = true;
    if (!memcmp(text + j, "\"start\"", 7)) start = true;
    if (j + 13 <= len && !memcmp(text + j, "\"formulation\"", 13)) form = true;
    if (j + 12 <= len && !memcmp(text + j, "\"infeasible\"", 12)) {
      size_t q = j + 12;
      while (q < len && (text[q] == ' ' || text[q] == ':' || text[q] == '\n')) q++;
      if (q + 4 <= len && !memcmp(text + q, "true", 4)) infeasible = true;
    }
  }
  return times ? 1 : infeasible ? 2 : form && start ? 3 : 0;
}

/* The kernel a schedule file names: as named, else beside the file.  A
 * new string (the path to load). */
static char *kernel_path(const char *kernel, const char *file) {
  size_t n = strlen(kernel);
  if (twill_builtin_kernel(kernel) || kernel[0] == '/' || !strrchr(file, '/')) {
    char *p = malloc(n + 1);
    if (p) memcpy(p, kernel, n + 1);
    return p;
  }
  FILE *kf = fopen(kernel, "rb");
  if (kf) {
    fclose(kf);
    char *p = malloc(n + 1);
    if (p) memcpy(p, kernel, n + 1);
    return p;
  }
  size_t dl = (size_t)(strrchr(file, '/') - file) + 1;
  char *p = malloc(dl + n + 1);
  if (!p) return NULL;
  memcpy(p, file, dl);
  memcpy(p + dl, kernel, n + 1);
  return p;
}

static long jint(const twill_json *o, const char *key, long dflt) {
  const twill_json *v = o ? twill_json_get(o, key) : NULL;
  return v && v->type == TWILL_JSON_NUMBER && v->is_int ? (long)v->integer : dflt;
}

static bool jbool(const twill_json *o, const char *key) {
  const twill_json *v = o ? twill_json_get(o, key) : NULL;
  return v && v->type == TWILL_JSON_BOOL && v->boolean;
}

static const char *jstr(const twill_json *o, const char *key) {
  const twill_json *v = o ? twill_json_get(o, key) : NULL;
  return v && v->type == TWILL_JSON_STRING ? v->string : NULL;
}

static char *dup_or_null(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* What the file says beyond the schedule: the search log (solve's "tries",
 * modulo's "stats"."tries"), what was proven, the warp model ("params"). */
static int file_extras(made *k, const twill_json *root, bool *solve_file) {
  twill_report *rep = &k->rep;
  const twill_json *params = twill_json_get(root, "params");
  *solve_file = params && params->type == TWILL_JSON_OBJECT;
  rep->optimal = jbool(root, "optimal");
  rep->length_proven = jbool(root, "length_proven") ||
                       (rep->optimal && !*solve_file && twill_json_get(root, "normalization"));
  rep->ii_lower = jint(root, "lower_bound", 0);
  if (jbool(root, "infeasible")) {
    rep->infeasible = true;
    k->why_never = dup_or_null(jstr(root, "why_infeasible"));
    rep->why_infeasible = k->why_never;
  }
  const twill_json *stats = twill_json_get(root, "stats");
  const char *src = jstr(stats, "source");
  rep->heuristic = src && strstr(src, "heuristic");
  const twill_json *tries = twill_json_get(root, "tries");
  if (!tries || tries->type != TWILL_JSON_ARRAY) tries = twill_json_get(stats, "tries");
  if (tries && tries->type == TWILL_JSON_ARRAY && tries->len) {
    /* at most two strings per try: its status and its explanation */
    k->tries = calloc(tries->len, sizeof *k->tries);
    k->whys = calloc(2 * tries->len, sizeof *k->whys);
    if (!k->tries || !k->whys) return -1;
    for (size_t i = 0; i < tries->len; i++) {
      const twill_json *t = &tries->items[i];
      twill_report_try *q = &k->tries[rep->ntries];
      if (t->type != TWILL_JSON_OBJECT) continue;
      q->ii = jint(t, "ii", 0);
      q->lmin = jint(t, "lmin", 0);
      q->lmax = jint(t, "lmax", 0);
      const char *st = jstr(t, "status");
      st = st ? st : "?";
      k->whys[k->nwhys] = dup_or_null(st);
      q->what = k->whys[k->nwhys++];
      q->outcome = !strcmp(st, "SAT") || !strcmp(st, "feasible") ? 1
                   : !strcmp(st, "UNSAT") || !strcmp(st, "infeasible") ||
                           !strcmp(st, "no modulo schedule")
                       ? 0
                       : -1;
      const char *why = jstr(t, "why");
      if (why) {
        k->whys[k->nwhys] = dup_or_null(why);
        q->why = k->whys[k->nwhys++];
      }
      rep->ntries++;
    }
    rep->tries = k->tries;
  }
  if (*solve_file) {
    twill_joint_params *p = &k->p;
    twill_joint_params_default(p, k->m);
    p->warps = (int)jint(params, "warps", p->warps);
    p->warpgroup = (int)jint(params, "warpgroup", p->warpgroup);
    p->regs = jint(params, "regs", p->regs);
    p->regs_per_sm = jint(params, "regs_per_sm", p->regs_per_sm);
    p->reg_lo = (int)jint(params, "reg_lo", p->reg_lo);
    p->reg_step = (int)jint(params, "reg_step", p->reg_step);
    p->cross_warp = jint(params, "cross_warp", p->cross_warp);
    p->no_cross_warp = jbool(params, "no_cross_warp");
    p->smem_cap = jint(params, "smem_cap", p->smem_cap);
    p->tmem_cap = jint(params, "tmem_cap", p->tmem_cap);
    if (p->warps < 1 || p->warpgroup < 1 || p->warps % p->warpgroup) {
      twill_joint_params_default(p, k->m);
    }
    rep->p = p;
    long p1 = jint(root, "phase1_ii", 0), l1 = jint(root, "phase1_length", 0);
    if (p1 > 0) {
      snprintf(k->phase1, sizeof k->phase1,
               "I = %ld, L = %ld (a modulo schedule without warps, where "
               "Algorithm 1 starts)", p1, l1);
      rep->phase1 = k->phase1;
    }
  }
  return 0;
}

/* `twill gaus --json`: "ii" and "start" (one start time per op, in the
 * kernel's op order), in the kernel's own cycles (GauS runs on them).  The
 * file's values are checked against the kernel, then the schedule goes
 * through the validator like any other. */
static twill_schedule *gaus_file_schedule(const twill_json *root, const twill_graph *g,
                                          const char *file) {
  const twill_json *ii = twill_json_get(root, "ii"), *st = twill_json_get(root, "start");
  const twill_json *at = ii ? ii : root;
  if (!ii || ii->type != TWILL_JSON_NUMBER || !ii->is_int || ii->integer < 1 ||
      ii->integer > 1000000000LL) {
    fprintf(stderr, "%s:%d:%d: \"ii\" must be a positive integer\n", file, at->line,
            at->col);
    return NULL;
  }
  at = st ? st : root;
  if (!st || st->type != TWILL_JSON_ARRAY || st->len != (size_t)g->nops) {
    fprintf(stderr, "%s:%d:%d: \"start\" must hold one start time per op of the "
                    "kernel (%d)\n", file, at->line, at->col, g->nops);
    return NULL;
  }
  twill_schedule *s = twill_schedule_new(g->nops, (long)ii->integer);
  if (!s) {
    fprintf(stderr, "twill report: out of memory\n");
    return NULL;
  }
  for (int v = 0; v < g->nops; v++) {
    const twill_json *t = &st->items[v];
    if (t->type != TWILL_JSON_NUMBER || !t->is_int || t->integer < 0 ||
        t->integer > 1000000000LL) {
      fprintf(stderr, "%s:%d:%d: a start time is a non-negative integer\n", file, t->line,
              t->col);
      twill_schedule_free(s);
      return NULL;
    }
    s->start[v] = (long)t->integer;
  }
  return s;
}

static int from_file(const opts *o, made *k, const char *text, size_t len, int kind) {
  twill_diag d;
  memset(&d, 0, sizeof d);
  twill_json *root = twill_json_parse(text, len, o->input, &d);
  if (!root) {
    twill_diag_print(&d, stderr);
    return TWILL_EXIT_USAGE;
  }
  int rc = TWILL_EXIT_USAGE;
  twill_sched_file *sf = NULL;
  char *kp = NULL;
  const char *kname = NULL, *aname = NULL;
  long normalize = 0;
  if (kind == 1) {
    sf = twill_sched_file_parse(text, len, o->input, &d);
    if (!sf) {
      twill_diag_print(&d, stderr);
      goto done;
    }
    kname = sf->kernel;
    aname = sf->arch;
    normalize = sf->normalize;
  } else {
    const twill_json *kn = twill_json_get(root, "kernel");
    if (!kn || kn->type != TWILL_JSON_STRING || !kn->string[0]) {
      fprintf(stderr, "%s:%d:%d: an answer needs \"kernel\": the kernel's name or "
                      "path\n", o->input, kn ? kn->line : root->line,
              kn ? kn->col : root->col);
      goto done;
    }
    kname = kn->string;
    aname = jstr(root, "arch");
    normalize = jint(root, "normalize", 0);
    if (normalize < 0 || normalize > 100000) {
      fprintf(stderr, "%s: \"normalize\" must be the normalization budget U\n", o->input);
      goto done;
    }
  }
  if (!strcmp(o->input, "-") && !strcmp(kname, "-")) {
    fprintf(stderr, "%s: the schedule's kernel is '-', standard input, which holds "
                    "the schedule: name a kernel file\n", o->input);
    goto done;
  }
  kp = kernel_path(kname, o->input);
  if (!kp || twill_cli_load_kernel(kp, o->arch ? o->arch : aname,
                                   o->arch ? "twill report: --arch" : o->input, &k->g0,
                                   &k->m))
    goto done;
  bool solve_file = false;
  if (file_extras(k, root, &solve_file)) {
    fprintf(stderr, "twill report: out of memory\n");
    goto done;
  }
  const twill_graph *g = k->g0;
  if (sf && sf->norm.n > 0) {
    /* a file with its mapping: the graph it was solved on, rebuilt without
     * running the normalization program (twill_normalize_kernel_apply) */
    char why[512];
    k->gn = twill_normalize_kernel_apply(k->g0, k->m->cross_warp, &sf->norm, why,
                                         sizeof why);
    if (!k->gn) {
      fprintf(stderr, "%s: %s\n", o->input, why);
      goto done;
    }
    g = k->gn;
    k->rep.real_per_cycle = scale_of(&sf->norm);
  } else if (normalize > 0) {
    double real_per = 0;
    if (solve_file) {
      /* the graph twill solve ran on: the machine's cross-warp cost in the
       * spill of every op that pays it, then normalized */
      twill_joint_params dp;
      long X;
      twill_joint_params_default(&dp, k->m);
      k->gn = twill_solve_prepare(k->g0, &dp, normalize, 0, &X, &k->nm);
      real_per = scale_of(&k->nm);
    } else {
      k->gn = twill_normalize_graph(k->g0, normalize, 0, &k->nm);
      real_per = scale_of(&k->nm);
    }
    if (!k->gn) {
      fprintf(stderr, "%s: cannot normalize the kernel's costs\n", o->input);
      goto done;
    }
    g = k->gn;
    k->rep.real_per_cycle = real_per;
  }
  /* GauS proves nothing, whichever keys its file uses for the times */
  if (twill_json_get(root, "formulation")) k->rep.heuristic = true;
  if (kind == 3) {
    k->s = gaus_file_schedule(root, g, o->input);
    if (!k->s) goto done;
  } else if (sf) {
    k->s = twill_sched_file_bind(sf, g, o->input, &d);
    if (!k->s) {
      twill_diag_print(&d, stderr);
      goto done;
    }
  }
  if (k->s) {
    if (k->rep.p && k->s->warp) k->m->warps = k->rep.p->warps;
    char why[512];
    if (twill_schedule_validate(g, k->m, k->s, why, sizeof why)) {
      fprintf(stderr, "%s: invalid schedule: %s\n", o->input, why);
      goto done;
    }
    if (twill_emit_copies(g, k->s) > TWILL_EMIT_MAX_COPIES) {
      fprintf(stderr, "%s: the schedule spans %ld copies of I = %ld; twill report "
                      "draws at most %d\n", o->input, twill_emit_copies(g, k->s),
              k->s->ii, TWILL_EMIT_MAX_COPIES);
      goto done;
    }
  }
  k->rep.g = g;
  k->rep.s = k->s;
  const char *from = solve_file ? "twill solve --json"
                     : twill_json_get(root, "formulation") ? "twill gaus --json"
                     : twill_json_get(root, "normalization") ? "twill modulo --json"
                                                             : "a schedule file";
  snprintf(k->solver, sizeof k->solver, "schedule read from %s", from);
  snprintf(k->cert_msg, sizeof k->cert_msg,
           "not certified: a schedule file carries no proof (`twill solve --cert F` "
           "or `twill modulo --cert F` writes one, `twill check KERNEL F` checks it)");
  k->rc = k->rep.infeasible ? TWILL_EXIT_INFEASIBLE : TWILL_EXIT_OK;
  rc = 0;
done:
  free(kp);
  twill_sched_file_free(sf);
  twill_json_free(root);
  return rc;
}

int twill_cmd_report(int argc, char **argv) {
  opts o;
  int rc = parse(argc, argv, &o);
  if (rc) return rc < 0 ? TWILL_EXIT_OK : rc;
  made k;
  memset(&k, 0, sizeof k);
  size_t len = 0;
  char *text = twill_builtin_kernel(o.input) ? NULL : twill_cli_read_file(o.input, &len);
  int kind = text ? file_kind(text, len) : 0;
  if (kind) {
    if (o.solver != 's' || o.no_cert || o.cert || o.warps || o.regs || o.nrel ||
        o.no_normalize || o.no_cross || o.first_model) {
      free(text);
      return twill_cli_error("report", "a schedule file is drawn as it is: solver "
                                       "options go with a KERNEL");
    }
    rc = from_file(&o, &k, text, len, kind);
  } else if (text ? twill_cli_load_kernel_text(text, len, o.input, o.arch,
                                               "twill report: --arch", &k.g0, &k.m)
                  : twill_cli_load_kernel(o.input, o.arch, "twill report: --arch", &k.g0,
                                          &k.m)) {
    rc = TWILL_EXIT_USAGE;
  } else {
    rc = o.solver == 'm' ? run_modulo(&o, &k) : o.solver == 'g' ? run_gaus(&o, &k)
                                                                 : run_solve(&o, &k);
  }
  free(text);
  if (rc) { /* nothing to draw: the reason is on stderr */
    made_free(&k);
    return rc;
  }
  rc = k.rc; /* what the answer (or its certificate) says */
  twill_report *rep = &k.rep;
  rep->input = o.input;
  rep->solver = k.solver;
  rep->source = k.g0 != rep->g ? k.g0 : NULL;
  rep->m = k.m;
  rep->cert_msg = k.cert_msg;
  /* into memory first: no half-written page */
  char *html = NULL;
  size_t hlen = 0;
  FILE *mf = open_memstream(&html, &hlen);
  int er = !mf || twill_emit_report(rep, mf);
  if (mf && fclose(mf)) er = 1;
  if (er) {
    fprintf(stderr, "twill report: cannot write the page (out of memory%s)\n",
            rep->s ? ", or a schedule of more copies than the page draws" : "");
    rc = TWILL_EXIT_USAGE;
  } else {
    FILE *out = o.out && strcmp(o.out, "-") ? fopen(o.out, "wb") : stdout;
    int bad = !out || fwrite(html, 1, hlen, out) != hlen;
    if (out && out != stdout) bad |= fclose(out) != 0;
    else if (out) bad |= fflush(out) != 0;
    if (bad) {
      fprintf(stderr, "%s: cannot write: %s\n", o.out ? o.out : "standard output",
              strerror(errno));
      rc = TWILL_EXIT_USAGE;
    }
  }
  free(html);
  made_free(&k);
  return rc;
}
