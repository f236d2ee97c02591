// SPDX-License-Identifier: MIT
// CUDA math functions and integer intrinsics inside kernels.
#include "test_support.hpp"

#include <climits>
#include <cmath>
#include <limits>
#include <vector>

__global__ void integer_intrinsics(cusim::span<long long> out) {
  out[0] = __popc(0xF0F0u);
  out[1] = __clz(1);
  out[2] = __ffs(8);
  out[3] = __brev(1u);
  out[4] = __popcll(0xFFull << 40);
  out[5] = __clzll(1ll << 40);
  out[6] = __ffs(0);
  out[7] = __umulhi(0x80000000u, 4u);
  out[8] = min(3, -4);
  out[9] = max(3u, 9u);
  out[10] = __mul24(-3, 5);
  out[11] = __float_as_int(1.0f);
  out[12] = __brevll(1ull) == 0x8000000000000000ull;
  out[13] = __float2int_rn(2.5f);
}

TEST_CASE("integer intrinsics follow CUDA's definitions") {
  cusim::device_array<long long> out(14);
  cusim::launch(integer_intrinsics, 1, 1, out);
  auto r = out.copy_to_host();
  CHECK(r[0] == 8);
  CHECK(r[1] == 31);
  CHECK(r[2] == 4);
  CHECK(r[3] == 0x80000000ll);
  CHECK(r[4] == 8);
  CHECK(r[5] == 23);
  CHECK(r[6] == 0);
  CHECK(r[7] == 2);
  CHECK(r[8] == -4);
  CHECK(r[9] == 9);
  CHECK(r[10] == -15);
  CHECK(r[11] == 0x3f800000ll);
  CHECK(r[12] == 1);
  CHECK(r[13] == 2);
}

__global__ void float_math(cusim::span<float> out, float x) {
  out[0] = rsqrtf(x);
  out[1] = __expf(1.0f);
  out[2] = __fdividef(x, 2.0f);
  out[3] = fmaf(x, 2.0f, 1.0f);
  out[4] = sqrtf(x);
  out[5] = __saturatef(x);
  out[6] = fminf(x, -1.0f);
  float s, c;
  sincosf(0.0f, &s, &c);
  out[7] = s + c;
}

TEST_CASE("float math functions and fast intrinsics") {
  cusim::device_array<float> out(8);
  cusim::launch(float_math, 1, 1, out, 4.0f);
  auto r = out.copy_to_host();
  CHECK(r[0] == doctest::Approx(0.5f));
  CHECK(r[1] == doctest::Approx(std::exp(1.0f)).epsilon(1e-5));
  CHECK(r[2] == 2.0f);
  CHECK(r[3] == 9.0f);
  CHECK(r[4] == 2.0f);
  CHECK(r[5] == 1.0f);
  CHECK(r[6] == -1.0f);
  CHECK(r[7] == 1.0f);
}

__global__ void clocks(cusim::span<long long> out) {
  long long a = clock64();
  long long b = clock64();
  out[0] = b >= a;
}

TEST_CASE("clock64 never goes backwards") {
  cusim::device_array<long long> out(1);
  cusim::launch(clocks, 1, 1, out);
  CHECK(out.copy_to_host()[0] == 1);
}

// ---------------------------------------------------------------------------------------------
// Fidelity to the GPU: the values asserted below are what PTX's instructions give.

namespace {
constexpr float f_inf = std::numeric_limits<float>::infinity();
constexpr float f_nan = std::numeric_limits<float>::quiet_NaN();
constexpr double d_inf = std::numeric_limits<double>::infinity();
constexpr double d_nan = std::numeric_limits<double>::quiet_NaN();
constexpr long long int_max = INT_MAX, int_min = INT_MIN;
}  // namespace

__global__ void saturating_conversions(cusim::span<long long> s, cusim::span<unsigned long long> u, float big,
                                       float inf, float nan) {
  const float xs[5] = {big, -big, inf, -inf, nan};
  for (int i = 0; i < 5; ++i) {
    s[4 * i + 0] = __float2int_rn(xs[i]);
    s[4 * i + 1] = __float2int_rz(xs[i]);
    s[4 * i + 2] = __float2int_rd(xs[i]);
    s[4 * i + 3] = __float2int_ru(xs[i]);
  }
  s[20] = __double2ll_rz(1e19);
  s[21] = __double2ll_rz(-1e19);
  s[22] = __double2ll_rz(-static_cast<double>(inf));
  s[23] = __double2ll_rz(static_cast<double>(nan));
  s[24] = __double2ll_rz(-9.2e18);
  s[25] = __float2ll_rn(1e19f);
  s[26] = __float2ll_rd(-1e19f);
  s[27] = __float2ll_ru(nan);
  s[28] = __double2int_rd(-2147483648.5);
  s[29] = __double2int_ru(2147483646.2);
  s[30] = __double2int_rn(static_cast<double>(nan));
  s[31] = __double2int_ru(static_cast<double>(inf));
  u[0] = __float2uint_rn(-1.0f);
  u[1] = __float2uint_rn(-big);
  u[2] = __float2uint_rn(big);  // 3e9 fits an unsigned int
  u[3] = __float2uint_rn(5e9f);
  u[4] = __float2uint_rn(inf);
  u[5] = __float2uint_rn(-inf);
  u[6] = __float2uint_rn(nan);
  u[7] = __float2uint_rd(-0.5f);  // rounds to -1 first, then saturates
  u[8] = __float2uint_rn(-0.4f);
  u[9] = __float2ull_ru(-1.5f);
  u[10] = __float2ull_ru(2e19f);
  u[11] = __float2ull_ru(inf);
  u[12] = __float2ull_ru(nan);
  u[13] = __double2ull_rn(18446744073709551616.0);  // 2^64
  u[14] = __double2ull_rd(1.8e19);
  u[15] = __double2uint_rn(4294967295.5);  // the tie rounds to the even 2^32, which saturates
  u[16] = __double2uint_rz(4294967295.9);
  u[17] = __double2uint_ru(-0.5);
  u[18] = __double2ull_rz(static_cast<double>(-inf));
}

