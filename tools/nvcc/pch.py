# SPDX-License-Identifier: MIT
"""A GCC precompiled header of the driver's prelude (`-include cusim/backend/sim/cxx17_library.hpp`
and `-include cuda_runtime.h`, some 90,000 lines that every `.cu` compile parses before its own):
0.8 CPU-s of g++ a compile without it, 0.15 with it. The compile's answer stays the compiler's own:
object files byte for byte, the same diagnostics, dependency files naming the same files
(docs/internals.md, "The prelude's precompiled header").

How. The header is made from an empty stub compiled with the prelude's `-include`s and the
compile's other flags (`-x c++-header stub -o stub.gch`), in the cache's directory and without the
user's include directories; a compile that uses it gets `-include <stub>` before the prelude's own
`-include`s, which it keeps: GCC loads `<stub>.gch` when it is valid for the compile's flags, and
the prelude's headers then end at their include guards; when GCC finds it invalid, it reads the
empty stub and then the prelude as before. Made on a set of flags' third use (making it costs 2.6
CPU-s, about 4 uses' saving), at most KEEP of them kept (least recently used go).

When not. Only g++ (clang's precompiled headers are loaded otherwise), only `-c` compiles; not with
`-E`, `-M`/`-MM`, `-H`, `-save-temps`, an `-include`/`-imacros` of the user's (it would come
between the prelude's two), `--sysroot` and the like; not where making it printed anything (a
warning would then be printed once, never again); not where the working directory holds a file
named as one of the prelude's `-include`s (GCC looks for those there first); not where a
directory the user adds (`-I`, `-iquote`, `-isystem`, `-idirafter`, and the source's own, which
the driver adds with `-iquote`) holds a file named as one of the prelude's headers is named from
its include directory, or as a `__has_include` in them asks for (the header then could resolve
otherwise); not once a header of the prelude changed (their times and sizes are checked on each
use, and those of their directories and of the compiler's search directories, where a new header
would change what is found; the header is made again). CUSIM_NVCC_PCH=0 turns it off; CUSIM_NVCC_PCH_DIR names the cache
(default: $XDG_CACHE_HOME/cusim-nvcc, else ~/.cache/cusim-nvcc).

Dependency files: the compile with the header lists the headers it read itself; the prelude's,
recorded when the header was made (its -MD list and its -MM list), go where GCC lists them
without it, after the source, in GCC's own line format: the file names the same files (once each:
without the header GCC names some twice, reached by two names). Not -fpch-deps, which GCC would
also write into the object's DW_AT_producer.
"""

import hashlib
import json
import os
import re
import subprocess
import time

VERSION = 1  # of this module's cache layout and key
STUB = "cusim-nvcc-prelude.h"
MAKE_AT_USE = 3
KEEP = 8
DIR_OPTIONS = ("-iquote", "-isystem", "-idirafter", "-I")  # -I last: "-isystem" starts with "-i"
REFUSED_EXACT = {"-###", "-E", "-M", "-MM", "-H", "-fpreprocessed", "-fdirectives-only", "-nostdinc",
                 "-nostdinc++", "-traditional-cpp", "-include-pch", "-fpch-deps", "-fpch-preprocess"}
REFUSED_PREFIX = ("-save-temps", "--save-temps", "--sysroot", "-isysroot", "-iprefix", "-iwithprefix",
                  "-imacros", "-imultilib", "-fworking-directory", "-MD", "-MMD", "-MF", "-MT", "-MQ", "-MP",
                  "-MG", "-Wp,", "-Xpreprocessor", "-specs", "--specs", "-B", "-fplugin", "@")
HAS_INCLUDE = re.compile(rb"__has_include(?:_next)?\s*\(\s*(?:<([^>\n]+)>|\"([^\"\n]+)\"|(\S))")


def enabled(environ=os.environ):
    return environ.get("CUSIM_NVCC_PCH", "1") != "0"


def cache_dir(environ=os.environ):
    d = environ.get("CUSIM_NVCC_PCH_DIR")
    if d:
        return d
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cusim-nvcc")


def is_gcc(cxx):
    path = cxx if os.sep in cxx else _which(cxx)
    return path is not None and "g++" in os.path.basename(os.path.realpath(path)) and \
        "clang" not in os.path.basename(path)


def _which(name):
    for d in os.environ.get("PATH", "").split(os.pathsep):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


class Use:
    """A compile that uses the header: its command, and what its dependency file needs."""

    def __init__(self, cmd, meta):
        self.cmd = cmd
        self.meta = meta

    def fix_dependencies(self, path, mode, phony):
        """Writes the prelude's headers into GCC's dependency file at `path`, where GCC lists them
        in a compile without the header (mode "MD" or "MMD"; phony: -MP)."""
        with open(path, "rb") as f:
            text = f.read()
        targets, deps = parse_rule(text)
        if targets is None:
            return
        prelude = [d.encode("utf-8", "surrogateescape") for d in self.meta["deps_md" if mode == "MD" else "deps_mm"]]
        seen = set()
        merged = []
        for d in deps[:1] + prelude + deps[1:]:
            if d not in seen:
                seen.add(d)
                merged.append(d)
        with open(path, "wb") as f:
            f.write(format_rule(targets, merged, phony))


