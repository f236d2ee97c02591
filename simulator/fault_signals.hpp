// SPDX-License-Identifier: MIT
// Faults the CPU raises as signals inside a kernel thread (SIGSEGV from a wild pointer or a
// fiber-stack overflow, SIGBUS, SIGFPE from an integer division by zero, SIGILL from a trap
// instruction) become tagged kernel_errors: the thread is abandoned, its block fails, and the
// process lives on.
#pragma once

#include "signal_fault.hpp"

namespace cusim::sim {

struct fiber_slot;

/// What a handler calls for a fault of kernel code on its thread's fiber `thread`: records it and
/// leaves the fiber for good (the block runner's); never returns.
using abandon_thread = void (*)(fiber_slot& thread, const signal_fault& fault) noexcept;

/// Installs the handlers, handing kernel faults to `abandon`, or installs them again where the
/// program (or its test framework) has since installed its own: once per launch. The handlers
/// it replaces keep every fault that is not a kernel thread's.
void ensure_fault_handlers(abandon_thread abandon);
/// Leaves the current kernel thread's fiber for good with `fault` reported (as a handler does);
/// false, doing nothing, when the calling code is not a kernel thread's.
bool abandon_current_thread(const signal_fault& fault) noexcept;
/// Gives the calling OS thread the alternate signal stack the handlers run on. Cheap after the
/// first call on a thread.
void ensure_fault_signal_stack();

}  // namespace cusim::sim
