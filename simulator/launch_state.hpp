// SPDX-License-Identifier: MIT
// The state of one launch, shared by its blocks: what the grid runner sets up and the block
// runners read (configuration, controls, the kernel, the fault to report). Data only.
#pragma once

#include "kernels.hpp"
#include "settings.hpp"

#include <cusim/host/launch.hpp>

#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cusim::sim {

class checker_set;

/// A launch made by a thread of another launch (CUDA dynamic parallelism, `k<<<...>>>` in a
/// kernel), or a device-side cudaMemcpyAsync / cudaMemsetAsync (`work`): it runs once its
/// parent's grid has finished and before the parent launch completes, the children of lower
/// blocks first, then in launch order; tail launches (cudaStreamTailLaunch) after all the others
/// and their descendants, in launch order.
struct child_launch {
  std::uint64_t block = 0;  ///< the launching thread's block
  std::uint64_t order = 0;  ///< launch order within the parent
  launch_config config;
  detail::bound_kernel bound;
  bool cooperative = false;
  const void* kernel = nullptr;
  bool tail = false;             ///< launched into cudaStreamTailLaunch
  std::function<void()> work;  ///< a copy or memset instead of a grid (kernel is null)
};

/// A stream created by a kernel thread (cudaStreamCreateWithFlags in device code): private to the
/// block that created it, as in CUDA; its handle is the object's address.
struct device_stream {
  std::uint64_t block = 0;
  bool destroyed = false;
};

struct launch_state {
  launch_config config;
  void (*thunk)(void*) = nullptr;
  void* closure = nullptr;
  kernel_info* kernel = nullptr;  // what is known of the kernel across launches
  std::shared_ptr<void> owner;  // keeps the closure alive for a launch on a stream
  unsigned threads_per_block = 0;
  std::uint64_t blocks = 0;
  std::size_t stack_bytes = 0;  // CUSIM_STACK, read once per launch
  bool cooperative = false;     // every block co-resident: this_grid().sync() allowed
  // The controls read once per launch (settings.hpp); CUSIM_CHECK's are the checkers below.
  bool break_on_fault = false;
  std::optional<std::uint64_t> schedule_seed;
  bool phases = false;  // blocks may run as loops between barriers (CUSIM_PHASES, and nothing against it)
  std::unique_ptr<checker_set> checkers;  // CUSIM_CHECK's (null when none is on)

  launch_state();
  ~launch_state();  // where checker_set is complete

  std::atomic<std::uint64_t> lowest_fault{UINT64_MAX};
  std::mutex mutex;
  std::exception_ptr fault;
  std::vector<child_launch> children;  // guarded by mutex
  // Dynamic parallelism: the grid's nesting depth (0 for a host launch), the streams its threads
  // created, and each thread's device-side last error by (block, thread), all guarded by mutex.
  unsigned depth = 0;
  std::unordered_map<const void*, std::unique_ptr<device_stream>> device_streams;
  std::map<std::pair<std::uint64_t, unsigned>, cudaError_t> device_errors;

  /// Keeps `e` if `block` is the lowest faulting block so far.
  void report_fault(std::uint64_t block, std::exception_ptr e);
  /// Blocks above a known fault need not run: their faults would not be reported.
  bool cancelled(std::uint64_t block) const noexcept {
    return block > lowest_fault.load(std::memory_order_relaxed);
  }
};

using detail::index_of;

}  // namespace cusim::sim
