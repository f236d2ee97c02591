// SPDX-License-Identifier: MIT
// The entry points kernel code calls (cusim/backend/sim/device_runtime.hpp): each forwards to
// the block runner of the current simulated thread, or reports a tagged fault. The barrier and
// yield entry points live in block_runner.cpp, where their whole path inlines.
#include "block_runner.hpp"
#include "debugger.hpp"
#include "diagnostics.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cusim::detail {

void fail_outside_kernel(const char* what) {
  throw std::logic_error(std::string("cusim: ") + what + " used outside a kernel");
}

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
    throw std::out_of_range(fmt::format("index {} is out of bounds for axis {} with size {} ({}, {}, host code)",
                                        index, axis, extent, sim::space_name(space), sim::format_site(site)));
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::out_of_bounds_error(t.thread_idx, t.block->block_idx, index, extent, axis, space, site));
}

void fail_bad_tile(unsigned size, const source_location& site) {
  const sim::thread_record& t = sim::current_record("cg::tiled_partition");
  sim::raise_fault(sim::fault_error(fault_kind::warp_collective, t.thread_idx, t.block->block_idx,
                         fmt::format("cg::tiled_partition(block, {}): the tile size must be a power of two from 1 to 32",
                                     size),
                         site));
}

void fail_local_array(std::size_t bytes, const source_location& site) {
  const sim::thread_record& t = sim::current_record("a cusim::local_array");
  sim::raise_fault(sim::fault_error(fault_kind::stack_overflow, t.thread_idx, t.block->block_idx,
                         fmt::format("local array of {} bytes does not fit in the thread's {} KiB fiber stack; "
                                     "raise CUSIM_STACK (KiB)",
                                     bytes, sim::runner_of(t).stack_bytes() / 1024),
                         site));
}

void fail_assert(const char* expr, const char* function, const source_location& site) {
  if (current_thread_ == nullptr) {  // host code: behave like the C library's assert
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", site.file, site.line, function, expr);
    std::abort();
  }
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::fault_error(fault_kind::assertion, t.thread_idx, t.block->block_idx,
                         fmt::format("device-side assertion `{}` failed in {}", expr, function), site));
}

void fail_trap(const source_location& site) {
  if (current_thread_ == nullptr) {  // host code: a trap ends the process, as __builtin_trap() would
    std::fprintf(stderr, "%s:%u: __trap() called in host code\n", site.file, site.line);
    std::abort();
  }
  const sim_thread& t = *current_thread_;
  sim::raise_fault(sim::fault_error(fault_kind::trap, t.thread_idx, t.block->block_idx, "__trap() was called", site));
}

}  // namespace cusim::detail
