// SPDX-License-Identifier: MIT
// The simulator's cooperative groups: cusim::cg (also spelled cooperative_groups::).
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>
#include <cusim/backend/sim/sync.hpp>
#include <cusim/kernel/warp.hpp>

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cusim::cg {

using detail::source_location;

/// The threads of the calling block.
class thread_block {
 public:
  /// __syncthreads for the block.
  void sync(source_location site = source_location::current()) const { __syncthreads(site); }
  unsigned thread_rank() const { return detail::linear_thread_index(); }
  unsigned num_threads() const { return blockDim.x * blockDim.y * blockDim.z; }
  unsigned size() const { return num_threads(); }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return {}; }

/// Every thread of every block of a cooperative launch (cusim::launch_cooperative).
class grid_group {
 public:
  /// Waits for every thread of the grid; outside a cooperative launch it is a tagged error.
  void sync(source_location site = source_location::current()) const { detail::sync_grid(site); }
  bool is_valid() const { return detail::in_cooperative_launch(); }
  unsigned long long thread_rank() const {
    return block_rank() * static_cast<unsigned long long>(blockDim.x * blockDim.y * blockDim.z) +
           detail::linear_thread_index();
  }
  unsigned long long num_threads() const { return num_blocks() * blockDim.x * blockDim.y * blockDim.z; }
  unsigned long long size() const { return num_threads(); }
  unsigned long long block_rank() const {
    return blockIdx.x + static_cast<unsigned long long>(gridDim.x) * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  }
  unsigned long long num_blocks() const { return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z; }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 group_dim() const { return gridDim; }
  dim3 dim_blocks() const { return gridDim; }
};

inline grid_group this_grid() { return {}; }

namespace detail_cg {
/// Packs the bits of `bits` selected by `mask` into the low bits (bit i = i-th member of mask).
inline unsigned compact(unsigned bits, unsigned mask) {
  unsigned out = 0, rank = 0;
  for (unsigned m = mask; m != 0; m &= m - 1, ++rank)
    out |= ((bits >> std::countr_zero(m)) & 1u) << rank;
  return out;
}
/// The first lane of the caller's tile of `size` lanes, and the mask of that tile.
inline unsigned tile_base(unsigned size) { return lane_id() / size * size; }
inline unsigned tile_mask(unsigned size) {
  return (size == 32 ? 0xffffffffu : (1u << size) - 1u) << tile_base(size);
}
/// The lane holding the `rank`-th member of `mask`.
inline int lane_of_rank(unsigned mask, unsigned rank) {
  for (unsigned m = mask; m != 0; m &= m - 1, --rank)
    if (rank == 0) return std::countr_zero(m);
  return -1;  // not a member: the shuffle below reports it
}
/// A tile's shuffle of any trivially copyable T, as CUDA's tiles take: values of up to 64 bits
/// in one warp collective, larger ones (uint4, a struct) in 8-byte pieces.
template <class T, class Shuffle>
T shuffle_any(const T& var, Shuffle one) {
  if constexpr (sizeof(T) <= 8) {
    return one(var);
  } else {
    static_assert(std::is_trivially_copyable_v<T>, "a tile shuffles values of trivially copyable types");
    constexpr std::size_t pieces = (sizeof(T) + 7) / 8;
    std::uint64_t in[pieces] = {}, out[pieces];
    std::memcpy(in, &var, sizeof(T));
    for (std::size_t i = 0; i < pieces; ++i) out[i] = one(in[i]);
    T result;
    std::memcpy(&result, out, sizeof(T));
    return result;
  }
}

/// What the tiles of more than 32 threads of a block share, in its shared memory: an arrival count
/// and a generation per tile (at most 16 tiles of 64 threads in a block of 1024). Shared memory
/// starts each block poisoned (never zero): `ready` says whether this block set the rest up.
struct wide_tile_state {
  unsigned ready;
  unsigned arrived[16];
  unsigned generation[16];
};
inline constexpr unsigned wide_tile_ready = 0x600df00du;
inline const char wide_tile_key = 0;  ///< the state's __shared__ variable
inline wide_tile_state& wide_tiles(const source_location& site) {
  auto* s = static_cast<wide_tile_state*>(
      detail::bind_shared(&wide_tile_key, site, sizeof(wide_tile_state), alignof(wide_tile_state)));
  if (s->ready != wide_tile_ready) {  // no yield between the test and the set: one fiber does it
    std::memset(s, 0, sizeof(wide_tile_state));
    s->ready = wide_tile_ready;
  }
  return *s;
}
/// The barrier of the `count` threads of tile `index`: the last to arrive opens it; the others
/// spin on its generation, polling like an atomic that changes nothing (they yield, and one that
/// can never be released is reported as a deadlock).
inline void wide_tile_sync(unsigned index, unsigned count, const source_location& site) {
  wide_tile_state& s = wide_tiles(site);
  std::atomic_ref<unsigned> arrived(s.arrived[index]), generation(s.generation[index]);
  const unsigned seen = generation.load(std::memory_order_acquire);
  const bool last = arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == count;
  if (last) {
    arrived.store(0, std::memory_order_relaxed);
    generation.store(seen + 1, std::memory_order_release);
  }
  detail::note_atomic(true);
  while (!last && generation.load(std::memory_order_acquire) == seen) detail::note_atomic(false);
}
}  // namespace detail_cg

/// A tile of `Size` consecutive threads of a block (Size a power of two up to 32): a warp or a
/// part of one, with the warp collectives scoped to it. Tiles of 64 to 1024 threads are the
/// specialisation below.
template <unsigned Size, class Parent = void>
class thread_block_tile {
  static_assert(Size >= 1 && Size <= 1024 && std::has_single_bit(Size),
                "tiled_partition<N>: N must be a power of two from 1 to 1024");

 public:
  thread_block_tile() : mask_(detail_cg::tile_mask(Size)) {}
  /// thread_block_tile<N> names any tile of N threads, whatever it was partitioned from.
  template <class OtherParent>
    requires(!std::is_same_v<OtherParent, Parent>)
  thread_block_tile(const thread_block_tile<Size, OtherParent>& other) : mask_(other.lane_mask()) {}

  void sync(source_location site = source_location::current()) const { __syncwarp(mask_, site); }
  unsigned thread_rank() const { return lane_id() % Size; }
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  unsigned meta_group_rank() const { return detail::linear_thread_index() / Size; }
  unsigned meta_group_size() const { return (this_thread_block().num_threads() + Size - 1) / Size; }

  template <class T>
  T shfl(T var, int src_rank, source_location site = source_location::current()) const {
    return detail_cg::shuffle_any(var, [&](auto v) { return __shfl_sync(mask_, v, src_rank, static_cast<int>(Size), site); });
  }
  template <class T>
  T shfl_up(T var, unsigned delta, source_location site = source_location::current()) const {
    return detail_cg::shuffle_any(var, [&](auto v) { return __shfl_up_sync(mask_, v, delta, static_cast<int>(Size), site); });
  }
  template <class T>
  T shfl_down(T var, unsigned delta, source_location site = source_location::current()) const {
    return detail_cg::shuffle_any(var, [&](auto v) { return __shfl_down_sync(mask_, v, delta, static_cast<int>(Size), site); });
  }
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, source_location site = source_location::current()) const {
    return detail_cg::shuffle_any(
        var, [&](auto v) { return __shfl_xor_sync(mask_, v, static_cast<int>(lane_mask), static_cast<int>(Size), site); });
  }
  int any(int predicate, source_location site = source_location::current()) const { return __any_sync(mask_, predicate, site); }
  int all(int predicate, source_location site = source_location::current()) const { return __all_sync(mask_, predicate, site); }
  /// Bit i set iff the tile's thread of rank i passed a non-zero predicate.
  unsigned ballot(int predicate, source_location site = source_location::current()) const {
    return __ballot_sync(mask_, predicate, site) >> std::countr_zero(mask_);
  }
  template <class T>
  unsigned match_any(T value, source_location site = source_location::current()) const {
    return __match_any_sync(mask_, value, site) >> std::countr_zero(mask_);
  }
  template <class T>
  unsigned match_all(T value, int& pred, source_location site = source_location::current()) const {
    return __match_all_sync(mask_, value, &pred, site) >> std::countr_zero(mask_);
  }
  /// The lanes of the caller's warp in the tile (not in CUDA: for partitions of a tile).
  unsigned lane_mask() const { return mask_; }

 private:
  unsigned mask_;
};

