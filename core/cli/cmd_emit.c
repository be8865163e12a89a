/* core/cli/cmd_emit.c: `twill emit KERNEL|SCHEDULE.json --format F`: a
 * schedule file is drawn from what it carries (its kernel, the mapping of
 * its normalized costs, its machine when not a built-in one); a kernel
 * alone is drawn with the heuristic fallback schedule (said so in the
 * output), or with --complete by its optimal schedule as a complete GEMM.
 * "-" reads either from standard input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/builtin.h"
#include "twill/codegen.h"
#include "twill/joint.h"
#include "twill/kernel.h"
#include "twill/normalize.h"
#include "twill/schedule.h"

/* Is the file at path a schedule (a JSON object with "times")? */
static int looks_like_schedule(const char *text, size_t len) {
  size_t k = 0;
  while (k < len && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' ||
                     text[k] == '\r'))
    k++;
  if (k >= len || text[k] != '{') return 0;
  /* cheap test first; the parser decides */
  for (size_t i = k; i + 7 <= len; i++)
    if (!memcmp(text + i, "\"times\"", 7)) return 1;
  return 0;
}

/* An older schedule file without "source": the kernel as named (a
 * built-in, a path, or a path beside the schedule file). */
static int load_named_kernel(const twill_sched_file *sf, const char *input,
                             const char *name, const char *arch, twill_graph **g,
                             twill_arch **m, char *kname, size_t knlen) {
  if (!strcmp(input, "-") && !strcmp(sf->kernel, "-")) {
    fprintf(stderr, "%s: the schedule's kernel is '-', standard input, which "
                    "holds the schedule: name a kernel file\n", name);
    return -1;
  }
  char *kpath = NULL;
  if (!twill_builtin_kernel(sf->kernel)) {
    FILE *kf = fopen(sf->kernel, "rb");
    if (kf) {
      fclose(kf);
    } else if (sf->kernel[0] != '/' && strrchr(input, '/')) {
      size_t dl = (size_t)(strrchr(input, '/') - input) + 1;
      kpath = malloc(dl + strlen(sf->kernel) + 1);
      if (kpath) {
        memcpy(kpath, input, dl);
        strcpy(kpath + dl, sf->kernel);
        kf = fopen(kpath, "rb");
        if (kf) fclose(kf);
        else {
          free(kpath);
          kpath = NULL;
        }
      }
    }
  }
  snprintf(kname, knlen, "%s", kpath ? kpath : sf->kernel);
  int lr = twill_cli_load_kernel(kpath ? kpath : sf->kernel,
                                 arch ? arch : sf->arch,
                                 arch ? "twill emit: --arch" : name, g, m);
  free(kpath);
  return lr;
}

/* Algorithm 1 on g (as `twill solve KERNEL` with its defaults): on success
 * *gs is the graph solved (normalized costs), *nm its mapping, *m the
 * machine with the warps searched, *s the optimal schedule; returns 0 or
 * the exit status, having said why. */
static int solve_for_complete(const char *input, const twill_graph *g,
                              twill_graph **gs, twill_arch **m,
                              twill_schedule **s, twill_norm *nm) {
  twill_joint_params p;
  twill_solve_opts so;
  twill_joint_params_default(&p, *m);
  twill_solve_opts_default(&so);
  twill_solve_result r;
  if (twill_solve(g, *m, &p, &so, &r) || r.status < 0) {
    fprintf(stderr, "twill emit: %s: internal error or out of memory in the "
                    "solver\n", input);
    twill_solve_result_clear(&r);
    return TWILL_EXIT_USAGE;
  }
  if (!r.sched) {
    fprintf(stderr, "twill emit: %s: no joint schedule (%s); nothing to "
                    "emit\n", input, r.status == 2 ? "infeasible" : "limit");
    int rc = r.status == 2 ? TWILL_EXIT_INFEASIBLE : TWILL_EXIT_LIMIT;
    twill_solve_result_clear(&r);
    return rc;
  }
  (*m)->warps = r.p.warps;
  *gs = r.g;
  *s = r.sched;
  *nm = r.norm; /* moved: the result no longer owns it */
  r.g = NULL;
  r.sched = NULL;
  memset(&r.norm, 0, sizeof r.norm);
  twill_solve_result_clear(&r);
  return TWILL_EXIT_OK;
}

