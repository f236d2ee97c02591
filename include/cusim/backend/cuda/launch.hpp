// SPDX-License-Identifier: MIT
// The GPU's launches for cusim::launch and cusim::launch_cooperative.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#if defined(CUSIM_CHECKS)
#  include <cusim/backend/cuda/checked.hpp>
#endif

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cusim::detail {

/// The backend's launch: cudaLaunchKernel (what <<<>>> calls) or cudaLaunchCooperativeKernel, its
/// own result as cuda_error and, with CUSIM_CHECKS on the default stream, a recorded fault as
/// kernel_error (like the simulator's default stream). The launch's code is the call's result:
/// cudaGetLastError() after <<<>>> would also answer (and clear) an error that an earlier runtime
/// call left pending, and throw it as the launch's; a launch that works leaves that error to its
/// caller, as the simulator's does.
template <class... Params, class... Args>
void launch_impl(void (*kernel)(Params...), const launch_config& config, bool cooperative, Args&&... args) {
  std::tuple<std::remove_cvref_t<Params>...> params(std::forward<Args>(args)...);
  void* pointers[sizeof...(Params) + 1] = {};
  std::apply([&](auto&... p) {
    std::size_t i = 0;
    ((pointers[i++] = static_cast<void*>(&p)), ...);
    (void)i;  // a kernel without parameters
  }, params);
  if (!cooperative)
    check(cudaLaunchKernel(kernel, config.grid, config.block, pointers, config.shared_bytes, config.stream),
          "cusim::launch");
  else
    check(cudaLaunchCooperativeKernel(kernel, config.grid, config.block, pointers, config.shared_bytes, config.stream),
          "cusim::launch_cooperative");
#if defined(CUSIM_CHECKS) && defined(__CUDACC__)
  if (config.stream == nullptr) rethrow_device_fault();
#endif
}

/// cusim::launch<kernel>: on a GPU the same launch (the simulator inlines the kernel).
template <auto Kernel, class... Params, class... Args>
void launch_inline_impl(void (*)(Params...), const launch_config& config, bool cooperative, Args&&... args) {
  launch_impl(Kernel, config, cooperative, std::forward<Args>(args)...);
}

/// The backend's part of cusim::synchronize: nothing before the CUDA call.
inline void synchronize_impl(cudaStream_t) {}

}  // namespace cusim::detail
