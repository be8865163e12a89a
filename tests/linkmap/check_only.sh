#!/bin/sh
# tests/linkmap/check_only.sh TWILL CHECK_ONLY: the certificate checker
# calls no search code.  CHECK_ONLY is tests/linkmap/check_only.c linked
# from the checker's objects alone (the Makefile's CHECK_ONLY_OBJ): that it
# linked shows no encoder, solver, simplex or normalization program is
# reachable from twill_check_cert.  Here: (1) none of the search entry
# points is defined in it (nm), and (2) it verifies the certificates the
# full program writes for fig1 and gemm-hopper, phase 1 and solve, with the
# same verdict as `twill check` (so the linked checker is the real one).
# Run by `make check`.
twill=${1:?usage: tests/linkmap/check_only.sh TWILL CHECK_ONLY}
co=${2:?usage: tests/linkmap/check_only.sh TWILL CHECK_ONLY}
src=$(dirname "$0")/../..
fail=0
# (1) the entry points of search, by module: none may be in the link
defined=$(nm --defined-only "$co" | awk 'NF == 3 { print $3 }')
for s in twill_joint_new twill_sat_new twill_smt_new twill_ilp_solve twill_lps_new \
         twill_normalize_graph twill_modulo_at twill_modulo_ims twill_solve \
         twill_solve_prepare twill_modulo_program twill_ilp_branch_and_bound; do
  if echo "$defined" | grep -qx "$s"; then
    echo "check_only: $s (search code) is linked into the checker"
    fail=1
  fi
done
# (2) the linked checker verifies genuine certificates, and says what
# `twill check` says
w=${TMPDIR:-/tmp}/twill-check-only.$$
for k in fig1 gemm-hopper; do
  for cmd in modulo solve; do
    if ! "$twill" "$cmd" "$src/kernels/$k.twill" --cert "$w.cert" > /dev/null 2>&1; then
      echo "check_only: twill $cmd $k --cert failed"
      fail=1
      continue
    fi
    "$co" "$src/kernels/$k.twill" "$w.cert" > "$w.a" 2> /dev/null
    rc=$?
    "$twill" check "$src/kernels/$k.twill" "$w.cert" > "$w.b" 2> /dev/null
    if [ $rc != 0 ] || ! grep -q '^s VERIFIED$' "$w.a" || ! cmp -s "$w.a" "$w.b"; then
      echo "check_only: $k $cmd: the checker linked alone does not verify as twill check does"
      fail=1
    fi
  done
done
rm -f "$w.cert" "$w.a" "$w.b"
[ $fail = 0 ] && echo "check_only: twill_check_cert links without search code and verifies fig1, gemm-hopper (modulo, solve)"
exit $fail
