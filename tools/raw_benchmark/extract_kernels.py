#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copies named kernels, device functions, macros and declarations out of NVIDIA's cuda-samples,
byte for byte, into one header for tools/raw_benchmark/raw_benchmark.cu.

Where a sample keeps its kernels in a file with `main` or with host wrappers that need the
samples' helper_cuda.h (vectorAdd.cu, matrixMul.cu, transpose.cu, histogram*.cu, scan.cu,
convolutionSeparable.cu), the benchmark cannot include the file; this script takes out what it
names, each item as it is written in the sample (the text between the item's first and last line,
with the lines' own comments and `#pragma unroll`s), preceded by a comment naming its file and
line. Nothing is changed in the text: a name that is not found, or found twice, is an error.
A sample's own header (`#include "histogram_common.h"`) is included as the sample includes it,
and copied beside the output, where a quoted include looks first: the nvcc driver then sees its
macros and functions as it does in the sample's directory (it reads the headers beside the file
it rewrites to decide which kernels run in phases, tools/nvcc/phases.py), so that the benchmark's
kernels are built as the samples' are.

    extract_kernels.py --samples DIR --out FILE  SPEC...

SPEC is `RELATIVE/PATH/file.cu:item,item,...` (the path under DIR); an item is
  NAME       the definition of the function NAME (with its `template <...>` line and qualifiers),
  #NAME      the `#define NAME` line (with its continuation lines),
  =TEXT      the declaration whose first line starts with TEXT, up to its `;`,
  %NAME      the definition of the class or class template NAME (not its specialisations),
  "NAME      the file's `#include "NAME"` line, NAME copied from beside the file to beside FILE.
