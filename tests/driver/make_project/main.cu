// SPDX-License-Identifier: MIT
// Launches the kernels of kernels.cu with <<<>>> and checks their results on the host.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#include "kernels.h"

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t e_ = (call);                                                              \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

int main() {
  const int n = 40;
  std::vector<float> a(n * n), t(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = float(i);
  float *da, *dt;
  CHECK(cudaMalloc(&da, n * n * sizeof(float)));
  CHECK(cudaMalloc(&dt, n * n * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(kTile, kTile), grid((n + kTile - 1) / kTile, (n + kTile - 1) / kTile);
  transpose<<<grid, block>>>(da, dt, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(t.data(), dt, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (t[y * n + x] != a[x * n + y]) {
        std::printf("transpose: wrong at (%d, %d)\n", x, y);
        return 1;
      }

  const int blocks = 4, threads = 64;
  std::vector<int> v(blocks * threads, 1), sums(blocks);
  int *dv, *ds;
  CHECK(cudaMalloc(&dv, v.size() * sizeof(int)));
  CHECK(cudaMalloc(&ds, blocks * sizeof(int)));
  CHECK(cudaMemcpy(dv, v.data(), v.size() * sizeof(int), cudaMemcpyHostToDevice));
  sum_block<<<blocks, threads, threads * sizeof(int)>>>(dv, ds);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(sums.data(), ds, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    if (sums[b] != threads) {
      std::printf("sum_block: block %d gave %d\n", b, sums[b]);
      return 1;
    }
  CHECK(cudaFree(da));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(dv));
  CHECK(cudaFree(ds));
  std::printf("ok\n");
  return 0;
}
