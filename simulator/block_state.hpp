// SPDX-License-Identifier: MIT
// The state of a block while it runs, and of its simulated threads: what the block runner acts
// on, and what the checkers, the warp collectives, the signal handlers and the gdb extension
// (tools/cusim-gdb.py reads these fields by name) look at. Data only: no runner here.
#pragma once

#include "checker_state.hpp"
#include "sanitizers.hpp"
#include "signal_fault.hpp"
#include "shared_memory.hpp"

#include <cusim/cuda_runtime.hpp>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <cstddef>
#include <exception>
#include <memory>
#include <vector>

namespace cusim::sim {

struct launch_state;
class block_runner;
class checker_set;
struct block_context;

enum class thread_status : std::uint8_t { unstarted, running, ready, waiting, exited };
enum class wait_kind : std::uint8_t { none, block_barrier, warp_collective, active_mask };
// tools/cusim-gdb.py reads these values by number (_STATUS, _WAIT): keep them in step.
static_assert(static_cast<int>(thread_status::running) == 1 && static_cast<int>(thread_status::waiting) == 3 &&
              static_cast<int>(thread_status::exited) == 4);
static_assert(static_cast<int>(wait_kind::block_barrier) == 1 && static_cast<int>(wait_kind::active_mask) == 3);

/// The simulated thread a fiber currently runs. It is the fiber's slot itself (a fiber hosts one
/// thread at a time and a parked thread parks its fiber), so a block without barriers touches a
/// single record. Everything a barrier wait touches fits in its first cache line. Inline kernel
/// code sees the sim_thread part through current_thread_.
struct alignas(64) thread_record : detail::sim_thread {
  boost::context::fiber context;  ///< the suspended fiber; empty while it runs
  detail::source_location site{};  ///< where it waits
  thread_status status = thread_status::exited;
  wait_kind wait = wait_kind::none;
  /// The block's barrier_generation when it arrived at a __syncthreads: once the block's has
  /// moved on, the barrier has released it and it waits only for its turn to run ("ready"). A
  /// release touches no waiter's record.
  std::uint16_t generation = 0;
  /// While its block runs in ring mode (block_context::ring): the linear index of the live
  /// thread that runs after it, in the order the block's threads take turns.
  std::uint16_t ring_next = 0;
  // A warp collective in progress (second cache line: only collectives touch it).
  int result = 0;  ///< what the lane's warp collective returns as a predicate
  unsigned mask = 0;
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
  [[no_unique_address]] fiber_sanitizer_state san;  ///< what ASan and TSan know of it (empty without them)
};

/// One block's state while it runs, reached from its threads' records. Kept apart from the
/// runner's fibers so that several blocks can be in flight on one worker (the co-resident blocks
/// of a cooperative launch) without changing how a block is scheduled.
struct block_context : detail::block_info {
  block_runner* runner = nullptr;
  launch_state* launch = nullptr;
  checker_set* checkers = nullptr;  // the launch's (null when no checker is on)
  std::uint64_t linear = 0;
  unsigned waiting = 0;  // threads parked at a barrier of either kind, not released yet
  unsigned live = 0;     // threads started and not exited (a thread that exits into the next keeps it)
  bool aborting = false;
  bool strict_sync = false;  // checker_set::strict_sync (in the padding before fault)
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
  int barrier_result = 0;                  // what the last released __syncthreads_count/_and/_or returns
  std::uint16_t barrier_generation = 0;    // releases so far (mod 2^16): see thread_record::generation

  // Ring mode: while every thread has started and nothing but plain __syncthreads at one call
  // site happens, the live threads take turns in a fixed cycle (thread_record::ring_next) and a
  // wait is an arrival count and a switch to the next thread: no run queue, no scheduler. Of the
  // threads after the running one, the last ring_arrived wait at the barrier (they ran before it)
  // and the others are released and not run yet. Anything else first turns the ring back into
  // barrier_waiters and ready (block_runner::leave_ring). A thread that exits leaves the cycle
  // (its predecessor, ring_prev, is linked to its successor) and counts as arrived.
  // While nothing waits at the barrier, warp collectives keep the ring too: a lane that waits
  // leaves the cycle (ring_warp_waiting of them), and the last lane to arrive links the others,
  // in lane order, right before itself: where make_ready would queue them.
  bool ring = false;
  unsigned ring_arrived = 0;       // threads waiting at the ring's barrier
  unsigned ring_warp_waiting = 0;  // threads waiting at warp collectives, out of the cycle
  std::uint16_t ring_prev = 0;     // the thread before the running one in the cycle

