// A device-side assert on an input the host did not validate.
#include <cassert>
#include <cstdio>

__global__ void check_positive(const int* v) {
  assert(v[threadIdx.x] > 0);
}

int main() {
  int h[32];
  for (int i = 0; i < 32; ++i) h[i] = i == 19 ? -1 : i + 1;
  int* v;
  cudaMalloc(&v, sizeof h);
  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice);
  check_positive<<<1, 32>>>(v);
  printf("check_positive: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
