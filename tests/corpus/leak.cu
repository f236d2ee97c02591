// SPDX-License-Identifier: MIT
// Corpus: a device allocation never freed. Run with CUSIM_CHECK=leaks, the simulator reports it
// at exit with its size and allocation site (tests/CMakeLists.txt checks the report).
#include <cusim/cusim.hpp>

#include <cstdio>

__global__ void fill(int* p) { p[threadIdx.x] = 1; }

int main() {
  int* freed = nullptr;
  int* leaked = nullptr;
  if (cudaMalloc(&freed, 64 * sizeof(int)) != cudaSuccess || cudaMalloc(&leaked, 64 * sizeof(int)) != cudaSuccess)
    return 1;
  cusim::launch(fill, 1, 64, leaked);
  cudaFree(freed);
  std::puts("leak: done");  // BUG: `leaked` is never freed
  return 0;
}
