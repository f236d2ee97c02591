// SPDX-License-Identifier: MIT
// cuda_fp16.h: binary16 conversions round to nearest even, bit-exact (subnormals, overflow, NaN),
// the directed roundings, and correctly rounded arithmetic, on the host and in a kernel.
#include "check.h"

#include <cuda_fp16.h>

#include <cmath>
#include <limits>

unsigned bits(__half h) { return __half_as_ushort(h); }

__global__ void half_math(const __half2* a, const __half2* b, float* out) {
  __half2 s = __hadd2(a[threadIdx.x], b[threadIdx.x]);
  __half2 f = __hfma2(a[threadIdx.x], b[threadIdx.x], s);
  out[2 * threadIdx.x] = __low2float(f);
  out[2 * threadIdx.x + 1] = __high2float(f);
}

int main() {
  CHECK_EQ(bits(__float2half(0.1f)), 0x2e66u);
  CHECK_EQ(bits(__float2half(1.0f)), 0x3c00u);
  CHECK_EQ(bits(__float2half(-2.0f)), 0xc000u);
  CHECK_EQ(bits(__float2half(65504.0f)), 0x7bffu);
  CHECK_EQ(bits(__float2half(65519.996f)), 0x7bffu);
  CHECK_EQ(bits(__float2half(65520.0f)), 0x7c00u);  // the tie rounds to even: infinity
  CHECK_EQ(bits(__float2half_rz(1e6f)), 0x7bffu);
  CHECK_EQ(bits(__float2half_rd(-1e6f)), 0xfc00u);
  CHECK_EQ(bits(__float2half(std::ldexp(1.0f, -24))), 0x0001u);  // smallest subnormal
  CHECK_EQ(bits(__float2half(std::ldexp(1.0f, -25))), 0x0000u);  // half of it: tie to even 0
  CHECK_EQ(bits(__float2half(std::nextafter(std::ldexp(1.0f, -25), 1.0f))), 0x0001u);
  CHECK_EQ(bits(__float2half(std::ldexp(3.0f, -25))), 0x0002u);  // 1.5 units: tie to even 2
  CHECK_EQ(bits(__float2half(std::ldexp(1023.0f, -24))), 0x03ffu);  // largest subnormal
  CHECK_EQ(bits(__float2half(std::ldexp(1.0f, -14))), 0x0400u);  // smallest normal
  CHECK_EQ(bits(__float2half(-0.0f)), 0x8000u);
  CHECK_EQ(bits(__float2half(std::numeric_limits<float>::infinity())), 0x7c00u);
  CHECK_EQ(bits(__float2half(-std::numeric_limits<float>::infinity())), 0xfc00u);
  CHECK_EQ(bits(__float2half(std::numeric_limits<float>::quiet_NaN())), 0x7fffu);
  CHECK_EQ(bits(__float2half(1.0f + std::ldexp(1.0f, -11))), 0x3c00u);  // tie: even
  CHECK_EQ(bits(__float2half(1.0f + std::ldexp(3.0f, -11))), 0x3c02u);  // tie: even, upwards
  CHECK_EQ(bits(__double2half(0.1)), 0x2e66u);
  CHECK_EQ(bits(__int2half_rn(2049)), 0x6800u);
  CHECK_EQ(bits(__int2half_ru(2049)), 0x6801u);
  CHECK_EQ(__half2float(__ushort_as_half(0x0001)), std::ldexp(1.0f, -24));
  CHECK_EQ(__half2float(__ushort_as_half(0x7bff)), 65504.0f);
  CHECK(std::isnan(__half2float(__ushort_as_half(0x7e00))));
  CHECK_EQ(bits(__hadd(__float2half(1.0f), __float2half(std::ldexp(1.0f, -11)))), 0x3c00u);
  CHECK_EQ(bits(__hmul(__float2half(3.0f), __float2half(0.1f))), bits(__float2half(3.0f * __half2float(__float2half(0.1f)))));
  CHECK_EQ(bits(__hfma(__float2half(2.0f), __float2half(3.0f), __float2half(1.0f))), 0x4700u);
  CHECK(__hlt(__float2half(1.0f), __float2half(2.0f)));
  CHECK(!__hne(__float2half(1.0f), __ushort_as_half(0x7e00)));
  CHECK(__hneu(__float2half(1.0f), __ushort_as_half(0x7e00)));
  __half2 pair = __floats2half2_rn(0.1f, 65520.0f);
  CHECK_EQ(bits(pair.x), 0x2e66u);
  CHECK_EQ(bits(pair.y), 0x7c00u);

  __half2 *a = nullptr, *b = nullptr;
  float* out = nullptr;
  CHECK_EQ(cudaMallocManaged(&a, 4 * sizeof(__half2)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&b, 4 * sizeof(__half2)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&out, 8 * sizeof(float)), cudaSuccess);
  for (int i = 0; i < 4; ++i) {
    a[i] = __floats2half2_rn(i + 0.5f, -i);
    b[i] = __float2half2_rn(2.0f);
  }
  half_math<<<1, 4>>>(a, b, out);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 4; ++i) {
    CHECK_EQ(out[2 * i], (i + 0.5f) * 2 + (i + 0.5f + 2));
    CHECK_EQ(out[2 * i + 1], -i * 2.0f + (2.0f - i));
  }
  return finish();
}
