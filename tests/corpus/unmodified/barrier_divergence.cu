// __syncthreads() inside a branch that only part of the block takes.
#include <cstdio>

__global__ void partial_sums(float* data) {
  __shared__ float s[64];
  s[threadIdx.x] = data[threadIdx.x];
  if (threadIdx.x < 32) {
    __syncthreads();  // bug: threads 32..63 never arrive here
    s[threadIdx.x] += s[threadIdx.x + 32];
  }
  __syncthreads();
  data[threadIdx.x] = s[threadIdx.x];
}

int main() {
  float* data;
  cudaMalloc(&data, 64 * sizeof(float));
  cudaMemset(data, 0, 64 * sizeof(float));
  partial_sums<<<1, 64>>>(data);
  printf("partial_sums: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
