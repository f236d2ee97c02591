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

namespace cusim::detail {

/// Applies new = f(old) atomically and returns old.
template <class T, class F>
inline T atomic_update(T* address, F f) {
  if (record_accesses.load(std::memory_order_relaxed)) [[unlikely]]
    note_atomic_access(address);
  std::atomic_ref<T> ref(*address);
  T old = ref.load(std::memory_order_relaxed);
  T desired;
  do {
    desired = f(old);
  } while (!ref.compare_exchange_weak(old, desired, std::memory_order_relaxed));
  // Compare bit patterns: a float update of +0.0 to -0.0 still modifies memory.
  note_atomic(std::memcmp(&old, &desired, sizeof(T)) != 0);
  return old;
}

}  // namespace cusim::detail

#define CUSIM_ATOMIC(name, T, expr)                                                  \
    inline T name(T* address, T val) {                                                 \
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
    inline T atomicCAS(T* address, T compare, T val) {                                      \
      return ::cusim::detail::atomic_update(address,                                        \
                                            [=](T old) -> T { return old == compare ? val : old; }); \
    }
CUSIM_ATOMIC_CAS(int)
CUSIM_ATOMIC_CAS(unsigned int)
CUSIM_ATOMIC_CAS(unsigned long long)
CUSIM_ATOMIC_CAS(unsigned short)
#undef CUSIM_ATOMIC_CAS
