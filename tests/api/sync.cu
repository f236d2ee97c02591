// SPDX-License-Identifier: MIT
// Barriers: __syncthreads and its predicate forms, exited threads, __syncwarp, spin-waits.
#include "test_support.hpp"

#include <vector>

__global__ void barrier_reductions(cusim::span<int> out) {
  const int t = threadIdx.x;
  int c = __syncthreads_count(t % 3 == 0);
  int all_small = __syncthreads_and(t < 1000);
  int all_even = __syncthreads_and(t % 2 == 0);
  int any_is_7 = __syncthreads_or(t == 7);
  int any_neg = __syncthreads_or(t < 0);
  if (t == 5) {
    out[0] = c;
    out[1] = all_small;
    out[2] = all_even;
    out[3] = any_is_7;
    out[4] = any_neg;
  }
}

TEST_CASE("__syncthreads_count, _and and _or reduce the predicate over the block") {
  cusim::device_array<int> out(5);
  cusim::launch(barrier_reductions, 1, 100, out);
  auto r = out.copy_to_host();
  CHECK(r[0] == 34);
  CHECK(r[1] != 0);
  CHECK(r[2] == 0);
  CHECK(r[3] != 0);
  CHECK(r[4] == 0);
}

__global__ void early_return(cusim::span<int> data, int n) {
  __shared__ cusim::shared_array<int, 128> s;
  const int i = cusim::grid<1>();
  if (i >= n) return;  // exited threads count as arrived (current GPUs)
  s[threadIdx.x] = data[i];
  __syncthreads();
  const int partner = (threadIdx.x + 1) % 128;
  data[i] = static_cast<int>(blockIdx.x) * 128 + partner < n ? s[partner] : -1;
}

TEST_CASE("threads that returned before a barrier count as arrived") {
  const int n = 200;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i * 3;
  auto d = cusim::to_device(h);
  cusim::launch(early_return, 2, 128, d, n);
  auto r = d.copy_to_host();
  for (int i = 0; i < n; ++i) {
    const int partner = (i % 128 + 1) % 128 + i / 128 * 128;
    CHECK(r[i] == (partner < n ? h[partner] : -1));
  }
}

__global__ void tree_reduce(cusim::span<const float> in, cusim::span<float> out) {
  __shared__ cusim::shared_array<float, 256> s;
  const unsigned t = threadIdx.x;
  s[t] = in[cusim::grid<1>()];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

TEST_CASE("a block tree reduction with a barrier per step is exact") {
  const int blocks = 40;
  std::vector<float> h(blocks * 256);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 17);
  auto d = cusim::to_device(h);
  cusim::device_array<float> out(blocks);
  cusim::launch(tree_reduce, blocks, 256, d, out);
  auto r = out.copy_to_host();
  for (int b = 0; b < blocks; ++b) {
    float s = 0;
    for (int i = 0; i < 256; ++i) s += h[b * 256 + i];
    CHECK(r[b] == s);
  }
}

__global__ void warp_sync_neighbours(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t) * 2;
  __syncwarp();
  out[t] = s[t ^ 1u];
}

TEST_CASE("__syncwarp orders shared-memory writes within a warp") {
  cusim::device_array<int> out(64);
  cusim::launch(warp_sync_neighbours, 1, 64, out);
  auto r = out.copy_to_host();
  for (int t = 0; t < 64; ++t) CHECK(r[t] == (t ^ 1) * 2);
}

__global__ void spin_on_flag(cusim::span<int> flag, cusim::span<int> out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(&flag[0], 0) == 0) {
    }
    out[0] = atomicAdd(&flag[1], 0);
  } else if (threadIdx.x == blockDim.x - 1) {
    atomicExch(&flag[1], 77);
    __threadfence();
    atomicExch(&flag[0], 1);
  }
}

TEST_CASE("a thread spinning on an atomic flag set by a later thread of its block makes progress") {
  auto flag = cusim::to_device(std::vector<int>{0, 0});
  cusim::device_array<int> out(1);
  cusim::launch(spin_on_flag, 1, 64, flag, out);
  CHECK(out.copy_to_host()[0] == 77);
}

