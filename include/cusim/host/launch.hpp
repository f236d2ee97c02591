// SPDX-License-Identifier: MIT
// cusim::launch: runs a __global__ function over a grid of blocks, on either backend.
#pragma once

#include <cusim/config.hpp>
#include <cusim/host/check.hpp>
#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/device_runtime.hpp>
#elif defined(CUSIM_CHECKS)
#  include <cusim/backend/cuda/checked.hpp>
#endif

#include <cstddef>
#include <exception>
#include <memory>
#include <tuple>
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

#if CUSIM_BACKEND_IS_SIM()
namespace detail {
/// Validates `config`, then runs each block's threads through `thunk(closure)` (see next_thread):
/// on the default stream at once, rethrowing the first kernel fault (lowest block, then thread
/// order); on a stream after the work queued before it, keeping a fault for the next
/// synchronisation.
/// A cooperative launch runs every block co-resident, so this_grid().sync() works. `kernel` is
/// the __global__ function's address: what the simulator learns of it (its static shared memory)
/// is checked at its next launches.
void launch_kernel(const launch_config& config, void (*thunk)(void*), std::shared_ptr<void> closure,
                   bool cooperative, const void* kernel);
/// Waits for `stream` (every stream, for nullptr) and rethrows the kernel fault it keeps.
void rethrow_stream_fault(cudaStream_t stream);
/// The C API's view of a failed launch: a bad configuration is returned (and kept as the last
/// error); a kernel fault is kept by the stream for the next synchronisation.
cudaError_t c_api_launch_failed(std::exception_ptr failure, cudaStream_t stream);

template <class... Params, class... Args>
void launch_closure(void (*kernel)(Params...), const launch_config& config, bool cooperative, Args&&... args) {
  struct closure {
    void (*kernel)(Params...);
    std::tuple<std::remove_cvref_t<Params>...> params;
  };
  // Owned by the launch: a launch on a stream runs after this call returns.
  std::shared_ptr<closure> c(new closure{kernel, std::tuple<std::remove_cvref_t<Params>...>(std::forward<Args>(args)...)});
  // One call runs a thread and then, until one blocks, the block's next ones (no switch between).
  launch_kernel(
      config,
      [](void* p) {
        auto* c = static_cast<closure*>(p);
        do std::apply(c->kernel, c->params);
        while (next_thread());
      },
      std::move(c), cooperative, reinterpret_cast<const void*>(kernel));
}

/// cudaLaunchKernel / cudaLaunchCooperativeKernel: `args[i]` points at the i-th parameter.
template <class... Params, std::size_t... I>
cudaError_t launch_from_pointers(void (*kernel)(Params...), const launch_config& config, void** args,
                                 bool cooperative, std::index_sequence<I...>) {
  if (kernel == nullptr || (sizeof...(Params) > 0 && args == nullptr))
    return c_api_launch_failed(std::make_exception_ptr(cuda_error(cudaErrorInvalidValue, "null kernel or arguments")),
                               config.stream);
  try {
    launch_closure(kernel, config, cooperative, *static_cast<std::remove_cvref_t<Params>*>(args[I])...);
  } catch (...) {
    return c_api_launch_failed(std::current_exception(), config.stream);
  }
  return cudaSuccess;
}
}  // namespace detail
#endif

/// Launches `kernel` with `config`; `args` convert to its parameters (device_array -> span).
/// Throws cuda_error for a bad configuration (CUDA's error code, e.g. cudaErrorInvalidConfiguration)
/// and, on the default stream of the simulator (or of a GPU build with CUSIM_CHECKS), kernel_error
/// for a fault inside the kernel.
///
///     cusim::launch(vector_add, cusim::launch_config{blocks, threads}, d_c, d_a, d_b);
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const launch_config& config, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "cusim::launch: wrong number of kernel arguments");
#if CUSIM_BACKEND_IS_SIM()
  detail::launch_closure(kernel, config, false, std::forward<Args>(args)...);
#else
  kernel<<<config.grid, config.block, config.shared_bytes, config.stream>>>(std::forward<Args>(args)...);
  check(cudaGetLastError(), "cusim::launch");
#  if defined(CUSIM_CHECKS) && defined(__CUDACC__)
  if (config.stream == nullptr) detail::rethrow_device_fault();  // like the simulator's default stream
#  endif
#endif
}

/// Launches `kernel` on `grid` blocks of `block` threads on the default stream.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  launch(kernel, launch_config{grid, block}, std::forward<Args>(args)...);
}

/// Launches `kernel` with every block co-resident, so that it may call this_grid().sync()
/// (cudaLaunchCooperativeKernel). A grid larger than the device can hold at once is rejected
/// with cudaErrorCooperativeLaunchTooLarge.
template <class... Params, class... Args>
void launch_cooperative(void (*kernel)(Params...), const launch_config& config, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "cusim::launch_cooperative: wrong number of kernel arguments");
#if CUSIM_BACKEND_IS_SIM()
  detail::launch_closure(kernel, config, true, std::forward<Args>(args)...);
#else
  std::tuple<std::remove_cvref_t<Params>...> params(std::forward<Args>(args)...);
  void* pointers[sizeof...(Params) + 1] = {};
  std::apply([&](auto&... p) {
    std::size_t i = 0;
    ((pointers[i++] = static_cast<void*>(&p)), ...);
  }, params);
  check(cudaLaunchCooperativeKernel(kernel, config.grid, config.block, pointers, config.shared_bytes, config.stream),
        "cusim::launch_cooperative");
#  if defined(CUSIM_CHECKS) && defined(__CUDACC__)
  if (config.stream == nullptr) detail::rethrow_device_fault();
#  endif
#endif
}

/// Waits for `stream` (default: the whole device) and rethrows a kernel fault it kept as
/// kernel_error (simulator) or a CUDA error as cuda_error.
inline void synchronize(cudaStream_t stream = nullptr) {
#if CUSIM_BACKEND_IS_SIM()
  detail::rethrow_stream_fault(stream);
#endif
  check(stream ? cudaStreamSynchronize(stream) : cudaDeviceSynchronize(), "cusim::synchronize");
#if defined(CUSIM_CHECKS) && defined(__CUDACC__)
  detail::rethrow_device_fault();
#endif
}

}  // namespace cusim

#if CUSIM_BACKEND_IS_SIM()
/// cudaLaunchKernel with the kernel itself (not cast to void*): the simulator needs its type.
template <class... Params>
cudaError_t cudaLaunchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args, std::size_t shared_bytes = 0,
                             cudaStream_t stream = nullptr) {
  return cusim::detail::launch_from_pointers(kernel, cusim::launch_config{grid, block, shared_bytes, stream}, args, false,
                                             std::index_sequence_for<Params...>{});
}
/// cudaLaunchCooperativeKernel with the kernel itself (not cast to void*).
template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                                        std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  return cusim::detail::launch_from_pointers(kernel, cusim::launch_config{grid, block, shared_bytes, stream}, args, true,
                                             std::index_sequence_for<Params...>{});
}
#endif
