# SPDX-License-Identifier: MIT
"""nvcc's command line: the option tables (every spelling nvcc accepts, -name and --name, mapped to
one canonical name, or to "ignore" where it has no effect on the simulator) and the parsing into
an Options record. `NVCC_PREPEND_FLAGS`, `NVCC_APPEND_FLAGS` and --options-file are expanded first.
An option this driver cannot honour, or a value it cannot read, raises UsageError naming the option.
"""

import os
import re
import shlex


class UsageError(Exception):
    """A command line the driver cannot carry out; the message names the option or input."""


# Options without a value: name -> canonical name. Both -name and --name are accepted for every name.
_FLAGS = {
    "cuda": "cuda", "cubin": "cubin", "fatbin": "fatbin", "ptx": "ptx", "optix-ir": "optix-ir", "ltoir": "ltoir",
    "preprocess": "E", "E": "E",
    "generate-dependencies": "M", "M": "M",
    "generate-nonsystem-dependencies": "MM", "MM": "MM",
    "generate-dependencies-with-compile": "MD", "MD": "MD",
    "generate-nonsystem-dependencies-with-compile": "MMD", "MMD": "MMD",
    "generate-dependency-targets": "MP", "MP": "MP",
    "compile": "c", "c": "c",
    "device-c": "dc", "dc": "dc",
    "device-w": "dw", "dw": "dw",
    "device-link": "dlink", "dlink": "dlink",
    "link": "link",
    "lib": "lib",
    "run": "run",
    "objdir-as-tempdir": "ignore", "objtemp": "ignore",
    "allow-unsupported-compiler": "ignore", "use-local-env": "ignore", "force-cl-env-setup": "ignore",
    "profile": "pg", "pg": "pg",
    "debug": "g", "g": "g",
    "device-debug": "G", "G": "G",
    "generate-line-info": "lineinfo", "lineinfo": "lineinfo",
    "dlink-time-opt": "ignore", "dlto": "ignore", "lto": "ignore", "gen-opt-lto": "ignore",
    "no-exceptions": "noeh", "noeh": "noeh",
    "shared": "shared",
    "no-host-device-initializer-list": "ignore", "nohdinitlist": "ignore",
    "no-host-device-move-forward": "ignore", "nohdmoveforward": "ignore",
    "expt-relaxed-constexpr": "ignore", "extended-lambda": "ignore", "expt-extended-lambda": "ignore",
    "m64": "ignore",
    "forward-unknown-to-host-compiler": "fwd-compiler",
    "forward-unknown-to-host-linker": "fwd-linker",
    "forward-unknown-opts": "fwd-compiler",
    "dont-use-profile": "ignore", "noprof": "ignore",
    "dryrun": "dryrun",
    "verbose": "v", "v": "v",
    "fdevice-syntax-only": "fdevice-syntax-only",
    "keep": "keep", "save-temps": "keep",
    "clean-targets": "clean", "clean": "clean",
    "no-device-link": "ignore", "nodlink": "ignore",
    "use_fast_math": "ignore", "use-fast-math": "ignore",
    "extra-device-vectorization": "ignore",
    "disable-warnings": "w", "w": "w",
    "keep-device-functions": "ignore", "source-in-ptx": "ignore", "src-in-ptx": "ignore",
    "restrict": "ignore", "resource-usage": "ignore", "res-usage": "ignore",
    "extensible-whole-program": "ignore", "ewp": "ignore", "no-compress": "ignore",
    "compile-as-tools-patch": "ignore", "astoolspatch": "ignore",
    "list-gpu-code": "list-gpu-code", "code-ls": "list-gpu-code",
    "list-gpu-arch": "list-gpu-arch", "arch-ls": "list-gpu-arch",
    "display-error-number": "ignore", "err-no": "ignore",
    "no-display-error-number": "ignore", "no-err-no": "ignore",
    "relocatable-link": "relocatable-link", "r": "relocatable-link",
    "relocatable-ptx": "ignore", "reloc-ptx": "ignore",
    "jobserver": "ignore",
    "help": "help", "h": "help",
    "version": "version", "V": "version",
    "Wreorder": "ignore", "Wdefault-stream-launch": "ignore", "Wmissing-launch-bounds": "ignore",
    "Wext-lambda-captures-this": "ignore", "Wno-deprecated-gpu-targets": "Wno-deprecated-gpu-targets",
    "Wno-deprecated-declarations": "Wno-deprecated-declarations",
}

