// SPDX-License-Identifier: MIT
// libbacktrace (shipped with GCC) reads the DWARF line tables of the program and its shared
// libraries; one state for the process, created on first use, safe for concurrent lookups.
#include "symbolizer.hpp"

#if CUSIM_HAVE_LIBBACKTRACE
#  include <backtrace.h>
#endif

namespace cusim::sim {

#if CUSIM_HAVE_LIBBACKTRACE
namespace {

void ignore_error(void*, const char*, int) {}

backtrace_state* state() {
  static backtrace_state* s = backtrace_create_state(nullptr, /*threaded=*/1, ignore_error, nullptr);
  return s;
}

}  // namespace

code_place place_of(std::uintptr_t pc) {
  code_place place;
  if (state() == nullptr) return place;
  // The first frame reported is the innermost inlined function: the line that faulted.
  backtrace_pcinfo(
      state(), pc,
      [](void* data, std::uintptr_t, const char* file, int line, const char*) -> int {
        auto* p = static_cast<code_place*>(data);
        if (file != nullptr && line > 0) {
          p->file = file;
          p->line = static_cast<unsigned>(line);
        }
        return 1;
      },
      ignore_error, &place);
  backtrace_syminfo(
      state(), pc,
      [](void* data, std::uintptr_t address, const char* symbol, std::uintptr_t start, std::uintptr_t) {
        auto* p = static_cast<code_place*>(data);
        if (symbol == nullptr) return;
        p->function = symbol;
        p->offset = address - start;
      },
      ignore_error, &place);
  return place;
}
#else
code_place place_of(std::uintptr_t) { return {}; }
#endif

}  // namespace cusim::sim
