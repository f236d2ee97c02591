// SPDX-License-Identifier: MIT
// The CUDA runtime names raw_benchmark.cu uses, on AMD HIP-CPU (../shared/anchors/hip-cpu), for
// raw_benchmark_hip_cpu only: the benchmark's host code says cudaMalloc, HIP-CPU has hipMalloc.
// Not cusim's: HIP-CPU's headers, nothing checked. Also what HIP-CPU lacks for the samples'
// kernels: the fast-math intrinsics of BlackScholes (as their plain functions), the storage of
// `extern __shared__ int __smem[]` (reduction's SharedMemory<T>: HIP-CPU's __shared__ is
// thread_local and a block runs on one OS thread, so a thread_local array is the block's; g++
// builds it with -fno-extern-tls-init, as it otherwise calls the kernels' block-scope `extern`
// declaration's TLS init function, which does not exist), and
// CUSIM_WORKERS as TBB's thread count, so that the three builds run with one worker count.
#pragma once

#include <hip/hip_runtime.h>

#include <tbb/global_control.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <memory>

#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMemcpy hipMemcpy
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaGetLastError hipGetLastError
#define cudaGetErrorString hipGetErrorString

template <class T>
inline hipError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                                     hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol(const_cast<void*>(static_cast<const void*>(&symbol)), src, count, offset, kind);
}

inline float __fdividef(float x, float y) noexcept { return x / y; }
inline float __expf(float x) noexcept { return std::exp(x); }
inline float __logf(float x) noexcept { return std::log(x); }
inline float rsqrtf(float x) noexcept { return 1.0f / std::sqrt(x); }

// 48 KiB, the block's dynamic shared memory (the kernels' `extern __shared__ int __smem[];`).
alignas(16) static thread_local int __smem[48 * 1024 / sizeof(int)];

namespace raw_benchmark_hip_cpu {
inline const std::unique_ptr<tbb::global_control> workers = [] {
  const char* value = std::getenv("CUSIM_WORKERS");
  const long n = value ? std::strtol(value, nullptr, 10) : 0;
  return n > 0 ? std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, std::size_t(n))
               : nullptr;
}();
}  // namespace raw_benchmark_hip_cpu
