// SPDX-License-Identifier: MIT
// CUSIM_CHECK's checkers for a launch. A new checker is made here (docs/internals.md, "Add a checker").
#include "checkers.hpp"

#include "memory_checker.hpp"
#include "report_checker.hpp"
#include "settings.hpp"
#include "sync_checker.hpp"

namespace cusim::sim {

std::unique_ptr<checker_set> checkers_for_launch(const check_settings& settings) {
  std::vector<std::unique_ptr<checker>> checkers;
  if (settings.memory()) checkers.push_back(std::make_unique<memory_checker>(settings));
  if (settings.sync) checkers.push_back(std::make_unique<sync_checker>());
  if (!report_directory().empty()) checkers.push_back(std::make_unique<report_checker>());  // CUSIM_REPORT
  if (checkers.empty()) return nullptr;
  return std::make_unique<checker_set>(std::move(checkers));
}

}  // namespace cusim::sim
