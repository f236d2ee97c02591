#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draws cusim_benchmark's CSV (--csv FILE) as an SVG: each kernel's time ratio to the serial
loop per worker count (log scale, with AMD HIP-CPU's ratio marked where the run had it), and the
speed-up from the first worker count to the last. Python's standard library only.

    tools/plot_benchmark.py results.csv docs/benchmark.svg
"""
import csv
import math
import sys

COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52"]


def read(path):
    kernels = []
    workers = []
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    workers = [h.split("_")[-1] for h in header if h.startswith("ratio_")]
    for row in rows[1:]:
        if len(row) != len(header) or row[-1] not in ("yes", "no"):
            continue  # the launch and memory lines
        ratios = [float(row[header.index("ratio_" + w)]) for w in workers]
        times = [float(row[header.index("cusim_ms_" + w)]) for w in workers]
        hip = row[header.index("hip_cpu_ratio")] if "hip_cpu_ratio" in header else ""
        kernels.append((row[0], ratios, times, float(hip) if hip else None))
    return workers, kernels


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_benchmark.py results.csv out.svg")
    workers, kernels = read(sys.argv[1])
    if not kernels:
        sys.exit("no kernel rows in " + sys.argv[1])
    label_w, bar_w, row_h, top = 190, 420, 14 * len(workers) + 10, 50
    speed_x = label_w + bar_w + 90
    width = speed_x + 260
    height = top + row_h * len(kernels) + 60
    lo = min(min(r + ([h] if h else [])) for _, r, _, h in kernels)
    hi = max(max(r + ([h] if h else [])) for _, r, _, h in kernels)
    lo_exp, hi_exp = math.floor(math.log10(lo)), math.ceil(math.log10(hi))

    def x_of(ratio):
        return label_w + bar_w * (math.log10(ratio) - lo_exp) / (hi_exp - lo_exp)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{label_w}" y="18" font-size="13" font-weight="bold">cusim time / serial C++ loop '
           f'(log scale; lower is better)</text>',
           f'<text x="{speed_x}" y="18" font-size="13" font-weight="bold">speed-up, {workers[0]} to '
           f'{workers[-1]} workers</text>']
    for e in range(lo_exp, hi_exp + 1):
        x = x_of(10 ** e)
        out.append(f'<line x1="{x:.1f}" y1="{top - 8}" x2="{x:.1f}" y2="{top + row_h * len(kernels)}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{top - 12}" text-anchor="middle">{10 ** e:g}</text>')
    x1 = x_of(1)
    out.append(f'<line x1="{x1:.1f}" y1="{top - 8}" x2="{x1:.1f}" y2="{top + row_h * len(kernels)}" '
               f'stroke="#888"/>')
    max_speed = max(2.0, max(t[0] / t[-1] for _, _, t, _ in kernels))
    speed_w = 200

    def sx(v):
        return speed_x + speed_w * v / max_speed

    for i, (name, ratios, times, hip) in enumerate(kernels):
        y = top + i * row_h
        out.append(f'<text x="{label_w - 6}" y="{y + row_h / 2 + 3:.1f}" text-anchor="end">{esc(name)}</text>')
        for j, r in enumerate(ratios):
            yy = y + 4 + 14 * j
            out.append(f'<rect x="{label_w}" y="{yy}" width="{max(1.0, x_of(r) - label_w):.1f}" height="11" '
                       f'fill="{COLOURS[j % len(COLOURS)]}"/>')
            out.append(f'<text x="{x_of(r) + 3:.1f}" y="{yy + 9}">{r:.2f}</text>')
        if hip:
            tx = x_of(hip)
            out.append(f'<line x1="{tx:.1f}" y1="{y + 2}" x2="{tx:.1f}" y2="{y + row_h - 4}" stroke="black" '
                       f'stroke-width="2" stroke-dasharray="3,2"/>')
        if len(times) >= 2:
            s = times[0] / times[-1]
            out.append(f'<rect x="{speed_x}" y="{y + 4}" width="{sx(s) - speed_x:.1f}" height="{row_h - 10}" '
                       f'fill="#8172b3"/>')
            out.append(f'<text x="{sx(s) + 3:.1f}" y="{y + row_h / 2 + 3:.1f}">{s:.2f}x</text>')
    bottom = top + row_h * len(kernels)
    tx = sx(1.8)
    out.append(f'<line x1="{tx:.1f}" y1="{top - 8}" x2="{tx:.1f}" y2="{bottom}" stroke="black" '
               f'stroke-dasharray="3,2"/>')
    out.append(f'<text x="{tx:.1f}" y="{top - 12}" text-anchor="middle">1.8x target</text>')
    legend_y = bottom + 22
    for j, w in enumerate(workers):
        lx = label_w + 130 * j
        out.append(f'<rect x="{lx}" y="{legend_y}" width="11" height="11" fill="{COLOURS[j % len(COLOURS)]}"/>')
        out.append(f'<text x="{lx + 15}" y="{legend_y + 9}">{w} worker{"s" if w != "1" else ""}</text>')
    lx = label_w + 130 * len(workers)
    out.append(f'<line x1="{lx}" y1="{legend_y}" x2="{lx}" y2="{legend_y + 11}" stroke="black" stroke-width="2" '
               f'stroke-dasharray="3,2"/>')
    out.append(f'<text x="{lx + 6}" y="{legend_y + 9}">AMD HIP-CPU, every core, no checks</text>')
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
