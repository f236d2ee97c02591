// SPDX-License-Identifier: MIT
// Lesson 7: normalise a vector; one block computes the norm in shared memory, then scales.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cmath>
#include <string>
#include <vector>

constexpr int TPB = 512;

__global__ void normalize(cusim::span<float> v) {
  __shared__ cusim::shared_array<float, TPB> squares;
  __shared__ cusim::shared_array<float, 1> norm;
  const unsigned t = threadIdx.x;
  float acc = 0;
  for (unsigned i = t; i < v.size(); i += TPB) acc += v[i] * v[i];
  squares[t] = acc;
  __syncthreads();
  for (unsigned stride = TPB / 2; stride > 0; stride /= 2) {
    if (t < stride) squares[t] += squares[t + stride];
    __syncthreads();
  }
  if (t == 0) norm[0] = sqrtf(squares[0]);
  __syncthreads();
  for (unsigned i = t; i < v.size(); i += TPB) v[i] /= norm[0];
}

int main() {
  const int n = 10000;
  std::vector<float> v(n);
  double norm = 0;
  for (int i = 0; i < n; ++i) v[i] = std::sin(0.01f * i), norm += double(v[i]) * v[i];
  norm = std::sqrt(norm);
  auto d = cusim::to_device(v);
  cusim::launch(normalize, 1, TPB, d);
  auto out = d.copy_to_host();
  double len = 0;
  bool ok = true;
  for (int i = 0; i < n; ++i) len += double(out[i]) * out[i], ok = ok && std::fabs(out[i] - v[i] / norm) < 1e-5;
  return report("normalize", ok && std::fabs(len - 1) < 1e-4, ("|v| after = " + std::to_string(std::sqrt(len))).c_str());
}
