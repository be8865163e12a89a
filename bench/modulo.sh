#!/bin/sh
# bench/modulo.sh: optimal modulo scheduling (twill modulo) on
#   (1) the HatScheT suite $TWILL_SUITES/modulo (354 ChStone + MachSuite
#       loops, 22 Origami graphs), converted by `twill convert-hatschet`:
#       per loop `twill modulo K --no-normalize --time-limit 10 --json --cert C`
#       then `twill check K C`; prints how many are proven optimal within
#       10 s each, the total time, and the loops not proven;
#   (2) peers side by side (bench/peers/modulo_peers.py): z3 (python3-z3,
#       integer start times, `mod` resource counting) and the time-indexed
#       ILP with Eichenberger-Davidson structured rows given to cbc as MPS,
#       on a sample of the HLS loops (every SAMPLE_EVERY-th row with
#       10..SAMPLE_MAX_OPS ops) and on random kernels from `twill random`
#       (4..40 ops, 3 units, --gaps, back edges);
#   (3) hard: random loops of 8-20 ops with tight reservations (capacity
#       1 or up to 2, --gaps, back edges) whose least I is above the MII
#       (bench/peers/modulo_hard.py selects them), twill (certificates
#       checked) against z3 on the same loops, in one run.
#
# Environment: JOBS (parallel loops in (1), default 1), TIME_LIMIT (10),
# CHECK_TIMEOUT (s per `twill check`, default 120), PEER_LIMIT (s per
# peer and kernel, default 60), RUNS (twill runs, median, default 3),
# PEER_RUNS (default 3), SAMPLE_EVERY (12), SAMPLE_MAX_OPS (120),
# PARTS (hls,peers,random,hard; default all), OUT (build/bench/modulo),
# HARD_SEEDS (seeds per capacity bound in (3), default 60).
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${OUT:-$ROOT/build/bench/modulo}
SUITE=${TWILL_SUITES:-}/modulo
PARTS=${PARTS:-hls,peers,random,hard}
mkdir -p "$OUT"

[ -x bin/twill ] || make -s
# A private copy, so that rebuilding during a long run cannot disturb it.
cp bin/twill "$OUT/twill"
TW=$OUT/twill

# Peers: installed if missing (Debian packages).
if ! /usr/bin/python3 -c 'import z3' 2>/dev/null; then
  apt-get install -y python3-z3 >/dev/null
fi
command -v cbc >/dev/null 2>&1 || apt-get install -y coinor-cbc >/dev/null
PY=/usr/bin/python3   # the interpreter python3-z3 installs into

if [ -z "${TWILL_SUITES:-}" ] || [ ! -f "$SUITE/instances.csv" ]; then
  echo "bench/modulo.sh: skipped: the HatScheT loops (set TWILL_SUITES to a tree with modulo/instances.csv); only the random kernels run"
  PARTS=$(echo ",$PARTS," | sed 's/,hls,/,/; s/,peers,/,/')
fi

case ",$PARTS," in *,hls,*)
  echo "== HLS suite: twill modulo --no-normalize --time-limit ${TIME_LIMIT:-10} --json --cert, then twill check"
  $PY bench/peers/hls_twill.py --twill "$TW" --suite "$SUITE" --out "$OUT/hls" \
    --time-limit "${TIME_LIMIT:-10}" --jobs "${JOBS:-1}" \
    --check-timeout "${CHECK_TIMEOUT:-120}" --twill-args "${TWILL_ARGS:-}"
;; esac

case ",$PARTS," in *,peers,*)
  echo "== peers on a sample of the HLS loops (10+ ops)"
  mkdir -p "$OUT/sample"
  $PY - "$SUITE" "$OUT/sample" "${SAMPLE_EVERY:-12}" "${SAMPLE_MAX_OPS:-120}" "$TW" <<'EOF'
import csv, os, subprocess, sys
suite, out, every, maxops, tw = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rows = [r for r in csv.DictReader(open(os.path.join(suite, "instances.csv")))
        if 10 <= int(r["ops"]) <= maxops]
for r in rows[::every]:
    name = r["graph"].replace("hatschet/", "").replace("/", "_").replace(".graphml", "")
    subprocess.run([tw, "convert-hatschet", os.path.join(suite, r["graph"]),
                    os.path.join(suite, r["resource_model"]), "-o",
                    os.path.join(out, name + ".json")], check=True)
EOF
  $PY bench/peers/modulo_peers.py --twill "$TW" --out "$OUT" --label hls \
    --runs "${RUNS:-3}" --peer-runs "${PEER_RUNS:-3}" --limit "${PEER_LIMIT:-60}" \
    "$OUT"/sample/*.json
;; esac

case ",$PARTS," in *,random,*)
  echo "== peers on random kernels (twill random --gaps, 3 units, back edges)"
  mkdir -p "$OUT/random"
  for n in 4 8 12 16 20 24 28 32 36 40; do
    "$TW" random --nodes $n --units 3 --gaps --back-edges 0.15 --density 0.15 \
      --max-lat 6 --seed $n --json > "$OUT/random/r$n.json"
  done
  $PY bench/peers/modulo_peers.py --twill "$TW" --out "$OUT" --label random \
    --runs "${RUNS:-3}" --peer-runs "${PEER_RUNS:-3}" --limit "${PEER_LIMIT:-60}" \
    $(for n in 4 8 12 16 20 24 28 32 36 40; do echo "$OUT/random/r$n.json"; done)
;; esac

case ",$PARTS," in *,hard,*)
  echo "== hard random loops (8-20 ops, I above the MII): twill against z3"
  mkdir -p "$OUT/hard"
  $PY bench/peers/modulo_hard.py --twill "$TW" --out "$OUT/hard" \
    --seeds "${HARD_SEEDS:-60}" > "$OUT/hard/kept.txt"
  $PY bench/peers/modulo_peers.py --twill "$TW" --out "$OUT" --label hard \
    --peers twill,z3 --check --runs "${RUNS:-3}" --peer-runs "${PEER_RUNS:-3}" \
    --limit "${PEER_LIMIT:-60}" $(cat "$OUT/hard/kept.txt")
;; esac
