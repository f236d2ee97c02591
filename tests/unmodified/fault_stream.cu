// SPDX-License-Identifier: MIT
// A kernel fault on a stream (`kernel<<<1, 64, 0, s>>>(...)`): reported once when the
// kernel has run, and the sticky error of cudaStreamSynchronize and cudaDeviceSynchronize.
#include "check.h"

__global__ void traps(unsigned at) {
  if (threadIdx.x == at) __trap();
}

int main() {
  cudaStream_t s = nullptr;
  CHECK_EQ(cudaStreamCreate(&s), cudaSuccess);
  std::string report;
  {
    stderr_capture capture;
    traps<<<dim3(1), dim3(64), 0, s>>>(40u);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaErrorLaunchFailure);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    report = capture.text();
  }
  CHECK_EQ(report, std::string("tid=[40, 0, 0] ctaid=[0, 0, 0]: __trap() was called (fault_stream.cu:7)\n"));
  return finish();
}
