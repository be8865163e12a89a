/* ilp/model.h: the twill_ilp structure and what the parts of ilp/ share of
 * it: the model (model.c, mps.c), its options (options.h), the search
 * (mip/), the cuts (cuts/) and the certificate (cert/) (private to ilp/). */
#ifndef TWILL_ILP_MODEL_H
#define TWILL_ILP_MODEL_H

#include <stdatomic.h>

#include "options.h"
#include "twill/ilp.h"

/* A bound tightened at a node, x_var <= val (up) or x_var >= val.  By
 * domain propagation on one row (row >= 0): the row (side 0: its <= side,
 * 1: its >= side) with every other variable at the bound that makes the
 * row's activity extreme implies it, rounded for an integer variable; in
 * the certificate it is a `rnd` of the row and those bounds.  By
 * reduced-cost fixing (row -1, after the node's propagated bounds): from
 * the node's LP multipliers and the incumbent's cutoff (mip/rcfix.c,
 * cert/derive.c). */
typedef struct bb_prop {
  int var, row;
  signed char up, side;
  double val;
} bb_prop;

/* Branch-and-bound tree node, kept for the certificate.  The node's region
 * is its parent's with x_var <= val (dir 0) or x_var >= val (dir 1); the
 * root has var -1.  A leaf is closed by the multipliers y (m rows, minimize
 * form) of the LP solved at node `proof` (itself or an ancestor, whose bounds
 * hold here too): Farkas multipliers when farkas, dual ones otherwise. */
typedef struct bb_rec {
  int parent;
  int var, dir;
  double val;
  int child[2]; /* -1 when absent */
  int proof;    /* -1: inner node or not closed */
  int farkas;   /* y proves infeasibility of node proof's LP */
  double *y;    /* multipliers of this node's LP (NULL if not kept) */
  int nprop;    /* bounds propagated at this node (certify only), in order */
  bb_prop *prop;
  int crow, cside; /* crow >= 0: closed because row crow (side cside) cannot
                      be met within the node's bounds after propagation */
} bb_rec;

/* A root cut of any kind (cuts/cuts.h), the last ncut rows of the model
 * during and after a solve: c'x >= d (row `row`).  Its certificate is a
 * split on the integer form  pi'x <= p0  or  pi'x >= p0 + 1:  on side k
 * the cut is lam[k] times the side (as >= : -pi'x >= -p0, pi'x >= p0+1)
 * plus the rows midx[k] times mval[k] (> 0: the row's >= side, < 0: its
 * <= side) plus bounds of single variables, whose multipliers the writer
 * computes exactly as the remainder. */
typedef struct ilp_cut {
  int row, nz0; /* its row, and the model's nonzero count before it */
  double lam[2];
  int npi;
  int *pidx;
  double *pval, p0;
  int nmu[2];
  int *midx[2];
  double *mval[2];
} ilp_cut;

struct twill_ilp {
  char *name;
  int n, ncap;
  char **vname;
  signed char *vtype;
  double *vlb, *vub, *obj;
  int m, mcap;
  char **rname;
  double *rlo, *rhi;
  int nz, nzcap;
  int *zr, *zc;
  double *zv;
  double c0;
  int maximize;
  ilp_options opt; /* options.h */
  twill_ilp_log_fn log; /* log.h */
  void *log_ctx;
  const atomic_int *cancel; /* twill_ilp_set_cancel, or NULL */
  int submip;      /* a heuristic's sub-MIP (mip/submip.c): no sub-MIPs of its own */
  double *start;  /* a known solution to start from (MIP start), or NULL */
  /* results */
  twill_ilp_status status;
  int has_sol;
  double *sol;
  double objval;
  twill_ilp_stats stats;
  int nhist, hcap;
  double *hobj;
  long *hnode;
  /* certificate data */
  int nrec, reccap;
  bb_rec *rec;
  int complete; /* tree closed: every leaf has a proof */
  /* certify: the root LP's optimal basis (n + m statuses as
   * twill_lps_get_basis, model rows; a row left out of the LP is basic), for
   * the writer's exact duals and SOL point (exact_basis.h); or NULL */
  signed char *root_basis;
  int ncut, cutcap; /* root cuts: rows m - ncut .. m - 1 */
  ilp_cut *cut;
  int nz_before_cuts;
  /* a cut round's LP needed the perturbed retry (cuts/cuts.c): every later
   * LP of the solve perturbs after its first dual iteration */
  int lp_degenerate;
};

/* Column-compressed copy of the constraint matrix (duplicates summed). */
int twill_ilp_build_csc(const twill_ilp *m, int **cbeg, int **cidx, double **cval);
/* The rows of a column-compressed matrix (n columns, mr rows): rbeg
 * (mr + 2 entries, zeroed by the caller; rows start at rbeg[i], end at
 * rbeg[i + 1]), rcol and rval (cbeg[n] entries each), columns ascending
 * within each row. */
void twill_ilp_csc_transpose(int n, int mr, const int *cbeg, const int *cidx, const double *cval,
                       int *rbeg, int *rcol, double *rval);
/* The shortest %.Ng (N = 1..17) that reads back to x: how a certificate
 * prints every number of the model (cert/dec.c, exact/exact_point.c). */
void twill_ilp_shortest(char *buf, size_t n, double x);
void twill_ilp_clear_results(twill_ilp *m);
/* Append row lo <= a'x <= hi (no checks; the cuts). Returns its index or -1. */
int twill_ilp_add_row_raw(twill_ilp *m, const char *name, int nnz, const int *idx,
                    const double *val, double lo, double hi);
/* Remove the cut rows (and their derivations) from the model: all of them,
 * or those from cut k on. */
void twill_ilp_drop_cuts(twill_ilp *m);
void twill_ilp_drop_cuts_from(twill_ilp *m, int k);
/* Root cutting rounds (cuts/cuts.c): appends cut rows to m; *basis (n + m
 * entries after the cuts, malloc'd) is the last LP basis, or NULL.
 * Returns 0, or -1 when out of memory. */
int twill_ilp_root_cuts(twill_ilp *m, double deadline, signed char **basis);
/* Solve a copy of m with bounds [lb, ub], the row  sgn obj'x <= cut_hi
 * (none when infinite), no cuts, at most `nodes` nodes, until deadline
 * (0: none).  Returns 1 with a solution in x (n), 0 when none was found,
 * -1 when out of memory (mip/submip.c).  *iters (if not NULL) grows by the
 * LP iterations it took. */
int twill_ilp_submip(const twill_ilp *m, const double *lb, const double *ub, double cut_hi,
               long nodes, double deadline, double *x, long *iters);
/* Branch and bound (mip/bb.c); LP when there are no integer variables. */
twill_ilp_status twill_ilp_branch_and_bound(twill_ilp *m);

#endif
