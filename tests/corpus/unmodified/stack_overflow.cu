// Unbounded recursion in a device function.
#include <cstdio>

__device__ int depth(int n, volatile int* sink) {
  int local[64];
  for (int i = 0; i < 64; ++i) local[i] = n + i;
  *sink = local[n % 64];
  return n == -1 ? 0 : 1 + depth(n + 1, sink);  // bug: never reaches -1
}

__global__ void walk(int* out) { out[threadIdx.x] = depth(0, out + threadIdx.x); }

int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  walk<<<1, 4>>>(out);
  printf("walk: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
