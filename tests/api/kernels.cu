// SPDX-License-Identifier: MIT
// Thread indexing, launch shapes and grid-stride loops, checked against host references.
#include "test_support.hpp"

#include <numeric>
#include <vector>

__global__ void record_indices(cusim::mdspan<unsigned, 2> out) {
  const unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned linear = bx * (blockDim.x * blockDim.y * blockDim.z) + tx;
  out(linear, 0) = threadIdx.x;
  out(linear, 1) = threadIdx.y;
  out(linear, 2) = threadIdx.z;
  out(linear, 3) = blockIdx.x;
  out(linear, 4) = blockIdx.y;
  out(linear, 5) = blockIdx.z;
  out(linear, 6) = blockDim.x * 100 + blockDim.y * 10 + blockDim.z;
  out(linear, 7) = gridDim.x * 100 + gridDim.y * 10 + gridDim.z;
}

void check_indices(const std::vector<unsigned>& h, unsigned n) {
  for (unsigned linear = 0; linear < n; ++linear) {
    const unsigned t = linear % 24, b = linear / 24;
    CHECK(h[linear * 8 + 0] == t % 4);
    CHECK(h[linear * 8 + 1] == t / 4 % 3);
    CHECK(h[linear * 8 + 2] == t / 12);
    CHECK(h[linear * 8 + 3] == b % 3);
    CHECK(h[linear * 8 + 4] == b / 3 % 2);
    CHECK(h[linear * 8 + 5] == b / 6);
    CHECK(h[linear * 8 + 6] == 432u);
    CHECK(h[linear * 8 + 7] == 322u);
  }
}

TEST_CASE("built-ins describe every thread of a 3-D launch exactly once") {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  const unsigned n = 3 * 2 * 2 * 4 * 3 * 2;
  cusim::device_array<unsigned, 2> out(n, 8);
  cusim::launch(record_indices, grid, block, out);
  check_indices(out.copy_to_host(), n);
}

TEST_CASE("launch<kernel>, the kernel known at compile time, runs every thread of a 3-D launch exactly once") {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  const unsigned n = 3 * 2 * 2 * 4 * 3 * 2;
  cusim::device_array<unsigned, 2> out(n, 8);
  cusim::launch<record_indices>(grid, block, out);
  check_indices(out.copy_to_host(), n);
  cusim::device_array<unsigned, 2> again(n, 8);
  cusim::launch<record_indices>(cusim::launch_config{grid, block}, again);
  check_indices(again.copy_to_host(), n);
}

constexpr int inline_fault_line = __LINE__ + 3;
__global__ void store_one_past(cusim::span<int> out) {
  const int i = cusim::grid<1>();
  out[i == 165 ? 1000 : i] = i;  // thread 37 of block 2 (block of 64) writes out of bounds
}

// An unchecked GPU build lets the write land past the array, unreported.
TEST_CASE("launch<kernel>: a fault in the inlined kernel names its thread, block and line" *
          doctest::skip(!kernel_faults_are_checked)) {
  cusim::device_array<int> out(256);
  const std::string msg = kernel_error_of([&] { cusim::launch<store_one_past>(4, 64, out); });
  CHECK(msg == "tid=[37, 0, 0] ctaid=[2, 0, 0]: index 1000 is out of bounds for axis 0 with size 256 (global array, "
                 "kernels.cu:" + std::to_string(inline_fault_line) + ")");
  cusim::device_array<int> next(256);
  cusim::launch<store_one_past>(1, 64, next);  // the next launch works
  CHECK(next.copy_to_host()[63] == 63);
}

// Odd threads return before the barrier (they count as arrived, as on a GPU); even threads
// exchange values through shared memory across it.
__global__ void early_exit_then_barrier(cusim::span<int> out) {
  __shared__ cusim::shared_array<int, 128> s;
  const unsigned t = threadIdx.x;
  if (t % 2 == 1) {
    out[blockIdx.x * blockDim.x + t] = -1;
    return;
  }
  s[t] = static_cast<int>(t + blockIdx.x);
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t + 2) % blockDim.x];
}

TEST_CASE("launch<kernel>: threads exiting early before a barrier, and the threads after them, run right") {
  cusim::device_array<int> out(3 * 128);
  cusim::launch<early_exit_then_barrier>(3, 128, out);
  const std::vector<int> h = out.copy_to_host();
  for (unsigned b = 0; b < 3; ++b)
    for (unsigned t = 0; t < 128; ++t)
      CHECK(h[b * 128 + t] == (t % 2 ? -1 : static_cast<int>((t + 2) % 128 + b)));
}

