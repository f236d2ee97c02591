// SPDX-License-Identifier: MIT
// Lesson 11: a histogram. Each block counts into its own shared-memory histogram with shared
// atomics, then adds it to the global histogram: one global atomic per bin per block.
#include <cusim/cusim.hpp>

#include "example_check.hpp"
#include "histogram_kernel.hpp"

#include <cstdint>
#include <string>
#include <vector>

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
