/* core/check/check_joint.c: the checker's own translation of the joint
 * model (twill/joint.h) at fixed (I, L) into the twill-smt constraint list
 * (twill/smt.h), and the check that lets it accept warp symmetry breaking.
 *
 * A refutation in a solve certificate is accepted only when its first
 * bytes are exactly the text this file writes (core/check/cert_solve.c).
 * The text is the certificate's statement of the problem it refutes, so
 * what this file must get right is soundness: every legal joint schedule
 * (t, S) of the model at (I, L) extends to an assignment of every variable
 * below that satisfies every line.  Each family says how.  The solver's
 * encoder (core/joint/joint_enc.c) states the same list, in the same order
 * and with the same numbering, so that its proofs refute this text; the two
 * share no code, and tests/test_check.c holds them against each other on
 * random kernels and this one against enumeration on tiny ones.
 *
 * Numbering.  Integer variables: t(v) is x_v (v in op order), then, with
 * setmaxnreg, q(g) per warpgroup.  SAT variables in creation order, the
 * constant true literal T = 1 first; an order literal [x <= k] is created
 * by an "o" line the first time a clause needs it (o lines only name fresh
 * variables); [x <= k] with k below x's domain is -T, at or above its top
 * is T.  Clauses are written with T, -T, repeats and complementary pairs
 * folded, except the three clauses defining an equality literal, written
 * as they are.
 *
 * The extension of a legal schedule (the witness of soundness), family by
 * family, in the order written:
 *   times        x_v = t(v) in [0, L - max(lat,1)]        (completion)
 *   dependence   x_u - x_v <= I*delta - d, one per edge u != v; a self
 *                edge with d > I*delta is the empty clause (no schedule)
 *   capacity     per unit with more uses than capacity, "mod CAP I" over
 *                the uses (x_v, offset + c): the reservation table
 *   warps        b(v, k) = [S(v) is v's k-th aligned block]: exactly one
 *   var. latency sel -> (on(v, 0) iff varlat(v))            (joint.h)
 *   symmetry     see below
 *   relations    sel -> share / disjoint per pair, lead as x_a - x_b <=
 *                -I - 1
 *   cross-warp   per register edge u -> v (regs(u) > 0): with span(v)
 *                <= span(u), p(w) -> on(u,w), p(w) -> on(v,w) and sel ->
 *                (OR_w p(w)) or cw; with span(v) > span(u), sel -> cw;
 *                then cw -> x_u - x_v <= I*delta - d - X(u).  Witness: p(w)
 *                = [w in S(u) and S(v)], cw = crosses(u, v) (some warp of
 *                S(v) not in S(u): for aligned nested blocks, exactly when
 *                no p(w) holds, or always when S(v) is the larger); the
 *                model charges X exactly then.  (--no-cross-warp: sel ->
 *                OR_w p(w), or sel false when S(v) is the larger.)
 *   liveness     live(v, tau) for tau < H(v): forced by [x_v <= tau] and
 *                not [x_v <= tau - lat1] (v running) and by each user still
 *                to come; witness live = [t(v) <= tau < e(v)], true exactly
 *                when v's lifetime covers tau.  An op with a floor k =
 *                k_min(v) >= 1 (only the "no I at all" relaxation) gets no
 *                grid: it is refused unless H(v) <= k*I, and then n_v(s) =
 *                k at every slot, a constant below
 *   registers    z(v, w, tau) forced by on(v,w) and live(v,tau); with
 *                covers, the phantoms of fam_phantoms; per warp and slot
 *                sum regs(v) z (+ k regs(v) on(v,w) for a floored v, +
 *                regs(v) ph for each phantom of v on w's block) <= LO +
 *                STEP q(g) (or R), and the register file;
 *                witness z = on and live, q(g) = (r_g - LO) / STEP with r_g
 *                the group's least legal budget; with p->reg_total, the
 *                register total (fam_register_total says why it holds)
 *   memories     per slot, sum footprint * live <= capacity - the floored
 *                ops' k * footprint (sel false when those alone overflow)
 *   blocking     sw(o, v) forced by a shared warp; run(o, s) forced by
 *                [x_o = a] for s = a + c (mod I), c < lat(o); then
 *                not ([x_v = b] and sw and run(o, b mod I)) under sel (and
 *                under cw for a crossing value's consumer); witness sw =
 *                [S(o), S(v) meet], run = [a copy of o runs at slot s],
 *                equality literals by their definitions
 *   selectors    every family's selector a unit clause (the certificate
 *                refutes the whole model, not a part)
 *
 * Symmetry breaking.  With p->symmetry the list also holds, as the encoder
 * writes them, clauses that are not consequences of the model: "op v on
 * warp w implies some op i <= v on warp w - 1" for the interchangeable
 * warps of a group, and "op v on group g implies some op i < v on group
 * g - 1" for interchangeable groups.  They keep satisfiability when every
 * permutation of the interchangeable warps (groups) maps the rest of the
 * list onto itself: relabel the warps inside each group so that their
 * first users (least op index on them) come in order, then the groups the
 * same way; a group permutation keeps the order inside groups, an op on one
 * group only never has the same first use in two groups, so both families
 * hold afterwards.  This file does not take that property on trust: before
 * it writes a symmetry clause it maps every other line through each
 * transposition of neighbouring interchangeable warps (groups), which
 * generate all those permutations, and requires the image of the list to
 * be the list.
 *
 * Sub-tile order (p->subtile_symmetry, no relations; twill/joint.h, SUB-TILE
 * SYMMETRY): after the warp clauses, "x_a - x_b <= 0" for consecutive
 * members of each class of twin sub-tiles, a the first op of one, b of the
 * next.  This file derives the classes from the kernel itself (fam_subtiles,
 * its own reading of the rule) and, before it accepts them, maps every line
 * that is not symmetry breaking through each transposition sigma = (C_1 C_i)
 * of each class (every op, edge, literal and integer variable renamed; an
 * image the list does not have is a rejection) and requires the image of
 * the list to be the list.  The transpositions (C_1 C_i) generate every
 * permutation of the class, so every legal schedule has an image with the
 * first ops' starts in order; a warp renaming moves no start, so afterwards
 * the warp clauses can be met as above, and both kinds hold together.
 */
#include "check_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- atoms: what each SAT variable means ------------------------------- */

enum {
  A_T = 1,
  A_ON,    /* (v, block) */
  A_SEL,   /* (family kind, argument) */
  A_PW,    /* (edge, warp) */
  A_CW,    /* (edge) */
  A_LIVE,  /* (v, tau) */
  A_Z,     /* (v, first warp of v's block, tau) */
  A_SW,    /* (o, v) */
  A_RUN,   /* (o, slot) */
  A_EQ,    /* (v, a) */
  A_ORD,   /* (x, k) */
  A_PH,    /* (cover entry e, first warp of its op's block, slot k) */
  A_TOT    /* the register total's guard */
};

/* family kinds (the selector's meaning; the argument distinguishes) */
enum { F_VL = 1, F_REL, F_CROSS, F_REGS, F_REGFILE, F_SMEM, F_TMEM, F_BLOCK };

typedef struct atom {
  int kind, a, b;
  long c;
} atom;

/* An item: a clause (kind 0), a linear constraint (1) or a modulo one (2),
 * kept for the symmetry check; sb marks the symmetry-breaking clauses. */
typedef struct item {
  int kind, sb, reif, n;
  int64_t rhs, cap, period;
  size_t at; /* into the pools: lits for clauses, terms for constraints */
} item;

typedef struct term {
  int64_t a;
  int x;   /* int var, or -1 */
  int lit; /* literal when x < 0 */
} term;

typedef struct jt {
  const twill_graph *g;
  const twill_joint_params *p;
  long I, L;
  int W, WG, G, n;
  int err;
  char *why;
  size_t whylen;
  /* the text */
  char *txt;
  size_t len, cap;
  int ncons; /* constraint ids */
  /* variables */
  int nsat, nint, T;
  atom *sat;       /* by SAT variable, [1, nsat] */
  int satcap;
  int *xkind, *xarg; /* by int var: 0 time (arg v), 1 q (arg group) */
  int64_t *xlo, *xhi;
  int xcap;
  long *ub;
  int **ord;       /* ord[v][k], k in [0, ub[v]): [x_v <= k], 0 until made */
  int **eq;        /* eq[v][a] */
  int *on;         /* on[v*W + w] */
  int **live;
  long *H;
  int **run;
  int *sw;         /* sw[o*n + v] */
  int *cw, *cw_dst, *cw_sel, *cw_edge, ncw;
  int nfam;
  int famsel[TWILL_JOINT_MAX_FAMILIES];
  int *qx;         /* int var of q(g), or -1 */
  int *regsel;     /* selector of "registers of warpgroup g" */
  int vlsel;       /* selector of the variable-latency family, 0 if none */
  int *zbase;      /* zbase[(v*W + w0)] -> index into zlit, or -1 */
  int **z;         /* z[v*W + w0][tau] */
  int *pw;         /* pw[e*W + w], 0 when edge e has none */
  int *ph;         /* phantoms, at ph_index(e, w0, k) */
  /* items */
  item *it;
  size_t nit, capit;
  int *lits;
  size_t nlits, caplits;
  term *terms;
  size_t nterms, capterms;
  int *tsig;   /* sub-tile transpositions to verify: n entries each */
  int ntsig;
  int cur_sb; /* items written now are symmetry breaking */
  int sb_all;  /* (tests) bit 1: break symmetry over every warp and group;
                  bit 2: take equal-size sub-tiles for twins without the
                  kernel test (the translation test must then refuse) */
  /* clause being built */
  int *cl;
  int ncl, ccl;
} jt;

