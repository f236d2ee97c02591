// SPDX-License-Identifier: MIT
// Half precision (cuda_fp16.h) inside kernels rounds as the GPU does: each operation once, a
// product that goes straight into an addition contracted with it (ptxas fuses NVIDIA's mul.f16
// and add.f16 into fma.rn.f16), the _rn forms never. With CUSIM_BACKEND=cuda the functions are
// NVIDIA's own cuda_fp16.h and the same expectations are the GPU's.
#include "test_support.hpp"

#if CUSIM_BACKEND_IS_SIM()
#  include <cuda/cuda_fp16.h>
#else
#  include <cuda_fp16.h>
#endif

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace {
constexpr int columns = 8;

/// One row of ../shared/gpu-truth/libraries.h100.txt, section "== half precision": the inputs
/// (floats, converted to half in the kernel) and the H100's bits of __hadd, __hmul, __hfma,
/// __hdiv, __hsub(__hmul(x, y), z), __hfma2's two halves and hsqrt.
struct truth_row {
  float a, b, c;
  unsigned short bits[columns];
};
const truth_row h100[] = {
    {1.f, 3.f, 0.5f, {0x4400, 0x4200, 0x4300, 0x3555, 0x4100, 0x4300, 0x4100, 0x3c00}},
    {0.1f, 0.2f, -0.03f, {0x34cc, 0x251e, 0xa120, 0x3800, 0x2a66, 0xa120, 0x2e04, 0x350f}},
    {3.14159f, 2.71828f, 1.f, {0x45dc, 0x4845, 0x48c5, 0x3c9f, 0x478a, 0x48c5, 0x45dc, 0x3f17}},
    {65504.f, 2.f, -65504.f, {0x7bff, 0x7c00, 0x7bff, 0x77ff, 0x7c00, 0x7bff, 0xfbff, 0x5bff}},
    {1e-5f, 1e-3f, 1e-7f, {0x1424, 0x0000, 0x0002, 0x2120, 0x8002, 0x0002, 0x00a8, 0x1a7b}},
    {-2.75f, 0.125f, 11.f, {0xc140, 0xb580, 0x4954, 0xcd80, 0xc9ac, 0x4954, 0xbd80, 0x7fff}},
    {0.333f, 3.f, -1.f, {0x42aa, 0x3bfe, 0x9400, 0x2f1b, 0x3fff, 0x9400, 0xc156, 0x389e}},
    {1000.5f, 0.001f, 2049.f, {0x63d1, 0x3c01, 0x6801, 0x7c00, 0xe7ff, 0x6801, 0x63d5, 0x4fe8}},
    {6.1e-5f, 0.5f, 6.1e-5f, {0x3800, 0x0200, 0x05fe, 0x07fe, 0x8200, 0x05fe, 0x05fe, 0x1fff}},
};
constexpr int rows = sizeof h100 / sizeof h100[0];
const char* const column_names[columns] = {"add", "mul", "fma", "div", "mul-sub", "hfma2.x", "hfma2.y", "sqrt"};

std::vector<float> column_of(float truth_row::*member) {
  std::vector<float> v;
  for (const auto& r : h100) v.push_back(r.*member);
  return v;
}
}  // namespace

// The kernel of gpu-truth/libraries.cu (halfops), statement for statement.
__global__ void halfops(cusim::span<const float> a, cusim::span<const float> b, cusim::span<const float> c, int n,
                        cusim::span<unsigned short> o) {
  for (int i = 0; i < n; ++i) {
    __half x = __float2half(a[i]), y = __float2half(b[i]), z = __float2half(c[i]);
    o[8 * i + 0] = __half_as_ushort(__hadd(x, y));
    o[8 * i + 1] = __half_as_ushort(__hmul(x, y));
    o[8 * i + 2] = __half_as_ushort(__hfma(x, y, z));
    o[8 * i + 3] = __half_as_ushort(__hdiv(x, y));
    o[8 * i + 4] = __half_as_ushort(__hsub(__hmul(x, y), z));
    __half2 p = __hfma2(__halves2half2(x, y), __halves2half2(y, z), __halves2half2(z, x));
    o[8 * i + 5] = __half_as_ushort(__low2half(p));
    o[8 * i + 6] = __half_as_ushort(__high2half(p));
    o[8 * i + 7] = __half_as_ushort(hsqrt(x));
  }
}

TEST_CASE("half arithmetic gives the H100's bits (gpu-truth/libraries.h100.txt)") {
  auto a = cusim::to_device(column_of(&truth_row::a));
  auto b = cusim::to_device(column_of(&truth_row::b));
  auto c = cusim::to_device(column_of(&truth_row::c));
  cusim::device_array<unsigned short> out(columns * rows);
  cusim::launch(halfops, 1, 1, a, b, c, rows, out);
  const auto r = out.copy_to_host();
  for (int i = 0; i < rows; ++i)
    for (int k = 0; k < columns; ++k) {
      INFO("a=", h100[i].a, " b=", h100[i].b, " c=", h100[i].c, ": ", std::string(column_names[k]));
      CHECK(r[columns * i + k] == h100[i].bits[k]);
    }
}

