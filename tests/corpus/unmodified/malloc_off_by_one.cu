// Vector add whose bounds test lets one thread past the end of the cudaMalloc'd arrays.
#include <cstdio>

__global__ void add(float* c, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) c[i] = a[i] + b[i];  // bug: <= n
}

int main() {
  const int n = 1000;
  float *a, *b, *c;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&c, n * sizeof(float));
  add<<<(n + 255) / 256, 256>>>(c, a, b, n);
  printf("add: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
