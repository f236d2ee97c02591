// SPDX-License-Identifier: MIT
// Formats every tagged message of the simulator.
#include "diagnostics.hpp"

#include <fmt/format.h>

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

}  // namespace cusim::sim
