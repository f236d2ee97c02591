// SPDX-License-Identifier: MIT
// Lesson 13: an iterative kernel synchronised across the whole grid. One launch runs every step
// of a 1-D heat diffusion; this_grid().sync() separates the steps, which needs a cooperative
// launch (every block resident at once), sized from the device's occupancy.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace cg = cusim::cg;

__global__ void diffuse(cusim::span<float> a, cusim::span<float> b, int steps) {
  cg::grid_group grid = cg::this_grid();
  const int n = static_cast<int>(a.size());
  for (int s = 0; s < steps; ++s) {
    cusim::span<float> from = s % 2 ? b : a, to = s % 2 ? a : b;
    for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size())) {
      const float left = i > 0 ? from[i - 1] : from[i], right = i < n - 1 ? from[i + 1] : from[i];
      to[i] = from[i] + 0.25f * (left - 2 * from[i] + right);
    }
    grid.sync();  // every block has finished step s before any starts step s + 1
  }
}

int main() {
  const int n = 1 << 16, steps = 50, threads = 256;
  std::vector<float> x(n, 0.0f);
  x[n / 2] = 1000.0f;
  std::vector<float> h = x, tmp(n);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) {
      const float left = i > 0 ? h[i - 1] : h[i], right = i < n - 1 ? h[i + 1] : h[i];
      tmp[i] = h[i] + 0.25f * (left - 2 * h[i] + right);
    }
    h.swap(tmp);
  }
  int per_sm = 0;
  cudaDeviceProp prop{};
  cusim::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, diffuse, threads, 0), "occupancy");
  cusim::check(cudaGetDeviceProperties(&prop, 0), "properties");
  // As many blocks as fit at once, and no more than a quarter of the data's blocks: each thread
  // then loops over a few elements, so the grid size never changes the answer.
  const int blocks = std::min(per_sm * prop.multiProcessorCount, n / threads / 4);
  auto d_a = cusim::to_device(x);
  cusim::device_array<float> d_b(n);
  cusim::launch_cooperative(diffuse, cusim::launch_config{blocks, threads}, d_a, d_b, steps);
  const std::vector<float> out = (steps % 2 ? d_b : d_a).copy_to_host();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && std::abs(out[i] - h[i]) <= 1e-3f;
  return report("grid_sync", ok, ("centre after " + std::to_string(steps) + " steps = " + std::to_string(out[n / 2]) +
                                  " (" + std::to_string(blocks) + " blocks)").c_str());
}