static void jfail(jt *j, const char *fmt, ...) {
  if (j->err) return;
  j->err = 1;
  if (j->why && j->whylen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(j->why, j->whylen, fmt, ap);
    va_end(ap);
  }
}

static void out(jt *j, const char *fmt, ...) {
  if (j->err) return;
  if (!j->txt) { /* never format into a null pointer, not even 0 bytes */
    j->txt = malloc(j->cap = 1 << 16);
    if (!j->txt) {
      j->cap = 0;
      jfail(j, "out of memory");
      return;
    }
  }
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(j->txt + j->len, j->cap - j->len, fmt, ap);
    va_end(ap);
    if (k < 0) {
      jfail(j, "cannot format the translation");
      return;
    }
    if (j->len + (size_t)k < j->cap) {
      j->len += (size_t)k;
      return;
    }
    size_t nc = j->cap ? 2 * j->cap : 1 << 16;
    while (nc <= j->len + (size_t)k) nc *= 2;
    char *t = realloc(j->txt, nc);
    if (!t) {
      jfail(j, "out of memory");
      return;
    }
    j->txt = t;
    j->cap = nc;
  }
}

static long lat1(const twill_op *o) { return o->lat > 0 ? o->lat : 1; }
static int span(const jt *j, int v) { return twill_op_span(&j->g->ops[v], j->WG); }

/* ---- variables --------------------------------------------------------- */

static int new_sat(jt *j, int kind, int a, int b, long c) {
  if (j->err) return j->T ? j->T : 1;
  if (j->nsat + 2 > j->satcap) {
    int nc = j->satcap ? 2 * j->satcap : 1024;
    atom *s = realloc(j->sat, (size_t)nc * sizeof *s);
    if (!s) {
      jfail(j, "out of memory");
      return 1;
    }
    j->sat = s;
    j->satcap = nc;
  }
  int v = ++j->nsat;
  j->sat[v] = (atom){kind, a, b, c};
  return v;
}

static void push_item(jt *j, int kind, int reif, int n, int64_t rhs, int64_t cap,
                      int64_t period, size_t at) {
  if (j->err) return;
  if (j->nit == j->capit) {
    size_t nc = j->capit ? 2 * j->capit : 4096;
    item *t = realloc(j->it, nc * sizeof *t);
    if (!t) {
      jfail(j, "out of memory");
      return;
    }
    j->it = t;
    j->capit = nc;
  }
  j->it[j->nit++] = (item){kind, j->cur_sb, reif, n, rhs, cap, period, at};
}

static size_t push_lit(jt *j, int l) {
  if (j->nlits == j->caplits) {
    size_t nc = j->caplits ? 2 * j->caplits : 1 << 14;
    int *t = realloc(j->lits, nc * sizeof *t);
    if (!t) {
      jfail(j, "out of memory");
      return 0;
    }
    j->lits = t;
    j->caplits = nc;
  }
  j->lits[j->nlits] = l;
  return j->nlits++;
}

static size_t push_term(jt *j, int64_t a, int x, int lit) {
  if (j->nterms == j->capterms) {
    size_t nc = j->capterms ? 2 * j->capterms : 1 << 12;
    term *t = realloc(j->terms, nc * sizeof *t);
    if (!t) {
      jfail(j, "out of memory");
      return 0;
    }
    j->terms = t;
    j->capterms = nc;
  }
  j->terms[j->nterms] = (term){a, x, lit};
  return j->nterms++;
}

static void put_clause(jt *j, const int *l, int n);

/* The constant true literal, made (with its unit clause) by whatever comes
 * first, as the theory layer does: the first SAT variable, so T = 1. */
static void ensure_T(jt *j) {
  if (j->T || j->err) return;
  j->T = new_sat(j, A_T, 0, 0, 0);
  put_clause(j, &j->T, 1);
}

/* A clause exactly as given (no folding): "a l1 .. ln 0". */
static void raw_clause(jt *j, const int *l, int n) {
  ensure_T(j);
  put_clause(j, l, n);
}

static void put_clause(jt *j, const int *l, int n) {
  if (j->err) return;
  out(j, "a");
  size_t at = j->nlits;
  for (int i = 0; i < n; i++) {
    out(j, " %d", l[i]);
    push_lit(j, l[i]);
  }
  out(j, " 0\n");
  push_item(j, 0, 0, n, 0, 0, 0, at);
}

static int new_int(jt *j, int kind, int arg, int64_t lo, int64_t hi) {
  if (j->err) return 0;
  if (lo > hi || lo < -TWILL_SMT_MAX_ABS || hi > TWILL_SMT_MAX_ABS) {
    jfail(j, "integer domain [%lld, %lld] out of range", (long long)lo, (long long)hi);
    return 0;
  }
  ensure_T(j);
  if (j->nint == j->xcap) {
    int nc = j->xcap ? 2 * j->xcap : 64;
    int *a = realloc(j->xkind, (size_t)nc * sizeof *a);
    if (a) j->xkind = a;
    int *b = realloc(j->xarg, (size_t)nc * sizeof *b);
    if (b) j->xarg = b;
    int64_t *c = realloc(j->xlo, (size_t)nc * sizeof *c);
    if (c) j->xlo = c;
    int64_t *d = realloc(j->xhi, (size_t)nc * sizeof *d);
    if (d) j->xhi = d;
    if (!a || !b || !c || !d) {
      jfail(j, "out of memory");
      return 0;
    }
    j->xcap = nc;
  }
  int x = j->nint++;
  j->xkind[x] = kind;
  j->xarg[x] = arg;
  j->xlo[x] = lo;
  j->xhi[x] = hi;
  out(j, "i %d %lld %lld\n", x, (long long)lo, (long long)hi);
  return x;
}

static int new_bool(jt *j, int kind, int a, int b, long c) {
  ensure_T(j);
  return new_sat(j, kind, a, b, c);
}

/* [x_v <= k] for a time variable (x_v = v) */
static int le(jt *j, int v, long k) {
  if (j->err) return j->T;
  if (k < 0) return -j->T;
  if (k >= j->ub[v]) return j->T;
  if (!j->ord[v][k]) {
    int l = new_sat(j, A_ORD, v, 0, k);
    j->ord[v][k] = l;
    out(j, "o %d %ld %d\n", v, k, l);
  }
  return j->ord[v][k];
}

/* [x_v = a], defined by e -> [x <= a], e -> not [x <= a-1],
 * [x <= a] and not [x <= a-1] -> e; constants outside the domain. */
static int eqlit(jt *j, int v, long a) {
  if (a < 0 || a > j->ub[v]) return -j->T;
  if (j->ub[v] == 0) return j->T;
  if (!j->eq[v][a]) {
    int e = new_sat(j, A_EQ, v, 0, a);
    int lo = le(j, v, a), lt = le(j, v, a - 1);
    int c1[2] = {-e, lo}, c2[2] = {-e, -lt}, c3[3] = {e, -lo, lt};
    raw_clause(j, c1, 2);
    raw_clause(j, c2, 2);
    raw_clause(j, c3, 3);
    j->eq[v][a] = e;
  }
  return j->eq[v][a];
}

/* ---- clauses with folding ---------------------------------------------- */

static void cl_start(jt *j) { j->ncl = 0; }

static void cl_lit(jt *j, int lit) {
  if (j->ncl < 0 || j->err) return;
  if (lit == j->T) {
    j->ncl = -1; /* satisfied */
    return;
  }
  if (lit == -j->T) return;
  for (int i = 0; i < j->ncl; i++) {
    if (j->cl[i] == lit) return;
    if (j->cl[i] == -lit) {
      j->ncl = -1;
      return;
    }
  }
  if (j->ncl == j->ccl) {
    int nc = j->ccl ? 2 * j->ccl : 64;
    int *t = realloc(j->cl, (size_t)nc * sizeof *t);
    if (!t) {
      jfail(j, "out of memory");
      return;
    }
    j->cl = t;
    j->ccl = nc;
  }
  j->cl[j->ncl++] = lit;
}

static void cl_end(jt *j) {
  if (j->ncl < 0 || j->err) return;
  raw_clause(j, j->cl, j->ncl);
}

static void clause2(jt *j, int a, int b) {
  cl_start(j);
  cl_lit(j, a);
  cl_lit(j, b);
  cl_end(j);
}

static void clause3(jt *j, int a, int b, int c) {
  cl_start(j);
  cl_lit(j, a);
  cl_lit(j, b);
  cl_lit(j, c);
  cl_end(j);
}

