// SPDX-License-Identifier: MIT
// The one place that formats the simulator's messages: `tid=[x, y, z] ctaid=[x, y, z]: ...`
// (the pieces both backends share are in cusim/detail/fault_text.hpp).
#pragma once

#include "signal_fault.hpp"
#include "symbolizer.hpp"

#include <cusim/detail/fault_text.hpp>
#include <cusim/error.hpp>

#include <cstring>
#include <string>
#include <string_view>

namespace cusim::sim {

/// Whether two call sites are the same place in the source (file text, line and column).
inline bool same_site(const detail::source_location& a, const detail::source_location& b) {
  return a.line == b.line && a.column == b.column && (a.file == b.file || std::strcmp(a.file, b.file) == 0);
}

/// "matmul.cu:12" for a full path and line ("" when unknown).
std::string format_site(const detail::source_location& site);
using detail::format_tag;
using detail::space_name;

kernel_error out_of_bounds_error(uint3 tid, uint3 ctaid, std::int64_t index, std::int64_t extent, int axis,
                                 memory_space space, const detail::source_location& site);
/// Any other fault: "<tag>: <message> (<file:line>)", the site omitted when unknown.
kernel_error fault_error(fault_kind kind, uint3 tid, uint3 ctaid, std::string_view message,
                         const detail::source_location& site);
/// A fault the CPU raised as a signal in a kernel thread, at `place` (the faulting instruction's
/// source line); `stack_bytes` is the fiber stack size a stack overflow outgrew.
kernel_error signal_fault_error(uint3 tid, uint3 ctaid, const signal_fault& fault, const code_place& place,
                                std::size_t stack_bytes);

}  // namespace cusim::sim
