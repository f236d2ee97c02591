// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::BlockStore and the direct stores, the inverse of
// BlockLoad's arrangements (cub/block/block_load.cuh): blocked for every algorithm but
// BLOCK_STORE_STRIPED. With valid_items, elements past it are not written.
#pragma once

#include <cub/detail/cusim_cub.cuh>

namespace cub {

enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

template <typename T, int ITEMS, typename OutputIterator>
__device__ __forceinline__ void StoreDirectBlocked(int tid, OutputIterator out, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; ++i) out[tid * ITEMS + i] = items[i];
}
template <typename T, int ITEMS, typename OutputIterator>
__device__ __forceinline__ void StoreDirectBlocked(int tid, OutputIterator out, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; ++i)
    if (tid * ITEMS + i < valid_items) out[tid * ITEMS + i] = items[i];
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename OutputIterator>
__device__ __forceinline__ void StoreDirectStriped(int tid, OutputIterator out, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; ++i) out[i * BLOCK_THREADS + tid] = items[i];
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename OutputIterator>
__device__ __forceinline__ void StoreDirectStriped(int tid, OutputIterator out, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; ++i)
    if (i * BLOCK_THREADS + tid < valid_items) out[i * BLOCK_THREADS + tid] = items[i];
}

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    char unused;
  };

  __device__ __forceinline__ BlockStore() : tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
  __device__ __forceinline__ BlockStore(TempStorage&)
      : tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

  template <typename OutputIterator>
  __device__ __forceinline__ void Store(OutputIterator out, T (&items)[ITEMS_PER_THREAD]) {
    if (ALGORITHM == BLOCK_STORE_STRIPED) StoreDirectStriped<BLOCK_THREADS>(tid_, out, items);
    else StoreDirectBlocked(tid_, out, items);
  }
  template <typename OutputIterator>
  __device__ __forceinline__ void Store(OutputIterator out, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if (ALGORITHM == BLOCK_STORE_STRIPED) StoreDirectStriped<BLOCK_THREADS>(tid_, out, items, valid_items);
    else StoreDirectBlocked(tid_, out, items, valid_items);
  }

 private:
  int tid_;
};

}  // namespace cub
