// SPDX-License-Identifier: MIT
// cusim's <cuda_fp16.h>: IEEE binary16 (__half) and pairs of it (__half2), with CUDA's names.
// Conversions round as their suffix says (round-to-nearest-even by default), bit-exact; NaN
// converts to CUDA's canonical 0x7fff. Each operation rounds once, as the GPU's: a sum, product,
// quotient or square root computed in float and then rounded to half is correctly rounded (float
// has 24 >= 2 * 11 + 2 bits, so the double rounding is innocuous), and __hfma rounds the exact
// a * b + c. A product (__hmul, __hmul2, `*`) that goes straight into an addition or subtraction
// (__hadd, __hsub, __hadd2, __hsub2, `+`, `-`, `+=`, `-=`) is rounded once with it, as ptxas
// contracts NVIDIA's mul.f16 and add.f16 (instructions without a rounding modifier) into
// fma.rn.f16; the _rn forms (__hmul_rn, __hadd_rn, ...) are never contracted, as CUDA documents.
#pragma GCC system_header
#ifndef CUSIM_CUDA_FP16_H_
#define CUSIM_CUDA_FP16_H_

#include "cuda_runtime.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

namespace cusim::detail::fp16 {

enum class mode { rn, rz, rd, ru };

/// The binary16 bits of sign * m * 2^e (m > 0 an integer below 2^63), rounded in direction M.
template <mode M>
constexpr unsigned short round_to_half(bool negative, std::uint64_t m, int e) noexcept {
  const unsigned short sign = negative ? 0x8000 : 0;
  const unsigned short largest = sign | 0x7bff, infinity = sign | 0x7c00;
  // Normalise m to 2^62 <= m < 2^63: the value is m * 2^(e) with the leading bit at e + 62.
  const int lead = std::bit_width(m) - 1;
  m <<= (62 - lead);
  e -= (62 - lead);
  int exponent = e + 62;  // the value is in [2^exponent, 2^(exponent + 1))
  // A normal half keeps 11 bits from the leading one; below 2^-14 the last kept bit is 2^-24.
  int kept = exponent >= -14 ? 11 : 11 - (-14 - exponent);
  std::uint64_t q, rest, half_unit;
  if (kept <= 0) {  // below half of the smallest subnormal's unit: only rounding decides
    q = 0;
    rest = m;
    half_unit = kept == 0 ? (std::uint64_t{1} << 62) : 0;  // kept == 0: m * 2^e vs 2^-25
    if (kept < 0) half_unit = ~std::uint64_t{0};           // far below: rest < half
  } else {
    const int drop = 63 - kept;
    q = m >> drop;
    rest = m & ((std::uint64_t{1} << drop) - 1);
    half_unit = std::uint64_t{1} << (drop - 1);
  }
  bool up = false;
  if (rest != 0) {
    if constexpr (M == mode::rn)
      up = rest > half_unit || (rest == half_unit && (q & 1) != 0);
    else if constexpr (M == mode::ru)
      up = !negative;
    else if constexpr (M == mode::rd)
      up = negative;
  }
  q += up;
  if (kept <= 0 || exponent < -14) return static_cast<unsigned short>(sign | q);  // subnormal (or 0x400)
  if (q == (std::uint64_t{1} << 11)) {  // rounded up to the next power of two
    q >>= 1;
    ++exponent;
  }
  if (exponent > 15) {
    if constexpr (M == mode::rn) return infinity;
    if constexpr (M == mode::rz) return largest;
    if constexpr (M == mode::ru) return negative ? largest : infinity;
    return negative ? infinity : largest;
  }
  return static_cast<unsigned short>(sign | ((exponent + 15) << 10) | (q & 0x3ff));
}

template <mode M, class F>
unsigned short from_floating(F f) noexcept {
  if (f != f) return 0x7fff;
  const bool negative = std::signbit(f);
  if (std::isinf(f)) return negative ? 0xfc00 : 0x7c00;
  if (f == 0) return negative ? 0x8000 : 0;
  int e = 0;
  const F frac = std::frexp(negative ? -f : f, &e);  // [0.5, 1) * 2^e
  constexpr int digits = std::numeric_limits<F>::digits;
  const auto m = static_cast<std::uint64_t>(std::ldexp(frac, digits));
  return round_to_half<M>(negative, m, e - digits);
}

template <mode M, class I>
constexpr unsigned short from_integer(I i) noexcept {
  if (i == 0) return 0;
  const bool negative = i < 0;
  const std::uint64_t m = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(i) : static_cast<std::uint64_t>(i);
  if (m >> 63) return round_to_half<M>(negative, (m >> 1) | (m & 1), 1);  // the low bit only breaks ties
  return round_to_half<M>(negative, m, 0);
}

inline float to_float(unsigned short h) noexcept {
  const bool negative = (h & 0x8000) != 0;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  float v;
  if (exponent == 0x1f)
    v = mantissa ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else if (exponent == 0)
    v = std::ldexp(static_cast<float>(mantissa), -24);
  else
    v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return negative ? -v : v;
}

/// fl16(a * b + c) with one rounding: a * b is exact in double; the sum is computed with its
/// rounding error (Knuth's TwoSum), which breaks a tie the rounded sum would wrongly show.
inline unsigned short fma(float a, float b, float c) noexcept {
  const double p = static_cast<double>(a) * b, s = p + c;
  if (!std::isfinite(s)) return from_floating<mode::rn>(s);
  const double bp = s - p, err = (p - (s - bp)) + (c - bp);
  double t = s;
  if (err != 0) t = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);  // off any tie, same side
  return from_floating<mode::rn>(t);
}

}  // namespace cusim::detail::fp16

