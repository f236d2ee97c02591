// SPDX-License-Identifier: MIT
// The simulator's atomic functions, with CUDA's semantics (atomicInc/atomicDec wrap around). An atomic
// that changes nothing counts as a poll: a thread spinning on a flag yields to the one that sets it.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <atomic>
#include <cstring>

// An unmodified program's .cu file is compiled with address instrumentation by the nvcc driver,
// which defines CUSIM_RAW_ADDRESS_CHECKS with it: the atomic's own loads and compare-exchanges are
// left uninstrumented and the address is checked, and recorded for the checkers, once as one
// atomic access, by the always inlined caller: the place named is the program's call, also at
// -O0. (Not under AddressSanitizer builds of cusim: there a checked array records the element.)

namespace cusim::detail {

/// Applies new = f(old) atomically and returns old. Under address instrumentation, out of line:
/// instrumentation applies to a function with what was inlined into it.
template <class T, class F>
#if defined(CUSIM_RAW_ADDRESS_CHECKS)
[[gnu::no_sanitize_address, gnu::noinline]]
#endif
inline T atomic_apply(T* address, F f) {
  // The builtins, not std::atomic_ref, whose out-of-line members would be instrumented.
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired;
  do {
    desired = f(old);
  } while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  // Compare bit patterns: a float update of +0.0 to -0.0 still modifies memory.
  note_atomic(std::memcmp(&old, &desired, sizeof(T)) != 0);
  return old;
}

/// atomic_apply, the access checked and recorded first.
template <class T, class F>
[[gnu::always_inline]] inline T atomic_update(T* address, F f) {
#if defined(CUSIM_RAW_ADDRESS_CHECKS)
  check_atomic_address(address, sizeof(T));
#else
  if (accesses_observed()) [[unlikely]]
    note_atomic_access(address);
#endif
  return atomic_apply(address, f);
}

}  // namespace cusim::detail

#define CUSIM_ATOMIC(name, T, expr)                                                  \
    [[gnu::always_inline]] inline T name(T* address, T val) {                          \
      return ::cusim::detail::atomic_update(address, [val](T old) -> T { return expr; }); \
    }

CUSIM_ATOMIC(atomicAdd, int, old + val)
CUSIM_ATOMIC(atomicAdd, unsigned int, old + val)
CUSIM_ATOMIC(atomicAdd, unsigned long long, old + val)
CUSIM_ATOMIC(atomicAdd, float, old + val)
CUSIM_ATOMIC(atomicAdd, double, old + val)
CUSIM_ATOMIC(atomicSub, int, old - val)
CUSIM_ATOMIC(atomicSub, unsigned int, old - val)
CUSIM_ATOMIC(atomicExch, int, ((void)old, val))
CUSIM_ATOMIC(atomicExch, unsigned int, ((void)old, val))
CUSIM_ATOMIC(atomicExch, unsigned long long, ((void)old, val))
CUSIM_ATOMIC(atomicExch, float, ((void)old, val))
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
#undef CUSIM_ATOMIC

#define CUSIM_ATOMIC_CAS(T)                                                               \
    [[gnu::always_inline]] inline T atomicCAS(T* address, T compare, T val) {               \
      return ::cusim::detail::atomic_update(address,                                        \
                                            [=](T old) -> T { return old == compare ? val : old; }); \
    }
CUSIM_ATOMIC_CAS(int)
CUSIM_ATOMIC_CAS(unsigned int)
CUSIM_ATOMIC_CAS(unsigned long long)
CUSIM_ATOMIC_CAS(unsigned short)
#undef CUSIM_ATOMIC_CAS
