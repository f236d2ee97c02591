// SPDX-License-Identifier: MIT
// A plain CUDA program (no cusim header): a matrix transpose through a padded __shared__ tile and
// a block-sum reduction through extern __shared__ memory, launched with <<<>>> and checked on the
// host. Built by cusim's nvcc driver it runs on the CPU, every __shared__ tile access checked.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK_CUDA(call)                                                                  \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
                   cudaGetErrorString(err_));                                             \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int TILE = 16;

__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];  // +1: no bank conflicts on a GPU
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void block_sums(const float* in, float* sums, int n) {
  extern __shared__ float partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

int main() {
  const int rows = 100, cols = 70, n = rows * cols;
  std::vector<float> a(n);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i % 97) * 0.5f;

  float *d_in, *d_out, *d_sums;
  const int threads = 256, blocks = (n + threads - 1) / threads;
  CHECK_CUDA(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d_sums, blocks * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d_in, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transpose<<<grid, block>>>(d_in, d_out, rows, cols);
  CHECK_CUDA(cudaGetLastError());
  block_sums<<<blocks, threads, threads * sizeof(float)>>>(d_in, d_sums, n);
  CHECK_CUDA(cudaGetLastError());

  std::vector<float> t(n), sums(blocks);
  CHECK_CUDA(cudaMemcpy(t.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(d_in));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_sums));

  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) bad += t[c * rows + r] != a[r * cols + c];
  double total = 0, expected = 0;
  for (float s : sums) total += s;
  for (float v : a) expected += v;
  bad += total != expected;
  std::printf("tiled_transpose (unmodified CUDA, %dx%d, %d blocks of sums): %s\n", rows, cols, blocks,
              bad ? "FAILED" : "OK");
  return bad ? 1 : 0;
}
