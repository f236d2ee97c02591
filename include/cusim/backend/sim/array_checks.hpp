// SPDX-License-Identifier: MIT
// The simulator's checks behind every checked-array access: the bounds check that throws the tagged
// kernel_error, and the hook of the memory checkers.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <cstdint>
#include <type_traits>

namespace cusim::detail {

/// Whether `i` lies in [0, extent); out of bounds, throws the tagged kernel_error.
inline bool check_index(index_t i, index_t extent, int axis, memory_space space, source_location site) {
  if (static_cast<std::uint64_t>(i) >= static_cast<std::uint64_t>(extent)) [[unlikely]]
    fail_out_of_bounds(i, extent, axis, space, site);
  return true;
}

/// The element at `offset` (checked already).
template <class T>
inline T& element(T* data, index_t offset) {
  return data[offset];
}

/// Hands an element access to the simulator's checkers and schedule fuzzing when they are on
/// (CUSIM_CHECK=race/init, CUSIM_SCHEDULE=random); otherwise one predictable branch.
template <class T>
inline T& observed(T& e, memory_space space, source_location site) {
  if (accesses_observed()) [[unlikely]]
    note_access(const_cast<std::remove_cv_t<T>*>(&e), sizeof(T), space, site);
  return e;
}

}  // namespace cusim::detail