// Constructed cases. x = 0x3c08 (1 + 2^-7) and y = 0x3c40 (1 + 2^-4): x * y = 1 + 72.5 * 2^-10
// lies exactly halfway between the halves 0x3c48 and 0x3c49. With z = 0x0001 (2^-24) the exact
// x * y + z is just above that midpoint: rounded once, 0x3c49. Rounded in float first (as an fma
// in float would, its unit at 1 being 2^-23) it falls back on the midpoint, whose tie goes to
// the even 0x3c48; rounding the product first (0x3c48, the tie to even) and adding 2^-24 gives
// 0x3c48 too. Row 9 of the table: 0x03ff * 0x3800 - 0x03ff is -511.5 * 2^-24 exactly, once
// rounded -512 * 2^-24 (0x8200); the product rounded first (512 * 2^-24) gives -511 * 2^-24.
__global__ void rounded_once(cusim::span<unsigned short> o, unsigned short xb, unsigned short yb,
                             unsigned short zb, unsigned short sb, unsigned short hb) {
  const __half x = __ushort_as_half(xb), y = __ushort_as_half(yb), z = __ushort_as_half(zb);
  const __half2 x2 = __halves2half2(x, x), y2 = __halves2half2(y, y), z2 = __halves2half2(z, z);
  o[0] = __half_as_ushort(__hfma(x, y, z));
  o[1] = __half_as_ushort(__low2half(__hfma2(x2, y2, z2)));
  o[2] = __half_as_ushort(__high2half(__hfma2(x2, y2, z2)));
  o[3] = __half_as_ushort(__hadd(__hmul(x, y), z));  // contracted
  o[4] = __half_as_ushort(x * y + z);                 // contracted
  o[5] = __half_as_ushort(__hadd_rn(__hmul_rn(x, y), z));  // _rn: never contracted
  const __half2 p2 = x2 * y2 + z2;                          // contracted, as fp16ScalarProduct's
  o[6] = __half_as_ushort(__low2half(p2));
  o[7] = __half_as_ushort(__high2half(p2));
  const __half2 q2 = __hadd2_rn(__hmul2_rn(x2, y2), z2);
  o[8] = __half_as_ushort(__high2half(q2));
  // Row 9: s = 0x03ff, h = 0x3800.
  const __half s = __ushort_as_half(sb), h = __ushort_as_half(hb);
  o[9] = __half_as_ushort(s * h - s);                       // contracted: fma(s, h, -s)
  o[10] = __half_as_ushort(__hsub_rn(__hmul_rn(s, h), s));  // -511 * 2^-24
  o[11] = __half_as_ushort(s - s * h);                      // contracted: fma(-s, h, s), +511.5 -> 512
  o[12] = __half_as_ushort(__hsub_rn(s, __hmul_rn(s, h)));  // 1023 - 512 = 511
}

TEST_CASE("an fma, and a product straight into a sum, round once; the _rn forms twice") {
  cusim::device_array<unsigned short> out(13);
  cusim::launch(rounded_once, 1, 1, out, static_cast<unsigned short>(0x3c08), static_cast<unsigned short>(0x3c40),
                static_cast<unsigned short>(0x0001), static_cast<unsigned short>(0x03ff),
                static_cast<unsigned short>(0x3800));
  const auto r = out.copy_to_host();
  CHECK(r[0] == 0x3c49);
  CHECK(r[1] == 0x3c49);
  CHECK(r[2] == 0x3c49);
  CHECK(r[3] == 0x3c49);
  CHECK(r[4] == 0x3c49);
  CHECK(r[5] == 0x3c48);
  CHECK(r[6] == 0x3c49);
  CHECK(r[7] == 0x3c49);
  CHECK(r[8] == 0x3c48);
  CHECK(r[9] == 0x8200);
  CHECK(r[10] == 0x81ff);
  CHECK(r[11] == 0x0200);
  CHECK(r[12] == 0x01ff);
}

// Conversions round once, in the direction their suffix names. 1 + 2^-11 + 2^-40 is just above
// the midpoint of 0x3c00 and 0x3c01: from double directly, 0x3c01; through float (where 2^-40 is
// lost) the tie would go to the even 0x3c00. 1 + 2^-20 lies between 0x3c00 and 0x3c01.
__global__ void conversions(cusim::span<unsigned short> o, cusim::span<float> f, double d, float v, float big,
                            float tiny, float nan) {
  o[0] = __half_as_ushort(__double2half(d));
  o[1] = __half_as_ushort(__float2half_rn(v));
  o[2] = __half_as_ushort(__float2half_rz(v));
  o[3] = __half_as_ushort(__float2half_rd(v));
  o[4] = __half_as_ushort(__float2half_ru(v));
  o[5] = __half_as_ushort(__float2half_rz(-v));
  o[6] = __half_as_ushort(__float2half_rd(-v));
  o[7] = __half_as_ushort(__float2half_ru(-v));
  o[8] = __half_as_ushort(__float2half(big));      // 65520: the tie between 65504 and 65536 -> infinity
  o[9] = __half_as_ushort(__float2half_rz(big));   // the largest finite half
  o[10] = __half_as_ushort(__float2half(tiny));    // 2^-25: the tie between 0 and 2^-24 -> 0
  o[11] = __half_as_ushort(__float2half(tiny * (1.0f + 1.0f / 32768)));  // just above it -> 2^-24
  o[12] = __half_as_ushort(__float2half(nan));     // CUDA's canonical NaN
  f[0] = __half2float(__ushort_as_half(0x0001));   // exact: 2^-24
  f[1] = __half2float(__ushort_as_half(0x7bff));   // exact: 65504
  f[2] = __half2float(__ushort_as_half(0xfc00));   // -infinity
}

