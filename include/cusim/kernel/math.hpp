// SPDX-License-Identifier: MIT
// CUDA's math functions and integer intrinsics for the host compiler (nvcc has them built in).
#pragma once

#include <cusim/config.hpp>

#if CUSIM_BACKEND_IS_SIM()
#  include <bit>
#  include <chrono>
#  include <cmath>
#  include <cstdint>
#  include <cstring>
#  include <ctime>

// <cmath> already provides sqrtf, expf, sinf, fmaf, fminf, ... in the global namespace.

#  define CUSIM_MINMAX(T)                                              \
    inline T min(T a, T b) noexcept { return b < a ? b : a; }           \
    inline T max(T a, T b) noexcept { return a < b ? b : a; }
CUSIM_MINMAX(int)
CUSIM_MINMAX(unsigned int)
CUSIM_MINMAX(long)
CUSIM_MINMAX(unsigned long)
CUSIM_MINMAX(long long)
CUSIM_MINMAX(unsigned long long)
#  undef CUSIM_MINMAX
inline float min(float a, float b) noexcept { return std::fmin(a, b); }
inline float max(float a, float b) noexcept { return std::fmax(a, b); }
inline double min(double a, double b) noexcept { return std::fmin(a, b); }
inline double max(double a, double b) noexcept { return std::fmax(a, b); }
// CUDA's mixed signed/unsigned overloads compare as unsigned.
inline unsigned int min(int a, unsigned int b) noexcept { return min(static_cast<unsigned>(a), b); }
inline unsigned int min(unsigned int a, int b) noexcept { return min(a, static_cast<unsigned>(b)); }
inline unsigned int max(int a, unsigned int b) noexcept { return max(static_cast<unsigned>(a), b); }
inline unsigned int max(unsigned int a, int b) noexcept { return max(a, static_cast<unsigned>(b)); }
inline double min(float a, double b) noexcept { return std::fmin(a, b); }
inline double min(double a, float b) noexcept { return std::fmin(a, b); }
inline double max(float a, double b) noexcept { return std::fmax(a, b); }
inline double max(double a, float b) noexcept { return std::fmax(a, b); }

inline float rsqrtf(float x) noexcept { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) noexcept { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) noexcept { return 1.0f / std::cbrt(x); }
inline float exp10f(float x) noexcept { return std::pow(10.0f, x); }
inline void sincosf(float x, float* s, float* c) noexcept { *s = std::sin(x); *c = std::cos(x); }
inline void sincos(double x, double* s, double* c) noexcept { *s = std::sin(x); *c = std::cos(x); }
inline float sinpif(float x) noexcept { return std::sin(3.14159265358979323846f * x); }
inline float cospif(float x) noexcept { return std::cos(3.14159265358979323846f * x); }
inline float __expf(float x) noexcept { return std::exp(x); }
inline float __exp10f(float x) noexcept { return std::pow(10.0f, x); }
inline float __logf(float x) noexcept { return std::log(x); }
inline float __log2f(float x) noexcept { return std::log2(x); }
inline float __log10f(float x) noexcept { return std::log10(x); }
inline float __sinf(float x) noexcept { return std::sin(x); }
inline float __cosf(float x) noexcept { return std::cos(x); }
inline float __tanf(float x) noexcept { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) noexcept { sincosf(x, s, c); }
inline float __powf(float x, float y) noexcept { return std::pow(x, y); }
inline float __fdividef(float x, float y) noexcept { return x / y; }
inline float __saturatef(float x) noexcept { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float __fadd_rn(float a, float b) noexcept { return a + b; }
inline float __fsub_rn(float a, float b) noexcept { return a - b; }
inline float __fmul_rn(float a, float b) noexcept { return a * b; }
inline float __fdiv_rn(float a, float b) noexcept { return a / b; }
inline float __frcp_rn(float a) noexcept { return 1.0f / a; }
inline float __fsqrt_rn(float a) noexcept { return std::sqrt(a); }
inline float __fmaf_rn(float a, float b, float c) noexcept { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) noexcept { return a + b; }
inline double __dmul_rn(double a, double b) noexcept { return a * b; }
inline double __fma_rn(double a, double b, double c) noexcept { return std::fma(a, b, c); }

inline int __float2int_rn(float x) noexcept { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) noexcept { return static_cast<int>(x); }
inline int __float2int_rd(float x) noexcept { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) noexcept { return static_cast<int>(std::ceil(x)); }
inline float __int2float_rn(int x) noexcept { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) noexcept { return static_cast<float>(x); }
inline int __float_as_int(float x) noexcept { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) noexcept { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) noexcept { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) noexcept { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) noexcept { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) noexcept { return std::bit_cast<double>(x); }

inline int __popc(unsigned x) noexcept { return std::popcount(x); }
inline int __popcll(unsigned long long x) noexcept { return std::popcount(x); }
inline int __clz(int x) noexcept { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) noexcept { return std::countl_zero(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) noexcept { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) noexcept {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) noexcept {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i, x >>= 1) r = (r << 1) | (x & 1u);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) noexcept {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i, x >>= 1) r = (r << 1) | (x & 1ull);
  return r;
}
inline int __mul24(int x, int y) noexcept {
  auto s24 = [](int v) { return static_cast<int>(static_cast<unsigned>(v) << 8) >> 8; };
  return s24(x) * s24(y);
}
inline unsigned __umul24(unsigned x, unsigned y) noexcept { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) noexcept { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) noexcept {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
namespace cusim::detail {
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;
}  // namespace cusim::detail
inline long long __mul64hi(long long x, long long y) noexcept {
  return static_cast<long long>((static_cast<cusim::detail::int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) noexcept {
  return static_cast<unsigned long long>((static_cast<cusim::detail::uint128>(x) * y) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) noexcept {
  return z + static_cast<unsigned>(x > y ? x - y : y - x);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) noexcept { return z + (x > y ? x - y : y - x); }

/// Nanoseconds of a steady clock: a monotonically increasing per-thread counter, as on a GPU.
inline long long clock64() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
#endif
