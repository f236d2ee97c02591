// SPDX-License-Identifier: MIT
// The bug corpus: one small buggy kernel per class of bug the simulator and its checkers find,
// each with the exact class, thread, block and source line reported, and clean kernels that
// must produce no finding under every checker. Simulator only: the checkers are its own.
#include "../api/test_support.hpp"

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

namespace {

/// The kernel_error `f` throws (it must throw one).
template <class F>
cusim::kernel_error fault_of(F&& f) {
  try {
    f();
  } catch (const cusim::kernel_error& e) {
    return e;
  }
  FAIL("expected a cusim::kernel_error");
  throw std::logic_error("unreachable");
}

/// Checks the class, thread, block and line of a finding (and the file name).
void expect(const cusim::kernel_error& e, cusim::fault_kind kind, dim3 tid, dim3 ctaid, unsigned line) {
  INFO(std::string(e.what()));
  CHECK(e.kind() == kind);
  CHECK(e.thread_idx().x == tid.x);
  CHECK(e.thread_idx().y == tid.y);
  CHECK(e.thread_idx().z == tid.z);
  CHECK(e.block_idx().x == ctaid.x);
  CHECK(e.block_idx().y == ctaid.y);
  CHECK(e.block_idx().z == ctaid.z);
  CHECK(e.line() == line);
  CHECK(e.file().find("corpus.cu") != std::string::npos);
}

/// The other side of a data race.
void expect_other(const cusim::kernel_error& e, const char* hazard, dim3 tid, dim3 ctaid, unsigned line) {
  INFO(std::string(e.what()));
  const auto& d = e.info();
  CHECK(d.hazard == hazard);
  CHECK(d.other_thread_idx.x == tid.x);
  CHECK(d.other_thread_idx.y == tid.y);
  CHECK(d.other_block_idx.x == ctaid.x);
  CHECK(d.other_block_idx.y == ctaid.y);
  CHECK(d.other_line == line);
}

}  // namespace

// ---- out-of-bounds (always on) -----------------------------------------------------------

__global__ void off_by_one_global(cusim::span<int> out) {
  const int i = cusim::grid<1>();
  if (i <= static_cast<int>(out.size())) out[i] = i;  // BUG: <=
}
constexpr unsigned off_by_one_global_line = __LINE__ - 2;

__global__ void off_by_one_shared(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 32> s;
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];  // BUG: the last thread reads past the end
}
constexpr unsigned off_by_one_shared_line = __LINE__ - 2;

__global__ void off_by_one_local(cusim::span<int> out) {
  cusim::local_array<int, 4> a;
  for (int k = 0; k <= 4; ++k) a[k] = k;  // BUG: <=
  out[threadIdx.x] = a[0];
}
constexpr unsigned off_by_one_local_line = __LINE__ - 3;

__constant__ cusim::const_array<int, 4> weights;
__global__ void off_by_one_const(cusim::span<int> out) {
  out[threadIdx.x] = weights[threadIdx.x];  // BUG: 5 threads, 4 weights
}
constexpr unsigned off_by_one_const_line = __LINE__ - 2;

TEST_CASE("corpus: off-by-one on global, shared, local and constant arrays") {
  cusim::device_array<int> out(32);
  auto e = fault_of([&] { cusim::launch(off_by_one_global, 3, 16, out); });
  expect(e, cusim::fault_kind::out_of_bounds, {0, 0, 0}, {2, 0, 0}, off_by_one_global_line);
  CHECK(e.space() == cusim::memory_space::global);
  CHECK(e.index() == 32);

  e = fault_of([&] { cusim::launch(off_by_one_shared, 1, 32, out); });
  expect(e, cusim::fault_kind::out_of_bounds, {31, 0, 0}, {0, 0, 0}, off_by_one_shared_line);
  CHECK(e.space() == cusim::memory_space::shared);

  e = fault_of([&] { cusim::launch(off_by_one_local, 1, 8, out); });
  expect(e, cusim::fault_kind::out_of_bounds, {0, 0, 0}, {0, 0, 0}, off_by_one_local_line);
  CHECK(e.space() == cusim::memory_space::local);

  cusim::copy_to_constant(weights, std::vector<int>{1, 2, 3, 4});
  e = fault_of([&] { cusim::launch(off_by_one_const, 1, 5, out); });
  expect(e, cusim::fault_kind::out_of_bounds, {4, 0, 0}, {0, 0, 0}, off_by_one_const_line);
  CHECK(e.space() == cusim::memory_space::constant);
}

