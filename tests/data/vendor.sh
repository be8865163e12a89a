#!/bin/sh
# tests/data/vendor.sh SUITES: copy the subset of the external suites that
# `make check` needs into tests/data/suites/, instance files gzip-compressed
# (the Makefile unpacks them into $(BUILD)/data/suites/ with gunzip).
#
# SUITES is a tree with the layout of the project's suite collection
# (lp/, mip/, sat/, modulo/, gaus/, each with its README).  This script is
# for maintainers refreshing the copy; the tests never read SUITES.  The
# lists below are the whole selection: change them here, rerun, commit.
set -eu
src=${1:?usage: tests/data/vendor.sh SUITES}
dst=$(dirname "$0")/suites
# instance files and the cut-down tables are rebuilt; READMEs and licence
# files (written by hand) stay
find "$dst" -name "*.gz" -delete 2>/dev/null || true
mkdir -p "$dst"

put() { # put REL: gzip SUITES/REL into suites/REL.gz
  mkdir -p "$dst/$(dirname "$1")"
  gzip -9cn "$src/$1" > "$dst/$1.gz"
}
meta() { # meta REL: copy SUITES/REL as it is
  mkdir -p "$dst/$(dirname "$1")"
  cp "$src/$1" "$dst/$1"
}

# Netlib LP: all 56 (about 1 MB compressed); answers.tsv lists them.
meta lp/answers.tsv
for f in "$src"/lp/*.mps; do put "lp/$(basename "$f")"; done

# MIPLIB 3: the instances the suites solve (test_ilp_suites, test_ilp_cert).
meta mip/answers.tsv
for f in p0033 flugpl lseu mod008 stein27 enigma misc03 rgn khb05250 air03 \
         p0201 p0282 egout misc06 vpm1 p2756 gt2 mod010 gen dsbmip fixnet6; do
  put "mip/$f.mps"
done

# SATLIB / DIMACS: every instance of answers.tsv whose compressed size is at
# most 16000 bytes, except hard.tsv's and those test_sat.c leaves out for
# time, plus five larger structured ones so that every family but the
# competition set is present.  answers.tsv is cut to the instances copied.
keep=$(mktemp)
skip=$(mktemp)
trap 'rm -f "$keep" "$skip"' EXIT
cat > "$skip" <<'LIST'
competition/manthey_DimacsSorter_28_3.cnf
competition/38bits_10.cnf
competition/44bits_11.cnf
pigeonhole/hole9.cnf
beijing/2bitadd_10.cnf
random/uuf250-01.cnf
random/uuf250-02.cnf
random/uuf250-03.cnf
random/uuf250-04.cnf
random/uuf250-05.cnf
quasigroup/qg3-09.cnf
random/uf250-02.cnf
beijing/3bitadd_31.cnf
LIST
extra=" dimacs/hanoi4.cnf quasigroup/qg4-08.cnf quasigroup/qg3-08.cnf bmc/bmc-ibm-2.cnf planning/logistics.a.cnf "
tail -n +2 "$src/sat/answers.tsv" | cut -f1 | while read -r f; do
  if grep -qxF "$f" "$skip"; then continue; fi
  if cut -f1 "$src/sat/hard.tsv" | grep -qxF "$f"; then continue; fi
  size=$(gzip -9cn "$src/sat/$f" | wc -c)
  case "$extra" in *" $f "*) size=0 ;; esac
  [ "$size" -le 16000 ] && echo "$f"
done > "$keep"
mkdir -p "$dst/sat"
head -n 1 "$src/sat/answers.tsv" > "$dst/sat/answers.tsv"
while read -r f; do
  grep "^$f	" "$src/sat/answers.tsv" >> "$dst/sat/answers.tsv"
  put "sat/$f"
done < "$keep"

# HatScheT modulo loops: every sixth ChStone/MachSuite loop of instances.csv,
# adpcm/graph11 (test_hatschet's hand-checked instance) and all 22 Origami
# loops; instances.csv is cut to the loops copied.
mkdir -p "$dst/modulo/hatschet"
head -n 1 "$src/modulo/instances.csv" > "$dst/modulo/instances.csv"
tail -n +2 "$src/modulo/instances.csv" | awk -F, '
  /origami/ || /adpcm\/graph11\./ || (NR - 1) % 6 == 0 { print }' |
while IFS=, read -r g rm rest; do
  echo "$g,$rm,$rest" >> "$dst/modulo/instances.csv"
  put "modulo/$g"
  put "modulo/$rm"
done
meta modulo/hatschet/LICENSE.LGPL-3.0
meta modulo/hatschet/UPSTREAM_README.md

# GauS graphs: one GS-Schedule random DAG, one EPFL AIG, every HLS instance.
put gaus/gs_schedule_rw/rand_graph_1000_1.gml
put gaus/epfl_aig/ctrl.aig
meta gaus/hls_heurigym/baseline.json
for f in "$src"/gaus/hls_heurigym/*/*.json; do
  put "gaus/hls_heurigym/$(basename "$(dirname "$f")")/$(basename "$f")"
done
