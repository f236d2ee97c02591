// SPDX-License-Identifier: MIT
// Lesson: a block-sum reduction in shared memory, interleaved -> sequential addressing.
//   nvcc -o reduction reduction.cu && CUSIM_REPORT=out ./reduction   (then open out/report.html)
// What to look at:
//  - reduce_interleaved: thread t adds s[2kt] and s[2kt + k]. The active threads are spread out
//    (every 2k-th index), so the lanes of a warp hit the same banks: bank conflicts on the line of
//    the addition, and its lanes thin out per warp (active lanes well below 32: divergence).
//  - reduce_sequential: thread t < k adds s[t] and s[t + k]. Neighbouring lanes read neighbouring
//    words (no conflict) and whole warps drop out together until k < 32.
#include "lesson_check.h"

#include <vector>

constexpr int BLOCK = 256, BLOCKS = 256;

__global__ void reduce_interleaved(float* out, const float* in) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned k = 1; k < BLOCK; k *= 2) {
    unsigned idx = 2 * k * t;
    if (idx < BLOCK) s[idx] += s[idx + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(float* out, const float* in) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  std::vector<float> host(BLOCK * BLOCKS);
  for (int i = 0; i < BLOCK * BLOCKS; ++i) host[i] = static_cast<float>(i % 7);
  float *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, host.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, BLOCKS * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> sums(BLOCKS);
  int wrong = 0;
  for (int kernel = 0; kernel < 2; ++kernel) {
    if (kernel == 0) reduce_interleaved<<<BLOCKS, BLOCK>>>(out, in);
    if (kernel == 1) reduce_sequential<<<BLOCKS, BLOCK>>>(out, in);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(sums.data(), out, BLOCKS * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; ++b) {
      float expected = 0;  // small integers: every order of addition gives the same float
      for (int i = 0; i < BLOCK; ++i) expected += host[b * BLOCK + i];
      if (sums[b] != expected) ++wrong;
    }
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  std::printf("reduction: %s\n", wrong ? "WRONG" : "OK");
  return wrong ? 1 : 0;
}