# Options with a value (`-name value`, `-name=value`): name -> canonical name.
_VALUES = {
    "output-file": "o", "o": "o",
    "pre-include": "include", "include": "include",
    "library": "l", "l": "l",
    "define-macro": "D", "D": "D",
    "undefine-macro": "U", "U": "U",
    "include-path": "I", "I": "I",
    "system-include": "isystem", "isystem": "isystem",
    "library-path": "L", "L": "L",
    "output-directory": "odir", "odir": "odir",
    "compiler-bindir": "ccbin", "ccbin": "ccbin",
    "archiver-binary": "arbin", "arbin": "arbin",
    "libdevice-directory": "ignore", "ldir": "ignore",
    "target-directory": "ignore", "target-dir": "ignore",
    "optimization-info": "ignore", "opt-info": "ignore",
    "optimize": "O", "O": "O",
    "dopt": "ignore",
    "ftemplate-backtrace-limit": "ftemplate-backtrace-limit",
    "ftemplate-depth": "ftemplate-depth",
    "compiler-options": "Xcompiler", "Xcompiler": "Xcompiler",
    "linker-options": "Xlinker", "Xlinker": "Xlinker",
    "archive-options": "Xarchive", "Xarchive": "Xarchive",
    "ptxas-options": "ignore", "Xptxas": "ignore",
    "nvlink-options": "ignore", "Xnvlink": "ignore",
    "Xcudafe": "ignore", "Xfatbin": "ignore",
    "threads": "ignore", "t": "ignore",
    "split-compile": "ignore", "split-compile-extended": "ignore",
    "fdevice-time-trace": "ignore",
    "keep-dir": "keep-dir",
    "time": "ignore",
    "run-args": "run-args",
    "input-drive-prefix": "ignore", "idp": "ignore",
    "dependency-drive-prefix": "ignore", "ddp": "ignore",
    "drive-prefix": "ignore", "dp": "ignore",
    "dependency-output": "MF", "MF": "MF",
    "dependency-target-name": "MT", "MT": "MT",
    "gpu-architecture": "arch", "arch": "arch",
    "gpu-code": "code", "code": "code",
    "generate-code": "gencode", "gencode": "gencode",
    "maxrregcount": "ignore", "entries": "ignore",
    "diag-error": "ignore", "diag-suppress": "ignore", "diag-warn": "ignore",
    "jump-table-density": "ignore", "jtd": "ignore",
    "frandom-seed": "frandom-seed",
    "sanitize": "sanitize",
    "options-file": "optf", "optf": "optf",
    "cudart": "cudart", "cudadevrt": "ignore",
    "x": "x", "std": "std",
    "machine": "machine", "m": "machine",
    "static-global-template-stub": "ignore", "device-entity-has-hidden-visibility": "ignore",
    "relocatable-device-code": "rdc", "rdc": "rdc",
    "ftz": "ignore", "prec-div": "ignore", "prec-sqrt": "ignore", "fmad": "fmad",
    "default-stream": "ignore",
    "host-linker-script": "host-linker-script", "hls": "host-linker-script",
    "brief-diagnostics": "ignore", "device-stack-protector": "ignore", "compress-mode": "ignore",
    "qpp-config": "ignore",
}
# Single-letter options whose value may be attached: -Ipath, -DX=1, -lm, -O3.
_ATTACHED = ("I", "D", "U", "L", "l", "O")
_WERROR_KINDS = {"all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch",
                 "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations"}
