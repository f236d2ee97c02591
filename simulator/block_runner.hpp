// SPDX-License-Identifier: MIT
// Runs one block's threads on fibers. A fiber keeps taking the next not-yet-started thread of
// the block until the thread it runs blocks (barrier, yield); only then does another fiber take
// over, so a kernel without barriers runs a whole block on one fiber with no switches.
// Blocked threads hand control straight to the next runnable thread's fiber.
#pragma once

#include "shared_memory.hpp"

#include <cusim/backend/sim/device_runtime.hpp>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

namespace cusim::sim {

struct launch_state;
class block_runner;

enum class thread_status : std::uint8_t { unstarted, running, ready, waiting, exited };
enum class wait_kind : std::uint8_t { none, block_barrier, warp_barrier };

struct fiber_slot;

/// A simulated thread. Inline kernel code sees the sim_thread part through current_thread_.
struct thread_record : detail::sim_thread {
  block_runner* runner = nullptr;
  fiber_slot* fiber = nullptr;
  unsigned linear = 0;
  thread_status status = thread_status::unstarted;
  wait_kind wait = wait_kind::none;
  detail::sync_op op = detail::sync_op::plain;
  int predicate = 0;
  int result = 0;
  unsigned mask = 0;
  detail::source_location site{};
};

struct fiber_slot {
  boost::context::fiber fiber;  ///< the suspended context, empty while running or finished
  boost::context::stack_context stack{};
  bool abandoned = false;  ///< overflowed its stack: never resumed, never unwound
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

  // Entry points for the running simulated thread `self`.
  int sync_block(thread_record& self, detail::sync_op op, int predicate, const detail::source_location& site);
  void sync_warp(thread_record& self, unsigned mask, const detail::source_location& site);
  void poll_yield(thread_record& self);
  void* bind_shared(thread_record& self, const detail::source_location& site, std::size_t bytes, std::size_t align);
  void* dynamic_shared(std::size_t* bytes) noexcept { return shared_.dynamic(bytes); }
  /// From the SIGSEGV handler, on the signal stack: `self` overflowed its fiber stack. Records
  /// the fault and leaves the fiber for good; never returns.
  [[noreturn]] void abandon_overflowed(thread_record& self) noexcept;

 private:
  struct abort_block {};  // unwinds parked threads after a fault in their block

  void schedule();
  fiber_slot* next_runnable();
  fiber_slot& start_fiber();
  void switch_to(fiber_slot& target, fiber_slot& self);
  void after_switch(boost::context::fiber&& from) noexcept;
  boost::context::fiber fiber_main(fiber_slot& self, boost::context::fiber&& caller);
  void take_thread(thread_record& t, fiber_slot& slot);
  void run_thread(thread_record& t);
  void park(thread_record& self);
  void make_ready(thread_record& t);
  void report_overflow() noexcept;
  void resolve_waits();
  bool release_warps();
  void fault(std::exception_ptr e) noexcept;
  void fault_from_exception(thread_record& t) noexcept;

  launch_state* launch_ = nullptr;
  uint3 block_idx_{};
  unsigned nthreads_ = 0;
  unsigned next_unstarted_ = 0;
  uint3 next_tid_{};
  unsigned waiting_ = 0;
  bool aborting_ = false;
  std::exception_ptr fault_;
  std::uint64_t progress_ = 0;       // barrier arrivals, exits and modifying atomics
  std::uint64_t progress_seen_ = 0;  // progress_ at the last unproductive yield
  std::uint64_t idle_yields_ = 0;
  thread_record* overflowed_ = nullptr;

  std::vector<thread_record> threads_;
  std::vector<thread_record*> ready_;
  std::size_t ready_head_ = 0;
  std::vector<std::unique_ptr<fiber_slot>> slots_;
  std::vector<fiber_slot*> free_slots_;
  fiber_slot scheduler_;        // the worker's own stack
  fiber_slot* from_ = nullptr;  // who switched last: the resumed side stores its continuation
  shared_memory shared_;
};

}  // namespace cusim::sim