/* sum a_i t_i <= b, reified by r (0: none): a "k ID lin" line */
static void linear(jt *j, int r, const term *t, int n, int64_t b) {
  ensure_T(j);
  if (j->err) return;
  if (b < -TWILL_SMT_MAX_ABS || b > TWILL_SMT_MAX_ABS) {
    jfail(j, "constant %lld out of range", (long long)b);
    return;
  }
  out(j, "k %d lin %d %d", ++j->ncons, r, n);
  size_t at = j->nterms;
  for (int i = 0; i < n; i++) {
    if (t[i].a < -TWILL_SMT_MAX_ABS || t[i].a > TWILL_SMT_MAX_ABS) {
      jfail(j, "coefficient %lld out of range", (long long)t[i].a);
      return;
    }
    if (t[i].x >= 0) out(j, " %lld x%d", (long long)t[i].a, t[i].x);
    else out(j, " %lld l%d", (long long)t[i].a, t[i].lit);
    push_term(j, t[i].a, t[i].x, t[i].lit);
  }
  out(j, " %lld\n", (long long)b);
  push_item(j, 1, r, n, b, 0, 0, at);
}

static int family(jt *j, int kind, int arg) {
  if (j->nfam == TWILL_JOINT_MAX_FAMILIES) {
    jfail(j, "more than %d constraint families", TWILL_JOINT_MAX_FAMILIES);
    return j->T;
  }
  int s = new_bool(j, A_SEL, kind, arg, 0);
  j->famsel[j->nfam++] = s;
  return s;
}

static int on(const jt *j, int v, int w) { return j->on[v * j->W + w]; }

/* ---- the families, in the order written ------------------------------- */

static void fam_times(jt *j) {
  const twill_graph *g = j->g;
  for (int v = 0; v < g->nops; v++) new_int(j, 0, v, 0, j->ub[v]);
  for (int i = 0; i < g->nedges && !j->err; i++) {
    const twill_edge *e = &g->edges[i];
    long c = j->I * (long)e->dist - e->lat;
    if (e->src == e->dst) {
      if (c < 0) raw_clause(j, NULL, 0); /* d > I*delta: no schedule */
      continue;
    }
    term t[2] = {{1, e->src, 0}, {-1, e->dst, 0}};
    linear(j, 0, t, 2, c);
  }
}

static void fam_capacity(jt *j) {
  const twill_graph *g = j->g;
  for (int u = 0; u < g->nunits && !j->err; u++) {
    long n = 0;
    for (int v = 0; v < g->nops; v++)
      for (int k = 0; k < g->ops[v].nuses; k++)
        if (g->ops[v].uses[k].unit == u)
          n += (long)g->ops[v].uses[k].cycles * g->ops[v].uses[k].count;
    if (n <= g->units[u].capacity) continue; /* never more than capacity */
    if (n > (1 << 20)) {
      jfail(j, "unit %s has %ld uses", g->units[u].name, n);
      return;
    }
    /* uses in op order (a stable sort by variable keeps it) */
    ensure_T(j);
    out(j, "k %d mod %d %ld %ld", ++j->ncons, g->units[u].capacity, j->I, n);
    size_t at = j->nterms;
    for (int v = 0; v < g->nops; v++)
      for (int k = 0; k < g->ops[v].nuses; k++) {
        const twill_use *us = &g->ops[v].uses[k];
        if (us->unit != u) continue;
        for (int c = 0; c < us->cycles; c++)
          for (int r = 0; r < us->count; r++) {
            out(j, " %d %ld", v, (long)us->offset + c);
            push_term(j, (long)us->offset + c, v, 0);
          }
      }
    out(j, "\n");
    push_item(j, 2, 0, (int)n, 0, g->units[u].capacity, j->I, at);
  }
}

static int any_varlat(const twill_graph *g) {
  for (int v = 0; v < g->nops; v++)
    if (g->ops[v].varlat) return 1;
  return 0;
}

static void fam_warps(jt *j) {
  const twill_graph *g = j->g;
  for (int v = 0; v < g->nops && !j->err; v++) {
    int sp = span(j, v), nb = j->W / sp;
    int *b = malloc((size_t)(nb + 1) * sizeof *b);
    if (!b) {
      jfail(j, "out of memory");
      return;
    }
    for (int k = 0; k < nb; k++) b[k] = new_bool(j, A_ON, v, k, 0);
    for (int w = 0; w < j->W; w++) j->on[v * j->W + w] = w / sp < nb ? b[w / sp] : -j->T;
    cl_start(j); /* one block at least (none: the op does not fit) */
    for (int k = 0; k < nb; k++) cl_lit(j, b[k]);
    cl_end(j);
    for (int k = 0; k < nb; k++) /* and at most one */
      for (int l = k + 1; l < nb; l++) clause2(j, -b[k], -b[l]);
    free(b);
  }
  if (!any_varlat(g) || j->err) return;
  int s = j->vlsel = family(j, F_VL, 0);
  for (int v = 0; v < g->nops; v++)
    clause2(j, -s, g->ops[v].varlat ? on(j, v, 0) : -on(j, v, 0));
}

/* The interchangeable groups [g0, G) and, per group, warps [r0(g), WG). */
static int multi_group(const jt *j) {
  for (int v = 0; v < j->n; v++)
    if (span(j, v) > j->WG) return 1;
  return 0;
}

static void fam_symmetry(jt *j) {
  const twill_graph *g = j->g;
  int WG = j->WG, vl = any_varlat(g) && !(j->sb_all & 1);
  j->cur_sb = 1;
  for (int gr = (vl ? 1 : 0) + 1; gr < j->G && !multi_group(j); gr++)
    for (int v = 0; v < g->nops; v++)
      for (int w = gr * WG; w < (gr + 1) * WG; w++) {
        cl_start(j);
        cl_lit(j, -on(j, v, w));
        for (int i = 0; i < v; i++)
          for (int x = (gr - 1) * WG; x < gr * WG; x++) cl_lit(j, on(j, i, x));
        cl_end(j);
      }
  for (int gr = 0; gr < j->G; gr++)
    for (int r = (gr == 0 && vl ? 1 : 0) + 1; r < WG; r++) {
      int w = gr * WG + r;
      for (int v = 0; v < g->nops; v++) {
        cl_start(j);
        cl_lit(j, -on(j, v, w));
        for (int i = 0; i <= v; i++) cl_lit(j, on(j, i, w - 1));
        cl_end(j);
      }
    }
  j->cur_sb = 0;
}

/* share: the op of the smaller block lies inside the other's (aligned
 * blocks of 1, WG, 2WG, 4WG warps nest); disjoint: no warp in both */
static void rel_share(jt *j, int s, int a, int b) {
  if (span(j, b) > span(j, a)) {
    int t = a;
    a = b, b = t;
  }
  for (int w = 0; w < j->W; w++) clause3(j, -s, -on(j, b, w), on(j, a, w));
}

static void rel_disjoint(jt *j, int s, int a, int b) {
  for (int w = 0; w < j->W; w++) clause3(j, -s, -on(j, a, w), -on(j, b, w));
}

static void fam_relations(jt *j) {
  const twill_joint_params *p = j->p;
  for (int k = 0; k < p->nrels && !j->err; k++) {
    const twill_joint_rel *r = &p->rels[k];
    int s = family(j, F_REL, k);
    if (r->kind == TWILL_REL_LEAD) { /* t(a) + I < t(b) */
      if (r->nops != 2) {
        jfail(j, "a lead relation needs two ops");
        return;
      }
      term t[2] = {{1, r->ops[0], 0}, {-1, r->ops[1], 0}};
      linear(j, s, t, 2, -j->I - 1);
      continue;
    }
    for (int i = 0; i < r->nops; i++)
      for (int l = i + 1; l < r->nops; l++) {
        if (r->kind == TWILL_REL_APART) rel_disjoint(j, s, r->ops[i], r->ops[l]);
        else if (i == 0) rel_share(j, s, r->ops[0], r->ops[l]);
      }
    if (r->kind != TWILL_REL_OWN) continue;
    for (int v = 0; v < j->n; v++) {
      int in = 0;
      for (int i = 0; i < r->nops; i++) in |= r->ops[i] == v;
      if (!in)
        for (int i = 0; i < r->nops; i++) rel_disjoint(j, s, v, r->ops[i]);
    }
  }
}

/* A register edge u -> v (regs(u) > 0, variable-latency or not) crosses
 * when some warp of S(v) is not in S(u) (joint.h).  Blocks are aligned and
 * their sizes (1, WG, 2WG, 4WG) each divide the next, so two blocks are
 * nested or disjoint: with span(v) <= span(u), S(v) lies inside S(u) iff
 * they share a warp, so "not crossing" is OR_w p(w); with span(v) >
 * span(u) S(v) never fits in S(u) and the edge always crosses: the
 * clause is sel -> cw alone. */
static void fam_cross(jt *j) {
  const twill_graph *g = j->g;
  for (int i = 0; i < g->nedges && !j->err; i++) {
    const twill_edge *e = &g->edges[i];
    const twill_op *u = &g->ops[e->src];
    if (e->src == e->dst || u->regs <= 0) continue;
    int s = family(j, F_CROSS, i);
    int meet = span(j, e->dst) <= span(j, e->src);
    if (meet)
      for (int w = 0; w < j->W; w++) {
        int pw = j->pw[i * j->W + w] = new_bool(j, A_PW, i, w, 0);
        clause2(j, -pw, on(j, e->src, w));
        clause2(j, -pw, on(j, e->dst, w));
      }
    cl_start(j);
    cl_lit(j, -s);
    for (int w = 0; meet && w < j->W; w++) cl_lit(j, j->pw[i * j->W + w]);
    if (j->p->no_cross_warp) {
      cl_end(j);
      continue;
    }
    int cw = new_bool(j, A_CW, i, 0, 0);
    cl_lit(j, cw);
    cl_end(j);
    j->cw[j->ncw] = cw;
    j->cw_dst[j->ncw] = e->dst;
    j->cw_sel[j->ncw] = s;
    j->cw_edge[j->ncw++] = i;
    long X = u->spill >= 0 ? u->spill : j->p->cross_warp;
    term t[2] = {{1, e->src, 0}, {-1, e->dst, 0}};
    linear(j, cw, t, 2, j->I * (long)e->dist - e->lat - X);
  }
}

