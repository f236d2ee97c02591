// SPDX-License-Identifier: MIT
// The simulator's atomic functions, with CUDA's semantics (atomicInc/atomicDec wrap around). An atomic
// that changes nothing counts as a poll: a thread spinning on a flag yields to the one that sets it.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>

// An unmodified program's .cu file is compiled with address instrumentation by the nvcc driver,
// which defines CUSIM_RAW_ADDRESS_CHECKS with it. There an atomic's own memory operations must not
// be instrumented (the checkers would see a load and a store, not one atomic access): on x86-64
// they are inline asm, which the instrumentation does not see (lock xadd for add and sub, xchg for
// exchange, lock cmpxchg for compare-and-swap and the loop of the others), and the address is
// tested inline as the compiler's own checks test it: aligned to its size, its shadow byte zero,
// no checker observing the block. Anything else (an address the shadow does not plainly allow, a
// misaligned one, CUSIM_CHECK=race/init, CUSIM_REPORT, CUSIM_SCHEDULE=random) calls
// check_atomic_address (raw_access.cpp), which reports the fault with thread, block and the line
// of the program's call (its return address lies in the always inlined caller, also at -O0), and
// records the access as one atomic access for the checkers. On other architectures such a file's
// atomics are out-of-line functions without the instrumentation, the address checked first by
// the same call. Code compiled without the instrumentation (cusim's own tests, a build
// with CUSIM_NVCC_UNCHECKED) uses the compiler's __atomic builtins, which ThreadSanitizer and
// AddressSanitizer builds of cusim see as atomics. (Not under AddressSanitizer builds of cusim:
// there a checked array records the element.)