# -- GCC's dependency-file format (libcpp's make output: names wrapped at 72 columns, then each
# prerequisite as a phony target under -MP)

def _names(text):
    return re.findall(rb"(?:\\.|[^\s\\])+", text)


def parse_rule(text):
    """(targets, prerequisites) of the first rule of a GCC dependency file (names as written)."""
    text = text.replace(b"\\\n", b" ")
    lines = text.split(b"\n")
    if not lines or b":" not in lines[0]:
        return None, None
    head = lines[0]
    # The rule's colon: the first ": " or a trailing ":" outside an escape.
    m = re.search(rb"(?<!\\):(?:\s|$)", head)
    if not m:
        return None, None
    return _names(head[:m.start()]), _names(head[m.end():])


def format_rule(targets, deps, phony):
    out = []
    col = 0
    colmax = 72

    def name(n, col):
        if col:
            if col + len(n) > colmax:
                out.append(b" \\\n")
                col = 0
            col += 1
            out.append(b" ")
        out.append(n)
        return col + len(n)

    for t in targets:
        col = name(t, col)
    out.append(b":")
    col += 1
    for d in deps:
        col = name(d, col)
    out.append(b"\n")
    if phony:
        for d in deps[1:]:
            out.append(d + b":\n")
    return b"".join(out)


# -- the command line

def split_command(cmd, source, out, dep_args, prelude, toolkit_include):
    """(key arguments, the user's include directories, index of the first prelude -include), or None
    where the header is not for this compile."""
    args = list(cmd[1:])
    strip_at = []
    n = len(dep_args)
    for i in range(len(args) - n + 1):
        if n and args[i:i + n] == list(dep_args):
            strip_at = list(range(i, i + n))
            break
    if n and not strip_at:
        return None
    args = [a for i, a in enumerate(args) if i not in set(strip_at)]
    key, dirs, first = [], [], None
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == source or a == "-c":
            continue
        if a == "-o" and i < len(args) and args[i] == out:
            i += 1
            continue
        if a == "-include":
            if i >= len(args) or args[i] not in prelude:
                return None
            if first is None:
                first = len(key)
            key += [a, args[i]]
            i += 1
            continue
        if a in REFUSED_EXACT or a.startswith(REFUSED_PREFIX) or a.startswith("-include"):
            return None
        for opt in DIR_OPTIONS:
            if a == opt or a.startswith(opt):
                if a == opt:
                    if i >= len(args):
                        return None
                    value = args[i]
                    i += 1
                else:
                    value = a[len(opt):]
                if a == "-I" + toolkit_include:
                    key.append(a)  # the driver's own: searched at the making too
                else:
                    dirs.append((opt, value))
                break
        else:
            key.append(a)
    if first is None:
        return None
    return key, dirs, first


def shadowed(dirs, names):
    """Whether a directory the user adds holds a file named as one of the prelude's headers."""
    for opt, value in dirs:
        candidates = [value]
        if value.startswith("="):  # sysroot-relative; no --sysroot here (refused)
            candidates = [value[1:]]
        for d in candidates:
            if not d:
                d = "."
            for n in names:
                if os.path.lexists(os.path.join(d, n)):
                    return True
    return False


def _stamp(path):
    st = os.stat(path)
    return [st.st_mtime_ns, st.st_size]


def _write_atomic(path, data):
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(data)
    os.replace(tmp, path)


def _remove(*paths):
    for p in paths:
        try:
            os.remove(p)
        except OSError:
            pass


def _dep_list(path):
    with open(path, "rb") as f:
        _, deps = parse_rule(f.read())
    return [d.decode("utf-8", "surrogateescape") for d in (deps or [])]


def _search_dirs(verbose_text):
    dirs = []
    inside = False
    for line in verbose_text.splitlines():
        if line.startswith("#include <...> search starts here:") or line.startswith('#include "..." search starts here:'):
            inside = True
            continue
        if line.startswith("End of search list."):
            inside = False
            continue
        if inside and line.startswith(" "):
            dirs.append(os.path.normpath(line.strip()))
    return dirs


