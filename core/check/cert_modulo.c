/* core/check/cert_modulo.c: certificates for Twill phase 1 and their checker.
 *
 * Format (text; the proof blocks are byte-counted so they are copied as
 * they are and handed to their checkers unchanged):
 *
 *   twill-certificate 1 modulo
 *   kernel NAME
 *   arch NAME
 *   normalize U              (or: normalize off)
 *   form WORDS               how the problem at each I is stated: "none", or
 *                            a comma list of reduce, structured, windows,
 *                            slots
 *                            (twill/modulo.h TWILL_MODULO_FORM_*); absent:
 *                            none
 *   ii I                     the claimed optimal initiation interval
 *   length L                 the claimed least length at I
 *   heuristic IH LH          (only when the heuristic's schedule is the one
 *                            given) its I and L; informational
 *   time OP T                one line per op: the schedule at I
 *   KIND I infeasible N      then N bytes: a proof that no schedule exists
 *   ...                        at I, for every I in [MII, I) in order
 *   KIND I optimal N         then N bytes: a proof that L >= length at I
 *   (or: path I optimal      L is the critical path at I: no proof needed)
 *   end
 * KIND is vipr (a VIPR proof about the integer program at I, built from
 * the reduced problem: core/modulo/modulo_ilp.c) or smt (a twill-smt
 * refutation of the reduced problem with L <= H, the horizon, for
 * "infeasible", and with L <= length - 1 for "optimal":
 * core/check/cert_modulo_smt.c).  When a limit struck after I* was
 * settled, the line `length-proof none` follows `heuristic` and the block
 * for I* is absent: the certificate then proves I* and that the schedule
 * is valid, not that L is least.
 *
 * What the checker does, from the kernel alone:
 *   1. re-derives MII (core/bounds: ResMII per unit, exact RecMII); every
 *      I below it is excluded by that bound argument;
 *   2. validates the schedule at I (core/schedule) and recomputes L;
 *   3. for every I in [MII, I*) and for I*, derives the reduced problem
 *      with its own code (core/check/cert_modulo_red.c, which also says why
 *      a proof about it is a proof about the kernel);
 *   4. a vipr block: builds the program from it (twill_modulo_program_red)
 *      and requires that every constraint of the VIPR file is implied by
 *      the program: a variable bound no tighter than the program's, or a
 *      row of the program with the same integer coefficients and a
 *      right-hand side no tighter; the variables, their integrality and the
 *      objective must be the program's; then runs the exact VIPR checker
 *      (ilp/check/vipr_check.c).  If every constraint a proof starts from holds
 *      in the program, whatever the proof derives holds there too;
 *   5. an smt block: states the reduced problem in twill-smt itself and
 *      checks the refutation against it (core/check/cert_modulo_smt.c);
 *   6. a path line: recomputes the critical path at I* and requires L to
 *      equal it.
 * Costs are normalized by the deterministic program of docs/model.md section 2 before
 * either side starts; the certificate speaks about the normalized kernel.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cert_modulo.h"
#include "twill/bounds.h"
#include "twill/ilp.h"
#include "twill/modulo.h"
#include "twill/vipr.h"

static const char *form_words[4] = {"reduce", "structured", "windows", "slots"};

int twill_modulo_write_cert(const twill_graph *g, const char *arch,
                            long budget, const twill_modulo_result *r,
                            FILE *f) {
  /* I* must be proven; L may be left unproven (a limit struck after I*
   * was settled): the certificate then says so. */
  int len_proven = r->status == TWILL_MODULO_OPTIMAL;
  if (r->status == TWILL_MODULO_ERROR || r->ii_lower != r->ii) return -1;
  for (int i = 0; i < r->ntries; i++) {
    const twill_modulo_try *t = &r->tries[i];
    int path = t->ii == r->ii && t->bound == TWILL_MODULO_BOUND_PATH;
    if (!t->vipr && !path && (t->ii < r->ii || len_proven)) return -1;
  }
  fprintf(f, "twill-certificate 1 modulo\nkernel %s\narch %s\n", g->name,
          arch);
  if (budget > 0) fprintf(f, "normalize %ld\n", budget);
  else fprintf(f, "normalize off\n");
  fprintf(f, "form ");
  int any = 0;
  for (int k = 0; k < 4; k++)
    if (r->form & (1u << k)) fprintf(f, "%s%s", any++ ? "," : "", form_words[k]);
  fprintf(f, "%s\n", any ? "" : "none");
  fprintf(f, "ii %ld\nlength %ld\n", r->ii, r->length);
  if (r->heuristic_ii > 0)
    fprintf(f, "heuristic %ld %ld\n", r->heuristic_ii, r->heuristic_length);
  if (!len_proven) fprintf(f, "length-proof none\n");
  for (int v = 0; v < g->nops; v++)
    fprintf(f, "time %s %ld\n", g->ops[v].name, r->sched->start[v]);
  for (int i = 0; i < r->ntries; i++) {
    const twill_modulo_try *t = &r->tries[i];
    if (t->ii == r->ii && !len_proven) break;
    if (t->ii == r->ii && t->bound == TWILL_MODULO_BOUND_PATH) {
      fprintf(f, "path %ld optimal\n", t->ii);
      continue;
    }
    fprintf(f, "%s %ld %s %zu\n",
            t->engine == TWILL_MODULO_ENGINE_SMT ? "smt" : "vipr", t->ii,
            t->ii < r->ii ? "infeasible" : "optimal", t->vipr_len);
    fwrite(t->vipr, 1, t->vipr_len, f);
    fputc('\n', f);
  }
  fprintf(f, "end\n");
  return ferror(f) ? -1 : 0;
}