namespace cusim::detail {

// CUSIM_ATOMIC_OP_: the memory operations; CUSIM_ATOMIC_FN_: everything else, always inlined.
#if defined(CUSIM_RAW_ADDRESS_CHECKS) && defined(__x86_64__)
#  define CUSIM_ATOMIC_ASM_ 1
#  define CUSIM_ATOMIC_FN_ CUSIM_RUNTIME_INLINE
#  define CUSIM_ATOMIC_OP_ CUSIM_RUNTIME_INLINE inline
#elif defined(CUSIM_RAW_ADDRESS_CHECKS)
#  define CUSIM_ATOMIC_ASM_ 0
#  define CUSIM_ATOMIC_FN_ [[gnu::always_inline]]
// Out of line: the instrumentation applies to a function with what was inlined into it.
#  define CUSIM_ATOMIC_OP_ [[gnu::no_sanitize_address, gnu::noinline]] inline
#else
#  define CUSIM_ATOMIC_ASM_ 0
#  define CUSIM_ATOMIC_FN_ [[gnu::always_inline]]
#  define CUSIM_ATOMIC_OP_ [[gnu::always_inline]] inline
#endif

/// The unsigned integer of an atomic's size: what its memory operations move.
template <std::size_t Bytes>
using atomic_word = std::conditional_t<
    Bytes == 2, std::uint16_t,
    std::conditional_t<Bytes == 4, std::uint32_t, std::conditional_t<Bytes == 8, std::uint64_t, void>>>;

// The memory operations. CUDA's atomics are relaxed (ordering comes from __threadfence), but
// the compiler moves no other access across one here ("memory"), as it moved none across the
// out-of-line call they were before: a program that passed then still passes.
template <class U>
CUSIM_ATOMIC_OP_ U word_load(U* p) noexcept {
#if CUSIM_ATOMIC_ASM_
  U v;
  asm volatile("mov %1, %0" : "=r"(v) : "m"(*p));
  return v;
#else
  return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}
/// Replaces *p with `desired` if it holds `expected` (true); else false, `expected` its value.
template <class U>
CUSIM_ATOMIC_OP_ bool word_cas(U* p, U& expected, U desired) noexcept {
#if CUSIM_ATOMIC_ASM_
  bool swapped;
  asm volatile("lock cmpxchg %3, %1" : "=@ccz"(swapped), "+m"(*p), "+a"(expected) : "r"(desired) : "memory");
  return swapped;
#else
  return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#endif
}
template <class U>
CUSIM_ATOMIC_OP_ U word_fetch_add(U* p, U v) noexcept {
#if CUSIM_ATOMIC_ASM_
  asm volatile("lock xadd %0, %1" : "+r"(v), "+m"(*p) : : "memory");
  return v;
#else
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}
template <class U>
CUSIM_ATOMIC_OP_ U word_exchange(U* p, U v) noexcept {
#if CUSIM_ATOMIC_ASM_
  asm volatile("xchg %0, %1" : "+r"(v), "+m"(*p) : : "memory");  // locked without the prefix
  return v;
#else
  return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
#endif
}

/// What an atomic does to the thread's polls: one that modified memory is progress of its block
/// (the deadlock detection of poll_yield and phases read it) and ends a run of polls; after
/// poll_yield_threshold in a row that changed nothing the thread yields. note_atomic's, with the
/// records read and written past the instrumentation (runtime_read) in a checked file.
CUSIM_ATOMIC_FN_ inline void count_atomic(bool modified) {
#if CUSIM_ATOMIC_ASM_
  sim_thread* t = runtime_read(current_thread_);  // Clang checks a thread-local variable's address
  if (t == nullptr) return;                       // an atomic on the host
  if (modified) {
    runtime_write(t->polls, std::uint16_t{0});
    block_info* b = runtime_read(t->block);
    runtime_write(b->progress, runtime_read(b->progress) + 1);
  } else {
    const auto polls = static_cast<std::uint16_t>(runtime_read(t->polls) + 1);
    if (polls >= poll_yield_threshold) {
      runtime_write(t->polls, std::uint16_t{0});
      poll_yield();
    } else {
      runtime_write(t->polls, polls);
    }
  }
#else
  note_atomic(modified);
#endif
}

/// AddressSanitizer's shadow offset on x86-64, the shadow the driver's instrumentation reads
/// (simulator/address_space.hpp's shadow_offset, which raw_access.cpp asserts equal).
inline constexpr std::uintptr_t atomic_shadow_offset = 0x7fff8000;

/// Checks and records the atomic access of `bytes` at `address` (see the top of this file).
CUSIM_ATOMIC_FN_ inline void atomic_access(void* address, [[maybe_unused]] std::size_t bytes) {
#if CUSIM_ATOMIC_ASM_
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const std::uint8_t shadow = runtime_read(*reinterpret_cast<const std::uint8_t*>((a >> 3) + atomic_shadow_offset));
  if (((a & (bytes - 1)) | shadow | static_cast<unsigned>(runtime_read(accesses_observed_))) != 0) [[unlikely]]
    check_atomic_address(address, bytes);
#elif defined(CUSIM_RAW_ADDRESS_CHECKS)
  check_atomic_address(address, bytes);
#else
  if (accesses_observed()) [[unlikely]]
    note_atomic_access(address);
#endif
}

template <class T>
using atomic_word_of = atomic_word<sizeof(T)>;

template <class T>
CUSIM_ATOMIC_FN_ inline auto atomic_bits(T v) noexcept {
  return __builtin_bit_cast(atomic_word_of<T>, v);  // std::bit_cast, also in a C++17 program
}
template <class T>
CUSIM_ATOMIC_FN_ inline T atomic_value(atomic_word_of<T> w) noexcept {
  return __builtin_bit_cast(T, w);
}
template <class T>
CUSIM_ATOMIC_FN_ inline atomic_word_of<T>* atomic_words(T* address) noexcept {
  static_assert(std::is_trivially_copyable_v<T> && !std::is_void_v<atomic_word_of<T>>,
                "an atomic of 2, 4 or 8 bytes");
  return reinterpret_cast<atomic_word_of<T>*>(address);
}

/// Applies new = f(old) atomically (a compare-and-swap loop) and returns old, the access checked
/// and recorded first. Modified compares bit patterns: a float update of +0.0 to -0.0 modifies.
template <class T, class F>
CUSIM_ATOMIC_FN_ inline T atomic_update(T* address, F f) {
  atomic_access(address, sizeof(T));
  auto* p = atomic_words(address);
  auto old = word_load(p);
  decltype(old) desired;
  do {
    desired = atomic_bits(f(atomic_value<T>(old)));
  } while (!word_cas(p, old, desired));
  count_atomic(old != desired);
  return atomic_value<T>(old);
}

/// atomicAdd and atomicSub of integers: one fetch-and-add; modifies unless `v` is 0.
template <class T>
CUSIM_ATOMIC_FN_ inline T atomic_add(T* address, T v) {
  atomic_access(address, sizeof(T));
  const T old = atomic_value<T>(word_fetch_add(atomic_words(address), atomic_bits(v)));
  count_atomic(v != 0);
  return old;
}
template <class T>
CUSIM_ATOMIC_FN_ inline T atomic_exchange(T* address, T v) {
  atomic_access(address, sizeof(T));
  const auto bits = atomic_bits(v);
  const auto old = word_exchange(atomic_words(address), bits);
  count_atomic(old != bits);
  return atomic_value<T>(old);
}
template <class T>
CUSIM_ATOMIC_FN_ inline T atomic_cas(T* address, T compare, T v) {
  atomic_access(address, sizeof(T));
  auto old = atomic_bits(compare);
  const auto bits = atomic_bits(v);
  const bool swapped = word_cas(atomic_words(address), old, bits);
  count_atomic(swapped && old != bits);
  return atomic_value<T>(old);
}

}  // namespace cusim::detail

