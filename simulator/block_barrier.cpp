// SPDX-License-Identifier: MIT
// The block barrier: __syncthreads (and its _count/_and/_or forms) and this_grid().sync(), an
// arrival, the release by the last live thread, and ring mode, in which the live threads take
// turns at one __syncthreads in a fixed cycle (docs/internals.md, "One barrier").
#include "block_runner.hpp"
#include "block_runner_inline.hpp"

#include "debugger.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "phases.hpp"

#include <cstddef>

namespace cusim::sim {

// A plain __syncthreads in ring mode: an arrival and a switch to the next thread of the ring.
int block_runner::ring_sync(thread_record& self, block_context& b, const detail::source_location& site) {
  if (b.ring_arrived == 0) {
    if (b.ring_warp_waiting != 0) [[unlikely]]  // lanes wait at warp collectives: the queues take over
      return sync_block(self, detail::sync_op::plain, 0, site);
    b.barrier_site = site;
  } else if (!same_call(site, b.barrier_site)) [[unlikely]] {
    return sync_block(self, detail::sync_op::plain, 0, site);  // another site: divergence, reported there
  }
  self.wait = wait_kind::block_barrier;
  self.site = site;
  self.generation = b.barrier_generation;
  self.status = thread_status::waiting;
  ++b.progress;
  if (++b.ring_arrived == b.live) {  // the last to arrive: the barrier releases, the first to arrive runs next
    b.ring_arrived = 0;
    ++b.barrier_generation;
  }
  ring_switch(self, b);
  self.wait = wait_kind::none;
  return 0;
}

// Right after a release by its last arrival: the released threads, in arrival order, become the
// ring, and the first of them runs next. Touches each record once, when a block enters ring mode.
fiber_slot* block_runner::enter_ring() {
  block_context& b = *block_;
  const std::size_t n = b.ready.size();
  for (std::size_t i = 0; i < n; ++i) b.ready[i]->ring_next = b.ready[i + 1 == n ? 0 : i + 1]->linear;
  fiber_slot* first = static_cast<fiber_slot*>(b.ready.front());
  b.ring_prev = b.ready.back()->linear;  // the last to arrive, which released the barrier
  b.ready.clear();
  b.ready_head = 0;
  b.ring = true;
  b.ring_arrived = 0;
  b.ring_warp_waiting = 0;
  return first;
}

// Turns the ring back into the queues, while `cur` runs (or has just left by a signal fault).
// The others, in ring order from cur: first those released and not run yet, then, since the
// ring is the run order, the ring_arrived that ran before cur and wait at the barrier. Those
// waiting at warp collectives are out of the cycle and parked, as park leaves them (warp_waiting
// and waiting count them already).
void block_runner::leave_ring(thread_record& cur) {
  block_context& b = *block_;
  b.ring = false;
  b.ready.clear();
  b.ready_head = 0;
  for (thread_record* t = b.lane(cur.ring_next); t != &cur; t = b.lane(t->ring_next)) b.ready.push_back(t);
  const auto released = b.ready.end() - b.ring_arrived;
  b.barrier_waiters.assign(released, b.ready.end());
  b.ready.erase(released, b.ready.end());
  b.waiting = b.ring_arrived + b.ring_warp_waiting;
  b.ring_arrived = 0;
  b.ring_warp_waiting = 0;
  b.barrier_op = detail::sync_op::plain;
  b.barrier_count = 0;
  b.barrier_divergent = false;
}

int block_runner::sync_block(thread_record& self, detail::sync_op op, int predicate,
                             const detail::source_location& site) {
  block_context& b = *block_;
  if (b.ring) leave_ring(self);
  flush_accesses(self);
  self.wait = wait_kind::block_barrier;
  self.site = site;
  self.generation = b.barrier_generation;
  if (b.barrier_waiters.empty()) {
    b.barrier_site = site;
    b.barrier_op = op;
    b.barrier_count = 0;
  } else if (!same_site(site, b.barrier_site)) {
    b.barrier_divergent = true;
  }
  b.barrier_count += predicate != 0;
  b.barrier_waiters.push_back(&self);
  // The last live thread to arrive releases the barrier itself and hands over to the first
  // waiter, with no switch to the scheduler, when nothing else needs it: every thread started,
  // one site, no checker or random schedule (fast_next, checkers), not the grid.
  // Nothing was ready (every live thread waits here), so the first waiter runs next.
  if (b.barrier_waiters.size() == b.live && b.next_unstarted == b.nthreads && b.fast_next && !b.barrier_divergent &&
      op != detail::sync_op::grid && !b.checkers) [[unlikely]] {
    mark_waiting(self);
    release_barrier();
    run_next(self, enter_ring());
  } else {
    park(self);
  }
  self.wait = wait_kind::none;  // a running thread waits for nothing (next_thread starts the next inline)
  return b.barrier_result;      // no later release can come before every waiter of this one has run
}

void block_runner::release_barrier() {
  block_context& b = *block_;
  if (b.barrier_op != detail::sync_op::grid && b.checkers) b.checkers->block_barrier_released(b);
  const int live = static_cast<int>(b.barrier_waiters.size());
  b.barrier_result = b.barrier_op == detail::sync_op::count ? b.barrier_count
                     : b.barrier_op == detail::sync_op::all ? (b.barrier_count == live)
                     : b.barrier_op == detail::sync_op::any ? (b.barrier_count > 0)
                                                            : 0;
  // The waiters keep status `waiting` until they run; their generation tells them apart.
  ++b.barrier_generation;
  b.waiting -= static_cast<unsigned>(live);
  b.ready.swap(b.barrier_waiters);  // nothing was ready: the waiters run next, in arrival order
  b.ready_head = 0;
  b.barrier_waiters.clear();
}

}  // namespace cusim::sim

namespace cusim::detail {

int sync_block(sync_op op, int predicate, const source_location& site) {
  sim::thread_record& t = sim::current_record("__syncthreads");
  sim::block_context& b = *static_cast<sim::block_context*>(t.block);
  if (b.ring && op == sync_op::plain) [[likely]] return b.runner->ring_sync(t, b, site);
  if (b.phased) [[unlikely]] sim::fail_wait_in_phases(t, "__syncthreads", site);
  return b.runner->sync_block(t, op, predicate, site);
}

void sync_grid(const source_location& site) {
  sim::thread_record& t = sim::current_record("this_grid().sync()");
  if (!static_cast<sim::block_context*>(t.block)->launch->cooperative)
    sim::raise_fault(sim::grid_sync_outside_cooperative_error(t.thread_idx, t.block->block_idx, site));
  sim::runner_of(t).sync_block(t, sync_op::grid, 0, site);
}

bool in_cooperative_launch() {
  return static_cast<sim::block_context*>(sim::current_record("this_grid()").block)->launch->cooperative;
}

}  // namespace cusim::detail
