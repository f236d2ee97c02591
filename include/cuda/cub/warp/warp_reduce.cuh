// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::WarpReduce. The threads of a logical warp
// (LOGICAL_WARP_THREADS consecutive lanes of a warp, a power of two up to 32) each pass a value;
// lane 0 of the logical warp gets their reduction (of the first valid_items), folded as CUB's
// shuffle reduction folds it (lane i takes lane i + 1, then i + 2, ...). The other lanes get an
// unspecified value. The whole logical warp must call it, as in CUB.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/thread/thread_operators.cuh>

namespace cub {

template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "cusim's cub::WarpReduce: LOGICAL_WARP_THREADS is a power of two up to 32");

 public:
  struct TempStorage {
    cusim_detail::slots<T, LOGICAL_WARP_THREADS> values;
  };

  __device__ __forceinline__ WarpReduce(TempStorage& storage)
      : storage_(storage), lane_(static_cast<int>((threadIdx.x + threadIdx.y * blockDim.x +
                                                   threadIdx.z * blockDim.x * blockDim.y) %
                                                  LOGICAL_WARP_THREADS)) {}

  template <typename ReductionOp>
  __device__ __forceinline__ T Reduce(T input, ReductionOp op) {
    return Reduce(input, op, LOGICAL_WARP_THREADS);
  }

  template <typename ReductionOp>
  __device__ __forceinline__ T Reduce(T input, ReductionOp op, int valid_items) {
    T* values = storage_.values.get();
    new (&values[lane_]) T(input);
    __syncwarp(mask());
    T result = input;
    if (lane_ == 0)
      result = cusim_detail::warp_tree(values, valid_items < LOGICAL_WARP_THREADS ? valid_items : LOGICAL_WARP_THREADS,
                                       op);
    __syncwarp(mask());
    return result;
  }

  __device__ __forceinline__ T Sum(T input) { return Reduce(input, cub::Sum()); }
  __device__ __forceinline__ T Sum(T input, int valid_items) { return Reduce(input, cub::Sum(), valid_items); }

 private:
  // The lanes of this logical warp within the hardware warp.
  __device__ unsigned mask() const {
    if constexpr (LOGICAL_WARP_THREADS == 32) return 0xffffffffu;
    else {
      const unsigned linear = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
      const unsigned first = (linear % 32) / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS;
      return ((1u << LOGICAL_WARP_THREADS) - 1u) << first;
    }
  }

  TempStorage& storage_;
  int lane_;
};

}  // namespace cub
