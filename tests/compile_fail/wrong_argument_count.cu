// SPDX-License-Identifier: MIT
// Must not compile: a launch passes the wrong number of kernel arguments.
#include <cusim/cusim.hpp>
__global__ void k(cusim::span<float> a, int n) { a[0] = static_cast<float>(n); }
int main() {
  cusim::device_array<float> a(1);
  cusim::launch(k, 1, 1, a);
}