// NaN converts as an H100 converts it (gpu-truth/semantics.h100.txt): 0 from float to a 32-bit
// integer, the bit pattern 1 << (bits - 1) from double or to 64 bits.
TEST_CASE("float-to-integer intrinsics saturate like PTX cvt, and NaN gives the GPU's values") {
  cusim::device_array<long long> s(32);
  cusim::device_array<unsigned long long> u(19);
  cusim::launch(saturating_conversions, 1, 1, s, u, 3e9f, f_inf, f_nan);
  auto r = s.copy_to_host();
  const long long expected[5] = {int_max, int_min, int_max, int_min, 0};
  for (int i = 0; i < 5; ++i)
    for (int mode = 0; mode < 4; ++mode) {
      CAPTURE(i);
      CAPTURE(mode);
      CHECK(r[4 * i + mode] == expected[i]);
    }
  CHECK(r[20] == LLONG_MAX);
  CHECK(r[21] == LLONG_MIN);
  CHECK(r[22] == LLONG_MIN);
  CHECK(r[23] == LLONG_MIN);
  CHECK(r[24] == -9200000000000000000ll);
  CHECK(r[25] == LLONG_MAX);
  CHECK(r[26] == LLONG_MIN);
  CHECK(r[27] == LLONG_MIN);
  CHECK(r[28] == int_min);
  CHECK(r[29] == int_max);
  CHECK(r[30] == int_min);
  CHECK(r[31] == int_max);
  auto h = u.copy_to_host();
  CHECK(h[0] == 0);
  CHECK(h[1] == 0);
  CHECK(h[2] == 3000000000ull);
  CHECK(h[3] == UINT_MAX);
  CHECK(h[4] == UINT_MAX);
  CHECK(h[5] == 0);
  CHECK(h[6] == 0);
  CHECK(h[7] == 0);
  CHECK(h[8] == 0);
  CHECK(h[9] == 0);
  CHECK(h[10] == ULLONG_MAX);
  CHECK(h[11] == ULLONG_MAX);
  CHECK(h[12] == 0x8000000000000000ull);
  CHECK(h[13] == ULLONG_MAX);
  CHECK(h[14] == 18000000000000000000ull);
  CHECK(h[15] == UINT_MAX);
  CHECK(h[16] == 4294967295ull);
  CHECK(h[17] == 0);
  CHECK(h[18] == 0);
}

__global__ void rounded_conversions(cusim::span<long long> out) {
  out[0] = __float2int_rn(2.5f);
  out[1] = __float2int_rn(3.5f);
  out[2] = __float2int_rn(-2.5f);
  out[3] = __float2int_rd(-1.5f);
  out[4] = __float2int_ru(-1.5f);
  out[5] = __float2int_rz(-1.7f);
  out[6] = __float2int_rn(-0.5f);
  out[7] = __double2ll_rn(2.5);
  out[8] = __double2ll_rn(-3.5);
  out[9] = __float2uint_rn(2.5f);
  out[10] = __double2int_ru(1.000001);
  out[11] = __float2ll_rd(-0.1f);
  out[12] = __double2uint_rd(7.9);
  out[13] = __float2ull_rn(4.5f);
  out[14] = __double2int_rz(-7.9);
  out[15] = __float2ll_ru(1e-30f);
}

TEST_CASE("float-to-integer intrinsics round as their suffix says, ties to even for rn") {
  cusim::device_array<long long> out(16);
  cusim::launch(rounded_conversions, 1, 1, out);
  auto r = out.copy_to_host();
  const long long expected[16] = {2, 4, -2, -2, -1, -1, 0, 2, -4, 2, 2, -1, 7, 4, -7, 1};
  for (int i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(r[i] == expected[i]);
  }
}

__global__ void fast_division(cusim::span<float> out, float one, float huge, float inf) {
  out[0] = __fdividef(one, huge);
  out[1] = __fdividef(-one, huge);
  out[2] = __fdividef(one, -huge);
  out[3] = __fdividef(inf, huge);
  out[4] = __fdividef(one, 3.0f);
  out[5] = __fdividef(one, huge / 2);  // 2^126 itself is outside the range
  out[6] = __fdividef(-6.0f * one, 1.5f * huge);
  out[7] = one / huge;  // regular division: a subnormal
}

