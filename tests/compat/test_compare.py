#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unit tests of the compat suite's output checks (tests/compat/compare.py and run_compat.py's
reference lookup): failure verdicts and their false positives, the lines that are not result
lines, the lines a kernel prints, and the comparison with a GPU's output.

    python3 tests/compat/test_compare.py
"""
import pathlib
import re
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import compare  # noqa: E402
import run_compat  # noqa: E402

TRUTH = HERE.parent.parent.parent / "shared" / "gpu-truth" / "samples"


class Verdicts(unittest.TestCase):
    def test_failure_verdicts_of_the_samples(self):
        for line in ["Warp Aggregated Atomics FAILED ", "CPU i=0  max = 2147483578 mismatches GPU max = 0",
                     "Test failed!", "Invalid item 3", "Checking computed result for correctness: Result = FAIL",
                     "Compare MISMATCH", " ***64-bin histograms do not match!!!***", " ...Results DON'T Match !!!",
                     "[simpleTemplates] -> Test Results: 1 Failures", "Failure", "atomicAdd failed",
                     "Validation FAILURE!", "simpleAtomicIntrinsics completed, returned ERROR!",
                     "Test Failed!", "&&&& fp16ScalarProduct FAILED", "\tTEST FAILURE", "7 values FAILED",
                     "CUDA error at reduction.cpp:42 code=700(cudaErrorIllegalAddress)"]:
            with self.subTest(line=line):
                self.assertEqual(compare.verdict(["a first line", line, "a last line"]), line.strip())

    def test_lines_that_look_like_a_verdict_and_are_not(self):
        for line in ["0 mismatches", "no mismatch found", "Test passed", "Test PASSED",
                     "[simpleTemplates] -> Test Results: 0 Failures", "CPU max matches GPU max",
                     "Device assert failed as expected, CUDA error message is: device-side assert triggered",
                     "Launch kernel to generate assertion failures", "...stability property: NOT stable",
                     "Max absolute error: 1.192093E-05", "L1-Error: 0", "CPU error : 4.988e-03",
                     "Validation PASSED!", "&&&& jacobiCudaGraphs PASSED", " ...64-bin histograms match"]:
            with self.subTest(line=line):
                self.assertIsNone(compare.verdict([line]))

    def test_a_line_the_gpu_printed_too_is_no_verdict(self):
        line = "simpleAssert.cu:64: void testKernel(int): block: [1,0,0], thread: [28,0,0] Assertion `gtid < N` failed."
        self.assertEqual(compare.verdict([line]), line)
        self.assertIsNone(compare.verdict([line], reference=[line]))

    def test_a_kernel_assert_is_expected_only_where_the_gpu_had_one(self):
        ours = "tid=[28, 0, 0] ctaid=[1, 0, 0]: device-side assertion `gtid < N` failed in testKernel (simpleAssert.cu:64)"
        gpus = "simpleAssert.cu:64: void testKernel(int): block: [1,0,0], thread: [28,0,0] Assertion `gtid < N` failed."
        self.assertIsNone(compare.verdict([ours], reference=[gpus]))
        self.assertEqual(compare.verdict([ours], reference=["Test passed"]), ours)

    @unittest.skipUnless(TRUTH.is_dir(), "no ../shared/gpu-truth/samples")
    def test_no_passing_gpu_output_reads_as_a_failure_but_its_own_expected_asserts(self):
        for path in sorted(TRUTH.glob("*.h100.txt")):
            with self.subTest(program=path.name):
                lines = path.read_text(errors="replace").splitlines()
                self.assertIsNone(compare.verdict(lines, reference=lines))
                said = compare.verdict(lines)
                self.assertTrue(said is None or compare.DEVICE_ASSERTION.search(said), said)


class ResultLines(unittest.TestCase):
    def test_timings_are_not_result_lines(self):
        for line in ["BlackScholesGPU() time    : 0.030611 msec", "Effective memory bandwidth: 2613.411544 GB/s",
                     "Gigaoptions per second    : 261.341154", "Gsamples/s: 15.1057",
                     "elapsed time of kernels launched to LOW priority stream: 0.508 ms",
                     "Kernel 4KB parameter limit - time (us):93.5865", "Measured time for sample = 0.060s",
                     "2048.00 Mtexlookups/sec", "Average clocks/block = 1970.234375",
                     "Sorted 1000000 elems in 11.405 ms (87.677 Melems/sec)",
                     "Performance= 4943.24 GFlop/s, Time= 0.027 msec, Size= 131072000 Ops"]:
            with self.subTest(line=line):
                self.assertEqual(compare.not_result_line(compare.mask(line)), "timing")

    def test_device_model_and_host_lines_are_not_result_lines(self):
        for line, kind in [('GPU Device 0: "Hopper" with compute capability 9.0', "device model"),
                           ("[NVIDIA H100 80GB HBM3] has 132 MP(s) x 128 (Cores/MP) = 16896 (Cores)", "device model"),
                           ("> Detected Compute SM 9.0 hardware with 132 multi-processors", "device model"),
                           ('Device 0: "cusim simulated NVIDIA H100 80GB HBM3 (sm_90)"', "device model"),
                           ("Running qsort on 1000000 elements with seed 0, on NVIDIA H100 80GB HBM3", "device model"),
                           ("OS_System_Type.release = 6.18.44-fc-v657-gpu", "host machine"),
                           ("number of host CPUs:\t16", "host machine"), ("   ", "layout")]:
            with self.subTest(line=line):
                self.assertEqual(compare.not_result_line(compare.mask(line)), kind)

    def test_results_are_result_lines(self):
        for line in ["GPU result = 2139353471", "Result native operators\t: 662339.000000",
                     "L1 norm: 1.741792E-07", "Test passed", "CheckSum: 2073600, (expect 1920x1080=2073600)",
                     "Array size = 102400 Num of Odds = 50945 Sum of Odds = 1272565 Sum of Evens 1233938",
                     "[0, 1]:\t\tValue is:10", "rc=0", "16777216 elements", "64 blocks"]:
            with self.subTest(line=line):
                self.assertIsNone(compare.not_result_line(compare.mask(line)))

    def test_the_programs_path_and_the_device_name_are_masked(self):
        self.assertEqual(compare.mask("[/tmp/w/BlackScholes/BlackScholes] - Starting...", "/tmp/w/BlackScholes/BlackScholes"),
                         "[build/BlackScholes] - Starting...")
        self.assertEqual(compare.mask("GPU[0] cusim simulated NVIDIA H100 80GB HBM3 (sm_90) supports SM 9.0"),
                         compare.mask("GPU[0] NVIDIA H100 80GB HBM3 supports SM 9.0"))


SOURCE = r'''
#include <cstdio>
__device__ int helper(int);            // a declaration: no body
__global__ void kernel(int *p) {
  if (threadIdx.x == 0) { printf("block %d says %s\n", blockIdx.x, "hi"); }
  printf("[%d, %d]:\t\tValue is:%d\n"
         "", threadIdx.x, blockIdx.x, *p);
}
static void host() { printf("Host line %d\n", 3); }   // not a kernel's
__host__ __device__ inline void both() { printf("from both %f\n", 1.0); }
/* printf("commented out %d\n") */
int main() { printf("main %d\n", 1); }
'''


class DeviceLines(unittest.TestCase):
    def test_the_printf_formats_of_device_functions_only(self):
        self.assertEqual(compare.device_formats(SOURCE),
                         ["block %d says %s\n", "[%d, %d]:\t\tValue is:%d\n", "from both %f\n"])

    def test_a_format_matches_what_it_prints(self):
        patterns = [p for f in compare.device_formats(SOURCE) for p in compare.format_patterns(f)]
        for line in ["block 3 says hi", "[0, 7]:\t\tValue is:10", "|  [0, 7]:\t\tValue is:-2", "from both 1.000000"]:
            with self.subTest(line=line):
                self.assertTrue(any(p.search(line) for p in patterns))
        for line in ["Host line 3", "main 1", "block x says hi"]:
            with self.subTest(line=line):
                self.assertFalse(any(p.search(line) for p in patterns))

    def test_a_format_of_fewer_than_three_visible_characters_matches_nothing(self):
        self.assertEqual(compare.format_patterns("|  %s"), [])


GPU = """\
[build/demo] - Starting...
GPU Device 0: "Hopper" with compute capability 9.0
kernel time: 0.5 ms
[0, 0]:\t\tValue is:10
[0, 1]:\t\tValue is:10
sum = 45
Test passed
rc=0
"""


class Comparison(unittest.TestCase):
    device = [re.compile(r"\[\d+, \d+\]:\s+Value is:\d+")]

    def test_device_lines_in_any_order_and_the_rest_left_out(self):
        ours = GPU.replace("[0, 0]:\t\tValue is:10\n[0, 1]", "[0, 1]:\t\tValue is:10\n[0, 0]")
        ours = ours.replace("0.5 ms", "310.25 ms").replace("[build/demo]", "[/w/demo/demo]")
        ours = ours.replace('"Hopper" with compute capability 9.0', '"Ampere" with compute capability 8.0')
        self.assertEqual(compare.compare(GPU, ours, self.device, program_path="/w/demo/demo"), [])

    def test_host_lines_in_order(self):
        ours = GPU.replace("sum = 45\nTest passed", "Test passed\nsum = 45")
        self.assertTrue(compare.compare(GPU, ours, self.device))

    def test_a_different_result_is_a_difference_unless_explained(self):
        ours = GPU.replace("sum = 45", "sum = 44").replace("[0, 1]:\t\tValue is:10", "[0, 1]:\t\tValue is:11")
        found = compare.compare(GPU, ours, self.device)
        self.assertEqual(sorted((d.side, d.line) for d in found),
                         [("+", "[0, 1]:\t\tValue is:11"), ("+", "sum = 44"),
                          ("-", "[0, 1]:\t\tValue is:10"), ("-", "sum = 45")])
        self.assertTrue(compare.summary(found).startswith("no: "))
        known = [(re.compile(r"^sum = \d+$"), "the sum is racy"), (re.compile(r"Value is"), "values vary")]
        found = compare.compare(GPU, ours, self.device, known)
        self.assertTrue(all(d.reason for d in found))
        self.assertEqual(compare.summary(found), "yes, 4 explained")

    def test_a_missing_line_and_the_exit_status(self):
        ours = GPU.replace("Test passed\nrc=0", "rc=1")
        self.assertEqual(sorted((d.side, d.line) for d in compare.compare(GPU, ours, self.device)),
                         [("+", "rc=1"), ("-", "Test passed"), ("-", "rc=0")])

    def test_the_explained_differences_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "differences.txt"
            path.write_text("# comment\n\ndemo: ^sum = \\d+$  # the sum is racy\ndemo: a # b  # why\n")
            known = compare.read_differences(path)
            self.assertEqual([(p.pattern, why) for p, why in known["demo"]],
                             [("^sum = \\d+$", "the sum is racy"), ("a # b", "why")])
            path.write_text("demo: ^sum\n")
            with self.assertRaises(ValueError):
                compare.read_differences(path)

    def test_the_suites_own_differences_file_reads(self):
        known = compare.read_differences(HERE / "differences.txt")
        self.assertTrue(known)
        for name, entries in known.items():
            for _, why in entries:
                self.assertGreater(len(why), 20, f"{name}: a reason in words")

    def test_the_reference_of_a_program_whose_prefix_the_recorder_dropped(self):
        with tempfile.TemporaryDirectory() as tmp:
            truth = pathlib.Path(tmp)
            (truth / "EstimatePiP.h100.txt").write_text("rc=0\n")
            (truth / "vectorAdd.h100.txt").write_text("rc=0\n")
            self.assertEqual(run_compat.reference_of(truth, "MC_EstimatePiP", "h100").name, "EstimatePiP.h100.txt")
            self.assertEqual(run_compat.reference_of(truth, "vectorAdd", "h100").name, "vectorAdd.h100.txt")
            self.assertIsNone(run_compat.reference_of(truth, "vectorAdd", "a100"))


class RunFailures(unittest.TestCase):
    REPORT = ("tid=[0, 0, 0] ctaid=[2287, 0, 0]: invalid global read of 4 bytes at 0x77a092c81000: 4718592 bytes "
              "before the start of a 13107200-byte allocation of device memory (cudaMalloc) at 0x77a093101000, "
              "allocated at simpleAttributes.cu:168 (simpleAttributes.cu:85)")

    def test_the_reason_is_the_first_fault_report_without_its_addresses(self):
        out = f"{self.REPORT}\nCUDA error at simpleAttributes.cu:193 code=700(cudaErrorIllegalAddress)\nStarting...\n"
        reason = run_compat.failure_line(out)
        self.assertTrue(reason.startswith("tid=[0, 0, 0] ctaid=[2287, 0, 0]: invalid global read of 4 bytes at 0x?: "))
        self.assertTrue(reason.endswith("(simpleAttributes.cu:85)"))
        self.assertNotIn("0x77a0", reason)
        self.assertEqual(run_compat.failure_line("no report\nthe last line\n"), "the last line")

    def test_an_expected_run_failure_must_fail_the_same_way(self):
        reason = "exit 1: " + run_compat.failure_line(self.REPORT)
        self.assertTrue(run_compat.same_failure(reason, "exit 1: " + self.REPORT.replace("0x77a0", "0x7f11")))
        self.assertFalse(run_compat.same_failure(reason, reason.replace("2287", "2288")))
        self.assertFalse(run_compat.same_failure(reason, "timed out after 400 s: Starting..."))

    def test_the_baseline_reads(self):
        expected = run_compat.read_baseline(HERE / "baseline.txt")
        self.assertTrue(expected)
        for name, (result, reason) in expected.items():
            self.assertIn(result, run_compat.RANK.keys() | {"slow"}, name)
            if result in ("run failure", "slow"):
                self.assertGreater(len(reason), 20, f"{name}: a reason in words")


class Order(unittest.TestCase):
    def test_the_longest_start_first_and_an_unknown_program_before_them(self):
        samples = [(n, pathlib.Path(n)) for n in ("a", "b", "c", "new", "d")]
        seconds = {"a": 5, "b": 80, "c": 20, "d": 20}
        order = [n for n, _ in run_compat.longest_first(samples, seconds)]
        self.assertEqual(order, ["new", "b", "c", "d", "a"])

    def test_the_seconds_file_reads_back_what_was_written(self):
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "seconds.txt"
            run_compat.write_seconds(path, {"vectorAdd": 5.4, "matrixMul": 57.2})
            self.assertEqual(run_compat.read_seconds(path), {"vectorAdd": 5.0, "matrixMul": 57.0})

    def test_the_suites_own_seconds_file_names_only_programs_of_the_baseline(self):
        seconds = run_compat.read_seconds(HERE / "seconds.txt")
        self.assertTrue(seconds)
        self.assertLessEqual(set(seconds), set(run_compat.read_baseline(HERE / "baseline.txt")))


if __name__ == "__main__":
    unittest.main()
