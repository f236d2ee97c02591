// SPDX-License-Identifier: MIT
// The simulator's run-time controls, read from the environment at each launch. A value that
// cannot be used is reported once on stderr, never silently replaced.
#pragma once

#include <cstddef>

namespace cusim::sim {

/// CUSIM_WORKERS: OS threads that run blocks (default: all cores).
unsigned worker_count();
/// CUSIM_STACK (KiB): usable bytes of each fiber stack (default 256 KiB).
std::size_t fiber_stack_bytes();
/// Warns, once per variable, about controls of the contract that this version does not implement.
void warn_unsupported_settings();

}  // namespace cusim::sim
