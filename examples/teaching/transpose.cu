// SPDX-License-Identifier: MIT
// Lesson: a matrix transpose, naive -> tiled -> padded.
//   nvcc -o transpose transpose.cu && CUSIM_REPORT=out ./transpose   (then open out/report.html)
// What to look at:
//  - transpose_naive: its load is coalesced (4 sectors per request) but its store writes a column:
//    each lane's float in a different row, 32 sectors per request.
//  - transpose_tiled: a 32 x 32 __shared__ tile makes both global accesses coalesced (4 and 4),
//    but reading the tile by column puts all 32 lanes in one bank: the shared load's picture has
//    one red column, 32 wavefronts per request, 31 bank conflicts each.
//  - transpose_padded: one extra column (tile[32][33]) shifts each row by one bank: the same
//    column read spreads over all 32 banks, 1 wavefront per request, no conflict.
#include "lesson_check.h"

#include <vector>

constexpr int W = 256;  // W x W floats
constexpr int TILE = 32, ROWS = 8;  // a block is 32 x 8 threads, each moves 4 elements

__global__ void transpose_naive(float* out, const float* in) {
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[x * W + (y + j)] = in[(y + j) * W + x];
}

__global__ void transpose_tiled(float* out, const float* in) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float* out, const float* in) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS) out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  std::vector<float> host(W * W);
  for (int i = 0; i < W * W; ++i) host[i] = static_cast<float>(i);
  float *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, W * W * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, W * W * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), W * W * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 grid(W / TILE, W / TILE), block(TILE, ROWS);
  std::vector<float> result(W * W);
  int wrong = 0;
  for (int kernel = 0; kernel < 3; ++kernel) {
    CHECK_CUDA(cudaMemset(out, 0, W * W * sizeof(float)));
    if (kernel == 0) transpose_naive<<<grid, block>>>(out, in);
    if (kernel == 1) transpose_tiled<<<grid, block>>>(out, in);
    if (kernel == 2) transpose_padded<<<grid, block>>>(out, in);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(result.data(), out, W * W * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < W; ++r)
      for (int c = 0; c < W; ++c)
        if (result[c * W + r] != host[r * W + c]) ++wrong;
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  std::printf("transpose: %s\n", wrong ? "WRONG" : "OK");
  return wrong ? 1 : 0;
}