static int holds(const jt *j, const twill_op *o) {
  return o->regs > 0 || o->smem > 0 || (o->tmem > 0 && j->p->tmem_cap >= 0);
}

/* k_min(v) (joint.h, "lifetimes"): 0 unless the parameters set floors. */
static long floor_of(const jt *j, int v) {
  return j->p->min_live && j->p->min_live[v] > 0 ? j->p->min_live[v] : 0;
}

/* The latest end e(v) any start times in the domains allow: every cycle
 * v's result can be live in is in [0, H). */
static long grid_len(const jt *j, int v) {
  const twill_graph *g = j->g;
  long H = j->ub[v] + lat1(&g->ops[v]);
  for (int i = 0; i < g->nedges; i++)
    if (g->edges[i].src == v) {
      long e = j->ub[g->edges[i].dst] + j->I * (long)g->edges[i].dist;
      if (e > H) H = e;
    }
  return H;
}

/* A floored op (k = k_min(v) >= 1) whose lifetime fits in k*I cycles
 * (H <= k*I: at most k of its cycles in each residue class) has n_v(s) =
 * max(copies live at s, k) = k at every slot whatever its start: it gets
 * no lifetime grid and weighs k * footprint at every slot (on its warps,
 * for registers).  A floor a lifetime could exceed is refused (the model
 * would need max(sum, k)); the solver refuses it too. */
static void check_floors(jt *j) {
  for (int v = 0; v < j->n && !j->err; v++)
    if (floor_of(j, v) && holds(j, &j->g->ops[v]) && grid_len(j, v) > floor_of(j, v) * j->I)
      jfail(j, "the floor of op '%s' (%ld copies) is below what its lifetime can reach at "
               "I %ld", j->g->ops[v].name, floor_of(j, v), j->I);
}

static void fam_liveness(jt *j) {
  const twill_graph *g = j->g;
  for (int v = 0; v < g->nops && !j->err; v++) {
    const twill_op *o = &g->ops[v];
    if (!holds(j, o) || floor_of(j, v)) continue;
    long H = grid_len(j, v);
    j->H[v] = H;
    j->live[v] = calloc((size_t)H + 1, sizeof **j->live);
    if (!j->live[v]) {
      jfail(j, "out of memory");
      return;
    }
    for (long tau = 0; tau < H && !j->err; tau++) {
      int lv = j->live[v][tau] = new_bool(j, A_LIVE, v, 0, tau);
      int a = -le(j, v, tau);
      int b = le(j, v, tau - lat1(o));
      clause3(j, a, b, lv);
      for (int i = 0; i < g->nedges; i++) {
        const twill_edge *e = &g->edges[i];
        if (e->src != v) continue;
        int c = -le(j, v, tau);
        int d = le(j, e->dst, tau - j->I * (long)e->dist);
        clause3(j, c, d, lv);
      }
    }
  }
}

/* Append x to the term list *t (*n used, *cap allocated); out of memory,
 * the list is freed (*t NULL) and the translation fails: -1. */
static int tpush(jt *j, term **t, size_t *n, size_t *cap, term x) {
  if (*n + 1 > *cap) {
    size_t nc = *cap ? 2 * *cap : 256;
    term *grown = realloc(*t, nc * sizeof **t);
    if (!grown) {
      free(*t);
      *t = NULL;
      jfail(j, "out of memory");
      return -1;
    }
    *t = grown;
    *cap = nc;
  }
  (*t)[(*n)++] = x;
  return 0;
}

/* Covers (twill/joint.h, "lifetimes"; only the "no I at all" relaxation,
 * check_never.c, derives any): cover c is the ops cover_ops[cover_at[c]
 * ..], each holding registers, without a floor, once.  Refused otherwise:
 * the phantoms below read the ops' lifetime grids. */
static int bad_covers(const twill_graph *g, const twill_joint_params *p, jt *j) {
  if (p->ncovers < 0 || (p->ncovers > 0 && (!p->cover_ops || !p->cover_at || p->cover_at[0])))
    return jfail(j, "malformed covers"), 1;
  for (int c = 0; c < p->ncovers; c++) {
    if (p->cover_at[c + 1] <= p->cover_at[c]) return jfail(j, "cover %d is empty", c), 1;
    for (int e = p->cover_at[c]; e < p->cover_at[c + 1]; e++) {
      int v = p->cover_ops[e];
      if (v < 0 || v >= g->nops || g->ops[v].regs <= 0 ||
          (p->min_live && p->min_live[v] > 0))
        return jfail(j, "cover %d names op %d, which holds no registers or has a floor", c, v),
               1;
      for (int f = p->cover_at[c]; f < e; f++)
        if (p->cover_ops[f] == v) return jfail(j, "cover %d names op %d twice", c, v), 1;
    }
  }
  return 0;
}

/* Phantom ph(e, w0, k): the e-th op v of the covers, on the block of v at
 * warp w0 (w0 a multiple of span(v)), slot k; laid out by e, then block,
 * then slot. */
/* blocks of v: multiples of its span below W (at least one: an op wider
 * than the machine keeps one z grid) */
static size_t nblocks(const jt *j, int v) {
  return (size_t)((j->W + span(j, v) - 1) / span(j, v));
}

static size_t ph_index(const jt *j, int e, int w0, long k) {
  size_t x = 0;
  for (int f = 0; f < e; f++) x += nblocks(j, j->p->cover_ops[f]) * (size_t)j->I;
  return x + (size_t)(w0 / span(j, j->p->cover_ops[e])) * (size_t)j->I + (size_t)k;
}

/* ph(e, w0, k) -> on(v, w0), then per cover and slot k the clause "some op
 * of the cover has a live copy at k, or a phantom".  Witness (the schedule
 * of a single iteration that check_never.c's argument builds): at a slot
 * where no op of the cover is live, ph = 1 for the op whose other
 * iteration's copy the steady state holds there, on that op's block; every
 * other ph = 0.  The register rows count a phantom like a copy. */
static void fam_phantoms(jt *j) {
  const twill_joint_params *p = j->p;
  if (p->ncovers <= 0 || j->err) return;
  int ne = p->cover_at[p->ncovers];
  size_t n = ph_index(j, ne - 1, 0, 0) + nblocks(j, p->cover_ops[ne - 1]) * (size_t)j->I;
  j->ph = malloc(n * sizeof *j->ph);
  if (!j->ph) {
    jfail(j, "out of memory");
    return;
  }
  for (int e = 0; e < ne && !j->err; e++) {
    int v = p->cover_ops[e], sp = span(j, v);
    for (int w0 = 0; w0 < j->W; w0 += sp)
      for (long k = 0; k < j->I; k++) {
        int x = j->ph[ph_index(j, e, w0, k)] = new_bool(j, A_PH, e, w0, k);
        clause2(j, -x, on(j, v, w0));
      }
  }
  for (int c = 0; c < p->ncovers && !j->err; c++)
    for (long k = 0; k < j->I && !j->err; k++) {
      cl_start(j);
      for (int e = p->cover_at[c]; e < p->cover_at[c + 1]; e++)
        for (long tau = k; tau < j->H[p->cover_ops[e]]; tau += j->I)
          cl_lit(j, j->live[p->cover_ops[e]][tau]);
      for (int e = p->cover_at[c]; e < p->cover_at[c + 1]; e++)
        for (int w0 = 0; w0 < j->W; w0 += span(j, p->cover_ops[e]))
          cl_lit(j, j->ph[ph_index(j, e, w0, k)]);
      cl_end(j);
    }
}

/* The register total (twill/joint.h, REGISTER TOTAL), guarded by y with
 * the clause "every group's selector, the register file's (sfile) and the
 * variable-latency one (when there is one) imply y"; then per slot k
 *   sum over non-variable-latency ops v of span >= WG, c(v) = regs(v) *
 *   span(v)/WG:  c(v) * live(v, tau) for tau = k (mod I), c(v) * ph for
 *   each phantom of v, <= (G or G - 1) * LO + STEP * Q - the floored ones'
 *   k * c(v), Q = floor((regs_per_sm - G*32*WG*LO) / (32*WG*STEP)),
 *   G - 1 with the variable-latency family.
 * Witness: y = [every family it names holds].  Why a legal schedule meets
 * it: take the first warp w_g of each group; v of span >= WG holds all of
 * its block's warps, so each copy of v's value is counted in need(w_g, k)
 * once per group of its block, and the sum is at most sum_g need(w_g, k)
 * <= sum_g r_g.  The register file gives sum_g (r_g - LO) = STEP * sum q
 * <= STEP * Q.  With the variable-latency family, warp 0 holds only
 * variable-latency ops, so no op summed lies on group 0: its r_0 >= LO
 * counts against the total and is left out of it. */
