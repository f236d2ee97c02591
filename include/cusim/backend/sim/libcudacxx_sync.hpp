// SPDX-License-Identifier: MIT
// libcu++'s synchronisation primitives in kernels on the simulator, written for it: cuda::barrier
// and cuda::std::barrier, cuda::pipeline with its shared state, cuda::memcpy_async,
// cuda::aligned_size_t, and cuda::std::atomic, cuda::atomic, cuda::atomic_ref (the toolkit's
// <cuda/barrier>, <cuda/pipeline>, <cuda/atomic>, <cuda/std/barrier>, <cuda/std/atomic>).
//
// A simulated thread is a fiber of its block's OS thread: a wait that spun on a std::atomic would
// never let the thread it waits for run. Every wait here polls like an atomic that changes nothing
// (detail::note_atomic): after a few polls the thread yields to the other threads of its block, and
// a wait that no thread can end is reported as a deadlock. Arrivals and stores count as progress.
// Copies of memcpy_async are made at the call, each checked like any access of the program (a
// tagged fault naming the allocation it missed), and then complete: a wait for them returns at
// once. Misuse a GPU leaves undefined (a barrier used before init, more arrivals than a phase
// expects, a token of another phase, a misaligned aligned_size_t) is a tagged fault.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <type_traits>
#include <thread>
#include <utility>
#include <vector>

namespace cusim::detail {

inline void sched_yield_host() { std::this_thread::yield(); }

/// What a program did wrong with a synchronisation object (fail_sync_misuse's `what`).
enum class sync_misuse : std::uint8_t {
  barrier_not_initialised,  ///< a member of a barrier that neither init() nor a constructor set up
  barrier_bad_expected,     ///< init or the constructor given a count below 0 or above max(): `a`, `b` the max
  barrier_bad_update,       ///< arrive(update) with update < 1: `a`
  barrier_overarrival,      ///< arrive(update) with more arrivals than the phase still expects: `a` update, `b` pending
  barrier_foreign_token,    ///< wait(token) with a token that another barrier (or none) gave
  barrier_stale_token,      ///< wait(token) with a token of phase `a`, when the barrier is in phase `b`
  copy_misaligned,          ///< a copy with aligned_size_t<`b`> whose address or size `a` is not a multiple of it
  pipeline_wrong_role,      ///< a producer call by a consumer of a partitioned pipeline, or the reverse (`a`: 1 producer call)
  latch_overcount,          ///< count_down(`a`) or arrive_and_wait(`a`) when the latch's count is `b`
  semaphore_overflow,       ///< release(`a`) that would take the count past max() `b`
};

/// Raises the tagged fault for `what` in the current kernel thread (simulator/libcudacxx_sync.cpp);
/// `a` and `b` as sync_misuse describes. In host code, throws std::logic_error.
[[noreturn]] void fail_sync_misuse(sync_misuse what, std::int64_t a, std::int64_t b, const source_location& site);

/// Checks a copy of `bytes` from `src` to `dst` as the program's own accesses would be checked
/// (simulator/raw_access.cpp): a range that leaves its allocation, or shared memory, is a tagged
/// fault of the kernel thread; under CUSIM_CHECK=race and init the two ranges are recorded. The
/// place named is the caller's: inline this into the program's code.
void check_async_copy(void* dst, const void* src, std::size_t bytes);

/// One turn of a wait that has not ended: the thread yields to the block's other threads at once
/// (a barrier's waiters would otherwise poll detail::poll_yield_threshold times each first); a
/// block whose threads all wait with no progress is reported as deadlocked. In host code, the OS
/// thread yields.
inline void wait_turn() {
  if (current_thread_ == nullptr) [[unlikely]] {
    sched_yield_host();
    return;
  }
  current_thread_->polls = 0;
  poll_yield();
}

/// A phase of a barrier completed (the last arrival's thread calls it, when accesses are observed):
/// for CUSIM_CHECK=race the block's accesses so far are ordered before every later one, as by a
/// __syncthreads. A phase's participants may be fewer than the block; taking it as the whole
/// block's barrier may miss a race between others, never reports one that is not.
void sync_phase_completed();

/// The copy behind every memcpy_async: the ranges checked, then copied now.
[[gnu::always_inline]] inline void async_copy(void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  check_async_copy(dst, src, bytes);
  std::memmove(dst, src, bytes);
}

/// The part of a group's copy of `bytes` that the calling member makes: ranks share it in chunks
/// of `align` bytes (at least 1), as a GPU's threads of the group each copy theirs.
/// The calling member's share of a group's `bytes`: [first, first + length).
template <class Group>
[[gnu::always_inline]] inline std::size_t group_share(const Group& g, std::size_t bytes, std::size_t align,
                                                      std::size_t* first) {
  const std::size_t n = static_cast<std::size_t>(g.size()), rank = static_cast<std::size_t>(g.thread_rank());
  const std::size_t chunks = (bytes + align - 1) / align, per = (chunks + n - 1) / n;
  *first = rank * per * align;
  if (*first >= bytes) return 0;
  return (*first + per * align < bytes ? *first + per * align : bytes) - *first;
}
template <class Group>
[[gnu::always_inline]] inline void group_async_copy(const Group& g, void* dst, const void* src, std::size_t bytes,
                                                     std::size_t align) {
  std::size_t first = 0;
  if (const std::size_t n = group_share(g, bytes, align, &first))
    async_copy(static_cast<char*>(dst) + first, static_cast<const char*>(src) + first, n);
}

inline void check_alignment(const void* dst, const void* src, std::size_t bytes, std::size_t align,
                            const source_location& site) {
  if (align <= 1) return;
  const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
  if (d % align != 0) fail_sync_misuse(sync_misuse::copy_misaligned, static_cast<std::int64_t>(d), static_cast<std::int64_t>(align), site);
  if (s % align != 0) fail_sync_misuse(sync_misuse::copy_misaligned, static_cast<std::int64_t>(s), static_cast<std::int64_t>(align), site);
  if (bytes % align != 0)
    fail_sync_misuse(sync_misuse::copy_misaligned, static_cast<std::int64_t>(bytes), static_cast<std::int64_t>(align), site);
}

// --- atomics -----------------------------------------------------------------------------------
// Under the nvcc driver's address instrumentation (CUSIM_RAW_ADDRESS_CHECKS) the memory operations
// are out of line and not instrumented: the address is checked, and recorded as one atomic access
// for the checkers, by the caller (as atomics.hpp does for atomicAdd & co.).
#if defined(CUSIM_RAW_ADDRESS_CHECKS)
#  define CUSIM_LCX_ATOMIC_ [[gnu::no_sanitize_address, gnu::noinline]]
#else
#  define CUSIM_LCX_ATOMIC_
#endif

enum class atomic_rmw : std::uint8_t { exchange, add, sub, bit_and, bit_or, bit_xor, min, max };

template <class T>
T atomic_rmw_value(atomic_rmw op, T old, T v) noexcept {
  switch (op) {
    case atomic_rmw::exchange: return v;
    case atomic_rmw::add:
      if constexpr (std::is_pointer_v<T>) return nullptr;  // pointers: atomic_ref's byte offsets, below
      else return static_cast<T>(old + v);
    case atomic_rmw::sub:
      if constexpr (std::is_pointer_v<T>) return nullptr;
      else return static_cast<T>(old - v);
    case atomic_rmw::bit_and:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(old & v);
      else return old;
    case atomic_rmw::bit_or:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(old | v);
      else return old;
    case atomic_rmw::bit_xor:
      if constexpr (std::is_integral_v<T>) return static_cast<T>(old ^ v);
      else return old;
    case atomic_rmw::min:
      if constexpr (std::is_arithmetic_v<T>) return v < old ? v : old;
      else return old;
    case atomic_rmw::max:
      if constexpr (std::is_arithmetic_v<T>) return v > old ? v : old;
      else return old;
  }
  return old;
}

inline constexpr int gcc_order(std::memory_order o) noexcept {
  switch (o) {
    case std::memory_order_relaxed: return __ATOMIC_RELAXED;
    case std::memory_order_consume: return __ATOMIC_CONSUME;
    case std::memory_order_acquire: return __ATOMIC_ACQUIRE;
    case std::memory_order_release: return __ATOMIC_RELEASE;
    case std::memory_order_acq_rel: return __ATOMIC_ACQ_REL;
    default: return __ATOMIC_SEQ_CST;
  }
}

/// Records the atomic access of `p` for the checkers (and checks it under the instrumentation).
template <class T>
[[gnu::always_inline]] inline void atomic_touch(T* p) {
#if defined(CUSIM_RAW_ADDRESS_CHECKS)
  check_atomic_address(const_cast<std::remove_cv_t<T>*>(p), sizeof(T));
#else
  if (accesses_observed()) [[unlikely]]
    note_atomic_access(p);
#endif
}

template <class T>
CUSIM_LCX_ATOMIC_ inline T atomic_load_raw(const T* p, int order) noexcept {
  T v;
  __atomic_load(const_cast<T*>(p), &v, order);
  return v;
}
template <class T>
CUSIM_LCX_ATOMIC_ inline void atomic_store_raw(T* p, T v, int order) noexcept {
  __atomic_store(p, &v, order);
}
/// new = op(old, v) atomically; returns old. Modified compares bit patterns (+0.0 to -0.0 modifies).
template <class T>
CUSIM_LCX_ATOMIC_ inline T atomic_rmw_raw(T* p, atomic_rmw op, T v, int order, bool* modified) noexcept {
  T old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  T desired;
  do {
    desired = atomic_rmw_value(op, old, v);
  } while (!__atomic_compare_exchange(p, &old, &desired, true, order, __ATOMIC_RELAXED));
  *modified = std::memcmp(&old, &desired, sizeof(T)) != 0;
  return old;
}
template <class T>
CUSIM_LCX_ATOMIC_ inline bool atomic_cas_raw(T* p, T* expected, T desired, bool weak, int success, int failure) noexcept {
  return __atomic_compare_exchange(p, expected, &desired, weak, success, failure);
}
template <class T>
CUSIM_LCX_ATOMIC_ inline T* atomic_ptr_add_raw(T** p, std::ptrdiff_t d, int order) noexcept {
  return __atomic_fetch_add(p, d * static_cast<std::ptrdiff_t>(sizeof(T)), order);
}

inline constexpr std::memory_order failure_order(std::memory_order o) noexcept {
  return o == std::memory_order_acq_rel ? std::memory_order_acquire
         : o == std::memory_order_release ? std::memory_order_relaxed
                                          : o;
}

/// The operations of an atomic object of type T at `p`, each one poll or one progress of the
/// calling thread (note_atomic): what cuda::std::atomic, cuda::atomic and the atomic_refs share.
template <class T>
struct atomic_ops {
  static_assert(std::is_trivially_copyable_v<T>, "cuda::std::atomic<T>: T must be trivially copyable");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "cuda::std::atomic<T> on the simulator: T of 1, 2, 4 or 8 bytes");

