/* core/cli/cmd_emit.c: `twill emit KERNEL|SCHEDULE.json --format F`: a
 * schedule file is matched to its kernel and drawn; a kernel alone is drawn
 * with the heuristic fallback schedule (said so in the output). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "twill/builtin.h"
#include "twill/codegen.h"
#include "twill/joint.h"
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

/* Algorithm 1 on *g (as `twill solve KERNEL` with its defaults): on
 * success *g becomes the graph solved (normalized costs), *m the machine
 * with the warps searched, *s the optimal schedule; returns 0 or the exit
 * status, having said why. */
static int solve_for_complete(const char *input, twill_graph **g, twill_arch **m,
                              twill_schedule **s) {
  twill_joint_params p;
  twill_solve_opts so;
  twill_joint_params_default(&p, *m);
  twill_solve_opts_default(&so);
  twill_solve_result r;
  if (twill_solve(*g, *m, &p, &so, &r) || r.status < 0) {
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
  twill_graph_free(*g);
  *g = r.g;
  *s = r.sched;
  r.g = NULL;
  r.sched = NULL;
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

  twill_graph *g = NULL;
  twill_arch *m = NULL;
  twill_schedule *s = NULL;
  twill_emit_opts opts = {false, NULL};
  int rc = TWILL_EXIT_USAGE;
  char why[512] = "";
  char kname[512]; /* where the kernel's line numbers point */
  snprintf(kname, sizeof kname, "%s", input);
  size_t len = 0;
  /* read once: "-" (standard input) cannot be read again to parse it as a
   * kernel after looking for a schedule in it */
  char *text = twill_builtin_kernel(input) ? NULL : twill_cli_read_file(input, &len);
  const char *name = strcmp(input, "-") ? input : "<stdin>";
  if (text && looks_like_schedule(text, len)) {
    twill_diag d;
    memset(&d, 0, sizeof d);
    twill_sched_file *sf = twill_sched_file_parse(text, len, name, &d);
    if (!sf) {
      twill_diag_print(&d, stderr);
      goto done;
    }
    /* the kernel: as named, else beside the schedule file */
    if (!strcmp(input, "-") && !strcmp(sf->kernel, "-")) {
      fprintf(stderr, "%s: the schedule's kernel is '-', standard input, which "
                      "holds the schedule: name a kernel file\n", name);
      twill_sched_file_free(sf);
      goto done;
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
    snprintf(kname, sizeof kname, "%s", kpath ? kpath : sf->kernel);
    int lr = twill_cli_load_kernel(kpath ? kpath : sf->kernel,
                                   arch ? arch : sf->arch,
                                   arch ? "twill emit: --arch" : name, &g, &m);
    free(kpath);
    if (lr) {
      twill_sched_file_free(sf);
      goto done;
    }
    if (sf->normalize > 0) {
      /* times in normalized cycles: schedule the normalized kernel, as
       * twill modulo did (the same deterministic program) */
      twill_norm nm;
      twill_graph *h = twill_normalize_graph(g, sf->normalize, 0, &nm);
      twill_norm_clear(&nm);
      if (!h) {
        fprintf(stderr, "%s: cannot normalize the kernel's costs\n", name);
        twill_sched_file_free(sf);
        goto done;
      }
      twill_graph_free(g);
      g = h;
    }
    s = twill_sched_file_bind(sf, g, name, &d);
    twill_sched_file_free(sf);
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
    opts.source = name;
  } else if (complete) {
    /* a kernel to be made into a complete GEMM: its optimal schedule */
    int lr = text ? twill_cli_load_kernel_text(text, len, name, arch,
                                               "twill emit: --arch", &g, &m)
                  : twill_cli_load_kernel(input, arch, "twill emit: --arch", &g, &m);
    if (lr) goto done;
    rc = solve_for_complete(name, &g, &m, &s);
    if (rc) goto done;
    rc = TWILL_EXIT_USAGE;
    opts.source = "twill solve (Algorithm 1: least I with warp specialization, "
                  "least L at it)";
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
  twill_arch_free(m);
  return rc;
}
