// SPDX-License-Identifier: MIT
// Warp collectives and exits after a __syncthreads: on the simulator a block's threads then take
// turns in a fixed cycle (ring mode, docs/internals.md "One barrier"), which keeps collectives
// and exits. Results as on a GPU, the run order the general path gives, and the misuses' reports.
#include "test_support.hpp"

#include <string>
#include <vector>

namespace {

constexpr unsigned full = 0xffffffffu;

// Every warp reduces with shuffles after a barrier, tiles of 16 and 8 lanes shuffle with their own
// masks, a ballot, then half of the warps leave and the others reduce again after a barrier.
__global__ void after_barrier(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 256> s;
  __shared__ cusim::shared_array<int, 8> partial;
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, n = static_cast<int>(blockDim.x);
  int v = t + 7 * static_cast<int>(blockIdx.x);
  s[t] = v;
  __syncthreads();
  v += s[(t + 5) % n];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(full, v, static_cast<unsigned>(d));
  const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
  int h = __shfl_xor_sync(half, t, 3, 16);
  const unsigned eighth = 0xffu << (lane / 8 * 8);
  h += __shfl_sync(eighth, t * 2, 7, 8);
  const unsigned ballot = __ballot_sync(full, (t + static_cast<int>(blockIdx.x)) % 3 == 0);
  out[blockIdx.x * n + t] = h + static_cast<int>(ballot % 1000);
  if (lane == 0) partial[t / 32] = v;
  __syncthreads();
  if (t / 32 % 2 == 1) return;  // odd warps leave: they count as arrived at the next barrier
  __syncthreads();
  int w = lane < n / 32 ? partial[lane] : 0;
  for (int d = 16; d > 0; d /= 2) w += __shfl_xor_sync(full, w, d);
  if (lane == 0) out[gridDim.x * n + blockIdx.x * (n / 32) + t / 32] = w;
}

std::vector<int> after_barrier_reference(int blocks, int n) {
  std::vector<int> out(static_cast<std::size_t>(blocks * n + blocks * (n / 32)));
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> v(n), s(n);
    for (int t = 0; t < n; ++t) s[t] = t + 7 * b;
    for (int t = 0; t < n; ++t) v[t] = s[t] + s[(t + 5) % n];
    for (int d = 16; d > 0; d /= 2) {
      std::vector<int> next = v;
      for (int t = 0; t < n; ++t)
        if (t % 32 + d < 32) next[t] = v[t] + v[t + d];
        else next[t] = v[t] + v[t];  // a lane whose source lies past the warp reads its own value
      v = next;
    }
    for (int t = 0; t < n; ++t) {
      const int lane = t % 32, base = t - lane;
      const int xor_src = base + (lane / 16 * 16) + ((lane % 16) ^ 3);
      const int idx_src = base + lane / 8 * 8 + 7;
      unsigned ballot = 0;
      for (int l = 0; l < 32; ++l)
        if ((base + l + b) % 3 == 0) ballot |= 1u << l;
      out[b * n + t] = xor_src + 2 * idx_src + static_cast<int>(ballot % 1000);
    }
    int sum = 0;
    for (int w = 0; w < n / 32; ++w) sum += v[w * 32];
    for (int w = 0; w < n / 32; w += 2) out[blocks * n + b * (n / 32) + w] = sum;
  }
  return out;
}

TEST_CASE("after a barrier, shuffles of every warp, tiles' own masks, a ballot and warps leaving give a GPU's results") {
  for (int n : {256, 64}) {
    CAPTURE(n);
    const int blocks = 6;
    cusim::device_array<int> out(static_cast<std::size_t>(blocks * n + blocks * (n / 32)));
    cusim::launch(after_barrier, blocks, n, out);
    const std::vector<int> r = out.copy_to_host(), want = after_barrier_reference(blocks, n);
    for (int b = 0; b < blocks; ++b)
      for (int w = 0; w < n / 32; w += 2) CHECK(r[blocks * n + b * (n / 32) + w] == want[blocks * n + b * (n / 32) + w]);
    for (int i = 0; i < blocks * n; ++i) {
      CAPTURE(i);
      CHECK(r[i] == want[i]);
    }
  }
}

// The order in which the threads pass each point, as tickets of one counter: a property of the
// simulator's deterministic schedule, not of a GPU. Ring mode must give the general path's order
// (the same first fault, the same report), which CUSIM_CHECK=sync takes (a checker: no ring).
__global__ void run_order(cusim::span<int> trace, int* counter) {
  __shared__ cusim::shared_array<int, 256> s;
  const int t = static_cast<int>(threadIdx.x), lane = t % 32;
  s[t] = t;
  __syncthreads();
  int v = s[(t + 1) % blockDim.x];
  for (int d = 1; d < 32; d *= 2) {
    v += __shfl_xor_sync(full, v, d);
    trace[atomicAdd(counter, 1)] = t;
  }
  v += __shfl_down_sync(lane < 16 ? 0x0000ffffu : 0xffff0000u, v, 1, 16);
  trace[atomicAdd(counter, 1)] = t;
  __syncthreads();
  if (t % 64 >= 32) {  // odd warps leave while even ones shuffle on
    trace[atomicAdd(counter, 1)] = 1000 + t;
    return;
  }
  for (int d = 1; d < 32; d *= 2) {
    v += __shfl_up_sync(full, v, static_cast<unsigned>(d));
    trace[atomicAdd(counter, 1)] = t;
  }
  __syncwarp();
  trace[atomicAdd(counter, 1)] = v == 12345 ? -1 : t;
}

