// SPDX-License-Identifier: MIT
// Launch validation and faults inside kernels: each a clear error, never a hang or a crash.
#include "test_support.hpp"
#include "../stderr_capture.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

__global__ void noop(cusim::span<int> out) {
  if (cusim::grid<1>() == 0) out[0] = 1;
}

// CUDA 13 on an H100 answers cudaErrorInvalidValue for every bad configuration (gpu-truth/semantics.h100.txt).
TEST_CASE("bad launch configurations fail with CUDA's error codes") {
  cusim::device_array<int> out(1);
  auto code_of = [&](cusim::launch_config cfg) {
    try {
      cusim::launch(noop, cfg, out);
      cusim::synchronize();
    } catch (const cusim::cuda_error& e) {
      if (on_simulator) {  // CUDA's string, then its name, then what is wrong
        const std::string prefix = std::string("cusim::launch: ") + cudaGetErrorString(e.code()) + " (" +
                                   cudaGetErrorName(e.code()) + "): ";
        CHECK(std::string(e.what()).rfind(prefix, 0) == 0);
      }
      return e.code();
    }
    return cudaSuccess;
  };
  CHECK(code_of({dim3(1), dim3(1025)}) == cudaErrorInvalidValue);
  CHECK(code_of({dim3(1), dim3(32, 32, 2)}) == cudaErrorInvalidValue);
  CHECK(code_of({dim3(1), dim3(1, 1, 65)}) == cudaErrorInvalidValue);
  CHECK(code_of({dim3(0), dim3(32)}) == cudaErrorInvalidValue);
  CHECK(code_of({dim3(1, 65536), dim3(32)}) == cudaErrorInvalidValue);
  CHECK(code_of({dim3(1), dim3(32), 1 << 20}) == cudaErrorInvalidValue);
  CHECK(code_of({dim3(1), dim3(1024)}) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("a 1025-thread block is rejected with CUDA's message" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(1);
  try {
    cusim::launch(noop, 1, 1025, out);
    FAIL("no cuda_error");
  } catch (const cusim::cuda_error& e) {
    CHECK(e.code() == cudaErrorInvalidValue);
    CHECK(std::string(e.what()) == "cusim::launch: invalid argument (cudaErrorInvalidValue): block dimensions "
                                   "[1025, 1, 1] exceed the per-axis limits [1024, 1024, 64]");
  }
  CHECK(cudaGetLastError() == cudaSuccess);  // reported by the exception, as on the CUDA backend
}

#if CUSIM_BACKEND_IS_SIM()  // faults a GPU cannot report as C++ exceptions

constexpr int divergent_first_line = __LINE__ + 4;  // the two __syncthreads below
constexpr int divergent_second_line = __LINE__ + 5;
__global__ void divergent_barrier(cusim::span<int> out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

TEST_CASE("threads waiting at different __syncthreads are reported as barrier divergence") {
  cusim::device_array<int> out(32);
  std::string msg = kernel_error_of([&] { cusim::launch(divergent_barrier, 1, 32, out); });
  const std::string a = "errors.cu:" + std::to_string(divergent_first_line);
  const std::string b = "errors.cu:" + std::to_string(divergent_second_line);
  CHECK(msg == "tid=[16, 0, 0] ctaid=[0, 0, 0]: barrier divergence: threads of the block wait at different "
               "__syncthreads (16 at " + a + ", 16 at " + b + "); thread tid=[0, 0, 0] ctaid=[0, 0, 0] waits at " +
               a + " (" + b + ")");
}

__global__ void spin_forever(cusim::span<int> flag) {
  if (threadIdx.x == 0) {
    while (atomicAdd(&flag[0], 0) == 0) {
    }
  }
  __syncthreads();
  flag[0] = 1;  // set only after the barrier that thread 0 never reaches
}

TEST_CASE("a spin-wait that no thread can satisfy is reported as a deadlock, not a hang") {
  auto flag = cusim::to_device(std::vector<int>{0});
  std::string msg = kernel_error_of([&] { cusim::launch(spin_forever, 1, 64, flag); });
  CHECK(msg == "tid=[0, 0, 0] ctaid=[0, 0, 0]: deadlock: no thread of the block can make progress: this thread "
               "spins on atomics that never change (63 threads wait at a barrier)");
}

__global__ void syncwarp_against_syncthreads(cusim::span<int> out) {
  if (threadIdx.x == 0) __syncwarp();
  else __syncthreads();
  out[0] = 1;
}

TEST_CASE("a __syncwarp whose lanes wait at __syncthreads is a deadlock") {
  cusim::device_array<int> out(1);
  std::string msg = kernel_error_of([&] { cusim::launch(syncwarp_against_syncthreads, 1, 32, out); });
  CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: deadlock: __syncwarp(0xffffffff) can never complete: lanes of "
                  "its mask wait at __syncthreads (errors.cu:",
                  0) == 0);
}

__global__ void syncwarp_bad_mask(cusim::span<int> out) {
  __syncwarp(0x1u);
  out[0] = 1;
}

TEST_CASE("__syncwarp from a lane outside its mask is an error") {
  cusim::device_array<int> out(1);
  std::string msg = kernel_error_of([&] { cusim::launch(syncwarp_bad_mask, 1, 2, out); });
  CHECK(msg.rfind("tid=[1, 0, 0] ctaid=[0, 0, 0]: __syncwarp(0x00000001) called by lane 1, which is not in the "
                  "mask (errors.cu:",
                  0) == 0);
}

__device__ int checked_divide(int a, int b) {
  if (b == 0) throw std::domain_error("division by zero");
  return a / b;
}

__global__ void throwing_kernel(cusim::span<int> out, int divisor_zero_at) {
  __shared__ cusim::shared_array<int, 64> s;
  s[threadIdx.x] = 1;
  __syncthreads();  // the other threads are parked here when the exception unwinds
  const int t = cusim::grid<1>();
  out[t] = checked_divide(100, t == divisor_zero_at ? 0 : 1);
}

TEST_CASE("an exception thrown in a device function reaches the host tagged, and the next launch works") {
  cusim::device_array<int> out(256);
  std::string msg = kernel_error_of([&] { cusim::launch(throwing_kernel, 4, 64, out, 70); });
  CHECK(msg == "tid=[6, 0, 0] ctaid=[1, 0, 0]: uncaught exception of type std::domain_error in kernel: division by zero");
  cusim::launch(throwing_kernel, 4, 64, out, -1);
  for (int v : out.copy_to_host()) CHECK(v == 100);
}

constexpr int assert_line = __LINE__ + 2;
__global__ void asserting_kernel(cusim::span<int> out) {
  assert(threadIdx.x < 20);
  out[threadIdx.x] = 1;
}

TEST_CASE("a failed device assert is a tagged kernel_error with cudaErrorAssert") {
  cusim::device_array<int> out(32);
  try {
    cusim::launch(asserting_kernel, 1, 32, out);
    FAIL("no kernel_error");
  } catch (const cusim::kernel_error& e) {
    CHECK(std::string(e.what()) ==
          "tid=[20, 0, 0] ctaid=[0, 0, 0]: device-side assertion `threadIdx.x < 20` failed in asserting_kernel "
          "(errors.cu:" + std::to_string(assert_line) + ")");
    CHECK(e.code() == cudaErrorAssert);
  }
}

// Each frame is handed to the next call, so no compiler can turn the recursion into a loop.
__device__ int recurse(int depth, volatile char* parent) {
  volatile char frame[256];
  frame[0] = static_cast<char>(parent[0] + 1);
  return depth == 0 ? 0 : recurse(depth - 1, frame) + 1;
}

__global__ void deep_recursion(cusim::span<int> out, int depth) {
  __syncthreads();
  volatile char root[1] = {0};
  out[cusim::grid<1>()] = recurse(depth, root);
}

TEST_CASE("a fiber stack overflow is a tagged kernel_error, and the next launch works" * doctest::skip(sanitized)) {
  cusim::device_array<int> out(64);
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::string msg = kernel_error_of([&] { cusim::launch(deep_recursion, 2, 32, out, 1 << 20); });
    CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: stack overflow: the thread needs more than its ", 0) == 0);
  }
  cusim::launch(deep_recursion, 2, 32, out, 10);
  for (int v : out.copy_to_host()) CHECK(v == 10);
}

