// SPDX-License-Identifier: MIT
// Checked arrays: layout, and the exact tagged report of a bad index in every memory space.
#include "test_support.hpp"

#include <cstdint>

#include <vector>

__global__ void mdspan_layout(cusim::mdspan<const int, 2> in, cusim::mdspan<int, 3> out) {
  const int i = threadIdx.x, j = threadIdx.y;
  out(i, j, 0) = in(i, j);
  out(i, j, 1) = in.data()[i * in.extent(1) + j];
}

TEST_CASE("mdspan is row-major like numba: m(i, j) is data()[i * extent(1) + j]") {
  std::vector<int> h(3 * 5);
  for (int k = 0; k < 15; ++k) h[k] = k * k;
  auto d = cusim::to_device(h, 3, 5);
  CHECK(d.extent(0) == 3);
  CHECK(d.extent(1) == 5);
  cusim::device_array<int, 3> out(3, 5, 2);
  cusim::launch(mdspan_layout, 1, dim3(3, 5), d, out);
  auto r = out.copy_to_host();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j) {
      CHECK(r[(i * 5 + j) * 2] == h[i * 5 + j]);
      CHECK(r[(i * 5 + j) * 2 + 1] == h[i * 5 + j]);
    }
}

__global__ void local_prefix(cusim::span<int> out) {
  cusim::local_array<int, 8> acc;
  for (int k = 0; k < 8; ++k) acc[k] = k == 0 ? static_cast<int>(threadIdx.x) : acc[k - 1] + k;
  __syncthreads();  // local arrays stay per thread across barriers
  out[threadIdx.x] = acc[7];
}

TEST_CASE("local arrays are private to each thread across a barrier") {
  cusim::device_array<int> out(64);
  cusim::launch(local_prefix, 1, 64, out);
  auto r = out.copy_to_host();
  for (int t = 0; t < 64; ++t) CHECK(r[t] == t + 28);
}

__constant__ cusim::const_array<float, 3, 3> weights;

__global__ void apply_weights(cusim::span<float> out) {
  const int i = threadIdx.x;
  float s = 0;
  for (int j = 0; j < 3; ++j) s += weights(i, j);
  out[i] = s;
}

