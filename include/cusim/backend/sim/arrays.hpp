// SPDX-License-Identifier: MIT
// The simulator's shared, local and dynamic shared arrays: handles bound to the block's shared memory
// and per-thread storage checked against the fiber stack.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <cstddef>
#include <utility>

namespace cusim {

/// A block's shared-memory array: `__shared__ cusim::shared_array<float, 16, 16> tile;`.
/// On the simulator the object is a per-thread handle bound, at its declaration, to storage in
/// the current block's shared memory (one allocation per declaration, per specialization of the
/// function that holds it, and per block: as CUDA's __shared__ variables).
template <class T, std::size_t N0, std::size_t... N>
class shared_array
    : public detail::fixed_array<shared_array<T, N0, N...>, T, memory_space::shared, N0, N...> {
 public:
  shared_array(detail::source_location site = detail::source_location::current())
      : data_(static_cast<T*>(detail::bind_shared(std::exchange(detail::shared_key, nullptr), site,
                                                  sizeof(T) * this->size(), alignof(T)))) {}
  T* data() const noexcept { return data_; }

 private:
  T* data_;
};

/// A per-thread array in local memory: `cusim::local_array<float, 8> acc;` (uninitialised, as
/// in CUDA). An array too large for the thread's fiber stack is reported, not overflowed.
template <class T, std::size_t N0, std::size_t... N>
class local_array : public detail::fixed_array<local_array<T, N0, N...>, T, memory_space::local, N0, N...> {
 public:
  local_array(detail::source_location site = detail::source_location::current()) {
    const detail::sim_thread* t = detail::current_thread_;
    if (t != nullptr && reinterpret_cast<const char*>(this) < t->stack_lo) [[unlikely]]
      detail::fail_local_array(sizeof(*this), site);
  }
  T* data() const noexcept { return data_; }

 private:
  mutable T data_[(N0 * ... * N)];
};

/// The launch's dynamic shared memory (launch_config::shared_bytes) viewed as T elements.
template <class T>
span<T> dynamic_shared() {
  std::size_t bytes = 0;
  void* p = detail::dynamic_shared_memory(&bytes);
  return span<T>(static_cast<T*>(p), bytes / sizeof(T), memory_space::dynamic_shared);
}

}  // namespace cusim
