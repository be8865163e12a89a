#!/bin/sh
# tests/symbols.sh LIB: every external symbol libtwill.a defines starts with
# twill_ (so a user's link cannot clash with it), and none is a command of
# the program (twill_cmd_*: the program lives in core/cli/, outside the
# library).  Run by `make check`.
# AddressSanitizer adds __odr_asan.NAME beside each global NAME of the
# library (its one-definition-rule markers): those are the tool's, not ours.
lib=${1:?usage: tests/symbols.sh LIBTWILL.A}
bad=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' |
      grep -v '^twill_' | grep -v '^__odr_asan\.twill_' ; nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' |
      grep '^twill_cmd_')
if [ -n "$bad" ]; then
  echo "symbols: $lib exports names outside the twill_ namespace or program commands:"
  echo "$bad" | sed 's/^/  /'
  exit 1
fi
echo "symbols: every external symbol of $lib starts with twill_; no twill_cmd_"