/// A tile of 64 to 1024 consecutive threads of a block (CUDA 12's multi-warp tiles): sync, ranks
/// and cg::reduce (<cooperative_groups/reduce.h>); no shuffles or votes, as in CUDA. The last tile
/// of a block whose size is not a multiple of Size has the threads that exist.
template <unsigned Size, class Parent>
  requires(Size > 32)
class thread_block_tile<Size, Parent> {
  static_assert(Size <= 1024 && std::has_single_bit(Size),
                "tiled_partition<N>: N must be a power of two from 1 to 1024");

 public:
  thread_block_tile() = default;
  template <class OtherParent>
    requires(!std::is_same_v<OtherParent, Parent>)
  thread_block_tile(const thread_block_tile<Size, OtherParent>&) {}

  void sync(source_location site = source_location::current()) const {
    detail_cg::wide_tile_sync(meta_group_rank(), members(), site);
  }
  unsigned thread_rank() const { return detail::linear_thread_index() % Size; }
  static constexpr unsigned num_threads() { return Size; }
  static constexpr unsigned size() { return Size; }
  unsigned meta_group_rank() const { return detail::linear_thread_index() / Size; }
  unsigned meta_group_size() const { return (this_thread_block().num_threads() + Size - 1) / Size; }
  /// The threads of the caller's tile that exist (Size but for a partial last tile).
  unsigned members() const {
    const unsigned block = this_thread_block().num_threads(), first = meta_group_rank() * Size;
    return block - first < Size ? block - first : Size;
  }
};

