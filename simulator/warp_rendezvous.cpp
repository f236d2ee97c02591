// SPDX-License-Identifier: MIT
// The warp rendezvous: a warp collective's or __activemask's arrival, and the collective's
// completion by its last lane (what it computes is warp_collective.cpp's). Then what happens in a
// block where no thread can run (resolve_waits): the __activemask and __syncwarp waits released,
// the barrier released, or the report of the deadlock or divergence that keeps the block stuck
// (the messages are diagnostics.cpp's).
#include "block_runner.hpp"
#include "block_runner_inline.hpp"

#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "checker.hpp"
#include "phases.hpp"
#include "warp_collective.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

namespace cusim::sim {

detail::warp_result block_runner::warp_collective(thread_record& self, const detail::warp_request& req,
                                                  const detail::source_location& site) {
  block_context& b = *block_;
  const unsigned lane = self.linear % 32, warp = self.linear / 32;
  if (b.ring && b.ring_arrived != 0) leave_ring(self);  // the ring keeps collectives only while no thread waits at its barrier
  if ((req.mask >> lane & 1u) == 0 || !valid_request(req)) [[unlikely]] reject_collective(self, req, site);
  flush_accesses(self);
  self.wait = wait_kind::warp_collective;
  self.site = site;
  self.op = req.op;
  self.mask = req.mask;
  self.value = req.value;
  self.arg = req.arg;
  self.width = req.width;
  const unsigned arrived = b.warp_arrived[warp] |= 1u << lane;
  // Every lane but the last waits. Without complete_collective's look at each missing lane when
  // the warp lies wholly inside the block and this is no __syncwarp: a lane of the mask that has
  // not arrived then keeps the collective open whatever became of it.
  const bool open = (req.mask & ~arrived) != 0 && req.op != detail::warp_op::sync && (warp + 1) * 32 <= b.nthreads;
  if (!open && complete_collective(self)) {
    ++b.progress;  // the last lane to arrive computes everyone's result and runs on
  } else if (b.ring && self.ring_next != self.linear) {
    // Waits out of the ring (its predecessor is linked to its successor, which runs next) until
    // the collective's last lane links it back in.
    b.lane(b.ring_prev)->ring_next = self.ring_next;
    ++b.ring_warp_waiting;
    ++b.warp_waiting;
    mark_waiting(self);
    thread_record& next = *b.lane(self.ring_next);
    const thread_record& after = *b.lane(next.ring_next);
    prefetch_stack(after);
    prefetch_record(*b.lane(after.ring_next));
    run_next(self, static_cast<fiber_slot*>(&next));
  } else {
    if (b.ring) leave_ring(self);  // the last thread of the cycle: the scheduler settles the collective
    ++b.warp_waiting;
    park(self);
  }
  self.wait = wait_kind::none;
  return {self.out, self.result};
}

void block_runner::reject_collective(const thread_record& self, const detail::warp_request& req,
                                     const detail::source_location& site) {
  const std::string what = describe_collective(req.op, req.mask);
  const unsigned lane = self.linear % 32;
  if ((req.mask >> lane & 1u) == 0)
    raise_fault(lane_not_in_mask_error(self.thread_idx, self.block->block_idx, what, lane, site));
  raise_fault(invalid_width_error(self.thread_idx, self.block->block_idx, what, req.width, site));
}

// Completes the collective `self` just joined if every lane of its mask is there, at the same
// collective with the same mask (a __syncwarp also counts exited and absent lanes as arrived).
bool block_runner::complete_collective(thread_record& self) {
  block_context& b = *block_;
  const unsigned base = self.linear / 32 * 32, mask = self.mask;
  const unsigned missing = mask & ~b.warp_arrived[base / 32];
  unsigned absent = 0;  // lanes past the block's end: on a GPU they take no part (CUSIM_CHECK=sync: an error)
  for (unsigned m = missing; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const auto state = b.state_of(base + lane);
    if (state == block_context::lane_state::absent && !b.strict_sync) {
      absent |= 1u << lane;
      continue;
    }
    if (self.op != detail::warp_op::sync || b.strict_sync || state == block_context::lane_state::live ||
        state == block_context::lane_state::unstarted)
      return false;
  }
  thread_record* group[32] = {};
  for (unsigned m = mask & ~missing; m != 0; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    thread_record* t = b.lane(base + lane);
    if (t->op != self.op || t->mask != mask) return false;  // reported once nothing can run
    group[lane] = t;
  }
  combine(self.op, mask, group, absent);
  b.warp_arrived[base / 32] &= ~mask;
  if (self.op == detail::warp_op::sync && b.checkers) b.checkers->warp_synchronised(b, base, mask);
  if (b.ring) {
    relink_collective(self, mask & ~missing, group);
    return true;
  }
  for (unsigned m = mask & ~missing; m != 0; m &= m - 1) {
    thread_record* t = group[std::countr_zero(m)];
    if (t == &self) continue;
    --b.warp_waiting;
    make_ready(*t);
  }
  return true;
}

// In ring mode, the collective `self` completes: its other lanes (those of `lanes` but self),
// which wait out of the cycle, become ready and are linked in lane order right before self, the
// end of the run order from self, where make_ready would queue them.
void block_runner::relink_collective(thread_record& self, unsigned lanes, thread_record* const (&group)[32]) {
  block_context& b = *block_;
  thread_record* prev = b.lane(b.ring_prev);
  for (unsigned m = lanes; m != 0; m &= m - 1) {
    thread_record* t = group[std::countr_zero(m)];
    if (t == &self) continue;
    --b.ring_warp_waiting;
    --b.warp_waiting;
    --b.waiting;
    t->status = thread_status::ready;
    prev->ring_next = t->linear;
    prev = t;
  }
  prev->ring_next = self.linear;
  b.ring_prev = prev->linear;
}

unsigned block_runner::active_mask(thread_record& self, const detail::source_location& site) {
  if (block_->ring) leave_ring(self);
  flush_accesses(self);
  self.wait = wait_kind::active_mask;
  self.site = site;
  ++block_->active_waiting;
  park(self);
  self.wait = wait_kind::none;
  return static_cast<unsigned>(self.out);
}

// Called when no thread can run. __activemask calls are answered first: the lanes of a warp that
// reach one call site together are exactly those that have nothing else to do. Then warp
// collectives, then the block barrier. Returns true when every live thread waits at
// this_grid().sync(): the block is suspended.
bool block_runner::resolve_waits() {
  block_context& b = *block_;
  if (b.active_waiting > 0) {
    release_active_masks();
    return false;
  }
  if (b.warp_waiting > 0) {
    if (!release_warps()) report_stuck_warp();
    return false;
  }
  if (b.barrier_divergent) {
    report_divergence();
    return false;
  }
  if (b.barrier_op == detail::sync_op::grid) return true;
  if (b.checkers)
    if (std::exception_ptr refused = b.checkers->block_barrier_releasing(b)) {
      fault(std::move(refused));
      return false;
    }
  release_barrier();  // every live thread waits at the same __syncthreads
  return false;
}

std::vector<const thread_record*> block_runner::waiting_threads(wait_kind kind) const {
  std::vector<const thread_record*> out;
  for (const auto& slot : slots_)
    if (slot->block == block_ && slot->status == thread_status::waiting && slot->wait == kind) out.push_back(slot.get());
  std::sort(out.begin(), out.end(), [](const thread_record* a, const thread_record* b) { return a->linear < b->linear; });
  return out;
}

void block_runner::report_divergence() {
  const std::vector<const thread_record*> waiters = waiting_threads(wait_kind::block_barrier);
  const thread_record* first = waiters.front();  // first waiter in thread order
  const thread_record* other = nullptr;          // first waiter at another __syncthreads
  std::vector<detail::source_location> sites;  // every waiter's, in thread order
  sites.reserve(waiters.size());
  for (const thread_record* t : waiters) {
    if (!other && !same_site(t->site, first->site)) other = t;
    sites.push_back(t->site);
  }
  block_->break_thread = const_cast<thread_record*>(other);
  fault(std::make_exception_ptr(barrier_divergence_error(other->thread_idx, other->block->block_idx,
                                                         first->thread_idx, first->site, sites, other->site)));
}

void block_runner::release_active_masks() {
  block_context& b = *block_;
  for (unsigned base = 0; base < b.nthreads; base += 32) {
    thread_record* at[32] = {};
    for (unsigned lane = 0; lane < 32 && base + lane < b.next_unstarted; ++lane)
      at[lane] = b.waiting_at(base + lane, wait_kind::active_mask);
    for (unsigned lane = 0; lane < 32; ++lane) {
      if (at[lane] == nullptr) continue;
      unsigned together = 0;
      for (unsigned other = 0; other < 32; ++other)
        if (at[other] && same_site(at[other]->site, at[lane]->site)) together |= 1u << other;
      at[lane]->out = together;
    }
    for (thread_record* t : at) {
      if (t == nullptr) continue;
      --b.active_waiting;
      make_ready(*t);
    }
  }
}

// A __syncwarp whose missing lanes have exited (or never existed) since its last lane arrived:
// releases every __syncwarp waiter whose mask is now complete.
bool block_runner::release_warps() {
  block_context& b = *block_;
  std::vector<thread_record*> complete;
  for (unsigned i = 0; i < b.next_unstarted; ++i) {
    thread_record* t = b.at_warp_collective(i);
    if (t == nullptr || t->op != detail::warp_op::sync) continue;
    const unsigned base = i / 32 * 32;
    bool ok = true;
    for (unsigned m = t->mask; ok && m != 0; m &= m - 1) {
      const unsigned j = base + static_cast<unsigned>(std::countr_zero(m));
      const thread_record* other = b.at_warp_collective(j);
      const auto state = b.state_of(j);
      ok = other ? other->op == detail::warp_op::sync
                 : !b.strict_sync &&  // strict: every lane of the mask must arrive
                       (state == block_context::lane_state::exited || state == block_context::lane_state::absent);
    }
    if (ok) complete.push_back(t);
  }
  for (thread_record* t : complete) {
    if (b.checkers) b.checkers->warp_synchronised(b, t->linear / 32 * 32, t->mask);
    b.warp_arrived[t->linear / 32] &= ~(1u << t->linear % 32);
    --b.warp_waiting;
    make_ready(*t);
  }
  return !complete.empty();
}

// Nothing can run and a warp collective cannot complete: names the first waiting lane (in
// thread order) and the lane of its mask that keeps it from completing.
void block_runner::report_stuck_warp() {
  block_context& b = *block_;
  thread_record* t = nullptr;
  for (unsigned i = 0; i < b.next_unstarted && t == nullptr; ++i) t = b.at_warp_collective(i);
  const unsigned base = t->linear / 32 * 32;
  const std::string what = describe_collective(t->op, t->mask);
  // Under CUSIM_CHECK=sync a __syncwarp waits for exited lanes too: the message says why.
  const bool strict = t->op == detail::warp_op::sync && b.strict_sync;
  const uint3 tid = t->thread_idx, ctaid = t->block->block_idx;
  auto why = [&]() -> kernel_error {
    for (unsigned m = t->mask; m != 0; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m)), j = base + lane;
      if (j == t->linear) continue;
      switch (b.state_of(j)) {
        case block_context::lane_state::absent:
          return absent_lane_error(tid, ctaid, what, lane, b.nthreads, strict, t->site);
        case block_context::lane_state::exited: return exited_lane_error(tid, ctaid, what, lane, strict, t->site);
        default: break;
      }
      const thread_record& other = *b.lane(j);
      if (other.wait == wait_kind::block_barrier)
        return warp_waits_at_barrier_error(tid, ctaid, what, other.site, t->site);
      if (other.wait == wait_kind::warp_collective && (other.op != t->op || other.mask != t->mask))
        return mismatched_collectives_error(tid, ctaid, t->linear % 32, what, lane,
                                            describe_collective(other.op, other.mask), other.site, t->site);
    }
    return stuck_warp_error(tid, ctaid, what, t->site);
  };
  b.break_thread = t;
  fault(std::make_exception_ptr(why()));
}

}  // namespace cusim::sim

namespace cusim::detail {

warp_result warp_collective(const warp_request& req, const source_location& site) {
  sim::thread_record& t = sim::current_record("a warp collective");
  if (t.block->phased) [[unlikely]] sim::fail_wait_in_phases(t, "a warp collective", site);
  return sim::runner_of(t).warp_collective(t, req, site);
}

unsigned active_mask(const source_location& site) {
  sim::thread_record& t = sim::current_record("__activemask");
  if (t.block->phased) [[unlikely]] sim::fail_wait_in_phases(t, "__activemask", site);
  return sim::runner_of(t).active_mask(t, site);
}

}  // namespace cusim::detail
