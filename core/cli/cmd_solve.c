/* core/cli/cmd_solve.c: `twill solve`, Algorithm 1 from the command line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "twill/codegen.h"
#include "twill/joint.h"
#include "twill/json.h"
#include "twill/launch.h"

typedef struct opts {
  const char *kernel, *arch, *cert, *normalized, *emit, *out;
  bool json, no_cross, pareto;
  long warps, regs, threads, extra, max_warps;
  twill_solve_opts so;
  bool symmetry, subtiles;
  int nrel;                              /* --same / --apart / --own */
  twill_rel_kind rel_kind[TWILL_JOINT_MAX_RELS];
  const char *rel_list[TWILL_JOINT_MAX_RELS];
} opts;

static int parse(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  twill_solve_opts_default(&o->so);
  o->symmetry = true;
  o->subtiles = true;
  o->threads = 1;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    int e = 0;
    if (!a.opt) {
      if (o->kernel) return twill_cli_error("solve", "more than one kernel given");
      o->kernel = a.val;
    } else if (twill_cli_is(&a, "--json")) o->json = true;
    else if (twill_cli_is(&a, "--no-cross-warp")) o->no_cross = true;
    else if (twill_cli_is(&a, "--no-normalize")) o->so.budget = 0;
    else if (twill_cli_is(&a, "--no-symmetry")) o->symmetry = false;
    else if (twill_cli_is(&a, "--no-subtile-symmetry")) o->subtiles = false;
    else if (twill_cli_is(&a, "--no-explain")) o->so.explain = false;
    else if (twill_cli_is(&a, "--first-model")) o->so.first_model = true;
    else if (twill_cli_is(&a, "--pareto")) o->pareto = true;
    else if (twill_cli_is(&a, "--same") || twill_cli_is(&a, "--apart") ||
             twill_cli_is(&a, "--own") || twill_cli_is(&a, "--lead")) {
      if (o->nrel == TWILL_JOINT_MAX_RELS)
        return twill_cli_error("solve", "more than %d relations", TWILL_JOINT_MAX_RELS);
      o->rel_kind[o->nrel] = (twill_rel_kind)twill_rel_parse_kind(a.opt + 2);
      o->rel_list[o->nrel++] = a.val;
    } else if (twill_cli_is(&a, "--cert")) o->cert = a.val;
    else if (twill_cli_is(&a, "--arch")) o->arch = a.val;
    else if (twill_cli_is(&a, "--emit")) {
      if (twill_emit_format_parse(a.val) < 0)
        return twill_cli_error("solve", "unknown --emit format '%s'", a.val);
      o->emit = a.val;
    } else if (twill_cli_is(&a, "-o")) o->out = a.val;
    else if (twill_cli_is(&a, "--normalized-kernel")) o->normalized = a.val;
    else if (twill_cli_is(&a, "--warps")) e = twill_cli_long(&a, 1, 64, &o->warps);
    else if (twill_cli_is(&a, "--regs")) e = twill_cli_long(&a, 1, 255, &o->regs);
    else if (twill_cli_is(&a, "--max-warps"))
      e = twill_cli_long(&a, 1, TWILL_LAUNCH_MAX, &o->max_warps);
    else if (twill_cli_is(&a, "--threads")) e = twill_cli_long(&a, 1, 256, &o->threads);
    else if (twill_cli_is(&a, "--budget")) e = twill_cli_long(&a, 1, 100000, &o->so.budget);
    else if (twill_cli_is(&a, "--extra-copies")) e = twill_cli_long(&a, 0, 64, &o->extra);
    else if (twill_cli_is(&a, "--gaus-min-ops"))
      e = twill_cli_long(&a, 0, 100000000L, &o->so.gaus_min_ops);
    else if (twill_cli_is(&a, "--time-limit"))
      e = twill_cli_double(&a, 0.001, 1e7, &o->so.time_limit);
    if (e) return TWILL_EXIT_USAGE;
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!o->kernel) return twill_cli_error("solve", "no kernel given");
  if (o->warps && (o->max_warps || o->pareto))
    return twill_cli_error("solve", "--warps fixes the warp count; --max-warps and --pareto "
                           "search it");
  if (o->pareto && o->emit)
    return twill_cli_error("solve", "--pareto prints the front; --emit takes one schedule");
  o->so.extra_copies = (int)o->extra;
  o->so.threads = (int)o->threads;
  o->so.certify = o->cert != NULL;
  if (isatty(2)) o->so.log = twill_cli_log;
  return 0;
}

