#!/bin/sh
# bench/gaus.sh: GauS per-step time and schedule quality (gaus.md 5.5).
# twill gaus at 1 and 2 threads against the PyTorch peer
# (bench/peers/gaus_torch.py, python3-torch) at the same thread count.
# Formulation A on gs_schedule_rw (D = levels), B on epfl_aig.
# Env: ITERS (default 200), GRAPHS (default: a selection below).
set -e
cd "$(dirname "$0")/.."
TWILL=${TWILL:-./bin/twill}
S=${TWILL_SHARED:-../shared}/suites/gaus
ITERS=${ITERS:-200}
PY=${PY:-/usr/bin/python3}  # Debian python3-torch lives in the system python
if ! "$PY" -c 'import torch' 2>/dev/null; then
  echo "note: python3-torch missing (apt-get install -y python3-torch); peer skipped"
  PEER=0
else
  PEER=1
fi
GRAPHS=${GRAPHS:-"A:gs_schedule_rw/rand_graph_1000_1.gml A:gs_schedule_rw/rand_graph_sparse_1000_1.gml
A:gs_schedule_rw/rand_graph_5000_1.gml A:gs_schedule_rw/rand_graph_10000_1.gml
B:epfl_aig/ctrl.aig B:epfl_aig/router.aig B:epfl_aig/adder.aig B:epfl_aig/bar.aig
B:epfl_aig/sin.aig B:epfl_aig/voter.aig B:epfl_aig/div.aig"}
printf '%-34s %4s %10s %10s %10s %10s %7s %7s %12s\n' graph form "twill-1" "twill-2" "torch-1" "torch-2" II length objective
for spec in $GRAPHS; do
  f=${spec%%:*}; g=${spec#*:}
  row=""
  for t in 1 2; do
    out=$($TWILL gaus "$S/$g" --formulation "$f" --iters "$ITERS" --threads "$t" --timing 2>/tmp/gaus_bench_err.$$ || true)
    tm=$(sed -n 's/^gaus timing: [0-9]* steps, \([^ ]*\) s\/step.*/\1/p' /tmp/gaus_bench_err.$$)
    row="$row ${tm:-fail}"
  done
  ii=$(echo "$out" | sed -n 's/^II \([0-9]*\) .*/\1/p')
  len=$(echo "$out" | sed -n 's/^II [0-9]*  length \([0-9]*\).*/\1/p')
  obj=$(echo "$out" | sed -n 's/.*objective \([^ ]*\)$/\1/p')
  p1=skip; p2=skip
  case $g in *div.aig|*sqrt.aig) ;; *)
    if [ $PEER = 1 ]; then
      p1=$("$PY" bench/peers/gaus_torch.py "$S/$g" --formulation "$f" --threads 1 2>/dev/null || echo fail)
      p2=$("$PY" bench/peers/gaus_torch.py "$S/$g" --formulation "$f" --threads 2 2>/dev/null || echo fail)
    fi;;
  esac
  set -- $row
  printf '%-34s %4s %10s %10s %10s %10s %7s %7s %12s\n' "$g" "$f" "$1" "$2" "$p1" "$p2" "$ii" "$len" "$obj"
done
rm -f /tmp/gaus_bench_err.$$
echo "(seconds per optimizer step: twill mean over all steps, legalization excluded; torch median of 50 after 10 warm-up)"
