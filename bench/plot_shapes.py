#!/usr/bin/env python3
"""A bar chart of one bench/shapes.py run (its shapes.json) or one
bench/reductions.py run (its reductions.json: a list of rows) as SVG: per
case and dtype, each implementation's bandwidth as a percentage of the case's
ceiling (the copy, or the fill for the outer sum), ewc first. Plain SVG from
the standard library, so it runs where no plotting package is installed.
TITLE, where given, names the device and run (a reductions.json has none).

usage: bench/plot_shapes.py RUN.json OUT.svg [TITLE]
"""
import json
import sys
from xml.sax.saxutils import escape

IMPLS = [("ewc", "#1f77b4"), ("torch", "#ff7f0e"), ("compile", "#2ca02c"),
         ("triton", "#9467bd")]
BAR, GAP, LEFT, TOP, HEIGHT = 5, 8, 60, 40, 260


def main(source, target, title=None):
    run = json.load(open(source))
    if isinstance(run, list):
        run = {"rows": run}
    if title:
        run["device"], run["torch"] = title, ""
    rows = [r for r in run["rows"] if r.get("gbps")]
    width = LEFT + len(rows) * (len(IMPLS) * BAR + GAP) + 20
    top = 130.0  # percent at the top of the axis
    y = lambda pct: TOP + HEIGHT * (1 - min(pct, top) / top)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="9">' % (width, TOP + HEIGHT
                                                        + 130)]
    heading = "%s: %% of the ceiling (copy; fill for outer)" % run.get(
        "device", "")
    if run.get("torch"):
        heading += ", " + run["torch"]
    out.append('<text x="%d" y="16" font-size="12">%s</text>' %
               (LEFT, escape(heading)))
    for pct in range(0, int(top) + 1, 20):
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s"/>'
                   % (LEFT, width - 10, y(pct), y(pct),
                      "#888" if pct == 100 else "#ddd"))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%d%%</text>' %
                   (LEFT - 4, y(pct) + 3, pct))
    x = LEFT + 4
    for row in rows:
        for name, color in IMPLS:
            gbps = row["gbps"].get(name)
            if gbps:
                pct = 100 * gbps / row["ceiling_gbps"]
                out.append('<rect x="%d" y="%.1f" width="%d" height="%.1f" '
                           'fill="%s"><title>%s %s %s: %.1f%%</title></rect>'
                           % (x, y(pct), BAR - 1, TOP + HEIGHT - y(pct),
                              color, escape(row["case"]), row["dtype"], name,
                              pct))
            x += BAR
        label = "%s %s" % (row["case"], row["dtype"])
        out.append('<text transform="translate(%d,%d) rotate(60)">%s</text>'
                   % (x - len(IMPLS) * BAR // 2, TOP + HEIGHT + 6,
                      escape(label)))
        x += GAP
    for i, (name, color) in enumerate(IMPLS):
        out.append('<rect x="%d" y="24" width="8" height="8" fill="%s"/>'
                   '<text x="%d" y="32">%s</text>' % (
                       width - 300 + 70 * i, color, width - 288 + 70 * i,
                       name))
    out.append("</svg>")
    open(target, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().split("\n")[-1])
    main(*sys.argv[1:])