// ---- races (CUSIM_CHECK=race) ------------------------------------------------------------

__global__ void neighbour_without_barrier(cusim::span<const int> in, cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  out[t] = s[(t + 1) % 64];  // BUG: no __syncthreads() before reading the neighbour's value
}
constexpr unsigned neighbour_write_line = __LINE__ - 3;
constexpr unsigned neighbour_read_line = __LINE__ - 3;

TEST_CASE("corpus: a missing barrier before reading a neighbour's shared value is a race") {
  scoped_env check("CUSIM_CHECK", "race");
  auto in = cusim::to_device(std::vector<int>(64, 7));
  cusim::device_array<int> out(64);
  const auto e = fault_of([&] { cusim::launch(neighbour_without_barrier, 1, 64, in, out); });
  // Thread 0 reads s[1] first; thread 1 then writes it: a write after a read, unordered.
  expect(e, cusim::fault_kind::data_race, {1, 0, 0}, {0, 0, 0}, neighbour_write_line);
  expect_other(e, "WAR", {0, 0, 0}, {0, 0, 0}, neighbour_read_line);
  CHECK(e.info().count == 63);
  // The whole report, as README.md quotes it (the line numbers are this file's).
  CHECK(std::string(e.what()) == std::string("tid=[1, 0, 0] ctaid=[0, 0, 0]: data race on shared memory (WAR hazard): write at corpus.cu:112 races with the read by tid=[0, 0, 0] ctaid=[0, 0, 0] at corpus.cu:113, with no barrier between (63 hazards)\n"
                                 "========= cusim memory check: 2 records\n"
                                 "=========     WAR hazard on shared memory (63 hazards): read by tid=[0, 0, 0] ctaid=[0, 0, 0] at corpus.cu:113, then write by tid=[1, 0, 0] ctaid=[0, 0, 0] at corpus.cu:112\n"
                                 "=========     RAW hazard on shared memory (1 hazard): write by tid=[0, 0, 0] ctaid=[0, 0, 0] at corpus.cu:112, then read by tid=[63, 0, 0] ctaid=[0, 0, 0] at corpus.cu:113"));
}

__global__ void reduction_without_barrier(cusim::span<const int> in, cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 128> s;
  const unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned stride = 64; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];  // BUG: no __syncthreads() between the steps
  }
  if (t == 0) out[0] = s[0];
}
constexpr unsigned reduction_line = __LINE__ - 4;

TEST_CASE("corpus: a tree reduction without a barrier between its steps is a race") {
  scoped_env check("CUSIM_CHECK", "race");
  auto in = cusim::to_device(std::vector<int>(128, 1));
  cusim::device_array<int> out(1);
  const auto e = fault_of([&] { cusim::launch(reduction_without_barrier, 1, 128, in, out); });
  // Thread 0 runs its whole loop first, reading s[1] at its last step; thread 1 then adds into
  // s[1] at its first step: a write after a read, unordered.
  INFO(std::string(e.what()));
  CHECK(e.kind() == cusim::fault_kind::data_race);
  CHECK(e.line() == reduction_line);
  CHECK(e.info().other_line == reduction_line);
  CHECK(e.info().hazard == "WAR");
  CHECK(e.thread_idx().x == 1);
  CHECK(e.info().other_thread_idx.x == 0);
}

__global__ void warp_sync_missing(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  const unsigned t = threadIdx.x;
  s[t] = 1;
  s[t + 32] = 1;
  __syncthreads();
  if (t < 32) {  // warp-synchronous tail of a reduction
    for (unsigned stride = 32; stride > 0; stride /= 2) s[t] += s[t + stride];  // BUG: no __syncwarp()
  }
  if (t == 0) out[0] = s[0];
}
constexpr unsigned warp_sync_line = __LINE__ - 4;

