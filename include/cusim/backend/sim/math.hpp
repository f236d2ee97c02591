// SPDX-License-Identifier: MIT
// The simulator's CUDA math functions and intrinsics, with the GPU's semantics where C++'s differ
// (saturating float-to-integer conversions, __fdividef's range, __powf, exact directed rounding).
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/gpu_defined.hpp>
#include <cusim/backend/sim/simd_video.hpp>
#include <cusim/backend/sim/vector_types.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <numbers>
#include <type_traits>

// <cmath> already provides sqrtf, expf, sinf, fmaf, fminf, j0f, ... in the global namespace.
// CUDA also overloads the standard names for float (sqrt(float) is a float) and declares the
// classification functions there, so `isnan(x)` works unqualified in a kernel; libstdc++'s
// <math.h> makes exactly these using-declarations.
using std::abs;
using std::acos;
using std::acosh;
using std::asin;
using std::asinh;
using std::atan;
using std::atan2;
using std::atanh;
using std::cbrt;
using std::ceil;
using std::copysign;
using std::cos;
using std::cosh;
using std::erf;
using std::erfc;
using std::exp;
using std::exp2;
using std::expm1;
using std::fabs;
using std::fdim;
using std::floor;
using std::fma;
using std::fmax;
using std::fmin;
using std::fmod;
using std::frexp;
using std::hypot;
using std::ilogb;
using std::ldexp;
using std::lgamma;
using std::llrint;
using std::llround;
using std::log;
using std::log10;
using std::log1p;
using std::log2;
using std::logb;
using std::lrint;
using std::lround;
using std::modf;
using std::nearbyint;
using std::nextafter;
using std::pow;
using std::remainder;
using std::remquo;
using std::rint;
using std::round;
using std::scalbln;
using std::scalbn;
using std::sin;
using std::sinh;
using std::sqrt;
using std::tan;
using std::tanh;
using std::tgamma;
using std::trunc;
using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;

