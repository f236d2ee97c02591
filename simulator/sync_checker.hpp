// SPDX-License-Identifier: MIT
// CUSIM_CHECK=sync: a __syncthreads or __syncwarp must be reached by every thread it names. A GPU
// counts threads that have exited (and lanes past the block's end) as arrived; under this checker
// the barrier is an error instead, and a __syncwarp waits for its exited lanes (reported as stuck).
#pragma once

#include "checker.hpp"

namespace cusim::sim {

class sync_checker final : public checker {
 public:
  bool strict_sync() const noexcept override { return true; }
  /// A __syncthreads that some thread of the block never reaches (it exited) is an error.
  std::exception_ptr block_barrier_releasing(block_context& b) override;
};

}  // namespace cusim::sim
