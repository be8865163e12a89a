#!/bin/sh
# tests/layering.sh: the include graph of the tree follows the module order
#   graph < arch < sat, ilp < core < codegen < program (core/cli)
# (a file may include headers of its own module or of lower ones; sat and ilp
# do not include each other), the library's public headers name no CLI
# internals, and the include graph has no cycle.  Run by `make check`.
# Prints every offending include and exits 1, or prints one line and exits 0.
cd "$(dirname "$0")/.." || exit 1
awk -v OFS='\t' '
function rank(m) {
  if (m == "graph") return 0
  if (m == "arch") return 1
  if (m == "sat" || m == "ilp") return 2
  if (m == "core") return 3
  if (m == "codegen") return 4
  if (m == "program") return 5
  return -1
}
# the module of a file of the tree
function mod_of(path,   top) {
  if (path ~ /^core\/cli\//) return "program"
  if (path ~ /^include\/twill\.h$/) return "program"
  if (path ~ /^include\/twill\//) return hdr[path]
  split(path, top, "/")
  return top[1]
}
BEGIN {
  # the public headers and the module each belongs to
  n = split("graph:graph.h graph:diag.h graph:json.h graph:io.h graph:builtin.h " \
            "graph:formats.h arch:arch.h sat:sat.h sat:smt.h sat:dimacs.h " \
            "ilp:ilp.h ilp:vipr.h core:check.h core:bounds.h core:normalize.h core:modulo.h " \
            "core:joint.h core:launch.h core:schedule.h core:gaus.h core:kernel.h " \
            "codegen:codegen.h", pairs, " ")
  for (i = 1; i <= n; i++) {
    split(pairs[i], kv, ":")
    hdr["include/twill/" kv[2]] = kv[1]
  }
}
FNR == 1 { file = FILENAME; sub(/^\.\//, "", file) }
/^[ \t]*#[ \t]*include[ \t]*"/ {
  inc = $0
  sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
  if (inc ~ /^twill\//) target = "include/" inc
  else {
    dir = file; sub(/\/[^\/]*$/, "", dir)
    target = dir "/" inc
    # resolve ../
    while (target ~ /[^\/]+\/\.\.\//) sub(/[^\/]+\/\.\.\//, "", target)
  }
  fm = mod_of(file); tm = mod_of(target)
  if (target ~ /^include\/twill\// && !(target in hdr)) {
    print file ": includes " inc ", a public header the layering table does not know"
    bad = 1; next
  }
  if (rank(tm) > rank(fm) || (fm != tm && rank(fm) == 2 && rank(tm) == 2)) {
    print file ": " fm " includes " inc " of " tm
    bad = 1
  }
  edge[file, target] = 1; nodes[file] = 1; nodes[target] = 1; out[file] = out[file] " " target
}
function dfs(v,   k, w, list, m) {
  color[v] = 1
  m = split(out[v], list, " ")
  for (k = 1; k <= m; k++) {
    w = list[k]
    if (color[w] == 1) { print "include cycle through " v " and " w; bad = 1 }
    else if (!color[w]) dfs(w)
  }
  color[v] = 2
}
END {
  for (v in nodes) if (!color[v]) dfs(v)
  if (bad) exit 1
  print "layering: every include follows graph < arch < sat, ilp < core < codegen < program; no cycle"
}' $(find graph arch sat ilp core codegen include -name '*.[ch]' | sort)