static const char *status_word(int st) {
  return st == 10 ? "SAT" : st == 20 ? "UNSAT" : st == -1 ? "no modulo schedule"
                                                          : "limit";
}

static void print_roles(const twill_solve_result *r) {
  const twill_graph *g = r->g;
  const twill_joint_params *p = &r->p;
  int G = p->warps / p->warpgroup;
  long *need = calloc((size_t)G, sizeof *need), smem = 0, tmem = 0;
  if (!need) return;
  twill_joint_usage(g, p, r->sched, need, &smem, &tmem);
  printf("warp roles:\n");
  for (int gr = 0; gr < G; gr++) {
    int any = 0;
    for (int v = 0; v < g->nops; v++) {
      int w = r->sched->warp[v], sp = twill_op_span(&g->ops[v], p->warpgroup);
      if (gr * p->warpgroup < w || gr * p->warpgroup >= w + sp) {
        if (w / p->warpgroup != gr) continue; /* single warps inside gr */
      }
      if (!any++) printf("  warpgroup %d (warps %d-%d, %ld regs/thread needed):",
                         gr, gr * p->warpgroup, (gr + 1) * p->warpgroup - 1, need[gr]);
      if (g->ops[v].issue == TWILL_ISSUE_WARPGROUP) printf(" %s", g->ops[v].name);
      else printf(" %s@w%d", g->ops[v].name, w);
    }
    if (any) printf("\n");
  }
  printf("shared memory peak %ld bytes", smem);
  if (p->smem_cap >= 0) printf(" of %ld", p->smem_cap);
  if (p->tmem_cap >= 0) printf("; tensor memory peak %ld of %ld columns", tmem, p->tmem_cap);
  printf("\n");
  free(need);
}

/* Every cycle count printed is real: a time t of the normalized graph as
 * round(t * num / den) (twill_norm_scale), the solver's own value beside
 * it, "(normalized t)", when the costs were normalized. */
typedef struct units {
  long num, den;
  bool on;
} units;

static units units_of(const twill_solve_result *r) {
  units u;
  u.on = r->norm.n > 0;
  twill_norm_scale(u.on ? &r->norm : NULL, &u.num, &u.den);
  return u;
}

static long real(const units *u, long t) { return twill_norm_real(t, u->num, u->den); }

