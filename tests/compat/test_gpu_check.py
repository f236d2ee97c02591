#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tools/gpu_check without a GPU: its dry run lists every step and every file of the report, in
the layout of ../shared/gpu-truth, and creates nothing; --help and --only; shellcheck is clean
(when installed).

    python3 tests/compat/test_gpu_check.py
"""
import pathlib
import shutil
import subprocess
import tempfile
import unittest

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
SCRIPT = REPO / "tools" / "gpu_check"
TRUTH = REPO.parent / "shared" / "gpu-truth"
SAMPLES = REPO.parent / "shared" / "compat" / "cuda-samples"
CORPUS = sorted(p.stem for p in (REPO / "tests" / "corpus" / "unmodified").glob("*.cu"))


def dry_run(*args):
    p = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--gpu", "h100", *args], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=120)
    return p.returncode, p.stdout


class DryRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = pathlib.Path(cls.tmp.name)
        # A samples tree of three programs and a truth directory of our own: the test does not
        # depend on ../shared.
        cls.samples = root / "cuda-samples"
        cls.names = ["vectorAdd", "MC_EstimatePiP", "deviceQuery"]
        for category, name in zip(["0_Introduction", "2_Concepts", "1_Utilities"], cls.names):
            (cls.samples / "Samples" / category / name).mkdir(parents=True)
            (cls.samples / "Samples" / category / name / "CMakeLists.txt").write_text("project(x)\n")
        (cls.samples / "Samples" / "0_Introduction" / "no_cmake").mkdir()
        cls.truth = root / "truth"
        cls.truth.mkdir()
        cls.out = root / "report"
        cls.rc, cls.text = dry_run("--samples", str(cls.samples), "--truth", str(cls.truth), "--work",
                                   str(root / "work"), str(cls.out))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_it_succeeds_and_creates_nothing(self):
        self.assertEqual(self.rc, 0, self.text)
        self.assertFalse(self.out.exists())
        self.assertFalse((self.out.parent / "work").exists())

    def test_every_step_is_listed(self):
        steps = [line[3:] for line in self.text.splitlines() if line.startswith("== ")]
        self.assertEqual(steps, ["build-cuda", "ctest-cuda", "build-cuda-checked", "ctest-cuda-checked",
                                 "zero-overhead", "samples-copy", "samples-build",
                                 "sample:vectorAdd", "sample:deviceQuery", "sample:MC_EstimatePiP",
                                 "semantics", "libraries", "sanitizer"])

    def test_both_cuda_builds_use_the_real_nvcc_and_one_has_the_checks(self):
        configures = [line for line in self.text.splitlines() if "cmake -S" in line and "CUSIM_BACKEND=cuda" in line]
        self.assertEqual(len(configures), 2)
        self.assertTrue(all("-DCMAKE_CUDA_ARCHITECTURES=" in c and "-DCMAKE_CUDA_COMPILER=" in c for c in configures))
        self.assertEqual(sum("-DCUSIM_CHECKS=ON" in c for c in configures), 1)

    def test_every_file_of_the_report_is_written(self):
        out = str(self.out)
        wanted = ["backend-ctest.h100.txt", "backend-checked-ctest.h100.txt", "zero-overhead.h100.txt",
                  "semantics.h100.txt", "libraries.h100.txt", "README.md"]
        wanted += [f"samples/{name}.h100.txt" for name in self.names]
        wanted += [f"sanitizer/{name}.{tool}.txt" for name in CORPUS for tool in ("plain", "memcheck")]
        for name in wanted:
            with self.subTest(file=name):
                self.assertIn(f"{out}/{name}", self.text)

    def test_each_sample_is_built_with_its_own_cmakelists_and_run_from_its_directory(self):
        for name in self.names:
            with self.subTest(sample=name):
                self.assertRegex(self.text, rf"cmake -S \S+/Samples/\w+/{name} -B \S+/{name}/build .*-DCMAKE_CUDA_COMPILER=")
                self.assertRegex(self.text, rf"in_dir \S+/Samples/\w+/{name} timeout \d+ build/{name} +> ")

    def test_only_runs_the_steps_named(self):
        rc, text = dry_run("--samples", str(self.samples), "--only", "semantics,zero-overhead", str(self.out))
        self.assertEqual(rc, 0, text)
        self.assertEqual([line[3:] for line in text.splitlines() if line.startswith("== ")],
                         ["zero-overhead", "semantics"])

    def test_help_and_a_wrong_option(self):
        p = subprocess.run(["bash", str(SCRIPT), "--help"], stdout=subprocess.PIPE, text=True, timeout=60)
        self.assertEqual(p.returncode, 0)
        for option in ["--dry-run", "--gpu", "--arch", "--jobs", "--work", "--samples", "--truth", "--only", "--timeout"]:
            self.assertIn(option, p.stdout)
        p = subprocess.run(["bash", str(SCRIPT), "--frobnicate", "x"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--frobnicate", p.stdout)

    def test_a_failing_step_is_recorded_and_the_next_one_runs(self):
        # No semantics.cu nor libraries.cu in an empty truth directory, no build for the
        # zero-overhead tool: three real steps that fail, here, without a GPU.
        with tempfile.TemporaryDirectory() as tmp:
            out = pathlib.Path(tmp) / "report"
            p = subprocess.run(["bash", str(SCRIPT), "--gpu", "h100", "--truth", str(self.truth), "--work",
                                str(pathlib.Path(tmp) / "work"), "--only", "zero-overhead,semantics,libraries",
                                str(out)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stdout)
            steps = (out / "steps.txt").read_text().splitlines()
            self.assertEqual([line.split()[:2] for line in steps],
                             [["zero-overhead", "FAILED"], ["semantics", "FAILED"], ["libraries", "FAILED"]])
            readme = (out / "README.md").read_text()
            self.assertIn("| semantics | FAILED(1) |", readme)
            self.assertIn("commit", readme)
            self.assertIn("no ", (out / "semantics.h100.txt").read_text())

    @unittest.skipUnless(TRUTH.is_dir() and SAMPLES.is_dir(), "no ../shared/gpu-truth or ../shared/compat")
    def test_the_report_has_every_file_gpu_truth_has(self):
        rc, text = dry_run(str(self.out))
        self.assertEqual(rc, 0, text)
        for path in sorted(TRUTH.rglob("*.h100.*")):
            relative = str(path.relative_to(TRUTH))
            if relative.startswith("teaching/"):
                continue  # Nsight Compute's counters: not one of gpu_check's steps (docs/compat.md)
            with self.subTest(file=relative):
                if relative.startswith("samples/"):
                    # samples/ names a program by its directory, which may carry a prefix the
                    # recorder dropped (MC_EstimatePiP recorded as EstimatePiP).
                    stem = relative[len("samples/"):-len(".h100.txt")]
                    self.assertRegex(text, rf"/samples/(\w+_)?{stem}\.h100\.txt")
                else:
                    self.assertIn(f"{self.out}/{relative}", text)

    @unittest.skipUnless(shutil.which("shellcheck"), "no shellcheck")
    def test_shellcheck(self):
        p = subprocess.run(["shellcheck", str(SCRIPT)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout)


if __name__ == "__main__":
    unittest.main()
