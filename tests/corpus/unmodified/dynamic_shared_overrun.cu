// A neighbour read through extern __shared__ memory that runs one element past the dynamic bytes
// the launch gave the block.
#include <cstdio>

__global__ void differences(float* out, const float* in) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[threadIdx.x + 1] - buf[threadIdx.x];  // bug: last thread
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float));
  differences<<<4, 64, 64 * sizeof(float)>>>(out, in);
  printf("differences: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
