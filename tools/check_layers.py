#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The simulator's include graph, checked: data below the code that acts on it.

    tools/check_layers.py [simulator/]

Reads every `#include "..."` of simulator/*.{hpp,cpp} and treats foo.hpp and foo.cpp as one
part. It fails (exit 1) when
  - a file includes a runner (block_runner.hpp, grid_runner.hpp) without being one of the parts
    that call it (an arrow that runs back up), or
  - the parts' include graph has a cycle,
and prints the parts from the bottom up, each with what it includes.
"""
import pathlib
import re
import sys

# The runners, and the parts that call them. Everything else reaches block and launch state
# through the data headers (block_state.hpp, launch_state.hpp).
RUNNER_CALLERS = {
    "block_runner": {"block_runner", "grid_runner", "device_runtime"},
    "grid_runner": {"grid_runner"},
}


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "simulator")
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)\.hpp"', re.M)
    edges, problems = {}, []
    for path in sorted(root.glob("*.[ch]pp")):
        part = path.stem
        edges.setdefault(part, set())
        for target in include.findall(path.read_text()):
            if target == part:
                continue
            edges[part].add(target)
            callers = RUNNER_CALLERS.get(target)
            if callers is not None and part not in callers:
                problems.append(f"{path.name} includes {target}.hpp, a runner it does not call")

    order, state = [], {}

    def visit(part, stack):
        if state.get(part) == "done":
            return
        if state.get(part) == "open":
            cycle = stack[stack.index(part):] + [part]
            problems.append("include cycle: " + " -> ".join(cycle))
            return
        state[part] = "open"
        for target in sorted(edges.get(part, ())):
            visit(target, stack + [part])
        state[part] = "done"
        order.append(part)

    for part in sorted(edges):
        visit(part, [])
    for part in order:
        below = ", ".join(sorted(edges.get(part, ()))) or "-"
        print(f"{part:16} -> {below}")
    for p in problems:
        print("error: " + p)
    print(f"{len(problems)} problem(s): "
          f"{sum('runner it does not call' in p for p in problems)} arrows back up to a runner, "
          f"{sum(p.startswith('include cycle') for p in problems)} include cycles")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