/// IEEE binary16: 1 sign bit, 5 exponent bits, 10 fraction bits.
struct alignas(2) __half {
  __half() = default;
  constexpr __half(__half_raw r) noexcept : __x(r.x) {}
  __half(float f) noexcept : __x(cusim::detail::fp16::from_floating<cusim::detail::fp16::mode::rn>(f)) {}
  __half(double f) noexcept : __x(cusim::detail::fp16::from_floating<cusim::detail::fp16::mode::rn>(f)) {}
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
  __half(I i) noexcept : __x(cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::rn>(i)) {}
  constexpr __half& operator=(__half_raw r) noexcept {
    __x = r.x;
    return *this;
  }
  constexpr operator __half_raw() const noexcept { return {__x}; }
  operator float() const noexcept { return cusim::detail::fp16::to_float(__x); }

 protected:
  unsigned short __x;
};

/// Two halves, x in the low 16 bits.
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) noexcept : x(a), y(b) {}
  constexpr __half2(__half2_raw r) noexcept : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  constexpr operator __half2_raw() const noexcept {
    return {static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
  }
};

using half = __half;
using half2 = __half2;

#define CUDART_INF_FP16 (__ushort_as_half(0x7c00U))
#define CUDART_NAN_FP16 (__ushort_as_half(0x7fffU))
#define CUDART_MIN_DENORM_FP16 (__ushort_as_half(0x0001U))
#define CUDART_MAX_NORMAL_FP16 (__ushort_as_half(0x7bffU))
#define CUDART_NEG_ZERO_FP16 (__ushort_as_half(0x8000U))
#define CUDART_ZERO_FP16 (__ushort_as_half(0x0000U))
#define CUDART_ONE_FP16 (__ushort_as_half(0x3c00U))

// Bits.
inline unsigned short __half_as_ushort(__half h) noexcept { return static_cast<__half_raw>(h).x; }
inline short __half_as_short(__half h) noexcept { return static_cast<short>(static_cast<__half_raw>(h).x); }
inline __half __ushort_as_half(unsigned short u) noexcept { return __half_raw{u}; }
inline __half __short_as_half(short s) noexcept { return __half_raw{static_cast<unsigned short>(s)}; }