#define CUSIM_ATOMIC(name, T, expr)                                                     \
    CUSIM_ATOMIC_FN_ inline T name(T* address, T val) {                               \
      return ::cusim::detail::atomic_update(address, [val](T old) CUSIM_RUNTIME_LAMBDA -> T { return expr; }); \
    }
#define CUSIM_ATOMIC_ADD(name, T, v)                                                    \
    CUSIM_ATOMIC_FN_ inline T name(T* address, T val) { return ::cusim::detail::atomic_add(address, v); }
#define CUSIM_ATOMIC_EXCH(T)                                                             \
    CUSIM_ATOMIC_FN_ inline T atomicExch(T* address, T val) { return ::cusim::detail::atomic_exchange(address, val); }
#define CUSIM_ATOMIC_CAS(T)                                                              \
    CUSIM_ATOMIC_FN_ inline T atomicCAS(T* address, T compare, T val) {                \
      return ::cusim::detail::atomic_cas(address, compare, val);                          \
    }

CUSIM_ATOMIC_ADD(atomicAdd, int, val)
CUSIM_ATOMIC_ADD(atomicAdd, unsigned int, val)
CUSIM_ATOMIC_ADD(atomicAdd, unsigned long long, val)
CUSIM_ATOMIC(atomicAdd, float, old + val)
CUSIM_ATOMIC(atomicAdd, double, old + val)
// Two's complement: subtracting val is adding its negation, done unsigned (no overflow).
CUSIM_ATOMIC_ADD(atomicSub, int, static_cast<int>(0u - static_cast<unsigned>(val)))
CUSIM_ATOMIC_ADD(atomicSub, unsigned int, 0u - val)
CUSIM_ATOMIC_EXCH(int)
CUSIM_ATOMIC_EXCH(unsigned int)
CUSIM_ATOMIC_EXCH(unsigned long long)
CUSIM_ATOMIC_EXCH(float)
CUSIM_ATOMIC(atomicMin, int, val < old ? val : old)
CUSIM_ATOMIC(atomicMin, unsigned int, val < old ? val : old)
CUSIM_ATOMIC(atomicMin, long long, val < old ? val : old)
CUSIM_ATOMIC(atomicMin, unsigned long long, val < old ? val : old)
CUSIM_ATOMIC(atomicMax, int, val > old ? val : old)
CUSIM_ATOMIC(atomicMax, unsigned int, val > old ? val : old)
CUSIM_ATOMIC(atomicMax, long long, val > old ? val : old)
CUSIM_ATOMIC(atomicMax, unsigned long long, val > old ? val : old)
// CUDA: ((old >= val) ? 0 : (old + 1)) and (((old == 0) || (old > val)) ? val : (old - 1)).
CUSIM_ATOMIC(atomicInc, unsigned int, old >= val ? 0u : old + 1u)
CUSIM_ATOMIC(atomicDec, unsigned int, (old == 0u || old > val) ? val : old - 1u)
CUSIM_ATOMIC(atomicAnd, int, old & val)
CUSIM_ATOMIC(atomicAnd, unsigned int, old & val)
CUSIM_ATOMIC(atomicAnd, unsigned long long, old & val)
CUSIM_ATOMIC(atomicOr, int, old | val)
CUSIM_ATOMIC(atomicOr, unsigned int, old | val)
CUSIM_ATOMIC(atomicOr, unsigned long long, old | val)
CUSIM_ATOMIC(atomicXor, int, old ^ val)
CUSIM_ATOMIC(atomicXor, unsigned int, old ^ val)
CUSIM_ATOMIC(atomicXor, unsigned long long, old ^ val)
CUSIM_ATOMIC_CAS(int)
CUSIM_ATOMIC_CAS(unsigned int)
CUSIM_ATOMIC_CAS(unsigned long long)
CUSIM_ATOMIC_CAS(unsigned short)
#undef CUSIM_ATOMIC
#undef CUSIM_ATOMIC_ADD
#undef CUSIM_ATOMIC_EXCH
#undef CUSIM_ATOMIC_CAS
#undef CUSIM_ATOMIC_ASM_
#undef CUSIM_ATOMIC_FN_
#undef CUSIM_ATOMIC_OP_
