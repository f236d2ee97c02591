// SPDX-License-Identifier: MIT
// Lesson 10: a sum with warp shuffles. Each thread adds a grid-stride slice, each warp folds its
// 32 partial sums with __shfl_down_sync, and lane 0 of every warp adds the warp's total atomically.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <string>
#include <vector>

__global__ void warp_sum(cusim::span<const int> in, cusim::span<unsigned long long> total) {
  unsigned long long sum = 0;
  for (int i = cusim::grid<1>(); i < static_cast<int>(in.size()); i += cusim::gridsize<1>()) sum += in[i];
  for (unsigned offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (cusim::lane_id() == 0) atomicAdd(&total[0], sum);
}

int main() {
  const int n = 1 << 20;
  std::vector<int> x(n);
  unsigned long long expected = 0;
  for (int i = 0; i < n; ++i) x[i] = i % 1000, expected += static_cast<unsigned long long>(x[i]);
  auto d_x = cusim::to_device(x);
  auto d_total = cusim::to_device(std::vector<unsigned long long>{0});
  cusim::launch(warp_sum, 64, 256, d_x, d_total);
  const unsigned long long total = d_total.copy_to_host()[0];
  return report("warp_reduce", total == expected, ("sum = " + std::to_string(total)).c_str());
}
