// SPDX-License-Identifier: MIT
// __shared__ variables and extern __shared__ arrays built with the nvcc driver: per block, one
// per declaration and function specialization (shared by every call of one function), uninitialised
// by constructors, and the launch's dynamic shared memory.
#include "check.h"

#include <cstdint>

constexpr int TILE = 16;

__global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// __shared__ int slot;  in a function template: one variable per specialization.
template <int Which>
__device__ int* slot_of() {
  __shared__ int slot;
  return &slot;
}

__global__ void specializations(int* out) {
  if (threadIdx.x == 0) {
    *slot_of<0>() = 10 + blockIdx.x;
    *slot_of<1>() = 20 + blockIdx.x;
  }
  __syncthreads();
  out[blockIdx.x * 4 + 0] = *slot_of<0>();  // a second call: the same variable
  out[blockIdx.x * 4 + 1] = *slot_of<1>();
  out[blockIdx.x * 4 + 2] = slot_of<0>() != slot_of<1>();
}

// extern __shared__ double dyn[];  (rewritten) and __align__(64) __shared__ char aligned[3];
__global__ void dynamic(unsigned long long* out) {
  extern __shared__ double dyn[];
  __shared__ __align__(64) char aligned[3];
  dyn[threadIdx.x] = threadIdx.x + blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) {
    double sum = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) sum += dyn[i];
    out[blockIdx.x * 3 + 0] = static_cast<unsigned long long>(sum);
    out[blockIdx.x * 3 + 1] = reinterpret_cast<std::uintptr_t>(dyn) % 16;
    out[blockIdx.x * 3 + 2] = reinterpret_cast<std::uintptr_t>(&aligned[0]) % 64;
  }
}

struct not_trivial {
  ~not_trivial() {}
};

int main() {
  constexpr int n = 64;
  float *in = nullptr, *out = nullptr;
  CHECK_EQ(cudaMallocManaged(&in, n * n * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&out, n * n * sizeof(float)), cudaSuccess);
  for (int i = 0; i < n * n; ++i) in[i] = static_cast<float>(i);
  transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(in, out, n);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  int wrong = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) wrong += out[y * n + x] != in[x * n + y];
  CHECK_EQ(wrong, 0);

  int* slots = nullptr;
  CHECK_EQ(cudaMallocManaged(&slots, 3 * 4 * sizeof(int)), cudaSuccess);
  specializations<<<3, 64>>>(slots);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int b = 0; b < 3; ++b) {
    CHECK_EQ(slots[b * 4 + 0], 10 + b);
    CHECK_EQ(slots[b * 4 + 1], 20 + b);
    CHECK_EQ(slots[b * 4 + 2], 1);
  }

  unsigned long long* sums = nullptr;
  CHECK_EQ(cudaMallocManaged(&sums, 2 * 3 * sizeof(unsigned long long)), cudaSuccess);
  dynamic<<<2, 40, 40 * sizeof(double)>>>(sums);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (unsigned long long b = 0; b < 2; ++b) {
    CHECK_EQ(sums[b * 3 + 0], 40 * 39 / 2 + 40 * b);
    CHECK_EQ(sums[b * 3 + 1], 0u);
    CHECK_EQ(sums[b * 3 + 2], 0u);
  }

  // Outside a kernel a __shared__ variable is a usage error.
  static constexpr char key = 0;
  std::string what;
  try {
    ::cusim::detail::shared_variable<int>(&key, ::cusim::detail::source_location::current());
  } catch (const std::logic_error& e) {
    what = e.what();
  }
  CHECK_EQ(what, std::string("cusim: a __shared__ variable used outside a kernel"));
  try {
    ::cusim::detail::dynamic_shared_pointer<int>();
  } catch (const std::logic_error& e) {
    what = e.what();
  }
  CHECK_EQ(what, std::string("cusim: an extern __shared__ array used outside a kernel"));
#ifdef CUSIM_EXPECT_COMPILE_ERROR
  ::cusim::detail::shared_variable<not_trivial>(&key, ::cusim::detail::source_location::current());
#endif
  return finish();
}
