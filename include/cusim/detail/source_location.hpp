// SPDX-License-Identifier: MIT
// A source location captured by a default argument at the caller (file, line, column).
#pragma once

#include <cusim/config.hpp>

#if !defined(__CUDACC__) && __has_include(<source_location>)
#  include <source_location>
#endif

namespace cusim::detail {

struct source_location {
  const char* file = "";
  unsigned line = 0;
  unsigned column = 0;

#if defined(__cpp_lib_source_location) && !defined(__CUDACC__)
  // g++ has no __builtin_COLUMN; its std::source_location carries the column.
  static constexpr source_location current(std::source_location s = std::source_location::current()) noexcept {
    return {s.file_name(), s.line(), s.column()};
  }
#elif defined(__has_builtin) && __has_builtin(__builtin_COLUMN)
  static constexpr CUSIM_HD source_location current(const char* f = __builtin_FILE(), unsigned l = __builtin_LINE(),
                                                    unsigned c = __builtin_COLUMN()) noexcept {
    return {f, l, c};
  }
#else
  static constexpr CUSIM_HD source_location current(const char* f = __builtin_FILE(),
                                                    unsigned l = __builtin_LINE()) noexcept {
    return {f, l, 0};
  }
#endif
};

}  // namespace cusim::detail