// Conversions.
#define CUSIM_HALF_CONVERSIONS(suffix, M)                                                                          \
  inline __half __float2half##suffix(float v) noexcept {                                                       \
    return __half_raw{cusim::detail::fp16::from_floating<cusim::detail::fp16::mode::M>(v)};                    \
  }                                                                                                            \
  inline __half __double2half##suffix(double v) noexcept {                                                     \
    return __half_raw{cusim::detail::fp16::from_floating<cusim::detail::fp16::mode::M>(v)};                    \
  }                                                                                                            \
  inline __half __int2half##suffix(int v) noexcept {                                                           \
    return __half_raw{cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::M>(v)};                     \
  }                                                                                                            \
  inline __half __uint2half##suffix(unsigned v) noexcept {                                                     \
    return __half_raw{cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::M>(v)};                     \
  }                                                                                                            \
  inline __half __short2half##suffix(short v) noexcept {                                                       \
    return __half_raw{cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::M>(v)};                     \
  }                                                                                                            \
  inline __half __ushort2half##suffix(unsigned short v) noexcept {                                             \
    return __half_raw{cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::M>(v)};                     \
  }                                                                                                            \
  inline __half __ll2half##suffix(long long v) noexcept {                                                      \
    return __half_raw{cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::M>(v)};                     \
  }                                                                                                            \
  inline __half __ull2half##suffix(unsigned long long v) noexcept {                                            \
    return __half_raw{cusim::detail::fp16::from_integer<cusim::detail::fp16::mode::M>(v)};                     \
  }
CUSIM_HALF_CONVERSIONS(_rn, rn)
CUSIM_HALF_CONVERSIONS(_rz, rz)
CUSIM_HALF_CONVERSIONS(_rd, rd)
CUSIM_HALF_CONVERSIONS(_ru, ru)
#undef CUSIM_HALF_CONVERSIONS
inline __half __float2half(float v) noexcept { return __float2half_rn(v); }
inline __half __double2half(double v) noexcept { return __double2half_rn(v); }
inline float __half2float(__half h) noexcept { return cusim::detail::fp16::to_float(__half_as_ushort(h)); }

// Half to integer: through float (exact), then CUDA's saturating conversions (math.hpp).
#define CUSIM_HALF_TO_INTEGER(suffix)                                                                     \
  inline int __half2int##suffix(__half h) noexcept { return __float2int##suffix(__half2float(h)); }      \
  inline unsigned __half2uint##suffix(__half h) noexcept { return __float2uint##suffix(__half2float(h)); } \
  inline long long __half2ll##suffix(__half h) noexcept { return __float2ll##suffix(__half2float(h)); }  \
  inline unsigned long long __half2ull##suffix(__half h) noexcept { return __float2ull##suffix(__half2float(h)); }
CUSIM_HALF_TO_INTEGER(_rn)
CUSIM_HALF_TO_INTEGER(_rz)
CUSIM_HALF_TO_INTEGER(_rd)
CUSIM_HALF_TO_INTEGER(_ru)
#undef CUSIM_HALF_TO_INTEGER
inline short __half2short_rz(__half h) noexcept {
  const int i = __half2int_rz(h);
  return static_cast<short>(i > 32767 ? 32767 : i < -32768 ? -32768 : i);
}
inline unsigned short __half2ushort_rz(__half h) noexcept {
  const unsigned u = __half2uint_rz(h);
  return static_cast<unsigned short>(u > 65535u ? 65535u : u);
}

// Pairs.
inline __half2 __halves2half2(__half lo, __half hi) noexcept { return {lo, hi}; }
inline __half2 __half2half2(__half h) noexcept { return {h, h}; }
inline __half2 __float2half2_rn(float v) noexcept { return __half2half2(__float2half_rn(v)); }
inline __half2 __floats2half2_rn(float lo, float hi) noexcept { return {__float2half_rn(lo), __float2half_rn(hi)}; }
inline __half2 __float22half2_rn(float2 v) noexcept { return __floats2half2_rn(v.x, v.y); }
inline float2 __half22float2(__half2 h) noexcept { return {__half2float(h.x), __half2float(h.y)}; }
inline float __low2float(__half2 h) noexcept { return __half2float(h.x); }
inline float __high2float(__half2 h) noexcept { return __half2float(h.y); }
inline __half __low2half(__half2 h) noexcept { return h.x; }
inline __half __high2half(__half2 h) noexcept { return h.y; }
inline __half2 __low2half2(__half2 h) noexcept { return {h.x, h.x}; }
inline __half2 __high2half2(__half2 h) noexcept { return {h.y, h.y}; }
inline __half2 __lows2half2(__half2 a, __half2 b) noexcept { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) noexcept { return {a.y, b.y}; }
inline __half2 __lowhigh2highlow(__half2 h) noexcept { return {h.y, h.x}; }
inline __half2 make_half2(__half x, __half y) noexcept { return {x, y}; }