TEST_CASE("conversions to half round once, as their suffix says") {
  cusim::device_array<unsigned short> out(13);
  cusim::device_array<float> f(3);
  cusim::launch(conversions, 1, 1, out, f, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                1.0f + std::ldexp(1.0f, -20), 65520.0f, std::ldexp(1.0f, -25), std::nanf(""));
  const auto r = out.copy_to_host();
  const auto g = f.copy_to_host();
  CHECK(r[0] == 0x3c01);
  CHECK(r[1] == 0x3c00);
  CHECK(r[2] == 0x3c00);
  CHECK(r[3] == 0x3c00);
  CHECK(r[4] == 0x3c01);
  CHECK(r[5] == 0xbc00);
  CHECK(r[6] == 0xbc01);
  CHECK(r[7] == 0xbc00);
  CHECK(r[8] == 0x7c00);
  CHECK(r[9] == 0x7bff);
  CHECK(r[10] == 0x0000);
  CHECK(r[11] == 0x0001);
  CHECK(r[12] == 0x7fff);
  CHECK(g[0] == std::ldexp(1.0f, -24));
  CHECK(g[1] == 65504.0f);
  CHECK(g[2] == -std::numeric_limits<float>::infinity());
}

// Saturation clamps to [0, 1] (NaN to +0); reciprocal and square roots round the float result
// once to half: 1/3 is 0x3555 (0.333252; 0x3556 is farther), sqrt(2) is 0x3da8 (1.4140625).
__global__ void functions(cusim::span<unsigned short> o, float three, float two, float inf) {
  const __half h3 = __float2half(three), h2 = __float2half(two), quarter = __float2half(0.25f);
  const __half half_ = __float2half(0.5f), three_q = __float2half(0.75f), hinf = __float2half(inf);
  o[0] = __half_as_ushort(__hadd_sat(three_q, half_));          // 1.25 -> 1
  o[1] = __half_as_ushort(__hsub_sat(quarter, half_));          // -0.25 -> 0
  o[2] = __half_as_ushort(__hmul_sat(hinf, __float2half(0.0f)));  // NaN -> +0
  o[3] = __half_as_ushort(__hfma_sat(half_, half_, quarter));  // 0.5, inside
  o[4] = __half_as_ushort(hrcp(h3));
  o[5] = __half_as_ushort(hsqrt(h2));
  o[6] = __half_as_ushort(hrsqrt(__float2half(4.0f)));
  const __half2 r2 = h2sqrt(__halves2half2(__float2half(4.0f), quarter));
  o[7] = __half_as_ushort(__low2half(r2));
  o[8] = __half_as_ushort(__high2half(r2));
  o[9] = __half_as_ushort(hrcp(__float2half(0.0f)));
  o[10] = __half_as_ushort(__hneg(h3));
  o[11] = __half_as_ushort(__habs(__hneg(h3)));
  const __half2 s2 = __hadd2_sat(__halves2half2(three_q, quarter), __halves2half2(half_, half_));
  o[12] = __half_as_ushort(__low2half(s2));
  o[13] = __half_as_ushort(__high2half(s2));
  o[14] = __half_as_ushort(__hdiv(h2, h3));  // 0.666667: 0x3955 (0.666504) is nearer than 0x3956
}

TEST_CASE("saturation, reciprocal and square roots of halves") {
  cusim::device_array<unsigned short> out(15);
  cusim::launch(functions, 1, 1, out, 3.0f, 2.0f, std::numeric_limits<float>::infinity());
  const auto r = out.copy_to_host();
  CHECK(r[0] == 0x3c00);
  CHECK(r[1] == 0x0000);
  CHECK(r[2] == 0x0000);
  CHECK(r[3] == 0x3800);
  CHECK(r[4] == 0x3555);
  CHECK(r[5] == 0x3da8);
  CHECK(r[6] == 0x3800);
  CHECK(r[7] == 0x4000);
  CHECK(r[8] == 0x3800);
  CHECK(r[9] == 0x7c00);
  CHECK(r[10] == 0xc200);
  CHECK(r[11] == 0x4200);
  CHECK(r[12] == 0x3c00);
  CHECK(r[13] == 0x3a00);
  CHECK(r[14] == 0x3955);
}
