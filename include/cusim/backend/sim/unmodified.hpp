// SPDX-License-Identifier: MIT
// What the nvcc driver's rewrites of an unmodified CUDA program call (docs/unmodified-cuda.md):
// `k<<<g, b, s, st>>>(args)` launches through chevron, a raw `__shared__` declaration in a function
// binds through shared_variable, `extern __shared__ T a[]` through dynamic_shared_pointer.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>
#include <cusim/backend/sim/launch.hpp>
#include <cusim/host/launch.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(CUSIM_RAW_ADDRESS_CHECKS)
// The driver's inline checks read the shadow of every address the program touches: this says
// so to the simulator, which then reserves it before the program's constructors run
// (simulator/address_space.cpp). Weak: every translation unit of the program defines it.
extern "C" {
[[gnu::weak]] extern const int cusim_inline_shadow_checks = 1;
}
#endif

// What the driver's per-thread call of a kernel is compiled with (rewrite.py, probe_and_call): its
// copies of the arguments from the launch's closure are the simulator's memory, not the program's.
#define CUSIM_KERNEL_CALL CUSIM_RUNTIME_LAMBDA

namespace cusim::detail {

/// Launches like `kernel<<<grid, block, shared_bytes, stream>>>` does on a GPU: `launch(config,
/// args)` calls launch_closure for the kernel and its arguments (chevron_launcher). A bad configuration (or a launch after
/// a kernel fault, which CUDA keeps sticky) becomes the calling thread's last error and runs
/// nothing; a kernel fault never reaches the caller: its report is printed on stderr once and its
/// code is returned by the next synchronisation.
void chevron_launch(const launch_config& config, void (*launch)(const launch_config&, void*), void* args);

/// Prints a kernel fault's report (kernel_error::what()) on stderr, once per fault however often
/// it is passed; other exceptions and null are ignored. When a fault was reported,
/// CUSIM_ERROR_EXITCODE=N makes the process exit with N at its end (compute-sanitizer's
/// --error-exitcode).
void report_kernel_fault(const std::exception_ptr& fault);

/// Prints one report of behaviour C++ leaves undefined and the GPU defines (a division by zero,
/// a shift by 32, a conversion of NaN to int: gpu_defined.hpp) on stderr; like a kernel fault, it
/// makes CUSIM_ERROR_EXITCODE=N apply.
void report_gpu_defined_behaviour(const std::string& text);

/// Marks the process as an unmodified CUDA program; cusim's <cuda_runtime.h> does it at static
/// initialisation. Returns true.
bool mark_unmodified_program() noexcept;
/// report_kernel_fault for the faults the C API keeps (cudaLaunchKernel & co.), in an unmodified
/// program only: a cusim API program gets its faults as exceptions and nothing on stderr.
void report_c_api_kernel_fault(const std::exception_ptr& fault);

/// A kernel's closure whose threads run through the driver's `call` of the kernel, which names the
/// kernel in the program's own source: the compiler can inline it into the loop over a block's
/// threads, as cusim::launch<kernel> does.
template <class Call, class... Params>
struct chevron_closure : kernel_closure<Params...> {
  Call call;

  CUSIM_THREAD_LOOP static void run(void* p) {
    auto* c = static_cast<chevron_closure*>(static_cast<kernel_closure<Params...>*>(p));
    // Copies the loop owns, as run_inline's: nothing the threads store can be the arguments, so
    // they stay in registers rather than being read anew (and checked) for every thread; the
    // loop and the calls are compiled without the front end's checks (CUSIM_RUNTIME_INLINE).
    std::apply([c](auto... args) CUSIM_RUNTIME_LAMBDA { run_values(c->call, args...); }, c->params);
  }
  template <class... Args>
  CUSIM_RUNTIME_INLINE static void run_values(Call call, Args... args) {
    run_threads([&]() CUSIM_RUNTIME_LAMBDA { call(args...); });
  }
};

/// The callable `kernel<<<g, b, s, st>>>` becomes: calling it with the kernel's arguments (converted
/// to its parameters as by a call of the kernel) launches it.
template <class Call, class... Params>
class chevron_launcher {
 public:
  chevron_launcher(void (*kernel)(Params...), Call call, const launch_config& config)
      : kernel_(kernel), call_(std::move(call)), config_(config) {}

  void operator()(Params... args) const {
    struct packed {
      const chevron_launcher* self;
      std::tuple<Params&...> args;
    } p{this, std::tuple<Params&...>(args...)};
    chevron_launch(
        config_,
        [](const launch_config& config, void* data) {
          auto* q = static_cast<packed*>(data);
          using closure = chevron_closure<Call, Params...>;
          std::apply(
              [&](Params&... a) {
                if constexpr (std::is_same_v<Call, std::nullptr_t>) {
                  launch_closure(q->self->kernel_, config, false, std::move(a)...);
                } else {
                  // Owned by the launch: a launch on a stream runs after this call returns.
                  std::shared_ptr<closure> c(new closure{
                      {q->self->kernel_, std::tuple<std::remove_cvref_t<Params>...>(std::move(a)...)}, q->self->call_});
                  launch_bound(q->self->kernel_, std::shared_ptr<kernel_closure<Params...>>(std::move(c)),
                               &closure::run, config, false);
                }
              },
              q->args);
        },
        &p);
  }

