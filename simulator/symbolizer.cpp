// SPDX-License-Identifier: MIT
// libbacktrace (shipped with GCC) reads the DWARF line tables of the program and its shared
// libraries; one state for the process, created on first use. Lookups take a lock: libbacktrace's
// own thread safety (threaded=1) is built from atomics in code no sanitizer instruments, and two
// blocks faulting at once on two workers reach it together (ThreadSanitizer reported its lazy
// reading of the line tables as a race). Only fault reports look places up.
#include "symbolizer.hpp"

#if CUSIM_HAVE_LIBBACKTRACE
#  include <backtrace.h>
#endif

#include <cstring>
#include <mutex>

namespace cusim::sim {

#if CUSIM_HAVE_LIBBACKTRACE
namespace {

void ignore_error(void*, const char*, int) {}

backtrace_state* state() {
  static backtrace_state* s = backtrace_create_state(nullptr, /*threaded=*/1, ignore_error, nullptr);
  return s;
}

bool is_cusim_header(const char* file) {
  return std::strstr(file, "/include/cusim/") != nullptr || std::strstr(file, "/cuda/include/") != nullptr ||
         std::strstr(file, "/include/cuda/") != nullptr;
}

/// The headers of the loops over a block's threads, which call the kernel (inlined into them).
bool is_thread_loop_header(const char* file) {
  for (const char* h : {"/backend/sim/launch.hpp", "/backend/sim/unmodified.hpp", "/backend/sim/phases.hpp"})
    if (std::strstr(file, h) != nullptr) return true;
  return false;
}

/// The compiler's and the C++ library's headers.
bool is_system_header(const char* file) {
  return std::strncmp(file, "/usr/include/", 13) == 0 || std::strncmp(file, "/usr/lib/", 9) == 0;
}

struct frame_search {
  code_place* place;
  bool skip_cusim;
  bool skipped = false;  ///< a frame of cusim's headers was passed for its caller
};

code_place lookup(std::uintptr_t pc, bool skip_cusim) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  code_place place;
  if (state() == nullptr) return place;
  // Frames come innermost first: the inlined function whose line faulted, then its callers. A
  // place in cusim's headers is passed for its caller, up to the kernel: the thread loop inlines
  // kernels, and its frames (std::invoke's among them) are not the program's.
  frame_search search{&place, skip_cusim};
  backtrace_pcinfo(
      state(), pc,
      [](void* data, std::uintptr_t, const char* file, int line, const char*) -> int {
        auto* s = static_cast<frame_search*>(data);
        if (file == nullptr || line <= 0) return 1;
        if (s->skipped && is_thread_loop_header(file)) return 1; // the kernel's caller: keep its place
        if (s->skipped && is_system_header(file)) return 0;          // std::invoke & co. on the way to it
        if (s->place->file.empty() || !s->skip_cusim || is_cusim_header(s->place->file.c_str())) {
          s->place->file = file;
          s->place->line = static_cast<unsigned>(line);
        }
        if (s->skip_cusim && is_cusim_header(file)) {
          s->skipped = true;
          return 0;  // go on to the caller
        }
        return 1;
      },
      ignore_error, &search);
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

}  // namespace

code_place place_of(std::uintptr_t pc) { return lookup(pc, false); }
code_place program_place_of(std::uintptr_t pc) { return lookup(pc, true); }
#else
code_place place_of(std::uintptr_t) { return {}; }
code_place program_place_of(std::uintptr_t) { return {}; }
#endif

}  // namespace cusim::sim
