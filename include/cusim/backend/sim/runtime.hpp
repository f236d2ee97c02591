// SPDX-License-Identifier: MIT
// The CUDA runtime subset on the simulator: CUDA's names, signatures and error codes. These
// functions never throw; a failure is returned and kept as the calling host thread's last error.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/runtime_types.hpp>
#include <cusim/detail/source_location.hpp>

#include <cstddef>

// The allocation site is named by CUSIM_CHECK=leaks.
cudaError_t cudaMalloc(void** ptr, std::size_t bytes,
                       cusim::detail::source_location site = cusim::detail::source_location::current());
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              cusim::detail::source_location site = cusim::detail::source_location::current());
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned flags);
cudaError_t cudaFree(void* ptr);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);

cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
/// Calls fn(user_data) on the stream's thread once the work queued before it has run.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* kernel, int block_size,
                                                         std::size_t shared_bytes);
template <class... Params>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, void (*kernel)(Params...), int block_size,
                                                         std::size_t shared_bytes) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, reinterpret_cast<const void*>(kernel), block_size,
                                                       shared_bytes);
}

namespace cusim::detail {
cudaError_t memcpy_symbol(void* symbol, std::size_t symbol_bytes, const void* src, std::size_t bytes,
                          std::size_t offset, cudaMemcpyKind kind, bool to_symbol);
}

template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes,
                       cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes, site);
}
template <class T>
cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal,
                              cusim::detail::source_location site = cusim::detail::source_location::current()) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags, site);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
/// Copies `bytes` from host memory into a __constant__ / __device__ variable.
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), src, bytes, offset, kind, true);
}
/// Copies `bytes` out of a __constant__ / __device__ variable.
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cusim::detail::memcpy_symbol(const_cast<T*>(&symbol), sizeof(T), dst, bytes, offset, kind, false);
}
