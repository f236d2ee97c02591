// SPDX-License-Identifier: MIT
// Runs one block's threads on fibers. A fiber keeps taking the next not-yet-started thread of
// the block until the thread it runs blocks (barrier, yield); only then does another fiber take
// over, so a kernel without barriers runs a whole block on one fiber with no switches.
// Blocked threads hand control straight to the next runnable thread's fiber, and fibers with
// nothing to take go idle and are reused by later blocks and launches.
#pragma once

#include "fault_signals.hpp"
#include "fiber_pool.hpp"
#include "memory_checker.hpp"
#include "shared_memory.hpp"

#include <cusim/backend/sim/device_runtime.hpp>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

// Every return after a fiber switch mispredicts (the return-stack buffer holds the other
// fiber's addresses), so the barrier path is inlined into one call above jump_fcontext.
#define CUSIM_SIM_HOT [[gnu::always_inline]] inline

namespace cusim::sim {

struct launch_state;
class block_runner;
struct block_context;

enum class thread_status : std::uint8_t { unstarted, running, ready, waiting, exited };
enum class wait_kind : std::uint8_t { none, block_barrier, warp_collective, active_mask };

/// The simulated thread a fiber currently runs. It is the fiber's slot itself (a fiber hosts one
/// thread at a time and a parked thread parks its fiber), so a block without barriers touches a
/// single record. Everything a barrier wait touches fits in its first cache line. Inline kernel
/// code sees the sim_thread part through current_thread_.
struct alignas(64) thread_record : detail::sim_thread {
  boost::context::fiber context;  ///< the suspended fiber; empty while it runs
  detail::source_location site{};  ///< where it waits
  thread_status status = thread_status::exited;
  wait_kind wait = wait_kind::none;
  int result = 0;  ///< what __syncthreads_count/_and/_or return
  unsigned mask = 0;
  unsigned linear = 0;
  // A warp collective in progress (second cache line: only collectives touch it).
  detail::warp_op op = detail::warp_op::sync;
  int arg = 0;
  int width = 32;
  std::uint64_t value = 0;  ///< what this lane contributes
  std::uint64_t out = 0;    ///< what it receives
  access_window window;     ///< CUSIM_CHECK=race/init: accesses not classified yet
};

/// A fiber: the thread it runs, and its stack.
struct fiber_slot : thread_record {
  boost::context::stack_context stack{};
  bool abandoned = false;  ///< left by a signal fault: never resumed, never unwound
};

/// One block's state while it runs, reached from its threads' records. Kept apart from the
/// runner's fibers so that several blocks can be in flight on one worker (the co-resident blocks
/// of a cooperative launch) without changing how a block is scheduled.
struct block_context : detail::block_info {
  block_runner* runner = nullptr;
  launch_state* launch = nullptr;
  memory_checker* checker = nullptr;  // the launch's (null with race and init off)
  std::uint64_t linear = 0;
  unsigned nthreads = 0;
  unsigned next_unstarted = 0;
  uint3 next_tid{};
  unsigned waiting = 0;  // threads parked at a barrier of either kind
  bool aborting = false;
  std::exception_ptr fault;
  std::uint64_t progress_seen = 0;  // progress at the last unproductive yield
  std::uint64_t idle_yields = 0;
  thread_record* abandoned = nullptr;  // left by a signal fault (signalled says which)
  signal_fault signalled{};
  thread_record* break_thread = nullptr;  // CUSIM_BREAK: the thread a scheduler-found fault names
  bool shuffle = false;                   // CUSIM_SCHEDULE=random: pick runnable threads at random
  std::uint64_t rng = 0;
  bool in_flight = false;                 // for the gdb extension: started, not finished
  block_context* debug_next = nullptr;    // every context of the runner, for the gdb extension

  // The __syncthreads being gathered: its waiters in arrival order, kept as they arrive so that
  // a release costs no scan of the block.
  std::vector<thread_record*> barrier_waiters;
  detail::source_location barrier_site{};
  detail::sync_op barrier_op = detail::sync_op::plain;
  int barrier_count = 0;
  bool barrier_divergent = false;

  // Warp collectives: the lanes of each warp waiting at one, and every started thread's record
  // by linear index (a record whose `linear` no longer matches has moved on: that thread exited).
  std::vector<thread_record*> lanes;
  unsigned warp_arrived[1024 / 32] = {};
  unsigned warp_waiting = 0;    // threads parked at a warp collective
  unsigned active_waiting = 0;  // threads parked at __activemask