// Arithmetic, rounded once to nearest even.
namespace cusim::detail::fp16 {
inline __half rn(float exact_enough) noexcept { return __half_raw{from_floating<mode::rn>(exact_enough)}; }
inline __half saturate(__half h) noexcept {
  const float f = __half2float(h);
  if (f != f || f < 0) return __half(__half_raw{0});
  return f > 1 ? __half(__half_raw{0x3c00}) : h;
}
inline __half fused(__half a, __half b, __half c) noexcept {
  return __half_raw{fma(__half2float(a), __half2float(b), __half2float(c))};
}

/// What __hmul and `*` give: a __half, the product rounded once, that keeps its factors, so that
/// an addition or subtraction it goes into rounds a * b + c once, as on the GPU, where ptxas
/// contracts NVIDIA's mul.f16 and add.f16 (no rounding modifier) into fma.rn.f16 (the H100 gives
/// __hsub(__hmul(x, y), z) == fma(x, y, -z), gpu-truth/libraries.h100.txt). Any __half converts
/// to one with the factors h and 1, so `auto p = a * b; p = p + c;` compiles as with nvcc.
struct product : __half {
  __half a, b;
  product() = default;
  product(__half h) noexcept : __half(h), a(h), b(__half_raw{0x3c00}) {}
  product(__half rounded, __half x, __half y) noexcept : __half(rounded), a(x), b(y) {}
};
/// __hmul2 and `*` on pairs: each half a product.
struct product2 : __half2 {
  __half2 a, b;
  product2() = default;
  product2(__half2 h) noexcept : __half2(h), a(h), b(__half_raw{0x3c00}, __half_raw{0x3c00}) {}
  product2(__half2 rounded, __half2 x, __half2 y) noexcept : __half2(rounded), a(x), b(y) {}
};
inline __half neg(__half h) noexcept { return __half_raw{static_cast<unsigned short>(__half_as_ushort(h) ^ 0x8000u)}; }
/// (-)p + c, rounded once. A product whose value was changed since through a reference to its
/// __half (`p += c`, a store through a __half*) no longer is its factors' product: it adds as the
/// __half it holds.
inline __half contract(const product& p, bool negate, __half c) noexcept {
  const __half value = p;
  if (__half_as_ushort(value) != __half_as_ushort(rn(__half2float(p.a) * __half2float(p.b))))
    return rn((negate ? -__half2float(value) : __half2float(value)) + __half2float(c));
  return fused(negate ? neg(p.a) : p.a, p.b, c);
}
inline product low(const product2& p) noexcept { return {p.x, p.a.x, p.b.x}; }
inline product high(const product2& p) noexcept { return {p.y, p.a.y, p.b.y}; }
}  // namespace cusim::detail::fp16

