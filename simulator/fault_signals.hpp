// SPDX-License-Identifier: MIT
// Faults the CPU raises as signals inside a kernel thread (SIGSEGV from a wild pointer or a
// fiber-stack overflow, SIGBUS, SIGFPE from an integer division by zero, SIGILL from a trap
// instruction) become tagged kernel_errors: the thread is abandoned, its block fails, and the
// process lives on.
#pragma once

#include <cstdint>

namespace cusim::sim {

/// What the signal handler records about a fault, for the scheduler to report.
struct signal_fault {
  int signo = 0;
  int code = 0;  ///< siginfo's si_code
  const void* address = nullptr;  ///< the faulting data address (SIGSEGV, SIGBUS)
  std::uintptr_t pc = 0;          ///< the faulting instruction
  bool write = false;             ///< SIGSEGV: a store (the page-fault error code says so)
  bool stack_overflow = false;    ///< SIGSEGV in the guard region below the thread's fiber stack
};

/// Installs the handlers, or installs them again where the program (or its test framework) has
/// since installed its own: once per launch. The handlers it replaces keep every fault that is
/// not a kernel thread's.
void ensure_fault_handlers();
/// Gives the calling OS thread the alternate signal stack the handlers run on. Cheap after the
/// first call on a thread.
void ensure_fault_signal_stack();

}  // namespace cusim::sim
