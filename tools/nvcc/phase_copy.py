#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""phase_copy.py SOURCE COPY [--config CONFIG] [--options OPTIONS] [--include-dirs DIRS] [--not-user DIRS]
[--depfile FILE]: the copy of a .cu file written against cusim.hpp that
cusim_add_executable/cusim_add_library compile with the host compiler, with the phased form of
each kernel fit for it (phases.py: the code between barriers run as loops over the block's
threads), as the nvcc driver gives the kernels of unmodified programs.

The user's headers that the source includes get the same (includes.py): those found in its
directory or in DIRS (the target's include directories, a ;-list), but under the --not-user
directories (cusim's own) and the system's, whose kernels have a phased form are copied beside
COPY under include/, and the copies include them by absolute path. FILE, a depfile for COPY,
names the source and every user header read.

The copy opens with `#line 1 "SOURCE"`, and the phased forms keep every line's number, so
diagnostics, gdb and the faults' tags name the source. A build made for stepping through kernels
gets the source as it is, as the driver does for -G, -O0 and -g without -O: CONFIG Debug or none
(no optimisation), unless the target's compile OPTIONS (a ;-list) set a -O level other than -O0
after it, and any CONFIG whose OPTIONS end with -O0. A source the rewrite cannot read is copied as it is too: the phases are an
optimisation, and the compiler says what is wrong with the source, if anything is.

In the same optimised builds, `cusim::launch(kernel, ...)` with a kernel the program names is
respelled `cusim::launch<kernel>(...)`, which compiles the kernel into the loop over a block's
threads (launch_spelling.py); in the source and in the user's headers, phased or not. A source
copied as it is keeps its launches as they are too."""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import includes  # noqa: E402
import launch_spelling  # noqa: E402
import phases  # noqa: E402
import rewrite  # noqa: E402
from tokens import line_directive  # noqa: E402

_UNOPTIMISED = ("", "Debug")  # CMake's flags for these configurations set no optimisation


def phased_graph(source, include_dirs, not_user):
    """The source and the user's headers it includes (includes.py), each with its phased kernels:
    the headers found in the source's directory and include_dirs, but under not_user (cusim's own
    include directories) and the system's; raises rewrite.RewriteError."""
    search = includes.Search([os.path.dirname(source)], [os.path.abspath(d) for d in include_dirs])
    roots = [os.path.realpath(d) for d in not_user]
    return includes.IncludeGraph(source, search, roots, rewrite.add_phases)


def respell_launches(graph):
    """Each node of graph with its launches of the program's kernels in the template spelling
    (launch_spelling.py, which reads every node's original text for the kernels' names); a node
    that changes is copied, and so is each node that includes a copied one."""
    try:
        program = launch_spelling.Program([n.text for n in graph.nodes.values()])
    except rewrite.RewriteError:  # a text it cannot read: what it declares is unknown, respell nothing
        return
    for node in graph.nodes.values():
        try:
            respelled = launch_spelling.respell(node.rewritten, program, node.path)
        except rewrite.RewriteError:
            continue
        if respelled != node.rewritten:
            node.rewritten = respelled
            node.copied = True
    graph.propagate_copied()


def write_copy(source, copy, config, options=(), include_dirs=(), not_user=()):
    """Writes the copy (and the copies of the headers with kernels to phase or launches to respell,
    beside it under include/); returns the files it was made from, for the depfile."""
    graph = None
    if phases.wanted(options, config not in _UNOPTIMISED):
        try:
            graph = phased_graph(source, include_dirs, not_user)
            respell_launches(graph)
        except rewrite.RewriteError:
            graph = None
    copies = [] if graph is None else [n for n in graph.nodes.values() if n.copied and n is not graph.root]
    for k, node in enumerate(copies):
        node.copy = os.path.join(os.path.dirname(os.path.abspath(copy)), "include", str(k), node.name)
    files = {}
    if graph is None:
        with open(source, encoding="utf-8", errors="surrogateescape", newline="") as f:
            files[copy] = line_directive(1, source) + f.read()
    else:
        graph.root.copy = copy
        for node in [graph.root] + copies:
            files[node.copy] = graph.copy_text(node)
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(text)
    return [source] if graph is None else [n.path for n in graph.nodes.values()]


def main(argv):
    args = list(argv)
    values = {"--config": "Release", "--options": "", "--include-dirs": "", "--not-user": "", "--depfile": ""}
    for name in values:
        if name in args:
            k = args.index(name)
            if k + 1 >= len(args):
                print(f"phase_copy.py: {name} needs a value", file=sys.stderr)
                return 2
            values[name] = args[k + 1]
            del args[k:k + 2]
    if len(args) != 2:
        print("usage: phase_copy.py SOURCE COPY [--config CONFIG] [--options OPTIONS] [--include-dirs DIRS] "
              "[--not-user DIRS] [--depfile FILE]", file=sys.stderr)
        return 2
    source, copy = os.path.abspath(args[0]), args[1]

    def listed(name):
        return [v for v in values[name].split(";") if v]

    inputs = write_copy(source, copy, values["--config"], listed("--options"), listed("--include-dirs"),
                        listed("--not-user"))
    if values["--depfile"]:
        with open(values["--depfile"], "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(includes.make_escape(copy) + ": " + " ".join(includes.make_escape(i) for i in inputs) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
