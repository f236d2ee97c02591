// SPDX-License-Identifier: MIT
// libcu++'s synchronisation primitives in kernels: cuda::barrier phases (a token's wait and
// arrive_and_wait), a producer/consumer cuda::pipeline copying double-buffered tiles, a thread's
// pipeline, cooperative_groups::memcpy_async with cg::wait, and cuda::atomic with wait/notify.
// With CUSIM_BACKEND=cuda they are NVIDIA's libcu++ and the same expectations are the GPU's. On
// the simulator, misuse is a tagged fault: a barrier used before init, more arrivals than a phase
// expects, a token of an older phase, a copy past its allocation, a consumer waiting for a stage
// no producer commits.
#include "test_support.hpp"

#if CUSIM_BACKEND_IS_SIM()
#  include <cuda/cooperative_groups/memcpy_async.h>
#  include <cuda/cuda/atomic>
#  include <cuda/cuda/barrier>
#  include <cuda/cuda/pipeline>
#else
#  include <cooperative_groups.h>
#  include <cooperative_groups/memcpy_async.h>
#  include <cuda/atomic>
#  include <cuda/barrier>
#  include <cuda/pipeline>
#endif

#include <string>
#include <utility>
#include <vector>

namespace cgs = cooperative_groups;

namespace {
constexpr int tpb = 64;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

std::vector<int> iota_like(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 7) % 101;
  return v;
}
}  // namespace

// Four phases: every thread writes its slot, waits (a token in even rounds, arrive_and_wait in odd
// ones), reads its neighbour's, and waits again before the next round's writes.
__global__ void barrier_phases(cusim::span<int> out) {
  __shared__ cusim::shared_array<block_barrier, 1> bars;
  __shared__ cusim::shared_array<int, tpb> slots;
  block_barrier& bar = bars[0];
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  int sum = 0;
  for (int r = 0; r < 4; ++r) {
    slots[t] = r * 100 + t;
    if (r % 2 == 0) {
      auto token = bar.arrive();
      bar.wait(std::move(token));
    } else {
      bar.arrive_and_wait();
    }
    sum += slots[(t + 1) % tpb];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * tpb + t] = sum;
}

TEST_CASE("cuda::barrier: each phase orders the block's writes before its reads") {
  cusim::device_array<int> out(3 * tpb);
  cusim::launch(barrier_phases, 3, tpb, out);
  const std::vector<int> r = out.copy_to_host();
  for (int i = 0; i < 3 * tpb; ++i) {
    const int t = i % tpb;
    CHECK(r[i] == 600 + 4 * ((t + 1) % tpb));
  }
}

// Two stages, the first half of the block producing (each producer copies two elements of a tile)
// and the second consuming (each consumer adds two elements of every tile).
__global__ void tile_pipeline(cusim::span<const int> in, int tiles, cusim::span<int> out) {
  constexpr int half = tpb / 2;
  __shared__ cusim::shared_array<int, 2, tpb> buf;
  __shared__ cusim::shared_array<cuda::pipeline_shared_state<cuda::thread_scope_block, 2>, 1> state;
  auto block = cgs::this_thread_block();
  const bool producer = threadIdx.x < half;
  auto pipe =
      cuda::make_pipeline(block, &state[0], producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (producer) {
    for (int t = 0; t < tiles; ++t) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf(t % 2, threadIdx.x * 2), &in[t * tpb + threadIdx.x * 2], 2 * sizeof(int), pipe);
      pipe.producer_commit();
    }
  } else {
    const int c = static_cast<int>(threadIdx.x) - half;
    int acc = 0;
    for (int t = 0; t < tiles; ++t) {
      pipe.consumer_wait();
      acc += buf(t % 2, c) + buf(t % 2, c + half);
      pipe.consumer_release();
    }
    out[c] = acc;
  }
}

TEST_CASE("cuda::pipeline: producers and consumers of a block copy and sum double-buffered tiles") {
  const int tiles = 7;
  const std::vector<int> h = iota_like(tiles * tpb);
  auto in = cusim::to_device(h);
  cusim::device_array<int> out(tpb / 2);
  cusim::launch(tile_pipeline, 1, tpb, in, tiles, out);
  const std::vector<int> r = out.copy_to_host();
  for (int c = 0; c < tpb / 2; ++c) {
    int s = 0;
    for (int t = 0; t < tiles; ++t) s += h[t * tpb + c] + h[t * tpb + c + tpb / 2];
    CHECK(r[c] == s);
  }
}