namespace cusim::detail {
__extension__ typedef __int128 int128;
__extension__ typedef unsigned __int128 uint128;

/// IEEE rounding directions, as the _rn/_rz/_rd/_ru suffixes of CUDA's intrinsics name them.
enum class rounding { rn, rz, rd, ru };

/// x rounded to an integral value of its own type in direction M (ties to even for rn), without
/// reading the FP environment's rounding mode as rint/nearbyint would.
template <rounding M, class T>
T round_integral(T x) noexcept {
  if constexpr (M == rounding::rz) return std::trunc(x);
  if constexpr (M == rounding::rd) return std::floor(x);
  if constexpr (M == rounding::ru) return std::ceil(x);
  T f = std::floor(x);
  T frac = x - f;  // exact
  if (frac > T(0.5) || (frac == T(0.5) && std::fmod(f, T(2)) != 0)) f += 1;
  return f;
}

/// x converted to the integer I after rounding in direction M, the way the GPU's cvt converts: a
/// value beyond I's range gives I's maximum or minimum, NaN gives what gpu_truncate says (0 from
/// float to 32 bits, 1 << (bits - 1) otherwise: the H100's answers). A C++ cast is undefined there.
template <class I, rounding M, class F>
I to_integer(F x) noexcept {
  bool undefined = false;
  return gpu_truncate<I>(std::isnan(x) ? x : round_integral<M>(x), undefined);
}

/// A real number held exactly as sign * mag * 2^exp (sign 0 for zero): products of two floats
/// or doubles and the integers of the conversions fit, so rounding questions are answered in
/// integer arithmetic, independent of the FP environment, of FMA contraction and of underflow.
struct exact_real {
  int sign = 0;
  uint128 mag = 0;
  int exp = 0;
};

template <class T>
exact_real exact(T x) noexcept {  // x finite
  if (x == 0) return {};
  int e = 0;
  T m = std::frexp(std::fabs(x), &e);  // [0.5, 1) * 2^e; subnormals come back normalised
  constexpr int p = std::numeric_limits<T>::digits;
  return {x < 0 ? -1 : 1, static_cast<std::uint64_t>(std::ldexp(m, p)), e - p};
}
template <class I>
exact_real exact_integer(I x) noexcept {
  auto u = static_cast<std::make_unsigned_t<I>>(x);
  if constexpr (std::is_signed_v<I>)
    if (x < 0) return {-1, static_cast<std::make_unsigned_t<I>>(0u - u), 0};
  return {x == 0 ? 0 : 1, u, 0};
}
inline exact_real operator-(exact_real a) noexcept { return {-a.sign, a.mag, a.exp}; }
inline exact_real operator*(exact_real a, exact_real b) noexcept {
  return {a.sign * b.sign, a.mag * b.mag, a.exp + b.exp};
}
/// Position of the leading bit.
inline int top_bit(const exact_real& a) noexcept {
  auto hi = static_cast<std::uint64_t>(a.mag >> 64);
  int width = hi ? 64 + std::bit_width(hi) : std::bit_width(static_cast<std::uint64_t>(a.mag));
  return a.exp + width - 1;
}
/// a + b exactly, for terms whose leading bits are at most a few positions apart.
inline exact_real add_close(exact_real a, exact_real b) noexcept {
  if (a.sign == 0) return b;
  if (b.sign == 0) return a;
  int e = std::min(a.exp, b.exp);
  uint128 ma = a.mag << (a.exp - e), mb = b.mag << (b.exp - e);
  if (a.sign == b.sign) return {a.sign, ma + mb, e};
  if (ma == mb) return {};
  return ma > mb ? exact_real{a.sign, ma - mb, e} : exact_real{b.sign, mb - ma, e};
}
/// The sign of the exact sum of up to four terms below 2^107. The largest term decides alone when
/// it leads the next one by 3 bits (the others then add up to less than it); otherwise the two
/// largest are added, which keeps every intermediate within 128 bits.
template <class... E>
int sum_sign(E... terms) noexcept {
  static_assert(sizeof...(E) <= 4);
  std::array<exact_real, sizeof...(E)> t{terms...};
  for (;;) {
    int first = -1, second = -1;
    for (int i = 0; i < static_cast<int>(t.size()); ++i) {
      if (t[i].sign == 0) continue;
      if (first < 0 || top_bit(t[i]) > top_bit(t[first])) second = first, first = i;
      else if (second < 0 || top_bit(t[i]) > top_bit(t[second])) second = i;
    }
    if (first < 0) return 0;
    if (second < 0 || top_bit(t[first]) >= top_bit(t[second]) + 3) return t[first].sign;
    t[first] = add_close(t[first], t[second]);
    t[second] = {};
  }
}

/// sign(exact - r) for the round-to-nearest result r of an operation whose exact result is
/// finite when `exact_finite`; `finite_case` computes it when r is finite too.
template <class T, class F>
int residual_sign(T r, bool exact_finite, F finite_case) noexcept {
  if (std::isnan(r) || !exact_finite) return 0;  // NaN, or an exact infinity / zero
  if (std::isinf(r)) return r > 0 ? -1 : 1;      // overflowed: the exact value is below it
  return finite_case();
}

/// The result rounded in direction M, from r = the result rounded to nearest and s = sign(exact - r):
/// the exact value lies between r and its neighbour on the side s, so at most one step is needed.
template <rounding M, class T>
T directed(T r, int s) noexcept {
  constexpr T inf = std::numeric_limits<T>::infinity();
  if (M == rounding::rn || s == 0) return r;
  bool exact_negative = r != 0 ? r < 0 : s < 0;
  bool up = M == rounding::ru || (M == rounding::rz && exact_negative);
  if (up) return s > 0 ? std::nextafter(r, inf) : r;
  return s < 0 ? std::nextafter(r, -inf) : r;
}

/// An exactly zero sum is +0 in every direction but rd, where it is -0 unless both addends are +0.
template <rounding M, class T>
T exact_zero_sum(T r, bool first_negative, T second) noexcept {
  if (M != rounding::rd || r != 0) return r;
  return (!first_negative && !std::signbit(second)) ? T(0) : -T(0);
}

template <rounding M, class T>
T add(T a, T b) noexcept {
  T r = a + b;
  if constexpr (M == rounding::rn) return r;
  int s = residual_sign(r, std::isfinite(a) && std::isfinite(b),
                        [&] { return sum_sign(exact(a), exact(b), -exact(r)); });
  if (s == 0) return exact_zero_sum<M>(r, std::signbit(a), b);
  return directed<M>(r, s);
}
template <rounding M, class T>
T mul(T a, T b) noexcept {
  T r = a * b;
  if constexpr (M == rounding::rn) return r;
  return directed<M>(r, residual_sign(r, std::isfinite(a) && std::isfinite(b),
                                      [&] { return sum_sign(exact(a) * exact(b), -exact(r)); }));
}
template <rounding M, class T>
T div(T a, T b) noexcept {
  T r = a / b;
  if constexpr (M == rounding::rn) return r;
  // sign(a / b - r) = sign(b) * sign(a - r * b)
  return directed<M>(r, residual_sign(r, std::isfinite(a) && std::isfinite(b) && b != 0, [&] {
                       return (b < 0 ? -1 : 1) * sum_sign(exact(a), -(exact(r) * exact(b)));
                     }));
}
template <rounding M, class T>
T sqrt(T a) noexcept {
  T r = std::sqrt(a);
  if constexpr (M == rounding::rn) return r;
  return directed<M>(r, residual_sign(r, std::isfinite(a),
                                      [&] { return sum_sign(exact(a), -(exact(r) * exact(r))); }));
}
template <rounding M, class T>
T fma(T a, T b, T c) noexcept {
  T r = std::fma(a, b, c);
  if constexpr (M == rounding::rn) return r;
  int s = residual_sign(r, std::isfinite(a) && std::isfinite(b) && std::isfinite(c), [&] {
    return sum_sign(exact(a) * exact(b), exact(c), -exact(r));
  });
  // An exact zero: the product is +0 only when a zero factor meets one of the same sign.
  if (s == 0) return exact_zero_sum<M>(r, std::signbit(a) != std::signbit(b) || (a != 0 && b != 0), c);
  return directed<M>(r, s);
}
template <class F, rounding M, class I>
F from_integer(I x) noexcept {
  F r = static_cast<F>(x);
  return directed<M>(r, sum_sign(exact_integer(x), -exact(r)));
}
template <rounding M>
float narrow(double x) noexcept {
  float r = static_cast<float>(x);
  return directed<M>(r, (x > static_cast<double>(r)) - (x < static_cast<double>(r)));
}

/// 1/sqrt(x) correctly rounded: the double estimate is at most one step off; each midpoint m
/// between neighbours is checked exactly against the root, which lies above m iff m*m*x < 1.
inline float rsqrt_rn(float x) noexcept {
  float r = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
  if (!(x > 0) || !std::isfinite(x)) return r;  // NaN, +-inf, 0 and negative x: no rounding
  constexpr float inf = std::numeric_limits<float>::infinity();
  auto above = [x](float lo, float hi) {  // is 1/sqrt(x) above the midpoint of lo and hi?
    exact_real m = add_close(exact(lo), exact(hi));
    m.exp -= 1;
    return sum_sign(exact_real{1, 1, 0}, -(m * m * exact(x))) > 0;
  };
  while (above(r, std::nextafter(r, inf))) r = std::nextafter(r, inf);
  while (!above(std::nextafter(r, 0.0f), r)) r = std::nextafter(r, 0.0f);
  return r;
}

/// sin(pi f) and cos(pi f) for |f| <= 1/4; pi f is formed from pi in two parts, so that it is
/// accurate to the last bit of a double.
inline double sin_pi_reduced(double f) noexcept {
  constexpr double pi_lo = 1.2246467991473532e-16;  // pi - std::numbers::pi
  return std::sin(std::fma(std::numbers::pi, f, pi_lo * f));
}
inline double cos_pi_reduced(double f) noexcept {
  constexpr double pi_lo = 1.2246467991473532e-16;
  return std::cos(std::fma(std::numbers::pi, f, pi_lo * f));
}
/// sin(pi x) (want_sin) or cos(pi x) with exact argument reduction, so integers and half-integers
/// give exact zeros and ones: sinpi(n) is a zero with the sign of n, cospi(n + 1/2) is +0.
template <class T>
T sin_cos_pi(T x, bool want_sin) noexcept {
  if (!std::isfinite(x)) return x - x;  // NaN
  constexpr T big = T(2) * static_cast<T>(std::uint64_t{1} << std::numeric_limits<T>::digits);
  if (std::fabs(x) >= big) return want_sin ? x * T(0) : T(1);  // an even integer
  T k = round_integral<rounding::rn>(x * 2);
  T f = x - k / 2;  // exact, |f| <= 1/4
  int quadrant = (static_cast<int>(std::fmod(k, T(4))) + 4) % 4;
  auto s = static_cast<T>(sin_pi_reduced(f)), c = static_cast<T>(cos_pi_reduced(f));
  if (!want_sin) quadrant = (quadrant + 1) % 4;  // cos(pi x) = sin(pi x + pi/2)
  T r = quadrant == 0 ? s : quadrant == 1 ? c : quadrant == 2 ? -s : -c;
  if (r == 0) return want_sin ? x * T(0) : T(0);
  return r;
}

/// erfc(x) * exp(x^2) without the overflow and underflow of the two factors.
inline double erfcx(double x) noexcept {
  if (std::isnan(x)) return x;
  if (x < 25.0) {
    if (x < -26.7) return std::numeric_limits<double>::infinity();
    double h = x * x, l = std::fma(x, x, -h);  // x^2 = h + l exactly
    return std::exp(h) * (1.0 + l) * std::erfc(x);
  }
  // Asymptotic series 1/(x sqrt(pi)) * sum (-1)^n (2n-1)!! / (2x^2)^n; at x >= 25 it converges fast.
  double u = 0.5 / x / x, term = 1.0, sum = 1.0;
  for (int n = 1; n < 30 && std::fabs(term) > 1e-18; ++n) sum += (term *= -(2 * n - 1) * u);
  return sum / (x * std::sqrt(std::numbers::pi));
}

/// erfinv(x) for |x| < 1 (is_complement false) or erfcinv(z) for 0 < z < 1 (true), as a positive
/// y: Winitzki's approximation, then Halley steps on erf(y) - x or erfc(y) - z.
inline double erf_inverse(double v, bool is_complement) noexcept {
  double one_minus_x2 = is_complement ? v * (2.0 - v) : (1.0 - v) * (1.0 + v);
  double l = is_complement ? std::log(one_minus_x2) : std::log1p(-v * v);
  constexpr double a = 0.147;
  double t = 2.0 / (std::numbers::pi * a) + l / 2.0;
  double y = std::sqrt(std::sqrt(t * t - l / a) - t);
  if (!is_complement && v < 1e-4) y = v * std::sqrt(std::numbers::pi) / 2.0;
  if (is_complement && v < 1e-300) {
    // erfc(y) is (nearly) subnormal here: Newton on log(erfc(y)) = log(erfcx(y)) - y^2 = log(z)
    // instead, with y^2 = h + l exact and h + log(z) exact (the two nearly cancel).
    double log_z = std::log(v);
    for (int i = 0; i < 8; ++i) {
      double h = y * y, l = std::fma(y, y, -h), scaled = erfcx(y);
      double g = std::log(scaled) - ((h + log_z) + l);
      double next = y + g * scaled * std::sqrt(std::numbers::pi) / 2.0;  // (log erfc)' = -2/sqrt(pi)/erfcx
      if (next == y) break;
      y = next;
    }
    return y;
  }
  for (int i = 0; i < 8; ++i) {
    double d = 2.0 / std::sqrt(std::numbers::pi) * std::exp(-y * y);  // erf'(y)
    if (d == 0) break;
    double step = is_complement ? (v - std::erfc(y)) / d : (std::erf(y) - v) / d;
    double next = y - step / (1.0 + y * step);  // erf'' = -2 y erf'
    if (next == y) break;
    y = next;
  }
  return y;
}
inline double erfinv(double x) noexcept {
  if (std::isnan(x) || std::fabs(x) > 1) return std::numeric_limits<double>::quiet_NaN();
  if (std::fabs(x) == 1) return std::copysign(std::numeric_limits<double>::infinity(), x);
  if (x == 0) return x;
  double ax = std::fabs(x);
  double y = ax > 0.5 ? erf_inverse(1.0 - ax, true) : erf_inverse(ax, false);
  return std::copysign(y, x);
}
inline double erfcinv(double z) noexcept {
  if (std::isnan(z) || z < 0 || z > 2) return std::numeric_limits<double>::quiet_NaN();
  if (z == 0) return std::numeric_limits<double>::infinity();
  if (z == 2) return -std::numeric_limits<double>::infinity();
  if (z == 1) return 0.0;
  if (z > 1) return -erfcinv(2.0 - z);  // 2 - z is exact
  return z >= 0.5 ? erf_inverse(1.0 - z, false) : erf_inverse(z, true);
}

/// The standard normal CDF 0.5 erfc(-x/sqrt(2)); -x/sqrt(2) is carried as t + dt, since erfc's
/// steep tail would magnify the rounding of t: erfc(t + dt) = erfc(t) (1 - dt 2/sqrt(pi) / erfcx(t)).
inline double normcdf(double x) noexcept {
  if (std::isnan(x)) return x;
  constexpr double c = 0.70710678118654757, c_lo = -4.833646656726457e-17;  // 1/sqrt(2) = c + c_lo
  double t = -x * c;
  double dt = std::fma(-x, c, -t) - x * c_lo;
  double r = 0.5 * std::erfc(t);
  if (r != 0 && std::isfinite(t)) r *= 1.0 - dt * (2.0 / std::sqrt(std::numbers::pi)) / erfcx(t);
  return r;
}
inline double normcdfinv(double p) noexcept {
  double r = -std::numbers::sqrt2 * erfcinv(2.0 * p);
  return r == 0 ? 0.0 : r;  // +0 at p = 1/2
}

/// Modified Bessel function I0 (order 0) or I1, x >= 0: power series up to 20, then the
/// asymptotic series e^x / sqrt(2 pi x) * sum_k prod_j (4 nu^2 - (2j-1)^2) / (k! (-8x)^k).
inline double bessel_i(int order, double x) noexcept {
  if (std::isnan(x)) return x;
  if (std::isinf(x)) return x;
  if (x <= 20.0) {
    double q = x * x / 4.0, term = order == 0 ? 1.0 : x / 2.0, sum = term;
    for (int k = 1; k < 200 && term > sum * 1e-18; ++k) sum += (term *= q / (k * (k + order)));
    return sum;
  }
  double mu = 4.0 * order * order, term = 1.0, sum = 1.0;
  for (int k = 1; k < 60; ++k) {
    double next = term * -(mu - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * x);
    if (std::fabs(next) >= std::fabs(term)) break;  // the series has started to diverge
    sum += (term = next);
    if (std::fabs(term) < 1e-18) break;
  }
  double half = std::exp(x / 2);  // e^x would overflow before the result does
  return half * (half / std::sqrt(2.0 * std::numbers::pi * x)) * sum;
}

/// The Euclidean length of n coordinates without undue overflow or underflow: +inf when one
/// is infinite (even beside a NaN), NaN when one is NaN, +0 when all are zero. Floats are summed
/// in double; doubles are scaled by a power of two first.
template <class T>
T norm(int n, const T* p) noexcept {
  T largest = 0;
  bool has_nan = false;
  for (int i = 0; i < n; ++i) {
    if (std::isinf(p[i])) return std::numeric_limits<T>::infinity();
    if (std::isnan(p[i])) has_nan = true;
    else largest = std::max(largest, std::fabs(p[i]));
  }
  if (has_nan) return std::numeric_limits<T>::quiet_NaN();
  if (largest == 0) return 0;
  int e = std::is_same_v<T, float> ? 0 : std::ilogb(largest);
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    double v = std::ldexp(static_cast<double>(p[i]), -e);
    sum += v * v;
  }
  return static_cast<T>(std::ldexp(std::sqrt(sum), e));
}