static void fam_register_total(jt *j, int sfile, term **t, size_t *tcap) {
  const twill_graph *g = j->g;
  const twill_joint_params *p = j->p;
  int WG = j->WG, G = j->G;
  long step = p->reg_step;
  int vl = j->vlsel != 0;
  long q = (p->regs_per_sm - (long)G * 32L * WG * p->reg_lo) / (32L * WG * step);
  long rhs0 = (long)(vl ? G - 1 : G) * p->reg_lo + step * q;
  int y = new_bool(j, A_TOT, 0, 0, 0);
  cl_start(j);
  for (int gr = 0; gr < G; gr++) cl_lit(j, -j->regsel[gr]);
  cl_lit(j, -sfile);
  if (vl) cl_lit(j, -j->vlsel);
  cl_lit(j, y);
  cl_end(j);
  for (long k = 0; k < j->I && !j->err; k++) {
    size_t nt = 0;
    long rhs = rhs0, sum = 0;
    for (int v = 0; v < g->nops; v++) {
      const twill_op *o = &g->ops[v];
      int sp = span(j, v);
      if (o->regs <= 0 || sp < WG || o->varlat) continue;
      long c = o->regs * (sp / WG);
      if (floor_of(j, v)) {
        rhs -= c * floor_of(j, v);
        continue;
      }
      for (long tau = k; tau < j->H[v]; tau += j->I) {
        if (tpush(j, t, &nt, tcap, (term){c, -1, j->live[v][tau]})) return;
        sum += c;
      }
    }
    for (int e = 0; j->ph && e < p->cover_at[p->ncovers]; e++) {
      int v = p->cover_ops[e], sp = span(j, v);
      if (sp < WG || g->ops[v].varlat) continue;
      long c = g->ops[v].regs * (sp / WG);
      for (int w0 = 0; w0 < j->W; w0 += sp) {
        if (tpush(j, t, &nt, tcap, (term){c, -1, j->ph[ph_index(j, e, w0, k)]})) return;
        sum += c;
      }
    }
    if (sum > rhs) linear(j, y, *t, (int)nt, rhs);
  }
}

static void fam_registers(jt *j) {
  const twill_graph *g = j->g;
  const twill_joint_params *p = j->p;
  int W = j->W, WG = j->WG, G = j->G, any = 0;
  for (int v = 0; v < g->nops; v++) any |= g->ops[v].regs > 0;
  if (!any || j->err) return;
  long step = p->reg_step > 0 ? p->reg_step : 0;
  long base = step ? p->reg_lo : p->regs;
  for (int gr = 0; gr < G && step; gr++)
    j->qx[gr] = new_int(j, 1, gr, 0, (p->regs - p->reg_lo) / step);
  for (int v = 0; v < g->nops && !j->err; v++) {
    if (g->ops[v].regs <= 0 || floor_of(j, v)) continue;
    int sp = span(j, v);
    for (int w = 0; w < W && !j->err; w += sp) {
      int *zz = j->z[(size_t)v * W + w] = malloc((size_t)(j->H[v] + 1) * sizeof *zz);
      if (!zz) {
        jfail(j, "out of memory");
        return;
      }
      for (long tau = 0; tau < j->H[v]; tau++) {
        zz[tau] = new_bool(j, A_Z, v, w, tau);
        clause3(j, -on(j, v, w), -j->live[v][tau], zz[tau]);
      }
    }
  }
  fam_phantoms(j);
  term *t = NULL;
  size_t tcap = 0;
  for (int gr = 0; gr < G && !j->err; gr++) {
    int s = j->regsel[gr] = family(j, F_REGS, gr);
    for (int w = gr * WG; w < (gr + 1) * WG && !j->err; w++)
      for (long k = 0; k < j->I && !j->err; k++) {
        size_t nt = 0;
        long sum = 0;
        for (int v = 0; v < g->nops; v++) {
          if (g->ops[v].regs <= 0) continue;
          if (floor_of(j, v)) { /* k copies whenever v is on w */
            long a = g->ops[v].regs * floor_of(j, v);
            if (on(j, v, w) == -j->T) continue;
            if (tpush(j, &t, &nt, &tcap, (term){a, -1, on(j, v, w)})) return;
            sum += a;
            continue;
          }
          int w0 = w - w % span(j, v);
          for (long tau = k; tau < j->H[v]; tau += j->I) {
            if (tpush(j, &t, &nt, &tcap,
                      (term){g->ops[v].regs, -1, j->z[(size_t)v * W + w0][tau]}))
              return;
            sum += g->ops[v].regs;
          }
        }
        for (int e = 0; j->ph && e < p->cover_at[p->ncovers]; e++) {
          int v = p->cover_ops[e];
          if (tpush(j, &t, &nt, &tcap,
                    (term){g->ops[v].regs, -1, j->ph[ph_index(j, e, w - w % span(j, v), k)]}))
            return;
          sum += g->ops[v].regs;
        }
        if (step && tpush(j, &t, &nt, &tcap, (term){-step, j->qx[gr], 0})) return;
        if (step || sum > base) linear(j, s, t, (int)nt, base);
      }
  }
  if (step && !j->err) {
    int s = family(j, F_REGFILE, 0);
    term *f = malloc((size_t)(G + 1) * sizeof *f);
    if (!f) {
      free(t);
      jfail(j, "out of memory");
      return;
    }
    for (int gr = 0; gr < G; gr++) f[gr] = (term){32L * WG * step, j->qx[gr], 0};
    linear(j, s, f, G, p->regs_per_sm - (long)G * 32L * WG * p->reg_lo);
    free(f);
    if (p->reg_total) fam_register_total(j, s, &t, &tcap);
  }
  free(t);
}

static void fam_memory(jt *j, int which) {
  const twill_graph *g = j->g;
  long cap = which ? j->p->tmem_cap : j->p->smem_cap;
  int any = 0;
  for (int v = 0; v < g->nops; v++) any |= (which ? g->ops[v].tmem : g->ops[v].smem) > 0;
  if (!any || cap < 0 || j->err) return;
  int s = family(j, which ? F_TMEM : F_SMEM, 0);
  term *t = NULL;
  size_t tcap = 0;
  for (long k = 0; k < j->I && !j->err; k++) {
    size_t nt = 0;
    long sum = 0, fixed = 0; /* fixed: the floored ops' k * footprint */
    for (int v = 0; v < g->nops; v++) {
      long a = which ? g->ops[v].tmem : g->ops[v].smem;
      if (a > 0 && floor_of(j, v)) fixed += a * floor_of(j, v);
      if (a <= 0 || !j->live[v]) continue;
      for (long tau = k; tau < j->H[v]; tau += j->I) {
        if (nt + 1 > tcap) {
          tcap = tcap ? 2 * tcap : 256;
          term *nt2 = realloc(t, tcap * sizeof *t);
          if (!nt2) {
            free(t);
            jfail(j, "out of memory");
            return;
          }
          t = nt2;
        }
        t[nt++] = (term){a, -1, j->live[v][tau]};
        sum += a;
      }
    }
    if (sum + fixed <= cap) continue;
    if (fixed > cap) { /* the floors alone overflow: the family fails */
      cl_start(j);
      cl_lit(j, -s);
      cl_end(j);
    } else {
      linear(j, s, t, (int)nt, cap - fixed);
    }
  }
  free(t);
}

static int shared_lit(jt *j, int o, int v) {
  int *c = &j->sw[(size_t)o * (size_t)j->n + (size_t)v];
  if (!*c) {
    *c = new_bool(j, A_SW, o, v, 0);
    for (int w = 0; w < j->W; w++) clause3(j, -on(j, o, w), -on(j, v, w), *c);
  }
  return *c;
}

static int *running(jt *j, int o) {
  if (!j->run[o]) {
    j->run[o] = malloc((size_t)j->I * sizeof **j->run);
    if (!j->run[o]) {
      jfail(j, "out of memory");
      return NULL;
    }
    for (long k = 0; k < j->I; k++) j->run[o][k] = new_bool(j, A_RUN, o, 0, k);
    for (long a = 0; a <= j->ub[o]; a++)
      for (long c = 0; c < j->g->ops[o].lat; c++) {
        int e = -eqlit(j, o, a);
        clause2(j, e, j->run[o][(a + c) % j->I]);
      }
  }
  return j->run[o];
}

static void forbid_running(jt *j, int v, int s, int cond) {
  const twill_graph *g = j->g;
  for (int o = 0; o < g->nops && !j->err; o++) {
    if (o == v || g->ops[o].lat <= 0) continue;
    int sw = shared_lit(j, o, v);
    if (g->ops[o].lat >= j->I) { /* o runs at every slot */
      cl_start(j);
      cl_lit(j, -s);
      if (cond) cl_lit(j, -cond);
      cl_lit(j, -sw);
      cl_end(j);
      continue;
    }
    int *run = running(j, o);
    if (!run) return;
    for (long bt = 0; bt <= j->ub[v]; bt++) {
      cl_start(j);
      cl_lit(j, -s);
      if (cond) cl_lit(j, -cond);
      int e = -eqlit(j, v, bt); /* its definition is written before this clause */
      cl_lit(j, e);
      cl_lit(j, -sw);
      cl_lit(j, -run[bt % j->I]);
      cl_end(j);
    }
  }
}

