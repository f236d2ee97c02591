// SPDX-License-Identifier: MIT
// libcu++'s synchronisation primitives in kernels, as CUDA programs write them: cuda::barrier in
// __shared__ memory (init, arrive and wait with a token, arrive_and_wait, arrive_and_drop, a
// completion function, block and device scope), cuda::std::barrier, cuda::memcpy_async into a
// barrier, a thread's pipeline and a block's pipeline with producer and consumer roles (double-
// buffered tiles), cooperative_groups::memcpy_async with cg::wait and cg::wait_prior,
// cuda::atomic, cuda::std::atomic and cuda::atomic_ref (fetch_add, compare_exchange, wait and
// notify), a cuda::latch and a cuda::binary_semaphore. Then, on the simulator only: a read before
// a thread pipeline's wait sees the old value, and the misuses it reports (a barrier used before
// init, more arrivals than a phase expects, a token of an older phase, a copy past its allocation,
// a pipeline consumer waiting for a stage no producer commits, a producer call by a consumer, a
// latch counted down too far, a misaligned cuda::aligned_size_t). Also compiles with NVIDIA's nvcc
// (-arch=sm_90 -std=c++20), where the same checks hold.
#include "check.h"

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/latch>
#include <cuda/pipeline>
#include <cuda/semaphore>
#include <cuda/std/atomic>
#include <cuda/std/barrier>

#include <new>
#include <string>
#include <utility>

namespace cg = cooperative_groups;

constexpr int threads = 64;
constexpr int rounds = 5;

// Each round, every thread writes its slot, all wait, every thread reads its neighbour's slot; a
// token's wait in even rounds, arrive_and_wait in odd ones.
template <cuda::thread_scope Scope>
__global__ void barrier_rounds(int* out) {
  __shared__ cuda::barrier<Scope> bar;
  __shared__ int slots[threads];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int sum = 0;
  for (int r = 0; r < rounds; ++r) {
    slots[threadIdx.x] = r * 1000 + static_cast<int>(threadIdx.x);
    if (r % 2 == 0) {
      auto token = bar.arrive();
      bar.wait(std::move(token));
    } else {
      bar.arrive_and_wait();
    }
    sum += slots[(threadIdx.x + 1) % threads];
    bar.arrive_and_wait();  // every read is done before the next round's writes
  }
  out[blockIdx.x * threads + threadIdx.x] = sum;
}

struct count_phases {
  int* phases;
  __device__ void operator()() noexcept { ++*phases; }
};

// Half the threads leave after the first phase (arrive_and_drop); the rest go on alone, and the
// completion function counts every phase.
__global__ void barrier_drop(int* phases, int* after) {
  __shared__ cuda::barrier<cuda::thread_scope_block, count_phases> bar;
  if (threadIdx.x == 0) {
    *phases = 0;
    init(&bar, blockDim.x, count_phases{phases});
  }
  __syncthreads();
  if (threadIdx.x % 2 == 1) {
    bar.arrive_and_drop();
    return;
  }
  bar.arrive_and_wait();  // phase 0: every thread arrived (the odd ones dropping)
  for (int r = 0; r < 3; ++r) bar.arrive_and_wait();  // phases 1-3: the even threads alone
  after[threadIdx.x / 2] = *phases;
}

// cuda::std::barrier, constructed by the host in managed memory.
__global__ void std_barrier(cuda::std::barrier<>* bar, int* values, int* out) {
  values[threadIdx.x] = static_cast<int>(threadIdx.x) * 3;
  bar->arrive_and_wait();
  out[threadIdx.x] = values[threads - 1 - threadIdx.x];
}

// The block copies its tile into shared memory with cuda::memcpy_async into a barrier, then sums it.
__global__ void copy_with_barrier(const int* in, int* sums) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ __align__(16) int tile[threads];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in + blockIdx.x * threads, cuda::aligned_size_t<16>(sizeof(tile)), bar);
  bar.arrive_and_wait();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < threads; ++i) s += tile[i];
    sums[blockIdx.x] = s;
  }
}

