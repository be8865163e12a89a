#!/bin/sh
# bench/theory.sh: twill smt against z3 (QF_LIA) on the same problems:
#  - random linear / difference / PB / modulo systems (seeded, awk);
#  - modulo-scheduling feasibility at a fixed I for random kernels from
#    `twill random` (10-60 ops): t(d) - t(s) >= lat(s) - I*dist per edge,
#    per unit at most C uses (t + k) mod I in each slot, t in [0, sum lat].
#  - extra row group: larger modulo instances (100-200 ops), reported apart.
# Each instance is written twice (twill smt format and SMT-LIB 2); each
# solver runs once under `timeout 60` for its answer, then (if that run took
# under 20 s) hyperfine -N (no shell, so no process-spawn noise beyond the
# solver's own exec) times it, 3 to 10 runs after a warm-up, and the median
# from hyperfine's JSON export is kept; the same for both solvers.  Each
# table ends with the geometric mean of twill/z3.  Installs z3 (Debian) if
# missing; needs hyperfine.
set -e
cd "$(dirname "$0")/.."
TWILL=${TWILL:-build/bin/twill}
[ -x "$TWILL" ] || make -s all
command -v z3 >/dev/null 2>&1 || { apt-get install -y z3 >/dev/null 2>&1 || sudo apt-get install -y z3 >/dev/null; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# random system SEED -> $W/r$SEED.smt and .smt2
gen_random() {
  awk -v seed="$1" -v out="$W/r$1" 'BEGIN {
    srand(seed); n = 8 + int(rand() * 8); nb = 4
    s = out ".smt"; z = out ".smt2"
    print "(set-logic QF_LIA)" > z
    for (i = 0; i < n; i++) { lo = 0; hi = 20 + int(rand() * 20)
      print "int x" i, lo, hi > s
      print "(declare-const x" i " Int)(assert (<= " lo " x" i " " hi "))" > z }
    for (i = 0; i < nb; i++) { print "bool b" i > s; print "(declare-const b" i " Bool)" > z }
    m = 2 * n
    for (c = 0; c < m; c++) { k = int(rand() * 4)
      if (k == 0) { i = int(rand() * n); j = int(rand() * n); d = int(rand() * 12) - 3
        print "diff x" i, "x" j, "<=", d > s
        print "(assert (<= (- x" i " x" j ") " d "))" > z }
      else if (k == 1) { t = ""; u = ""; b = int(rand() * 60)
        for (q = 0; q < 3; q++) { a = int(rand() * 7) - 3; i = int(rand() * n)
          t = t (q ? " + " : "") a " x" i; u = u " (* " a " x" i ")" }
        print "lin", t, "<=", b > s; print "(assert (<= (+" u ") " b "))" > z }
      else if (k == 2) { t = ""; u = ""
        for (q = 0; q < 3; q++) { i = int(rand() * nb); t = t (q ? " + " : "") "1 b" i
          u = u " (ite b" i " 1 0)" }
        print "pb", t, ">= 1" > s; print "(assert (>= (+" u ") 1))" > z }
      else { p = 2 + int(rand() * 4); t = ""; u = ""; nu = 2 + int(rand() * 2)
        for (q = 0; q < nu; q++) { i = int(rand() * n); o = int(rand() * 3)
          t = t " x" i "@" o; v[q] = "(mod (+ x" i " " o ") " p ")" }
        print "mod 1", p, t > s
        for (q = 0; q < nu; q++) for (r = q + 1; r < nu; r++)
          print "(assert (distinct " v[q] " " v[r] "))" > z } }
    print "min x0" > s
    print "(minimize x0)(check-sat)(get-value (x0))" > z }'
}

# modulo scheduling instance from a random kernel: SEED N -> $W/m$SEED
gen_modulo() {
  "$TWILL" random --nodes "$2" --seed "$1" > "$W/k$1.twill"
  awk -v out="$W/m$1" 'BEGIN { s = out ".smt"; z = out ".smt2" }
    $1 == "unit" { cap[$2] = $3 }
    $1 == "op" { ops[++nop] = $2; lat[$2] = $4; H += $4; if ($4 > ml) ml = $4
      for (f = 5; f <= NF; f++) if ($f == "use") { split($(f + 1), a, ":"); d = a[2] ? a[2] : 1
        for (k = 0; k < d; k++) { nu[a[1]]++; uo[a[1], nu[a[1]]] = $2; uk[a[1], nu[a[1]]] = k
          busy[a[1]]++ } } }
    $1 == "edge" { ne++; es[ne] = $2; ed[ne] = $3; dist[ne] = ($4 == "dist") ? $5 : 0 }
    END { I = 1; for (u in busy) { r = int((busy[u] + cap[u] - 1) / cap[u]); if (r > I) I = r }
      I += ml  # past the recurrences of most kernels: feasible instances
      print "(set-logic QF_LIA)" > z
      for (i = 1; i <= nop; i++) { print "int", ops[i], 0, H > s
        print "(declare-const " ops[i] " Int)(assert (<= 0 " ops[i] " " H "))" > z }
      for (e = 1; e <= ne; e++) { c = I * dist[e] - lat[es[e]]
        print "diff", es[e], ed[e], "<=", c > s
        print "(assert (<= (- " es[e] " " ed[e] ") " c "))" > z }
      for (u in nu) { t = ""
        for (q = 1; q <= nu[u]; q++) t = t " " uo[u, q] "@" uk[u, q]
        print "mod", cap[u], I, t > s
        for (q = 1; q <= nu[u]; q++) { sm = ""
          for (r = 1; r <= nu[u]; r++)
            sm = sm " (ite (= (mod (+ " uo[u, q] " " uk[u, q] ") " I ") (mod (+ " uo[u, r] " " uk[u, r] ") " I ")) 1 0)"
          print "(assert (<= (+" sm ") " cap[u] "))" > z } }
      print "(check-sat)" > z }' "$W/k$1.twill"
}

