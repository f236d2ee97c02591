// A tiled transpose whose 16x16 shared tile is read one column too far: row overrun.
#include <cstdio>

#define TILE 16

__global__ void transpose(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y + 1];  // bug: + 1
}

int main() {
  const int n = 64;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMemset(in, 0, n * n * sizeof(float));
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(out, in, n);
  printf("transpose: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
