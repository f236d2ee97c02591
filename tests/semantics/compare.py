#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs semantics.cu built by cusim's nvcc and compares its stdout, line by line, with what an H100
printed (semantics.h100.txt, copied verbatim from ../shared/gpu-truth: tools/gpu_check records it
anew on a GPU). Excluded, as gpu-truth/README.md says: lines starting `info`, the `rc=` line, and
everything after the first cudaDeviceReset() that follows a fault (that machine's virtualised
driver answered cudaErrorDevicesUnavailable there). That tail is compared instead with
semantics.tail.txt: what a GPU on a normal machine answers once the reset has cleared the fault.
Lines docs/fidelity.md lists as deliberate differences are named in NAME.differences.txt beside
the reference (a line's first word, and optionally a tolerance for its numbers, relative above 1 and absolute below; `#`
comments): none for semantics.cu; for libraries.cu, cuRAND's normals. Exit 0 when nothing else differs.

The same comparison serves libraries.cu (textures, cuRAND's device API, half precision: copied
verbatim from ../shared/gpu-truth too), which has no reset and so no tail: --tail "".

  compare.py PROGRAM [--reference semantics.h100.txt] [--tail semantics.tail.txt]
  compare.py PROGRAM --reference libraries.h100.txt --tail ""
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def split_at_reset(lines):
    """(head, tail): head up to and including the first cudaDeviceReset() after a fault."""
    faulted = False
    for i, line in enumerate(lines):
        if line.startswith("== sticky errors"):
            faulted = True
        if faulted and line.startswith("cudaDeviceReset()"):
            return lines[: i + 1], lines[i + 1:]
    return lines, []


def comparable(lines):
    return [l for l in lines if not l.startswith("info") and not l.startswith("rc=")]


def allowed_differences(path):
    """{first word of a GPU line: relative tolerance, or None for any difference}. A line of the file
    is `WORD [TOLERANCE]  # reason`: with a tolerance, the line's words must be the same but for
    numbers within it of the GPU's."""
    allowed = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                words = line.split("#", 1)[0].split()
                if words:
                    allowed[words[0]] = float(words[1]) if len(words) > 1 else None
    return allowed


def within(got, want, tolerance):
    g, w = got.split(), want.split()
    if len(g) != len(w):
        return False
    for a, b in zip(g, w):
        if a == b:
            continue
        try:
            x, y = float(a), float(b)
        except ValueError:
            return False
        if abs(x - y) > tolerance * max(abs(y), 1.0):
            return False
    return True


def diff(got, want, allowed, what):
    problems = []
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else "<missing>"
        w = want[i] if i < len(want) else "<missing>"
        key = w.split()[0] if w.split() else None
        if g == w or (key in allowed and (allowed[key] is None or within(g, w, allowed[key]))):
            continue
        problems.append(f"{what} line {i + 1}:\n  cusim: {g}\n  GPU:   {w}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program")
    ap.add_argument("--reference", default=os.path.join(HERE, "semantics.h100.txt"))
    ap.add_argument("--tail", default=os.path.join(HERE, "semantics.tail.txt"))
    ap.add_argument("--differences", default=None,
                    help="the explained differences (default: REFERENCE's name with .differences.txt)")
    args = ap.parse_args()

    run = subprocess.run([args.program], capture_output=True, text=True, timeout=240)
    got_head, got_tail = split_at_reset(run.stdout.splitlines())
    with open(args.reference) as f:
        want_head, _ = split_at_reset(f.read().splitlines())
    want_tail = []
    if args.tail:
        with open(args.tail) as f:
            want_tail = f.read().splitlines()
    differences = args.differences or os.path.join(HERE, os.path.basename(args.reference).split(".")[0] + ".differences.txt")
    allowed = allowed_differences(differences)
    reference = os.path.basename(args.reference)
    what = reference.split(".")[0]
    problems = diff(comparable(got_head), comparable(want_head), allowed, reference)
    problems += diff(comparable(got_tail), comparable(want_tail), allowed, os.path.basename(args.tail))
    if run.returncode != 0:
        problems.append(f"the program exited with {run.returncode}")
    compared = len(comparable(want_head)) + len(comparable(want_tail))
    if problems:
        print("\n".join(problems))
        print(f"{what}: {len(problems)} of {compared} lines differ from the GPU's")
        print("--- stderr ---\n" + run.stderr)
        return 1
    print(f"{what}: all {compared} lines as on the GPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
