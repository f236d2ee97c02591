// SPDX-License-Identifier: MIT
// Lesson 9: cusim::forall(n, kernel, ...) picks the launch shape, like numba's kernel.forall(n).
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cmath>
#include <string>
#include <vector>

__global__ void round_to(cusim::span<const float> in, cusim::span<float> out, int decimals) {
  const int i = cusim::grid<1>();
  if (i >= static_cast<int>(in.size())) return;
  const float scale = powf(10.0f, static_cast<float>(decimals));
  out[i] = rintf(in[i] * scale) / scale;
}

int main() {
  const int n = 5000;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = std::sqrt(static_cast<float>(i));
  auto in = cusim::to_device(x);
  auto out = cusim::device_array_like(in);
  cusim::forall(n, round_to, in, out, 2);
  auto r = out.copy_to_host();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && std::fabs(r[i] - std::rint(x[i] * 100.0f) / 100.0f) < 1e-4f;
  return report("forall_round", ok, ("sqrt(2) ~ " + std::to_string(r[2])).c_str());
}
