#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The simulator's dependency graph, checked: data below the code that acts on it.

    tools/check_layers.py [simulator/ [include/]]

Treats foo.hpp and foo.cpp of simulator/ as one part. A part depends on another when
  - it includes the other's header (`#include "other.hpp"`), or
  - it calls a function that a public header (include/) declares and the other part defines:
    an arrow the includes do not show, e.g. graphs.cpp calling a cusim::detail function that
    capture.cpp defines, through <cusim/...>.
It fails (exit 1) when
  - a file includes a runner (block_runner.hpp, grid_runner.hpp) without being one of the parts
    that call it (an arrow that runs back up), or
  - the parts' dependency graph has a cycle,
and prints the parts from the bottom up, each with what it depends on ("name()" marks an arrow
through a public declaration).
"""
import pathlib
import re
import sys

# The runners, and the parts that call them. Everything else reaches block and launch state
# through the data headers (block_state.hpp, launch_state.hpp).
RUNNER_CALLERS = {
    "block_runner": {"block_runner", "block_barrier", "warp_rendezvous", "grid_runner", "device_runtime"},
    "grid_runner": {"grid_runner", "submit"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)\.hpp"', re.M)
# A name followed by a parameter list: a declaration, a definition or a call, told apart by what
# precedes the name (a type for the first two) and what follows the list (`;` or `{`).
NAMED_LIST = re.compile(r"([\w>*&]+)\s+(?:[\w:]*::)?(\w+)\s*\(")
NOT_TYPES = {"return", "else", "new", "delete", "throw", "co_return", "case", "goto", "typename", "template"}


def strip(text):
    """The text without comments, string literals and preprocessor lines."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)


def after_list(text, open_paren):
    """The first character after the parenthesised list that opens at `open_paren`, skipping
    qualifiers (const, noexcept, override), or '' when the list does not close."""
    depth = 0
    for i in range(open_paren, len(text)):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                rest = re.match(r"\s*(?:(?:const|noexcept|override|final)\s*)*(\S?)", text[i + 1:])
                return rest.group(1)
    return ""


def declared_names(text, ending):
    """Names declared (`ending` ';') or defined (`ending` '{') as functions in `text`."""
    names = set()
    for m in NAMED_LIST.finditer(text):
        if m.group(1) in NOT_TYPES:
            continue
        if after_list(text, m.end() - 1) == ending:
            names.add(m.group(2))
    return names


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "simulator")
    public = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else root.parent / "include")
    edges, problems, through = {}, [], {}
    texts = {path: strip(path.read_text()) for path in sorted(root.glob("*.[ch]pp"))}
    for path, text in texts.items():
        part = path.stem
        edges.setdefault(part, set())
        for target in INCLUDE.findall(path.read_text()):
            if target == part:
                continue
            edges[part].add(target)
            callers = RUNNER_CALLERS.get(target)
            if callers is not None and part not in callers:
                problems.append(f"{path.name} includes {target}.hpp, a runner it does not call")

    # Functions declared in a public header and defined by simulator parts (an overloaded name
    # defined by several parts is an arrow to each: a cycle must not hide behind a shared name).
    declared = set()
    for header in public.rglob("*.h*"):
        declared |= declared_names(strip(header.read_text(errors="replace")), ";")
    definers = {}
    for path, text in texts.items():
        if path.suffix == ".cpp":
            for name in declared_names(text, "{") & declared:
                definers.setdefault(name, set()).add(path.stem)
    for path, text in texts.items():
        part = path.stem
        own = declared_names(text, "{") | declared_names(text, ";")
        for name in set(re.findall(r"\b(\w+)\s*\(", text)) - own:
            for target in sorted(definers.get(name, ())):
                if target != part and target not in edges[part]:
                    edges[part].add(target)
                    through[(part, target)] = name

    order, state = [], {}

    def label(a, b):
        return f"{b} ({through[(a, b)]}())" if (a, b) in through else b

    def visit(part, stack):
        if state.get(part) == "done":
            return
        if state.get(part) == "open":
            cycle = stack[stack.index(part):] + [part]
            steps = [cycle[0]] + [label(a, b) for a, b in zip(cycle, cycle[1:])]
            problems.append("cycle: " + " -> ".join(steps))
            return
        state[part] = "open"
        for target in sorted(edges.get(part, ())):
            visit(target, stack + [part])
        state[part] = "done"
        order.append(part)

    for part in sorted(edges):
        visit(part, [])
    for part in order:
        below = ", ".join(label(part, t) for t in sorted(edges.get(part, ()))) or "-"
        print(f"{part:16} -> {below}")
    for p in problems:
        print("error: " + p)
    print(f"{len(problems)} problem(s): "
          f"{sum('runner it does not call' in p for p in problems)} arrows back up to a runner, "
          f"{sum(p.startswith('cycle') for p in problems)} cycles "
          f"({len(through)} arrows through public declarations seen)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