// A thread's own pipeline: the next tile's element is fetched while this one is used.
__global__ void thread_pipeline(cusim::span<const int> in, int tiles, cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 2, tpb> buf;
  const int x = threadIdx.x;
  auto pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&buf(0, x), &in[x], sizeof(int), pipe);
  pipe.producer_commit();
  int acc = 0;
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf((t + 1) % 2, x), &in[(t + 1) * tpb + x], sizeof(int), pipe);
      pipe.producer_commit();
      cuda::pipeline_consumer_wait_prior<1>(pipe);
    } else {
      pipe.consumer_wait();
    }
    __syncthreads();
    acc += buf(t % 2, (x + 5) % tpb);
    __syncthreads();
    pipe.consumer_release();
  }
  out[x] = acc;
}

TEST_CASE("cuda::make_pipeline(): a thread's batches, waited for with pipeline_consumer_wait_prior") {
  const int tiles = 5;
  const std::vector<int> h = iota_like(tiles * tpb);
  auto in = cusim::to_device(h);
  cusim::device_array<int> out(tpb);
  cusim::launch(thread_pipeline, 1, tpb, in, tiles, out);
  const std::vector<int> r = out.copy_to_host();
  for (int x = 0; x < tpb; ++x) {
    int s = 0;
    for (int t = 0; t < tiles; ++t) s += h[t * tpb + (x + 5) % tpb];
    CHECK(r[x] == s);
  }
}

// cooperative_groups::memcpy_async of a block's tile, then cg::wait.
__global__ void cg_tile_sum(cusim::span<const int> in, cusim::span<int> sums) {
  __shared__ cusim::shared_array<int, tpb> tile;
  auto block = cgs::this_thread_block();
  cgs::memcpy_async(block, &tile[0], &in[blockIdx.x * tpb], sizeof(int) * tpb);
  cgs::wait(block);
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < tpb; ++i) s += tile[i];
    sums[blockIdx.x] = s;
  }
}

TEST_CASE("cooperative_groups::memcpy_async and cg::wait copy a block's tile") {
  const std::vector<int> h = iota_like(4 * tpb);
  auto in = cusim::to_device(h);
  cusim::device_array<int> sums(4);
  cusim::launch(cg_tile_sum, 4, tpb, in, sums);
  const std::vector<int> r = sums.copy_to_host();
  for (int b = 0; b < 4; ++b) {
    int s = 0;
    for (int i = 0; i < tpb; ++i) s += h[b * tpb + i];
    CHECK(r[b] == s);
  }
}

// Thread 0 waits on a flag that a thread of another warp sets; every thread counts itself with
// fetch_add and raises a maximum with compare_exchange.
__global__ void atomic_flag(cusim::span<int> out) {
  __shared__ cusim::shared_array<cuda::atomic<int, cuda::thread_scope_block>, 2> a;
  if (threadIdx.x == 0) {
    a[0].store(0);
    a[1].store(-1);
  }
  __syncthreads();
  a[0].fetch_add(1);
  cuda::atomic_ref<int, cuda::thread_scope_block> max_ref(out[1]);
  const int mine = static_cast<int>((threadIdx.x * 37) % tpb);
  int cur = max_ref.load();
  while (cur < mine && !max_ref.compare_exchange_weak(cur, mine)) {
  }
  if (threadIdx.x == 0) {
    a[1].wait(-1);
    out[2] = a[1].load();
  } else if (threadIdx.x == 40) {
    a[1].store(9);
    a[1].notify_all();
  }
  __syncthreads();
  if (threadIdx.x == 0) out[0] = a[0].load();
}

TEST_CASE("cuda::atomic and atomic_ref: fetch_add, compare_exchange, wait and notify") {
  auto out = cusim::to_device(std::vector<int>{0, -1, 0});
  cusim::launch(atomic_flag, 1, tpb, out);
  const std::vector<int> r = out.copy_to_host();
  CHECK(r[0] == tpb);
  CHECK(r[1] == tpb - 1);
  CHECK(r[2] == 9);
}

// Misuse: on the simulator a tagged fault; a GPU hangs or goes on with garbage.

