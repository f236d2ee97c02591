// SPDX-License-Identifier: MIT
// The program the gdb session test (session.gdb, run_session.cmake) debugs. Line numbers are
// part of the test: keep the kernels where they are.
#include <cusim/cusim.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

__global__ void neighbours(cusim::span<const int> in, cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 8> s;
  const int t = threadIdx.x;
  const int mine = in[t] * 10;
  s[t] = mine;
  __syncthreads();
  const int left = t > 0 ? s[t - 1] : 0;
  out[t] = mine + left;
}

__global__ void faulty(cusim::span<int> out) {
  const int doubled = static_cast<int>(threadIdx.x) * 2;
  out[threadIdx.x + 1] = doubled;
}

int main(int argc, char** argv) {
  const bool fault = argc > 1 && std::strcmp(argv[1], "fault") == 0;
  std::vector<int> host{1, 2, 3, 4, 5, 6, 7, 8};
  auto in = cusim::to_device(host);
  cusim::device_array<int> out(8);
  try {
    if (fault) cusim::launch(faulty, 1, 8, out);
    else cusim::launch(neighbours, 1, 8, in, out);
  } catch (const cusim::kernel_error& e) {
    std::printf("caught: %s\n", e.what());
    return 0;
  }
  std::printf("out[5] = %d\n", out.copy_to_host()[5]);
  return 0;
}