std::vector<int> traced_order(int n) {
  cusim::device_array<int> trace(static_cast<std::size_t>(n * 16));
  cusim::device_array<int> counter(1);
  counter.copy_from_host(std::vector<int>{0});
  cusim::launch(run_order, 1, n, trace, counter.data());
  std::vector<int> r = trace.copy_to_host();
  r.resize(static_cast<std::size_t>(counter.copy_to_host()[0]));
  return r;
}

TEST_CASE("after a barrier, threads pass collectives and exits in the general path's order" * doctest::skip(!on_simulator)) {
  for (int n : {256, 96}) {
    CAPTURE(n);
    const std::vector<int> ring = traced_order(n);
    scoped_env check("CUSIM_CHECK", "sync");
    const std::vector<int> general = traced_order(n);
    int leaving = 0;
    for (int t = 0; t < n; ++t) leaving += t % 64 >= 32;
    CHECK(ring.size() == static_cast<std::size_t>(6 * n + leaving + 6 * (n - leaving)));
    CHECK(ring == general);
    CHECK(ring[0] == 31);  // the last lane of each warp completes its first shuffle and runs on
    CHECK(ring[1] == 63);
  }
}

// The misuses of warp.cu, each launched as it is and after a barrier (the ring): one report.
// Each block writes its own part of `out` (blocks in parallel must not race: CI's ThreadSanitizer).
__global__ void exited_lane(cusim::span<int> out, bool barrier_first) {
  if (barrier_first) __syncthreads();
  const unsigned lane = cusim::lane_id();
  if (lane == 5) return;
  out[blockIdx.x * blockDim.x + lane] = static_cast<int>(__reduce_add_sync(full, lane));
}

__global__ void different_collectives(cusim::span<int> out, bool barrier_first) {
  if (barrier_first) __syncthreads();
  const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x * blockDim.x) + t;
  out[i] = __shfl_sync(full, t, 0);
  out[i] += t == 40 ? static_cast<int>(__ballot_sync(full, 1)) : __shfl_sync(full, t, 1);
}

__global__ void collective_meets_barrier(cusim::span<int> out, bool barrier_first) {
  if (barrier_first) __syncthreads();
  const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x * blockDim.x) + t;
  if (t == 3) __syncthreads();
  else out[i] = __shfl_sync(full, t, 2);
}

__global__ void outside_mask(cusim::span<int> out, bool barrier_first) {
  if (barrier_first) __syncthreads();
  const int t = static_cast<int>(threadIdx.x), i = static_cast<int>(blockIdx.x * blockDim.x) + t;
  out[i] = __shfl_down_sync(full, t, 1);
  if (t < 16) out[i] += __shfl_down_sync(0x0000ffffu, t, 8);
}

template <class K>
void same_report(K kernel, int threads, const char* start) {
  cusim::device_array<int> out(static_cast<std::size_t>(2 * threads));
  const std::string plain = kernel_error_of([&] { cusim::launch(kernel, 2, threads, out, false); });
  const std::string ring = kernel_error_of([&] { cusim::launch(kernel, 2, threads, out, true); });
  CHECK(plain.rfind(start, 0) == 0);
  CHECK(ring == plain);
}

TEST_CASE("after a barrier, a collective's misuses are reported as without one" * doctest::skip(!on_simulator)) {
  same_report(exited_lane, 32, "tid=[0, 0, 0] ctaid=[0, 0, 0]: __reduce_add_sync(0xffffffff) can never complete: lane 5");
  same_report(different_collectives, 64, "tid=[32, 0, 0] ctaid=[0, 0, 0]: lanes of one mask wait at different");
  same_report(collective_meets_barrier, 32, "tid=[0, 0, 0] ctaid=[0, 0, 0]: deadlock: __shfl_sync(0xffffffff)");
  same_report(outside_mask, 32, "tid=[8, 0, 0] ctaid=[0, 0, 0]: __shfl_down_sync(0x0000ffff) in lane 8 reads lane 16");
  // and the next launch works (the odd warps' sums are never written: zeros, as the reference has)
  cusim::device_array<int> out(static_cast<std::size_t>(6 * 64 + 6 * 2));
  out.copy_from_host(std::vector<int>(out.size(), 0));
  cusim::launch(after_barrier, 6, 64, out);
  CHECK(out.copy_to_host() == after_barrier_reference(6, 64));
}

}  // namespace
