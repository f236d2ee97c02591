// SPDX-License-Identifier: MIT
// CUSIM_CHECK=sync's block barrier; its warp rule is the runner's (checker::strict_sync).
#include "sync_checker.hpp"

#include "block_state.hpp"
#include "launch_state.hpp"

#include <algorithm>

namespace cusim::sim {

std::exception_ptr sync_checker::block_barrier_releasing(block_context& b) {
  if (b.barrier_waiters.size() == b.nthreads) return nullptr;
  unsigned gone = 0;
  while (b.state_of(gone) != block_context::lane_state::exited) ++gone;
  thread_record* first = *std::min_element(b.barrier_waiters.begin(), b.barrier_waiters.end(),
                                           [](const thread_record* x, const thread_record* y) { return x->linear < y->linear; });
  b.break_thread = first;
  return std::make_exception_ptr(strict_barrier_error(first->thread_idx, b.block_idx, b.barrier_waiters.size(),
                                                      b.nthreads, index_of(b.block_dim, gone), first->site));
}

}  // namespace cusim::sim
