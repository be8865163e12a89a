#!/usr/bin/env python3
"""bench/peers/joint_z3.py: the joint SWP + warp-specialization problem of
Twill phase 2 at fixed (I, L), encoded in QF_LIA and solved by z3: the peer
of `twill solve` (twill.md 3.7, [R-jos] style).

The model is the one stated in include/twill/joint.h ("THE MODEL"), read
literally; every cost in graph units (the kernel is the normalized kernel
`twill solve --normalized-kernel FILE` writes).  Encoding:

  t(v)        integer start, 0 <= t(v) <= L - max(lat(v), 1)     (completion)
              t(v) = I*k(v) + r(v), k(v) >= 0, 0 <= r(v) < I   (residue)
  dependence  t(v) - t(u) >= d - I*delta
  capacity    per unit U and slot q: sum over uses (U, o, c, n) of v of
              n*(c div I) + n*[q - o - r(v) = 0 .. c mod I - 1  (mod I)]
              <= cap(U), the bracket being two interval atoms on r(v)
  warps       Booleans on(v, w) (warp/thread ops: exactly one, as clauses);
              warpgroup ops: Booleans grp(v, g), exactly one,
              on(v, w) := grp(v, w div WG)
  var. lat.   when some op is variable-latency: on(v, 0) = varlat(v)
  lifetimes   (--live div, the default) e(v) = I*ke(v) + re(v), 0 <= re < I,
              e(v) >= t(v) + max(lat, 1), e(v) >= t(u) + I*delta per edge
              (v, u, d, delta) (only forced up: a larger e only raises the
              counts, which sit on the small side of every constraint);
              #{tau in [0, x): tau = s (mod I)} = x div I + [x mod I > s],
              so n_v(s) = ke - k + ite(re > s, 1, 0) - ite(r > s, 1, 0).
              (--live grid, [R-jos]'s form) live(v, tau) := t(v) <= tau and
              (tau < t(v) + max(lat, 1) or tau < t(u) + I*delta for some
              edge (v, u, d, delta)) for absolute cycles tau in [0, H(v));
              n_v(s) = sum over tau = s (mod I) of ite(live(v, tau), 1, 0).
              Same answers (the self-test checks both); div is much faster
              on the FA kernels (fa3-fwd-hopper at (32, 64): 4-5 s against
              50 s to over 60 s).
  registers   per warp w, slot s: sum_v ite(on(v, w), regs(v)*n_v(s), 0)
              <= r(g), g = w div WG; with setmaxnreg (reg_step > 0):
              r(g) = LO + STEP*q(g), q(g) >= 0, r(g) <= R and
              sum_g 32*WG*r(g) <= regs_per_sm; without: r(g) = R
  memories    per slot s: sum_v smem(v) n_v(s) <= smem_cap (if >= 0), tmem
  cross-warp  per edge (u, v, d, delta), u != v, regs(u) > 0, u not
              variable-latency: share(u, v) := OR_w on(u, w) & on(v, w);
              share or t(v) - t(u) >= d + X(u) - I*delta  (X(u) = spill(u)
              if >= 0 else cross_warp); with no_cross_warp: share
  blocking    per v with a blocking in-edge, or a register in-edge (u, v)
              that crosses warps (not share(u, v)), and o != v, lat(o) > 0:
              not (share(o, v) and running(o, v)), running :=
              (r(v) - r(o)) mod I in [0, lat(o) - 1], as linear atoms on
              r(v) - r(o) (true when lat(o) >= I)
  symmetry    (default on, --no-symmetry off) value precedence, as twill's
              encoder: interchangeable warps inside each group (all but warp
              0 when variable-latency ops exist): op j on warp w implies some
              op i <= j on the previous warp of the class; interchangeable
              groups (all but group 0 when variable-latency ops exist): op j
              in group g implies some op i <= j in the previous group.
              Sound: relabel groups by first use, then warps inside each
              group by first use; the second step keeps the first's order.

No objective: each (I, L) is a satisfiability query.  A SAT model is read
back (t, first warp of each op) and re-checked by check_schedule(), a
Python re-implementation of twill_joint_validate() (core/joint/joint_model.c).

Usage:
  joint_z3.py KERNEL.json PARAMS.json [I,L ...] [--from-solve SOLVE.json]
              [--limit S] [--smtlib DIR] [--no-symmetry] [--logic QF_LIA|auto]
              [--live div|grid] [--show] [--json]
              [--twill-check TWILL KERNEL CERT]
  joint_z3.py --selftest N [--seed S] [--twill TWILL]
PARAMS.json is {warps, warpgroup, regs, regs_per_sm, reg_lo, reg_step,
cross_warp, no_cross_warp, smem_cap, tmem_cap, capacities: {unit: cap}}
(in graph units), or a `twill solve --json` output (its "params" is used);
"-" instead of PARAMS.json with --from-solve takes them from there.
--from-solve adds the queries of a `twill solve --json` output: (ii, lmax)
of every try, then (ii, length) and (ii, length - 1) of the answer.
Prints one line per query: `I L sat|unsat|limit SECONDS` (SECONDS: the
z3 check() alone, not building the terms in Python), with `valid` or
`INVALID: why` after a sat (and `twill-valid` or `twill-INVALID: why` with
--twill-check); --json prints one object per query instead.  Exit 0, or 1
if a model failed a check or on bad input.

Self-tests (no kernel needed): --selftest N compares z3's answer with a
brute-force enumeration of check_schedule() on N random tiny kernels
(grid counts with and without symmetry breaking, div counts);
--selftest N --twill TWILL compares check_schedule() with twill's own
validator on z3's models, one-step mutations of them and random schedules.
"""
import argparse
import json
import os
import sys
import time


