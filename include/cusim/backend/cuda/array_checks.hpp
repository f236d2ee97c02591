// SPDX-License-Identifier: MIT
// The GPU's checks behind every checked-array access: none in release builds, a recorded fault with
// CUSIM_CHECKS.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#if defined(CUSIM_CHECKS)
#  include <cusim/backend/cuda/checked.hpp>
#endif

#include <cstdint>

namespace cusim::detail {

/// Whether `i` lies in [0, extent). With CUSIM_CHECKS an index out of bounds is recorded for the
/// host (cusim/backend/cuda/checked.hpp) and the access goes to a scratch element instead;
/// without, nothing is checked (zero overhead).
__host__ __device__ inline bool check_index([[maybe_unused]] index_t i, [[maybe_unused]] index_t extent,
                                            [[maybe_unused]] int axis, [[maybe_unused]] memory_space space,
                                            [[maybe_unused]] source_location site) {
#if defined(CUSIM_CHECKS) && defined(__CUDA_ARCH__)
  if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(extent)) [[unlikely]] {
    record_out_of_bounds(i, extent, axis, space, site);
    return false;
  }
#endif
  return true;
}

/// The element at `offset`; a negative offset is a fault check_index recorded.
template <class T>
__host__ __device__ inline T& element(T* data, index_t offset) {
#if defined(CUSIM_CHECKS) && defined(__CUDA_ARCH__)
  if (offset < 0) [[unlikely]] return fault_scratch<T>();
#endif
  return data[offset];
}

/// No checkers on the GPU.
template <class T>
__host__ __device__ inline T& observed(T& e, memory_space, const source_location&) {
  return e;
}

}  // namespace cusim::detail
