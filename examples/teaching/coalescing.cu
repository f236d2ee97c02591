// SPDX-License-Identifier: MIT
// Lesson: coalesced against strided global memory access.
//   nvcc -o coalescing coalescing.cu && CUSIM_REPORT=out ./coalescing   (then open out/report.html)
// What to look at: "sectors per request" of the load on each kernel's one line. copy_coalesced's 32
// lanes read 32 neighbouring floats, 128 bytes: 4 sectors of 32 bytes per request. copy_strided's
// lanes read every 32nd float: each lane's float lies in a sector of its own, 32 sectors per request,
// eight times the memory traffic for the same useful bytes. copy_offset shifts the coalesced read by
// one float: the 128 bytes straddle 5 sectors. The stores are coalesced in all three (4 per request).
#include "lesson_check.h"

#include <vector>

constexpr int N = 1 << 16;

__global__ void copy_coalesced(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

__global__ void copy_offset(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i + 1];
}

__global__ void copy_strided(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i * 32) % N];
}

int main() {
  std::vector<float> host(N + 1);
  for (int i = 0; i <= N; ++i) host[i] = static_cast<float>(i);
  float *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, (N + 1) * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, N * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), (N + 1) * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> result(N);
  int wrong = 0;
  for (int kernel = 0; kernel < 3; ++kernel) {
    if (kernel == 0) copy_coalesced<<<N / 256, 256>>>(out, in);
    if (kernel == 1) copy_offset<<<N / 256, 256>>>(out, in);
    if (kernel == 2) copy_strided<<<N / 256, 256>>>(out, in);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(result.data(), out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      const int from = kernel == 0 ? i : kernel == 1 ? i + 1 : (i * 32) % N;
      if (result[i] != host[from]) ++wrong;
    }
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  std::printf("coalescing: %s\n", wrong ? "WRONG" : "OK");
  return wrong ? 1 : 0;
}
