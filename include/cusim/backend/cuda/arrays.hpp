// SPDX-License-Identifier: MIT
// The GPU's shared, local and dynamic shared arrays: plain storage, aggregates (as __shared__
// requires); CUSIM_CHECKS adds the checks.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cstddef>

namespace cusim {

template <class T, std::size_t N0, std::size_t... N>
class shared_array
    : public detail::fixed_array<shared_array<T, N0, N...>, T, memory_space::shared, N0, N...> {
 public:
  CUSIM_HD T* data() const noexcept { return data_; }
  mutable T data_[(N0 * ... * N)];
};

template <class T, std::size_t N0, std::size_t... N>
class local_array : public detail::fixed_array<local_array<T, N0, N...>, T, memory_space::local, N0, N...> {
 public:
  CUSIM_HD T* data() const noexcept { return data_; }
  mutable T data_[(N0 * ... * N)];
};

template <class T>
__device__ span<T> dynamic_shared() {
  extern __shared__ __align__(16) unsigned char cusim_dynamic_smem[];
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  return span<T>(reinterpret_cast<T*>(cusim_dynamic_smem), bytes / sizeof(T), memory_space::dynamic_shared);
}

}  // namespace cusim
