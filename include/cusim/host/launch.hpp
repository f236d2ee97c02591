// SPDX-License-Identifier: MIT
// cusim::launch: runs a __global__ function over a grid of blocks, on either backend.
#pragma once

#include <cusim/config.hpp>
#include <cusim/host/check.hpp>

#include <cstddef>
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
/// Validates `config`, runs `thunk(closure)` once per simulated thread and, on the default
/// stream, rethrows the first kernel fault (lowest block, then thread order).
void launch_kernel(const launch_config& config, void (*thunk)(void*), void* closure);
/// Rethrows a kernel fault kept by `stream` (or any stream, for nullptr) and clears it.
void rethrow_stream_fault(cudaStream_t stream);
}  // namespace detail
#endif

/// Launches `kernel` with `config`; `args` convert to its parameters (device_array -> span).
/// Throws cuda_error for a bad configuration (CUDA's error code, e.g. cudaErrorInvalidConfiguration)
/// and, on the simulator's default stream, kernel_error for a fault inside the kernel.
///
///     cusim::launch(vector_add, cusim::launch_config{blocks, threads}, d_c, d_a, d_b);
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const launch_config& config, Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args), "cusim::launch: wrong number of kernel arguments");
#if CUSIM_BACKEND_IS_SIM()
  struct closure {
    void (*kernel)(Params...);
    std::tuple<std::remove_cvref_t<Params>...> params;
  };
  closure c{kernel, std::tuple<std::remove_cvref_t<Params>...>(std::forward<Args>(args)...)};
  detail::launch_kernel(
      config, [](void* p) { auto* c = static_cast<closure*>(p); std::apply(c->kernel, c->params); }, &c);
#else
  kernel<<<config.grid, config.block, config.shared_bytes, config.stream>>>(std::forward<Args>(args)...);
  check(cudaGetLastError(), "cusim::launch");
#endif
}

/// Launches `kernel` on `grid` blocks of `block` threads on the default stream.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, Args&&... args) {
  launch(kernel, launch_config{grid, block}, std::forward<Args>(args)...);
}

/// Waits for `stream` (default: the whole device) and rethrows a kernel fault it kept as
/// kernel_error (simulator) or a CUDA error as cuda_error.
inline void synchronize(cudaStream_t stream = nullptr) {
#if CUSIM_BACKEND_IS_SIM()
  detail::rethrow_stream_fault(stream);
#endif
  check(stream ? cudaStreamSynchronize(stream) : cudaDeviceSynchronize(), "cusim::synchronize");
}

}  // namespace cusim
