// SPDX-License-Identifier: MIT
// Lesson 12: a block-wide inclusive scan with cooperative groups. Each warp scans its values with
// tile shuffles, warp 0 scans the warp totals, and every warp adds the totals before it.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <string>
#include <vector>

namespace cg = cusim::cg;

__global__ void block_scan(cusim::span<const int> in, cusim::span<int> out) {
  cg::thread_block block = cg::this_thread_block();
  auto warp = cg::tiled_partition<32>(block);
  __shared__ cusim::shared_array<int, 32> warp_totals;
  const int i = cusim::grid<1>();
  int v = i < static_cast<int>(in.size()) ? in[i] : 0;
  for (unsigned d = 1; d < warp.size(); d *= 2) {
    const int up = warp.shfl_up(v, d);
    if (warp.thread_rank() >= d) v += up;
  }
  if (warp.thread_rank() == warp.size() - 1) warp_totals[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int t = warp.thread_rank() < warp.meta_group_size() ? warp_totals[warp.thread_rank()] : 0;
    for (unsigned d = 1; d < warp.size(); d *= 2) {
      const int up = warp.shfl_up(t, d);
      if (warp.thread_rank() >= d) t += up;
    }
    if (warp.thread_rank() < warp.meta_group_size()) warp_totals[warp.thread_rank()] = t;
  }
  block.sync();
  if (warp.meta_group_rank() > 0) v += warp_totals[warp.meta_group_rank() - 1];
  if (i < static_cast<int>(out.size())) out[i] = v;
}

int main() {
  const int threads = 512, blocks = 8, n = threads * blocks;
  std::vector<int> x(n), expected(n);
  for (int i = 0; i < n; ++i) {
    x[i] = (i * 37) % 11 - 5;
    expected[i] = x[i] + (i % threads ? expected[i - 1] : 0);  // each block scans its own slice
  }
  auto d_x = cusim::to_device(x);
  cusim::device_array<int> d_out(n);
  cusim::launch(block_scan, blocks, threads, d_x, d_out);
  const std::vector<int> out = d_out.copy_to_host();
  return report("block_scan", out == expected, ("last of block 0 = " + std::to_string(out[threads - 1])).c_str());
}