inline __half __hadd(__half a, __half b) noexcept { return cusim::detail::fp16::rn(__half2float(a) + __half2float(b)); }
inline __half __hsub(__half a, __half b) noexcept { return cusim::detail::fp16::rn(__half2float(a) - __half2float(b)); }
inline cusim::detail::fp16::product __hmul(__half a, __half b) noexcept {
  return {cusim::detail::fp16::rn(__half2float(a) * __half2float(b)), a, b};
}
/// a / b as NVIDIA's __hdiv computes it, a * rcp.approx(b) in float rounded to half: with the
/// reciprocal correctly rounded this is the correctly rounded quotient for every pair of halves
/// (checked exhaustively), so the quotient in float, rounded to half, is the same.
inline __half __hdiv(__half a, __half b) noexcept { return cusim::detail::fp16::rn(__half2float(a) / __half2float(b)); }
inline __half __hfma(__half a, __half b, __half c) noexcept { return cusim::detail::fp16::fused(a, b, c); }
// Contracted: a product straight into an addition or a subtraction (the first product of two).
inline __half __hadd(cusim::detail::fp16::product p, __half c) noexcept { return cusim::detail::fp16::contract(p, false, c); }
inline __half __hadd(__half c, cusim::detail::fp16::product p) noexcept { return cusim::detail::fp16::contract(p, false, c); }
inline __half __hadd(cusim::detail::fp16::product p, cusim::detail::fp16::product q) noexcept {
  return cusim::detail::fp16::contract(p, false, q);
}
inline __half __hsub(cusim::detail::fp16::product p, __half c) noexcept {
  return cusim::detail::fp16::contract(p, false, cusim::detail::fp16::neg(c));
}
inline __half __hsub(__half c, cusim::detail::fp16::product p) noexcept { return cusim::detail::fp16::contract(p, true, c); }
inline __half __hsub(cusim::detail::fp16::product p, cusim::detail::fp16::product q) noexcept {
  return cusim::detail::fp16::contract(p, false, cusim::detail::fp16::neg(q));
}
inline __half __hadd_rn(__half a, __half b) noexcept { return __hadd(a, b); }
inline __half __hsub_rn(__half a, __half b) noexcept { return __hsub(a, b); }
inline __half __hmul_rn(__half a, __half b) noexcept { return cusim::detail::fp16::rn(__half2float(a) * __half2float(b)); }
inline __half __hadd_sat(__half a, __half b) noexcept { return cusim::detail::fp16::saturate(__hadd(a, b)); }
inline __half __hsub_sat(__half a, __half b) noexcept { return cusim::detail::fp16::saturate(__hsub(a, b)); }
inline __half __hmul_sat(__half a, __half b) noexcept { return cusim::detail::fp16::saturate(__hmul(a, b)); }
inline __half __hfma_sat(__half a, __half b, __half c) noexcept { return cusim::detail::fp16::saturate(__hfma(a, b, c)); }
inline __half __hneg(__half a) noexcept { return __ushort_as_half(__half_as_ushort(a) ^ 0x8000u); }
inline __half __habs(__half a) noexcept { return __ushort_as_half(__half_as_ushort(a) & 0x7fffu); }

// Comparisons: ordered (false with a NaN) and, with the u suffix, unordered (true with a NaN).
inline bool __hisnan(__half a) noexcept { return (__half_as_ushort(a) & 0x7fffu) > 0x7c00u; }
inline int __hisinf(__half a) noexcept {
  const unsigned short u = __half_as_ushort(a);
  return u == 0x7c00u ? 1 : u == 0xfc00u ? -1 : 0;
}
#define CUSIM_HALF_COMPARE(name, op)                                                                             \
  inline bool name(__half a, __half b) noexcept {                                                             \
    return !__hisnan(a) && !__hisnan(b) && __half2float(a) op __half2float(b);                                 \
  }                                                                                                            \
  inline bool name##u(__half a, __half b) noexcept {                                                           \
    return __hisnan(a) || __hisnan(b) || __half2float(a) op __half2float(b);                                   \
  }
CUSIM_HALF_COMPARE(__heq, ==)
CUSIM_HALF_COMPARE(__hne, !=)
CUSIM_HALF_COMPARE(__hlt, <)
CUSIM_HALF_COMPARE(__hle, <=)
CUSIM_HALF_COMPARE(__hgt, >)
CUSIM_HALF_COMPARE(__hge, >=)
#undef CUSIM_HALF_COMPARE
inline __half __hmax(__half a, __half b) noexcept {
  if (__hisnan(a)) return __hisnan(b) ? CUDART_NAN_FP16 : b;
  if (__hisnan(b)) return a;
  return __half2float(a) >= __half2float(b) ? a : b;
}
inline __half __hmin(__half a, __half b) noexcept {
  if (__hisnan(a)) return __hisnan(b) ? CUDART_NAN_FP16 : b;
  if (__hisnan(b)) return a;
  return __half2float(a) <= __half2float(b) ? a : b;
}
inline __half __hmax_nan(__half a, __half b) noexcept {
  return __hisnan(a) || __hisnan(b) ? CUDART_NAN_FP16 : __hmax(a, b);
}
inline __half __hmin_nan(__half a, __half b) noexcept {
  return __hisnan(a) || __hisnan(b) ? CUDART_NAN_FP16 : __hmin(a, b);
}

