// SPDX-License-Identifier: MIT
// Formats every tagged message of the simulator.
#include "diagnostics.hpp"

#include <fmt/format.h>

#include <cstring>

namespace cusim::sim {

std::string format_site(const detail::source_location& site) {
  if (site.file == nullptr || *site.file == '\0') return {};
  const char* slash = std::strrchr(site.file, '/');
  return fmt::format("{}:{}", slash ? slash + 1 : site.file, site.line);
}

std::string format_tag(uint3 tid, uint3 ctaid) {
  return fmt::format("tid=[{}, {}, {}] ctaid=[{}, {}, {}]", tid.x, tid.y, tid.z, ctaid.x, ctaid.y, ctaid.z);
}

std::string_view space_name(memory_space space) {
  switch (space) {
    case memory_space::global: return "global array";
    case memory_space::shared: return "shared array";
    case memory_space::dynamic_shared: return "dynamic shared array";
    case memory_space::local: return "local array";
    case memory_space::constant: return "constant array";
  }
  return "array";
}

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
  auto d = base_details(fault_kind::out_of_bounds, tid, ctaid, site);
  d.index = index;
  d.extent = extent;
  d.axis = axis;
  d.space = space;
  std::string where = format_site(site);
  std::string msg = fmt::format("{}: index {} is out of bounds for axis {} with size {} ({}{}{})",
                                format_tag(tid, ctaid), index, axis, extent, space_name(space),
                                where.empty() ? "" : ", ", where);
  return kernel_error(msg, std::move(d));
}

kernel_error fault_error(fault_kind kind, uint3 tid, uint3 ctaid, std::string_view message,
                         const detail::source_location& site) {
  std::string where = format_site(site);
  std::string msg = where.empty() ? fmt::format("{}: {}", format_tag(tid, ctaid), message)
                                  : fmt::format("{}: {} ({})", format_tag(tid, ctaid), message, where);
  return kernel_error(msg, base_details(kind, tid, ctaid, site));
}

}  // namespace cusim::sim
