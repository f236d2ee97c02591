// SPDX-License-Identifier: MIT
// cuRAND's generators as plain C++ (no CUDA types): XORWOW, Philox4x32-10 and MRG32k3a, their
// seeding, their skips by offset and by subsequence, and the arithmetic that turns their bits into
// uniform and normal values. <curand_kernel.h> (the device API) and the host API's generators
// (simulator/curand_generators.cpp) are both built on it, so they draw the same numbers.
//
// The algorithms are the published ones as cuRAND parameterises them (Marsaglia's xorwow with
// cuRAND's seed salts and subsequences 2^67 apart; Salmon et al.'s Philox4x32 with 10 rounds and
// the subsequence in the counter's upper half; L'Ecuyer's MRG32k3a with subsequences 2^76 and
// sequences 2^127 apart). The jumps are powers of each generator's transition matrix, computed
// once per process (simulator/curand_jumps.cpp) rather than tabulated.
//
// Bit for bit with the GPU: nvcc contracts `a * b + c` into one fused multiply-add, so every such
// expression of cuRAND's conversions is written here as std::fma; the GPU's logf, sqrtf, log,
// sqrt and exp are (nearly always) correctly rounded, and are computed so here.
#pragma once

#include <cmath>
#include <cstdint>

namespace cusim::curand_detail {

// ---- jumps (simulator/curand_jumps.cpp) ---------------------------------------------------------

/// XORWOW's 160-bit state v[5] advanced by n steps (by_subsequence: by n * 2^67 steps).
void xorwow_jump(std::uint32_t v[5], unsigned long long n, bool by_subsequence) noexcept;
/// MRG32k3a's two component states advanced by n steps, times 2^76 (subsequences) or 2^127
/// (sequences) when `scale` is 76 or 127, 0 otherwise.
void mrg32k3a_jump(std::uint32_t s1[3], std::uint32_t s2[3], unsigned long long n, int scale) noexcept;

// ---- XORWOW -------------------------------------------------------------------------------------

inline constexpr std::uint32_t xorwow_weyl = 362437u;

inline void xorwow_seed(unsigned long long seed, std::uint32_t& d, std::uint32_t v[5]) noexcept {
  const std::uint32_t s0 = static_cast<std::uint32_t>(seed) ^ 0xaad26b49u;
  const std::uint32_t s1 = static_cast<std::uint32_t>(seed >> 32) ^ 0xf7dcefddu;
  const std::uint32_t t0 = 1099087573u * s0;
  const std::uint32_t t1 = 2591861531u * s1;
  d = 6615241u + t1 + t0;
  v[0] = 123456789u + t0;
  v[1] = 362436069u ^ t0;
  v[2] = 521288629u + t1;
  v[3] = 88675123u ^ t1;
  v[4] = 5783321u + t0;
}

inline std::uint32_t xorwow_next(std::uint32_t& d, std::uint32_t v[5]) noexcept {
  const std::uint32_t t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
  d += xorwow_weyl;
  return v[4] + d;
}

inline void xorwow_skip(std::uint32_t& d, std::uint32_t v[5], unsigned long long n) noexcept {
  xorwow_jump(v, n, false);
  d += xorwow_weyl * static_cast<std::uint32_t>(n);
}

// ---- Philox4x32-10 ------------------------------------------------------------------------------

struct philox_block {
  std::uint32_t w[4];
};

inline philox_block philox4x32_10(philox_block c, std::uint32_t k0, std::uint32_t k1) noexcept {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const std::uint64_t p0 = std::uint64_t{0xD2511F53u} * c.w[0];
    const std::uint64_t p1 = std::uint64_t{0xCD9E8D57u} * c.w[2];
    c = philox_block{{static_cast<std::uint32_t>(p1 >> 32) ^ c.w[1] ^ k0, static_cast<std::uint32_t>(p1),
                      static_cast<std::uint32_t>(p0 >> 32) ^ c.w[3] ^ k1, static_cast<std::uint32_t>(p0)}};
  }
  return c;
}