TEST_CASE("const_array is filled with copy_to_constant and read in kernels") {
  cusim::copy_to_constant(weights, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  cusim::device_array<float> out(3);
  cusim::launch(apply_weights, 1, 3, out);
  CHECK(out.copy_to_host() == std::vector<float>{6, 15, 24});
  CHECK_THROWS_WITH_AS(cusim::copy_to_constant(weights, std::vector<float>{1, 2}),
                       "cusim::copy_to_constant: host range has 2 elements, the constant array has 9", cusim::cuda_error);
}

// -- out-of-bounds reports: the first fault in thread order of the lowest faulting block ----

constexpr int line_global_off_by_one = __LINE__ + 2;
__global__ void global_off_by_one(cusim::span<float> a) {
  a[cusim::grid<1>()] = 1.0f;  // launched with one thread too many
}

constexpr int line_shared_off_by_one = __LINE__ + 3;
__global__ void shared_off_by_one(cusim::span<float> out) {
  __shared__ cusim::shared_array<float, 16> s;
  s[threadIdx.x] = 1.0f;
  if (cusim::grid<1>() == 0) out[0] = s[0];  // one writer: two blocks' plain stores to one element race
}

constexpr int line_local_negative = __LINE__ + 4;
__global__ void local_negative(cusim::span<int> out) {
  cusim::local_array<int, 4> l;
  unsigned i = threadIdx.x;
  l[i - 1] = 3;  // thread 0 writes index -1
  out[0] = l[0];
}

__constant__ cusim::const_array<int, 5> table;

constexpr int line_constant_past_end = __LINE__ + 1;
__global__ void constant_past_end(cusim::span<int> out) { out[threadIdx.x] = table[threadIdx.x * 2]; }

constexpr int line_mdspan_axis1 = __LINE__ + 1;
__global__ void mdspan_axis1(cusim::mdspan<float, 2> m) { m(threadIdx.x, threadIdx.x + 2) = 0; }

constexpr int line_dynamic_shared_past_end = __LINE__ + 3;
__global__ void dynamic_shared_past_end(cusim::span<int> out) {
  cusim::span<int> d = cusim::dynamic_shared<int>();
  d[threadIdx.x] = 1;
  out[0] = d[0];
}

TEST_CASE("out-of-bounds accesses throw kernel_error with numba's prefix, the space and the line" *
          doctest::skip(!kernel_faults_are_checked)) {
  cusim::device_array<float> ten(10);
  std::string msg = kernel_error_of([&] { cusim::launch(global_off_by_one, 1, 11, ten); });
  CHECK(msg == "tid=[10, 0, 0] ctaid=[0, 0, 0]: index 10 is out of bounds for axis 0 with size 10 (global array, arrays.cu:" + std::to_string(line_global_off_by_one) + ")");

  cusim::device_array<float> one(1);
  msg = kernel_error_of([&] { cusim::launch(shared_off_by_one, 2, 17, one); });
  CHECK(msg == "tid=[16, 0, 0] ctaid=[0, 0, 0]: index 16 is out of bounds for axis 0 with size 16 (shared array, arrays.cu:" + std::to_string(line_shared_off_by_one) + ")");

  cusim::device_array<int> ints(16);
  msg = kernel_error_of([&] { cusim::launch(local_negative, 1, 4, ints); });
  CHECK(msg == "tid=[0, 0, 0] ctaid=[0, 0, 0]: index -1 is out of bounds for axis 0 with size 4 (local array, arrays.cu:" + std::to_string(line_local_negative) + ")");

  msg = kernel_error_of([&] { cusim::launch(constant_past_end, 1, 4, ints); });
  CHECK(msg == "tid=[3, 0, 0] ctaid=[0, 0, 0]: index 6 is out of bounds for axis 0 with size 5 (constant array, arrays.cu:" + std::to_string(line_constant_past_end) + ")");

  cusim::device_array<float, 2> m(4, 4);
  msg = kernel_error_of([&] { cusim::launch(mdspan_axis1, 1, 4, m); });
  CHECK(msg == "tid=[2, 0, 0] ctaid=[0, 0, 0]: index 4 is out of bounds for axis 1 with size 4 (global array, arrays.cu:" + std::to_string(line_mdspan_axis1) + ")");

  msg = kernel_error_of(
      [&] { cusim::launch(dynamic_shared_past_end, cusim::launch_config{dim3(1), dim3(9), 8 * sizeof(int)}, ints); });
  CHECK(msg == "tid=[8, 0, 0] ctaid=[0, 0, 0]: index 8 is out of bounds for axis 0 with size 8 (dynamic shared array, arrays.cu:" + std::to_string(line_dynamic_shared_past_end) + ")");
}

TEST_CASE("kernel_error exposes the fault's fields" * doctest::skip(!kernel_faults_are_checked)) {
  cusim::device_array<float> ten(10);
  try {
    cusim::launch(global_off_by_one, 3, 8, ten);
    FAIL("no kernel_error");
  } catch (const cusim::kernel_error& e) {
    CHECK(e.kind() == cusim::fault_kind::out_of_bounds);
    CHECK(e.thread_idx().x == 2);
    CHECK(e.block_idx().x == 1);
    CHECK(e.index() == 10);
    CHECK(e.extent() == 10);
    CHECK(e.axis() == 0);
    CHECK(e.space() == cusim::memory_space::global);
    CHECK(e.line() == line_global_off_by_one);
    CHECK(e.file().find("arrays.cu") != std::string::npos);
    CHECK(e.code() == cudaErrorIllegalAddress);
  }
}

TEST_CASE("the reported fault is the same with one worker and with many" * doctest::skip(!on_simulator)) {
  cusim::device_array<float> small(100);
  std::string one, many;
  {
    scoped_env w("CUSIM_WORKERS", "1");
    one = kernel_error_of([&] { cusim::launch(global_off_by_one, 64, 32, small); });
  }
  for (int run = 0; run < 5; ++run) {
    scoped_env w("CUSIM_WORKERS", "4");
    many = kernel_error_of([&] { cusim::launch(global_off_by_one, 64, 32, small); });
    CHECK(many == one);
  }
  CHECK(one.rfind("tid=[4, 0, 0] ctaid=[3, 0, 0]: index 100 ", 0) == 0);
}

__global__ void fault_in_two_blocks(cusim::span<int> out) {
  const bool first = blockIdx.x == 2 && blockIdx.y == 1;   // linear block 1 * 3 + 2 = 5
  const bool second = blockIdx.x == 0 && blockIdx.y == 2;  // linear block 2 * 3 + 0 = 6
  if ((first && threadIdx.x == 7) || (second && threadIdx.x == 1)) out[100 + threadIdx.x] = 1;
}

TEST_CASE("with a 2-D grid the lowest faulting block in linear order is reported" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(10);
  for (const char* workers : {"1", "2", "8"}) {
    scoped_env w("CUSIM_WORKERS", workers);
    const std::string msg = kernel_error_of([&] { cusim::launch(fault_in_two_blocks, dim3(3, 3), 32, out); });
    CHECK(msg.rfind("tid=[7, 0, 0] ctaid=[2, 1, 0]: index 107 is out of bounds for axis 0 with size 10", 0) == 0);
  }
}

__global__ void fault_after_barriers(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 64> s;
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  const int v = s[63 - threadIdx.x];
  __syncthreads();
  // Blocks 5, 9 and 12 fault, at different threads, once every thread has passed two barriers.
  const bool faults = (blockIdx.x == 5 && v == 40) || (blockIdx.x == 9 && v == 2) || (blockIdx.x == 12 && v == 60);
  if (faults) out[1000 + v] = v;  // only the faulting threads store: the others would race on out[0]
}

TEST_CASE("a fault after barriers is reported the same with any worker count" * doctest::skip(!on_simulator)) {
  cusim::device_array<int> out(1);
  for (const char* workers : {"1", "2", "8", "1", "8"}) {
    scoped_env w("CUSIM_WORKERS", workers);
    const std::string msg = kernel_error_of([&] { cusim::launch(fault_after_barriers, 16, 64, out); });
    CHECK(msg.rfind("tid=[23, 0, 0] ctaid=[5, 0, 0]: index 1040 is out of bounds for axis 0 with size 1", 0) == 0);
  }
}

TEST_CASE("a checked view indexed out of bounds in host code throws std::out_of_range" * doctest::skip(!on_simulator)) {
  std::vector<int> h(3);
  cusim::span<int> s(h.data(), h.size());
  const std::string expected = "index 3 is out of bounds for axis 0 with size 3 (global array, arrays.cu:" +
                               std::to_string(__LINE__ + 1) + ", host code)";
  CHECK_THROWS_WITH_AS(s[3], expected.c_str(), std::out_of_range);
}

__global__ void byte_indices(cusim::span<const std::uint8_t> keys, cusim::span<int> table, cusim::span<int> out) {
  const int i = cusim::grid<1>();
  if (i < static_cast<int>(keys.size())) out[i] = table[keys[i]];  // 8-bit data as an index: 0..255
}

TEST_CASE("unsigned 8-bit values index as 0..255, not as negatives") {
  std::vector<std::uint8_t> keys{0, 17, 128, 239, 255};
  std::vector<int> table(256);
  for (int i = 0; i < 256; ++i) table[i] = i * 3;
  auto d_keys = cusim::to_device(keys);
  auto d_table = cusim::to_device(table);
  cusim::device_array<int> out(keys.size());
  cusim::launch(byte_indices, 1, 32, d_keys, d_table, out);
  CHECK(out.copy_to_host() == std::vector<int>{0, 51, 384, 717, 765});
}
