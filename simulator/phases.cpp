// SPDX-License-Identifier: MIT
// A block run as loops between its barriers (cusim/backend/sim/phases.hpp): the stepping through
// its threads, the votes on the conditions of loops over barriers, and the faults.
#include "phases.hpp"

#include "debugger.hpp"
#include "diagnostics.hpp"
#include "block_state.hpp"
#include "launch_state.hpp"

#include <cstring>
#include <memory>
#include <new>
#include <utility>

namespace cusim::detail {

phase_block::phase_block() : t_(this_thread()), b_(*t_.block) {
  gone_ = static_cast<unsigned char*>(zeroed(1, 1));
}

phase_block::~phase_block() { b_.phased = false; }

void* phase_block::zeroed(std::size_t size, std::size_t align) {
  auto& b = static_cast<sim::block_context&>(b_);
  // Every buffer starts on a cache line (new[] of std::byte gives max_align_t: round up in it).
  constexpr std::size_t line = 64;
  if (align > line) throw std::bad_alloc();  // cannot happen: the driver replicates scalars and vectors
  const std::size_t bytes = std::size_t{b_.nthreads} * size;
  if (b.phase_used == b.phase_memory.size()) b.phase_memory.emplace_back();
  auto& buffer = b.phase_memory[b.phase_used++];
  if (buffer.size < bytes + line) {
    buffer.bytes = std::make_unique_for_overwrite<std::byte[]>(bytes + line);
    buffer.size = bytes + line;
  }
  void* p = buffer.bytes.get();
  std::size_t space = buffer.size;
  p = std::align(line, bytes, p, space);
  std::memset(p, 0, bytes);
  return p;
}

void phase_cursor::make_current_unchecked(sim_thread& t, unsigned linear, uint3 idx) noexcept {
  make_current(t, linear, idx);
}

bool phase_block::leave(const source_location& site) {
  const phase_votes v = std::exchange(votes_, phase_votes{});
  if (v.split) [[unlikely]] {
    // The tag names the first thread that parts from the first live one.
    make_current(t_, v.other, sim::index_of(b_.block_dim, v.other));
    sim::raise_fault(sim::phase_divergence_error(t_.thread_idx, b_.block_idx, sim::index_of(b_.block_dim, v.first),
                                                 v.first_stays, v.stay, v.live, site));
  }
  return v.stay == 0;
}

}  // namespace cusim::detail

namespace cusim::sim {

void fail_wait_in_phases(const detail::sim_thread& t, std::string_view what, const detail::source_location& site) {
  raise_fault(wait_in_phases_error(t.thread_idx, t.block->block_idx, what, site));
}

}  // namespace cusim::sim
