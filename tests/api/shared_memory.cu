// SPDX-License-Identifier: MIT
// Shared memory: per block, shared by the block's threads, separate per declaration.
#include "test_support.hpp"

#include <vector>

constexpr int TPB = 64;

__global__ void reverse_in_block(cusim::span<int> data) {
  __shared__ cusim::shared_array<int, TPB> tile;
  const int t = threadIdx.x;
  const int i = cusim::grid<1>();
  tile[t] = data[i];
  __syncthreads();
  data[i] = tile[TPB - 1 - t];
}

TEST_CASE("threads of a block see each other's shared-memory writes after a barrier") {
  std::vector<int> h(TPB * 5);
  for (int i = 0; i < TPB * 5; ++i) h[i] = i;
  auto d = cusim::to_device(h);
  cusim::launch(reverse_in_block, 5, TPB, d);
  auto r = d.copy_to_host();
  for (int b = 0; b < 5; ++b)
    for (int t = 0; t < TPB; ++t) CHECK(r[b * TPB + t] == b * TPB + TPB - 1 - t);
}

__global__ void two_arrays(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 32> a; __shared__ cusim::shared_array<int, 32> b;
  a[threadIdx.x] = 1;
  b[threadIdx.x] = 2;
  __syncthreads();
  out[cusim::grid<1>()] = a[31 - threadIdx.x] * 10 + b[threadIdx.x];
}

TEST_CASE("two shared arrays declared on one line do not alias") {
  cusim::device_array<int> out(64);
  cusim::launch(two_arrays, 2, 32, out);
  for (int v : out.copy_to_host()) CHECK(v == 12);
}

__global__ void block_sum_2d(cusim::mdspan<const float, 2> in, cusim::span<float> sums) {
  __shared__ cusim::shared_array<float, 8, 8> tile;
  tile(threadIdx.y, threadIdx.x) = in(blockIdx.x * 8 + threadIdx.y, threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    float s = 0;
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) s += tile(r, c);
    sums[blockIdx.x] = s;
  }
}

TEST_CASE("a 2-D shared array is row-major and per block") {
  std::vector<float> h(4 * 8 * 8);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 13);
  auto d = cusim::to_device(h, 32, 8);
  cusim::device_array<float> sums(4);
  cusim::launch(block_sum_2d, 4, dim3(8, 8), d, sums);
  auto r = sums.copy_to_host();
  for (int b = 0; b < 4; ++b) {
    float s = 0;
    for (int i = b * 64; i < (b + 1) * 64; ++i) s += h[i];
    CHECK(r[b] == s);
  }
}

__global__ void dynamic_scale(cusim::span<float> data) {
  cusim::span<float> buf = cusim::dynamic_shared<float>();
  const int t = threadIdx.x;
  buf[t] = data[cusim::grid<1>()];
  __syncthreads();
  data[cusim::grid<1>()] = buf[(t + 1) % blockDim.x] + static_cast<float>(buf.size());
}

TEST_CASE("dynamic shared memory is sized by the launch") {
  std::vector<float> h(96);
  for (int i = 0; i < 96; ++i) h[i] = static_cast<float>(i);
  auto d = cusim::to_device(h);
  cusim::launch(dynamic_scale, cusim::launch_config{dim3(3), dim3(32), 32 * sizeof(float)}, d);
  auto r = d.copy_to_host();
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 32; ++t) CHECK(r[b * 32 + t] == h[b * 32 + (t + 1) % 32] + 32.0f);
}

__global__ void block_marks(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 1> mark;
  if (threadIdx.x == 0 && blockIdx.x == 0) mark[0] = 12345;
  __syncthreads();
  out[blockIdx.x] = mark[0];
}

TEST_CASE("a block never sees another block's shared memory") {
  cusim::device_array<int> out(8);
  {
    scoped_env one("CUSIM_WORKERS", "1");  // blocks in order on one OS thread
    cusim::launch(block_marks, 8, 4, out);
  }
  auto r = out.copy_to_host();
  CHECK(r[0] == 12345);
  for (int b = 1; b < 8; ++b) CHECK(r[b] != 12345);
}

// One __shared__ variable per specialization of a function template, as nvcc emits one .shared
// symbol per specialization: scratch<int> and scratch<float> (same size) and slot<1> and slot<2>
// (same type) must not share storage.
template <class T>
__device__ T& scratch(int i) {
  __shared__ cusim::shared_array<T, 4> s;
  return s[i];
}
template <int K>
__device__ float& slot(int i) {
  __shared__ cusim::shared_array<float, 4> s;
  return s[i];
}

