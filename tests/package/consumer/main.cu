// SPDX-License-Identifier: MIT
#include <cusim/cusim.hpp>

#include <cstdio>
#include <vector>

__global__ void square(cusim::span<int> v) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(v.size())) v[i] *= v[i];
}

int main() {
  std::vector<int> h{1, 2, 3, 4, 5};
  auto d = cusim::to_device(h);
  cusim::launch(square, 1, 32, d);
  h = d.copy_to_host();
  const bool ok = h == std::vector<int>{1, 4, 9, 16, 25};
  std::printf("consumer: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
