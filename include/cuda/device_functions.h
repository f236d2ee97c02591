// SPDX-License-Identifier: MIT
// cusim's <device_functions.h>: the device functions nvcc builds in that cusim's kernel API does
// not spell: scoped atomics, cache-hinted loads and stores, __nanosleep, and the stream-ordered
// symbol copies (__device__ and __constant__ variables are host variables on the simulator).
#pragma GCC system_header
#ifndef CUSIM_CUDA_DEVICE_FUNCTIONS_H_
#define CUSIM_CUDA_DEVICE_FUNCTIONS_H_

#include "cuda_runtime.h"

#include <cstddef>

// atomicX_block and atomicX_system: one memory, one scope on the simulator. Forwarding keeps the
// overload resolution of atomicX itself (atomicAdd_system(&f, 1) adds 1.0f to a float).
#define CUSIM_SCOPED_ATOMIC(name)                                                              \
  template <class T, class... Args>                                                            \
  inline auto name##_block(T* address, Args... args) -> decltype(name(address, args...)) {     \
    return name(address, args...);                                                             \
  }                                                                                            \
  template <class T, class... Args>                                                            \
  inline auto name##_system(T* address, Args... args) -> decltype(name(address, args...)) {    \
    return name(address, args...);                                                             \
  }
CUSIM_SCOPED_ATOMIC(atomicAdd)
CUSIM_SCOPED_ATOMIC(atomicSub)
CUSIM_SCOPED_ATOMIC(atomicExch)
CUSIM_SCOPED_ATOMIC(atomicMin)
CUSIM_SCOPED_ATOMIC(atomicMax)
CUSIM_SCOPED_ATOMIC(atomicInc)
CUSIM_SCOPED_ATOMIC(atomicDec)
CUSIM_SCOPED_ATOMIC(atomicCAS)
CUSIM_SCOPED_ATOMIC(atomicAnd)
CUSIM_SCOPED_ATOMIC(atomicOr)
CUSIM_SCOPED_ATOMIC(atomicXor)
#undef CUSIM_SCOPED_ATOMIC

// Loads and stores with cache hints: plain accesses on the simulator.
template <class T>
inline T __ldg(const T* p) { return *p; }
template <class T>
inline T __ldca(const T* p) { return *p; }
template <class T>
inline T __ldcg(const T* p) { return *p; }
template <class T>
inline T __ldcs(const T* p) { return *p; }
template <class T>
inline T __ldlu(const T* p) { return *p; }
template <class T>
inline T __ldcv(const T* p) { return *p; }
template <class T>
inline void __stwb(T* p, T value) { *p = value; }
template <class T>
inline void __stcg(T* p, T value) { *p = value; }
template <class T>
inline void __stcs(T* p, T value) { *p = value; }
template <class T>
inline void __stwt(T* p, T value) { *p = value; }

/// Sleeps about `ns` nanoseconds on a GPU; here it lets the block's other threads run, so that a
/// thread backing off in a spin-wait lets the one it waits for make progress.
inline void __nanosleep(unsigned /*ns*/) {
  if (cusim::detail::current_thread_ != nullptr) cusim::detail::poll_yield();
}

/// cudaMemcpyToSymbol queued on a stream: on the simulator the copy is done when it returns.
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t bytes, std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = nullptr) {
  if (stream != nullptr) cudaStreamSynchronize(stream);
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
/// cudaMemcpyFromSymbol queued on a stream: on the simulator the copy is done when it returns.
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t bytes, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = nullptr) {
  if (stream != nullptr) cudaStreamSynchronize(stream);
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}

#endif  // CUSIM_CUDA_DEVICE_FUNCTIONS_H_
