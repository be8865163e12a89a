/* ilp/mip/search.h: the state of one branch-and-bound search and the parts
 * of it each file of ilp/mip/ does (private to ilp/mip/).
 *
 *   bb.c      the search: set-up, the node loop, the result
 *   node.c    nodes, the open list, the tree records of the certificate
 *   prop.c    domain propagation on the rows
 *   rcfix.c   reduced-cost fixing
 *   branch.c  pseudo-costs, reliability branching, the children
 *   heur.c    incumbents: rounding, diving, sub-MIPs, polishing
 *   submip.c  the sub-MIP itself (a smaller model solved by this search)
 *
 * Internally the problem is  min c'x  (c = -obj when maximizing).
 */
#ifndef TWILL_ILP_MIP_SEARCH_H
#define TWILL_ILP_MIP_SEARCH_H

#include <math.h>

#include "../lp/lp.h"
#include "../model.h"

#define INT_TOL 1e-6

/* An open node: its region is the root's bounds with the changes
 * (cvar, clb, cub) applied in order. */
typedef struct node {
  int rec;         /* tree record */
  int depth;
  double bound;    /* LP bound of the parent (minimize form) */
  double est;      /* estimated objective of its best integer solution */
  double pfrac;    /* distance the branching variable had to move */
  int nchg;
  int *cvar;       /* cumulative bound changes from the root */
  double *clb, *cub;
  signed char *basis;
  int propagated;  /* domain propagation done (its changes are in cvar) */
} node;

/* The rows (CSR) for domain propagation, the cut rows left empty. */
typedef struct csr {
  int *beg, *col;      /* the rows */
  double *val;
  const int *cbeg, *cidx; /* the columns (the model's CSC) */
  int *queue;
  char *inq;
} csr;

typedef struct search {
  twill_ilp *m;
  int n, mr, N, mr0;    /* structurals, model rows (cuts included), users' rows */
  int nint, objint;     /* integer variables; an integral objective */
  double sgn;           /* -1 when maximizing */
  double t0, deadline;  /* clock at the start, and the time limit (0: none) */
  int *cbeg, *cidx;     /* the model's matrix by columns */
  double *cval;
  double *c, *lb, *ub;  /* min-form costs; root bounds (integers rounded) */
  /* the search's LP: the user's rows and the binding cuts (lprow: LP row
   * to model row), Nlp = n + mlp variables */
  lp_solver *lp;
  int mlp, Nlp, *lprow, *lpcbeg, *lpcidx;
  double *lpcval, *lpbnd, *ylp;
  signed char *rootbasis; /* the last root LP's basis (cuts/cuts.c), or NULL */
  /* work, n or N each */
  double *x, *xr, *act, *dred, *xd, *xdr, *nlb, *nub, *slb, *sub, *score;
  int *inst, ninst, *cand;
  char *mark;
  signed char *basis;
  /* pseudo-costs: sum and count per variable and direction (2 j + dir) */
  double *pc;
  int *pcn;
  long sb_iters;        /* LP iterations of strong branching */
  csr R;
  int prop_on;
  node **open;          /* the open list, a heap (node.c) */
  int nopen, opencap;
  node *cur;            /* the node being processed */
  double inc;           /* incumbent's objective (min form), HUGE_VAL: none */
  double cutoff;        /* a node at or above it cannot hold a better point */
  double z;             /* the current node's LP objective */
  int ncand;            /* its fractional integer variables, in cand */
  double root_bound, global_bound;
  int incomplete, unbounded;
  long nodes, dive_iters, next_sub, sub_gap, sub_iters, fix_terms;
  int plunge, plunge_max;
} search;

/* The cutoff for incumbent value inc: below inc by 1 (less a tolerance)
 * when the objective is integral, by a relative hair otherwise. */
static inline double search_cutoff(const search *S) {
  double inc = S->inc;
  return inc < HUGE_VAL ? (S->objint ? inc - 1 + 1e-6 : inc - 1e-9 * (1 + fabs(inc))) : HUGE_VAL;
}

/* ---- node.c ---- */
void twill_bb_node_free(node *nd);
/* Append a tree record (parent, branching var, dir, val): its index, -1
 * when out of memory. */
int twill_bb_add_rec(twill_ilp *m, int parent, int var, int dir, double val);
/* Append the bounds [l, u] of x_j to the node's changes: 0 when out of
 * memory. */
int twill_bb_push_change(node *nd, int j, double l, double u);
/* The open list, best first (node.c says in what order). */
void twill_bb_heap_push(node **h, int *n, node *x);
node *twill_bb_heap_pop(node **h, int *n);

/* ---- prop.c ---- */
/* S->R from the model's columns: 0 when out of memory. */
int twill_bb_prop_init(search *S);
void twill_bb_prop_free(csr *R);
/* Propagate at the current node (its bounds installed in S->nlb, S->nub
 * and the LP): 0, 1 when a row cannot be met (*crow, *cside), -1 when out
 * of memory. */
int twill_bb_propagate(search *S, int *crow, int *cside);

/* ---- rcfix.c ---- */
/* Reduced-cost fixing at the current node, optimal at S->z with basis
 * S->basis: 0, -1 when out of memory. */
int twill_bb_rcfix(search *S);

/* ---- branch.c ---- */
/* The branching variable among the S->ncand candidates, or -2 when out of
 * memory. */
int twill_bb_choose_branch(search *S);
/* The pseudo-cost observation of the current node's LP (objective z). */
void twill_bb_observe(search *S, double z);
/* Branch the current node on bj: the child on the side the LP value rounds
 * to becomes the current node, the other joins the open list.  0, -1 when
 * out of memory. */
int twill_bb_branch(search *S, int bj);

/* ---- heur.c ---- */
/* The heuristics' schedule at the start of a search. */
void twill_bb_heur_init(search *S);
/* Whether x meets every bound, integrality and row of the first mr rows
 * (act gets their activities). */
int twill_bb_feasible(const twill_ilp *m, int mr, const int *cbeg, const int *cidx,
                      const double *cval, const double *x, double *act);
/* A new incumbent x of value z (min form) at node `at`: 0 when out of
 * memory. */
int twill_bb_new_incumbent(twill_ilp *m, const double *x, double z, double sgn, long at);
/* Rounding of the current node's LP point: 1 when it closed the node (a
 * new incumbent reached its bound), 0, -1 when out of memory. */
int twill_bb_round(search *S);
/* Diving at the node just branched on (LP point S->x): 0, -1 when out of
 * memory. */
int twill_bb_dive(search *S);
/* RENS or RINS sub-MIP when one is due: 0, -1 when out of memory. */
int twill_bb_submip(search *S);
/* The incumbent's continuous part re-solved with its integers fixed:
 * 0, -1 when out of memory. */
int twill_bb_polish(twill_ilp *m, const double *c);
/* The incumbent's values put on their bounds where an LP left them a hair
 * outside, and its integers made integers. */
void twill_bb_snap_to_bounds(twill_ilp *m);

#endif
