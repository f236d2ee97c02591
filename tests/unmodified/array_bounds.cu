// SPDX-License-Identifier: MIT
// Fixed-size arrays other than __shared__ ones, checked per axis in unmodified code: local arrays,
// arrays in structs, __constant__ and __device__ arrays; the report names the memory space and
// the line of the access, and host code built with CUSIM_NVCC_HOST_CHECKS=1 gets UBSan's message.
#include "check.h"

__constant__ float weights[4] = {1, 2, 3, 4};
__device__ int table[2][3];

struct pair_of_rows {
  int rows[2][4];
};

__global__ void local_overrun(int* out, int n) {
  int scratch[8];
  for (int i = 0; i < 8; ++i) scratch[i] = i;
  out[threadIdx.x] = scratch[threadIdx.x + n];  // line 17: thread 8 - n reads scratch[8]
}

__global__ void struct_member(int* out, int col) {
  pair_of_rows p{};
  out[threadIdx.x] = p.rows[threadIdx.x % 2][col];  // line 22
}

__global__ void constant_and_global(float* out, int shift) {
  out[threadIdx.x] = weights[threadIdx.x + shift] + static_cast<float>(table[1][threadIdx.x]);  // line 26
}

int main() {
  int* ints = nullptr;
  float* floats = nullptr;
  CHECK_EQ(cudaMallocManaged(&ints, 64 * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&floats, 64 * sizeof(float)), cudaSuccess);
  cudaError_t code = cudaSuccess;

  local_overrun<<<1, 8>>>(ints, 0);  // in bounds
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(ints[7], 7);

  CHECK_EQ(fault_of([&] { local_overrun<<<2, 8>>>(ints, 3); }, code),
           std::string("tid=[5, 0, 0] ctaid=[0, 0, 0]: index 8 is out of bounds for axis 0 with size 8 "
                       "(local array, array_bounds.cu:17)\n"));
  CHECK_EQ(code, cudaErrorIllegalAddress);

  CHECK_EQ(fault_of([&] { struct_member<<<1, 4>>>(ints, -1); }, code),
           std::string("tid=[0, 0, 0] ctaid=[0, 0, 0]: index -1 is out of bounds for axis 1 with size 4 "
                       "(local array, array_bounds.cu:22)\n"));

  CHECK_EQ(fault_of([&] { constant_and_global<<<1, 3>>>(floats, 2); }, code),
           std::string("tid=[2, 0, 0] ctaid=[0, 0, 0]: index 4 is out of bounds for axis 0 with size 4 "
                       "(constant array, array_bounds.cu:26)\n"));
  CHECK_EQ(fault_of([&] { constant_and_global<<<1, 4>>>(floats, 0); }, code),
           std::string("tid=[3, 0, 0] ctaid=[0, 0, 0]: index 3 is out of bounds for axis 1 with size 3 "
                       "(global array, array_bounds.cu:26)\n"));

  // Host code of the .cu file is instrumented too (CUSIM_NVCC_HOST_CHECKS=1): UBSan's message, and the program goes on.
  std::string host;
  {
    stderr_capture capture;
    int local[3] = {1, 2, 3};
    volatile int i = 3;
    ints[0] = local[i];  // line 62
    host = capture.text();
  }
  CHECK(host.find("array_bounds.cu:62:") != std::string::npos);
  CHECK(host.find("runtime error: index 3 out of bounds for type 'int") != std::string::npos);  // clang: 'int[3]'

  return finish();
}
