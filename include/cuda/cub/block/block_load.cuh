// SPDX-License-Identifier: MIT
// cusim's CUB (cub/detail/cusim_cub.cuh): cub::BlockLoad and the direct loads. Every algorithm but
// BLOCK_LOAD_STRIPED gives the blocked arrangement (thread i holds items i * ITEMS ..
// i * ITEMS + ITEMS - 1), as CUB's do; BLOCK_LOAD_STRIPED the striped one (item j of thread i is
// element j * BLOCK_THREADS + i). With valid_items, elements past it are not read (the items keep
// their value, or get oob_default).
#pragma once

#include <cub/detail/cusim_cub.cuh>

namespace cub {

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

template <typename T, int ITEMS, typename InputIterator>
__device__ __forceinline__ void LoadDirectBlocked(int tid, InputIterator in, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; ++i) items[i] = in[tid * ITEMS + i];
}
template <typename T, int ITEMS, typename InputIterator>
__device__ __forceinline__ void LoadDirectBlocked(int tid, InputIterator in, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; ++i)
    if (tid * ITEMS + i < valid_items) items[i] = in[tid * ITEMS + i];
}
template <typename T, typename Default, int ITEMS, typename InputIterator>
__device__ __forceinline__ void LoadDirectBlocked(int tid, InputIterator in, T (&items)[ITEMS], int valid_items,
                                                  Default oob_default) {
  for (int i = 0; i < ITEMS; ++i) items[i] = oob_default;
  LoadDirectBlocked(tid, in, items, valid_items);
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename InputIterator>
__device__ __forceinline__ void LoadDirectStriped(int tid, InputIterator in, T (&items)[ITEMS]) {
  for (int i = 0; i < ITEMS; ++i) items[i] = in[i * BLOCK_THREADS + tid];
}
template <int BLOCK_THREADS, typename T, int ITEMS, typename InputIterator>
__device__ __forceinline__ void LoadDirectStriped(int tid, InputIterator in, T (&items)[ITEMS], int valid_items) {
  for (int i = 0; i < ITEMS; ++i)
    if (i * BLOCK_THREADS + tid < valid_items) items[i] = in[i * BLOCK_THREADS + tid];
}
template <int BLOCK_THREADS, typename T, typename Default, int ITEMS, typename InputIterator>
__device__ __forceinline__ void LoadDirectStriped(int tid, InputIterator in, T (&items)[ITEMS], int valid_items,
                                                  Default oob_default) {
  for (int i = 0; i < ITEMS; ++i) items[i] = oob_default;
  LoadDirectStriped<BLOCK_THREADS>(tid, in, items, valid_items);
}

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;

 public:
  struct TempStorage {
    char unused;
  };

  __device__ __forceinline__ BlockLoad() : tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}
  __device__ __forceinline__ BlockLoad(TempStorage&)
      : tid_(cusim_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>()) {}

  template <typename InputIterator>
  __device__ __forceinline__ void Load(InputIterator in, T (&items)[ITEMS_PER_THREAD]) {
    if (ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, in, items);
    else LoadDirectBlocked(tid_, in, items);
  }
  template <typename InputIterator>
  __device__ __forceinline__ void Load(InputIterator in, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    if (ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, in, items, valid_items);
    else LoadDirectBlocked(tid_, in, items, valid_items);
  }
  template <typename InputIterator, typename Default>
  __device__ __forceinline__ void Load(InputIterator in, T (&items)[ITEMS_PER_THREAD], int valid_items,
                                       Default oob_default) {
    if (ALGORITHM == BLOCK_LOAD_STRIPED) LoadDirectStriped<BLOCK_THREADS>(tid_, in, items, valid_items, oob_default);
    else LoadDirectBlocked(tid_, in, items, valid_items, oob_default);
  }

 private:
  int tid_;
};

}  // namespace cub