static void print_text(const opts *o, const twill_arch *m,
                       const twill_solve_result *r) {
  const twill_graph *g = r->g;
  units u = units_of(r);
  printf("kernel %s on %s: %d ops, %d edges; costs %s\n", g->name, m->name,
         g->nops, g->nedges, u.on ? "normalized" : "as given");
  if (u.on) {
    printf("costs normalized (U = %ld, F = %ld):", r->norm.U, r->norm.F);
    for (int i = 0; i < r->norm.n; i++)
      printf("%s %ld -> %ld", i ? "," : "", r->norm.cost[i], r->norm.scaled[i]);
    printf("\n");
    if (u.den == 1)
      printf("cycles below are real: solved on normalized costs, 1 normalized "
             "cycle = %ld cycles\n", u.num);
    else
      printf("cycles below are real: solved on normalized costs, 1 normalized "
             "cycle = %ld/%ld cycles, rounded to whole cycles\n", u.num, u.den);
  }
  printf("machine: %d warps (warpgroups of %d), %ld regs/thread, cross-warp "
         "%s (%ld cycles)\n",
         r->p.warps, r->p.warpgroup, r->p.regs,
         r->p.no_cross_warp ? "forbidden" : "allowed", r->cross_warp_real);
  /* what phase 1 proved, in its own words: it stops once I* is proven, so
   * its L is often only an upper bound (twill modulo goes on to prove it) */
  if (r->never_pack) {
    /* settled by counting registers, before phase 1 */
    printf("phase 1: not run\nsearch:\n  no I tried: the registers live at one slot settle every I\n");
    printf("infeasible at every I: %s\n", r->why_never);
    return;
  }
  if (u.on)
    printf("phase 1: I* = %ld (normalized %ld, %s), L = %ld (normalized %ld, "
           "%s)\n",
           real(&u, r->phase1_ii), r->phase1_ii,
           r->phase1_ii_proven ? "proven" : "not proven",
           real(&u, r->phase1_length), r->phase1_length,
           r->phase1_length_proven ? "proven minimal" : "not proven minimal");
  else
    printf("phase 1: I* = %ld (%s), L = %ld (%s)\n", r->phase1_ii,
           r->phase1_ii_proven ? "proven" : "not proven", r->phase1_length,
           r->phase1_length_proven ? "proven minimal" : "not proven minimal");
  printf("search:\n");
  if (r->ntries == 0 && r->status == 2)
    printf("  no I tried: the single-iteration relaxation, tried first, settles every I\n");
  for (int i = 0; i < r->ntries; i++) {
    const twill_solve_try *t = &r->tries[i];
    char nb[96] = "";
    if (u.on && t->status == -1)
      snprintf(nb, sizeof nb, " (normalized %ld)", t->ii);
    else if (u.on)
      snprintf(nb, sizeof nb, " (normalized I %ld, L in [%ld, %ld])", t->ii,
               t->lmin, t->lmax);
    if (t->status == -1)
      printf("  I %ld%s: no modulo schedule (phase 1)\n", real(&u, t->ii), nb);
    else
      printf("  I %ld, L in [%ld, %ld]%s: %s%s%s\n", real(&u, t->ii),
             real(&u, t->lmin), real(&u, t->lmax), nb, status_word(t->status),
             t->why ? "\n    unsatisfiable together: " : "", t->why ? t->why : "");
  }
  if (r->status == 2) {
    printf("infeasible at every I: %s\n", r->why_never);
    return;
  }
  if (!r->sched) {
    printf("no joint schedule found; no schedule below I = %ld (proven)\n",
           real(&u, r->ii_lower));
    return;
  }
  if (u.on)
    printf("I* = %ld (normalized %ld%s), L = %ld (normalized %ld, %s)\n",
           real(&u, r->ii), r->ii, r->status == 0 ? ", optimal" : "",
           real(&u, r->length), r->length,
           r->length_proven ? "minimal at I*" : "not proven minimal");
  else
    printf("I* = %ld%s, L = %ld%s\n", r->ii, r->status == 0 ? " (optimal)" : "",
           r->length,
           r->length_proven ? " (minimal at I*)" : " (not proven minimal)");
  if (u.on)
    printf("%-16s %6s %6s %5s %5s %10s\n", "op", "start", "stage", "slot",
           "warp", "normalized");
  else
    printf("%-16s %6s %6s %5s %5s\n", "op", "start", "stage", "slot", "warp");
  for (int v = 0; v < g->nops; v++) {
    long t = r->sched->start[v];
    char nc[24] = "";
    if (u.on) snprintf(nc, sizeof nc, " %10ld", t);
    printf("%-16s %6ld %6ld %5ld %5d%s%s\n", g->ops[v].name, real(&u, t),
           t / r->ii, real(&u, t % r->ii), r->sched->warp[v], nc,
           g->ops[v].issue != TWILL_ISSUE_WARPGROUP ? ""
           : g->ops[v].groups > 1                   ? " (groups)"
                                                    : " (group)");
  }
  print_roles(r);
  if (r->cross_edges >= 0)
    printf("register values crossing warps: %d (the fewest at this I and L)\n",
           r->cross_edges);
  (void)o;
}

