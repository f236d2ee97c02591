// SPDX-License-Identifier: MIT
// Every spelling of cusim::launch launches the right kernel with the right arguments. In an
// optimised sim build cusim_add_executable's copy of this file respells `cusim::launch(kernel,
// ...)` as `cusim::launch<kernel>(...)` where `kernel` names a __global__ function
// (tools/nvcc/launch_spelling.py; tests/driver/test_launch_spelling.py checks which calls of this
// file it respells): a namespaced kernel, a template kernel's specialisation, `&kernel`, a
// launch_config, a cooperative launch, a launch in a macro's body. A kernel passed through a
// variable or a macro's parameter stays as it is. Whichever spelling runs, a bad configuration is
// the same cuda_error and a fault the same report, with the same tag and line.
#include "test_support.hpp"

#include <cooperative_groups.h>

#include <string>
#include <vector>

namespace cg = cooperative_groups;

namespace spelled {
__global__ void fill(cusim::span<int> out, int value) {
  const unsigned i = cusim::grid<1>();
  if (i < out.size()) out[i] = value + static_cast<int>(i);
}
namespace inner {
__global__ void negate(cusim::span<int> out) {
  const unsigned i = cusim::grid<1>();
  if (i < out.size()) out[i] = -out[i];
}
}  // namespace inner
}  // namespace spelled

template <class T>
__global__ void scale(cusim::span<T> out, T factor) {
  const unsigned i = cusim::grid<1>();
  if (i < out.size()) out[i] = out[i] * factor;
}

__global__ void add_one(cusim::span<int> out) {
  const unsigned i = cusim::grid<1>();
  if (i < out.size()) out[i] += 1;
}

__global__ void subtract_one(cusim::span<int> out) {
  const unsigned i = cusim::grid<1>();
  if (i < out.size()) out[i] -= 1;
}

// A block-wide sum through shared memory: a kernel with barriers, in either spelling.
__global__ void block_sums(cusim::span<const int> in, cusim::span<int> sums) {
  __shared__ cusim::shared_array<int, 64> s;
  s[threadIdx.x] = in[cusim::grid<1>()];
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) s[threadIdx.x] += s[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = s[0];
}

// Each block writes its index, then (after the grid barrier) reads its neighbour's.
__global__ void neighbours(cusim::span<int> mine, cusim::span<int> theirs) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) mine[blockIdx.x] = static_cast<int>(blockIdx.x) * 10;
  grid.sync();
  if (threadIdx.x == 0) theirs[blockIdx.x] = mine[(blockIdx.x + 1) % gridDim.x];
}

constexpr int overrun_line = __LINE__ + 3;
__global__ void overrun(cusim::span<int> out) {
  const unsigned i = cusim::grid<1>();
  out[i + 1] = 1;  // the last thread writes one past the end
}

#define LAUNCH_ADD_ONE(out) cusim::launch(add_one, 1, 64, out)
#define LAUNCH_ANY(kernel, ...) cusim::launch(kernel, __VA_ARGS__)

namespace {
std::vector<int> iota_plus(int n, int value) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = value + i;
  return v;
}
}  // namespace

TEST_CASE("a namespaced kernel, qualified or through `&`, gets its own arguments") {
  cusim::device_array<int> out(100);
  cusim::launch(spelled::fill, 2, 64, out, 5);
  CHECK(out.copy_to_host() == iota_plus(100, 5));
  cusim::launch(spelled::inner::negate, cusim::launch_config{dim3(1), dim3(128)}, out);
  std::vector<int> negated = iota_plus(100, 5);
  for (int& v : negated) v = -v;
  CHECK(out.copy_to_host() == negated);
  ::cusim::launch(&spelled::fill, dim3(4), dim3(32), out, -3);
  CHECK(out.copy_to_host() == iota_plus(100, -3));
}

TEST_CASE("a template kernel's specialisations, each with its own argument types") {
  auto f = cusim::to_device(std::vector<float>{1.5f, -2.0f, 4.0f});
  cusim::launch(scale<float>, 1, 32, f, 2.0f);
  CHECK(f.copy_to_host() == std::vector<float>{3.0f, -4.0f, 8.0f});
  auto i = cusim::to_device(std::vector<int>{1, 2, 3, 4});
  cusim::launch(scale<int>, 1, 32, i, -3);
  CHECK(i.copy_to_host() == std::vector<int>{-3, -6, -9, -12});
}

