// SPDX-License-Identifier: MIT
// The simulator's side of blocks run as loops between their barriers (cusim/backend/sim/phases.hpp).
#pragma once

#include <cusim/cuda_runtime.hpp>

#include <string_view>

namespace cusim::sim {

/// A block run in phases never waits for another thread: reaching `what` (a barrier, a warp
/// collective, a spin on an atomic) means code the nvcc driver did not see. Raises its fault.
[[noreturn, gnu::cold]] void fail_wait_in_phases(const detail::sim_thread& t, std::string_view what,
                                                 const detail::source_location& site);

/// Polls in a row (each detail::poll_yield_threshold atomics that changed nothing) after which a
/// thread of a block run in phases is taken for a spin: about four million atomics.
inline constexpr unsigned phased_poll_limit = 1u << 18;

/// An atomic poll (poll_yield) in a block run in phases: counted, and past phased_poll_limit in
/// a row with no progress in the block a spin from code the driver did not see
/// (fail_wait_in_phases).
void poll_in_phases(const detail::sim_thread& t);

}  // namespace cusim::sim
