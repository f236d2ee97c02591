// SPDX-License-Identifier: MIT
// A kernel fault through cudaLaunchKernel: reported once on stderr when the kernel has run, on a
// stream or on the default stream, as a <<<>>> launch's is, and the sticky error of the next
// synchronisation.
#include "check.h"

__global__ void traps(unsigned at) {
  if (threadIdx.x == at) __trap();
}

int main() {
  cudaStream_t s = nullptr;
  CHECK_EQ(cudaStreamCreate(&s), cudaSuccess);
  unsigned at = 40;
  void* args[] = {&at};
  std::string report;
  {
    stderr_capture capture;
    CHECK_EQ(cudaLaunchKernel((const void*)traps, dim3(1), dim3(64), args, 0, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaErrorLaunchFailure);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorLaunchFailure);
    // The context is unusable now: a launch fails with the fault and runs nothing.
    at = 7;
    CHECK_EQ(cudaLaunchKernel((const void*)traps, dim3(1), dim3(64), args, 0, nullptr), cudaErrorLaunchFailure);
    report = capture.text();
  }
  CHECK_EQ(report, std::string("tid=[40, 0, 0] ctaid=[0, 0, 0]: __trap() was called (fault_launch_kernel.cu:8)\n"));
  return finish();
}
