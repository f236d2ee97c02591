// SPDX-License-Identifier: MIT
// What AddressSanitizer and ThreadSanitizer cannot see for themselves: which stack and which
// fiber runs after a switch, and the handoffs made inside TBB (not built with TSan). Every
// function here is empty unless the translation unit is compiled with that sanitizer.
#pragma once

#if defined(__has_feature)  // clang
#  if __has_feature(address_sanitizer)
#    define CUSIM_SIM_ASAN 1
#  endif
#  if __has_feature(thread_sanitizer)
#    define CUSIM_SIM_TSAN 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(CUSIM_SIM_ASAN)  // gcc
#  define CUSIM_SIM_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__) && !defined(CUSIM_SIM_TSAN)
#  define CUSIM_SIM_TSAN 1
#endif
#ifndef CUSIM_SIM_ASAN
#  define CUSIM_SIM_ASAN 0
#endif
#ifndef CUSIM_SIM_TSAN
#  define CUSIM_SIM_TSAN 0
#endif

#if CUSIM_SIM_ASAN
#  include <sanitizer/asan_interface.h>
#  include <sanitizer/common_interface_defs.h>
#endif
#if CUSIM_SIM_TSAN
#  include <sanitizer/tsan_interface.h>
#endif

#include <cstddef>

namespace cusim::sim {

/// What the sanitizers know of one fiber, or of an OS thread's own stack. Empty without them.
struct fiber_sanitizer_state {
#if CUSIM_SIM_ASAN
  const void* stack_bottom = nullptr;  ///< the stack's lowest address (ASan: what a throw unpoisons)
  std::size_t stack_size = 0;
#endif
#if CUSIM_SIM_TSAN
  void* tsan_fiber = nullptr;  ///< TSan's context: its own clock and shadow call stack
#endif
};

/// A fiber's first sanitizer state, on the stack [bottom, bottom + size).
inline void create_sanitizer_state(fiber_sanitizer_state& s, const void* bottom, std::size_t size) noexcept {
#if CUSIM_SIM_ASAN
  s.stack_bottom = bottom;
  s.stack_size = size;
  // A pooled stack may still hold the redzones of frames that never returned (a fiber unwound or
  // abandoned on it): ASan's own no-return handling in the new fiber's entry then tripped over
  // them (a CHECK failure in GetStackFrameAccessByAddr, about one run in ten of the cooperative
  // launch of 40,960 threads under AddressSanitizer).
  __asan_unpoison_memory_region(bottom, size);
#else
  static_cast<void>(bottom);
  static_cast<void>(size);
#endif
#if CUSIM_SIM_TSAN
  s.tsan_fiber = __tsan_create_fiber(0);
#endif
  static_cast<void>(s);
}

/// Ends the sanitizer state of a fiber that will never run again (not the running one).
inline void destroy_sanitizer_state(fiber_sanitizer_state& s) noexcept {
#if CUSIM_SIM_TSAN
  if (s.tsan_fiber != nullptr) __tsan_destroy_fiber(s.tsan_fiber);
  s.tsan_fiber = nullptr;
#endif
  static_cast<void>(s);
}

/// The state of the OS thread's own context, called on that thread outside any fiber. Its
/// stack bounds reach ASan's state through finish_switch, at the first switch away from it.
inline void adopt_thread_sanitizer_state(fiber_sanitizer_state& s) noexcept {
#if CUSIM_SIM_TSAN
  s.tsan_fiber = __tsan_get_current_fiber();
#endif
  static_cast<void>(s);
}

/// Just before the jump to `to`, on the stack that is left. `fake` receives the left side's
/// ASan fake stack, for finish_switch when it runs again; null when it never runs again.
/// TSan: the switch orders everything before it before everything after it (flags 0), as the
/// fibers of a block are ordered by their cooperative switches. Call it in the frame that jumps
/// (TSan's shadow call stack follows the fiber from here).
[[gnu::always_inline]] inline void start_switch(const fiber_sanitizer_state& to, void** fake) noexcept {
#if CUSIM_SIM_ASAN
  __sanitizer_start_switch_fiber(fake, to.stack_bottom, to.stack_size);
#else
  static_cast<void>(fake);
#endif
#if CUSIM_SIM_TSAN
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#endif
  static_cast<void>(to);
}

/// First thing on the stack that runs again, with what its start_switch stored in `fake` (null
/// on a fiber's first run). Records the bounds of the stack that was left in `from`.
[[gnu::always_inline]] inline void finish_switch(void* fake, fiber_sanitizer_state& from) noexcept {
#if CUSIM_SIM_ASAN
  __sanitizer_finish_switch_fiber(fake, &from.stack_bottom, &from.stack_size);
#else
  static_cast<void>(fake);
#endif
  static_cast<void>(from);
}

/// Runs `f`, which goes to the fiber `to` and comes back to this stack behind the runner's back:
/// Boost.Context's own switches when it creates a fiber (its entry runs up to its first switch
/// back) and when it unwinds one (the unwind runs on the fiber, then its stack is freed here).
/// The sanitizers see `to` run for the duration, and then the caller again.
template <class F>
[[gnu::always_inline]] inline void run_on(const fiber_sanitizer_state& to, F&& f) {
#if CUSIM_SIM_ASAN
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, to.stack_bottom, to.stack_size);
#endif
#if CUSIM_SIM_TSAN
  void* self = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#endif
  static_cast<void>(to);
  f();
#if CUSIM_SIM_ASAN
  // ASan has no "switch back": finish the switch to `to` (which hands back the caller's own
  // bounds), then switch from it to the caller.
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
  __sanitizer_start_switch_fiber(nullptr, bottom, size);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
#if CUSIM_SIM_TSAN
  __tsan_switch_to_fiber(self, 0);
#endif
}

/// TSan: everything before this call on this thread happens before whatever follows a
/// happens_after(sync) on another thread. For handoffs through uninstrumented code (TBB).
inline void happens_before(const void* sync) noexcept {
#if CUSIM_SIM_TSAN
  __tsan_release(const_cast<void*>(sync));
#endif
  static_cast<void>(sync);
}

/// TSan: what preceded every earlier happens_before(sync) happens before what follows.
inline void happens_after(const void* sync) noexcept {
#if CUSIM_SIM_TSAN
  __tsan_acquire(const_cast<void*>(sync));
#endif
  static_cast<void>(sync);
}

}  // namespace cusim::sim
