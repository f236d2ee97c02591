// SPDX-License-Identifier: MIT
// Kernels written against cusim.hpp whose barriers are statements of the body or of loops there:
// built by cusim_add_executable in an optimised build, the simulator runs them as loops between
// their barriers (phases, docs/internals.md), as the nvcc driver does for unmodified programs. The
// same results and the same fault reports as on fibers (CUSIM_PHASES=0, a second run of this
// file); a loop over a barrier whose condition splits the block is a divergence either way,
// found where each form can see it. Line numbers are part of the test.
#include "phases_kernels.hpp"
#include "test_support.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// Whether this build runs phased kernels in phases: the simulator, an optimised build (the
/// phased copy is made only then) and CUSIM_PHASES not 0.
bool in_phases() {
#if CUSIM_BACKEND_IS_SIM() && defined(__OPTIMIZE__)
  const char* v = std::getenv("CUSIM_PHASES");
  return v == nullptr || std::strcmp(v, "0") != 0;
#else
  return false;
#endif
}

}  // namespace

__global__ void tile_transpose(cusim::mdspan<const float, 2> in, cusim::mdspan<float, 2> out) {
  __shared__ cusim::shared_array<float, 16, 17> tile;
  const unsigned x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  tile(threadIdx.y, threadIdx.x) = in(y, x);
  __syncthreads();
  const unsigned tx = blockIdx.y * 16 + threadIdx.x, ty = blockIdx.x * 16 + threadIdx.y;
  out(ty, tx) = tile(threadIdx.x, threadIdx.y);
}

TEST_CASE("a tiled transpose through shared memory, 2-D blocks") {
  const int n = 48;
  std::vector<float> h(n * n);
  for (int i = 0; i < n * n; ++i) h[i] = static_cast<float>(i);
  auto in = cusim::to_device(h, n, n);
  cusim::device_array<float, 2> out(n, n);
  cusim::launch(tile_transpose, dim3(3, 3), dim3(16, 16), in, out);
  auto r = out.copy_to_host();
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) CHECK(r[x * n + y] == h[y * n + x]);
}

// Each round every thread publishes a value, reads its neighbour's, and keeps a running sum in a
// local that lives across both barriers.
__global__ void neighbour_rounds(cusim::span<const int> in, cusim::span<int> out, int rounds) {
  __shared__ cusim::shared_array<int, 128> s;
  const unsigned t = threadIdx.x;
  int v = in[cusim::grid<1>()], sum = 0;
  for (int r = 0; r < rounds; ++r) {
    s[t] = v;
    __syncthreads();
    v = s[(t + 1) % blockDim.x] + r;
    sum += v;
    __syncthreads();
  }
  out[cusim::grid<1>()] = sum;
}

TEST_CASE("locals live across barriers in a loop of rounds") {
  const int blocks = 3, threads = 128, rounds = 5;
  std::vector<int> h(blocks * threads);
  for (int i = 0; i < blocks * threads; ++i) h[i] = i * 7 % 101;
  auto in = cusim::to_device(h);
  cusim::device_array<int> out(blocks * threads);
  cusim::launch(neighbour_rounds, blocks, threads, in, out, rounds);
  auto r = out.copy_to_host();
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> v(h.begin() + b * threads, h.begin() + (b + 1) * threads), sum(threads, 0);
    for (int round = 0; round < rounds; ++round) {
      std::vector<int> next(threads);
      for (int t = 0; t < threads; ++t) next[t] = v[(t + 1) % threads] + round;
      v = next;
      for (int t = 0; t < threads; ++t) sum[t] += v[t];
    }
    for (int t = 0; t < threads; ++t) CHECK(r[b * threads + t] == sum[t]);
  }
}

// Thread 37 of block 1 reads past the end of `in` in the third round.
constexpr int line_overrun = __LINE__ + 6;
__global__ void overrun(cusim::span<const int> in, cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  const unsigned t = threadIdx.x;
  for (int round = 0; round < 4; ++round) {
    const unsigned i = blockIdx.x * 64 + t + (t == 37 && blockIdx.x == 1 && round == 2 ? 64 : 0);
    s[t] = in[i];
    __syncthreads();
    out[blockIdx.x * 64 + t] += s[63 - t];
    __syncthreads();
  }
}

