// SPDX-License-Identifier: MIT
// The simulator's SIMD video intrinsics (CUDA Math API "SIMD Intrinsics"): __vadd2 ... __vsads4,
// the lanes of a 32-bit word as two 16-bit halves (suffix 2) or four bytes (suffix 4), with PTX's
// vadd2/vsub2/vavrg2/vabsdiff2/vmin2/vmax2/vset2 semantics (and their 4-byte forms); and the
// sm_90 integer min/max family __vimax_s32_relu ... __vibmin_u16x2.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <algorithm>
#include <cstdint>

namespace cusim::detail::simd {
/// Lane i of x, Width bits wide (8 or 16), sign-extended when Signed, else zero-extended.
template <int Width, bool Signed>
constexpr int lane(std::uint32_t x, int i) noexcept {
  constexpr std::uint32_t mask = (1u << Width) - 1, sign = 1u << (Width - 1);
  std::uint32_t v = (x >> (Width * i)) & mask;
  if constexpr (Signed) return static_cast<int>(v ^ sign) - static_cast<int>(sign);
  return static_cast<int>(v);
}
/// The lowest and highest value of a lane, for the saturating (ss, us) forms.
template <int Width, bool Signed>
inline constexpr int lane_min = Signed ? -(1 << (Width - 1)) : 0;
template <int Width, bool Signed>
inline constexpr int lane_max = Signed ? (1 << (Width - 1)) - 1 : (1 << Width) - 1;

/// The word whose lane i is op(lane i of a, lane i of b), each result cut to Width bits: nothing
/// carries or borrows from one lane into the next.
template <int Width, bool Signed, class Op>
constexpr std::uint32_t lanewise(std::uint32_t a, std::uint32_t b, Op op) noexcept {
  constexpr std::uint32_t mask = (1u << Width) - 1;
  std::uint32_t r = 0;
  for (int i = 0; i < 32 / Width; ++i)
    r |= (static_cast<std::uint32_t>(op(lane<Width, Signed>(a, i), lane<Width, Signed>(b, i))) & mask) << (Width * i);
  return r;
}
template <int Width, bool Signed>
constexpr int saturate(int v) noexcept {
  return std::clamp(v, lane_min<Width, Signed>, lane_max<Width, Signed>);
}
/// PTX vavrg: the signed average rounds half away from zero ((s + 1) >> 1 for s >= 0, s >> 1
/// below); the unsigned one rounds half up.
constexpr int rounded_average(int a, int b) noexcept {
  int s = a + b;
  return s >= 0 ? (s + 1) >> 1 : s >> 1;
}
/// __vsads / __vsadu: the sum over the lanes of |a - b|, not cut to a lane.
template <int Width, bool Signed>
constexpr std::uint32_t sum_of_absolute_differences(std::uint32_t a, std::uint32_t b) noexcept {
  std::uint32_t sum = 0;
  for (int i = 0; i < 32 / Width; ++i) {
    int d = lane<Width, Signed>(a, i) - lane<Width, Signed>(b, i);
    sum += static_cast<std::uint32_t>(d < 0 ? -d : d);
  }
  return sum;
}
/// The halves of a and b as signed (s16x2) or unsigned (u16x2) shorts, for the __vi* family.
template <bool Signed, class Op>
constexpr std::uint32_t halves(std::uint32_t a, std::uint32_t b, std::uint32_t c, Op op) noexcept {
  std::uint32_t r = 0;
  for (int i = 0; i < 2; ++i)
    r |= (static_cast<std::uint32_t>(op(lane<16, Signed>(a, i), lane<16, Signed>(b, i), lane<16, Signed>(c, i))) &
          0xffffu)
         << (16 * i);
  return r;
}
/// a + b with the wrap-around of PTX add.s32 (a C++ int addition would be undefined on overflow).
constexpr int wrapping_add(int a, int b) noexcept {
  return static_cast<int>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
}  // namespace cusim::detail::simd

// ---------------------------------------------------------------------------------------------
// Per-halfword (2) and per-byte (4) arithmetic, comparisons and sums of absolute differences.
// __vcmpXX gives an all-ones lane (0xffff, 0xff) where the comparison holds, __vsetXX a lane of 1.

#define CUSIM_SIMD_BINARY(name, Width, Signed, expr)                                           \
  inline unsigned name(unsigned a, unsigned b) noexcept {                                      \
    return cusim::detail::simd::lanewise<Width, Signed>(a, b, [](int x, int y) { return expr; }); \
  }
#define CUSIM_SIMD_UNARY(name, Width, expr)                                                  \
  inline unsigned name(unsigned a) noexcept {                                                \
    return cusim::detail::simd::lanewise<Width, true>(a, 0u, [](int x, int) { return expr; }); \
  }
#define CUSIM_SIMD_SAT(Width, Signed, v) cusim::detail::simd::saturate<Width, Signed>(v)

// 2 = halfwords, 4 = bytes: every name in both widths.
#define CUSIM_SIMD_FAMILY(n, Width)                                                           \
  CUSIM_SIMD_UNARY(__vabs##n, Width, x < 0 ? -x : x)                                          \
  CUSIM_SIMD_UNARY(__vabsss##n, Width, CUSIM_SIMD_SAT(Width, true, x < 0 ? -x : x))           \
  CUSIM_SIMD_UNARY(__vneg##n, Width, -x)                                                      \
  CUSIM_SIMD_UNARY(__vnegss##n, Width, CUSIM_SIMD_SAT(Width, true, -x))                       \
  CUSIM_SIMD_BINARY(__vadd##n, Width, false, x + y)                                           \
  CUSIM_SIMD_BINARY(__vaddss##n, Width, true, CUSIM_SIMD_SAT(Width, true, x + y))             \
  CUSIM_SIMD_BINARY(__vaddus##n, Width, false, CUSIM_SIMD_SAT(Width, false, x + y))           \
  CUSIM_SIMD_BINARY(__vsub##n, Width, false, x - y)                                           \
  CUSIM_SIMD_BINARY(__vsubss##n, Width, true, CUSIM_SIMD_SAT(Width, true, x - y))             \
  CUSIM_SIMD_BINARY(__vsubus##n, Width, false, CUSIM_SIMD_SAT(Width, false, x - y))           \
  CUSIM_SIMD_BINARY(__vavgs##n, Width, true, cusim::detail::simd::rounded_average(x, y))      \
  CUSIM_SIMD_BINARY(__vavgu##n, Width, false, (x + y + 1) >> 1)                               \
  CUSIM_SIMD_BINARY(__vhaddu##n, Width, false, (x + y) >> 1)                                  \
  CUSIM_SIMD_BINARY(__vabsdiffs##n, Width, true, x < y ? y - x : x - y)                       \
  CUSIM_SIMD_BINARY(__vabsdiffu##n, Width, false, x < y ? y - x : x - y)                      \
  CUSIM_SIMD_BINARY(__vmaxs##n, Width, true, std::max(x, y))                                  \
  CUSIM_SIMD_BINARY(__vmaxu##n, Width, false, std::max(x, y))                                 \
  CUSIM_SIMD_BINARY(__vmins##n, Width, true, std::min(x, y))                                  \
  CUSIM_SIMD_BINARY(__vminu##n, Width, false, std::min(x, y))                                 \
  CUSIM_SIMD_COMPARE(n, Width, eq, false, ==)                                                 \
  CUSIM_SIMD_COMPARE(n, Width, ne, false, !=)                                                 \
  CUSIM_SIMD_COMPARE(n, Width, ges, true, >=)                                                 \
  CUSIM_SIMD_COMPARE(n, Width, geu, false, >=)                                                \
  CUSIM_SIMD_COMPARE(n, Width, gts, true, >)                                                  \
  CUSIM_SIMD_COMPARE(n, Width, gtu, false, >)                                                 \
  CUSIM_SIMD_COMPARE(n, Width, les, true, <=)                                                 \
  CUSIM_SIMD_COMPARE(n, Width, leu, false, <=)                                                \
  CUSIM_SIMD_COMPARE(n, Width, lts, true, <)                                                  \
  CUSIM_SIMD_COMPARE(n, Width, ltu, false, <)                                                 \
  inline unsigned __vsads##n(unsigned a, unsigned b) noexcept {                               \
    return cusim::detail::simd::sum_of_absolute_differences<Width, true>(a, b);               \
  }                                                                                           \
  inline unsigned __vsadu##n(unsigned a, unsigned b) noexcept {                               \
    return cusim::detail::simd::sum_of_absolute_differences<Width, false>(a, b);              \
  }
#define CUSIM_SIMD_COMPARE(n, Width, cmp, Signed, op)                  \
  CUSIM_SIMD_BINARY(__vcmp##cmp##n, Width, Signed, x op y ? -1 : 0)    \
  CUSIM_SIMD_BINARY(__vset##cmp##n, Width, Signed, x op y ? 1 : 0)
CUSIM_SIMD_FAMILY(2, 16)
CUSIM_SIMD_FAMILY(4, 8)
#undef CUSIM_SIMD_FAMILY
#undef CUSIM_SIMD_COMPARE
#undef CUSIM_SIMD_SAT
#undef CUSIM_SIMD_UNARY
#undef CUSIM_SIMD_BINARY

// ---------------------------------------------------------------------------------------------
// Integer min/max with ReLU, three-way min/max, add-then-min/max and min/max with a predicate
// (sm_90's max.s16x2.relu & co.; CUDA defines them for every architecture and for the host).
// The sums wrap like add.s32 / add.s16x2; _relu clamps the result below at 0.

inline int __vimax_s32_relu(int a, int b) noexcept { return std::max(std::max(a, b), 0); }
inline int __vimin_s32_relu(int a, int b) noexcept { return std::max(std::min(a, b), 0); }
inline int __vimax3_s32(int a, int b, int c) noexcept { return std::max(std::max(a, b), c); }
inline int __vimin3_s32(int a, int b, int c) noexcept { return std::min(std::min(a, b), c); }
inline unsigned __vimax3_u32(unsigned a, unsigned b, unsigned c) noexcept { return std::max(std::max(a, b), c); }
inline unsigned __vimin3_u32(unsigned a, unsigned b, unsigned c) noexcept { return std::min(std::min(a, b), c); }
inline int __vimax3_s32_relu(int a, int b, int c) noexcept { return std::max(__vimax3_s32(a, b, c), 0); }
inline int __vimin3_s32_relu(int a, int b, int c) noexcept { return std::max(__vimin3_s32(a, b, c), 0); }
inline int __viaddmax_s32(int a, int b, int c) noexcept {
  return std::max(cusim::detail::simd::wrapping_add(a, b), c);
}
inline int __viaddmin_s32(int a, int b, int c) noexcept {
  return std::min(cusim::detail::simd::wrapping_add(a, b), c);
}
inline unsigned __viaddmax_u32(unsigned a, unsigned b, unsigned c) noexcept { return std::max(a + b, c); }
inline unsigned __viaddmin_u32(unsigned a, unsigned b, unsigned c) noexcept { return std::min(a + b, c); }
inline int __viaddmax_s32_relu(int a, int b, int c) noexcept { return std::max(__viaddmax_s32(a, b, c), 0); }
inline int __viaddmin_s32_relu(int a, int b, int c) noexcept { return std::max(__viaddmin_s32(a, b, c), 0); }

#define CUSIM_SIMD_HALVES(name, Signed, params, c, expr)                                         \
  inline unsigned name params noexcept {                                                         \
    return cusim::detail::simd::halves<Signed>(a, b, c, [](int x, int y, [[maybe_unused]] int z) { \
      return expr;                                                                               \
    });                                                                                          \
  }
#define CUSIM_SIMD_ADD16(x, y) static_cast<std::int16_t>(static_cast<std::uint16_t>((x) + (y)))
CUSIM_SIMD_HALVES(__vimax_s16x2_relu, true, (unsigned a, unsigned b), 0u, std::max(std::max(x, y), 0))
CUSIM_SIMD_HALVES(__vimin_s16x2_relu, true, (unsigned a, unsigned b), 0u, std::max(std::min(x, y), 0))
CUSIM_SIMD_HALVES(__vimax3_s16x2, true, (unsigned a, unsigned b, unsigned c), c, std::max(std::max(x, y), z))
CUSIM_SIMD_HALVES(__vimax3_u16x2, false, (unsigned a, unsigned b, unsigned c), c, std::max(std::max(x, y), z))
CUSIM_SIMD_HALVES(__vimin3_s16x2, true, (unsigned a, unsigned b, unsigned c), c, std::min(std::min(x, y), z))
CUSIM_SIMD_HALVES(__vimin3_u16x2, false, (unsigned a, unsigned b, unsigned c), c, std::min(std::min(x, y), z))
CUSIM_SIMD_HALVES(__vimax3_s16x2_relu, true, (unsigned a, unsigned b, unsigned c), c,
                  std::max(std::max(std::max(x, y), z), 0))
CUSIM_SIMD_HALVES(__vimin3_s16x2_relu, true, (unsigned a, unsigned b, unsigned c), c,
                  std::max(std::min(std::min(x, y), z), 0))
// The halfword sum wraps to a short before it is compared (add.s16x2, then max.s16x2).
CUSIM_SIMD_HALVES(__viaddmax_s16x2, true, (unsigned a, unsigned b, unsigned c), c,
                  std::max<int>(CUSIM_SIMD_ADD16(x, y), z))
CUSIM_SIMD_HALVES(__viaddmin_s16x2, true, (unsigned a, unsigned b, unsigned c), c,
                  std::min<int>(CUSIM_SIMD_ADD16(x, y), z))
CUSIM_SIMD_HALVES(__viaddmax_u16x2, false, (unsigned a, unsigned b, unsigned c), c, std::max((x + y) & 0xffff, z))
CUSIM_SIMD_HALVES(__viaddmin_u16x2, false, (unsigned a, unsigned b, unsigned c), c, std::min((x + y) & 0xffff, z))
CUSIM_SIMD_HALVES(__viaddmax_s16x2_relu, true, (unsigned a, unsigned b, unsigned c), c,
                  std::max(std::max<int>(CUSIM_SIMD_ADD16(x, y), z), 0))
CUSIM_SIMD_HALVES(__viaddmin_s16x2_relu, true, (unsigned a, unsigned b, unsigned c), c,
                  std::max(std::min<int>(CUSIM_SIMD_ADD16(x, y), z), 0))
#undef CUSIM_SIMD_ADD16
#undef CUSIM_SIMD_HALVES

/// max(a, b) (__vibmax) or min(a, b) (__vibmin), and *pred = a >= b (max) or a <= b (min).
inline int __vibmax_s32(int a, int b, bool* pred) noexcept { return *pred = a >= b, std::max(a, b); }
inline unsigned __vibmax_u32(unsigned a, unsigned b, bool* pred) noexcept { return *pred = a >= b, std::max(a, b); }
inline int __vibmin_s32(int a, int b, bool* pred) noexcept { return *pred = a <= b, std::min(a, b); }
inline unsigned __vibmin_u32(unsigned a, unsigned b, bool* pred) noexcept { return *pred = a <= b, std::min(a, b); }
/// The same per halfword: *pred_hi for the high halves, *pred_lo for the low ones.
#define CUSIM_SIMD_IB(name, Signed, pick, op)                                                          \
  inline unsigned name(unsigned a, unsigned b, bool* pred_hi, bool* pred_lo) noexcept {                \
    using cusim::detail::simd::lane;                                                                   \
    *pred_hi = lane<16, Signed>(a, 1) op lane<16, Signed>(b, 1);                                       \
    *pred_lo = lane<16, Signed>(a, 0) op lane<16, Signed>(b, 0);                                       \
    return cusim::detail::simd::lanewise<16, Signed>(a, b, [](int x, int y) { return std::pick(x, y); }); \
  }
CUSIM_SIMD_IB(__vibmax_s16x2, true, max, >=)
CUSIM_SIMD_IB(__vibmax_u16x2, false, max, >=)
CUSIM_SIMD_IB(__vibmin_s16x2, true, min, <=)
CUSIM_SIMD_IB(__vibmin_u16x2, false, min, <=)
#undef CUSIM_SIMD_IB
