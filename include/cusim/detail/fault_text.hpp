// SPDX-License-Identifier: MIT
// The text of a tagged fault, shared by the simulator and the GPU backend's checked mode so
// that both report a bad index with the same words: `tid=[x, y, z] ctaid=[x, y, z]: ...`.
#pragma once

#include <cusim/error.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace cusim::detail {

/// "matmul.cu:12" for a full path and line ("" when unknown).
inline std::string format_site(const char* file, unsigned line) {
  if (file == nullptr || *file == '\0') return {};
  const char* slash = std::strrchr(file, '/');
  return std::string(slash ? slash + 1 : file) + ':' + std::to_string(line);
}

/// numba's prefix: "tid=[16, 0, 0] ctaid=[1, 0, 0]".
inline std::string format_tag(uint3 tid, uint3 ctaid) {
  auto triple = [](uint3 v) {
    return '[' + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ']';
  };
  return "tid=" + triple(tid) + " ctaid=" + triple(ctaid);
}

inline std::string_view space_name(memory_space space) {
  switch (space) {
    case memory_space::global: return "global array";
    case memory_space::shared: return "shared array";
    case memory_space::dynamic_shared: return "dynamic shared array";
    case memory_space::local: return "local array";
    case memory_space::constant: return "constant array";
  }
  return "array";
}

/// The kernel_error of a checked array indexed outside its extent (axis -1: not known, for a raw
/// array whose source line could not be read).
inline kernel_error out_of_bounds_error(uint3 tid, uint3 ctaid, std::int64_t index, std::int64_t extent, int axis,
                                        memory_space space, const char* file, unsigned line) {
  kernel_error::details d;
  d.kind = fault_kind::out_of_bounds;
  d.thread_idx = tid;
  d.block_idx = ctaid;
  d.file = file ? file : "";
  d.line = line;
  d.index = index;
  d.extent = extent;
  d.axis = axis;
  d.space = space;
  const std::string where = format_site(file, line);
  std::string msg = format_tag(tid, ctaid) + ": index " + std::to_string(index) + " is out of bounds for " +
                    (axis >= 0 ? "axis " + std::to_string(axis) : std::string("an axis")) + " with size " +
                    std::to_string(extent) + " (" +
                    std::string(space_name(space)) + (where.empty() ? "" : ", ") + where + ')';
  return kernel_error(msg, std::move(d));
}

}  // namespace cusim::detail
