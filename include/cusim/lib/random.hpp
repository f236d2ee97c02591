// SPDX-License-Identifier: MIT
// numba's xoroshiro128+ generator (numba.cuda.random): the same states and the same bits for
// the same seed, on both backends.
#pragma once

#include <cusim/config.hpp>
#include <cusim/host/device_array.hpp>
#include <cusim/kernel/arrays.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace cusim {

/// One generator's state (numba's xoroshiro128p_dtype: s0, s1).
struct xoroshiro128p_state {
  std::uint64_t s0, s1;
};

namespace detail {

CUSIM_HD constexpr std::uint64_t rotl64(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

CUSIM_HD constexpr std::uint64_t xoroshiro128p_next(xoroshiro128p_state& s) {
  const std::uint64_t s0 = s.s0;
  std::uint64_t s1 = s.s1;
  const std::uint64_t result = s0 + s1;
  s1 ^= s0;
  s.s0 = rotl64(s0, 55) ^ s1 ^ (s1 << 14);
  s.s1 = rotl64(s1, 36);
  return result;
}

/// Advances by 2^64 steps.
CUSIM_HD constexpr void xoroshiro128p_jump(xoroshiro128p_state& s) {
  constexpr std::uint64_t jump[2] = {0xbeac0467eba5facbull, 0xd86b048b86aa9922ull};
  std::uint64_t s0 = 0, s1 = 0;
  for (std::uint64_t word : jump)
    for (int b = 0; b < 64; ++b) {
      if (word & (std::uint64_t{1} << b)) {
        s0 ^= s.s0;
        s1 ^= s.s1;
      }
      xoroshiro128p_next(s);
    }
  s.s0 = s0;
  s.s1 = s1;
}

CUSIM_HD constexpr double uint64_to_unit_float64(std::uint64_t x) {
  return static_cast<double>(x >> 11) * (1.0 / static_cast<double>(std::uint64_t{1} << 53));
}

}  // namespace detail

/// numba's init_xoroshiro128p_states: state 0 from SplitMix64(seed), advanced by
/// `subsequence_start` jumps; state i is state i-1 advanced by one jump (2^64 steps).
inline std::vector<xoroshiro128p_state> init_xoroshiro128p_states(std::size_t n, std::uint64_t seed,
                                                                  std::uint64_t subsequence_start = 0) {
  std::vector<xoroshiro128p_state> states(n);
  if (n == 0) return states;
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z = z ^ (z >> 31);
  states[0] = {z, z};
  for (std::uint64_t i = 0; i < subsequence_start; ++i) detail::xoroshiro128p_jump(states[0]);
  for (std::size_t i = 1; i < n; ++i) {
    states[i] = states[i - 1];
    detail::xoroshiro128p_jump(states[i]);
  }
  return states;
}

/// numba's create_xoroshiro128p_states(n, seed): n independent generators in device memory.
inline device_array<xoroshiro128p_state> create_xoroshiro128p_states(std::size_t n, std::uint64_t seed,
                                                                     std::uint64_t subsequence_start = 0) {
  return to_device(init_xoroshiro128p_states(n, seed, subsequence_start));
}

/// A float in [0, 1) from generator `i`, advancing it (numba's rounding, via float64).
CUSIM_HD inline float xoroshiro128p_uniform_float32(span<xoroshiro128p_state> states, index_t i) {
  return static_cast<float>(detail::uint64_to_unit_float64(detail::xoroshiro128p_next(states[i])));
}
CUSIM_HD inline double xoroshiro128p_uniform_float64(span<xoroshiro128p_state> states, index_t i) {
  return detail::uint64_to_unit_float64(detail::xoroshiro128p_next(states[i]));
}
/// A standard normal float (Box-Muller on two float32 uniforms, the sine branch discarded, as numba).
CUSIM_HD inline float xoroshiro128p_normal_float32(span<xoroshiro128p_state> states, index_t i) {
  const float u1 = xoroshiro128p_uniform_float32(states, i);
  const float u2 = xoroshiro128p_uniform_float32(states, i);
  constexpr float two_pi = static_cast<float>(2 * 3.14159265358979323846);
  return std::sqrt(-2.0f * std::log(u1)) * std::cos(two_pi * u2);
}
CUSIM_HD inline double xoroshiro128p_normal_float64(span<xoroshiro128p_state> states, index_t i) {
  const float u1 = xoroshiro128p_uniform_float32(states, i);
  const float u2 = xoroshiro128p_uniform_float32(states, i);
  constexpr double two_pi = 2 * 3.14159265358979323846;
  // numba takes math.log of the float32 uniform in float32, then continues in float64.
  return std::sqrt(-2.0 * static_cast<double>(std::log(u1))) * std::cos(two_pi * u2);
}

}  // namespace cusim