__global__ void warp_sync_present(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  const unsigned t = threadIdx.x;
  s[t] = 1;
  s[t + 32] = 1;
  __syncthreads();
  for (unsigned stride = 32; stride > 0; stride /= 2) {
    const int v = s[t] + s[t + stride];
    __syncwarp();
    s[t] = v;
    __syncwarp();
  }
  if (t == 0) out[0] = s[0];
}

TEST_CASE("corpus: warp-synchronous code needs __syncwarp between its steps") {
  scoped_env check("CUSIM_CHECK", "race");
  cusim::device_array<int> out(1);
  const auto e = fault_of([&] { cusim::launch(warp_sync_missing, 1, 32, out); });
  INFO(std::string(e.what()));
  CHECK(e.kind() == cusim::fault_kind::data_race);
  CHECK(e.line() == warp_sync_line);
  CHECK(e.thread_idx().x == 1);  // thread 0 read s[1] at stride 1; thread 1 then wrote it
  CHECK(e.info().other_thread_idx.x == 0);
  CHECK(e.info().hazard == "WAR");

  cusim::launch(warp_sync_present, 1, 32, out);  // the same steps with __syncwarp: clean
  CHECK(out.copy_to_host()[0] == 64);
}

__global__ void cross_block_race(cusim::span<int> out) {
  if (threadIdx.x == 0) out[0] = static_cast<int>(blockIdx.x) + 1;  // BUG: every block writes out[0]
}
constexpr unsigned cross_block_line = __LINE__ - 2;

TEST_CASE("corpus: blocks writing the same global element race, whatever the worker count") {
  scoped_env check("CUSIM_CHECK", "race");
  cusim::device_array<int> out(1);
  std::set<std::string> messages;
  for (const char* workers : {"1", "2", "4"}) {
    scoped_env w("CUSIM_WORKERS", workers);
    const auto e = fault_of([&] { cusim::launch(cross_block_race, 4, 32, out); });
    expect(e, cusim::fault_kind::data_race, {0, 0, 0}, {1, 0, 0}, cross_block_line);
    expect_other(e, "WAW", {0, 0, 0}, {0, 0, 0}, cross_block_line);
    CHECK(e.info().count == 3);
    messages.insert(e.what());
  }
  CHECK(messages.size() == 1);
}

__global__ void atomic_counter(cusim::span<int> out) {
  atomicAdd(&out[0], 1);  // atomics do not race with atomics
}
__global__ void atomic_then_plain(cusim::span<int> out) {
  if (threadIdx.x == 0) atomicAdd(&out[0], 1);
  if (threadIdx.x == 1) out[0] = 5;  // BUG: a plain store races with the atomic
}
constexpr unsigned atomic_then_plain_line = __LINE__ - 2;

TEST_CASE("corpus: atomics race with plain accesses, not with each other") {
  scoped_env check("CUSIM_CHECK", "race");
  cusim::device_array<int> out(1);
  cudaMemset(out.data(), 0, sizeof(int));
  cusim::launch(atomic_counter, 4, 64, out);
  CHECK(out.copy_to_host()[0] == 256);
  const auto e = fault_of([&] { cusim::launch(atomic_then_plain, 1, 32, out); });
  expect(e, cusim::fault_kind::data_race, {1, 0, 0}, {0, 0, 0}, atomic_then_plain_line);
  expect_other(e, "WAW", {0, 0, 0}, {0, 0, 0}, atomic_then_plain_line - 1);
}

