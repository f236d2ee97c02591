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

}  // namespace cusim::sim
