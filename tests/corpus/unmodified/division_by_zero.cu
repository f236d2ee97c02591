// Integer division by a per-block divisor that is zero for blocks 2 and 5: the report names
// block 2, the lowest, whatever the number of workers.
#include <cstdio>

__global__ void bucket(int* out, const int* width) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x / width[blockIdx.x];
}

int main() {
  int h_width[8] = {4, 4, 0, 4, 4, 0, 4, 4};
  int *width, *out;
  cudaMalloc(&width, sizeof h_width);
  cudaMalloc(&out, 8 * 64 * sizeof(int));
  cudaMemcpy(width, h_width, sizeof h_width, cudaMemcpyHostToDevice);
  bucket<<<8, 64>>>(out, width);
  printf("bucket: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
