// SPDX-License-Identifier: MIT
// cusim::forall(n, kernel, args...): numba's kernel.forall(n), a launch covering n threads.
#pragma once

#include <cusim/host/launch.hpp>

#include <cstddef>
#include <utility>

namespace cusim {

/// Threads per block that forall launches with.
inline constexpr unsigned forall_block_size = 256;

/// Launches `kernel` with at least `n` threads in blocks of forall_block_size (no launch for
/// n == 0); the kernel guards with `if (cusim::grid<1>() < n)` as with numba.
template <class... Params, class... Args>
void forall(std::size_t n, void (*kernel)(Params...), Args&&... args) {
  if (n == 0) return;
  const auto blocks = static_cast<unsigned>((n + forall_block_size - 1) / forall_block_size);
  launch(kernel, dim3(blocks), dim3(forall_block_size), std::forward<Args>(args)...);
}

}  // namespace cusim
