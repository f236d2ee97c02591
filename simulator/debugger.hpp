// SPDX-License-Identifier: MIT
// What debugging needs from the simulator: CUSIM_BREAK (stop in the faulting thread before
// anything unwinds) and the registry of workers that the gdb extension (tools/cusim-gdb.py)
// walks to list and focus simulated threads.
#pragma once

#include <cusim/error.hpp>

namespace cusim::sim {

struct block_context;
struct signal_fault;
struct launch_state;

/// A worker (its block runner) as the gdb extension walks it: tools/cusim-gdb.py reads these
/// fields by name.
struct debug_worker {
  debug_worker* debug_next = nullptr;          ///< the next registered worker
  int debug_lwp = 0;                           ///< the worker's OS thread id
  block_context* debug_contexts = nullptr;    ///< every block context of the worker
};

/// Every worker (one block runner per OS thread), linked through debug_next.
extern debug_worker* debug_runners;
void register_runner(debug_worker& runner);
void unregister_runner(debug_worker& runner);

/// CUSIM_BREAK: when `launch` asks for it and a debugger is attached, prints `e` and stops the
/// calling thread with SIGTRAP; returns when the debugger lets the program go on.
void break_on(const kernel_error& e, const launch_state& launch);
/// break_on for a fault the compiler's instrumentation found in the current simulated thread,
/// before the thread is abandoned (array_bounds.cpp, raw_access.cpp); nothing outside a kernel.
void break_on_instrumented_fault(const signal_fault& fault);
/// Whether a debugger traces this process now (/proc/self/status: TracerPid).
bool debugger_attached();
/// Throws `e` from the faulting simulated thread (the current one), after break_on.
[[noreturn]] void raise_fault(const kernel_error& e);

}  // namespace cusim::sim