// A thread's pipeline, double-buffered: each thread fetches its element of tile t + 1 while the
// block works on tile t.
__global__ void thread_pipeline(const int* in, int tiles, int* out) {
  __shared__ int buf[2][threads];
  auto pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&buf[0][threadIdx.x], &in[threadIdx.x], sizeof(int), pipe);
  pipe.producer_commit();
  int acc = 0;
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[(t + 1) % 2][threadIdx.x], &in[(t + 1) * threads + threadIdx.x], sizeof(int), pipe);
      pipe.producer_commit();
      cuda::pipeline_consumer_wait_prior<1>(pipe);
    } else {
      pipe.consumer_wait();
    }
    __syncthreads();
    acc += buf[t % 2][(threadIdx.x + 7) % threads];
    __syncthreads();
    pipe.consumer_release();
  }
  out[threadIdx.x] = acc;
}

// A block's pipeline of two stages: the first warp produces (each producer copies its share of a
// tile), the second consumes (sums the tile's column of each consumer).
__global__ void block_pipeline(const int* in, int tiles, int* out) {
  constexpr int half = threads / 2;
  __shared__ int buf[2][threads];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x < half;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (producer) {
    for (int t = 0; t < tiles; ++t) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[t % 2][threadIdx.x * 2], &in[t * threads + threadIdx.x * 2], 2 * sizeof(int), pipe);
      pipe.producer_commit();
    }
  } else {
    const int c = static_cast<int>(threadIdx.x) - half;
    int acc = 0;
    for (int t = 0; t < tiles; ++t) {
      pipe.consumer_wait();
      acc += buf[t % 2][c] + buf[t % 2][c + half];
      pipe.consumer_release();
    }
    out[c] = acc;
  }
}

// Every thread produces and consumes (make_pipeline without roles), one stage a tile.
__global__ void block_pipeline_shared(const int* in, int tiles, int* out) {
  __shared__ int buf[3][threads];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 3> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  int fetched = 0, acc = 0;
  for (int t = 0; t < tiles; ++t) {
    for (; fetched < tiles && fetched < t + 3; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetched % 3], &in[fetched * threads], sizeof(int) * threads, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[t % 3][threads - 1 - threadIdx.x];
    pipe.consumer_release();
  }
  out[threadIdx.x] = acc;
}

// cooperative_groups::memcpy_async of two tiles, waited for one at a time.
__global__ void cg_copies(const int* in, int* out) {
  __shared__ int a[threads], b[threads];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, a, in, sizeof(int) * threads);
  cg::memcpy_async(block, b, std::size_t{threads}, in + threads, std::size_t{threads});
  cg::wait_prior<1>(block);
  const int first = a[(threadIdx.x + 1) % threads];
  cg::wait(block);
  out[threadIdx.x] = first + b[threadIdx.x];
}

// Atomics: a block-scope counter in shared memory, a device-scope maximum through atomic_ref with
// compare_exchange, a flag waited for by one warp and set by another.
__global__ void atomics(int* counter, int* maximum, int* seen) {
  __shared__ cuda::atomic<int, cuda::thread_scope_block> local;
  __shared__ cuda::std::atomic<int> flag;
  if (threadIdx.x == 0) {
    local.store(0);
    flag.store(0);
  }
  __syncthreads();
  local.fetch_add(2);
  cuda::atomic_ref<int, cuda::thread_scope_device> max_ref(*maximum);
  int cur = max_ref.load();
  const int mine = static_cast<int>((threadIdx.x * 37) % threads);
  while (cur < mine && !max_ref.compare_exchange_weak(cur, mine)) {
  }
  if (threadIdx.x == 0) {
    flag.wait(0);  // until thread 32 stores
    seen[blockIdx.x] = flag.load();
  } else if (threadIdx.x == 32) {
    flag.store(7);
    flag.notify_all();
  }
  __syncthreads();
  if (threadIdx.x == 0) cuda::atomic_ref<int>(*counter).fetch_add(local.load());
}

