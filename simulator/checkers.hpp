// SPDX-License-Identifier: MIT
// Which checkers a launch holds: CUSIM_CHECK's choice (settings.hpp) made into checkers.
#pragma once

#include "checker.hpp"

#include <memory>

namespace cusim::sim {

struct check_settings;

/// The checkers `settings` turns on for a launch, in a fixed order (race and init, then sync), or
/// null when none is.
std::unique_ptr<checker_set> checkers_for_launch(const check_settings& settings);

}  // namespace cusim::sim
