// SPDX-License-Identifier: MIT
// A kernel of tests/api/phases.cu kept in a header: cusim_add_executable gives the kernels of the
// user's headers their phased form too (phase_copy.py), and the test's expected report names this
// file. Line numbers are part of the test.
#pragma once

#include <cusim/cusim.hpp>

// Threads 0..15 take 2 rounds, the others 3, then all meet at the barrier after the loop.
constexpr int line_split_loop = __LINE__ + 4;  // the loop; its barrier 2 lines below, the next 4
__global__ void split_loop(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 32> s;
  const unsigned t = threadIdx.x;
  for (int r = 0; r < (t < 16 ? 2 : 3); ++r) {
    s[t] = r;
    __syncthreads();
  }
  __syncthreads();
  out[t] = s[31 - t];
}
