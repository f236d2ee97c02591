#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""CUSIM_REPORT on programs whose figures are known from their source.

    check_report.py --cases report_cases --api report_api --work DIR

report_cases (plain CUDA through the nvcc driver) and report_api (cusim's API) run with
CUSIM_REPORT; their report.json is compared with the figures worked out by hand in EXPECTED
below (each derivation beside it), and the JSON's shape with the one agreed for report.html.
Also: the same figures under CUSIM_CHECK=race,init,sync and CUSIM_SCHEDULE=random; cudaDeviceReset
writes the report of what ran before it; a directory that cannot be written
is a one-line message and the program's own exit status; without CUSIM_REPORT nothing is written.
Exits 1 with the list of differences; a copy of the report with one wrong figure must be caught.
"""
import argparse
import copy
import json
import os
import pathlib
import subprocess
import sys

LD = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
LDS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
ST = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
STS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
ATOM = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"
ATOMS = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"
SH_LD, SH_ST = "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"
WF_LD, WF_ST = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
BC_LD, BC_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
LANES = "smsp__thread_inst_executed_per_inst_executed.ratio"

# Per kernel: figures from the source (6 blocks of rmw_shared: 4 + 2, two warps each).
EXPECTED = {
    "rmw_shared": {
        "launches": 2, "grids": [[4, 1, 1], [2, 1, 1]], "barriers": 6 * 2 * 2,
        # in[]: 2 warps x 4 sectors; out[]: the same.
        LD: 12, LDS: 48, ST: 12, STS: 48,
        # Loads: s[4t] and s[4t+2] by lanes 0-15 (words 4t: banks 0, 4, ..., 28 twice: 2
        # wavefronts, 1 conflict each), s[t] by both warps (1 wavefront). Stores: s[t] by both
        # warps, and the += store the instrumentation does not check (seen by its change).
        SH_LD: 6 * 4, WF_LD: 6 * (2 + 2 + 2), BC_LD: 6 * 2,
        SH_ST: 6 * 3, WF_ST: 6 * (2 + 2), BC_ST: 6 * 1,
        # 15 warp instructions a block (7 full pairs and three of 16 lanes): 432 lanes.
        LANES: 432 / 15,
        "occupancy": {"limiter": "threads", "theoretical_pct": 100.0},
        "split_lines": 1,
    },
    "histogram": {
        "launches": 1, LD: 32, LDS: 128, ATOM: 32, ATOMS: 32, ST: 0, LANES: 32.0,
        "occupancy": {"limiter": "threads", "theoretical_pct": 100.0},
    },
    "big_shared": {
        "shared_bytes_per_block": 40 * 1024,
        "occupancy": {"limiter": "shared memory"},  # its percentage from the device's figures, below
    },
    "after_reset": {LD: 0, ST: 1, STS: 8},  # out[2 t]: 32 lanes 8 bytes apart
    "scale": {"launches": 1, LD: 8, LDS: 32, ST: 8, STS: 32, LANES: 32.0},
    "fold": {LD: 8, ST: 4, STS: 4, SH_LD: 12, SH_ST: 12, BC_LD: 0, BC_ST: 0, "barriers": 16},
}

TOP_KEYS = {"tool", "version", "device", "kernels"}
DEVICE_KEYS = {"name", "compute_capability", "multiprocessors", "warp_size", "max_threads_per_multiprocessor",
               "max_blocks_per_multiprocessor", "shared_memory_per_multiprocessor", "max_shared_memory_per_block",
               "registers_per_multiprocessor"}
KERNEL_KEYS = {"name", "launches", "grid", "block", "shared_bytes_per_block", "barriers", "metrics", "occupancy",
               "sites", "divergence"}
SITE_KEYS = {"file", "line", "space", "kind", "requests", "wavefronts", "bank_conflicts", "active_lanes_mean"}


def close(a, b):
    return abs(a - b) <= 1e-3 * max(1.0, abs(b))


def check_kernel(k, want, device, problems):
    name = k["name"]
    m = k["metrics"]
    for key, value in want.items():
        if key == "occupancy":
            for ok, ov in value.items():
                if k["occupancy"].get(ok) != ov and not (isinstance(ov, float) and close(k["occupancy"][ok], ov)):
                    problems.append(f"{name}: occupancy {ok} {k['occupancy'].get(ok)}, expected {ov}")
        elif key == "split_lines":
            if len(k["divergence"]) != value:
                problems.append(f"{name}: {len(k['divergence'])} split lines, expected {value}")
        elif key in m:
            if m[key] is None or not close(m[key], value):
                problems.append(f"{name}: {key} {m[key]}, expected {value}")
        elif key in k:
            if k[key] != value:
                problems.append(f"{name}: {key} {k[key]}, expected {value}")
        else:
            problems.append(f"{name}: no {key}")
    if name == "big_shared":  # 40 KiB a block: the multiprocessor's shared memory holds so many blocks
        blocks = device["shared_memory_per_multiprocessor"] // (40 * 1024)
        pct = 100.0 * blocks * 8 / (device["max_threads_per_multiprocessor"] / 32)
        if m["launch__occupancy_limit_shared_mem"] != blocks or not close(k["occupancy"]["theoretical_pct"], pct):
            problems.append(f"{name}: {m['launch__occupancy_limit_shared_mem']} blocks by shared memory, "
                            f"{k['occupancy']['theoretical_pct']}%; expected {blocks}, {pct}%")
    if m["launch__occupancy_limit_registers"] is not None or k["occupancy"].get("registers") != "unknown":
        problems.append(f"{name}: registers should be unknown")


def check_shape(report, problems):
    if not TOP_KEYS <= report.keys() or not DEVICE_KEYS <= report["device"].keys():
        problems.append("report.json: top-level or device keys missing")
    for k in report["kernels"]:
        if not KERNEL_KEYS <= k.keys():
            problems.append(f"{k.get('name')}: keys missing: {KERNEL_KEYS - k.keys()}")
        for s in k.get("sites", []):
            if not SITE_KEYS <= s.keys():
                problems.append(f"{k['name']}: a site lacks {SITE_KEYS - s.keys()}")
            ex = s.get("example")
            if ex and not ({"block", "warp", "bytes", "lanes", "base_mod_32"} <= ex.keys()):
                problems.append(f"{k['name']}: an example lacks keys")


def check_report(report, expected, problems):
    check_shape(report, problems)
    kernels = {k["name"]: k for k in report["kernels"]}
    for name, want in expected.items():
        if name not in kernels:
            problems.append(f"{name}: not in report.json (has {sorted(kernels)})")
            continue
        check_kernel(kernels[name], want, report["device"], problems)


def rmw_site_checks(report, problems):
    """The += line of rmw_shared: a shared store site with its conflicts and an example of 16 lanes."""
    k = next(k for k in report["kernels"] if k["name"] == "rmw_shared")
    stores = [s for s in k["sites"] if s["space"] == "shared" and s["kind"] == "store" and s["bank_conflicts"] > 0]
    if len(stores) != 1:
        problems.append(f"rmw_shared: {len(stores)} shared store sites with conflicts, expected 1 (the += line)")
        return
    s = stores[0]
    if not s["file"].endswith("report_cases.cu") or s["requests"] != 6 or s["active_lanes_mean"] != 16:
        problems.append(f"rmw_shared: the += store site {s['file']}:{s['line']}: {s['requests']} requests, "
                        f"{s['active_lanes_mean']} lanes; expected report_cases.cu, 6, 16")
    offsets = [l["offset"] for l in s["example"]["lanes"]]
    if offsets != [16 * t for t in range(16)]:
        problems.append(f"rmw_shared: the += example's offsets {offsets}")
    loads = [s for s in k["sites"] if s["space"] == "global" and s["kind"] == "load"]
    warps = [e["warp"] for e in loads[0].get("examples", [])] if loads else []
    if warps != [0, 1] or loads[0]["examples"][1]["lanes"][0]["offset"] != 128:
        problems.append(f"rmw_shared: the in[] load's examples are warps {warps}, expected 0 and 1 (offsets 0 and 128)")
    src = k.get("source")
    if not src or not any("s[4 * t] += s[4 * t + 2]" in line for line in src["lines"]):
        problems.append("rmw_shared: the kernel's source lines are missing from the report")


def run(program, env_extra, work):
    env = dict(os.environ)
    env.pop("CUSIM_REPORT", None)
    env.update(env_extra)
    return subprocess.run([program], env=env, capture_output=True, text=True, cwd=work)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases")
    ap.add_argument("--api")
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    args.cases, args.api = os.path.abspath(args.cases), os.path.abspath(args.api)
    work = pathlib.Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    problems = []

    cases_dir = work / "cases"
    r = run(args.cases, {"CUSIM_REPORT": str(cases_dir)}, work)
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        problems.append(f"report_cases exited {r.returncode}")
    report = json.loads((cases_dir / "report.json").read_text())
    check_report(report, {n: EXPECTED[n] for n in ("rmw_shared", "histogram", "big_shared", "after_reset")}, problems)
    rmw_site_checks(report, problems)
    if not (cases_dir / "report.html").exists():
        problems.append("no report.html")
    if "cusim report: rmw_shared (2 launches)" not in r.stderr or "report.html (open it in a browser)" not in r.stderr:
        problems.append("the stderr summary lacks rmw_shared's line or the page's path")

    # The self-test of this checker: a report with one wrong figure must be caught.
    wrong = copy.deepcopy(report)
    for k in wrong["kernels"]:
        if k["name"] == "rmw_shared":
            k["metrics"][BC_ST] += 1
    caught = []
    check_report(wrong, {"rmw_shared": EXPECTED["rmw_shared"]}, caught)
    if not caught:
        problems.append("self-test: a wrong bank-conflict figure was not caught")

    # The same counts whatever else observes the launch or however its threads are scheduled.
    for name, extra in (("checked", {"CUSIM_CHECK": "race,init,sync"}), ("shuffled", {"CUSIM_SCHEDULE": "random:7"})):
        other = work / name
        run(args.cases, {"CUSIM_REPORT": str(other), **extra}, work)
        got = {k["name"]: k["metrics"] for k in json.loads((other / "report.json").read_text())["kernels"]}
        for k in report["kernels"]:
            if got.get(k["name"]) != k["metrics"]:
                problems.append(f"{k['name']}: other figures with {extra}")

    reset_dir = work / "reset"
    r = run(args.cases, {"CUSIM_REPORT": str(reset_dir), "REPORT_CASES_RESET": "1"}, work)
    if r.stderr.count("report.html (open it in a browser)") != 2:
        problems.append(f"cudaDeviceReset: expected two reports written, stderr:\n{r.stderr}")
    names = [k["name"] for k in json.loads((reset_dir / "report.json").read_text())["kernels"]]
    if names != ["after_reset"]:
        problems.append(f"after cudaDeviceReset the last report holds {names}, expected only after_reset")

    r = run(args.cases, {"CUSIM_REPORT": "/proc/cusim-no-such-dir"}, work)
    lines = [l for l in r.stderr.splitlines() if "cannot write" in l]
    if r.returncode != 0 or len(lines) != 1 or "/proc/cusim-no-such-dir/report.json" not in lines[0]:
        problems.append(f"an unwritable directory: exit {r.returncode}, stderr:\n{r.stderr}")

    plain = work / "plain"
    plain.mkdir(exist_ok=True)
    r = run(args.cases, {}, plain)
    if "cusim report" in r.stderr or any(plain.iterdir()):
        problems.append("without CUSIM_REPORT something was reported or written")

    api_dir = work / "api"
    r = run(args.api, {"CUSIM_REPORT": str(api_dir)}, work)
    print(r.stdout + r.stderr)
    api = json.loads((api_dir / "report.json").read_text())
    check_report(api, {n: EXPECTED[n] for n in ("scale", "fold")}, problems)

    if problems:
        print("differences:", *problems, sep="\n  ")
        return 1
    print("report checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
