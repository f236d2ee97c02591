// SPDX-License-Identifier: MIT
// The block runner's hot path, shared by its three files (block_runner.cpp, the scheduler;
// block_barrier.cpp, __syncthreads and the ring; warp_rendezvous.cpp, warp collectives and the
// reports of a block where nothing can run): the switch from a thread that stops to the next,
// inlined into each caller (CUSIM_SIM_HOT in block_runner.hpp), and the prefetches ahead of it.
// Private to those three files, each of which includes block_runner.hpp first (this header
// does not: it is part of the runner, which tools/check_layers.py would read as a cycle).
#pragma once

#ifndef CUSIM_SIM_HOT
#  error "block_runner_inline.hpp is private to the block runner: include block_runner.hpp first"
#endif

#include "debugger.hpp"
#include "fiber_switch.hpp"
#include "launch_state.hpp"
#include "checker.hpp"
#include "sanitizers.hpp"

#include <cusim/error.hpp>

#include <boost/context/fiber.hpp>

#include <exception>
#include <new>
#include <utility>

namespace cusim::sim {

/// Forgets a suspended context without resuming it: boost::context::fiber's destructor would
/// unwind it.
inline void drop_unwound(boost::context::fiber&& f) noexcept {
  union holder {
    boost::context::fiber fiber;
    holder() {}
    ~holder() {}
  } h;
  new (&h.fiber) boost::context::fiber(std::move(f));
}

/// Brings a suspended thread's record into cache, ahead of prefetch_stack (which reads it). Always
/// inlined, as prefetch_stack: as a call, GCC's IPA mod-ref pass finds it without side effects and
/// deletes it (block_runner.o had no prefetcht0).
[[gnu::always_inline]] inline void prefetch_record(const thread_record& t) noexcept {
  __builtin_prefetch(reinterpret_cast<const char*>(&t));
}

/// Brings the top of a suspended thread's fiber stack (the registers saved by the switch, the
/// frames above it) into cache before the thread is resumed. It reads the record's saved stack
/// pointer: the record should be cached already (prefetch_record one thread earlier), or the
/// prefetches wait for that load.
[[gnu::always_inline]] inline void prefetch_stack(const thread_record& t) noexcept {
  const char* top = static_cast<const char*>(saved_registers(t.context));
  if (top == nullptr) return;
  // Written out: as a loop GCC keeps the counter, 24 instructions a wait instead of 6.
  __builtin_prefetch(top);
  __builtin_prefetch(top + 64);
  __builtin_prefetch(top + 128);
  __builtin_prefetch(top + 192);
  __builtin_prefetch(top + 256);
  __builtin_prefetch(top + 320);
}

fiber_slot* block_runner::pop_ready() {
  block_context& b = *block_;
  thread_record* t = b.ready[b.ready_head++];
  if (b.ready_head == b.ready.size()) {
    b.ready.clear();
    b.ready_head = 0;
  } else {
    // Two stages, so that no prefetch waits for a load: the stack of the thread that runs after
    // t (its record was fetched at the previous pop) and the record of the one after that.
    prefetch_stack(*b.ready[b.ready_head]);
    if (b.ready_head + 1 < b.ready.size()) prefetch_record(*b.ready[b.ready_head + 1]);
  }
  return static_cast<fiber_slot*>(t);
}

// Symmetric transfer: whoever switches away names itself in from_, and the side that resumes
// stores the continuation it receives into that slot.
void block_runner::switch_to(fiber_slot& target, fiber_slot& self) {
  if (&target == &self) return;
  from_ = &self;
  boost::context::fiber from;
  void* fake = nullptr;  // AddressSanitizer's fake stack of `self` while it is switched out
  start_switch(target.san, &fake);
  resume_into(target.context, from);
  after_switch(std::move(from), fake);
}

void block_runner::after_switch(boost::context::fiber&& from, void* fake) noexcept {
  fiber_slot* prev = from_;
  finish_switch(fake, prev->san);
  if (abandoned_ != nullptr) [[unlikely]] {  // a runner field: the slot's own flag would be a cold line
    prev = std::exchange(abandoned_, nullptr);
    // `from` is the signal handler's context on the alternate stack: it must never be resumed
    // or unwound. The faulted thread's stack itself is reused.
    drop_unwound(std::move(from));
    destroy_sanitizer_state(prev->san);
    stacks_.deallocate(prev->stack);
    free_slots_.push_back(prev);
    return;
  }
  saved_registers(prev->context) = std::exchange(saved_registers(from), nullptr);  // without fiber's checks
}

void block_runner::make_ready(thread_record& t) {
  if (t.status == thread_status::waiting) --block_->waiting;
  t.status = thread_status::ready;
  block_->ready.push_back(&t);
}

// The common case inline: every thread has started and the next runs from the ready queue.
fiber_slot* block_runner::next_after(thread_record& self) {
  block_context& b = *block_;
  if (b.shuffle || b.next_unstarted != b.nthreads || b.ready_head == b.ready.size()) [[unlikely]]
    return runnable_after(self);
  return pop_ready();
}

void block_runner::park(thread_record& self) {
  fiber_slot* next = next_after(self);  // first: it may fail (a new fiber), and self still runs then
  mark_waiting(self);
  run_next(self, next);
}

void block_runner::mark_waiting(thread_record& self) {
  self.status = thread_status::waiting;
  ++block_->waiting;
  ++block_->progress;
}

void block_runner::run_next(thread_record& self, fiber_slot* next) {
  fiber_slot& me = static_cast<fiber_slot&>(self);
  switch_to(next ? *next : scheduler_, me);
  detail::enter_thread(self);
  self.status = thread_status::running;
  if (block_->aborting) {
    if (block_->break_thread == &self && block_->launch->break_on_fault) {  // stop here, at the waiting line
      try {
        std::rethrow_exception(block_->fault);
      } catch (const kernel_error& e) {
        break_on(e, *block_->launch);
      }
    }
    throw abort_block{};
  }
}

// In ring mode: hands over to the next thread of the ring, which can run; `self` waits (at the
// ring's barrier or warp collective) until its turn comes round.
void block_runner::ring_switch(thread_record& self, block_context& b) {
  b.ring_prev = self.linear;
  thread_record& next = *b.lane(self.ring_next);
  // Two stages, as pop_ready: the stack of the thread after next (its record was fetched at the
  // previous wait) and the record of the one after that.
  const thread_record& after = *b.lane(next.ring_next);
  prefetch_stack(after);
  prefetch_record(*b.lane(after.ring_next));
  run_next(self, static_cast<fiber_slot*>(&next));
}

void block_runner::flush_accesses(thread_record& self) {
  if (block_->checkers != nullptr) [[unlikely]]
    block_->checkers->thread_paused(self, *block_);
}

}  // namespace cusim::sim
