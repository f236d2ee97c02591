// SPDX-License-Identifier: MIT
// An unmodified CUDA program (raw pointers, raw __shared__, <<<>>>) built by cusim's nvcc driver
// with -g -O0, for the gdb session unmodified.gdb. Line numbers are part of the test: keep the
// kernel where it is.
#include <cstdio>

__global__ void shift(const int* in, int* out) {
  __shared__ int s[8];
  const int t = threadIdx.x;
  const int mine = in[blockIdx.x * 8 + t] * 10;
  s[t] = mine;
  __syncthreads();
  const int right = s[(t + 1) % 8];
  out[blockIdx.x * 8 + t] = mine + right;
}

int main() {
  int host[16];
  for (int i = 0; i < 16; ++i) host[i] = i + 1;
  int *in, *out;
  cudaMalloc(&in, sizeof host);
  cudaMalloc(&out, sizeof host);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  shift<<<2, 8>>>(in, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("out[13] = %d\n", host[13]);
  cudaFree(in);
  cudaFree(out);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
