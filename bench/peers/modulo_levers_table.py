#!/usr/bin/env python3
"""bench/peers/modulo_levers_table.py OUT CONFIG...: the table of
bench/modulo_levers.sh from OUT/CONFIG/twill.csv (or, for a run that was
cut short, OUT/CONFIG/twill.partial.jsonl).  Per configuration and set
(ChStone + MachSuite, Origami): loops run, I* and L proven and the
certificate verified, I* proven, certificates rejected, wall and CPU time
of twill modulo summed over the loops, and the wall time summed over the
loops every configuration proved (the same loops for each row) and their
CPU time (every thread of twill modulo; the machine may be shared)."""
import csv
import json
import os
import sys


def load(d):
    p = os.path.join(d, "twill.csv")
    if os.path.exists(p):
        rows = list(csv.DictReader(open(p)))
        for r in rows:
            for f in ("optimal", "verified", "ii_proven"):
                r[f] = {"True": True, "False": False}.get(r.get(f, ""), None)
            for f in ("time", "cpu"):
                r[f] = float(r[f]) if r.get(f) else 0.0
        return rows, True
    p = os.path.join(d, "twill.partial.jsonl")
    if not os.path.exists(p):
        return [], False
    return [json.loads(x) for x in open(p) if x.strip()], False


def main():
    out, cfgs = sys.argv[1], sys.argv[2:]
    data = {c: load(os.path.join(out, c)) for c in cfgs}
    print("| configuration | set | loops run | I* and L proven, verified | I* proven "
          "| rejected | modulo wall, sum | modulo CPU, sum | wall, CPU on the loops every "
          "configuration proved |")
    print("|---|---|---|---|---|---|---|---|---|")
    for grp, pred in (("ChStone+MachSuite", lambda n: not n.startswith("origami")),
                      ("Origami", lambda n: n.startswith("origami"))):
        common = None
        for c in cfgs:
            ok = {r["name"] for r in data[c][0] if pred(r["name"])
                  and r.get("optimal") and r.get("verified")}
            common = ok if common is None else common & ok
        for c in cfgs:
            rows, done = data[c]
            g = [r for r in rows if pred(r["name"])]
            if not g:
                continue
            print("| %s%s | %s | %d | %d | %d | %d | %.1f s | %.1f s | %.1f s, %.1f s (%d loops) |" % (
                c, "" if done else " (cut short)", grp, len(g),
                sum(1 for r in g if r.get("optimal") and r.get("verified")),
                sum(1 for r in g if r.get("ii_proven")),
                sum(1 for r in g if r.get("verified") is False and
                    "no certificate" not in (r.get("check_msg") or "")),
                sum(r.get("time", 0) for r in g), sum(r.get("cpu", 0) for r in g),
                sum(r.get("time", 0) for r in g if r["name"] in common),
                sum(r.get("cpu", 0) for r in g if r["name"] in common), len(common)))


if __name__ == "__main__":
    sys.exit(main())
