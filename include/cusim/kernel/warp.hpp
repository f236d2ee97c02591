// SPDX-License-Identifier: MIT
// Warp-level primitives with CUDA's semantics (independent thread scheduling, warps of 32 lanes):
// CUDA's shuffles, votes, match, reductions and __activemask (built into nvcc; the simulator's
// in cusim/backend/sim/warp.hpp), and cusim's lane helpers for both backends.
#pragma once

#include <cusim/config.hpp>

#if CUSIM_BACKEND_IS_SIM()
#  include <cusim/backend/sim/warp.hpp>
#else
#  include <cusim/backend/cuda/warp.hpp>
#endif

namespace cusim {

/// The calling thread's lane in its warp (warps are formed from the linear thread index, x fastest).
CUSIM_DEVICE inline unsigned lane_id() { return detail::lane_of_caller(); }
/// The calling thread's warp within its block.
CUSIM_DEVICE inline unsigned warp_id() { return detail::warp_of_caller(); }
/// The lanes below the caller's (for ranking within a ballot: __popc(ballot & lanemask_lt())).
CUSIM_DEVICE inline unsigned lanemask_lt() { return (1u << lane_id()) - 1u; }

}  // namespace cusim
