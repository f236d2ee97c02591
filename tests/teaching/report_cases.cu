// SPDX-License-Identifier: MIT
// A plain CUDA program whose CUSIM_REPORT figures are known from its source (check_report.py
// compares them): a read-modify-write of shared memory with conflicts, run by half a warp; global
// atomics; shared memory that limits occupancy; a kernel launched with two grids; a barrier count;
// and, with REPORT_CASES_RESET set, cudaDeviceReset, which writes the report of what ran before it.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void rmw_shared(float *out, const float *in) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 16) s[4 * t] += s[4 * t + 2];
  __syncthreads();
  out[blockIdx.x * 64 + t] = s[t];
}

__global__ void histogram(int *bins, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[static_cast<int>(in[i]) % 8], 1);
}

__global__ void big_shared(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = threadIdx.x + 1.0f;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[255 - threadIdx.x];
}

__global__ void after_reset(float *out) { out[threadIdx.x * 2] = 1.0f; }

int main() {
  float *in, *out;
  int *bins;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMalloc(&bins, 8 * sizeof(int));
  float host[4096];
  for (int i = 0; i < 4096; ++i) host[i] = 1.0f + i % 29;  // not zero: the adds change the elements
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 8 * sizeof(int));
  rmw_shared<<<4, 64>>>(out, in);
  rmw_shared<<<2, 64>>>(out, in);
  histogram<<<4, 256>>>(bins, in);
  big_shared<<<2, 256, 40 * 1024>>>(out);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("before reset: %s\n", cudaGetErrorName(e));
  if (std::getenv("REPORT_CASES_RESET") != nullptr) cudaDeviceReset();  // the report so far, written now
  float *again;
  cudaMalloc(&again, 64 * sizeof(float));
  after_reset<<<1, 32>>>(again);
  e = cudaDeviceSynchronize();
  std::printf("after reset: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