# ------------------------------------------------------------ input ----

def load_kernel(path, caps=None):
    """The JSON kernel form with graph/formats/parse_json.c's defaults."""
    k = json.load(open(path))
    ops = []
    for o in k.get("ops", []):
        uses = []
        for u in o.get("use", []):
            uses.append((u[0], int(u[1]), int(u[2]),
                         int(u[3]) if len(u) > 3 else 1))
        ops.append({"name": o["name"], "lat": int(o.get("lat", 0)),
                    "uses": uses, "regs": int(o.get("regs", 0)),
                    "smem": int(o.get("smem", 0)),
                    "tmem": int(o.get("tmem", 0)),
                    "spill": int(o.get("spill", -1)),
                    "issue": o.get("issue", "warp"),
                    "groups": int(o.get("groups", 1)),
                    "varlat": bool(o.get("varlat", False))})
    idx = {o["name"]: i for i, o in enumerate(ops)}
    edges = []
    for e in k.get("edges", []):
        s, d = idx[e["src"]], idx[e["dst"]]
        edges.append((s, d, int(e.get("lat", ops[s]["lat"])),
                      int(e.get("dist", 0)), bool(e.get("blocking", False))))
    units = dict(k.get("units", {}))
    for name, cap in (caps or {}).items():
        units.setdefault(name, cap)  # the kernel's declaration wins
    for o in ops:
        for (u, off, cyc, cnt) in o["uses"]:
            if u not in units:
                raise ValueError("unit %s has no capacity (kernel or params)" % u)
    return {"name": k.get("kernel", os.path.splitext(os.path.basename(path))[0]),
            "ops": ops, "edges": edges, "units": units}


PARAM_DEFAULTS = {"warps": 1, "warpgroup": 1, "regs": 255,
                  "regs_per_sm": 65536, "reg_lo": 0, "reg_step": 0,
                  "cross_warp": 0, "no_cross_warp": False, "smem_cap": -1,
                  "tmem_cap": -1, "capacities": {}}


def load_params(path):
    j = json.load(open(path))
    if "params" in j:
        j = j["params"]
    p = dict(PARAM_DEFAULTS)
    for key in j:
        if key not in p and key != "symmetry":
            raise ValueError("unknown parameter %r" % key)
        p[key] = j[key]
    if p["warps"] < 1 or p["warpgroup"] < 1 or p["warps"] % p["warpgroup"]:
        raise ValueError("%d warps do not form warpgroups of %d"
                         % (p["warps"], p["warpgroup"]))
    return p


def solve_queries(path):
    """Queries of a `twill solve --json` output, deduplicated, in order."""
    j = json.load(open(path))
    qs = []
    for t in j.get("tries", []):
        if t.get("ii") and t.get("lmax"):
            qs.append((t["ii"], t["lmax"]))
    # the solver's own (normalized) I and L: "ii" and "length" are real
    # cycles when the costs were normalized
    n = j.get("normalized", j)
    if n.get("ii") and n.get("length"):
        qs.append((n["ii"], n["length"]))
        qs.append((n["ii"], n["length"] - 1))
    out = []
    for q in qs:
        if q not in out and q[1] >= 1:
            out.append(q)
    return out


def lat1(o):
    return max(o["lat"], 1)


def span(o, p):
    """Warps an op occupies: 1, a warpgroup, or `groups` aligned groups."""
    if o["issue"] != "warpgroup":
        return 1
    return p["warpgroup"] * o.get("groups", 1)


# ------------------------------------------------- the validator ------

def live_counts(k, I, t, v):
    """n_v(s), s in [0, I), from e(v) of joint.h."""
    e = t[v] + lat1(k["ops"][v])
    for (s, d, lat, dist, blk) in k["edges"]:
        if s == v:
            e = max(e, t[d] + I * dist)
    n = [0] * I
    for tau in range(t[v], e):
        n[tau % I] += 1
    return n


