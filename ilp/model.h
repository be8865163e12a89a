/* ilp/model.h: the twill_ilp structure, shared by model.c, mps.c, bb.c,
 * vipr_write.c and cmd_ilp.c (private to ilp/). */
#ifndef TWILL_ILP_MODEL_H
#define TWILL_ILP_MODEL_H

#include "twill/ilp.h"

/* Branch-and-bound tree node, kept for the certificate.  The node's region
 * is its parent's with x_var <= val (dir 0) or x_var >= val (dir 1); the
 * root has var -1.  A leaf is closed by the multipliers y (m rows, minimize
 * form) of the LP solved at node `proof` (itself or an ancestor, whose bounds
 * hold here too): Farkas multipliers when farkas, dual ones otherwise. */
/* A bound tightened at a node by domain propagation on one row: the row
 * (side 0: its <= side, 1: its >= side) with every other variable at the
 * bound that makes the row's activity extreme implies x_var <= val (up) or
 * x_var >= val, rounded for an integer variable.  In the certificate it is
 * a `rnd` of the row and those bounds. */
typedef struct bb_prop {
  int var, row;
  signed char up, side;
  double val;
} bb_prop;

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
  double time_limit;
  long node_limit;
  int certify;
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
};

/* Column-compressed copy of the constraint matrix (duplicates summed). */
int ilp_build_csc(const twill_ilp *m, int **cbeg, int **cidx, double **cval);
void ilp_clear_results(twill_ilp *m);
/* Branch and bound (bb.c); LP when there are no integer variables. */
twill_ilp_status ilp_branch_and_bound(twill_ilp *m);

#endif
