// SPDX-License-Identifier: MIT
// cusim's <cooperative_groups.h>: namespace cooperative_groups (cusim::cg): this_thread_block,
// this_grid, tiled_partition, coalesced_threads, sync(g), thread_group (any of them), and the
// partitions of a warp's group by a label or a predicate.
#pragma GCC system_header
#ifndef CUSIM_CUDA_COOPERATIVE_GROUPS_H_
#define CUSIM_CUDA_COOPERATIVE_GROUPS_H_

#include "cuda_runtime.h"

#include <cusim/backend/sim/cooperative_groups.hpp>

#include <cstddef>

namespace cusim::cg {

/// The lanes of `g` (a coalesced group or a tile of a warp) whose `label` equals the caller's.
template <class Group>
coalesced_group labeled_partition(const Group& g, int label,
                                  detail::source_location site = detail::source_location::current()) {
  return coalesced_group(__match_any_sync(g.lane_mask(), label, site));
}
template <class Group>
coalesced_group labeled_partition(const Group& g, unsigned label,
                                  detail::source_location site = detail::source_location::current()) {
  return coalesced_group(__match_any_sync(g.lane_mask(), label, site));
}

/// The lanes of `g` whose predicate is true, or those whose predicate is false (the caller's side).
template <class Group>
coalesced_group binary_partition(const Group& g, bool predicate,
                                 detail::source_location site = detail::source_location::current()) {
  const unsigned lanes = g.lane_mask();
  const unsigned yes = __ballot_sync(lanes, predicate, site);
  return coalesced_group(predicate ? yes : lanes & ~yes);
}

/// Scratch memory CUDA's tiles of more than 32 threads take on older GPUs; on the simulator they
/// keep their state in shared memory of their own, so it holds nothing.
template <std::size_t BlockSize, std::size_t TileCommunicationSize = 8, std::size_t MaxBlockSize = 1024>
struct block_tile_memory {};
template <std::size_t BlockSize, std::size_t TileCommunicationSize, std::size_t MaxBlockSize>
thread_block this_thread_block(block_tile_memory<BlockSize, TileCommunicationSize, MaxBlockSize>&) {
  return {};
}

}  // namespace cusim::cg

#endif  // CUSIM_CUDA_COOPERATIVE_GROUPS_H_