/* ---- checking ---------------------------------------------------------- */

typedef struct reader {
  const char *p, *end;
  int line;
  char *msg;
  size_t msglen;
} reader;

static int fail(reader *rd, const char *fmt, ...) {
  char buf[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  snprintf(rd->msg, rd->msglen, "certificate:%d: %s", rd->line, buf);
  return 1;
}

/* Next line into buf (without the newline); 0 at end of input. */
static int next_line(reader *rd, char *buf, size_t n) {
  if (rd->p >= rd->end) return 0;
  const char *e = memchr(rd->p, '\n', (size_t)(rd->end - rd->p));
  size_t len = e ? (size_t)(e - rd->p) : (size_t)(rd->end - rd->p);
  if (len >= n) len = n - 1;
  memcpy(buf, rd->p, len);
  buf[len] = 0;
  rd->p = e ? e + 1 : rd->end;
  rd->line++;
  return 1;
}

/* A VIPR token stream over one block: whitespace-separated, '%' comments. */
typedef struct vtok {
  const char *p, *end;
} vtok;

static int vnext(vtok *t, char *buf, size_t n) {
  for (;;) {
    while (t->p < t->end && isspace((unsigned char)*t->p)) t->p++;
    if (t->p < t->end && *t->p == '%') {
      while (t->p < t->end && *t->p != '\n') t->p++;
      continue;
    }
    break;
  }
  if (t->p >= t->end) return 0;
  size_t k = 0;
  while (t->p < t->end && !isspace((unsigned char)*t->p)) {
    if (k + 1 < n) buf[k++] = *t->p;
    t->p++;
  }
  buf[k] = 0;
  return 1;
}

static int vlong(vtok *t, long *out) {
  char b[64], *e;
  if (!vnext(t, b, sizeof b)) return -1;
  long v = strtol(b, &e, 10);
  if (*e || e == b) return -1;
  *out = v;
  return 0;
}

/* A VIPR number that must be an integer (the program's data are). */
static int vint(vtok *t, long *out) { return vlong(t, out); }

/* The program's rows, sparse, integral, hashed by their (var, coef) pairs
 * in variable order, so that matching a certificate constraint is one
 * bucket probe instead of a scan of every row and variable. */
typedef struct rowidx {
  int nrows, nb;
  int *start;            /* row r's pairs: [start[r], start[r+1]) */
  int *var;
  long *coef;
  double *lo, *hi;
  int *head, *next;      /* hash buckets (row + 1, 0 = end) */
} rowidx;

static unsigned pair_hash(const int *var, const long *coef, int n) {
  unsigned h = 2166136261u;
  for (int k = 0; k < n; k++) {
    h = (h ^ (unsigned)var[k]) * 16777619u;
    h = (h ^ (unsigned)coef[k]) * 16777619u;
  }
  return h;
}

static void rowidx_free(rowidx *x) {
  free(x->start);
  free(x->var);
  free(x->coef);
  free(x->lo);
  free(x->hi);
  free(x->head);
  free(x->next);
  memset(x, 0, sizeof *x);
}

static int rowidx_build(const twill_ilp *m, rowidx *x) {
  memset(x, 0, sizeof *x);
  int rows = twill_ilp_num_rows(m), nz = twill_ilp_num_nonzeros(m);
  x->nrows = rows;
  x->nb = 1;
  while (x->nb < 2 * rows) x->nb *= 2;
  x->start = calloc((size_t)rows + 2, sizeof *x->start);
  x->var = malloc(((size_t)nz + 1) * sizeof *x->var);
  x->coef = malloc(((size_t)nz + 1) * sizeof *x->coef);
  double *val = malloc(((size_t)nz + 1) * sizeof *val);
  x->lo = malloc(((size_t)rows + 1) * sizeof *x->lo);
  x->hi = malloc(((size_t)rows + 1) * sizeof *x->hi);
  x->head = calloc((size_t)x->nb, sizeof *x->head);
  x->next = calloc((size_t)rows + 1, sizeof *x->next);
  if (!x->start || !x->var || !x->coef || !val || !x->lo || !x->hi ||
      !x->head || !x->next)
    goto oom;
  /* bucket the entries by row, then sort each row by variable and sum the
   * duplicates (the program's data are integers) */
  for (int k = 0; k < nz; k++) {
    int r, j;
    double c;
    twill_ilp_nonzero(m, k, &r, &j, &c);
    x->start[r + 2]++;
  }
  for (int r = 0; r < rows; r++) x->start[r + 2] += x->start[r + 1];
  for (int k = 0; k < nz; k++) {
    int r, j;
    double c;
    twill_ilp_nonzero(m, k, &r, &j, &c);
    int at = x->start[r + 1]++;
    x->var[at] = j;
    val[at] = c;
  }
  int used = 0;
  for (int r = 0; r < rows; r++) {
    int b = x->start[r], e = x->start[r + 1];
    for (int i = b + 1; i < e; i++) { /* insertion sort: rows are short */
      int v = x->var[i];
      double c = val[i];
      int j = i - 1;
      while (j >= b && x->var[j] > v) {
        x->var[j + 1] = x->var[j];
        val[j + 1] = val[j];
        j--;
      }
      x->var[j + 1] = v;
      val[j + 1] = c;
    }
    x->start[r] = used;
    for (int i = b; i < e;) {
      int v = x->var[i];
      double c = 0;
      while (i < e && x->var[i] == v) c += val[i++];
      if (c == 0) continue;
      x->var[used] = v;
      x->coef[used++] = (long)c;
    }
    twill_ilp_row_bounds(m, r, &x->lo[r], &x->hi[r]);
    unsigned h = pair_hash(x->var + x->start[r], x->coef + x->start[r],
                           used - x->start[r]) & (unsigned)(x->nb - 1);
    x->next[r] = x->head[h];
    x->head[h] = r + 1;
  }
  x->start[rows] = used;
  free(val);
  return 0;
oom:
  free(val);
  rowidx_free(x);
  return -1;
}

/* Is  sum coef*x (sense) rhs  implied by the program: a bound no tighter
 * than a variable's, or a row with the same pairs and a right-hand side no
 * tighter?  idx/coef are sorted by variable here. */
static int implied(const twill_ilp *m, const rowidx *x, int p, const int *idx,
                   const long *coef, char sense, long rhs) {
  if (p == 1) {
    double lb, ub;
    twill_ilp_var_bounds(m, idx[0], &lb, &ub);
    long a = coef[0];
    /* min and max of a*x over [lb, ub] */
    double lo = a > 0 ? a * lb : a * ub, hi = a > 0 ? a * ub : a * lb;
    if (sense == 'G' && lo >= (double)rhs) return 1;
    if (sense == 'L' && hi <= (double)rhs) return 1;
    if (sense == 'E' && lo == (double)rhs && hi == (double)rhs) return 1;
  }
  unsigned h = pair_hash(idx, coef, p) & (unsigned)(x->nb - 1);
  for (int r1 = x->head[h]; r1; r1 = x->next[r1 - 1]) {
    int r = r1 - 1, k0 = x->start[r];
    if (x->start[r + 1] - k0 != p) continue;
    int same = 1;
    for (int k = 0; k < p && same; k++)
      same = x->var[k0 + k] == idx[k] && x->coef[k0 + k] == coef[k];
    if (!same) continue;
    if (sense == 'G' && x->lo[r] >= (double)rhs) return 1;
    if (sense == 'L' && x->hi[r] <= (double)rhs) return 1;
    if (sense == 'E' && x->lo[r] == (double)rhs && x->hi[r] == (double)rhs)
      return 1;
  }
  return 0;
}

/* Sort a constraint's terms by variable (insertion sort: rows are short). */
static void sort_terms(int *idx, long *coef, int p) {
  for (int i = 1; i < p; i++) {
    int v = idx[i];
    long c = coef[i];
    int j = i - 1;
    while (j >= 0 && idx[j] > v) {
      idx[j + 1] = idx[j];
      coef[j + 1] = coef[j];
      j--;
    }
    idx[j + 1] = v;
    coef[j + 1] = c;
  }
}

/* Check the header of one VIPR block against the program at I.  kind 0:
 * RTP infeas; kind 1: RTP range with lower bound > length - 1. */
static int check_header(reader *rd, const twill_ilp *m, const char *blk,
                        size_t len, int kind, long length) {
  vtok t = {blk, blk + len};
  char b[256];
  long n, k, x;
  int nv = twill_ilp_num_vars(m);
  while (vnext(&t, b, sizeof b) && strcmp(b, "VAR")) {
  }
  if (vlong(&t, &n) || n != nv)
    return fail(rd, "VIPR VAR count differs from the program's %d variables", nv);
  for (long i = 0; i < n; i++) vnext(&t, b, sizeof b);
  if (!vnext(&t, b, sizeof b) || strcmp(b, "INT") || vlong(&t, &k))
    return fail(rd, "VIPR INT section missing");
  int nint = 0;
  for (int j = 0; j < nv; j++) nint += twill_ilp_var_type(m, j) != TWILL_ILP_CONTINUOUS;
  if (k != nint) return fail(rd, "VIPR INT lists %ld variables, the program %d", k, nint);
  for (long i = 0; i < k; i++)
    if (vlong(&t, &x) || x < 0 || x >= nv ||
        twill_ilp_var_type(m, (int)x) == TWILL_ILP_CONTINUOUS)
      return fail(rd, "VIPR INT names a variable the program has as continuous");
  if (!vnext(&t, b, sizeof b) || strcmp(b, "OBJ") || !vnext(&t, b, sizeof b) ||
      strcmp(b, "min") || vlong(&t, &k))
    return fail(rd, "VIPR OBJ must be 'min' over the program's objective");
  int nobj = 0;
  for (int j = 0; j < nv; j++) nobj += twill_ilp_obj_coef(m, j) != 0;
  if (k != nobj) return fail(rd, "VIPR objective differs from the program's");
  for (long i = 0; i < k; i++) {
    long c;
    if (vlong(&t, &x) || vint(&t, &c) || x < 0 || x >= nv ||
        twill_ilp_obj_coef(m, (int)x) != (double)c)
      return fail(rd, "VIPR objective differs from the program's");
  }
  long ncon, nb;
  if (!vnext(&t, b, sizeof b) || strcmp(b, "CON") || vlong(&t, &ncon) ||
      vlong(&t, &nb) || ncon < 0 || ncon > (long)len)
    return fail(rd, "VIPR CON section missing");
  int *idx = malloc((size_t)nv * sizeof *idx + 1);
  long *coef = malloc((size_t)nv * sizeof *coef + 1);
  rowidx rx;
  if (!idx || !coef || rowidx_build(m, &rx)) {
    free(idx);
    free(coef);
    return fail(rd, "out of memory");
  }
  int bad = 0;
  for (long c = 0; c < ncon && !bad; c++) {
    char name[256], sense[8];
    long rhs, p;
    if (!vnext(&t, name, sizeof name) || !vnext(&t, sense, sizeof sense) ||
        vint(&t, &rhs) || vlong(&t, &p) || p < 1 || p > nv ||
        (strcmp(sense, "G") && strcmp(sense, "L") && strcmp(sense, "E"))) {
      bad = fail(rd, "VIPR constraint %ld is malformed or not integral", c);
      break;
    }
    for (long i = 0; i < p && !bad; i++) {
      if (vlong(&t, &x) || x < 0 || x >= nv || vint(&t, &coef[i]))
        bad = fail(rd, "VIPR constraint %s has a bad term", name);
      idx[i] = (int)x;
    }
    if (!bad) sort_terms(idx, coef, (int)p);
    for (long i = 1; i < p && !bad; i++)
      if (idx[i] == idx[i - 1])
        bad = fail(rd, "VIPR constraint %s names a variable twice", name);
    if (!bad && !implied(m, &rx, (int)p, idx, coef, sense[0], rhs))
      bad = fail(rd, "VIPR constraint %s is not implied by the program rebuilt "
                     "from the kernel", name);
  }
  free(idx);
  free(coef);
  rowidx_free(&rx);
  if (bad) return 1;
  if (!vnext(&t, b, sizeof b) || strcmp(b, "RTP") || !vnext(&t, b, sizeof b))
    return fail(rd, "VIPR RTP missing");
  if (kind == 0 && strcmp(b, "infeas"))
    return fail(rd, "the proof at this I must be 'RTP infeas'");
  if (kind == 1) {
    /* range LB UB: the proven lower bound must exceed length - 1 (L is
     * an integer variable) */
    char lb[128];
    if (strcmp(b, "range") || !vnext(&t, lb, sizeof lb))
      return fail(rd, "the proof at I* must be 'RTP range LB UB'");
    char *e;
    double v = strtod(lb, &e);
    if (*e == '/') {
      double q = strtod(e + 1, &e);
      v = q > 0 ? v / q : -1e300;
    }
    if (*e || v <= (double)(length - 1))
      return fail(rd, "the proof bounds L below by %s, not above %ld", lb,
                  length - 1);
  }
  return 0;
}

/* Once the header is read: every op timed, the schedule valid at I with
 * the claimed length, and MII re-derived with I >= MII. */
static int settle(reader *rd, const twill_graph *g, twill_schedule *s,
                  const char *seen, long ii, long length, twill_bounds *b) {
  for (int v = 0; v < g->nops; v++)
    if (!seen[v]) return fail(rd, "op '%s' has no time", g->ops[v].name);
  if (ii < 1 || length < 0) return fail(rd, "ii or length missing");
  s->ii = ii;
  char why[256];
  if (twill_schedule_validate(g, NULL, s, why, sizeof why))
    return fail(rd, "the schedule is not valid: %s", why);
  if (twill_schedule_length(g, s) != length)
    return fail(rd, "the schedule's length is %ld, not %ld",
                twill_schedule_length(g, s), length);
  if (twill_bounds_compute(g, b)) return fail(rd, "out of memory");
  if (ii < b->mii) return fail(rd, "ii %ld is below the MII %ld", ii, b->mii);
  return 0;
}

/* "form WORDS" into a TWILL_MODULO_FORM_* mask; -1 if a word is unknown or
 * repeated. */
static int parse_form(const char *w) {
  if (!strcmp(w, "none")) return 0;
  int form = 0;
  while (*w) {
    const char *e = strchr(w, ',');
    size_t n = e ? (size_t)(e - w) : strlen(w);
    int k = 0;
    while (k < 4 && (strlen(form_words[k]) != n || strncmp(w, form_words[k], n))) k++;
    if (k == 4 || (form & (1 << k))) return -1;
    form |= 1 << k;
    if (!e) break;
    w = e + 1;
    if (!*w) return -1;
  }
  return form;
}

/* One proof block (or path line) at I.  want_opt: the proof of L >=
 * length at I*; otherwise of no schedule at I.  kind 0 vipr, 1 smt, 2 path. */
static int check_block(reader *rd, const twill_graph *g, int form, int kind,
                       long ii, int want_opt, long length, const char *blk,
                       size_t nbytes) {
  twill_modulo_red red;
  if (twill_cert_modulo_reduce(g, ii, (form & TWILL_MODULO_FORM_REDUCE) != 0, &red))
    return fail(rd, "cannot derive the problem at I = %ld", ii);
  int bad = 0;
  if (kind == 2) {
    if (length != red.lfloor)
      bad = fail(rd, "'path %ld optimal': the critical path at I = %ld is %ld, not "
                     "the length %ld", ii, ii, red.lfloor, length);
  } else if (kind == 1) {
    char m[400];
    if (twill_cert_modulo_smt_check(g, &red, want_opt ? length - 1 : red.horizon,
                                    !want_opt, (form & TWILL_MODULO_FORM_SLOTS) != 0,
                                    blk, nbytes, m, sizeof m))
      bad = fail(rd, "%s", m);
  } else {
    twill_ilp *m = twill_modulo_program_red(g, &red, 0, (unsigned)form);
    if (!m) {
      bad = fail(rd, "cannot rebuild the program at I = %ld", ii);
    } else {
      bad = check_header(rd, m, blk, nbytes, want_opt, length);
      twill_ilp_free(m);
      char vmsg[300];
      if (!bad && twill_vipr_check_mem("vipr", blk, nbytes, vmsg, sizeof vmsg))
        bad = fail(rd, "VIPR proof at I = %ld rejected: %s", ii, vmsg);
    }
  }
  twill_modulo_red_clear(&red);
  return bad;
}

int twill_modulo_check_cert(const twill_graph *g, const char *cert,
                            size_t len, char *msg, size_t msglen) {
  reader rd = {cert, cert + len, 0, msg, msglen};
  char line[512], name[256];
  long ii = -1, length = -1;
  int form = 0, nform = 0;
  if (!next_line(&rd, line, sizeof line) ||
      strcmp(line, "twill-certificate 1 modulo"))
    return fail(&rd, "not a twill modulo certificate");
  twill_schedule *s = twill_schedule_new(g->nops, 1);
  char *seen = calloc((size_t)g->nops + 1, 1);
  if (!s || !seen) {
    twill_schedule_free(s);
    free(seen);
    return fail(&rd, "out of memory");
  }
  int rc = 1, nblocks = 0, len_unproven = 0, npath = 0, nsmt = 0, nvipr = 0;
  twill_bounds b;
  memset(&b, 0, sizeof b);
  long next_ii = -1; /* the I whose proof must come next */
  while (next_line(&rd, line, sizeof line)) {
    long v1, v2;
    size_t nbytes = 0;
    char kind[32], what[32];
    if (!strncmp(line, "kernel ", 7) || !strncmp(line, "arch ", 5) ||
        !strncmp(line, "normalize ", 10))
      continue; /* read by the command, which loads the kernel */
    if (!strncmp(line, "form ", 5)) {
      form = parse_form(line + 5);
      if (form < 0 || nform++ || nblocks) {
        fail(&rd, "bad or misplaced 'form' line");
        goto done;
      }
    } else if (sscanf(line, "ii %ld", &v1) == 1) ii = v1;
    else if (sscanf(line, "length %ld", &v1) == 1) length = v1;
    else if (sscanf(line, "heuristic %ld %ld", &v1, &v2) == 2) continue; /* informational */
    else if (sscanf(line, "time %255s %ld", name, &v1) == 2) {
      int v = twill_graph_find_op(g, name);
      if (v < 0 || seen[v]) {
        fail(&rd, "op '%s' is unknown or timed twice", name);
        goto done;
      }
      seen[v] = 1;
      s->start[v] = v1;
    } else if ((sscanf(line, "%31s %ld %31s %zu", kind, &v1, what, &nbytes) == 4 &&
                (!strcmp(kind, "vipr") || !strcmp(kind, "smt"))) ||
               (sscanf(line, "%31s %ld %31s", kind, &v1, what) == 3 &&
                !strcmp(kind, "path"))) {
      if (nblocks == 0 && settle(&rd, g, s, seen, ii, length, &b))
        goto done;
      if (nblocks == 0) next_ii = b.mii;
      nblocks++;
      int k = !strcmp(kind, "vipr") ? 0 : !strcmp(kind, "smt") ? 1 : 2;
      if (k < 2 && nbytes > (size_t)(rd.end - rd.p)) {
        fail(&rd, "proof block longer than the file");
        goto done;
      }
      int want_opt = v1 == ii;
      if (want_opt && len_unproven) {
        fail(&rd, "a proof for I* although the length is marked unproven");
        goto done;
      }
      if (v1 != next_ii || strcmp(what, want_opt ? "optimal" : "infeasible") ||
          (k == 2 && !want_opt)) {
        fail(&rd, "expected the proof for I = %ld (%s)", next_ii,
             next_ii == ii ? "optimal" : "infeasible");
        goto done;
      }
      const char *blk = rd.p;
      if (k < 2) {
        /* the block's lines, then its newline */
        for (size_t i = 0; i < nbytes; i++) rd.line += blk[i] == '\n';
        rd.p += nbytes;
        if (rd.p < rd.end && *rd.p == '\n') rd.p++;
      }
      if (check_block(&rd, g, form, k, v1, want_opt, length, blk, nbytes))
        goto done;
      npath += k == 2;
      nsmt += k == 1;
      nvipr += k == 0;
      next_ii++;
    } else if (!strcmp(line, "length-proof none")) {
      len_unproven = 1;
    } else if (!strcmp(line, "end")) {
      if (nblocks == 0) {
        if (settle(&rd, g, s, seen, ii, length, &b)) goto done;
        next_ii = b.mii;
      }
      if (next_ii != ii + 1 - len_unproven) {
        fail(&rd, "proofs missing: the certificate ends before I = %ld",
             next_ii < 0 ? ii : next_ii);
        goto done;
      }
      snprintf(msg, msglen,
               "verified: MII %ld (ResMII %ld, RecMII %ld) re-derived; %ld "
               "program(s) at I in [%ld, %ld) proven infeasible; I* = %ld "
               "proven optimal; L = %ld %s (%d VIPR, %d twill-smt proofs%s)",
               b.mii, b.res_mii, b.rec_mii, ii - b.mii, b.mii, ii, ii, length,
               len_unproven ? "valid but NOT proven minimal (the certificate "
                              "says so)"
                            : "proven optimal",
               nvipr, nsmt, npath ? ", L the critical path" : "");
      rc = 0;
      goto done;
    } else {
      fail(&rd, "unexpected line '%.60s'", line);
      goto done;
    }
  }
  fail(&rd, "missing 'end'");
done:
  twill_bounds_clear(&b);
  twill_schedule_free(s);
  free(seen);
  return rc;
}
