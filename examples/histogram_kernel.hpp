// SPDX-License-Identifier: MIT
// The shared-memory histogram of lesson 11, shared by the histogram example and the benchmark.
#pragma once

#include <cusim/cusim.hpp>

#include <cstdint>

constexpr int bins = 256;

__global__ void histogram(cusim::span<const std::uint8_t> data, cusim::span<unsigned> counts) {
  __shared__ cusim::shared_array<unsigned, bins> local;
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = cusim::grid<1>(); i < static_cast<int>(data.size()); i += cusim::gridsize<1>())
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&counts[b], local[b]);
}
