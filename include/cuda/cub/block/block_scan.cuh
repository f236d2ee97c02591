// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::BlockScan. Thread i gets the scan of the values of
// threads 0..i (inclusive) or 0..i-1 (exclusive; thread 0 gets the initial value, or for
// ExclusiveSum zero), in thread order; with ITEMS_PER_THREAD values each, the blocked arrangement
// (thread i holds items i * ITEMS .. i * ITEMS + ITEMS - 1). block_aggregate is the scan of all. The
// TempStorage may be reused after the call.
#pragma once

#include <cub/detail/cusim_cub.cuh>
#include <cub/thread/thread_operators.cuh>

namespace cub {

enum BlockScanAlgorithm {
  BLOCK_SCAN_RAKING,
  BLOCK_SCAN_RAKING_MEMOIZE,
  BLOCK_SCAN_WARP_SCANS,
};

template <typename T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    cusim_detail::slots<T, BLOCK_THREADS> values;  // the threads' values, then their inclusive scan
  };

  __device__ __forceinline__ BlockScan()
      : storage_(cusim_detail::private_storage<TempStorage>()),
        tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
  __device__ __forceinline__ BlockScan(TempStorage& storage)
      : storage_(storage), tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

  // One value per thread.
  template <typename ScanOp>
  __device__ __forceinline__ void InclusiveScan(T input, T& output, ScanOp op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <typename ScanOp>
  __device__ __forceinline__ void InclusiveScan(T input, T& output, ScanOp op, T& block_aggregate) {
    T* scan = scan_all(input, op);
    output = scan[tid_];
    block_aggregate = scan[BLOCK_THREADS - 1];
    __syncthreads();
  }
  template <typename ScanOp>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
  }
  template <typename ScanOp>
  __device__ __forceinline__ void ExclusiveScan(T input, T& output, T initial_value, ScanOp op, T& block_aggregate) {
    T* scan = scan_all(input, op);
    output = tid_ == 0 ? initial_value : op(initial_value, scan[tid_ - 1]);
    block_aggregate = scan[BLOCK_THREADS - 1];
    __syncthreads();
  }
  __device__ __forceinline__ void InclusiveSum(T input, T& output) { InclusiveScan(input, output, cub::Sum()); }
  __device__ __forceinline__ void InclusiveSum(T input, T& output, T& block_aggregate) {
    InclusiveScan(input, output, cub::Sum(), block_aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(T input, T& output) {
    T aggregate;
    ExclusiveSum(input, output, aggregate);
  }
  __device__ __forceinline__ void ExclusiveSum(T input, T& output, T& block_aggregate) {
    T* scan = scan_all(input, cub::Sum());
    output = tid_ == 0 ? T(0) : scan[tid_ - 1];
    block_aggregate = scan[BLOCK_THREADS - 1];
    __syncthreads();
  }

  // ITEMS_PER_THREAD values per thread, blocked.
  template <int ITEMS, typename ScanOp>
  __device__ __forceinline__ void InclusiveScan(T (&input)[ITEMS], T (&output)[ITEMS], ScanOp op) {
    T aggregate;
    InclusiveScan(input, output, op, aggregate);
  }
  template <int ITEMS, typename ScanOp>
  __device__ __forceinline__ void InclusiveScan(T (&input)[ITEMS], T (&output)[ITEMS], ScanOp op,
                                                T& block_aggregate) {
    T partial = input[0];
    for (int i = 1; i < ITEMS; ++i) partial = op(partial, input[i]);
    T* scan = scan_all(partial, op);
    T running = input[0];
    if (tid_ > 0) running = op(scan[tid_ - 1], input[0]);
    block_aggregate = scan[BLOCK_THREADS - 1];
    __syncthreads();
    output[0] = running;
    for (int i = 1; i < ITEMS; ++i) output[i] = running = op(running, input[i]);
  }
  template <int ITEMS, typename ScanOp>
  __device__ __forceinline__ void ExclusiveScan(T (&input)[ITEMS], T (&output)[ITEMS], T initial_value, ScanOp op) {
    T aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
  }
  template <int ITEMS, typename ScanOp>
  __device__ __forceinline__ void ExclusiveScan(T (&input)[ITEMS], T (&output)[ITEMS], T initial_value, ScanOp op,
                                                T& block_aggregate) {
    T partial = input[0];
    for (int i = 1; i < ITEMS; ++i) partial = op(partial, input[i]);
    T* scan = scan_all(partial, op);
    T running = tid_ == 0 ? initial_value : op(initial_value, scan[tid_ - 1]);
    block_aggregate = scan[BLOCK_THREADS - 1];
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i) {
      T item = input[i];  // input and output may be one array
      output[i] = running;
      running = op(running, item);
    }
  }
  template <int ITEMS>
  __device__ __forceinline__ void InclusiveSum(T (&input)[ITEMS], T (&output)[ITEMS]) {
    InclusiveScan(input, output, cub::Sum());
  }
  template <int ITEMS>
  __device__ __forceinline__ void InclusiveSum(T (&input)[ITEMS], T (&output)[ITEMS], T& block_aggregate) {
    InclusiveScan(input, output, cub::Sum(), block_aggregate);
  }
  template <int ITEMS>
  __device__ __forceinline__ void ExclusiveSum(T (&input)[ITEMS], T (&output)[ITEMS]) {
    ExclusiveScan(input, output, T(0), cub::Sum());
  }
  template <int ITEMS>
  __device__ __forceinline__ void ExclusiveSum(T (&input)[ITEMS], T (&output)[ITEMS], T& block_aggregate) {
    ExclusiveScan(input, output, T(0), cub::Sum(), block_aggregate);
  }

 private:
  // Every thread's value in thread order, scanned by thread 0 between two barriers: the
  // inclusive scan, which the caller reads before its own closing barrier.
  template <typename ScanOp>
  __device__ T* scan_all(T input, ScanOp op) {
    T* values = storage_.values.get();
    new (&values[tid_]) T(input);
    __syncthreads();
    if (tid_ == 0)
      for (int i = 1; i < BLOCK_THREADS; ++i) values[i] = op(values[i - 1], values[i]);
    __syncthreads();
    return values;
  }

  TempStorage& storage_;
  int tid_;
};

}  // namespace cub
