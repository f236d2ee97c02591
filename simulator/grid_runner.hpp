// SPDX-License-Identifier: MIT
// Runs a launch's blocks in parallel on TBB workers (CUSIM_WORKERS), keeping the fault of the
// lowest faulting block so the report never depends on the worker count.
#pragma once

#include "launch_state.hpp"

#include <exception>

namespace cusim::sim {

/// Runs every block of `launch`; returns the fault to report (or null). A cooperative launch
/// keeps every block co-resident, interleaved on the workers, for this_grid().sync().
std::exception_ptr run_grid(launch_state& launch);

}  // namespace cusim::sim
