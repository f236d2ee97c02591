// SPDX-License-Identifier: MIT
// Helpers written with the kernel API: reduce, forall, numba's xoroshiro128p.
#include "test_support.hpp"

#include <cmath>
#include <numeric>
#include <vector>

struct add_op {
  CUSIM_HD float operator()(float a, float b) const { return a + b; }
};
struct max_op {
  CUSIM_HD int operator()(int a, int b) const { return a > b ? a : b; }
};

TEST_CASE("reduce sums, takes a maximum and handles sizes around the block size") {
  for (int n : {1, 255, 256, 257, 1000, 300000}) {
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i % 10);
    auto d = cusim::to_device(h);
    const double expected = std::accumulate(h.begin(), h.end(), 0.0) + 5;
    CHECK(cusim::reduce(d, 5.0f, add_op{}) == doctest::Approx(expected));
  }
  std::vector<int> v(5000);
  for (int i = 0; i < 5000; ++i) v[i] = (i * 7919) % 4999;
  auto dv = cusim::to_device(v);
  CHECK(cusim::reduce(dv, -1, max_op{}) == 4998);
  CHECK(cusim::reduce(cusim::device_array<int>(0), 17, max_op{}) == 17);
}

__global__ void round_half(cusim::span<const float> in, cusim::span<float> out) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(in.size())) out[i] = rintf(in[i] * 2) / 2;
}

TEST_CASE("forall launches enough threads for n elements") {
  const int n = 1000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.13f * i;
  auto in = cusim::to_device(h);
  auto out = cusim::device_array_like(in);
  cusim::forall(n, round_half, in, out);
  auto r = out.copy_to_host();
  for (int i = 0; i < n; ++i) CHECK(r[i] == std::rint(h[i] * 2) / 2);
  cusim::forall(0, round_half, in, out);  // no launch, no error
}

TEST_CASE("xoroshiro128p states and draws match numba's algorithm for seed 42") {
  // Reference values from a Python transcription of numba.cuda.random.
  auto states = cusim::init_xoroshiro128p_states(3, 42);
  CHECK(states[0].s0 == 0xbdd732262feb6e95ull);
  CHECK(states[0].s1 == 0xbdd732262feb6e95ull);
  CHECK(states[1].s0 == 0x045a2c270718bc3bull);
  CHECK(states[1].s1 == 0x05b3939a23e533b4ull);
  CHECK(states[2].s0 == 0xa67324e5ecccb8dcull);
  CHECK(states[2].s1 == 0x4a81bbd6c315729eull);
}

__global__ void draw_uniforms(cusim::span<cusim::xoroshiro128p_state> states, cusim::mdspan<float, 2> out) {
  const int i = threadIdx.x;
  for (int k = 0; k < 3; ++k) out(i, k) = cusim::xoroshiro128p_uniform_float32(states, i);
}

TEST_CASE("xoroshiro128p_uniform_float32 gives numba's numbers in kernels") {
  auto states = cusim::create_xoroshiro128p_states(3, 42);
  cusim::device_array<float, 2> out(3, 3);
  cusim::launch(draw_uniforms, 1, 3, states, out);
  const std::vector<float> expected{0.48312977f, 0.292463988f, 0.363725394f, 0.0392722934f, 0.763150513f,
                                    0.486823291f, 0.941236556f, 0.136872381f, 0.68424958f};
  CHECK(out.copy_to_host() == expected);
}

__global__ void normals(cusim::span<cusim::xoroshiro128p_state> states, cusim::span<float> out) {
  const int i = cusim::grid<1>();
  float s = 0, s2 = 0;
  for (int k = 0; k < 64; ++k) {
    const float z = cusim::xoroshiro128p_normal_float32(states, i);
    s += z;
    s2 += z * z;
  }
  out[2 * i] = s;
  out[2 * i + 1] = s2;
}

TEST_CASE("xoroshiro128p_normal_float32 has mean 0 and variance 1") {
  const int n = 1024;
  auto states = cusim::create_xoroshiro128p_states(n, 7);
  cusim::device_array<float> out(2 * n);
  cusim::launch(normals, n / 128, 128, states, out);
  auto r = out.copy_to_host();
  double s = 0, s2 = 0;
  for (int i = 0; i < n; ++i) s += r[2 * i], s2 += r[2 * i + 1];
  const double count = n * 64.0;
  CHECK(std::abs(s / count) < 0.02);
  CHECK(std::abs(s2 / count - 1.0) < 0.03);
}
