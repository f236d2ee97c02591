// SPDX-License-Identifier: MIT
// Blocks in parallel on TBB workers, inside an isolated arena.
#include "grid_runner.hpp"

#include "block_runner.hpp"
#include "device.hpp"
#include "runtime_api.hpp"
#include "settings.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <map>
#include <memory>
#include <mutex>

namespace cusim::sim {

void launch_state::report_fault(std::uint64_t block, std::exception_ptr e) {
  std::lock_guard lock(mutex);
  if (block < lowest_fault.load(std::memory_order_relaxed)) {
    lowest_fault.store(block, std::memory_order_relaxed);
    fault = std::move(e);
  }
}

namespace {

void run_blocks(launch_state& launch, std::uint64_t begin, std::uint64_t end) {
  block_runner& runner = block_runner::for_this_thread();
  for (std::uint64_t b = begin; b < end && !launch.cancelled(b); ++b) runner.run(launch, b);
}

tbb::task_arena& arena_for(unsigned workers) {
  static std::mutex mutex;
  static std::map<unsigned, std::unique_ptr<tbb::task_arena>> arenas;
  std::lock_guard lock(mutex);
  auto& arena = arenas[workers];
  if (!arena) arena = std::make_unique<tbb::task_arena>(static_cast<int>(workers));
  return *arena;
}

}  // namespace

std::exception_ptr run_grid(launch_state& launch) {
  const unsigned workers = worker_count();
  if (workers == 1 || launch.blocks == 1) {
    run_blocks(launch, 0, launch.blocks);  // one OS thread, blocks in order: the gdb mode
  } else {
    arena_for(workers).execute([&] {
      tbb::this_task_arena::isolate([&] {
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, launch.blocks),
                          [&](const tbb::blocked_range<std::uint64_t>& r) { run_blocks(launch, r.begin(), r.end()); });
      });
    });
  }
  return launch.fault;
}

}  // namespace cusim::sim

namespace cusim::detail {

void launch_kernel(const launch_config& config, void (*thunk)(void*), void* closure) {
  sim::warn_unsupported_settings();
  if (current_thread_ != nullptr)  // would re-enter this OS thread's running block runner
    throw cuda_error(cudaErrorNotSupported,
                     "cusim::launch: operation not supported (cudaErrorNotSupported): a launch from inside a "
                     "kernel (dynamic parallelism) is not supported by the simulator");
  sim::validate_launch(config);
  sim::launch_state launch;
  launch.config = config;
  launch.thunk = thunk;
  launch.closure = closure;
  launch.threads_per_block = config.block.x * config.block.y * config.block.z;
  launch.blocks = std::uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  launch.stack_bytes = sim::fiber_stack_bytes();
  std::exception_ptr fault = sim::run_grid(launch);
  if (!fault) return;
  if (config.stream != nullptr) {
    sim::keep_stream_fault(config.stream, fault);  // surfaces at the next synchronisation
    return;
  }
  std::rethrow_exception(fault);
}

}  // namespace cusim::detail
