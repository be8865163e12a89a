#!/bin/sh
# bench/twill.sh: Twill phase 2 (`twill solve`: Algorithm 1, phase 1 then the
# joint SWP + warp-specialization problem of include/twill/joint.h at each
# (I, L)) on every built-in kernel, against z3 on the same joint queries.
# Per kernel, median of RUNS runs each:
#   twill s       `twill solve K --json --time-limit T` (wall, process start
#                 to exit: parsing, normalization, phase 1 and the joint
#                 search, to the proven optimum; "limit" when it exits 3)
#   joint s       the part of it spent in the joint queries, when the JSON
#                 tries carry "seconds" ("-" otherwise)
#   twill+cert s  `twill solve K --cert C` plus `twill check K C` (wall);
#                 "unverified" unless the check prints "s VERIFIED"
#   z3 s          bench/peers/joint_z3.py (python3-z3, QF_LIA, integer start
#                 times, Boolean warps) on the normalized kernel twill solved
#                 (--normalized-kernel) with twill's parameters, on the (I, L)
#                 queries twill's search made: (ii, lmax) of every try (the
#                 refutation of an UNSAT I), (I*, L) and (I*, L - 1); the sum
#                 of z3's check() times (building the terms in Python not
#                 counted); "limit" when a query hits PEER_LIMIT
#   z3/twill      z3 s over twill s; geometric mean over the kernels where
#                 both finished, and separately counting z3's limits at the
#                 limit (a lower bound on the ratio)
#   z3 bin s      (Z3BIN=1) the z3 binary on the same queries as SMT-LIB 2
#                 files (joint_z3.py --smtlib), `z3 -T:PEER_LIMIT`, summed
# Every z3 answer is compared with twill's (a try's status holds at its
# lmax because feasibility is monotone in L; SAT at (I*, L); UNSAT at
# (I*, L - 1) when twill proved L), and every z3 model is checked by the
# peer's own validator and by twill's (`twill check` on the certificate
# header with z3's schedule): the "agree" column.
#
# Environment: RUNS (twill runs, default 3), PEER_RUNS (z3 runs, 3),
# PEER_LIMIT (s per z3 query, 60), TIME_LIMIT (twill solve --time-limit,
# 60), KERNELS (space-separated; default every `twill kernels`), LIVE (grid
# or div: joint_z3.py --live, default div), Z3BIN (1: also the z3 binary),
# TWILL_FLAGS (more `twill solve` flags, e.g. "--warps 8"; the certificate
# run gets them too), OUT (build/bench/twill).
set -e
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=${OUT:-$ROOT/build/bench/twill}
mkdir -p "$OUT"

[ -x bin/twill ] || make -s
# A private copy, so that rebuilding during a long run cannot disturb it.
cp bin/twill "$OUT/twill"
TW=$OUT/twill

# The peer: installed if missing (Debian packages).
if ! /usr/bin/python3 -c 'import z3' 2>/dev/null; then
  apt-get install -y python3-z3 >/dev/null
fi
if [ "${Z3BIN:-0}" = 1 ] && ! command -v z3 >/dev/null 2>&1; then
  apt-get install -y z3 >/dev/null
fi
PY=/usr/bin/python3   # the interpreter python3-z3 installs into

# Every built-in kernel.  The no-sub-tiling ablation has no joint schedule
# at the default 16 warps (that is its point, see tests/test_joint.c), so it
# runs with the flags of KFLAGS below, where it has one (I* = 36).
KERNELS=${KERNELS:-$("$TW" kernels | awk '{print $1}')}

echo "== twill solve vs z3 on the joint queries ($(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
$PY - "$TW" "$OUT" "${RUNS:-3}" "${PEER_RUNS:-3}" "${PEER_LIMIT:-60}" \
  "${TIME_LIMIT:-60}" "${LIVE:-div}" "${Z3BIN:-0}" "${TWILL_FLAGS:-}" \
  $KERNELS <<'EOF'
