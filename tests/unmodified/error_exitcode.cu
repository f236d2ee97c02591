// SPDX-License-Identifier: MIT
// CUSIM_ERROR_EXITCODE=N: the process exits with N when a kernel fault was reported, whatever main
// returns (compute-sanitizer's --error-exitcode). The test runs it with N = 3.
#include <cstdio>

__global__ void null_write(int* p) {
  if (threadIdx.x == 5) p[threadIdx.x] = 1;
}

int main() {
  null_write<<<1, 8>>>(nullptr);
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
