// SPDX-License-Identifier: MIT
// A block run as loops between its barriers (cusim/backend/sim/phases.hpp): the stepping through
// its threads, the votes on the conditions of loops over barriers, and the faults.
#include "phases.hpp"

#include "debugger.hpp"
#include "diagnostics.hpp"
#include "block_state.hpp"
#include "launch_state.hpp"

#include <cstdint>
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
  // Each buffer starts a few lines further into a 4 KiB page than the one before: a thread's
  // slots, read and written together, would otherwise share their addresses' low 12 bits, which
  // the processor takes for a store and a load to the same place (4K aliasing) and stalls.
  const std::size_t skew = (b.phase_used % 31) * 2 * line;
  if (b.phase_used == b.phase_memory.size()) b.phase_memory.emplace_back();
  auto& buffer = b.phase_memory[b.phase_used++];
  if (buffer.size < bytes + line + skew) {
    buffer.bytes = std::make_unique_for_overwrite<std::byte[]>(bytes + line + skew);
    buffer.size = bytes + line + skew;
  }
  void* p = buffer.bytes.get() + skew;
  std::size_t space = buffer.size - skew;
  p = std::align(line, bytes, p, space);
  std::memset(p, 0, bytes);
  return p;
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

namespace {

/// The idle polls in a row of one thread of a block run in phases, with no progress in between.
struct phased_polls {
  const detail::block_info* block = nullptr;
  uint3 block_idx{}, thread_idx{};
  std::uint64_t progress = 0;
  std::uint32_t count = 0;
};
thread_local phased_polls polls_in_phases;

bool same(uint3 a, uint3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

}  // namespace

void poll_in_phases(const detail::sim_thread& t) {
  // The driver phases atomics that cannot be a spin (a discarded result, or one read outside any
  // loop without a barrier): an atomicMax that changes nothing many times in a row is no wait
  // there. A spin from code it did not see still ends, as a tagged error, after
  // phased_poll_limit polls in a row while nothing else in the block progresses.
  phased_polls& p = polls_in_phases;
  const detail::block_info& b = *t.block;
  if (p.block != &b || !same(p.block_idx, b.block_idx) || !same(p.thread_idx, t.thread_idx) ||
      p.progress != b.progress) {
    p = phased_polls{&b, b.block_idx, t.thread_idx, b.progress, 0};
  }
  if (++p.count >= phased_poll_limit) {
    p = phased_polls{};
    fail_wait_in_phases(t, "a spin on an atomic", {});
  }
}

}  // namespace cusim::sim
