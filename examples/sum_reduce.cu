// SPDX-License-Identifier: MIT
// Lesson 3: a sum with cusim::reduce, numba's @cuda.reduce.
#include <cusim/cusim.hpp>

#include "example_check.hpp"

#include <string>
#include <vector>

struct sum {
  CUSIM_HD double operator()(double a, double b) const { return a + b; }
};

int main() {
  const int n = 1 << 18;
  std::vector<double> x(n);
  double expected = 0;
  for (int i = 0; i < n; ++i) x[i] = i % 100, expected += x[i];
  auto d_x = cusim::to_device(x);
  const double total = cusim::reduce(d_x, 0.0, sum{});
  return report("sum_reduce", total == expected, ("sum = " + std::to_string(total)).c_str());
}
