// SPDX-License-Identifier: MIT
// Lesson 11: a histogram. Each block counts into its own shared-memory histogram with shared
// atomics, then adds it to the global histogram: one global atomic per bin per block.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cstdint>
#include <string>
#include <vector>

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

int main() {
  const int n = 1 << 20;
  std::vector<std::uint8_t> data(n);
  std::vector<unsigned> expected(bins);
  for (int i = 0; i < n; ++i) ++expected[data[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 24)];
  auto d_data = cusim::to_device(data);
  auto d_counts = cusim::to_device(std::vector<unsigned>(bins, 0));
  cusim::launch(histogram, 32, 256, d_data, d_counts);
  const std::vector<unsigned> counts = d_counts.copy_to_host();
  return report("histogram", counts == expected, ("bin 0 = " + std::to_string(counts[0]) + ", bin 255 = " +
                                                   std::to_string(counts[255])).c_str());
}