def group_budget(p, need):
    if p["reg_step"] <= 0:
        return p["regs"]
    r = p["reg_lo"]
    if need > r:
        r += (need - r + p["reg_step"] - 1) // p["reg_step"] * p["reg_step"]
    return r


def check_schedule(k, p, I, L, t, w):
    """None if (t, w) is a legal joint schedule at (I, L), else why.
    The rules of twill_joint_validate() (core/joint/joint_model.c)."""
    ops, n = k["ops"], len(k["ops"])
    W, WG = p["warps"], p["warpgroup"]
    for v in range(n):
        if t[v] < 0:
            return "op %s starts at %d < 0" % (ops[v]["name"], t[v])
        if t[v] + lat1(ops[v]) > L:
            return "op %s ends after L" % ops[v]["name"]
    for (s, d, lat, dist, blk) in k["edges"]:
        if t[d] - t[s] < lat - I * dist:
            return "dependence %s -> %s" % (ops[s]["name"], ops[d]["name"])
    for u, cap in k["units"].items():
        mrt = [0] * I
        for v in range(n):
            for (uu, off, cyc, cnt) in ops[v]["uses"]:
                if uu == u:
                    for j in range(cyc):
                        mrt[(t[v] + off + j) % I] += cnt
        if max(mrt) > cap:
            return "unit %s over capacity" % u
    vl = any(o["varlat"] for o in ops)
    for v in range(n):
        sp = span(ops[v], p)
        if w[v] < 0 or w[v] + sp > W or w[v] % sp:
            return "op %s on warp %d" % (ops[v]["name"], w[v])
        if vl and ops[v]["varlat"] != (w[v] == 0):
            return "variable-latency warp and op %s" % ops[v]["name"]

    def share(a, b):
        return w[a] < w[b] + span(ops[b], p) and w[b] < w[a] + span(ops[a], p)

    for (s, d, lat, dist, blk) in k["edges"]:
        if s == d or ops[s]["regs"] <= 0 or ops[s]["varlat"] or share(s, d):
            continue
        if p["no_cross_warp"]:
            return "edge %s -> %s crosses warps" % (ops[s]["name"], ops[d]["name"])
        X = ops[s]["spill"] if ops[s]["spill"] >= 0 else p["cross_warp"]
        if t[d] - t[s] < lat + X - I * dist:
            return "cross-warp edge %s -> %s" % (ops[s]["name"], ops[d]["name"])
    for (s, v, lat, dist, blk) in k["edges"]:
        crossing = (s != v and ops[s]["regs"] > 0 and not ops[s]["varlat"]
                    and not share(s, v))
        if not blk and not crossing:  # a crossing value's barrier wait blocks too
            continue
        for o in range(n):
            if o == v or ops[o]["lat"] <= 0 or not share(o, v):
                continue
            if (t[v] - t[o]) % I <= ops[o]["lat"] - 1:
                return "blocking wait of %s while %s runs" % (
                    ops[v]["name"], ops[o]["name"])
    need = [[0] * I for _ in range(W)]
    smem, tmem = [0] * I, [0] * I
    for v in range(n):
        o = ops[v]
        if o["regs"] <= 0 and o["smem"] <= 0 and o["tmem"] <= 0:
            continue
        nv = live_counts(k, I, t, v)
        for s in range(I):
            smem[s] += o["smem"] * nv[s]
            tmem[s] += o["tmem"] * nv[s]
            for x in range(w[v], w[v] + span(o, p)):
                need[x][s] += o["regs"] * nv[s]
    total = 0
    for g in range(W // WG):
        worst = max(max(need[x]) for x in range(g * WG, (g + 1) * WG))
        if worst > p["regs"] or group_budget(p, worst) > p["regs"]:
            return "warpgroup %d needs %d registers" % (g, worst)
        total += 32 * WG * group_budget(p, worst)
    if p["reg_step"] > 0 and total > p["regs_per_sm"]:
        return "register file: %d > %d" % (total, p["regs_per_sm"])
    if p["smem_cap"] >= 0 and max(smem) > p["smem_cap"]:
        return "shared memory %d > %d" % (max(smem), p["smem_cap"])
    if p["tmem_cap"] >= 0 and max(tmem) > p["tmem_cap"]:
        return "tensor memory %d > %d" % (max(tmem), p["tmem_cap"])
    return None


# ----------------------------------------------------- the encoding ----

def encode(z3, k, p, I, L, symmetry=True, live="grid"):
    """Constraints (a list of z3 Booleans) and the variables to read back."""
    ops, n = k["ops"], len(k["ops"])
    W, WG = p["warps"], p["warpgroup"]
    G = W // WG
    A = []
    And, Or, Not, If, Sum = z3.And, z3.Or, z3.Not, z3.If, z3.Sum

    def amo_alo(lits):
        A.append(Or(lits))
        for i in range(len(lits)):
            for j in range(i + 1, len(lits)):
                A.append(Or(Not(lits[i]), Not(lits[j])))

    # start times, residues (completion)
    t = [z3.Int("t_%d" % v) for v in range(n)]
    kk = [z3.Int("k_%d" % v) for v in range(n)]
    r = [z3.Int("r_%d" % v) for v in range(n)]
    for v in range(n):
        A += [t[v] >= 0, t[v] <= L - lat1(ops[v])]
        A += [kk[v] >= 0, r[v] >= 0, r[v] <= I - 1, t[v] == I * kk[v] + r[v]]
    # dependences
    for (s, d, lat, dist, blk) in k["edges"]:
        A.append(t[d] - t[s] >= lat - I * dist)
    # modulo capacity
    for u, cap in k["units"].items():
        base = 0
        part = []  # (v, o, c, cnt): window [r+o, r+o+c) mod I, c in (0, I)
        for v in range(n):
            for (uu, off, cyc, cnt) in ops[v]["uses"]:
                if uu != u:
                    continue
                base += cnt * (cyc // I)
                if cyc % I:
                    part.append((v, off % I, cyc % I, cnt))
        if not part:
            if base > cap:
                A.append(z3.BoolVal(False))
            continue
        for q in range(I):
            terms = []
            for (v, o, c, cnt) in part:
                # q in window <=> (q - o - r) mod I in [0, c)
                #             <=> r in [y - c + 1, y] (mod I), y = (q - o) mod I
                y = (q - o) % I
                lo = y - c + 1
                cond = And(r[v] >= max(lo, 0), r[v] <= y)
                if lo < 0:
                    cond = Or(cond, r[v] >= lo + I)
                terms.append(If(cond, cnt, 0))
            A.append(Sum(terms) <= cap - base)
    # warps
    wg = [o["issue"] == "warpgroup" for o in ops]
    on = []
    grp = []
    for v in range(n):
        if wg[v]:
            # a block of k aligned groups: one Boolean per block
            kg = ops[v].get("groups", 1)
            bv = [z3.Bool("g_%d_%d" % (v, b)) for b in range(G // kg)]
            amo_alo(bv)
            grp.append([bv[g // kg] if g // kg < len(bv) else z3.BoolVal(False)
                        for g in range(G)])
            on.append([bv[x // (WG * kg)] if x // (WG * kg) < len(bv)
                       else z3.BoolVal(False) for x in range(W)])
        else:
            ov = [z3.Bool("w_%d_%d" % (v, x)) for x in range(W)]
            amo_alo(ov)
            on.append(ov)
            grp.append([Or(ov[g * WG:(g + 1) * WG]) for g in range(G)])
    vl = any(o["varlat"] for o in ops)
    if vl:
        for v in range(n):
            A.append(on[v][0] if ops[v]["varlat"] else Not(on[v][0]))

    def share(a, b):
        return Or([And(on[a][x], on[b][x]) for x in range(W)])

    # lifetimes and their counts per slot
    users = [[] for _ in range(n)]
    for (s, d, lat, dist, blk) in k["edges"]:
        users[s].append((d, dist))
    nv = [None] * n
    for v in range(n):
        o = ops[v]
        if o["regs"] <= 0 and o["smem"] <= 0 and o["tmem"] <= 0:
            continue
        H = L  # e(v) <= max(L, L - lat1(u) + I*delta)
        for (d, dist) in users[v]:
            H = max(H, L - lat1(ops[d]) + I * dist)
        if live == "div":
            # e(v) = I*ke + re >= every candidate end (only forced up: a
            # larger e only raises the counts); #{tau in [0, x): tau = s
            # (mod I)} = (x div I) + [x mod I > s], so n_v(s) = ke - k +
            # [re > s] - [r > s]
            e, ke, re = (z3.Int("e_%d" % v), z3.Int("ke_%d" % v),
                         z3.Int("re_%d" % v))
            A += [e == I * ke + re, re >= 0, re <= I - 1, ke >= 0,
                  e >= t[v] + lat1(o), e <= H]
            A += [e >= t[d] + I * dist for (d, dist) in users[v]]
            nv[v] = [ke - kk[v] + If(re > s, 1, 0) - If(r[v] > s, 1, 0)
                     for s in range(I)]
            continue
        cnt = [[] for _ in range(I)]
        for tau in range(H):
            ends = [t[v] > tau - lat1(o)]
            ends += [t[d] + I * dist > tau for (d, dist) in users[v]]
            alive = And(t[v] <= tau, Or(ends))
            cnt[tau % I].append(If(alive, 1, 0))
        nv[v] = [Sum(c) if c else z3.IntVal(0) for c in cnt]
    # registers
    holders = [v for v in range(n) if ops[v]["regs"] > 0]
    rg = None
    if p["reg_step"] > 0:
        rg = []
        for g in range(G):
            q = z3.Int("q_%d" % g)
            x = z3.Int("r_g%d" % g)
            A += [q >= 0, x == p["reg_lo"] + p["reg_step"] * q, x <= p["regs"]]
            rg.append(x)
        A.append(Sum([32 * WG * x for x in rg]) <= p["regs_per_sm"])
    if holders:
        for x in range(W):
            bound = rg[x // WG] if rg else p["regs"]
            for s in range(I):
                A.append(Sum([If(on[v][x], ops[v]["regs"] * nv[v][s], 0)
                              for v in holders]) <= bound)
    # memories
    for key, cap in (("smem", p["smem_cap"]), ("tmem", p["tmem_cap"])):
        hs = [v for v in range(n) if ops[v][key] > 0]
        if cap < 0 or not hs:
            continue
        for s in range(I):
            A.append(Sum([ops[v][key] * nv[v][s] for v in hs]) <= cap)
    # cross-warp transfers
    for (s, d, lat, dist, blk) in k["edges"]:
        if s == d or ops[s]["regs"] <= 0 or ops[s]["varlat"]:
            continue
        if p["no_cross_warp"]:
            A.append(share(s, d))
        else:
            X = ops[s]["spill"] if ops[s]["spill"] >= 0 else p["cross_warp"]
            A.append(Or(share(s, d), t[d] - t[s] >= lat + X - I * dist))
    # blocking waits: a blocking edge always, a register edge when its value
    # crosses warps (the barrier wait of the transfer)
    waits = []
    for (s, v, lat, dist, blk) in k["edges"]:
        if blk:
            cond = z3.BoolVal(True)
        elif s != v and ops[s]["regs"] > 0 and not ops[s]["varlat"] \
                and not p["no_cross_warp"]:
            cond = Not(share(s, v))
        else:
            continue
        waits.append((v, cond))
    for (v, cond) in waits:
        for o in range(n):
            lo = ops[o]["lat"]
            if o == v or lo <= 0:
                continue
            if lo >= I:
                running = z3.BoolVal(True)
            else:
                dd = r[v] - r[o]  # in (-I, I); mod I in [0, lo-1]
                running = Or(And(dd >= 0, dd <= lo - 1), dd <= lo - 1 - I)
            A.append(Not(And(cond, share(o, v), running)))
    # symmetry breaking (value precedence)
    if symmetry:
        for g in range(G):
            cls = [x for x in range(g * WG, (g + 1) * WG) if not (vl and x == 0)]
            for a, b in zip(cls, cls[1:]):
                for j in range(n):
                    A.append(z3.Implies(on[j][b],
                                        Or([on[i][a] for i in range(j + 1)])))
        # groups are interchangeable only when no op spans several of them
        # (then only block-preserving renamings are symmetries): skip it
        multi = any(o.get("groups", 1) > 1 for o in ops)
        gcls = [] if multi else [g for g in range(G) if not (vl and g == 0)]
        for a, b in zip(gcls, gcls[1:]):
            for j in range(n):
                A.append(z3.Implies(grp[j][b],
                                    Or([grp[i][a] for i in range(j + 1)])))
    return A, t, on


def read_model(z3, m, k, p, t, on):
    ts = [m.eval(x, model_completion=True).as_long() for x in t]
    ws = []
    for v in range(len(k["ops"])):
        first = -1
        for x in range(p["warps"]):
            if z3.is_true(m.eval(on[v][x], model_completion=True)):
                first = x
                break
        ws.append(first)
    return ts, ws


def run_query(z3, k, p, I, L, limit, symmetry, logic, smtlib, live="grid"):
    t0 = time.monotonic()
    A, t, on = encode(z3, k, p, I, L, symmetry, live)
    s = z3.SolverFor("QF_LIA") if logic == "QF_LIA" else z3.Solver()
    s.add(A)
    build = time.monotonic() - t0
    if smtlib:
        os.makedirs(smtlib, exist_ok=True)
        f = os.path.join(smtlib, "%s-I%d-L%d.smt2" % (k["name"], I, L))
        with open(f, "w") as fh:
            fh.write("(set-logic QF_LIA)\n" if logic == "QF_LIA" else "")
            fh.write(s.to_smt2())
    s.set("timeout", max(1, int(limit * 1000)))
    t1 = time.monotonic()
    res = s.check()
    secs = time.monotonic() - t1
    out = {"ii": I, "L": L, "seconds": secs, "build": build,
           "status": "sat" if res == z3.sat else
           "unsat" if res == z3.unsat else "limit"}
    if res == z3.sat:
        ts, ws = read_model(z3, s.model(), k, p, t, on)
        out["times"], out["warps"] = ts, ws
        out["why"] = check_schedule(k, p, I, L, ts, ws)
    return out


# ------------------------------------------------------- self-test ----

def random_case(rng):
    """A tiny random kernel and params (every joint.h rule can bite)."""
    n = rng.randint(1, 4)
    nunits = rng.randint(1, 2)
    units = {"U%d" % u: rng.randint(1, 3) for u in range(nunits)}
    ops = []
    for v in range(n):
        uses = []
        for u in sorted(units):
            if rng.random() < 0.6:
                uses.append((u, rng.randint(0, 1), rng.randint(1, 2),
                             rng.choice([1, 1, units[u]])))
        ops.append({"name": "o%d" % v, "lat": rng.randint(0, 3), "uses": uses,
                    "regs": rng.choice([0, 0, 1, 2, 3]),
                    "smem": rng.choice([0, 0, 1, 2]),
                    "tmem": rng.choice([0, 0, 1]),
                    "spill": rng.choice([-1, -1, 0, 1, 2]),
                    "issue": rng.choice(["warp", "thread", "warpgroup"]),
                    "varlat": rng.random() < 0.15})
    edges = []
    for _ in range(rng.randint(0, n + 1)):
        s, d = rng.randrange(n), rng.randrange(n)
        dist = rng.randint(0, 1) if s < d else rng.randint(1, 2)
        edges.append((s, d, rng.randint(0, 2), dist, rng.random() < 0.3))
    k = {"name": "rand", "ops": ops, "edges": edges, "units": units}
    WG = rng.choice([1, 2])
    W = WG * rng.choice([1, 2])
    step = rng.choice([0, 1, 2])
    p = dict(PARAM_DEFAULTS)
    p.update({"warps": W, "warpgroup": WG, "regs": rng.randint(2, 7),
              "reg_lo": rng.randint(0, 2) if step else 0, "reg_step": step,
              "regs_per_sm": 32 * W * rng.randint(2, 6),
              "cross_warp": rng.randint(0, 2),
              "no_cross_warp": rng.random() < 0.2,
              "smem_cap": rng.choice([-1, 1, 2, 4]),
              "tmem_cap": rng.choice([-1, 1, 2])})
    if W // WG >= 2:  # an op over both groups (issue warpgroup, groups 2)
        for o in ops:
            if o["issue"] == "warpgroup" and rng.random() < 0.3:
                o["groups"] = 2
    return k, p


def brute(k, p, I, L):
    """Is there a legal (t, w) at (I, L)? Enumerates every schedule."""
    import itertools
    ops = k["ops"]
    doms = [range(0, L - lat1(o) + 1) for o in ops]
    wdom = [range(0, p["warps"], span(o, p)) for o in ops]
    for t in itertools.product(*doms):
        for w in itertools.product(*wdom):
            if check_schedule(k, p, I, L, list(t), list(w)) is None:
                return True
    return False


def selftest(z3, cases, seed):
    import random
    rng = random.Random(seed)
    stats = {"sat": 0, "unsat": 0, "joint": 0}
    for c in range(cases):
        k, p = random_case(rng)
        m = max(lat1(o) for o in k["ops"])
        busy = {u: 0 for u in k["units"]}
        for o in k["ops"]:
            for (u, off, cyc, cnt) in o["uses"]:
                busy[u] += cyc * cnt
        res = max([1] + [-(-b // k["units"][u]) for u, b in busy.items()])
        I, L = rng.randint(max(1, res - 1), res + 2), rng.randint(m, m + len(k["ops"]) + 2)
        want = brute(k, p, I, L)
        if not want:
            # unsat: does the joint part matter (phase 1 alone sat)?
            q = dict(p)
            q.update({"warps": 1, "warpgroup": 1, "regs": 10**6,
                      "reg_step": 0, "smem_cap": -1, "tmem_cap": -1,
                      "no_cross_warp": False})
            kq = {"name": k["name"], "units": k["units"],
                  "ops": [dict(o, varlat=False) for o in k["ops"]],
                  "edges": [e[:4] + (False,) for e in k["edges"]]}
            if brute(kq, q, I, L):
                stats["joint"] += 1
        for sym, live in ((True, "grid"), (False, "grid"), (True, "div")):
            r = run_query(z3, k, p, I, L, 60, sym, "QF_LIA", None, live)
            got = r["status"] == "sat"
            if got != want or (got and r["why"]):
                print("MISMATCH case %d (seed %d) I %d L %d symmetry %s live "
                      "%s: z3 %s brute %s %s" % (c, seed, I, L, sym, live,
                                                 r["status"], want,
                                                 r.get("why") or ""))
                print(json.dumps({"kernel": k, "params": p}))
                return 1
        stats["sat" if want else "unsat"] += 1
    print("selftest: %d cases agree with brute force (%d sat, %d unsat, of "
          "which %d only through the joint rules), grid live counts with "
          "symmetry on and off, div live counts"
          % (cases, stats["sat"], stats["unsat"], stats["joint"]))
    return 0


def twill_check(twill, kernel, cert, I, L, k, ts, ws):
    """Hand a z3 model to twill's own validator (twill_joint_validate via
    `twill check`): a solve certificate's header (from a real `twill solve
    --cert` of the same kernel and flags) with this (I, L) and schedule and
    nothing after it.  `twill check` validates the schedule before it reads
    the phase-1 part, so the missing part is the expected complaint."""
    import subprocess
    import tempfile
    head = []
    for line in open(cert):
        if line.startswith("ii "):
            break
        head.append(line)
    body = "".join(head) + "ii %d\nlength %d\n" % (I, L)
    body += "".join("time %s %d %d\n" % (o["name"], ts[v], ws[v])
                    for v, o in enumerate(k["ops"]))
    with tempfile.NamedTemporaryFile("w", suffix=".cert", delete=False) as f:
        f.write(body)
    try:
        r = subprocess.run([twill, "check", kernel, f.name],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    msg = (r.stdout + r.stderr).strip().replace("\n", " ")
    if "the schedule is not legal" in msg:
        return "twill-INVALID: " + msg[msg.index("the schedule"):]
    if "expected 'phase1 BYTES'" in msg:
        return "twill-valid"
    return "twill-check?: " + msg


def kernel_json(k):
    """k back in the JSON kernel form (for twill)."""
    ops = []
    for o in k["ops"]:
        j = {"name": o["name"], "lat": o["lat"],
             "use": [list(u) for u in o["uses"]]}
        for key in ("regs", "smem", "tmem"):
            if o[key]:
                j[key] = o[key]
        if o["spill"] >= 0:
            j["spill"] = o["spill"]
        if o["issue"] != "warp":
            j["issue"] = o["issue"]
        if o.get("groups", 1) > 1:
            j["groups"] = o["groups"]
        if o["varlat"]:
            j["varlat"] = True
        ops.append(j)
    edges = [{"src": k["ops"][s]["name"], "dst": k["ops"][d]["name"],
              "lat": lat, "dist": dist, "blocking": blk}
             for (s, d, lat, dist, blk) in k["edges"]]
    return {"kernel": k["name"], "units": k["units"], "ops": ops,
            "edges": edges}


def selftest_validator(z3, twill, cases, seed):
    """check_schedule() against twill's validator (through `twill check`
    on a certificate header with normalization off) on random tiny
    kernels: z3's model, random schedules, and one-step mutations of
    the model (mostly just legal or just illegal)."""
    import random
    import subprocess
    import tempfile
    rng = random.Random(seed)
    d = tempfile.mkdtemp(prefix="jz3")
    kp = os.path.join(d, "k.json")
    cp = os.path.join(d, "c.cert")
    agree = {True: 0, False: 0}
    for c in range(cases):
        k, p = random_case(rng)
        m = max(lat1(o) for o in k["ops"])
        I, L = rng.randint(1, 4), rng.randint(m, m + len(k["ops"]) + 2)
        with open(kp, "w") as f:
            json.dump(kernel_json(k), f)
        with open(cp, "w") as f:
            f.write("twill-certificate 1 solve\nkernel rand\narch hopper\n"
                    "normalize off\nparams %d %d %d %d %d %d %d %d %d %d %d 1\n"
                    % (p["warps"], p["warpgroup"], p["regs"],
                       p["regs_per_sm"], p["reg_lo"], p["reg_step"],
                       p["cross_warp"], p["cross_warp"],
                       1 if p["no_cross_warp"] else 0, p["smem_cap"],
                       p["tmem_cap"]))
        scheds = []
        r = run_query(z3, k, p, I, L, 60, True, "QF_LIA", None)
        if r["status"] == "sat":
            scheds.append((r["times"], r["warps"]))
            for _ in range(4):
                ts, ws = list(r["times"]), list(r["warps"])
                v = rng.randrange(len(ts))
                if rng.random() < 0.5:
                    ts[v] = max(0, ts[v] + rng.choice([-1, 1]))
                else:
                    ws[v] = rng.randrange(0, p["warps"], span(k["ops"][v], p))
                scheds.append((ts, ws))
        for _ in range(3):
            scheds.append(([rng.randint(0, max(0, L - lat1(o))) for o in k["ops"]],
                           [rng.randrange(0, p["warps"], span(o, p))
                            for o in k["ops"]]))
        for ts, ws in scheds:
            mine = check_schedule(k, p, I, L, ts, ws) is None
            verdict = twill_check(twill, kp, cp, I, L, k, ts, ws)
            if verdict.startswith("twill-check?"):
                print("case %d: %s" % (c, verdict))
                return 1
            theirs = verdict == "twill-valid"
            if mine != theirs:
                print("MISMATCH case %d (seed %d) I %d L %d t %s w %s: python "
                      "%s, twill %s" % (c, seed, I, L, ts, ws,
                                        check_schedule(k, p, I, L, ts, ws),
                                        verdict))
                print(json.dumps({"kernel": kernel_json(k), "params": p}))
                return 1
            agree[mine] += 1
    print("validator selftest: %d cases, %d schedules: check_schedule() and "
          "twill's validator agree (%d legal, %d illegal)"
          % (cases, agree[True] + agree[False], agree[True], agree[False]))
    return 0


def main():
    ap = argparse.ArgumentParser(
        description="z3 peer of twill solve: the joint SWP+WS problem at "
        "fixed (I, L) (include/twill/joint.h)")
    ap.add_argument("kernel", nargs="?", help="JSON kernel (graph units)")
    ap.add_argument("params", nargs="?", help="params JSON, a `twill solve "
                    "--json` output, or - (with --from-solve)")
    ap.add_argument("queries", nargs="*", help="I,L")
    ap.add_argument("--from-solve", help="add the queries of this "
                    "`twill solve --json` output")
    ap.add_argument("--limit", type=float, default=60,
                    help="seconds per query (default 60)")
    ap.add_argument("--smtlib", metavar="DIR",
                    help="write each query as DIR/KERNEL-I<I>-L<L>.smt2")
    ap.add_argument("--no-symmetry", action="store_true")
    ap.add_argument("--logic", choices=["QF_LIA", "auto"], default="QF_LIA")
    ap.add_argument("--live", choices=["grid", "div"], default="div",
                    help="live counts: grid (a Boolean per op and "
                    "absolute cycle, as [R-jos]) or div (end of life as "
                    "I*ke + re, counts from two residue atoms per slot; default)")
    ap.add_argument("--show", action="store_true",
                    help="print the model of a sat query")
    ap.add_argument("--json", action="store_true",
                    help="one JSON object per query instead of a line")
    ap.add_argument("--twill-check", nargs=3,
                    metavar=("TWILL", "KERNEL", "CERT"),
                    help="also validate every sat model with twill's own "
                    "validator: TWILL check KERNEL on CERT's header (CERT "
                    "from `twill solve KERNEL --cert` with the same flags)")
    ap.add_argument("--selftest", type=int, metavar="N",
                    help="N random tiny kernels: z3 against brute-force "
                    "enumeration of the validator, then exit")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--twill", metavar="TWILL", help="with --selftest: "
                    "check_schedule() against TWILL's validator instead")
    a = ap.parse_args()
    try:
        import z3
    except ImportError:
        print("joint_z3.py: no python3 z3 module (apt-get install -y "
              "python3-z3; run with /usr/bin/python3)", file=sys.stderr)
        return 1
    if a.selftest:
        if a.twill:
            return selftest_validator(z3, a.twill, a.selftest, a.seed)
        return selftest(z3, a.selftest, a.seed)
    if not a.kernel or not a.params:
        ap.error("KERNEL and PARAMS are required")
    try:
        params = load_params(a.from_solve if a.params == "-" else a.params)
        k = load_kernel(a.kernel, params.get("capacities"))
        qs = []
        for q in a.queries:
            i, l = q.split(",")
            qs.append((int(i), int(l)))
        if a.from_solve:
            qs += [q for q in solve_queries(a.from_solve) if q not in qs]
    except (OSError, ValueError, KeyError) as e:
        print("joint_z3.py: %s" % e, file=sys.stderr)
        return 1
    if not qs:
        print("joint_z3.py: no queries", file=sys.stderr)
        return 1
    bad = 0
    for (I, L) in qs:
        r = run_query(z3, k, p=params, I=I, L=L, limit=a.limit,
                      symmetry=not a.no_symmetry, logic=a.logic,
                      smtlib=a.smtlib, live=a.live)
        if r["status"] == "sat" and r["why"]:
            bad += 1
        if r["status"] == "sat" and a.twill_check:
            r["twill"] = twill_check(*a.twill_check, I=I, L=L, k=k,
                                     ts=r["times"], ws=r["warps"])
            if r["twill"] != "twill-valid":
                bad += 1
        if a.json:
            print(json.dumps(r), flush=True)
            continue
        line = "%d %d %s %.3f" % (I, L, r["status"], r["seconds"])
        if r["status"] == "sat":
            line += " valid" if not r["why"] else " INVALID: " + r["why"]
            if "twill" in r:
                line += " " + r["twill"]
        print(line, flush=True)
        if a.show and r["status"] == "sat":
            for v, o in enumerate(k["ops"]):
                print("  %-16s t %4d  warp %d" % (o["name"], r["times"][v],
                                                  r["warps"][v]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
