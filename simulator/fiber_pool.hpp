// SPDX-License-Identifier: MIT
// Fiber stacks: mmap'ed, committed only when touched, with a guard region below each one so an
// overflow faults instead of corrupting memory, and pooled per OS thread for reuse.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>

namespace cusim::sim {

/// Usable bytes of each fiber stack: CUSIM_STACK (KiB) or the default of 256 KiB.
std::size_t fiber_stack_bytes();
/// Bytes of PROT_NONE guard below each stack.
inline constexpr std::size_t fiber_guard_bytes = 64 * 1024;

/// A Boost.Context StackAllocator drawing on the calling OS thread's pool. It records the stack
/// it hands out in *last, so the owner knows the bounds of the fiber it creates.
class pooled_stack {
 public:
  explicit pooled_stack(boost::context::stack_context* last) noexcept : last_(last) {}
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& sctx) noexcept;

 private:
  boost::context::stack_context* last_;
};

/// Returns a stack whose fiber can never be resumed (abandoned after an overflow) to the pool.
void recycle_stack(boost::context::stack_context& sctx) noexcept;

}  // namespace cusim::sim