// A binary semaphore guards a plain counter; a latch holds every thread until all counted down.
__global__ void latch_semaphore(cuda::latch<cuda::thread_scope_device>* done,
                                cuda::binary_semaphore<cuda::thread_scope_device>* lock, int* counter, int* seen) {
  lock->acquire();
  const int c = *counter;
  *counter = c + 1;  // one thread at a time
  lock->release();
  done->count_down();
  done->wait();
  seen[threadIdx.x] = *counter;
}

#ifdef CUSIM_UNMODIFIED_CUDA
// On the simulator a thread pipeline's copy is made at the wait that covers it, as late as a GPU
// may make it: a read before the wait sees what was there (on a GPU, either value).
__global__ void read_before_wait(const int* in, int* out) {
  __shared__ int slot[threads];
  slot[threadIdx.x] = -7;
  auto pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&slot[threadIdx.x], &in[threadIdx.x], sizeof(int), pipe);
  pipe.producer_commit();
  out[threadIdx.x] = slot[threadIdx.x];  // bug: before consumer_wait
  pipe.consumer_wait();
  out[threads + threadIdx.x] = slot[threadIdx.x];
}

// Misuses, on the simulator only (a GPU hangs, or goes on with garbage).
constexpr int uninit_line = __LINE__ + 4;
__global__ void barrier_uninitialised() {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __syncthreads();
  bar.arrive_and_wait();
}

constexpr int overarrival_line = __LINE__ + 6;
__global__ void barrier_overarrival() {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 4);
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)bar.arrive(5);
  }
}

constexpr int stale_line = __LINE__ + 11;
__global__ void barrier_stale_token() {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  auto token = bar.arrive();
  auto old = token;
  bar.wait(std::move(token));
  bar.arrive_and_wait();
  bar.arrive_and_wait();
  if (threadIdx.x == 0) {
    bar.wait(std::move(old));
  }
}

constexpr int overrun_line = __LINE__ + 8;
__global__ void copy_overrun(const int* in) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int tile[threads + 1];
  if (threadIdx.x == 0) init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    // bug: one element more than the allocation holds
    cuda::memcpy_async(tile, in, sizeof(int) * (threads + 1), bar);
    bar.arrive_and_wait();
  }
}

__global__ void pipeline_never_committed(int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x < 32;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (!producer) {  // bug: the producers return without committing anything
    pipe.consumer_wait();
    out[threadIdx.x] = 1;
    pipe.consumer_release();
  }
}

constexpr int role_line = __LINE__ + 7;
__global__ void pipeline_wrong_role() {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x < 32;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  if (threadIdx.x == 40) {
    pipe.producer_acquire();
    pipe.producer_commit();
  }
}

constexpr int latch_line = __LINE__ + 2;
__global__ void latch_overcount(cuda::latch<cuda::thread_scope_device>* l) {
  if (threadIdx.x == 3) l->count_down(5);  // bug: the latch counts 4
}

constexpr int misaligned_line = __LINE__ + 5;
__global__ void copy_misaligned(const int* in) {
  __shared__ __align__(16) int tile[threads];
  auto block = cg::this_thread_block();
  // bug: 4 bytes off the 16-byte alignment promised
  cg::memcpy_async(block, tile, in + 1, cuda::aligned_size_t<16>(sizeof(int) * 16));
  cg::wait(block);
}

// Runs `launch`, expects `code` from the synchronisation and a report holding each of `parts`.
template <class Launch>
void expect_fault(const char* name, Launch launch, cudaError_t code, std::initializer_list<std::string> parts) {
  stderr_capture capture;
  launch();
  const cudaError_t e = cudaDeviceSynchronize();
  const std::string report = capture.text();
  if (e != code) std::printf("%s: %s\n", name, cudaGetErrorName(e));
  CHECK_EQ(e, code);
  for (const std::string& p : parts) {
    const bool found = report.find(p) != std::string::npos;
    if (!found) std::printf("%s: no \"%s\" in the report:\n%s", name, p.c_str(), report.c_str());
    CHECK(found);
  }
  CHECK_EQ(cudaDeviceReset(), cudaSuccess);
}

