// A kernel given a device pointer the host never allocated.
#include <cstdio>

__global__ void fill(float* out, float v) { out[blockIdx.x * blockDim.x + threadIdx.x] = v; }

int main() {
  float* out = nullptr;  // bug: cudaMalloc forgotten
  fill<<<2, 32>>>(out, 1.0f);
  printf("fill: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
