// SPDX-License-Identifier: MIT
// Whole-object copies in kernels (a float4, a 24-byte struct, a struct holding an array) are
// checked as the accesses they are: a compiler may make them a memcpy (clang++ does, and its
// kernel-address instrumentation leaves memcpy unchecked unless told otherwise: the driver does).
// Built with the default host compiler and, where it is, with -ccbin clang++.
#include <string>

#include "check.h"

struct particle {
  float x, y, z, vx, vy, vz;
};
struct history {
  int steps[12];
};

__global__ void copy_float4(float4* out, const float4* in, int offset) { out[threadIdx.x] = in[threadIdx.x + offset]; }
__global__ void copy_particle(particle* out, const particle* in, int offset) { out[threadIdx.x] = in[threadIdx.x + offset]; }
__global__ void copy_history(history* out, const history* in, int offset) { out[threadIdx.x] = in[threadIdx.x + offset]; }

/// The kind and size of the first fault report's access, and the report's source line.
std::string access_of(const std::string& report) {
  const auto at = report.find("invalid global ");
  const auto end = report.find(" at 0x", at);
  const auto line = report.rfind("(struct_copies.cu:");
  if (at == std::string::npos || end == std::string::npos || line == std::string::npos) return "no report: " + report;
  return report.substr(at, end - at) + " " + report.substr(line);
}

template <class T, class Kernel>
void overrun(Kernel kernel, const char* expected) {
  cudaError_t code = cudaSuccess;
  const std::string report = fault_of(
      [&] {
        T *in = nullptr, *out = nullptr;
        cudaMalloc(&in, 32 * sizeof(T));
        cudaMalloc(&out, 32 * sizeof(T));
        kernel<<<1, 32>>>(out, in, 0);  // in bounds: nothing to say
        cudaDeviceSynchronize();
        kernel<<<1, 32>>>(out, in, 1);  // lane 31 reads one past the end
      },
      code);
  CHECK_EQ(access_of(report), std::string(expected));
  CHECK_EQ(code, cudaErrorIllegalAddress);
}

int main() {
  overrun<float4>(copy_float4, "invalid global read of 16 bytes (struct_copies.cu:17)\n");
  overrun<particle>(copy_particle, "invalid global read of 24 bytes (struct_copies.cu:18)\n");
  overrun<history>(copy_history, "invalid global read of 48 bytes (struct_copies.cu:19)\n");
  return finish();
}
