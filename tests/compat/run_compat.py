#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The compat suite: NVIDIA's cuda-samples, unmodified, built with their own CMakeLists.txt and
cusim's toolkit (CUDACXX=<toolkit>/bin/nvcc), run, and classified.

    tests/compat/run_compat.py --toolkit build/cuda [--samples DIR] [--work DIR]
                               [--baseline tests/compat/baseline.txt] [--only NAME,...]
                               [--jobs N] [--timeout S] [--write-baseline] [--all]
                               [--truth DIR] [--gpu h100] [--differences FILE]
                               [--build-type Release|Debug|...] [--seconds FILE] [--write-seconds]

Each sample is configured as the README tells users to, with no build type (--build-type sets
one). Each program checks its own results: exit 0 is a pass, exit 2 is waived (the samples' EXIT_WAIVED:
a feature the device lacks). Anything else is a build failure (configure or compile, with the first
error line) or a run failure (exit code or signal, with the last line of output). A program that
exits 0 but prints its own failure verdict ("Test failed!", "... FAILED", "mismatches": compare.py)
is a run failure too. Its result lines are then compared with a real GPU's output of the same
program (TRUTH/NAME.GPU.txt, by default ../shared/gpu-truth/samples/NAME.h100.txt, the simulator
set to the same device with CUSIM_DEVICE=GPU): a difference that tests/compat/differences.txt
does not explain makes it "differs". Each program's output is kept in WORK/NAME/output.txt (the
reference's layout: stdout and stderr, then `rc=N`).

Prints a table; with --baseline, exits 1 when a program does worse than the baseline says (pass,
then waived, differs, run failure, build failure); a program that now does better is reported, so
that the baseline can be raised with --write-baseline. A program the baseline expects to be a run
failure must fail with the reason the baseline gives (hexadecimal addresses aside): a sample whose
own bug the simulator reports (simpleAttributes) must go on reporting that bug. A program the
baseline marks "slow" (a workload sized for a GPU that runs for many minutes on a CPU: scan alone)
is listed as skipped and not run, unless --all.

The programs start longest first (each one's seconds in the last recorded run: tests/compat/seconds.txt,
which --write-seconds rewrites; one not listed there first of all), so that with --jobs N the run
does not end waiting on a long program started last.
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

import compare

HERE = pathlib.Path(__file__).resolve().parent
RESULTS = ("pass", "waived", "differs", "run failure", "build failure", "skipped")
# From best to worst: doing worse than the baseline is a regression.
RANK = {r: i for i, r in enumerate(RESULTS[:-1])}
BASELINE_HEADER = """\
# The compat suite's expected results, one program a line: pass, waived, differs (exits 0 but its
# result lines differ from the GPU's where tests/compat/differences.txt does not explain it), run
# failure, build failure, or slow (listed, not run, unless --all). tests/compat/run_compat.py
# compares each run with it; --write-baseline rewrites it from a run (keeping the lines of programs
# not run). The reason after `#` is the first unexplained difference or the failure's own words; an
# expected run failure must fail with it.
"""


def find_samples(root):
    """(name, directory) of every program: a folder of Samples/*/ with a CMakeLists.txt."""
    return sorted((d.name, d) for d in root.glob("*/*") if (d / "CMakeLists.txt").is_file())


def first_error(text):
    # The compiler's own message before ninja's "FAILED: target" line.
    for pattern in (r"\berror\b|Error|cannot|unknown option", r"FAILED"):
        for line in text.splitlines():
            if re.search(pattern, line):
                return line.strip()[:160]
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else "(no output)"


def last_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else "(no output)"


# The simulator's report of a kernel fault: the thread and block, then what happened.
FAULT_REPORT = re.compile(r"^tid=\[\d+, \d+, \d+\] ctaid=\[\d+, \d+, \d+\]: ")


def without_addresses(text):
    return re.sub(r"0x[0-9a-fA-F]+", "0x?", text).strip()


