# SPDX-License-Identifier: MIT
"""cusim's nvcc: nvcc's command line over the host compiler, building CUDA programs for the simulator.

`.cu` files are rewritten (rewrite.py; device code sees __CUDA_ARCH__ as the simulated sm_80 runs
the listed architectures: Driver.cuda_arch) and compiled as C++ with the toolkit's headers; `.c`, `.cpp`,
`.o`, `.a` and `.so` inputs pass through to the host compiler and linker; programs link the
simulator from the toolkit's lib64: statically by default, as nvcc links cudart (libcudart_static.a,
and libcudart.so too: see cmake/cusim_toolkit.cmake), or libcusim_cudart.so with -cudart shared.
`-v`/`--dryrun` print `#$ ` lines as nvcc does (CMake reads TOP, INCLUDES, LIBRARIES, the link line
and `-arch compute_NN` from them to identify the compiler and the toolkit).

The command line is read by options.py; the pipeline from it to a compiled object is mapped in
docs/driver.md.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

import includes
import pch
import phases
import rewrite
from options import HELP, UsageError, parse

CUDA_VERSION = (13, 0, 0)
DEFAULT_ARCH = "75"  # nvcc 13's default (sm_75)
PROG = "cusim nvcc"
# The shadow of the raw-pointer checks: (address >> 3) + SHADOW_OFFSET, AddressSanitizer's layout on
# x86-64 (simulator/address_space.hpp, shadow_offset: the same number).
SHADOW_OFFSET = 0x7FFF8000


_fma_flags = None


def fma_flags():
    """The host compiler's flags for fused multiply-adds where the GPU fuses them: AArch64 has the
    instruction always, x86-64 where the CPU has FMA3 (this machine's: the program runs where it
    is built); none elsewhere, and the products round on their own."""
    global _fma_flags
    if _fma_flags is None:
        import platform
        machine = platform.machine()
        _fma_flags = []
        if machine in ("aarch64", "arm64"):
            _fma_flags = ["-ffp-contract=fast"]
        elif machine in ("x86_64", "AMD64"):
            try:
                with open("/proc/cpuinfo") as f:
                    if re.search(r"^flags\s*:.*\bfma\b", f.read(), re.M):
                        _fma_flags = ["-mfma", "-ffp-contract=fast"]
            except OSError:
                pass
    return _fma_flags


# -- the toolkit and the host tools

def toolkit_root():
    here = os.path.dirname(os.path.realpath(sys.argv[0]))
    return os.environ.get("CUSIM_NVCC_ROOT") or os.path.dirname(here)


def host_compilers(o):
    """(C++ compiler, C compiler)."""
    cxx = o.ccbin or os.environ.get("NVCC_CCBIN") or os.environ.get("CUDAHOSTCXX") or "g++"
    if os.path.isdir(cxx):
        cxx = os.path.join(cxx, "g++")
    d, base = os.path.split(cxx)
    pairs = [(r"^(.*-)?g\+\+(-[\d.]+)?$", None), (r"^(.*-)?gcc(-[\d.]+)?$", "g++"),
             (r"^(.*-)?clang\+\+(-[\d.]+)?$", None), (r"^(.*-)?clang(-[\d.]+)?$", "clang++"),
             (r"^c\+\+$", None), (r"^cc$", "c++")]
    c = cxx
    for pattern, cxx_name in pairs:
        m = re.match(pattern, base)
        if not m:
            continue
        if cxx_name:  # a C compiler was named: C++ through its C++ sibling
            c = cxx
            sibling = (m.group(1) or "") + cxx_name + (m.group(2) or "")
            cxx = os.path.join(d, sibling) if d else sibling
        else:
            c_name = base.replace("g++", "gcc").replace("clang++", "clang").replace("c++", "cc")
            c = os.path.join(d, c_name) if d else c_name
        break
    return cxx, c


def cxx20_asked(o):
    """Whether the command line asks for C++20 or later (nvcc's default is C++17)."""
    return o.std is not None and o.std.partition("++")[2] not in ("03", "11", "14", "17")


def cxx_std(o):
    """C++20 at least: the simulator's headers need it; a later dialect asked for is kept."""
    if o.std is None:
        return "-std=c++20"
    flavour, _, year = o.std.partition("++")
    order = {"03": 3, "11": 11, "14": 14, "17": 17, "20": 20, "2a": 20, "23": 23, "2b": 23, "26": 26, "2c": 26}
    return f"-std={flavour}++{year}" if order[year] > 20 else f"-std={flavour}++20"


# CUSIM_DEVICE's profiles (simulator/settings.cpp) and their architectures.
DEVICE_ARCHS = {"a100": 80, "h100": 90, "v100": 70, "t4": 75}


def cuda_arch(o, environ=os.environ):
    """__CUDA_ARCH__ as the simulated device's code sees it. nvcc compiles device code once per
    architecture listed and the runtime runs the highest one the device can (not above its own).
    The device is the one CUSIM_DEVICE names in the build's environment (a100, h100, v100, t4, as
    the simulator reads it at run time), by default an sm_80 (an A100): the highest listed
    architecture up to the device's, else the lowest listed (as if the device ran it); with no
    -arch nvcc 13's default sm_75; with -arch=native, all or all-major the device's own. Times ten:
    800."""
    device = DEVICE_ARCHS.get(environ.get("CUSIM_DEVICE", ""), 80)
    archs = sorted({int(a) for a in o.archs or ([] if o.arch_native else [DEFAULT_ARCH])})
    if o.arch_native:
        archs.append(device)
    runnable = [a for a in archs if a <= device]
    return (max(runnable) if runnable else min(archs)) * 10


OLDEST_NVCC12_ARCH = 50  # nvcc 12 built sm_50 and later, deprecating those below sm_75
OLDEST_NVCC13_ARCH = 75  # nvcc 13 rejects anything older: "Unsupported gpu architecture 'compute_NN'"


def legacy_architectures(o, environ=os.environ):
    """Architectures from before nvcc 13's sm_75 are accepted, each with a one-line note on what
    the simulator does instead of nvcc 13's fatal error: one nvcc 12 could still build (sm_50 to
    sm_72) is kept as nvcc 12 built it (the simulated V100 runs sm_70 code; -Wno-deprecated-gpu-targets
    silences the note, as it did nvcc 12's warning); an older one (sm_13, sm_20, sm_35 ...) is
    replaced by the simulated device's own. Changes o.archs; returns the notes."""
    device = DEVICE_ARCHS.get(environ.get("CUSIM_DEVICE", ""), 80)
    notes = []
    ancient = set()
    for spelled, arch in o.arch_options:
        if arch < OLDEST_NVCC12_ARCH:
            ancient.add(str(arch))
            note = (f"'{spelled}': nvcc 13 rejects sm_{arch} (Unsupported gpu architecture); built for the "
                    f"simulated device's sm_{device} instead (__CUDA_ARCH__ {device * 10})")
        elif arch < OLDEST_NVCC13_ARCH and o.deprecated_gpu_targets:
            note = (f"'{spelled}': nvcc 13 no longer builds sm_{arch} (nvcc 12 did, deprecated); built as nvcc 12 "
                    f"did (-Wno-deprecated-gpu-targets hides this note)")
        else:
            continue
        if note not in notes:
            notes.append(note)
    if ancient:
        o.archs = [a for a in o.archs if a not in ancient]
        if str(device) not in o.archs:
            o.archs.append(str(device))
    return notes


# NVIDIA's CUDA libraries a program may link with -l: the toolkit layout has the simulator's
# cudart, cuda, cudadevrt and curand; for the others a system copy (NVIDIA's, which drives a GPU)
# must not be picked up instead.
NVIDIA_LIBRARIES = {
    "cudart": "the CUDA runtime", "cuda": "the CUDA driver API", "cudadevrt": "the device runtime",
    "curand": "cuRAND", "cublas": "cuBLAS", "cublasLt": "cuBLASLt", "cufft": "cuFFT", "cufftw": "cuFFTW",
    "cusparse": "cuSPARSE", "cusparseLt": "cuSPARSELt", "cusolver": "cuSOLVER", "cusolverMg": "cuSOLVERMg",
    "nvrtc": "NVRTC", "nvrtc-builtins": "NVRTC", "nvJitLink": "nvJitLink", "nvjpeg": "nvJPEG",
    "nvToolsExt": "NVTX", "nvblas": "NVBLAS", "cupti": "CUPTI", "cufile": "cuFile", "cudnn": "cuDNN",
    "nvidia-ml": "NVML", "culibos": "culibos", "nvptxcompiler_static": "the PTX compiler", "nvfatbin": "nvFatbin",
    "OpenCL": "OpenCL", "nppc": "NPP", "npps": "NPP", "nvperf_host": "Nsight Perf",
}


def missing_library(name, lib_dir):
    """For `-l<name>` of an NVIDIA library the toolkit layout lacks, the error's text; else None."""
    base = name[:-len("_static")] if name.endswith("_static") else name
    what = NVIDIA_LIBRARIES.get(base) or ("NPP" if base.startswith("npp") else None)
    if what is None or any(os.path.exists(os.path.join(lib_dir, f"lib{name}{ext}")) for ext in (".so", ".a")):
        return None
    have = sorted({f[3:].split(".")[0] for f in os.listdir(lib_dir) if f.startswith("lib") and
                   f[3:].split(".")[0] in NVIDIA_LIBRARIES} if os.path.isdir(lib_dir) else set())
    return (f"'-l{name}': {what} is not in cusim's toolkit ({lib_dir} has {', '.join(have)}); the simulator "
            "cannot run NVIDIA's own, which drives a GPU")


def quote(arg):
    """An argument as nvcc prints it in `#$ ` lines (CMake splits these with UNIX_COMMAND rules)."""
    if arg and re.fullmatch(r"[A-Za-z0-9_+\-=.,:@%]+", arg):
        return arg
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`") + '"'


CHECKS = ("address", "alignment", "bounds")


def unchecked(environ=os.environ):
    """The checks CUSIM_NVCC_UNCHECKED leaves out of the instrumentation: all of them for 1 (or
    all), none unset or 0, else those its comma-separated list names (CHECKS)."""
    value = environ.get("CUSIM_NVCC_UNCHECKED", "").strip()
    if value in ("", "0"):
        return set()
    if value in ("1", "all"):
        return set(CHECKS)
    names = {n.strip() for n in value.split(",") if n.strip()}
    unknown = sorted(names - set(CHECKS))
    if unknown:
        raise UsageError(f"CUSIM_NVCC_UNCHECKED={value}: unknown check '{unknown[0]}' (1 or all, or a list of "
                         + ", ".join(CHECKS) + ")")
    return names


def host_code_define(clang=False, environ=os.environ):
    """The definition of what the rewrite puts before each host function of a .cu file
    (rewrite.HOST_CODE_MACRO): the attribute that leaves it out of the checks' instrumentation, so
    that host code runs at the host compiler's speed; empty (host code instrumented as device code
    is) with CUSIM_NVCC_HOST_CHECKS=1, or with no checks at all (CUSIM_NVCC_UNCHECKED=1). Neither
    compiler inlines a function instrumented otherwise (std::vector's operator[]) into a marked one;
    Clang's flatten does, and its copy is then uninstrumented as the function is (GCC's does not)."""
    checked = unchecked(environ) != set(CHECKS)
    if checked and environ.get("CUSIM_NVCC_HOST_CHECKS", "") in ("", "0"):
        flatten = ", flatten" if clang else ""
        return f'-D{rewrite.HOST_CODE_MACRO}=__attribute__((no_sanitize("kernel-address", "bounds", "alignment"){flatten}))'
    return f"-D{rewrite.HOST_CODE_MACRO}="


class Driver:
    def __init__(self, o):
        self.o = o
        self.root = toolkit_root()
        self.include = os.path.join(self.root, "include")
        self.lib = os.path.join(self.root, "lib64")
        self.cxx, self.cc = host_compilers(o)
        self.tmp = None
        self.counter = 0
        self.copies = {}  # rewritten copy -> original, of the compile in progress

    def say(self, text):
        print(text, file=sys.stderr, flush=True)

    def show(self, cmd):
        if self.o.verbose or self.o.dryrun:
            self.say("#$ " + " ".join(quote(a) for a in cmd))

    def run(self, cmd, stdout=None):
        self.show(cmd)
        if self.o.dryrun:
            return 0
        try:
            return subprocess.run(cmd, stdout=stdout).returncode
        except FileNotFoundError:
            raise UsageError(f"cannot run '{cmd[0]}': not found (set -ccbin or NVCC_CCBIN)")

    def environment_lines(self):
        archs = self.o.archs or [DEFAULT_ARCH]
        lines = [
            f"_HERE_={os.path.join(self.root, 'bin')}",
            f"_THERE_={os.path.join(self.root, 'bin')}",
            "_CUSIM_=cusim's nvcc: kernels compile as host C++ for the cusim CPU simulator",
            f"TOP={self.root}",
            f"NVVMIR_LIBRARY_DIR={os.path.join(self.root, 'nvvm', 'libdevice')}",
            f"LD_LIBRARY_PATH={self.lib}:{os.environ.get('LD_LIBRARY_PATH', '')}",
            f"PATH={os.path.join(self.root, 'bin')}:{os.environ.get('PATH', '')}",
            f"INCLUDES={quote('-I' + self.include)}",
            f"LIBRARIES=  {quote('-L' + self.lib)}",
            # No device code is built; the architectures are named for tools that look for them.
            "CUSIM_DEVICE_CODE=none " + " ".join(f"-arch compute_{a}" for a in archs),
        ]
        for line in lines:
            self.say("#$ " + line)

    def temp_dir(self):
        if self.tmp is None:
            if self.o.keep:
                self.tmp = self.o.keep_dir or "."
                os.makedirs(self.tmp, exist_ok=True)
            else:
                self.tmp = tempfile.mkdtemp(prefix="cusim-nvcc-")
        return self.tmp

    def temp_path(self, name):
        self.counter += 1
        if self.o.keep:
            return os.path.join(self.temp_dir(), f"{name}")
        d = os.path.join(self.temp_dir(), str(self.counter))
        os.makedirs(d, exist_ok=True)
        return os.path.join(d, name)

    def cleanup(self):
        if self.tmp and not self.o.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    # -- compile flags
    def phases(self):
        """Whether kernels get their phased form (phases.py): not with -G, -O0, or -g without -O,
        which all compile at -O0."""
        return phases.wanted(self.opt_flags())

    def opt_flags(self):
        o = self.o
        flags = []
        if o.device_debug:
            flags += ["-O0", "-g"]
        elif o.optimize is not None:
            flags.append("-O" + o.optimize)
        elif o.debug:
            flags.append("-O0")  # a debug build keeps the kernels debuggable
        else:
            flags.append("-O3")  # nvcc optimises device code by default
        if o.debug and not o.device_debug:
            flags.append("-g")
        elif o.lineinfo and not o.device_debug:
            flags.append("-g1")
        if o.no_warnings:
            flags.append("-w")
        if o.werror:
            flags.append("-Werror")
        return flags

    def check_flags(self):
        """The instrumentation behind the checks of unmodified code, each failing check answered by
        the simulator. Fixed-size arrays (__shared__, local, __constant__, in structs) checked per
        axis: the compiler's bounds instrumentation (array_bounds.cpp). Raw pointers checked against
        their allocation: its address instrumentation in the kernel flavour (no redzones or runtime
        of its own; Clang's pass in its user-space form, for its memcpy calls), checked inline against the simulator's shadow at AddressSanitizer's offset
        (SHADOW_OFFSET, simulator/address_space.hpp: the same number), a call only when the shadow
        says no (raw_access.cpp); misaligned accesses, which the GPU faults on: its alignment
        instrumentation. CUSIM_RAW_ADDRESS_CHECKS tells cusim's headers (atomics.hpp,
        unmodified.hpp). Line tables, so that a report names the line of the access (the user's -g,
        or -G, take precedence: they come later). CUSIM_NVCC_UNCHECKED leaves some or all out."""
        off = unchecked()
        clang = "clang" in os.path.basename(self.cxx)
        ubsan = [] if "bounds" in off else ["array-bounds" if clang else "bounds"]
        ubsan += [] if "alignment" in off else ["alignment"]
        flags = ["-fsanitize=" + ",".join(ubsan)] if ubsan else []
        if "address" not in off:
            if clang:
                # -asan-kernel=0: the pass's user-space form at the kernel form's offset and recovery,
                # so that a memcpy the compiler made of a whole-object copy (a float4, a struct) calls
                # __asan_memcpy, which checks; the kernel form calls the plain memcpy (seen with clang 14).
                flags += ["-fsanitize=kernel-address", "-mllvm", "-asan-kernel=0",
                          "-mllvm", f"-asan-mapping-offset={SHADOW_OFFSET:#x}",
                          "-mllvm", "-asan-instrumentation-with-call-threshold=1000000",
                          "-mllvm", "-asan-stack=0", "-mllvm", "-asan-globals=0",
                          # a read-modify-write (s[i] += x) checked as its load and its store, so that
                          # CUSIM_REPORT sees both (docs/teaching.md, "What the compiler changes")
                          "-mllvm", "-asan-opt-same-temp=0"]
            else:
                flags += ["-fsanitize=kernel-address", "-fsanitize-recover=kernel-address",
                          f"-fasan-shadow-offset={SHADOW_OFFSET:#x}", "-fno-sanitize-address-use-after-scope",
                          "--param=asan-instrumentation-with-call-threshold=1000000",
                          "--param=asan-stack=0", "--param=asan-globals=0"]
            flags.append("-DCUSIM_RAW_ADDRESS_CHECKS=1")
        if flags:
            flags.append("-gline-tables-only" if clang else "-g1")
        return flags

    def cuda_arch(self):
        return cuda_arch(self.o)

    def version_defines(self):
        major, minor, build = CUDA_VERSION
        archs = self.o.archs or [DEFAULT_ARCH]
        return ["-D__NVCC__", f"-D__CUDACC_VER_MAJOR__={major}", f"-D__CUDACC_VER_MINOR__={minor}",
                f"-D__CUDACC_VER_BUILD__={build}", f"-D__CUDA_API_VER_MAJOR__={major}",
                f"-D__CUDA_API_VER_MINOR__={minor}",
                "-D__CUDA_ARCH_LIST__=" + ",".join(a + "0" for a in sorted(archs, key=int)),
                "-DCUSIM_BACKEND_SIM=1"]

    def compile_command(self, kind, source, original, phase_flags, dep_args, out):
        o = self.o
        if kind == "c":
            cmd = [self.cc, "-x", "c"] + self.version_defines()
        else:
            cmd = [self.cxx, "-x", "c++", cxx_std(o)]
            if kind == "cu":
                cmd.append("-D__CUDACC__")
            cmd += self.version_defines()
        if kind != "c" and not cxx20_asked(o):
            # C++20's library additions a C++17 program may define itself (std::lerp, ::lerp):
            # under other names, as nvcc's default dialect has them (cxx17_library.hpp).
            cmd += ["-include", "cusim/backend/sim/cxx17_library.hpp"]
        if source != original:  # "..." includes of the rewritten copy resolve beside the original
            cmd += ["-iquote", os.path.dirname(os.path.abspath(original))]
        cmd += o.host_flags
        cmd += ["-I" + self.include]
        if kind == "cu":
            cmd += ["-include", "cuda_runtime.h"]
        if kind != "c":
            cmd.append("-fstack-clash-protection")
        if kind == "cu" and o.fmad:
            # nvcc contracts a * b + c into one fused multiply-add (--fmad=true, its default); so
            # does the host compiler here, which rounds as the GPU does (docs/fidelity.md).
            cmd += fma_flags()
            if fma_flags() and "-O1" in self.opt_flags() and "clang" not in os.path.basename(self.cxx):
                # g++ forms fused multiply-adds at -O1 (CMake's MinSizeRel for CUDA) only with this
                # (from -O2 on, and at -Os, it does anyway; at -O0 never).
                cmd.append("-fexpensive-optimizations")
        if kind == "cu":
            cmd += self.check_flags()
        if kind == "cu":
            cmd.append(host_code_define("clang" in os.path.basename(self.cxx)))
        cmd += self.opt_flags() + dep_args + list(phase_flags) + [source]
        if out is not None:
            cmd += ["-o", out]
        return cmd

    def prepare_source(self, path, kind):
        """The file to compile: path itself, or a rewritten copy opening with `#line 1 "path"`.

        The user's headers it includes get the same rewrite (includes.py): each one needing it, and
        each one including such a header, is compiled from a rewritten copy in the temporary directory
        (self.copies maps every copy to its original, for the dependency files)."""
        if not os.path.isfile(path):
            raise UsageError(f"input file '{path}' not found")
        self.copies = {}
        if kind != "cu":
            return path
        phased = self.phases()
        graph = includes.IncludeGraph(path, self.include_search(path), self.toolkit_roots(),
                                      lambda text, name: rewrite.rewrite(text, name, phased, self.cuda_arch()))
        root = graph.root
        if not root.copied:
            return path
        base = os.path.basename(path)
        if self.o.keep:  # the kept copy sits in the keep directory (by default "."): never over the source
            stem, ext = os.path.splitext(base)
            base = f"{stem}.cusim{ext or '.cu'}"
        root.copy = self.temp_path(base)
        for node in graph.nodes.values():
            if node.copied and node is not root:
                # Absolute: the includes naming it are absolute paths (see includes.py).
                d = os.path.abspath(os.path.join(self.temp_dir(), "cusim-include", str(self.counter)))
                self.counter += 1
                if not self.o.dryrun:
                    os.makedirs(d, exist_ok=True)
                node.copy = os.path.join(d, node.name)
        for node in [root] + [n for n in graph.nodes.values() if n.copied and n is not root]:
            original = path if node is root else node.path
            self.copies[node.copy] = original
            if self.o.dryrun or self.o.verbose:
                self.say(f"#$ cusim-rewrite {quote(original)} > {quote(node.copy)}")
            if self.o.dryrun:
                continue
            with open(node.copy, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
                f.write(graph.copy_text(node))
        return root.copy

    def include_search(self, original):
        """The directories the compile command searches for `#include "..."` and `#include <...>`, in
        its order, each with whether it is the user's (headers found there get the rewrite; the
        toolkit's, -isystem and the compiler's own directories are never rewritten, and a search
        reaching one of them stops: what is found there is not the user's)."""
        quoted = [os.path.dirname(os.path.abspath(original))]  # the -iquote of compile_command
        dirs = []
        flags = self.o.host_flags
        i = 0
        while i < len(flags):
            f = flags[i]
            i += 1
            for opt, into in (("-iquote", quoted), ("-I", dirs), ("-isystem", None), ("-idirafter", None),
                              ("-include", None), ("-imacros", None), ("-iprefix", None)):
                if f == opt and i < len(flags):
                    value = flags[i]
                    i += 1
                elif f.startswith(opt) and into is not None:
                    value = f[len(opt):]
                else:
                    continue
                if into is not None and value:
                    into.append(os.path.abspath(value))
                break
        return includes.Search(quoted, dirs + [self.include])

    def toolkit_roots(self):
        """Real paths under which headers belong to the toolkit: its include directory and the
        directories its entries link to (the toolkit's headers are links into cusim's sources)."""
        roots = {os.path.realpath(self.include)}
        try:
            for e in os.scandir(self.include):
                if e.is_symlink():
                    roots.add(os.path.dirname(os.path.realpath(e.path)))
        except OSError:
            pass
        return roots

    def default_object(self, path):
        base = os.path.splitext(os.path.basename(path))[0] + ".o"
        return os.path.join(self.o.odir, base) if self.o.odir else base

    def dependency_args(self, obj, original, copy):
        """GCC's -M* arguments, and (file GCC writes, destination) when the file needs fixing after:
        the rewritten copy renamed to the original, or the dependencies going to stdout."""
        o = self.o
        if not o.deps:
            return [], None
        if o.deps in ("M", "MM"):
            dest = o.dep_file  # None: stdout
        else:
            dest = o.dep_file or os.path.splitext(obj or os.path.basename(original))[0] + ".d"
        made = dest
        if copy != original or dest is None:
            made = os.path.join(self.temp_dir(), f"deps{self.counter}.d")
            self.counter += 1
        args = ["-" + o.deps, "-MF", made]
        for t in o.dep_targets or [obj or self.default_object(original)]:
            args += ["-MT", t]
        if o.dep_phony:
            args.append("-MP")
        return args, ((made, dest) if made != dest else None)

    def fix_dependencies(self, fix, original, copy):
        """Writes the dependency file GCC made to its destination, naming the original source."""
        if fix is None or self.o.dryrun:
            return
        made, dest = fix
        with open(made, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        # The rewritten copies (the source's and its headers') are named by their originals; longest
        # first, so that no copy's path is replaced inside another's.
        for c in sorted(self.copies, key=len, reverse=True):
            text = text.replace(includes.make_escape(c), includes.make_escape(self.copies[c]))
        if dest is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            with open(dest, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)

    # -- phases
    def compile_one(self, path, kind, obj, phase_flags=("-c",)):
        copy = self.prepare_source(path, kind)
        dep_args, fix = self.dependency_args(obj if phase_flags == ("-c",) else None, path, copy)
        cmd = self.compile_command(kind, copy, path, phase_flags, dep_args, obj)
        use = self.precompiled(kind, cmd, copy, obj, phase_flags, dep_args)
        rc = self.run(use.cmd if use else cmd)
        if rc == 0:
            if use and dep_args:
                use.fix_dependencies(dep_args[dep_args.index("-MF") + 1], self.o.deps, self.o.dep_phony)
            self.fix_dependencies(fix, path, copy)
        return rc

    def precompiled(self, kind, cmd, source, obj, phase_flags, dep_args):
        """The compile with the prelude's precompiled header (pch.py), or None: a `.cu` compiled
        with -c by g++, with no dependency output or -MD/-MMD's."""
        if kind != "cu" or tuple(phase_flags) != ("-c",) or self.o.dryrun or obj is None or \
                self.o.deps not in (None, "MD", "MMD"):
            return None
        prelude = ("cusim/backend/sim/cxx17_library.hpp", "cuda_runtime.h")
        return pch.prepare(self.cxx, cmd, source, obj, dep_args, prelude, self.include)

    def main(self):
        o = self.o
        if o.version:
            print("nvcc: NVIDIA (R) Cuda compiler driver")
            print("cusim nvcc: the cusim CPU simulator's nvcc-compatible driver (not NVIDIA's); "
                  "kernels compile as host C++ for the simulator")
            print("Cuda compilation tools, release {0}.{1}, V{0}.{1}.{2}".format(*CUDA_VERSION))
            print(f"Build cusim, host compiler {self.cxx}")
            return 0
        if o.help:
            print(HELP.format(prog="nvcc"))
            return 0
        if o.list:
            print("\n".join(f"{'sm' if o.list == 'list-gpu-code' else 'compute'}_{a}"
                            for a in ("75", "80", "86", "87", "89", "90", "100", "103", "110", "120", "121")))
            return 0
        if not o.no_warnings:
            for note in legacy_architectures(o):
                self.say(f"{PROG}: note: {note}")
        else:
            legacy_architectures(o)
        if o.verbose or o.dryrun:
            self.environment_lines()
        if not o.inputs:
            raise UsageError("no input files (use --help for the options)")
        for path, kind in o.inputs:
            if kind is None:
                raise UsageError(f"don't know what to do with '{path}' (inputs are .cu, .c, .cpp, .o, .a, .so "
                                 "files; -x cu compiles any file as CUDA)")
            if kind == "device":
                raise UsageError(f"input '{path}' is device code, which the simulator cannot run "
                                 "(it needs the .cu source)")
        sources = [(p, k) for p, k in o.inputs if k in ("cu", "cpp", "c")]
        try:
            if o.phase == "dlink":
                return self.device_link()
            if o.phase in ("c", "E", "M") and o.output and len(sources) > 1 and not (o.phase == "M"):
                raise UsageError("-o names one output file, but more than one input file is compiled")
            if o.phase == "c":
                for p, k in sources:
                    obj = o.output or self.default_object(p)
                    rc = self.compile_one(p, k, obj)
                    if rc:
                        return rc
                return 0
            if o.phase == "E":
                for p, k in sources:
                    rc = self.compile_one(p, k, o.output, ("-E",))
                    if rc:
                        return rc
                return 0
            if o.phase == "M":
                for p, k in sources:
                    rc = self.compile_one(p, k, None, ("-E",))
                    if rc:
                        return rc
                return 0
            # lib, link, run: compile the sources to temporary objects first.
            objects = []
            for p, k in o.inputs:
                if k in ("cu", "cpp", "c"):
                    obj = self.temp_path(os.path.splitext(os.path.basename(p))[0] + ".o")
                    rc = self.compile_one(p, k, obj)
                    if rc:
                        return rc
                    objects.append(obj)
                else:
                    if not os.path.exists(p) and not o.dryrun:
                        raise UsageError(f"input file '{p}' not found")
                    objects.append(p)
            if o.phase == "lib":
                return self.archive(objects)
            out = o.output or ("a.out" if o.phase != "run" else self.temp_path("a.out"))
            rc = self.link(objects, out)
            if rc or o.phase != "run":
                return rc
            return self.run([os.path.abspath(out)] + o.run_args)
        finally:
            self.cleanup()

    def device_link(self):
        """Device linking has nothing to do here: a valid, empty object."""
        out = self.o.output or "a_dlink.o"
        cmd = [self.cxx, "-x", "c++", "-c", os.devnull, "-o", out] + \
              [f for f in self.o.host_flags if f.startswith("-f") or f.startswith("-m")]
        return self.run(cmd)

    def archive(self, objects):
        ar = self.o.arbin or os.environ.get("AR") or "ar"
        out = self.o.output or "a.a"
        if os.path.exists(out) and not self.o.dryrun:
            os.remove(out)
        return self.run([ar, "rcs"] + self.o.archive_flags + [out] + objects)

    def runtime_libs(self):
        if self.o.cudart == "none":
            return []
        if self.o.cudart == "shared":  # libcudart.so links statically; the shared build has its own name
            return ["-lcudadevrt", "-lcusim_cudart"]
        return ["-lcudadevrt", "-lcudart_static", "-lrt", "-lpthread", "-ldl"]

    def link(self, objects, out):
        o = self.o
        for f in o.libs:
            missing = missing_library(f[2:], self.lib) if f.startswith("-l") else None
            if missing:
                raise UsageError(missing)
        cmd = [self.cxx, "-m64"]
        if o.shared:
            cmd.append("-shared")
        cmd += o.xcompiler + o.link_flags
        cmd += ["-Wl,--start-group"] + objects
        cmd += [f for f in o.libs if f.startswith("-L")] + ["-L" + self.lib]
        if o.cudart == "shared":
            cmd.append("-Wl,-rpath," + self.lib)
        cmd += [f for f in o.libs if f.startswith("-l")]
        cmd += self.runtime_libs() + ["-Wl,--end-group", "-o", out]
        return self.run(cmd)


def main(argv):
    try:
        o = parse(argv)
        return Driver(o).main()
    except UsageError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 1
    except rewrite.RewriteError as e:
        print(str(e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