/* One "key": value pair of the JSON report. */
static void kv_int(twill_jw *w, const char *k, long long v) {
  twill_jw_key(w, k);
  twill_jw_int(w, v);
}
static void kv_bool(twill_jw *w, const char *k, bool v) {
  twill_jw_key(w, k);
  twill_jw_bool(w, v);
}
static void kv_str(twill_jw *w, const char *k, const char *v) {
  twill_jw_key(w, k);
  twill_jw_string(w, v);
}

/* The schedule file of twill/codegen.h with the search's own keys:
 * "params" and "tries" stay in the solver's normalized cycles (what the
 * peers re-check: bench/peers/joint_z3.py), every other count is real. */
static const char *point_word(const twill_launch_point *pt) {
  int st = pt->r.status;
  return st == 0 ? "optimal" : st == 2 ? "infeasible" : st == 4 ? "refuted up to the answer's I and L"
                                                      : "limit";
}

static int print_json(const opts *o, const twill_graph *g0, const twill_arch *m,
                      const twill_solve_result *r, const twill_launch_result *lr) {
  const twill_graph *g = r->g;
  units u = units_of(r);
  twill_emit_opts eo = {false, NULL, g0, u.on ? &r->norm : NULL};
  /* "warp_count": the warps the search ran with */
  twill_arch *mm = twill_arch_clone(m);
  if (!mm) return -1;
  mm->warps = r->p.warps;
  twill_jw w;
  twill_jw_init(&w, stdout, true);
  twill_jw_object_begin(&w);
  kv_str(&w, "kernel", g->name);
  kv_str(&w, "arch", m->name);
  kv_bool(&w, "optimal", r->status == 0);
  kv_bool(&w, "infeasible", r->status == 2);
  if (r->status == 2) kv_str(&w, "why_infeasible", r->why_never);
  kv_int(&w, "lower_bound", real(&u, r->ii_lower));
  kv_int(&w, "phase1_ii", real(&u, r->phase1_ii));
  kv_bool(&w, "phase1_ii_proven", r->phase1_ii_proven);
  kv_int(&w, "phase1_length", real(&u, r->phase1_length));
  kv_bool(&w, "phase1_length_proven", r->phase1_length_proven);
  twill_sched_json_write(&w, g, mm, r->sched, &eo);
  if (r->sched) {
    kv_bool(&w, "length_proven", r->length_proven);
    if (r->cross_edges >= 0) kv_int(&w, "cross_warp_edges", r->cross_edges);
  }
  twill_jw_key(&w, "params");
  twill_jw_object_begin(&w);
  kv_int(&w, "warps", r->p.warps);
  kv_int(&w, "warpgroup", r->p.warpgroup);
  kv_int(&w, "regs", r->p.regs);
  kv_int(&w, "regs_per_sm", r->p.regs_per_sm);
  kv_int(&w, "reg_lo", r->p.reg_lo);
  kv_int(&w, "reg_step", r->p.reg_step);
  kv_int(&w, "cross_warp", r->p.cross_warp);
  kv_bool(&w, "no_cross_warp", r->p.no_cross_warp);
  kv_int(&w, "smem_cap", r->p.smem_cap);
  kv_int(&w, "tmem_cap", r->p.tmem_cap);
  if (r->p.nrels > 0) {
    twill_jw_key(&w, "relations");
    twill_jw_array_begin(&w);
    for (int k = 0; k < r->p.nrels; k++) {
      const twill_joint_rel *rl = &r->p.rels[k];
      twill_jw_object_begin(&w);
      kv_str(&w, "kind", twill_rel_name(rl->kind));
      twill_jw_key(&w, "ops");
      twill_jw_array_begin(&w);
      for (int i = 0; i < rl->nops; i++) twill_jw_string(&w, g->ops[rl->ops[i]].name);
      twill_jw_array_end(&w);
      twill_jw_object_end(&w);
    }
    twill_jw_array_end(&w);
  }
  twill_jw_key(&w, "capacities");
  twill_jw_object_begin(&w);
  for (int k = 0; k < g->nunits; k++) kv_int(&w, g->units[k].name, g->units[k].capacity);
  twill_jw_object_end(&w);
  twill_jw_object_end(&w);
  twill_jw_key(&w, "tries");
  twill_jw_array_begin(&w);
  for (int i = 0; i < r->ntries; i++) {
    const twill_solve_try *t = &r->tries[i];
    twill_jw_object_begin(&w);
    kv_int(&w, "ii", t->ii);
    kv_int(&w, "lmin", t->lmin);
    kv_int(&w, "lmax", t->lmax);
    kv_str(&w, "status", status_word(t->status));
    if (t->why) kv_str(&w, "why", t->why);
    twill_jw_object_end(&w);
  }
  twill_jw_array_end(&w);
  if (lr) { /* the warp counts searched: "launch" */
    units u2 = units_of(r);
    twill_jw_key(&w, "launch");
    twill_jw_object_begin(&w);
    kv_int(&w, "warps", r->p.warps);
    kv_int(&w, "regs", lr->best >= 0 ? lr->pt[lr->best].launch_regs : 0);
    twill_jw_key(&w, "searched");
    twill_jw_array_begin(&w);
    for (int k = 0; k < lr->n; k++) {
      const twill_launch_point *pt = &lr->pt[k];
      twill_jw_object_begin(&w);
      kv_int(&w, "warps", pt->warps);
      kv_int(&w, "regs", pt->launch_regs);
      kv_int(&w, "regs_file", pt->p.regs_per_sm);
      kv_str(&w, "status", point_word(pt));
      if (pt->r.sched) {
        kv_int(&w, "ii", real(&u2, pt->r.ii));
        kv_int(&w, "length", real(&u2, pt->r.length));
      }
      if (pt->r.status == 2 && pt->r.why_never[0]) kv_str(&w, "why", pt->r.why_never);
      if (pt->r.status == 4 && pt->r.ntries && pt->r.tries[pt->r.ntries - 1].why)
        kv_str(&w, "why", pt->r.tries[pt->r.ntries - 1].why);
      if (o->pareto) kv_bool(&w, "front", pt->front);
      twill_jw_object_end(&w);
    }
    twill_jw_array_end(&w);
    twill_jw_object_end(&w);
  }
  /* no wall-clock figures on stdout: same input and flags, same bytes
   * (times go to stderr on a terminal) */
  twill_jw_key(&w, "stats");
  twill_jw_object_begin(&w);
  kv_int(&w, "tries", r->ntries);
  twill_jw_object_end(&w);
  twill_sched_json_write_source(&w, g, mm, &eo);
  twill_jw_object_end(&w);
  twill_arch_free(mm);
  (void)o;
  return twill_jw_finish(&w);
}

