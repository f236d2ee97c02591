// A kernel that gives up with __trap() on a state it cannot handle.
#include <cstdio>

__global__ void parse(const int* tokens, int* out) {
  int t = tokens[blockIdx.x * blockDim.x + threadIdx.x];
  if (t < 0) __trap();
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

int main() {
  int h[128] = {};
  h[70] = -3;
  int *tokens, *out;
  cudaMalloc(&tokens, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(tokens, h, sizeof h, cudaMemcpyHostToDevice);
  parse<<<2, 64>>>(tokens, out);
  printf("parse: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