 private:
  void (*kernel_)(Params...);
  Call call_;
  launch_config config_;
};

/// The address of kernel `k`, when its name denotes one function; what the driver's probe of a
/// launch's kernel calls (`Tag` makes the call depend on the probe's parameter, so that a kernel
/// name that denotes no single function fails the probe instead of the program).
template <class Tag, class... Params>
constexpr auto kernel_pointer(void (*k)(Params...)) noexcept {
  return k;
}

/// A launch's arguments, evaluated once and copied as a GPU copies kernel parameters, and `call`,
/// which calls the kernel with them for the current thread (named in the kernel's own source:
/// template arguments deduced and default arguments used as in a call).
template <class Call, class... Args>
struct call_closure {
  Call call;
  std::tuple<Args...> args;

  CUSIM_THREAD_LOOP static void run(void* p) {
    auto* c = static_cast<call_closure*>(p);
    do std::apply(c->call, c->args);
    while (next_thread());
  }
  /// bound_kernel::params: where each argument lives in the closure at `p`.
  static std::vector<void*> locate_params(void* p) {
    return element_addresses(static_cast<call_closure*>(p)->args);
  }
};

/// Identifies a launch site's kernel call (whose type is unique) across launches.
template <class Call>
inline constexpr char call_key = 0;

/// What `kernel<<<g, b, s, st>>>` becomes, called with the driver's probe and call of the kernel
/// and the launch's arguments: `::cusim::detail::chevron(g, b[, s[, st]])(probe, call, args...)`.
struct chevron_config {
  launch_config config;

