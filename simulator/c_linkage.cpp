// SPDX-License-Identifier: MIT
// The C-linkage twins of the runtime functions whose C++ signatures differ from CUDA's C ones
// (cudaMalloc and cudaMallocManaged also take the allocation site). Only this file declares them,
// so that C++ callers see one cudaMalloc and their calls stay unambiguous; C programs link these.
#include <cusim/cuda_runtime.hpp>

extern "C" {
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp* prop, int device);
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) { return cudaMalloc(ptr, bytes, cusim::detail::source_location{}); }
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags) {
  return cudaMallocManaged(ptr, bytes, flags, cusim::detail::source_location{});
}
// What CUDA 12's headers turn cudaGetDeviceProperties into.
cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp* prop, int device) { return cudaGetDeviceProperties(prop, device); }
