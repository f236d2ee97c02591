// SPDX-License-Identifier: MIT
// block_runner: one block's threads on fibers, seen through launches (cusim::launch), not through
// its internals: every thread passes each __syncthreads together and sees what the others wrote
// before it; threads that wait at different barriers, a warp collective that waits for lanes parked
// at a barrier, and a spin no thread can satisfy are tagged errors, never a hang; an exception
// thrown in a thread reaches the host tagged, the block's other threads unwound.
#include "../api/test_support.hpp"

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::string here(int line) { return "block_runner.cpp:" + std::to_string(line); }

constexpr int rounds = 4;

/// Each round: every thread adds one to a shared counter and writes its own cell, a barrier, then
/// it reads the counter (every thread's addition must be in) and its neighbour's cell (written by
/// another thread, often on another fiber, before the barrier), and a second barrier before the
/// cells are written again.
__global__ void barrier_rounds(cusim::span<int> seen_count, cusim::span<int> seen_neighbour) {
  __shared__ cusim::shared_array<int, 1> arrived;
  __shared__ cusim::shared_array<int, 64> cell;
  const unsigned n = blockDim.x * blockDim.y;
  const unsigned me = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned out = blockIdx.x * n + me;
  if (me == 0) arrived[0] = 0;
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    atomicAdd(&arrived[0], 1);
    cell[me] = 1000 * (r + 1) + static_cast<int>(me);
    __syncthreads();
    seen_count[out * rounds + r] = arrived[0];
    seen_neighbour[out * rounds + r] = cell[(me + 1) % n];
    __syncthreads();
  }
}

}  // namespace

TEST_CASE("every thread passes a __syncthreads only when all have arrived, and sees what they wrote before it") {
  const dim3 block(7, 5);  // 35 threads: a full warp and a partial one
  const unsigned n = 35, blocks = 3;
  cusim::device_array<int> count(blocks * n * rounds), neighbour(blocks * n * rounds);
  cusim::launch(barrier_rounds, dim3(blocks), block, count, neighbour);
  const std::vector<int> c = count.copy_to_host(), v = neighbour.copy_to_host();
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < n; ++t)
      for (int r = 0; r < rounds; ++r) {
        const unsigned i = (b * n + t) * rounds + static_cast<unsigned>(r);
        CHECK(c[i] == static_cast<int>(n) * (r + 1));
        CHECK(v[i] == 1000 * (r + 1) + static_cast<int>((t + 1) % n));
      }
}

namespace {
__global__ void early_return(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 32> value;
  if (threadIdx.x % 2 == 1) return;  // the odd threads exit before the barrier
  value[threadIdx.x] = static_cast<int>(threadIdx.x) + 100;
  __syncthreads();
  out[threadIdx.x] = value[(threadIdx.x + 2) % 32];
}
}  // namespace

TEST_CASE("threads that returned before a barrier count as arrived: the others pass it") {
  auto out = cusim::to_device(std::vector<int>(32, -1));
  cusim::launch(early_return, 1, 32, out);
  const std::vector<int> h = out.copy_to_host();
  for (int t = 0; t < 32; ++t) CHECK(h[t] == (t % 2 == 0 ? (t + 2) % 32 + 100 : -1));
}

namespace {
constexpr int first_barrier_line = __LINE__ + 4;
constexpr int second_barrier_line = __LINE__ + 5;
__global__ void diverging_barrier(cusim::span<int> out) {
  if (blockIdx.x == 2 && threadIdx.x >= 24) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
}  // namespace

TEST_CASE("threads of one block at different __syncthreads: a tagged barrier divergence in that block") {
  cusim::device_array<int> out(4 * 32);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(diverging_barrier, 4, 32, out); });
  const std::string a = here(first_barrier_line), b = here(second_barrier_line);
  CHECK(std::string(e.what()) ==
        "tid=[24, 0, 0] ctaid=[2, 0, 0]: barrier divergence: threads of the block wait at different __syncthreads "
        "(24 at " + b + ", 8 at " + a + "); thread tid=[0, 0, 0] ctaid=[2, 0, 0] waits at " + b + " (" + a + ")");
  CHECK(e.kind() == cusim::fault_kind::barrier_divergence);
  CHECK((e.thread_idx().x == 24 && e.block_idx().x == 2));
  CHECK(e.code() == cudaErrorLaunchFailure);
  CHECK(e.line() == static_cast<unsigned>(first_barrier_line));
  // The fault was the launch's own: the next launch of the same kernel's healthy blocks works.
  cusim::launch(diverging_barrier, 2, 32, out);
  CHECK(out.copy_to_host()[63] == 1);
}