  static T load(const T* p, std::memory_order o) {
    atomic_touch(p);
    T v = atomic_load_raw(p, gcc_order(o));
    note_atomic(false);
    return v;
  }
  static void store(T* p, T v, std::memory_order o) {
    atomic_touch(p);
    atomic_store_raw(p, v, gcc_order(o));
    note_atomic(true);
  }
  static T rmw(T* p, atomic_rmw op, T v, std::memory_order o) {
    atomic_touch(p);
    bool modified = false;
    T old = atomic_rmw_raw(p, op, v, gcc_order(o), &modified);
    note_atomic(modified);
    return old;
  }
  static bool cas(T* p, T& expected, T desired, bool weak, std::memory_order s, std::memory_order f) {
    atomic_touch(p);
    const bool ok = atomic_cas_raw(p, &expected, desired, weak, gcc_order(s), gcc_order(f));
    note_atomic(ok && std::memcmp(&expected, &desired, sizeof(T)) != 0);
    return ok;
  }
  /// Blocks while the value's bits equal old's: polls, yielding to the block's other threads.
  static void wait(const T* p, T old, std::memory_order o) {
    for (;;) {
      T v = load(p, o);
      if (std::memcmp(&v, &old, sizeof(T)) != 0) return;
    }
  }
};

/// The members of the atomics over an object of type T that `Derived::ptr()` returns.
template <class Derived, class T>
class atomic_members {
  using ops = atomic_ops<T>;
  T* p() const { return static_cast<const Derived*>(this)->ptr(); }

