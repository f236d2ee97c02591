// SPDX-License-Identifier: MIT
// The simulator's device-side assert and __trap(): a failed assert in a kernel throws a kernel_error
// tagged with the thread (a GPU reports cudaErrorAssert) instead of aborting; so does __trap().
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <cassert>
#include <cstdio>

#if !defined(NDEBUG)
#  undef assert
#  define assert(expr)                                                                   \
      ((expr) ? static_cast<void>(0)                                                       \
              : ::cusim::detail::fail_assert(#expr, __func__,                              \
                                             ::cusim::detail::source_location::current()))
#endif

/// CUDA's __trap(): ends the kernel with an error. Here a tagged kernel_error naming the line.
[[noreturn]] inline void __trap(cusim::detail::source_location site = cusim::detail::source_location::current()) {
  cusim::detail::fail_trap(site);
}