TEST_CASE("__fdividef gives a signed zero (NaN for infinite x) when 2^126 < |y| < 2^128") {
  cusim::device_array<float> out(8);
  cusim::launch(fast_division, 1, 1, out, 1.0f, 0x1p127f, f_inf);
  auto r = out.copy_to_host();
  CHECK(r[0] == 0.0f);
  CHECK_FALSE(std::signbit(r[0]));
  CHECK(r[1] == 0.0f);
  CHECK(std::signbit(r[1]));
  CHECK(r[2] == 0.0f);
  CHECK(std::signbit(r[2]));
  CHECK(std::isnan(r[3]));
  CHECK(std::fabs(r[4] / (1.0f / 3.0f) - 1.0f) < 1e-6f);
  CHECK(std::fabs(r[5] / 0x1p-126f - 1.0f) < 1e-6f);
  CHECK(r[6] == 0.0f);
  CHECK(std::signbit(r[6]));
  CHECK(r[7] > 0.0f);
}

__global__ void fast_power(cusim::span<float> out, float x) {
  out[0] = __powf(-x, 2.0f);
  out[1] = __powf(-x, 3.0f);
  out[2] = __powf(x, 10.0f);
  out[3] = __powf(0.0f * x, 0.0f);
  out[4] = __powf(x, 0.5f);
  out[5] = __powf(0.0f * x, 2.0f);
}

TEST_CASE("__powf is exp2f(y * __log2f(x)): a negative base gives NaN, unlike powf") {
  cusim::device_array<float> out(6);
  cusim::launch(fast_power, 1, 1, out, 2.0f);
  auto r = out.copy_to_host();
  CHECK(std::isnan(r[0]));
  CHECK(std::isnan(r[1]));
  CHECK(r[2] == doctest::Approx(1024.0f).epsilon(1e-5));
  CHECK(std::isnan(r[3]));  // 0 * log2(0) = 0 * -inf
  CHECK(r[4] == doctest::Approx(std::sqrt(2.0f)).epsilon(1e-5));
  CHECK(r[5] == 0.0f);
}

__global__ void classification(cusim::span<int> out, float fnan, float finf, double dnan, double dinf) {
  out[0] = isnan(fnan);
  out[1] = isnan(1.0f);
  out[2] = isinf(-finf);
  out[3] = isinf(fnan);
  out[4] = isfinite(1.0f);
  out[5] = isfinite(finf);
  out[6] = isfinite(fnan);
  out[7] = signbit(-finf);
  out[8] = signbit(-0.0f);
  out[9] = signbit(0.0f);
  out[10] = isnan(dnan);
  out[11] = isnan(1.0);
  out[12] = isinf(-dinf);
  out[13] = isinf(dnan);
  out[14] = isfinite(1.0);
  out[15] = isfinite(dinf);
  out[16] = signbit(-0.0);
  out[17] = signbit(-dinf);
  out[18] = signbit(2.0);
}

TEST_CASE("isnan, isinf, isfinite and signbit work unqualified in a kernel for float and double") {
  cusim::device_array<int> out(19);
  cusim::launch(classification, 1, 1, out, f_nan, f_inf, d_nan, d_inf);
  auto r = out.copy_to_host();
  const bool expected[19] = {true, false, true, false, true, false, false, true, true, false,
                             true, false, true, false, true, false, true, true, false};
  for (int i = 0; i < 19; ++i) {
    CAPTURE(i);
    CHECK((r[i] != 0) == expected[i]);
  }
}

__global__ void directed_arithmetic(cusim::span<float> f, cusim::span<double> d, float one, float tiny, double d_one) {
  f[0] = __fadd_rd(one, tiny);
  f[1] = __fadd_ru(one, tiny);
  f[2] = __fadd_rn(one, tiny);
  f[3] = __fadd_rz(-one, -tiny);
  f[4] = __fsub_rd(one, tiny);
  f[5] = __fsub_ru(one, tiny);
  f[6] = __fadd_rd(one, -one);  // an exact zero sum is -0 when rounding down
  f[7] = __fadd_ru(one, -one);
  const float e = one + 0x1p-23f;  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46
  f[8] = __fmul_rd(e, e);
  f[9] = __fmul_ru(e, e);
  f[10] = __fmul_rz(-e, e);
  f[11] = __fdiv_rz(one, 3.0f);
  f[12] = __fdiv_ru(one, 3.0f);
  f[13] = __fdiv_rd(-one, 3.0f);
  f[14] = __fsqrt_rd(2.0f * one);
  f[15] = __fsqrt_ru(2.0f * one);
  f[16] = __frcp_rz(3.0f * one);
  f[17] = __frcp_ru(3.0f * one);
  f[18] = __fmaf_rd(one, one, tiny);
  f[19] = __fmaf_ru(one, one, tiny);
  f[20] = __fadd_ru(3.4028235e38f * one, 3.4028235e38f);
  f[21] = __fadd_rz(3.4028235e38f * one, 3.4028235e38f);
  f[22] = __fmul_ru(0x1p-149f * one, 0.5f);
  f[23] = __fmul_rd(0x1p-149f * one, 0.5f);
  f[24] = __fmaf_ieee_rz(one, -one, one);
  const double de = d_one + 0x1p-52;  // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104
  d[0] = __dmul_rd(de, de);
  d[1] = __dmul_ru(de, de);
  d[2] = __dmul_rn(de, de);
  d[3] = __dmul_rz(-de, de);
  d[4] = __dadd_ru(d_one, 0x1p-80);
  d[5] = __dsub_rd(d_one, 0x1p-80);
  d[6] = __ddiv_rz(d_one, 3.0);
  d[7] = __ddiv_ru(d_one, 3.0);
  d[8] = __dsqrt_rd(2.0 * d_one);
  d[9] = __dsqrt_ru(2.0 * d_one);
  d[10] = __drcp_rd(3.0 * d_one);
  d[11] = __fma_ru(d_one, d_one, 0x1p-60);
  d[12] = __fma_rz(-d_one, d_one, -0x1p-60);
  d[13] = __fma_rd(d_one, -d_one, d_one);
}