__global__ void huge_local(cusim::span<int> out) {
  cusim::local_array<char, 8 << 20> big;  // 8 MiB: far beyond the fiber stack
  big[threadIdx.x] = 1;
  out[0] = big[threadIdx.x];
}

TEST_CASE("a local array larger than the fiber stack is reported, not overflowed" * doctest::skip(sanitized)) {
  cusim::device_array<int> out(1);
  std::string msg = kernel_error_of([&] { cusim::launch(huge_local, 1, 4, out); });
  CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: ", 0) == 0);
  const bool named = msg.find("stack overflow") != std::string::npos ||
                     msg.find("local array of 8388608 bytes does not fit") != std::string::npos;
  CHECK(named);
}

TEST_CASE("CUSIM_STACK sets the fiber stack size" * doctest::skip(sanitized)) {
  cusim::device_array<int> out(64);
  scoped_env stack("CUSIM_STACK", "64");
  std::string msg = kernel_error_of([&] { cusim::launch(deep_recursion, 1, 8, out, 400); });
  CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: stack overflow: the thread needs more than its 64 KiB fiber stack", 0) == 0);
}

__global__ void child(cusim::span<int> out) { out[0] = 1; }
constexpr int cdp_fault_line = __LINE__ + 3;  // dynamic parallelism: the tests are at the end
__global__ void cdp_child(cusim::span<int> out, int slot) {
  atomicAdd(&out[slot], static_cast<int>(threadIdx.x) + 1);
  if (slot == 3 && threadIdx.x == 2 && out.size() == 5) out[100] = 1;  // out of bounds in a child
}
__global__ void cdp_parent(cusim::span<int> out, int depth) {  // each thread launches 1+2+3+4 = 10
  if (depth == 0) cusim::launch(cdp_child, 1, 4, out, static_cast<int>(blockIdx.x * 2 + threadIdx.x));
  else if (threadIdx.x == 0) cusim::launch(cdp_parent, 2, 2, out, depth - 1);  // a grandchild level
}

