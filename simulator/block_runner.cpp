// SPDX-License-Identifier: MIT
// One block's threads on fibers, the scheduler: a block's start, resumption and end, the fibers
// and the switch between threads, faults, polling yields and the random schedule. The barrier
// and its ring are in block_barrier.cpp, warp collectives and the reports of a block where no
// thread can run in warp_rendezvous.cpp; the switch they share in block_runner_inline.hpp.
#include "block_runner.hpp"
#include "block_runner_inline.hpp"

#include "debugger.hpp"
#include "device.hpp"
#include "diagnostics.hpp"
#include "fault_signals.hpp"
#include "fiber_pool.hpp"
#include "fiber_switch.hpp"
#include "launch_state.hpp"
#include "checker.hpp"
#include "sanitizers.hpp"
#include "symbolizer.hpp"
#include "phases.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <typeinfo>
#include <utility>

namespace ctx = boost::context;

__thread cusim::detail::sim_thread* cusim::detail::current_thread_ = nullptr;
__thread cusim::detail::builtin_values cusim::detail::builtins_{};

namespace cusim::sim {

// detail::accesses_observed_, the flag as kernel code sees it (const): the same symbol.
__thread bool accesses_observed_flag __asm__("cusim_accesses_observed") = false;

namespace {

/// Yields of polling threads in a row with no progress anywhere in the block before the block
/// is declared deadlocked (each yield follows detail::poll_yield_threshold idle atomics).
constexpr std::uint64_t deadlock_yields = 1u << 18;

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
  checkers = l.checkers.get();
  strict_sync = checkers != nullptr && checkers->strict_sync();
  observed = (checkers != nullptr && checkers->observes_accesses()) || l.schedule_seed.has_value();
  fast_next = !observed;
  phases = l.phases;
  phased = false;
  phase_used = 0;
  waiting = 0;
  live = 0;
  ring = false;
  ring_arrived = 0;
  ring_warp_waiting = 0;
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
  shared.reset(cfg.shared_bytes,
               checkers && checkers->observes_accesses() ? shared_memory::checked_poison : shared_memory::poison,
               l.kernel ? block_shared_limit(*l.kernel) : shared_memory::limit_bytes);
  dynamic_shared = shared.base();
  if (checkers) checkers->block_started(*this);
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
    // As pop_ready: the stack of the fiber that starts the thread after this one (its record was
    // fetched at the previous start) and the record of the one after that. An idle fiber last
    // ran a whole block ago, so neither is in the first-level cache.
    if (const std::size_t n = idle_.size(); n > 0) {
      prefetch_stack(*idle_[n - 1]);
      if (n > 1) prefetch_record(*idle_[n - 2]);
    }
    return slot;
  }
  if (block_->ready_head < block_->ready.size()) return pop_ready();
  return nullptr;
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
    // A ready thread, never a thread to start: in ring mode the successor of the thread that exited.
    fiber_slot* next = block_->ring ? ring_after_exit() : next_runnable();
    switch_to(next ? *next : scheduler_, self);
  }
}

void block_runner::enter_block(thread_record& t) { t.block = block_; }

void block_runner::take_thread(thread_record& t) {
  detail::start_next_thread(t, *block_);
  ++block_->live;
  t.status = thread_status::running;
  t.wait = wait_kind::none;
  detail::enter_thread(t);
}

void block_runner::finish_thread(thread_record& t) {
  if (block_->ring) exit_ring(t);
  flush_accesses(t);
  t.status = thread_status::exited;
  --block_->live;
  ++block_->progress;
}

// `t` exits in ring mode: it leaves the cycle (its predecessor is linked to its successor),
// unless a fault ends the block or it is the last thread of the cycle (the others, if any, wait
// at warp collectives: the scheduler settles them).
void block_runner::exit_ring(thread_record& t) {
  block_context& b = *block_;
  if (b.aborting || t.ring_next == t.linear) [[unlikely]] {
    leave_ring(t);
    return;
  }
  b.lane(b.ring_prev)->ring_next = t.ring_next;
}

// After an exit in ring mode (exit_ring, then finish_thread's count): the thread to run, the
// exited one's successor, or null when none is left. A thread that returned counts as arrived,
// as on current GPUs: when every live thread waits at the barrier, it releases, and its first
// arrival (the successor) runs, as release_barrier would order the queue.
fiber_slot* block_runner::ring_after_exit() {
  block_context& b = *block_;
  if (b.live == 0) {
    b.ring = false;
    return nullptr;
  }
  if (b.ring_arrived == b.live) {
    b.ring_arrived = 0;
    ++b.barrier_generation;
  }
  thread_record& next = *b.lane(b.lane(b.ring_prev)->ring_next);
  const thread_record& after = *b.lane(next.ring_next);
  prefetch_stack(after);
  prefetch_record(*b.lane(after.ring_next));
  return static_cast<fiber_slot*>(&next);
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
  detail::enter_thread(self);
  self.status = thread_status::running;
  if (block_->aborting) throw abort_block{};
}

void block_runner::note_access(thread_record& self, void* p, std::size_t bytes, memory_space space,
                               const detail::source_location& site, bool store) {
  if (block_->shuffle && random_below(2) == 0) shuffle_point(self);  // before the access
  if (block_->checkers)
    block_->checkers->accessed(self, *block_, {p, bytes, space, store ? access_kind::store : access_kind::unknown, site});
}

// splitmix64 over the block's state: the same sequence for a seed and block on any worker.
std::uint64_t block_runner::random_below(std::uint64_t n) noexcept {
  std::uint64_t z = (block_->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (z ^ (z >> 31)) % n;
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

void note_access_unwinding_later(void* p, std::size_t bytes, memory_space space, const detail::source_location& site,
                                 bool store) noexcept {
  try {
    detail::note_access(p, bytes, space, site, store);
  } catch (const block_runner::abort_block&) {
  }
}

}  // namespace cusim::sim

namespace cusim::detail {

bool finish_thread() {
  sim::thread_record& t = *static_cast<sim::thread_record*>(current_thread_);
  return sim::runner_of(t).next_thread(t);
}

void poll_yield() {
  sim::thread_record& t = sim::current_record("an atomic poll");
  if (t.block->phased) [[unlikely]] return sim::poll_in_phases(t);
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
  if (sim::checker_set* c = static_cast<sim::block_context*>(t.block)->checkers) c->atomic_applied(t, p);
}

}  // namespace cusim::detail