 public:
  using value_type = T;
  static constexpr bool is_always_lock_free = true;
  bool is_lock_free() const noexcept { return true; }

  T load(std::memory_order o = std::memory_order_seq_cst) const { return ops::load(p(), o); }
  void store(T v, std::memory_order o = std::memory_order_seq_cst) const { ops::store(p(), v, o); }
  operator T() const { return load(); }
  T exchange(T v, std::memory_order o = std::memory_order_seq_cst) const {
    return ops::rmw(p(), atomic_rmw::exchange, v, o);
  }
  bool compare_exchange_weak(T& expected, T desired, std::memory_order s, std::memory_order f) const {
    return ops::cas(p(), expected, desired, true, s, f);
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order s, std::memory_order f) const {
    return ops::cas(p(), expected, desired, false, s, f);
  }
  bool compare_exchange_weak(T& expected, T desired, std::memory_order o = std::memory_order_seq_cst) const {
    return ops::cas(p(), expected, desired, true, o, failure_order(o));
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order o = std::memory_order_seq_cst) const {
    return ops::cas(p(), expected, desired, false, o, failure_order(o));
  }
  void wait(T old, std::memory_order o = std::memory_order_seq_cst) const { ops::wait(p(), old, o); }
  /// A waiter polls: the store it waits for is its wake-up.
  void notify_one() const { atomic_touch(p()); }
  void notify_all() const { atomic_touch(p()); }

  // Arithmetic types (CUDA's fetch_min and fetch_max are extensions of cuda::atomic).
  T fetch_add(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::add, v, o);
  }
  T fetch_sub(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::sub, v, o);
  }
  T fetch_min(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::min, v, o);
  }
  T fetch_max(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::max, v, o);
  }
  T fetch_and(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::bit_and, v, o);
  }
  T fetch_or(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::bit_or, v, o);
  }
  T fetch_xor(T v, std::memory_order o = std::memory_order_seq_cst) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return ops::rmw(p(), atomic_rmw::bit_xor, v, o);
  }
  T operator+=(T v) const
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_add(v) + v);
  }
  T operator-=(T v) const
    requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_sub(v) - v);
  }
  T operator&=(T v) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_and(v) & v);
  }
  T operator|=(T v) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_or(v) | v);
  }
  T operator^=(T v) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_xor(v) ^ v);
  }
  T operator++() const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_add(1) + 1);
  }
  T operator--() const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return static_cast<T>(fetch_sub(1) - 1);
  }
  T operator++(int) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return fetch_add(1);
  }
  T operator--(int) const
    requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
  {
    return fetch_sub(1);
  }
};

/// An atomic object: its value in place, uninitialised by the default constructor (so that it may
/// be a __shared__ variable, as CUDA allows).
template <class T>
class atomic_object : public atomic_members<atomic_object<T>, T> {
 public:
  atomic_object() noexcept = default;
  constexpr atomic_object(T v) noexcept : value_(v) {}
  atomic_object(const atomic_object&) = delete;
  atomic_object& operator=(const atomic_object&) = delete;
  T operator=(T v) {
    this->store(v);
    return v;
  }
  T* ptr() const noexcept { return const_cast<T*>(&value_); }

 private:
  T value_;
};

/// An atomic view of an object the program owns (atomic_ref).
template <class T>
class atomic_view : public atomic_members<atomic_view<T>, T> {
 public:
  static constexpr std::size_t required_alignment = sizeof(T);
  explicit atomic_view(T& obj) noexcept : p_(&obj) {}
  atomic_view(const atomic_view&) noexcept = default;
  atomic_view& operator=(const atomic_view&) = delete;
  T operator=(T v) const {
    this->store(v);
    return v;
  }
  T* ptr() const noexcept { return p_; }

 private:
  T* p_;
};

// --- barriers ----------------------------------------------------------------------------------

/// What init() writes first: a barrier whose word differs (shared memory starts each block
/// poisoned) was never set up.
inline constexpr std::uint32_t barrier_ready = 0x62617272u;  // "barr"

struct empty_completion {
  void operator()() noexcept {}
};

/// The state of a barrier, in the memory the program gave it (shared or global): the phase's
/// arrivals, the expected count, and the number of phases completed. A spin lock serialises the
/// updates of threads of several blocks (device and system scope; one block's threads never hold
/// it across a switch: nothing between its acquisition and release yields).
struct barrier_core {
  std::uint32_t ready;
  std::uint32_t lock;
  std::int64_t expected;  ///< arrivals per phase from the next phase on (arrive_and_drop lowers it)
  std::int64_t pending;   ///< arrivals the current phase still expects
  std::uint64_t phase;    ///< phases completed

  CUSIM_LCX_ATOMIC_ void lock_() {
    while (__atomic_exchange_n(&lock, 1u, __ATOMIC_ACQUIRE) != 0u) note_atomic(false);
  }
  CUSIM_LCX_ATOMIC_ void unlock_() noexcept { __atomic_store_n(&lock, 0u, __ATOMIC_RELEASE); }
  CUSIM_LCX_ATOMIC_ std::uint64_t completed() const noexcept { return __atomic_load_n(&phase, __ATOMIC_ACQUIRE); }

