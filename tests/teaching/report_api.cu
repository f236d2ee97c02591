// SPDX-License-Identifier: MIT
// A program written against cusim's API whose CUSIM_REPORT figures are known from its source
// (check_report.py compares them): checked spans and a shared_array, whose element accesses reach
// the report with no load or store of their own (an element reference is both); the report tells
// them apart by the change an access makes.
#include <cusim/cusim.hpp>

#include <cstdio>
#include <vector>

__global__ void scale(cusim::span<const float> in, cusim::span<float> out) {
  const int i = cusim::grid<1>();
  out[i] = 2.0f * in[i];
}

__global__ void fold(cusim::span<float> v) {
  __shared__ cusim::shared_array<float, 64> s;
  const int t = threadIdx.x;
  s[t] = v[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) s[t] = s[t] + s[t + 32];
  __syncthreads();
  if (t == 0) v[blockIdx.x] = s[0];
}

int main() {
  std::vector<float> h(256);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = 1.0f + static_cast<float>(i % 7);
  auto in = cusim::to_device(h);
  cusim::device_array<float> out(256);
  cusim::launch(scale, 4, 64, in, out);
  cusim::launch(fold, 4, 64, out);
  std::printf("report_api: %g\n", static_cast<double>(out.copy_to_host()[0]));
  return 0;
}