TEST_CASE("a kernel through a variable or a function's parameter launches the kernel it holds") {
  cusim::device_array<int> out(64);
  cusim::launch(spelled::fill, 1, 64, out, 0);
  void (*kernel)(cusim::span<int>) = add_one;
  cusim::launch(kernel, 1, 64, out);
  kernel = subtract_one;
  cusim::launch(kernel, 1, 64, out);
  cusim::launch(kernel, 1, 64, out);
  CHECK(out.copy_to_host() == iota_plus(64, -1));
  auto twice = [&](void (*k)(cusim::span<int>)) {
    cusim::launch(k, 1, 64, out);
    cusim::launch(k, 1, 64, out);
  };
  twice(add_one);
  CHECK(out.copy_to_host() == iota_plus(64, 1));
}

TEST_CASE("launches in macros: a kernel named in the body, and one passed as a macro argument") {
  cusim::device_array<int> out(64);
  LAUNCH_ANY(spelled::fill, 1, 64, out, 10);
  LAUNCH_ADD_ONE(out);
  LAUNCH_ADD_ONE(out);
  CHECK(out.copy_to_host() == iota_plus(64, 12));
  LAUNCH_ANY(subtract_one, dim3(2), dim3(32), out);
  CHECK(out.copy_to_host() == iota_plus(64, 11));
}

TEST_CASE("a kernel with barriers and a cooperative one, each spelled by name") {
  std::vector<int> h(256);
  for (int i = 0; i < 256; ++i) h[i] = i % 7 - 3;
  auto in = cusim::to_device(h);
  cusim::device_array<int> sums(4);
  cusim::launch(block_sums, 4, 64, in, sums);
  std::vector<int> expected(4, 0);
  for (int i = 0; i < 256; ++i) expected[i / 64] += h[i];
  CHECK(sums.copy_to_host() == expected);

  cusim::device_array<int> mine(8), theirs(8);
  cusim::launch_cooperative(neighbours, cusim::launch_config{dim3(8), dim3(32)}, mine, theirs);
  CHECK(theirs.copy_to_host() == std::vector<int>{10, 20, 30, 40, 50, 60, 70, 0});
}

TEST_CASE("a bad configuration is the same cuda_error whichever spelling launches") {
  cusim::device_array<int> out(1);
  auto error_of = [](auto&& launch) -> std::string {
    try {
      launch();
      cusim::synchronize();
    } catch (const cusim::cuda_error& e) {
      CHECK(e.code() == cudaErrorInvalidValue);
      return e.what();
    }
    FAIL("expected a cusim::cuda_error");
    return {};
  };
  void (*kernel)(cusim::span<int>) = add_one;
  const std::string by_name = error_of([&] { cusim::launch(add_one, 1, 1025, out); });
  CHECK(by_name == error_of([&] { cusim::launch(kernel, 1, 1025, out); }));
  CHECK(by_name == error_of([&] { cusim::launch<add_one>(1, 1025, out); }));
  if (on_simulator) CHECK(by_name.rfind("cusim::launch: ", 0) == 0);
  CHECK(error_of([&] { cusim::launch(spelled::fill, cusim::launch_config{dim3(0), dim3(32)}, out, 1); }) ==
        error_of([&] { cusim::launch<spelled::fill>(cusim::launch_config{dim3(0), dim3(32)}, out, 1); }));
}

TEST_CASE("an out-of-bounds write is the same tagged report, with its line, whichever spelling launches") {
  if (!kernel_faults_are_checked) return;
  auto out = cusim::to_device(std::vector<int>(64, 0));
  void (*kernel)(cusim::span<int>) = overrun;
  const std::string by_name = kernel_error_of([&] { cusim::launch(overrun, 2, 32, out); });
  CHECK(by_name == "tid=[31, 0, 0] ctaid=[1, 0, 0]: index 64 is out of bounds for axis 0 with size 64 (global array, "
                   "launch_spellings.cu:" + std::to_string(overrun_line) + ")");
  CHECK(by_name == kernel_error_of([&] { cusim::launch(kernel, 2, 32, out); }));
  CHECK(by_name == kernel_error_of([&] { cusim::launch<overrun>(2, 32, out); }));
  cusim::launch(spelled::fill, 1, 64, out, 0);  // the next launch works
  CHECK(out.copy_to_host() == iota_plus(64, 0));
}