/// sign-extended 16-bit halves and 8-bit bytes, or their unsigned counterparts.
template <class I>
I half_of(std::uint32_t v, int i) noexcept {
  auto h = static_cast<std::uint16_t>(v >> (16 * i));
  if constexpr (std::is_signed_v<I>) return static_cast<std::int16_t>(h);
  return h;
}
template <class I>
I byte_of(std::uint32_t v, int i) noexcept {
  auto b = static_cast<std::uint8_t>(v >> (8 * i));
  if constexpr (std::is_signed_v<I>) return static_cast<std::int8_t>(b);
  return b;
}
/// __dp4a: c + the four products of corresponding bytes, wrapping like 32-bit integer arithmetic.
template <class I>
I dp4a(std::uint32_t a, std::uint32_t b, I c) noexcept {
  auto sum = static_cast<std::uint32_t>(c);
  for (int i = 0; i < 4; ++i)
    sum += static_cast<std::uint32_t>(static_cast<std::int64_t>(byte_of<I>(a, i)) * byte_of<I>(b, i));
  return static_cast<I>(sum);
}
/// __dp2a_lo/_hi: c + a's two 16-bit halves times two bytes of b (bytes 0, 1 or 2, 3).
template <class I>
I dp2a(std::uint32_t a, std::uint32_t b, I c, int first_byte) noexcept {
  auto sum = static_cast<std::uint32_t>(c);
  for (int i = 0; i < 2; ++i)
    sum += static_cast<std::uint32_t>(static_cast<std::int64_t>(half_of<I>(a, i)) * byte_of<I>(b, first_byte + i));
  return static_cast<I>(sum);
}
template <class V>
std::uint32_t pack_bytes(V v) noexcept {
  return static_cast<std::uint8_t>(v.x) | static_cast<std::uint8_t>(v.y) << 8 |
         static_cast<std::uint8_t>(v.z) << 16 | static_cast<std::uint32_t>(static_cast<std::uint8_t>(v.w)) << 24;
}
template <class V>
std::uint32_t pack_halves(V v) noexcept {
  return static_cast<std::uint16_t>(v.x) | static_cast<std::uint32_t>(static_cast<std::uint16_t>(v.y)) << 16;
}
}  // namespace cusim::detail