command -v hyperfine >/dev/null 2>&1 || { echo "bench/theory.sh: needs hyperfine" >&2; exit 1; }
# time_cmd NAME CMD...: the answer of one run in $W/out; prints the median
# seconds (hyperfine -N, JSON export), or the single run's time when it was
# slow (>= 20 s) or timed out (60 s)
time_cmd() {
  name=$1; shift
  a=$(date +%s%N); timeout 60 "$@" > "$W/out" 2>&1 || true; b=$(date +%s%N)
  once=$(echo "($b - $a) / 1000000000" | bc -l)
  if [ "$(echo "$once >= 20" | bc)" = 1 ]; then echo "$once"; return; fi
  hyperfine -N -i --style none --warmup 1 --min-runs 3 --max-runs 10 \
    --export-json "$W/$name.json" -- "$*" > /dev/null 2>&1 || true
  awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); print $2; exit }' "$W/$name.json"
}

printf '%-10s %-14s %-14s %10s %10s %8s\n' instance twill z3 twill_s z3_s ratio
logsum=0; cnt=0
run_one() {
  tt=$(time_cmd "$1-twill" "$TWILL" smt "$W/$1.smt")
  ta=$(grep '^s ' "$W/out" | awk '{print $2}')
  [ "$ta" = OPTIMUM ] && ta="opt=$(awk '$1 == "o" {print $2}' "$W/out")"
  tz=$(time_cmd "$1-z3" z3 "$W/$1.smt2"); za=$(grep -E '^(sat|unsat|unknown)' "$W/out" | head -1)
  zo=$(tr -d '()' < "$W/out" | awk '$1 == "x0" {print $2}')
  [ -n "$zo" ] && za="$za,x0=$zo"
  r=$(echo "$tt / $tz" | bc -l)
  printf '%-10s %-14s %-14s %10.4f %10.4f %8.3f\n' "$1" "$ta" "$za" "$tt" "$tz" "$r"
  logsum=$(echo "$logsum + l($r)" | bc -l); cnt=$((cnt + 1))
}
geomean() { printf 'geometric mean twill/z3: %.3f over %d instances\n' "$(echo "e($logsum / $cnt)" | bc -l)" "$cnt"; }
for seed in 1 2 3 4 5 6 7 8; do gen_random $seed; run_one r$seed; done
for spec in "1 10" "2 20" "3 30" "4 40" "5 60"; do set -- $spec; gen_modulo $1 $2; run_one m$1; done
geomean
echo
echo "larger modulo instances (100-200 ops):"
printf '%-10s %-14s %-14s %10s %10s %8s\n' instance twill z3 twill_s z3_s ratio
logsum=0; cnt=0
for spec in "11 100" "12 150" "13 200"; do set -- $spec; gen_modulo $1 $2; run_one m$1; done
geomean
echo
echo "difference chains (x_{i+1} - x_i >= 1 over [0, 10^6], minimize the last):"
printf '%-10s %-14s %-14s %10s %10s %8s\n' instance twill z3 twill_s z3_s ratio
logsum=0; cnt=0
for n in 500 2000 5000; do
  awk -v n=$n -v s="$W/c$n.smt" -v z="$W/c$n.smt2" 'BEGIN {
    print "(set-logic QF_LIA)" > z
    for (i = 0; i < n; i++) { print "int x" i, 0, 1000000 > s
      print "(declare-const x" i " Int)(assert (<= 0 x" i " 1000000))" > z }
    for (i = 0; i + 1 < n; i++) { print "diff x" i, "x" i + 1, "<= -1" > s
      print "(assert (<= (- x" i " x" i + 1 ") (- 1)))" > z }
    print "min x" n - 1 > s
    print "(minimize x" n - 1 ")(check-sat)(get-value (x" n - 1 "))" > z }'
  run_one c$n
done
geomean
