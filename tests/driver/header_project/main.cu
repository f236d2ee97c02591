// The kernels live in headers (as in NVIDIA's cuda-samples): the driver rewrites the headers too.
#include <cstdio>
#include <cstring>

#include "sub/kernels.cuh"  // quoted, from a subdirectory
#include "sub/helpers.h"    // includes "kernels.cuh" again, relative to sub/
#include <kernels.cuh>      // and once more through -I sub (#pragma once: one header, one copy)
#include "sub/more_kernels.cuh"

int main() {
  float* p = nullptr;
  cudaMallocManaged(&p, 64 * sizeof(float));
  transpose_tile<<<1, dim3(8, 8)>>>(p);
  double_all(p, 64);  // a host function in the header launching with <<<>>>
  add_one<<<2, 32>>>(p);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("launch failed\n");
    return 1;
  }
  // The tile transposed (t[x][y] read back at [y][x]), plus TILE_BIAS, doubled, plus one.
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      if (p[y * 8 + x] != 2.0f * (x * 8 + y + TILE_BIAS) + 1.0f) {
        printf("p[%d] = %g\n", y * 8 + x, p[y * 8 + x]);
        return 1;
      }
  const char* file = kernels_file();  // the original header's absolute path, not a rewritten copy's
  std::size_t n = std::strlen(file);
  if (file[0] != '/' || n < 16 || std::strcmp(file + n - 16, "/sub/kernels.cuh") != 0 ||
      std::strstr(file, "cusim-nvcc-") != nullptr) {
    printf("__FILE__ in the header: %s\n", file);
    return 1;
  }
  cudaFree(p);
  printf("%s\n", helper_says());
  return 0;
}
