// SPDX-License-Identifier: MIT
// Runs one block's threads on fibers. A fiber keeps taking the next not-yet-started thread of
// the block until the thread it runs blocks (barrier, yield); only then does another fiber take
// over, so a kernel without barriers runs a whole block on one fiber with no switches.
// Blocked threads hand control straight to the next runnable thread's fiber, and fibers with
// nothing to take go idle and are reused by later blocks and launches.
// Three files define it: block_runner.cpp (the scheduler), block_barrier.cpp (__syncthreads and
// its ring), warp_rendezvous.cpp (warp collectives, and the reports of a block where no thread
// can run); the hot path they share, inline, is in block_runner_inline.hpp.
#pragma once

#include "block_state.hpp"
#include "debugger.hpp"
#include "fault_signals.hpp"
#include "fiber_pool.hpp"

#include <cusim/cuda_runtime.hpp>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

// Every return after a fiber switch mispredicts (the return-stack buffer holds the other
// fiber's addresses), so the barrier path is inlined into one call above jump_fcontext.
#define CUSIM_SIM_HOT [[gnu::always_inline]] inline

namespace cusim::sim {

/// One worker OS thread's block runner (the gdb extension walks it as a debug_worker).
class block_runner : public debug_worker {
 public:
  block_runner();
  ~block_runner();
  block_runner(const block_runner&) = delete;
  block_runner& operator=(const block_runner&) = delete;

  /// The runner of the calling OS thread.
  static block_runner& for_this_thread();

  /// Runs block `linear_block` of `launch` to completion; a fault is handed to the launch.
  void run(launch_state& launch, std::uint64_t linear_block);

  /// Starts block `linear_block`: it runs until it finishes (nullptr; a fault is handed to the
  /// launch) or, in a cooperative launch, until every live thread waits at this_grid().sync()
  /// (the suspended block is returned).
  block_context* start(launch_state& launch, std::uint64_t linear_block);
  /// Releases the grid barrier of a suspended block (or, with `abort`, unwinds it) and runs on.
  block_context* resume(block_context& block, bool abort);
  /// Frees idle fibers and their stacks beyond `keep` (after a large cooperative launch).
  void trim(std::size_t keep) noexcept;

  // Entry points for the running simulated thread `self`.
  /// `self` returned from the kernel: finishes it and takes the block's next unstarted thread.
  bool next_thread(thread_record& self);
  CUSIM_SIM_HOT int ring_sync(thread_record& self, block_context& b, const detail::source_location& site);
  [[gnu::noinline]] int sync_block(thread_record& self, detail::sync_op op, int predicate, const detail::source_location& site);
  detail::warp_result warp_collective(thread_record& self, const detail::warp_request& req, const detail::source_location& site);
  unsigned active_mask(thread_record& self, const detail::source_location& site);
  CUSIM_SIM_HOT void poll_yield(thread_record& self);
  void* bind_shared(thread_record& self, const void* key, const detail::source_location& site, std::size_t bytes,
                    std::size_t align);
  void* dynamic_shared(std::size_t* bytes) noexcept { return block_->shared.dynamic(bytes); }
  std::size_t stack_bytes() const noexcept { return stacks_.stack_bytes(); }
  /// From a signal handler, on the signal stack: `self` faulted (a wild pointer, a division by
  /// zero, a trap, a stack overflow). Records the fault and leaves the fiber for good; never returns.
  [[noreturn]] void abandon(thread_record& self, const signal_fault& fault) noexcept;
  /// The same for the runner of `self` (what the signal handlers call).
  [[noreturn]] static void abandon_current(fiber_slot& self, const signal_fault& fault) noexcept {
    runner_of(self).abandon(self, fault);
  }
  /// An element access of a checked array (CUSIM_CHECK=race/init, CUSIM_SCHEDULE=random).
  void note_access(thread_record& self, void* p, std::size_t bytes, memory_space space,
                   const detail::source_location& site, bool store);

  struct abort_block {};  // unwinds parked threads after a fault in their block

 private:

  block_context& acquire_context();
  block_context* finish_or_suspend(bool suspended);
  bool schedule();
  CUSIM_SIM_HOT fiber_slot* next_runnable();
  [[gnu::noinline]] fiber_slot* runnable_after(thread_record& self);
  CUSIM_SIM_HOT fiber_slot* next_after(thread_record& self);
  CUSIM_SIM_HOT fiber_slot* pop_ready();  ///< the head of the ready queue, which is not empty
  fiber_slot& start_fiber();
  CUSIM_SIM_HOT void switch_to(fiber_slot& target, fiber_slot& self);
  CUSIM_SIM_HOT void after_switch(boost::context::fiber&& from, void* fake) noexcept;
  [[noreturn]] boost::context::fiber fiber_main(fiber_slot& self, boost::context::fiber&& caller);
  void enter_block(thread_record& t);
  CUSIM_SIM_HOT void take_thread(thread_record& t);
  CUSIM_SIM_HOT void run_thread(thread_record& t);
  CUSIM_SIM_HOT void finish_thread(thread_record& t);
  fiber_slot* enter_ring();
  [[gnu::noinline]] void leave_ring(thread_record& cur);
  CUSIM_SIM_HOT void exit_ring(thread_record& t);
  CUSIM_SIM_HOT fiber_slot* ring_after_exit();
  CUSIM_SIM_HOT void ring_switch(thread_record& self, block_context& b);
  CUSIM_SIM_HOT void park(thread_record& self);
  CUSIM_SIM_HOT void mark_waiting(thread_record& self);
  CUSIM_SIM_HOT void run_next(thread_record& self, fiber_slot* next);
  CUSIM_SIM_HOT void make_ready(thread_record& t);
  CUSIM_SIM_HOT void flush_accesses(thread_record& self);
  void shuffle_point(thread_record& self);
  std::uint64_t random_below(std::uint64_t n) noexcept;
  bool resolve_waits();
  void release_barrier();
  bool complete_collective(thread_record& self);
  void relink_collective(thread_record& self, unsigned lanes, thread_record* const (&group)[32]);
  /// Raises the fault of a collective `self` cannot take part in: not in its own mask, or a
  /// shuffle width that is not a power of two from 1 to 32.
  [[noreturn, gnu::cold, gnu::noinline]] void reject_collective(const thread_record& self,
                                                                const detail::warp_request& req,
                                                                const detail::source_location& site);
  void release_active_masks();
  bool release_warps();
  void report_stuck_warp();
  std::vector<const thread_record*> waiting_threads(wait_kind kind) const;
  void report_divergence();
  void report_abandoned() noexcept;
  void fault(std::exception_ptr e) noexcept;
  void fault_from_exception(thread_record& t) noexcept;

  // Declared first so that it outlives the fibers whose stacks it owns.
  stack_pool stacks_;

  block_context* block_ = nullptr;  // the block whose threads run now
  std::vector<std::unique_ptr<block_context>> contexts_;
  std::vector<block_context*> free_contexts_;  // several are in use only in cooperative launches
  std::vector<std::unique_ptr<fiber_slot>> slots_;
  std::vector<fiber_slot*> free_slots_;
  std::vector<fiber_slot*> idle_;  // fibers parked with nothing to run, resumable for any block
  fiber_slot scheduler_;           // the worker's own stack
  fiber_slot* from_ = nullptr;     // who switched last: the resumed side stores its continuation
  fiber_slot* abandoned_ = nullptr;  // left by a signal fault (abandon): never resumed, never unwound
};

}  // namespace cusim::sim