TEST_CASE("directed-rounding arithmetic intrinsics round exactly as their suffix says") {
  cusim::device_array<float> f(25);
  cusim::device_array<double> d(14);
  cusim::launch(directed_arithmetic, 1, 1, f, d, 1.0f, 0x1p-30f, 1.0);
  auto r = f.copy_to_host();
  const float above_one = std::nextafter(1.0f, 2.0f), below_one = std::nextafter(1.0f, 0.0f);
  CHECK(r[0] == 1.0f);
  CHECK(r[1] == above_one);
  CHECK(r[2] == 1.0f);
  CHECK(r[3] == -1.0f);
  CHECK(r[4] == below_one);
  CHECK(r[5] == 1.0f);
  CHECK(r[6] == 0.0f);
  CHECK(std::signbit(r[6]));
  CHECK_FALSE(std::signbit(r[7]));
  CHECK(r[8] == 1.0f + 0x1p-22f);
  CHECK(r[9] == 1.0f + 0x1p-22f + 0x1p-23f);
  CHECK(r[10] == -(1.0f + 0x1p-22f));
  CHECK(r[11] == 0x1.555554p-2f);
  CHECK(r[12] == 0x1.555556p-2f);
  CHECK(r[13] == -0x1.555556p-2f);
  CHECK(r[14] == 0x1.6a09e6p+0f);
  CHECK(r[15] == 0x1.6a09e8p+0f);
  CHECK(r[16] == 0x1.555554p-2f);
  CHECK(r[17] == 0x1.555556p-2f);
  CHECK(r[18] == 1.0f);
  CHECK(r[19] == above_one);
  CHECK(std::isinf(r[20]));
  CHECK(r[21] == std::numeric_limits<float>::max());
  CHECK(r[22] == 0x1p-149f);
  CHECK(r[23] == 0.0f);
  CHECK(r[24] == 0.0f);
  CHECK_FALSE(std::signbit(r[24]));
  auto h = d.copy_to_host();
  CHECK(h[0] == 1.0 + 0x1p-51);
  CHECK(h[1] == 1.0 + 0x1p-51 + 0x1p-52);
  CHECK(h[2] == 1.0 + 0x1p-51);
  CHECK(h[3] == -(1.0 + 0x1p-51));
  CHECK(h[4] == std::nextafter(1.0, 2.0));
  CHECK(h[5] == std::nextafter(1.0, 0.0));
  CHECK(h[6] == 0x1.5555555555555p-2);
  CHECK(h[7] == 0x1.5555555555556p-2);
  CHECK(h[8] == 0x1.6a09e667f3bccp+0);
  CHECK(h[9] == 0x1.6a09e667f3bcdp+0);
  CHECK(h[10] == 0x1.5555555555555p-2);
  CHECK(h[11] == std::nextafter(1.0, 2.0));
  CHECK(h[12] == -1.0);
  CHECK(h[13] == 0.0);
  CHECK(std::signbit(h[13]));
}

__global__ void directed_conversions(cusim::span<float> f, cusim::span<double> d, int i24, long long i53,
                                     double tenth) {
  f[0] = __int2float_rd(i24);  // 2^24 + 1
  f[1] = __int2float_ru(i24);
  f[2] = __int2float_rn(i24);
  f[3] = __int2float_rz(-i24);
  f[4] = __int2float_rd(-i24);
  f[5] = __uint2float_rz(4294967295u);
  f[6] = __uint2float_ru(4294967295u);
  f[7] = __ull2float_rz(18446744073709551615ull);
  f[8] = __ull2float_rn(18446744073709551615ull);
  f[9] = __ll2float_ru(i53);
  f[10] = __double2float_rd(tenth);
  f[11] = __double2float_ru(tenth);
  f[12] = __double2float_rz(1e300 * tenth);
  f[13] = __double2float_ru(1e300 * tenth);
  f[14] = __double2float_rd(-1e-50 * tenth);
  f[15] = __double2float_rn(tenth);
  d[0] = __ll2double_rd(i53);  // 2^53 + 1
  d[1] = __ll2double_ru(i53);
  d[2] = __ll2double_rn(i53);
  d[3] = __ull2double_rz(18446744073709551615ull);
  d[4] = __ull2double_ru(18446744073709551615ull);
  d[5] = __ll2double_rz(-i53);
  d[6] = __int2double_rn(-i24);
  d[7] = __uint2double_rn(4294967295u);
}

