#!/usr/bin/env python3
"""bench/peers/modulo_hard.py: random loops of 8-20 ops whose least I is
above the MII (the loops where phase 1 must prove that an I has no
schedule), for bench/modulo.sh's `hard` part.

Candidates: for seed s = 1..SEEDS and unit capacity bound C in --caps,
    twill random --nodes (8 + s % 13) --units 2 --max-cap C --gaps
                 --back-edges 0.2 --max-lat 6 --seed s --json
(2 unit kinds of capacity 1..C, reservation tables with gaps, loop-carried
edges).  Each is classified by one run of `twill modulo --time-limit T`;
kept when its I is above the MII, or when the run did not prove its
answer (so a loop twill finds hard is never dropped from the table).  The
peers then confirm I* and L on the kept loops (modulo_peers.py reports any
disagreement).  Writes the kept kernels' paths, one a line, to stdout.
"""
import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twill", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seeds", type=int, default=60)
    ap.add_argument("--caps", default="1,2")
    ap.add_argument("--time-limit", type=float, default=10)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    kept = 0
    total = 0
    for cap in a.caps.split(","):
        for s in range(1, a.seeds + 1):
            n = 8 + s % 13
            k = os.path.join(a.out, "c%s_s%d_n%d.json" % (cap, s, n))
            with open(k, "w") as f:
                subprocess.run([a.twill, "random", "--nodes", str(n), "--units", "2",
                                "--max-cap", cap, "--gaps", "--back-edges", "0.2",
                                "--max-lat", "6", "--seed", str(s), "--json"],
                               stdout=f, check=True)
            p = subprocess.run([a.twill, "modulo", k, "--no-normalize", "--json",
                                "--time-limit", str(a.time_limit)],
                               capture_output=True, text=True)
            total += 1
            j = json.loads(p.stdout)
            mii = max(j["res_mii"], j["rec_mii"])
            if j["ii"] > mii or not j["optimal"]:
                kept += 1
                print(k, flush=True)
    print("modulo_hard: kept %d of %d candidates (I above the MII, or not "
          "proven in %g s)" % (kept, total, a.time_limit), file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
