// Every block adds its partial count into one global counter without an atomic (CUSIM_CHECK=race).
#include <cstdio>

__global__ void count(const int* flags, int* total) {
  __shared__ int block_count;
  if (threadIdx.x == 0) block_count = 0;
  __syncthreads();
  if (flags[blockIdx.x * blockDim.x + threadIdx.x]) atomicAdd(&block_count, 1);
  __syncthreads();
  if (threadIdx.x == 0) *total += block_count;  // bug: blocks race on *total
}

int main() {
  int *flags, *total;
  cudaMalloc(&flags, 4 * 64 * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  int h[4 * 64];
  for (int& f : h) f = 1;
  cudaMemcpy(flags, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(total, 0, sizeof(int));
  count<<<4, 64>>>(flags, total);
  printf("count: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