TEST_CASE("integer-to-float and double-to-float conversions round exactly as their suffix says") {
  cusim::device_array<float> f(16);
  cusim::device_array<double> d(8);
  cusim::launch(directed_conversions, 1, 1, f, d, 16777217, 9007199254740993ll, 0.1);
  auto r = f.copy_to_host();
  CHECK(r[0] == 16777216.0f);
  CHECK(r[1] == 16777218.0f);
  CHECK(r[2] == 16777216.0f);
  CHECK(r[3] == -16777216.0f);
  CHECK(r[4] == -16777218.0f);
  CHECK(r[5] == 4294967040.0f);
  CHECK(r[6] == 4294967296.0f);
  CHECK(r[7] == 0x1.fffffep63f);
  CHECK(r[8] == 0x1p64f);
  CHECK(r[9] == 0x1.000002p53f);
  CHECK(r[10] == 0x1.999998p-4f);
  CHECK(r[11] == 0x1.99999ap-4f);
  CHECK(r[12] == std::numeric_limits<float>::max());
  CHECK(std::isinf(r[13]));
  CHECK(r[14] == -0x1p-149f);
  CHECK(r[15] == 0.1f);
  auto h = d.copy_to_host();
  CHECK(h[0] == 9007199254740992.0);
  CHECK(h[1] == 9007199254740994.0);
  CHECK(h[2] == 9007199254740992.0);
  CHECK(h[3] == 0x1.fffffffffffffp63);
  CHECK(h[4] == 0x1p64);
  CHECK(h[5] == -9007199254740992.0);
  CHECK(h[6] == -16777217.0);
  CHECK(h[7] == 4294967295.0);
}

__global__ void pi_multiples(cusim::span<float> f, cusim::span<double> d, float x) {
  f[0] = sinpif(x);         // x = 1
  f[1] = cospif(x / 2);     // cos(pi / 2)
  f[2] = sinpif(x / 2);
  f[3] = cospif(x);
  f[4] = sinpif(-2 * x);
  f[5] = cospif(1.5f * x);
  f[6] = sinpif(x / 6);     // 1/2, to rounding
  d[0] = sinpi(2.0 * x);
  d[1] = cospi(1.5 * x);
  d[2] = sinpi(0.25 * x);
  double s, c;
  sincospi(static_cast<double>(x), &s, &c);
  d[3] = s;
  d[4] = c;
}

TEST_CASE("sinpi and cospi are exact at integers and half-integers") {
  cusim::device_array<float> f(7);
  cusim::device_array<double> d(5);
  cusim::launch(pi_multiples, 1, 1, f, d, 1.0f);
  auto r = f.copy_to_host();
  CHECK(r[0] == 0.0f);
  CHECK(r[1] == 0.0f);
  CHECK(r[2] == 1.0f);
  CHECK(r[3] == -1.0f);
  CHECK(r[4] == 0.0f);
  CHECK(r[5] == 0.0f);
  CHECK(r[6] == doctest::Approx(0.5f).epsilon(1e-6));
  auto h = d.copy_to_host();
  CHECK(h[0] == 0.0);
  CHECK(h[1] == 0.0);
  CHECK(h[2] == doctest::Approx(std::sqrt(0.5)).epsilon(1e-15));
  CHECK(h[3] == 0.0);
  CHECK(h[4] == -1.0);
}

__global__ void integer_intrinsics_more(cusim::span<long long> out) {
  out[0] = __byte_perm(0x33221100u, 0x77665544u, 0x4321u);
  out[1] = __byte_perm(0x33221100u, 0x77665544u, 0x0123u);
  out[2] = __funnelshift_l(0x80000000u, 0x1u, 1u);
  out[3] = __funnelshift_l(0x80000000u, 0x1u, 33u);   // shift & 31
  out[4] = __funnelshift_lc(0x80000000u, 0x1u, 33u);  // min(shift, 32)
  out[5] = __funnelshift_r(0x2u, 0x1u, 1u);
  out[6] = __funnelshift_rc(0x2u, 0x1u, 40u);
  out[7] = __fns(0xaaaaaaaau, 3u, 1);
  out[8] = __fns(0xaaaaaaaau, 3u, -1);
  out[9] = __fns(0xaaaaaaaau, 2u, 1);
  out[10] = __fns(0xaaaaaaaau, 2u, -1);
  out[11] = __fns(0xaaaaaaaau, 2u, 0);
  out[12] = __fns(0xaaaaaaaau, 0u, 16);
  out[13] = __fns(0xaaaaaaaau, 0u, 17);
  out[14] = __dp4a(0x01020304, 0x01010101, 10);
  out[15] = __dp4a(static_cast<int>(0xff0000ffu), 0x02020202, 0);
  out[16] = __dp4a(0xff0000ffu, 0x02020202u, 0u);
  out[17] = __dp2a_lo(static_cast<int>(0xffff0002u), 0x00000305, 1);
  out[18] = __dp2a_hi(static_cast<int>(0xffff0002u), 0x03050000, 1);
  out[19] = __hadd(-3, 0);
  out[20] = __rhadd(-3, 0);
  out[21] = __hadd(INT_MAX, INT_MAX);
  out[22] = __uhadd(UINT_MAX, UINT_MAX);
  out[23] = __urhadd(UINT_MAX, 0u);
  out[24] = __sad(INT_MAX, -1, 0u);
  out[25] = __mul24(0x7fffff, 0x7fffff);
  out[26] = __usad(3u, 10u, 1u);
}