std::string at(int line) { return "(libcudacxx.cu:" + std::to_string(line) + ")"; }

void misuses() {
  expect_fault("uninitialised", [] { barrier_uninitialised<<<1, 32>>>(); }, cudaErrorLaunchFailure,
               {"ctaid=[0, 0, 0]: cuda::barrier used before init", at(uninit_line)});
  expect_fault("overarrival", [] { barrier_overarrival<<<1, 4>>>(); }, cudaErrorLaunchFailure,
               {"tid=[0, 0, 0] ctaid=[0, 0, 0]: cuda::barrier::arrive(5): 5 arrivals when the phase expects only 4 more",
                at(overarrival_line)});
  expect_fault("stale token", [] { barrier_stale_token<<<1, 32>>>(); }, cudaErrorLaunchFailure,
               {"tid=[0, 0, 0] ctaid=[0, 0, 0]: cuda::barrier::wait: the arrival token is of phase 0, but the barrier is in phase 3",
                at(stale_line)});
  int* small;
  CHECK_EQ(cudaMalloc(&small, sizeof(int) * threads), cudaSuccess);
  expect_fault("overrun", [&] { copy_overrun<<<1, 32>>>(small); }, cudaErrorIllegalAddress,
               {"tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at 0x",
                "0 bytes past the end of a 256-byte allocation of device memory (cudaMalloc)",
                at(overrun_line)});
  int* out;
  CHECK_EQ(cudaMalloc(&out, sizeof(int) * threads), cudaSuccess);
  expect_fault("never committed", [&] { pipeline_never_committed<<<1, threads>>>(out); }, cudaErrorLaunchFailure,
               {"ctaid=[0, 0, 0]: deadlock"});
  expect_fault("wrong role", [] { pipeline_wrong_role<<<1, threads>>>(); }, cudaErrorLaunchFailure,
               {"tid=[40, 0, 0] ctaid=[0, 0, 0]: cuda::pipeline: producer_acquire or producer_commit by a thread that "
                "joined the pipeline as a consumer",
                at(role_line)});
  cuda::latch<cuda::thread_scope_device>* l;
  CHECK_EQ(cudaMallocManaged(&l, sizeof(*l)), cudaSuccess);
  new (l) cuda::latch<cuda::thread_scope_device>(4);
  expect_fault("latch", [&] { latch_overcount<<<1, 32>>>(l); }, cudaErrorLaunchFailure,
               {"tid=[3, 0, 0] ctaid=[0, 0, 0]: cuda::latch: a count down by 5 when the count is 4", at(latch_line)});
  int* in;
  CHECK_EQ(cudaMalloc(&in, sizeof(int) * threads), cudaSuccess);
  expect_fault("misaligned", [&] { copy_misaligned<<<1, 32>>>(in); }, cudaErrorMisalignedAddress,
               {"tid=[0, 0, 0] ctaid=[0, 0, 0]: memcpy_async with cuda::aligned_size_t<16>:", "is not a multiple of 16",
                at(misaligned_line)});
}
#endif

