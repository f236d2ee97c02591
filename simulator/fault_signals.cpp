// SPDX-License-Identifier: MIT
// The SIGSEGV handler behind stack-overflow reports.
#include "fault_signals.hpp"

#include "block_runner.hpp"
#include "fiber_pool.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace cusim::sim {

namespace {

struct sigaction previous_segv, previous_bus;

void restore_and_return(int sig) {
  sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_bus, nullptr);
}

void on_fault(int sig, siginfo_t* info, void*) {
  auto* t = static_cast<thread_record*>(detail::current_thread_);
  const char* addr = static_cast<const char*>(info->si_addr);
  if (t != nullptr && t->block != nullptr && addr < t->stack_lo && addr >= t->stack_lo - fiber_guard_bytes)
    runner_of(*t).abandon_overflowed(*t);  // does not return
  if (t != nullptr) {
    char line[192];
    int n = std::snprintf(line, sizeof line,
                          "cusim: tid=[%u, %u, %u] ctaid=[%u, %u, %u]: %s at address %p in a kernel thread "
                          "(a raw pointer out of bounds?)\n",
                          t->thread_idx.x, t->thread_idx.y, t->thread_idx.z, t->block->block_idx.x, t->block->block_idx.y,
                          t->block->block_idx.z, sig == SIGSEGV ? "segmentation fault" : "bus error", info->si_addr);
    if (n > 0) static_cast<void>(!::write(STDERR_FILENO, line, static_cast<std::size_t>(n)));
  }
  restore_and_return(sig);  // the faulting access repeats and takes the default action
}

void install_handler() {
#if defined(__SANITIZE_ADDRESS__)
  return;  // AddressSanitizer reports stack overflows itself
#endif
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;  // NODEFER: the handler leaves by a context switch
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
  sigaction(SIGBUS, &sa, &previous_bus);
}

struct alt_stack {
  void* memory = nullptr;
  alt_stack() {
    constexpr std::size_t bytes = 64 * 1024;
    memory = std::malloc(bytes);
    stack_t ss{};
    ss.ss_sp = memory;
    ss.ss_size = bytes;
    if (memory == nullptr || sigaltstack(&ss, nullptr) != 0) {
      std::free(memory);
      memory = nullptr;
    }
  }
  ~alt_stack() {
    if (memory == nullptr) return;
    stack_t ss{};
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
    std::free(memory);
  }
};

}  // namespace

void ensure_fault_signal_stack() {
  static std::once_flag once;
  std::call_once(once, install_handler);
  thread_local alt_stack stack;
}

}  // namespace cusim::sim
