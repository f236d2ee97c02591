// SPDX-License-Identifier: MIT
// GPU backend only: the cusim API against hand-written raw CUDA doing the same work, to show that
// checked arrays cost nothing once CUSIM_CHECKS is off. Times with CUDA events, best of 5,
// verifies both results, prints the ratio (cusim / raw). nvcc's --resource-usage, on at build
// time, prints each kernel's registers and shared memory next to its raw twin.
//   cusim_zero_overhead            (a CUSIM_BACKEND=cuda build, on a GPU)
#include <cusim/cusim.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int T = 16;     // matmul tile
constexpr int R = 256;    // reduction block

__global__ void tiled_cusim(cusim::mdspan<const float, 2> A, cusim::mdspan<const float, 2> B, cusim::mdspan<float, 2> C) {
  __shared__ cusim::shared_array<float, T, T> sA;
  __shared__ cusim::shared_array<float, T, T> sB;
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (unsigned t = 0; t < A.extent(1) / T; ++t) {
    sA(ty, tx) = A(row, t * T + tx);
    sB(ty, tx) = B(t * T + ty, col);
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += sA(ty, k) * sB(k, tx);
    __syncthreads();
  }
  C(row, col) = acc;
}

__global__ void tiled_raw(const float* A, const float* B, float* C, int n) {
  __shared__ float sA[T][T];
  __shared__ float sB[T][T];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float acc = 0;
  for (unsigned t = 0; t < n / T; ++t) {
    sA[ty][tx] = A[row * n + t * T + tx];
    sB[ty][tx] = B[(t * T + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += sA[ty][k] * sB[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void reduce_cusim(cusim::span<const float> in, cusim::span<float> partial) {
  __shared__ cusim::shared_array<float, R> s;
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * R + t];
  __syncthreads();
  for (unsigned stride = R / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

__global__ void reduce_raw(const float* in, float* partial) {
  __shared__ float s[R];
  const unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * R + t];
  __syncthreads();
  for (unsigned stride = R / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

template <class F>
float best_ms(F&& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  f();  // warm-up
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    cudaEventRecord(start);
    f();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    best = std::min(best, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return best;
}

}  // namespace

int main() {
  bool ok = true;
  {
    const int n = 4096;
    std::vector<float> a(std::size_t(n) * n), b(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 7) - 3, b[i] = float(i % 5) - 2;
    auto dA = cusim::to_device(a, n, n), dB = cusim::to_device(b, n, n);
    cusim::device_array<float, 2> dC(n, n), dR(n, n);
    const dim3 grid(n / T, n / T), block(T, T);
    const float api = best_ms([&] { cusim::launch(tiled_cusim, grid, block, dA, dB, dC); });
    const float raw = best_ms([&] { tiled_raw<<<grid, block>>>(dA.data(), dB.data(), dR.data(), n); });
    cusim::check(cudaDeviceSynchronize(), "tiled matmul");
    const bool same = dC.copy_to_host() == dR.copy_to_host();
    ok = ok && same;
    std::printf("tiled matmul 4096:     cusim %8.3f ms  raw %8.3f ms  ratio %.3f  %s\n", api, raw, api / raw,
                same ? "identical results" : "RESULTS DIFFER");
  }
  {
    const int m = 1 << 28;
    std::vector<float> x(m);
    for (int i = 0; i < m; ++i) x[i] = float(i % 8);
    auto dx = cusim::to_device(x);
    cusim::device_array<float> pc(m / R), pr(m / R);
    const float api = best_ms([&] { cusim::launch(reduce_cusim, m / R, R, dx, pc); });
    const float raw = best_ms([&] { reduce_raw<<<m / R, R>>>(dx.data(), pr.data()); });
    cusim::check(cudaDeviceSynchronize(), "block reduction");
    const bool same = pc.copy_to_host() == pr.copy_to_host();
    ok = ok && same;
    std::printf("block reduction 2^28:  cusim %8.3f ms  raw %8.3f ms  ratio %.3f  %s\n", api, raw, api / raw,
                same ? "identical results" : "RESULTS DIFFER");
  }
  return ok ? 0 : 1;
}
