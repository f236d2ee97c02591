// SPDX-License-Identifier: MIT
// What the nvcc driver cannot see in a kernel's text: a constructor that waits at a barrier, in
// a stretch the driver made a loop over the block's threads. Run in phases that is a tagged error
// naming CUSIM_PHASES=0, never a hang; on fibers (CUSIM_PHASES=0) the program is right. The same
// for a constructor that spins on an atomic.
#include "check.h"

#include <cstdlib>
#include <cstring>
#include <string>

struct waits_for_all {
  __device__ waits_for_all() { __syncthreads(); }
};

__global__ void hidden(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  {
    waits_for_all w;
    (void)w;
  }
  out[threadIdx.x] = s[31 - threadIdx.x];
}

// A spin on an atomic the driver cannot see either: thread 0 waits for thread 1's flag. In phases
// thread 0 runs alone until it is taken for a spin (sim::phased_poll_limit polls with no progress).
struct waits_for_flag {
  __device__ explicit waits_for_flag(int* flag) {
    if (threadIdx.x == 0)
      while (atomicCAS(flag, 1, 1) != 1) {
      }
    else
      atomicExch(flag, 1);
  }
};

__global__ void hidden_spin(int* flag, int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  {
    waits_for_flag w(flag);
    (void)w;
  }
  out[threadIdx.x] = s[31 - threadIdx.x];
}

int main() {
  const char* setting = std::getenv("CUSIM_PHASES");
  const bool phases = setting == nullptr || std::strcmp(setting, "0") != 0;
  int* out;
  cudaMallocManaged(&out, 32 * sizeof(int));
  std::string report;
  cudaError_t e;
  {
    stderr_capture capture;
    hidden<<<1, 32>>>(out);
    e = cudaDeviceSynchronize();
    report = capture.text();
  }
  if (phases) {
    CHECK_EQ(e, cudaErrorLaunchFailure);
    CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: __syncthreads in a block run as loops between its "
                                 "barriers, from code the nvcc driver did not see when it chose that form (a "
                                 "constructor, an operator, another file's code); CUSIM_PHASES=0 runs every thread "
                                 "on a fiber of its own (phases_hidden_wait.cu:13)\n"));
  } else {
    CHECK_EQ(e, cudaSuccess);
    CHECK_EQ(report, std::string());
    for (int t = 0; t < 32; ++t) CHECK_EQ(out[t], 31 - t);
  }
  cudaDeviceReset();  // a fault is sticky
  cudaMallocManaged(&out, 32 * sizeof(int));
  int* flag;
  cudaMallocManaged(&flag, sizeof(int));
  *flag = 0;
  {
    stderr_capture capture;
    hidden_spin<<<1, 2>>>(flag, out);
    e = cudaDeviceSynchronize();
    report = capture.text();
  }
  if (phases) {
    CHECK_EQ(e, cudaErrorLaunchFailure);
    CHECK(report.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: a spin on an atomic in a block run as loops between its "
                       "barriers, from code the nvcc driver did not see",
                       0) == 0);
  } else {
    CHECK_EQ(e, cudaSuccess);
    CHECK_EQ(report, std::string());
  }
  return finish();
}