__global__ void specializations(cusim::span<float> out) {
  if (threadIdx.x == 0) {
    scratch<float>(0) = 1.5f;
    scratch<int>(0) = 7;
    slot<1>(0) = 10.0f;
    slot<2>(0) = 20.0f;
  }
  __syncthreads();
  if (threadIdx.x == 1) {  // another thread sees the same variables
    out[0] = scratch<float>(0);
    out[1] = static_cast<float>(scratch<int>(0));
    out[2] = slot<1>(0);
    out[3] = slot<2>(0);
  }
}

TEST_CASE("each specialization of a function template has its own __shared__ variable") {
  cusim::device_array<float> out(4);
  cusim::launch(specializations, 1, 2, out);
  const std::vector<float> r = out.copy_to_host();
  CHECK(r[0] == 1.5f);
  CHECK(r[1] == 7.0f);
  CHECK(r[2] == 10.0f);
  CHECK(r[3] == 20.0f);
}

// 40 KiB of __shared__ arrays: fine alone, too much with 10 KiB of dynamic shared memory.
__global__ void big_static_shared(cusim::span<int> out) {
  out[0] = 1;  // a side effect before the declaration: a refused launch must not show it
  __shared__ cusim::shared_array<char, 40 * 1024> big;
  big[threadIdx.x] = 1;
  out[1] = big[threadIdx.x];
}

TEST_CASE("a launch whose static plus dynamic shared memory exceeds the limit is refused before any thread runs") {
  cusim::device_array<int> out(2);
  cusim::launch(big_static_shared, 1, 1, out);  // 40 KiB alone fits
  CHECK(out.copy_to_host() == std::vector<int>{1, 1});
  auto untouched = cusim::to_device(std::vector<int>{0, 0});
  try {
    cusim::launch(big_static_shared, cusim::launch_config{1, 1, 10 * 1024}, untouched);
    FAIL("expected the launch to be refused");
  } catch (const cusim::cuda_error& e) {
    CHECK(e.code() == cudaErrorInvalidValue);
    if (on_simulator)
      CHECK(std::string(e.what()) ==
            "cusim::launch: invalid argument (cudaErrorInvalidValue): the kernel's 40960 bytes of __shared__ arrays "
            "and 10240 bytes of dynamic shared memory exceed the 49152 bytes per block");
  }
  CHECK(untouched.copy_to_host() == std::vector<int>{0, 0});  // no thread ran
  CHECK(cudaGetLastError() == cudaSuccess);                   // the C++ API leaves no last error
  cusim::launch(big_static_shared, cusim::launch_config{1, 1, 8 * 1024}, untouched);  // 48 KiB in all: fits
  CHECK(untouched.copy_to_host() == std::vector<int>{1, 1});
}

#if CUSIM_BACKEND_IS_SIM()  // nvcc rejects this kernel at compile time
__global__ void too_much_shared(cusim::span<int> out) {
  __shared__ cusim::shared_array<double, 7000> big;
  big[threadIdx.x] = 1;
  out[0] = static_cast<int>(big[0]);
}

__global__ void big_static_shared_first(cusim::span<int> out) {
  __shared__ cusim::shared_array<char, 40 * 1024> big;
  big[threadIdx.x] = 1;
  out[0] = big[threadIdx.x];
}

TEST_CASE("the first launch that overflows shared memory is a tagged error; later launches are refused up front") {
  // Until a kernel has run, the simulator cannot know its __shared__ arrays: the first launch
  // fails at the declaration, and every later one before any thread runs.
  auto out = cusim::to_device(std::vector<int>{0});
  const std::string msg =
      kernel_error_of([&] { cusim::launch(big_static_shared_first, cusim::launch_config{1, 1, 10 * 1024}, out); });
  CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: too much shared memory: the block's __shared__ arrays and dynamic "
                  "shared memory need 51200 bytes, the simulated device has 49152 per block (shared_memory.cu:",
                  0) == 0);
  CHECK_THROWS_AS(cusim::launch(big_static_shared_first, cusim::launch_config{1, 1, 10 * 1024}, out),
                  cusim::cuda_error);
  cusim::launch(big_static_shared_first, cusim::launch_config{1, 1, 0}, out);
  CHECK(out.copy_to_host() == std::vector<int>{1});
}

TEST_CASE("shared arrays beyond 48 KiB per block are reported") {
  cusim::device_array<int> out(1);
  std::string msg = kernel_error_of([&] { cusim::launch(too_much_shared, 1, 2, out); });
  CHECK(msg.rfind("tid=[0, 0, 0] ctaid=[0, 0, 0]: too much shared memory: the block's __shared__ arrays and "
                  "dynamic shared memory need 56000 bytes, the simulated device has 49152 per block (shared_memory.cu:",
                  0) == 0);
}
#endif