TEST_CASE("corpus: the checkers see every access of a kernel compiled into the thread loop (launch<kernel>)") {
  // launch<kernel> runs an observed block through the kernel compiled on its own, and the copy in
  // the loop without its access hooks: the findings must be those of launch(kernel, ...).
  scoped_env check("CUSIM_CHECK", "race");
  auto in = cusim::to_device(std::vector<int>(64, 7));
  cusim::device_array<int> out(64);
  auto e = fault_of([&] { cusim::launch<neighbour_without_barrier>(1, 64, in, out); });
  expect(e, cusim::fault_kind::data_race, {1, 0, 0}, {0, 0, 0}, neighbour_write_line);
  expect_other(e, "WAR", {0, 0, 0}, {0, 0, 0}, neighbour_read_line);
  CHECK(e.info().count == 63);
  e = fault_of([&] { cusim::launch<cross_block_race>(4, 32, out); });
  expect(e, cusim::fault_kind::data_race, {0, 0, 0}, {1, 0, 0}, cross_block_line);
  e = fault_of([&] { cusim::launch<atomic_then_plain>(1, 32, out); });
  expect(e, cusim::fault_kind::data_race, {1, 0, 0}, {0, 0, 0}, atomic_then_plain_line);
  cudaMemset(out.data(), 0, sizeof(int));
  cusim::launch<atomic_counter>(4, 64, out);  // clean: atomics do not race with atomics
  CHECK(out.copy_to_host()[0] == 256);
}

// ---- uninitialised reads (CUSIM_CHECK=init) ------------------------------------------------

__global__ void uninitialized_shared(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  if (threadIdx.x < 32) s[threadIdx.x] = 1;  // BUG: only half of the array is written
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
constexpr unsigned uninitialized_shared_line = __LINE__ - 2;

__global__ void copy_kernel(cusim::span<const int> in, cusim::span<int> out) {
  out[threadIdx.x] = in[threadIdx.x];
}
constexpr unsigned copy_kernel_line = __LINE__ - 2;

TEST_CASE("corpus: reads of shared and device memory never written") {
  scoped_env check("CUSIM_CHECK", "init");
  cusim::device_array<int> out(64);
  auto e = fault_of([&] { cusim::launch(uninitialized_shared, 1, 64, out); });
  expect(e, cusim::fault_kind::uninitialized_read, {32, 0, 0}, {0, 0, 0}, uninitialized_shared_line);
  CHECK(e.info().count == 32);
  CHECK(std::string(e.what()).starts_with(
      "tid=[32, 0, 0] ctaid=[0, 0, 0]: uninitialized read of shared memory: the bytes read were never written in "
      "this block (32 reads)\n"));

  cusim::device_array<int> fresh(64);  // cudaMalloc'd, never written
  e = fault_of([&] { cusim::launch(copy_kernel, 1, 64, fresh, out); });
  expect(e, cusim::fault_kind::uninitialized_read, {0, 0, 0}, {0, 0, 0}, copy_kernel_line);
  CHECK(e.info().count == 64);

  fresh.copy_from_host(std::vector<int>(64, 3));  // now written by the host: clean
  cusim::launch(copy_kernel, 1, 64, fresh, out);
  CHECK(out.copy_to_host()[5] == 3);
}

// ---- barriers (always on, and CUSIM_CHECK=sync) ----------------------------------------------

__global__ void divergent_barrier(cusim::span<int> out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    __syncthreads();  // BUG: a different __syncthreads
  }
  out[threadIdx.x] = 1;
}
constexpr unsigned divergent_barrier_line = __LINE__ - 4;

__global__ void barrier_in_branch(cusim::span<int> out) {
  if (threadIdx.x >= 16) return;
  __syncthreads();  // BUG on pre-Volta GPUs: threads 16..31 never reach it
  out[threadIdx.x] = 1;
}
constexpr unsigned barrier_in_branch_line = __LINE__ - 3;

