// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::BlockReduce. Every thread passes its value (or its
// ITEMS values), the block waits at a barrier, and thread 0 gets the reduction of all of them (of
// the first num_valid), folded as CUB's default algorithm (BLOCK_REDUCE_WARP_REDUCTIONS) folds
// them: each warp's values as its warp reduction does, then the warps' results in order. The other
// threads get an unspecified value, as in CUB. The TempStorage may be reused after the call.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/thread/thread_operators.cuh>

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    cusim_detail::slots<T, BLOCK_THREADS> values;
  };

  __device__ __forceinline__ BlockReduce()
      : storage_(cusim_detail::private_storage<TempStorage>()),
        tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
  __device__ __forceinline__ BlockReduce(TempStorage& storage)
      : storage_(storage), tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

  template <typename ReductionOp>
  __device__ __forceinline__ T Reduce(T input, ReductionOp op) {
    return Reduce(input, op, BLOCK_THREADS);
  }

  template <int ITEMS_PER_THREAD, typename ReductionOp>
  __device__ __forceinline__ T Reduce(T (&inputs)[ITEMS_PER_THREAD], ReductionOp op) {
    T partial = inputs[0];
    for (int i = 1; i < ITEMS_PER_THREAD; ++i) partial = op(partial, inputs[i]);
    return Reduce(partial, op, BLOCK_THREADS);
  }

  template <typename ReductionOp>
  __device__ __forceinline__ T Reduce(T input, ReductionOp op, int num_valid) {
    T* values = storage_.values.get();
    new (&values[tid_]) T(input);
    __syncthreads();
    T result = input;
    if (tid_ == 0) {
      const int n = num_valid < BLOCK_THREADS ? num_valid : BLOCK_THREADS;
      for (int w = 0; w * 32 < n; ++w) {
        const int lanes = n - w * 32 < 32 ? n - w * 32 : 32;
        T warp = cusim_detail::warp_tree(values + w * 32, lanes, op);
        result = w == 0 ? warp : op(result, warp);
      }
    }
    __syncthreads();
    return result;
  }

  __device__ __forceinline__ T Sum(T input) { return Reduce(input, cub::Sum()); }

  template <int ITEMS_PER_THREAD>
  __device__ __forceinline__ T Sum(T (&inputs)[ITEMS_PER_THREAD]) {
    return Reduce(inputs, cub::Sum());
  }

  __device__ __forceinline__ T Sum(T input, int num_valid) { return Reduce(input, cub::Sum(), num_valid); }

 private:
  TempStorage& storage_;
  int tid_;
};

}  // namespace cub
