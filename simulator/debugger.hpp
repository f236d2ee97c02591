// SPDX-License-Identifier: MIT
// What debugging needs from the simulator: CUSIM_BREAK (stop in the faulting thread before
// anything unwinds) and the registry of workers that the gdb extension (tools/cusim-gdb.py)
// walks to list and focus simulated threads.
#pragma once

#include <cusim/error.hpp>

namespace cusim::sim {

class block_runner;
struct launch_state;

/// Every block runner (one per worker OS thread), linked through block_runner::debug_next.
extern block_runner* debug_runners;
void register_runner(block_runner& runner);
void unregister_runner(block_runner& runner);

/// CUSIM_BREAK: when `launch` asks for it and a debugger is attached, prints `e` and stops the
/// calling thread with SIGTRAP; returns when the debugger lets the program go on.
void break_on(const kernel_error& e, const launch_state& launch);
/// Throws `e` from the faulting simulated thread (the current one), after break_on.
[[noreturn]] void raise_fault(const kernel_error& e);

}  // namespace cusim::sim
