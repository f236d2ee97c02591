# SPDX-License-Identifier: MIT
"""The driver's precompiled prelude (tools/nvcc/pch.py) changes nothing but the time: each compile
below runs without it (CUSIM_NVCC_PCH=0) and with it, in a private cache, and must give the same
object file byte for byte (-g and -lineinfo), a dependency file naming the same files (-MD, -MMD
-MP), the same
exit status and the same diagnostics (an error in the user's code, one inside the toolkit's headers
with their include chain). It checks that the header was made on the set's third use and that
GCC took it (-Winvalid-pch says when it does not), that a user directory with a file named as a
prelude header turns it off (the compile then finds the user's file, as without it), and that a
prelude header that changed is not used stale.

    python3 tests/driver/pch_test.py --toolkit B/cuda --work DIR

Exit 0: passed; 77: skipped (no g++); anything else: failed.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

SKIP = 77

KERNEL = r"""#include <cstdio>
#include <vector>
__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i] + 1.0f;
}
int main() {
  std::vector<float> h(64, 1.0f);
  float* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaMemcpy(d, h.data(), 64 * sizeof(float), cudaMemcpyHostToDevice);
  scale<<<2, 32>>>(d, 64);
  cudaMemcpy(h.data(), d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%g\n", h[63]);
  return cudaFree(d);
}
"""

# An error in the user's code, and one whose notes lie in the toolkit's headers (no atomicAdd for a
# struct: the candidates and their include chain).
ERRORS = r"""struct pair { int a, b; };
__global__ void bad(pair* p) {
  atomicAdd(p, pair{1, 2});
  undeclared_name = 3;
}
"""


class Failure(Exception):
    pass


def dependencies(text):
    """A dependency file's targets, the set of files it names (GCC names a header twice where it
    reaches it by two names, and once in the compile with the header), and its phony rules' set."""
    if text is None:
        return None
    text = text.replace(b"\\\n", b" ")
    lines = [l for l in text.split(b"\n") if l.strip()]
    head, _, deps = lines[0].partition(b": ")
    names = deps.split()
    return head, names[0], sorted(set(names)), sorted(set(lines[1:]))