  CUSIM_LCX_ATOMIC_ void require_ready(const source_location& site) const {
    if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != barrier_ready)
      fail_sync_misuse(sync_misuse::barrier_not_initialised, 0, 0, site);
  }
  CUSIM_LCX_ATOMIC_ void init(std::ptrdiff_t count, std::ptrdiff_t max, const source_location& site) {
    if (count < 0 || count > max) fail_sync_misuse(sync_misuse::barrier_bad_expected, count, max, site);
    lock = 0;
    expected = pending = count;
    phase = 0;
    __atomic_store_n(&ready, barrier_ready, __ATOMIC_RELEASE);
  }
  /// Counts `update` arrivals (and `drop` of them off the expected count), runs `complete` when
  /// they end the phase, and returns the phase arrived at.
  template <class Completion>
  CUSIM_LCX_ATOMIC_ std::uint64_t arrive(std::ptrdiff_t update, std::ptrdiff_t drop, Completion& complete, const source_location& site) {
    require_ready(site);
    if (update < 1) fail_sync_misuse(sync_misuse::barrier_bad_update, update, 0, site);
    lock_();
    const std::uint64_t now = phase;
    if (update > pending) {
      const std::int64_t left = pending;
      unlock_();
      fail_sync_misuse(sync_misuse::barrier_overarrival, update, left, site);
    }
    expected -= drop;
    pending -= update;
    if (pending == 0) {
      complete();  // the last arrival runs the completion before any waiter is released
      pending = expected;
      if (accesses_observed()) [[unlikely]]
        sync_phase_completed();
      __atomic_store_n(&phase, now + 1, __ATOMIC_RELEASE);
    }
    unlock_();
    note_atomic(true);
    return now;
  }
  /// Returns once phase `p` (a token's) has completed; polls, yielding to the block's threads.
  CUSIM_LCX_ATOMIC_ void wait_phase(const void* owner, const void* token_owner, std::uint64_t p, const source_location& site) const {
    require_ready(site);
    if (token_owner != owner) fail_sync_misuse(sync_misuse::barrier_foreign_token, 0, 0, site);
    const std::uint64_t now = completed();
    if (p + 1 < now)
      fail_sync_misuse(sync_misuse::barrier_stale_token, static_cast<std::int64_t>(p), static_cast<std::int64_t>(now), site);
    while (completed() <= p) wait_turn();
  }
  CUSIM_LCX_ATOMIC_ bool phase_done(const void* owner, const void* token_owner, std::uint64_t p, const source_location& site) const {
    require_ready(site);
    if (token_owner != owner) fail_sync_misuse(sync_misuse::barrier_foreign_token, 0, 0, site);
    return completed() > p;
  }
  /// The phase whose parity is `parity` has completed: the current phase's parity differs.
  CUSIM_LCX_ATOMIC_ bool parity_done(bool parity, const source_location& site) const {
    require_ready(site);
    return ((completed() & 1u) != 0) != parity;
  }
};

/// cuda::barrier and cuda::std::barrier: the core and the completion function.
template <class Completion, std::ptrdiff_t Max>
class barrier_base {
 public:
  /// A phase of this barrier: what wait() takes.
  class arrival_token {
   public:
    arrival_token() noexcept = default;

   private:
    friend class barrier_base;
    arrival_token(const void* owner, std::uint64_t phase) noexcept : owner_(owner), phase_(phase) {}
    const void* owner_ = nullptr;
    std::uint64_t phase_ = 0;
  };

  barrier_base() noexcept = default;
  explicit barrier_base(std::ptrdiff_t expected, Completion completion = Completion(),
                        source_location site = source_location::current())
      : completion_(std::move(completion)) {
    core_.init(expected, Max, site);
  }
  barrier_base(const barrier_base&) = delete;
  barrier_base& operator=(const barrier_base&) = delete;

  static constexpr std::ptrdiff_t max() noexcept { return Max; }

  [[nodiscard]] arrival_token arrive(std::ptrdiff_t update = 1, source_location site = source_location::current()) {
    touch();
    return {this, core_.arrive(update, 0, completion_, site)};
  }
  void wait(arrival_token&& token, source_location site = source_location::current()) const {
    touch();
    core_.wait_phase(this, token.owner_, token.phase_, site);
  }
  void arrive_and_wait(source_location site = source_location::current()) {
    touch();
    const std::uint64_t p = core_.arrive(1, 0, completion_, site);
    core_.wait_phase(this, this, p, site);
  }
  void arrive_and_drop(source_location site = source_location::current()) {
    touch();
    (void)core_.arrive(1, 1, completion_, site);
  }
  /// A poll: false counts like an atomic that changed nothing (a loop of them yields).
  [[nodiscard]] bool try_wait(arrival_token&& token, source_location site = source_location::current()) const {
    if (core_.phase_done(this, token.owner_, token.phase_, site)) return true;
    note_atomic(false);
    return false;
  }
  template <class Rep, class Period>
  [[nodiscard]] bool try_wait_for(arrival_token&& token, const std::chrono::duration<Rep, Period>&,
                                  source_location site = source_location::current()) const {
    wait(std::move(token), site);  // a GPU's wait may time out; this one completes or is a deadlock
    return true;
  }
  void wait_parity(bool parity, source_location site = source_location::current()) const {
    touch();
    while (!core_.parity_done(parity, site)) wait_turn();
  }
  [[nodiscard]] bool try_wait_parity(bool parity, source_location site = source_location::current()) const {
    if (core_.parity_done(parity, site)) return true;
    note_atomic(false);
    return false;
  }

 protected:
  /// For the checkers, an operation of the barrier is an atomic access of the object (reached
  /// through a checked view, say `bars[0]`, the view's access is the barrier's, not a data race).
  void touch() const {
    if (accesses_observed()) [[unlikely]]
      note_atomic_access(this);
  }
  void init_(std::ptrdiff_t expected, Completion completion, const source_location& site) {
    completion_ = std::move(completion);
    core_.init(expected, Max, site);
  }

 private:
  barrier_core core_;
  [[no_unique_address]] Completion completion_;
};

// --- latches and semaphores ----------------------------------------------------------------------

/// cuda::std::latch and cuda::latch: a count down to zero that threads wait for.
class latch_base {
 public:
  static constexpr std::ptrdiff_t max() noexcept { return std::numeric_limits<std::int32_t>::max(); }
  constexpr explicit latch_base(std::ptrdiff_t expected) noexcept : count_(expected) {}
  latch_base(const latch_base&) = delete;
  latch_base& operator=(const latch_base&) = delete;

  void count_down(std::ptrdiff_t update = 1, source_location site = source_location::current()) {
    atomic_touch(&count_);
    std::ptrdiff_t now;
    for (;;) {
      now = atomic_load_raw(&count_, __ATOMIC_ACQUIRE);
      if (update < 0 || update > now) fail_sync_misuse(sync_misuse::latch_overcount, update, now, site);
      if (atomic_cas_raw(&count_, &now, now - update, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) break;
    }
    if (now == update && accesses_observed()) [[unlikely]]
      sync_phase_completed();  // the count reached zero: a barrier's phase, for the checkers
    note_atomic(update != 0);
  }
  bool try_wait() const noexcept { return atomic_load_raw(&count_, __ATOMIC_ACQUIRE) == 0; }
  void wait() const {
    atomic_touch(&count_);
    while (!try_wait()) wait_turn();
  }
  void arrive_and_wait(std::ptrdiff_t update = 1, source_location site = source_location::current()) {
    count_down(update, site);
    wait();
  }

 private:
  std::ptrdiff_t count_;
};

/// cuda::std::counting_semaphore and cuda::counting_semaphore: a count that acquire takes one of
/// (waiting while it is zero) and release gives back.
template <std::ptrdiff_t LeastMaxValue>
class semaphore_base {
 public:
  static constexpr std::ptrdiff_t max() noexcept { return LeastMaxValue; }
  constexpr explicit semaphore_base(std::ptrdiff_t desired) noexcept : count_(desired) {}
  semaphore_base(const semaphore_base&) = delete;
  semaphore_base& operator=(const semaphore_base&) = delete;