static void fam_blocking(jt *j) {
  const twill_graph *g = j->g;
  for (int v = 0; v < g->nops && !j->err; v++) {
    int blk = 0;
    for (int i = 0; i < g->nedges; i++) blk |= g->edges[i].dst == v && g->edges[i].blocking;
    if (!blk) continue;
    int s = family(j, F_BLOCK, v);
    forbid_running(j, v, s, 0);
  }
  for (int e = 0; e < j->ncw && !j->err; e++)
    forbid_running(j, j->cw_dst[e], j->cw_sel[e], j->cw[e]);
}

/* ---- sub-tile order ------------------------------------------------------ */

/* Do ops a and b read the same to the model (the rule's sig)? */
static int sig_eq(const jt *j, int a, int b) {
  const twill_op *x = &j->g->ops[a], *y = &j->g->ops[b];
  int same = x->lat == y->lat && x->regs == y->regs && x->smem == y->smem &&
             x->tmem == y->tmem && x->spill == y->spill && x->issue == y->issue &&
             x->groups == y->groups && x->varlat == y->varlat && x->nuses == y->nuses &&
             floor_of(j, a) == floor_of(j, b) &&
             (!j->p->min_live || j->p->min_live[a] == j->p->min_live[b]);
  for (int k = 0; same && k < x->nuses; k++)
    same = !memcmp(&x->uses[k], &y->uses[k], sizeof x->uses[k]);
  return same;
}

/* e's image under the op map s: the edge of the same kind between the
 * images, of the same rank among such edges (multi-edges pair up in
 * order); -1 when there is none. */
static int edge_image(const twill_graph *g, const int *s, int e) {
  const twill_edge *a = &g->edges[e];
  int rank = 0;
  for (int i = 0; i < e; i++) {
    const twill_edge *b = &g->edges[i];
    rank += b->src == a->src && b->dst == a->dst && b->lat == a->lat && b->dist == a->dist &&
            b->blocking == a->blocking;
  }
  for (int i = 0; i < g->nedges; i++) {
    const twill_edge *b = &g->edges[i];
    if (b->src == s[a->src] && b->dst == s[a->dst] && b->lat == a->lat && b->dist == a->dist &&
        b->blocking == a->blocking && rank-- == 0)
      return i;
  }
  return -1;
}

/* Is the op involution s an automorphism of the kernel (sig and edges)? */
/* The cover whose ops are cover c's mapped one by one through s, in the
 * same order, or -1 (the checker's own search; covers are few). */
static int cover_image(const jt *j, const int *s, int c) {
  const twill_joint_params *p = j->p;
  int a = p->cover_at[c], len = p->cover_at[c + 1] - a;
  for (int d = 0; d < p->ncovers; d++) {
    int b = p->cover_at[d], same = p->cover_at[d + 1] - b == len;
    for (int i = 0; same && i < len; i++) same = p->cover_ops[b + i] == s[p->cover_ops[a + i]];
    if (same) return d;
  }
  return -1;
}

static int graph_auto(const jt *j, const int *s) {
  for (int v = 0; v < j->n; v++)
    if (!sig_eq(j, v, s[v])) return 0;
  for (int c = 0; c < j->p->ncovers; c++) /* covers onto covers */
    if (cover_image(j, s, c) < 0) return 0;
  for (int e = 0; e < j->g->nedges; e++) {
    int f = edge_image(j->g, s, e);
    if (f < 0 || edge_image(j->g, s, f) != e) return 0;
  }
  return 1;
}

static void fam_subtiles(jt *j) {
  const twill_graph *g = j->g;
  int n = j->n;
  if (n < 2 || j->p->nrels > 0) return;
  int *lab = malloc((size_t)n * sizeof *lab), *stack = malloc((size_t)n * sizeof *stack);
  int *shared = calloc((size_t)n, sizeof *shared), *s = malloc((size_t)n * sizeof *s);
  int *head = malloc((size_t)n * sizeof *head), *cls = malloc((size_t)n * sizeof *cls);
  int *cnt = calloc((size_t)n, sizeof *cnt);
  j->tsig = malloc((size_t)n * (size_t)n * sizeof *j->tsig);
  if (!lab || !stack || !shared || !s || !head || !cls || !cnt || !j->tsig) {
    jfail(j, "out of memory");
    goto out;
  }
  /* shared: two different neighbours (edges either way, no self edges)
   * with the same sig */
  for (int v = 0; v < n; v++)
    for (int e = 0; e < g->nedges && !shared[v]; e++) {
      const twill_edge *x = &g->edges[e];
      if (x->src == x->dst || (x->src != v && x->dst != v)) continue;
      int a = x->src == v ? x->dst : x->src;
      for (int f = 0; f < g->nedges && !shared[v]; f++) {
        const twill_edge *y = &g->edges[f];
        if (y->src == y->dst || (y->src != v && y->dst != v)) continue;
        int b = y->src == v ? y->dst : y->src;
        if (a != b && sig_eq(j, a, b)) shared[v] = 1;
      }
    }
  /* components of the other ops, labelled by discovery from the least op */
  int nc = 0;
  for (int v = 0; v < n; v++) lab[v] = -1;
  for (int v = 0; v < n; v++) {
    if (shared[v] || lab[v] >= 0) continue;
    head[nc] = v;
    int sp = 0;
    stack[sp++] = v;
    lab[v] = nc;
    while (sp) {
      int u = stack[--sp];
      for (int e = 0; e < g->nedges; e++) {
        const twill_edge *x = &g->edges[e];
        int w = x->src == u ? x->dst : x->dst == u ? x->src : -1;
        if (w < 0 || w == u || shared[w] || lab[w] >= 0) continue;
        lab[w] = nc;
        stack[sp++] = w;
      }
    }
    nc++;
  }
  for (int v = 0; v < n; v++)
    if (lab[v] >= 0) cnt[lab[v]]++;
  /* classes: join the first earlier class leader one is a twin of */
  for (int c = 0; c < nc && !j->err; c++) {
    cls[c] = c;
    for (int d = 0; d < c; d++) {
      if (cls[d] != d || cnt[d] != cnt[c]) continue;
      /* s: the i-th op of d (index order) <-> the i-th op of c */
      for (int v = 0; v < n; v++) s[v] = v;
      for (int a = 0, b = 0;; a++, b++) {
        while (a < n && lab[a] != d) a++;
        while (b < n && lab[b] != c) b++;
        if (a >= n || b >= n) break;
        s[a] = b, s[b] = a;
      }
      if (!(j->sb_all & 2) && !graph_auto(j, s)) continue;
      cls[c] = d;
      memcpy(j->tsig + (size_t)j->ntsig++ * (size_t)n, s, (size_t)n * sizeof *s);
      break;
    }
  }
  /* the order, class by class */
  j->cur_sb = 1;
  for (int d = 0; d < nc; d++) {
    if (cls[d] != d) continue;
    for (int c = d + 1, prev = d; c < nc; c++) {
      if (cls[c] != d) continue;
      term t[2] = {{1, head[prev], 0}, {-1, head[c], 0}};
      linear(j, 0, t, 2, 0);
      prev = c;
    }
  }
  j->cur_sb = 0;
out:
  free(lab), free(stack), free(shared), free(s), free(head), free(cls), free(cnt);
}

/* ---- the symmetry check ------------------------------------------------ */

/* Items in a canonical form (literals sorted; terms sorted) in one pool,
 * with an open-addressing set over them. */
typedef struct canon {
  int64_t *pool;
  size_t n, cap;
  size_t *start; /* per item: offset, and the next one's is its end */
  size_t nitems;
  size_t *tab;   /* item index + 1, 0 empty */
  size_t tcap;
} canon;

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* pairs (key, coef) sorted by key then coef */
static int cmp_pair(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

static int cpush(canon *c, int64_t v) {
  if (c->n == c->cap) {
    size_t nc = c->cap ? 2 * c->cap : 1 << 16;
    int64_t *p = realloc(c->pool, nc * sizeof *p);
    if (!p) return -1;
    c->pool = p;
    c->cap = nc;
  }
  c->pool[c->n++] = v;
  return 0;
}

/* The canonical form of item it with literals mapped by ml (NULL: as is)
 * and int vars by mx, appended to the pool; returns its start or -1. */
static long canon_item(const jt *j, canon *c, const item *it, const int *ml,
                       const int *mx) {
  size_t s = c->n;
#define ML(l) (ml ? ((l) < 0 ? -ml[-(l)] : ml[(l)]) : (l))
#define MX(x) (mx ? mx[(x)] : (x))
  if (cpush(c, it->kind) || cpush(c, it->n)) return -1;
  if (it->kind == 0) {
    if (cpush(c, 0) || cpush(c, 0)) return -1;
    for (int i = 0; i < it->n; i++)
      if (cpush(c, ML(j->lits[it->at + (size_t)i]))) return -1;
    qsort(c->pool + s + 4, (size_t)it->n, sizeof *c->pool, cmp_i64);
    return (long)s;
  }
  if (it->kind == 1) {
    if (cpush(c, it->reif ? ML(it->reif) : 0) || cpush(c, it->rhs)) return -1;
  } else {
    if (cpush(c, it->cap) || cpush(c, it->period)) return -1;
  }
  for (int i = 0; i < it->n; i++) {
    const term *t = &j->terms[it->at + (size_t)i];
    /* key: int vars as 2x, literals as 2*lit+1 (signed) */
    int64_t key = t->x >= 0 ? 2 * (int64_t)MX(t->x) : 2 * (int64_t)ML(t->lit) + 1;
    if (cpush(c, key) || cpush(c, t->a)) return -1;
  }
  qsort(c->pool + s + 4, (size_t)it->n, 2 * sizeof *c->pool, cmp_pair);
#undef ML
#undef MX
  return (long)s;
}

static uint64_t hash_span(const int64_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint64_t)p[i]) * 1099511628211ull;
  return h;
}

