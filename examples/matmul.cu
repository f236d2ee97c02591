// SPDX-License-Identifier: MIT
// Lessons 5 and 6: naive matrix multiply, then the tiled version with shared memory.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cmath>
#include <string>
#include <vector>

constexpr int TPB = 16;

__global__ void matmul_naive(cusim::mdspan<const float, 2> A, cusim::mdspan<const float, 2> B,
                             cusim::mdspan<float, 2> C) {
  auto [i, j] = cusim::grid<2>();
  if (i < C.extent(0) && j < C.extent(1)) {
    float acc = 0;
    for (int k = 0; k < A.extent(1); ++k) acc += A(i, k) * B(k, j);
    C(i, j) = acc;
  }
}

__global__ void matmul_tiled(cusim::mdspan<const float, 2> A, cusim::mdspan<const float, 2> B,
                             cusim::mdspan<float, 2> C) {
  __shared__ cusim::shared_array<float, TPB, TPB> sA;
  __shared__ cusim::shared_array<float, TPB, TPB> sB;
  auto [x, y] = cusim::grid<2>();
  unsigned tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0;
  unsigned tiles = (A.extent(1) + TPB - 1) / TPB;
  for (unsigned t = 0; t < tiles; ++t) {
    sA(tx, ty) = (x < A.extent(0) && ty + t * TPB < A.extent(1)) ? A(x, ty + t * TPB) : 0.f;
    sB(tx, ty) = (tx + t * TPB < B.extent(0) && y < B.extent(1)) ? B(tx + t * TPB, y) : 0.f;
    __syncthreads();
    for (int j = 0; j < TPB; ++j) acc += sA(tx, j) * sB(j, ty);
    __syncthreads();
  }
  if (x < C.extent(0) && y < C.extent(1)) C(x, y) = acc;
}

int main() {
  const int n = 100, m = 70, p = 90;  // not multiples of the tile: edges are exercised
  std::vector<float> a(n * m), b(m * p), ref(n * p, 0.0f);
  for (int i = 0; i < n * m; ++i) a[i] = static_cast<float>(i % 11) - 4.5f;
  for (int i = 0; i < m * p; ++i) b[i] = static_cast<float>(i % 13) * 0.25f;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < m; ++k)
      for (int j = 0; j < p; ++j) ref[i * p + j] += a[i * m + k] * b[k * p + j];
  auto A = cusim::to_device(a, n, m);
  auto B = cusim::to_device(b, m, p);
  cusim::device_array<float, 2> C(n, p);
  const dim3 block(TPB, TPB), grid((n + TPB - 1) / TPB, (p + TPB - 1) / TPB);
  int status = 0;
  for (auto kernel : {matmul_naive, matmul_tiled}) {
    cusim::launch(kernel, grid, block, A, B, C);
    auto c = C.copy_to_host();
    bool ok = true;
    float largest = 0;
    for (int i = 0; i < n * p; ++i) {
      ok = ok && std::fabs(c[i] - ref[i]) <= 1e-3f * (1 + std::fabs(ref[i]));
      largest = std::fmax(largest, std::fabs(c[i]));
    }
    status |= report(kernel == matmul_naive ? "matmul_naive" : "matmul_tiled", ok,
                     ("max |C| = " + std::to_string(largest)).c_str());
  }
  return status;
}
