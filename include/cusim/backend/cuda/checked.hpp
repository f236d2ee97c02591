// SPDX-License-Identifier: MIT
// Checked mode on the GPU (CUSIM_CHECKS=ON): a checked array indexed out of bounds records the
// fault on the device (the lowest block, then thread, of a launch is kept) and the access goes
// to a scratch element, so nothing is corrupted and no thread hangs. After the launch the host
// throws the same cusim::kernel_error, with the same text, that the simulator throws.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/config.hpp>
#include <cusim/detail/fault_text.hpp>
#include <cusim/detail/source_location.hpp>
#include <cusim/error.hpp>

#include <cuda_runtime.h>

#include <cstdint>

namespace cusim::detail {

/// The first fault of a launch, as the device recorded it.
struct device_fault {
  unsigned long long key;  ///< block (linear) << 32 | thread (linear); ~0 while there is none
  int lock;
  uint3 tid, ctaid;
  long long index, extent;
  int axis;
  int space;
  unsigned line;
  char file[200];
};

#if defined(__CUDACC__)
// One record per translation unit: without relocatable device code a kernel and the launch that
// runs it are in the same one.
static __device__ device_fault cusim_device_fault = {~0ull};
static __device__ __align__(16) unsigned char cusim_fault_scratch[256];

template <class T>
__device__ inline T& fault_scratch() {
  static_assert(sizeof(T) <= sizeof(cusim_fault_scratch), "cusim: element type too large for checked mode");
  return *reinterpret_cast<T*>(cusim_fault_scratch);
}

__device__ inline void record_out_of_bounds(long long index, long long extent, int axis, memory_space space,
                                            source_location site) {
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned long long key = block << 32 | thread;
  device_fault& f = cusim_device_fault;
  if (key >= atomicAdd(&f.key, 0ull)) return;  // a fault earlier in thread order is kept
  while (atomicCAS(&f.lock, 0, 1) != 0) {
  }
  if (key < f.key) {
    f.tid = threadIdx;
    f.ctaid = blockIdx;
    f.index = index;
    f.extent = extent;
    f.axis = axis;
    f.space = static_cast<int>(space);
    f.line = site.line;
    unsigned n = 0;
    for (const char* c = site.file; c && *c && n + 1 < sizeof f.file; ++c) f.file[n++] = *c;
    f.file[n] = '\0';
    __threadfence();
    atomicExch(&f.key, key);
  }
  __threadfence();
  atomicExch(&f.lock, 0);
}

/// Waits for the device and throws the fault the last launches of this translation unit
/// recorded, if any (the record is cleared).
inline void rethrow_device_fault() {
  const cudaError_t sync = cudaDeviceSynchronize();
  if (sync != cudaSuccess) return;  // the caller's own check reports it
  device_fault f{};
  if (cudaMemcpyFromSymbol(&f, cusim_device_fault, sizeof f) != cudaSuccess || f.key == ~0ull) return;
  const device_fault clear = {~0ull};
  cudaMemcpyToSymbol(cusim_device_fault, &clear, sizeof clear);
  throw out_of_bounds_error(f.tid, f.ctaid, f.index, f.extent, f.axis, static_cast<memory_space>(f.space), f.file,
                            f.line);
}
#endif

}  // namespace cusim::detail
