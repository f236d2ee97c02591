// SPDX-License-Identifier: MIT
// Lessons 5 and 6: naive matrix multiply, then the tiled version with shared memory
// (the kernels are in matmul_kernels.hpp).
#include <cusim/cusim.hpp>

#include "example_check.hpp"
#include "matmul_kernels.hpp"

#include <cmath>
#include <string>
#include <vector>

int main() {
  const int n = 100, m = 70, p = 90;  // not multiples of the tile: edges are exercised
  std::vector<float> a(n * m), b(m * p), ref(n * p, 0.0f);
  for (int i = 0; i < n * m; ++i) a[i] = static_cast<float>(i % 11) - 4.5f;
  for (int i = 0; i < m * p; ++i) b[i] = static_cast<float>(i % 13) * 0.25f;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < m; ++k)
      for (int j = 0; j < p; ++j) ref[i * p + j] += a[i * m + k] * b[k * p + j];
  auto A = cusim::to_device(a, n, m);
  auto B = cusim::to_device(b, m, p);
  cusim::device_array<float, 2> C(n, p);
  const dim3 block(TPB, TPB), grid((n + TPB - 1) / TPB, (p + TPB - 1) / TPB);
  int status = 0;
  for (auto kernel : {matmul_naive, matmul_tiled}) {
    cusim::launch(kernel, grid, block, A, B, C);
    auto c = C.copy_to_host();
    bool ok = true;
    float largest = 0;
    for (int i = 0; i < n * p; ++i) {
      ok = ok && std::fabs(c[i] - ref[i]) <= 1e-3f * (1 + std::fabs(ref[i]));
      largest = std::fmax(largest, std::fabs(c[i]));
    }
    status |= report(kernel == matmul_naive ? "matmul_naive" : "matmul_tiled", ok,
                     ("max |C| = " + std::to_string(largest)).c_str());
  }
  return status;
}
