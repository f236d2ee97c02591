// SPDX-License-Identifier: MIT
// The cooperative groups the samples' kernels use, for raw_benchmark_hip_cpu: HIP-CPU has none.
// A shim of the benchmark, not of the kernels: thread_block (sync, thread_rank), cg::sync, and
// thread_block_tile<N> from tiled_partition<N> with shfl_down, for reduction's reduce4..6.
//
// HIP-CPU runs a block's threads as fibers on one OS thread, and its __syncthreads() is a yield to
// the next fiber of the block (round robin), as is its own __shfl_down (with warpSize 64, over the
// whole block). Reduction's tile shuffles are made by the first 32 threads only, so the tile's
// barrier here yields round robin among the tile's fibers alone: correct when every thread of the
// tile makes the call, as in these kernels.
#pragma once

#include <hip/hip_runtime.h>

#include <cstring>

namespace cooperative_groups {

struct thread_block {
  void sync() const noexcept { __syncthreads(); }
  unsigned thread_rank() const noexcept { return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }
  unsigned size() const noexcept { return blockDim.x * blockDim.y * blockDim.z; }
};

inline thread_block this_thread_block() noexcept { return {}; }
inline void sync(const thread_block& block) noexcept { block.sync(); }

namespace detail {
// The values the threads of a block exchange, 8 bytes each.
alignas(16) inline thread_local unsigned char exchange[1024 * 8];

/// a barrier of the tile of `n` fibers holding this one: a yield to the tile's next fiber
inline void tile_barrier(unsigned n) noexcept {
  const unsigned me = id(hip::detail::Fiber::this_fiber());
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned first = me / n * n;
  const unsigned end = first + n < threads ? first + n : threads;
  if (end - first == 1) return;
  hip::detail::this_tile::has_barrier = true;
  hip::detail::Fiber::yield(hip::detail::Tile::fibers()[me + 1 == end ? first : me + 1]);
}
}  // namespace detail

template <unsigned N> struct thread_block_tile {
  static constexpr unsigned size() noexcept { return N; }
  unsigned thread_rank() const noexcept { return this_thread_block().thread_rank() % N; }
  void sync() const noexcept { detail::tile_barrier(N); }
  template <class T> T shfl_down(T value, unsigned delta) const noexcept {
    static_assert(sizeof(T) <= 8);
    const unsigned rank = this_thread_block().thread_rank();
    std::memcpy(detail::exchange + 8 * rank, &value, sizeof(T));
    detail::tile_barrier(N);
    T result = value;
    if (rank % N + delta < N) std::memcpy(&result, detail::exchange + 8 * (rank + delta), sizeof(T));
    detail::tile_barrier(N);
    return result;
  }
};

template <unsigned N> thread_block_tile<N> tiled_partition(const thread_block&) noexcept { return {}; }

}  // namespace cooperative_groups
