// SPDX-License-Identifier: MIT
// The faults of libcu++'s synchronisation objects in kernels (cuda::barrier, cuda::pipeline,
// memcpy_async: include/cusim/backend/sim/libcudacxx_sync.hpp), raised in the thread that misused
// one, and the completion of a barrier's phase told to the checkers. Their waits and copies need
// nothing else compiled: they poll through detail::note_atomic and check through
// detail::check_async_copy (raw_access.cpp).
#include "block_state.hpp"
#include "checker.hpp"
#include "debugger.hpp"
#include "diagnostics.hpp"

#include <cusim/backend/sim/libcudacxx_sync.hpp>

#include <stdexcept>

namespace cusim::detail {

void fail_sync_misuse(sync_misuse what, std::int64_t a, std::int64_t b, const source_location& site) {
  if (current_thread_ == nullptr)  // host code: a plain exception, untagged
    throw std::logic_error("cusim: " + sim::sync_misuse_message(static_cast<int>(what), a, b));
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::sync_misuse_error(t.thread_idx, t.block->block_idx, static_cast<int>(what), a, b, site));
}

void sync_phase_completed() {
  if (current_thread_ == nullptr) return;
  auto& t = *static_cast<sim::thread_record*>(current_thread_);
  auto& b = *static_cast<sim::block_context*>(t.block);
  if (b.checkers == nullptr) return;
  b.checkers->thread_paused(t, b);  // the completing thread's accesses so far, classified first
  b.checkers->block_barrier_released(b);
}

}  // namespace cusim::detail