// ---------------------------------------------------------------------------------------------
// Integer functions

#define CUSIM_MINMAX(T)                                              \
    inline T min(T a, T b) noexcept { return b < a ? b : a; }           \
    inline T max(T a, T b) noexcept { return a < b ? b : a; }
CUSIM_MINMAX(int)
CUSIM_MINMAX(unsigned int)
CUSIM_MINMAX(long)
CUSIM_MINMAX(unsigned long)
CUSIM_MINMAX(long long)
CUSIM_MINMAX(unsigned long long)
#undef CUSIM_MINMAX
inline float min(float a, float b) noexcept { return std::fmin(a, b); }
inline float max(float a, float b) noexcept { return std::fmax(a, b); }
inline double min(double a, double b) noexcept { return std::fmin(a, b); }
inline double max(double a, double b) noexcept { return std::fmax(a, b); }
// CUDA's mixed signed/unsigned overloads compare as unsigned.
#define CUSIM_MIXED_MINMAX(S, U)                                                               \
    inline U min(S a, U b) noexcept { return min(static_cast<U>(a), b); }                       \
    inline U min(U a, S b) noexcept { return min(a, static_cast<U>(b)); }                       \
    inline U max(S a, U b) noexcept { return max(static_cast<U>(a), b); }                       \
    inline U max(U a, S b) noexcept { return max(a, static_cast<U>(b)); }