def failure_line(text):
    """What a failed run says: the simulator's first fault report (its addresses, which differ
    from run to run, as 0x?), else the last line."""
    for line in text.splitlines():
        if FAULT_REPORT.match(line):
            return without_addresses(line)[:400]
    return last_line(text)


def same_failure(expected, got):
    """A run failure's reason against the baseline's, hexadecimal addresses aside."""
    return without_addresses(expected) == without_addresses(got)


def run(cmd, cwd=None, env=None, timeout=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, timeout=timeout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out


def build_failure(build, reason, start):
    (build / "build-failure.txt").write_text(reason + "\n")  # for --reuse
    return "build failure", reason, time.monotonic() - start, None, None


def build_and_run(name, src, work, env, timeout, run_env=None, build_type=""):
    """(result, reason, seconds, output, executable) of one program; output None when not run.
    run_env: the program's environment, when it differs from the build's (a pinned time).
    build_type: CMAKE_BUILD_TYPE, empty for none (the README's command, CMake's default)."""
    start = time.monotonic()
    build = work / name
    shutil.rmtree(build, ignore_errors=True)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    configs = [f"-DCMAKE_BUILD_TYPE={build_type}"] if build_type else []
    rc, out = run(["cmake", "-S", str(src), "-B", str(build), *generator, *configs], env=env, timeout=600)
    if rc != 0:
        return build_failure(build, "configure: " + first_error(out), start)
    rc, out = run(["cmake", "--build", str(build), "-j", "1"], env=env, timeout=1200)
    if rc != 0:
        return build_failure(build, first_error(out), start)
    exe = build / name
    if not exe.is_file():
        candidates = [p for p in build.iterdir() if p.is_file() and os.access(p, os.X_OK)]
        if len(candidates) != 1:
            return build_failure(build, "no executable named " + name, start)
        exe = candidates[0]
    # The samples look for their data next to the sources: run them there.
    rc, out = run([str(exe)], cwd=src, env=run_env or env, timeout=timeout)
    seconds = time.monotonic() - start
    out = (out if out.endswith("\n") or not out else out + "\n") + f"rc={'timeout' if rc is None else rc}\n"
    (build / "output.txt").write_text(out)
    if rc is None:
        return "run failure", f"timed out after {timeout} s: {last_line(out)}", seconds, out, exe
    if rc == 0:
        return "pass", "", seconds, out, exe
    if rc == 2:
        return "waived", last_line(out), seconds, out, exe
    what = f"signal {-rc}" if rc < 0 else f"exit {rc}"
    return "run failure", f"{what}: {failure_line(out.rsplit('rc=', 1)[0])}", seconds, out, exe


def reread(name, work):
    """build_and_run's answer from the output a previous run kept (--reuse)."""
    build = work / name
    path = build / "output.txt"
    if (build / "build-failure.txt").is_file():
        return "build failure", (build / "build-failure.txt").read_text().strip(), 0.0, None, None
    if not path.is_file():
        return "build failure", f"--reuse: no {path}", 0.0, None, None
    out = path.read_text(errors="replace")
    rc = out.rstrip("\n").rpartition("rc=")[2]
    exe = build / name
    if rc == "0":
        return "pass", "", 0.0, out, exe
    if rc == "2":
        return "waived", last_line(out.rsplit("rc=", 1)[0]), 0.0, out, exe
    return "run failure", f"exit {rc}: {failure_line(out.rsplit('rc=', 1)[0])}", 0.0, out, exe


def reference_of(truth, name, gpu):
    """The GPU's output of a program: TRUTH/NAME.GPU.txt, or, where the recorder dropped a prefix
    (MC_EstimatePiP recorded as EstimatePiP), the file of the longest `_`-suffix of NAME."""
    candidates = [name] + [name.split("_", k)[k] for k in range(1, name.count("_") + 1)]
    for candidate in candidates:
        path = truth / f"{candidate}.{gpu}.txt"
        if path.is_file():
            return path
    return None


def check_lines(name, src, result, truth, gpu, known):
    """The result after reading the output: (result, reason, lines cell, differences)."""
    kind, reason, _, out, exe = result
    if out is None:
        return kind, reason, "-", []
    ref_path = reference_of(truth, name, gpu) if truth else None
    reference = ref_path.read_text(errors="replace") if ref_path else ""
    if kind == "pass":
        said = compare.verdict(out.splitlines(), reference.splitlines())
        if said:
            kind, reason = "run failure", "says: " + said[:150]
    if not ref_path:
        return kind, reason, "no reference", []
    differences = compare.compare(reference, out, compare.device_line_patterns(src), known.get(name, ()), exe)
    cell = compare.summary(differences)
    if kind == "pass" and any(not d.reason for d in differences):
        kind, reason = "differs", cell[len("no: "):]
    return kind, reason, cell, differences


def read_pinned_times(path):
    """NAME -> seconds since the epoch, from pinned_time.txt."""
    pinned = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                pinned[line[0]] = line[1]
    return pinned


def read_seconds(path):
    """NAME -> seconds of its build and run, from a file of `NAME SECONDS` lines (# comments)."""
    seconds = {}
    if path and path.is_file():
        for line in path.read_text().splitlines():
            fields = line.split("#", 1)[0].split()
            if len(fields) == 2:
                seconds[fields[0]] = float(fields[1])
    return seconds


def longest_first(samples, seconds):
    """The (name, directory) pairs in the order to start them: the longest known first, and any
    program with no recorded time before them all (it may be the longest); by name among equals."""
    return sorted(samples, key=lambda s: (-seconds.get(s[0], float("inf")), s[0]))


def write_seconds(path, seconds):
    with open(path, "w") as f:
        f.write("# Each compat program's seconds (configure, build and run) in the last recorded run, for\n"
                "# tests/compat/run_compat.py's order (longest first); rewritten by its --write-seconds.\n")
        for name in sorted(seconds):
            f.write(f"{name} {seconds[name]:.0f}\n")


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
    parser.add_argument("--reuse", action="store_true",
                        help="read the outputs a previous run kept in WORK/NAME/output.txt: no build, no run")
    parser.add_argument("--build-type", default="",
                        help="CMAKE_BUILD_TYPE of each sample's build; none by default, as the README builds")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="programs built and run at once (default: one per core)")
    parser.add_argument("--timeout", type=int, default=400, help="seconds per program run")
    parser.add_argument("--truth", type=pathlib.Path, default=repo.parent / "shared" / "gpu-truth" / "samples",
                        help="a GPU's outputs, NAME.GPU.txt (none there: the lines are not compared)")
    parser.add_argument("--gpu", default="h100", help="which GPU's outputs, and the CUSIM_DEVICE to simulate")
    parser.add_argument("--differences", type=pathlib.Path, default=here / "differences.txt",
                        help="the explained differences from the GPU's lines, NAME: REGEX  # reason")
    parser.add_argument("--seconds", type=pathlib.Path, default=here / "seconds.txt",
                        help="each program's seconds in a previous run (NAME SECONDS), to start the longest first")
    parser.add_argument("--write-seconds", action="store_true",
                        help="rewrite --seconds with this run's times (keeping the programs not run)")
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
    # The device the reference ran on, so that what the programs size from it matches.
    env.setdefault("CUSIM_DEVICE", args.gpu)
    truth = args.truth if args.truth.is_dir() else None
    if not truth:
        print(f"run_compat: no GPU outputs at {args.truth}: result lines are not compared", flush=True)
    known = compare.read_differences(args.differences)
    unknown = sorted(set(known) - {name for name, _ in find_samples(args.samples)})
    if unknown:
        sys.exit(f"run_compat: {args.differences} names programs that do not exist: {', '.join(unknown)}")

    # Programs seeded with time(NULL) run at the GPU run's second (pinned_time.txt, pin_time.c).
    run_envs = {}
    pinned = read_pinned_times(HERE / "pinned_time.txt")
    if any(name in pinned for name, _ in samples):
        shim = work / "pin_time.so"
        rc, out = run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O2", "-o", str(shim), str(HERE / "pin_time.c")])
        if rc != 0:
            sys.exit(f"run_compat: cannot build the time() shim: {first_error(out)}")
        for name, seconds in pinned.items():
            run_envs[name] = dict(env, LD_PRELOAD=str(shim), CUSIM_PINNED_TIME=seconds)

    results = {}
    expected = read_baseline(args.baseline) if args.baseline and args.baseline.is_file() else {}
    if not args.all:
        for name, _ in samples:
            if expected.get(name, ("",))[0] == "slow":
                results[name] = ("skipped", "slow: " + expected[name][1], 0.0, "-")
        samples = [s for s in samples if s[0] not in results]
    sources = dict(samples)
    recorded = read_seconds(args.seconds)
    samples = longest_first(samples, recorded)
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {(pool.submit(reread, name, work) if args.reuse else
                    pool.submit(build_and_run, name, src, work, env, args.timeout, run_envs.get(name),
                                args.build_type)): name
                   for name, src in samples}
        for future in concurrent.futures.as_completed(futures):
            name = futures[future]
            ran = future.result()
            kind, reason, cell, differences = check_lines(name, sources[name], ran, truth, args.gpu, known)
            results[name] = (kind, reason, ran[2], cell)
            print(f"  {name}: {kind} ({ran[2]:.0f} s)", flush=True)
            for d in differences:
                print(f"    {d}", flush=True)

    width = max((len(n) for n in results), default=10)
    column = f"lines as on {args.gpu}"
    print(f"\n{'program':{width}}  {'result':14} {'s':>5}  {column:22}  reason")
    for name in sorted(results):
        result, reason, seconds, cell = results[name]
        cell = "no" if cell.startswith("no:") else cell
        print(f"{name:{width}}  {result:14} {seconds:5.0f}  {cell:22}  {reason}")
    counts = {r: sum(1 for v in results.values() if v[0] == r) for r in RESULTS}
    print("\n" + ", ".join(f"{counts[r]} {r}" for r in RESULTS) + f" of {len(results)} programs "
          f"in {time.monotonic() - started:.0f} s")
    slowest = sorted(results.items(), key=lambda kv: -kv[1][2])[:5]
    print("slowest: " + ", ".join(f"{n} {v[2]:.0f} s" for n, v in slowest))

    status = 0
    if expected and not args.write_baseline:
        for name, (want, _) in sorted(expected.items()):
            got = results.get(name, ("missing",))[0]
            if name not in results or got == "skipped" or want not in RANK:
                continue
            if RANK[got] > RANK[want]:
                print(f"REGRESSION: {name} was {want} in the baseline, now {got}: {results[name][1]}")
                status = 1
            elif got == want == "run failure" and not same_failure(expected[name][1], results[name][1]):
                print(f"REGRESSION: {name} fails differently: {results[name][1]} (baseline: {expected[name][1]})")
                status = 1
            elif RANK[got] < RANK[want]:
                print(f"improved: {name} now {got} (baseline: {want}); raise it with --write-baseline")
    if args.write_seconds and not args.reuse:
        write_seconds(args.seconds, dict(recorded, **{n: v[2] for n, v in results.items() if v[0] != "skipped"}))
    if args.write_baseline and args.baseline:
        # The programs not run this time (--only) keep their lines.
        merged = dict(expected)
        for name in results:
            result, reason = results[name][:2]
            if result == "skipped" or expected.get(name, ("",))[0] == "slow":
                result, reason = "slow", expected[name][1]
            merged[name] = (result, reason)
        with open(args.baseline, "w") as f:
            f.write(BASELINE_HEADER)
            for name in sorted(merged):
                result, reason = merged[name]
                f.write(f"{name} {result}" + (f"  # {reason}" if reason else "") + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
