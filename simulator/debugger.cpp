// SPDX-License-Identifier: MIT
// CUSIM_BREAK and the worker registry read by tools/cusim-gdb.py.
#include "debugger.hpp"

#include "block_state.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>

// gdb loads tools/cusim-gdb.py by itself when the program links the simulator and the script's
// folder is in its auto-load safe-path (docs/debugging.md).
#if defined(CUSIM_GDB_SCRIPT) && defined(__ELF__)
asm(".pushsection \".debug_gdb_scripts\", \"MS\",%progbits,1\n"
    ".byte 1\n"
    ".asciz \"" CUSIM_GDB_SCRIPT "\"\n"
    ".popsection\n");
#endif

/// Where CUSIM_BREAK stops: the gdb extension selects the kernel frame above it.
extern "C" [[gnu::noinline]] void cusim_break_here() {
  std::raise(SIGTRAP);
  asm volatile("");  // keeps the frame (no tail call)
}

namespace cusim::sim {

debug_worker* debug_runners = nullptr;

namespace {
std::mutex registry_mutex;
}  // namespace

bool debugger_attached() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("TracerPid:", 0) == 0) return std::stol(line.substr(10)) != 0;
  return false;
}

void register_runner(debug_worker& runner) {
  runner.debug_lwp = static_cast<int>(::syscall(SYS_gettid));
  std::lock_guard lock(registry_mutex);
  runner.debug_next = debug_runners;
  debug_runners = &runner;
}

void unregister_runner(debug_worker& runner) {
  std::lock_guard lock(registry_mutex);
  for (debug_worker** p = &debug_runners; *p != nullptr; p = &(*p)->debug_next)
    if (*p == &runner) {
      *p = runner.debug_next;
      return;
    }
}

void break_on(const kernel_error& e, const launch_state& launch) {
  if (!launch.break_on_fault) return;
  if (!debugger_attached()) {
    static std::once_flag warned;
    std::call_once(warned, [] {
      std::fputs("cusim: CUSIM_BREAK is set but no debugger is attached: faults are reported without stopping\n",
                 stderr);
    });
    return;
  }
  std::fprintf(stderr, "cusim: CUSIM_BREAK: stopping in the faulting thread\n%s\n", e.what());
  cusim_break_here();
}

void break_on_instrumented_fault(const signal_fault& fault) {
  auto* t = static_cast<const thread_record*>(detail::current_thread_);
  if (t == nullptr || t->block == nullptr) return;
  const auto& b = *static_cast<const block_context*>(t->block);
  if (!b.launch->break_on_fault) return;
  break_on(instrumented_fault_error(t->thread_idx, b.block_idx, fault), *b.launch);
}

void raise_fault(const kernel_error& e) {
  if (detail::current_thread_ != nullptr)
    break_on(e, *static_cast<const block_context*>(detail::current_thread_->block)->launch);
  throw e;
}

}  // namespace cusim::sim
