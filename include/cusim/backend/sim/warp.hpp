// SPDX-License-Identifier: MIT
// The simulator's warp primitives: shuffles, votes, match, reductions, __activemask.
// On the simulator the lanes named in a mask rendezvous like a warp-scope barrier: each lane
// waits until every lane of the mask has reached the same collective with the same mask, so the
// result never depends on scheduling. A lane outside its own mask, lanes of a mask waiting at
// different collectives, a lane of the mask that has exited or does not exist, and a shuffle that
// reads a lane outside the mask are tagged kernel_errors.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cusim::detail {

template <class T>
inline std::uint64_t warp_bits(const T& v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "warp collectives exchange values of at most 64 bits, as on a GPU");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T>
inline T from_warp_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
template <class T>
inline T shuffle(warp_op op, unsigned mask, const T& var, int arg, int width, const source_location& site) {
  return from_warp_bits<T>(warp_collective({op, mask, warp_bits(var), arg, width}, site).value);
}
template <class T>
inline std::uint64_t match_bits(const T& v) {
  static_assert(std::is_integral_v<T> || std::is_floating_point_v<T>, "__match_*_sync takes 32- or 64-bit values");
  return warp_bits(v);
}

}  // namespace cusim::detail

#define CUSIM_HERE cusim::detail::source_location site = cusim::detail::source_location::current()

/// The value of `var` in lane `src_lane` (modulo `width`, within the caller's segment).
template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = warpSize, CUSIM_HERE) {
  return cusim::detail::shuffle(cusim::detail::warp_op::shfl_idx, mask, var, src_lane, width, site);
}
/// The value of `var` in lane (lane - delta); a lane whose source lies before its segment keeps its own.
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize, CUSIM_HERE) {
  return cusim::detail::shuffle(cusim::detail::warp_op::shfl_up, mask, var, static_cast<int>(delta), width, site);
}
/// The value of `var` in lane (lane + delta); a lane whose source lies past its segment keeps its own.
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize, CUSIM_HERE) {
  return cusim::detail::shuffle(cusim::detail::warp_op::shfl_down, mask, var, static_cast<int>(delta), width, site);
}
/// The value of `var` in lane (lane ^ lane_mask); sources in a later segment give the caller's own.
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = warpSize, CUSIM_HERE) {
  return cusim::detail::shuffle(cusim::detail::warp_op::shfl_xor, mask, var, lane_mask, width, site);
}
/// Bit i set iff lane i of the mask passed a non-zero predicate.
inline unsigned __ballot_sync(unsigned mask, int predicate, CUSIM_HERE) {
  return static_cast<unsigned>(cusim::detail::warp_collective({cusim::detail::warp_op::ballot, mask, predicate != 0}, site).value);
}
/// Non-zero iff every lane of the mask passed a non-zero predicate.
inline int __all_sync(unsigned mask, int predicate, CUSIM_HERE) {
  return static_cast<int>(cusim::detail::warp_collective({cusim::detail::warp_op::all, mask, predicate != 0}, site).value);
}
/// Non-zero iff any lane of the mask passed a non-zero predicate.
inline int __any_sync(unsigned mask, int predicate, CUSIM_HERE) {
  return static_cast<int>(cusim::detail::warp_collective({cusim::detail::warp_op::any, mask, predicate != 0}, site).value);
}
/// The lanes of the calling warp executing this call together with the caller.
inline unsigned __activemask(CUSIM_HERE) { return cusim::detail::active_mask(site); }
/// The lanes of the mask whose `value` equals the caller's.
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, CUSIM_HERE) {
  return static_cast<unsigned>(
      cusim::detail::warp_collective({cusim::detail::warp_op::match_any, mask, cusim::detail::match_bits(value)}, site).value);
}
/// `mask` if every lane of the mask has the same `value` (and *pred = 1), else 0 (*pred = 0).
template <class T>
inline unsigned __match_all_sync(unsigned mask, T value, int* pred, CUSIM_HERE) {
  const cusim::detail::warp_result r =
      cusim::detail::warp_collective({cusim::detail::warp_op::match_all, mask, cusim::detail::match_bits(value)}, site);
  *pred = r.predicate;
  return static_cast<unsigned>(r.value);
}

#define CUSIM_WARP_REDUCE(name, type, op)                                                                            \
    inline type name(unsigned mask, type value, CUSIM_HERE) {                                                         \
      return static_cast<type>(cusim::detail::warp_collective(                                                         \
                                   {cusim::detail::warp_op::op, mask, static_cast<std::uint32_t>(value)}, site)        \
                                   .value);                                                                            \
    }
CUSIM_WARP_REDUCE(__reduce_add_sync, unsigned, reduce_add)
CUSIM_WARP_REDUCE(__reduce_add_sync, int, reduce_add)
CUSIM_WARP_REDUCE(__reduce_min_sync, unsigned, reduce_min_unsigned)
CUSIM_WARP_REDUCE(__reduce_min_sync, int, reduce_min_signed)
CUSIM_WARP_REDUCE(__reduce_max_sync, unsigned, reduce_max_unsigned)
CUSIM_WARP_REDUCE(__reduce_max_sync, int, reduce_max_signed)
CUSIM_WARP_REDUCE(__reduce_and_sync, unsigned, reduce_and)
CUSIM_WARP_REDUCE(__reduce_or_sync, unsigned, reduce_or)
CUSIM_WARP_REDUCE(__reduce_xor_sync, unsigned, reduce_xor)
#undef CUSIM_WARP_REDUCE
#undef CUSIM_HERE

namespace cusim::detail {
/// The calling thread's lane and warp (warps are formed from the linear thread index, x fastest).
inline unsigned lane_of_caller() { return linear_thread_index() % 32u; }
inline unsigned warp_of_caller() { return linear_thread_index() / 32u; }
}  // namespace cusim::detail
