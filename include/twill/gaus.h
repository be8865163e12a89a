/* twill/gaus.h: GauS, the differentiable scheduler (Cai et al., arXiv 2602.20427).
 *
 * Every op i has a Gaussian start time X_i ~ N(mu_i, sigma_i^2) over a
 * horizon of D steps; S_i = round(X_i) and F_i(d) = P(S_i <= d) =
 * Phi((d + 0.5 - mu_i)/sigma_i), with the tails folded into the horizon
 * (F_i(-1) = 0, F_i(D-1) = 1).  F_i is computed only in the window
 * |d - mu_i| <= 9 sigma_i (outside it F is 0 or 1 to double precision).
 *
 * sigma is kept positive by the parameterization
 *      sigma_i = sigma_min + softplus(s_i),   softplus(x) = log(1 + e^x),
 * and Adam works on (mu, s).  (A clamp would zero the gradient at the floor;
 * the softplus keeps it smooth.)
 *
 * Formulations (A, B, C: the three the GauS paper evaluates, the losses in
 * closed form ours; L: ours, for the HLS operator-scheduling files):
 *   A  min  sum_r tau*LSE_d(c_r U_r(d)/tau) + alpha * L_com
 *      (c_r = 1 / max(1, busy_r / D): usage in units of the mean load)
 *      s.t. Dep, Lat, U_r(d) <= C_r (units with a finite capacity)
 *   B  min  tau*LSE_d(Reg(d)/tau)              s.t. Dep, Lat
 *   C  min  tau*LSE_s(MMem(s)/tau) at II        s.t. Dep+Rec, Lat, MRes <= C
 *   L  min  tau*LSE_i((mu_i + lat_i)/tau)       s.t. Dep, Lat, U_r(d) <= C_r
 *      (resource-constrained latency, the HLS operator-scheduling problem
 *      of hls_heurigym: the smooth max of the expected finish times; the
 *      legal schedule's objective is its latency max_i t_i + lat_i)
 * with
 *   U_r(d)   = sum_i sum_{uses u of r} count_u (F_i(d-off_u) - F_i(d-off_u-cyc_u))
 *   L_com    = sum_e c_e sum_{d=0}^{D-2} F_src(d) (1 - F_dst(d))
 *              (expected number of step boundaries the edge crosses)
 *   Reg(d)   = sum_i b_i F_i(d) (1 - prod_{j in succ(i)} F_j(d))
 *              (an op without successors stores nothing)
 *   Dep_e    = E[(l_e - II*dist_e - (X_dst - X_src))^+], the expected hinge
 *              of the Gaussian difference N(mu_d - mu_s, sigma_s^2+sigma_d^2)
 *              in closed form s*(u Phi(u) + phi(u)), u = (l - m)/s.
 *              Plain (A, B) schedules use only edges of distance 0; C uses
 *              every edge (back edges are the recurrences).
 *   Lat_i    = (mu_i - (D - max(lat_i,1)))^+ + (-mu_i)^+
 *   MRes_r(s)= sum_i sum_u count_u sum_{c<cyc_u} Q_i((s - off_u - c) mod II),
 *              Q_i(s) = sum_k P_i^{s + k II}   (wrapped step probabilities)
 *   MMem(s)  = sum_{d = s mod II} Reg(d)
 * Constraints enter through the augmented Lagrangian
 *   L = f + sum_k lambda_k g_k + rho/2 sum_k g_k^2,
 * with g_k = Dep_e, Lat_i, or (U - C)^+; every alm_every Adam steps
 * lambda_k += rho g_k and rho = min(rho_max, gamma rho) unless the total
 * violation fell below eta times its previous value.
 *
 * Determinism: work is cut into chunks that depend on the problem size
 * only, never on the thread count; partial sums are reduced in chunk order,
 * so any number of threads gives bit-identical results.
 */
#ifndef TWILL_GAUS_H
#define TWILL_GAUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "twill/diag.h"
#include "twill/graph.h"

/* ---- the problem: flat arrays the solver reads ------------------------- */

typedef struct twill_gaus_problem {
  int n, ne, nunits, nuses;
  long *lat;        /* op latency (n) */
  double *w;        /* memory size b_i (n), Formulation B/C */
  int *uoff;        /* uses of op i: [uoff[i], uoff[i+1]) (n+1) */
  int *uunit, *uoffset, *ucycles; /* (nuses) */
  double *ucount;   /* (nuses) */
  double *cap;      /* unit capacity (nunits); <= 0: unconstrained */
  int *esrc, *edst; /* (ne) */
  long *elat;
  int *edist;
  double *ecost;    /* communication weight c_e (ne) */
  /* derived by twill_gaus_problem_finish */
  int *out_off, *out_e, *in_off, *in_e;
} twill_gaus_problem;

