#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""phase_copy.py SOURCE COPY [--config CONFIG] [--options OPTIONS]: the copy of a .cu file written against cusim.hpp
that cusim_add_executable/cusim_add_library compile with the host compiler, with the phased form
of each kernel fit for it (phases.py: the code between barriers run as loops over the block's
threads), as the nvcc driver gives the kernels of unmodified programs.

The copy opens with `#line 1 "SOURCE"`, and the phased forms keep every line's number, so
diagnostics, gdb and the faults' tags name the source. A build made for stepping through kernels
gets the source as it is, as the driver does for -G, -O0 and -g without -O: CONFIG Debug or none
(no optimisation), unless the target's compile OPTIONS (a ;-list) set a -O level other than -O0
after it, and any CONFIG whose OPTIONS end with -O0. A source the rewrite cannot read is copied as it is too: the phases are an
optimisation, and the compiler says what is wrong with the source, if anything is."""

import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))

import rewrite  # noqa: E402

_UNOPTIMISED = ("", "Debug")


def optimised(config, options):
    """Whether the compile optimises: CMake's flags for CONFIG, then the target's options."""
    on = config not in _UNOPTIMISED
    for o in options:
        if o.startswith("-O"):
            on = o != "-O0"
    return on


def copy_text(source, config, options=()):
    with open(source, encoding="utf-8", errors="surrogateescape", newline="") as f:
        text = f.read()
    if optimised(config, options):
        try:
            text = rewrite.add_phases(text, source)
        except rewrite.RewriteError:
            pass
    escaped = source.replace("\\", "\\\\").replace('"', '\\"')
    return f'#line 1 "{escaped}"\n' + text


def main(argv):
    args = list(argv)
    values = {"--config": "Release", "--options": ""}
    for name in values:
        if name in args:
            k = args.index(name)
            if k + 1 >= len(args):
                print(f"phase_copy.py: {name} needs a value", file=sys.stderr)
                return 2
            values[name] = args[k + 1]
            del args[k:k + 2]
    if len(args) != 2:
        print("usage: phase_copy.py SOURCE COPY [--config CONFIG] [--options OPTIONS]", file=sys.stderr)
        return 2
    source, copy = os.path.abspath(args[0]), args[1]
    text = copy_text(source, values["--config"], [o for o in values["--options"].split(";") if o])
    os.makedirs(os.path.dirname(os.path.abspath(copy)), exist_ok=True)
    with open(copy, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
