#!/bin/sh
# bench/modulo_levers.sh: phase 1 on the HatScheT suite ($TWILL_SUITES/
# modulo, bench/peers/hls_twill.py: per loop `twill modulo --no-normalize
# --time-limit T --json --cert C` and `twill check`) with each lever of
# the exact search switched off in turn, and a table of what each costs:
#   all         everything on (the default)
#   no-reduce   --off reduce      (every op keeps a variable)
#   no-struct   --off structured  (plain dependence rows in the ILP)
#   no-windows  --off windows     (no slot fixed by the op's time window)
#   no-slots    --off slots       (the SMT engine's unit rows over start
#                                  times, no coverage of full units)
#   no-times    --off times       (with slots, no unit rows over the start
#                                  times: the window rule sees nothing)
#   ilp-only    --engine ilp      (no SMT engine racing the ILP)
#   smt-only    --engine smt      (no ILP)
# Environment: CONFIGS (comma list of the names above; default all eight),
# PAR (configurations run at once, default 1; with taskset each gets its
# own 2 CPUs), JOBS (loops at once per configuration, default 2),
# TIME_LIMIT (10), CHECK_TIMEOUT (60), ONLY (hls_twill.py --only),
# OUT (build/bench/levers).
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${OUT:-$ROOT/build/bench/levers}
SUITE=${TWILL_SUITES:-}/modulo
CONFIGS=${CONFIGS:-all,no-reduce,no-struct,no-windows,no-slots,no-times,ilp-only,smt-only}
PAR=${PAR:-1}
if [ ! -f "$SUITE/instances.csv" ]; then
  echo "bench/modulo_levers.sh: skipped: set TWILL_SUITES to a tree with modulo/instances.csv"
  exit 0
fi
[ -x bin/twill ] || make -s
mkdir -p "$OUT"
cp bin/twill "$OUT/twill"
args_of() {
  case $1 in
    all) echo "" ;;
    no-reduce) echo "--off reduce" ;;
    no-struct) echo "--off structured" ;;
    no-windows) echo "--off windows" ;;
    no-slots) echo "--off slots" ;;
    no-times) echo "--off times" ;;
    ilp-only) echo "--engine ilp" ;;
    smt-only) echo "--engine smt" ;;
    *) echo "bench/modulo_levers.sh: unknown configuration $1" >&2; exit 1 ;;
  esac
}
uptime > "$OUT/uptime.txt"
i=0
for c in $(echo "$CONFIGS" | tr , ' '); do
  a=$(args_of "$c")
  pin=""
  if command -v taskset >/dev/null 2>&1 && [ "$PAR" -gt 1 ]; then
    pin="taskset -c $((2 * (i % PAR))),$((2 * (i % PAR) + 1))"
  fi
  $pin python3 bench/peers/hls_twill.py --twill "$OUT/twill" --suite "$SUITE" \
    --out "$OUT/$c" --time-limit "${TIME_LIMIT:-10}" --jobs "${JOBS:-2}" \
    --check-timeout "${CHECK_TIMEOUT:-60}" --only "${ONLY:-}" \
    --twill-args "$a" > "$OUT/$c.log" 2>&1 &
  i=$((i + 1))
  if [ $((i % PAR)) -eq 0 ]; then wait; fi
done
wait
uptime >> "$OUT/uptime.txt"
python3 bench/peers/modulo_levers_table.py "$OUT" $(echo "$CONFIGS" | tr , ' ')
