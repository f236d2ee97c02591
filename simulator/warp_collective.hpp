// SPDX-License-Identifier: MIT
// What a warp collective computes once every lane of its mask has arrived: shuffles with CUDA's
// segment (width) rules, votes, match and reductions. The rendezvous itself is the block runner's.
#pragma once

#include "block_state.hpp"

namespace cusim::sim {

/// The four shuffles, which are consecutive in warp_op.
inline bool is_shuffle(detail::warp_op op) {
  return op >= detail::warp_op::shfl_idx && op <= detail::warp_op::shfl_xor;
}

/// Whether `req` is valid whatever the other lanes do: false for a shuffle width that is not a
/// power of two from 1 to 32 (reported with invalid_width_error). Inline, and without
/// std::has_single_bit, which is a libgcc call (__popcountdi2) on a baseline x86-64 build.
inline bool valid_request(const detail::warp_request& req) {
  const auto w = static_cast<unsigned>(req.width);
  return !is_shuffle(req.op) || (w - 1 < 32 && (w & (w - 1)) == 0);
}
/// Fills `out` (and `result`, for __match_all_sync's predicate) of every lane of `mask`;
/// `group[lane]` is that lane's record, all at `op` with `mask`, but for the lanes of `absent`
/// (lanes of the mask past the end of the block, in its partial last warp), which take no part,
/// as on a GPU. A shuffle that reads a lane outside the mask, or an absent one, throws the
/// tagged error for the reading lane.
void combine(detail::warp_op op, unsigned mask, thread_record* const (&group)[32], unsigned absent = 0);

}  // namespace cusim::sim