  void release(std::ptrdiff_t update = 1, source_location site = source_location::current()) {
    atomic_touch(&count_);
    for (;;) {
      std::ptrdiff_t now = atomic_load_raw(&count_, __ATOMIC_RELAXED);
      if (update < 0 || update > max() - now) fail_sync_misuse(sync_misuse::semaphore_overflow, update, max(), site);
      if (atomic_cas_raw(&count_, &now, now + update, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) break;
    }
    note_atomic(update != 0);
  }
  /// Takes one if the count is above zero (a poll when it is not).
  bool try_acquire() noexcept {
    atomic_touch(&count_);
    std::ptrdiff_t now = atomic_load_raw(&count_, __ATOMIC_RELAXED);
    while (now > 0)
      if (atomic_cas_raw(&count_, &now, now - 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        // For CUSIM_CHECK=race, what the releasing threads did is ordered before what follows,
        // taken as the block's barrier (it may hide a race, never reports one that is not there).
        if (accesses_observed()) [[unlikely]]
          sync_phase_completed();
        note_atomic(true);
        return true;
      }
    return false;
  }
  void acquire() {
    while (!try_acquire()) wait_turn();
  }
  template <class Rep, class Period>
  bool try_acquire_for(const std::chrono::duration<Rep, Period>&) {
    acquire();  // a GPU's wait may time out; this one completes or is a deadlock
    return true;
  }
  template <class Clock, class Duration>
  bool try_acquire_until(const std::chrono::time_point<Clock, Duration>&) {
    acquire();
    return true;
  }

 private:
  std::ptrdiff_t count_;
};

/// cuda::std::atomic_flag: test_and_set, clear, test, wait and notify over a bool.
class atomic_flag_base {
 public:
  constexpr atomic_flag_base() noexcept : value_(false) {}
  atomic_flag_base(const atomic_flag_base&) = delete;
  atomic_flag_base& operator=(const atomic_flag_base&) = delete;
  bool test(std::memory_order o = std::memory_order_seq_cst) const { return atomic_ops<bool>::load(&value_, o); }
  bool test_and_set(std::memory_order o = std::memory_order_seq_cst) {
    return atomic_ops<bool>::rmw(&value_, atomic_rmw::exchange, true, o);
  }
  void clear(std::memory_order o = std::memory_order_seq_cst) { atomic_ops<bool>::store(&value_, false, o); }
  void wait(bool old, std::memory_order o = std::memory_order_seq_cst) const { atomic_ops<bool>::wait(&value_, old, o); }
  void notify_one() const { atomic_touch(&value_); }
  void notify_all() const { atomic_touch(&value_); }

 private:
  bool value_;
};

}  // namespace cusim::detail

// --- cuda::std ---------------------------------------------------------------------------------
// Inside namespace cuda, `std` names cuda::std: the C++ library is spelled ::std there.

namespace cuda::std {

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 10 };

using ::std::memory_order;
using ::std::memory_order_acq_rel;
using ::std::memory_order_acquire;
using ::std::memory_order_consume;
using ::std::memory_order_relaxed;
using ::std::memory_order_release;
using ::std::memory_order_seq_cst;
using ::std::ptrdiff_t;

/// As in C++20 (and libcu++), a default-constructed cuda::std::atomic holds T() (a __shared__ one
/// is never constructed); cuda::atomic's default constructor leaves the value as it is.
template <class T>
class atomic : public ::cusim::detail::atomic_object<T> {
 public:
  constexpr atomic() noexcept : ::cusim::detail::atomic_object<T>(T()) {}
  using ::cusim::detail::atomic_object<T>::atomic_object;
  using ::cusim::detail::atomic_object<T>::operator=;
};

template <class T>
class atomic_ref : public ::cusim::detail::atomic_view<T> {
 public:
  using ::cusim::detail::atomic_view<T>::atomic_view;
  using ::cusim::detail::atomic_view<T>::operator=;
};

inline void atomic_thread_fence(memory_order o) noexcept { ::std::atomic_thread_fence(o); }
inline void atomic_signal_fence(memory_order o) noexcept { ::std::atomic_signal_fence(o); }

using __empty_completion = ::cusim::detail::empty_completion;

template <class CompletionFunction = __empty_completion>
class barrier : public ::cusim::detail::barrier_base<CompletionFunction, ::std::numeric_limits<::std::int32_t>::max()> {
  using base = ::cusim::detail::barrier_base<CompletionFunction, ::std::numeric_limits<::std::int32_t>::max()>;

