// SPDX-License-Identifier: MIT
// Thrust as CUDA programs use it, from the toolkit layout's thrust/ (docs/unmodified-cuda.md,
// "Thrust, CUB and libcu++"): device_vector, the algorithms, the execution policies thrust::device,
// thrust::host, thrust::cuda::par and .on(stream), device_vector's memory as device memory (a
// kernel and cudaMemcpy use it, thrust::device_ptr wraps cudaMalloc'd memory), allocation failures
// as Thrust's bad_alloc, and a kernel reading past a device_vector's end reported by the checks.
#include "check.h"

#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/random.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <vector>

struct square {
  __host__ __device__ int operator()(int x) const { return x * x; }
};

__global__ void add_index(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += i;
}

__global__ void read_past(const int* v, int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[0] += v[i];  // i == n reads one element past the end
}

int main() {
  const int n = 1 << 14;

  // sort and sort_by_key, compared with std::sort and std::stable_sort.
  thrust::default_random_engine rng(7);
  thrust::uniform_int_distribution<unsigned> u(0, 1000);
  thrust::host_vector<unsigned> h(n);
  for (int i = 0; i < n; i++) h[i] = u(rng);
  thrust::device_vector<unsigned> keys = h;
  thrust::device_vector<int> values(n);
  thrust::sequence(values.begin(), values.end());
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin());
  std::vector<int> order(n);
  for (int i = 0; i < n; i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return h[a] < h[b]; });
  thrust::host_vector<unsigned> sorted_keys = keys;
  thrust::host_vector<int> sorted_values = values;
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += sorted_keys[i] != h[order[i]] || sorted_values[i] != order[i];
  CHECK_EQ(wrong, 0);
  thrust::device_vector<unsigned> again = h;
  thrust::sort(thrust::device, again.begin(), again.end(), thrust::greater<unsigned>());
  CHECK(thrust::is_sorted(again.begin(), again.end(), thrust::greater<unsigned>()));
  CHECK_EQ(static_cast<unsigned>(again.front()), *std::max_element(h.begin(), h.end()));

  // reduce, scans, transform, fill, count, unique, with each policy.
  thrust::device_vector<int> v(1000);
  thrust::sequence(thrust::cuda::par, v.begin(), v.end(), 1);
  CHECK_EQ(thrust::reduce(v.begin(), v.end()), 500500);
  thrust::device_vector<int> s(1000);
  thrust::inclusive_scan(thrust::device, v.begin(), v.end(), s.begin());
  CHECK_EQ(static_cast<int>(s[999]), 500500);
  thrust::exclusive_scan(v.begin(), v.end(), s.begin());
  CHECK_EQ(static_cast<int>(s[0]), 0);
  CHECK_EQ(static_cast<int>(s[999]), 499500);
  thrust::transform(v.begin(), v.end(), s.begin(), square());
  CHECK_EQ(static_cast<int>(s[9]), 100);
  thrust::transform(thrust::device, v.begin(), v.end(), s.begin(), [] __host__ __device__(int x) { return -x; });
  CHECK_EQ(static_cast<int>(s[9]), -10);
  thrust::fill(s.begin(), s.begin() + 10, 3);
  CHECK_EQ(thrust::count(s.begin(), s.end(), 3), 10);
  CHECK_EQ(thrust::unique(s.begin(), s.end()) - s.begin(), 991);
  thrust::host_vector<int> hv(v.begin(), v.end());
  CHECK_EQ(thrust::reduce(thrust::host, hv.begin(), hv.end()), 500500);

  // .on(stream): the algorithm sees what the stream's kernel wrote.
  cudaStream_t stream;
  CHECK_EQ(cudaStreamCreate(&stream), cudaSuccess);
  int* raw = thrust::raw_pointer_cast(v.data());
  add_index<<<4, 256, 0, stream>>>(raw, 1000);  // v[i] = 2 * i + 1
  CHECK_EQ(thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end()), 1000000);
  CHECK_EQ(cudaStreamDestroy(stream), cudaSuccess);

  // device_vector's memory is device memory: kernels, cudaMemcpy, pointer attributes.
  cudaPointerAttributes attributes{};
  CHECK_EQ(cudaPointerGetAttributes(&attributes, raw), cudaSuccess);
  CHECK_EQ(attributes.type, cudaMemoryTypeDevice);
  std::vector<int> back(1000);
  CHECK_EQ(cudaMemcpy(back.data(), raw, 1000 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  CHECK_EQ(back[10], 21);
  back[10] = -5;
  CHECK_EQ(cudaMemcpy(raw, back.data(), 1000 * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  CHECK_EQ(static_cast<int>(v[10]), -5);

  // thrust::device_ptr over cudaMalloc'd memory.
  int* d = nullptr;
  CHECK_EQ(cudaMalloc(&d, 100 * sizeof(int)), cudaSuccess);
  thrust::device_ptr<int> p(d);
  thrust::sequence(p, p + 100, 99, -1);
  thrust::sort(p, p + 100);
  CHECK_EQ(static_cast<int>(p[0]), 0);
  CHECK_EQ(thrust::reduce(p, p + 100), 4950);
  CHECK_EQ(cudaFree(d), cudaSuccess);

  // An allocation the device cannot give: Thrust's bad_alloc, not a sticky error.
  bool threw = false;
  try {
    thrust::device_vector<char> huge(std::size_t(1) << 50);
  } catch (const std::bad_alloc& e) {
    threw = std::string(e.what()).find("cudaErrorMemoryAllocation: out of memory") != std::string::npos;
  }
  CHECK(threw);
  CHECK_EQ(cudaGetLastError(), cudaSuccess);

  // A kernel reading one element past a device_vector: the checks' report, the sticky error.
  auto* small = new thrust::device_vector<int>(1000, 1);  // never destroyed: its free would fail
  int* out = nullptr;
  CHECK_EQ(cudaMallocManaged(&out, sizeof(int)), cudaSuccess);
  std::string report;
  {
    stderr_capture capture;
    read_past<<<1, 1024>>>(thrust::raw_pointer_cast(small->data()), 1000, out);
    CHECK_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    report = capture.text();
  }
  CHECK(report.find("tid=[1000, 0, 0] ctaid=[0, 0, 0]: invalid global read of 4 bytes at ") == 0);
  CHECK(report.find(": 0 bytes past the end of a 4000-byte allocation of device memory (cudaMalloc)") !=
        std::string::npos);
  CHECK(report.find("(thrust.cu:40)\n") != std::string::npos);
  if (failures) std::printf("%s", report.c_str());
  std::exit(finish());
}