CUSIM_MIXED_MINMAX(int, unsigned int)
CUSIM_MIXED_MINMAX(long, unsigned long)
CUSIM_MIXED_MINMAX(long long, unsigned long long)
#undef CUSIM_MIXED_MINMAX
inline double min(float a, double b) noexcept { return std::fmin(a, b); }
inline double min(double a, float b) noexcept { return std::fmin(a, b); }
inline double max(float a, double b) noexcept { return std::fmax(a, b); }
inline double max(double a, float b) noexcept { return std::fmax(a, b); }
inline unsigned int umin(unsigned int a, unsigned int b) noexcept { return min(a, b); }
inline unsigned int umax(unsigned int a, unsigned int b) noexcept { return max(a, b); }
inline long long llmin(long long a, long long b) noexcept { return min(a, b); }
inline long long llmax(long long a, long long b) noexcept { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) noexcept { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) noexcept { return max(a, b); }

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
/// The low 32 bits of the product of the sign-extended low 24 bits of x and y.
inline int __mul24(int x, int y) noexcept {
  auto s24 = [](int v) { return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 8) >> 8); };
  return static_cast<int>(static_cast<std::uint32_t>(s24(x) * s24(y)));
}
inline unsigned __umul24(unsigned x, unsigned y) noexcept { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) noexcept { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) noexcept {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) noexcept {
  return static_cast<long long>((static_cast<cusim::detail::int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) noexcept {
  return static_cast<unsigned long long>((static_cast<cusim::detail::uint128>(x) * y) >> 64);
}
/// |x - y| + z, modulo 2^32.
inline unsigned __sad(int x, int y, unsigned z) noexcept {
  auto ux = static_cast<unsigned>(x), uy = static_cast<unsigned>(y);
  return z + (x > y ? ux - uy : uy - ux);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) noexcept { return z + (x > y ? x - y : y - x); }
/// Averages without overflow in the sum: (x + y) >> 1 and, rounded up, (x + y + 1) >> 1.
inline int __hadd(int x, int y) noexcept { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) noexcept { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned __uhadd(unsigned x, unsigned y) noexcept {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) noexcept {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
/// Byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x (x holds bytes 0-3).
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) noexcept {
  unsigned long long source = static_cast<unsigned long long>(y) << 32 | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((source >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
  return r;
}
/// The high (l) or low (r) 32 bits of hi:lo shifted by shift & 31 (the c forms: by min(shift, 32)).
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) noexcept {
  return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32 | lo) << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) noexcept {
  return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32 | lo) << std::min(shift, 32u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) noexcept {
  return static_cast<unsigned>((static_cast<unsigned long long>(hi) << 32 | lo) >> (shift & 31u));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) noexcept {
  return static_cast<unsigned>((static_cast<unsigned long long>(hi) << 32 | lo) >> std::min(shift, 32u));
}
/// The position of the offset-th set bit of mask counting from bit base (up for offset > 0, down
/// for offset < 0; offset 0: base itself if set), or 0xffffffff: PTX fns.
inline unsigned __fns(unsigned mask, unsigned base, int offset) noexcept {
  if (offset == 0) return (mask >> (base & 31u)) & 1u ? base : 0xffffffffu;
  int step = offset > 0 ? 1 : -1;
  long long remaining = offset > 0 ? offset : -static_cast<long long>(offset);
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step)
    if ((mask >> pos) & 1u && --remaining == 0) return static_cast<unsigned>(pos);
  return 0xffffffffu;
}
inline int __dp4a(int a, int b, int c) noexcept {
  return cusim::detail::dp4a(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), c);
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) noexcept { return cusim::detail::dp4a(a, b, c); }
inline int __dp4a(char4 a, char4 b, int c) noexcept {
  return cusim::detail::dp4a(cusim::detail::pack_bytes(a), cusim::detail::pack_bytes(b), c);
}
inline unsigned __dp4a(uchar4 a, uchar4 b, unsigned c) noexcept {
  return cusim::detail::dp4a(cusim::detail::pack_bytes(a), cusim::detail::pack_bytes(b), c);
}
#define CUSIM_DP2A(suffix, first_byte)                                                              \
    inline int __dp2a_##suffix(int a, int b, int c) noexcept {                                       \
      return cusim::detail::dp2a(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b), c,    \
                                 first_byte);                                                        \
    }                                                                                                \
    inline unsigned __dp2a_##suffix(unsigned a, unsigned b, unsigned c) noexcept {                   \
      return cusim::detail::dp2a(a, b, c, first_byte);                                               \
    }                                                                                                \
    inline int __dp2a_##suffix(short2 a, char4 b, int c) noexcept {                                  \
      return cusim::detail::dp2a(cusim::detail::pack_halves(a), cusim::detail::pack_bytes(b), c,    \
                                 first_byte);                                                        \
    }                                                                                                \
    inline unsigned __dp2a_##suffix(ushort2 a, uchar4 b, unsigned c) noexcept {                      \
      return cusim::detail::dp2a(cusim::detail::pack_halves(a), cusim::detail::pack_bytes(b), c,    \
                                 first_byte);                                                        \
    }