import csv, json, math, os, statistics, subprocess, sys, time
tw, out, runs, peer_runs, limit, tlimit, live, z3bin, flags = sys.argv[1:10]
kernels = sys.argv[10:]
runs, peer_runs, limit, tlimit = int(runs), int(peer_runs), float(limit), float(tlimit)
flags = flags.split()
peer = os.path.join(os.getcwd(), "bench", "peers", "joint_z3.py")
# per-kernel flags on top of TWILL_FLAGS (the peer reads the parameters
# from twill's --json output, so it solves the same problem)
KFLAGS = {"fa4-fwd-nosub-blackwell": ["--warps", "24", "--regs", "248"]}


def timed(cmd, **kw):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return time.monotonic() - t0, p


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


rows = []
for k in kernels:
    base = os.path.join(out, k)
    norm, sj, cert = base + ".norm.json", base + ".solve.json", base + ".cert"
    rec = {"kernel": k}
    # twill solve
    ts = []
    for i in range(runs):
        t, p = timed([tw, "solve", k, "--json", "--time-limit", str(tlimit),
                      "--normalized-kernel", norm] + flags + KFLAGS.get(k, []))
        ts.append(t)
        if p.returncode == 3:
            break  # a limit: one run is enough
    open(sj, "w").write(p.stdout)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        print("%-18s twill solve exit %d: %s" % (k, p.returncode, p.stderr.strip()[:200]))
        continue
    rec["status"] = {0: "optimal", 2: "infeasible", 3: "limit"}.get(p.returncode, "exit %d" % p.returncode)
    # the solver's own I and L (normalized cycles), what z3 is asked about
    n = j.get("normalized", j)
    rec["ii"], rec["L"] = n.get("ii"), n.get("length")
    rec["length_proven"] = j.get("length_proven")
    rec["twill_s"] = statistics.median(ts)
    tries = j.get("tries", [])
    rec["tries"] = len(tries)
    rec["joint_s"] = (sum(t["seconds"] for t in tries)
                      if tries and all("seconds" in t for t in tries) else None)
    # twill solve --cert + twill check
    cs, verified = [], True
    for i in range(runs):
        t1, p1 = timed([tw, "solve", k, "--cert", cert, "--time-limit", str(tlimit)]
                       + flags + KFLAGS.get(k, []))
        t2, p2 = timed([tw, "check", k, cert])
        cs.append(t1 + t2)
        verified = verified and "s VERIFIED" in p2.stdout
        if p1.returncode == 3:
            break
    rec["cert_s"] = statistics.median(cs)
    rec["verified"] = verified
    # the z3 peer on twill's queries
    zs, zb, lim, results = [], [], False, None
    for i in range(peer_runs):
        cmd = [peer, norm, sj, "--from-solve", sj, "--json", "--limit", str(limit),
               "--live", live]
        if i == 0:
            cmd += ["--twill-check", tw, k, cert]
            if z3bin == "1":
                cmd += ["--smtlib", base + ".smt2"]
        t, p = timed(["/usr/bin/python3"] + cmd)
        try:
            res = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
        except ValueError:
            res = []
        if not res:
            print("%-18s joint_z3.py failed: %s" % (k, p.stderr.strip()[-300:]))
            break
        if results is None:
            results = res
        zs.append(sum(r["seconds"] for r in res))
        if any(r["status"] == "limit" for r in res):
            lim = True
            break
    if results is None:
        rows.append(rec)
        continue
    rec["z3_s"] = statistics.median(zs)
    rec["z3_limit"] = lim
    rec["queries"] = " ".join("%d/%d:%s" % (r["ii"], r["L"], r["status"]) for r in results)
    # agreement with twill, and the models
    want = {}
    for t in tries:
        if t.get("status") in ("SAT", "UNSAT"):
            want[(t["ii"], t["lmax"])] = t["status"].lower()
    if rec["ii"] and rec["L"]:
        want[(rec["ii"], rec["L"])] = "sat"
        if rec["length_proven"]:
            want[(rec["ii"], rec["L"] - 1)] = "unsat"
    bad = []
    for r in results:
        q = (r["ii"], r["L"])
        if r["status"] != "limit" and q in want and want[q] != r["status"]:
            bad.append("%d/%d twill %s z3 %s" % (q[0], q[1], want[q], r["status"]))
        if r["status"] == "sat" and (r.get("why") or r.get("twill") != "twill-valid"):
            bad.append("%d/%d model: %s %s" % (q[0], q[1], r.get("why") or "", r.get("twill")))
        if (r["status"] == "sat" and q == (rec["ii"], rec["L"] - 1)
                and not rec["length_proven"]):
            bad.append("%d/%d sat: L %d is not the least" % (q[0], q[1], rec["L"]))
    answered = sum(r["status"] != "limit" for r in results)
    rec["agree"] = "; ".join(bad) if bad else (
        "yes" if answered == len(results) else
        "yes (%d of %d answered)" % (answered, len(results)))
    # the z3 binary on the SMT-LIB files
    if z3bin == "1":
        files = sorted(os.listdir(base + ".smt2"))
        py = {"%s-I%d-L%d.smt2" % (j.get("kernel", k), r["ii"], r["L"]): r["status"]
              for r in results}
        for i in range(peer_runs):
            tot, hit = 0.0, False
            for f in files:
                t, p = timed(["z3", "-T:%d" % math.ceil(limit), os.path.join(base + ".smt2", f)])
                tot += t
                ans = p.stdout.strip()
                hit = hit or ans not in ("sat", "unsat")
                if ans in ("sat", "unsat") and py.get(f, ans) not in (ans, "limit"):
                    rec["agree"] = ("" if rec["agree"] == "yes" else rec["agree"] + "; ") + \
                        "%s: z3 binary %s, python z3 %s" % (f, ans, py.get(f))
            zb.append(tot)
            if hit:
                break
        rec["z3bin_s"] = statistics.median(zb)
        rec["z3bin_limit"] = hit
    rows.append(rec)
    print("%-18s %s I %s L %s | twill %.3fs | +cert %.3fs%s | z3 %s | %s" % (
        k, rec["status"], rec["ii"], rec["L"], rec["twill_s"], rec["cert_s"],
        "" if verified else " unverified",
        ("limit (%.1fs)" % rec["z3_s"]) if lim else "%.3fs" % rec["z3_s"],
        rec["queries"]), flush=True)


