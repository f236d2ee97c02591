// SPDX-License-Identifier: MIT
// What every example ends with: print the verified result, exit non-zero if it is wrong.
#pragma once

#include <cstdio>

inline int report(const char* example, bool ok, const char* result) {
  std::printf("%-22s %s  %s\n", example, ok ? "OK   " : "WRONG", result);
  return ok ? 0 : 1;
}
