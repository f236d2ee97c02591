// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::WarpScan. The lanes of a logical warp
// (LOGICAL_WARP_THREADS consecutive lanes, a power of two up to 32) each pass a value; lane i gets
// the scan of lanes 0..i (inclusive) or 0..i-1 (exclusive: lane 0 gets the initial value, or zero
// for ExclusiveSum), and warp_aggregate the scan of all. The whole logical warp must call it.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/thread/thread_operators.cuh>

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "cusim's cub::WarpScan: LOGICAL_WARP_THREADS is a power of two up to 32");

 public:
  struct TempStorage {
    cusim_detail::slots<T, LOGICAL_WARP_THREADS> values;
  };

  __device__ __forceinline__ WarpScan(TempStorage& storage)
      : storage_(storage), lane_(static_cast<int>(linear() % LOGICAL_WARP_THREADS)) {}

  template <typename ScanOp>
  __device__ __forceinline__ void InclusiveScan(T input, T& output, ScanOp op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <typename ScanOp>
  __device__ __forceinline__ void InclusiveScan(T input, T& output, ScanOp op, T& warp_aggregate) {
    const T* values = share(input);
    T running = values[0];
    for (int i = 1; i <= lane_; ++i) running = op(running, values[i]);
    T total = values[0];
    for (int i = 1; i < LOGICAL_WARP_THREADS; ++i) total = op(total, values[i]);
    __syncwarp(mask());
    output = running;
    warp_aggregate = total;
  }
  template <typename ScanOp>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
  }
  template <typename ScanOp>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp op, T& warp_aggregate) {
    const T* values = share(input);
    T running = initial_value;
    for (int i = 0; i < lane_; ++i) running = op(running, values[i]);
    T total = values[0];
    for (int i = 1; i < LOGICAL_WARP_THREADS; ++i) total = op(total, values[i]);
    __syncwarp(mask());
    output = running;
    warp_aggregate = total;
  }
  __device__ __forceinline__ void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum()); }
  __device__ __forceinline__ void InclusiveSum(T input, T& output, T& warp_aggregate) {
    InclusiveScan(input, output, cub::Sum(), warp_aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(T input, T& output) {
    ExclusiveScan(input, output, T(0), cub::Sum());
  }
  __device__ __forceinline__ void ExclusiveSum(T input, T& output, T& warp_aggregate) {
    ExclusiveScan(input, output, T(0), cub::Sum(), warp_aggregate);
  }

 private:
  __device__ static unsigned linear() {
    return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  }
  __device__ unsigned mask() const {
    if constexpr (LOGICAL_WARP_THREADS == 32) return 0xffffffffu;
    else {
      const unsigned first = (linear() % 32) / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS;
      return ((1u << LOGICAL_WARP_THREADS) - 1u) << first;
    }
  }
  // Every lane's value, readable by all once the logical warp has passed the barrier.
  __device__ const T* share(T input) {
    T* values = storage_.values.get();
    new (&values[lane_]) T(input);
    __syncwarp(mask());
    return values;
  }

  TempStorage& storage_;
  int lane_;
};

}  // namespace cub