/* Allocate a problem with the given sizes (arrays zeroed, w = 1, ecost = 1,
 * cap = 0); NULL on allocation failure.  Fill it, then call _finish. */
twill_gaus_problem *twill_gaus_problem_new(int n, int ne, int nunits,
                                           int nuses);
/* Build the adjacency; 0, or -1 on allocation failure / index out of range. */
int twill_gaus_problem_finish(twill_gaus_problem *p);
void twill_gaus_problem_free(twill_gaus_problem *p);
/* From a bound twill graph: uses and capacities as given, b_i = regs when
 * some op has regs > 0 else 1, c_e = edge_cost[e] (NULL: 1 for every edge).
 * NULL on allocation failure. */
twill_gaus_problem *twill_gaus_problem_from_graph(const twill_graph *g,
                                                  const double *edge_cost);

/* ---- options ----------------------------------------------------------- */

typedef struct twill_gaus_opts {
  char form;            /* 'A', 'B', 'C' or 'L' */
  long ii;              /* C: first II tried (0: MII lower bound) */
  long steps;           /* horizon D (0: automatic) */
  long iters;           /* Adam steps per attempt */
  int threads;
  unsigned long long seed; /* initial mu jitter (and --random graphs) */
  double lr_mu, lr_s, beta1, beta2, eps;
  double kappa;         /* sigma_init = kappa (ALAP - ASAP) */
  double sigma_min, sigma_init_max;
  double tau;           /* LogSumExp temperature */
  double alpha;         /* communication weight in A */
  double lambda0, rho0, gamma, eta, rho_max;
  long alm_every;       /* K */
  long legalize_every;  /* legalize every this many steps (and at the end) */
  bool restart;         /* after each periodic legalization that gives a
                           legal schedule, restart the relaxation from it:
                           mu = its start times, sigma and Adam's moments
                           re-initialized (as in the GauS paper; default on) */
  double time_limit;    /* seconds, 0: none */
  bool progress;        /* progress lines on stderr */
} twill_gaus_opts;

void twill_gaus_opts_default(twill_gaus_opts *o);

/* ---- the differentiable model ------------------------------------------ */

enum {
  TWILL_GAUS_DEP = 1,   /* Dep (and Rec in C), ALM-weighted */
  TWILL_GAUS_LAT = 2,   /* horizon hinge, ALM-weighted */
  TWILL_GAUS_RES = 4,   /* A: sum_r LSE of U_r */
  TWILL_GAUS_CAP = 8,   /* A: (U - C)^+, C: (MRes - C)^+, ALM-weighted */
  TWILL_GAUS_COM = 16,  /* A: alpha * L_com */
  TWILL_GAUS_MEM = 32,  /* B: LSE of Reg; C: LSE of MMem */
  TWILL_GAUS_LEN = 64,  /* L: LSE of the finish times */
  TWILL_GAUS_ALL = 127
};

typedef struct twill_gaus_terms {
  double res, com, mem, len;   /* objective terms (unweighted) */
  double dep, lat, cap;        /* total violations sum g_k */
  double total;                /* the augmented Lagrangian */
} twill_gaus_terms;

typedef struct twill_gaus_model twill_gaus_model;

/* A model for p at horizon D (and II for C, ignored otherwise). */
twill_gaus_model *twill_gaus_model_new(const twill_gaus_problem *p,
                                       const twill_gaus_opts *o, long D,
                                       long ii);
void twill_gaus_model_free(twill_gaus_model *m);
int twill_gaus_model_nmult(const twill_gaus_model *m); /* multipliers */
double *twill_gaus_model_lambda(twill_gaus_model *m);  /* nmult entries */
void twill_gaus_model_set_rho(twill_gaus_model *m, double rho);
/* Current parameters (n entries each). */
double *twill_gaus_model_mu(twill_gaus_model *m);
double *twill_gaus_model_s(twill_gaus_model *m);
/* Initialize mu (ASAP/ALAP midpoint + jitter from seed) and s. */
void twill_gaus_model_init(twill_gaus_model *m);
/* The loss restricted to the terms in mask at the current parameters; the
 * gradient with respect to (mu, s) goes to gmu, gs (n each, may be NULL). */
