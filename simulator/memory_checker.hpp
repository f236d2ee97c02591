// SPDX-License-Identifier: MIT
// CUSIM_CHECK=race and init: every element access of a checked shared or global array is
// recorded in shadow memory. An access is classified when its thread next touches an array or
// reaches a barrier: if the bytes changed it was a write, otherwise a read (atomics are both).
// Race: two threads, one location, at least one write, and no barrier (block), __syncwarp
// (same warp) or grid sync between them; different blocks are never ordered without a grid sync.
// Init: a read of bytes never written since the allocation (global) or in this block (shared).
// Findings are counted per pair of source lines and reported together after the launch
// (diagnostics' memory_check_report words them).
#pragma once

#include "checker.hpp"
#include "checker_state.hpp"
#include "diagnostics.hpp"

#include <cusim/detail/source_location.hpp>
#include <cusim/error.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

namespace cusim::sim {

struct block_context;
struct thread_record;
struct check_settings;
struct device_shadow;

/// The race and init checkers of one launch.
class memory_checker final : public checker {
 public:
  explicit memory_checker(const check_settings& settings);

  bool observes_accesses() const noexcept override { return true; }
  /// Starts block `b`'s shadow.
  void block_started(block_context& b) override;
  /// `t` is about to access `e.bytes` at `e.address` through a checked array (a store when
  /// `e.kind` says so; otherwise a write is told by the change it makes).
  void accessed(thread_record& t, block_context& b, const access_event& e) override;
  /// An atomic function was applied to `p`: if `t` reached it through a checked array, the
  /// access is atomic (atomics do not race with atomics).
  void atomic_applied(thread_record& t, const void* p) noexcept override;
  /// Classifies every access of `t` not yet classified (before it synchronises or yields).
  void thread_paused(thread_record& t, block_context& b) override;

  void block_barrier_released(block_context& b) noexcept override;
  void warp_synchronised(block_context& b, unsigned base, unsigned mask) noexcept override;
  void grid_synchronised() noexcept override { grid_clock_ = tick(); }

  /// The launch's findings as one kernel_error (null when there are none).
  std::exception_ptr launch_ended() override;

 private:
  static std::uint64_t tick() noexcept;
  /// Where an access landed: an offset into the block's shared memory (device == null) or into
  /// a device allocation.
  struct place {
    std::size_t offset = 0;
    device_shadow* device = nullptr;
  };
  void classify(thread_record& t, block_context& b, const pending_access& e);
  void check_init(thread_record& t, block_context& b, const pending_access& e, const place& where, bool write);
  void check_race(thread_record& t, block_context& b, const pending_access& e, const place& where, bool write);
  bool ordered(const access_side& a, const thread_record& t, block_context& b) const noexcept;
  void add(fault_kind kind, const char* hazard, const thread_record& t, const block_context& b,
           const pending_access& e, const access_side* other);

  device_shadow* shadow_of(const void* p);

  bool race_, init_;
  device_shadow* recent_[4] = {};  // the allocations touched last (a kernel's few arrays)
  std::uint64_t recent_releases_ = 0;  // releases() when recent_ was last known valid
  unsigned next_recent_ = 0;
  std::uint64_t start_clock_;
  std::uint64_t grid_clock_ = 0;
  mutable std::mutex mutex_;  // findings; blocks run one at a time while the checker is on
  std::vector<memory_finding> findings_;
};

/// Marks [p, p + bytes) of device memory as written by the host (copies, memset).
void note_host_write(const void* p, std::size_t bytes);

}  // namespace cusim::sim