TEST_CASE("corpus: divergent barriers, and barriers not every thread reaches under CUSIM_CHECK=sync") {
  cusim::device_array<int> out(32);
  auto e = fault_of([&] { cusim::launch(divergent_barrier, 1, 32, out); });
  expect(e, cusim::fault_kind::barrier_divergence, {16, 0, 0}, {0, 0, 0}, divergent_barrier_line);

  cusim::launch(barrier_in_branch, 1, 32, out);  // exited threads count as arrived, as on a GPU
  scoped_env check("CUSIM_CHECK", "sync");
  e = fault_of([&] { cusim::launch(barrier_in_branch, 1, 32, out); });
  expect(e, cusim::fault_kind::barrier_divergence, {0, 0, 0}, {0, 0, 0}, barrier_in_branch_line);
  CHECK(std::string(e.what()) ==
        "tid=[0, 0, 0] ctaid=[0, 0, 0]: barrier divergence (CUSIM_CHECK=sync): 16 of 32 threads wait at this "
        "__syncthreads, but thread tid=[16, 0, 0] ctaid=[0, 0, 0] has exited without reaching it (a GPU counts "
        "exited threads as arrived; strict checking does not) (corpus.cu:" +
            std::to_string(barrier_in_branch_line) + ")");
}

__global__ void syncwarp_mask_with_exited_lanes(cusim::span<int> out) {
  if (threadIdx.x >= 16) return;
  __syncwarp();  // BUG: the full mask names lanes 16..31, which have returned
  out[threadIdx.x] = 1;
}
constexpr unsigned syncwarp_line = __LINE__ - 3;

TEST_CASE("corpus: a __syncwarp mask naming lanes that never arrive, under CUSIM_CHECK=sync") {
  cusim::device_array<int> out(32);
  cusim::launch(syncwarp_mask_with_exited_lanes, 1, 32, out);  // exited lanes count as arrived by default
  scoped_env check("CUSIM_CHECK", "sync");
  const auto e = fault_of([&] { cusim::launch(syncwarp_mask_with_exited_lanes, 1, 32, out); });
  expect(e, cusim::fault_kind::warp_collective, {0, 0, 0}, {0, 0, 0}, syncwarp_line);
  CHECK(std::string(e.what()).find("__syncwarp(0xffffffff) can never complete: lane 16 of the mask has exited "
                                   "(CUSIM_CHECK=sync: every lane of a __syncwarp mask must reach it)") !=
        std::string::npos);
}

// ---- deadlock ------------------------------------------------------------------------------

__global__ void spin_wait_deadlock(cusim::span<int> flag) {
  if (threadIdx.x == 0) {
    while (atomicAdd(&flag[0], 0) == 0) {  // BUG: thread 1 sets the flag only after a barrier
    }
  }
  __syncthreads();
  if (threadIdx.x == 1) atomicExch(&flag[0], 1);
}
constexpr unsigned spin_line = __LINE__ - 6;

TEST_CASE("corpus: a spin-wait on a flag set after a barrier is a deadlock, not a hang") {
  cusim::device_array<int> flag(1);
  cudaMemset(flag.data(), 0, sizeof(int));
  const auto e = fault_of([&] { cusim::launch(spin_wait_deadlock, 1, 32, flag); });
  INFO(std::string(e.what()));
  CHECK(e.kind() == cusim::fault_kind::deadlock);
  CHECK(e.thread_idx().x == 0);
  static_cast<void>(spin_line);  // atomics carry no source location: the report names the thread
}

// ---- clean kernels: no finding under every checker, with any worker count ------------------

#include "../../examples/matmul_kernels.hpp"  // the tiled matmul of the examples, a clean kernel

__global__ void clean_reduce(cusim::span<const int> in, cusim::span<int> partial) {
  __shared__ cusim::shared_array<int, 128> s;
  const unsigned t = threadIdx.x;
  const int i = cusim::grid<1>();
  s[t] = i < static_cast<int>(in.size()) ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = 64; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

__global__ void clean_histogram(cusim::span<const int> in, cusim::span<int> bins) {
  __shared__ cusim::shared_array<int, 8> local;
  if (threadIdx.x < 8) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = cusim::grid<1>(); i < static_cast<int>(in.size()); i += cusim::gridsize<1>()) atomicAdd(&local[in[i] % 8], 1);
  __syncthreads();
  if (threadIdx.x < 8) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void clean_shuffle(cusim::span<const int> in, cusim::span<int> out) {
  int v = in[cusim::grid<1>()];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0) out[cusim::grid<1>() / 32] = v;
}

