// SPDX-License-Identifier: MIT
// Lesson: a block-sum reduction in shared memory, three ways (the steps of Mark Harris's classic
// "Optimizing Parallel Reduction in CUDA").
//   nvcc -o reduction reduction.cu && CUSIM_REPORT=out ./reduction   (then open out/report.html)
// What to look at:
//  - reduce_divergent: thread t works when t % 2k == 0. In every warp only every 2k-th lane does
//    (16, 8, 4... of 32): the addition's line runs in every warp with few active lanes (about 5 on
//    average) and four times as many warp instructions as the others need. Its lanes' words lie in
//    distinct banks: no conflict; what it wastes is lanes.
//  - reduce_interleaved: thread t adds s[2kt] and s[2kt + k]. The working threads are now the first
//    ones, whole warps, but neighbouring lanes read words 2k apart: lanes 0 and 16 hit one bank when
//    k = 1, more as k grows. Red bank pictures on the addition's line.
//  - reduce_sequential: thread t < k adds s[t] and s[t + k]: neighbouring lanes, neighbouring words,
//    no conflict. Once k < 32, part of one warp works: that line is divergent in all three, as the
//    figures show (fewer lanes on the last steps).
#include "lesson_check.h"

#include <vector>

constexpr int BLOCK = 256, BLOCKS = 256;

__global__ void reduce_divergent(float* out, const float* in) {
  __shared__ float s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * BLOCK + t];
  __syncthreads();
  for (unsigned k = 1; k < BLOCK; k *= 2) {
    if (t % (2 * k) == 0) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

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
  for (int kernel = 0; kernel < 3; ++kernel) {
    if (kernel == 0) reduce_divergent<<<BLOCKS, BLOCK>>>(out, in);
    if (kernel == 1) reduce_interleaved<<<BLOCKS, BLOCK>>>(out, in);
    if (kernel == 2) reduce_sequential<<<BLOCKS, BLOCK>>>(out, in);
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
