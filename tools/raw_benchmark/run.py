#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the raw-kernel benchmark's three builds side by side and prints a Markdown table:
kernel | HIP-CPU ms | cusim checked ms, ratio | cusim unchecked ms, ratio, with geometric means
(ratio: cusim's time over HIP-CPU's; lower is better, 1 is HIP-CPU's speed).

    run.py [--bin DIR] [--reps N] [--only a,b] [--small] [--workers N] [--csv FILE]

DIR holds raw_benchmark_hip_cpu, raw_benchmark_checked and raw_benchmark_unchecked (the build's
tools/raw_benchmark, made by `cmake --build B --target raw_benchmark`). For each kernel the three
programs run one after the other (`--only` that kernel), so that the three times of a row are taken
close together on a noisy machine; each reports its best of N runs after a warm-up. --workers N
sets CUSIM_WORKERS=N for all three (HIP-CPU's TBB too); without it every core, in all three.
A result that does not verify, a missing row or a failed program makes the exit status 1.
"""

import argparse
import csv
import math
import os
import subprocess
import sys

BUILDS = [
    ("hip_cpu", "raw_benchmark_hip_cpu", "HIP-CPU"),
    ("checked", "raw_benchmark_checked", "cusim checked"),
    ("unchecked", "raw_benchmark_unchecked", "cusim unchecked"),
]


def run(program, args, env, timeout):
    """{kernel: (ms, verified)} from one program's lines, and whether it exited with 0."""
    try:
        done = subprocess.run([program] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        sys.stderr.write(f"run.py: {os.path.basename(program)} {' '.join(args)}: over {timeout} s\n")
        return {}, False
    rows = {}
    for line in done.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            rows[parts[0]] = (float(parts[1]), parts[2] == "verified")
    if done.returncode != 0:
        sys.stderr.write(f"run.py: {os.path.basename(program)} {' '.join(args)} exited with {done.returncode}\n")
        sys.stderr.write(done.stderr[-4000:])
    return rows, done.returncode == 0


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--bin", default=os.path.join(here, "..", "..", "build", "tools", "raw_benchmark"),
                        help="directory of the three programs (default: build/tools/raw_benchmark)")
    parser.add_argument("--reps", type=int, default=5, help="timed runs per kernel after the warm-up (best counts)")
    parser.add_argument("--only", default="", help="comma-separated kernel names (see --list)")
    parser.add_argument("--small", action="store_true", help="tiny sizes: checks results, times mean nothing")
    parser.add_argument("--workers", type=int, default=0, help="CUSIM_WORKERS for all three (default: every core)")
    parser.add_argument("--csv", help="also write the rows to this CSV file")
    parser.add_argument("--list", action="store_true", help="print the kernels' names and exit")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per program run")
    args = parser.parse_args()

    programs = {key: os.path.join(args.bin, name) for key, name, _ in BUILDS}
    for key, path in programs.items():
        if not os.access(path, os.X_OK):
            sys.stderr.write(f"run.py: no {path} (cmake --build B --target raw_benchmark)\n")
            return 2
    listed = subprocess.run([programs["checked"], "--list"], stdout=subprocess.PIPE, text=True, check=True)
    kernels = listed.stdout.split()
    if args.list:
        print("\n".join(kernels))
        return 0
    if args.only:
        wanted = [k for k in args.only.split(",") if k]
        unknown = [k for k in wanted if k not in kernels]
        if unknown:
            sys.stderr.write(f"run.py: unknown kernel(s) {', '.join(unknown)}; known: {', '.join(kernels)}\n")
            return 2
        kernels = [k for k in kernels if k in wanted]

    env = dict(os.environ)
    if args.workers > 0:
        env["CUSIM_WORKERS"] = str(args.workers)
    else:
        env.pop("CUSIM_WORKERS", None)
    common = ["--reps", str(args.reps)] + (["--small"] if args.small else [])

    results = {}
    failed = False
    for kernel in kernels:
        results[kernel] = {}
        for key, _, _ in BUILDS:
            rows, exited_ok = run(programs[key], common + ["--only", kernel], env, args.timeout)
            row = rows.get(kernel)
            if not exited_ok or row is None or not row[1]:
                failed = True
                sys.stderr.write(f"run.py: {kernel}: {key} " + ("WRONG\n" if row else "no result\n"))
            results[kernel][key] = row
        sys.stderr.write(f"run.py: {kernel} done\n")

    def cell(value):
        return "-" if value is None else f"{value:.2f}"

    workers = args.workers if args.workers > 0 else os.cpu_count()
    print(f"{'Small sizes, ' if args.small else ''}best of {args.reps} runs, {workers} workers "
          f"({'CUSIM_WORKERS' if args.workers > 0 else 'every core'}); ratio = cusim / HIP-CPU\n")
    print("| kernel | HIP-CPU ms | cusim checked ms | ratio | cusim unchecked ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    ratios = {"checked": [], "unchecked": []}
    lines = []
    for kernel in kernels:
        r = results[kernel]
        ms = {key: (r[key][0] if r.get(key) and r[key][1] else None) for key, _, _ in BUILDS}
        ratio = {}
        for key in ("checked", "unchecked"):
            ratio[key] = ms[key] / ms["hip_cpu"] if ms[key] and ms["hip_cpu"] else None
            if ratio[key]:
                ratios[key].append(ratio[key])
        print(f"| {kernel} | {cell(ms['hip_cpu'])} | {cell(ms['checked'])} | {cell(ratio['checked'])} | "
              f"{cell(ms['unchecked'])} | {cell(ratio['unchecked'])} |")
        lines.append([kernel, ms["hip_cpu"], ms["checked"], ratio["checked"], ms["unchecked"], ratio["unchecked"]])
    g = {key: geomean(ratios[key]) for key in ratios}
    print(f"| geometric mean | | | {cell(g['checked'])} | | {cell(g['unchecked'])} |")
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "hip_cpu_ms", "checked_ms", "checked_ratio", "unchecked_ms", "unchecked_ratio"])
            for row in lines:
                w.writerow(["" if v is None else (f"{v:.4f}" if isinstance(v, float) else v) for v in row])
            w.writerow(["geometric_mean", "", "", "" if g["checked"] is None else f"{g['checked']:.4f}", "",
                        "" if g["unchecked"] is None else f"{g['unchecked']:.4f}"])
    if failed:
        sys.stderr.write("run.py: some results are missing or wrong (above)\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