/// Runs `f` with stderr redirected to a file and returns what it wrote there.
template <class F>
std::string stderr_of(F&& f) {
  char path[] = "/tmp/cusim-stderr-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  ::dup2(fd, STDERR_FILENO);
  f();
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  ::close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(path);
  return text.str();
}

TEST_CASE("an unusable CUSIM_WORKERS or CUSIM_STACK is reported, and the default used") {
  cusim::device_array<int> out(1);
  const std::string err = stderr_of([&] {
    scoped_env workers("CUSIM_WORKERS", "one");
    scoped_env stack("CUSIM_STACK", "8");
    cusim::launch(child, 1, 1, out);
  });
  CHECK(err.find("cusim: CUSIM_WORKERS=one is not an integer from 1 to 4096; using all cores\n") != std::string::npos);
  CHECK(err.find("cusim: CUSIM_STACK=8 is not an integer from 16 to 1048576; using 256 KiB\n") != std::string::npos);
  CHECK(out.copy_to_host()[0] == 1);
}

TEST_CASE("unknown checkers and schedules are reported once, not silently ignored") {
  cusim::device_array<int> out(1);
  const std::string err = stderr_of([&] {
    scoped_env check("CUSIM_CHECK", "sync,bogus");
    scoped_env schedule("CUSIM_SCHEDULE", "shuffle");
    cusim::launch(child, 1, 1, out);
    cusim::launch(child, 1, 1, out);
  });
  for (const std::string line : {
           "cusim: CUSIM_CHECK: unknown checker 'bogus' ignored (known: race, init, sync, leaks, all)\n",
           "cusim: CUSIM_SCHEDULE=shuffle is not 'default' or 'random:SEED' (SEED an integer); using the default "
           "schedule\n"}) {
    const auto first = err.find(line);
    CHECK(first != std::string::npos);
    CHECK(err.find(line, first + 1) == std::string::npos);  // once, although launched twice
  }
}

