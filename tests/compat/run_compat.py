#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The compat suite: NVIDIA's cuda-samples, unmodified, built with their own CMakeLists.txt and
cusim's toolkit (CUDACXX=<toolkit>/bin/nvcc), run, and classified.

    tests/compat/run_compat.py --toolkit build/cuda [--samples DIR] [--work DIR]
                               [--baseline tests/compat/baseline.txt] [--only NAME,...]
                               [--jobs N] [--timeout S] [--write-baseline] [--all]

Each program checks its own results: exit 0 is a pass, exit 2 is waived (the samples' EXIT_WAIVED:
a feature the device lacks). Anything else is a build failure (configure or compile, with the first
error line) or a run failure (exit code or signal, with the last line of output). Prints a table;
with --baseline, exits 1 when a program the baseline lists as "pass" no longer passes (a program
that now passes and did not is reported, so the baseline can be raised with --write-baseline).
A program the baseline marks "slow" (a workload sized for a GPU that runs for many minutes on a
CPU) is listed as skipped and not run, unless --all.
"""
import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

RESULTS = ("pass", "waived", "build failure", "run failure", "skipped")


def find_samples(root):
    """(name, directory) of every program: a folder of Samples/*/ with a CMakeLists.txt."""
    return sorted((d.name, d) for d in root.glob("*/*") if (d / "CMakeLists.txt").is_file())


def first_error(text):
    for line in text.splitlines():
        if re.search(r"\berror\b|Error|FAILED|cannot|unknown option", line):
            return line.strip()[:160]
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else "(no output)"


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else "(no output)"


def run(cmd, cwd=None, env=None, timeout=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out


def build_and_run(name, src, work, env, timeout):
    """(result, reason, seconds) of one program."""
    start = time.monotonic()
    build = work / name
    shutil.rmtree(build, ignore_errors=True)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    rc, out = run(["cmake", "-S", str(src), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release"],
                  env=env, timeout=600)
    if rc != 0:
        return "build failure", "configure: " + first_error(out), time.monotonic() - start
    rc, out = run(["cmake", "--build", str(build), "-j", "1"], env=env, timeout=1200)
    if rc != 0:
        return "build failure", first_error(out), time.monotonic() - start
    exe = build / name
    if not exe.is_file():
        candidates = [p for p in build.iterdir() if p.is_file() and os.access(p, os.X_OK)]
        if len(candidates) != 1:
            return "build failure", "no executable named " + name, time.monotonic() - start
        exe = candidates[0]
    # The samples look for their data next to the sources: run them there.
    rc, out = run([str(exe)], cwd=src, env=env, timeout=timeout)
    seconds = time.monotonic() - start
    if rc is None:
        return "run failure", f"timed out after {timeout} s: {last_line(out)}", seconds
    if rc == 0:
        return "pass", "", seconds
    if rc == 2:
        return "waived", last_line(out), seconds
    what = f"signal {-rc}" if rc < 0 else f"exit {rc}"
    return "run failure", f"{what}: {last_line(out)}", seconds


def read_baseline(path):
    """name -> (expected result, the reason after '#')."""
    expected = {}
    for line in path.read_text().splitlines():
        text, _, reason = line.partition("#")
        if text.strip():
            name, result = text.split(None, 1)
            expected[name] = (result.strip(), reason.strip())
    return expected


def main():
    here = pathlib.Path(__file__).resolve().parent
    repo = here.parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--toolkit", required=True, type=pathlib.Path, help="cusim's toolkit layout (B/cuda)")
    parser.add_argument("--samples", type=pathlib.Path,
                        default=repo.parent / "shared" / "compat" / "cuda-samples" / "Samples")
    parser.add_argument("--work", type=pathlib.Path, default=pathlib.Path("compat-work"))
    parser.add_argument("--baseline", type=pathlib.Path)
    parser.add_argument("--write-baseline", action="store_true")
    parser.add_argument("--all", action="store_true", help="also run the programs the baseline marks slow")
    parser.add_argument("--only", default="")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per program run")
    args = parser.parse_args()

    nvcc = (args.toolkit / "bin" / "nvcc").resolve()
    if not nvcc.is_file():
        sys.exit(f"run_compat: no driver at {nvcc}: build cusim first")
    if not args.samples.is_dir():
        sys.exit(f"run_compat: no samples at {args.samples}")
    samples = find_samples(args.samples)
    if args.only:
        wanted = set(args.only.split(","))
        samples = [s for s in samples if s[0] in wanted]
    args.work.mkdir(parents=True, exist_ok=True)
    work = args.work.resolve()

    # No NVIDIA toolkit in sight: only ours, through CUDACXX and PATH.
    env = dict(os.environ)
    env["CUDACXX"] = str(nvcc)
    env["PATH"] = os.pathsep.join([str(nvcc.parent)] + [p for p in env.get("PATH", "").split(os.pathsep)
                                                         if "cuda" not in p])
    for var in ("CUDA_PATH", "CUDA_HOME", "CUDAToolkit_ROOT", "CUDAHOSTCXX"):
        env.pop(var, None)
    # One simulator worker per core left to each program: `--jobs 2` on 2 cores runs two programs
    # of one worker each rather than four threads fighting over two cores.
    env.setdefault("CUSIM_WORKERS", str(max(1, (os.cpu_count() or 1) // max(1, args.jobs))))

    results = {}
    expected = read_baseline(args.baseline) if args.baseline and args.baseline.is_file() else {}
    if not args.all:
        for name, _ in samples:
            if expected.get(name, ("",))[0] == "slow":
                results[name] = ("skipped", "slow: " + expected[name][1], 0.0)
        samples = [s for s in samples if s[0] not in results]
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(build_and_run, name, src, work, env, args.timeout): name for name, src in samples}
        for future in concurrent.futures.as_completed(futures):
            name = futures[future]
            results[name] = future.result()
            print(f"  {name}: {results[name][0]} ({results[name][2]:.0f} s)", flush=True)

    width = max((len(n) for n in results), default=10)
    print(f"\n{'program':{width}}  {'result':14} {'s':>5}  reason")
    for name in sorted(results):
        result, reason, seconds = results[name]
        print(f"{name:{width}}  {result:14} {seconds:5.0f}  {reason}")
    counts = {r: sum(1 for v in results.values() if v[0] == r) for r in RESULTS}
    print("\n" + ", ".join(f"{counts[r]} {r}" for r in RESULTS) + f" of {len(results)} programs "
          f"in {time.monotonic() - started:.0f} s")
    slowest = sorted(results.items(), key=lambda kv: -kv[1][2])[:5]
    print("slowest: " + ", ".join(f"{n} {v[2]:.0f} s" for n, v in slowest))

    status = 0
    if expected and not args.write_baseline:
        for name, (want, _) in sorted(expected.items()):
            got = results.get(name, ("missing",))[0]
            if want == "pass" and got != "pass" and name in results:
                print(f"REGRESSION: {name} passed in the baseline, now {got}: {results[name][1]}")
                status = 1
            elif want not in ("pass", "slow") and got == "pass":
                print(f"improved: {name} now passes (baseline: {want}); raise it with --write-baseline")
    if args.write_baseline and args.baseline:
        with open(args.baseline, "w") as f:
            f.write("# The compat suite's expected results (tests/compat/run_compat.py --write-baseline).\n")
            for name in sorted(results):
                result, reason, _ = results[name]
                if result == "skipped" or expected.get(name, ("",))[0] == "slow":
                    result, reason = "slow", expected[name][1]
                f.write(f"{name} {result}" + (f"  # {reason}" if reason else "") + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
