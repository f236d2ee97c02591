// SPDX-License-Identifier: MIT
// CUSIM_CHECK=leaks's report (diagnostics words it).
#include "leak_checker.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace cusim::sim {

void leak_checker::program_ended(std::span<const leaked_allocation> live) {
  if (live.empty()) return;
  std::vector<leaked_allocation> ordered(live.begin(), live.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) { return x.serial < y.serial; });
  std::fputs(leak_check_report(ordered).c_str(), stderr);
}

}  // namespace cusim::sim
