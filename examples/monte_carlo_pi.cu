// SPDX-License-Identifier: MIT
// Lesson 8: Monte-Carlo pi with numba's xoroshiro128p generator, one generator per thread.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <cmath>
#include <string>
#include <vector>

__global__ void count_hits(cusim::span<cusim::xoroshiro128p_state> states, cusim::span<int> hits, int samples) {
  const int i = cusim::grid<1>();
  if (i >= static_cast<int>(hits.size())) return;
  int inside = 0;
  for (int s = 0; s < samples; ++s) {
    const float x = cusim::xoroshiro128p_uniform_float32(states, i);
    const float y = cusim::xoroshiro128p_uniform_float32(states, i);
    inside += x * x + y * y <= 1.0f;
  }
  hits[i] = inside;
}

int main() {
  const int threads = 4096, samples = 500;
  auto states = cusim::create_xoroshiro128p_states(threads, 1);
  cusim::device_array<int> hits(threads);
  cusim::launch(count_hits, threads / 128, 128, states, hits, samples);
  long long inside = 0;
  for (int h : hits.copy_to_host()) inside += h;
  const double pi = 4.0 * inside / (double(threads) * samples);
  return report("monte_carlo_pi", std::fabs(pi - 3.14159265) < 0.01, ("pi ~ " + std::to_string(pi)).c_str());
}
