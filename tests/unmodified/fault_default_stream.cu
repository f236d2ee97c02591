// SPDX-License-Identifier: MIT
// A kernel fault on the default stream, launched with `kernel<<<2, 32>>>(...)`: the launch
// returns, the fault is the sticky error of the next synchronisation, its report is printed once.
#include "check.h"

__global__ void faulting(int* out, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i != bad);
  out[i] = i;
}

__global__ void marks(int* flag) { *flag = 1; }

int main() {
  int* out = nullptr;
  int* flag = nullptr;
  CHECK_EQ(cudaMallocManaged(&out, 64 * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&flag, sizeof(int)), cudaSuccess);
  *flag = 0;
  std::string report;
  {
    stderr_capture capture;
    faulting<<<2, 32>>>(out, 35);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);  // the launch itself succeeded
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorAssert);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorAssert);  // sticky
    // After a fault a GPU runs nothing more: the launch fails with the sticky code.
    marks<<<1, 1>>>(flag);
    CHECK_EQ(cudaGetLastError(), cudaErrorAssert);
    report = capture.text();
  }
  CHECK_EQ(*flag, 0);
  CHECK_EQ(report, std::string("tid=[3, 0, 0] ctaid=[1, 0, 0]: device-side assertion `i != bad` failed in faulting "
                               "(fault_default_stream.cu:8)\n"));
  return finish();
}