_UNSUPPORTED = {"cuda", "cubin", "fatbin", "ptx", "optix-ir", "ltoir", "fdevice-syntax-only", "sanitize",
                "relocatable-link", "host-linker-script"}

_EXT_KIND = {".cu": "cu", ".c": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".cp": "cpp",
             ".C": "cpp", ".i": "cpp", ".ii": "cpp", ".o": "obj", ".obj": "obj", ".a": "obj", ".so": "obj",
             ".lib": "obj", ".ptx": "device", ".cubin": "device", ".fatbin": "device", ".gpu": "device"}


class Options:
    """What a command line asks for, as the driver (driver.py) reads it."""

    def __init__(self):
        self.inputs = []  # (path, kind)
        self.output = None
        self.phase = "link"
        self.deps = None  # M, MM, MD, MMD
        self.dep_file = None
        self.dep_targets = []
        self.dep_phony = False
        self.host_flags = []  # for every host compile (-D, -U, -I, -isystem, -include, -Xcompiler ...)
        self.xcompiler = []  # -Xcompiler's: the host link gets them too (-fopenmp, -pthread), as with nvcc
        self.link_flags = []  # for the host link (-L, -l, -Xlinker, objects keep their place in inputs)
        self.libs = []  # -l and -L, in order, after the inputs
        self.optimize = None
        self.debug = False
        self.device_debug = False
        self.lineinfo = False
        self.std = None
        self.ccbin = None
        self.arbin = None
        self.archive_flags = []
        self.cudart = "static"
        self.fmad = True  # nvcc's --fmad: a * b + c in device code contracted into one fma
        self.archs = []
        self.arch_native = False  # -arch=native, all or all-major: the simulated device's own is among them
        self.arch_options = []  # (the option as written, the architecture number) for each one listed
        self.deprecated_gpu_targets = True  # notes on architectures nvcc 13 dropped (-Wno-deprecated-gpu-targets)
        self.verbose = False
        self.dryrun = False
        self.keep = False
        self.keep_dir = None
        self.odir = None
        self.shared = False
        self.fwd_compiler = False
        self.fwd_linker = False
        self.run_args = []
        self.werror = False
        self.no_warnings = False
        self.version = False
        self.help = False
        self.list = None
        self.lang = None  # -x


def _read_options_file(path):
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return shlex.split(f.read())
    except OSError as e:
        raise UsageError(f"cannot read options file '{path}': {e.strerror}")


def _expand_options_files(args, depth=0):
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        m = re.fullmatch(r"--?(options-file|optf)(?:=(.*))?", a)
        if m:
            if m.group(2) is not None:
                value = m.group(2)
            else:
                if i + 1 >= len(args):
                    raise UsageError(f"option '{a}' needs a value")
                i += 1
                value = args[i]
            if depth > 8:
                raise UsageError("options files nest too deeply")
            for f in value.split(","):
                out.extend(_expand_options_files(_read_options_file(f), depth + 1))
        else:
            out.append(a)
        i += 1
    return out


def _split_list(value):
    return [v for v in value.split(",") if v != ""]