int twill_cmd_emit(int argc, char **argv) {
  const char *cmd = argc > 0 ? argv[0] : "emit";
  const char *input = NULL, *format = NULL, *outpath = NULL, *arch = NULL;
  bool complete = false;
  /* set before the first `goto done`, which jumps past their use */
  char *body = NULL;
  size_t blen = 0;
  twill_cli_args a;
  twill_cli_args_init(&a, argc, argv);
  int r;
  while ((r = twill_cli_next(&a)) > 0) {
    if (!a.opt) {
      if (input)
        return twill_cli_error(cmd, "more than one input ('%s', '%s')", input, a.val);
      input = a.val;
    } else if (twill_cli_is(&a, "--format")) format = a.val;
    else if (twill_cli_is(&a, "-o")) outpath = a.val;
    else if (twill_cli_is(&a, "--arch")) arch = a.val;
    else if (twill_cli_is(&a, "--complete")) complete = true;
  }
  if (r < 0) return TWILL_EXIT_USAGE;
  if (!input) return twill_cli_error(cmd, "no kernel or schedule given");
  if (!format)
    return twill_cli_error(cmd, "--format is required (pseudocode, cuda, "
                                "table, gantt, svg, json, dot)");
  int fmt = twill_emit_format_parse(format);
  if (fmt < 0)
    return twill_cli_error(cmd,
                           "unknown format '%s' (pseudocode, cuda, table, "
                           "gantt, svg, json, dot)",
                           format);
  if (complete && fmt != TWILL_EMIT_CUDA)
    return twill_cli_error(cmd, "--complete goes with --format cuda");

  twill_graph *g = NULL, *g0 = NULL;
  twill_arch *m = NULL;
  twill_schedule *s = NULL;
  twill_sched_file *sf = NULL;
  twill_norm nm;
  memset(&nm, 0, sizeof nm);
  twill_emit_opts opts = {false, NULL, NULL, NULL};
  int rc = TWILL_EXIT_USAGE;
  char why[512] = "";
  size_t len = 0;
  const char *name = strcmp(input, "-") ? input : "<stdin>";
  char kname[512]; /* where the kernel's line numbers point */
  snprintf(kname, sizeof kname, "%s", name);
  /* read once: "-" cannot be read twice */
  char *text = twill_builtin_kernel(input) ? NULL : twill_cli_read_file(input, &len);
  twill_diag d;
  memset(&d, 0, sizeof d);
  if (text && looks_like_schedule(text, len)) {
    sf = twill_sched_file_parse(text, len, name, &d);
    if (!sf) {
      twill_diag_print(&d, stderr);
      goto done;
    }
    if (sf->source) {
      /* the kernel the file carries, and its machine: --arch, else the
       * file's own (embedded, or named) */
      if (!(g0 = twill_graph_clone(sf->source))) goto done;
      const char *an = arch ? arch : sf->arch ? sf->arch : g0->arch ? g0->arch : "hopper";
      if (!arch && sf->machine) {
        char mf[TWILL_DIAG_FILE];
        snprintf(mf, sizeof mf, "%s \"machine\"", name);
        m = twill_arch_parse(sf->machine, strlen(sf->machine), mf, &d);
      } else {
        m = twill_arch_load(an, &d);
      }
      if (!m || twill_graph_validate(g0, &d) || twill_graph_bind(g0, m, &d)) {
        /* a bad --arch has no place in the file: say where it came from */
        if (!m && arch && !d.file[0]) fprintf(stderr, "twill emit: --arch: ");
        else if (!d.file[0]) snprintf(d.file, sizeof d.file, "%s", name);
        twill_diag_print(&d, stderr);
        goto done;
      }
    } else if (load_named_kernel(sf, input, name, arch, &g0, &m, kname, sizeof kname)) {
      goto done;
    }
    if (sf->warp_count > 0) m->warps = sf->warp_count;
    if (sf->norm.n > 0) {
      /* the solver's graph, rebuilt from the mapping the file carries (no
       * normalization program run): what twill modulo / solve scheduled */
      g = twill_normalize_kernel_apply(g0, m->cross_warp, &sf->norm, why, sizeof why);
      if (!g) {
        fprintf(stderr, "%s: %s\n", name, why);
        goto done;
      }
      opts.norm = &sf->norm;
    } else if (sf->normalize > 0) {
      /* an older twill modulo file: times in cycles of the kernel
       * normalized (then without the cross-warp cost) with budget U; the
       * same deterministic program gives the same mapping */
      g = twill_normalize_graph(g0, sf->normalize, 0, &nm);
      if (!g) {
        fprintf(stderr, "%s: cannot normalize the kernel's costs\n", name);
        goto done;
      }
      opts.norm = &nm;
    } else {
      g = twill_normalize_kernel_apply(g0, m->cross_warp, NULL, why, sizeof why);
      if (!g) goto done;
    }
    s = twill_sched_file_bind(sf, g, name, &d);
    if (!s) {
      twill_diag_print(&d, stderr);
      goto done;
    }
    if (twill_schedule_validate(g, m, s, why, sizeof why)) {
      fprintf(stderr, "%s: invalid schedule: %s\n", name, why);
      goto done;
    }
    if (twill_emit_copies(g, s) > TWILL_EMIT_MAX_COPIES) {
      fprintf(stderr, "%s: the schedule spans %ld copies of I = %ld; twill emit "
                      "draws at most %d\n", name, twill_emit_copies(g, s), s->ii,
              TWILL_EMIT_MAX_COPIES);
      goto done;
    }
    /* no "schedule from FILE" line: the drawing is the same bytes as the
     * command that wrote the file would have emitted (solve --emit F),
     * wherever the file lies */
    opts.heuristic = sf->heuristic;
    opts.kernel = g0;
  } else if (complete) {
    /* a kernel to be made into a complete GEMM: its optimal schedule, drawn
     * in real cycles like solve --emit */
    int lr = text ? twill_cli_load_kernel_text(text, len, name, arch,
                                               "twill emit: --arch", &g0, &m)
                  : twill_cli_load_kernel(input, arch, "twill emit: --arch", &g0, &m);
    if (lr) goto done;
    rc = solve_for_complete(name, g0, &g, &m, &s, &nm);
    if (rc) goto done;
    rc = TWILL_EXIT_USAGE;
    opts.source = "twill solve (Algorithm 1: least I with warp specialization, "
                  "least L at it)";
    opts.kernel = g0;
    opts.norm = nm.n > 0 ? &nm : NULL;
  } else {
    int lr = text ? twill_cli_load_kernel_text(text, len, name, arch,
                                               "twill emit: --arch", &g, &m)
                  : twill_cli_load_kernel(input, arch, "twill emit: --arch", &g, &m);
    if (lr) goto done;
    s = twill_schedule_heuristic(g, why, sizeof why);
    if (!s) {
      fprintf(stderr, "twill emit: %s: %s\n", name, why);
      rc = TWILL_EXIT_INFEASIBLE;
      goto done;
    }
    if (twill_schedule_default_warps(g, m, s, why, sizeof why)) {
      /* no warps then: a schedule without a warp assignment */
      free(s->warp);
      s->warp = NULL;
      fprintf(stderr, "twill emit: note: %s; emitting without warps\n", why);
    }
    if (twill_schedule_validate(g, m, s, why, sizeof why)) {
      fprintf(stderr, "twill emit: internal error: fallback schedule "
                      "invalid: %s\n", why);
      rc = TWILL_EXIT_INFEASIBLE;
      goto done;
    }
    opts.heuristic = true;
  }
  if (complete) {
    /* into memory first: a kernel that is not a GEMM main loop leaves no
     * half-written file */
    FILE *mf = open_memstream(&body, &blen);
    int line = 0;
    int cr = mf ? twill_emit_cuda_complete(g, m, s, &opts, mf, why, sizeof why, &line)
                : -1;
    if (mf && fclose(mf)) cr = -1;
    if (cr == -2) {
      if (line > 0) fprintf(stderr, "%s:%d:1: %s\n", kname, line, why);
      else fprintf(stderr, "%s: %s\n", kname, why);
      goto done;
    }
    if (cr) {
      fprintf(stderr, "twill emit: out of memory\n");
      goto done;
    }
  }
  FILE *out = stdout;
  if (outpath && strcmp(outpath, "-")) {
    out = fopen(outpath, "w");
    if (!out) {
      fprintf(stderr, "%s: cannot open for writing: %s\n", outpath,
              strerror(errno));
      goto done;
    }
  }
  int er = complete ? (fwrite(body, 1, blen, out) == blen ? 0 : -1)
                    : twill_emit(g, m, s, (twill_emit_format)fmt, &opts, out);
  if (out != stdout) {
    if (fclose(out)) er = -1;
  } else if (fflush(out)) {
    er = -1;
  }
  if (er) {
    fprintf(stderr, "twill emit: write error\n");
    goto done;
  }
  rc = TWILL_EXIT_OK;
done:
  free(body);
  free(text);
  twill_schedule_free(s);
  twill_graph_free(g);
  twill_graph_free(g0);
  twill_sched_file_free(sf);
  twill_norm_clear(&nm);
  twill_arch_free(m);
  return rc;
}
