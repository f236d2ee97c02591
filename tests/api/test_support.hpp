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
/// AddressSanitizer reports fiber stack overflows itself (and aborts): those tests are skipped.
inline constexpr bool sanitized =
#if defined(CUSIM_SANITIZE)
    true;
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
