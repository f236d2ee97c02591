// SPDX-License-Identifier: MIT
// Device-side assert, __trap and printf. On the simulator a failed assert inside a kernel throws a
// kernel_error tagged with the thread (a GPU reports cudaErrorAssert), instead of aborting, and
// so does __trap() (a GPU reports cudaErrorLaunchFailure).
#pragma once

#include <cusim/config.hpp>

#include <cassert>
#include <cstdio>

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/device_runtime.hpp>
#  if !defined(NDEBUG)
#    undef assert
#    define assert(expr)                                                                   \
      ((expr) ? static_cast<void>(0)                                                       \
              : ::cusim::detail::fail_assert(#expr, __func__,                              \
                                             ::cusim::detail::source_location::current()))
#  endif

/// CUDA's __trap(): ends the kernel with an error. Here a tagged kernel_error naming the line.
[[noreturn]] inline void __trap(cusim::detail::source_location site = cusim::detail::source_location::current()) {
  cusim::detail::fail_trap(site);
}
#endif
