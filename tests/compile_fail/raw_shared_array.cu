// SPDX-License-Identifier: MIT
// Must not compile on the simulator: a raw __shared__ array would silently be per thread.
#include <cusim/cusim.hpp>
__global__ void k(cusim::span<float> out) {
  __shared__ float tile[16];
  tile[threadIdx.x] = 1.0f;
  out[0] = tile[0];
}
int main() {}
