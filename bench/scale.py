#!/usr/bin/env python3
"""bench/scale.py: the scaling table of phase 2 (driven by bench/scale.sh).

For every kernel file and warp count: ops, I*, L*, the outcome, seconds to
the first joint schedule (the first "SAT" progress line of `twill solve`,
read from a pseudo-terminal so that twill prints its progress), seconds to
the proof (the whole run), seconds `twill check` takes on the certificate,
and z3 (bench/peers/joint_z3.py) on the same queries as the encoding
(`--from-solve`: every try's (I, Lmax), then (I*, L*) and (I*, L* - 1)),
the sum of its check() times.

Usage: scale.py TWILL OUT.md LIMIT WARPS KERNEL.twill... [-- SOLVE-FLAGS...]
LIMIT: seconds per solve (and per z3 query); WARPS: "8,12,16".  Writes
a Markdown table to OUT.md and a TSV beside it (OUT.tsv) for plot_scale.py.
Environment: SCALE_Z3=0 skips z3; SCALE_Z3_OPS=N only runs z3 up to N ops.
"""
import json
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run_pty(argv, limit):
    """Run argv with stderr on a pseudo-terminal; stdout to a pipe.
    Returns (rc, stdout, first_sat_seconds or None, wall seconds)."""
    master, slave = pty.openpty()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave,
                         stdin=subprocess.DEVNULL)
    os.close(slave)
    first = None
    buf = b""
    out = []
    fds = [master, p.stdout.fileno()]
    while fds:
        r, _, _ = select.select(fds, [], [], limit + 30)
        if not r:
            p.kill()
            break
        for fd in r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                fds.remove(fd)
                continue
            if fd == master:
                buf += data
                if first is None and re.search(rb": SAT[ ,(]", buf):
                    first = time.monotonic() - t0
            else:
                out.append(data)
    rc = p.wait()
    wall = time.monotonic() - t0
    os.close(master)
    return rc, b"".join(out).decode(), first, wall


def z3_time(kernel_json, solve_json, limit):
    cmd = ["/usr/bin/python3", os.path.join(HERE, "peers", "joint_z3.py"),
           kernel_json, "-", "--from-solve", solve_json, "--limit",
           str(limit), "--json"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=limit * 6 + 60)
    except subprocess.TimeoutExpired:
        return ">%d" % (limit * 6)
    tot, lim, n = 0.0, False, 0
    for line in r.stdout.splitlines():
        try:
            q = json.loads(line)
        except ValueError:
            continue
        n += 1
        tot += float(q.get("seconds", 0))
        if q.get("status") == "limit":
            lim = True
    if n == 0:
        return "error"
    return (">" if lim else "") + "%.2f" % tot


def main(argv):
    flags = []
    if "--" in argv:
        i = argv.index("--")
        argv, flags = argv[:i], argv[i + 1:]
    if len(argv) < 5:
        sys.stderr.write(__doc__)
        return 1
    twill, out, limit, warps, files = argv[0], argv[1], float(argv[2]), \
        [int(w) for w in argv[3].split(",")], argv[4:]
    use_z3 = os.environ.get("SCALE_Z3", "1") != "0"
    z3_ops = int(os.environ.get("SCALE_Z3_OPS", "1000"))
    rows = []
    tmp = tempfile.mkdtemp(prefix="twill-scale-")
    hdr = ("| kernel | W | ops | I* | L* | outcome | first s | proof s | "
           "check s | z3 s |")
    print(hdr)
    print("|---|---|---|---|---|---|---|---|---|---|")
    sys.stdout.flush()
    for f in files:
        name = os.path.basename(f)[:-6]
        nops = sum(1 for l in open(f) if l.startswith("op "))
        for w in warps:
            cert = os.path.join(tmp, "%s-%d.cert" % (name, w))
            nk = os.path.join(tmp, "%s-%d.json" % (name, w))
            argv2 = [twill, "solve", f, "--warps", str(w), "--json",
                     "--time-limit", str(limit), "--cert", cert,
                     "--normalized-kernel", nk] + flags
            rc, so, first, wall = run_pty(argv2, limit)
            ii = ll = "-"
            try:
                d = json.loads(so)
                if d.get("ii"):
                    ii, ll = d["ii"], d["length"]
            except ValueError:
                d = None
            outcome = {0: "optimal", 2: "infeasible", 3: "limit"}.get(
                rc, "error %d" % rc)
            if rc == 1 and "multiple" in so:
                outcome = "bad W"
            chk = "-"
            if rc in (0, 2) and os.path.exists(cert):
                t0 = time.monotonic()
                c = subprocess.run([twill, "check", f, cert, "--warps", str(w)]
                                   + [x for x in flags if x == "--no-symmetry"],
                                   capture_output=True, text=True)
                chk = "%.2f" % (time.monotonic() - t0)
                if c.returncode != 0 or "VERIFIED" not in c.stdout:
                    chk += " REJECTED"
            z3s = "-"
            if use_z3 and d is not None and rc in (0, 2, 3) and nops <= z3_ops \
                    and os.path.exists(nk):
                sj = os.path.join(tmp, "%s-%d.solve.json" % (name, w))
                with open(sj, "w") as fh:
                    fh.write(so)
                z3s = z3_time(nk, sj, limit)
            row = (name, w, nops, ii, ll, outcome,
                   "%.2f" % first if first is not None else "-",
                   "%.2f" % wall, chk, z3s)
            rows.append(row)
            print("| " + " | ".join(str(x) for x in row) + " |")
            sys.stdout.flush()
    with open(out, "w") as fh:
        fh.write(hdr + "\n|---|---|---|---|---|---|---|---|---|---|\n")
        for row in rows:
            fh.write("| " + " | ".join(str(x) for x in row) + " |\n")
    with open(out[:-3] + ".tsv" if out.endswith(".md") else out + ".tsv",
              "w") as fh:
        fh.write("kernel\tW\tops\tI\tL\toutcome\tfirst\tproof\tcheck\tz3\n")
        for row in rows:
            fh.write("\t".join(str(x) for x in row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
