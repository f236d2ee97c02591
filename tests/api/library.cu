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

struct best {
  float value;
  int index;
};
struct argmin_op {  // associative and commutative: ties go to the lower index
  CUSIM_HD best operator()(best a, best b) const {
    return (b.value < a.value || (b.value == a.value && b.index < a.index)) ? b : a;
  }
};

TEST_CASE("reduce takes any associative op on a user type, over more blocks than one pass covers") {
  const int n = 1 << 20;  // 4096 blocks wanted, 1024 launched: grid-stride loops
  std::vector<best> h(n);
  for (int i = 0; i < n; ++i) h[i] = {static_cast<float>((i * 7919L) % 100003), i};
  h[777777].value = -3.0f;
  h[999999].value = -3.0f;
  const best r = cusim::reduce(cusim::to_device(h), best{1e30f, -1}, argmin_op{});
  CHECK(r.value == -3.0f);
  CHECK(r.index == 777777);
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

// Reference values: python3 tools/xoroshiro_reference.py (a transcription of numba.cuda.random).
TEST_CASE("xoroshiro128p states and draws match numba's algorithm for seed 42") {
  auto states = cusim::init_xoroshiro128p_states(3, 42);
  CHECK(states[0].s0 == 0xbdd732262feb6e95ull);
  CHECK(states[0].s1 == 0xbdd732262feb6e95ull);
  CHECK(states[1].s0 == 0x045a2c270718bc3bull);
  CHECK(states[1].s1 == 0x05b3939a23e533b4ull);
  CHECK(states[2].s0 == 0xa67324e5ecccb8dcull);
  CHECK(states[2].s1 == 0x4a81bbd6c315729eull);
  auto later = cusim::init_xoroshiro128p_states(2, 12345, 1);  // subsequence_start = 1
  CHECK(later[1].s0 == 0xacc916a8455438ffull);
  CHECK(later[1].s1 == 0x4e05835506937906ull);
}

__global__ void draw_float64(cusim::span<cusim::xoroshiro128p_state> states, cusim::span<double> uniform,
                             cusim::span<double> normal64, cusim::span<float> normal32) {
  cusim::xoroshiro128p_state saved = states[0];
  for (int k = 0; k < 4; ++k) uniform[k] = cusim::xoroshiro128p_uniform_float64(states, 0);
  states[0] = saved;
  for (int k = 0; k < 4; ++k) normal64[k] = cusim::xoroshiro128p_normal_float64(states, 0);
  states[0] = saved;
  for (int k = 0; k < 4; ++k) normal32[k] = cusim::xoroshiro128p_normal_float32(states, 0);
}

TEST_CASE("uniform_float64 gives numba's exact numbers; the normals match to rounding") {
  auto states = cusim::create_xoroshiro128p_states(1, 2024);
  cusim::device_array<double> uniform(4), normal64(4);
  cusim::device_array<float> normal32(4);
  cusim::launch(draw_float64, 1, 1, states, uniform, normal64, normal32);
  CHECK(uniform.copy_to_host() ==
        std::vector<double>{0.24553107329221946, 0.41723196393876183, 0.6408636519202786, 0.6953358055953875});
  const std::vector<double> normal{-1.4543450652702963, -0.31766924372429456, 1.8428582636915085, 0.20599107496339716};
  const auto n64 = normal64.copy_to_host();
  const auto n32 = normal32.copy_to_host();
  for (int k = 0; k < 4; ++k) {  // numba takes the log in float32: a few float32 ulps apart at most
    CHECK(n64[k] == doctest::Approx(normal[k]).epsilon(1e-6));
    CHECK(n32[k] == doctest::Approx(normal[k]).epsilon(1e-5));
  }
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
