// SPDX-License-Identifier: MIT
// Lesson: a divergent branch against a warp-uniform one.
//   nvcc -o divergence divergence.cu && CUSIM_REPORT=out ./divergence   (then open out/report.html)
// What to look at: the active lanes of each store, and the Divergence picture. divergent_half
// branches on the lane's parity: every warp runs both sides, each with 16 of its 32 lanes, so the
// two stores inside the branch show 16 active lanes and the kernel's threads per warp instruction
// drop below 32. warp_uniform branches on the warp's index: all 32 lanes of a warp go the same way,
// nothing splits, though the block as a whole still runs both sides. Look at the stores' sectors
// too: 16 lanes writing every other float still touch 4 sectors, twice what their bytes need.
// (The two sides store to different arrays: were both `out[i] = ...`, the compiler would compute
// both values and store once, with every lane, and nothing would diverge, on a GPU too.)
#include "lesson_check.h"

#include <vector>

constexpr int N = 1 << 14;

__global__ void divergent_half(float* odd, float* even, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (threadIdx.x % 2) {
    odd[i] = v * 3.f + 1.f;
  } else {
    even[i] = v * 0.5f - 1.f;
  }
}

__global__ void warp_uniform(float* odd, float* even, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if ((threadIdx.x / 32) % 2) {
    odd[i] = v * 3.f + 1.f;
  } else {
    even[i] = v * 0.5f - 1.f;
  }
}

int main() {
  std::vector<float> host(N);
  for (int i = 0; i < N; ++i) host[i] = static_cast<float>(i % 100);
  float *in = nullptr, *odd = nullptr, *even = nullptr;
  CHECK_CUDA(cudaMalloc(&in, N * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&odd, N * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&even, N * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  std::vector<float> odd_result(N), even_result(N);
  int wrong = 0;
  for (int kernel = 0; kernel < 2; ++kernel) {
    CHECK_CUDA(cudaMemset(odd, 0, N * sizeof(float)));
    CHECK_CUDA(cudaMemset(even, 0, N * sizeof(float)));
    if (kernel == 0) divergent_half<<<N / 256, 256>>>(odd, even, in);
    if (kernel == 1) warp_uniform<<<N / 256, 256>>>(odd, even, in);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(odd_result.data(), odd, N * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(even_result.data(), even, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      const int t = i % 256;
      const bool is_odd = kernel == 0 ? t % 2 : (t / 32) % 2;
      const float want_odd = is_odd ? host[i] * 3.f + 1.f : 0.f;
      const float want_even = is_odd ? 0.f : host[i] * 0.5f - 1.f;
      if (odd_result[i] != want_odd || even_result[i] != want_even) ++wrong;
    }
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(odd));
  CHECK_CUDA(cudaFree(even));
  std::printf("divergence: %s\n", wrong ? "WRONG" : "OK");
  return wrong ? 1 : 0;
}