  // Warp collectives: the lanes of each warp waiting at one, and every started thread's record
  // by linear index (block_info::lanes points here; a record whose `linear` no longer matches has
  // moved on: that thread exited).
  std::vector<detail::sim_thread*> lane_storage;
  // A block run in phases (phases.hpp): the slots of its replicated variables, the n-th request of
  // a block in the n-th buffer, kept from block to block so that a block allocates nothing (and a
  // fiber abandoned by a signal fault leaves nothing behind). phase_used: requests of this block.
  struct phase_buffer {
    std::unique_ptr<std::byte[]> bytes;
    std::size_t size = 0;
  };
  std::vector<phase_buffer> phase_memory;
  std::size_t phase_used = 0;
  unsigned warp_arrived[1024 / 32] = {};
  unsigned warp_waiting = 0;    // threads parked at a warp collective
  unsigned active_waiting = 0;  // threads parked at __activemask

  std::vector<thread_record*> ready;  // run queue, consumed from ready_head
  std::size_t ready_head = 0;
  shared_memory shared;
  shared_shadow check_shadow;  // CUSIM_CHECK=race/init

  /// Starts block `linear` of `launch` on `runner`.
  void reset(block_runner& runner, launch_state& launch, std::uint64_t linear);

  /// The record that started thread `linear` (which may have moved on since), or null.
  thread_record* lane(unsigned linear) const noexcept {
    return static_cast<thread_record*>(lanes[linear] != nullptr ? lanes[linear] : inline_lanes);
  }

  enum class lane_state { unstarted, live, exited, absent };
  /// What became of the thread with linear index `linear`.
  lane_state state_of(unsigned linear) const noexcept {
    if (linear >= nthreads) return lane_state::absent;
    if (linear >= next_unstarted) return lane_state::unstarted;
    const thread_record* t = lane(linear);
    if (t == nullptr || t->block != this || t->linear != linear || t->status == thread_status::exited) return lane_state::exited;
    return lane_state::live;
  }
  /// The live thread `linear` if it waits at a `kind` wait, else null.
  thread_record* waiting_at(unsigned linear, wait_kind kind) const noexcept {
    if (state_of(linear) != lane_state::live) return nullptr;
    thread_record* t = lane(linear);
    return t->status == thread_status::waiting && t->wait == kind ? t : nullptr;
  }
  thread_record* at_warp_collective(unsigned linear) const noexcept {
    return waiting_at(linear, wait_kind::warp_collective);
  }
};

/// The simulated thread running on this OS thread; `what` names the caller for the logic_error
/// thrown outside a kernel. A thread that run_threads started gets its lane here (see
/// block_info::lanes): whatever it asks of the simulator may read the lanes, or suspend it.
inline thread_record& current_record(const char* what) {
  if (detail::current_thread_ == nullptr) detail::fail_outside_kernel(what);
  auto& t = *static_cast<thread_record*>(detail::current_thread_);
  detail::sim_thread*& lane = t.block->lanes[t.linear];
  if (lane == nullptr) [[unlikely]] lane = &t;
  return t;
}

/// The runner (worker) that runs `t`'s block.
inline block_runner& runner_of(const thread_record& t) { return *static_cast<block_context*>(t.block)->runner; }

/// detail::note_access for code that cannot be unwound (the inline checks' report calls, which
/// the compilers declare nothrow): under CUSIM_SCHEDULE=random the access may let another thread
/// run first and resume in a block another thread's fault ended; the thread then goes on to its
/// next barrier or its end, where the unwinding starts (the fault is already the block's).
void note_access_unwinding_later(void* p, std::size_t bytes, memory_space space, const detail::source_location& site,
                                 bool store) noexcept;

}  // namespace cusim::sim
