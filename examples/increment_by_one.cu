// SPDX-License-Identifier: MIT
// Lesson 1: one thread per element, guarded against the partial last block.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <string>
#include <vector>

__global__ void increment_by_one(cusim::span<int> a) {
  int pos = cusim::grid<1>();
  if (pos < static_cast<int>(a.size())) a[pos] += 1;
}

int main() {
  std::vector<int> host(1000);
  for (int i = 0; i < 1000; ++i) host[i] = i;
  auto dev = cusim::to_device(host);
  const int threads = 128, blocks = (1000 + threads - 1) / threads;
  cusim::launch(increment_by_one, blocks, threads, dev);
  auto out = dev.copy_to_host();
  bool ok = true;
  for (int i = 0; i < 1000; ++i) ok = ok && out[i] == i + 1;
  return report("increment_by_one", ok, ("a[999] = " + std::to_string(out[999])).c_str());
}
