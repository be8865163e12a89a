/* twill/formats.h: readers of foreign graph formats (graph/formats/):
 * HatScheT modulo-scheduling instances, GML, binary AIGER and HLS
 * operator-scheduling JSON, each read into a twill_graph.
 *
 * HatScheT: an instance is a pair of XML files: a GraphML dependence graph
 * (graphN.graphml, or an Origami NAME.graphml) and a resource model
 * (graphN_RM.xml / NAMERM.xml).  tests/data/suites/modulo/README.md gives
 * the format; the mapping is:
 *
 *   - every <node> becomes an op; its name is the node's `name` data
 *     (sanitized to twill's name alphabet, made unique), its latency the
 *     `latency` of its resource type;
 *   - a resource type with limit L >= 1 (and blockingTime B >= 1) becomes
 *     a declared unit of capacity L, named as the type; an op of that type
 *     uses it at offset 0 for B cycles (count 1).  Types with limit -1
 *     (unlimited) take no part in resource constraints: their ops get no
 *     use.  Only types used by at least one op become units;
 *   - every <edge> becomes an edge with lat = latency(type(source)) +
 *     delay and dist = distance (the `delay` and `distance` data; 0 when a
 *     key is absent).  `deptype` (Data / Precedence) is read and ignored:
 *     both are ordinary constraints.
 *
 * The XML reader understands exactly what these files use: elements,
 * attributes with single- or double-quoted values, comments, processing
 * instructions (<?xml ...?>), character data, the five predefined
 * entities and numeric character references.  Namespace prefixes are
 * dropped (tags are matched on local names).  DOCTYPE, CDATA sections and
 * unknown entities are errors.  Every error is reported as
 * file:line:col: message.
 */
#ifndef TWILL_FORMATS_H
#define TWILL_FORMATS_H

#include <stddef.h>

#include "twill/diag.h"
#include "twill/graph.h"

/* Convert one instance given as two texts (need not be NUL-terminated).
 * graph_file and rm_file are the names used in messages; the kernel is
 * named after graph_file ("<dir>_<base>" when it has a directory, e.g.
 * adpcm_graph10).  Returns a validated graph whose units are all declared
 * (bind with a NULL machine), or NULL with d filled. */
twill_graph *twill_hatschet_convert(const char *graph_text, size_t graph_len,
                                    const char *graph_file,
                                    const char *rm_text, size_t rm_len,
                                    const char *rm_file, twill_diag *d);

/* Read both files and convert.  NULL with d filled on error. */
twill_graph *twill_hatschet_load(const char *graph_path, const char *rm_path,
                                 twill_diag *d);

/* ---- readers of external graphs (graph/formats/gaus_io.c) ----------------------- */

/* GML (networkx write_gml style, gs_schedule_rw/).  Ops: latency 0, one use
 * of unit "mem" (count = node parameter, when > 0; declared capacity = the
 * sum, so never binding); edges latency 0.  *edge_cost (malloc'd, may be
 * NULL to skip) gets 1 for edges with parameter > 0, else 0.  NULL with
 * d filled (file:line:col) on error. */
twill_graph *twill_gaus_read_gml(const char *text, size_t len,
                                 const char *file, double **edge_cost,
                                 twill_diag *d);
/* Binary AIGER ("aig M I L O A", L = 0): nodes = inputs + AND gates,
 * latency 1, an edge of latency 1 from each fanin to its gate.  Errors
 * give the byte offset in d->col (line 0 for the binary part). */
twill_graph *twill_gaus_read_aig(const char *data, size_t len,
                                 const char *file, twill_diag *d);

/* HLS operator-scheduling JSON (hls_heurigym/): {"name", "delay": {TYPE:
 * cycles}, "resource": {TYPE: units}, "nodes": [[id, TYPE]], "edges":
 * [[src, dst, name]]}.  One unit per type with capacity = resource; op
 * latency = delay of its type, holding one unit for delay cycles (not
 * pipelined); edge latency = delay of its source.  Unknown keys, unknown
 * types, duplicate ids, unknown ids and cycles are errors (file:line:col).
 * Solve it with Formulation L. */
twill_graph *twill_gaus_read_hls(const char *text, size_t len,
                                 const char *file, twill_diag *d);

#endif