/* The warp counts searched, one line each (text output). */
static void print_launch(const opts *o, const twill_launch_result *lr) {
  if (lr->n == 0) return;
  units u = units_of(&lr->pt[lr->best >= 0 ? lr->best : lr->n - 1].r);
  printf(o->pareto ? "pareto front (launch registers per thread R, warps W) -> (I*, L*):\n"
                   : "launch: warp counts searched (R = registers per thread the launch "
                     "gives, 32*W*R <= the register file):\n");
  for (int k = 0; k < lr->n; k++) {
    const twill_launch_point *pt = &lr->pt[k];
    if (o->pareto && !pt->front) continue;
    printf("  R %3ld, W %2d: ", pt->launch_regs, pt->warps);
    if (pt->r.sched)
      printf("I* = %ld, L* = %ld%s%s", real(&u, pt->r.ii), real(&u, pt->r.length),
             pt->r.status == 0 ? "" : " (not proven)", k == lr->best ? " <- the answer" : "");
    else if (pt->r.status == 2)
      printf("no joint schedule at any I (%s)", pt->r.why_never);
    else if (pt->r.status == 4) {
      /* the families that conflict at the last I refuted */
      const twill_solve_try *t = pt->r.ntries ? &pt->r.tries[pt->r.ntries - 1] : NULL;
      if (t)
        printf("no joint schedule at I < %ld, nor at I %ld with L <= %ld", real(&u, t->ii),
               real(&u, t->ii), real(&u, t->lmax));
      if (t && t->why) printf(" (unsatisfiable together: %s)", t->why);
    }
    else if (!pt->r.g)
      printf("not searched (the time limit)");
    else
      printf("limit reached, no schedule below I = %ld", real(&u, pt->r.ii_lower));
    if (o->pareto && o->cert) printf(" (certificate %s.w%d)", o->cert, pt->warps);
    printf("\n");
  }
}

