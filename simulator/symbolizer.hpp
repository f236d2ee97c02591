// SPDX-License-Identifier: MIT
// Source lines of code addresses, from the program's debug information (libbacktrace): what a
// fault the CPU raised as a signal (a wild pointer, a division by zero) reports as its place.
#pragma once

#include <cstdint>
#include <string>

namespace cusim::sim {

struct code_place {
  std::string file;      ///< "" without line information (no -g)
  unsigned line = 0;
  std::string function;  ///< the symbol holding the address ("" when unknown)
  std::uintptr_t offset = 0;  ///< of the address in that symbol
};

/// Where the instruction at `pc` comes from: the innermost inlined call's file and line.
code_place place_of(std::uintptr_t pc);
/// The same, skipping the inlined functions of cusim's own headers (include/cusim, the toolkit's
/// cuda_runtime.h and the like): the program's line that called them.
code_place program_place_of(std::uintptr_t pc);

}  // namespace cusim::sim
