// SPDX-License-Identifier: MIT
// Older CUDA code as it is (the Rodinia benchmarks' style): CUDA 12's cudaThread* spellings, which
// CUDA 13 removed, after kernels and around the device's settings, and the cudaDeviceProp fields
// CUDA 13 dropped. Built unchanged: each call warns as CUDA 12's headers made it warn.
#include "check.h"

#include <cuda_runtime.h>

#include <cstdlib>

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void one_past_the_end(float* x, int n) { x[n] = 1.0f; }

int main() {
  const int n = 1000;
  float* h_x = (float*)malloc(n * sizeof(float));
  float* h_y = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) h_x[i] = (float)i, h_y[i] = 1.0f;
  float *d_x, *d_y;
  cudaMalloc((void**)&d_x, n * sizeof(float));
  cudaMalloc((void**)&d_y, n * sizeof(float));
  cudaMemcpy(d_x, h_x, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, h_y, n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, d_x, d_y);
  CHECK_EQ(cudaThreadSynchronize(), cudaSuccess);
  cudaMemcpy(h_y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h_y[i] != 2.0f * i + 1.0f;
  CHECK_EQ(wrong, 0);

  // The settings: the same as cudaDeviceSetLimit & co.
  size_t limit = 0;
  CHECK_EQ(cudaThreadSetLimit(cudaLimitPrintfFifoSize, 2 << 20), cudaSuccess);
  CHECK_EQ(cudaThreadGetLimit(&limit, cudaLimitPrintfFifoSize), cudaSuccess);
  CHECK_EQ(limit, size_t{2 << 20});
  CHECK_EQ(cudaDeviceGetLimit(&limit, cudaLimitPrintfFifoSize), cudaSuccess);
  CHECK_EQ(limit, size_t{2 << 20});
  CHECK_EQ(cudaThreadSetLimit((cudaLimit)99, 1), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  cudaFuncCache cache = cudaFuncCachePreferNone;
  CHECK_EQ(cudaThreadSetCacheConfig(cudaFuncCachePreferL1), cudaSuccess);
  CHECK_EQ(cudaThreadGetCacheConfig(&cache), cudaSuccess);
  CHECK_EQ(cache, cudaFuncCachePreferL1);
  CHECK_EQ(cudaDeviceGetCacheConfig(&cache), cudaSuccess);
  CHECK_EQ(cache, cudaFuncCachePreferL1);
  CHECK_EQ(cudaThreadSetCacheConfig((cudaFuncCache)9), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  double d = 1.5;
  CHECK_EQ(cudaSetDoubleForDevice(&d), cudaSuccess);
  CHECK_EQ(cudaSetDoubleForHost(&d), cudaSuccess);
  CHECK_EQ(d, 1.5);

  // The fields CUDA 13 dropped hold what cudaDeviceGetAttribute answers for them.
  cudaDeviceProp prop;
  CHECK_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  const auto attribute = [](cudaDeviceAttr attr) {
    int value = -1;
    CHECK_EQ(cudaDeviceGetAttribute(&value, attr, 0), cudaSuccess);
    return value;
  };
  CHECK(prop.clockRate > 0);
  CHECK_EQ(prop.clockRate, attribute(cudaDevAttrClockRate));
  CHECK(prop.memoryClockRate > 0);
  CHECK_EQ(prop.memoryClockRate, attribute(cudaDevAttrMemoryClockRate));
  CHECK_EQ(prop.deviceOverlap, 1);
  CHECK_EQ(prop.deviceOverlap, attribute(cudaDevAttrGpuOverlap));
  CHECK_EQ(prop.kernelExecTimeoutEnabled, attribute(cudaDevAttrKernelExecTimeout));
  CHECK_EQ(prop.computeMode, (int)cudaComputeModeDefault);
  CHECK_EQ(prop.computeMode, attribute(cudaDevAttrComputeMode));
  CHECK_EQ(prop.singleToDoublePrecisionPerfRatio, attribute(cudaDevAttrSingleToDoublePrecisionPerfRatio));
  CHECK_EQ(prop.maxTexture1DLinear, attribute(cudaDevAttrMaxTexture1DLinearWidth));
  CHECK_EQ(prop.cooperativeMultiDeviceLaunch, attribute(cudaDevAttrCooperativeMultiDeviceLaunch));

  // A kernel fault is what the next cudaThreadSynchronize returns; cudaThreadExit (cudaDeviceReset)
  // makes the device usable again.
  {
    stderr_capture capture;
    one_past_the_end<<<1, 1>>>(d_x, n);
    CHECK_EQ(cudaThreadSynchronize(), cudaErrorIllegalAddress);
    CHECK(capture.text().find("0 bytes past the end of a 4000-byte allocation") != std::string::npos);
  }
  CHECK_EQ(cudaThreadExit(), cudaSuccess);
  CHECK_EQ(cudaThreadSynchronize(), cudaSuccess);
  free(h_x);
  free(h_y);
  return finish();
}
