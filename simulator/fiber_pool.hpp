// SPDX-License-Identifier: MIT
// Fiber stacks: mmap'ed, committed only when touched, with a guard region below each one so an
// overflow faults instead of corrupting memory, and pooled for reuse by one block runner.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cusim::sim {

/// Bytes of PROT_NONE guard below each stack.
inline constexpr std::size_t fiber_guard_bytes = 64 * 1024;
/// Stack tops are staggered over this many bytes, in cache lines, so that the hot top frames of
/// hundreds of fibers do not all fall into the same cache sets (their mappings are page-aligned).
/// 64 KiB spans every set of a 512 KiB 8-way L2; over 32 KiB, half of them, the tops of 1,024
/// fibers filled those sets' ways (1024-thread barrier kernel: 766-1140 ms -> 618-655 ms).
inline constexpr std::size_t fiber_colour_span = 64 * 1024;

/// The stacks of one OS thread's fibers. Not thread-safe: a block's fibers start and finish on
/// one OS thread, so a stack always returns to the pool it came from.
class stack_pool {
 public:
  stack_pool() = default;
  stack_pool(const stack_pool&) = delete;
  stack_pool& operator=(const stack_pool&) = delete;
  /// Unmaps every stack, also those of fibers still alive (the owner drops them unwound).
  ~stack_pool();

  std::size_t stack_bytes() const noexcept { return bytes_; }
  /// Later stacks have `bytes` usable bytes; cached stacks of another size are unmapped.
  /// Unmaps free stacks beyond `keep`.
  void trim(std::size_t keep) noexcept;
  void set_stack_bytes(std::size_t bytes) noexcept;
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sctx) noexcept;

 private:
  void unmap(const boost::context::stack_context& s) noexcept;

  std::size_t bytes_ = 256 * 1024;
  std::size_t mapped_ = 0;                          // stacks mapped so far, for colouring
  std::unordered_map<char*, std::pair<char*, std::size_t>> lengths_;  // guard -> the stack's mapping
  std::vector<boost::context::stack_context> free_;
};

/// The Boost.Context StackAllocator handed to each fiber: draws on a stack_pool and records
/// the stack it hands out in *last, so the owner knows the bounds of the fiber it creates.
class pooled_stack {
 public:
  pooled_stack(stack_pool* pool, boost::context::stack_context* last) noexcept : pool_(pool), last_(last) {}
  boost::context::stack_context allocate() {
    *last_ = pool_->allocate();
    return *last_;
  }
  void deallocate(boost::context::stack_context& sctx) noexcept { pool_->deallocate(sctx); }

 private:
  stack_pool* pool_;
  boost::context::stack_context* last_;
};

}  // namespace cusim::sim