TEST_CASE("byte permutes, funnel shifts, fns, dot products and halving adds follow PTX") {
  cusim::device_array<long long> out(27);
  cusim::launch(integer_intrinsics_more, 1, 1, out);
  auto r = out.copy_to_host();
  const long long expected[27] = {0x44332211,   0x00112233,   0x3,        0x3,        0x80000000, 0x80000001,
                                  0x1,          3,            3,          3,          1,          0xffffffff,
                                  31,           0xffffffff,   20,         -4,         1020,       8,
                                  8,            -2,           -1,         INT_MAX,    UINT_MAX,   0x80000000,
                                  0x80000000,   -16777215,    8};
  for (int i = 0; i < 27; ++i) {
    CAPTURE(i);
    CHECK(r[i] == expected[i]);
  }
}

// Every CUDA math name (a missing one fails to compile on the backend that lacks it). Each result
// is stored so that nothing is optimised away; the host checks a sample.
__global__ void every_math_name(cusim::span<double> d, cusim::span<long long> n, float x, double y) {
  int i = 0;
  // C's single-precision functions and CUDA's additions.
  int e = 0;
  float fi = 0.0f, fs = 0.0f, fc = 0.0f;
  const float fv[4] = {x, 2 * x, 3 * x, 4 * x};
  d[i++] = acosf(x / 4) + acoshf(2 * x) + asinf(x / 4) + asinhf(x) + atanf(x) + atan2f(x, 2) + atanhf(x / 4);
  d[i++] = cbrtf(x) + ceilf(x) + copysignf(x, -1) + cosf(x) + coshf(x) + cospif(x) + cyl_bessel_i0f(x);
  d[i++] = cyl_bessel_i1f(x) + erfcf(x) + erfcinvf(x / 2) + erfcxf(x) + erff(x) + erfinvf(x / 4) + exp10f(x);
  d[i++] = exp2f(x) + expf(x) + expm1f(x) + fabsf(x) + fdimf(x, 1) + fdividef(x, 2) + floorf(x) + fmaf(x, x, x);
  d[i++] = fmaxf(x, 1) + fminf(x, 1) + fmodf(x, 1) + frexpf(x, &e) + hypotf(x, x) + ilogbf(x) + j0f(x) + j1f(x);
  d[i++] = jnf(2, x) + ldexpf(x, 2) + lgammaf(x) + llrintf(x) + llroundf(x) + log10f(x) + log1pf(x) + log2f(x);
  d[i++] = logbf(x) + logf(x) + lrintf(x) + lroundf(x) + modff(x, &fi) + nearbyintf(x) + nextafterf(x, 2);
  d[i++] = norm3df(x, x, x) + norm4df(x, x, x, x) + normcdff(x) + normcdfinvf(x / 4) + normf(4, fv) + powf(x, 2);
  d[i++] = rcbrtf(x) + remainderf(x, 2) + remquof(x, 2, &e) + rhypotf(x, x) + rintf(x) + rnorm3df(x, x, x);
  d[i++] = rnorm4df(x, x, x, x) + rnormf(4, fv) + roundf(x) + rsqrtf(x) + scalblnf(x, 2) + scalbnf(x, 2);
  sincosf(x, &fs, &fc);
  d[i++] = fs + fc;
  sincospif(x, &fs, &fc);
  d[i++] = fs + fc;
  d[i++] = sinf(x) + sinhf(x) + sinpif(x) + sqrtf(x) + tanf(x) + tanhf(x) + tgammaf(x) + truncf(x);
  d[i++] = y0f(x) + y1f(x) + ynf(2, x) + isnan(nanf(""));
  // Double precision.
  double di = 0, ds = 0, dc = 0;
  const double dv[4] = {y, 2 * y, 3 * y, 4 * y};
  d[i++] = acos(y / 4) + acosh(2 * y) + asin(y / 4) + asinh(y) + atan(y) + atan2(y, 2.0) + atanh(y / 4);
  d[i++] = cbrt(y) + ceil(y) + copysign(y, -1.0) + cos(y) + cosh(y) + cospi(y) + cyl_bessel_i0(y);
  d[i++] = cyl_bessel_i1(y) + erfc(y) + erfcinv(y / 2) + erfcx(y) + erf(y) + erfinv(y / 4) + exp10(y);
  d[i++] = exp2(y) + exp(y) + expm1(y) + fabs(y) + fdim(y, 1.0) + fdivide(y, 2.0) + floor(y) + fma(y, y, y);
  d[i++] = fmax(y, 1.0) + fmin(y, 1.0) + fmod(y, 1.0) + frexp(y, &e) + hypot(y, y) + ilogb(y) + j0(y) + j1(y);
  d[i++] = jn(2, y) + ldexp(y, 2) + lgamma(y) + llrint(y) + llround(y) + log10(y) + log1p(y) + log2(y);
  d[i++] = logb(y) + log(y) + lrint(y) + lround(y) + modf(y, &di) + nearbyint(y) + nextafter(y, 2.0);
  d[i++] = norm3d(y, y, y) + norm4d(y, y, y, y) + normcdf(y) + normcdfinv(y / 4) + norm(4, dv) + pow(y, 2.0);
  d[i++] = rcbrt(y) + remainder(y, 2.0) + remquo(y, 2.0, &e) + rhypot(y, y) + rint(y) + rnorm3d(y, y, y);
  d[i++] = rnorm4d(y, y, y, y) + rnorm(4, dv) + round(y) + rsqrt(y) + scalbln(y, 2) + scalbn(y, 2);
  sincos(y, &ds, &dc);
  d[i++] = ds + dc;
  sincospi(y, &ds, &dc);
  d[i++] = ds + dc;
  d[i++] = sin(y) + sinh(y) + sinpi(y) + sqrt(y) + tan(y) + tanh(y) + tgamma(y) + trunc(y);
  d[i++] = y0(y) + y1(y) + yn(2, y) + isnan(nan(""));
  // CUDA's float overloads of the same names.
  d[i++] = sqrt(x) + rsqrt(x) + rcbrt(x) + exp10(x) + sinpi(x) + cospi(x) + erfinv(x / 4) + erfcinv(x / 2);
  d[i++] = erfcx(x) + normcdf(x) + normcdfinv(x / 4) + j0(x) + j1(x) + jn(2, x) + y0(x) + y1(x) + yn(2, x);
  d[i++] = abs(-x) + pow(x, 2.0f) + min(x, 2.0f) + max(x, 2.0f) + fmin(x, 2.0f) + fmax(x, 2.0f);
  // Fast and directed-rounding intrinsics.
  __sincosf(x, &fs, &fc);
  d[i++] = __cosf(x) + __exp10f(x) + __expf(x) + __fdividef(x, 3) + __log10f(x) + __log2f(x) + __logf(x) + fs + fc;
  d[i++] = __powf(x, 2) + __saturatef(x) + __sinf(x) + __tanf(x) + __tanhf(x) + __frsqrt_rn(x);
  d[i++] = __fadd_rn(x, 1) + __fadd_rz(x, 1) + __fadd_rd(x, 1) + __fadd_ru(x, 1) + __fsub_rn(x, 1) + __fsub_rz(x, 1) +
           __fsub_rd(x, 1) + __fsub_ru(x, 1);
  d[i++] = __fmul_rn(x, 3) + __fmul_rz(x, 3) + __fmul_rd(x, 3) + __fmul_ru(x, 3) + __fdiv_rn(x, 3) + __fdiv_rz(x, 3) +
           __fdiv_rd(x, 3) + __fdiv_ru(x, 3);
  d[i++] = __frcp_rn(x) + __frcp_rz(x) + __frcp_rd(x) + __frcp_ru(x) + __fsqrt_rn(x) + __fsqrt_rz(x) + __fsqrt_rd(x) +
           __fsqrt_ru(x);
  d[i++] = __fmaf_rn(x, 3, 1) + __fmaf_rz(x, 3, 1) + __fmaf_rd(x, 3, 1) + __fmaf_ru(x, 3, 1) +
           __fmaf_ieee_rn(x, 3, 1) + __fmaf_ieee_rz(x, 3, 1) + __fmaf_ieee_rd(x, 3, 1) + __fmaf_ieee_ru(x, 3, 1);
  d[i++] = __dadd_rn(y, 1) + __dadd_rz(y, 1) + __dadd_rd(y, 1) + __dadd_ru(y, 1) + __dsub_rn(y, 1) + __dsub_rz(y, 1) +
           __dsub_rd(y, 1) + __dsub_ru(y, 1);
  d[i++] = __dmul_rn(y, 3) + __dmul_rz(y, 3) + __dmul_rd(y, 3) + __dmul_ru(y, 3) + __ddiv_rn(y, 3) + __ddiv_rz(y, 3) +
           __ddiv_rd(y, 3) + __ddiv_ru(y, 3);
  d[i++] = __drcp_rn(y) + __drcp_rz(y) + __drcp_rd(y) + __drcp_ru(y) + __dsqrt_rn(y) + __dsqrt_rz(y) + __dsqrt_rd(y) +
           __dsqrt_ru(y);
  d[i++] = __fma_rn(y, 3, 1) + __fma_rz(y, 3, 1) + __fma_rd(y, 3, 1) + __fma_ru(y, 3, 1);
  // Conversions to floating point and reinterpretations.
  const long long big = (1ll << 53) + 1;
  d[i++] = __int2float_rn(3) + __int2float_rz(3) + __int2float_rd(3) + __int2float_ru(3) + __uint2float_rn(3u) +
           __uint2float_rz(3u) + __uint2float_rd(3u) + __uint2float_ru(3u);
  d[i++] = __ll2float_rn(big) + __ll2float_rz(big) + __ll2float_rd(big) + __ll2float_ru(big) + __ull2float_rn(3ull) +
           __ull2float_rz(3ull) + __ull2float_rd(3ull) + __ull2float_ru(3ull);
  d[i++] = __ll2double_rn(big) + __ll2double_rz(big) + __ll2double_rd(big) + __ll2double_ru(big) + __ull2double_rn(3ull) +
           __ull2double_rz(3ull) + __ull2double_rd(3ull) + __ull2double_ru(3ull);
  d[i++] = __int2double_rn(-3) + __uint2double_rn(3u) + __double2float_rn(y) + __double2float_rz(y) +
           __double2float_rd(y) + __double2float_ru(y) + __hiloint2double(0x40000000, 0) + __longlong_as_double(0);
  d[i++] = __int_as_float(0x3f800000) + __uint_as_float(0x3f800000u);
  // Integer results.
  int k = 0;
  n[k++] = __float2int_rn(x) + __float2int_rz(x) + __float2int_rd(x) + __float2int_ru(x);
  n[k++] = __float2uint_rn(x) + __float2uint_rz(x) + __float2uint_rd(x) + __float2uint_ru(x);
  n[k++] = __float2ll_rn(x) + __float2ll_rz(x) + __float2ll_rd(x) + __float2ll_ru(x);
  n[k++] = static_cast<long long>(__float2ull_rn(x) + __float2ull_rz(x) + __float2ull_rd(x) + __float2ull_ru(x));
  n[k++] = __double2int_rn(y) + __double2int_rz(y) + __double2int_rd(y) + __double2int_ru(y);
  n[k++] = __double2uint_rn(y) + __double2uint_rz(y) + __double2uint_rd(y) + __double2uint_ru(y);
  n[k++] = __double2ll_rn(y) + __double2ll_rz(y) + __double2ll_rd(y) + __double2ll_ru(y);
  n[k++] = static_cast<long long>(__double2ull_rn(y) + __double2ull_rz(y) + __double2ull_rd(y) + __double2ull_ru(y));
  n[k++] = __double2hiint(y);
  n[k++] = __double2loint(3.0 * y + 0x1p-50);
  n[k++] = __float_as_int(x) + __float_as_uint(x) + __double_as_longlong(y);
  n[k++] = abs(-3) + labs(-3l) + llabs(-3ll) + abs(-3ll) + abs(-3l);
  n[k++] = umin(3u, 5u) + umax(3u, 5u) + llmin(-3ll, 5ll) + llmax(-3ll, 5ll) + static_cast<long long>(ullmin(3ull, 5ull)) +
           static_cast<long long>(ullmax(3ull, 5ull));
  n[k++] = static_cast<long long>(min(-1l, 2ul));  // mixed signedness compares as unsigned
  n[k++] = static_cast<long long>(max(-1ll, 2ull) == ULLONG_MAX);
  n[k++] = __hadd(5, 8) + __rhadd(5, 8) + __uhadd(5u, 8u) + __urhadd(5u, 8u) + __sad(5, 8, 1u) + __usad(5u, 8u, 1u);
  n[k++] = __byte_perm(0x33221100u, 0x77665544u, 0x7654u) + __fns(0xf0u, 0u, 1);
  n[k++] = __funnelshift_l(1u, 2u, 4u) + __funnelshift_lc(1u, 2u, 4u) + __funnelshift_r(1u, 2u, 4u) +
           __funnelshift_rc(1u, 2u, 4u);
  n[k++] = __dp4a(0x01010101, 0x02020202, 1) + __dp4a(0x01010101u, 0x02020202u, 1u) +
           __dp4a(make_char4(1, 1, 1, 1), make_char4(2, 2, 2, 2), 1) +
           __dp4a(make_uchar4(1, 1, 1, 1), make_uchar4(2, 2, 2, 2), 1u);
  n[k++] = __dp2a_lo(0x00010001, 0x02020202, 1) + __dp2a_lo(0x00010001u, 0x02020202u, 1u) +
           __dp2a_lo(make_short2(1, 1), make_char4(2, 2, 2, 2), 1) +
           __dp2a_lo(make_ushort2(1, 1), make_uchar4(2, 2, 2, 2), 1u);
  n[k++] = __dp2a_hi(0x00010001, 0x02020202, 1) + __dp2a_hi(0x00010001u, 0x02020202u, 1u) +
           __dp2a_hi(make_short2(1, 1), make_char4(2, 2, 2, 2), 1) +
           __dp2a_hi(make_ushort2(1, 1), make_uchar4(2, 2, 2, 2), 1u);
  n[k++] = i;
}

