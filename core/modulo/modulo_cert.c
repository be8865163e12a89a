/* core/modulo/modulo_cert.c: writing phase-1 certificates (the format and
 * its checker are in core/check/cert_check.c; the checker shares nothing
 * with this file but the text). */
#include <stdio.h>

#include "twill/modulo.h"
#include "twill/normalize.h"

int twill_cert_write_norm(const twill_norm *nm, FILE *f) {
  if (!nm || nm->U <= 0) {
    fprintf(f, "normalize off\n");
    return 0;
  }
  fprintf(f, "normalize %ld\n", nm->U);
  for (int i = 0; i < nm->n; i++) fprintf(f, "norm %ld %ld\n", nm->cost[i], nm->scaled[i]);
  if (nm->n >= 2) {
    if (!nm->vipr) return -1; /* no proof that the mapping is optimal */
    fprintf(f, "norm-proof %zu\n", nm->vipr_len);
    fwrite(nm->vipr, 1, nm->vipr_len, f);
    fputc('\n', f);
  }
  return 0;
}

int twill_modulo_write_body(const twill_graph *g, const twill_modulo_result *r, FILE *f) {
  /* I* must be proven; L may be left unproven (a limit struck after I*
   * was settled, or the plain program's proof of L at I* did not finish
   * within the limits though an engine proved L): the certificate then
   * says so */
  int len_proven = r->status == TWILL_MODULO_OPTIMAL;
  if (r->status == TWILL_MODULO_ERROR || r->ii_lower != r->ii) return -1;
  for (int i = 0; i < r->ntries; i++)
    if (r->tries[i].ii == r->ii && !r->tries[i].vipr &&
        r->tries[i].bound != TWILL_MODULO_BOUND_PATH)
      len_proven = 0;
  for (int i = 0; i < r->ntries; i++)
    if (!r->tries[i].vipr && (r->tries[i].ii < r->ii || len_proven) &&
        !(r->tries[i].ii == r->ii && r->tries[i].bound == TWILL_MODULO_BOUND_PATH))
      return -1;
  /* the heuristic line caps L at its I: the heuristic's schedule when it
   * gave the answer, else the certificate's own schedule (the search now
   * runs the heuristic only when the engines found none, and the plain
   * proof at I* is made with L capped at L*, core/modulo/modulo_solve.c) */
  long hii = r->heuristic_ii > 0 ? r->heuristic_ii : r->ii;
  long hlen = r->heuristic_ii > 0 ? r->heuristic_length : r->length;
  fprintf(f, "ii %ld\nlength %ld\nheuristic %ld %ld\n", r->ii, r->length, hii, hlen);
  /* the form of the twill-smt refutations' problem (the checker states it
   * again); the VIPR proofs are about the plain program whatever the form */
  static const char *const forms[6] = {"none", "reduce", "slots", "reduce,slots",
                                       "slots,times", "reduce,slots,times"};
  int slots = (r->form & TWILL_MODULO_FORM_SLOTS) != 0;
  int times = slots && (r->form & TWILL_MODULO_FORM_TIMES);
  int rel = (r->form & TWILL_MODULO_FORM_RELATIVE) != 0;
  int k = ((r->form & TWILL_MODULO_FORM_REDUCE) ? 1 : 0) + (slots ? 2 : 0) + (times ? 2 : 0);
  fprintf(f, "form %s%s\n", k == 0 && rel ? "" : forms[k],
          !rel ? "" : k == 0 ? "relative" : ",relative");
  if (!len_proven) fprintf(f, "length-proof none\n");
  for (int v = 0; v < g->nops; v++) fprintf(f, "time %s %ld\n", g->ops[v].name, r->sched->start[v]);
  for (int i = 0; i < r->ntries; i++) {
    const twill_modulo_try *t = &r->tries[i];
    if (t->ii == r->ii && !len_proven) break;
    if (t->ii == r->ii && t->bound == TWILL_MODULO_BOUND_PATH && !t->vipr) {
      fprintf(f, "path %ld optimal\n", t->ii);
      continue;
    }
    fprintf(f, "%s %ld %s %zu\n", t->smt_proof ? "smt" : "vipr", t->ii,
            t->ii < r->ii ? "infeasible" : "optimal", t->vipr_len);
    fwrite(t->vipr, 1, t->vipr_len, f);
    fputc('\n', f);
  }
  fprintf(f, "end\n");
  return ferror(f) ? -1 : 0;
}

int twill_modulo_write_cert(const twill_graph *g, const char *machine, const twill_norm *nm,
                            const twill_modulo_result *r, FILE *f) {
  fprintf(f, "twill-certificate 2 modulo\nkernel %s\nmachine %s\n", g->name, machine);
  if (twill_cert_write_norm(nm, f)) return -1;
  return twill_modulo_write_body(g, r, f);
}
