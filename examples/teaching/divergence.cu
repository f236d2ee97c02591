// SPDX-License-Identifier: MIT
// Lesson: a divergent branch against a warp-uniform one.
//   nvcc -o divergence divergence.cu && CUSIM_REPORT=out ./divergence   (then open out/report.html)
// What to look at: "threads per warp instruction" and the Divergence picture. divergent_half
// branches on the lane's parity: every warp runs both sides, each with 16 of its 32 lanes, so the
// lines inside the branch show 16 active lanes and the kernel's average drops below 32.
// warp_uniform branches on the warp's index: all 32 lanes of a warp go the same way, nothing splits,
// though the block as a whole still runs both sides.
#include "lesson_check.h"

#include <vector>

constexpr int N = 1 << 14;

__global__ void divergent_half(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x % 2) {
    out[i] = v * 3.f + 1.f;
  } else {
    out[i] = v * 0.5f - 1.f;
  }
}

__global__ void warp_uniform(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if ((threadIdx.x / 32) % 2) {
    out[i] = v * 3.f + 1.f;
  } else {
    out[i] = v * 0.5f - 1.f;
  }
}

int main() {
  std::vector<float> host(N);
  for (int i = 0; i < N; ++i) host[i] = static_cast<float>(i % 100);
  float *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, N * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, N * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> result(N);
  int wrong = 0;
  for (int kernel = 0; kernel < 2; ++kernel) {
    if (kernel == 0) divergent_half<<<N / 256, 256>>>(out, in);
    if (kernel == 1) warp_uniform<<<N / 256, 256>>>(out, in);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(result.data(), out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      const int t = i % 256;
      const bool odd = kernel == 0 ? t % 2 : (t / 32) % 2;
      const float expected = odd ? host[i] * 3.f + 1.f : host[i] * 0.5f - 1.f;
      if (result[i] != expected) ++wrong;
    }
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  std::printf("divergence: %s\n", wrong ? "WRONG" : "OK");
  return wrong ? 1 : 0;
}
