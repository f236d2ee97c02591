#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CUSIM_REPORT against Nsight Compute on an H100, kernel by kernel.

    compare_ncu.py --program teaching_kernels --csv teaching_kernels.ncu.h100.csv --work DIR
    compare_ncu.py --self-test --csv teaching_kernels.ncu.h100.csv

Runs the program (the unmodified teaching_kernels.cu built by cusim's nvcc driver) with
CUSIM_REPORT=DIR, reads DIR/report.json and compares each kernel with the CSV's row:

- global sectors per request, loads and stores: within 2% of the H100's;
- shared-memory bank conflicts, loads and stores: within 2% of the H100's wavefronts of that
  kind (a conflict is a wavefront beyond a request's ideal; the H100's counter also counts a few
  that no instruction's addresses explain: reduce_sequential's 1766 where every warp reads
  consecutive words; 2% of the work, not of a figure that may be 0);
- active threads per warp instruction: within 4 lanes (cusim counts memory operations and
  barriers, Nsight Compute every instruction).

It prints a table of both and exits 1 when any figure is out of its bound. --self-test checks the
comparer itself: a report equal to the CSV passes, the same report with one wrong figure fails.

Where nvcc's code generation changed the accesses the source makes, the H100's figures are
brought back to the source's instructions before the comparison (CODEGEN below, explained in
docs/teaching.md, "How the counts are made"): cusim counts what the source says.
"""
import argparse
import copy
import csv
import json
import os
import pathlib
import subprocess
import sys

M = {
    "ld_req": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "ld_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_req": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "st_sec": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "ld_conf": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "st_conf": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "ld_wf": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "st_wf": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "ld_shared": "smsp__sass_inst_executed_op_shared_ld.sum",
    "st_shared": "smsp__sass_inst_executed_op_shared_st.sum",
    "lanes": "smsp__thread_inst_executed_per_inst_executed.ratio",
}

# nvcc -O3 (sm_90) merged accesses of the source into wider instructions. Each entry: the kernel,
# the CSV columns to add to, what to add, and why. The test checks the premise: cusim's count of
# the source's shared load instructions minus the H100's is the number of merged pairs.
CODEGEN = {
    "reduce_interleaved": {
        # Step k = 1 of the loop (peeled by the unroller): s[2t] and s[2t + 1] are adjacent and
        # 8-byte aligned, loaded as one LDS.64 by each of the 4 active warps of the 4096 blocks:
        # 16384 instructions instead of 32768. An LDS.64 of 32 lanes is two half-warp passes of
        # 128 consecutive bytes: 2 wavefronts, no conflict. The source's two 32-bit loads of
        # stride 2 take 2 wavefronts each, 1 of them a conflict: 2 more wavefronts and 2 more
        # conflicts per merged pair.
        "merged_shared_loads": 16384,
        "add": {"ld_wf": 2 * 16384, "ld_conf": 2 * 16384, "ld_shared": 16384},
    },
}

SECTOR_TOLERANCE = 0.02
CONFLICT_TOLERANCE = 0.02  # of the H100's wavefronts
LANE_TOLERANCE = 4.0


def read_csv(path):
    with open(path, newline="") as f:
        return {row["kernel"]: {k: float(v) for k, v in row.items() if k != "kernel"} for row in csv.DictReader(f)}


def per_request(sectors, requests):
    return sectors / requests if requests else 0.0


def compare(report, rows):
    """The table's lines and the list of failures (empty when every figure is within bounds)."""
    kernels = {k["name"]: k for k in report["kernels"]}
    lines, failures = [], []
    header = (f"{'kernel':24} {'ld sect/req':>17} {'st sect/req':>17} {'ld bank conflicts':>21} "
              f"{'st bank conflicts':>21} {'lanes/inst':>13}")
    lines.append(header)
    lines.append(f"{'':24} {'cusim':>8} {'H100':>8} {'cusim':>8} {'H100':>8} {'cusim':>10} {'H100':>10} "
                 f"{'cusim':>10} {'H100':>10} {'cusim':>6} {'H100':>6}")
    for name, gpu in rows.items():
        gpu = dict(gpu)
        fix = CODEGEN.get(name)
        if fix:
            for col, extra in fix["add"].items():
                gpu[M[col]] += extra
        sim = kernels.get(name)
        if sim is None:
            failures.append(f"{name}: not in report.json")
            continue
        m = sim["metrics"]
        if fix:
            merged = m[M["ld_shared"]] - rows[name][M["ld_shared"]]
            if merged != fix["merged_shared_loads"]:
                failures.append(f"{name}: the code generation note expects {fix['merged_shared_loads']} merged shared "
                                f"loads, the source has {merged} more than the H100 ran")
        cells = []
        for kind in ("ld", "st"):
            s = per_request(m[M[kind + "_sec"]], m[M[kind + "_req"]])
            g = per_request(gpu[M[kind + "_sec"]], gpu[M[kind + "_req"]])
            cells += [s, g]
            if abs(s - g) > SECTOR_TOLERANCE * max(g, 1e-9) and not (s == 0 and g == 0):
                failures.append(f"{name}: {kind} sectors per request {s:.3f}, the H100's {g:.3f}")
        for kind in ("ld", "st"):
            s = m[M[kind + "_conf"]]
            g = gpu[M[kind + "_conf"]]
            cells += [s, g]
            bound = CONFLICT_TOLERANCE * gpu[M[kind + "_wf"]]
            if abs(s - g) > bound:
                failures.append(f"{name}: {kind} bank conflicts {s:.0f}, the H100's {g:.0f} (bound {bound:.0f})")
        s = m[M["lanes"]] or 0.0
        g = gpu[M["lanes"]]
        cells += [s, g]
        if abs(s - g) > LANE_TOLERANCE:
            failures.append(f"{name}: {s:.2f} active lanes per warp instruction, the H100's {g:.2f}")
        lines.append(f"{name + ('*' if fix else ''):24} {cells[0]:8.2f} {cells[1]:8.2f} {cells[2]:8.2f} {cells[3]:8.2f} "
                     f"{cells[4]:10.0f} {cells[5]:10.0f} {cells[6]:10.0f} {cells[7]:10.0f} {cells[8]:6.2f} {cells[9]:6.2f}")
    if any(n in CODEGEN for n in rows):
        lines.append("* the H100's figures brought back to the source's instructions (nvcc merged some: CODEGEN)")
    return lines, failures