__global__ void increment_by_one(cusim::span<int> a) {
  int i = cusim::grid<1>();
  if (i < static_cast<int>(a.size())) a[i] += 1;
}

TEST_CASE("grid<1> covers a vector with a partial last block") {
  std::vector<int> h(1000);
  std::iota(h.begin(), h.end(), 0);
  auto d = cusim::to_device(h);
  cusim::launch(increment_by_one, (1000 + 127) / 128, 128, d);
  auto r = d.copy_to_host();
  for (int i = 0; i < 1000; ++i) CHECK(r[i] == i + 1);
}

__global__ void grid_stride_saxpy(float a, cusim::span<const float> x, cusim::span<float> y) {
  for (int i = cusim::grid<1>(); i < static_cast<int>(y.size()); i += cusim::gridsize<1>()) y[i] = a * x[i] + y[i];
}

TEST_CASE("a grid-stride loop with fewer threads than elements visits each element once") {
  const int n = 10007;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 1.0f * (i % 7);
  auto dx = cusim::to_device(x);
  auto dy = cusim::to_device(y);
  cusim::launch(grid_stride_saxpy, 7, 64, 2.0f, dx, dy);
  auto r = dy.copy_to_host();
  for (int i = 0; i < n; ++i) CHECK(r[i] == doctest::Approx(2.0f * x[i] + y[i]));
}

__global__ void grid2_and_3(cusim::mdspan<int, 3> out, cusim::span<int> sizes) {
  auto [x, y] = cusim::grid<2>();
  auto p = cusim::grid<3>();
  if (x < out.extent(0) && y < out.extent(1)) out(x, y, 0) = x * 1000 + y, out(x, y, 1) = p.z;
  if (x == 0 && y == 0) {
    auto [sx, sy] = cusim::gridsize<2>();
    sizes[0] = sx;
    sizes[1] = sy;
    sizes[2] = cusim::gridsize<3>().z;
    sizes[3] = cusim::gridsize<1>();
  }
}

TEST_CASE("grid<2>, grid<3> and gridsize<N> follow numba's cuda.grid and cuda.gridsize") {
  cusim::device_array<int, 3> out(20, 10, 2);
  cusim::device_array<int> sizes(4);
  cusim::launch(grid2_and_3, dim3(3, 2), dim3(8, 8), out, sizes);
  auto h = out.copy_to_host();
  for (int x = 0; x < 20; ++x)
    for (int y = 0; y < 10; ++y) {
      CHECK(h[(x * 10 + y) * 2] == x * 1000 + y);
      CHECK(h[(x * 10 + y) * 2 + 1] == 0);
    }
  auto s = sizes.copy_to_host();
  CHECK(s[0] == 24);
  CHECK(s[1] == 16);
  CHECK(s[2] == 1);
  CHECK(s[3] == 24);
}

__global__ void warp_size_kernel(cusim::span<int> out) { out[0] = warpSize; }

TEST_CASE("warpSize is 32") {
  cusim::device_array<int> out(1);
  cusim::launch(warp_size_kernel, 1, 1, out);
  CHECK(out.copy_to_host()[0] == 32);
}

__global__ void raw_pointer_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2;
}

TEST_CASE("kernels taking raw pointers from cudaMalloc work with launch_config") {
  const int n = 300;
  float *in = nullptr, *out = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
  std::vector<float> h(n);
  std::iota(h.begin(), h.end(), 1.0f);
  REQUIRE(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  cusim::launch(raw_pointer_kernel, cusim::launch_config{dim3(3), dim3(128)}, out, static_cast<const float*>(in), n);
  std::vector<float> r(n);
  REQUIRE(cudaMemcpy(r.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) CHECK(r[i] == 2 * h[i]);
  CHECK(cudaFree(in) == cudaSuccess);
  CHECK(cudaFree(out) == cudaSuccess);
}

__global__ void printf_kernel(int v) {
  if (threadIdx.x == 0) printf("device printf %d from block %u\n", v, blockIdx.x);
}

TEST_CASE("device printf runs inside kernels") {
  cusim::launch(printf_kernel, 2, 4, 42);
  cusim::synchronize();
}
