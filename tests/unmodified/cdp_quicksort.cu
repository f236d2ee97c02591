// SPDX-License-Identifier: MIT
// Quicksort by dynamic parallelism, the shape of cuda-samples' cdpAdvancedQuicksort without its
// Thrust: each segment gets a stream of its own (cudaStreamCreateWithFlags with
// cudaStreamNonBlocking, in a kernel), a device-side cudaMemcpyAsync of the segment into scratch
// memory, then, in the same stream, a one-block partition kernel that reads that copy; the block's
// first thread launches the two halves the same way, a small or deep segment gets an insertion
// sort. Correct only if each stream runs its copy before its partition and every child sees what
// its parent wrote. Plain CUDA (nvcc -rdc=true builds it for a GPU).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int small_segment = 32;
constexpr int max_depth = 16;  // below CUDA's 24 levels of nesting
constexpr int partition_threads = 256;

__device__ int launch_failures;

__global__ void insertion_sort(unsigned* data, int lo, int n) {
  unsigned* a = data + lo;
  for (int i = 1; i < n; ++i) {
    const unsigned v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
}

__global__ void partition(unsigned* data, unsigned* scratch, int lo, int n, int depth);

// Sorts data[lo, lo + n) in a stream of its own: the calling thread's part.
__device__ void sort_segment(unsigned* data, unsigned* scratch, int lo, int n, int depth) {
  if (n < 2) return;
  cudaStream_t s;
  if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
    atomicAdd(&launch_failures, 1);
    return;
  }
  if (n <= small_segment || depth >= max_depth) {
    insertion_sort<<<1, 1, 0, s>>>(data, lo, n);
  } else {
    cudaMemcpyAsync(scratch + lo, data + lo, n * sizeof(unsigned), cudaMemcpyDeviceToDevice, s);
    partition<<<1, partition_threads, 0, s>>>(data, scratch, lo, n, depth);
  }
  if (cudaGetLastError() != cudaSuccess) atomicAdd(&launch_failures, 1);
  cudaStreamDestroy(s);  // the work queued on it still runs
}

// Three-way partition of scratch[lo, lo + n) (the segment's copy) back into data: less than the
// pivot to the left, greater to the right, equal between.
__global__ void partition(unsigned* data, unsigned* scratch, int lo, int n, int depth) {
  __shared__ unsigned less, greater;
  const unsigned* in = scratch + lo;
  unsigned* out = data + lo;
  const unsigned a = in[0], b = in[n / 2], c = in[n - 1];
  const unsigned pivot = max(min(a, b), min(max(a, b), c));  // the median of three
  if (threadIdx.x == 0) less = greater = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    const unsigned v = in[i];
    if (v < pivot) out[atomicAdd(&less, 1u)] = v;
    else if (v > pivot) out[n - 1 - atomicAdd(&greater, 1u)] = v;
  }
  __syncthreads();
  for (int i = less + threadIdx.x; i < n - static_cast<int>(greater); i += blockDim.x) out[i] = pivot;
  if (threadIdx.x == 0) {
    sort_segment(data, scratch, lo, less, depth + 1);
    sort_segment(data, scratch, lo + n - greater, greater, depth + 1);
  }
}

__global__ void sort_all(unsigned* data, unsigned* scratch, int n) { sort_segment(data, scratch, 0, n, 0); }

static void sort_and_check(const char* name, std::vector<unsigned> input) {
  const int n = static_cast<int>(input.size());
  unsigned* data = nullptr;
  unsigned* scratch = nullptr;
  CHECK_EQ(cudaMalloc(&data, n * sizeof(unsigned)), cudaSuccess);
  CHECK_EQ(cudaMalloc(&scratch, n * sizeof(unsigned)), cudaSuccess);
  CHECK_EQ(cudaMemcpy(data, input.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice), cudaSuccess);
  const int zero = 0;
  CHECK_EQ(cudaMemcpyToSymbol(launch_failures, &zero, sizeof zero), cudaSuccess);
  sort_all<<<1, 1>>>(data, scratch, n);
  CHECK_EQ(cudaGetLastError(), cudaSuccess);
  CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<unsigned> sorted(n);
  CHECK_EQ(cudaMemcpy(sorted.data(), data, n * sizeof(unsigned), cudaMemcpyDeviceToHost), cudaSuccess);
  int refused = -1;
  CHECK_EQ(cudaMemcpyFromSymbol(&refused, launch_failures, sizeof refused), cudaSuccess);
  CHECK_EQ(refused, 0);
  std::sort(input.begin(), input.end());
  const bool same = sorted == input;
  CHECK(same);
  std::printf("%s: %d elements %s\n", name, n, same ? "sorted" : "NOT sorted");
  cudaFree(data);
  cudaFree(scratch);
}

int main() {
  std::vector<unsigned> random(200000);
  unsigned x = 12345;
  for (unsigned& v : random) v = x = x * 1664525u + 1013904223u;
  sort_and_check("random", random);
  std::vector<unsigned> few(100000);
  for (unsigned& v : few) v = (x = x * 1664525u + 1013904223u) % 7;  // many equal keys
  sort_and_check("seven distinct keys", few);
  std::vector<unsigned> descending(50000);
  for (int i = 0; i < 50000; ++i) descending[i] = 50000 - i;
  sort_and_check("descending", descending);
  return finish();
}
