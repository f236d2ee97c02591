#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Rewrites the `kernel<<<grid, block[, smem[, stream]]>>>(args)` launches of a CUDA source as
HIP's `hipLaunchKernelGGL((kernel), dim3(grid), dim3(block), smem, stream, args)`, as AMD's
hipify tools do, for raw_benchmark_hip_cpu: HIP-CPU is a library for a plain C++ compiler, which
cannot parse `<<<>>>`. Nothing else changes (the CUDA names are hip_cpu/cuda_runtime.h's); the
launches keep their lines, so the compiler's diagnostics name the source's lines.

    hipify.py IN OUT
"""

import re
import sys


def split_top_level(text):
    """`text` split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: hipify.py IN OUT\n")
        sys.exit(2)
    with open(sys.argv[1], encoding="utf-8") as f:
        source = f.read()
    # A kernel name, optionally qualified and with template arguments, before `<<<`.
    launch = re.compile(r"([A-Za-z_][\w:]*(?:\s*<[^<>;()]*>)?)\s*<<<")
    out, pos, count = [], 0, 0
    while True:
        match = launch.search(source, pos)
        if not match:
            break
        close = source.find(">>>", match.end())
        paren = source.find("(", close)
        if close < 0 or paren < 0 or source[close + 3 : paren].strip():
            sys.stderr.write(f"hipify.py: {sys.argv[1]}: a launch it cannot read at offset {match.start()}\n")
            sys.exit(1)
        depth, end = 0, paren
        while end < len(source):
            if source[end] == "(":
                depth += 1
            elif source[end] == ")":
                depth -= 1
                if depth == 0:
                    break
            end += 1
        config = split_top_level(source[match.end() : close])
        if not 2 <= len(config) <= 4:
            sys.stderr.write(f"hipify.py: {sys.argv[1]}: a launch configuration of {len(config)} values\n")
            sys.exit(1)
        config += ["0", "0"][: 4 - len(config)]
        args = source[paren + 1 : end]
        call = f"hipLaunchKernelGGL(({match.group(1)}), dim3({config[0]}), dim3({config[1]}), {config[2]}, {config[3]}"
        call += (", " + args if args.strip() else "") + ")"
        out.append(source[pos : match.start()])
        out.append(call)
        pos = end + 1
        count += 1
    out.append(source[pos:])
    if count == 0:
        sys.stderr.write(f"hipify.py: {sys.argv[1]}: no launch\n")
        sys.exit(1)
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
