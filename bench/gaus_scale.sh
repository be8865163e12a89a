#!/bin/sh
# bench/gaus_scale.sh: GauS Formulation C where exact search stops, on the
# loops of `twill random --nodes N --density 0.01 --back-edges 50 --seed 7`
# (N = 1000: 54,922 edges, MII 526; N = 5000: 374,519 edges, MII 2476),
# default options (1000 Adam steps), at 1 and 2 threads, RUNS runs each:
#   wall s      process start to exit (median), the figure the issue's
#               targets are about (N = 1000 under 5 s, N = 5000 under 60 s,
#               2 threads)
#   cpu s       user + system (median): what the work costs, whatever the
#               machine's load
#   legal s     seconds to the first legal schedule (twill's --timing)
#   s/step      median seconds per Adam step (--timing)
#   II, L, MII  the schedule's II and length, and the lower bound
#   same bytes  stdout (--json) identical for 1 and 2 threads
# The load average is printed before and after (the development machine is
# shared).  Env: RUNS (3), SIZES ("1000 5000"), TWILL (bin/twill),
# BASE (a second twill binary to time the same way, e.g. an older build).
set -e
cd "$(dirname "$0")/.."
TW=${TWILL:-bin/twill}
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1000 5000"}
D=$(mktemp -d /tmp/gaus_scale.XXXXXX)
trap 'rm -rf "$D"' EXIT
med() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# the commit only when this tree is a checkout of its own (a copied tree
# inside another checkout would name that one's)
rev='?'
[ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] && rev=$(git rev-parse --short HEAD)
echo "# bench/gaus_scale.sh at $rev, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
echo "# load before: $(uptime)"
printf '%-10s %-6s %3s %9s %9s %9s %10s %6s %6s %6s %s\n' binary N T wall-s cpu-s legal-s s/step II L MII same-bytes
for bin in "$TW" ${BASE:+"$BASE"}; do
  for n in $SIZES; do
    k=$D/r$n.twill
    [ -f "$k" ] || "$TW" random --nodes "$n" --density 0.01 --back-edges 50 --seed 7 > "$k"
    for t in 1 2; do
      : > "$D/w" ; : > "$D/c" ; : > "$D/l" ; : > "$D/s"
      r=0
      while [ $r -lt "$RUNS" ]; do
        /usr/bin/time -f "%e %U %S" -o "$D/time" "$bin" gaus "$k" --formulation C \
          --threads "$t" --timing --json > "$D/out.$t" 2> "$D/err" || true
        awk '{ print $1 }' "$D/time" >> "$D/w"
        awk '{ print $2 + $3 }' "$D/time" >> "$D/c"
        sed -n 's/.*first legal after [0-9-]* steps \([^ ]*\) s.*/\1/p' "$D/err" >> "$D/l"
        sed -n 's/^gaus timing: [0-9]* steps, \([^ ]*\) s\/step.*/\1/p' "$D/err" >> "$D/s"
        r=$((r + 1))
      done
      ii=$(sed -n 's/^  "ii": \([0-9]*\),$/\1/p' "$D/out.$t")
      len=$(sed -n 's/^  "length": \([0-9]*\),$/\1/p' "$D/out.$t")
      mii=$(sed -n 's/^  "lower_bound": \([0-9]*\),$/\1/p' "$D/out.$t")
      same=-
      [ "$t" = 2 ] && { cmp -s "$D/out.1" "$D/out.2" && same=yes || same=NO; }
      printf '%-10s %-6s %3s %9s %9s %9s %10s %6s %6s %6s %s\n' "$(basename "$bin")" "$n" "$t" \
        "$(med < "$D/w")" "$(med < "$D/c")" "$(med < "$D/l")" "$(med < "$D/s")" \
        "${ii:-fail}" "${len:-fail}" "${mii:-?}" "$same"
    done
  done
done
echo "# load after: $(uptime)"