// Math functions: in float, rounded once to half.
#define CUSIM_HALF_MATH(name, expr)                                                               \
  inline __half name(__half h) noexcept {                                                       \
    const float x = __half2float(h);                                                            \
    return cusim::detail::fp16::rn(expr);                                                       \
  }
CUSIM_HALF_MATH(hsqrt, std::sqrt(x))
CUSIM_HALF_MATH(hrsqrt, 1.0f / std::sqrt(x))
CUSIM_HALF_MATH(hrcp, 1.0f / x)
CUSIM_HALF_MATH(hexp, std::exp(x))
CUSIM_HALF_MATH(hexp2, std::exp2(x))
CUSIM_HALF_MATH(hexp10, std::pow(10.0f, x))
CUSIM_HALF_MATH(hlog, std::log(x))
CUSIM_HALF_MATH(hlog2, std::log2(x))
CUSIM_HALF_MATH(hlog10, std::log10(x))
CUSIM_HALF_MATH(hsin, std::sin(x))
CUSIM_HALF_MATH(hcos, std::cos(x))
CUSIM_HALF_MATH(htanh, std::tanh(x))
CUSIM_HALF_MATH(hfloor, std::floor(x))
CUSIM_HALF_MATH(hceil, std::ceil(x))
CUSIM_HALF_MATH(htrunc, std::trunc(x))
CUSIM_HALF_MATH(hrint, std::nearbyint(x))
#undef CUSIM_HALF_MATH

// __half2: each operation on both halves.
#define CUSIM_HALF2_UNARY(name, one) \
  inline __half2 name(__half2 a) noexcept { return {one(a.x), one(a.y)}; }
#define CUSIM_HALF2_BINARY(name, one) \
  inline __half2 name(__half2 a, __half2 b) noexcept { return {one(a.x, b.x), one(a.y, b.y)}; }
