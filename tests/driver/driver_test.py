# SPDX-License-Identifier: MIT
"""The nvcc driver's behaviour, one case per CTest test: its failure modes with their exact messages,
dependency files, --version, and whole projects (make, CMake with CUDACXX, a C program).

    python3 tests/driver/driver_test.py --toolkit B/cuda --work DIR CASE

Exit 0: passed; 77: skipped (the message says why); anything else: failed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


class Failure(Exception):
    pass


def run(cmd, cwd, env=None, expect_rc=0):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if expect_rc is not None and p.returncode != expect_rc:
        raise Failure(f"{' '.join(cmd)}: exit {p.returncode}, expected {expect_rc}\n"
                      f"--- stdout\n{p.stdout}--- stderr\n{p.stderr}")
    return p


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def expect_equal(actual, expected, what):
    if actual != expected:
        raise Failure(f"{what}:\n  expected: {expected!r}\n  actual:   {actual!r}")


def expect_in(needle, haystack, what):
    if needle not in haystack:
        raise Failure(f"{what}: {needle!r} not found in:\n{haystack}")


def env_without_cuda(toolkit):
    """The environment of a machine without NVIDIA's toolkit: no CUDA directory on PATH, no hints."""
    env = dict(os.environ)
    env["PATH"] = ":".join(p for p in env.get("PATH", "").split(":") if "cuda" not in p.lower())
    for var in ("CUDA_PATH", "CUDAToolkit_ROOT", "CUDA_HOME", "CUDACXX", "CUDAHOSTCXX", "CUDAFLAGS",
                "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "LD_LIBRARY_PATH"):
        env.pop(var, None)
    return env


class Cases:
    def __init__(self, toolkit, work):
        self.toolkit = os.path.abspath(toolkit)
        self.nvcc = os.path.join(self.toolkit, "bin", "nvcc")
        self.work = os.path.abspath(work)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)

    def nv(self, *args, expect_rc=0):
        return run([self.nvcc, *args], self.work, expect_rc=expect_rc)

    # -- failure modes
    def unknown_option(self):
        write(os.path.join(self.work, "a.cu"), "int main() {}\n")
        p = self.nv("--frobnicate", "-c", "a.cu", expect_rc=1)
        expect_equal(p.stderr, "cusim nvcc: unknown option '--frobnicate' (host compiler options go through "
                     "-Xcompiler, linker options through -Xlinker, or add -forward-unknown-to-host-compiler)\n",
                     "stderr")
        # Forwarded when asked, as nvcc does.
        self.nv("-forward-unknown-to-host-compiler", "-Wall", "-c", "a.cu")

    def missing_input(self):
        p = self.nv("-c", "nosuch.cu", expect_rc=1)
        expect_equal(p.stderr, "cusim nvcc: input file 'nosuch.cu' not found\n", "stderr")
        p = self.nv("-O2", expect_rc=1)
        expect_equal(p.stderr, "cusim nvcc: no input files (use --help for the options)\n", "stderr")

    def syntax_error_line(self):
        # Line 6 is wrong; the launch and __shared__ before it make the driver compile a rewritten copy.
        write(os.path.join(self.work, "bad.cu"),
              "__global__ void k(int* p) {\n"
              "  __shared__ int s[32];\n"
              "  s[threadIdx.x] = p[0];\n"
              "}\n"
              "void launch(int* p) { k<<<1, 32>>>(p); }\n"
              "int broken() { return undeclared_name; }\n")
        p = self.nv("-c", "bad.cu", expect_rc=1)
        expect_in("bad.cu:6:", p.stderr, "the diagnostic names the user's file and line")
        if "cusim-nvcc-" in p.stderr:
            raise Failure(f"the diagnostic names the rewritten copy:\n{p.stderr}")
        # __LINE__ and __FILE__ after rewritten lines are the original ones.
        write(os.path.join(self.work, "lines.cu"),
              "__global__ void k(int* p) {\n"
              "  __shared__ float t[16][16], u[4];\n"
              "}\n"
              "void launch(int* p) { k<<<dim3(1,\n"
              "   1), 16>>>(p); }\n"
              "static_assert(__LINE__ == 6, \"line\");\n"
              "constexpr const char* file = __FILE__;\n"
              "static_assert(file[0] == 'l' && file[6] == 'c', \"file\");\n")
        self.nv("-c", "lines.cu")

    def cannot_rewrite(self):
        write(os.path.join(self.work, "ns.cu"), "#include <cstdio>\n__global__ void k() {\n  __shared__ int n = 0;\n}\n")
        p = self.nv("-c", "ns.cu", expect_rc=1)
        expect_equal(p.stderr, "ns.cu:3: cusim nvcc: cannot rewrite the __shared__ declaration: a __shared__ "
                     "variable cannot have an initializer\n", "stderr")
        if os.path.exists(os.path.join(self.work, "ns.o")):
            raise Failure("an object was written")

    def unsupported_option(self):
        write(os.path.join(self.work, "a.cu"), "int main() {}\n")
        p = self.nv("-ptx", "a.cu", expect_rc=1)
        expect_equal(p.stderr, "cusim nvcc: option '-ptx' is not supported: the simulator builds no device code "
                     "(kernels compile as host code)\n", "stderr")

    def legacy_options(self):
        """Options of older nvcc command lines: architectures nvcc 13 rejects are accepted with a
        one-line note saying what the simulator does instead; the options of real Makefiles build;
        -Xcompiler reaches the link (-fopenmp); an NVIDIA library the toolkit lacks is a clear error."""
        write(os.path.join(self.work, "arch.cu"),
              "#include <cstdio>\n__global__ void k(int* p) { *p = __CUDA_ARCH__; }\n"
              "int main() {\n  int* d;\n  cudaMallocManaged(&d, sizeof(int));\n  k<<<1, 1>>>(d);\n"
              "  cudaDeviceSynchronize();\n  std::printf(\"%d\\n\", *d);\n}\n")
        env = dict(os.environ)
        env.pop("CUSIM_DEVICE", None)  # the default device, an sm_80
        note = "cusim nvcc: note: '{}': nvcc 13 rejects sm_{} (Unsupported gpu architecture); built for the " \
               "simulated device's sm_80 instead (__CUDA_ARCH__ 800)\n"
        for args, notes, value in (
                (["-arch=sm_13"], note.format("-arch=sm_13", 13), "800"),
                (["-arch", "sm_20"], note.format("-arch sm_20", 20), "800"),
                (["-gencode", "arch=compute_20,code=sm_20", "-gencode=arch=compute_90,code=sm_90"],
                 note.format("-gencode arch=compute_20,code=sm_20", 20), "800"),
                (["-arch=sm_35", "-arch=sm_75"], note.format("-arch=sm_35", 35), "800"),
                (["-arch=sm_60"], "cusim nvcc: note: '-arch=sm_60': nvcc 13 no longer builds sm_60 (nvcc 12 did, "
                                  "deprecated); built as nvcc 12 did (-Wno-deprecated-gpu-targets hides this note)\n",
                 "600"),
                (["-arch=sm_60", "-Wno-deprecated-gpu-targets"], "", "600"),
                (["-arch=sm_13", "-w"], "", "800"),
                (["-arch=all"], "", "800"), (["-arch=native"], "", "800"), (["-arch=all-major"], "", "800")):
            p = run([self.nvcc, *args, "arch.cu", "-o", "arch"], self.work, env=env)
            expect_equal(p.stderr, notes, f"the notes of {' '.join(args)}")
            expect_equal(run([os.path.join(self.work, "arch")], self.work, env=env).stdout, value + "\n",
                         f"__CUDA_ARCH__ with {' '.join(args)}")
        # What real Makefiles pass: accepted, the program built as without them.
        self.nv("-Xcompiler", "-Wall", "--compiler-options=-Wextra,-O1", "-lineinfo", "-use_fast_math",
                "--ptxas-options=-v", "-Xptxas", "-O3", "-maxrregcount=32", "-maxrregcount", "32",
                "--expt-relaxed-constexpr", "--extended-lambda", "-rdc=true", "-dc", "arch.cu", "-o", "arch.o")
        self.nv("-dlink", "arch.o", "-o", "dlink.o")
        self.nv("arch.o", "dlink.o", "-lcudadevrt", "-lcurand", "-o", "linked")
        expect_equal(run([os.path.join(self.work, "linked")], self.work, env=env).stdout, "750\n", "the linked program")
        # -Xcompiler -fopenmp reaches the link, compiling and linking at once or apart.
        write(os.path.join(self.work, "omp.cu"),
              "#include <omp.h>\n#include <cstdio>\nint main() { std::printf(\"%d\\n\", omp_get_max_threads() > 0); }\n")
        self.nv("-Xcompiler", "-fopenmp", "omp.cu", "-o", "omp")
        self.nv("-Xcompiler", "-fopenmp", "-c", "omp.cu", "-o", "omp.o")
        self.nv("-Xcompiler", "-fopenmp", "omp.o", "-o", "omp2")
        for prog in ("omp", "omp2"):
            expect_equal(run([os.path.join(self.work, prog)], self.work).stdout, "1\n", prog)
        # An NVIDIA library the simulator does not provide: no system copy linked in its place.
        for lib, what in (("cublas", "cuBLAS"), ("cufft_static", "cuFFT"), ("nppc", "NPP")):
            p = self.nv("arch.o", f"-l{lib}", "-o", "nolib", expect_rc=1)
            expect_in(f"cusim nvcc: '-l{lib}': {what} is not in cusim's toolkit ({self.toolkit}/lib64 has ", p.stderr,
                      "the error")
            expect_in("curand); the simulator cannot run NVIDIA's own, which drives a GPU\n", p.stderr, "the error")

    def header_hygiene(self):
        """A program's own lerp (cuda-samples' helper_math.h), clamp, saturate, min/max and signbit
        overloads, midpoint under `using namespace std;` ... beside <cuda_runtime.h> compile as with
        nvcc, whose default dialect is C++17; with -std=c++20 lerp clashes with libstdc++'s ::lerp,
        as it does with nvcc -std=c++20."""
        src = os.path.join(HERE, "header_hygiene", "hygiene.cu")
        compilers = [[]] + ([["-ccbin", "clang++"]] if shutil.which("clang++") else [])
        for ccbin in compilers:
            for std in ([], ["-std=c++17"]):
                prog = os.path.join(self.work, "hygiene")
                self.nv(*ccbin, *std, "-O1", src, "-o", prog)
                expect_equal(run([prog], self.work).stdout, "1 1 1 5 4 3.35 5 4 16\n",
                             f"the program's output ({' '.join(ccbin + std) or 'defaults'})")
        p = self.nv("-std=c++20", "-c", src, "-o", "hygiene20.o", expect_rc=1)
        expect_in(f"{src}:12:", p.stderr, "C++20's ::lerp against the program's")

    # -- dependency files
    def dependencies(self):
        os.makedirs(os.path.join(self.work, "src"))
        write(os.path.join(self.work, "src", "dep.h"), "#pragma once\nconstexpr int two = 2;\n")
        src = os.path.join(self.work, "src", "k.cu")
        write(src, '#include "dep.h"\n__global__ void k(int* p) { __shared__ int s[two]; s[0] = *p; }\n'
                   "void go(int* p) { k<<<1, 1>>>(p); }\n")
        # CMake's form: -MD -MT <object> -MF <depfile>.
        self.nv("-MD", "-MT", "obj/k.o", "-MF", "k.d", "-c", src, "-o", "k.o")
        deps = open(os.path.join(self.work, "k.d")).read()
        expect_in(f"obj/k.o: {src}", deps, "the rule names the target and the original source first")
        expect_in(os.path.join(self.work, "src", "dep.h"), deps, "the quoted include beside the original")
        if "cusim-nvcc-" in deps:
            raise Failure(f"the dependency file names the rewritten copy:\n{deps}")
        # -MD alone: <object>.d beside the object, the object as the target.
        os.makedirs(os.path.join(self.work, "out"))
        self.nv("-MD", "-c", src, "-o", "out/k.o")
        expect_in(f"out/k.o: {src}", open(os.path.join(self.work, "out", "k.d")).read(), "out/k.d")
        # -M: to stdout, <basename>.o as the target.
        p = self.nv("-M", src)
        expect_in(f"k.o: {src}", p.stdout, "-M on stdout")

    # -- headers: kernels, __shared__ and <<<>>> in the .cuh files a .cu includes (cuda-samples' layout)
    def header_project(self):
        """A copy of tests/driver/header_project in the work directory, and its absolute path."""
        proj = os.path.join(self.work, "header_project")
        shutil.copytree(os.path.join(HERE, "header_project"), proj)
        return proj

    def header_rewrite(self):
        proj = self.header_project()
        main = os.path.join(proj, "main.cu")
        p = self.nv("-v", "-I" + os.path.join(proj, "sub"), main, "-o", "app")
        # The header needing the rewrite, and the one including it, are compiled from rewritten copies
        # (one each, though kernels.cuh is included through three paths); tile.h, which needs nothing,
        # and the standard library are used in place.
        rewritten = sorted(re.findall(r'^#\$ cusim-rewrite "?([^" ]+)"? > ', p.stderr, re.M))
        expect_equal(rewritten, sorted([main, os.path.join(proj, "sub", "helpers.h"),
                                        os.path.join(proj, "sub", "kernels.cuh"),
                                        os.path.join(proj, "sub", "more_kernels.cuh")]), "the files rewritten")
        p = run([os.path.join(self.work, "app")], self.work)
        expect_equal(p.stdout, "ok\n", "the program's output")
        # From the project's directory with relative paths, as a Makefile would.
        run([self.nvcc, "-Isub", "-c", "main.cu", "-o", "main.o"], proj)
        # -keep keeps the rewritten copies, never over the sources.
        before = {f: open(os.path.join(proj, f)).read() for f in ("main.cu", "sub/kernels.cuh", "sub/helpers.h")}
        keep = os.path.join(self.work, "keep")
        os.makedirs(keep)
        run([self.nvcc, "-keep", "-I" + os.path.join(proj, "sub"), main, "-c", "-o", "k.o"], keep)
        for f, text in before.items():
            expect_equal(open(os.path.join(proj, f)).read(), text, f"{f} after -keep")
        run([self.nvcc, "-keep", "-Isub", "main.cu", "-c", "-o", "k.o"], proj)
        for f, text in before.items():
            expect_equal(open(os.path.join(proj, f)).read(), text, f"{f} after -keep in its directory")

    def header_error(self):
        proj = self.header_project()
        p = self.nv("-DBREAK_THE_HEADER", "-I" + os.path.join(proj, "sub"), "-c", os.path.join(proj, "main.cu"),
                    "-o", "main.o", expect_rc=1)
        header = os.path.join(proj, "sub", "kernels.cuh")
        expect_in(f"{header}:24:23: error: ", p.stderr, "the error names the header and its line")
        expect_in(f"In file included from {os.path.join(proj, 'main.cu')}:5:", p.stderr, "the include chain")
        if "cusim-nvcc-" in p.stderr:
            raise Failure(f"the diagnostic names a rewritten copy:\n{p.stderr}")
        # What the driver cannot rewrite in a header is refused like in the .cu file, naming the header.
        write(os.path.join(proj, "u.cu"), '#include <cstdio>\n#include "sub/unrewritable.cuh"\nint main() {}\n')
        p = run([self.nvcc, "-c", "u.cu"], proj, expect_rc=1)
        expect_equal(p.stderr, f"{os.path.join(proj, 'sub', 'unrewritable.cuh')}:2: cusim nvcc: cannot rewrite "
                     "the __shared__ declaration: a __shared__ variable at class scope has no rewrite (CUDA allows "
                     "none)\n", "stderr")

    def header_dependencies(self):
        proj = self.header_project()
        main = os.path.join(proj, "main.cu")
        headers = [os.path.join(proj, "sub", h) for h in ("kernels.cuh", "helpers.h", "tile.h")]
        # -MD: the dependency file lists the original headers, rewritten or not, and no copy.
        self.nv("-MD", "-I" + os.path.join(proj, "sub"), "-c", main, "-o", "main.o")
        deps = open(os.path.join(self.work, "main.d")).read()
        expect_in(f"main.o: {main}", deps, "the rule names the object and the original source")
        for h in headers:
            expect_in(h, deps, "an original header")
        if "cusim-nvcc-" in deps or "cusim-include" in deps:
            raise Failure(f"the dependency file names a rewritten copy:\n{deps}")
        # -M on stdout and -MM -MP (phony targets for the headers) too.
        p = self.nv("-M", "-I" + os.path.join(proj, "sub"), main)
        expect_in(headers[0], p.stdout, "-M")
        p = self.nv("-MM", "-MP", "-I" + os.path.join(proj, "sub"), main)
        for h in headers:
            expect_in(f"\n{h}:\n", p.stdout, "a phony target for the original header")
        if "cusim-nvcc-" in p.stdout:
            raise Failure(f"-MM names a rewritten copy:\n{p.stdout}")
        # Touching the header makes make rebuild the object (CMake and Makefiles read these files).
        if shutil.which("make"):
            write(os.path.join(self.work, "Makefile"),
                  f"main.o: {main}\n\t{self.nvcc} -MD -I{proj}/sub -c {main} -o main.o\n-include main.d\n")
            run(["make", "-s"], self.work)
            os.utime(headers[2], (2**31, 2**31))
            p = run(["make", "-n"], self.work)
            expect_in("-c " + main, p.stdout, "main.o rebuilt after tile.h changed")

    def version(self):
        p = self.nv("--version")
        lines = p.stdout.splitlines()
        expect_equal(lines[0], "nvcc: NVIDIA (R) Cuda compiler driver", "the line CMake identifies nvcc by")
        expect_in("Cuda compilation tools, release 13.0, V13.0.0", p.stdout, "--version")
        expect_in("cusim", lines[1], "the line saying whose driver it is")

    def verbose_lines(self):
        # What CMake reads from `nvcc -v`: the toolkit root, include and library directories.
        p = self.nv("-v", "__cmake_determine_cuda", expect_rc=1)
        expect_in(f"#$ TOP={self.toolkit}\n", p.stderr, "TOP")
        expect_in(f'#$ INCLUDES="-I{self.toolkit}/include"\n', p.stderr, "INCLUDES")
        expect_in(f'#$ LIBRARIES=  "-L{self.toolkit}/lib64"\n', p.stderr, "LIBRARIES")
        write(os.path.join(self.work, "a.cu"), "int main() {}\n")
        p = self.nv("--dryrun", "-arch=sm_90", "a.cu", "-o", "a.out")
        expect_in("-arch compute_90", p.stderr, "the architecture")
        link = [l for l in p.stderr.splitlines() if f'"-L{self.toolkit}/lib64"' in l and "-lcudart_static" in l]
        if not link:
            raise Failure(f"no link line with the LIBRARIES string:\n{p.stderr}")
        if os.path.exists(os.path.join(self.work, "a.out")):
            raise Failure("--dryrun built the program")

    def options_file(self):
        write(os.path.join(self.work, "a.cu"), "#ifndef FROM_FILE\n#error no\n#endif\nint main() {}\n")
        write(os.path.join(self.work, "opts.rsp"), '-DFROM_FILE=1 "-I/some dir"\n')
        self.nv("--options-file", "opts.rsp", "-c", "a.cu", "-o", "a.o")

    # -- projects
    def make_project(self):
        if not shutil.which("make"):
            print("skipped: make is not installed")
            return SKIP
        proj = os.path.join(self.work, "make_project")
        shutil.copytree(os.path.join(HERE, "make_project"), proj)
        env = env_without_cuda(self.toolkit)
        env["PATH"] = os.path.join(self.toolkit, "bin") + ":" + env["PATH"]
        env.pop("NVCC", None)
        run(["make"], proj, env=env)
        p = run(["./app"], proj, env=env)
        expect_equal(p.stdout, "ok\n", "the program's output")
        # The dependency files name the original sources: touching the header rebuilds both objects.
        os.utime(os.path.join(proj, "kernels.h"), (2**31, 2**31))
        p = run(["make"], proj, env=env)
        expect_in("-c main.cu -o main.o", p.stdout, "main.o rebuilt after its header changed")
        expect_in("-c kernels.cu -o kernels.o", p.stdout, "kernels.o rebuilt after its header changed")

    def cmake_project(self):
        build = os.path.join(self.work, "cmake_project")
        env = env_without_cuda(self.toolkit)
        env["CUDACXX"] = self.nvcc
        args = ["cmake", "-S", os.path.join(HERE, "cmake_project"), "-B", build]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        p = run(args, self.work, env=env)
        expect_in(f"toolkit: CUDAToolkit_BIN_DIR={self.toolkit}/bin\n", p.stdout, "find_package(CUDAToolkit)")
        expect_in(f"toolkit: CUDAToolkit_INCLUDE_DIRS={self.toolkit}/include\n", p.stdout, "the include directory")
        expect_in("toolkit: compiler=NVIDIA 13.0.0\n", p.stdout, "the compiler identification")
        cache = open(os.path.join(build, "CMakeCache.txt")).read()
        expect_in(f"CUDA_cudart_LIBRARY:FILEPATH={self.toolkit}/lib64/libcudart.so", cache, "CUDA::cudart")
        run(["cmake", "--build", build], self.work, env=env)
        p = run([os.path.join(build, "app")], self.work, env=env)
        expect_equal(p.stdout, "ok\n", "the program's output")

    def no_nvidia_toolkit(self):
        """The CMake project and a Makefile project on a machine with no NVIDIA toolkit at all: every
        /usr/local/cuda* directory and nvcc wrapper is hidden in a private mount namespace."""
        hidden = sorted(d for d in [os.path.realpath(p) for p in
                                    ["/usr/local/cuda", *[os.path.join("/usr/local", n) for n in os.listdir("/usr/local")
                                                          if n.startswith("cuda")]]] if os.path.isdir(d))
        wrappers = [w for w in ("/usr/local/bin/nvcc", "/usr/bin/nvcc") if os.path.isfile(w)]
        if not hidden and not wrappers:
            print("no NVIDIA toolkit installed: the other cases already run without one")
        empty = os.path.join(self.work, "empty")
        os.makedirs(empty, exist_ok=True)
        empty_file = os.path.join(self.work, "empty-file")
        write(empty_file, "")
        mounts = "; ".join([f"mount --bind {empty} {d}" for d in set(hidden)] +
                           [f"mount --bind {empty_file} {w}" for w in wrappers])
        probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", mounts or "true"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if probe.returncode != 0:
            print(f"cannot hide the NVIDIA toolkit here (unshare -m needs root): {probe.stdout.strip()}")
            return SKIP
        build = os.path.join(self.work, "cmake_project")
        proj = os.path.join(self.work, "make_project")
        shutil.rmtree(proj, ignore_errors=True)
        shutil.copytree(os.path.join(HERE, "make_project"), proj)
        gen = "-G Ninja" if shutil.which("ninja") else ""
        script = (f"set -e; {mounts}; "
                  f"if command -v nvcc >/dev/null && ! test nvcc -ef {self.nvcc}; then nvcc --version; fi; "
                  f"ls /usr/local/cuda 2>/dev/null | wc -l; "
                  f"CUDACXX={self.nvcc} cmake -S {os.path.join(HERE, 'cmake_project')} -B {build} {gen} >/dev/null; "
                  f"cmake --build {build} >/dev/null; {os.path.join(build, 'app')}; "
                  f"cd {proj}; PATH={os.path.dirname(self.nvcc)}:$PATH make -s >/dev/null; ./app")
        env = env_without_cuda(self.toolkit)
        p = run(["unshare", "-m", "--propagation", "private", "sh", "-c", script], self.work, env=env)
        expect_equal(p.stdout, "0\nok\nok\n", "both projects' output with /usr/local/cuda hidden")

    def c_program(self):
        env = env_without_cuda(self.toolkit)
        cc = os.environ.get("CC", "gcc")
        prog = os.path.join(self.work, "cprog")
        p = run([cc, os.path.join(HERE, "c_program", "main.c"), "-I" + os.path.join(self.toolkit, "include"),
                 "-L" + os.path.join(self.toolkit, "lib64"), "-lcudart", "-o", prog], self.work, env=env,
                expect_rc=None)
        if p.returncode != 0:
            if re.search(r"undefined reference to `cuda\w+'", p.stderr):
                print("skipped: the simulator exports no C-linkage CUDA runtime functions yet\n" + p.stderr)
                return SKIP
            raise Failure(f"the C program did not build:\n{p.stderr}")
        p = run([prog], self.work, env=env)
        expect_in("device(s), cudaSuccess", p.stdout, "the C program's output")

    def host_assert(self):
        """A host .cpp built by the host compiler against the toolkit's headers, with asserts on (no
        NDEBUG, CMake's default build type), keeps the C library's assert in either header order."""
        cxx = os.environ.get("CXX", "g++")
        include = "-I" + os.path.join(self.toolkit, "include")
        for order in (["cuda_runtime.h", "assert.h"], ["assert.h", "cuda_runtime.h"]):
            src = os.path.join(self.work, "host_assert.cpp")
            write(src, "".join(f"#include <{h}>\n" for h in order) +
                  "#include <cstdio>\n"
                  "int main(int argc, char**) {\n"
                  "  assert(argc == 1);\n"
                  "  std::puts(\"ok\");\n"
                  "}\n")
            prog = os.path.join(self.work, "host_assert")
            run([cxx, "-std=c++17", include, src, "-o", prog], self.work)
            p = run([prog], self.work)
            expect_equal(p.stdout, "ok\n", f"the program's output ({' then '.join(order)})")
            p = run([prog, "extra"], self.work, expect_rc=None)
            if p.returncode == 0 or "argc == 1" not in p.stderr:
                raise Failure(f"a false assert ({' then '.join(order)}) did not fail as the C library's: "
                              f"exit {p.returncode}, stderr {p.stderr!r}")

    def thrust_headers(self):
        """<thrust/...> is the toolkit layout's thrust/ (cmake/cusim_cccl.cmake), never a copy on the
        system path (Debian's /usr/include/thrust, NVIDIA's CCCL), with cusim's configuration: the CPP
        device system, device_vector's memory from cudaMalloc."""
        if not os.path.isdir(os.path.join(self.toolkit, "include", "thrust")):
            print("skipped: the toolkit layout has no thrust/ (Debian's libthrust-dev is not installed)")
            return SKIP
        write(os.path.join(self.work, "t.cu"),
              "#include <thrust/device_vector.h>\n#include <thrust/sort.h>\n"
              "#include <thrust/execution_policy.h>\n#include <type_traits>\n"
              "static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CPP);\n"
              "static_assert(std::is_same_v<thrust::device_memory_resource,\n"
              "              thrust::system::cpp::detail::cusim_cuda_resource<\n"
              "                  thrust::system::cpp::detail::cusim_malloc, cudaFree, thrust::cpp::pointer<void>>>);\n"
              "int main() { thrust::device_vector<int> v(4, 1); return thrust::reduce(thrust::cuda::par, v.begin(), v.end()) - 4; }\n")
        p = self.nv("-M", "t.cu")
        deps = [d for d in p.stdout.replace("\\\n", " ").split()[1:]]
        inc = os.path.join(os.path.abspath(self.toolkit), "include") + os.sep
        for h in ("thrust/device_vector.h", "thrust/sort.h", "thrust/detail/config/device_system.h",
                  "thrust/system/cpp/memory_resource.h"):
            expect_in(inc + h, deps, "the dependencies")
        stray = [d for d in deps if "thrust/" in d and not os.path.abspath(d).startswith(inc)]
        if stray:
            raise Failure(f"thrust headers from outside the toolkit layout: {stray[:5]}")
        self.nv("-O1", "t.cu", "-o", "t")
        run([os.path.join(self.work, "t")], self.work)

    def curand_headers(self):
        """<curand.h> and <curand_kernel.h> are the toolkit layout's, never a copy on the system path
        (/usr/local/include/curand.h, an NVIDIA toolkit's), and -lcurand links cuRAND's host API:
        a device generator and a kernel's curand_init draw the H100's first XORWOW values."""
        write(os.path.join(self.work, "r.cu"),
              "#include <curand.h>\n#include <curand_kernel.h>\n#include <cstdio>\n"
              "__global__ void k(unsigned* o) { curandState s; curand_init(1234, 1, 0, &s); o[0] = curand(&s); }\n"
              "int main() {\n"
              "  unsigned* d; cudaMalloc(&d, 2 * sizeof(unsigned));\n"
              "  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);\n"
              "  curandSetPseudoRandomGeneratorSeed(g, 1234); curandGenerate(g, d, 1);\n"
              "  k<<<1, 1>>>(d + 1); unsigned h[2]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
              "  std::printf(\"%u %u %d\\n\", h[0], h[1], (int)curandDestroyGenerator(g));\n"
              "}\n")
        p = self.nv("-M", "r.cu")
        deps = [d for d in p.stdout.replace("\\\n", " ").split()[1:]]
        inc = os.path.join(os.path.abspath(self.toolkit), "include") + os.sep
        for h in ("curand.h", "curand_kernel.h"):
            expect_in(inc + h, deps, "the dependencies")
        # The layout's headers are links into this repository's include/.
        ours = os.path.realpath(os.path.join(HERE, "..", "..", "include")) + os.sep
        stray = [d for d in deps if os.path.basename(d).startswith("curand") and not os.path.realpath(d).startswith(ours)]
        if stray:
            raise Failure(f"cuRAND headers from outside the toolkit layout: {stray[:5]}")
        self.nv("-O1", "r.cu", "-lcurand", "-o", "r")
        p = run([os.path.join(self.work, "r")], self.work, env=env_without_cuda(self.toolkit))
        expect_equal(p.stdout, "624778773 3522650202 0\n", "the program's output")

    def shared_runtime(self):
        """-cudart shared: the simulator as a shared library, TLS reads from the program included."""
        prog = os.path.join(self.work, "shared_app")
        src = os.path.join(HERE, "make_project")
        self.nv("-cudart", "shared", "-I" + src, os.path.join(src, "main.cu"), os.path.join(src, "kernels.cu"),
                "-o", prog)
        p = run(["ldd", prog], self.work)
        expect_in(os.path.join(self.toolkit, "lib64", "libcusim_cudart.so"), p.stdout, "the shared simulator")
        p = run([prog], self.work, env=env_without_cuda(self.toolkit))
        expect_equal(p.stdout, "ok\n", "the program's output")

    # -- __shared__ where real programs declare it
    def namespace_shared(self):
        """Namespace-scope __shared__ variables (dct8x8's kernels share `__shared__ float
        CurBlockLocal1[64]` declared at file scope) are one per block, the same object in every
        function of the block, in optimised builds (phases) and with -O0 -g; __shared__ declarations
        in macro bodies (cudasharedmem.h's `extern __shared__ t n[]`, a fixed-size one) work; an
        overrun of a namespace-scope array is a bounds fault naming shared memory and the line."""
        src = os.path.join(HERE, "namespace_shared", "main.cu")
        for flags in (["-O2"], ["-O0", "-g"]):
            prog = os.path.join(self.work, "ns" + flags[0])
            self.nv(*flags, src, "-o", prog)
            p = run([prog], self.work)
            expect_equal(p.stdout, "ok 0\n", f"the program's output ({' '.join(flags)})")
            p = run([prog, "overrun"], self.work)
            expect_equal(p.stdout, "ok 0\ncudaErrorIllegalAddress\n", f"the overrun's error ({' '.join(flags)})")
            expect_in("ctaid=[0, 0, 0]: index 64 is out of bounds for axis 0 with size 64 (shared array, main.cu:55)",
                      p.stderr, "the bounds fault")

    # -- what device code sees and does as on a GPU
    def device_semantics(self):
        """__CUDA_ARCH__ in device code only, with the value of the architecture an sm_80 runs;
        integer casts and shifts of device code with the GPU's values, reported; host code as it was; a
        __host__ __device__ function takes its device path in a kernel and its host path on the host."""
        write(os.path.join(self.work, "arch.cu"),
              "#include <cstdio>\n"
              "#ifndef __CUDA_ARCH__\n#include <cstring>\n#endif\n"
              "#if __CUDA_ARCH__ >= 700\n__device__ int arch() { return __CUDA_ARCH__; }\n"
              "#else\n__device__ int arch() { return -1; }\n#endif\n"
              "__host__ __device__ int where() {\n#ifdef __CUDA_ARCH__\n  return 1;\n#else\n  return 0;\n#endif\n}\n"
              "int host_view() {\n#if defined(__CUDA_ARCH__)\n  return 1;\n#else\n  return 0;\n#endif\n}\n"
              "__global__ void k(int* out, float f, int s) {\n"
              "  out[0] = arch();\n  out[1] = where();\n  out[2] = (int)f;\n  out[3] = 1u << s;\n"
              "#if __CUDA_ARCH__ >= 800\n  out[4] = 80;\n#else\n  out[4] = 70;\n#endif\n}\n"
              "int main() {\n  int* d;\n  cudaMallocManaged(&d, 5 * sizeof(int));\n"
              "  k<<<1, 1>>>(d, 3e9f, 32);\n  cudaDeviceSynchronize();\n"
              "  std::printf(\"%d %d %d %d %d %d %d %u\\n\", d[0], d[1], d[2], d[3], d[4], host_view(), where(),\n"
              "              (unsigned)(int)std::strlen(\"ab\") << 1);\n}\n")
        # sm_70 and sm_90 listed: an sm_80 runs the sm_70 code.
        self.nv("-O2", "-arch=sm_70", "-gencode", "arch=compute_90,code=sm_90", "arch.cu", "-o", "arch")
        p = run([os.path.join(self.work, "arch")], self.work)
        expect_equal(p.stdout, "700 1 2147483647 0 70 0 0 4\n", "the program's output")
        expect_in("to int is undefined behaviour in C++", p.stderr, "the cast's report")
        expect_in("GPU's value 2147483647 (arch.cu:27)", p.stderr, "the cast's report names its line")
        expect_in("left shift of a 32-bit value by 32", p.stderr, "the shift's report")
        expect_in("(arch.cu:28)", p.stderr, "the shift's report names its line")
        # Without -arch: nvcc 13's sm_75.
        self.nv("-O2", "arch.cu", "-o", "arch75")
        p = run([os.path.join(self.work, "arch75")], self.work)
        expect_equal(p.stdout.split()[:1] + p.stdout.split()[4:5], ["750", "70"], "the default architecture")

    def fused_multiply_add(self):
        """a * b + c in device code rounds once, as nvcc's default --fmad=true makes the GPU do;
        -fmad=false rounds the product first."""
        write(os.path.join(self.work, "fma.cu"),
              "#include <cstdio>\n"
              "__global__ void k(float* out, float a, float b, float c) { out[0] = a * b + c; }\n"
              "int main() {\n  float* d;\n  cudaMallocManaged(&d, sizeof(float));\n"
              "  const float a = 1.0f + 1.0f / 4096;  // a * a = 1 + 2^-11 + 2^-24: the 2^-24 rounds away\n"
              "  k<<<1, 1>>>(d, a, a, -(1.0f + 1.0f / 2048));\n  cudaDeviceSynchronize();\n"
              "  std::printf(\"%a\\n\", d[0]);\n}\n")
        fused = "0x1p-24\n"
        if not any(f.startswith("-ffp-contract") for f in self.fma_flags()):
            print("no fused multiply-add on this CPU: skipped")
            sys.exit(77)
        self.nv("-O2", "fma.cu", "-o", "fma")
        expect_equal(run([os.path.join(self.work, "fma")], self.work).stdout, fused, "a * b + c, fused")
        # -O1 (CMake's MinSizeRel) too: g++ fuses there only when told to.
        self.nv("-O1", "fma.cu", "-o", "fma1")
        expect_equal(run([os.path.join(self.work, "fma1")], self.work).stdout, fused, "a * b + c at -O1, fused")
        self.nv("-O2", "-fmad=false", "fma.cu", "-o", "fma_separate")
        expect_equal(run([os.path.join(self.work, "fma_separate")], self.work).stdout, "0x0p+0\n",
                     "a * b + c with -fmad=false, the product rounded first")

    def fma_flags(self):
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "nvcc"))
        import driver
        return driver.fma_flags()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--toolkit", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case")
    a = ap.parse_args()
    cases = Cases(a.toolkit, a.work)
    fn = getattr(cases, a.case.replace("-", "_"), None)
    if fn is None:
        print(f"no case '{a.case}'", file=sys.stderr)
        return 2
    try:
        rc = fn()
    except Failure as e:
        print(f"FAILED {a.case}: {e}", file=sys.stderr)
        return 1
    if rc == SKIP:
        return SKIP
    print(f"passed: {a.case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
