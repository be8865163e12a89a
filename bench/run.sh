#!/bin/sh
# bench/run.sh: run every benchmark script in bench/ (NAME.sh), each of
# which installs its peer solvers if missing and prints its own table.
# BENCH=name runs one; benches are never part of `make check`.
set -e
cd "$(dirname "$0")"
for b in *.sh; do
  [ "$b" = run.sh ] && continue
  name=${b%.sh}
  if [ -n "${BENCH:-}" ] && [ "$BENCH" != "$name" ]; then continue; fi
  echo "== bench/$b =="
  sh "./$b"
done
