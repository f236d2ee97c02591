// SPDX-License-Identifier: MIT
// cusim's benchmark: each kernel against a plain serial C++ loop doing the same work in the same
// process; prints time ratios (simulator / serial). Every result is verified. Not a test.
//   cusim_benchmark [repetitions]        (CUSIM_WORKERS=N selects the worker count)
#include <cusim/cusim.hpp>

#include "matmul_kernels.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int RED = 256;

__global__ void vector_add(cusim::span<float> c, cusim::span<const float> a, cusim::span<const float> b) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(c.size())) c[i] = a[i] + b[i];
}

__global__ void block_reduce(cusim::span<const float> in, cusim::span<float> partial) {
  __shared__ cusim::shared_array<float, RED> s;
  const unsigned t = threadIdx.x;
  s[t] = in[cusim::grid<1>()];
  __syncthreads();
  for (unsigned stride = RED / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

double best_seconds(int reps, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

struct row {
  std::string name;
  double serial, sim;
  bool ok;
};

unsigned workers() {
  const char* env = std::getenv("CUSIM_WORKERS");
  const unsigned n = env ? static_cast<unsigned>(std::atoi(env)) : std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

void serial_matmul(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  std::vector<row> rows;
  double barrier_ns = 0;

  {  // vector add, 2^24 floats, block 256
    const int n = 1 << 24;
    std::vector<float> a(n), b(n), c(n), ref(n);
    for (int i = 0; i < n; ++i) a[i] = 0.5f * (i % 1000), b[i] = 1.0f * (i % 77);
    auto da = cusim::to_device(a), db = cusim::to_device(b);
    cusim::device_array<float> dc(n);
    const double serial = best_seconds(reps, [&] {
      for (int i = 0; i < n; ++i) ref[i] = a[i] + b[i];
    });
    const double sim = best_seconds(reps, [&] { cusim::launch(vector_add, n / 256, 256, dc, da, db); });
    dc.copy_to_host(c);
    rows.push_back({"vector add 2^24", serial, sim, c == ref});
  }

  const int n = 512;
  std::vector<float> a(n * n), b(n * n), ref(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) a[i] = static_cast<float>(i % 17) * 0.25f, b[i] = static_cast<float>(i % 13) - 6;
  auto A = cusim::to_device(a, n, n), B = cusim::to_device(b, n, n);
  cusim::device_array<float, 2> C(n, n);
  const double serial_mm = best_seconds(reps, [&] { serial_matmul(a, b, ref, n); });
  auto close = [&] {
    C.copy_to_host(c);
    for (int i = 0; i < n * n; ++i)
      if (std::fabs(c[i] - ref[i]) > 1e-3f * (1 + std::fabs(ref[i]))) return false;
    return true;
  };
  {
    const double sim = best_seconds(reps, [&] { cusim::launch(matmul_naive, dim3(n / 16, n / 16), dim3(16, 16), A, B, C); });
    rows.push_back({"naive matmul 512", serial_mm, sim, close()});
  }
  {
    const double sim = best_seconds(reps, [&] { cusim::launch(matmul_tiled, dim3(n / TPB, n / TPB), dim3(TPB, TPB), A, B, C); });
    rows.push_back({"tiled matmul 512", serial_mm, sim, close()});
  }

  {  // block tree reduction, 2^24 floats, block 256
    const int m = 1 << 24;
    std::vector<float> x(m);
    for (int i = 0; i < m; ++i) x[i] = static_cast<float>(i % 8);
    auto dx = cusim::to_device(x);
    cusim::device_array<float> partial(m / RED);
    volatile float sink = 0;
    const double serial = best_seconds(reps, [&] {
      float s = 0;
      for (int i = 0; i < m; ++i) s += x[i];
      sink = s;
    });
    const double sim = best_seconds(reps, [&] { cusim::launch(block_reduce, m / RED, RED, dx, partial); });
    auto p = partial.copy_to_host();
    bool ok = true;
    for (float v : p) ok = ok && v == 896.0f;  // each block sums 32 of each of 0..7
    rows.push_back({"block reduction 2^24", serial, sim, ok});
    // Each of the m threads waits at 1 + log2(RED) barriers.
    barrier_ns = sim * 1e9 * workers() / (double(m) * 9);
  }

  std::printf("cusim benchmark (workers: %s, best of %d, all checks on)\n",
              std::getenv("CUSIM_WORKERS") ? std::getenv("CUSIM_WORKERS") : "all cores", reps);
  std::printf("%-22s %12s %12s %8s  %s\n", "kernel", "serial ms", "cusim ms", "ratio", "result");
  bool all_ok = true;
  for (const row& r : rows) {
    std::printf("%-22s %12.2f %12.2f %8.2f  %s\n", r.name.c_str(), r.serial * 1e3, r.sim * 1e3, r.sim / r.serial,
                r.ok ? "verified" : "WRONG");
    all_ok = all_ok && r.ok;
  }
  std::printf("block reduction: %.1f ns of one worker per thread per __syncthreads\n", barrier_ns);
  return all_ok ? 0 : 1;
}
