// SPDX-License-Identifier: MIT
// cusim::launch: runs a __global__ function over a grid of blocks, on either backend.
#pragma once

#include <cusim/config.hpp>
#include <cusim/host/check.hpp>

#include <type_traits>
#include <utility>

namespace cusim {

/// A launch's shape: `launch_config{grid, block, shared_bytes, stream}` (kernel<<<...>>>).
struct launch_config {
  dim3 grid;
  dim3 block;
  std::size_t shared_bytes = 0;  ///< dynamic shared memory per block (cusim::dynamic_shared)
  cudaStream_t stream = nullptr;
};

}  // namespace cusim

namespace cusim::detail {
/// The number of parameters of a kernel's pointer type (cusim::launch<kernel>'s argument count).
template <class K>
inline constexpr std::size_t kernel_arity = 0;
template <class... Params>
inline constexpr std::size_t kernel_arity<void (*)(Params...)> = sizeof...(Params);
template <class... Params>
inline constexpr std::size_t kernel_arity<void (*)(Params...) noexcept> = sizeof...(Params);
}  // namespace cusim::detail

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/launch.hpp>
#else
#  include <cusim/backend/cuda/launch.hpp>
#endif

namespace cusim {

/// Launches `kernel` with `config`; `args` convert to its parameters (device_array -> span).
/// Throws cuda_error for a bad configuration (CUDA's error code, e.g. cudaErrorInvalidConfiguration)
/// and, on the default stream of the simulator (or of a GPU build with CUSIM_CHECKS), kernel_error
/// for a fault inside the kernel.
///
///     cusim::launch(vector_add, cusim::launch_config{blocks, threads}, d_c, d_a, d_b);
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const launch_config& config, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "cusim::launch: wrong number of kernel arguments");
  detail::launch_impl(kernel, config, false, std::forward<Args>(args)...);
}

/// Launches `kernel` on `grid` blocks of `block` threads on the default stream.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  launch(kernel, launch_config{grid, block}, std::forward<Args>(args)...);
}

/// The same launches with the kernel known at compile time: `cusim::launch<vector_add>(blocks,
/// threads, d_c, d_a, d_b)`. On the simulator the kernel is compiled into the loop over a block's
/// threads, so a kernel without barriers runs each block as a plain loop; with every check kept.
///
/// In an optimised build, cusim_add_executable's copy of a .cu file spells `cusim::launch(kernel,
/// ...)` this way wherever `kernel` names a __global__ function of the program (docs/api.md,
/// "Launch spellings").
template <auto Kernel, class... Args>
void launch(const launch_config& config, Args&&... args) {
  static_assert(std::is_pointer_v<decltype(Kernel)> && std::is_function_v<std::remove_pointer_t<decltype(Kernel)>>,
                "cusim::launch<kernel>: the template argument must be a __global__ function");
  static_assert(detail::kernel_arity<decltype(Kernel)> == sizeof...(Args),
                "cusim::launch: wrong number of kernel arguments");
  detail::launch_inline_impl<Kernel>(Kernel, config, false, std::forward<Args>(args)...);
}

/// Launches `Kernel` (known at compile time) on `grid` blocks of `block` threads on the default
/// stream.
template <auto Kernel, class... Args>
void launch(dim3 grid, dim3 block, Args&&... args) {
  launch<Kernel>(launch_config{grid, block}, std::forward<Args>(args)...);
}

/// Launches `kernel` with every block co-resident, so that it may call this_grid().sync()
/// (cudaLaunchCooperativeKernel). A grid larger than the device can hold at once is rejected
/// with cudaErrorCooperativeLaunchTooLarge.
template <class... Params, class... Args>
void launch_cooperative(void (*kernel)(Params...), const launch_config& config, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "cusim::launch_cooperative: wrong number of kernel arguments");
  detail::launch_impl(kernel, config, true, std::forward<Args>(args)...);
}

/// launch_cooperative with the kernel known at compile time, compiled into the loop over a block's
/// threads as by cusim::launch<kernel>.
template <auto Kernel, class... Args>
void launch_cooperative(const launch_config& config, Args&&... args) {
  static_assert(std::is_pointer_v<decltype(Kernel)> && std::is_function_v<std::remove_pointer_t<decltype(Kernel)>>,
                "cusim::launch_cooperative<kernel>: the template argument must be a __global__ function");
  static_assert(detail::kernel_arity<decltype(Kernel)> == sizeof...(Args),
                "cusim::launch_cooperative: wrong number of kernel arguments");
  detail::launch_inline_impl<Kernel>(Kernel, config, true, std::forward<Args>(args)...);
}

/// Waits for `stream` (default: the whole device) and rethrows a kernel fault it kept as
/// kernel_error (simulator) or a CUDA error as cuda_error.
inline void synchronize(cudaStream_t stream = nullptr) {
  detail::synchronize_impl(stream);
  check(stream ? cudaStreamSynchronize(stream) : cudaDeviceSynchronize(), "cusim::synchronize");
#if defined(CUSIM_CHECKS) && defined(__CUDACC__)
  detail::rethrow_device_fault();
#endif
}

}  // namespace cusim
