// SPDX-License-Identifier: MIT
// An unmodified CUDA program with Thrust: a device_vector filled by thrust::sequence, squared by a
// kernel through raw_pointer_cast, sorted and summed by Thrust, and checked.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cstdio>

__global__ void square(int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

int main() {
  const int n = 1000;
  thrust::device_vector<int> v(n);
  thrust::sequence(v.begin(), v.end(), -500);  // -500, ..., 499
  square<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(v.data()), n);
  thrust::sort(v.begin(), v.end());
  const int lo = v.front(), hi = v.back(), sum = thrust::reduce(v.begin(), v.end());
  const bool ok = lo == 0 && hi == 250000 && sum == 83333500 && thrust::is_sorted(v.begin(), v.end());
  std::printf("thrust_square_sort (unmodified CUDA, Thrust): min %d, max %d, sum %d: %s\n", lo, hi, sum,
              ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