TEST_CASE("CUSIM_BREAK without a debugger says so once and throws the fault as usual") {
  cusim::device_array<int> out(1);
  int thrown = 0;
  const std::string err = stderr_of([&] {
    scoped_env brk("CUSIM_BREAK", "1");
    for (int i = 0; i < 2; ++i) {
      try {
        cusim::launch(child, 1, 2, cusim::span<int>(out.data(), 0));  // out[0] of an empty view
      } catch (const cusim::kernel_error& e) {
        thrown += e.kind() == cusim::fault_kind::out_of_bounds;
      }
    }
  });
  CHECK(thrown == 2);
  const std::string line =
      "cusim: CUSIM_BREAK is set but no debugger is attached: faults are reported without stopping\n";
  const auto first = err.find(line);
  CHECK(first != std::string::npos);
  CHECK(err.find(line, first + 1) == std::string::npos);
}

TEST_CASE("a CUDA built-in or barrier used outside a kernel is a logic_error") {
  CHECK_THROWS_WITH_AS(static_cast<void>(threadIdx.x), "cusim: a CUDA built-in (threadIdx, blockIdx, ...) used outside a kernel",
                       std::logic_error);
  CHECK_THROWS_WITH_AS(__syncthreads(), "cusim: __syncthreads used outside a kernel", std::logic_error);
}

// Faults the CPU raises as signals: each a tagged kernel_error naming the line, the process alive.
__global__ void write_through(int* p) {
  volatile int* target = p + blockIdx.x;  // an address per block: plain stores to one would race
  if (threadIdx.x == 3) *target = 1;  // line 303: p is null or wild
}

__global__ void read_through(const int* p, cusim::span<int> out) {
  const volatile int* source = p;
  if (threadIdx.x == 2) out[0] = *source;  // line 308
}

__global__ void divide(cusim::span<int> out, int divisor) {
  volatile int d = divisor;
  out[threadIdx.x] = 100 / (d - static_cast<int>(threadIdx.x));  // line 313: thread 5 divides by zero
}

__global__ void trapping(cusim::span<int> out) {
  out[cusim::grid<1>()] = 1;
  if (blockIdx.x == 1 && threadIdx.x == 4) __trap();  // line 318
}

__global__ void trap_instruction(cusim::span<int> out) {
  out[threadIdx.x] = 1;
  if (threadIdx.x == 6) __builtin_trap();  // line 323
}

/// The next launch after a signal fault works, and so do the other workers' threads.
void expect_next_launch_works() {
  cusim::device_array<int> out(1);
  cusim::launch(noop, 4, 32, out);
  CHECK(out.copy_to_host()[0] == 1);
}

TEST_CASE("a write through a null or wild raw pointer is a tagged error, and the process lives on" *
          doctest::skip(sanitized)) {
  for (const char* workers : {"1", "2"}) {
    scoped_env env("CUSIM_WORKERS", workers);
    cusim::kernel_error e = kernel_error_for([] { cusim::launch(write_through, 1, 8, static_cast<int*>(nullptr)); });
    CHECK(std::string(e.what()) ==
          "tid=[3, 0, 0] ctaid=[0, 0, 0]: illegal memory access: write at address 0x0 (a null or wild raw pointer) "
          "(errors.cu:303)");
    CHECK(e.kind() == cusim::fault_kind::illegal_address);
    CHECK(e.code() == cudaErrorIllegalAddress);
    CHECK(e.line() == 303);
    const std::string wild = kernel_error_of([] { cusim::launch(write_through, 2, 8, reinterpret_cast<int*>(16)); });
    CHECK(wild ==
          "tid=[3, 0, 0] ctaid=[0, 0, 0]: illegal memory access: write at address 0x10 (a null or wild raw pointer) "
          "(errors.cu:303)");
    expect_next_launch_works();
  }
}

TEST_CASE("a read through a wild raw pointer is a tagged error" * doctest::skip(sanitized)) {
  cusim::device_array<int> out(1);
  const std::string msg =
      kernel_error_of([&] { cusim::launch(read_through, 1, 4, reinterpret_cast<const int*>(0x18), out); });
  CHECK(msg == "tid=[2, 0, 0] ctaid=[0, 0, 0]: illegal memory access: read at address 0x18 (a null or wild raw "
               "pointer) (errors.cu:308)");
  expect_next_launch_works();
}

