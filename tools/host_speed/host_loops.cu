// SPDX-License-Identifier: MIT
// Host loops in a .cu file, timed: the nvcc driver leaves host code uninstrumented (the rewrite's
// CUSIM_HOST_CODE), so these run as the plain host compiler's do; run.sh builds this file both ways
// and prints the ratios. A kernel is here so that the file is a CUDA program the driver rewrites.
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void unused(float* p) { p[threadIdx.x] = 0; }

static inline float blend(float a, float b) { return a * 0.999f + b * 0.5f; }

// Kept out of line, as a sample's computeGold in another function is.
__attribute__((noinline)) void raw_loop(float* a, const float* b, int n, int reps) {
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < n; ++i) a[i] = a[i] * 0.999f + b[i];
}

__attribute__((noinline)) void vector_loop(std::vector<float>& a, const std::vector<float>& b, int reps) {
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = a[i] * 0.999f + b[i];
}

__attribute__((noinline)) void helper_loop(float* a, const float* b, int n, int reps) {
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < n; ++i) a[i] = blend(a[i], b[i]);
}

// A lambda of the function: a function of its own, instrumented (the attribute of the function
// around it does not reach it); called directly here.
__attribute__((noinline)) void lambda_loop(float* a, const float* b, int n, int reps) {
  auto step = [&](int i) { a[i] = a[i] * 0.999f + b[i]; };
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < n; ++i) step(i);
}

// A serial dependency (a reduction in double, as computeGold's), which no compiler vectorises.
__attribute__((noinline)) double serial_loop(const float* a, int n, int reps) {
  double s = 0;
  for (int r = 0; r < reps; ++r)
    for (int i = 0; i < n; ++i) s = s * 0.5 + a[i];
  return s;
}

template <class F>
static double best_ms(F f) {
  double best = 1e30;
  for (int t = 0; t < 5; ++t) {
    auto s = std::chrono::steady_clock::now();
    f();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    best = ms < best ? ms : best;
  }
  return best;
}

int main() {
  const int n = 1 << 16, reps = 1000;
  std::vector<float> a(n, 1.0f), b(n, 2.0f);
  double sink = 0;
  std::printf("raw %.2f\n", best_ms([&] { raw_loop(a.data(), b.data(), n, reps); }));
  std::printf("vector %.2f\n", best_ms([&] { vector_loop(a, b, reps); }));
  std::printf("helper %.2f\n", best_ms([&] { helper_loop(a.data(), b.data(), n, reps); }));
  std::printf("lambda %.2f\n", best_ms([&] { lambda_loop(a.data(), b.data(), n, reps); }));
  std::printf("serial %.2f\n", best_ms([&] { sink += serial_loop(a.data(), n, reps); }));
  std::printf("(checksum %g)\n", sink + a[7]);
  return 0;
}