CUSIM_HALF2_BINARY(__hadd2, __hadd)
CUSIM_HALF2_BINARY(__hsub2, __hsub)
CUSIM_HALF2_BINARY(__h2div, __hdiv)
CUSIM_HALF2_BINARY(__hadd2_rn, __hadd_rn)
CUSIM_HALF2_BINARY(__hsub2_rn, __hsub_rn)
CUSIM_HALF2_BINARY(__hmul2_rn, __hmul_rn)
CUSIM_HALF2_BINARY(__hadd2_sat, __hadd_sat)
CUSIM_HALF2_BINARY(__hsub2_sat, __hsub_sat)
CUSIM_HALF2_BINARY(__hmul2_sat, __hmul_sat)
CUSIM_HALF2_BINARY(__hmax2, __hmax)
CUSIM_HALF2_BINARY(__hmin2, __hmin)
CUSIM_HALF2_UNARY(__hneg2, __hneg)
CUSIM_HALF2_UNARY(__habs2, __habs)
CUSIM_HALF2_UNARY(h2sqrt, hsqrt)
CUSIM_HALF2_UNARY(h2rsqrt, hrsqrt)
CUSIM_HALF2_UNARY(h2rcp, hrcp)
CUSIM_HALF2_UNARY(h2exp, hexp)
CUSIM_HALF2_UNARY(h2exp2, hexp2)
CUSIM_HALF2_UNARY(h2log, hlog)
CUSIM_HALF2_UNARY(h2log2, hlog2)
CUSIM_HALF2_UNARY(h2sin, hsin)
CUSIM_HALF2_UNARY(h2cos, hcos)
CUSIM_HALF2_UNARY(h2floor, hfloor)
CUSIM_HALF2_UNARY(h2ceil, hceil)
CUSIM_HALF2_UNARY(h2trunc, htrunc)
CUSIM_HALF2_UNARY(h2rint, hrint)
#undef CUSIM_HALF2_UNARY
#undef CUSIM_HALF2_BINARY
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) noexcept { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline cusim::detail::fp16::product2 __hmul2(__half2 a, __half2 b) noexcept {
  return {{__hmul(a.x, b.x), __hmul(a.y, b.y)}, a, b};
}
// Contracted, as __hadd and __hsub, half by half.
#define CUSIM_HALF2_CONTRACTED(name, one, P, C)                                                                 \
  inline __half2 name(P p, C c) noexcept {                                                                   \
    using namespace cusim::detail::fp16;                                                                     \
    return {one(low(p), c.x), one(high(p), c.y)};                                                            \
  }
#define CUSIM_HALF2_CONTRACTED_R(name, one)                                                                    \
  inline __half2 name(__half2 c, cusim::detail::fp16::product2 p) noexcept {                                \
    using namespace cusim::detail::fp16;                                                                     \
    return {one(c.x, low(p)), one(c.y, high(p))};                                                            \
  }
CUSIM_HALF2_CONTRACTED(__hadd2, __hadd, cusim::detail::fp16::product2, __half2)
CUSIM_HALF2_CONTRACTED(__hsub2, __hsub, cusim::detail::fp16::product2, __half2)
CUSIM_HALF2_CONTRACTED_R(__hadd2, __hadd)
CUSIM_HALF2_CONTRACTED_R(__hsub2, __hsub)
inline __half2 __hadd2(cusim::detail::fp16::product2 p, cusim::detail::fp16::product2 q) noexcept {
  return __hadd2(p, static_cast<__half2>(q));
}
inline __half2 __hsub2(cusim::detail::fp16::product2 p, cusim::detail::fp16::product2 q) noexcept {
  return __hsub2(p, static_cast<__half2>(q));
}
#undef CUSIM_HALF2_CONTRACTED
#undef CUSIM_HALF2_CONTRACTED_R
inline __half2 __hfma2_sat(__half2 a, __half2 b, __half2 c) noexcept {
  return {__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)};
}
inline __half2 __hisnan2(__half2 a) noexcept {
  return {__ushort_as_half(__hisnan(a.x) ? 0x3c00 : 0), __ushort_as_half(__hisnan(a.y) ? 0x3c00 : 0)};
}
// __heq2 & co. give 1.0 or 0.0 per half; __hbeq2 & co. whether both halves compare true.
#define CUSIM_HALF2_COMPARE(op)                                                                                 \
  inline __half2 __h##op##2(__half2 a, __half2 b) noexcept {                                                 \
    return {__ushort_as_half(__h##op(a.x, b.x) ? 0x3c00 : 0), __ushort_as_half(__h##op(a.y, b.y) ? 0x3c00 : 0)}; \
  }                                                                                                           \
  inline bool __hb##op##2(__half2 a, __half2 b) noexcept { return __h##op(a.x, b.x) && __h##op(a.y, b.y); }
CUSIM_HALF2_COMPARE(eq)
CUSIM_HALF2_COMPARE(ne)
CUSIM_HALF2_COMPARE(lt)
CUSIM_HALF2_COMPARE(le)
CUSIM_HALF2_COMPARE(gt)
CUSIM_HALF2_COMPARE(ge)
CUSIM_HALF2_COMPARE(equ)
CUSIM_HALF2_COMPARE(neu)
CUSIM_HALF2_COMPARE(ltu)
CUSIM_HALF2_COMPARE(leu)
CUSIM_HALF2_COMPARE(gtu)
CUSIM_HALF2_COMPARE(geu)
#undef CUSIM_HALF2_COMPARE

// Operators, as CUDA defines them for C++ (through __hadd, __hmul, ...: contracted alike).
inline __half operator+(const __half& a, const __half& b) noexcept { return __hadd(a, b); }
inline __half operator-(const __half& a, const __half& b) noexcept { return __hsub(a, b); }
inline cusim::detail::fp16::product operator*(const __half& a, const __half& b) noexcept { return __hmul(a, b); }
inline __half operator/(const __half& a, const __half& b) noexcept { return __hdiv(a, b); }
inline __half& operator+=(__half& a, const __half& b) noexcept { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, const __half& b) noexcept { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, const __half& b) noexcept { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, const __half& b) noexcept { return a = __hdiv(a, b); }
// A product on either side of + and -, and a product variable updated in place (it stays one).
#define CUSIM_HALF_CONTRACTED(T, P, add, sub, mul)                                             \
  inline T operator+(const P& p, const T& c) noexcept { return add(p, c); }                     \
  inline T operator+(const T& c, const P& p) noexcept { return add(c, p); }                     \
  inline T operator+(const P& p, const P& q) noexcept { return add(p, q); }                     \
  inline T operator-(const P& p, const T& c) noexcept { return sub(p, c); }                     \
  inline T operator-(const T& c, const P& p) noexcept { return sub(c, p); }                     \
  inline T operator-(const P& p, const P& q) noexcept { return sub(p, q); }                     \
  inline T& operator+=(T& c, const P& p) noexcept { return c = add(c, p); }                      \
  inline T& operator-=(T& c, const P& p) noexcept { return c = sub(c, p); }                      \
  inline P& operator+=(P& p, const T& c) noexcept { return p = add(p, c); }                      \
  inline P& operator+=(P& p, const P& q) noexcept { return p = add(p, q); }                      \
  inline P& operator-=(P& p, const T& c) noexcept { return p = sub(p, c); }                      \
  inline P& operator-=(P& p, const P& q) noexcept { return p = sub(p, q); }                      \
  inline P& operator*=(P& p, const T& c) noexcept { return p = mul(p, c); }
CUSIM_HALF_CONTRACTED(__half, cusim::detail::fp16::product, __hadd, __hsub, __hmul)
inline __half operator+(const __half& a) noexcept { return a; }
inline __half operator-(const __half& a) noexcept { return __hneg(a); }
inline __half& operator++(__half& a) noexcept { return a = __hadd(a, __ushort_as_half(0x3c00)); }
inline __half& operator--(__half& a) noexcept { return a = __hsub(a, __ushort_as_half(0x3c00)); }
inline __half operator++(__half& a, int) noexcept {
  const __half old = a;
  ++a;
  return old;
}
inline __half operator--(__half& a, int) noexcept {
  const __half old = a;
  --a;
  return old;
}
inline bool operator==(const __half& a, const __half& b) noexcept { return __heq(a, b); }
inline bool operator!=(const __half& a, const __half& b) noexcept { return __hneu(a, b); }
inline bool operator<(const __half& a, const __half& b) noexcept { return __hlt(a, b); }
inline bool operator<=(const __half& a, const __half& b) noexcept { return __hle(a, b); }
inline bool operator>(const __half& a, const __half& b) noexcept { return __hgt(a, b); }
inline bool operator>=(const __half& a, const __half& b) noexcept { return __hge(a, b); }

inline __half2 operator+(const __half2& a, const __half2& b) noexcept { return __hadd2(a, b); }
inline __half2 operator-(const __half2& a, const __half2& b) noexcept { return __hsub2(a, b); }
inline cusim::detail::fp16::product2 operator*(const __half2& a, const __half2& b) noexcept { return __hmul2(a, b); }
inline __half2 operator/(const __half2& a, const __half2& b) noexcept { return __h2div(a, b); }
inline __half2& operator+=(__half2& a, const __half2& b) noexcept { return a = __hadd2(a, b); }
inline __half2& operator-=(__half2& a, const __half2& b) noexcept { return a = __hsub2(a, b); }
inline __half2& operator*=(__half2& a, const __half2& b) noexcept { return a = __hmul2(a, b); }
inline __half2& operator/=(__half2& a, const __half2& b) noexcept { return a = __h2div(a, b); }
inline __half2 operator-(const __half2& a) noexcept { return __hneg2(a); }
CUSIM_HALF_CONTRACTED(__half2, cusim::detail::fp16::product2, __hadd2, __hsub2, __hmul2)
#undef CUSIM_HALF_CONTRACTED
inline bool operator==(const __half2& a, const __half2& b) noexcept { return __hbeq2(a, b); }
inline bool operator!=(const __half2& a, const __half2& b) noexcept { return __hbneu2(a, b); }

// Atomics on halves (a compare-and-swap loop, with the simulator's progress accounting).
inline __half atomicAdd(__half* address, __half val) {
  return cusim::detail::atomic_update(address, [val](__half old) { return __hadd(old, val); });
}
inline __half2 atomicAdd(__half2* address, __half2 val) {
  return cusim::detail::atomic_update(address, [val](__half2 old) { return __hadd2(old, val); });
}

#endif  // CUSIM_CUDA_FP16_H_
