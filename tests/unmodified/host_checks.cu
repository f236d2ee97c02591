// SPDX-License-Identifier: MIT
// Host code of a .cu file is not instrumented by default (it runs at the host compiler's speed):
// a host overrun is not checked, while a kernel's overrun in the same file still is. Built with
// CUSIM_NVCC_HOST_CHECKS=1 in the environment (and -DEXPECT_HOST_CHECKS=1, which tells this
// program), host code is instrumented as before and its overruns are reported too.
#include "check.h"

__global__ void read_past(const float* in, float* out, int n) {
  out[threadIdx.x] = in[threadIdx.x + n];  // line 9: thread 3 reads in[4] of 4 floats
}

/// A host function reading element `i` of a pinned buffer (one past its end below), and element
/// `i` of a local array (one past its end): not checked by default.
static float host_reads(const float* h, int i) {
  int local[3] = {1, 2, 3};
  volatile int at = i - 1;
  return h[i] + static_cast<float>(local[at]);  // line 17
}

int main() {
  float* h = nullptr;
  CHECK_EQ(cudaMallocHost(&h, 4 * sizeof(float)), cudaSuccess);
  for (int i = 0; i < 4; ++i) h[i] = 1.0f;

  std::string host;
  {
    stderr_capture capture;
    volatile int past = 4;
    volatile float sink = host_reads(h, past);
    (void)sink;
    host = capture.text();
  }
#if defined(EXPECT_HOST_CHECKS)
  CHECK(host.find("invalid host read of 4 bytes at 0x") != std::string::npos);
  CHECK(host.find("0 bytes past the end of a 16-byte allocation of pinned host memory") != std::string::npos);
  CHECK(host.find("host_checks.cu:17") != std::string::npos);
  CHECK(host.find("index 3 out of bounds for type 'int") != std::string::npos);
#else
  CHECK_EQ(host, std::string(""));
#endif

  // The kernel's overrun is reported either way.
  float *in = nullptr, *out = nullptr;
  CHECK_EQ(cudaMalloc(&in, 4 * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&out, 4 * sizeof(float)), cudaSuccess);
  std::string device;
  {
    stderr_capture capture;
    read_past<<<1, 4>>>(in, out, 1);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    device = capture.text();
  }
  CHECK(device.find("tid=[3, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes") != std::string::npos);
  CHECK(device.find("host_checks.cu:9") != std::string::npos);
  std::printf("host report: %s", host.empty() ? "none\n" : host.c_str());
  return finish();
}