__global__ void uninitialised_barrier(cusim::span<int> out) {
  __shared__ cusim::shared_array<block_barrier, 1> bars;
  bars[0].arrive_and_wait();
  out[threadIdx.x] = 1;
}

__global__ void too_many_arrivals(cusim::span<int> out) {
  __shared__ cusim::shared_array<block_barrier, 1> bars;
  if (threadIdx.x == 0) init(&bars[0], 2);
  __syncthreads();
  if (threadIdx.x == 1) (void)bars[0].arrive(3);
  out[threadIdx.x] = 1;
}

__global__ void stale_token(cusim::span<int> out) {
  __shared__ cusim::shared_array<block_barrier, 1> bars;
  block_barrier& bar = bars[0];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  auto token = bar.arrive();
  auto old = token;
  bar.wait(std::move(token));
  bar.arrive_and_wait();
  if (threadIdx.x == 0) bar.wait(std::move(old));
  out[threadIdx.x] = 1;
}

__global__ void copy_overrun(cusim::span<const int> in, cusim::span<int> out) {
  __shared__ cusim::shared_array<block_barrier, 1> bars;
  __shared__ cusim::shared_array<int, 2 * tpb> tile;
  if (threadIdx.x == 0) {
    init(&bars[0], 1);
    cuda::memcpy_async(&tile[0], &in[0], sizeof(int) * (in.size() + 2), bars[0]);  // two elements too many
    bars[0].arrive_and_wait();
    out[0] = tile[0];
  }
}

__global__ void never_committed(cusim::span<int> out) {
  __shared__ cusim::shared_array<cuda::pipeline_shared_state<cuda::thread_scope_block, 1>, 1> state;
  auto block = cgs::this_thread_block();
  const bool producer = threadIdx.x < 32;
  auto pipe =
      cuda::make_pipeline(block, &state[0], producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (!producer) {  // the producers leave without committing
    pipe.consumer_wait();
    out[threadIdx.x] = 1;
    pipe.consumer_release();
  }
}

TEST_CASE("cuda::barrier misuse is a tagged fault" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(tpb);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(uninitialised_barrier, 1, 32, out); });
  CHECK(std::string(e.what()).find("ctaid=[0, 0, 0]: cuda::barrier used before init") != std::string::npos);
  CHECK(std::string(e.what()).find("(libcudacxx.cu:") != std::string::npos);
  CHECK(e.code() == cudaErrorLaunchFailure);

  CHECK(kernel_error_of([&] { cusim::launch(too_many_arrivals, 1, 4, out); })
            .find("tid=[1, 0, 0] ctaid=[0, 0, 0]: cuda::barrier::arrive(3): 3 arrivals when the phase expects only 2 "
                  "more") != std::string::npos);
  CHECK(kernel_error_of([&] { cusim::launch(stale_token, 1, 32, out); })
            .find("tid=[0, 0, 0] ctaid=[0, 0, 0]: cuda::barrier::wait: the arrival token is of phase 0, but the "
                  "barrier is in phase 2") != std::string::npos);
}

// Not under AddressSanitizer, which checks the copy's memmove itself, nor ThreadSanitizer: under
// both, device memory comes from the heap, not the arena whose shadow the check reads.
TEST_CASE("memcpy_async past its source's allocation is reported like the program's own read" *
          doctest::skip(!on_simulator || sanitized || thread_sanitized)) {
  auto in = cusim::to_device(iota_like(tpb));
  cusim::device_array<int> out(1);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(copy_overrun, 1, 32, in, out); });
  const std::string what = e.what();
  CHECK(what.find("tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 8 bytes at 0x") != std::string::npos);
  CHECK(what.find("0 bytes past the end of a 256-byte allocation") != std::string::npos);
  CHECK(e.code() == cudaErrorIllegalAddress);
}

// Not under ThreadSanitizer: the deadlock is found after 2^18 yields, each a poll it intercepts.
TEST_CASE("a pipeline consumer waiting for a stage no producer commits is the block's deadlock" *
          doctest::skip(!on_simulator || thread_sanitized)) {
  cusim::device_array<int> out(tpb);
  const cusim::kernel_error e = kernel_error_for([&] { cusim::launch(never_committed, 1, tpb, out); });
  CHECK(std::string(e.what()).find("ctaid=[0, 0, 0]: deadlock") != std::string::npos);
  CHECK(e.kind() == cusim::fault_kind::deadlock);
}
