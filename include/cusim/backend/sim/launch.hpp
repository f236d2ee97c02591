// SPDX-License-Identifier: MIT
// The simulator's launches: a kernel and its arguments become a closure that the compiled simulator runs
// for every thread (cusim::launch, cudaLaunchKernel, cudaLaunchCooperativeKernel).
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// The loop over a block's threads: the kernel compiled into it where the compiler can (flatten:
// a kernel is rarely small enough to be inlined otherwise). Under the nvcc driver's raw-pointer
// checks (inline: a shadow load and a branch per access) the loop is instrumented like the
// kernel, so that the compilers inline one into the other (they do not across differing sanitizer
// settings); its own stores (thread records, on the heap and the fiber stacks) pass those checks
// at the cost of the load. Under AddressSanitizer (a sanitizer build of cusim) the loop's
// bookkeeping is not instrumented: it checks the program's accesses, not the simulator's.
#if defined(CUSIM_RAW_ADDRESS_CHECKS)
#  define CUSIM_THREAD_LOOP [[gnu::flatten]]
#elif defined(__clang__)
#  define CUSIM_THREAD_LOOP [[gnu::flatten]] __attribute__((no_sanitize("address", "kernel-address")))
#else
#  define CUSIM_THREAD_LOOP [[gnu::flatten, gnu::no_sanitize_address]]
#endif

// A lambda's body inlined where it is called (the thread loop is one function).
#define CUSIM_ALWAYS_INLINE_LAMBDA __attribute__((always_inline))

namespace cusim {

namespace detail {
/// A kernel with its arguments bound, as a launch submits it and a graph's kernel node keeps it:
/// `thunk(closure)` runs the threads of a block (see next_thread); `params(closure)` says where
/// each argument lives inside the closure (a kernel node's kernelParams), asked only when a
/// launch is recorded into a graph.
struct bound_kernel {
  void (*thunk)(void*) = nullptr;
  std::shared_ptr<void> closure;
  std::vector<void*> (*params)(void* closure) = nullptr;
};
/// The one entry of every launch (cusim::launch, `<<<>>>`, cudaLaunchKernel, a graph's kernel
/// nodes). `kernel` is the __global__ function's address, what the simulator knows it by (its
/// static shared memory, its attributes). Validates `config` (throws cuda_error), then: from a
/// kernel thread, queues a child grid that runs after its parent's; on a capturing stream,
/// records a kernel node; on the default stream, runs the grid at once and rethrows the first
/// kernel fault (lowest block, then thread order); on another stream, queues it behind the work
/// before it, keeping a fault for the next synchronisation. A cooperative launch runs every block
/// co-resident, so this_grid().sync() works.
void submit(const void* kernel, const launch_config& config, bound_kernel bound, bool cooperative);
/// Waits for `stream` (every stream, for nullptr) and rethrows the kernel fault it keeps.
void rethrow_stream_fault(cudaStream_t stream);
/// The C API's view of a failed launch: a bad configuration is returned (and kept as the last
/// error); a kernel fault is kept by the stream for the next synchronisation.
cudaError_t c_api_launch_failed(std::exception_ptr failure, cudaStream_t stream);

/// The address of each element of `t`: where a closure's arguments live (bound_kernel::params).
template <class Tuple>
std::vector<void*> element_addresses(Tuple& t) {
  return std::apply([](auto&... a) { return std::vector<void*>{static_cast<void*>(&a)...}; }, t);
}

/// A kernel and its arguments, run for one thread after another by `run` (the launch's thunk):
/// one call runs a thread and then, until one blocks, the block's next ones (no switch between).
template <class... Params>
struct kernel_closure {
  void (*kernel)(Params...);
  std::tuple<std::remove_cvref_t<Params>...> params;