class Test:
    def __init__(self, toolkit, work):
        self.toolkit = os.path.abspath(toolkit)
        self.work = os.path.abspath(work)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.cache = os.path.join(self.work, "cache")

    def nvcc(self, args, pch, toolkit=None, cwd=None):
        env = dict(os.environ)
        env["CUSIM_NVCC_PCH"] = "1" if pch else "0"
        env["CUSIM_NVCC_PCH_DIR"] = self.cache
        nvcc = os.path.join(toolkit or self.toolkit, "bin", "nvcc")
        return subprocess.run([nvcc, "-v"] + args, cwd=cwd or self.work, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)

    def compile(self, name, flags, pch, source, toolkit=None):
        """(exit status, diagnostics, object bytes, dependency file bytes, whether the stub was used)."""
        d = os.path.join(self.work, name)
        os.makedirs(d, exist_ok=True)
        obj, dep = os.path.join(d, "out.o"), os.path.join(d, "out.d")
        for p in (obj, dep):
            if os.path.exists(p):
                os.remove(p)
        # --keep at a fixed place: the rewritten copy's name is in the object's debug information.
        p = self.nvcc(flags + ["-Xcompiler", "-Winvalid-pch", "--keep", "--keep-dir", os.path.join(d, "keep"),
                               "-MT", "out.o", "-MF", dep, "-c", source, "-o", obj], pch, toolkit)
        lines = p.stderr.splitlines()
        used = any("cusim-nvcc-prelude.h" in l for l in lines if l.startswith("#$ "))
        said = "\n".join(l for l in lines if not l.startswith("#$ "))
        read = lambda path: open(path, "rb").read() if os.path.exists(path) else None
        return p.returncode, said, read(obj), dependencies(read(dep)), used

    def same(self, what, flags, source, uses=4, expect_used=True):
        plain = self.compile(what, flags, False, source)
        for n in range(1, uses + 1):
            got = self.compile(what, flags, True, source)
            for i, part in enumerate(("exit status", "diagnostics", "object file", "dependency file")):
                if got[i] != plain[i]:
                    raise Failure(f"{what}, use {n}: the {part} differs with the precompiled header:\n"
                                  f"without: {plain[i]!r:.3000}\nwith:    {got[i]!r:.3000}")
            if expect_used and n >= 3 and not got[4]:
                raise Failure(f"{what}, use {n}: the precompiled header was not used (made on the third use)")
            if not expect_used and got[4]:
                raise Failure(f"{what}, use {n}: the precompiled header was used where it must not be")
        return plain

    def run(self):
        gxx = shutil.which("g++")
        if gxx is None:
            print("skipped: no g++")
            return SKIP
        src = os.path.join(self.work, "kernel.cu")
        with open(src, "w") as f:
            f.write(KERNEL)
        errors = os.path.join(self.work, "errors.cu")
        with open(errors, "w") as f:
            f.write(ERRORS)

        self.same("debug", ["-g", "-G", "-MD"], src)
        self.same("lineinfo", ["-O3", "-lineinfo", "-MMD", "-MP"], src)
        made = [json.load(open(m)) for m in glob.glob(os.path.join(self.cache, "*", "meta.json"))]
        if len(made) != 2 or any("bad" in m for m in made):
            raise Failure(f"expected two headers made, one per set of flags: {made!r:.2000}")
        rc, said, _, _, _ = self.same("errors", ["-O3", "-lineinfo", "-MD"], errors)
        for needle in ("undeclared_name", "atomicAdd", "In file included from"):
            if rc == 0 or needle not in said:
                raise Failure(f"errors.cu: expected a failed compile naming {needle!r}:\n{said}")

        # A user directory holding a file named as a prelude header: the compile finds it, as it
        # does without the precompiled header, which is not used.
        shadow = os.path.join(self.work, "shadow")
        name = "cusim/backend/sim/vector_types.hpp"  # cuda_runtime.h's #include <...> of it
        if not all(name in m["names"] for m in made):
            raise Failure(f"{name} is not among the prelude's headers: choose another")
        os.makedirs(os.path.join(shadow, os.path.dirname(name)), exist_ok=True)
        with open(os.path.join(shadow, name), "w") as f:
            f.write("#error the user's vector_types.hpp\n")
        rc, said, _, _, _ = self.same("shadow", ["-O3", "-lineinfo", "-MD", "-I" + shadow], src, uses=2,
                                      expect_used=False)
        if rc == 0 or "the user's vector_types.hpp" not in said:
            raise Failure(f"-I{shadow}: expected the user's {name} to be found:\n{said}")

        # A prelude header that changes: the header made before it is not used.
        kit = os.path.join(self.work, "toolkit")
        os.makedirs(kit)
        for part in ("bin", "share", "include"):
            shutil.copytree(os.path.join(self.toolkit, part), os.path.join(kit, part), symlinks=True)
        runtime = os.path.join(kit, "include", "cuda_runtime.h")
        text = open(runtime).read()
        os.remove(runtime)
        with open(runtime, "w") as f:
            f.write(text)
        for n in range(3):
            used = self.compile("stale", ["-O2", "-MD"], True, src, kit)[4]
        if not used:
            raise Failure("the copied toolkit's precompiled header was not made and used")
        with open(runtime, "a") as f:
            f.write("#define CUSIM_PCH_TEST_CHANGED 1\n")
        rc, said, _, dep, used = self.compile("stale", ["-O2", "-MD"], True, src, kit)
        if used or rc != 0:
            raise Failure(f"after cuda_runtime.h changed, the old precompiled header was used (or the compile "
                          f"failed: {rc}):\n{said}")
        print("passed: the precompiled prelude gives the same objects, dependency files and diagnostics")
        return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--toolkit", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    try:
        return Test(a.toolkit, a.work).run()
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
