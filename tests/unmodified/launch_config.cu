// SPDX-License-Identifier: MIT
// A bad launch configuration is the last error (as on a GPU), runs no thread and prints nothing; the
// arguments convert to the kernel's parameters as in a call of it.
#include "check.h"

__global__ void writes(int* flag, float scale, long long offset) {
  if (threadIdx.x == 0) *flag = static_cast<int>(scale * 2) + static_cast<int>(offset);
}

// Never launched with <<<>>>: known by its address from the start (the driver registers every
// __global__ function it sees defined), as cudaLaunchKernel and graph kernel nodes need.
static __global__ void __launch_bounds__(64) by_address(int* out, int value) { out[threadIdx.x] = value + threadIdx.x; }

template <class T, int N>
__global__ void fills(T* out) {
  out[threadIdx.x] = static_cast<T>(N);
}

int main() {
  int* flag = nullptr;
  CHECK_EQ(cudaMallocManaged(&flag, sizeof(int)), cudaSuccess);
  *flag = 0;
  std::string printed;
  {
    stderr_capture capture;
    writes<<<1, 2048>>>(flag, 1.0f, 0);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);  // CUDA 13, as an H100 answers
    CHECK_EQ(cudaGetLastError(), cudaSuccess);  // not sticky
    writes<<<0, 32>>>(flag, 1.0f, 0);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);  // CUDA 13, as an H100 answers
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    printed = capture.text();
  }
  CHECK_EQ(*flag, 0);
  CHECK_EQ(printed, std::string());

  writes<<<1, 32>>>(flag, 3, 4u);  // int -> float, unsigned -> long long
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*flag, 10);

  double* values = nullptr;
  CHECK_EQ(cudaMallocManaged(&values, 8 * sizeof(double)), cudaSuccess);
  fills<double, 7><<<1, 8>>>(values);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int i = 0; i < 8; ++i) CHECK_EQ(values[i], 7.0);

  int* by = nullptr;
  CHECK_EQ(cudaMallocManaged(&by, 4 * sizeof(int)), cudaSuccess);
  int value = 40;
  void* args[] = {&by, &value};
  CHECK_EQ(cudaLaunchKernel(reinterpret_cast<const void*>(by_address), dim3(1), dim3(4), args, 0, nullptr), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(by[3], 43);
  return finish();
}