 public:
  using base::base;
};

class latch : public ::cusim::detail::latch_base {
 public:
  using ::cusim::detail::latch_base::latch_base;
};

template <ptrdiff_t LeastMaxValue = ::std::numeric_limits<::std::int32_t>::max()>
class counting_semaphore : public ::cusim::detail::semaphore_base<LeastMaxValue> {
 public:
  using ::cusim::detail::semaphore_base<LeastMaxValue>::semaphore_base;
};
using binary_semaphore = counting_semaphore<1>;

class atomic_flag : public ::cusim::detail::atomic_flag_base {
 public:
  using ::cusim::detail::atomic_flag_base::atomic_flag_base;
};

}  // namespace cuda::std

// --- cuda ----------------------------------------------------------------------------------------

namespace cuda {

using ::cuda::std::memory_order;
using ::cuda::std::memory_order_acq_rel;
using ::cuda::std::memory_order_acquire;
using ::cuda::std::memory_order_consume;
using ::cuda::std::memory_order_relaxed;
using ::cuda::std::memory_order_release;
using ::cuda::std::memory_order_seq_cst;
using ::cuda::std::thread_scope;
using ::cuda::std::thread_scope_block;
using ::cuda::std::thread_scope_device;
using ::cuda::std::thread_scope_system;
using ::cuda::std::thread_scope_thread;

/// Atomics of any scope behave alike here: every simulated thread sees memory as the host does.
template <class T, thread_scope Scope = thread_scope_system>
class atomic : public ::cusim::detail::atomic_object<T> {
 public:
  using ::cusim::detail::atomic_object<T>::atomic_object;
  using ::cusim::detail::atomic_object<T>::operator=;
};

template <class T, thread_scope Scope = thread_scope_system>
class atomic_ref : public ::cusim::detail::atomic_view<T> {
 public:
  using ::cusim::detail::atomic_view<T>::atomic_view;
  using ::cusim::detail::atomic_view<T>::operator=;
};

inline void atomic_thread_fence(memory_order o, thread_scope = thread_scope_system) noexcept {
  ::std::atomic_thread_fence(o);
}

/// A size whose copies may assume `Alignment` (a power of two) for both addresses and the size.
template <::std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment != 0 && (Alignment & (Alignment - 1)) == 0, "cuda::aligned_size_t: a power of two");
  static constexpr ::std::size_t align = Alignment;
  ::std::size_t value;
  constexpr explicit aligned_size_t(::std::size_t size) noexcept : value(size) {}
  constexpr operator ::std::size_t() const noexcept { return value; }
};

/// What memcpy_async tells the caller: `none`, the copy is complete (always, on the simulator).
enum class async_contract_fulfillment { none, async };

template <thread_scope Scope, class CompletionFunction = ::cuda::std::__empty_completion>
class barrier
    : public ::cusim::detail::barrier_base<CompletionFunction, Scope == thread_scope_block
                                                                   ? (::std::ptrdiff_t{1} << 20) - 1
                                                                   : ::std::numeric_limits<::std::int32_t>::max()> {
  using base = ::cusim::detail::barrier_base<CompletionFunction, Scope == thread_scope_block
                                                                     ? (::std::ptrdiff_t{1} << 20) - 1
                                                                     : ::std::numeric_limits<::std::int32_t>::max()>;

 public:
  using base::base;

  /// Sets up a barrier whose constructor did not run (a __shared__ one) for `expected` arrivals
  /// a phase.
  friend void init(barrier* b, ::std::ptrdiff_t expected,
                   ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    b->init_(expected, CompletionFunction(), site);
  }
  friend void init(barrier* b, ::std::ptrdiff_t expected, CompletionFunction completion,
                   ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    b->init_(expected, ::std::move(completion), site);
  }
};

template <thread_scope Scope>
class latch : public ::cusim::detail::latch_base {
 public:
  using ::cusim::detail::latch_base::latch_base;
};

template <thread_scope Scope, ::std::ptrdiff_t LeastMaxValue = ::std::numeric_limits<::std::int32_t>::max()>
class counting_semaphore : public ::cusim::detail::semaphore_base<LeastMaxValue> {
 public:
  using ::cusim::detail::semaphore_base<LeastMaxValue>::semaphore_base;
};
template <thread_scope Scope>
using binary_semaphore = counting_semaphore<Scope, 1>;

namespace detail_lcx {
template <class S>
constexpr ::std::size_t size_align() {
  if constexpr (requires { S::align; }) return S::align;
  else return 1;
}
/// A group of one thread: memcpy_async without a group.
struct single_thread {
  static constexpr unsigned size() { return 1; }
  static constexpr unsigned thread_rank() { return 0; }
};
template <class Group, class Size>
[[gnu::always_inline]] inline async_contract_fulfillment copy(const Group& g, void* dst, const void* src, Size size,
                                                              ::std::size_t type_align,
                                                              const ::cusim::detail::source_location& site) {
  constexpr ::std::size_t align = size_align<Size>();
  ::cusim::detail::check_alignment(dst, src, static_cast<::std::size_t>(size), align, site);
  const ::std::size_t chunk = align > type_align ? align : type_align;
  ::cusim::detail::group_async_copy(g, dst, src, static_cast<::std::size_t>(size), chunk);
  return async_contract_fulfillment::none;
}
}  // namespace detail_lcx

// memcpy_async with a barrier: the copy is made now, so the barrier's phase waits for nothing more.
template <class Size, thread_scope Scope, class Completion>
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(void* dst, const void* src, Size size, barrier<Scope, Completion>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(detail_lcx::single_thread{}, dst, src, size, 1, site);
}
template <class T, class Size, thread_scope Scope, class Completion>
  requires(!::std::is_void_v<T>)
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(T* dst, const T* src, Size size, barrier<Scope, Completion>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(detail_lcx::single_thread{}, dst, src, size, alignof(T), site);
}
template <class Group, class Size, thread_scope Scope, class Completion>
  requires requires(const Group& g) { g.thread_rank(); }
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(const Group& g, void* dst, const void* src, Size size, barrier<Scope, Completion>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(g, dst, src, size, 1, site);
}
template <class Group, class T, class Size, thread_scope Scope, class Completion>
  requires(!::std::is_void_v<T>) && requires(const Group& g) { g.thread_rank(); }
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(const Group& g, T* dst, const T* src, Size size, barrier<Scope, Completion>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(g, dst, src, size, alignof(T), site);
}


// --- pipelines -----------------------------------------------------------------------------------

enum class pipeline_role { producer, consumer };

namespace detail_lcx {
template <thread_scope Scope>
struct pipeline_stage {
  barrier<Scope> produced;
  barrier<Scope> consumed;
};
}  // namespace detail_lcx

/// The stages of a pipeline shared by a group (a __shared__ variable: no constructor runs), set up
/// by make_pipeline. Each stage has a barrier its producers arrive at when they commit it and one
/// its consumers arrive at when they release it.
template <thread_scope Scope, ::std::uint8_t StagesCount>
class pipeline_shared_state {
 public:
  pipeline_shared_state() = default;
  pipeline_shared_state(const pipeline_shared_state&) = delete;
  pipeline_shared_state& operator=(const pipeline_shared_state&) = delete;

  detail_lcx::pipeline_stage<Scope> cusim_stages_[StagesCount];
  atomic<::std::uint32_t, Scope> cusim_refcount_;
};

