// SPDX-License-Identifier: MIT
// The one entry of every launch (detail::submit): validates it, then queues it as a child grid
// (dynamic_parallelism.cpp), records it into a capturing stream's graph, runs it now (the default
// stream) or queues it on its stream. Prepares each launch's state and runs a grid's children after it.
#include "address_space.hpp"
#include "block_state.hpp"
#include "debugger.hpp"
#include "device.hpp"
#include "dynamic_parallelism.hpp"
#include "grid_runner.hpp"
#include "checkers.hpp"
#include "settings.hpp"
#include "streams.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

namespace cusim::sim {

namespace {

/// A launch's state, ready to run (its configuration validated already).
std::shared_ptr<launch_state> prepare_launch(const launch_config& config, detail::bound_kernel bound, bool cooperative,
                                             kernel_info& info) {
  auto launch = std::make_shared<launch_state>();
  launch->kernel = &info;
  launch->config = config;
  launch->thunk = bound.thunk;
  launch->closure = bound.closure.get();
  launch->owner = std::move(bound.closure);
  launch->threads_per_block = config.block.x * config.block.y * config.block.z;
  launch->blocks = std::uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  launch->stack_bytes = fiber_stack_bytes();
  launch->cooperative = cooperative;
  launch->break_on_fault = break_on_fault();
  launch->schedule_seed = schedule_seed();
  launch->checkers = checkers_for_launch(checks());
  // The checkers see the raw accesses of inline-checked code only through its slow path.
  if (launch->schedule_seed || (launch->checkers && launch->checkers->observes_accesses())) arena_observe_all();
  // Loops between barriers keep every default check; the opt-in ones watch threads interleave. A
  // program started under a debugger keeps a fiber per thread, for the thread list and focus
  // (asked once: a launch must stay cheap).
  static const bool traced = debugger_attached();
  launch->phases = phases_enabled() && !traced && !cooperative && !launch->schedule_seed &&
                   (!launch->checkers || launch->checkers->allows_phases());
  return launch;
}

// A launch's grid, then the launches its threads made (dynamic parallelism), depth first: the
// children of lower blocks first, each block's in launch order (so a device stream's work runs in
// its order), then the tail launches in launch order, after the others and their descendants. A
// child's fault is the parent launch's, as a GPU reports it at the parent's synchronisation. The
// recursion is as deep as the nesting (max_launch_depth), however many children a grid has.
std::exception_ptr run_with_children(launch_state& launch) {
  std::exception_ptr fault = run_grid(launch);
  std::vector<child_launch> children;
  {
    std::lock_guard lock(launch.mutex);
    children.swap(launch.children);
  }
  std::size_t left = children.size();  // pending until each has run
  if (fault) {
    release_pending_launches(left);
    return fault;
  }
  std::sort(children.begin(), children.end(), [](const child_launch& a, const child_launch& b) {
    if (a.tail != b.tail) return b.tail;
    if (a.tail) return a.order < b.order;
    return a.block != b.block ? a.block < b.block : a.order < b.order;
  });
  for (child_launch& c : children) {
    if (c.work) {
      c.work();
    } else {
      try {
        auto child = prepare_launch(c.config, std::move(c.bound), c.cooperative, kernel_info_of(c.kernel));
        child->depth = launch.depth + 1;
        fault = run_with_children(*child);
      } catch (...) {
        fault = std::current_exception();
      }
    }
    --left;
    release_pending_launches(1);
    if (fault) break;
  }
  release_pending_launches(left);
  return fault;
}

}  // namespace

}  // namespace cusim::sim

namespace cusim::detail {

void submit(const void* kernel, const launch_config& config, bound_kernel bound, bool cooperative) {
  sim::kernel_info& info = sim::kernel_info_of(kernel);
  if (current_thread_ != nullptr) {
    // From a kernel thread: a child grid of the thread's launch, run after the parent's grid (it
    // cannot run here: this OS thread's block runner is in the middle of a block). Its stream is
    // a device stream, which queue_child_launch checks.
    launch_config shape = config;
    shape.stream = nullptr;
    sim::validate_launch(shape, info, cooperative);
    return sim::queue_child_launch(kernel, config, std::move(bound), cooperative);
  }
  sim::validate_launch(config, info, cooperative);
  if (sim::stream_is_capturing(config.stream)) return sim::record_launch(kernel, config, cooperative, std::move(bound));
  auto launch = sim::prepare_launch(config, std::move(bound), cooperative, info);
  if (config.stream == nullptr) {  // the legacy default stream: after every blocking stream, at once
    sim::wait_for_blocking_streams();
    if (std::exception_ptr fault = sim::run_with_children(*launch)) std::rethrow_exception(fault);
    return;
  }
  sim::enqueue(config.stream, [launch] {
    if (std::exception_ptr fault = sim::run_with_children(*launch)) sim::keep_stream_fault(launch->config.stream, fault);
  });
}

}  // namespace cusim::detail
