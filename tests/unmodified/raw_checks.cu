// SPDX-License-Identifier: MIT
// The inline raw-pointer checks (simulator/address_space.hpp, raw_access.cpp): every way past an
// allocation that the shadow must catch, by its exact report, and the misaligned accesses the GPU
// faults on (a float4 needs 16 bytes of alignment, a struct member its struct's).
#include <cstdint>
#include <string>

#include "check.h"

struct pair_of_floats {
  float a, b;
};

__global__ void read_at(const float* p, long long i, float* out) { out[0] = p[i]; }  // line 14
__global__ void write_at(float* p, long long i) { p[i] = 1.0f; }                      // line 15
__global__ void float4_at(const char* p, int offset, float* out) {
  out[0] = reinterpret_cast<const float4*>(p + offset)->x;  // line 17
}
__global__ void member_at(const char* p, int offset, float* out) {
  out[0] = reinterpret_cast<const pair_of_floats*>(p + offset)->b;  // line 20
}
__global__ void copy_all(const float* in, float* out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = in[i];
}

/// `text` with every hexadecimal address replaced by 0x?.
std::string addresses_hidden(std::string text) {
  for (std::size_t at = text.find("0x"); at != std::string::npos; at = text.find("0x", at + 3)) {
    std::size_t end = at + 2;
    while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
    text.replace(at, end - at, "0x?");
  }
  return text;
}

int main() {
  cudaError_t code = cudaSuccess;
  float* out = nullptr;
  std::string report;

  // A page-sized allocation: one past the end is the first byte of its redzone's page.
  report = addresses_hidden(fault_of(
               [&] {
                 float* a = nullptr;
                 cudaMalloc(&a, 4096);
                 cudaMalloc(&out, 64);
                 read_at<<<1, 1>>>(a, 1024, out);
               },
               code));
  CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at 0x?: 0 bytes past the end of "
                       "a 4096-byte allocation of device memory (cudaMalloc) at 0x?, allocated at raw_checks.cu:45 "
                       "(raw_checks.cu:14)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  // Far into the redzone of a large allocation (1 MiB past the end of 8 MiB: the redzone is as large).
  report = addresses_hidden(fault_of(
               [&] {
                 float* a = nullptr;
                 cudaMalloc(&a, std::size_t{8} << 20);
                 write_at<<<1, 1>>>(a, (std::size_t{9} << 20) / 4);
               },
               code));
  CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global write of 4 bytes at 0x?: 1048576 bytes past the "
                       "end of a 8388608-byte allocation of device memory (cudaMalloc) at 0x?, allocated at "
                       "raw_checks.cu:59 (raw_checks.cu:15)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  // A freed allocation of 64 MiB (its shadow mapped from the poison file), read in its middle.
  report = addresses_hidden(fault_of(
               [&] {
                 float* a = nullptr;
                 cudaMalloc(&a, std::size_t{64} << 20);
                 cudaFree(a);
                 cudaMalloc(&out, 64);
                 read_at<<<1, 1>>>(a, (std::size_t{32} << 20) / 4, out);
               },
               code));
  CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at 0x?: 33554432 bytes into a "
                       "67108864-byte allocation of device memory (cudaMalloc) at 0x?, freed at raw_checks.cu:73 "
                       "(allocated at raw_checks.cu:72) (raw_checks.cu:14)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  // A float4 load 8 bytes past a 16-byte boundary: the GPU's 16-byte load faults.
  report = addresses_hidden(fault_of(
               [&] {
                 char* bytes = nullptr;
                 cudaMalloc(&bytes, 64);
                 cudaMalloc(&out, 64);
                 float4_at<<<1, 1>>>(bytes, 8, out);
               },
               code));
  CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: misaligned global read of 16 bytes at 0x?: not a multiple of "
                       "16 (misaligned address) (raw_checks.cu:17)\n"));
  CHECK_EQ(code, cudaErrorMisalignedAddress);

  // A struct's member through a pointer 2 bytes off its alignment.
  report = addresses_hidden(fault_of(
               [&] {
                 char* bytes = nullptr;
                 cudaMalloc(&bytes, 64);
                 cudaMalloc(&out, 64);
                 member_at<<<1, 1>>>(bytes, 2, out);
               },
               code));
  CHECK_EQ(report, std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: misaligned global read of 4 bytes at 0x?: not a multiple of "
                       "4 (misaligned address) (raw_checks.cu:20)\n"));
  CHECK_EQ(code, cudaErrorMisalignedAddress);

  // Aligned, in bounds: nothing to say, and the values arrive (shared memory and the stack pass too).
  {
    char* bytes = nullptr;
    float* in = nullptr;
    CHECK_EQ(cudaMalloc(&bytes, 64), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&in, 1000 * sizeof(float)), cudaSuccess);
    CHECK_EQ(cudaMallocManaged(&out, 1000 * sizeof(float)), cudaSuccess);
    for (int i = 0; i < 1000; ++i) in[i] = static_cast<float>(i);
    stderr_capture capture;
    float4_at<<<1, 1>>>(bytes, 16, out);
    member_at<<<1, 1>>>(bytes, 8, out);
    copy_all<<<1, 128>>>(in, out, 1000);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(capture.text(), std::string());
    CHECK_EQ(out[999], 999.0f);
    cudaDeviceReset();
  }
  return finish();
}
