# SPDX-License-Identifier: MIT
"""The user's headers a .cu file includes, found as the compiler finds them, rewritten like the .cu
file: by the nvcc driver (the whole rewrite of unmodified CUDA, driver.py) and by phase_copy.py
(the phased forms only, for code written against cusim.hpp); `transform(text, name)` is the
rewrite of one file.

How a rewritten header is found first: every `#include` of a rewritten file (the .cu file's copy, a
header's copy) that resolves to one of the user's headers is changed to that header's absolute path:
its rewritten copy's when it has one, the original's otherwise. Only the text between the
delimiters changes, so every line stays where it was. This, rather than a mirrored temporary tree
searched first with -iquote/-I, because the compiler resolves "..." relative to the directory of
the file doing the including: a copy in a temporary directory would find neither its original's
neighbours nor the right copies by a relative name, while an absolute path is found as it is, by
the compiler's search order resolved here once (the including file's directory, the -iquote
directories, the -I directories, for <...> the -I directories only). A header is copied when it
needs the rewrite or includes (at any depth) one that is copied, since only a copy's includes can
point at copies; every other header is used in place. Each header is one node, by its real path,
so one included through two paths is one copy (#pragma once and include guards work as before).
Conditional and commented-out includes are followed too (harmless: a copy nobody includes); an
include naming a macro (`#include HEADER`) or `#include_next` is left to the compiler.
"""

import os
import re

from tokens import line_directive

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)
_LINE = re.compile(r'#line (\d+) "')
_SYSTEM_PREFIXES = ("/usr/include", "/usr/local/include", "/usr/lib", "/usr/lib64", "/usr/share")


def make_escape(path):
    """path as a make rule (a dependency file) spells it."""
    return path.replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def _under(path, roots):
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


class Search:
    """The compile's include search, in its order: quoted, the -iquote directories (the .cu file's
    first); dirs, the -I directories (the toolkit's last: where the user's end)."""

    def __init__(self, quoted, dirs):
        self.quoted = quoted
        self.dirs = dirs


class _Node:
    __slots__ = ("path", "name", "text", "rewritten", "includes", "copied", "copy")

    def __init__(self, path, text, rewritten):
        self.path = path  # absolute, as first reached: what `#line` names
        self.name = os.path.basename(path)
        self.text = text
        self.rewritten = rewritten
        self.includes = []  # (line index of the #include, real path of the user's header it finds)
        self.copied = rewritten != text
        self.copy = None


def _line_indices(lines, original_count):
    """Original line index -> index in the rewritten `lines`. The rewrite keeps every line where it
    was except where it adds #line-mapped ones (a kernel's phased form, a __host__ __device__ body's
    device copy: `#line N "..."` directives, the added code, a `#line` back). Each line's number
    follows from those directives; the last line carrying a number is the original's (the added
    code comes before the original body it repeats, and the lines closing it before the `#line`
    back carry no real number)."""
    if len(lines) == original_count:
        return {}
    out = {}
    number = 0  # 0-based line number the next line carries
    for index, text in enumerate(lines):
        m = _LINE.match(text)
        if m:
            number = int(m.group(1)) - 1
            continue
        out[number] = index
        number += 1
    return out


class IncludeGraph:
    """The .cu file and the user's headers it includes, transitively, each read and rewritten once."""

    def __init__(self, source, search, toolkit_roots, transform):
        self.search = search
        self.transform = transform
        self.not_user = tuple(toolkit_roots) + _SYSTEM_PREFIXES
        self.user_dir = {}  # directory -> whether it holds the user's headers
        self.nodes = {}  # real path -> _Node
        self.root_name = source  # what the root's copy names in its #line
        key = os.path.realpath(source)
        self.root = self._read(os.path.abspath(source), key, source)
        pending = [self.root]
        while pending:
            node = pending.pop()
            includer_dir = os.path.dirname(node.path)
            for m in _INCLUDE.finditer(node.text):
                found = self._resolve(m.group(1), includer_dir) if m.group(1) is not None else \
                    self._resolve(m.group(2), None)
                if found is None or '"' in found:
                    continue
                k = os.path.realpath(found)
                if k not in self.nodes:
                    try:
                        pending.append(self._read(os.path.abspath(found), k, os.path.abspath(found)))
                    except OSError:
                        continue  # unreadable: left to the compiler, which says why
                node.includes.append((node.text.count("\n", 0, m.start()), k))
        self.propagate_copied()

    def propagate_copied(self):
        """Copied: needs the rewrite, or includes a copied header (until nothing changes: cycles)."""
        changed = True
        while changed:
            changed = False
            for node in self.nodes.values():
                if not node.copied and any(self.nodes[k].copied for _, k in node.includes):
                    node.copied = changed = True

    def _read(self, path, key, name_in_errors):
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            text = f.read()
        # transform's RewriteError propagates with file:line, as for the .cu file (the header's path,
        # absolute).
        rewritten = self.transform(text, name_in_errors)
        node = self.nodes[key] = _Node(path, text, rewritten)
        return node

    def _is_user(self, d):
        if d not in self.user_dir:
            self.user_dir[d] = not _under(os.path.realpath(d), self.not_user)
        return self.user_dir[d]

    def _resolve(self, name, includer_dir):
        """The user's header `#include "name"` (includer_dir given) or `<name>` finds, or None."""
        if os.path.isabs(name):
            return name if os.path.isfile(name) and self._is_user(os.path.dirname(name)) else None
        dirs = ([includer_dir] + self.search.quoted if includer_dir is not None else []) + self.search.dirs
        for d in dirs:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                return candidate if self._is_user(d) else None
        return None  # in -isystem or the compiler's directories, or nowhere: not the user's

    def copy_text(self, node):
        """What a copied node's copy holds: `#line 1` naming its original (diagnostics and debug
        information name it), then text_of."""
        return line_directive(1, node.path if node is not self.root else self.root_name) + self.text_of(node)

    def text_of(self, node):
        """A copied node's text: rewritten, its includes of the user's headers made absolute. The
        rewrite keeps preprocessor lines as they are, so each include is found again on its line
        (past the lines the rewrite adds: _line_indices)."""
        lines = node.rewritten.split("\n")
        at = _line_indices(lines, node.text.count("\n") + 1)
        for line, k in node.includes:
            line = at.get(line, line)
            m = _INCLUDE.match(lines[line])
            if m is None:  # cannot happen (the rewrite keeps preprocessor lines), but never a wrong edit
                continue
            target = self.nodes[k]
            g = 1 if m.group(1) is not None else 2
            lines[line] = (lines[line][:m.start(g) - 1] + '"' + (target.copy if target.copied else target.path) +
                           '"' + lines[line][m.end(g) + 1:])
        return "\n".join(lines)