CUSIM_DP2A(lo, 0)
CUSIM_DP2A(hi, 2)
#undef CUSIM_DP2A

// ---------------------------------------------------------------------------------------------
// Conversions and reinterpretations

// __float2int_rn ... __double2ull_ru: rounded as suffixed, saturated and NaN -> 0 like PTX cvt.
#define CUSIM_TO_INTEGER_MODE(from, F, to, I, mode)                                                \
    inline I __##from##2##to##_##mode(F x) noexcept {                                                \
      return cusim::detail::to_integer<I, cusim::detail::rounding::mode>(x);                         \
    }
#define CUSIM_TO_INTEGER(from, F, to, I)        \
    CUSIM_TO_INTEGER_MODE(from, F, to, I, rn)     \
    CUSIM_TO_INTEGER_MODE(from, F, to, I, rz)     \
    CUSIM_TO_INTEGER_MODE(from, F, to, I, rd)     \
    CUSIM_TO_INTEGER_MODE(from, F, to, I, ru)
CUSIM_TO_INTEGER(float, float, int, int)
CUSIM_TO_INTEGER(float, float, uint, unsigned int)
CUSIM_TO_INTEGER(float, float, ll, long long)
CUSIM_TO_INTEGER(float, float, ull, unsigned long long)
CUSIM_TO_INTEGER(double, double, int, int)
CUSIM_TO_INTEGER(double, double, uint, unsigned int)
CUSIM_TO_INTEGER(double, double, ll, long long)
CUSIM_TO_INTEGER(double, double, ull, unsigned long long)
#undef CUSIM_TO_INTEGER
#undef CUSIM_TO_INTEGER_MODE

// __int2float_rn ... __ull2double_ru, __double2float_*: rounded exactly as suffixed.
#define CUSIM_FROM_INTEGER_MODE(from, I, to, F, mode)                                              \
    inline F __##from##2##to##_##mode(I x) noexcept {                                                \
      return cusim::detail::from_integer<F, cusim::detail::rounding::mode>(x);                       \
    }
#define CUSIM_FROM_INTEGER(from, I, to, F)        \
    CUSIM_FROM_INTEGER_MODE(from, I, to, F, rn)     \
    CUSIM_FROM_INTEGER_MODE(from, I, to, F, rz)     \
    CUSIM_FROM_INTEGER_MODE(from, I, to, F, rd)     \
    CUSIM_FROM_INTEGER_MODE(from, I, to, F, ru)
CUSIM_FROM_INTEGER(int, int, float, float)
CUSIM_FROM_INTEGER(uint, unsigned int, float, float)
CUSIM_FROM_INTEGER(ll, long long, float, float)
CUSIM_FROM_INTEGER(ull, unsigned long long, float, float)
CUSIM_FROM_INTEGER(ll, long long, double, double)
CUSIM_FROM_INTEGER(ull, unsigned long long, double, double)
#undef CUSIM_FROM_INTEGER
#undef CUSIM_FROM_INTEGER_MODE
inline double __int2double_rn(int x) noexcept { return x; }  // exact
inline double __uint2double_rn(unsigned x) noexcept { return x; }
inline float __double2float_rn(double x) noexcept { return cusim::detail::narrow<cusim::detail::rounding::rn>(x); }
inline float __double2float_rz(double x) noexcept { return cusim::detail::narrow<cusim::detail::rounding::rz>(x); }
inline float __double2float_rd(double x) noexcept { return cusim::detail::narrow<cusim::detail::rounding::rd>(x); }
inline float __double2float_ru(double x) noexcept { return cusim::detail::narrow<cusim::detail::rounding::ru>(x); }

