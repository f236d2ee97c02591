// SPDX-License-Identifier: MIT
// The entry points kernel code calls (cusim/backend/sim/device_runtime.hpp): each forwards to
// the block runner of the current simulated thread, or reports a tagged fault. The barrier entry
// points live in block_barrier.cpp and the yield's in block_runner.cpp, where their whole path
// inlines.
#include "block_runner.hpp"
#include "debugger.hpp"
#include "diagnostics.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cusim::detail {

__thread const void* shared_key = nullptr;

void* bind_shared(const void* key, const source_location& site, std::size_t bytes, std::size_t align) {
  sim::thread_record& t = sim::current_record("a __shared__ cusim::shared_array");
  return sim::runner_of(t).bind_shared(t, key, site, bytes, align);
}

void* dynamic_shared_memory(std::size_t* bytes) {
  return sim::runner_of(sim::current_record("cusim::dynamic_shared")).dynamic_shared(bytes);
}

void fail_out_of_bounds(std::int64_t index, std::int64_t extent, int axis, memory_space space,
                        source_location site) {
  if (current_thread_ == nullptr)  // a checked view indexed in host code
    throw sim::host_out_of_bounds_error(index, extent, axis, space, site);
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::out_of_bounds_error(t.thread_idx, t.block->block_idx, index, extent, axis, space, site));
}

void fail_bad_tile(unsigned size, const source_location& site) {
  const sim::thread_record& t = sim::current_record("cg::tiled_partition");
  sim::raise_fault(sim::bad_tile_error(t.thread_idx, t.block->block_idx, size, site));
}

void fail_local_array(std::size_t bytes, const source_location& site) {
  const sim::thread_record& t = sim::current_record("a cusim::local_array");
  sim::raise_fault(
      sim::local_array_too_large_error(t.thread_idx, t.block->block_idx, bytes, sim::runner_of(t).stack_bytes(), site));
}

void fail_assert(const char* expr, const char* function, const source_location& site) {
  if (current_thread_ == nullptr) {  // host code: behave like the C library's assert
    std::fputs(sim::host_assertion_message(expr, function, site).c_str(), stderr);
    std::abort();
  }
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::assertion_error(t.thread_idx, t.block->block_idx, expr, function, site));
}

void fail_trap(const source_location& site) {
  if (current_thread_ == nullptr) {  // host code: a trap ends the process, as __builtin_trap() would
    std::fputs(sim::host_trap_message(site).c_str(), stderr);
    std::abort();
  }
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::trap_error(t.thread_idx, t.block->block_idx, site));
}

}  // namespace cusim::detail