/* --pareto --cert F: one fixed-W certificate per point of the front, F.wN
 * (`twill check KERNEL F.wN --warps N` verifies it). */
static int write_front_certs(const opts *o, const twill_arch *m, const twill_launch_result *lr) {
  int bad = 0;
  for (int k = 0; k < lr->n; k++) {
    if (!lr->pt[k].front) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s.w%d", o->cert, lr->pt[k].warps);
    FILE *f = fopen(path, "w");
    if (!f || twill_solve_write_cert(&lr->pt[k].r, m->name, f)) {
      fprintf(stderr, "%s: cannot write the certificate\n", path);
      bad = 1;
    }
    if (f) fclose(f);
  }
  return bad;
}

int twill_cmd_solve(int argc, char **argv) {
  opts o;
  int rc = parse(argc, argv, &o);
  if (rc) return rc;
  twill_graph *g;
  twill_arch *m;
  if (twill_cli_load_kernel(o.kernel, o.arch, "twill solve: --arch", &g, &m)) return TWILL_EXIT_USAGE;
  twill_joint_params p;
  twill_joint_relset rels;
  int kinds[TWILL_JOINT_MAX_RELS];
  for (int k = 0; k < o.nrel; k++) kinds[k] = (int)o.rel_kind[k];
  rc = twill_cli_joint_params("solve", g, m, o.warps, o.regs, o.no_cross, o.nrel, kinds,
                              o.rel_list, &p, &rels);
  /* --warps N: that launch alone (the coupling of twill/launch.h applied
   * here, as `twill check --warps N` applies it); else the search */
  if (!rc && o.warps) {
    char why[300];
    twill_joint_params q;
    if (twill_launch_params(&p, m->max_regs_thread, (int)o.warps, &q, why, sizeof why))
      rc = twill_cli_error("solve", "--warps %ld on %s: %s", o.warps, m->name, why);
    else
      p = q;
  }
  if (rc) {
    twill_joint_relset_free(&rels);
    twill_graph_free(g);
    twill_arch_free(m);
    return rc;
  }
  p.symmetry = o.symmetry;
  p.subtile_symmetry = o.subtiles;
  int wmax = o.warps ? 0 : (int)(o.max_warps ? o.max_warps : m->warps);
  twill_launch_result lr;
  twill_cli_catch_interrupt();
  if (twill_solve_launch(g, m, &p, &o.so, wmax, o.pareto, &lr) || lr.status < 0 || lr.n == 0) {
    fprintf(stderr, lr.n == 0 && wmax > 0
                        ? "twill solve: no warp count up to %d can run on %s\n"
                        : "twill solve: internal error or out of memory\n",
            wmax, m->name);
    twill_launch_result_clear(&lr);
    twill_joint_relset_free(&rels);
    twill_graph_free(g);
    twill_arch_free(m);
    return TWILL_EXIT_USAGE;
  }
  /* the answer's run, or with none the largest W's (its "why never") */
  twill_solve_result *r = &lr.pt[lr.best >= 0 ? lr.best : lr.n - 1].r;
  const twill_launch_result *lp = wmax > 0 ? &lr : NULL;
  if (lr.status == 2 && r->ntries == 0 && !lp && !r->never_proof && !r->never_pack) {
    /* settled before any search, with nothing to certify: an op alone over the budget */
    if (o.json) print_json(&o, g, m, r, NULL); /* --json: JSON, whatever the answer */
    else printf("infeasible at every I: %s\n", r->why_never);
    twill_launch_result_clear(&lr);
    twill_joint_relset_free(&rels);
    twill_graph_free(g);
    twill_arch_free(m);
    return TWILL_EXIT_INFEASIBLE;
  }
  rc = lr.status == 0 ? TWILL_EXIT_OK : lr.status == 2 ? TWILL_EXIT_INFEASIBLE : TWILL_EXIT_LIMIT;
  if (o.so.log) fprintf(stderr, "twill: solved in %.2f s\n", lr.seconds);
  if (o.normalized) {
    FILE *f = fopen(o.normalized, "w");
    if (!f || twill_graph_print_json(r->g, f)) {
      fprintf(stderr, "%s: cannot write\n", o.normalized);
      rc = TWILL_EXIT_USAGE;
    }
    if (f) fclose(f);
  }
  if (o.cert && o.pareto) {
    if (write_front_certs(&o, m, &lr) && rc == TWILL_EXIT_OK) rc = TWILL_EXIT_LIMIT;
  } else if (o.cert && (r->sched || lr.status == 2)) {
    FILE *f = fopen(o.cert, "w");
    int bad = !f || (lp ? twill_launch_write_cert(&lr, m->name, f)
                        : twill_solve_write_cert(r, m->name, f));
    if (bad) {
      fprintf(stderr, "%s: cannot write the certificate (a proof is "
                      "missing: limit reached?)\n", o.cert);
      if (rc == TWILL_EXIT_OK) rc = TWILL_EXIT_LIMIT;
    }
    if (f) fclose(f);
  }
  if (o.emit && r->sched) {
    /* the emitters check warps against the machine: give it the warps
     * the search used */
    twill_arch *mm = twill_arch_clone(m);
    FILE *f = o.out ? fopen(o.out, "w") : stdout;
    /* units: the normalized schedule drawn in real cycles (the mapping),
     * the kernel's own costs from the kernel as written */
    twill_emit_opts eo = {false, NULL, g, r->norm.n > 0 ? &r->norm : NULL};
    if (mm) mm->warps = r->p.warps;
    if (!mm || !f ||
        twill_emit(r->g, mm, r->sched, (twill_emit_format)twill_emit_format_parse(o.emit),
                   &eo, f)) {
      fprintf(stderr, "twill solve: cannot emit %s%s%s\n", o.emit,
              o.out ? " to " : "", o.out ? o.out : "");
      rc = TWILL_EXIT_USAGE;
    }
    if (f && f != stdout) fclose(f);
    twill_arch_free(mm);
  }
  if (o.emit && !o.out) {
    /* stdout carries the emitted output only */
  } else if (o.json) {
    if (print_json(&o, g, m, r, lp)) rc = TWILL_EXIT_USAGE;
  } else {
    if (lp && lr.status == 2) printf("infeasible at every I at every warp count searched\n");
    print_text(&o, m, r);
    if (lp) print_launch(&o, &lr);
  }
  twill_launch_result_clear(&lr);
  twill_joint_relset_free(&rels);
  twill_graph_free(g);
  twill_arch_free(m);
  return rc;
}
