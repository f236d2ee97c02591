// SPDX-License-Identifier: MIT
// Helpers shared by the API tests (host side only; kernels never call doctest).
#pragma once

#include <cusim/cusim.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

/// The simulator (or a GPU build with CUSIM_CHECKS) reports faults inside kernels as kernel_error.
inline constexpr bool kernel_faults_are_checked =
#if CUSIM_BACKEND_IS_SIM() || defined(CUSIM_CHECKS)
    true;
#else
    false;
#endif
inline constexpr bool on_simulator = CUSIM_BACKEND_IS_SIM();
/// AddressSanitizer and UBSan report wild pointers, stack overflows and divisions by zero
/// themselves (and abort): the tests of the simulator's own reports of them are skipped. Under
/// ThreadSanitizer the simulator's signal handlers run as usual.
inline constexpr bool sanitized =
#if defined(__SANITIZE_ADDRESS__)
    true;
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
    true;
#  else
    false;
#  endif
#else
    false;
#endif
/// ThreadSanitizer, which tracks every fiber as a thread of its own and stops the process past
/// 8128 live ones: the tests that keep more simulated threads resident at once skip under it.
inline constexpr bool thread_sanitized =
#if defined(__SANITIZE_THREAD__)
    true;
#elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
    true;
#  else
    false;
#  endif
#else
    false;
#endif

/// Runs `f`, expects a kernel_error, and returns its message.
template <class F>
std::string kernel_error_of(F&& f) {
  try {
    f();
    cusim::synchronize();
  } catch (const cusim::kernel_error& e) {
    return e.what();
  }
  FAIL("expected a cusim::kernel_error");
  return {};
}

/// Runs `f`, expects a kernel_error, and returns it.
template <class F>
cusim::kernel_error kernel_error_for(F&& f) {
  try {
    f();
    cusim::synchronize();
  } catch (const cusim::kernel_error& e) {
    return e;
  }
  FAIL("expected a cusim::kernel_error");
  return cusim::kernel_error("", {});
}

/// Sets an environment variable for the lifetime of the object.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~scoped_env() {
    if (had_) ::setenv(name_, old_.c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};
