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


def compare(report, rows, extra_ld_conflicts=0.0, known=None, gpu_name="H100"):
    """The table's lines and the list of failures (empty when every figure is within bounds).
    extra_ld_conflicts: the GPU may count up to this many load conflicts per shared load request more
    than cusim (one-sided: --extra-ld-conflicts). known: {(kernel, figure): reason} of differences
    explained in docs/teaching.md; each must still differ (else the entry is stale: a failure)."""
    known = dict(known or {})
    seen_known = set()

    def fail(name, figure, text):
        if (name, figure) in known:
            seen_known.add((name, figure))
        else:
            failures.append(text)

    kernels = {k["name"]: k for k in report["kernels"]}
    lines, failures = [], []
    header = (f"{'kernel':24} {'ld sect/req':>17} {'st sect/req':>17} {'ld bank conflicts':>21} "
              f"{'st bank conflicts':>21} {'lanes/inst':>13}")
    lines.append(header)
    g_ = gpu_name
    lines.append(f"{'':24} {'cusim':>8} {g_:>8} {'cusim':>8} {g_:>8} {'cusim':>10} {g_:>10} "
                 f"{'cusim':>10} {g_:>10} {'cusim':>6} {g_:>6}")
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
                fail(name, kind + "_sec", f"{name}: {kind} sectors per request {s:.3f}, the {gpu_name}'s {g:.3f}")
        for kind in ("ld", "st"):
            s = m[M[kind + "_conf"]]
            g = gpu[M[kind + "_conf"]]
            cells += [s, g]
            bound = CONFLICT_TOLERANCE * gpu[M[kind + "_wf"]]
            extra = extra_ld_conflicts * gpu[M["ld_shared"]] if kind == "ld" else 0.0
            if not (-bound <= g - s <= bound + extra):
                fail(name, kind + "_conf",
                     f"{name}: {kind} bank conflicts {s:.0f}, the {gpu_name}'s {g:.0f} (bound {bound:.0f}, {extra:.0f} more allowed)")
        s = m[M["lanes"]] or 0.0
        g = gpu[M["lanes"]]
        cells += [s, g]
        if abs(s - g) > LANE_TOLERANCE:
            fail(name, "lanes", f"{name}: {s:.2f} active lanes per warp instruction, the {gpu_name}'s {g:.2f}")
        lines.append(f"{name + ('*' if fix else ''):24} {cells[0]:8.2f} {cells[1]:8.2f} {cells[2]:8.2f} {cells[3]:8.2f} "
                     f"{cells[4]:10.0f} {cells[5]:10.0f} {cells[6]:10.0f} {cells[7]:10.0f} {cells[8]:6.2f} {cells[9]:6.2f}")
    if any(n in CODEGEN for n in rows):
        lines.append("* the H100's figures brought back to the source's instructions (nvcc merged some: CODEGEN)")
    for (name, figure), reason in known.items():
        if (name, figure) in seen_known:
            lines.append(f"known difference: {name} {figure}: {reason}")
        else:
            failures.append(f"{name}: {figure} is listed as a known difference but is within bounds (a stale entry)")
    return lines, failures


def read_known(path):
    """{(kernel, figure): reason} from lines `kernel figure  # reason`."""
    known = {}
    with open(path) as f:
        for line in f:
            words, _, reason = line.partition("#")
            words = words.split()
            if words:
                known[(words[0], words[1])] = reason.strip()
    return known


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
    name = next(iter(rows))
    if not any("stale" in f for f in compare(exact, rows, known={(name, "ld_sec"): "test"})[1]):
        print("self-test: a known difference that is within bounds was not caught as stale")
        return 1
    wrong = copy.deepcopy(exact)
    wrong["kernels"][0]["metrics"][M["ld_sec"]] *= 2
    if compare(wrong, rows, known={(name, "ld_sec"): "test"})[1]:
        print("self-test: a known difference failed")
        return 1
    print(f"self-test: the CSV's figures pass, {len(checks)} wrong figures, a missing kernel and a stale known "
          "difference fail")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program")
    ap.add_argument("--csv", required=True)
    ap.add_argument("--work")
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--gpu", default="H100", help="the GPU's name in the table")
    ap.add_argument("--extra-ld-conflicts", type=float, default=0.0,
                    help="load conflicts per shared load request the GPU may count beyond cusim's")
    ap.add_argument("--known", help="a file of known differences: `kernel figure  # reason`")
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
    known = read_known(args.known) if args.known else {}
    lines, failures = compare(json.loads(report.read_text()), rows, args.extra_ld_conflicts, known, args.gpu)
    print("\n".join(lines))
    if failures:
        print("out of bounds:", *failures, sep="\n  ")
        return 1
    print(f"all {len(rows)} kernels within bounds of the {args.gpu}'s counters"
          + (f" ({len(known)} known differences)" if known else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