inline int __float_as_int(float x) noexcept { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) noexcept { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) noexcept { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) noexcept { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) noexcept { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) noexcept { return std::bit_cast<double>(x); }
inline int __double2hiint(double x) noexcept { return static_cast<int>(std::bit_cast<unsigned long long>(x) >> 32); }
inline int __double2loint(double x) noexcept { return static_cast<int>(std::bit_cast<unsigned long long>(x) & 0xffffffffu); }
inline double __hiloint2double(int hi, int lo) noexcept {
  return std::bit_cast<double>(static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32 | static_cast<unsigned>(lo));
}

// ---------------------------------------------------------------------------------------------
// IEEE arithmetic with an explicit rounding direction (never contracted, never reading the FP
// environment): __fadd_rn ... __fma_ru.

#define CUSIM_ROUNDED_MODE(name, T, op, mode, params, ...)                                        \
    inline T name##_##mode params noexcept {                                                        \
      return cusim::detail::op<cusim::detail::rounding::mode>(__VA_ARGS__);                          \
    }
#define CUSIM_ROUNDED(name, T, op, params, ...)              \
    CUSIM_ROUNDED_MODE(name, T, op, rn, params, __VA_ARGS__)   \
    CUSIM_ROUNDED_MODE(name, T, op, rz, params, __VA_ARGS__)   \
    CUSIM_ROUNDED_MODE(name, T, op, rd, params, __VA_ARGS__)   \
    CUSIM_ROUNDED_MODE(name, T, op, ru, params, __VA_ARGS__)
CUSIM_ROUNDED(__fadd, float, add, (float x, float y), x, y)
CUSIM_ROUNDED(__fsub, float, add, (float x, float y), x, -y)
CUSIM_ROUNDED(__fmul, float, mul, (float x, float y), x, y)
CUSIM_ROUNDED(__fdiv, float, div, (float x, float y), x, y)
CUSIM_ROUNDED(__frcp, float, div, (float x), 1.0f, x)
CUSIM_ROUNDED(__fsqrt, float, sqrt, (float x), x)
CUSIM_ROUNDED(__fmaf, float, fma, (float x, float y, float z), x, y, z)
CUSIM_ROUNDED(__fmaf_ieee, float, fma, (float x, float y, float z), x, y, z)
CUSIM_ROUNDED(__dadd, double, add, (double x, double y), x, y)
CUSIM_ROUNDED(__dsub, double, add, (double x, double y), x, -y)
CUSIM_ROUNDED(__dmul, double, mul, (double x, double y), x, y)
CUSIM_ROUNDED(__ddiv, double, div, (double x, double y), x, y)
CUSIM_ROUNDED(__drcp, double, div, (double x), 1.0, x)
CUSIM_ROUNDED(__dsqrt, double, sqrt, (double x), x)
CUSIM_ROUNDED(__fma, double, fma, (double x, double y, double z), x, y, z)
#undef CUSIM_ROUNDED
#undef CUSIM_ROUNDED_MODE
/// 1/sqrt(x) correctly rounded; +-0 gives +-inf.
inline float __frsqrt_rn(float x) noexcept { return cusim::detail::rsqrt_rn(x); }

// ---------------------------------------------------------------------------------------------
// Fast intrinsics: the formulas the GPU evaluates, so that special values, overflow thresholds
// and the domain match it (the error in the last bits is the host library's, not the GPU's).

/// x * (1/y) with the GPU's approximate reciprocal, which is 0 for 2^126 < |y| < 2^128: the
/// quotient is then a zero with the sign of x*y, or NaN for infinite x, where x / y is not.
inline float __fdividef(float x, float y) noexcept {
  if (std::fabs(y) > 0x1p126f && std::isfinite(y)) return x * std::copysign(0.0f, y);
  return x / y;
}
inline float __log2f(float x) noexcept { return std::log2(x); }
/// log2(x) * ln(2): NaN for x < 0, -inf for +-0.
inline float __logf(float x) noexcept { return __log2f(x) * std::numbers::ln2_v<float>; }
inline float __log10f(float x) noexcept { return __log2f(x) * 0.301029995663981195f; }
/// 2^(x * log2(e)): the product is rounded to float first, as on the GPU.
inline float __expf(float x) noexcept { return std::exp2(x * std::numbers::log2e_v<float>); }
inline float __exp10f(float x) noexcept { return std::exp2(x * 3.32192809488736234787f); }
/// exp2f(y * __log2f(x)): NaN for every x < 0 (std::pow(-2, 2) is 4) and for 0^0, 1^inf and inf^0.
inline float __powf(float x, float y) noexcept { return std::exp2(y * __log2f(x)); }
inline float __sinf(float x) noexcept { return std::sin(x); }
inline float __cosf(float x) noexcept { return std::cos(x); }
/// __sinf(x) / __cosf(x), as CUDA documents it.
inline float __tanf(float x) noexcept { return __fdividef(__sinf(x), __cosf(x)); }
inline float __tanhf(float x) noexcept { return std::tanh(x); }
inline void __sincosf(float x, float* s, float* c) noexcept { *s = __sinf(x); *c = __cosf(x); }
/// x clamped to [+0, 1]; NaN gives 0.
inline float __saturatef(float x) noexcept { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }

// ---------------------------------------------------------------------------------------------
// CUDA's math functions beyond C's

