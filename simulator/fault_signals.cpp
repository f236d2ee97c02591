// SPDX-License-Identifier: MIT
// The handlers behind signal-fault reports. They run on an alternate stack, record what the
// signal says with plain stores, and leave the faulting fiber for good (block_runner::abandon);
// a signal outside a kernel thread's fiber takes its previous disposition.
#include "fault_signals.hpp"

#include "block_state.hpp"
#include "fiber_pool.hpp"
#include "gpu_defined.hpp"

#include <signal.h>
#include <ucontext.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace cusim::sim {

namespace {

constexpr int handled[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previous[std::size(handled)];
std::atomic<abandon_thread> abandon_kernel_thread{nullptr};

int slot_of(int sig) {
  for (std::size_t i = 0; i < std::size(handled); ++i)
    if (handled[i] == sig) return static_cast<int>(i);
  return 0;
}

void on_fault(int sig, siginfo_t* info, void* context) {
  auto* t = static_cast<fiber_slot*>(static_cast<thread_record*>(detail::current_thread_));
#if defined(__x86_64__)
  const auto& regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
  const auto pc = static_cast<std::uintptr_t>(regs[REG_RIP]);
  const char* sp = reinterpret_cast<const char*>(regs[REG_RSP]);
  const bool write = (regs[REG_ERR] & 2) != 0;  // the page fault's W/R bit
#else
  const std::uintptr_t pc = 0;
  const char* sp = nullptr;
  const bool write = false;
  static_cast<void>(context);
#endif
  // Only a fault of kernel code, on its thread's fiber stack, is the kernel's: anything else (a
  // simulator bug, a host thread) keeps the signal's previous disposition.
  if (t != nullptr && t->block != nullptr) {
    const char* lo = t->stack_lo - fiber_guard_bytes;
    const char* hi = static_cast<const char*>(t->stack.sp);
    const char* addr = static_cast<const char*>(info->si_addr);
    const bool overflow = sig == SIGSEGV && addr < t->stack_lo && addr >= lo;
    // An integer division by zero (or MIN / -1) has the GPU's result: the thread goes on.
    if (sig == SIGFPE && info->si_code == FPE_INTDIV && give_division_gpu_result(context, pc)) return;
    if (overflow || (sp >= lo && sp <= hi)) {
      // The handler is left by a switch, so the kernel never restores the mask it had before the
      // signal: restore it here. Ours blocks nothing more, but ThreadSanitizer installs every
      // handler with all signals blocked, and the next fault would then kill the process.
      sigprocmask(SIG_SETMASK, &static_cast<ucontext_t*>(context)->uc_sigmask, nullptr);
      abandon_kernel_thread.load(std::memory_order_relaxed)(
          *t, signal_fault{sig, info->si_code, info->si_addr, pc, write, overflow, false, {}, false, {}});  // no return
    }
  }
  sigaction(sig, &previous[slot_of(sig)], nullptr);  // the faulting instruction repeats and takes it
}

}  // namespace

bool abandon_current_thread(const signal_fault& fault) noexcept {
  auto* t = static_cast<fiber_slot*>(static_cast<thread_record*>(detail::current_thread_));
  const abandon_thread abandon = abandon_kernel_thread.load(std::memory_order_relaxed);
  if (t == nullptr || t->block == nullptr || abandon == nullptr) return false;
  abandon(*t, fault);
  __builtin_unreachable();
}

namespace {

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

void ensure_fault_handlers(abandon_thread abandon) {
  abandon_kernel_thread.store(abandon, std::memory_order_relaxed);
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reports the memory faults itself; a division keeps the GPU's result.
  constexpr int installed = SIGFPE;
#else
  constexpr int installed = SIGSEGV;
#endif
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  struct sigaction current {};
  sigaction(installed, nullptr, &current);
  if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == on_fault) return;
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;  // NODEFER: the handler leaves by a context switch
  sigemptyset(&sa.sa_mask);
  for (std::size_t i = 0; i < std::size(handled); ++i)
#if defined(__SANITIZE_ADDRESS__)
    if (handled[i] == SIGFPE)
#endif
      sigaction(handled[i], &sa, &previous[i]);
}

void ensure_fault_signal_stack() { thread_local alt_stack stack; }

}  // namespace cusim::sim