/// A pipeline of a group of threads (block or device scope): `StagesCount` stages in a ring; the
/// producers acquire the head stage (once its consumers released it), copy into it and commit
/// it; the consumers wait for the tail stage, use it and release it.
template <thread_scope Scope>
class pipeline {
 public:
  pipeline(pipeline&& other) noexcept
      : stages_(other.stages_), refcount_(other.refcount_), count_(other.count_), head_(other.head_),
        tail_(other.tail_), consumed_parity_(other.consumed_parity_), produced_parity_(other.produced_parity_),
        active_(other.active_), role_(other.role_) {
    other.active_ = false;
  }
  pipeline(const pipeline&) = delete;
  pipeline& operator=(pipeline&&) = delete;
  pipeline& operator=(const pipeline&) = delete;
  // A thread may switch in quit (an access), and a switch unwinds it when its block aborted: the
  // destructor may throw. Not while the thread unwinds: the block's pipeline is gone with it.
  ~pipeline() noexcept(false) {
    if (active_ && ::std::uncaught_exceptions() == 0) (void)quit();
  }

  /// Leaves the pipeline; true for the last of its threads to leave.
  bool quit() {
    active_ = false;
    return refcount_->fetch_sub(1) == 1;
  }
  void producer_acquire(::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    role(true, site);
    stage_at(head_).consumed.wait_parity(consumed_parity_, site);
  }
  void producer_commit(::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    role(true, site);
    (void)stage_at(head_).produced.arrive(1, site);
    if (++head_ == count_) {
      head_ = 0;
      consumed_parity_ = !consumed_parity_;
    }
  }
  void consumer_wait(::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    role(false, site);
    stage_at(tail_).produced.wait_parity(produced_parity_, site);
  }
  void consumer_release(::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    role(false, site);
    (void)stage_at(tail_).consumed.arrive(1, site);
    if (++tail_ == count_) {
      tail_ = 0;
      produced_parity_ = !produced_parity_;
    }
  }
  template <class Rep, class Period>
  bool consumer_wait_for(const ::std::chrono::duration<Rep, Period>&,
                         ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    consumer_wait(site);  // a GPU's wait may time out; this one completes or is a deadlock
    return true;
  }
  template <class Clock, class Duration>
  bool consumer_wait_until(const ::std::chrono::time_point<Clock, Duration>&,
                           ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
    consumer_wait(site);
    return true;
  }

  /// make_pipeline's: `role` 0 for both roles, 1 a producer, 2 a consumer.
  template <::std::uint8_t N>
  pipeline(pipeline_shared_state<Scope, N>* state, int role)
      : stages_(state->cusim_stages_), refcount_(&state->cusim_refcount_), count_(N), role_(role) {}

 private:
  detail_lcx::pipeline_stage<Scope>& stage_at(unsigned i) { return stages_[i]; }
  void role(bool producer_call, const ::cusim::detail::source_location& site) const {
    if ((producer_call && role_ == 2) || (!producer_call && role_ == 1))
      ::cusim::detail::fail_sync_misuse(::cusim::detail::sync_misuse::pipeline_wrong_role, producer_call, 0, site);
  }

  detail_lcx::pipeline_stage<Scope>* stages_;
  atomic<::std::uint32_t, Scope>* refcount_;
  unsigned count_;
  unsigned head_ = 0, tail_ = 0;
  bool consumed_parity_ = true, produced_parity_ = false;
  bool active_ = true;
  int role_;
};

/// A pipeline of the calling thread alone (make_pipeline()): it commits batches of copies and waits
/// for them in order. A batch's copies are made when a wait covers it (consumer_wait, the oldest;
/// pipeline_consumer_wait_prior<N>, all but the N newest; quit and the destructor, all), as late
/// as a GPU may make them: a read of a destination before its wait sees what was there before.
/// With nothing committed a wait returns at once, as CUDA's does.
template <>
class pipeline<thread_scope_thread> {
 public:
  pipeline(pipeline&&) noexcept = default;
  pipeline(const pipeline&) = delete;
  pipeline& operator=(pipeline&&) = delete;
  pipeline& operator=(const pipeline&) = delete;
  ~pipeline() {
    if (::std::uncaught_exceptions() == 0) cusim_wait_prior(0, true);
  }

  bool quit() {
    cusim_wait_prior(0, true);
    return true;
  }
  void producer_acquire() {}
  void producer_commit() {
    batches_.push_back(::std::move(open_));
    open_.clear();
  }
  void consumer_wait() { cusim_wait_prior(batches_.empty() ? 0 : batches_.size() - 1, false); }
  void consumer_release() {}
  template <class Rep, class Period>
  bool consumer_wait_for(const ::std::chrono::duration<Rep, Period>&) {
    consumer_wait();
    return true;
  }
  template <class Clock, class Duration>
  bool consumer_wait_until(const ::std::chrono::time_point<Clock, Duration>&) {
    consumer_wait();
    return true;
  }

  pipeline() = default;
  /// A copy into the open batch (checked by the caller).
  void cusim_defer(void* dst, const void* src, ::std::size_t bytes) { open_.push_back({dst, src, bytes}); }
  /// Makes the copies of every committed batch but the `keep` newest (and, with `open`, the open
  /// batch's too).
  void cusim_wait_prior(::std::size_t keep, bool open) {
    while (batches_.size() > keep) {
      run(batches_.front());
      batches_.pop_front();
    }
    if (open) {
      run(open_);
      open_.clear();
    }
  }

 private:
  struct copy {
    void* dst;
    const void* src;
    ::std::size_t bytes;
  };
  CUSIM_LCX_ATOMIC_ static void run(const ::std::vector<copy>& batch) noexcept {
    for (const copy& c : batch) ::std::memmove(c.dst, c.src, c.bytes);
  }
  ::std::vector<copy> open_;
  ::std::deque<::std::vector<copy>> batches_;
};

inline pipeline<thread_scope_thread> make_pipeline() { return {}; }

/// Waits until at most `Prior` committed batches are still in flight.
template <::std::uint8_t Prior>
void pipeline_consumer_wait_prior(pipeline<thread_scope_thread>& p) {
  p.cusim_wait_prior(Prior, false);
}
/// Ties the pipeline's copies to the barrier's current phase: they are made now.
template <thread_scope Scope>
void pipeline_producer_commit(pipeline<thread_scope_thread>& p, barrier<Scope>&) {
  p.producer_commit();
  p.cusim_wait_prior(0, false);
}