TEST_CASE("every CUDA math function and intrinsic name compiles in a kernel on both backends") {
  cusim::device_array<double> d(64);
  cusim::device_array<long long> n(32);
  cusim::launch(every_math_name, 1, 1, d, n, 1.0f, 1.0);
  auto r = d.copy_to_host();
  auto k = n.copy_to_host();
  const long long stored = k[21];
  CHECK(stored == 46);
  for (long long i = 0; i < stored; ++i) {
    CAPTURE(i);
    CHECK(std::isfinite(r[i]));
  }
  CHECK(r[11] == -1.0);  // sincospif(1): 0 + -1
  CHECK(r[25] == -1.0);  // sincospi(1.0)
  CHECK(r[33] == 8.0);   // four sums 1 + 1 and four differences 1 - 1
  CHECK(r[41] == 24.0);  // eight conversions of 3
  CHECK(r[44] == 6.0);
  CHECK(r[45] == 2.0);
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(k[i] == 4);  // four conversions of 1.0 each
  }
  CHECK(k[8] == 0x3ff00000);
  CHECK(k[9] == 2);  // 3 + 2^-50 is 3 plus two units in the last place
  CHECK(k[10] == 0x3ff0000000000000ll + 2 * 0x3f800000ll);
  CHECK(k[11] == 15);
  CHECK(k[12] == 3 + 5 - 3 + 5 + 3 + 5);
  CHECK(k[13] == 2);
  CHECK(k[14] == 1);
  CHECK(k[15] == 6 + 7 + 6 + 7 + 4 + 4);
  CHECK(k[16] == 0x77665544 + 4);
  CHECK(k[17] == 2 * 0x20 + 2 * 0x20000000);
  CHECK(k[18] == 4 * 9);
  CHECK(k[19] == 4 * 5);
  CHECK(k[20] == 4 * 5);
}
