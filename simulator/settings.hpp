// SPDX-License-Identifier: MIT
// The simulator's run-time controls, read from the environment at each launch. A value that
// cannot be used is reported once on stderr, never silently replaced.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

namespace cusim::sim {

/// CUSIM_WORKERS: OS threads that run blocks (default: all cores).
unsigned worker_count();
/// CUSIM_STACK (KiB): usable bytes of each fiber stack (default 256 KiB).
std::size_t fiber_stack_bytes();

/// CUSIM_CHECK=race,init,sync,leaks (or all): the checkers beyond the bounds checks.
struct check_settings {
  bool race = false;
  bool init = false;
  bool sync = false;
  bool leaks = false;
  /// Whether element accesses of checked arrays are recorded (race and init need them).
  bool memory() const noexcept { return race || init; }
};
check_settings checks();
/// CUSIM_BREAK=1: a kernel fault stops in the faulting thread (SIGTRAP) when a debugger is attached.
bool break_on_fault();
/// CUSIM_DEVICE=a100|h100|v100|t4: the GPU whose properties and limits the simulated device
/// has (default a100); read once, at the first device query or launch.
enum class device_profile { a100, h100, v100, t4 };
device_profile simulated_device();
/// CUSIM_PHASES=0: kernels the nvcc driver prepared to run as loops between their barriers
/// (docs/internals.md, "Phases") run on fibers instead, one per thread, as every other kernel.
bool phases_enabled();
/// CUSIM_SCHEDULE=random:SEED: the seed of the shuffled schedule; empty for the default order.
std::optional<std::uint64_t> schedule_seed();

}  // namespace cusim::sim