def parse(argv):
    """The Options of nvcc's command line argv (with NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS around
    it and the options files read in); raises UsageError."""
    o = Options()
    args = _expand_options_files(shlex.split(os.environ.get("NVCC_PREPEND_FLAGS", "")) + list(argv) +
                                 shlex.split(os.environ.get("NVCC_APPEND_FLAGS", "")))
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("-") or a == "-":
            kind = o.lang or _EXT_KIND.get(os.path.splitext(a)[1]) or ("obj" if re.search(r"\.so(\.\d+)*$", a) else None)
            o.inputs.append((a, kind))
            continue
        body = a.lstrip("-")
        name, eq, value = body.partition("=")
        if name in _FLAGS and not eq:
            canon = _FLAGS[name]
            _apply_flag(o, canon, a)
            continue
        if name == "Werror":
            o.werror = True
            if eq:
                kinds = _split_list(value)
            elif i < len(args) and set(_split_list(args[i])) <= _WERROR_KINDS and args[i]:
                kinds = _split_list(args[i])
                i += 1
            else:
                kinds = ["all-warnings"]
            for k in kinds:
                if k not in _WERROR_KINDS:
                    raise UsageError(f"option '{a}': '{k}' is not a warning kind of -Werror")
            continue
        if name in _VALUES:
            canon = _VALUES[name]
            if not eq:
                if i >= len(args):
                    raise UsageError(f"option '{a}' needs a value")
                value = args[i]
                i += 1
            _apply_value(o, canon, value, a)
            continue
        # -Ipath, -DX, -lm, -O3 (one dash, value attached).
        if not a.startswith("--") and len(a) > 2 and a[1] in _ATTACHED:
            _apply_value(o, _VALUES[a[1]], a[2:], a)
            continue
        if o.fwd_compiler or o.fwd_linker:
            if o.fwd_compiler:
                o.host_flags.append(a)
            o.link_flags.append(a)
            continue
        raise UsageError(f"unknown option '{a}' (host compiler options go through -Xcompiler, linker "
                         "options through -Xlinker, or add -forward-unknown-to-host-compiler)")
    if o.dep_file is None and o.deps in ("M", "MM") and o.output:
        o.dep_file = o.output  # nvcc -M -o file writes the dependencies to file
    return o


def _apply_flag(o, canon, a):
    if canon in _UNSUPPORTED:
        raise UsageError(f"option '{a}' is not supported: the simulator builds no device code "
                         "(kernels compile as host code)")
    if canon == "ignore":
        return
    if canon in ("E", "c", "dlink", "lib", "run", "link"):
        o.phase = canon
    elif canon in ("dc", "dw"):  # relocatable device code or not: the same host object here
        o.phase = "c"
    elif canon in ("M", "MM"):
        o.deps = canon
        o.phase = "M"
    elif canon in ("MD", "MMD"):
        o.deps = canon
    elif canon == "MP":
        o.dep_phony = True
    elif canon == "pg":
        o.host_flags.append("-pg")
        o.link_flags.append("-pg")
    elif canon == "g":
        o.debug = True
    elif canon == "G":
        o.device_debug = True
    elif canon == "lineinfo":
        o.lineinfo = True
    elif canon == "noeh":
        o.host_flags.append("-fno-exceptions")
    elif canon == "shared":
        o.shared = True
    elif canon == "fwd-compiler":
        o.fwd_compiler = True
    elif canon == "fwd-linker":
        o.fwd_linker = True
    elif canon == "dryrun":
        o.dryrun = True
    elif canon == "v":
        o.verbose = True
    elif canon == "keep":
        o.keep = True
    elif canon == "clean":
        pass  # nothing is kept that a clean would remove
    elif canon == "w":
        o.no_warnings = True
    elif canon == "version":
        o.version = True
    elif canon == "help":
        o.help = True
    elif canon in ("list-gpu-code", "list-gpu-arch"):
        o.list = canon
    elif canon == "Wno-deprecated-declarations":
        o.host_flags.append("-Wno-deprecated-declarations")
    elif canon == "Wno-deprecated-gpu-targets":
        o.deprecated_gpu_targets = False


