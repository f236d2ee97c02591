// SPDX-License-Identifier: MIT
// One block's threads on fibers: barriers, polling yields, divergence and deadlock detection.
#include "block_runner.hpp"

#include "debugger.hpp"
#include "device.hpp"
#include "diagnostics.hpp"
#include "fault_signals.hpp"
#include "fiber_pool.hpp"
#include "fiber_switch.hpp"
#include "launch_state.hpp"
#include "memory_checker.hpp"
#include "sanitizers.hpp"
#include "symbolizer.hpp"
#include "phases.hpp"
#include "warp_collective.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <bit>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>

namespace ctx = boost::context;

__thread cusim::detail::sim_thread* cusim::detail::current_thread_ = nullptr;

namespace cusim::sim {

// detail::accesses_observed_, the flag as kernel code sees it (const): the same symbol.
__thread bool accesses_observed_flag __asm__("cusim_accesses_observed") = false;

namespace {

/// Yields of polling threads in a row with no progress anywhere in the block before the block
/// is declared deadlocked (each yield follows detail::poll_yield_threshold idle atomics).
constexpr std::uint64_t deadlock_yields = 1u << 18;

/// Forgets a suspended context without resuming it: ctx::fiber's destructor would unwind it.
void drop_unwound(ctx::fiber&& f) noexcept {
  union holder {
    ctx::fiber fiber;
    holder() {}
    ~holder() {}
  } h;
  new (&h.fiber) ctx::fiber(std::move(f));
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

std::string demangled_current_exception_type() {
  const std::type_info* type = abi::__cxa_current_exception_type();
  if (type == nullptr) return "unknown exception";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(type->name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? name.get() : type->name();
}

}  // namespace

// Made by for_this_thread() on its own OS thread, outside any fiber.
block_runner::block_runner() {
  adopt_thread_sanitizer_state(scheduler_.san);
  register_runner(*this);
}

// Runs at thread exit. Idle fibers hold only the runner's own frames, nothing to unwind, and
// unwinding them this late breaks under AddressSanitizer (its thread state is already gone), so
// their contexts are dropped as they are; stacks_ then unmaps every stack.
block_runner::~block_runner() {
  unregister_runner(*this);
  for (auto& slot : slots_) {
    if (slot->context) drop_unwound(std::move(slot->context));
    destroy_sanitizer_state(slot->san);
  }
}

block_runner& block_runner::for_this_thread() {
  thread_local block_runner runner;
  return runner;
}

block_context& block_runner::acquire_context() {
  if (free_contexts_.empty()) {
    block_context& b = *contexts_.emplace_back(std::make_unique<block_context>());
    b.debug_next = std::exchange(debug_contexts, &b);
    return b;
  }
  block_context* b = free_contexts_.back();
  free_contexts_.pop_back();
  return *b;
}

void block_runner::run(launch_state& launch, std::uint64_t linear_block) {
  if (block_context* suspended = start(launch, linear_block)) resume(*suspended, true);  // never: not cooperative
}

block_context* block_runner::start(launch_state& launch, std::uint64_t linear_block) {
  if (launch.stack_bytes != stacks_.stack_bytes()) {  // CUSIM_STACK changed since the last launch
    trim(0);  // idle fibers have stacks of the old size
    stacks_.set_stack_bytes(launch.stack_bytes);
  }
  block_ = &acquire_context();
  block_->reset(*this, launch, linear_block);
  accesses_observed_flag = block_->observed;  // until the block ends or is suspended
  ensure_fault_signal_stack();
  return finish_or_suspend(schedule());
}

block_context* block_runner::resume(block_context& block, bool abort) {
  block_ = &block;
  accesses_observed_flag = block.observed;
  if (abort) {
    fault(nullptr);  // unwinds the waiting threads; the fault that caused it is reported elsewhere
  } else {
    release_barrier();
  }
  return finish_or_suspend(schedule());
}

block_context* block_runner::finish_or_suspend(bool suspended) {
  detail::current_thread_ = nullptr;
  accesses_observed_flag = false;
  block_context* b = std::exchange(block_, nullptr);
  if (suspended) return b;
  b->in_flight = false;
  b->launch->kernel->note_static_shared(b->shared.static_requested());
  if (b->fault) b->launch->report_fault(b->linear, b->fault);
  b->fault = nullptr;
  free_contexts_.push_back(b);
  return nullptr;
}

void block_context::reset(block_runner& r, launch_state& l, std::uint64_t linear_block) {
  runner = &r;
  launch = &l;
  linear = linear_block;
  const launch_config& cfg = l.config;
  block_idx = index_of(cfg.grid, linear_block);
  block_dim = cfg.block;
  grid_dim = cfg.grid;
  nthreads = l.threads_per_block;
  next_unstarted = 0;
  cursor_xy = 0;
  cursor_z = 0;
  cursor_linear = 0;
  observed = l.checker != nullptr || l.schedule_seed.has_value();
  fast_next = !observed;
  phases = l.phases;
  phased = false;
  phase_used = 0;
  waiting = 0;
  live = 0;
  ring = false;
  ring_arrived = 0;
  aborting = false;
  fault = nullptr;
  abandoned = nullptr;
  break_thread = nullptr;
  in_flight = true;
  shuffle = l.schedule_seed.has_value();
  rng = shuffle ? *l.schedule_seed ^ (linear_block + 1) * 0x9e3779b97f4a7c15ull : 0;
  progress = progress_seen = idle_yields = 0;
  barrier_waiters.clear();
  barrier_divergent = false;
  lane_storage.assign(nthreads, nullptr);  // null: inline_lanes's (a memset)
  lanes = lane_storage.data();
  inline_lanes = nullptr;
  std::fill(std::begin(warp_arrived), std::end(warp_arrived), 0u);
  warp_waiting = 0;
  active_waiting = 0;
  ready.clear();
  ready_head = 0;
  checker = l.checker.get();
  shared.reset(cfg.shared_bytes, checker ? shared_memory::checked_poison : shared_memory::poison,
               l.kernel ? block_shared_limit(*l.kernel) : shared_memory::limit_bytes);
  if (checker) checker->block_started(*this);
}

// Runs the current block until every thread has exited (false) or every live thread waits at
// this_grid().sync() (true).
bool block_runner::schedule() {
  for (;;) {
    if (fiber_slot* next = next_runnable()) {
      switch_to(*next, scheduler_);
      if (block_->abandoned) {
        if (block_->ring) leave_ring(*block_->abandoned);  // only a signal fault returns here in ring mode
        report_abandoned();
      }
      continue;
    }
    if (block_->waiting == 0) return false;  // every thread has exited
    if (block_->aborting) {                  // wake parked threads so that they unwind
      block_->barrier_waiters.clear();
      block_->warp_waiting = block_->active_waiting = 0;
      std::fill(std::begin(block_->warp_arrived), std::end(block_->warp_arrived), 0u);
      for (auto& slot : slots_)
        if (slot->block == block_ && slot->status == thread_status::waiting) make_ready(*slot);
      continue;
    }
    if (resolve_waits()) return true;
  }
}

fiber_slot* block_runner::next_runnable() {
  const bool can_start = !block_->aborting && block_->next_unstarted < block_->nthreads;
  if (block_->shuffle) [[unlikely]] {  // CUSIM_SCHEDULE=random: any runnable thread, by the seed
    const std::size_t ready = block_->ready.size() - block_->ready_head;
    if (ready > 0 && (ready > 1 || can_start)) {
      const std::uint64_t pick = random_below(ready + can_start);
      if (pick < ready) {
        std::swap(block_->ready[block_->ready_head], block_->ready[block_->ready_head + pick]);
        thread_record* t = block_->ready[block_->ready_head++];
        return static_cast<fiber_slot*>(t);
      }
    }
  }
  if (can_start) {
    if (idle_.empty()) return &start_fiber();
    fiber_slot* slot = idle_.back();
    idle_.pop_back();
    return slot;
  }
  if (block_->ready_head < block_->ready.size()) return pop_ready();
  return nullptr;
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

fiber_slot& block_runner::start_fiber() {
  fiber_slot* slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = slots_.emplace_back(std::make_unique<fiber_slot>()).get();
  }
  pooled_stack stack(&stacks_, &slot->stack);
  ctx::stack_context sctx;
  try {
    sctx = stack.allocate();
  } catch (...) {
    free_slots_.push_back(slot);
    throw;
  }
  slot->stack_lo = static_cast<const char*>(sctx.sp) - sctx.size;
  create_sanitizer_state(slot->san, slot->stack_lo, sctx.size);
  // The stack is allocated first so that the sanitizers know where the new fiber's entry runs
  // until it switches back to this constructor.
  run_on(slot->san, [&] {
    slot->context = ctx::fiber(std::allocator_arg, ctx::preallocated(sctx.sp, sctx.size, sctx), stack,
                               [this, slot](ctx::fiber&& caller) -> ctx::fiber {
                                 fiber_main(*slot, std::move(caller));
                               });
  });
  return *slot;
}


// Symmetric transfer: whoever switches away names itself in from_, and the side that resumes
// stores the continuation it receives into that slot.
void block_runner::switch_to(fiber_slot& target, fiber_slot& self) {
  if (&target == &self) return;
  from_ = &self;
  ctx::fiber from;
  void* fake = nullptr;  // AddressSanitizer's fake stack of `self` while it is switched out
  start_switch(target.san, &fake);
  resume_into(target.context, from);
  after_switch(std::move(from), fake);
}

void block_runner::after_switch(ctx::fiber&& from, void* fake) noexcept {
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

// A fiber's life: run threads while the block has unstarted ones, then idle until a block needs
// a fiber again. It ends only when the runner is destroyed (forced unwind).
ctx::fiber block_runner::fiber_main(fiber_slot& self, ctx::fiber&& caller) {
  after_switch(std::move(caller), nullptr);
  thread_record& t = self;
  for (;;) {
    enter_block(t);  // a fiber is resumed from idle only for a new block
    while (!block_->aborting && block_->next_unstarted < block_->nthreads) {
      take_thread(t);
      run_thread(t);  // and the threads after it that next_thread() takes
      if (t.status != thread_status::exited) finish_thread(t);  // it threw
    }
    idle_.push_back(&self);
    fiber_slot* next = next_runnable();  // a ready thread, never a thread to start
    switch_to(next ? *next : scheduler_, self);
  }
}

void block_runner::enter_block(thread_record& t) { t.block = block_; }

void block_runner::take_thread(thread_record& t) {
  detail::start_next_thread(t, *block_);
  ++block_->live;
  t.status = thread_status::running;
  t.wait = wait_kind::none;
  detail::current_thread_ = &t;
}

void block_runner::finish_thread(thread_record& t) {
  if (block_->ring) leave_ring(t);
  flush_accesses(t);
  t.status = thread_status::exited;
  --block_->live;
  ++block_->progress;
}

bool block_runner::next_thread(thread_record& t) {
  finish_thread(t);
  if (block_->aborting || block_->next_unstarted == block_->nthreads) return false;
  take_thread(t);
  return true;
}

void block_runner::run_thread(thread_record& t) {
  try {
    block_->launch->thunk(block_->launch->closure);
  } catch (const ctx::detail::forced_unwind&) {
    throw;
  } catch (const abort_block&) {
    // unwound after a fault elsewhere in the block
  } catch (const kernel_error&) {
    fault(std::current_exception());
  } catch (...) {
    fault_from_exception(t);
  }
}

void block_runner::fault(std::exception_ptr e) noexcept {
  if (!block_->fault) block_->fault = std::move(e);  // the first fault in the deterministic thread order
  block_->aborting = true;
  block_->fast_next = false;
}

void block_runner::fault_from_exception(thread_record& t) noexcept {
  std::string type = demangled_current_exception_type();
  std::string what;
  try {
    throw;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  fault(std::make_exception_ptr(uncaught_exception_error(t.thread_idx, t.block->block_idx, type, what)));
}

void block_runner::report_abandoned() noexcept {
  const thread_record& t = *std::exchange(block_->abandoned, nullptr);
  const signal_fault& f = block_->signalled;
  if (f.out_of_bounds || f.raw_access) {
    fault(std::make_exception_ptr(instrumented_fault_error(t.thread_idx, t.block->block_idx, f)));
    return;
  }
  fault(std::make_exception_ptr(signal_fault_error(t.thread_idx, t.block->block_idx, f,
                                                   f.stack_overflow ? code_place{} : place_of(f.pc),
                                                   stacks_.stack_bytes())));
}

// The thread to run when `self` stops. Starting a new thread may need a new fiber; when that
// fails (memory, or mappings) the error names `self` and the block is left consistent.
fiber_slot* block_runner::runnable_after(thread_record& self) {
  try {
    return next_runnable();
  } catch (const std::bad_alloc&) {
    raise_fault(fiber_stacks_exhausted_error(self.thread_idx, self.block->block_idx, slots_.size(),
                                             stacks_.stack_bytes()));
  }
}

void block_runner::trim(std::size_t keep) noexcept {
  while (idle_.size() > keep) {
    fiber_slot* slot = idle_.back();
    idle_.pop_back();
    // Unwinds the idle fiber on its own stack, which returns to stacks_.
    run_on(slot->san, [slot] { slot->context = ctx::fiber(); });
    destroy_sanitizer_state(slot->san);
    free_slots_.push_back(slot);
  }
  stacks_.trim(keep);
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
  detail::current_thread_ = &self;
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

// A plain __syncthreads in ring mode: an arrival and a switch to the next thread of the ring.
int block_runner::ring_sync(thread_record& self, block_context& b, const detail::source_location& site) {
  if (b.ring_arrived == 0) {
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
  thread_record& next = *b.lane(self.ring_next);
  // Two stages, as pop_ready: the stack of the thread after next (its record was fetched at the
  // previous wait) and the record of the one after that.
  const thread_record& after = *b.lane(next.ring_next);
  prefetch_stack(after);
  prefetch_record(*b.lane(after.ring_next));
  run_next(self, static_cast<fiber_slot*>(&next));
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
  b.ready.clear();
  b.ready_head = 0;
  b.ring = true;
  b.ring_arrived = 0;
  return first;
}

// Turns the ring back into the queues, while `cur` runs (or has just left by a signal fault).
// The others, in ring order from cur: first those released and not run yet, then, since the
// ring is the run order, the ring_arrived that ran before cur and wait at the barrier.
void block_runner::leave_ring(thread_record& cur) {
  block_context& b = *block_;
  b.ring = false;
  b.ready.clear();
  b.ready_head = 0;
  for (thread_record* t = b.lane(cur.ring_next); t != &cur; t = b.lane(t->ring_next)) b.ready.push_back(t);
  const auto released = b.ready.end() - b.ring_arrived;
  b.barrier_waiters.assign(released, b.ready.end());
  b.ready.erase(released, b.ready.end());
  b.waiting = b.ring_arrived;
  b.ring_arrived = 0;
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
  // one site, no checker or random schedule (fast_next), not CUSIM_CHECK=sync, not the grid.
  // Nothing was ready (every live thread waits here), so the first waiter runs next.
  if (b.barrier_waiters.size() == b.live && b.next_unstarted == b.nthreads && b.fast_next && !b.barrier_divergent &&
      op != detail::sync_op::grid && !b.launch->checks.sync) [[unlikely]] {
    mark_waiting(self);
    release_barrier();
    run_next(self, enter_ring());
  } else {
    park(self);
  }
  self.wait = wait_kind::none;  // a running thread waits for nothing (next_thread starts the next inline)
  return b.barrier_result;      // no later release can come before every waiter of this one has run
}

detail::warp_result block_runner::warp_collective(thread_record& self, const detail::warp_request& req,
                                                  const detail::source_location& site) {
  block_context& b = *block_;
  if (b.ring) leave_ring(self);
  const unsigned lane = self.linear % 32, warp = self.linear / 32;
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
  } else {
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
    if (state == block_context::lane_state::absent && !b.launch->checks.sync) {
      absent |= 1u << lane;
      continue;
    }
    if (self.op != detail::warp_op::sync || b.launch->checks.sync || state == block_context::lane_state::live ||
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
  if (self.op == detail::warp_op::sync && b.checker) b.checker->warp_barrier(b, base, mask);
  for (unsigned m = mask & ~missing; m != 0; m &= m - 1) {
    thread_record* t = group[std::countr_zero(m)];
    if (t == &self) continue;
    --b.warp_waiting;
    make_ready(*t);
  }
  return true;
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

void block_runner::poll_yield(thread_record& self) {
  if (block_->ring) leave_ring(self);
  // Threads started count as progress too: the inline next_thread counts exits only that way.
  const std::uint64_t progress = block_->progress + block_->next_unstarted;
  if (progress != block_->progress_seen) {
    block_->progress_seen = progress;
    block_->idle_yields = 0;
  } else if (++block_->idle_yields >= deadlock_yields) {
    raise_fault(spin_deadlock_error(self.thread_idx, self.block->block_idx, block_->waiting));
  }
  shuffle_point(self);
}

// Lets another runnable thread of the block run, if there is one; `self` runs again later.
void block_runner::shuffle_point(thread_record& self) {
  flush_accesses(self);
  fiber_slot& me = static_cast<fiber_slot&>(self);
  fiber_slot* next = runnable_after(self);
  if (next == nullptr) return;  // the only runnable thread: it runs on
  make_ready(self);
  switch_to(*next, me);
  detail::current_thread_ = &self;
  self.status = thread_status::running;
  if (block_->aborting) throw abort_block{};
}

void block_runner::flush_accesses(thread_record& self) {
  if (block_->checker != nullptr) [[unlikely]]
    block_->checker->flush(self, *block_);
}

void block_runner::note_access(thread_record& self, void* p, std::size_t bytes, memory_space space,
                               const detail::source_location& site, bool store) {
  if (block_->shuffle && random_below(2) == 0) shuffle_point(self);  // before the access
  if (block_->checker) block_->checker->access(self, *block_, p, bytes, space, site, store);
}

// splitmix64 over the block's state: the same sequence for a seed and block on any worker.
std::uint64_t block_runner::random_below(std::uint64_t n) noexcept {
  std::uint64_t z = (block_->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) % n;
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
  if (b.launch->checks.sync && strict_barrier_violated()) return false;
  release_barrier();  // every live thread waits at the same __syncthreads
  return false;
}

// CUSIM_CHECK=sync: a __syncthreads that some thread of the block never reaches is an error,
// even though a GPU counts threads that have exited as arrived.
bool block_runner::strict_barrier_violated() {
  block_context& b = *block_;
  if (b.barrier_waiters.size() == b.nthreads) return false;
  unsigned gone = 0;
  while (b.state_of(gone) != block_context::lane_state::exited) ++gone;
  thread_record* first = *std::min_element(b.barrier_waiters.begin(), b.barrier_waiters.end(),
                                           [](const thread_record* x, const thread_record* y) { return x->linear < y->linear; });
  b.break_thread = first;
  fault(std::make_exception_ptr(strict_barrier_error(first->thread_idx, b.block_idx, b.barrier_waiters.size(),
                                                     b.nthreads, index_of(b.block_dim, gone), first->site)));
  return true;
}

void block_runner::release_barrier() {
  block_context& b = *block_;
  if (b.barrier_op != detail::sync_op::grid && b.checker) b.checker->block_barrier(b);
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
                 : !b.launch->checks.sync &&  // strict: every lane of the mask must arrive
                       (state == block_context::lane_state::exited || state == block_context::lane_state::absent);
    }
    if (ok) complete.push_back(t);
  }
  for (thread_record* t : complete) {
    if (b.checker) b.checker->warp_barrier(b, t->linear / 32 * 32, t->mask);
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
  const bool strict = t->op == detail::warp_op::sync && b.launch->checks.sync;
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

void* block_runner::bind_shared(thread_record& self, const void* key, const detail::source_location& site,
                                std::size_t bytes, std::size_t align) {
  if (void* p = block_->shared.bind(key, site, bytes, align)) return p;
  raise_fault(shared_memory_exceeded_error(self.thread_idx, self.block->block_idx, block_->shared.requested(),
                                           block_->shared.limit(), site));
}

void block_runner::abandon(thread_record& self, const signal_fault& fault) noexcept {
  // Only plain stores here: this runs in a signal handler. The scheduler formats the report.
  block_->abandoned = &self;
  block_->signalled = fault;
  self.status = thread_status::exited;
  --block_->live;
  block_->aborting = true;
  block_->fast_next = false;
  fiber_slot& me = static_cast<fiber_slot&>(self);
  abandoned_ = &me;
  from_ = &me;
  start_switch(scheduler_.san, nullptr);  // null: this fiber never runs again
  ctx::fiber unused;
  resume_into(scheduler_.context, unused);
  __builtin_unreachable();
}

}  // namespace cusim::sim

namespace cusim::detail {

bool finish_thread() {
  sim::thread_record& t = *static_cast<sim::thread_record*>(current_thread_);
  return sim::runner_of(t).next_thread(t);
}

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

void poll_yield() {
  sim::thread_record& t = sim::current_record("an atomic poll");
  if (t.block->phased) [[unlikely]] sim::fail_wait_in_phases(t, "a spin on an atomic", {});
  sim::runner_of(t).poll_yield(t);
}

void note_access(void* p, std::size_t bytes, memory_space space, source_location site, bool store) {
  if (current_thread_ == nullptr) return;  // a view indexed in host code
  sim::thread_record& t = *static_cast<sim::thread_record*>(current_thread_);
  sim::runner_of(t).note_access(t, p, bytes, space, site, store);
}

void note_atomic_access(const void* p) {
  if (current_thread_ == nullptr) return;
  sim::thread_record& t = *static_cast<sim::thread_record*>(current_thread_);
  if (sim::memory_checker* c = static_cast<sim::block_context*>(t.block)->checker) c->atomic(t, p);
}

}  // namespace cusim::detail