namespace detail_lcx {
/// The stages' barriers of `state`, set up by the group's first thread for `producers` of the
/// group's threads (the others consume), and the group synchronised.
template <class Group, thread_scope Scope, ::std::uint8_t N>
void set_up(const Group& g, pipeline_shared_state<Scope, N>* state, ::std::ptrdiff_t producers,
            ::std::ptrdiff_t consumers, const ::cusim::detail::source_location& site) {
  if (g.thread_rank() == 0) {
    for (auto& s : state->cusim_stages_) {
      init(&s.consumed, consumers, site);
      init(&s.produced, producers, site);
    }
    state->cusim_refcount_.store(static_cast<::std::uint32_t>(g.size()), memory_order_relaxed);
  }
  g.sync();
}
}  // namespace detail_lcx

/// Every thread of `g` produces and consumes.
template <class Group, thread_scope Scope, ::std::uint8_t N>
pipeline<Scope> make_pipeline(const Group& g, pipeline_shared_state<Scope, N>* state,
                              ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  const auto n = static_cast<::std::ptrdiff_t>(g.size());
  detail_lcx::set_up(g, state, n, n, site);
  return pipeline<Scope>(state, 0);
}
/// `producers` of the threads of `g` produce, the others consume.
template <class Group, thread_scope Scope, ::std::uint8_t N>
pipeline<Scope> make_pipeline(const Group& g, pipeline_shared_state<Scope, N>* state, ::std::size_t producers,
                              ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  const auto n = static_cast<::std::ptrdiff_t>(g.size()), p = static_cast<::std::ptrdiff_t>(producers);
  detail_lcx::set_up(g, state, p, n - p, site);
  return pipeline<Scope>(state, 0);
}
/// Each thread of `g` says its role; the producers are counted first.
template <class Group, thread_scope Scope, ::std::uint8_t N>
pipeline<Scope> make_pipeline(const Group& g, pipeline_shared_state<Scope, N>* state, pipeline_role role,
                              ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  if (g.thread_rank() == 0) state->cusim_refcount_.store(0, memory_order_relaxed);
  g.sync();
  if (role == pipeline_role::producer) state->cusim_refcount_.fetch_add(1, memory_order_relaxed);
  g.sync();
  const auto n = static_cast<::std::ptrdiff_t>(g.size());
  const auto p = static_cast<::std::ptrdiff_t>(state->cusim_refcount_.load(memory_order_relaxed));
  g.sync();  // every thread has read the count before the first thread resets it
  detail_lcx::set_up(g, state, p, n - p, site);
  return pipeline<Scope>(state, role == pipeline_role::producer ? 1 : 2);
}

namespace detail_lcx {
/// The calling member's share of a copy into a thread's pipeline: checked now, made when a wait
/// covers its batch.
template <class Group, class Size>
[[gnu::always_inline]] inline async_contract_fulfillment defer(const Group& g, pipeline<thread_scope_thread>& p, void* dst,
                                                               const void* src, Size size, ::std::size_t type_align,
                                                               const ::cusim::detail::source_location& site) {
  constexpr ::std::size_t align = size_align<Size>();
  ::cusim::detail::check_alignment(dst, src, static_cast<::std::size_t>(size), align, site);
  ::std::size_t first = 0;
  const ::std::size_t n =
      ::cusim::detail::group_share(g, static_cast<::std::size_t>(size), align > type_align ? align : type_align, &first);
  if (n == 0) return async_contract_fulfillment::async;
  void* d = static_cast<char*>(dst) + first;
  const void* s = static_cast<const char*>(src) + first;
  ::cusim::detail::check_async_copy(d, s, n);
  p.cusim_defer(d, s, n);
  return async_contract_fulfillment::async;
}
}  // namespace detail_lcx

template <class Size>
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(void* dst, const void* src, Size size, pipeline<thread_scope_thread>& p,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::defer(detail_lcx::single_thread{}, p, dst, src, size, 1, site);
}
template <class T, class Size>
  requires(!::std::is_void_v<T>)
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(T* dst, const T* src, Size size, pipeline<thread_scope_thread>& p,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::defer(detail_lcx::single_thread{}, p, dst, src, size, alignof(T), site);
}
template <class Group, class Size>
  requires requires(const Group& g) { g.thread_rank(); }
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(const Group& g, void* dst, const void* src, Size size, pipeline<thread_scope_thread>& p,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::defer(g, p, dst, src, size, 1, site);
}
template <class Group, class T, class Size>
  requires(!::std::is_void_v<T>) && requires(const Group& g) { g.thread_rank(); }
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(const Group& g, T* dst, const T* src, Size size, pipeline<thread_scope_thread>& p,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::defer(g, p, dst, src, size, alignof(T), site);
}

// memcpy_async into a group's pipeline: made now, complete at the batch's commit.
template <class Size, thread_scope Scope>
  requires(Scope != thread_scope_thread)
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(void* dst, const void* src, Size size, pipeline<Scope>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(detail_lcx::single_thread{}, dst, src, size, 1, site);
}
template <class T, class Size, thread_scope Scope>
  requires(!::std::is_void_v<T> && Scope != thread_scope_thread)
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(T* dst, const T* src, Size size, pipeline<Scope>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(detail_lcx::single_thread{}, dst, src, size, alignof(T), site);
}
template <class Group, class Size, thread_scope Scope>
  requires(Scope != thread_scope_thread) && requires(const Group& g) { g.thread_rank(); }
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(const Group& g, void* dst, const void* src, Size size, pipeline<Scope>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(g, dst, src, size, 1, site);
}
template <class Group, class T, class Size, thread_scope Scope>
  requires(!::std::is_void_v<T> && Scope != thread_scope_thread) && requires(const Group& g) { g.thread_rank(); }
[[gnu::always_inline]] inline async_contract_fulfillment
memcpy_async(const Group& g, T* dst, const T* src, Size size, pipeline<Scope>&,
             ::cusim::detail::source_location site = ::cusim::detail::source_location::current()) {
  return detail_lcx::copy(g, dst, src, size, alignof(T), site);
}

}  // namespace cuda

#undef CUSIM_LCX_ATOMIC_
