#!/usr/bin/env python3
"""bench/peers/modulo_peers.py: twill modulo against two peers on the same
modulo-scheduling problems (twill's JSON kernel form as input).

Problem (same as twill modulo): least integer I >= MII such that a modulo
schedule exists; at that I the least length L = max_v t_v + max(lat_v, 1),
with t_v >= 0 integer, t_dst - t_src >= lat - I*dist for every edge, and for
every unit U and slot q: sum of the counts of the uses busy at q (mod I) is
at most cap(U).  Every solver searches I = MII, MII+1, ... and at each I
minimizes L (infeasible -> next I).  Both peers get the same valid horizon
twill's own program uses (twill_modulo_horizon: I*(W+1) - 1 + max lat, W =
sum over non-self-loop edges of ceil(lat/I)), narrowed per op by the ASAP and
tail longest paths at I (a window every schedule with L <= horizon obeys).

Peers:
  z3   python3-z3 (run with /usr/bin/python3): integer start times, resource
       counting with `mod` (If((t_v + o + j) % I == q, n, 0)), Optimize
       minimizing L.
  cbc  the time-indexed ILP with Eichenberger-Davidson structured rows:
       x[v,t] binary on the window of v; sum_t x[v,t] = 1; resources folded
       mod I; for every edge u->v (d = lat - I*dist) and every t the
       structured dependence row sum_{s>=t} x[u,s] + sum_{s<t+d} x[v,s] <= 1;
       L >= sum_t (t + lat1_v) x[v,t].  Written as MPS, solved by `cbc`.

Usage: modulo_peers.py --twill BIN --out DIR [--runs 3] [--peer-runs 3] [--limit 60]
                       [--peers z3,cbc,twill] KERNEL.json ...
Writes DIR/peers.csv (one row per kernel and solver: median time of the
runs, I, L, status) and prints the table with geometric-mean ratios.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    k = json.load(open(path))
    ops = k["ops"]
    idx = {o["name"]: i for i, o in enumerate(ops)}
    units = k.get("units", {})
    uses = []
    for o in ops:
        us = []
        for u in o.get("use", []):
            cnt = u[3] if len(u) > 3 else 1
            us.append((u[0], u[1], u[2], cnt))
        uses.append(us)
    edges = [(idx[e["src"]], idx[e["dst"]], e["lat"], e.get("dist", 0))
             for e in k.get("edges", [])]
    lat = [o["lat"] for o in ops]
    return {"name": k.get("kernel", os.path.basename(path)), "n": len(ops),
            "lat": lat, "uses": uses, "edges": edges, "units": units}


def lat1(k, v):
    return max(k["lat"][v], 1)


def horizon(k, I):
    w = sum((l + I - 1) // I for (s, d, l, dd) in k["edges"] if s != d)
    maxlat = max([1] + [lat1(k, v) for v in range(k["n"])])
    return I * (w + 1) - 1 + maxlat


def windows(k, I):
    """ASAP and latest start at I (Bellman-Ford longest paths); None if a
    positive cycle (I below RecMII)."""
    n = k["n"]
    asap = [0] * n
    for it in range(n + 1):
        ch = False
        for (s, d, l, dd) in k["edges"]:
            x = asap[s] + l - I * dd
            if x > asap[d]:
                asap[d] = x
                ch = True
        if not ch:
            break
    else:
        return None
    tail = [lat1(k, v) for v in range(n)]
    for it in range(n + 1):
        ch = False
        for (s, d, l, dd) in k["edges"]:
            x = l - I * dd + tail[d]
            if x > tail[s]:
                tail[s] = x
                ch = True
        if not ch:
            break
    else:
        return None
    H = horizon(k, I)
    win = [(asap[v], H - tail[v]) for v in range(n)]
    if any(a > b for a, b in win):
        return None
    return win, H


def mii_of(twill, path):
    p = subprocess.run([twill, "bounds", path, "--json"], capture_output=True,
                       text=True)
    return json.loads(p.stdout)["mii"]


# ---------------------------------------------------------------- z3 ----

def z3_solve(k, mii, limit):
    import z3
    t0 = time.monotonic()
    I = mii
    while True:
        left = limit - (time.monotonic() - t0)
        if left <= 0:
            return {"status": "limit", "ii": None, "L": None}
        ww = windows(k, I)
        if ww is None:
            I += 1
            continue
        win, H = ww
        o = z3.Optimize()
        o.set("timeout", max(1, int(left * 1000)))
        t = [z3.Int("t%d" % v) for v in range(k["n"])]
        L = z3.Int("L")
        for v in range(k["n"]):
            o.add(t[v] >= win[v][0], t[v] <= win[v][1])
            o.add(L >= t[v] + lat1(k, v))
        o.add(L <= H)
        for (s, d, l, dd) in k["edges"]:
            o.add(t[d] - t[s] >= l - I * dd)
        for u, cap in k["units"].items():
            terms = [(v, off, cyc, cnt) for v in range(k["n"])
                     for (uu, off, cyc, cnt) in k["uses"][v] if uu == u]
            if not terms:
                continue
            for q in range(I):
                o.add(z3.Sum([z3.If((t[v] + off + j) % I == q, cnt, 0)
                              for (v, off, cyc, cnt) in terms
                              for j in range(cyc)]) <= cap)
        o.minimize(L)
        r = o.check()
        if r == z3.sat:
            return {"status": "optimal", "ii": I,
                    "L": o.model()[L].as_long()}
        if r == z3.unsat:
            I += 1
            continue
        return {"status": "limit", "ii": None, "L": None}


# ---------------------------------------------------------------- cbc ---

def write_mps(k, I, win, H, f):
    n = k["n"]
    col = {}
    cols = []  # name -> list of (row, coef)
    for v in range(n):
        for t in range(win[v][0], win[v][1] + 1):
            col[(v, t)] = len(cols)
            cols.append([])
    Lc = len(cols)
    cols.append([])
    rows = []  # (name, sense, rhs)

    def row(sense, rhs, entries):
        r = len(rows)
        rows.append((sense, rhs))
        for c, a in entries:
            cols[c].append((r, a))

    for v in range(n):
        row("E", 1, [(col[(v, t)], 1) for t in range(win[v][0], win[v][1] + 1)])
    for u, cap in k["units"].items():
        acc = [dict() for _ in range(I)]
        for v in range(n):
            for (uu, off, cyc, cnt) in k["uses"][v]:
                if uu != u:
                    continue
                for t in range(win[v][0], win[v][1] + 1):
                    for j in range(cyc):
                        q = (t + off + j) % I
                        c = col[(v, t)]
                        acc[q][c] = acc[q][c] + cnt if c in acc[q] else cnt
        for q in range(I):
            if acc[q]:
                row("L", cap, list(acc[q].items()))
    for (s, d, l, dd) in k["edges"]:
        if s == d:
            continue  # implied: I >= RecMII
        dl = l - I * dd
        (a0, a1), (b0, b1) = win[s], win[d]
        for t in range(a0, a1 + 1):
            # sum_{x >= t} x[s,x] + sum_{y < t+dl} x[d,y] <= 1
            hi = min(b1, t + dl - 1)
            if hi < b0:
                continue
            ent = [(col[(s, x)], 1) for x in range(t, a1 + 1)]
            ent += [(col[(d, y)], 1) for y in range(b0, hi + 1)]
            row("L", 1, ent)
    for v in range(n):
        ent = [(col[(v, t)], -(t + lat1(k, v)))
               for t in range(win[v][0], win[v][1] + 1)]
        ent.append((Lc, 1))
        row("G", 0, ent)
    w = f.write
    w("NAME          MODULO\nROWS\n N  OBJ\n")
    for i, (sense, rhs) in enumerate(rows):
        w(" %s  R%d\n" % (sense, i))
    w("COLUMNS\n")
    w("    MARKER                 'MARKER'                 'INTORG'\n")
    for c in range(Lc):
        for (r, a) in cols[c]:
            w("    X%d  R%d  %d\n" % (c, r, a))
    w("    MARKER                 'MARKER'                 'INTEND'\n")
    w("    L  OBJ  1\n")
    for (r, a) in cols[Lc]:
        w("    L  R%d  %d\n" % (r, a))
    w("RHS\n")
    for i, (sense, rhs) in enumerate(rows):
        if rhs:
            w("    RHS  R%d  %d\n" % (i, rhs))
    w("BOUNDS\n")
    for c in range(Lc):
        w(" UP BND  X%d  1\n" % c)
    w(" UP BND  L  %d\n" % H)
    w("ENDATA\n")
    return len(cols), len(rows)


def cbc_solve(k, mii, limit, tmpdir):
    t0 = time.monotonic()
    I = mii
    while True:
        left = limit - (time.monotonic() - t0)
        if left <= 0:
            return {"status": "limit", "ii": None, "L": None}
        ww = windows(k, I)
        if ww is None:
            I += 1
            continue
        win, H = ww
        nnz = sum((win[s][1] - win[s][0] + 1) * (win[s][1] - win[s][0] + win[d][1] - win[d][0] + 2)
                  for (s, d, l, dd) in k["edges"] if s != d)
        if nnz > 20000000:
            return {"status": "too-large", "ii": None, "L": None}
        mps = os.path.join(tmpdir, "m.mps")
        sol = os.path.join(tmpdir, "m.sol")
        with open(mps, "w") as f:
            write_mps(k, I, win, H, f)
        if os.path.exists(sol):
            os.remove(sol)
        try:
            subprocess.run(["cbc", mps, "sec", "%.2f" % max(left, 0.01),
                            "threads", "1", "solve", "solu", sol],
                           capture_output=True, text=True, timeout=left + 5)
        except subprocess.TimeoutExpired:
            return {"status": "limit", "ii": None, "L": None}
        try:
            first = open(sol).readline()
        except OSError:
            first = ""
        if first.startswith("Optimal"):
            L = round(float(first.split()[-1]))
            return {"status": "optimal", "ii": I, "L": L}
        if first.startswith("Infeasible") or "infeasible" in first.lower():
            I += 1
            continue
        return {"status": "limit", "ii": None, "L": None}


# -------------------------------------------------------------- twill ---

def twill_solve(twill, path, limit, tmpdir, check=False):
    """One run of twill modulo with a certificate; its CPU time (every
    thread, from wait4) beside the wall time, since the development machine
    is shared; with check, `twill check` verifies the certificate (its time
    is not counted)."""
    cert = os.path.join(tmpdir, "c.cert")
    if os.path.exists(cert):
        os.remove(cert)
    p = subprocess.Popen([twill, "modulo", path, "--no-normalize",
                          "--time-limit", str(limit), "--json", "--cert", cert],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    out = p.stdout.read()
    p.stdout.close()
    _, _, ru = os.wait4(p.pid, 0)
    try:
        j = json.loads(out)
    except ValueError:
        return {"status": "error", "ii": None, "L": None}
    r = {"status": "optimal" if j.get("optimal") else "limit",
         "ii": j.get("ii"), "L": j.get("length"),
         "cpu": ru.ru_utime + ru.ru_stime, "verified": ""}
    if check and r["status"] == "optimal":
        # the check normalizes as the run did: not at all (--no-normalize)
        q = subprocess.run([twill, "check", path, cert, "--no-normalize"], capture_output=True,
                           text=True)
        r["verified"] = q.returncode == 0 and "s VERIFIED" in q.stdout
    return r


def timed(fn, runs):
    ts, cpus, res = [], [], None
    for i in range(runs):
        t0 = time.monotonic()
        res = fn()
        ts.append(time.monotonic() - t0)
        if "cpu" in res:
            cpus.append(res["cpu"])
        if res["status"] != "optimal":
            break  # a limit: one run is enough
    res["time"] = statistics.median(ts)
    if cpus:
        res["cpu"] = statistics.median(cpus)
    res["runs"] = len(ts)
    return res


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twill", default="bin/twill")
    ap.add_argument("--out", default="build/bench/peers")
    ap.add_argument("--runs", type=int, default=3, help="twill runs (median)")
    ap.add_argument("--peer-runs", type=int, default=3, help="peer runs (median)")
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--twill-limit", type=float, default=10)
    ap.add_argument("--peers", default="twill,z3,cbc")
    ap.add_argument("--label", default="")
    ap.add_argument("--check", action="store_true",
                    help="verify twill's certificates with twill check")
    ap.add_argument("kernels", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    peers = a.peers.split(",")
    rows = []
    tmpdir = tempfile.mkdtemp(prefix="mpeers")
    for path in a.kernels:
        k = load(path)
        mii = mii_of(a.twill, path)
        rec = {"kernel": k["name"], "ops": k["n"], "edges": len(k["edges"]),
               "mii": mii}
        for p in peers:
            if p == "twill":
                r = timed(lambda: twill_solve(a.twill, path, a.twill_limit, tmpdir,
                                              a.check), a.runs)
            elif p == "z3":
                r = timed(lambda: z3_solve(k, mii, a.limit), a.peer_runs)
            else:
                r = timed(lambda: cbc_solve(k, mii, a.limit, tmpdir), a.peer_runs)
            for f in ("status", "ii", "L", "time", "runs"):
                rec[p + "_" + f] = r[f]
            if p == "twill":
                rec["twill_cpu"] = r.get("cpu")
                rec["twill_verified"] = r.get("verified", "")
        rows.append(rec)
        line = "%-28s %4d ops MII %3d" % (k["name"][:28], k["n"], mii)
        for p in peers:
            line += " | %s %s I %s L %s %.3fs" % (
                p, rec[p + "_status"][:3], rec[p + "_ii"], rec[p + "_L"],
                rec[p + "_time"])
            if p == "twill" and rec.get("twill_cpu") is not None:
                line += " (cpu %.3fs%s)" % (rec["twill_cpu"],
                                           {True: " verified", False: " REJECTED"}.get(rec["twill_verified"], ""))
        print(line, flush=True)
    fields = list(rows[0].keys()) if rows else []
    out = os.path.join(a.out, "peers%s.csv" % (("_" + a.label) if a.label else ""))
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)
    # agreement and ratios
    if "twill" in peers:
        for p in peers:
            if p == "twill":
                continue
            both = [r for r in rows if r["twill_status"] == "optimal"
                    and r[p + "_status"] == "optimal"]
            disagree = [r["kernel"] for r in both
                        if (r["twill_ii"], r["twill_L"]) != (r[p + "_ii"], r[p + "_L"])]
            lim = [r for r in rows if r["twill_status"] == "optimal"
                   and r[p + "_status"] != "optimal"]
            ratio = gmean([r[p + "_time"] / r["twill_time"] for r in both])
            # with the peer's limits counted at the limit (a lower bound)
            ratio_all = gmean([r[p + "_time"] / r["twill_time"]
                               for r in both + lim])
            if both:
                print("%s vs twill: ratio of medians over the %d kernels both "
                      "solved: %s %.3fs / twill %.3fs = %.1fx" % (
                          p, len(both), p,
                          statistics.median(r[p + "_time"] for r in both),
                          statistics.median(r["twill_time"] for r in both),
                          statistics.median(r[p + "_time"] for r in both) /
                          max(statistics.median(r["twill_time"] for r in both), 1e-9)))
            print("%s vs twill: %d kernels both optimal, geo-mean time ratio "
                  "%s/twill %.1fx; %d kernels where %s hit its %g s limit "
                  "(ratio counting those at the limit: >= %.1fx); "
                  "(I*, L) disagreements: %s" % (
                      p, len(both), p, ratio, len(lim), p, a.limit, ratio_all,
                      disagree or "none"))
    if "twill" in peers and rows:
        opt = [r for r in rows if r["twill_status"] == "optimal"]
        print("twill: %d of %d proven optimal; wall time median %.3fs, max %.3fs; "
              "cpu median %.3fs, max %.3fs; certificates verified: %s" % (
                  len(opt), len(rows),
                  statistics.median(r["twill_time"] for r in rows),
                  max(r["twill_time"] for r in rows),
                  statistics.median(r["twill_cpu"] or 0 for r in rows),
                  max(r["twill_cpu"] or 0 for r in rows),
                  sum(1 for r in rows if r["twill_verified"] is True)
                  if a.check else "not asked"))
    print("wrote", out)


if __name__ == "__main__":
    sys.exit(main())