static size_t item_len(const int64_t *p) {
  /* kind, n, two fields, then n literals (clause) or n pairs */
  return 4 + (size_t)p[1] * (p[0] == 0 ? 1 : 2);
}

static int canon_has(const canon *c, const int64_t *q) {
  size_t len = item_len(q);
  uint64_t h = hash_span(q, len) & (c->tcap - 1);
  while (c->tab[h]) {
    const int64_t *p = c->pool + c->start[c->tab[h] - 1];
    if (item_len(p) == len && !memcmp(p, q, len * sizeof *p)) return 1;
    h = (h + 1) & (c->tcap - 1);
  }
  return 0;
}

/* The image under perm of the block of span sp at warp w0, clipped to the
 * machine (an op wider than the warps left keeps a grid for the warps it
 * would cover): the first warp of the block of the same span it maps
 * onto, or -1 when it maps onto no such block. */
static int block_image(const jt *j, const int *perm, int w0, int sp) {
  int W = j->W, m = W;
  int e0 = w0 + sp < W ? w0 + sp : W;
  for (int w = w0; w < e0; w++) m = perm[w] < m ? perm[w] : m;
  int e1 = m + sp < W ? m + sp : W;
  if (m % sp || e1 - m != e0 - w0) return -1;
  for (int w = w0; w < e0; w++)
    if (perm[w] < m || perm[w] >= e1) return -1;
  return m;
}

/* The image of every SAT variable and int var under the warp permutation
 * perm; 0 when a block or group is not mapped onto a block or group of the
 * same kind (then perm is no symmetry of the list at all). */
static int images(const jt *j, const int *perm, int *ml, int *mx) {
  int W = j->W, WG = j->WG;
  int *gimg = malloc((size_t)j->G * sizeof *gimg);
  if (!gimg) return 0;
  int ok = 1;
  for (int gr = 0; gr < j->G && ok; gr++) {
    int m = W;
    for (int w = gr * WG; w < (gr + 1) * WG; w++) m = perm[w] < m ? perm[w] : m;
    if (m % WG) ok = 0;
    for (int w = gr * WG; w < (gr + 1) * WG && ok; w++)
      if (perm[w] < m || perm[w] >= m + WG) ok = 0;
    gimg[gr] = m / WG;
  }
  for (int x = 0; x < j->nint && ok; x++)
    mx[x] = j->xkind[x] == 1 ? j->qx[gimg[j->xarg[x]]] : x;
  ml[0] = 0;
  for (int s = 1; s <= j->nsat && ok; s++) {
    const atom *a = &j->sat[s];
    ml[s] = s;
    if (a->kind == A_ON || a->kind == A_Z) {
      int v = a->a, sp = span(j, v);
      int m = block_image(j, perm, a->kind == A_ON ? a->b * sp : a->b, sp);
      if (m < 0) ok = 0;
      if (!ok) break;
      ml[s] = a->kind == A_ON ? on(j, v, m) : j->z[(size_t)v * W + m][a->c];
    } else if (a->kind == A_PH) { /* the same, for the op of cover entry a */
      int m = block_image(j, perm, a->b, span(j, j->p->cover_ops[a->a]));
      if (m < 0) ok = 0;
      if (!ok) break;
      ml[s] = j->ph[ph_index(j, a->a, m, a->c)];
    } else if (a->kind == A_PW) {
      ml[s] = j->pw[a->a * W + perm[a->b]];
    } else if (a->kind == A_SEL && a->a == F_REGS) {
      ml[s] = j->regsel[gimg[a->b]];
    }
  }
  free(gimg);
  return ok;
}

/* Does the transposition of warps (or, when group, groups) a and b map the
 * list without its symmetry clauses onto itself? */
static int is_automorphism(const jt *j, canon *c, int a, int b, int group) {
  int W = j->W;
  int *perm = malloc((size_t)W * sizeof *perm);
  int *ml = malloc(((size_t)j->nsat + 1) * sizeof *ml);
  int *mx = malloc(((size_t)j->nint + 1) * sizeof *mx);
  int ok = perm && ml && mx;
  for (int w = 0; w < W && ok; w++) perm[w] = w;
  if (ok && group) {
    for (int r = 0; r < j->WG; r++) {
      perm[a * j->WG + r] = b * j->WG + r;
      perm[b * j->WG + r] = a * j->WG + r;
    }
  } else if (ok) {
    perm[a] = b;
    perm[b] = a;
  }
  ok = ok && images(j, perm, ml, mx);
  /* domains of the int vars it moves */
  for (int x = 0; x < j->nint && ok; x++)
    ok = j->xlo[mx[x]] == j->xlo[x] && j->xhi[mx[x]] == j->xhi[x];
  size_t mark = c->n;
  for (size_t i = 0; i < j->nit && ok; i++) {
    if (j->it[i].sb) continue;
    long s = canon_item(j, c, &j->it[i], ml, mx);
    ok = s >= 0 && canon_has(c, c->pool + s);
    c->n = mark;
  }
  free(perm);
  free(ml);
  free(mx);
  return ok;
}

/* The key of an atom under the op involution s (edges through
 * edge_image): its image's (kind, a, b, c); -1 in kind when it has none. */
static atom atom_image(const jt *j, const int *s, const atom *a) {
  atom r = *a;
  switch (a->kind) {
  case A_ON: case A_LIVE: case A_Z: case A_RUN: case A_EQ: case A_ORD:
    r.a = s[a->a];
    break;
  case A_SW:
    r.a = s[a->a], r.b = s[a->b];
    break;
  case A_PW: case A_CW:
    r.a = edge_image(j->g, s, a->a);
    break;
  case A_SEL:
    if (a->a == F_CROSS) r.b = edge_image(j->g, s, a->b);
    else if (a->a == F_BLOCK) r.b = s[a->b];
    else if (a->a == F_REL) r.kind = -1; /* never with relations */
    break;
  case A_PH: { /* entry e = position i of cover c -> position i of c's image */
    const twill_joint_params *p = j->p;
    int c = 0;
    while (c + 1 < p->ncovers && p->cover_at[c + 1] <= a->a) c++;
    int d = cover_image(j, s, c);
    r.a = d < 0 ? -1 : p->cover_at[d] + (a->a - p->cover_at[c]);
    break;
  }
  default:
    break;
  }
  if (r.a < 0 || r.b < 0) r.kind = -1;
  return r;
}

/* an atom's key and its variable, for the sorted lookup */
typedef struct akey {
  long k[4];
  int var;
} akey;

static int cmp_akey(const void *p, const void *q) {
  const akey *a = p, *b = q;
  for (int i = 0; i < 4; i++)
    if (a->k[i] != b->k[i]) return a->k[i] < b->k[i] ? -1 : 1;
  return 0;
}

/* Does the op transposition s map the list without its symmetry-breaking
 * items onto itself?  Every SAT variable goes to the variable of its
 * image atom (found in the atoms sorted by key), every time variable x_v
 * to x_s(v); the q(g) do not move. */
static int is_op_automorphism(jt *j, canon *c, const int *s) {
  int ns = j->nsat;
  int *ml = malloc(((size_t)ns + 1) * sizeof *ml);
  int *mx = malloc(((size_t)j->nint + 1) * sizeof *mx);
  akey *idx = malloc(((size_t)ns + 1) * sizeof *idx);
  int ok = ml && mx && idx;
  for (int i = 0; ok && i < ns; i++) {
    const atom *a = &j->sat[i + 1];
    idx[i] = (akey){{a->kind, a->a, a->b, a->c}, i + 1};
  }
  if (ok) qsort(idx, (size_t)ns, sizeof *idx, cmp_akey);
  ml[0] = 0;
  for (int v = 1; ok && v <= ns; v++) {
    atom im = atom_image(j, s, &j->sat[v]);
    akey want = {{im.kind, im.a, im.b, im.c}, 0};
    akey *hit = im.kind < 0 ? NULL : bsearch(&want, idx, (size_t)ns, sizeof *idx, cmp_akey);
    if (!hit) ok = 0;
    ml[v] = hit ? hit->var : 0;
  }
  for (int x = 0; ok && x < j->nint; x++) {
    mx[x] = j->xkind[x] == 0 ? s[j->xarg[x]] : x;
    ok = j->xlo[mx[x]] == j->xlo[x] && j->xhi[mx[x]] == j->xhi[x];
  }
  size_t mark = c->n;
  for (size_t i = 0; i < j->nit && ok; i++) {
    if (j->it[i].sb) continue;
    long st = canon_item(j, c, &j->it[i], ml, mx);
    ok = st >= 0 && canon_has(c, c->pool + st);
    c->n = mark;
  }
  free(ml), free(mx), free(idx);
  return ok;
}

