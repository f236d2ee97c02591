// A block sum that reads shared slots no thread wrote: the block is smaller than the tile
// (CUSIM_CHECK=init).
#include <cstdio>

__global__ void block_sum(const float* in, float* out) {
  __shared__ float s[64];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0;
    for (int i = 0; i < 64; ++i) total += s[i];  // bug: only blockDim.x slots were written
    *out = total;
  }
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  cudaMemset(in, 0, 64 * sizeof(float));
  block_sum<<<1, 48>>>(in, out);
  printf("block_sum: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