/// The 128-bit counter plus n in its lower 64 bits (offsets, in blocks of four values).
inline void philox_add_low(std::uint32_t c[4], unsigned long long n) noexcept {
  const std::uint32_t lo = static_cast<std::uint32_t>(n);
  std::uint32_t hi = static_cast<std::uint32_t>(n >> 32);
  c[0] += lo;
  if (c[0] < lo) ++hi;
  c[1] += hi;
  if (hi <= c[1]) return;
  if (++c[2]) return;
  ++c[3];
}

/// The counter plus n * 2^64 (subsequences), carried within the upper half only, as cuRAND does.
inline void philox_add_high(std::uint32_t c[4], unsigned long long n) noexcept {
  const std::uint32_t lo = static_cast<std::uint32_t>(n);
  std::uint32_t hi = static_cast<std::uint32_t>(n >> 32);
  c[2] += lo;
  if (c[2] < lo) ++hi;
  c[3] += hi;
}

inline void philox_increment(std::uint32_t c[4]) noexcept {
  if (++c[0]) return;
  if (++c[1]) return;
  if (++c[2]) return;
  ++c[3];
}

// ---- MRG32k3a -----------------------------------------------------------------------------------

inline constexpr std::uint64_t mrg_m1 = 4294967087u, mrg_m2 = 4294944443u;

inline void mrg32k3a_seed(unsigned long long seed, std::uint32_t s1[3], std::uint32_t s2[3]) noexcept {
  for (int i = 0; i < 3; ++i) s1[i] = s2[i] = 12345u;
  if (seed == 0) return;
  const std::uint64_t x1 = static_cast<std::uint32_t>(seed) ^ 0x55555555u;
  const std::uint64_t x2 = static_cast<std::uint32_t>((seed >> 32) ^ 0xAAAAAAAAu);
  s1[0] = static_cast<std::uint32_t>(x1 * s1[0] % mrg_m1);
  s1[1] = static_cast<std::uint32_t>(x2 * s1[1] % mrg_m1);
  s1[2] = static_cast<std::uint32_t>(x1 * s1[2] % mrg_m1);
  s2[0] = static_cast<std::uint32_t>(x2 * s2[0] % mrg_m2);
  s2[1] = static_cast<std::uint32_t>(x1 * s2[1] % mrg_m2);
  s2[2] = static_cast<std::uint32_t>(x2 * s2[2] % mrg_m2);
}

/// One step; the combined value in (0, m1], as a double (cuRAND's curand_MRG32k3a).
inline double mrg32k3a_next(std::uint32_t s1[3], std::uint32_t s2[3]) noexcept {
  const std::uint64_t p1 = (std::uint64_t{1403580u} * s1[1] + std::uint64_t{810728u} * (mrg_m1 - s1[0])) % mrg_m1;
  s1[0] = s1[1];
  s1[1] = s1[2];
  s1[2] = static_cast<std::uint32_t>(p1);
  const std::uint64_t p2 = (std::uint64_t{527612u} * s2[2] + std::uint64_t{1370589u} * (mrg_m2 - s2[0])) % mrg_m2;
  s2[0] = s2[1];
  s2[1] = s2[2];
  s2[2] = static_cast<std::uint32_t>(p2);
  return p1 <= p2 ? static_cast<double>(p1) - static_cast<double>(p2) + static_cast<double>(mrg_m1)
                  : static_cast<double>(p1) - static_cast<double>(p2);
}

inline constexpr double mrg_norm = 2.3283065498378288e-10;
inline constexpr double mrg_bits_norm = 1.000000048662;

inline std::uint32_t mrg32k3a_bits(double r) noexcept { return static_cast<std::uint32_t>(r * mrg_bits_norm); }

// ---- conversions --------------------------------------------------------------------------------

inline constexpr float two_pow32_inv = 2.3283064e-10f;       // cuRAND's CURAND_2POW32_INV (not quite 2^-32)
inline constexpr float two_pi = 6.2831855f;                   // CURAND_2PI
inline constexpr float two_pow32_inv_2pi = two_pow32_inv * two_pi;
inline constexpr double two_pow32_inv_double = 2.3283064365386963e-10;
inline constexpr double two_pow53_inv_double = 1.1102230246251565e-16;

