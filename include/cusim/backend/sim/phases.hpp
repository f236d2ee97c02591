// SPDX-License-Identifier: MIT
// A block run as loops between its barriers (docs/internals.md, "Phases"). For a kernel whose
// __syncthreads() are all statements of its body or of loops there, with nothing else that waits
// for other threads, the nvcc driver puts a second form of the body before the first: each stretch
// of code between two barriers a loop over the block's threads, each local variable that lives
// across a barrier one slot per thread, each loop holding a barrier its condition evaluated by
// every thread. The block's first thread runs it, making each thread current in turn (threadIdx,
// the fault tags), so one fiber does the block's work with no switch. The checks are the
// same code; a barrier that cannot be one for every thread is reported. CUSIM_PHASES=0, a
// debugger's view of every thread, the opt-in checkers and CUSIM_SCHEDULE=random take fibers.
#pragma once

#ifndef CUSIM_CONFIG_INCLUDED_
#  error "this header is private to cusim: include <cusim/cusim.hpp>"
#endif

#include <cusim/backend/sim/device_runtime.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cusim::detail {

// A replicated variable's copy from its slot at the start of a thread's turn in a phase, and back
// at its end (the code the driver writes around each stretch: docs/internals.md, "Phases"). The
// slots are the simulator's memory, never the program's: with the raw-pointer checks, a value a
// register holds moves through runtime_read/runtime_write, which the instrumentation does not see
// (else each copy cost an address and an alignment check, more than a short stretch's own work).
template <class T>
CUSIM_RUNTIME_INLINE inline T slot_load(const T* slots, unsigned i) noexcept {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) return runtime_read(slots[i]);
  else return slots[i];
}
template <class T>
CUSIM_RUNTIME_INLINE inline void slot_store(T* slots, unsigned i, const T& value) noexcept {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) runtime_write(slots[i], value);
  else slots[i] = value;
}

/// Whether the calling thread's block runs as loops between barriers: true, and from then on it
/// does, when the launch allows it (phases), nothing needs the threads apart (fast_next) and the
/// caller is the block's first thread, no other started.
inline bool phases_begin() noexcept {
  sim_thread& t = this_thread();
  block_info& b = *t.block;
  if (!b.phases || !b.fast_next || b.next_unstarted != 1) return false;
  b.phased = true;
  b.next_unstarted = b.nthreads;  // every thread is taken: the kernel's own loop starts none
  return true;
}

/// The live threads' votes on the condition of a loop over a barrier, gathered in one phase.
struct phase_votes {
  unsigned stay = 0, live = 0;
  unsigned first = 0, other = 0;  ///< the first voter, and the first that voted otherwise
  bool first_stays = false, split = false;

  [[gnu::always_inline]] void add(unsigned i, bool stays) noexcept {
    if (live++ == 0) {
      first = i;
      first_stays = stays;
    } else if (stays != first_stays && !split) [[unlikely]] {
      split = true;
      other = i;
    }
    stay += stays;
  }
};

/// The block's threads while it runs in phases: which have exited, the votes on the condition of
/// a loop over a barrier, and the slots of the variables that live across barriers.
class phase_block {
 public:
  phase_block();
  ~phase_block();
  phase_block(const phase_block&) = delete;
  phase_block& operator=(const phase_block&) = delete;

  /// After a phase that voted on a loop's condition (phase_cursor::vote): whether every live
  /// thread leaves the loop (else they all stay); a split vote is a barrier divergence, reported
  /// at the loop's `site`.
  bool leave(const source_location& site);
  /// One value-initialised T per thread of the block, the block's until it ends.
  template <class T>
  T* slots() {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>,
                  "the nvcc driver replicates variables of trivial types only");
    return static_cast<T*>(zeroed(sizeof(T), alignof(T)));
  }
  /// The same, each holding `value` (a parameter the kernel writes: each thread's own copy).
  template <class T>
  T* slots(const T& value) {
    T* p = slots<T>();
    for (unsigned i = 0; i < b_.nthreads; ++i) p[i] = value;
    return p;
  }

 private:
  friend class phase_cursor;
  void* zeroed(std::size_t size, std::size_t align);

  sim_thread& t_;
  block_info& b_;
  unsigned char* gone_ = nullptr;
  phase_votes votes_;  // of the last phase that voted
};

/// One phase: the block's live threads in order, each made current in turn (threadIdx, the fault
/// tags). A local of the phase's loop, so that its fields live in registers.
class phase_cursor {
 public:
  explicit phase_cursor(phase_block& pb) noexcept : pb_(pb), t_(pb.t_), gone_(pb.gone_), n_(pb.b_.nthreads) {}
  ~phase_cursor() {
    if (votes_.live != 0) pb_.votes_ = votes_;  // the phase voted: the block's loop reads them (leave)
  }
  phase_cursor(const phase_cursor&) = delete;
  phase_cursor& operator=(const phase_cursor&) = delete;

  /// Makes the next live thread current; false after the last.
  [[gnu::always_inline]] bool next() noexcept {
    for (;;) {
      if (++i == n_) return false;
      // x and y in one word (x low), z apart; the block's shape is read only when x wraps, so
      // that a phase's loop holds few registers for itself and leaves the rest to the kernel's.
      if (i != 0 && static_cast<unsigned>(++xy_) == runtime_read(pb_.b_.block_dim.x)) {
        xy_ = (xy_ >> 32) + 1 == runtime_read(pb_.b_.block_dim.y) ? 0 : ((xy_ >> 32) + 1) << 32;
        if (xy_ == 0) ++z_;
      }
      if (runtime_read(gone_[i]) == 0) break;
    }
    const uint3 idx{static_cast<unsigned>(xy_), static_cast<unsigned>(xy_ >> 32), z_};
    // Never true (phases_begin needs fast_next, which a block observed by the checkers never
    // has); the test lets the compiler drop the same test from each checked access of the turn.
    if (accesses_observed()) [[unlikely]] fail_internal("a block observed by the checkers runs in phases");
    // The record's fields through runtime_write (no check of them under the raw-pointer checks);
    // builtins_, thread-local, is left alone by the instrumentation.
    runtime_write(t_.linear, static_cast<std::uint16_t>(i));
    runtime_write(t_.polls, std::uint16_t{0});
    runtime_write(t_.thread_idx.x, idx.x);
    runtime_write(t_.thread_idx.y, idx.y);
    runtime_write(t_.thread_idx.z, idx.z);
    builtins_.thread_idx = idx;
    return true;
  }
  /// The current thread returned from the kernel: later phases skip it.
  void exit() noexcept { gone_[i] = 1; }
  /// The current thread evaluated the condition of the loop being entered or repeated.
  [[gnu::always_inline]] void vote(bool stay) noexcept { votes_.add(i, stay); }

  unsigned i = ~0u;  ///< the current thread's linear index

 private:
  phase_block& pb_;
  sim_thread& t_;
  unsigned char* gone_;
  unsigned n_;
  std::uint64_t xy_ = 0;
  unsigned z_ = 0;
  phase_votes votes_;
};

}  // namespace cusim::detail
