// SPDX-License-Identifier: MIT
// A vector add launched three ways, timed on the simulator: <<<>>>, cudaLaunchKernel((void*)add, ...)
// (which the nvcc driver's rewrite launches as <<<>>> does), and cudaLaunchKernel through a
// `const void*` variable (by address). Prints the best of RUNS launches of each, in ms; on a
// shared machine one worker (CUSIM_WORKERS=1) gives steadier figures.
//   nvcc -O2 -o launch_kernel tools/host_speed/launch_kernel.cu && CUSIM_WORKERS=1 ./launch_kernel [RUNS]
#include <chrono>
#include <cstdio>
#include <cstdlib>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

template <class F>
static double best_ms(int runs, F launch) {
  double best = 1e30;
  for (int t = 0; t < runs; ++t) {
    auto s = std::chrono::steady_clock::now();
    launch();
    if (cudaDeviceSynchronize() != cudaSuccess) std::exit(1);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    best = ms < best ? ms : best;
  }
  return best;
}

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 20;
  int n = 1 << 20;
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  const dim3 grid((n + 255) / 256), block(256);
  void* args[] = {&a, &b, &c, &n};
  const void* by_address = reinterpret_cast<const void*>(&add);
  double chevron = best_ms(runs, [&] { add<<<grid, block>>>(a, b, c, n); });
  double named = best_ms(runs, [&] { cudaLaunchKernel((void*)add, grid, block, args, 0, nullptr); });
  double address = best_ms(runs, [&] { cudaLaunchKernel(by_address, grid, block, args, 0, nullptr); });
  std::printf("<<<>>> %.2f ms, cudaLaunchKernel((void*)add) %.2f ms (%.2fx), by address %.2f ms (%.2fx)\n", chevron,
              named, named / chevron, address, address / chevron);
  return 0;
}
