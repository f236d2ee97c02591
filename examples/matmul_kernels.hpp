// SPDX-License-Identifier: MIT
// The naive and the tiled shared-memory matrix multiply (lessons 5 and 6), shared by the
// matmul example and the benchmark.
#pragma once

#include <cusim/cusim.hpp>

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