"""

import argparse
import os
import re
import sys


def fail(message):
    sys.stderr.write("extract_kernels.py: " + message + "\n")
    sys.exit(1)


def strip_comments_and_strings(line, in_block):
    """The line with comments and string/char literals blanked, and whether a /* stays open."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            out.append(" " * (end + 2 - i))
            i = end + 2
            in_block = False
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block = True
            out.append("  ")
            i += 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) + 1 - i))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out), in_block


def code_lines(lines):
    """Each line with comments and literals blanked (same length or shorter)."""
    result = []
    in_block = False
    for line in lines:
        code, in_block = strip_comments_and_strings(line, in_block)
        result.append(code)
    return result


def find_function(path, lines, code, name):
    """(first, last) line indices of the definition of function `name`."""
    pattern = re.compile(r"(?<![\w.>])" + re.escape(name) + r"\s*(<[^;{}()]*>)?\s*\(")
    found = []
    for index, text in enumerate(code):
        if text.lstrip().startswith("#"):
            continue
        for match in pattern.finditer(text):
            # A definition: from the name, the parameter list closes and a `{` follows before
            # any `;`.
            depth = 0
            row, col = index, match.end() - 1
            closed = None
            while row < len(code):
                segment = code[row]
                while col < len(segment):
                    ch = segment[col]
                    if ch == "(":
                        depth += 1
                    elif ch == ")":
                        depth -= 1
                        if depth == 0:
                            closed = (row, col)
                            break
                    col += 1
                if closed:
                    break
                row, col = row + 1, 0
            if not closed:
                continue
            row, col = closed[0], closed[1] + 1
            body = None
            while row < len(code):
                segment = code[row][col:]
                brace, semi = segment.find("{"), segment.find(";")
                if semi >= 0 and (brace < 0 or semi < brace):
                    break
                if brace >= 0:
                    body = (row, col + brace)
                    break
                row, col = row + 1, 0
            if not body:
                continue
            # The declaration starts where the statement before it ends.
            first = index
            prefix = code[index][: match.start()]
            if not re.search(r"(__global__|__device__|__host__)", prefix):
                while first > 0:
                    above = code[first - 1].strip()
                    if not above or above.endswith((";", "}", "{")) or above.startswith("#"):
                        break
                    first -= 1
            else:
                while first > 0 and re.match(r"\s*template\s*<", code[first - 1]):
                    first -= 1
            # The body ends at the matching `}`.
            depth = 0
            row, col = body
            last = None
            while row < len(code):
                segment = code[row]
                while col < len(segment):
                    ch = segment[col]
                    if ch == "{":
                        depth += 1
                    elif ch == "}":
                        depth -= 1
                        if depth == 0:
                            last = row
                            break
                    col += 1
                if last is not None:
                    break
                row, col = row + 1, 0
            if last is None:
                fail(f"{path}:{index + 1}: the body of {name} does not close")
            found.append((first, last))
    found = sorted(set(found))
    if len(found) != 1:
        fail(f"{path}: {len(found)} definitions of {name} (expected one)")
    return found[0]


def find_macro(path, lines, name):
    pattern = re.compile(r"\s*#\s*define\s+" + re.escape(name) + r"\b")
    hits = [i for i, line in enumerate(lines) if pattern.match(line)]
    if len(hits) != 1:
        fail(f"{path}: {len(hits)} definitions of macro {name} (expected one)")
    first = last = hits[0]
    while lines[last].rstrip("\n").endswith("\\"):
        last += 1
    return first, last


def find_declaration(path, lines, code, text):
    hits = [i for i, line in enumerate(lines) if line.lstrip().startswith(text)]
    if len(hits) != 1:
        fail(f"{path}: {len(hits)} lines start with '{text}' (expected one)")
    first = last = hits[0]
    while ";" not in code[last]:
        last += 1
        if last == len(lines):
            fail(f"{path}:{first + 1}: the declaration does not end")
    return first, last


def find_include(path, lines, name):
    pattern = re.compile(r'\s*#\s*include\s*"' + re.escape(name) + r'"')
    hits = [i for i, line in enumerate(lines) if pattern.match(line)]
    if len(hits) != 1:
        fail(f"{path}: {len(hits)} includes of \"{name}\" (expected one)")
    return hits[0], hits[0]


def write_if_changed(path, text):
    """Writes `text` to `path` only when it differs, so that the driver builds do not rerun for nothing."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def find_class(path, lines, code, name):
    pattern = re.compile(r"\s*(template\s*<[^>]*>\s*)?(struct|class)\s+" + re.escape(name) + r"\b(?!\s*<)")
    hits = [i for i, text in enumerate(code) if pattern.match(text)]
    if len(hits) != 1:
        fail(f"{path}: {len(hits)} definitions of class {name} (expected one)")
    depth, row, last = 0, hits[0], None
    opened = False
    while row < len(code) and last is None:
        for ch in code[row]:
            if ch == "{":
                depth += 1
                opened = True
            elif ch == "}":
                depth -= 1
                if opened and depth == 0:
                    last = row
                    break
        row += 1
    if last is None:
        fail(f"{path}:{hits[0] + 1}: the definition of {name} does not close")
    return hits[0], last


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", required=True, help="cuda-samples' Samples directory")
    parser.add_argument("--out", required=True)
    parser.add_argument("specs", nargs="+")
    args = parser.parse_args()

    out_dir = os.path.dirname(os.path.abspath(args.out))
    headers = {}  # name beside the output: the text of the sample's header
    chunks = [
        "// Generated by tools/raw_benchmark/extract_kernels.py from NVIDIA's cuda-samples\n"
        "// (BSD-3-Clause, Copyright (c) NVIDIA CORPORATION): each item below is the samples' text,\n"
        "// unchanged, from the file and line named above it. Do not edit; rebuild instead.\n",
    ]
    for spec in args.specs:
        relative, _, items = spec.rpartition(":")
        if not relative or not items:
            fail(f"bad spec '{spec}' (expected PATH:item,item)")
        path = os.path.join(args.samples, relative)
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
        except OSError as error:
            fail(f"{path}: {error.strerror}")
        code = code_lines(lines)
        for item in items.split(","):
            if item.startswith("#"):
                first, last = find_macro(path, lines, item[1:])
            elif item.startswith("%"):
                first, last = find_class(path, lines, code, item[1:])
            elif item.startswith("="):
                first, last = find_declaration(path, lines, code, item[1:])
            elif item.startswith('"'):
                first, last = find_include(path, lines, item[1:])
                header = os.path.join(os.path.dirname(path), item[1:])
                try:
                    with open(header, encoding="utf-8", newline="") as f:
                        text = f.read()
                except OSError as error:
                    fail(f"{header}: {error.strerror}")
                if headers.setdefault(item[1:], text) != text:
                    fail(f"{header}: two different headers named {item[1:]}")
            else:
                first, last = find_function(path, lines, code, item)
            text = "".join(lines[first : last + 1])
            if not text.endswith("\n"):
                text += "\n"
            chunks.append(f"\n// {relative}:{first + 1}\n{text}")
    for name, text in headers.items():
        write_if_changed(os.path.join(out_dir, name), text)
    write_if_changed(args.out, "".join(chunks))


if __name__ == "__main__":
    main()
