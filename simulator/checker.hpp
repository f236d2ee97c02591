// SPDX-License-Identifier: MIT
// The checkers' one interface, in the manner of LLVM's sanitizer tools over one runtime: the
// runners call a launch's checkers at its accesses, barriers and warp collectives, at its start
// and end (the allocation registry calls the program's at exit). Each checker is a file of its
// own (memory_checker: race and init; sync_checker; leak_checker) and words its findings through
// diagnostics. CUSIM_CHECK chooses them (checkers.hpp). With none on, a launch holds no
// checker_set, and each hook site in the hot path is one test of a null pointer.
#pragma once

#include "diagnostics.hpp"

#include <cusim/detail/source_location.hpp>
#include <cusim/error.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <vector>

namespace cusim::sim {

struct block_context;
struct launch_state;
struct thread_record;

/// What an access does. `unknown`: a checked array's element access, whose load or store the
/// memory checker tells by the change it makes.
enum class access_kind : std::uint8_t { load, store, atomic, unknown };

/// One lane's access. Blocks that checkers observe run on fibers, thread by thread: each access
/// comes as it happens, one lane at a time, with its thread and block.
struct access_event {
  void* address;
  std::size_t bytes;
  memory_space space;
  access_kind kind;
  const detail::source_location& site;
};

/// A checker of one launch. Every hook but the queries does nothing unless overridden.
class checker {
 public:
  virtual ~checker() = default;

  /// Whether it needs every access of the launch's threads (accessed, atomic_applied): the
  /// launch's blocks then run one at a time, thread by thread.
  virtual bool observes_accesses() const noexcept { return false; }
  /// Whether barriers and warp collectives must be reached by every thread they name, exited
  /// and absent ones included (a GPU counts those as arrived).
  virtual bool strict_sync() const noexcept { return false; }
  /// Whether the launch may run as loops between barriers (phases).
  virtual bool allows_phases() const noexcept { return !observes_accesses() && !strict_sync(); }

  /// Before the launch's first block (its grid, block and kernel in `launch`).
  virtual void launch_started(const launch_state&) {}
  virtual void block_started(block_context&) {}
  virtual void accessed(thread_record&, block_context&, const access_event&) {}
  /// An atomic function was applied to `p` by `t`.
  virtual void atomic_applied(thread_record&, const void*) noexcept {}
  /// `t` is about to synchronise or yield: what it did since its last pause is settled.
  virtual void thread_paused(thread_record&, block_context&) {}
  /// Every live thread of `b` waits at one __syncthreads. A fault returned fails the block
  /// instead of releasing it.
  virtual std::exception_ptr block_barrier_releasing(block_context&) { return nullptr; }
  virtual void block_barrier_released(block_context&) noexcept {}
  /// The lanes `mask` of the warp at `base` completed a __syncwarp together.
  virtual void warp_synchronised(block_context&, unsigned /*base*/, unsigned /*mask*/) noexcept {}
  /// Every block reached this_grid().sync().
  virtual void grid_synchronised() noexcept {}
  /// After the launch's last block: its findings as one kernel_error, or null.
  virtual std::exception_ptr launch_ended() { return nullptr; }

  /// A checker of the program rather than of a launch: at exit, after the allocations that
  /// outlive main have gone, the allocations still live (memory.cpp calls it).
  virtual void program_ended(std::span<const leaked_allocation>) {}
};

/// The checkers of one launch: each hook calls every checker in turn; the queries are answered
/// once, when the set is made.
class checker_set {
 public:
  explicit checker_set(std::vector<std::unique_ptr<checker>> checkers);
  ~checker_set();

  bool observes_accesses() const noexcept { return observes_accesses_; }
  bool strict_sync() const noexcept { return strict_sync_; }
  bool allows_phases() const noexcept { return allows_phases_; }

  void launch_started(const launch_state& l);
  void block_started(block_context& b);
  void accessed(thread_record& t, block_context& b, const access_event& e);
  void atomic_applied(thread_record& t, const void* p) noexcept;
  void thread_paused(thread_record& t, block_context& b);
  std::exception_ptr block_barrier_releasing(block_context& b);
  void block_barrier_released(block_context& b) noexcept;
  void warp_synchronised(block_context& b, unsigned base, unsigned mask) noexcept;
  void grid_synchronised() noexcept;
  /// The first checker's findings (the checkers are made in a fixed order).
  std::exception_ptr launch_ended();

 private:
  std::vector<std::unique_ptr<checker>> checkers_;
  bool observes_accesses_ = false, strict_sync_ = false, allows_phases_ = true;
};

}  // namespace cusim::sim