int main() {
  const int blocks = 3, tiles = 6;
  int *out, *in, *sums, *phases, *after;
  CHECK_EQ(cudaMallocManaged(&out, sizeof(int) * blocks * threads), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&in, sizeof(int) * tiles * threads), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&sums, sizeof(int) * blocks), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&phases, sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&after, sizeof(int) * threads), cudaSuccess);
  for (int i = 0; i < tiles * threads; ++i) in[i] = i * 7 % 101;

  int expected_rounds[threads];
  for (int t = 0; t < threads; ++t) {
    expected_rounds[t] = 0;
    for (int r = 0; r < rounds; ++r) expected_rounds[t] += r * 1000 + (t + 1) % threads;
  }
  barrier_rounds<cuda::thread_scope_block><<<blocks, threads>>>(out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < blocks * threads; ++i) CHECK_EQ(out[i], expected_rounds[i % threads]);
  barrier_rounds<cuda::thread_scope_device><<<blocks, threads>>>(out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < blocks * threads; ++i) CHECK_EQ(out[i], expected_rounds[i % threads]);

  barrier_drop<<<1, threads>>>(phases, after);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*phases, 4);
  for (int i = 0; i < threads / 2; ++i) CHECK_EQ(after[i], 4);

  cuda::std::barrier<>* sb;
  CHECK_EQ(cudaMallocManaged(&sb, sizeof(cuda::std::barrier<>)), cudaSuccess);
  new (sb) cuda::std::barrier<>(threads);
  int* values;
  CHECK_EQ(cudaMallocManaged(&values, sizeof(int) * threads), cudaSuccess);
  std_barrier<<<1, threads>>>(sb, values, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < threads; ++i) CHECK_EQ(out[i], (threads - 1 - i) * 3);

  copy_with_barrier<<<blocks, threads>>>(in, sums);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < blocks; ++b) {
    int s = 0;
    for (int i = 0; i < threads; ++i) s += in[b * threads + i];
    CHECK_EQ(sums[b], s);
  }

  thread_pipeline<<<1, threads>>>(in, tiles, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < threads; ++i) {
    int s = 0;
    for (int t = 0; t < tiles; ++t) s += in[t * threads + (i + 7) % threads];
    CHECK_EQ(out[i], s);
  }

  block_pipeline<<<1, threads>>>(in, tiles, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int c = 0; c < threads / 2; ++c) {
    int s = 0;
    for (int t = 0; t < tiles; ++t) s += in[t * threads + c] + in[t * threads + c + threads / 2];
    CHECK_EQ(out[c], s);
  }

  block_pipeline_shared<<<1, threads>>>(in, tiles, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < threads; ++i) {
    int s = 0;
    for (int t = 0; t < tiles; ++t) s += in[t * threads + threads - 1 - i];
    CHECK_EQ(out[i], s);
  }

  cg_copies<<<1, threads>>>(in, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < threads; ++i) CHECK_EQ(out[i], in[(i + 1) % threads] + in[threads + i]);

  int *counter, *maximum, *seen;
  CHECK_EQ(cudaMallocManaged(&counter, sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&maximum, sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&seen, 2 * sizeof(int)), cudaSuccess);
  *counter = 5;
  *maximum = -1;
  seen[0] = seen[1] = 0;
  atomics<<<2, threads>>>(counter, maximum, seen);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*counter, 5 + 2 * 2 * threads);
  CHECK_EQ(*maximum, threads - 1);
  CHECK_EQ(seen[0], 7);
  CHECK_EQ(seen[1], 7);

  cuda::latch<cuda::thread_scope_device>* done;
  cuda::binary_semaphore<cuda::thread_scope_device>* lock;
  CHECK_EQ(cudaMallocManaged(&done, sizeof(*done)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&lock, sizeof(*lock)), cudaSuccess);
  new (done) cuda::latch<cuda::thread_scope_device>(threads);
  new (lock) cuda::binary_semaphore<cuda::thread_scope_device>(1);
  *counter = 0;
  latch_semaphore<<<1, threads>>>(done, lock, counter, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*counter, threads);
  for (int i = 0; i < threads; ++i) CHECK_EQ(out[i], threads);

#ifdef CUSIM_UNMODIFIED_CUDA
  read_before_wait<<<1, threads>>>(in, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < threads; ++i) {
    CHECK_EQ(out[i], -7);
    CHECK_EQ(out[threads + i], in[i]);
  }
  misuses();
#endif
  return finish();
}
