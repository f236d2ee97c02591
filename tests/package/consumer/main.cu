// SPDX-License-Identifier: MIT
#include <cusim/cusim.hpp>

#include <cstdio>
#include <vector>

__global__ void square(cusim::span<int> v) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(v.size())) v[i] *= v[i];
}

// With barriers: on the simulator, built from cusim_add_executable's phased copy.
__global__ void reverse(cusim::span<int> v) {
  __shared__ cusim::shared_array<int, 32> s;
  const unsigned t = threadIdx.x;
  s[t] = v[t];
  __syncthreads();
  v[t] = s[31 - t];
}

int main() {
  std::vector<int> h{1, 2, 3, 4, 5};
  auto d = cusim::to_device(h);
  cusim::launch(square, 1, 32, d);
  h = d.copy_to_host();
  std::vector<int> r(32);
  for (int i = 0; i < 32; ++i) r[i] = i;
  auto dr = cusim::to_device(r);
  cusim::launch(reverse, 1, 32, dr);
  r = dr.copy_to_host();
  const bool ok = h == std::vector<int>{1, 4, 9, 16, 25} && r[0] == 31 && r[31] == 0;
  std::printf("consumer: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