const std::string division_report_text =
    "integer division by zero is undefined behaviour in C++; continuing with the GPU's result (quotient and "
    "remainder with every bit set)";

TEST_CASE("an integer division by zero gives the GPU's quotient and is reported once per line" *
          doctest::skip(sanitized)) {
  cusim::device_array<int> out(32);
  stderr_capture capture;
  cusim::launch(divide, 1, 32, out, 5);
  cusim::launch(divide, 1, 32, out, 5);  // the same line again: reported once
  cusim::synchronize();
  CHECK(capture.text() == "tid=[5, 0, 0] ctaid=[0, 0, 0]: " + division_report_text + " (errors.cu:313)\n");
  const std::vector<int> r = out.copy_to_host();
  CHECK(r[4] == 100);
  CHECK(r[5] == -1);  // as an H100 answers 7 / 0 (gpu-truth/semantics.h100.txt)
  CHECK(r[6] == -100);
}

TEST_CASE("__trap() is a tagged error with cudaErrorLaunchFailure") {
  cusim::device_array<int> out(64);
  cusim::kernel_error e = kernel_error_for([&] { cusim::launch(trapping, 2, 32, out); });
  CHECK(std::string(e.what()) == "tid=[4, 0, 0] ctaid=[1, 0, 0]: __trap() was called (errors.cu:318)");
  CHECK(e.kind() == cusim::fault_kind::trap);
  CHECK(e.code() == cudaErrorLaunchFailure);
  expect_next_launch_works();
}

TEST_CASE("a trap instruction (SIGILL) is a tagged error" * doctest::skip(sanitized)) {
  cusim::device_array<int> out(32);
  const std::string msg = kernel_error_of([&] { cusim::launch(trap_instruction, 1, 32, out); });
  CHECK(msg == "tid=[6, 0, 0] ctaid=[0, 0, 0]: illegal instruction (a trap, such as __builtin_trap()) (errors.cu:323)");
  expect_next_launch_works();
}

TEST_CASE("a signal fault on a stream is sticky with its CUDA code, like a GPU's" * doctest::skip(sanitized)) {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  cusim::launch(write_through, cusim::launch_config{dim3(1), dim3(8), 0, stream}, static_cast<int*>(nullptr));
  CHECK(cudaStreamSynchronize(stream) == cudaErrorIllegalAddress);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaDeviceReset() == cudaSuccess);
  expect_next_launch_works();
}

// Not under ThreadSanitizer either: the child of a multi-threaded fork runs with TSan's ignores,
// which the fibers' TSan contexts do not inherit.
TEST_CASE("a segmentation fault in host code is not taken for a kernel's: the process dies as usual" *
          doctest::skip(sanitized || thread_sanitized)) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::signal(SIGSEGV, SIG_DFL);  // not doctest's crash report
    cusim::device_array<int> out(1);
    cusim::launch(noop, 1, 1, out);  // installs the simulator's handlers
    volatile int* host_null = nullptr;
    *host_null = 1;
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGSEGV);
}

