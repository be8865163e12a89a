/* twill.h: the whole library in one include.
 *
 * Modules, from the bottom up (each uses only the ones before it):
 *   graph    twill/graph.h (kernels), twill/diag.h, twill/io.h, twill/json.h,
 *            twill/builtin.h, twill/formats.h (HatScheT, GML, AIGER, HLS JSON)
 *   arch     twill/arch.h (machines)
 *   sat      twill/sat.h (CDCL + DRAT/LRAT), twill/dimacs.h, twill/smt.h
 *   ilp      twill/ilp.h (LP/MIP), twill/vipr.h (certificate checker)
 *   core     twill/kernel.h (a kernel bound to its machine), twill/bounds.h,
 *            twill/schedule.h, twill/normalize.h, twill/modulo.h (phase 1),
 *            twill/joint.h (phase 2, Algorithm 1, certificates),
 *            twill/launch.h (the warp count and launch registers searched),
 *            twill/check.h (the certificate checker: no search code),
 *            twill/gaus.h (GauS)
 *   codegen  twill/codegen.h (every output a person reads)
 * Link with -ltwill -lpthread -lm (pkg-config twill).
 */
#ifndef TWILL_H
#define TWILL_H

#include "twill/diag.h"
#include "twill/io.h"
#include "twill/json.h"
#include "twill/graph.h"
#include "twill/builtin.h"
#include "twill/formats.h"
#include "twill/arch.h"
#include "twill/sat.h"
#include "twill/dimacs.h"
#include "twill/smt.h"
#include "twill/ilp.h"
#include "twill/vipr.h"
#include "twill/kernel.h"
#include "twill/bounds.h"
#include "twill/schedule.h"
#include "twill/normalize.h"
#include "twill/modulo.h"
#include "twill/joint.h"
#include "twill/launch.h"
#include "twill/check.h"
#include "twill/gaus.h"
#include "twill/codegen.h"

#endif
