// SPDX-License-Identifier: MIT
// What cusim's CUB shares (docs/unmodified-cuda.md, "Thrust, CUB and libcu++"). cusim's cub/ is its
// own, written for the simulator: the block, warp and device primitives CUDA programs use most,
// with CUB's names, signatures and results. CUB's own sources cannot be compiled by the host
// compiler for device code (inline PTX, <<<>>> inside its headers, g++ rejecting its templates).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <new>

namespace cub {
namespace cusim_detail {

/// The calling thread's rank in a block of BX * BY * BZ threads, as CUB computes it.
template <int BX, int BY, int BZ>
__device__ __forceinline__ int linear_tid() {
  return (BY == 1 && BZ == 1) ? static_cast<int>(threadIdx.x)
                              : static_cast<int>(threadIdx.x + threadIdx.y * BX + threadIdx.z * BX * BY);
}

/// Raw storage for N values of T in shared memory: no constructor runs, as for CUB's TempStorage.
template <class T, int N>
struct slots {
  alignas(T) unsigned char bytes[sizeof(T) * (N > 0 ? N : 1)];
  __device__ T* get() { return reinterpret_cast<T*>(bytes); }
};

/// The block's private shared variable for a primitive made without TempStorage (CUB's
/// PrivateStorage): one per type, per block.
template <class Storage>
__device__ Storage& private_storage() {
  static constexpr char key = 0;
  return ::cusim::detail::shared_variable<Storage>(&key, ::cusim::detail::source_location::current());
}

/// values[0..n) folded as CUB's warp reduction folds a logical warp's lanes (lane i takes lane
/// i + 1, then i + 2, i + 4, ...): the result CUB's lane 0 has. Overwrites values.
template <class T, class Op>
__device__ T warp_tree(T* values, int n, Op op) {
  for (int offset = 1; offset < n; offset *= 2)
    for (int i = 0; i + offset < n; i += 2 * offset) values[i] = op(values[i], values[i + offset]);
  return values[0];
}

}  // namespace cusim_detail
}  // namespace cub

/// Launches kernel<<<grid, block, 0, stream>>>(args...) from a header the driver does not rewrite
/// (the rewrite's own form: docs/unmodified-cuda.md), and returns the launch's error.
#define CUSIM_CUB_LAUNCH(KERNEL, GRID, BLOCK, STREAM, ...)                                          \
  (::cusim::detail::chevron((GRID), (BLOCK), 0, (STREAM))(                                          \
       [=](auto cusim_t) -> decltype(::cusim::detail::kernel_pointer<decltype(cusim_t)>(KERNEL)) {  \
         return ::cusim::detail::kernel_pointer<decltype(cusim_t)>(KERNEL);                         \
       },                                                                                           \
       [=](auto&... cusim_a) { KERNEL(cusim_a...); }, __VA_ARGS__),                                 \
   cudaPeekAtLastError())
