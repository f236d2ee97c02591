// SPDX-License-Identifier: MIT
// Lesson 4: the sum of |x| with a hand-written shared-memory tree reduction, two passes.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cmath>
#include <string>
#include <vector>

constexpr int TPB = 256;

__global__ void abs_sum_blocks(cusim::span<const float> x, cusim::span<float> partial) {
  __shared__ cusim::shared_array<float, TPB> cache;
  const unsigned t = threadIdx.x;
  float acc = 0;
  for (int i = cusim::grid<1>(); i < static_cast<int>(x.size()); i += cusim::gridsize<1>()) acc += fabsf(x[i]);
  cache[t] = acc;
  __syncthreads();
  for (unsigned stride = TPB / 2; stride > 0; stride /= 2) {
    if (t < stride) cache[t] += cache[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = cache[0];
}

int main() {
  const int n = 100000, blocks = 32;
  std::vector<float> x(n);
  double expected = 0;
  for (int i = 0; i < n; ++i) x[i] = (i % 2 ? -1.0f : 1.0f) * (i % 7), expected += std::fabs(x[i]);
  auto d_x = cusim::to_device(x);
  cusim::device_array<float> partial(blocks), total(1);
  cusim::launch(abs_sum_blocks, blocks, TPB, d_x, partial);
  cusim::launch(abs_sum_blocks, 1, TPB, partial, total);  // the partials are non-negative
  const float result = total.copy_to_host()[0];
  return report("abs_sum", std::fabs(result - expected) < 1e-3 * expected, ("sum |x| = " + std::to_string(result)).c_str());
}
