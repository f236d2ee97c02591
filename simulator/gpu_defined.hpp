// SPDX-License-Identifier: MIT
// Integer division as the GPU defines it where C++ does not (by zero, MIN / -1), and the reports
// of everything in gpu_defined.hpp: once per source line, tagged, on stderr.
#pragma once

#include <cstdint>

namespace cusim::sim {

enum class division_case : std::uint8_t { by_zero, overflow };

struct division_result {
  std::uint64_t quotient = 0, remainder = 0;
  division_case what = division_case::by_zero;
};

/// The GPU's quotient and remainder, each `bits` wide, of a division C++ leaves undefined.
division_result gpu_division(std::uint64_t dividend, std::uint64_t divisor, int bits, bool is_signed);

/// For the SIGFPE handler, on a kernel thread: when the instruction at `pc` is a div or idiv
/// (by zero, or MIN / -1), writes the GPU's result into the signal's saved registers, steps over
/// the instruction and keeps its report for flush_division_reports; false (nothing changed) for
/// anything else. Signal-safe: plain stores.
bool give_division_gpu_result(void* ucontext, std::uintptr_t pc) noexcept;

struct launch_state;

/// Prints the division reports the handler kept for `launch` (once per source line, naming the
/// lowest block and thread that divided there), when its grid has run.
void flush_division_reports(const launch_state& launch);

}  // namespace cusim::sim