def f3(x):
    return "-" if x is None else "%.3f" % x


print()
hdr = ["kernel", "I*", "L", "twill s", "joint s", "twill+cert s", "z3 s", "z3/twill"]
if z3bin == "1":
    hdr.append("z3 bin s")
hdr.append("agree")
print("| " + " | ".join(hdr) + " |")
print("|" + "---|" * len(hdr))
ratios, ratios_lim = [], []
for r in rows:
    if "z3_s" not in r:
        continue
    tw_s = f3(r["twill_s"]) + (" (limit)" if r["status"] == "limit" else "")
    ct = f3(r["cert_s"]) + ("" if r["verified"] else " (unverified)")
    z = "limit" if r["z3_limit"] else f3(r["z3_s"])
    ratio = r["z3_s"] / r["twill_s"] if r["twill_s"] > 0 else float("nan")
    rs = (">= %.1f" if r["z3_limit"] else "%.2f") % ratio
    if r["status"] == "optimal":
        (ratios_lim if r["z3_limit"] else ratios).append(ratio)
    else:
        rs += " (twill limit)"
    cells = [r["kernel"], str(r["ii"]), str(r["L"]) + ("" if r["length_proven"] else "?"),
             tw_s, f3(r["joint_s"]), ct, z, rs]
    if z3bin == "1":
        cells.append("limit" if r["z3bin_limit"] else f3(r["z3bin_s"]))
    cells.append(r["agree"])
    print("| " + " | ".join(cells) + " |")
print()
print("geometric mean z3/twill over %d kernels where twill proved the optimum "
      "and z3 finished every query: %.2f" % (len(ratios), gmean(ratios)))
if ratios_lim:
    print("counting the %d kernels where z3 hit its %g s limit at the limit: "
          ">= %.2f" % (len(ratios_lim), limit, gmean(ratios + ratios_lim)))
print("(L?: twill did not prove L least at I*; twill s includes phase 1 and "
      "normalization, z3 s only the joint queries)")
fields = ["kernel", "status", "ii", "L", "length_proven", "tries", "twill_s",
          "joint_s", "cert_s", "verified", "z3_s", "z3_limit", "z3bin_s",
          "z3bin_limit", "queries", "agree"]
with open(os.path.join(out, "twill.csv"), "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
print("wrote", os.path.join(out, "twill.csv"))
EOF