def report_from_rows(rows):
    """A report.json whose figures are the CSV's (for the self-test)."""
    kernels = []
    for name, gpu in rows.items():
        metrics = {full: gpu[full] for full in M.values()}
        fix = CODEGEN.get(name)
        if fix:
            for col, extra in fix["add"].items():
                metrics[M[col]] += extra
        kernels.append({"name": name, "metrics": metrics})
    return {"kernels": kernels}


def self_test(rows):
    exact = report_from_rows(rows)
    _, failures = compare(exact, rows)
    if failures:
        print("self-test: the CSV's own figures failed:", *failures, sep="\n  ")
        return 1
    checks = [
        ("transpose_tiled", "ld_conf", 1.05, "ld bank conflicts"),
        ("copy_offset1", "ld_sec", 1.03, "ld sectors per request"),
        ("transpose_naive", "st_sec", 0.97, "st sectors per request"),
        ("reduce_interleaved", "lanes", 0.8, "active lanes"),
        ("shared_stride2", "st_conf", 0.9, "st bank conflicts"),
        ("reduce_interleaved", "ld_shared", 1.01, "merged shared loads"),
    ]
    for name, col, factor, what in checks:
        wrong = copy.deepcopy(exact)
        for k in wrong["kernels"]:
            if k["name"] == name:
                k["metrics"][M[col]] *= factor
        _, failures = compare(wrong, rows)
        if not any(f.startswith(name + ":") for f in failures):
            print(f"self-test: {name}'s {what} off by {factor} was not caught")
            return 1
    missing = copy.deepcopy(exact)
    missing["kernels"] = missing["kernels"][1:]
    if not compare(missing, rows)[1]:
        print("self-test: a kernel missing from the report was not caught")
        return 1
    print(f"self-test: the CSV's figures pass, {len(checks)} wrong figures and a missing kernel fail")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--work")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    rows = read_csv(args.csv)
    if args.self_test:
        return self_test(rows)
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    report = work / "report.json"
    if report.exists():
        report.unlink()
    env = dict(os.environ, CUSIM_REPORT=str(work))
    run = subprocess.run([args.program], env=env, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    sys.stdout.write(run.stderr)
    if run.returncode != 0:
        print(f"the program exited {run.returncode}")
        return 1
    if not report.exists():
        print(f"no {report}")
        return 1
    lines, failures = compare(json.loads(report.read_text()), rows)
    print("\n".join(lines))
    if failures:
        print("out of bounds:", *failures, sep="\n  ")
        return 1
    print(f"all {len(rows)} kernels within bounds of the H100's counters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