inline float rsqrtf(float x) noexcept { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) noexcept { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) noexcept { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) noexcept { return 1.0 / std::cbrt(x); }
inline float exp10f(float x) noexcept { return std::pow(10.0f, x); }
/// Regular IEEE division (fdividef is __fdividef only under -use_fast_math).
inline float fdividef(float x, float y) noexcept { return x / y; }
inline double fdivide(double x, double y) noexcept { return x / y; }
inline void sincosf(float x, float* s, float* c) noexcept { *s = std::sin(x); *c = std::cos(x); }
inline void sincos(double x, double* s, double* c) noexcept { *s = std::sin(x); *c = std::cos(x); }
/// sin(pi x) and cos(pi x): exact at integers and half-integers (sinpif(1) is 0, not sin(3.14159274f)).
inline float sinpif(float x) noexcept { return cusim::detail::sin_cos_pi(x, true); }
inline float cospif(float x) noexcept { return cusim::detail::sin_cos_pi(x, false); }
inline double sinpi(double x) noexcept { return cusim::detail::sin_cos_pi(x, true); }
inline double cospi(double x) noexcept { return cusim::detail::sin_cos_pi(x, false); }
inline void sincospif(float x, float* s, float* c) noexcept { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) noexcept { *s = sinpi(x); *c = cospi(x); }
inline double erfinv(double x) noexcept { return cusim::detail::erfinv(x); }
inline double erfcinv(double x) noexcept { return cusim::detail::erfcinv(x); }
/// exp(x^2) * erfc(x), finite where the two factors alone over- and underflow.
inline double erfcx(double x) noexcept { return cusim::detail::erfcx(x); }
inline double normcdf(double x) noexcept { return cusim::detail::normcdf(x); }
inline double normcdfinv(double x) noexcept { return cusim::detail::normcdfinv(x); }
inline double cyl_bessel_i0(double x) noexcept { return cusim::detail::bessel_i(0, std::fabs(x)); }
inline double cyl_bessel_i1(double x) noexcept { return std::copysign(cusim::detail::bessel_i(1, std::fabs(x)), x); }
#define CUSIM_FLOAT_VIA_DOUBLE(name)                                                                 \
    inline float name##f(float x) noexcept { return static_cast<float>(name(static_cast<double>(x))); }
CUSIM_FLOAT_VIA_DOUBLE(erfinv)
CUSIM_FLOAT_VIA_DOUBLE(erfcinv)
CUSIM_FLOAT_VIA_DOUBLE(erfcx)
CUSIM_FLOAT_VIA_DOUBLE(normcdf)
CUSIM_FLOAT_VIA_DOUBLE(normcdfinv)
CUSIM_FLOAT_VIA_DOUBLE(cyl_bessel_i0)
CUSIM_FLOAT_VIA_DOUBLE(cyl_bessel_i1)
#undef CUSIM_FLOAT_VIA_DOUBLE

/// Vector lengths without undue overflow; an infinite coordinate gives +inf even beside a NaN.
inline double norm(int dim, const double* p) noexcept { return cusim::detail::norm(dim, p); }
inline float normf(int dim, const float* p) noexcept { return cusim::detail::norm(dim, p); }
inline double rnorm(int dim, const double* p) noexcept { return 1.0 / norm(dim, p); }
inline float rnormf(int dim, const float* p) noexcept { return 1.0f / normf(dim, p); }
inline double norm3d(double a, double b, double c) noexcept { const double p[] = {a, b, c}; return norm(3, p); }
inline float norm3df(float a, float b, float c) noexcept { const float p[] = {a, b, c}; return normf(3, p); }
inline double rnorm3d(double a, double b, double c) noexcept { return 1.0 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) noexcept { return 1.0f / norm3df(a, b, c); }
inline double norm4d(double a, double b, double c, double d) noexcept {
  const double p[] = {a, b, c, d};
  return norm(4, p);
}
inline float norm4df(float a, float b, float c, float d) noexcept {
  const float p[] = {a, b, c, d};
  return normf(4, p);
}
inline double rnorm4d(double a, double b, double c, double d) noexcept { return 1.0 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) noexcept { return 1.0f / norm4df(a, b, c, d); }
inline double rhypot(double x, double y) noexcept { return 1.0 / std::hypot(x, y); }
inline float rhypotf(float x, float y) noexcept { return 1.0f / std::hypot(x, y); }

// CUDA's float overloads of the names that are not in std.
#define CUSIM_FLOAT_OVERLOAD(name) \
    inline float name(float x) noexcept { return name##f(x); }
CUSIM_FLOAT_OVERLOAD(rsqrt)
CUSIM_FLOAT_OVERLOAD(rcbrt)
CUSIM_FLOAT_OVERLOAD(exp10)
CUSIM_FLOAT_OVERLOAD(sinpi)
CUSIM_FLOAT_OVERLOAD(cospi)
CUSIM_FLOAT_OVERLOAD(erfinv)
CUSIM_FLOAT_OVERLOAD(erfcinv)
CUSIM_FLOAT_OVERLOAD(erfcx)
CUSIM_FLOAT_OVERLOAD(normcdf)
CUSIM_FLOAT_OVERLOAD(normcdfinv)
CUSIM_FLOAT_OVERLOAD(j0)
CUSIM_FLOAT_OVERLOAD(j1)
CUSIM_FLOAT_OVERLOAD(y0)
CUSIM_FLOAT_OVERLOAD(y1)
#undef CUSIM_FLOAT_OVERLOAD
inline float jn(int n, float x) noexcept { return jnf(n, x); }
inline float yn(int n, float x) noexcept { return ynf(n, x); }

/// Nanoseconds of a steady clock: a monotonically increasing per-thread counter, as on a GPU.
inline long long clock64() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
