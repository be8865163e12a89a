#!/bin/sh
# bench/vipr_outside.sh: twill's VIPR certificates read by an outside
# checker.  Every instance of a suite's answers.tsv (SUITE=lp or mip)
# through `twill ilp --cert` (search time limit TLIM); when twill reports
# optimal, the certificate goes to $VIPRCHK (viprchk of scipopt/vipr, built
# from its public source with -DNDEBUG: certificates.md 3.3) and to
# `twill vipr-check`.  One line per instance:
#   name  status  twill_verified(1/0/-)  viprchk(1/0/-)  viprchk_s  cert_bytes  viprchk's last line
# (viprchk 1: exit 0 and "Successfully verified"; the certificate is written
# as twill writes it, no conversion).  Also, with KERNELS=1, the phase-1
# blocks of every built-in kernel's `twill modulo --cert`, one line each.
#   sh bench/vipr_outside.sh [INSTANCE...]
# Env: TWILL (build/bin/twill), VIPRCHK (required), TWILL_SUITES (the suites
# tree; without it the suite part says so and is skipped), SUITE (lp),
# TLIM (60), TMP (/tmp), KERNELS (0).
set -u
TWILL=${TWILL:-build/bin/twill}
if [ -z "${VIPRCHK:-}" ] || [ ! -x "$VIPRCHK" ]; then
  echo "bench/vipr_outside.sh: skipped: set VIPRCHK to a viprchk binary"
  exit 0
fi
TLIM=${TLIM:-60}
TMP=${TMP:-/tmp}
SUITE=${SUITE:-lp}
w=$TMP/twill-vipr-outside.$$
chk() { # FILE -> "ok secs last-line"
  /usr/bin/time -o "$w.k" -f "%e" "$VIPRCHK" "$1" > "$w.v" 2>&1
  rc=$?
  ok=0
  [ $rc = 0 ] && grep -q 'Successfully verified' "$w.v" && ok=1
  printf '%s\t%s\t%s' "$ok" "$(tail -1 "$w.k")" "$(grep -v '^$' "$w.v" | grep -v 'Completed in' | tail -1)"
}
if [ "${KERNELS:-0}" = 1 ]; then
  for k in $("$TWILL" kernels | awk '{print $1}'); do
    "$TWILL" modulo "$k" --cert "$w.cert" > /dev/null 2>&1
    # each "vipr I kind BYTES" block (and norm-proof) as its own file
    awk -v out="$w.blk" -v k="$k" '
      function take(n,   got, line) { got = 0; printf "" > out
        while (got < n && (getline line) > 0) { print line > out; got += length(line) + 1 }
        close(out) }
      /^vipr [0-9]+ [a-z]+ [0-9]+$/ { n = $4; name = $1 " " $2 " " $3; take(n); print name > (out ".names"); system("cp " out " " out "." NR) ; print out "." NR >> (out ".list") }
      /^norm-proof [0-9]+$/ { n = $2; take(n); system("cp " out " " out "." NR); print out "." NR >> (out ".list") }
    ' "$w.cert"
    if [ -f "$w.blk.list" ]; then
      while read -r f; do
        printf '%s\t%s\t%s\n' "$k" "$(head -c 60 "$f" | tr '\n' ' ' | cut -c1-20)" "$(chk "$f")"
        rm -f "$f"
      done < "$w.blk.list"
    fi
    rm -f "$w.blk" "$w.blk.list" "$w.blk.names" "$w.cert"
  done
fi
if [ -z "${TWILL_SUITES:-}" ] || [ ! -d "$TWILL_SUITES/$SUITE" ]; then
  echo "bench/vipr_outside.sh: suite part skipped (set TWILL_SUITES to a tree with $SUITE/)"
  exit 0
fi
dir=$TWILL_SUITES/$SUITE
files="$*"
[ -z "$files" ] && files=$(cut -f1 "$dir/answers.tsv" | grep -v '^file$')
for f in $files; do
  b=${f%.mps}
  "$TWILL" ilp "$dir/$b.mps" --time-limit "$TLIM" --cert "$w.vipr" > "$w.out" 2>/dev/null
  st=$(grep '^status' "$w.out" | cut -d' ' -f2)
  tv=-; out="-	-	-"
  if [ "$st" = optimal ]; then
    tv=0
    "$TWILL" vipr-check "$w.vipr" > "$w.tc" 2>&1 && grep -q '^s VERIFIED' "$w.tc" && tv=1
    out=$(chk "$w.vipr")
  fi
  sz=$(stat -c %s "$w.vipr" 2>/dev/null || echo 0)
  printf '%s\t%s\t%s\t%s\t%s\n' "$b" "${st:-error}" "$tv" "$out" "$sz"
  rm -f "$w.vipr"
done
rm -f "$w.k" "$w.v" "$w.out" "$w.tc"