__global__ void clean_grid_sync(cusim::span<int> data) {
  auto grid = cusim::cg::this_grid();
  const int i = cusim::grid<1>();
  data[i] = i;
  grid.sync();
  const int n = static_cast<int>(data.size());
  const int neighbour = data[(i + 1) % n];
  grid.sync();
  data[i] = neighbour;
}

TEST_CASE("corpus: clean kernels produce no finding under every checker, with 1 or 2 workers") {
  scoped_env check("CUSIM_CHECK", "race,init,sync");
  for (const char* workers : {"1", "2"}) {
    scoped_env w("CUSIM_WORKERS", workers);
    const int n = 40;  // not a multiple of the tile: the edges are guarded
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) a[i] = static_cast<float>(i % 7), b[i] = static_cast<float>(i % 5);
    auto dA = cusim::to_device(a, n, n);
    auto dB = cusim::to_device(b, n, n);
    cusim::device_array<float, 2> dC(n, n);
    cusim::launch(matmul_tiled, dim3(3, 3), dim3(TPB, TPB), dA, dB, dC);
    const auto c = dC.copy_to_host();
    float ref = 0;
    for (int k = 0; k < n; ++k) ref += a[5 * n + k] * b[k * n + 7];
    CHECK(c[5 * n + 7] == doctest::Approx(ref));

    auto in = cusim::to_device(std::vector<int>(1000, 1));
    cusim::device_array<int> partial(8);
    cusim::launch(clean_reduce, 8, 128, in, partial);
    int sum = 0;
    for (int p : partial.copy_to_host()) sum += p;
    CHECK(sum == 1000);

    auto bins = cusim::to_device(std::vector<int>(8, 0));
    cusim::launch(clean_histogram, 4, 64, in, bins);
    CHECK(bins.copy_to_host()[1] == 1000);

    auto ones = cusim::to_device(std::vector<int>(256, 1));
    cusim::device_array<int> warps(8);
    cusim::launch(clean_shuffle, 2, 128, ones, warps);
    CHECK(warps.copy_to_host()[3] == 32);

    auto data = cusim::to_device(std::vector<int>(256, 0));
    cusim::launch_cooperative(clean_grid_sync, cusim::launch_config{4, 64}, data);
    CHECK(data.copy_to_host()[10] == 11);
  }
}

// ---- schedule fuzzing (CUSIM_SCHEDULE=random:SEED) -------------------------------------------

__global__ void order_dependent(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 32> s;
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 32];  // BUG: depends on which thread ran first
}

TEST_CASE("CUSIM_SCHEDULE=random:SEED shakes out order-dependent results, reproducibly") {
  cusim::device_array<int> out(32);
  auto run = [&](const char* schedule) {
    scoped_env s("CUSIM_SCHEDULE", schedule);
    cusim::launch(order_dependent, 1, 32, out);
    return out.copy_to_host();
  };
  const auto fixed = run("default");
  CHECK(fixed == run("default"));
  std::set<std::vector<int>> seen{fixed};
  for (int seed = 1; seed <= 8; ++seed) {
    const std::string schedule = "random:" + std::to_string(seed);
    const auto result = run(schedule.c_str());
    CHECK(result == run(schedule.c_str()));  // the same seed, the same interleaving
    seen.insert(result);
  }
  CHECK(seen.size() >= 4);
  // The same interleavings through launch<kernel>, whose loop runs a fuzzed block through the
  // kernel compiled on its own (the copy in the loop has no shuffle points left).
  auto run_inline = [&](const char* schedule) {
    scoped_env s("CUSIM_SCHEDULE", schedule);
    cusim::launch<order_dependent>(1, 32, out);
    return out.copy_to_host();
  };
  for (int seed = 1; seed <= 8; ++seed) {
    const std::string schedule = "random:" + std::to_string(seed);
    CHECK(run_inline(schedule.c_str()) == run(schedule.c_str()));
  }
  CHECK(run_inline("default") == fixed);
  scoped_env w("CUSIM_WORKERS", "1");
  CHECK(run("random:3") == (scoped_env("CUSIM_WORKERS", "2"), run("random:3")));
}
