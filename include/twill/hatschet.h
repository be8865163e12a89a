/* twill/hatschet.h: HatScheT modulo-scheduling instances as twill kernels.
 *
 * An instance is a pair of XML files: a GraphML dependence graph
 * (graphN.graphml, or an Origami NAME.graphml) and a resource model
 * (graphN_RM.xml / NAMERM.xml).  ../shared/suites/modulo/README.md gives
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
#ifndef TWILL_HATSCHET_H
#define TWILL_HATSCHET_H

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

/* `twill convert-hatschet GRAPH.graphml RM.xml [-o OUT.json]`. */
int twill_cmd_convert_hatschet(int argc, char **argv);

#endif
