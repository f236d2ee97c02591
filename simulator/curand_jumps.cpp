// SPDX-License-Identifier: MIT
// The jumps of cuRAND's XORWOW and MRG32k3a (include/cusim/lib/curand/engines.hpp): powers of each
// generator's transition matrix, by repeated squaring, computed once per process on first use.
//
// XORWOW's five state words are a vector over GF(2) and one step is a linear map of it: the map
// is kept as the images of the 160 unit vectors, and a power 2^k of it for every k the jumps need
// (k < 64 for offsets, 67 <= k < 131 for subsequences, which are 2^67 steps apart). A jump by n
// applies the powers of n's set bits; curand_init with subsequence = thread id costs a few
// hundred word operations per set bit. MRG32k3a's components are vectors modulo m1 and m2; their
// 3x3 matrices' powers 2^k for k < 64 + 127 serve offsets, subsequences (2^76) and sequences
// (2^127).
#include <cusim/lib/curand/engines.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace cusim::curand_detail {
namespace {

constexpr int xorwow_bits = 160;
constexpr int xorwow_subsequence_log2 = 67;

/// A linear map of GF(2)^160: column b is the image of unit vector b.
using gf2_map = std::array<std::array<std::uint32_t, 5>, xorwow_bits>;

void apply(const gf2_map& m, std::uint32_t v[5]) noexcept {
  std::uint32_t r[5] = {0, 0, 0, 0, 0};
  for (int w = 0; w < 5; ++w)
    for (std::uint32_t bits = v[w]; bits != 0; bits &= bits - 1) {
      const auto& col = m[static_cast<std::size_t>(32 * w + __builtin_ctz(bits))];
      for (int k = 0; k < 5; ++k) r[k] ^= col[static_cast<std::size_t>(k)];
    }
  for (int k = 0; k < 5; ++k) v[k] = r[k];
}

struct xorwow_powers {
  std::vector<gf2_map> offset;       // step^(2^k), k < 64
  std::vector<gf2_map> subsequence;  // step^(2^(67 + k)), k < 64

  xorwow_powers() : offset(64), subsequence(64) {
    gf2_map m{};
    for (int b = 0; b < xorwow_bits; ++b) {
      std::uint32_t v[5] = {0, 0, 0, 0, 0};
      v[b / 32] = 1u << (b % 32);
      std::uint32_t d = 0;
      xorwow_next(d, v);
      for (int k = 0; k < 5; ++k) m[static_cast<std::size_t>(b)][static_cast<std::size_t>(k)] = v[k];
    }
    for (int k = 0; k < xorwow_subsequence_log2 + 64; ++k) {
      if (k < 64) offset[static_cast<std::size_t>(k)] = m;
      if (k >= xorwow_subsequence_log2) subsequence[static_cast<std::size_t>(k - xorwow_subsequence_log2)] = m;
      gf2_map squared;
      for (int b = 0; b < xorwow_bits; ++b) {
        auto col = m[static_cast<std::size_t>(b)];
        apply(m, col.data());
        squared[static_cast<std::size_t>(b)] = col;
      }
      m = squared;
    }
  }
};

const xorwow_powers& xorwow_tables() {
  static const xorwow_powers tables;
  return tables;
}

using mat3 = std::array<std::array<std::uint64_t, 3>, 3>;

mat3 multiply(const mat3& a, const mat3& b, std::uint64_t m) noexcept {
  mat3 r{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      std::uint64_t s = 0;
      for (std::size_t k = 0; k < 3; ++k) s = (s + a[i][k] * b[k][j] % m) % m;
      r[i][j] = s;
    }
  return r;
}

void apply(const mat3& a, std::uint32_t s[3], std::uint64_t m) noexcept {
  std::uint64_t r[3];
  for (std::size_t i = 0; i < 3; ++i) {
    std::uint64_t t = 0;
    for (std::size_t k = 0; k < 3; ++k) t = (t + a[i][k] * s[k] % m) % m;
    r[i] = t;
  }
  for (int i = 0; i < 3; ++i) s[i] = static_cast<std::uint32_t>(r[i]);
}

constexpr int mrg_powers = 64 + 127;

struct mrg_tables_t {
  std::vector<mat3> a1, a2;  // A^(2^k), k < 191

  mrg_tables_t() : a1(mrg_powers), a2(mrg_powers) {
    // s' = A s with s = (s[0], s[1], s[2]): the new s[2] is a12 s[1] - a13n s[0] (first
    // component), a21 s[2] - a23n s[0] (second).
    mat3 m1{{{0, 1, 0}, {0, 0, 1}, {mrg_m1 - 810728u, 1403580u, 0}}};
    mat3 m2{{{0, 1, 0}, {0, 0, 1}, {mrg_m2 - 1370589u, 0, 527612u}}};
    for (std::size_t k = 0; k < mrg_powers; ++k) {
      a1[k] = m1;
      a2[k] = m2;
      m1 = multiply(m1, m1, mrg_m1);
      m2 = multiply(m2, m2, mrg_m2);
    }
  }
};

const mrg_tables_t& mrg_tables() {
  static const mrg_tables_t tables;
  return tables;
}

}  // namespace

void xorwow_jump(std::uint32_t v[5], unsigned long long n, bool by_subsequence) noexcept {
  if (n == 0) return;
  const auto& t = xorwow_tables();
  const auto& powers = by_subsequence ? t.subsequence : t.offset;
  for (int k = 0; n != 0; ++k, n >>= 1)
    if (n & 1) apply(powers[static_cast<std::size_t>(k)], v);
}

void mrg32k3a_jump(std::uint32_t s1[3], std::uint32_t s2[3], unsigned long long n, int scale) noexcept {
  if (n == 0) return;
  const auto& t = mrg_tables();
  for (int k = 0; n != 0; ++k, n >>= 1)
    if (n & 1) {
      apply(t.a1[static_cast<std::size_t>(k + scale)], s1, mrg_m1);
      apply(t.a2[static_cast<std::size_t>(k + scale)], s2, mrg_m2);
    }
}

}  // namespace cusim::curand_detail
