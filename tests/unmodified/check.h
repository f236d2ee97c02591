// SPDX-License-Identifier: MIT
// What the unmodified-program tests share: CHECK (counts failures, main returns their number)
// and the capture of this process's stderr, to compare a fault report with its exact text.
#pragma once

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "../stderr_capture.hpp"

inline int failures = 0;

#define CHECK(cond)                                                                        \
  ((cond) ? static_cast<void>(0) : (static_cast<void>(std::fprintf(stdout, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond)), ++failures, static_cast<void>(0)))

#define CHECK_EQ(a, b)                                                                     \
  do {                                                                                     \
    const auto cusim_a_ = (a);                                                             \
    const auto cusim_b_ = (b);                                                             \
    if (!(cusim_a_ == cusim_b_)) {                                                         \
      std::ostringstream cusim_s_;                                                         \
      cusim_s_ << #a << " == " << #b << ": " << cusim_a_ << " != " << cusim_b_;            \
      std::fprintf(stdout, "%s:%d: CHECK_EQ(%s) failed\n", __FILE__, __LINE__, cusim_s_.str().c_str()); \
      ++failures;                                                                          \
    }                                                                                      \
  } while (0)

/// The report of the first kernel fault the device synchronisation returns (stderr, captured),
/// its code in `code`; then the device is reset.
template <class Launch>
std::string fault_of(Launch launch, cudaError_t& code) {
  stderr_capture capture;
  launch();
  code = cudaDeviceSynchronize();
  std::string text = capture.text();
  cudaDeviceReset();
  return text;
}

/// Runs a launch that faults: the name of the error its launch or synchronisation returned, its
/// report (stderr, captured) in `report`; then the device is reset (a fault is sticky).
inline std::string fault_of(void (*launch)(), std::string* report) {
  cudaError_t e;
  {
    stderr_capture capture;
    launch();
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    *report = capture.text();
  }
  cudaDeviceReset();
  return cudaGetErrorName(e);
}

inline int finish() {
  std::printf(failures == 0 ? "all checks passed\n" : "%d checks failed\n", failures);
  return failures == 0 ? 0 : 1;
}
