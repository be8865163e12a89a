#!/bin/sh
# bench/gaus_exact.sh: GauS-C against the exact phase-1 search, two tables
# (bench/peers/gaus_exact.py does the work):
#   (1) the gap: on every kernel where `twill modulo` proves I* (with or
#       without the hook), GauS-C's II and L against I* and L* in cycles;
#   (2) the hook: `twill modulo --gaus-min-ops 0` against `--gaus-min-ops 1`
#       (the GauS schedule offered on every size): answers, what is proven,
#       the heuristic's I, CPU seconds.
# Kernels: the built-ins (normalized, as `twill modulo` runs them; I* and L*
# scaled back by the normalization, exact when its error is 0; when it is
# not, the gap is taken against `twill modulo K --no-normalize`), the random
# family of bench/modulo.sh (twill random --units 3 --gaps --back-edges 0.15
# --density 0.15 --max-lat 6, N = 4..40 step 4, plus 60, 80, 120, 200, 400),
# and every EVERY-th HatScheT loop of ../shared/suites/modulo (converted,
# --no-normalize, as bench/modulo.sh runs them).
# Env: TIME_LIMIT (s per `twill modulo`, default 10), EVERY (6), ITERS
# (twill gaus --iters; default its own 1000), OUT (build/bench/gaus_exact),
# PARTS (builtins,random,hls; default all).
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${OUT:-$ROOT/build/bench/gaus_exact}
SHARED=${TWILL_SHARED:-$ROOT/../shared}
PARTS=${PARTS:-builtins,random,hls}
mkdir -p "$OUT"
[ -x bin/twill ] || make -s
# A private copy, so that rebuilding during a long run cannot disturb it.
cp bin/twill "$OUT/twill"
set -- --twill "$OUT/twill" --out "$OUT" --time-limit "${TIME_LIMIT:-10}" \
  --iters "${ITERS:-0}"
case ",$PARTS," in *,builtins,*) set -- "$@" --builtins;; esac
case ",$PARTS," in *,random,*)
  for n in 4 8 12 16 20 24 28 32 36 40 60 80 120 200 400; do
    set -- "$@" --random "$n:--units 3 --gaps --back-edges 0.15 --density 0.15 --max-lat 6 --seed $n"
  done;;
esac
case ",$PARTS," in *,hls,*)
  set -- "$@" --hls "$SHARED/suites/modulo" --every "${EVERY:-6}";;
esac
echo "# bench/gaus_exact.sh at $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# load: $(uptime)"
python3 bench/peers/gaus_exact.py "$@"
echo "# load: $(uptime)"
