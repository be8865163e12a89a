#!/bin/sh
# bench/ilp.sh: twill ilp vs glpsol (glpk-utils) and cbc (coinor-cbc) on the
# LP and MIP suites: median of 3 wall-clock runs per instance, a table, and
# geometric-mean ratios twill/glpsol and twill/cbc over the instances that
# all solvers finished.
#   sh bench/ilp.sh [lp|mip|all] [INSTANCE...]      (default: all, every file)
# Env: TWILL (default build/bin/twill), TWILL_SUITES (the suites tree with lp/
# and mip/; no default: without it the bench says so and stops), TLIM (60 s).
set -u
TWILL=${TWILL:-build/bin/twill}
if [ -z "${TWILL_SUITES:-}" ] || [ ! -d "$TWILL_SUITES/lp" ]; then
  echo "bench/ilp.sh: skipped: no LP/MIP suites (set TWILL_SUITES to a tree with lp/ and mip/)"
  exit 0
fi
TLIM=${TLIM:-60}
which=${1:-all}
[ $# -gt 0 ] && shift
have() { command -v "$1" >/dev/null 2>&1; }
if ! have glpsol || ! have cbc; then
  echo "bench/ilp.sh: installing glpk-utils coinor-cbc" >&2
  (apt-get install -y glpk-utils coinor-cbc >/dev/null 2>&1 ||
   sudo apt-get install -y glpk-utils coinor-cbc >/dev/null 2>&1) || true
fi
now() { date +%s.%N; }
# median of 3 runs of "$@" (seconds); prints "-" when it fails or times out
med3() {
  ts=""
  for k in 1 2 3; do
    s=$(now)
    timeout "$TLIM" "$@" >/dev/null 2>&1
    rc=$?
    e=$(now)
    if [ $rc -ge 124 ] || [ $rc = 1 ]; then echo "-"; return; fi
    ts="$ts $(echo "$e - $s" | bc)"
  done
  echo $ts | tr ' ' '\n' | sort -g | sed -n 2p
}
run_suite() {
  suite=$1; shift
  dir=$TWILL_SUITES/$suite
  files="$*"
  [ -z "$files" ] && files=$(cut -f1 "$dir/answers.tsv" | grep -v '^file$')
  printf '%-16s %10s %10s %10s\n' "$suite" twill glpsol cbc
  for f in $files; do
    p=$dir/$f
    [ -f "$p" ] || continue
    t=$(med3 "$TWILL" ilp "$p" --time-limit "$TLIM")
    g="-"; c="-"
    have glpsol && g=$(med3 glpsol --freemps "$p" --tmlim "$TLIM")
    have cbc && c=$(med3 cbc "$p" sec "$TLIM" solve)
    printf '%-16s %10s %10s %10s\n' "$f" "$t" "$g" "$c"
  done
}
{
  [ "$which" = lp ] || [ "$which" = all ] && run_suite lp "$@"
  [ "$which" = mip ] || [ "$which" = all ] && run_suite mip "$@"
} | tee /tmp/twill-bench-ilp.$$
awk 'NF == 4 && $2 ~ /^[0-9.]+$/ {
  if ($3 ~ /^[0-9.]+$/) { lg += log(($2 + 1e-3) / ($3 + 1e-3)); ng++ }
  if ($4 ~ /^[0-9.]+$/) { lc += log(($2 + 1e-3) / ($4 + 1e-3)); nc++ } }
  END {
  if (ng) printf "geometric mean twill/glpsol: %.3f over %d instances\n", exp(lg / ng), ng
  if (nc) printf "geometric mean twill/cbc:    %.3f over %d instances\n", exp(lc / nc), nc }' \
  /tmp/twill-bench-ilp.$$
rm -f /tmp/twill-bench-ilp.$$