TEST_CASE("a fault in a phase is tagged with the thread, block and line, as on fibers") {
  if (!kernel_faults_are_checked) return;
  auto in = cusim::to_device(std::vector<int>(128, 1));
  auto out = cusim::to_device(std::vector<int>(128, 0));
  const std::string what = kernel_error_of([&] { cusim::launch(overrun, 2, 64, in, out); });
  CHECK(what == "tid=[37, 0, 0] ctaid=[1, 0, 0]: index 165 is out of bounds for axis 0 with size 128 "
                "(global array, phases.cu:" + std::to_string(line_overrun) + ")");
}

TEST_CASE("threads that leave a loop over a barrier at different rounds: a barrier divergence") {
  if (!on_simulator) return;  // undefined behaviour on a GPU
  cusim::device_array<int> out(32);
  const std::string what = kernel_error_of([&] { cusim::launch(split_loop, 1, 32, out); });
  // split_loop is in a header (phases_kernels.hpp): the phased copies cover the user's headers.
  const std::string loop = "phases_kernels.hpp:" + std::to_string(line_split_loop);
  const std::string inside = "phases_kernels.hpp:" + std::to_string(line_split_loop + 2);
  const std::string after = "phases_kernels.hpp:" + std::to_string(line_split_loop + 4);
  if (in_phases())
    CHECK(what == "tid=[16, 0, 0] ctaid=[0, 0, 0]: barrier divergence: threads of the block disagree on the "
                  "condition of a loop holding __syncthreads (16 of 32 stay in it); thread tid=[0, 0, 0] "
                  "ctaid=[0, 0, 0] leaves it (" + loop + ")");
  else
    CHECK(what == "tid=[16, 0, 0] ctaid=[0, 0, 0]: barrier divergence: threads of the block wait at different "
                  "__syncthreads (16 at " + after + ", 16 at " + inside + "); thread tid=[0, 0, 0] "
                  "ctaid=[0, 0, 0] waits at " + after + " (" + inside + ")");
}

// Thread 5 of block 1 writes through a null pointer after the barrier (its divisor is 0): a
// signal in a phase.
constexpr int line_null = __LINE__ + 7;
__global__ void fault_after_barrier(cusim::span<int> out, int divisor, int* null) {
  __shared__ cusim::shared_array<int, 32> s;
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  __syncthreads();
  const int d = divisor - s[31 - t] * static_cast<int>(blockIdx.x);
  if (d == 0) *static_cast<volatile int*>(null) = 1;
  out[blockIdx.x * 32 + t] = 100 / (d == 0 ? 1 : d);
}

TEST_CASE("a signal in a phase is a tagged error, and the next launches work" * doctest::skip(sanitized)) {
  if (!on_simulator) return;  // a GPU reports no thread
  cusim::device_array<int> out(64);
  for (int round = 0; round < 3; ++round) {
    const std::string what = kernel_error_of([&] { cusim::launch(fault_after_barrier, 2, 32, out, 26, nullptr); });
    CHECK(what == "tid=[5, 0, 0] ctaid=[1, 0, 0]: illegal memory access: write at address 0x0 (a null or wild raw "
                  "pointer) (phases.cu:" + std::to_string(line_null) + ")");
  }
  cusim::launch(fault_after_barrier, 2, 32, out, 100, nullptr);
  const std::vector<int> r = out.copy_to_host();
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 32; ++t) CHECK(r[b * 32 + t] == 100 / (100 - (31 - t) * b));
}

// Thread 5 of block 1 divides by zero after the barrier: the GPU's quotient (-1), no fault.
__global__ void divide_after_barrier(cusim::span<int> out, int divisor) {
  __shared__ cusim::shared_array<int, 32> s;
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  __syncthreads();
  out[blockIdx.x * 32 + t] = 100 / (divisor - s[31 - t] * static_cast<int>(blockIdx.x));
}

TEST_CASE("an integer division by zero in a phase gives the GPU's quotient" * doctest::skip(sanitized)) {
  cusim::device_array<int> out(64);
  cusim::launch(divide_after_barrier, 2, 32, out, 26);
  cusim::synchronize();
  const std::vector<int> r = out.copy_to_host();
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 32; ++t) {
      const int d = 26 - (31 - t) * b;
      CHECK(r[b * 32 + t] == (d == 0 ? -1 : 100 / d));
    }
}