namespace {
constexpr int syncwarp_barrier_line = __LINE__ + 3;
__global__ void syncwarp_against_barrier(cusim::span<int> out) {
  if (threadIdx.x == 3) __syncwarp();
  else __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void spin_on_flag(cusim::span<int> flag) {
  if (threadIdx.x == 5) {
    while (atomicAdd(&flag[0], 0) == 0) {
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) flag[0] = 1;  // never reached: thread 5 never gets to the barrier
}
}  // namespace

TEST_CASE("a __syncwarp whose other lanes wait at __syncthreads is a tagged deadlock, not a hang") {
  cusim::device_array<int> out(32);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(syncwarp_against_barrier, 1, 32, out); });
  const std::string what = e.what();
  const std::string expected = "tid=[3, 0, 0] ctaid=[0, 0, 0]: deadlock: __syncwarp(0xffffffff) can never complete: "
                               "lanes of its mask wait at __syncthreads (" + here(syncwarp_barrier_line) + ")";
  CHECK(what.substr(0, expected.size()) == expected);
  CHECK(e.kind() == cusim::fault_kind::deadlock);
  CHECK(e.thread_idx().x == 3);
}

// Not under ThreadSanitizer, which intercepts every poll of the spin: the 2^18 idle polls before a
// spin is called a deadlock take seconds under it.
TEST_CASE("a spin on an atomic that no thread can change is a tagged deadlock, not a hang" *
          doctest::skip(thread_sanitized)) {
  auto flag = cusim::to_device(std::vector<int>{0});
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(spin_on_flag, 1, 40, flag); });
  CHECK(std::string(e.what()) ==
        "tid=[5, 0, 0] ctaid=[0, 0, 0]: deadlock: no thread of the block can make progress: this thread spins on "
        "atomics that never change (39 threads wait at a barrier)");
  CHECK(e.kind() == cusim::fault_kind::deadlock);
  CHECK(flag.copy_to_host()[0] == 0);
}

namespace {
std::atomic<int> constructed{0}, unwound{0};

struct count_unwinding {
  count_unwinding() { constructed.fetch_add(1); }
  ~count_unwinding() { unwound.fetch_add(1); }
};

__global__ void throw_in_one_thread(cusim::span<int> out, unsigned bad_block, unsigned bad_thread) {
  count_unwinding guard;
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
  __syncthreads();  // every other thread of the block waits here when the bad one throws
  if (blockIdx.x >= bad_block && threadIdx.x == bad_thread) throw std::runtime_error("boom in the kernel");
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}
}  // namespace

TEST_CASE("an exception thrown in a thread is a tagged error of the lowest faulting block; its block is unwound") {
  cusim::device_array<int> out(8 * 16);
  constructed = 0;
  unwound = 0;
  // Blocks 5, 6 and 7 throw; whichever worker runs first, the report names block 5.
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(throw_in_one_thread, 8, 16, out, 5u, 9u); });
  CHECK(std::string(e.what()) ==
        "tid=[9, 0, 0] ctaid=[5, 0, 0]: uncaught exception of type std::runtime_error in kernel: boom in the kernel");
  CHECK(e.kind() == cusim::fault_kind::exception);
  CHECK(e.code() == cudaErrorLaunchFailure);
  // Every started thread's guard was destroyed: those that finished, the thrower, and the threads
  // parked at the barrier of a faulting block (unwound, not leaked). Blocks 0 to 5 all ran; blocks
  // past the lowest fault may be skipped.
  CHECK(unwound.load() == constructed.load());
  CHECK(constructed.load() >= 6 * 16);
  const std::vector<int> h = out.copy_to_host();
  CHECK(h[0] == 2);       // block 0 ran to the end
  CHECK(h[5 * 16] == 1);  // block 5 never passed its second barrier

  // The next launch works.
  constructed = 0;
  unwound = 0;
  cusim::launch(throw_in_one_thread, 2, 16, out, 100u, 0u);
  CHECK(out.copy_to_host()[31] == 2);
  CHECK((constructed.load() == 2 * 16 && unwound.load() == 2 * 16));
}

TEST_CASE("a thread that throws while the rest of its block waits at a barrier: every thread is unwound") {
  cusim::device_array<int> out(64);
  constructed = 0;
  unwound = 0;
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(throw_in_one_thread, 1, 64, out, 0u, 63u); });
  CHECK(std::string(e.what()).rfind("tid=[63, 0, 0] ctaid=[0, 0, 0]: uncaught exception", 0) == 0);
  CHECK(constructed.load() == 64);
  CHECK(unwound.load() == 64);
}
