// SPDX-License-Identifier: MIT
// What a signal handler records about a fault of kernel code, for the block runner to report.
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

}  // namespace cusim::sim