double twill_gaus_eval(twill_gaus_model *m, int mask, double *gmu, double *gs,
                       twill_gaus_terms *t);
/* Restart from a schedule: mu_i = t_i, s_i back to its initial value,
 * Adam's moments and step count reset; multipliers and rho kept. */
void twill_gaus_model_restart(twill_gaus_model *m, const long *t);
/* One Adam step on the full loss; returns the loss before the step. */
double twill_gaus_step(twill_gaus_model *m, twill_gaus_terms *t);
/* ALM multiplier update (every alm_every steps). */
void twill_gaus_alm_update(twill_gaus_model *m);
/* The normal CDF the relaxation uses (a table with a Taylor series, not
 * erfc; absolute error below 3e-16, core/gaus/gaus.c says how). */
double twill_gaus_Phi(double x);

/* ---- legalization ------------------------------------------------------ */

/* Plain schedule by list scheduling in topological order (edges of
 * distance 0), priority round(mu), per-step unit capacities.  Then the
 * smallest II >= length that no back edge or wrapped use violates.
 * t gets n start times; returns II (>= 1), or -1 (cycle of distance-0
 * edges, allocation failure). */
long twill_gaus_legalize_plain(const twill_gaus_problem *p, const double *mu,
                               long *t);
/* Improve the legal plain schedule t of an acyclic problem (every edge of
 * distance 0) in length: forward-backward improvement of t, then list
 * schedules by mu (may be NULL: ASAP), by height (longest path to the
 * end) and `restarts` more from t with deterministic noise, each improved
 * the same way; t gets the shortest (the first of equals).  Returns its
 * II as twill_gaus_legalize_plain gives it (last busy cycle + 1), or -1
 * (back edges, allocation failure: t unchanged). */
long twill_gaus_improve_plain(const twill_gaus_problem *p, const double *mu,
                              long *t, int restarts);
/* Modulo legalization at II (GauS's Appendix A.2): relaxation over all edges,
 * capped at n sweeps, then placement into a modulo reservation table.
 * Returns 0, -1 recurrence violation (II too small), -2 resource conflict
 * that placement could not resolve, -3 allocation failure. */
int twill_gaus_legalize_modulo(const twill_gaus_problem *p, const double *mu,
                               long ii, long *t);
/* Independent check of t at II: t >= 0, every edge, modulo capacities.
 * 0 if legal, else -1 with a reason in why. */
int twill_gaus_check(const twill_gaus_problem *p, const long *t, long ii,
                     char *why, size_t whylen);

/* Lower bound on II: max(ResMII, RecMII) (RecMII by Bellman-Ford on II). */
long twill_gaus_mii(const twill_gaus_problem *p);

/* Discrete measures of a schedule. */
typedef struct twill_gaus_eval_t {
  long ii, length;
  double res_peak;   /* sum over units of the peak per-step (A, B) or per
                        slot (C) usage */
  double com;        /* sum_e c_e (t_dst - t_src)^+ over distance-0 edges */
  double mem_peak;   /* peak of Reg(d) (B) or of MMem(s) (C) */
  double objective;  /* A: res_peak + alpha com; B: mem_peak; C: mem_peak;
                        L: length */
} twill_gaus_eval_t;
void twill_gaus_measure(const twill_gaus_problem *p, const twill_gaus_opts *o,
                        const long *t, long ii, twill_gaus_eval_t *e);

/* ---- the whole solver -------------------------------------------------- */

typedef struct twill_gaus_result {
  long *t;           /* n start times (owned) */
  long ii;
  long D;
  long steps;        /* Adam steps taken */
  long first_legal_step;
  double first_legal_seconds; /* wall time from the start to the first legal
                                 schedule (-1: none from the relaxation) */
  long restarts;     /* restarts from a legalized schedule */
  double seconds_per_step;   /* mean over the Adam steps */
  double step_median;        /* median over the Adam steps (what the
                                PyTorch peer reports) */
  bool time_limited; /* the time limit stopped it */
  twill_gaus_eval_t eval;
  twill_gaus_terms terms; /* relaxation terms at the last step */
  double *mu, *sigma;     /* final parameters (owned) */
} twill_gaus_result;

/* Run GauS.  Returns 0 with r filled, or -1 on allocation failure or a
 * graph with a zero-distance cycle (msg says which). */
int twill_gaus_solve(const twill_gaus_problem *p, const twill_gaus_opts *o,
                     twill_gaus_result *r, FILE *log);
void twill_gaus_result_free(twill_gaus_result *r);

#endif
