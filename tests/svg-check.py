#!/usr/bin/python3
"""svg-check.py DIR: checks the figures of a study folder (DIR/figures)
for what a person reading them needs, and prints one line per problem
("FIGURE: what is wrong"); nothing when all is well. Used by
tests/figures.sh.

Checked in every figure: no two horizontal labels overlap or come closer
than 1 px (their widths estimated from DejaVu Sans's advance widths at
11 px: digits 7 px, lowercase letters 6.2, capitals 7.5, '.' and spaces
3.5, '-' 4). Then, per figure, what
its data file says should be drawn: one bordered cell per pair of classes
in the confusion matrix with its count; the same x ticks on every panel
of the token and log-odds figures; a value on every bar; histograms'
y axes from 0 and AFLite's tau marked; the PVI histogram's bins between
10 and 60; the data map's region names outside the plotted area; every
capability test on the axis."""

import math
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def width(s):
    w = 0.0
    for c in s:
        w += 7.0 if c.isdigit() else 3.5 if c in ". ,:;'" else 4.0 if c in "-()" else \
            7.5 if c.isupper() else 6.2
    return w


def texts(root):
    """(text, x, y, anchor, rotated) of every label."""
    out = []
    for g in root.iter(NS + "g"):
        t = g.find(NS + "text")
        if t is None:
            continue
        s = "".join(t.itertext()).strip()
        if not s:
            continue
        m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)(.*)", g.get("transform", ""))
        if not m:
            continue
        out.append((s, float(m.group(1)), float(m.group(2)),
                    g.get("text-anchor", "start"), "rotate" in m.group(3)))
    return out


def extent(label):
    s, x, _, anchor, _ = label
    w = width(s)
    if anchor == "end":
        return x - w, x
    if anchor == "middle":
        return x - w / 2, x + w / 2
    return x, x + w


def overlaps(name, labels, problems):
    flat = [t for t in labels if not t[4]]
    for i, a in enumerate(flat):
        for b in flat[i + 1:]:
            if abs(a[2] - b[2]) >= 9:
                continue
            (a0, a1), (b0, b1) = extent(a), extent(b)
            if a0 < b1 + 1 and b0 < a1 + 1:
                problems.append(f"{name}: labels '{a[0]}' and '{b[0]}' overlap")


def data_rows(path, skip_header=True):
    rows = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            line = line.rstrip("\n")
            if (i == 0 and skip_header) or not line or line.startswith("#"):
                continue
            rows.append(line.split("\t"))
    return rows


def blocks(path):
    out, cur = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line:
                if cur:
                    out.append(cur)
                cur = []
                continue
            cur.append(line.split("\t"))
    if cur:
        out.append(cur)
    return out


def closed_rects(root):
    """Closed four-corner paths with a stroke: bordered cells."""
    n = 0
    for p in root.iter(NS + "path"):
        d = p.get("d", "")
        if p.get("stroke") and d.strip().endswith("Z") and d.count("L") == 4:
            n += 1
    return n


def y_ticks(labels, left_of):
    """Numeric labels anchored at their end left of x = left_of: y ticks."""
    vals = []
    for s, x, y, anchor, rot in labels:
        if anchor == "end" and x < left_of and not rot:
            try:
                vals.append((float(s), y))
            except ValueError:
                pass
    return vals


def check(d):
    problems = []
    figdir = os.path.join(d, "figures")
    names = sorted(f[:-4] for f in os.listdir(figdir) if f.endswith(".svg"))
    if not names:
        return ["no figures"]
    for name in names:
        root = ET.parse(os.path.join(figdir, name + ".svg")).getroot()
        labels = texts(root)
        shown = [t[0] for t in labels]
        overlaps(name, labels, problems)
        dat = os.path.join(figdir, name + ".dat")
        if name == "confusion":
            rows = data_rows(dat)
            k = round(math.sqrt(len(rows)))
            cells = closed_rects(root)
            if cells < k * k:
                problems.append(f"{name}: {cells} bordered cells for {k} classes")
            for r in rows:
                if r[2] not in shown:
                    problems.append(f"{name}: count {r[2]} not shown")
                pct = f"{100 * float(r[3]):.0f}%"
                if pct not in shown:
                    problems.append(f"{name}: share {pct} not shown")
        elif name in ("tokens", "logodds"):
            # One scale: every panel shows the same x tick labels.
            ticks = {}
            for s, x, y, anchor, rot in labels:
                if anchor == "middle" and re.fullmatch(r"-?[\d.]+", s):
                    ticks.setdefault(round(y), []).append(s)
            panels = len(blocks(dat))
            by_panel = sorted(ticks.values(), key=len)
            seq = by_panel[-1] if by_panel else []
            if panels and len(seq) % panels:
                problems.append(f"{name}: x ticks differ between panels: {seq}")
            elif panels:
                per = len(seq) // panels
                first = seq[:per]
                for p in range(panels):
                    if seq[p * per:(p + 1) * per] != first:
                        problems.append(f"{name}: panel {p + 1} has another x scale")
            for b in blocks(dat):
                for r in b:
                    if len(r[1]) > 16:
                        problems.append(f"{name}: tick label '{r[1]}' is longer than 16")
        elif name in ("baselines", "partitions", "compare-partitions"):
            for r in data_rows(dat):
                if f"{float(r[1]):.3f}" not in shown:
                    problems.append(f"{name}: bar {r[0]} has no value printed")
        elif name in ("aflite-scores", "pvi", "aflite-rounds", "length"):
            ys = y_ticks(labels, 80)
            if not ys or min(v for v, _ in ys) != 0:
                problems.append(f"{name}: the y axis does not start at 0")
            if name == "aflite-scores" and not any(s.startswith("tau = ") for s in shown):
                problems.append(f"{name}: tau is not marked")
            if name == "pvi":
                bins = len(data_rows(dat))
                if not 10 <= bins <= 60:
                    problems.append(f"{name}: {bins} bins")
        elif name == "capabilities":
            # Every test drawn: its name on the axis, within the figure.
            w = float(root.get("width", "0"))
            for r in data_rows(dat):
                if r[0] not in shown:
                    problems.append(f"{name}: test '{r[0]}' not on the axis")
            for s, x, y, anchor, rot in labels:
                if x + (0.866 if rot else 1) * width(s) > w:
                    problems.append(f"{name}: label '{s}' outside the figure")
        elif name == "datamap":
            # The region names, if any, above the plot: no label between
            # the top and bottom of the y axis, right of it.
            ys = y_ticks(labels, 80)
            if ys:
                top = min(y for _, y in ys)
                bottom = max(y for _, y in ys)
                for s, x, y, anchor, rot in labels:
                    if s in ("easy-to-learn", "hard-to-learn", "ambiguous") or \
                            ("learn" in s and top < y < bottom and x > 80):
                        problems.append(f"{name}: region label '{s}' over the data")
            if not any("easy-to-learn" in s for s in shown):
                problems.append(f"{name}: the regions are not named")
    return problems


if __name__ == "__main__":
    for p in check(sys.argv[1]):
        print(p)
