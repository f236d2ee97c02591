// SPDX-License-Identifier: MIT
// CUDA math functions and integer intrinsics inside kernels.
#include "test_support.hpp"

#include <cmath>
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
