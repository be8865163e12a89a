#!/usr/bin/env python3
"""bench/plot_scale.py: seconds to the proof against ops, from the TSV of
bench/scale.py, as a self-contained SVG (log-scale time axis; one colour
per family, one marker per warp count; a run stopped by the limit is drawn
hollow at its limit, since it proves nothing).

Usage: plot_scale.py SCALE.tsv OUT.svg
"""
import math
import re
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 1
    rows = []
    for i, line in enumerate(open(argv[0])):
        f = line.rstrip("\n").split("\t")
        if i == 0 or len(f) < 8:
            continue
        try:
            rows.append((re.sub(r"-k\d+", "", f[0]), int(f[1]), int(f[2]),
                         f[5], float(f[7])))
        except ValueError:
            continue
    fams = sorted({r[0] for r in rows})
    warps = sorted({r[1] for r in rows})
    W, H, ml, mr, mt, mb = 720, 440, 60, 190, 20, 45
    maxops = max([r[2] for r in rows] + [10])
    tmin, tmax = 0.01, max([r[4] for r in rows] + [1.0]) * 1.5
    x = lambda n: ml + (W - ml - mr) * n / (maxops * 1.05)
    y = lambda t: mt + (H - mt - mb) * (1 - (math.log10(max(t, tmin)) - math.log10(tmin))
                                       / (math.log10(tmax) - math.log10(tmin)))
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="11">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>']
    e = -2
    while 10 ** e <= tmax:
        yy = y(10 ** e)
        o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                 % (ml, W - mr, yy, yy))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%g s</text>'
                 % (ml - 4, yy + 4, 10 ** e))
        e += 1
    for n in range(0, maxops + 1, 10):
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>'
                 % (x(n), H - mb + 15, n))
    o.append('<text x="%d" y="%d" text-anchor="middle">ops</text>'
             % ((W - mr + ml) // 2, H - 8))
    o.append('<text x="14" y="%d" text-anchor="middle" transform="rotate(-90 14 %d)">'
             'seconds to the proof (log)</text>' % ((H - mb + mt) // 2, (H - mb + mt) // 2))
    o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>'
             % (ml, W - mr, H - mb, H - mb))
    o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>'
             % (ml, ml, mt, H - mb))
    for r in rows:
        c = COLOURS[fams.index(r[0]) % len(COLOURS)]
        cx, cy = x(r[2]) + 3 * (warps.index(r[1]) - 1), y(r[4])
        fill = c if r[3] in ("optimal", "infeasible") else "none"
        k = warps.index(r[1])
        if k == 0:
            o.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="%s"/>'
                     % (cx, cy, fill, c))
        elif k == 1:
            o.append('<rect x="%.1f" y="%.1f" width="8" height="8" fill="%s" '
                     'stroke="%s"/>' % (cx - 4, cy - 4, fill, c))
        else:
            o.append('<path d="M%.1f %.1f l4 7 h-8 z" fill="%s" stroke="%s"/>'
                     % (cx, cy - 4, fill, c))
    ly = mt + 10
    for i, f in enumerate(fams):
        o.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/>'
                 '<text x="%d" y="%d">%s</text>'
                 % (W - mr + 10, ly - 9, COLOURS[i % len(COLOURS)],
                    W - mr + 26, ly, f))
        ly += 16
    for i, w in enumerate(warps):
        o.append('<text x="%d" y="%d">%s %d warps</text>'
                 % (W - mr + 10, ly, ["circle", "square", "triangle"][min(i, 2)], w))
        ly += 16
    o.append('<text x="%d" y="%d">hollow: limit, no proof</text>'
             % (W - mr + 10, ly))
    o.append("</svg>")
    open(argv[1], "w").write("\n".join(o) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