  std::vector<thread_record*> ready;  // run queue, consumed from ready_head
  std::size_t ready_head = 0;
  shared_memory shared;
  shared_shadow check_shadow;  // CUSIM_CHECK=race/init

  /// Starts block `linear` of `launch` on `runner`.
  void reset(block_runner& runner, launch_state& launch, std::uint64_t linear);

  enum class lane_state { unstarted, live, exited, absent };
  /// What became of the thread with linear index `linear`.
  lane_state state_of(unsigned linear) const noexcept {
    if (linear >= nthreads) return lane_state::absent;
    if (linear >= next_unstarted) return lane_state::unstarted;
    const thread_record* t = lanes[linear];
    if (t->block != this || t->linear != linear || t->status == thread_status::exited) return lane_state::exited;
    return lane_state::live;
  }
  /// The live thread `linear` if it waits at a `kind` wait, else null.
  thread_record* waiting_at(unsigned linear, wait_kind kind) const noexcept {
    if (state_of(linear) != lane_state::live) return nullptr;
    thread_record* t = lanes[linear];
    return t->status == thread_status::waiting && t->wait == kind ? t : nullptr;
  }
  thread_record* at_warp_collective(unsigned linear) const noexcept {
    return waiting_at(linear, wait_kind::warp_collective);
  }
};

class block_runner {
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
  CUSIM_SIM_HOT int sync_block(thread_record& self, detail::sync_op op, int predicate, const detail::source_location& site);
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
  /// An element access of a checked array (CUSIM_CHECK=race/init, CUSIM_SCHEDULE=random).
  void note_access(thread_record& self, void* p, std::size_t bytes, memory_space space,
                   const detail::source_location& site);

  // Read by the gdb extension (debugger.hpp): the next runner and this worker's OS thread id.
  block_runner* debug_next = nullptr;
  int debug_lwp = 0;

 private:
  struct abort_block {};  // unwinds parked threads after a fault in their block

  block_context& acquire_context();
  block_context* finish_or_suspend(bool suspended);
  bool schedule();
  CUSIM_SIM_HOT fiber_slot* next_runnable();
  [[gnu::noinline]] fiber_slot* runnable_after(thread_record& self);
  CUSIM_SIM_HOT fiber_slot* next_after(thread_record& self);
  CUSIM_SIM_HOT fiber_slot* pop_ready();  ///< the head of the ready queue, which is not empty
  fiber_slot& start_fiber();
  CUSIM_SIM_HOT void switch_to(fiber_slot& target, fiber_slot& self);
  CUSIM_SIM_HOT void after_switch(boost::context::fiber&& from) noexcept;
  [[noreturn]] boost::context::fiber fiber_main(fiber_slot& self, boost::context::fiber&& caller);
  void enter_block(thread_record& t);
  CUSIM_SIM_HOT void take_thread(thread_record& t);
  CUSIM_SIM_HOT void run_thread(thread_record& t);
  CUSIM_SIM_HOT void finish_thread(thread_record& t);
  CUSIM_SIM_HOT void park(thread_record& self);
  CUSIM_SIM_HOT void make_ready(thread_record& t);
  CUSIM_SIM_HOT void flush_accesses(thread_record& self);
  void shuffle_point(thread_record& self);
  std::uint64_t random_below(std::uint64_t n) noexcept;
  bool resolve_waits();
  bool strict_barrier_violated();
  void release_barrier();
  bool complete_collective(thread_record& self);
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
  block_context* debug_contexts_ = nullptr;    // every context, linked for the gdb extension
  std::vector<std::unique_ptr<fiber_slot>> slots_;
  std::vector<fiber_slot*> free_slots_;
  std::vector<fiber_slot*> idle_;  // fibers parked with nothing to run, resumable for any block
  fiber_slot scheduler_;           // the worker's own stack
  fiber_slot* from_ = nullptr;     // who switched last: the resumed side stores its continuation
};

/// The simulated thread running on this OS thread; `what` names the caller for the logic_error
/// thrown outside a kernel.
inline thread_record& current_record(const char* what) {
  if (detail::current_thread_ == nullptr) detail::fail_outside_kernel(what);
  return *static_cast<thread_record*>(detail::current_thread_);
}

/// The runner (worker) that runs `t`'s block.
inline block_runner& runner_of(const thread_record& t) { return *static_cast<block_context*>(t.block)->runner; }

}  // namespace cusim::sim
