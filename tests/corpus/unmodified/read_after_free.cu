// A buffer freed before the kernel that still reads it runs.
#include <cstdio>

__device__ float twice(const float* p, int i) { return 2.0f * p[i]; }

__global__ void scale(float* out, const float* in) {
  out[threadIdx.x] = twice(in, threadIdx.x);  // reads freed memory
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 32 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(in, 0, 32 * sizeof(float));
  cudaFree(in);  // bug: too early
  scale<<<1, 32>>>(out, in);
  printf("scale: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
