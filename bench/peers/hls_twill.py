#!/usr/bin/env python3
"""bench/peers/hls_twill.py: twill on the HatScheT HLS suite.

For every row of instances.csv (or --only NAME substrings): convert with
`twill convert-hatschet`, run
    twill modulo K --no-normalize --time-limit T --json --cert C
then `twill check K C`, and record per loop: I*, L, whether I* and L are
proven, the certificate verdict, wall time of modulo and of check.
Writes OUT/twill.csv and prints a summary.  --twill-args passes more
options to twill modulo (a lever switched off: --off reduce, --engine ilp).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def inst_name(graph):
    return graph.replace("hatschet/", "").replace("/", "_").replace(".graphml", "")


def run_one(args, row):
    name = inst_name(row["graph"])
    kdir = os.path.join(args.out, "kernels")
    cdir = os.path.join(args.out, "certs")
    k = os.path.join(kdir, name + ".json")
    c = os.path.join(cdir, name + ".cert")
    rec = {"name": name, "ops": int(row["ops"]), "edges": int(row["edges"]),
           "mii_csv": int(row["mii"])}
    p = subprocess.run([args.twill, "convert-hatschet",
                        os.path.join(args.suite, row["graph"]),
                        os.path.join(args.suite, row["resource_model"]),
                        "-o", k], capture_output=True, text=True)
    if p.returncode:
        rec["error"] = "convert: " + p.stderr.strip()
        return rec
    t0 = time.monotonic()
    p = subprocess.Popen([args.twill, "modulo", k, "--no-normalize",
                          "--time-limit", str(args.time_limit), "--json",
                          "--cert", c] + args.twill_args.split(),
                         stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    rec["time"] = time.monotonic() - t0
    rec["cpu"] = ru.ru_utime + ru.ru_stime
    rec["rc"] = p.returncode
    try:
        j = json.loads(out)
    except ValueError:
        rec["error"] = "modulo rc %d" % p.returncode
        return rec
    rec["ii"] = j.get("ii")
    rec["L"] = j.get("length")
    rec["lower_bound"] = j.get("lower_bound")
    rec["optimal"] = bool(j.get("optimal"))
    tries = j.get("stats", {}).get("tries", [])
    rec["ii_proven"] = (j.get("lower_bound") == j.get("ii") and
                        all(t["status"] != "limit" for t in tries
                            if t["ii"] < j.get("ii", 0)))
    if not os.path.exists(c):
        rec["verified"] = False
        rec["check_msg"] = "no certificate written (limit)"
        return rec
    t0 = time.monotonic()
    try:
        # the check normalizes as the run did: not at all (--no-normalize)
        q = subprocess.run([args.twill, "check", k, c, "--no-normalize"], capture_output=True,
                           text=True, timeout=args.check_timeout)
    except subprocess.TimeoutExpired:
        rec["check_time"] = time.monotonic() - t0
        rec["verified"] = None
        rec["check_msg"] = "check not finished in %g s" % args.check_timeout
        return rec
    rec["check_time"] = time.monotonic() - t0
    rec["verified"] = q.returncode == 0 and "s VERIFIED" in q.stdout
    if not rec["verified"]:
        lines = (q.stdout + q.stderr).strip().splitlines()
        rec["check_msg"] = lines[-1] if lines else ""
    return rec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twill", default="bin/twill")
    ap.add_argument("--suite", default=os.path.join(
        os.environ.get("TWILL_SUITES", ""), "modulo"))
    ap.add_argument("--out", default="build/bench/modulo")
    ap.add_argument("--time-limit", type=float, default=10)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--twill-args", default="",
                    help="more options for twill modulo (e.g. '--off reduce', "
                         "'--engine ilp'), to measure one lever switched off")
    ap.add_argument("--check-timeout", type=float, default=30)
    ap.add_argument("--exact", action="store_true",
                    help="--only lists exact instance names")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "kernels"), exist_ok=True)
    os.makedirs(os.path.join(a.out, "certs"), exist_ok=True)
    rows = list(csv.DictReader(open(os.path.join(a.suite, "instances.csv"))))
    if a.only:
        keys = a.only.split(",")
        if a.exact:
            rows = [r for r in rows if inst_name(r["graph"]) in keys]
        else:
            rows = [r for r in rows if any(x in inst_name(r["graph"]) for x in keys)]
    t0 = time.monotonic()
    partial = open(os.path.join(a.out, "twill.partial.jsonl"), "w")

    def one(r):
        rec = run_one(a, r)
        partial.write(json.dumps(rec) + "\n")
        partial.flush()
        return rec

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        recs = list(ex.map(one, rows))
    partial.close()
    wall = time.monotonic() - t0
    fields = ["name", "ops", "edges", "mii_csv", "ii", "L", "lower_bound",
              "ii_proven", "optimal", "verified", "rc", "time", "cpu", "check_time",
              "error", "check_msg"]
    with open(os.path.join(a.out, "twill.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in recs:
            w.writerow(r)
    for grp, pred in (("HLS (ChStone+MachSuite)", lambda r: not r["name"].startswith("origami")),
                      ("Origami", lambda r: r["name"].startswith("origami"))):
        g = [r for r in recs if pred(r)]
        if not g:
            continue
        opt = sum(1 for r in g if r.get("optimal") and r.get("verified"))
        iip = sum(1 for r in g if r.get("ii_proven"))
        ver = sum(1 for r in g if r.get("verified"))
        cto = sum(1 for r in g if r.get("verified") is None and "check_time" in r)
        tot = sum(r.get("time", 0) for r in g)
        cpu = sum(r.get("cpu", 0) for r in g)
        chk = sum(r.get("check_time", 0) for r in g)
        print("%s: %d loops; I* and L proven optimal and certificate verified: %d; "
              "I* proven: %d; certificates verified: %d; modulo time %.1f s "
              "(cpu %.1f s), "
              "check time %.1f s (%d checks cut at the check timeout)" % (
                  grp, len(g), opt, iip, ver, tot, cpu, chk, cto))
        optm = sum(1 for r in g if r.get("optimal"))
        print("  twill modulo says optimal (I* and L) within the limit: %d of %d" % (optm, len(g)))
        for r in g:
            if not r.get("optimal") or r.get("verified") is False:
                print("  not proven: %-28s ops %4d  I %s (lb %s, MII %d)  L %s  "
                      "I*-proven %s  verified %s  %.1fs %s" % (
                          r["name"], r["ops"], r.get("ii"), r.get("lower_bound"),
                          r["mii_csv"], r.get("L"), r.get("ii_proven"),
                          r.get("verified"), r.get("time", 0),
                          r.get("error", "") or (r.get("check_msg") or "")))
    print("wall %.1f s with %d job(s)" % (wall, a.jobs))


if __name__ == "__main__":
    sys.exit(main())
