// SPDX-License-Identifier: MIT
// What C++ leaves undefined and the GPU defines, in device code: a float-to-integer conversion of
// NaN or of a value out of range, a shift by the operand's width or more (or by a negative count).
// The nvcc driver rewrites these operations in the device functions of an unmodified program
// (`(int)x` -> gpu_cast<int>(x), `a << b` -> gpu_shl(a, b), ...: docs/unmodified-cuda.md); each
// gives the GPU's value and, where C++ would be undefined, reports it tagged with the thread, block
// and line (once per source line: gpu_defined.cpp) and goes on. Integer division by zero and
// INT_MIN / -1 need no rewrite: the CPU's trap is caught and given the GPU's result (the same file).
// docs/fidelity.md lists the values and where they come from.
#pragma once

#include <cusim/detail/source_location.hpp>

#include <climits>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace cusim::detail {

/// Reports a conversion C++ leaves undefined: `value` (the source, as a double) converted to an
/// integer of `bits` bits (`is_signed`) gave the GPU's `result`. Once per source line; a no-op
/// for a site already reported.
[[gnu::cold]] void report_gpu_conversion(double value, bool from_double, int bits, bool is_signed,
                                         long long result, const source_location& at) noexcept;
/// Reports a shift C++ leaves undefined: `count` applied to a `bits`-bit operand (`left` or right).
[[gnu::cold]] void report_gpu_shift(long long count, int bits, bool left, const source_location& at) noexcept;

/// The value a GPU's cvt.rzi gives for a floating x converted to the integer I (I of 32 or 64
/// bits), and whether C++ leaves that conversion undefined (NaN, or out of I's range after
/// truncation). NaN gives 0 from float to a 32-bit integer and the bit pattern 1 << (bits - 1)
/// otherwise (what the H100 answered: gpu-truth/semantics.h100.txt); values out of range
/// saturate.
template <class I, class F>
constexpr I gpu_truncate(F x, bool& undefined) noexcept {
  static_assert(std::is_floating_point_v<F> && std::is_integral_v<I>);
  using limits = std::numeric_limits<I>;
  constexpr bool narrow = sizeof(I) < 4;
  if (x != x) {  // NaN
    undefined = true;
    if constexpr (narrow || (sizeof(I) == 4 && sizeof(F) == 4)) return I(0);
    else return static_cast<I>(std::make_unsigned_t<I>(1) << (sizeof(I) * CHAR_BIT - 1));
  }
  // Bounds exact in F: lowest is 0 or -2^(n-1); past_max is 2^n or 2^(n-1).
  constexpr F lowest = static_cast<F>(limits::min());
  constexpr F past_max = static_cast<F>(limits::max() / 2 + 1) * F(2);
  // Truncation leaves [lowest, max] from just above lowest - 1 (lowest - 1 may round to lowest).
  if (x < lowest && !(x > lowest - F(1))) {
    undefined = true;
    return limits::min();
  }
  if (x >= past_max) {
    undefined = true;
    return limits::max();
  }
  return static_cast<I>(x);  // -1 < x < 0 truncates to 0, defined for unsigned too
}

/// `(To)x`, `To(x)` and `static_cast<To>(x)` in device code. A floating x converted to an integer
/// type gets the GPU's value (gpu_truncate), reported when C++ leaves it undefined; every other
/// conversion is the plain cast. The operand is taken by value (a bit-field binds to it).
template <class To, class From>
constexpr To gpu_cast(From x, source_location at = source_location::current()) noexcept(
    noexcept((To)std::declval<From&>())) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
    bool undefined = false;
    const To r = gpu_truncate<To>(x, undefined);
    if (undefined && !std::is_constant_evaluated())
      report_gpu_conversion(static_cast<double>(x), sizeof(From) > sizeof(float), int(sizeof(To) * CHAR_BIT),
                            std::is_signed_v<To>, static_cast<long long>(r), at);
    return r;
  } else {
    return (To)x;
  }
}

