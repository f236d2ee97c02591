// SPDX-License-Identifier: MIT
// The benchmark's workloads, shared by cusim_benchmark (benchmark.cu) and hip_cpu_benchmark
// (hip_cpu_benchmark.cpp), so that both run the same sizes on the same inputs: the sizes, the
// inputs, and the serial loops that compute each kernel's result, which cusim_benchmark times
// and both verify against. Plain C++17: it is compiled against cusim's headers and HIP-CPU's.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bench {

constexpr int RED = 256;        // block size of the reductions and the histogram
constexpr int ST = 16;          // stencil tile
constexpr int BIG = 1024;       // threads per block of the barrier-heavy kernel
constexpr int BIG_ROUNDS = 32;  // its rounds (two __syncthreads each)
constexpr int BINS = 256;       // histogram bins

/// Element counts and sides; --quick (shift 4) runs 16x fewer elements.
inline int vector_size(int shift) { return (1 << 24) >> shift; }
inline int matrix_side(int shift) { return 512 >> (shift / 2); }
inline int reduction_size(int shift) { return (1 << 24) >> shift; }
inline int histogram_size(int shift) { return (1 << 24) >> shift; }
inline int barrier_blocks(int shift) { return 256 >> (shift / 2); }

inline void vector_inputs(std::vector<float>& a, std::vector<float>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 0.5f * static_cast<float>(i % 1000), b[i] = static_cast<float>(i % 77);
}
inline void vector_add(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c) {
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}

/// Two n x n row-major matrices, and C = A B.
inline void matrix_inputs(std::vector<float>& a, std::vector<float>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 17) * 0.25f, b[i] = static_cast<float>(i % 13) - 6;
}
inline void matmul(int n, const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
      c[i * n + j] = acc;
    }
}

/// Small integers, so that every summation order gives the same sums.
inline std::vector<float> reduction_input(int n) {
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 8);
  return x;
}
/// One sum per block of RED elements.
inline void block_sums(const std::vector<float>& x, std::vector<float>& sums) {
  for (std::size_t b = 0; b < sums.size(); ++b) {
    float s = 0;
    for (int i = 0; i < RED; ++i) s += x[b * RED + i];
    sums[b] = s;
  }
}

/// 5-point stencil on an n x n grid, zero outside.
inline std::vector<float> stencil_input(int n) {
  std::vector<float> g(n * n);
  for (int i = 0; i < n * n; ++i) g[i] = static_cast<float>((i * 7) % 23) * 0.5f;
  return g;
}
inline void stencil(int n, const std::vector<float>& in, std::vector<float>& out) {
  auto at = [&](int i, int j) { return i >= 0 && i < n && j >= 0 && j < n ? in[i * n + j] : 0.0f; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) out[i * n + j] = 0.2f * (at(i, j) + at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1));
}

inline std::vector<std::uint8_t> histogram_input(int n) {
  std::vector<std::uint8_t> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<std::uint8_t>((static_cast<unsigned>(i) * 2654435761u) >> 24);
  return data;
}
inline void histogram(const std::vector<std::uint8_t>& data, std::vector<unsigned>& counts) {
  counts.assign(BINS, 0u);
  for (std::uint8_t v : data) ++counts[v];
}

/// The 1024-thread kernel: each round every thread averages its value with its neighbour's.
inline std::vector<float> barrier_input(int blocks) {
  std::vector<float> x(blocks * BIG);
  for (int i = 0; i < blocks * BIG; ++i) x[i] = static_cast<float>(i % 101);
  return x;
}
inline void barrier_rounds(const std::vector<float>& in, std::vector<float>& out) {
  std::vector<float> v(BIG), s(BIG);
  for (std::size_t b = 0; b < in.size() / BIG; ++b) {
    for (int t = 0; t < BIG; ++t) v[t] = in[b * BIG + t];
    for (int r = 0; r < BIG_ROUNDS; ++r) {
      s = v;
      for (int t = 0; t < BIG; ++t) v[t] = 0.5f * (v[t] + s[(t + 1) % BIG]);
    }
    for (int t = 0; t < BIG; ++t) out[b * BIG + t] = v[t];
  }
}

/// Matmul results differ by summation order (the tiled kernel's): equal within 1e-3, relative.
inline bool close_enough(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-3f * (1 + std::fabs(want[i]))) return false;
  return true;
}

}  // namespace bench