TEST_CASE("a kernel fault on a stream surfaces at synchronisation and stays, like a GPU's sticky error") {
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  cusim::device_array<int> out(32);
  cusim::launch(asserting_kernel, cusim::launch_config{dim3(1), dim3(32), 0, stream}, out);
  const std::string msg = kernel_error_of([&] { cusim::synchronize(stream); });
  CHECK(msg.rfind("tid=[20, 0, 0] ctaid=[0, 0, 0]: device-side assertion `threadIdx.x < 20` failed", 0) == 0);
  CHECK(cudaStreamSynchronize(stream) == cudaErrorAssert);  // sticky, with the fault's own code
  CHECK(cudaStreamQuery(stream) == cudaErrorAssert);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  CHECK_THROWS_AS(cusim::synchronize(stream), cusim::kernel_error);
  CHECK(cudaStreamDestroy(stream) == cudaSuccess);
  CHECK(cudaDeviceReset() == cudaSuccess);  // clears it
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("a launch from inside a kernel runs before the parent launch completes (dynamic parallelism)") {
  auto out = cusim::to_device(std::vector<int>(4, 0));
  cusim::launch(cdp_parent, 2, 2, out, 0);  // four children, one per parent thread
  CHECK(out.copy_to_host() == std::vector<int>{10, 10, 10, 10});
  auto deeper = cusim::to_device(std::vector<int>(4, 0));
  cusim::launch(cdp_parent, 1, 2, deeper, 1);  // one child of two blocks, each launching two children
  CHECK(deeper.copy_to_host() == std::vector<int>{10, 10, 10, 10});
}

TEST_CASE("a fault in a child grid is the parent launch's, tagged with the child's thread and block") {
  auto out = cusim::to_device(std::vector<int>(5, 0));
  const std::string msg = kernel_error_of([&] { cusim::launch(cdp_parent, 2, 2, out, 0); });
  CHECK(msg == "tid=[2, 0, 0] ctaid=[0, 0, 0]: index 100 is out of bounds for axis 0 with size 5 (global array, "
               "errors.cu:" + std::to_string(cdp_fault_line) + ")");
  auto next = cusim::to_device(std::vector<int>(4, 0));
  cusim::launch(cdp_parent, 2, 2, next, 0);  // the next launch works
  CHECK(next.copy_to_host()[3] == 10);
}

// Faults after uniform barriers, while the simulator runs the block's threads in turn (ring
// mode): the same reports as anywhere else.
constexpr int ring_divergent_line = __LINE__ + 11;  // the __syncthreads of the odd threads
constexpr int ring_even_line = __LINE__ + 8;
constexpr int ring_divide_line = __LINE__ + 12;
constexpr int ring_overrun_line = __LINE__ + 12;
__global__ void ring_then_fault(cusim::span<int> out, int mode) {
  volatile int zero = 0;
  for (int r = 0; r < 4; ++r) __syncthreads();
  if (mode == 0) {
    if (threadIdx.x % 2 == 0) {
      __syncthreads();
    } else {
      __syncthreads();
    }
  }
  if (mode == 1 && threadIdx.x == 77) out[0] = 100 / zero;
  if (mode == 2 && threadIdx.x == 130) out[out.size()] = 1;
  __syncthreads();
  out[threadIdx.x] = 1;
}

TEST_CASE("after uniform barriers, divergence and an overrun are tagged as ever, a division by zero reported" *
          doctest::skip(sanitized)) {
  cusim::device_array<int> out(256);
  const std::string even = "errors.cu:" + std::to_string(ring_even_line);
  const std::string odd = "errors.cu:" + std::to_string(ring_divergent_line);
  CHECK(kernel_error_of([&] { cusim::launch(ring_then_fault, 2, 256, out, 0); }) ==
        "tid=[1, 0, 0] ctaid=[0, 0, 0]: barrier divergence: threads of the block wait at different __syncthreads (128 at " +
            even + ", 128 at " + odd + "); thread tid=[0, 0, 0] ctaid=[0, 0, 0] waits at " + even + " (" + odd + ")");
  {
    stderr_capture capture;  // a division by zero is not a fault: the kernel goes on, reported once
    cusim::launch(ring_then_fault, 1, 256, out, 1);  // one block: two would race on out
    cusim::synchronize();
    CHECK(capture.text() == "tid=[77, 0, 0] ctaid=[0, 0, 0]: " + division_report_text + " (errors.cu:" +
                                std::to_string(ring_divide_line) + ")\n");
    CHECK(out.copy_to_host()[77] == 1);
  }
  const std::string overrun = kernel_error_of([&] { cusim::launch(ring_then_fault, 2, 256, out, 2); });
  CHECK(overrun == "tid=[130, 0, 0] ctaid=[0, 0, 0]: index 256 is out of bounds for axis 0 with size 256 (global "
                   "array, errors.cu:" + std::to_string(ring_overrun_line) + ")");
  expect_next_launch_works();
}

#endif

TEST_CASE("a launch reports its own error, and leaves an earlier one pending for its caller") {
  cusim::device_array<int> out(1);
  CHECK(cudaSetDevice(99) == cudaErrorInvalidDevice);  // pending until cudaGetLastError
  cusim::launch(noop, 1, 32, out);                       // works: not the earlier call's error
  cusim::synchronize();
  CHECK(out.copy_to_host()[0] == 1);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaSuccess);
}
