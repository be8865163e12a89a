#!/bin/sh
# bench/scale.sh: phase 2 at the size of sub-tiled kernels.  Generates the
# families of bench/gen_families.py (FA3 forward k = 2..8, FA3 backward
# k = 2..4, GEMM + epilogue k = 2..8 on Hopper; FA4 forward and the GEMM on
# Blackwell k = 2..4), solves each at every warp count with a certificate,
# checks it, and runs z3 (bench/peers/joint_z3.py) on the same queries;
# the table (bench/scale.py) goes to
# bench/results/scale-DATE-COMMIT.md (and .tsv), the plot of seconds against
# ops to the same name .svg (bench/plot_scale.py).
#
# Environment: LIMIT (seconds per solve and per z3 query, default 60),
# WARPS (default 8,12,16; Blackwell kernels add nothing below 16 unless
# BW_WARPS says so, default 16), ONLY (a regular expression on kernel names),
# SCALE_Z3=0 (skip z3), SCALE_Z3_OPS (z3 only up to this many ops),
# FLAGS (extra `twill solve` flags, e.g. a lever switched off), TAG (added to
# the result's name), OUT (the result's path without extension).
# One solve at a time, at nice: the machine is shared.
set -e
cd "$(dirname "$0")/.."
LIMIT=${LIMIT:-60}
WARPS=${WARPS:-8,12,16}
BW_WARPS=${BW_WARPS:-16}
[ -x bin/twill ] || make -s
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cp bin/twill "$D/twill"   # a private copy: rebuilding cannot disturb the run
python3 bench/gen_families.py --all "$D/k" >/dev/null
COMMIT=$(git rev-parse --short HEAD)
OUT=${OUT:-bench/results/scale-$(date -u +%Y-%m-%d)-$COMMIT${TAG:+-$TAG}}
mkdir -p "$(dirname "$OUT")"
hop=$(ls "$D"/k/*-hopper.twill | sort -V | grep -E "${ONLY:-.}" || true)
bw=$(ls "$D"/k/*-blackwell.twill | sort -V | grep -E "${ONLY:-.}" || true)
echo "scale: twill $COMMIT, limit ${LIMIT}s, flags '${FLAGS:-}', $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$hop" ]; then
  # shellcheck disable=SC2086
  nice python3 bench/scale.py "$D/twill" "$OUT-hopper.md" "$LIMIT" "$WARPS" $hop -- ${FLAGS:-}
fi
if [ -n "$bw" ]; then
  # shellcheck disable=SC2086
  nice python3 bench/scale.py "$D/twill" "$OUT-blackwell.md" "$LIMIT" "$BW_WARPS" $bw -- ${FLAGS:-}
fi
{
  echo "# phase 2 scaling, twill $COMMIT, $(date -u +%Y-%m-%d)"
  echo
  echo "\`LIMIT=$LIMIT WARPS=$WARPS BW_WARPS=$BW_WARPS FLAGS='${FLAGS:-}' bench/scale.sh\` on $(nproc) shared cores;"
  echo "first s: to the first joint schedule; proof s: the whole solve (optimality or infeasibility proven,"
  echo "certificate written); check s: \`twill check\`; z3 s: bench/peers/joint_z3.py on the same (I, L) queries."
  echo
  for f in "$OUT-hopper.md" "$OUT-blackwell.md"; do [ -f "$f" ] && cat "$f" && echo; done
} > "$OUT.md"
cat "$OUT"-*.tsv 2>/dev/null | awk 'NR == 1 || !/^kernel\t/' > "$OUT.tsv"
rm -f "$OUT-hopper.md" "$OUT-blackwell.md" "$OUT-hopper.tsv" "$OUT-blackwell.tsv"
python3 bench/plot_scale.py "$OUT.tsv" "$OUT.svg"
echo "scale: wrote $OUT.md, $OUT.tsv, $OUT.svg"