/// A 32-bit value to a float in (0, 1].
inline float uniform(std::uint32_t x) noexcept {
  return std::fma(static_cast<float>(x), two_pow32_inv, two_pow32_inv / 2.0f);
}
/// A 32-bit value to a double in (0, 1] (Philox's curand_uniform_double).
inline double uniform_double(std::uint32_t x) noexcept {
  return std::fma(static_cast<double>(x), two_pow32_inv_double, two_pow32_inv_double);
}
/// Two 32-bit values to a double in (0, 1] with 53 random bits (XORWOW's curand_uniform_double).
inline double uniform_double_hq(std::uint32_t x, std::uint32_t y) noexcept {
  const std::uint64_t z = std::uint64_t{x} ^ (std::uint64_t{y} << (53 - 32));
  return std::fma(static_cast<double>(z), two_pow53_inv_double, two_pow53_inv_double / 2.0);
}

/// float logf, sqrtf as the GPU rounds them (correctly).
inline float log_f(float x) noexcept { return static_cast<float>(std::log(static_cast<double>(x))); }

/// __sincosf(v) for v in [0, 2 pi].
inline void sincos_f(float v, float& s, float& c) noexcept {
  s = static_cast<float>(std::sin(static_cast<double>(v)));
  c = static_cast<float>(std::cos(static_cast<double>(v)));
}

/// sincospi(v), rounded from extended precision after an exact reduction.
inline void sincospi_d(double v, double& s, double& c) noexcept {
  // v = 2k + r with r in [-1, 1), exactly.
  double r = v - 2.0 * std::nearbyint(v * 0.5);
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double a = pi * static_cast<long double>(r);
  s = static_cast<double>(std::sin(a));
  c = static_cast<double>(std::cos(a));
  if (r == 0.5 || r == -0.5) c = 0.0;
  if (r == 0.0 || r == -1.0) s = 0.0;
}

struct float_pair {
  float x, y;
};
struct double_pair {
  double x, y;
};

/// cuRAND's float Box-Muller transform of two 32-bit values.
inline float_pair box_muller(std::uint32_t x, std::uint32_t y) noexcept {
  const float u = uniform(x);
  const float v = std::fma(static_cast<float>(y), two_pow32_inv_2pi, two_pow32_inv_2pi / 2.0f);
  const float s = std::sqrt(-2.0f * log_f(u));
  float sn, cs;
  sincos_f(v, sn, cs);
  return {sn * s, cs * s};
}

/// MRG32k3a's float Box-Muller transform of two uniforms (the second not yet scaled by 2 pi).
inline float_pair box_muller_mrg(float x, float y) noexcept {
  const float s = std::sqrt(-2.0f * log_f(x));
  float sn, cs;
  sincos_f(y * two_pi, sn, cs);
  return {sn * s, cs * s};
}

/// cuRAND's double Box-Muller transform of four 32-bit values.
inline double_pair box_muller_double(std::uint32_t x0, std::uint32_t x1, std::uint32_t y0, std::uint32_t y1) noexcept {
  const std::uint64_t zx = std::uint64_t{x0} ^ (std::uint64_t{x1} << (53 - 32));
  const double u = std::fma(static_cast<double>(zx), two_pow53_inv_double, two_pow53_inv_double / 2.0);
  const std::uint64_t zy = std::uint64_t{y0} ^ (std::uint64_t{y1} << (53 - 32));
  const double v = std::fma(static_cast<double>(zy), two_pow53_inv_double * 2.0, two_pow53_inv_double);
  const double s = std::sqrt(-2.0 * std::log(u));
  double sn, cs;
  sincospi_d(v, sn, cs);
  return {sn * s, cs * s};
}

/// MRG32k3a's double Box-Muller transform of two uniforms (the second not yet doubled).
inline double_pair box_muller_mrg_double(double x, double y) noexcept {
  const double s = std::sqrt(-2.0 * std::log(x));
  double sn, cs;
  sincospi_d(y * 2.0, sn, cs);
  return {sn * s, cs * s};
}

}  // namespace cusim::curand_detail
