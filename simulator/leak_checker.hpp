// SPDX-License-Identifier: MIT
// CUSIM_CHECK=leaks: at exit, every allocation still live, in allocation order, on stderr.
#pragma once

#include "checker.hpp"

namespace cusim::sim {

class leak_checker final : public checker {
 public:
  void program_ended(std::span<const leaked_allocation> live) override;
};

}  // namespace cusim::sim
