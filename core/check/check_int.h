/* core/check/check_int.h: what the files of the certificate checker share
 * (private to core/check/).  Nothing here reaches a solver: the checker is
 * this folder, sat/smt_check.c, ilp/check/vipr_check.c + vipr_num.c, the graph
 * and machine readers, and the validators of core/schedule/schedule.c and
 * core/joint/joint_model.c. */
#ifndef TWILL_CHECK_INT_H
#define TWILL_CHECK_INT_H

#include <stdint.h>

#include "twill/check.h"
#include "twill/smt.h"
#include "twill/vipr.h"

/* ---- the reader (cert_read.c) ------------------------------------------ */

#define CR_MAX_TOK 16

typedef struct cert_rd {
  const char *p, *end;
  int line;          /* the current line's number in the certificate */
  char *msg;
  size_t msglen;
  int ntok;          /* the current line's tokens */
  const char *tok[CR_MAX_TOK];
  size_t toklen[CR_MAX_TOK];
} cert_rd;

/* A reader over text[0..len) whose first line is number line + 1. */
void twill_cr_init(cert_rd *r, const char *text, size_t len, int line, char *msg,
                   size_t msglen);
/* "certificate:LINE: ..." into msg; returns -1. */
int twill_cr_fail(cert_rd *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Next line into tokens: 0, or -1 (end of input, grammar). */
int twill_cr_line(cert_rd *r);
int twill_cr_at_end(const cert_rd *r);
/* Is token i exactly word? */
int twill_cr_is(const cert_rd *r, int i, const char *word);
/* The line is "key ..." with ntok tokens (ntok < 0: any number). */
int twill_cr_key(cert_rd *r, const char *key, int ntok);
/* Canonical integer text: 0, -1 malformed, -2 magnitude >= 2^62. */
int twill_cr_parse_int(const char *s, size_t n, int64_t *out);
int twill_cr_int(cert_rd *r, int i, int64_t lo, int64_t hi, int64_t *out, const char *what);
int twill_cr_long(cert_rd *r, int i, long lo, long hi, long *out, const char *what);
int twill_cr_word(cert_rd *r, int i, const char *want, const char *what);
/* Token i is a byte count; the block follows.  sub (may be NULL) gets a
 * reader over it whose lines keep their certificate numbers. */
int twill_cr_block(cert_rd *r, int i, const char **blk, size_t *n, cert_rd *sub);
/* The line "end" and nothing after it. */
int twill_cr_end(cert_rd *r);

/* ---- a program the checker states itself (check_prog.c) -----------------
 * Integer data only: what the phase-1 and normalization programs are.  A
 * VIPR certificate's problem is accepted when it speaks about this program
 * and is no stronger: the same variables, integrality declared only where
 * the program has it, the same objective, and each constraint implied by
 * one of the program's (a bound no tighter than a variable's, or a row with
 * the same coefficients and a right-hand side no tighter).  Then whatever
 * the proof derives holds for the program too. */
typedef struct cprog {
  int n;
  unsigned char *is_int;
  int64_t *lo, *hi;
  unsigned char *has_lo, *has_hi;
  int64_t *obj;            /* dense objective (minimize) */
  int nrows, caprows;
  size_t *rstart;          /* row r's terms: [rstart[r], rstart[r+1]) */
  int *rvar;
  int64_t *rcoef;
  size_t nterms, capterms;
  int64_t *rlo, *rhi;
  unsigned char *rhas_lo, *rhas_hi;
  int *head, *next;        /* hash of rows by their terms */
  int nb;
  int oom;
} cprog;

int twill_cprog_init(cprog *p, int nvars);
void twill_cprog_free(cprog *p);
void twill_cprog_var(cprog *p, int j, int is_int, int has_lo, int64_t lo, int has_hi,
                     int64_t hi, int64_t obj);
/* A row lo <= sum coef*var <= hi (has_lo / has_hi say which side exists);
 * duplicate variables are summed, zero coefficients dropped. */
void twill_cprog_row(cprog *p, int n, const int *var, const int64_t *coef, int has_lo,
                     int64_t lo, int has_hi, int64_t hi);
/* Index the rows (after the last twill_cprog_row); 0 or -1 out of memory. */
int twill_cprog_index(cprog *p);
/* Is the VIPR problem pb about p and no stronger?  0, or -1 with why. */
int twill_cprog_judge(const cprog *p, const twill_vipr_problem *pb, char *why,
                      size_t whylen);

/* ---- normalization (check_norm.c) --------------------------------------- */

/* The normalization of a kernel as the certificate states it and the
 * checker verified it. */
typedef struct cnorm {
  long budget;     /* U; 0: costs as given */
  int n;           /* distinct positive costs */
  long *cost, *scaled;
  long F, sum;
} cnorm;

/* Read the normalization section (after the "machine" line) for the costs
 * of g (cross_warp >= 0: the machine's cost written into the spill of the
 * ops that pay it, as the solver does first; < 0: the graph as it is) with
 * budget U (0: none), verify it, and return the normalized graph in *out
 * (a copy even without normalization) and the cross-warp cost in its units
 * in *x_norm.  0, or -1 with the reason. */
int twill_cnorm_read(cert_rd *r, const twill_graph *g, long cross_warp, long U, cnorm *nm,
                     twill_graph **out, long *x_norm);
void twill_cnorm_clear(cnorm *nm);
/* "budget 300: 1 -> 1, 512 -> 40 (F 12)" or "costs as given" */
void twill_cnorm_describe(const cnorm *nm, char *buf, size_t n);

/* ---- phase 1 (check_phase1.c) ------------------------------------------- */

/* The phase-1 program at I (twill.md 2.2 in the slot-and-stage form; the
 * argument for its bounds is in check_phase1.c), with L <= lcap when lcap
 * > 0.  0, or -1 when I is below the recurrence bound or memory fails. */
int twill_phase1_program(const twill_graph *g, long ii, long lcap, cprog *p);
/* Lower bounds on I that the checker proves itself: MII = max(ResMII,
 * RecMII, 1), each I below it excluded by a unit's busy cycles or by a
 * positive cycle at that I. */
typedef struct cbounds {
  long res_mii, rec_mii, mii;
} cbounds;
int twill_phase1_bounds(const twill_graph *g, cbounds *b);
/* Is the modulo schedule t valid at I (every edge, modulo capacities,
 * t >= 0)?  Its length in *len.  0, or -1 with why. */
int twill_phase1_valid(const twill_graph *g, long ii, const long *t, long *len,
                       char *why, size_t whylen);

/* The reduced problem at I (check_reduce.c, which says what a proof
 * about it proves about the kernel): the kept ops (those on a unit that
 * can be over-subscribed at I; every op when on = 0), and over their start
 * times t[dy] - t[dx] >= dw per dep, t >= lo, L - t >= tail, L >= lfloor
 * (the critical path at I over every op), L <= horizon, t <= lo + win. */
typedef struct cred {
  long ii, horizon, lfloor;
  int n;            /* kept ops */
  int *op;          /* op[i]: the kernel's index of kept op i (increasing) */
  long *lo, *tail, *win;
  int ndeps;
  int *dx, *dy;     /* kept indices, sorted by (dx, dy), one per pair */
  long *dw;
  int nunits;
  int *unit;        /* the units kept (increasing) */
} cred;
int twill_cred_derive(const twill_graph *g, long ii, int on, cred *r);
void twill_cred_clear(cred *r);

/* A twill-smt refutation of the reduced problem r with L <= lmax
 * (check_phase1_smt.c): rotate = 1 with lmax = r->horizon for "no
 * schedule at I", rotate = 0 with lmax = L - 1 for "none shorter than L";
 * form: the certificate's form (CP1_FORM_SLOTS: slot variables,
 * CP1_FORM_TIMES: with them, the units' rows over the times as well).  0,
 * or -1 with why (twill_cr_fail). */
/* The form line of a phase-1 certificate: how its twill-smt refutations
 * state the problem at I (core/modulo/modulo_cert.c writes it). */
#define CP1_FORM_REDUCE 1 /* only the ops on units that can be over-subscribed */
#define CP1_FORM_SLOTS 2  /* the units' rows over slot variables */
#define CP1_FORM_TIMES 4  /* with slots: the rows over the start times too */
#define CP1_FORM_RELATIVE 8 /* the relative row where it refutes an I at once
                               (check_phase1_smt.c) */

int twill_phase1_smt_check(cert_rd *rd, const twill_graph *g, const cred *r, long lmax,
                           int rotate, int form, const char *blk, size_t n);

/* A phase-1 body (ii, length, heuristic, form, [length-proof none], time
 * lines, proof blocks, end) read from r and verified against g, already in
 * the certificate's units.  On success *claim holds what it proved and the
 * schedule's start times are copied into times (g->nops entries) when not
 * NULL. */
#define CP1_BY_VIPR 1 /* how L* was proven: a VIPR proof, */
#define CP1_BY_SMT 2  /* a twill-smt refutation of L <= L* - 1, */
#define CP1_BY_PATH 3 /* or L* is the critical path at I* */
typedef struct cphase1 {
  long ii, length;
  int length_proven;
  int length_by;   /* CP1_BY_* when length_proven */
  int nvipr, nsmt; /* the proofs of the I in [MII, I*) */
  int form;        /* CP1_FORM_* */
  cbounds b;
} cphase1;
int twill_phase1_read(cert_rd *r, const twill_graph *g, cphase1 *claim, long *times);

/* ---- the joint model (check_joint.c, check_never.c) ---------------------- */

/* The single-iteration relaxation of "no I at all", derived from the
 * kernel alone (the argument is in check_never.c): G' into *gn, (I', L'),
 * and the floors of live copies into k (g->nops entries). */
int twill_never_derive(const twill_graph *g, const twill_joint_params *p,
                       twill_graph **gn, long *ii, long *L, int *k);
/* The covers of g given its floors k (check_never.c states the rule):
 * *ops and *at allocated, laid out as twill_joint_params.cover_ops and
 * cover_at; 0, or -1 out of memory or a kernel too large. */
int twill_never_derive_covers(const twill_graph *g, const int *k, int **ops, int **at,
                              int *n);
/* The packing rule "never-pack X" (check_never.c): 0 when no assignment of
 * the registers live at x's slot to the warpgroups fits their budgets (so
 * no I has a schedule), else -1 with why. */
int twill_never_check_pack(const twill_graph *g, const twill_joint_params *p, const int *k,
                           const int *cov, const int *cov_at, int ncov, int x, char *why,
                           size_t whylen);

/* ---- the certificates (cert_check.c, cert_solve.c) --------------------- */

/* "twill-certificate 2 KIND", "kernel", "machine": 0, or -1 with why. */
int twill_check_header(cert_rd *r, const twill_check_subject *s, const char *kind);
int twill_check_solve(const twill_check_subject *s, const char *cert, size_t len,
                      twill_check_claim *claim, char *msg, size_t msglen);

/* ---- the launch coupling (check_launch.c) ----------------------------- */

/* R(W) from the register file base->regs_per_sm and m's per-thread limit. */
long twill_check_launch_regs(const twill_arch *m, const twill_joint_params *base, int W);
/* The joint parameters at W from base (the machine's, with the check's
 * flags); 0, or -1 with why when W cannot run. */
int twill_check_launch_params(const twill_arch *m, const twill_joint_params *base, int W,
                              twill_joint_params *out, char *why, size_t whylen);
/* The runnable W up to wmax, ascending (at most cap); how many. */
int twill_check_launch_set(const twill_arch *m, const twill_joint_params *base, int wmax,
                           int *ws, int cap);

#endif