def _apply_value(o, canon, value, a):
    if canon in _UNSUPPORTED:
        raise UsageError(f"option '{a}' is not supported by cusim's nvcc")
    if canon == "ignore":
        return
    if canon == "o":
        o.output = value
    elif canon == "include":
        for v in _split_list(value):
            o.host_flags += ["-include", v]
    elif canon == "l":
        for v in _split_list(value):
            o.libs.append("-l" + v)
    elif canon == "L":
        for v in _split_list(value):
            o.libs.append("-L" + v)
    elif canon == "D":
        o.host_flags.append("-D" + value)
    elif canon == "U":
        o.host_flags.append("-U" + value)
    elif canon == "I":
        for v in _split_list(value):
            o.host_flags.append("-I" + v)
    elif canon == "isystem":
        for v in _split_list(value):
            o.host_flags += ["-isystem", v]
    elif canon == "odir":
        o.odir = value
    elif canon == "ccbin":
        o.ccbin = value
    elif canon == "arbin":
        o.arbin = value
    elif canon == "O":
        if not re.fullmatch(r"[0-3s]|fast|g|z", value):
            raise UsageError(f"option '{a}': the optimization level must be 0, 1, 2 or 3")
        o.optimize = value
    elif canon in ("ftemplate-backtrace-limit", "ftemplate-depth", "frandom-seed"):
        o.host_flags.append(f"-{canon}={value}")
    elif canon == "Xcompiler":
        o.host_flags += _split_list(value)
        o.xcompiler += _split_list(value)
    elif canon == "Xlinker":
        o.link_flags.append("-Wl," + value)
    elif canon == "Xarchive":
        o.archive_flags += _split_list(value)
    elif canon == "keep-dir":
        o.keep_dir = value
    elif canon == "run-args":
        o.run_args += _split_list(value)
    elif canon == "MF":
        o.dep_file = value
    elif canon == "MT":
        o.dep_targets.append(value)
    elif canon in ("arch", "code", "gencode"):
        spelled = a if "=" in a else f"{a} {value}"
        for m in re.finditer(r"(?:sm|compute|lto)_(\d+)[af]?", value):
            if m.group(1) not in o.archs:
                o.archs.append(m.group(1))
            o.arch_options.append((spelled, int(m.group(1))))
        if value in ("native", "all", "all-major"):
            o.arch_native = True
        if canon == "arch" and value not in ("native", "all", "all-major") and not re.search(r"\d", value):
            raise UsageError(f"option '{a}': '{value}' is not a GPU architecture (sm_80, compute_80, native, all)")
    elif canon == "fmad":
        if value not in ("true", "false"):
            raise UsageError(f"option '{a}': '{value}' is not true or false")
        o.fmad = value == "true"
    elif canon == "cudart":
        if value not in ("none", "shared", "static"):
            raise UsageError(f"option '{a}': '{value}' is not one of none, shared, static")
        o.cudart = value
    elif canon == "x":
        langs = {"cu": "cu", "c++": "cpp", "c": "c", "none": None}
        if value not in langs:
            raise UsageError(f"option '{a}': '{value}' is not one of cu, c++, c, none")
        o.lang = langs[value]
    elif canon == "std":
        if not re.fullmatch(r"(c|gnu)\+\+(03|11|14|17|20|2a|23|2b|26|2c)", value):
            raise UsageError(f"option '{a}': '{value}' is not a C++ dialect (c++03 ... c++20)")
        o.std = value
    elif canon == "machine":
        if value != "64":
            raise UsageError(f"option '{a}': only 64-bit hosts are supported")
    elif canon == "rdc":
        if value not in ("true", "false"):
            raise UsageError(f"option '{a}': '{value}' is not true or false")


HELP = """Usage: {prog} [options] <inputs>

cusim's nvcc: nvcc's command line over the host compiler. .cu files are compiled as C++ for the
cusim CPU simulator; .c/.cpp/.o/.a/.so inputs pass through to the host compiler and linker.

  -c, -dc, -E, -M, -MM, -MD, -MMD, -MF <file>, -MT <target>, -MP, -lib, -dlink, -run, -shared
  -o <file>  -I<dir>  -isystem <dir>  -D<macro>  -U<macro>  -include <file>  -L<dir>  -l<lib>
  -O0..3  -g  -G  -lineinfo  -std=<c++NN>  -x cu|c++|c  -Xcompiler <opts>  -Xlinker <opts>
  -ccbin <compiler> (or NVCC_CCBIN / CUDAHOSTCXX; default g++)  -cudart static|shared|none
  -arch/-code/-gencode/-Xptxas/-Xnvlink/-rdc/--use_fast_math/... are accepted and have no effect.
  -forward-unknown-to-host-compiler  -v  --dryrun  --options-file <file>  --version
"""
