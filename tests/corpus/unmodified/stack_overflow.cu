// Unbounded recursion in a device function: each level keeps its parent's local array alive.
#include <cstdio>

__device__ int depth(int n, const int* parent) {
  int local[64];
  for (int i = 0; i < 64; ++i) local[i] = parent[i] + n;
  return n < 0 ? local[0] : depth(n + 1, local);  // bug: n never goes below 0
}

__global__ void walk(int* out) {
  int start[64] = {};
  out[threadIdx.x] = depth(0, start);
}

int main() {
  int* out;
  cudaMalloc(&out, 4 * sizeof(int));
  walk<<<1, 4>>>(out);
  printf("walk: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
