// SPDX-License-Identifier: MIT
// cudaLaunchKernel and cudaLaunchCooperativeKernel of a kernel named in the call ((void*)k,
// (const void*)&k, reinterpret_cast<void*>(k<N>)) launch as <<<>>> does (the driver's rewrite);
// through a `void*` variable they launch by address. Either way: the results, the returned error
// codes, the dynamic shared memory, the stream's order, and the sticky fault.
#include "check.h"

#include <cooperative_groups.h>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

template <int N>
__global__ void fill(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = N;
}

__global__ void reverse_in_shared(int* data) {
  extern __shared__ int tile[];
  tile[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void grid_sum(int* partial, int* total) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) partial[blockIdx.x] = static_cast<int>(blockIdx.x) + 1;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}

__global__ void overrun(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x + 1]; }  // line 39

int main() {
  const int n = 1000;
  float *a, *b, *c;
  CHECK_EQ(cudaMallocManaged(&a, n * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&b, n * sizeof(float)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&c, n * sizeof(float)), cudaSuccess);
  for (int i = 0; i < n; ++i) a[i] = static_cast<float>(i), b[i] = 2.0f * static_cast<float>(i), c[i] = 0;
  int count = n;
  void* args[] = {&a, &b, &c, &count};

  // By name, on the default stream.
  CHECK_EQ(cudaLaunchKernel((void*)add, dim3((n + 127) / 128), dim3(128), args, 0, nullptr), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(c[999], 2997.0f);
  // By address: the same kernel through a variable.
  for (int i = 0; i < n; ++i) c[i] = 0;
  const void* by_address = reinterpret_cast<const void*>(&add);
  CHECK_EQ(cudaLaunchKernel(by_address, dim3((n + 127) / 128), dim3(128), args, 0, nullptr), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(c[999], 2997.0f);

  // A template instantiation never launched before, by name.
  int* filled;
  CHECK_EQ(cudaMallocManaged(&filled, 64 * sizeof(int)), cudaSuccess);
  void* fill_args[] = {&filled};
  CHECK_EQ(cudaLaunchKernel(reinterpret_cast<void*>(fill<128>), dim3(2), dim3(32), fill_args), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(filled[63], 128);

  // Dynamic shared memory and a stream: the launch runs in the stream's order.
  cudaStream_t s;
  CHECK_EQ(cudaStreamCreate(&s), cudaSuccess);
  int* data;
  CHECK_EQ(cudaMallocManaged(&data, 64 * sizeof(int)), cudaSuccess);
  for (int i = 0; i < 64; ++i) data[i] = i;
  void* shared_args[] = {&data};
  CHECK_EQ(cudaLaunchKernel((const void*)&reverse_in_shared, dim3(1), dim3(64), shared_args, 64 * sizeof(int), s),
           cudaSuccess);
  CHECK_EQ(cudaLaunchKernel((const void*)&reverse_in_shared, dim3(1), dim3(64), shared_args, 64 * sizeof(int), s),
           cudaSuccess);
  CHECK_EQ(cudaLaunchKernel((const void*)&reverse_in_shared, dim3(1), dim3(64), shared_args, 64 * sizeof(int), s),
           cudaSuccess);
  CHECK_EQ(cudaStreamSynchronize(s), cudaSuccess);
  CHECK_EQ(data[0], 63);
  CHECK_EQ(data[63], 0);

  // Cooperative: every block resident, grid.sync() works.
  int *partial, *total;
  CHECK_EQ(cudaMallocManaged(&partial, 8 * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMallocManaged(&total, sizeof(int)), cudaSuccess);
  void* grid_args[] = {&partial, &total};
  CHECK_EQ(cudaLaunchCooperativeKernel((void*)grid_sum, dim3(8), dim3(32), grid_args, 0, nullptr), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  CHECK_EQ(*total, 36);

  // A bad configuration is returned and is the last error (CUDA 13, as an H100 answers); nothing runs.
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  c[0] = -1.0f;
  CHECK_EQ(cudaLaunchKernel((void*)add, dim3(1), dim3(2048), args, 0, nullptr), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK_EQ(cudaLaunchKernel(by_address, dim3(1), dim3(2048), args, 0, nullptr), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK_EQ(cudaLaunchKernel((void*)add, dim3(1), dim3(32), args, 64 * 1024 * 1024, nullptr), cudaErrorInvalidValue);
  CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  CHECK_EQ(c[0], -1.0f);

  // A kernel's overrun: reported once, the sticky error of the synchronisation and of the launches after it.
  int *in, *out;
  CHECK_EQ(cudaMalloc(&in, 32 * sizeof(int)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&out, 32 * sizeof(int)), cudaSuccess);
  void* overrun_args[] = {&in, &out};
  std::string report;
  {
    stderr_capture capture;
    CHECK_EQ(cudaLaunchKernel((void*)overrun, dim3(1), dim3(32), overrun_args, 0, s), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s), cudaErrorIllegalAddress);
    CHECK_EQ(cudaLaunchKernel((void*)add, dim3(1), dim3(32), args, 0, nullptr), cudaErrorIllegalAddress);
    CHECK_EQ(cudaLaunchKernel(by_address, dim3(1), dim3(32), args, 0, nullptr), cudaErrorIllegalAddress);
    report = capture.text();
  }
  CHECK(report.find("tid=[31, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes") == 0);
  CHECK(report.find("launch_kernel_named.cu:39") != std::string::npos);
  CHECK_EQ(report.find("tid=", 1), std::string::npos);
  return finish();
}
