#!/bin/sh
# bench/sat.sh: twill sat vs MiniSat vs CaDiCaL on the SAT suite
# ($TWILL_SUITES/sat: the full collection, not shipped with twill; the
# tests use the subset in tests/data/suites/sat).
#
#   bench/sat.sh [-t TIMEOUT] [-r RUNS] [-o TABLE] [PATTERN...]
#
# Runs each solver RUNS times (default 3) per instance with a per-run
# timeout (default 120 s; env SAT_TIMEOUT also works) and prints a table of
# the median wall seconds per instance, then the geometric-mean ratios
# twill/minisat and twill/cadical over the instances MiniSat solves in
# 0.05..120 s (median), and PAR-2 totals (unsolved runs count 2*TIMEOUT).
# PATTERNs (grep -E on the answers.tsv path, e.g. 'random/uuf250|hole')
# pick a subset; default: every instance of answers.tsv (hard.tsv ones included).
# A wrong answer (against answers.tsv) is reported and counts as unsolved.
# Installs minisat and cadical with apt-get when missing (needs root).
set -eu
TIMEOUT=${SAT_TIMEOUT:-120}
RUNS=3
TABLE=
while getopts t:r:o: opt; do
  case $opt in
    t) TIMEOUT=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    o) TABLE=$OPTARG ;;
    *) echo "usage: bench/sat.sh [-t TIMEOUT] [-r RUNS] [-o TABLE] [PATTERN...]" >&2; exit 1 ;;
  esac
done
shift $((OPTIND - 1))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${TWILL_SUITES:-}" ] || [ ! -f "$TWILL_SUITES/sat/answers.tsv" ]; then
  echo "bench/sat.sh: skipped: no SAT suite (set TWILL_SUITES to a tree with sat/answers.tsv)"
  exit 0
fi
SUITE=$TWILL_SUITES/sat
TWILL=${TWILL_BIN:-$ROOT/build/bin/twill}
[ -x "$TWILL" ] || (cd "$ROOT" && make -s build/bin/twill)
for p in minisat cadical; do
  if ! command -v $p >/dev/null 2>&1; then
    echo "installing $p" >&2
    apt-get install -y $p >/dev/null 2>&1 || { echo "bench/sat.sh: cannot install $p" >&2; exit 1; }
  fi
done
TMP=$(mktemp -d /tmp/twill-satbench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
# instance list: file<TAB>status
tail -n +2 "$SUITE/answers.tsv" | cut -f1,2 > "$TMP/all"
if [ $# -gt 0 ]; then
  pat=$(printf '%s|' "$@"); pat=${pat%|}
  grep -E "$pat" "$TMP/all" > "$TMP/list" || true
else
  cp "$TMP/all" "$TMP/list"
fi

# one run: prints "seconds status" (status 10/20, or 0 for timeout/other)
run1() { # solver file
  s=$(date +%s.%N)
  case $1 in
    twill) timeout "$TIMEOUT" "$TWILL" sat "$2" >/dev/null 2>&1 && rc=0 || rc=$? ;;
    minisat) timeout "$TIMEOUT" minisat -verb=0 "$2" >/dev/null 2>&1 && rc=0 || rc=$? ;;
    cadical) timeout "$TIMEOUT" cadical -q -n "$2" >/dev/null 2>&1 && rc=0 || rc=$? ;;
  esac
  e=$(date +%s.%N)
  echo "$s $e $rc" | awk '{ printf "%.3f %d\n", $2 - $1, ($3 == 10 || $3 == 20) ? $3 : 0 }'
}

printf '%-48s %10s %10s %10s\n' instance twill minisat cadical > "$TMP/table"
while IFS='	' read -r f st; do
  want=$([ "$st" = SAT ] && echo 10 || echo 20)
  line=$(printf '%-48s' "$f")
  for solver in twill minisat cadical; do
    : > "$TMP/runs"
    i=0
    while [ $i -lt "$RUNS" ]; do
      set -- $(run1 $solver "$SUITE/$f")
      t=$1; got=$2
      if [ "$got" != 0 ] && [ "$got" != "$want" ]; then
        echo "WRONG ANSWER: $solver on $f says $got, answers.tsv $st" >&2
        got=0
      fi
      [ "$got" = 0 ] && t=$(awk -v T="$TIMEOUT" 'BEGIN { print 2 * T }')
      echo "$t" >> "$TMP/runs"
      i=$((i + 1))
    done
    med=$(sort -n "$TMP/runs" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    line="$line $(printf '%10s' "$med")"
  done
  echo "$line" >> "$TMP/table"
  echo "$line" >&2
done < "$TMP/list"

awk -v T="$TIMEOUT" 'NR > 1 {
    tw = $2; ms = $3; cd = $4
    p2t += tw; p2m += ms; p2c += cd
    if (tw < 2 * T) st++; if (ms < 2 * T) sm++; if (cd < 2 * T) sc++
    if (ms >= 0.05 && ms <= 120 && ms < 2 * T) {
      n++; lm += log(tw / ms); lc += log(tw / cd)
    }
    all++
  }
  END {
    printf "\ninstances %d; solved: twill %d, minisat %d, cadical %d (timeout %s s)\n", all, st, sm, sc, T
    if (n) printf "geomean ratio over %d instances MiniSat solves in 0.05-120 s: twill/minisat %.3f, twill/cadical %.3f\n", n, exp(lm / n), exp(lc / n)
    printf "PAR-2 totals (s): twill %.1f, minisat %.1f, cadical %.1f\n", p2t, p2m, p2c
  }' "$TMP/table" >> "$TMP/table"
cat "$TMP/table"
[ -n "$TABLE" ] && cp "$TMP/table" "$TABLE"
exit 0