static int check_symmetry(jt *j) {
  const twill_graph *g = j->g;
  int vl = any_varlat(g) && !(j->sb_all & 1), need = 0;
  for (size_t i = 0; i < j->nit; i++) need |= j->it[i].sb;
  if (!need) return 0;
  canon c;
  memset(&c, 0, sizeof c);
  size_t nb = 0;
  for (size_t i = 0; i < j->nit; i++) nb += !j->it[i].sb;
  c.start = malloc((nb + 1) * sizeof *c.start);
  c.tcap = 16;
  while (c.tcap < 2 * nb + 2) c.tcap *= 2;
  c.tab = calloc(c.tcap, sizeof *c.tab);
  int bad = !c.start || !c.tab;
  for (size_t i = 0; i < j->nit && !bad; i++) {
    if (j->it[i].sb) continue;
    long s = canon_item(j, &c, &j->it[i], NULL, NULL);
    if (s < 0) {
      bad = 1;
      break;
    }
    c.start[c.nitems] = (size_t)s;
    const int64_t *p = c.pool + s;
    uint64_t h = hash_span(p, item_len(p)) & (c.tcap - 1);
    while (c.tab[h]) h = (h + 1) & (c.tcap - 1);
    c.tab[h] = ++c.nitems;
  }
  if (bad) jfail(j, "out of memory");
  /* groups: neighbours among the interchangeable ones */
  for (int gr = (vl ? 1 : 0) + 1; gr < j->G && !multi_group(j) && !j->err; gr++)
    if (!is_automorphism(j, &c, gr - 1, gr, 1))
      jfail(j, "symmetry breaking not justified: swapping warpgroups %d and %d "
               "does not map the model onto itself", gr - 1, gr);
  for (int gr = 0; gr < j->G && !j->err; gr++)
    for (int r = (gr == 0 && vl ? 1 : 0) + 1; r < j->WG && !j->err; r++) {
      int w = gr * j->WG + r;
      if (!is_automorphism(j, &c, w - 1, w, 0))
        jfail(j, "symmetry breaking not justified: swapping warps %d and %d "
                 "does not map the model onto itself", w - 1, w);
    }
  for (int t = 0; t < j->ntsig && !j->err; t++) {
    const int *s = j->tsig + (size_t)t * (size_t)j->n;
    int a = 0;
    while (a < j->n && s[a] == a) a++;
    if (!is_op_automorphism(j, &c, s))
      jfail(j, "symmetry breaking not justified: swapping the sub-tiles of ops '%s' and "
               "'%s' does not map the model onto itself",
            a < j->n ? j->g->ops[a].name : "?", a < j->n ? j->g->ops[s[a]].name : "?");
  }
  free(c.pool);
  free(c.start);
  free(c.tab);
  return j->err ? -1 : 0;
}

/* ---- driver ------------------------------------------------------------ */

static void jt_free(jt *j) {
  for (int v = 0; v < j->n; v++) {
    if (j->ord) free(j->ord[v]);
    if (j->eq) free(j->eq[v]);
    if (j->live) free(j->live[v]);
    if (j->run) free(j->run[v]);
  }
  if (j->z)
    for (size_t k = 0; k < (size_t)j->n * (size_t)j->W; k++) free(j->z[k]);
  free(j->ord), free(j->eq), free(j->live), free(j->run), free(j->z);
  free(j->sat), free(j->xkind), free(j->xarg), free(j->xlo), free(j->xhi);
  free(j->ub), free(j->on), free(j->H), free(j->sw), free(j->cw);
  free(j->cw_dst), free(j->cw_sel), free(j->cw_edge), free(j->qx), free(j->regsel);
  free(j->pw), free(j->it), free(j->lits), free(j->terms), free(j->cl);
  free(j->tsig), free(j->ph);
}

char *twill_check_joint_text(const twill_graph *g, const twill_joint_params *p,
                             long ii, long L, size_t *len, char *why,
                             size_t whylen) {
  return twill_check_joint_text_sb(g, p, ii, L, 0, len, why, whylen);
}

char *twill_check_joint_text_sb(const twill_graph *g, const twill_joint_params *p, long ii,
                                long L, int sb_all, size_t *len, char *why, size_t whylen) {
  jt j;
  memset(&j, 0, sizeof j);
  j.sb_all = sb_all;
  j.why = why;
  j.whylen = whylen;
  if (why && whylen) why[0] = 0;
  if (ii < 1 || p->warps < 1 || p->warpgroup < 1 || p->warps % p->warpgroup ||
      (p->reg_step > 0 && p->regs < p->reg_lo) || p->nrels < 0 ||
      p->nrels > TWILL_JOINT_MAX_RELS || (p->nrels > 0 && !p->rels)) {
    jfail(&j, "parameters out of range");
    return NULL;
  }
  for (int k = 0; k < p->nrels; k++)
    for (int i = 0; i < p->rels[k].nops; i++)
      if (p->rels[k].ops[i] < 0 || p->rels[k].ops[i] >= g->nops) {
        jfail(&j, "a relation names op %d of %d", p->rels[k].ops[i], g->nops);
        return NULL;
      }
  for (int v = 0; v < g->nops; v++)
    if (L < lat1(&g->ops[v])) {
      jfail(&j, "L %ld is shorter than op '%s'", L, g->ops[v].name);
      return NULL;
    }
  if (bad_covers(g, p, &j)) return NULL;
  j.g = g;
  j.p = p;
  j.I = ii;
  j.L = L;
  j.W = p->warps;
  j.WG = p->warpgroup;
  j.G = p->warps / p->warpgroup;
  j.n = g->nops;
  size_t n = g->nops > 0 ? (size_t)g->nops : 1, ne = g->nedges > 0 ? (size_t)g->nedges : 1;
  j.ub = calloc(n, sizeof *j.ub);
  j.ord = calloc(n, sizeof *j.ord);
  j.eq = calloc(n, sizeof *j.eq);
  j.on = calloc(n * (size_t)j.W, sizeof *j.on);
  j.live = calloc(n, sizeof *j.live);
  j.H = calloc(n, sizeof *j.H);
  j.run = calloc(n, sizeof *j.run);
  j.sw = calloc(n * n, sizeof *j.sw);
  j.z = calloc(n * (size_t)j.W, sizeof *j.z);
  j.cw = calloc(ne, sizeof *j.cw);
  j.cw_dst = calloc(ne, sizeof *j.cw_dst);
  j.cw_sel = calloc(ne, sizeof *j.cw_sel);
  j.cw_edge = calloc(ne, sizeof *j.cw_edge);
  j.pw = calloc(ne * (size_t)j.W, sizeof *j.pw);
  j.qx = calloc((size_t)j.G, sizeof *j.qx);
  j.regsel = calloc((size_t)j.G, sizeof *j.regsel);
  if (!j.ub || !j.ord || !j.eq || !j.on || !j.live || !j.H || !j.run || !j.sw ||
      !j.z || !j.cw || !j.cw_dst || !j.cw_sel || !j.cw_edge || !j.pw || !j.qx ||
      !j.regsel)
    jfail(&j, "out of memory");
  for (int v = 0; v < g->nops && !j.err; v++) {
    j.ub[v] = L - lat1(&g->ops[v]);
    j.ord[v] = calloc((size_t)j.ub[v] + 1, sizeof **j.ord);
    j.eq[v] = calloc((size_t)j.ub[v] + 1, sizeof **j.eq);
    if (!j.ord[v] || !j.eq[v]) jfail(&j, "out of memory");
  }
  if (!j.err) check_floors(&j);
  if (!j.err) fam_times(&j);
  if (!j.err) fam_capacity(&j);
  if (!j.err) fam_warps(&j);
  if (!j.err && p->symmetry) fam_symmetry(&j);
  if (!j.err && p->symmetry && p->subtile_symmetry) fam_subtiles(&j);
  if (!j.err) fam_relations(&j);
  if (!j.err) fam_cross(&j);
  if (!j.err) fam_liveness(&j);
  if (!j.err) fam_registers(&j);
  if (!j.err) fam_memory(&j, 0);
  if (!j.err) fam_memory(&j, 1);
  if (!j.err) fam_blocking(&j);
  for (int f = 0; f < j.nfam && !j.err; f++) raw_clause(&j, &j.famsel[f], 1);
  if (!j.err && p->symmetry) check_symmetry(&j);
  /* the header names T, known only now (1 unless nothing was written) */
  char head[64];
  int hl = snprintf(head, sizeof head, "p twill-smt 2\nT %d\n", j.T);
  char *txt = j.err ? NULL : malloc(j.len + (size_t)hl + 1);
  if (txt) {
    memcpy(txt, head, (size_t)hl);
    if (j.len) memcpy(txt + hl, j.txt, j.len);
    txt[(size_t)hl + j.len] = 0;
    *len = j.len + (size_t)hl;
  } else if (!j.err) {
    jfail(&j, "out of memory");
  }
  free(j.txt);
  jt_free(&j);
  return txt;
}