  CUSIM_THREAD_LOOP static void run(void* p) {
    auto* c = static_cast<kernel_closure*>(p);
    run_threads([c]() CUSIM_ALWAYS_INLINE_LAMBDA { std::apply(c->kernel, c->params); });
  }
  /// bound_kernel::params: where each argument lives in the closure at `p`.
  static std::vector<void*> locate_params(void* p) {
    return element_addresses(static_cast<kernel_closure*>(p)->params);
  }
  /// `run` for a kernel known at compile time (`Kernel` is `kernel`), compiled into the loop over
  /// the block's threads (cusim::launch<kernel>).
  template <auto Kernel>
  CUSIM_THREAD_LOOP static void run_inline(void* p) {
    // A copy the loop owns: nothing the threads store can be the arguments, so they stay in
    // registers instead of being read anew for every thread (the record's stores could alias them).
    auto* c = static_cast<kernel_closure*>(p);
    auto params = c->params;
    run_calls<Kernel>(c->kernel, params, std::index_sequence_for<Params...>{});
  }
  // A direct call of Kernel (through std::apply it stays a call through a pointer: not inlined).
  // A block whose accesses go to the checkers (accesses_observed, which holds for every thread
  // this loop runs) runs the kernel as compiled on its own, through `outlined`; the copy compiled
  // into the loop runs only where the test was false, and the same test in each of its checked
  // accesses, whose load the compiler shares with this one (the flag is const to kernel code),
  // folds away, in the kernel's own loops too: its accesses cost their bounds checks and nothing more.
  template <auto Kernel, std::size_t... I>
  [[gnu::always_inline]] static void run_calls(void (*outlined)(Params...),
                                              std::tuple<std::remove_cvref_t<Params>...>& params,
                                              std::index_sequence<I...>) {
    if (accesses_observed()) [[unlikely]]
      run_threads([&]() CUSIM_ALWAYS_INLINE_LAMBDA { outlined(std::get<I>(params)...); });
    else
      run_threads([&]() CUSIM_ALWAYS_INLINE_LAMBDA { Kernel(std::get<I>(params)...); });
  }
};

/// Binds a kernel (its address) to arguments read through `args[i]`: what a kernel pointer seen
/// without its type (cudaKernelNodeParams::func, cudaLaunchKernel(const void*, ...)) needs.
using kernel_binder = bound_kernel (*)(const void* kernel, void** args);

template <class... Params>
struct binder_of {
  /// `c` bound, its threads run by `run` (a kernel_closure's run or a derived closure's).
  static bound_kernel bind(std::shared_ptr<kernel_closure<Params...>> c,
                           void (*run)(void*) = &kernel_closure<Params...>::run) {
    return {run, std::move(c), &kernel_closure<Params...>::locate_params};
  }
  template <std::size_t... I>
  static bound_kernel from_pointers(const void* kernel, void** args, std::index_sequence<I...>) {
    using closure = kernel_closure<Params...>;
    if (sizeof...(Params) > 0 && args == nullptr) throw cuda_error(cudaErrorInvalidValue, "null kernel arguments");
    auto* k = reinterpret_cast<void (*)(Params...)>(const_cast<void*>(kernel));
    return bind(std::shared_ptr<closure>(new closure{k, {*static_cast<std::remove_cvref_t<Params>*>(args[I])...}}));
  }
  static bound_kernel bind_pointers(const void* kernel, void** args) {
    return from_pointers(kernel, args, std::index_sequence_for<Params...>{});
  }
};

/// Remembers how to bind `kernel`'s arguments (kernel_binder); the first launch of a kernel, or
/// cusim::detail::register_kernel, tells the simulator.
void note_kernel_binder(const void* kernel, kernel_binder binder);
/// Makes `kernel` launchable through its address alone (graph kernel nodes, cudaLaunchKernel with
/// a `const void*`) before any typed launch of it has been seen.
template <class... Params>
void register_kernel(void (*kernel)(Params...)) {
  note_kernel_binder(reinterpret_cast<const void*>(kernel), &binder_of<Params...>::bind_pointers);
}

/// What the nvcc driver puts after a __global__ function's definition in an unmodified program:
/// registers the kernel when `probe` yields its address, i.e. when its name denotes one function.
template <class Probe>
bool register_kernel_probe(Probe probe) {
  if constexpr (std::is_invocable_v<Probe, int>) register_kernel(probe(0));
  return true;
}

/// Launches the closure `c` of `kernel` (or a kernel_closure derived from it), whose threads
/// `run` runs.
template <class... Params>
void launch_bound(void (*kernel)(Params...), std::shared_ptr<kernel_closure<Params...>> c, void (*run)(void*),
                  const launch_config& config, bool cooperative) {
  const void* key = reinterpret_cast<const void*>(kernel);
  // The last kernel of this signature seen is registered already: most launches skip the lookup.
  static std::atomic<const void*> registered{nullptr};
  if (registered.load(std::memory_order_relaxed) != key) {
    register_kernel(kernel);
    registered.store(key, std::memory_order_relaxed);
  }
  submit(key, config, binder_of<Params...>::bind(std::move(c), run), cooperative);
}

template <class... Params, class... Args>
void launch_closure(void (*kernel)(Params...), void (*run)(void*), const launch_config& config, bool cooperative,
                    Args&&... args) {
  using closure = kernel_closure<Params...>;
  // Owned by the launch: a launch on a stream runs after this call returns.
  std::shared_ptr<closure> c(new closure{kernel, std::tuple<std::remove_cvref_t<Params>...>(std::forward<Args>(args)...)});
  launch_bound(kernel, std::move(c), run, config, cooperative);
}

template <class... Params, class... Args>
void launch_closure(void (*kernel)(Params...), const launch_config& config, bool cooperative, Args&&... args) {
  launch_closure(kernel, &kernel_closure<Params...>::run, config, cooperative, std::forward<Args>(args)...);
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

namespace detail {
/// The backend's launch: cusim::launch and cusim::launch_cooperative.
template <class... Params, class... Args>
void launch_impl(void (*kernel)(Params...), const launch_config& config, bool cooperative, Args&&... args) {
  launch_closure(kernel, config, cooperative, std::forward<Args>(args)...);
}
/// The backend's launch with the kernel known at compile time: cusim::launch<kernel>.
template <auto Kernel, class... Params, class... Args>
void launch_inline_impl(void (*)(Params...), const launch_config& config, bool cooperative, Args&&... args) {
  launch_closure(Kernel, &kernel_closure<Params...>::template run_inline<Kernel>, config, cooperative,
                 std::forward<Args>(args)...);
}
/// The backend's part of cusim::synchronize: the kernel fault the stream keeps, as kernel_error.
inline void synchronize_impl(cudaStream_t stream) { rethrow_stream_fault(stream); }
}  // namespace detail

}  // namespace cusim

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
