// SPDX-License-Identifier: MIT
// Lesson 2: a grid-stride loop, so any grid size covers any vector.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <string>
#include <vector>

__global__ void vector_add(cusim::span<float> c, cusim::span<const float> a, cusim::span<const float> b) {
  for (int i = cusim::grid<1>(); i < static_cast<int>(c.size()); i += cusim::gridsize<1>()) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 2.0f * i;
  auto d_a = cusim::to_device(a);
  auto d_b = cusim::to_device(b);
  auto d_c = cusim::device_array<float>(n);
  cusim::launch(vector_add, 64, 256, d_c, d_a, d_b);  // 16384 threads for 1M elements
  auto c = d_c.copy_to_host();
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && c[i] == a[i] + b[i];
  return report("vector_add", ok, ("c[n-1] = " + std::to_string(c[n - 1])).c_str());
}