__global__ void warp_spans_rows(cusim::span<int> out) {
  // Block (16, 4): warp 0 holds rows 0 and 1, warp 1 rows 2 and 3 (x is fastest).
  __shared__ cusim::shared_array<int, 4, 16> s;
  s(threadIdx.y, threadIdx.x) = static_cast<int>(threadIdx.y * 16 + threadIdx.x);
  __syncwarp();
  out[threadIdx.y * 16 + threadIdx.x] = s(threadIdx.y ^ 1u, threadIdx.x);  // the other row of the warp
}

TEST_CASE("in a 2-D block a warp spans rows, and __syncwarp orders it") {
  cusim::device_array<int> out(64);
  cusim::launch(warp_spans_rows, 1, dim3(16, 4), out);
  auto r = out.copy_to_host();
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 16; ++x) CHECK(r[y * 16 + x] == (y ^ 1) * 16 + x);
}

__global__ void rotate_rounds(cusim::span<int> out, int rounds) {
  __shared__ cusim::shared_array<int, 1024> s;
  const int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  for (int r = 0; r < rounds; ++r) {
    const int v = s[(t + 1) % 1024];
    __syncthreads();
    s[t] = v;
    __syncthreads();
  }
  out[blockIdx.x * 1024 + t] = s[t];
}

TEST_CASE("1024-thread blocks pass through a hundred barriers in step") {
  cusim::device_array<int> out(3 * 1024);
  cusim::launch(rotate_rounds, 3, 1024, out, 50);
  auto r = out.copy_to_host();
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 1024; ++t) CHECK(r[b * 1024 + t] == (t + 50) % 1024);
}

// Uniform __syncthreads let the simulator run a block's threads in turn without its run queue
// (ring mode); a warp collective, a predicate barrier and threads leaving between barriers each
// take it back to the general path, after which uniform barriers resume ring mode.
__global__ void ring_breakers(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 256> s;
  const int t = threadIdx.x, n = blockDim.x;
  int v = t + 1000 * static_cast<int>(blockIdx.x);
  for (int r = 0; r < 4; ++r) {
    s[t] = v;
    __syncthreads();
    v += s[(t + 1) % n];
    __syncthreads();
  }
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  s[t] = v;
  __syncthreads();
  v += __syncthreads_count(s[(t + 3) % n] % 2 != 0);
  for (int r = 1; r <= 3; ++r) {
    const int live = n - 32 * r;
    if (t >= live) {
      out[blockIdx.x * n + t] = v;
      return;
    }
    s[t] = v;
    __syncthreads();
    v += s[(t + 1) % live];
    __syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

TEST_CASE("barriers, a warp shuffle, a predicate barrier and early exits, mixed, give a GPU's results") {
  constexpr int blocks = 3, n = 256;
  cusim::device_array<int> out(blocks * n);
  cusim::launch(ring_breakers, blocks, n, out);
  std::vector<int> want(blocks * n);
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> v(n), s(n);
    for (int t = 0; t < n; ++t) v[t] = t + 1000 * b;
    for (int r = 0; r < 4; ++r) {
      s = v;
      for (int t = 0; t < n; ++t) v[t] += s[(t + 1) % n];
    }
    s = v;
    for (int t = 0; t < n; ++t) v[t] += s[t ^ 1];
    s = v;
    int odd = 0;
    for (int t = 0; t < n; ++t) odd += s[(t + 3) % n] % 2 != 0;
    for (int t = 0; t < n; ++t) v[t] += odd;
    for (int r = 1; r <= 3; ++r) {
      const int live = n - 32 * r;
      for (int t = live; t < n - 32 * (r - 1); ++t) want[b * n + t] = v[t];
      s = v;
      for (int t = 0; t < live; ++t) v[t] += s[(t + 1) % live];
    }
    for (int t = 0; t < n - 96; ++t) want[b * n + t] = v[t];
  }
  CHECK(out.copy_to_host() == want);
}
