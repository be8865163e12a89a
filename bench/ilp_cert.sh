#!/bin/sh
# bench/ilp_cert.sh: every instance of a suite's answers.tsv (SUITE=mip, the
# default, or lp) through
# `twill ilp --cert` (search time limit TLIM) and, when it reports optimal,
# `twill vipr-check` on the certificate.  One line per instance:
#   name  status  objective  solve+write_s  verified(1/0/-)  check_s  cert_bytes
# (verified 1: the checker accepts it and the range it proves is finite)
#   sh bench/ilp_cert.sh [INSTANCE...]        (default: every file)
# Env: TWILL (default build/bin/twill), TWILL_SUITES (the suites tree; no
# default: without it the bench says so and stops), TLIM (60),
# TMP (default /tmp): the certificate is written there and removed after;
# SUITE (mip or lp: the directory under suites/).
set -u
TWILL=${TWILL:-build/bin/twill}
if [ -z "${TWILL_SUITES:-}" ] || [ ! -d "$TWILL_SUITES/${SUITE:-mip}" ]; then
  echo "bench/ilp_cert.sh: skipped: no ${SUITE:-mip} suite (set TWILL_SUITES to a tree with ${SUITE:-mip}/)"
  exit 0
fi
TLIM=${TLIM:-60}
TMP=${TMP:-/tmp}
SUITE=${SUITE:-mip}
dir=$TWILL_SUITES/$SUITE
files="$*"
[ -z "$files" ] && files=$(cut -f1 "$dir/answers.tsv" | grep -v '^file$')
w=$TMP/twill-ilp-cert.$$
for f in $files; do
  b=${f%.mps}
  /usr/bin/time -o "$w.t" -f "%e" "$TWILL" ilp "$dir/$b.mps" --time-limit "$TLIM" \
    --cert "$w.vipr" > "$w.out" 2>/dev/null
  st=$(grep '^status' "$w.out" | cut -d' ' -f2)
  obj=$(grep '^objective' "$w.out" | cut -d' ' -f2)
  chk=-; cs=-
  if [ "$st" = optimal ]; then
    /usr/bin/time -o "$w.k" -f "%e" "$TWILL" vipr-check "$w.vipr" > "$w.chk" 2>&1
    chk=0
    # verified, and both ends of the range proved: a certificate without
    # its solution (SOL) proves only the bound, "[lb, inf)"
    grep -q '^s VERIFIED' "$w.chk" && ! grep -q 'range.*inf' "$w.chk" && chk=1
    cs=$(tail -1 "$w.k")
  fi
  sz=$(stat -c %s "$w.vipr" 2>/dev/null || echo 0)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$b" "${st:-error}" "$obj" "$(tail -1 "$w.t")" "$chk" "$cs" "$sz"
  rm -f "$w.vipr"
done
rm -f "$w.t" "$w.k" "$w.out" "$w.chk"