template <unsigned Size>
thread_block_tile<Size, thread_block> tiled_partition(const thread_block&) {
  return {};
}

/// The threads of the calling warp that call coalesced_threads() together (see __activemask).
class coalesced_group {
 public:
  explicit coalesced_group(unsigned mask) : mask_(mask) {}
  void sync(source_location site = source_location::current()) const { __syncwarp(mask_, site); }
  unsigned thread_rank() const { return static_cast<unsigned>(std::popcount(mask_ & lanemask_lt())); }
  unsigned num_threads() const { return static_cast<unsigned>(std::popcount(mask_)); }
  unsigned size() const { return num_threads(); }
  template <class T>
  T shfl(T var, unsigned src_rank, source_location site = source_location::current()) const {
    return detail_cg::shuffle_any(
        var, [&](auto v) { return __shfl_sync(mask_, v, detail_cg::lane_of_rank(mask_, src_rank), 32, site); });
  }
  int any(int predicate, source_location site = source_location::current()) const { return __any_sync(mask_, predicate, site); }
  int all(int predicate, source_location site = source_location::current()) const { return __all_sync(mask_, predicate, site); }
  /// Bit i set iff the group's thread of rank i passed a non-zero predicate.
  unsigned ballot(int predicate, source_location site = source_location::current()) const {
    return detail_cg::compact(__ballot_sync(mask_, predicate, site), mask_);
  }
  /// The lanes of the caller's warp in the group (not in CUDA: for partitions of a group).
  unsigned lane_mask() const { return mask_; }

 private:
  unsigned mask_;
};

inline coalesced_group coalesced_threads(source_location site = source_location::current()) {
  return coalesced_group(__activemask(site));
}

/// Any group, its kind chosen at run time: the block, a tile (also of a size chosen at run time)
/// or a coalesced group. A function taking a thread_group works on each.
class thread_group {
 public:
  /// A tile of `size` lanes (a power of two up to 32), as tiled_partition(block, size) makes.
  explicit thread_group(unsigned size) : block_(false), mask_(detail_cg::tile_mask(size)) {}
  thread_group(const thread_block&) : block_(true), mask_(0) {}
  template <unsigned Size, class Parent>
  thread_group(const thread_block_tile<Size, Parent>& tile) : block_(false), mask_(tile.lane_mask()) {}
  thread_group(const coalesced_group& g) : block_(false), mask_(g.lane_mask()) {}

  void sync(source_location site = source_location::current()) const {
    if (block_) __syncthreads(site);
    else __syncwarp(mask_, site);
  }
  unsigned thread_rank() const {
    return block_ ? detail::linear_thread_index() : static_cast<unsigned>(std::popcount(mask_ & lanemask_lt()));
  }
  unsigned num_threads() const {
    return block_ ? blockDim.x * blockDim.y * blockDim.z : static_cast<unsigned>(std::popcount(mask_));
  }
  unsigned size() const { return num_threads(); }

 private:
  bool block_;
  unsigned mask_;
};

/// Run-time tile size: a power of two from 1 to 32, or a tagged error.
inline thread_group tiled_partition(const thread_block&, unsigned size, source_location site = source_location::current()) {
  if (size < 1 || size > 32 || !std::has_single_bit(size)) detail::fail_bad_tile(size, site);
  return thread_group(size);
}

template <class Group>
void sync(const Group& g, source_location site = source_location::current()) {
  g.sync(site);
}

}  // namespace cusim::cg

namespace cooperative_groups = cusim::cg;