def _make(cxx, key_args, d, toolkit_include):
    """Makes d/STUB.gch and d/meta.json; the meta, or {"bad": reason}."""
    stub = os.path.join(d, STUB)
    if not os.path.exists(stub):
        open(stub, "w").close()
    tmp = f"{stub}.gch.{os.getpid()}.tmp"
    md, mm = os.path.join(d, f"md.{os.getpid()}.d"), os.path.join(d, f"mm.{os.getpid()}.d")
    began = time.time_ns()
    try:
        key_args = [a for a in key_args if a != "-v"]  # its own lines on stderr: no diagnostic
        done = subprocess.run([cxx] + key_args + ["-x", "c++-header", "-c", STUB, "-o", tmp, "-MD", "-MF", md],
                              cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode != 0 or done.stdout or done.stderr:
            said = (done.stdout + done.stderr).decode("utf-8", "replace")[:2000]
            stamps = {}
            try:  # so that it is tried again once a header changes
                for dep in _dep_list(md)[1:]:
                    path = os.path.normpath(os.path.join(d, dep.replace("\\ ", " ")))
                    stamps[path] = _stamp(path)
            except OSError:
                pass
            return {"bad": f"making it printed a diagnostic or failed ({done.returncode}): {said}", "stamps": stamps}
        done = subprocess.run([cxx] + key_args + ["-x", "c++-header", "-E", "-v", STUB, "-o", os.devnull,
                                                   "-MM", "-MF", mm],
                              cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            return {"bad": "its -MM list failed"}
        roots = sorted(set(_search_dirs(done.stderr) + [os.path.normpath(toolkit_include)]), key=len,
                       reverse=True)
        deps_md = _dep_list(md)[1:]  # the stub first
        deps_mm = _dep_list(mm)[1:]
        names, stamps = set(), {}
        for dep in deps_md:
            path = os.path.normpath(os.path.join(d, dep.replace("\\ ", " ")))
            root = next((r for r in roots if path.startswith(r + os.sep)), None)
            if root is not None:
                names.add(path[len(root) + 1:])
            # else found beside the file including it (or by its absolute name), which GCC looks at
            # before any directory of the search
            stamps[path] = _stamp(path)
            if stamps[path][0] >= began:
                return None  # changed while the header was made: made again on a later use
            with open(path, "rb") as f:
                for m in HAS_INCLUDE.finditer(f.read()):
                    if m.group(3) is not None:
                        return {"bad": f"{path}: __has_include of a macro"}
                    names.add((m.group(1) or m.group(2)).decode("utf-8", "surrogateescape"))
        # The directories too: a header added to one of them could be found first next time.
        for path in sorted(set(os.path.dirname(p) for p in stamps) | set(roots)):
            if os.path.isdir(path):
                stamps[path] = _stamp(path)
                if stamps[path][0] >= began:
                    return None
        os.replace(tmp, stub + ".gch")
        return {"deps_md": deps_md, "deps_mm": deps_mm, "names": sorted(names), "stamps": stamps}
    finally:
        _remove(tmp, md, mm)


def _evict(root, keep):
    made = []
    try:
        for e in os.scandir(root):
            meta = os.path.join(e.path, "meta.json")
            if e.is_dir() and os.path.exists(os.path.join(e.path, STUB + ".gch")):
                try:
                    made.append((os.stat(os.path.join(e.path, "uses")).st_mtime_ns, e.path))
                except OSError:
                    made.append((0, e.path))
    except OSError:
        return
    made.sort()
    for _, path in made[:max(0, len(made) - keep)]:
        _remove(os.path.join(path, "meta.json"), os.path.join(path, STUB + ".gch"))


def prepare(cxx, cmd, source, out, dep_args, prelude, toolkit_include, environ=os.environ):
    """A Use for this compile command, or None (compile as it is)."""
    if not enabled(environ) or not is_gcc(cxx):
        return None
    split = split_command(cmd, source, out, dep_args, prelude, toolkit_include)
    if split is None:
        return None
    key_args, dirs, first = split
    for name in prelude:
        if os.path.lexists(name):  # -include looks in the working directory first
            return None
    try:
        real = os.path.realpath(cxx if os.sep in cxx else (_which(cxx) or cxx))
        ident = [VERSION, real, _stamp(real), key_args]
    except OSError:
        return None
    key = hashlib.sha256(json.dumps(ident).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    root = cache_dir(environ)
    d = os.path.join(root, key)
    meta_path = os.path.join(d, "meta.json")
    try:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "uses"), "ab") as f:
            f.write(b".")
            uses = f.tell()
        meta = None
        if os.path.exists(meta_path):
            with open(meta_path, encoding="utf-8") as f:
                meta = json.load(f)
            for path, stamp in meta.get("stamps", {}).items():  # a bad one's too: tried again
                try:
                    now = _stamp(path)
                except OSError:
                    now = None
                if now != stamp:  # a header changed: made again on a later use
                    _remove(meta_path, os.path.join(d, STUB + ".gch"))
                    return None
        elif uses >= MAKE_AT_USE:
            lock = os.path.join(d, "lock")
            try:
                fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                try:
                    if time.time() - os.stat(lock).st_mtime > 300:
                        _remove(lock)  # left by a compile that was killed
                except OSError:
                    pass
                return None
            try:
                os.close(fd)
                meta = _make(cxx, key_args, d, toolkit_include)
                if meta is None:
                    return None
                _write_atomic(meta_path, json.dumps(meta))
                _evict(root, KEEP)
            finally:
                _remove(lock)
        if meta is None or "bad" in meta or not os.path.exists(os.path.join(d, STUB + ".gch")) or \
                not os.path.exists(os.path.join(d, STUB)):
            return None
        if shadowed(dirs, meta["names"]):
            return None
    except (OSError, ValueError, KeyError):
        return None
    # The stub's -include before the prelude's: GCC loads a precompiled header only first.
    args = list(cmd)
    at = args.index("-include")
    args[at:at] = ["-include", os.path.join(d, STUB)]
    return Use(args, meta)