template <class T>
inline constexpr bool gpu_shift_operand =
    std::is_integral_v<T> || (std::is_enum_v<T> && std::is_convertible_v<T, long long>);

/// The count of a shift as the GPU takes it: the shift instructions clamp the count (as unsigned)
/// to the operand's width, so a count of the width or more, or a negative one, shifts everything
/// out. Returns the width for such a count and reports it.
template <class Count>
constexpr unsigned long long gpu_shift_count(Count b, int bits, bool left, source_location at) noexcept {
  using C = decltype(+b);
  const auto count = static_cast<long long>(+b);
  if constexpr (std::is_signed_v<C>) {
    if (count < 0) {
      if (!std::is_constant_evaluated()) report_gpu_shift(count, bits, left, at);
      return static_cast<unsigned long long>(bits);
    }
  }
  if (static_cast<unsigned long long>(+b) >= static_cast<unsigned long long>(bits)) {
    if (!std::is_constant_evaluated()) report_gpu_shift(count, bits, left, at);
    return static_cast<unsigned long long>(bits);
  }
  return static_cast<unsigned long long>(+b);
}

/// `a << b` in device code: the GPU's value for a count of the promoted operand's width or more.
template <class A, class B>
  requires(gpu_shift_operand<A> && gpu_shift_operand<B>)
constexpr auto gpu_shl(A a, B b, source_location at = source_location::current()) noexcept {
  using P = decltype(+a);
  constexpr int bits = int(sizeof(P) * CHAR_BIT);
  const unsigned long long n = gpu_shift_count(b, bits, true, at);
  if (n >= unsigned(bits)) return P(0);
  // Shifted as unsigned: a negative left operand's bits move as on the GPU (C++20 defines it too).
  return static_cast<P>(static_cast<std::make_unsigned_t<P>>(+a) << n);
}
/// `a >> b` in device code: a count of the width or more gives the sign (arithmetic) or 0.
template <class A, class B>
  requires(gpu_shift_operand<A> && gpu_shift_operand<B>)
constexpr auto gpu_shr(A a, B b, source_location at = source_location::current()) noexcept {
  using P = decltype(+a);
  constexpr int bits = int(sizeof(P) * CHAR_BIT);
  const unsigned long long n = gpu_shift_count(b, bits, false, at);
  if (n >= unsigned(bits)) return std::is_signed_v<P> && +a < 0 ? P(-1) : P(0);
  return static_cast<P>(+a >> n);
}

// Class operands (a stream, a user's type with operator<<): the plain operator.
template <class A, class B>
  requires(!(gpu_shift_operand<std::remove_cvref_t<A>> && gpu_shift_operand<std::remove_cvref_t<B>>))
constexpr decltype(auto) gpu_shl(A&& a, B&& b, source_location = source_location::current()) {
  return std::forward<A>(a) << std::forward<B>(b);
}
template <class A, class B>
  requires(!(gpu_shift_operand<std::remove_cvref_t<A>> && gpu_shift_operand<std::remove_cvref_t<B>>))
constexpr decltype(auto) gpu_shr(A&& a, B&& b, source_location = source_location::current()) {
  return std::forward<A>(a) >> std::forward<B>(b);
}

/// `a <<= b` and `a >>= b` in device code.
template <class A, class B>
constexpr A& gpu_shl_assign(A& a, B b, source_location at = source_location::current()) {
  if constexpr (gpu_shift_operand<A> && gpu_shift_operand<B>) {
    a = static_cast<A>(gpu_shl(a, b, at));
  } else {
    a <<= b;
  }
  return a;
}
template <class A, class B>
constexpr A& gpu_shr_assign(A& a, B b, source_location at = source_location::current()) {
  if constexpr (gpu_shift_operand<A> && gpu_shift_operand<B>) {
    a = static_cast<A>(gpu_shr(a, b, at));
  } else {
    a >>= b;
  }
  return a;
}

}  // namespace cusim::detail
