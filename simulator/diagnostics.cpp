// SPDX-License-Identifier: MIT
// Formats every tagged message of the simulator.
#include "diagnostics.hpp"

#include <fmt/format.h>

#include <signal.h>

namespace cusim::sim {

std::string format_site(const detail::source_location& site) { return detail::format_site(site.file, site.line); }

namespace {
kernel_error::details base_details(fault_kind kind, uint3 tid, uint3 ctaid, const detail::source_location& site) {
  kernel_error::details d;
  d.kind = kind;
  d.thread_idx = tid;
  d.block_idx = ctaid;
  d.file = site.file ? site.file : "";
  d.line = site.line;
  return d;
}
}  // namespace

kernel_error out_of_bounds_error(uint3 tid, uint3 ctaid, std::int64_t index, std::int64_t extent, int axis,
                                 memory_space space, const detail::source_location& site) {
  return detail::out_of_bounds_error(tid, ctaid, index, extent, axis, space, site.file, site.line);
}

kernel_error fault_error(fault_kind kind, uint3 tid, uint3 ctaid, std::string_view message,
                         const detail::source_location& site) {
  std::string where = format_site(site);
  std::string msg = where.empty() ? fmt::format("{}: {}", format_tag(tid, ctaid), message)
                                  : fmt::format("{}: {} ({})", format_tag(tid, ctaid), message, where);
  return kernel_error(msg, base_details(kind, tid, ctaid, site));
}

kernel_error signal_fault_error(uint3 tid, uint3 ctaid, const signal_fault& f, const code_place& place,
                                std::size_t stack_bytes) {
  if (f.stack_overflow)
    return fault_error(fault_kind::stack_overflow, tid, ctaid,
                       fmt::format("stack overflow: the thread needs more than its {} KiB fiber stack (deep recursion "
                                   "or large local arrays); raise CUSIM_STACK (KiB)",
                                   stack_bytes / 1024),
                       {});
  fault_kind kind = fault_kind::illegal_address;
  std::string what;
  switch (f.signo) {
    case SIGFPE:
      kind = fault_kind::arithmetic;
      what = f.code == FPE_INTDIV   ? "division by zero"
             : f.code == FPE_INTOVF ? "integer overflow"
                                    : "floating-point exception";
      break;
    case SIGILL:
      kind = fault_kind::trap;
      what = "illegal instruction (a trap, such as __builtin_trap())";
      break;
    case SIGBUS: what = fmt::format("misaligned or unmapped memory access at address {}", f.address); break;
    default:
      what = f.code == SI_KERNEL ? std::string("illegal memory access at a non-canonical address (a wild raw pointer)")
                                 : fmt::format("illegal memory access: {} at address {} (a null or wild raw pointer)",
                                               f.write ? "write" : "read", f.address);
  }
  if (place.file.empty()) {  // no debug information: name the code at least
    what += place.function.empty()
                ? fmt::format(" (at pc {:#x}; build with -g for its source line)", f.pc)
                : fmt::format(" (in {}+{:#x}; build with -g for its source line)", place.function, place.offset);
  }
  return fault_error(kind, tid, ctaid, what, detail::source_location{place.file.c_str(), place.line, 0});
}

}  // namespace cusim::sim
