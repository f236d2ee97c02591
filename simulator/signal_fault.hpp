// SPDX-License-Identifier: MIT
// What a signal handler records about a fault of kernel code, for the block runner to report.
#pragma once

#include "allocations.hpp"

#include <cusim/error.hpp>

#include <cstdint>

namespace cusim::sim {

/// An index out of the bounds of a fixed-size array, found by the compiler's bounds
/// instrumentation in an unmodified program (array_bounds.cpp).
struct array_bounds_fault {
  std::int64_t index = 0;
  std::int64_t extent = 0;
  int axis = -1;  ///< -1: unknown (the source line could not be read)
  memory_space space = memory_space::local;
  const char* file = nullptr;
  unsigned line = 0;
};

/// A raw pointer access outside every allocation, found by the address instrumentation in an
/// unmodified program (raw_access.cpp).
struct raw_access_fault {
  std::uintptr_t address = 0;
  std::uint32_t bytes = 0;
  bool write = false;
  std::uintptr_t pc = 0;  ///< the return address of the instrumentation's call: just after the access
  address_owner owner;    ///< the allocation it missed
  std::uint32_t misaligned = 0;  ///< not a multiple of this alignment (else outside every allocation)
  bool shared = false;    ///< in the block's shared memory, outside its dynamic bytes and variables
  std::size_t shared_offset = 0;
  std::size_t dynamic_bytes = 0;
};

/// What the signal handler (or the bounds instrumentation) records about a fault, for the
/// scheduler to report.
struct signal_fault {
  int signo = 0;
  int code = 0;  ///< siginfo's si_code
  const void* address = nullptr;  ///< the faulting data address (SIGSEGV, SIGBUS)
  std::uintptr_t pc = 0;          ///< the faulting instruction
  bool write = false;             ///< SIGSEGV: a store (the page-fault error code says so)
  bool stack_overflow = false;    ///< SIGSEGV in the guard region below the thread's fiber stack
  bool out_of_bounds = false;     ///< not a signal: `bounds` says what
  array_bounds_fault bounds;
  bool raw_access = false;        ///< not a signal: `access` says what
  raw_access_fault access;
};

}  // namespace cusim::sim