  template <class Probe, class Call, class... Args>
  void operator()(Probe probe, Call call, Args&&... args) const {
    if constexpr (std::is_invocable_v<Probe, int>) {
      // One kernel function, called with arguments it takes: launched as itself, so that it is
      // known by its address (graph nodes, what the simulator learns of it).
      using pointer = decltype(probe(0));
      if constexpr (std::is_invocable_v<pointer, Args...>) {
        chevron_launcher(probe(0), std::move(call), config)(std::forward<Args>(args)...);
        return;
      }
    }
    using closure = call_closure<Call, std::decay_t<Args>...>;
    struct packed {
      Call call;
      std::tuple<Args&&...> args;
    } p{std::move(call), std::forward_as_tuple(std::forward<Args>(args)...)};
    chevron_launch(
        config,
        [](const launch_config& config, void* data) {
          auto* q = static_cast<packed*>(data);
          auto c = std::apply(
              [&](Args&&... a) {
                return std::shared_ptr<closure>(new closure{std::move(q->call), {std::forward<Args>(a)...}});
              },
              std::move(q->args));
          submit(&call_key<Call>, config, bound_kernel{&closure::run, std::move(c), &closure::locate_params}, false);
        },
        &p);
  }
};

/// `K<<<grid, block[, shared_bytes[, stream]]>>>(args)` is rewritten to
/// `::cusim::detail::chevron(grid, block[, shared_bytes[, stream]])(probe of K, call of K, args)`.
inline chevron_config chevron(dim3 grid, dim3 block, std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  return chevron_config{launch_config{grid, block, shared_bytes, stream}};
}

/// cudaLaunchKernel's launch of `kernel` (a known kernel's address), its closure made by
/// `bind(data)`: the C API's errors and reports (simulator/functions.cpp).
cudaError_t launch_named(const void* kernel, const launch_config& config, bool cooperative,
                         bound_kernel (*bind)(void* data), void* data);

/// `kernel`'s launch with the arguments `args[i]` points at, its threads run by the driver's `call`
/// of it, compiled into the loop over a block's threads as a `<<<>>>` launch's are.
template <class Call, class... Params, std::size_t... I>
cudaError_t launch_named_pointers(void (*kernel)(Params...), Call& call, const launch_config& config, void** args,
                                  bool cooperative, std::index_sequence<I...>) {
  struct packed {
    void (*kernel)(Params...);
    Call* call;
    void** args;
  } p{kernel, &call, args};
  return launch_named(
      reinterpret_cast<const void*>(kernel), config, cooperative,
      [](void* data) {
        auto* q = static_cast<packed*>(data);
        if (sizeof...(Params) > 0 && q->args == nullptr) throw cuda_error(cudaErrorInvalidValue, "null kernel arguments");
        // Known by its address from now on, as after a <<<>>> launch (graph nodes, cudaFuncGetAttributes).
        static std::atomic<const void*> registered{nullptr};
        if (registered.load(std::memory_order_relaxed) != reinterpret_cast<const void*>(q->kernel)) {
          register_kernel(q->kernel);
          registered.store(reinterpret_cast<const void*>(q->kernel), std::memory_order_relaxed);
        }
        // Owned by the launch: a launch on a stream runs after this call returns.
        kernel_closure<Params...> bound{
            q->kernel, std::tuple<std::remove_cvref_t<Params>...>(*static_cast<std::remove_cvref_t<Params>*>(q->args[I])...)};
        using closure = chevron_closure<Call, Params...>;
        std::shared_ptr<closure> c(new closure{std::move(bound), *q->call});
        return binder_of<Params...>::bind(std::shared_ptr<kernel_closure<Params...>>(std::move(c)), &closure::run);
      },
      &p);
}

template <class Call, class... Params>
cudaError_t launch_named_pointers(void (*kernel)(Params...), Call& call, const launch_config& config, void** args,
                                  bool cooperative) {
  return launch_named_pointers(kernel, call, config, args, cooperative, std::index_sequence_for<Params...>{});
}

/// What `cudaLaunchKernel(K, grid, block, args[, shared_bytes[, stream]])` (Cooperative: its
/// cooperative form) becomes where the driver sees a kernel's name in K (`(void*)k`, `&k<128>`):
/// `launch_kernel_named<Cooperative>(probe of k, call of k, K, grid, ...)`. When the probe yields
/// the kernel's address and K is that address, the kernel runs compiled into the block loop as with
/// `<<<>>>`; anything else is the C API's own call with K.
template <bool Cooperative, class Probe, class Call, class K>
cudaError_t launch_kernel_named(Probe probe, Call call, K&& k, dim3 grid, dim3 block, void** args,
                                std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  if constexpr (std::is_invocable_v<Probe, int>) {
    const auto kernel = probe(0);
    if constexpr (std::is_convertible_v<K&&, const void*>) {
      if (kernel != nullptr && reinterpret_cast<const void*>(kernel) == static_cast<const void*>(k))
        return launch_named_pointers(kernel, call, launch_config{grid, block, shared_bytes, stream}, args, Cooperative);
    }
  }
  if constexpr (Cooperative)
    return ::cudaLaunchCooperativeKernel(std::forward<K>(k), grid, block, args, shared_bytes, stream);
  else
    return ::cudaLaunchKernel(std::forward<K>(k), grid, block, args, shared_bytes, stream);
}

/// A raw `__shared__ T name;` in a function: the current block's variable for the declaration
/// whose key is `key` (a static beside the declaration: one per function specialization, shared
/// by inlined copies). As in CUDA, no constructor runs: the memory holds what it holds.
template <class T, std::size_t Align = 0>
T& shared_variable(const void* key, source_location site) {
  static_assert(std::is_trivially_destructible_v<std::remove_all_extents_t<T>>,
                "a __shared__ variable's type must be trivially destructible: CUDA never runs the constructor "
                "or destructor of a __shared__ variable");
  if (current_thread_ == nullptr) [[unlikely]]
    fail_outside_kernel("a __shared__ variable");
  constexpr std::size_t align = alignof(T) > Align ? alignof(T) : Align;
  return *static_cast<std::remove_reference_t<T>*>(bind_shared(key, site, sizeof(T), align));
}

/// A `__shared__ T name;` at namespace scope: one variable per block, as in a function, bound on
/// first use with this object as its key, so that every function of a block sees the same one.
/// The driver declares `name` as this object and puts `auto& name = ::ns::name.get();` at the top
/// of each device function of the file that names it (bounds checked per axis as a function's
/// array); a use it does not see (another file, a qualified name) goes through the object itself:
/// `name[i]`, the conversion to `T&` (an array decays to a pointer), `&name`, `name = v`.
template <class T, std::size_t Align = 0>
class namespace_shared {
 public:
  constexpr explicit namespace_shared(source_location site) noexcept : site_(site) {}
  namespace_shared(const namespace_shared&) = delete;
  namespace_shared& operator=(const namespace_shared&) = delete;

  T& get() const { return shared_variable<T, Align>(this, site_); }
  operator T&() const { return get(); }
  auto* operator&() const { return &get(); }
  template <class I>
    requires std::is_array_v<T>
  decltype(auto) operator[](I i) const {
    return get()[i];
  }
  template <class U>
    requires(!std::is_array_v<T>)
  T& operator=(U&& value) const {
    return get() = std::forward<U>(value);
  }

 private:
  source_location site_;
};

/// `extern __shared__ T name[];`: the launch's dynamic shared memory (16-byte aligned), read from
/// the block's record inline, past the checks (every thread of a kernel that declares it asks).
template <class T>
CUSIM_RUNTIME_INLINE inline T* dynamic_shared_pointer() {
  sim_thread* t = current_thread_;
  if (t == nullptr) [[unlikely]]
    fail_outside_kernel("an extern __shared__ array");
  return static_cast<T*>(runtime_read(runtime_read(t->block)->dynamic_shared));
}

/// `extern __shared__ T name[];` at namespace scope: the launch's dynamic shared memory, as
/// dynamic_shared_pointer; the driver puts `T* const name = dynamic_shared_pointer<T>();` at the
/// top of each device function of the file that names it, other uses go through this object.
template <class T>
struct namespace_dynamic_shared {
  T* get() const { return dynamic_shared_pointer<T>(); }
  operator T*() const { return get(); }
  template <class I>
  T& operator[](I i) const {
    return get()[i];
  }
};

}  // namespace cusim::detail
